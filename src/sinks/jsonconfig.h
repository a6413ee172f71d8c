/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * An animator's configuration (anim.config) as JSON, for the sinks that describe animators:
 * ,"config":{"duration_ms":300,"start_delay_ms":0,"repeat_count":-1,"repeat_mode":"REVERSE",
 * "interpolator":"AccelerateDecelerate","values":[{"property":"alpha","type":"float","from":1,
 * "to":0}],"values_left_out":0,"target_class":"com.example.Row","target_node":"0x7b0a51c0"}
 * with null for each value the reader could not tell, and "config":null when nothing was read.
 * A colour (type "argb") is a string "0xff00ff00"; float and int values are numbers.
 */
#ifndef ANIMTRACE_JSONCONFIG_H
#define ANIMTRACE_JSONCONFIG_H

#include <stdio.h>

#include "model/model.h"

/* Writes ,"config":... for c. */
void json_put_config(FILE *out, const struct anim_config *c);

#endif
