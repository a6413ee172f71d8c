// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * FrameTimeline in the Perfetto reader, on hand-built bytes: every field of each event,
 * unknown fields and wrong wire types, missing required fields, truncation, and the
 * pairing of starts with their FrameEnd (out of order, unpaired, evicted, compressed).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <zlib.h>

#include "replay/pftrace.h"
#include "pbw.h"

/* FrameTimelineEvent { <kind> = the start or end message } */
static struct pbw w_event(unsigned kind, const struct pbw *msg)
{
	struct pbw ev = { .len = 0 };

	w_msg(&ev, kind, msg);
	return ev;
}

static struct pbw display_start(unsigned kind, int64_t cookie, int64_t token)
{
	struct pbw m = { .len = 0 };

	w_uint(&m, 1, (uint64_t)cookie);
	w_uint(&m, 2, (uint64_t)token);
	w_uint(&m, 3, 513);
	return w_event(kind, &m);
}

static struct pbw surface_start(unsigned kind, int64_t cookie, int64_t token, const char *layer)
{
	struct pbw m = { .len = 0 };

	w_uint(&m, 1, (uint64_t)cookie);
	w_uint(&m, 2, (uint64_t)token);
	w_uint(&m, 3, (uint64_t)token + 20);
	w_uint(&m, 4, 2348);
	w_str(&m, 5, layer);
	return w_event(kind, &m);
}

static struct pbw frame_end(int64_t cookie)
{
	struct pbw m = { .len = 0 };

	w_uint(&m, 1, (uint64_t)cookie);
	return w_event(FT_FRAME_END, &m);
}

/* TracePacket { timestamp = 8, timestamp_clock_id = 58, frame_timeline_event = 76 } */
static void w_tl_packet(struct pbw *trace, uint64_t ts, uint32_t clock, const struct pbw *ev)
{
	struct pbw pkt = { .len = 0 };

	w_uint(&pkt, 10, 4); /* trusted_packet_sequence_id: ignored */
	w_uint(&pkt, 8, ts);
	if (clock)
		w_uint(&pkt, 58, clock);
	w_msg(&pkt, 76, ev);
	w_msg(trace, 1, &pkt);
}

static void decode_ok(const struct pbw *ev, struct ft_event *out)
{
	int rc = pftrace_timeline_decode(ev->b, ev->len, out);

	cr_assert_eq(rc, 0, "decode: %d", rc);
}

Test(pftrace_timeline, decodes_every_field_of_an_actual_surface_frame_start)
{
	struct pbw m = { .len = 0 }, ev;
	struct ft_event e;

	w_uint(&m, 1, 75186);
	w_uint(&m, 2, 191058);
	w_uint(&m, 3, 191080);
	w_uint(&m, 4, 2348);
	w_str(&m, 5, "TX - Splash Screen#1595");
	w_uint(&m, 6, FT_PRESENT_LATE);
	w_uint(&m, 7, 0);
	w_uint(&m, 8, 1);
	w_uint(&m, 9, FT_JANK_APP_DEADLINE_MISSED | FT_JANK_BUFFER_STUFFING);
	w_uint(&m, 10, FT_PREDICTION_EXPIRED);
	w_uint(&m, 11, 1);
	w_uint(&m, 12, FT_SEVERITY_PARTIAL);
	w_varint(&m, 13 << 3 | 5); /* present_delay_millis = 1.0f, a fixed32: skipped */
	memcpy(m.b + m.len, "\x00\x00\x80\x3f", 4);
	m.len += 4;
	w_uint(&m, 99, 7);	   /* unknown varint */
	w_str(&m, 100, "unknown"); /* unknown bytes */
	ev = w_event(FT_ACTUAL_SURFACE, &m);
	decode_ok(&ev, &e);
	cr_assert_eq(e.kind, FT_ACTUAL_SURFACE);
	cr_assert_eq(e.cookie, 75186);
	cr_assert_eq(e.token, 191058);
	cr_assert_eq(e.display_token, 191080);
	cr_assert_eq(e.pid, 2348);
	cr_assert(strv_eq(e.layer, "TX - Splash Screen#1595"));
	cr_assert_eq(e.present_type, FT_PRESENT_LATE);
	cr_assert(!e.on_time_finish);
	cr_assert(e.gpu_composition);
	cr_assert_eq(e.jank_type, FT_JANK_APP_DEADLINE_MISSED | FT_JANK_BUFFER_STUFFING);
	cr_assert_eq(e.prediction_type, FT_PREDICTION_EXPIRED);
	cr_assert(e.is_buffer && e.has_is_buffer);
	cr_assert_eq(e.jank_severity, FT_SEVERITY_PARTIAL);
}

Test(pftrace_timeline, decodes_every_field_of_an_actual_display_frame_start)
{
	struct pbw m = { .len = 0 }, ev;
	struct ft_event e;

	w_uint(&m, 1, 75178);
	w_uint(&m, 2, 191056);
	w_uint(&m, 3, 513);
	w_uint(&m, 4, FT_PRESENT_ON_TIME);
	w_uint(&m, 5, 1);
	w_uint(&m, 6, 1);
	w_uint(&m, 7, FT_JANK_SF_CPU_DEADLINE_MISSED);
	w_uint(&m, 8, FT_PREDICTION_VALID);
	w_uint(&m, 9, FT_SEVERITY_FULL);
	w_uint(&m, 15, 3); /* latched_unsignaled_count: not read */
	ev = w_event(FT_ACTUAL_DISPLAY, &m);
	decode_ok(&ev, &e);
	cr_assert_eq(e.kind, FT_ACTUAL_DISPLAY);
	cr_assert_eq(e.cookie, 75178);
	cr_assert_eq(e.token, 191056);
	cr_assert_eq(e.pid, 513);
	cr_assert_eq(e.display_token, 0);
	cr_assert_eq(e.layer.len, 0);
	cr_assert_eq(e.present_type, FT_PRESENT_ON_TIME);
	cr_assert(e.on_time_finish && e.gpu_composition);
	cr_assert_eq(e.jank_type, FT_JANK_SF_CPU_DEADLINE_MISSED);
	cr_assert_eq(e.prediction_type, FT_PREDICTION_VALID);
	cr_assert_eq(e.jank_severity, FT_SEVERITY_FULL);
	cr_assert(!e.has_is_buffer);
}

Test(pftrace_timeline, decodes_expected_frames_and_frame_ends)
{
	struct pbw ed = display_start(FT_EXPECTED_DISPLAY, 1, 100);
	struct pbw es = surface_start(FT_EXPECTED_SURFACE, 2, 101, "layer#1");
	struct pbw end = frame_end(-5);
	struct ft_event e;

	decode_ok(&ed, &e);
	cr_assert_eq(e.kind, FT_EXPECTED_DISPLAY);
	cr_assert(e.cookie == 1 && e.token == 100 && e.pid == 513);
	decode_ok(&es, &e);
	cr_assert_eq(e.kind, FT_EXPECTED_SURFACE);
	cr_assert(e.cookie == 2 && e.token == 101 && e.display_token == 121 && e.pid == 2348);
	cr_assert(strv_eq(e.layer, "layer#1"));
	cr_assert_eq(e.present_type, 0);
	decode_ok(&end, &e);
	cr_assert_eq(e.kind, FT_FRAME_END);
	cr_assert_eq(e.cookie, -5); /* int64 as a 10-byte varint */
}

Test(pftrace_timeline, reads_negative_pids_and_saturates_enums_out_of_range)
{
	struct pbw m = { .len = 0 }, ev;
	struct ft_event e;

	w_uint(&m, 1, 1);
	w_uint(&m, 2, 2);
	w_uint(&m, 3, (uint64_t)(int64_t)-1);
	w_uint(&m, 4, 300);
	w_uint(&m, 8, 1000);
	ev = w_event(FT_ACTUAL_DISPLAY, &m);
	decode_ok(&ev, &e);
	cr_assert_eq(e.pid, -1);
	cr_assert_eq(e.present_type, 255);
	cr_assert_eq(e.prediction_type, 255);
	cr_assert_str_eq(ft_present_perfetto(e.present_type), "Unspecified Present");
}

Test(pftrace_timeline, infers_jank_severity_as_trace_processor_does_when_absent)
{
	struct pbw m = { .len = 0 }, ev;
	struct ft_event e;

	w_uint(&m, 1, 1);
	w_uint(&m, 2, 2);
	w_uint(&m, 3, 513);
	w_uint(&m, 7, FT_JANK_NONE);
	ev = w_event(FT_ACTUAL_DISPLAY, &m);
	decode_ok(&ev, &e);
	cr_assert_eq(e.jank_severity, FT_SEVERITY_NONE);
	w_uint(&m, 7, FT_JANK_APP_DEADLINE_MISSED); /* the last value of a field counts */
	ev = w_event(FT_ACTUAL_DISPLAY, &m);
	decode_ok(&ev, &e);
	cr_assert_eq(e.jank_type, FT_JANK_APP_DEADLINE_MISSED);
	cr_assert_eq(e.jank_severity, FT_SEVERITY_UNKNOWN);
}

Test(pftrace_timeline, skips_known_fields_of_an_unexpected_wire_type)
{
	struct pbw m = { .len = 0 }, ev;
	struct ft_event e;

	w_uint(&m, 1, 9);
	w_uint(&m, 2, 10);
	w_uint(&m, 3, 11);
	w_uint(&m, 4, 2348);
	w_uint(&m, 5, 42);    /* layer_name as a varint */
	w_str(&m, 6, "late"); /* present_type as bytes */
	ev = w_event(FT_ACTUAL_SURFACE, &m);
	decode_ok(&ev, &e);
	cr_assert_eq(e.layer.len, 0);
	cr_assert_eq(e.present_type, 0);
	cr_assert_eq(e.pid, 2348);
}

Test(pftrace_timeline, takes_the_last_event_of_the_oneof)
{
	struct pbw ev = display_start(FT_EXPECTED_DISPLAY, 1, 100), end = frame_end(7);
	struct ft_event e;

	memcpy(ev.b + ev.len, end.b, end.len);
	ev.len += end.len;
	decode_ok(&ev, &e);
	cr_assert_eq(e.kind, FT_FRAME_END);
	cr_assert_eq(e.cookie, 7);
	cr_assert_eq(e.token, 0);
}

Test(pftrace_timeline, rejects_events_without_a_field_trace_processor_requires)
{
	static const struct {
		unsigned kind, skip;
	} cases[] = {
		{ FT_EXPECTED_DISPLAY, 1 }, { FT_EXPECTED_DISPLAY, 2 }, { FT_EXPECTED_DISPLAY, 3 },
		{ FT_ACTUAL_DISPLAY, 1 },   { FT_ACTUAL_DISPLAY, 3 },	{ FT_EXPECTED_SURFACE, 3 },
		{ FT_EXPECTED_SURFACE, 4 }, { FT_ACTUAL_SURFACE, 2 },	{ FT_ACTUAL_SURFACE, 3 },
		{ FT_FRAME_END, 1 },
	};
	struct ft_event e;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool surface = cases[i].kind == FT_EXPECTED_SURFACE ||
			       cases[i].kind == FT_ACTUAL_SURFACE;
		unsigned n = cases[i].kind == FT_FRAME_END ? 1 : surface ? 4 : 3;
		struct pbw m = { .len = 0 }, ev;

		for (unsigned id = 1; id <= n; id++)
			if (id != cases[i].skip)
				w_uint(&m, id, 5);
		w_str(&m, 50, "padding");
		ev = w_event(cases[i].kind, &m);
		cr_assert_eq(pftrace_timeline_decode(ev.b, ev.len, &e), -EBADMSG,
			     "kind %u without field %u", cases[i].kind, cases[i].skip);
	}
}

Test(pftrace_timeline, says_enomsg_for_a_message_without_an_event)
{
	struct pbw m = { .len = 0 };
	struct ft_event e;

	cr_assert_eq(pftrace_timeline_decode(m.b, 0, &e), -ENOMSG);
	w_uint(&m, 1, 3);  /* the right number, the wrong wire type */
	w_str(&m, 6, "x"); /* a field after frame_end */
	cr_assert_eq(pftrace_timeline_decode(m.b, m.len, &e), -ENOMSG);
}

Test(pftrace_timeline, says_einval_for_every_truncation_of_an_event)
{
	struct pbw ev = surface_start(FT_ACTUAL_SURFACE, 75186, 191058, "TX - layer#1");
	struct ft_event e;

	for (size_t n = 1; n < ev.len; n++) {
		uint8_t *copy = malloc(n);

		cr_assert_not_null(copy);
		memcpy(copy, ev.b, n);
		cr_assert_eq(pftrace_timeline_decode(copy, n, &e), -EINVAL, "cut at %zu", n);
		free(copy);
	}
}

/* ---- pairing, in whole traces ------------------------------------------------------ */

static struct ft_frame frame_at(const struct pftrace *t, size_t i)
{
	struct ft_frame f;

	cr_assert_eq(pftrace__frame(t, i, &f), 0, "frame %zu missing", i);
	return f;
}

static struct pf_timeline_stats stats_of(const struct pftrace *t)
{
	struct pf_timeline_stats st;

	pftrace__timeline_stats(t, &st);
	return st;
}

/* Two frames whose starts and ends interleave, the later-written one starting first. */
static struct pbw two_frames(void)
{
	struct pbw trace = { .len = 0 }, a, b, ea, eb;

	a = surface_start(FT_ACTUAL_SURFACE, 11, 191058, "TX - Splash#1");
	b = display_start(FT_EXPECTED_DISPLAY, 12, 191080);
	ea = frame_end(11);
	eb = frame_end(12);
	w_tl_packet(&trace, 2000, FT_CLOCK_BOOTTIME, &a);
	w_tl_packet(&trace, 1000, FT_CLOCK_BOOTTIME, &b);
	w_tl_packet(&trace, 3000, 0, &ea);
	w_tl_packet(&trace, 4000, 0, &eb);
	return trace;
}

Test(pftrace_timeline, pairs_each_start_with_the_end_of_its_cookie_in_start_order)
{
	struct pbw trace = two_frames();
	struct pftrace *t = pftrace__new(trace.b, trace.len);
	struct pf_timeline_stats st;
	struct ft_frame f;

	cr_assert_not_null(t);
	memset(trace.b, 0, sizeof(trace.b)); /* the layer name must be a copy */
	cr_assert_eq(pftrace__n_frames(t), 2);
	f = frame_at(t, 0);
	cr_assert_eq(f.ev.kind, FT_EXPECTED_DISPLAY);
	cr_assert(f.ended && f.start_ns == 1000 && f.end_ns == 4000);
	cr_assert_eq(f.ev.token, 191080);
	cr_assert_eq(f.clock_id, FT_CLOCK_BOOTTIME);
	f = frame_at(t, 1);
	cr_assert_eq(f.ev.kind, FT_ACTUAL_SURFACE);
	cr_assert(f.ended && f.start_ns == 2000 && f.end_ns == 3000);
	cr_assert(strv_eq(f.ev.layer, "TX - Splash#1"), "\"%.*s\"", (int)f.ev.layer.len,
		  f.ev.layer.p);
	cr_assert_eq(pftrace__frame(t, 2, &f), -ERANGE);
	st = stats_of(t);
	cr_assert_eq(st.events, 4);
	cr_assert_eq(st.frames, 2);
	cr_assert_eq(st.unended + st.evicted + st.unpaired_ends + st.bad + st.dropped, 0);
	cr_assert_eq(st.other_clock, 0);
	pftrace__free(t);
}

Test(pftrace_timeline, takes_a_timestamp_written_after_the_event)
{
	struct pbw trace = { .len = 0 }, pkt = { .len = 0 }, ev = frame_end(1);
	struct pbw start = display_start(FT_EXPECTED_DISPLAY, 1, 5);
	struct pftrace *t;

	w_tl_packet(&trace, 10, 0, &start);
	w_msg(&pkt, 76, &ev);
	w_uint(&pkt, 58, 3); /* CLOCK_MONOTONIC, for the end: only a start's clock is kept */
	w_uint(&pkt, 8, 25);
	w_msg(&trace, 1, &pkt);
	t = pftrace__new(trace.b, trace.len);
	cr_assert_not_null(t);
	cr_assert_eq(frame_at(t, 0).end_ns, 25);
	cr_assert_eq(frame_at(t, 0).clock_id, 0);
	pftrace__free(t);
}

Test(pftrace_timeline, counts_frames_on_another_clock)
{
	struct pbw trace = { .len = 0 }, ev = display_start(FT_ACTUAL_DISPLAY, 1, 5);
	struct pftrace *t;

	w_tl_packet(&trace, 10, 3, &ev);
	t = pftrace__new(trace.b, trace.len);
	cr_assert_not_null(t);
	cr_assert_eq(frame_at(t, 0).clock_id, 3);
	cr_assert_eq(stats_of(t).other_clock, 1);
	pftrace__free(t);
}

Test(pftrace_timeline, keeps_unended_starts_and_counts_unpaired_ends)
{
	struct pbw trace = { .len = 0 }, s = display_start(FT_ACTUAL_DISPLAY, 1, 5);
	struct pbw e1 = frame_end(99), e2 = frame_end(1), e3 = frame_end(1);
	struct pbw s2 = display_start(FT_EXPECTED_DISPLAY, 2, 6);
	struct pf_timeline_stats st;
	struct pftrace *t;

	w_tl_packet(&trace, 10, 0, &s);
	w_tl_packet(&trace, 11, 0, &e1); /* no such start */
	w_tl_packet(&trace, 12, 0, &e2);
	w_tl_packet(&trace, 13, 0, &e3); /* its start already ended */
	w_tl_packet(&trace, 14, 0, &s2); /* the trace ends before its end */
	t = pftrace__new(trace.b, trace.len);
	cr_assert_not_null(t);
	cr_assert_eq(pftrace__n_frames(t), 2);
	cr_assert(frame_at(t, 0).ended);
	cr_assert(!frame_at(t, 1).ended);
	cr_assert_eq(frame_at(t, 1).end_ns, 0);
	cr_assert_eq(frame_at(t, 1).ev.token, 6);
	st = stats_of(t);
	cr_assert_eq(st.unpaired_ends, 2);
	cr_assert_eq(st.unended, 1);
	cr_assert_eq(st.frames, 2);
	pftrace__free(t);
}

/* A trace of n display starts, cookies 0..n-1, and then the ends of the given cookies. */
static uint8_t *many_starts(size_t n, const int64_t *ends, size_t n_ends, size_t *len)
{
	uint8_t *buf = malloc((n + n_ends) * 64);
	struct pbw pkt, ev;

	cr_assert_not_null(buf);
	*len = 0;
	for (size_t i = 0; i < n + n_ends; i++) {
		pkt.len = 0;
		ev = i < n ? display_start(FT_EXPECTED_DISPLAY, (int64_t)i, 1000 + (int64_t)i) :
			     frame_end(ends[i - n]);
		w_tl_packet(&pkt, 100 + i, 0, &ev);
		cr_assert_leq(pkt.len, 64);
		memcpy(buf + *len, pkt.b, pkt.len);
		*len += pkt.len;
	}
	return buf;
}

Test(pftrace_timeline, evicts_the_oldest_open_frame_when_1024_wait_for_their_end)
{
	const int64_t ends[] = { 0, 1, 1024 };
	size_t len;
	uint8_t *buf = many_starts(1025, ends, 3, &len);
	struct pftrace *t = pftrace__new(buf, len);
	struct pf_timeline_stats st;
	struct ft_frame f;

	free(buf);
	cr_assert_not_null(t);
	st = stats_of(t);
	cr_assert_eq(st.frames, 1025);
	cr_assert_eq(st.evicted, 1);
	cr_assert_eq(st.unpaired_ends, 1, "the evicted frame's end");
	cr_assert_eq(st.unended, 1023, "all but cookies 1 and 1024");
	f = frame_at(t, 0);
	cr_assert(f.ev.cookie == 0 && !f.ended);
	f = frame_at(t, 1);
	cr_assert(f.ev.cookie == 1 && f.ended && f.end_ns == 100 + 1025 + 1);
	f = frame_at(t, 1024);
	cr_assert(f.ev.cookie == 1024 && f.ended);
	pftrace__free(t);
}

Test(pftrace_timeline, counts_damaged_events_and_bad_timestamps_and_reads_on)
{
	struct pbw trace = { .len = 0 }, bad = { .len = 0 }, nothing = { .len = 0 };
	struct pbw ok = display_start(FT_ACTUAL_DISPLAY, 1, 5);
	struct pftrace *t;

	w_varint(&bad, 2 << 3 | 2);
	w_varint(&bad, 50); /* a length past the end of the event */
	w_uint(&bad, 1, 1);
	w_tl_packet(&trace, 10, 0, &bad);
	w_tl_packet(&trace, 11, 0, &nothing);
	w_tl_packet(&trace, (uint64_t)INT64_MAX, 0, &ok); /* IsBadTimestamp */
	w_tl_packet(&trace, (uint64_t)-5, 0, &ok);	  /* negative */
	w_tl_packet(&trace, 12, 0, &ok);
	t = pftrace__new(trace.b, trace.len);
	cr_assert_not_null(t);
	cr_assert_eq(stats_of(t).bad, 4);
	cr_assert_eq(stats_of(t).events, 1);
	cr_assert_eq(pftrace__n_frames(t), 1);
	cr_assert_eq(frame_at(t, 0).start_ns, 12);
	cr_assert_eq(pftrace__malformed(t), 0, "the packets themselves are whole");
	pftrace__free(t);
}

/* Each cut keeps the frames of the packets before it: a start without its end is unended. */
Test(pftrace_timeline, survives_every_truncation_of_a_trace)
{
	struct pbw trace = two_frames();
	size_t ended_before = 0;

	for (size_t n = 0; n <= trace.len; n++) {
		uint8_t *copy = malloc(n ? n : 1);
		struct pftrace *t;
		size_t ended = 0;

		cr_assert_not_null(copy);
		memcpy(copy, trace.b, n);
		t = pftrace__new(copy, n);
		free(copy);
		if (!t)
			continue;
		cr_assert_leq(pftrace__n_frames(t), 2);
		for (size_t i = 0; i < pftrace__n_frames(t); i++)
			ended += frame_at(t, i).ended;
		cr_assert_geq(ended, ended_before, "cut at %zu", n);
		cr_assert_eq(stats_of(t).unended, pftrace__n_frames(t) - ended);
		ended_before = ended;
		pftrace__free(t);
	}
	cr_assert_eq(ended_before, 2);
}

Test(pftrace_timeline, reads_frames_inside_compressed_packets)
{
	struct pbw inner = two_frames(), trace = { .len = 0 }, pkt = { .len = 0 };
	uint8_t z[4096];
	uLongf zlen = sizeof(z);
	struct pftrace *t;

	cr_assert_eq(compress2(z, &zlen, inner.b, inner.len, 9), Z_OK);
	w_bytes(&pkt, 50, z, zlen);
	w_msg(&trace, 1, &pkt);
	t = pftrace__new(trace.b, trace.len);
	cr_assert_not_null(t);
	cr_assert_eq(pftrace__n_frames(t), 2);
	cr_assert(strv_eq(frame_at(t, 1).ev.layer, "TX - Splash#1"));
	cr_assert_eq(frame_at(t, 1).end_ns, 3000);
	pftrace__free(t);
}

Test(pftrace_timeline, has_no_frames_without_frame_timeline)
{
	struct pbw trace = { .len = 0 }, pkt = { .len = 0 };
	struct pf_timeline_stats st;
	struct pftrace *t;

	w_uint(&pkt, 8, 5);
	w_msg(&trace, 1, &pkt);
	t = pftrace__new(trace.b, trace.len);
	cr_assert_not_null(t);
	cr_assert_eq(pftrace__n_frames(t), 0);
	st = stats_of(t);
	cr_assert_eq(st.events + st.frames + st.bad, 0);
	pftrace__free(t);
}

/* A frame_timeline_event packet stamped with the producer's uid (trusted_uid = 3), after the
 * event as traced writes it. */
static void w_tl_packet_uid(struct pbw *trace, uint64_t ts, const struct pbw *ev, int32_t uid)
{
	struct pbw pkt = { .len = 0 };

	w_uint(&pkt, 8, ts);
	w_msg(&pkt, 76, ev);
	w_uint(&pkt, 3, (uint64_t)(int64_t)uid); /* int32: a negative one takes 10 bytes */
	w_msg(trace, 1, &pkt);
}

Test(pftrace_timeline, reads_only_surfaceflingers_frames_and_counts_another_producers)
{
	struct pbw trace = { .len = 0 }, sf = display_start(FT_EXPECTED_DISPLAY, 12, 191080),
		   evil = surface_start(FT_EXPECTED_SURFACE, 13, 191081, "forged"),
		   old = surface_start(FT_EXPECTED_SURFACE, 14, 191082, "unstamped");
	struct pf_damage d;
	struct pftrace *t;

	w_tl_packet_uid(&trace, 1000, &sf, 1000);
	w_tl_packet_uid(&trace, 2000, &evil, 10234); /* an app registered the data source */
	w_tl_packet_uid(&trace, 2500, &evil, -1);
	w_tl_packet(&trace, 3000, FT_CLOCK_BOOTTIME, &old); /* no stamp: an older traced */
	t = pftrace__new(trace.b, trace.len);
	cr_assert_not_null(t);
	cr_assert_eq(pftrace__n_frames(t), 2);
	cr_assert_eq(frame_at(t, 0).ev.token, 191080);
	cr_assert_eq(frame_at(t, 1).ev.token, 191082);
	pftrace__damage(t, &d);
	cr_assert_eq(d.untrusted, 2);
	cr_assert_eq(stats_of(t).events, 2, "the others are not decoded at all");
	pftrace__free(t);
}
