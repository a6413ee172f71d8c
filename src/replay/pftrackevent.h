/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Perfetto TrackEvent CUJs -> the atrace markers FrameTracker writes for the same calls, so the
 * engine reads one form whatever the transport (engine/cujs.h). When android.os.Trace goes to
 * the Perfetto SDK (15+: frameworks/native/libs/tracing_perfetto tracing_perfetto.cpp,
 * traceAsyncBeginForTrack / traceInstantForTrack), and in Perfetto's own CUJ tests
 * (google/perfetto test/trace_processor/diff_tests/metrics/graphics/android_jank_cuj.py
 * @ ec5d16b1), a CUJ is a TrackEvent slice named "J<NAME>" on a track of its process, and
 * FrameTracker's FT# events are instants (or zero-length slices) named "FT#..." on that track
 * or on one named "J<NAME>". They are restated as
 *   slice begin "J<X>"            -> G|pid|J<X>|J<X>|0  (no cookie: FT#beginVsync says it)
 *   its slice end                 -> H|pid|J<X>|0
 *   instant or slice "FT#<event>" -> N|pid|J<X>|FT#<event>
 * with the pid of the track's process (its ProcessDescriptor, or its parent's, or its thread's
 * ThreadDescriptor pid) and the packet's timestamp. Every other TrackEvent is passed over.
 *
 * Field numbers (google/perfetto protos/perfetto/trace/, checked @ ec5d16b1):
 *   TracePacket { timestamp = 8; trusted_packet_sequence_id = 10; track_event = 11;
 *                 interned_data = 12; sequence_flags = 13 (1: incremental state cleared);
 *                 incremental_state_cleared = 41; timestamp_clock_id = 58;
 *                 trace_packet_defaults = 59 {timestamp_clock_id = 58}; track_descriptor = 60 }
 *   Only boottime (6, what print events are on) or an unset clock is read; the SDK's
 *   incremental clock (64) and others are counted as unread.
 *   TrackDescriptor { uuid = 1; name = 2; process = 3 {pid = 1}; thread = 4 {pid = 1};
 *                     parent_uuid = 5; static_name = 10; atrace_name = 13 }
 *   TrackEvent { type = 9 (1 slice begin, 2 slice end, 3 instant); name_iid = 10;
 *                track_uuid = 11; name = 23 }
 *   InternedData { event_names = 2 {iid = 1; name = 2} }
 *
 * A CUJ slice's begin and end pair in file order on their track (a track's events come in order
 * on its sequence); the FT# events are held and said at pfte__finish, for the CUJ slice on
 * their track that began last at or before them (a writer may put them before that slice in
 * the file, as Perfetto's test does: Perfetto sorts by time).
 *
 * Bounded: tracks (TE_TRACKS_MAX), open slices per track counted, interned names kept only
 * when they may be a CUJ's (TE_NAMES_MAX), CUJ slices and FT# events held (pftrackevent.c);
 * what cannot be restated is counted (unread).
 * Hostile input: names are copied only when they are a session and hold no '|' or newline.
 */
#ifndef ANIMTRACE_PFTRACKEVENT_H
#define ANIMTRACE_PFTRACKEVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "replay/pbwire.h"

#define TE_TRACKS_MAX (1u << 16) /* track descriptors kept */
#define TE_NAMES_MAX 256	 /* interned event names kept (only "J<" and "FT#" ones) */

struct pfte;

/* Where a restated marker goes: payload (len bytes, no newline) at ts_ns, written by tid. */
typedef void (*pfte_emit_fn)(void *ctx, uint64_t ts_ns, int32_t tid, const char *payload,
			     size_t len);

/* NULL when out of memory. */
struct pfte *pfte__new(pfte_emit_fn emit, void *ctx);
void pfte__free(struct pfte *t);

/*
 * One TracePacket's TrackEvent parts: its track_descriptor (desc), interned_data (interned),
 * trace_packet_defaults (defaults, field 59) and track_event (ev) fields (id 0 when absent), its
 * timestamp, clock (0: unset), sequence and whether that sequence's incremental state was
 * cleared. Returns 0, or -ENOMEM.
 */
struct pfte_packet {
	struct pb_field desc, interned, defaults, ev;
	uint64_t ts;
	uint32_t clock, seq;
	bool cleared;
};
int pfte__packet(struct pfte *t, const struct pfte_packet *p);

/* After the last packet: the FT# events, each said for the CUJ slice on its track that began
 * last at or before it (they may come before that slice in the file; Perfetto sorts by time). */
void pfte__finish(struct pfte *t);

/* CUJ events that could not be restated: on a track no descriptor named, on another clock than
 * boottime, a name past the interned table, damaged, or beyond the caps. */
uint64_t pfte__unread(const struct pfte *t);

#endif
