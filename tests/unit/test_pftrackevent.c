// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * TrackEvent CUJs (replay/pftrackevent.c) on hand-built Perfetto traces: restated as the
 * G/N/H markers FrameTracker writes, in Perfetto's test form (unnamed tracks under a process
 * track, FT# events as zero-length slices) and the SDK's (named tracks, interned names,
 * instants); what cannot be restated is counted.
 */
#include <string.h>

#include <criterion/criterion.h>

#include "replay/pftrace.h"
#include "pbw.h"
#include "pf_expect.h"

#define PID 1000
#define PROC_TRACK 1234

enum { BEGIN = 1, END = 2, INSTANT = 3 };

/* TracePacket { timestamp = 8, trusted_packet_sequence_id = 10, sequence_flags = 13,
 * timestamp_clock_id = 58, <id> = msg } */
struct pkt {
	uint64_t ts;
	uint32_t seq, flags, clock;
};

static void w_pkt(struct pbw *trace, struct pkt p, uint32_t id, const struct pbw *msg)
{
	struct pbw pkt = { .len = 0 };

	if (p.ts)
		w_uint(&pkt, 8, p.ts);
	w_uint(&pkt, 10, p.seq);
	if (p.flags)
		w_uint(&pkt, 13, p.flags);
	if (p.clock)
		w_uint(&pkt, 58, p.clock);
	w_msg(&pkt, id, msg);
	w_msg(trace, 1, &pkt);
}

/* TrackDescriptor { uuid = 1, name = 2, process = 3 {pid}, thread = 4 {pid, tid}, parent = 5 } */
static void w_track(struct pbw *trace, uint64_t uuid, uint64_t parent, int pid, int tid,
		    const char *name)
{
	struct pbw d = { .len = 0 }, who = { .len = 0 };

	w_uint(&d, 1, uuid);
	if (name)
		w_str(&d, 2, name);
	if (pid) {
		w_uint(&who, 1, (uint64_t)pid);
		if (tid)
			w_uint(&who, 2, (uint64_t)tid);
		w_msg(&d, tid ? 4 : 3, &who);
	}
	if (parent)
		w_uint(&d, 5, parent);
	w_pkt(trace, (struct pkt){ .seq = 1 }, 60, &d);
}

/* TrackEvent { type = 9, name_iid = 10, track_uuid = 11, name = 23 } */
static void w_event(struct pbw *trace, struct pkt p, int type, uint64_t track, const char *name,
		    uint64_t iid)
{
	struct pbw e = { .len = 0 };

	w_uint(&e, 9, (uint64_t)type);
	if (track)
		w_uint(&e, 11, track);
	if (name)
		w_str(&e, 23, name);
	if (iid)
		w_uint(&e, 10, iid);
	w_pkt(trace, p, 11, &e);
}

/* InternedData { event_names = 2 { iid = 1, name = 2 } } on sequence seq. */
static void w_intern(struct pbw *trace, uint32_t seq, uint64_t iid, const char *name)
{
	struct pbw in = { .len = 0 }, n = { .len = 0 };

	w_uint(&n, 1, iid);
	w_str(&n, 2, name);
	w_msg(&in, 2, &n);
	w_pkt(trace, (struct pkt){ .seq = seq }, 12, &in);
}

static uint64_t unread(const struct pftrace *t)
{
	struct pf_damage d;

	pftrace__damage(t, &d);
	return d.unread_events;
}

static struct pkt at(uint64_t ts)
{
	return (struct pkt){ .ts = ts, .seq = 1 };
}

/*
 * As google/perfetto test/trace_processor/diff_tests/metrics/graphics/android_jank_cuj.py
 * (@ ec5d16b1) writes them: unnamed tracks under the process's, the CUJ a slice named J<X>,
 * FrameTracker's events zero-length slices on the same track, one before the CUJ's slice in
 * the file (said for it all the same: by time, it is inside); a slice of another name on it
 * nested inside the CUJ.
 */
Test(pftrackevent, restates_perfettos_test_form_as_frametrackers_markers)
{
	struct pbw trace = { .len = 0 };
	struct pftrace *t;

	w_track(&trace, PROC_TRACK, 0, PID, 0, NULL);
	w_track(&trace, 321, PROC_TRACK, 0, 0, NULL);
	w_event(&trace, at(7), BEGIN, 321, "FT#beginVsync#10", 0); /* before it in the file */
	w_event(&trace, at(7), END, 321, NULL, 0);
	w_event(&trace, at(5), BEGIN, 321, "J<FIRST_CUJ>", 0);
	w_event(&trace, at(8), BEGIN, 321, "other", 0);
	w_event(&trace, at(9), END, 321, NULL, 0);
	w_event(&trace, at(99), INSTANT, 321, "FT#cancel#16", 0);
	w_event(&trace, at(100), END, 321, NULL, 0);
	w_event(&trace, at(101), END, 321, NULL, 0); /* nothing open: nothing said */
	t = pftrace__new(trace.b, trace.len);
	cr_assert_not_null(t);
	cr_assert_eq(pftrace__n_prints(t), 4);
	expect_print(t, 0, 5, PID, "G|1000|J<FIRST_CUJ>|J<FIRST_CUJ>|0");
	expect_print(t, 1, 7, PID, "N|1000|J<FIRST_CUJ>|FT#beginVsync#10");
	expect_print(t, 2, 99, PID, "N|1000|J<FIRST_CUJ>|FT#cancel#16");
	expect_print(t, 3, 100, PID, "H|1000|J<FIRST_CUJ>|0");
	cr_assert_eq(unread(t), 0);
	pftrace__free(t);
}

/*
 * As the SDK writes them (tracing_perfetto's traceAsyncBeginForTrack / traceInstantForTrack):
 * named tracks (the CUJ's and its events' may differ, the name joins them), interned names
 * per sequence, a thread track's thread; a sequence's cleared state forgets its names.
 */
Test(pftrackevent, restates_the_sdks_named_tracks_and_interned_names)
{
	struct pbw trace = { .len = 0 };
	struct pftrace *t;

	w_track(&trace, PROC_TRACK, 0, PID, 0, NULL);
	w_track(&trace, 77, PROC_TRACK, 0, 0, "J<SHADE_ROW_SWIPE>");
	w_track(&trace, 78, PROC_TRACK, 0, 0, "J<SHADE_ROW_SWIPE>");
	w_track(&trace, 79, 0, PID, PID + 20, NULL);
	w_intern(&trace, 2, 5, "J<SHADE_ROW_SWIPE>");
	w_intern(&trace, 3, 5, "FT#cancel#16");
	w_event(&trace, (struct pkt){ .ts = 10, .seq = 2 }, BEGIN, 77, NULL, 5);
	w_event(&trace, (struct pkt){ .ts = 11, .seq = 3 }, INSTANT, 78, NULL, 5);
	w_event(&trace, (struct pkt){ .ts = 12, .seq = 2 }, END, 77, NULL, 0);
	w_event(&trace, at(13), BEGIN, 79, "J<QS_EXPAND>", 0);
	w_event(&trace, at(14), END, 79, NULL, 0);
	w_pkt(&trace, (struct pkt){ .seq = 3, .flags = 1 }, 12, &(struct pbw){ .len = 0 });
	w_event(&trace, (struct pkt){ .ts = 15, .seq = 3 }, INSTANT, 78, NULL, 5);
	t = pftrace__new(trace.b, trace.len);
	cr_assert_not_null(t);
	cr_assert_eq(pftrace__n_prints(t), 5);
	expect_print(t, 0, 10, PID, "G|1000|J<SHADE_ROW_SWIPE>|J<SHADE_ROW_SWIPE>|0");
	expect_print(t, 1, 11, PID, "N|1000|J<SHADE_ROW_SWIPE>|FT#cancel#16");
	expect_print(t, 2, 12, PID, "H|1000|J<SHADE_ROW_SWIPE>|0");
	expect_print(t, 3, 13, PID + 20, "G|1000|J<QS_EXPAND>|J<QS_EXPAND>|0");
	expect_print(t, 4, 14, PID + 20, "H|1000|J<QS_EXPAND>|0");
	cr_assert_eq(unread(t), 0, "the last instant's name is gone with its state: no CUJ's");
	pftrace__free(t);
}

/* What cannot be restated is counted, never guessed: a track no descriptor named, one of no
 * process, another clock (the packet's, or its sequence's defaults: the SDK's incremental
 * clock), a name that would break the marker, an FT# event of no CUJ. */
Test(pftrackevent, counts_what_it_cannot_restate)
{
	struct pbw trace = { .len = 0 }, defaults = { .len = 0 };
	struct pftrace *t;

	w_track(&trace, PROC_TRACK, 0, PID, 0, NULL);
	w_track(&trace, 50, 0, 0, 0, NULL);
	w_track(&trace, 51, PROC_TRACK, 0, 0, NULL);
	w_event(&trace, at(1), BEGIN, 9999, "J<A>", 0);
	w_event(&trace, at(2), BEGIN, 50, "J<B>", 0);
	w_event(&trace, (struct pkt){ .ts = 3, .seq = 1, .clock = 3 }, BEGIN, 51, "J<C>", 0);
	w_event(&trace, at(4), BEGIN, 51, "J<D|x>", 0);
	w_event(&trace, at(5), INSTANT, 51, "FT#end#0", 0);
	w_uint(&defaults, 58, 64);
	w_pkt(&trace, (struct pkt){ .seq = 4 }, 59, &defaults);
	w_event(&trace, (struct pkt){ .ts = 6, .seq = 4 }, BEGIN, 51, "J<E>", 0);
	w_event(&trace, at(7), BEGIN, 51, "not a CUJ", 0);
	w_event(&trace, at(8), BEGIN, 0, "J<F>", 0); /* the sequence's own track: none */
	t = pftrace__new(trace.b, trace.len);
	cr_assert_not_null(t);
	cr_assert_eq(pftrace__n_prints(t), 0);
	cr_assert_eq(unread(t), 6);
	pftrace__free(t);
}
