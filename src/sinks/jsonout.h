/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* JSON values for the sinks that write JSON (sink_json, sink_trace). */
#ifndef ANIMTRACE_JSONOUT_H
#define ANIMTRACE_JSONOUT_H

#include <stdio.h>

/* s as a JSON string: RFC 8259 escapes, and DEL and the C1 controls (U+007F..U+009F) as
 * \u escapes too, so that no control byte reaches a terminal that shows the JSON; invalid
 * UTF-8 bytes become U+FFFD. */
void json_put_str(FILE *out, const char *s);

/* v with %.9g, which parses back to the same float; NaN and infinities as null. */
void json_put_float(FILE *out, float v);

/*
 * For the sinks' callbacks: 0, or -errno once a write to out has failed (ferror; EIO when
 * errno does not say why). Callers clear errno before writing for an accurate errno.
 */
int out_status(FILE *out);

#endif
