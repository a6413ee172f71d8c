/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --trace-out: the Chrome Trace Event JSON format (array form), which the Perfetto UI,
 * trace processor and chrome://tracing load. Written incrementally and flushed after
 * every record, with the separator before each record: a file cut off after any record
 * (no closing ']', which those viewers accept missing) still loads, and appending ']'
 * makes it strict JSON.
 *
 * Records: process_name metadata ("M") per process; each animator as an async slice
 * ("b" then "e", cat "animator", id = cookie), each unmarked animation likewise (cat
 * "animation"), written whole when it ends and named as the seed's tracers named them
 * (sinks/animname.h: Anim|42|Obj|NotificationRow@3f2c|alpha:1->0|FastOutSlowIn|300ms,
 * Spring|..., Fling|...); an animator cancelled before it started as an instant of that name;
 * each frame as a complete event ("X") on its UI thread; property values as counters ("C")
 * named V|<node>|<property>; notes as global instants ("i").
 * Timestamps are microseconds with exactly three decimals, from integer nanoseconds.
 */
#ifndef ANIMTRACE_SINK_TRACE_H
#define ANIMTRACE_SINK_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "model/model.h"

struct sink_trace;

/* Writes and flushes the opening '['. Returns NULL and sets errno (EIO, ENOSPC, ...). out must
 * outlive the sink. */
struct sink_trace *sink_trace__new(FILE *out);

/* The engine-facing view of t, valid until sink_trace__free (next to the box or JSON sink:
 * sinks/fanout.h). */
struct sink sink_trace__sink(struct sink_trace *t);

/*
 * One counter sample (ph "C") on process pid, e.g. name "V|ImageView|alpha".
 * Returns 0, or -EINVAL for a NaN or infinite value (JSON has no such numbers).
 */
int sink_trace__counter(struct sink_trace *t, uint64_t ts_ns, uint32_t pid, const char *name,
			double value);

/*
 * Writes the closing ']' and frees t (not the FILE). Accepts NULL. Returns 0, or -errno
 * when any write to the FILE failed (that one or an earlier one).
 */
int sink_trace__free(struct sink_trace *t);

#endif
