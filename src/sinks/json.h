/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * JSON lines sink: one object per record with keys in a fixed order; strings are escaped
 * per RFC 8259 and invalid UTF-8 becomes U+FFFD, so every line parses.
 */
#ifndef ANIMTRACE_SINK_JSON_H
#define ANIMTRACE_SINK_JSON_H

#include <stdio.h>

#include "model/model.h"

struct sink_json;

/* Returns NULL and sets errno. out must outlive the sink. */
struct sink_json *sink_json__new(FILE *out);

/* The engine-facing view of j, valid until sink_json__free. */
struct sink sink_json__sink(struct sink_json *j);

void sink_json__free(struct sink_json *j);

#endif
