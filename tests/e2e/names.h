/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The seed's names (src/sinks/animname.h) read back with animname_parse and checked field by
 * field against the JSON records of the same run: id, type, target, every property with its
 * from and to (the same float), interpolator, duration (to the microsecond the name carries),
 * spring and fling parameters (the same %.6g the record has).
 */
#ifndef ANIMTRACE_E2E_NAMES_H
#define ANIMTRACE_E2E_NAMES_H

#include <stdbool.h>

#include <json-c/json.h>

#include "sinks/animname.h"

/* name parsed whole (or up to a trailer when trailer is true); fails the test otherwise. */
struct animname names_parse(const char *name, bool trailer);

/* An animator's name at its end against its animator_end record. */
void names_check_anim_end(const char *name, json_object *end);

/* An animator's name at its start against its animator_start record: what the marker says. */
void names_check_anim_start(const char *name, json_object *start);

/* An unmarked animation's name at its end against its animation_end record. */
void names_check_animation_end(const char *name, json_object *end);

/* A DynamicAnimation's name (Spring|, Fling|, Dyn|) against its dyn_end record: the heap's
 * values where read, its fit's otherwise, its first -> last written value. */
void names_check_dyn_end(const char *name, json_object *end);

#endif
