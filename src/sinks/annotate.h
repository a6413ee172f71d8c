/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --annotate: what the engine learnt, written back into trace_marker as atrace markers that
 * carry the TARGET's tgid, so a Perfetto or atrace capture running at the same time shows
 * it on the target process. Perfetto's systrace parser files G/H/N under (payload tgid,
 * track name) and C under (payload tgid, counter name); the writing thread only becomes an
 * arg (trace_processor/importers/systrace/systrace_parser.cc, ParseSystracePoint).
 *
 * Markers, one write() each, at most AT_MARKER_MAX bytes (wire.h: ATRACE_MESSAGE_LENGTH), named
 * with the seed tracers' names (sinks/animname.h) whose '|' are U+00A6 ('¦'): Perfetto's parser
 * cuts a G, N or C name at its first '|' (systrace_parser.h, ParseSystraceTracePoint: each
 * field is read up to the next '|'), and a B, the one phase that keeps '|', is a slice of the
 * writing thread (animtrace's), which cannot stand for an async animator of another process.
 *   G|tgid|animtrace|Anim¦<id>¦<Obj|Val>¦?¦<prop>:?->?¦?¦?|<id>    an animator starts
 *   N|tgid|animtrace|Anim¦<id>¦...¦<interp>¦<ms>ms¦end <reason> <n> frames <n> dropped
 *                                                ... and ends: its whole name, then its end
 *   H|tgid|animtrace|<id>                                          closing its slice
 *   G|tgid|animtrace|Anim¦<n>¦Unmarked¦<node>¦<prop>:<from>->?¦?¦?|<2^32 + n>
 *   N|tgid|animtrace|Spring¦<n>¦...¦end ..., H|tgid|animtrace|<2^32 + n>
 *                                   an unmarked animation (spring, fling, curve): its kind is
 *                                   known at its end; cookies past 2^32, where no animator's
 *                                   identityHashCode is
 *   G|tgid|animtrace|Spring¦<n>¦<node>¦<prop>¦s=..,d=..¦<from>-><to>|<2^33 + n>
 *   N|tgid|animtrace|Fling¦<n>¦...¦end <reason> <n> frames probed, H|tgid|animtrace|<2^33 + n>
 *                                   a DynamicAnimation the ART probes followed: its start()
 *                                   and its end (Dyn¦<n>¦... at a start not yet known to be a
 *                                   spring: a fling is known at its end); "probed" tells its
 *                                   id from an unmarked animation's (both count from 1). A run
 *                                   first seen in a frame has its G written with its end: the
 *                                   trace export (--trace-out) has its exact start
 *   N|tgid|animtrace|finding: <kind>[ animation] #<id>[,#<id>]...: <sentence>
 *                                   a finding (engine/findings.h), an instant on the track,
 *                                   inside the slice of the animator it concerns ("animation":
 *                                   the ids are unmarked animations')
 *   C|tgid|V¦<node>¦<prop>|<value>  each changed property of each node, once per frame
 *                                   (x1000 for alpha, scale, rotation; rounded px else)
 *   N|tgid|animtrace|Jank <kind> [<seq>] <ms>ms: <ui chain> / RenderThread: <chain>
 * Jank names never hold '|' (becomes '/') nor a newline (becomes ' '). The engine recognises
 * these markers when a capture holding them is replayed (model.h: struct annotation).
 *
 * An ordinary sink, next to the others behind the fan-out (sinks/fanout.h). A failed
 * annotation never fails the session: writing stops with one call of the warn callback.
 * The module reads the clock only to measure its own delay, from each record's src_ts_ns.
 */
#ifndef ANIMTRACE_SINK_ANNOTATE_H
#define ANIMTRACE_SINK_ANNOTATE_H

#include <stddef.h>
#include <stdint.h>

#include "animtrace/wire.h"
#include "model/model.h"

#define ANNOTATE_MARKER_MAX AT_MARKER_MAX
#define ANNOTATE_ANIMATION_COOKIE (1LL << 32) /* + an unmarked animation's id */
#define ANNOTATE_DYN_COOKIE (2LL << 32)	      /* + a DynamicAnimation's id */

struct sink_annotate;

/* Called once, when annotating stops for good: err is -errno, path the trace_marker. */
typedef void (*annotate_warn_fn)(void *ctx, int err, const char *path);

/* Returns NULL and sets errno. Writes nothing until sink_annotate__open. */
struct sink_annotate *sink_annotate__new(annotate_warn_fn warn, void *ctx);

/* Opens path (trace_marker) for writing; on failure annotating stops (warn). 0 or -errno. */
int sink_annotate__open(struct sink_annotate *a, const char *path);

/* Stops annotating (warn) when path no longer names the file opened (tracefs unmounted). */
void sink_annotate__check(struct sink_annotate *a);

/* The engine-facing view of a, valid until sink_annotate__free. Its summary_fill closes the
 * slices still open and sets the summary's annot_delay (valid until sink_annotate__free). */
struct sink sink_annotate__sink(struct sink_annotate *a);

/* The delay of every annotation written so far (p50/p99 of a reservoir sample, exact max). */
void sink_annotate__delay(const struct sink_annotate *a, struct annot_delay *out);

/* Writes the kernel refused because tracing was off (tracing_on 0: EBADF). */
uint64_t sink_annotate__unrecorded(const struct sink_annotate *a);

/* Closes the file and frees a; accepts NULL. */
void sink_annotate__free(struct sink_annotate *a);

/* ---- formatting (pure; each returns the marker's length, 0 when there is none) ---- */

/* The counter value of prop: value x 1000 (alpha, scale, rotation), else rounded pixels. */
int64_t annotate_scale(enum view_prop prop, float value);

/* src as a marker's name in dst (cap bytes): escaped as on a terminal (common/termesc.h: no
 * control byte reaches trace_marker, where a newline would forge an event) and '|' as '/';
 * cut between whole characters. Returns its length. */
size_t annotate_sanitize(char *dst, size_t cap, const char *src);

size_t annotate_fmt_start(char *buf, size_t cap, const struct anim *a);		       /* G */
size_t annotate_fmt_end(char *buf, size_t cap, const struct anim *a);		       /* N */
size_t annotate_fmt_close(char *buf, size_t cap, const struct anim *a);		       /* H */
size_t annotate_fmt_animation_start(char *buf, size_t cap, const struct animation *a); /* G */
size_t annotate_fmt_animation_end(char *buf, size_t cap, const struct animation *a);   /* N */
size_t annotate_fmt_animation_close(char *buf, size_t cap, const struct animation *a); /* H */
size_t annotate_fmt_counter(char *buf, size_t cap, uint32_t pid, const struct node_props *np,
			    enum view_prop prop);				/* C */
size_t annotate_fmt_jank(char *buf, size_t cap, const struct jank *j);		/* N */
size_t annotate_fmt_dyn_start(char *buf, size_t cap, const struct dyn_anim *d); /* G */
size_t annotate_fmt_dyn_end(char *buf, size_t cap, const struct dyn_anim *d);	/* N */
size_t annotate_fmt_dyn_close(char *buf, size_t cap, const struct dyn_anim *d); /* H */
size_t annotate_fmt_finding(char *buf, size_t cap, const struct finding *f);	/* N */
size_t annotate_fmt_cuj(char *buf, size_t cap, const struct cuj *c);		/* N */

#endif
