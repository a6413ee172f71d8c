// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * SurfaceFlinger's FrameTimeline in a real capture: Perfetto's api32_startup_warm trace
 * (Pixel 6a, Android 13; see PROVENANCE.md). Every expectation below was read from the
 * data (an independent decode of the packets, and the doFrame markers of the same trace).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "common/frametimeline.h"
#include "common/marker.h"
#include "replay/capture.h"
#include "replay/pftrace.h"

#define STARTUP_TRACE TESTDATA "/traces/pixel6a-android13-startup.perfetto-trace"
#define STARTUP_BYTES 2037208
#define SF_PID 513

/* The six app surface frames, in start order: token, pid, display frame token. */
static const struct {
	int64_t token;
	int32_t pid;
	int64_t display_token;
} surface_frames[] = {
	{ 191058, 2348, 191080 }, /* systemui, layer "TX - Splash Screen ...#1595" */
	{ 191095, 2969, 191102 }, /* launcher */
	{ 191103, 2348, 191138 }, /* systemui, "TX - NavigationBar0#74" */
	{ 191117, 2969, 191138 }, /* launcher */
	{ 191185, 7663, 191192 }, /* the benchmark target app */
	{ 191201, 7663, 191214 },
};

static const int64_t display_tokens[] = { 191056, 191057, 191072, 191080, 191102,
					  191138, 191177, 191192, 191214, 191243 };

#define N_SURFACE (sizeof(surface_frames) / sizeof(surface_frames[0]))
#define N_DISPLAY (sizeof(display_tokens) / sizeof(display_tokens[0]))

static struct capture *open_startup(void)
{
	struct capture *c = capture__open(STARTUP_TRACE);

	cr_assert_not_null(c, "errno %d", errno);
	cr_assert(capture__is_protobuf(c));
	cr_assert_eq(capture__size(c), STARTUP_BYTES);
	return c;
}

/* The frames of one kind, in start order; returns how many. */
static size_t frames_of(const struct capture *c, unsigned kind, struct ft_frame *out, size_t max)
{
	struct ft_frame f;
	size_t n = 0;

	for (size_t i = 0; i < capture__n_frames(c); i++) {
		cr_assert_eq(capture__frame(c, i, &f), 0);
		if (f.ev.kind != kind)
			continue;
		cr_assert_lt(n, max, "more than %zu %s frames", max, ft_kind_name(kind));
		out[n++] = f;
	}
	return n;
}

Test(frametimeline_replay, counts_ten_display_and_six_surface_frames_of_each_kind)
{
	struct capture *c = open_startup();
	struct ft_frame ed[16], ad[16], es[16], as[16];
	struct pf_timeline_stats st;
	struct pftrace *t;
	uint8_t *d = malloc(STARTUP_BYTES);
	FILE *fp = fopen(STARTUP_TRACE, "rb");

	cr_assert_eq(capture__n_frames(c), 32);
	cr_assert_eq(frames_of(c, FT_EXPECTED_DISPLAY, ed, 16), 10);
	cr_assert_eq(frames_of(c, FT_ACTUAL_DISPLAY, ad, 16), 10);
	cr_assert_eq(frames_of(c, FT_EXPECTED_SURFACE, es, 16), 6);
	cr_assert_eq(frames_of(c, FT_ACTUAL_SURFACE, as, 16), 6);
	for (size_t i = 0; i < N_DISPLAY; i++) {
		cr_assert(ed[i].ev.token == display_tokens[i] && ed[i].ev.pid == SF_PID);
		cr_assert(ad[i].ev.token == display_tokens[i] && ad[i].ev.pid == SF_PID);
		cr_assert(ed[i].ended && ed[i].end_ns > ed[i].start_ns);
		cr_assert_eq(ed[i].clock_id, FT_CLOCK_BOOTTIME);
		/* The trace stops before the last composition's present fence: no FrameEnd. */
		cr_assert_eq(ad[i].ended, i < N_DISPLAY - 1, "actual display %zu", i);
	}
	cr_assert_eq(ad[N_DISPLAY - 1].start_ns, 157479985279694ull);

	cr_assert_not_null(d);
	cr_assert_not_null(fp);
	cr_assert_eq(fread(d, 1, STARTUP_BYTES, fp), STARTUP_BYTES);
	fclose(fp);
	t = pftrace__new(d, STARTUP_BYTES);
	free(d);
	cr_assert_not_null(t);
	pftrace__timeline_stats(t, &st);
	cr_assert_eq(st.events, 63, "32 starts, 31 ends");
	cr_assert_eq(st.frames, 32);
	cr_assert_eq(st.unended, 1);
	cr_assert_eq(st.evicted + st.unpaired_ends + st.bad + st.dropped + st.other_clock +
			     st.unnamed_layers,
		     0);
	pftrace__free(t);
	capture__free(c);
}

Test(frametimeline_replay, reads_the_six_app_surface_frames_tokens_pids_and_display_frames)
{
	struct capture *c = open_startup();
	struct ft_frame es[16], as[16], ad[16];

	cr_assert_eq(frames_of(c, FT_EXPECTED_SURFACE, es, 16), N_SURFACE);
	cr_assert_eq(frames_of(c, FT_ACTUAL_SURFACE, as, 16), N_SURFACE);
	cr_assert_eq(frames_of(c, FT_ACTUAL_DISPLAY, ad, 16), N_DISPLAY);
	for (size_t i = 0; i < N_SURFACE; i++) {
		bool shown = false;

		cr_assert_eq(as[i].ev.token, surface_frames[i].token, "frame %zu", i);
		cr_assert_eq(as[i].ev.pid, surface_frames[i].pid, "frame %zu", i);
		cr_assert_eq(as[i].ev.display_token, surface_frames[i].display_token);
		cr_assert(as[i].ended);
		/* The expected frame of the same token: same app, same layer, display frame. */
		cr_assert_eq(es[i].ev.token, as[i].ev.token);
		cr_assert_eq(es[i].ev.pid, as[i].ev.pid);
		cr_assert_eq(es[i].ev.display_token, as[i].ev.display_token);
		cr_assert(es[i].ev.layer.len && es[i].ev.layer.len == as[i].ev.layer.len &&
			  !memcmp(es[i].ev.layer.p, as[i].ev.layer.p, as[i].ev.layer.len));
		for (size_t j = 0; j < N_DISPLAY; j++)
			shown |= ad[j].ev.token == as[i].ev.display_token;
		cr_assert(shown, "display frame %lld", (long long)as[i].ev.display_token);
	}
	cr_assert(strv_eq(as[0].ev.layer, "TX - Splash Screen androidx.benchmark.integration."
					  "macrobenchmark.target#1595"));
	cr_assert(strv_eq(as[2].ev.layer, "TX - NavigationBar0#74"));
	capture__free(c);
}

Test(frametimeline_replay, finds_systemui_191058_the_only_late_frame_app_deadline_missed)
{
	struct capture *c = open_startup();
	struct ft_frame as[16], ad[16];
	size_t late = 0;
	char jank[128];

	cr_assert_eq(frames_of(c, FT_ACTUAL_SURFACE, as, 16), N_SURFACE);
	for (size_t i = 0; i < N_SURFACE; i++) {
		const struct ft_event *e = &as[i].ev;

		ft_jank_string(e->jank_type, jank, sizeof(jank));
		cr_assert_eq(e->prediction_type, FT_PREDICTION_VALID);
		cr_assert(e->is_buffer && e->has_is_buffer && !e->gpu_composition);
		if (e->present_type != FT_PRESENT_ON_TIME) {
			late++;
			cr_assert_eq(e->token, 191058);
			cr_assert_eq(e->pid, 2348);
			cr_assert_str_eq(ft_present_name(e->present_type), "late");
			cr_assert_str_eq(ft_present_perfetto(e->present_type), "Late Present");
			cr_assert_str_eq(jank, "App Deadline Missed");
			cr_assert(ft_jank_is_app(e->jank_type));
			cr_assert(!e->on_time_finish);
			cr_assert_str_eq(ft_severity_perfetto(e->jank_severity), "Unknown");
			continue;
		}
		cr_assert_str_eq(ft_present_name(e->present_type), "on_time", "%lld",
				 (long long)e->token);
		cr_assert_str_eq(jank, "None", "%lld", (long long)e->token);
		cr_assert(e->on_time_finish);
	}
	cr_assert_eq(late, 1);
	/* SurfaceFlinger made every composition on time. */
	cr_assert_eq(frames_of(c, FT_ACTUAL_DISPLAY, ad, 16), N_DISPLAY);
	for (size_t i = 0; i < N_DISPLAY; i++) {
		cr_assert_eq(ad[i].ev.present_type, FT_PRESENT_ON_TIME);
		cr_assert_eq(ad[i].ev.jank_type, FT_JANK_NONE);
		cr_assert(ad[i].ev.on_time_finish);
	}
	capture__free(c);
}

/* A `Choreographer#doFrame <id>` (or onVsync) start: the vsync id, thread and time. */
struct vsync_mark {
	int64_t id;
	int32_t tgid, tid;
	uint64_t ts;
};

/* The doFrame (or onVsync) starts of the capture, in time order; returns how many. */
static size_t vsync_marks(struct capture *c, const char *prefix, struct vsync_mark *out, size_t max)
{
	struct capture_line l;
	struct marker m;
	size_t n = 0, plen = strlen(prefix);
	char *end;
	int k;

	capture__rewind(c);
	while ((k = capture__next_event(c, &l)) != CAPTURE_END) {
		if (k != CAPTURE_MARKER || marker_parse(l.payload.p, l.payload.len, &m) ||
		    m.type != MARKER_BEGIN || !strv_starts_with(m.name, prefix))
			continue;
		cr_assert_lt(n, max);
		out[n] = (struct vsync_mark){ strtoll(m.name.p + plen, &end, 10), m.tgid, l.tid,
					      l.ts_ns };
		/* "Choreographer#doFrame - resynced to ..." has no id: leave it out. */
		if (end != m.name.p + plen && end == m.name.p + m.name.len)
			n++;
	}
	return n;
}

static const struct vsync_mark *find_mark(const struct vsync_mark *v, size_t n, int32_t tgid,
					  int64_t id)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].tgid == tgid && v[i].id == id)
			return &v[i];
	return NULL;
}

/*
 * A surface frame's token is the vsync id of the app's doFrame; SurfaceFlinger's actual
 * start is that doFrame's start (measured: 0.65 to 2.52 us later). systemui's 191058 began
 * 7.94 ms after its expected start, on its splash-screen thread 2380.
 */
Test(frametimeline_replay, matches_each_surface_frame_token_to_a_doframe_of_its_app)
{
	struct capture *c = open_startup();
	struct vsync_mark v[64];
	struct ft_frame es[16], as[16];
	size_t n = vsync_marks(c, "Choreographer#doFrame ", v, 64);

	cr_assert_eq(n, 30);
	cr_assert_eq(frames_of(c, FT_EXPECTED_SURFACE, es, 16), N_SURFACE);
	cr_assert_eq(frames_of(c, FT_ACTUAL_SURFACE, as, 16), N_SURFACE);
	for (size_t i = 0; i < N_SURFACE; i++) {
		const struct vsync_mark *m = find_mark(v, n, as[i].ev.pid, as[i].ev.token);

		cr_assert_not_null(m, "no doFrame %lld in %d", (long long)as[i].ev.token,
				   as[i].ev.pid);
		cr_assert_geq(as[i].start_ns, m->ts);
		cr_assert_lt(as[i].start_ns - m->ts, 3000, "frame %lld: %llu ns",
			     (long long)as[i].ev.token,
			     (unsigned long long)(as[i].start_ns - m->ts));
		cr_assert_lt(es[i].start_ns, m->ts, "the doFrame follows its vsync");
		if (as[i].ev.token == 191058) {
			cr_assert_eq(m->tid, 2380);
			cr_assert_eq(m->ts - es[i].start_ns, 7939726);
		}
	}
	capture__free(c);
}

/*
 * Vsync ids are FrameTimeline tokens, not vsync counts. Android 13's SurfaceFlinger makes
 * one token per wake-up of its own (MessageQueue::vsyncCallback) and 7 per vsync event it
 * sends to each app connection (EventThread::generateFrameTimeline, kFrameTimelinesLength
 * = 7), so a thread's consecutive frames a vsync apart are at least 8 ids apart.
 */
Test(frametimeline_replay, sees_doframe_ids_rise_by_eight_or_more_per_frame)
{
	static const int64_t anim_steps[] = { 14, 8, 23, 35, 15, 8, 8, 8, 22, 15, 29, 15, 8 };
	struct capture *c = open_startup();
	struct vsync_mark v[64], on[64];
	size_t n = vsync_marks(c, "Choreographer#doFrame ", v, 64), k = 0;
	size_t n_on = vsync_marks(c, "Choreographer#onVsync ", on, 64);

	cr_assert_eq(n_on, 30);
	for (size_t i = 0; i < n; i++) {
		const struct vsync_mark *prev = NULL;

		/* Each doFrame is handled by the onVsync of the same id, on the same thread. */
		cr_assert_not_null(find_mark(on, n_on, v[i].tgid, v[i].id));
		for (size_t j = 0; j < i; j++)
			if (v[j].tid == v[i].tid)
				prev = &v[j];
		if (!prev)
			continue;
		cr_assert_geq(v[i].id - prev->id, 8, "thread %d: %lld after %lld", v[i].tid,
			      (long long)v[i].id, (long long)prev->id);
		if (v[i].tid == 2053) { /* system_server's android.anim: 14 frames */
			cr_assert_lt(k, sizeof(anim_steps) / sizeof(anim_steps[0]));
			cr_assert_eq(v[i].id - prev->id, anim_steps[k], "step %zu", k);
			k++;
		}
	}
	cr_assert_eq(k, 13);
	capture__free(c);
}

Test(frametimeline_replay, has_no_frames_in_a_text_capture)
{
	struct capture *c = capture__open(TESTDATA "/traces/antutu-2018.ftrace.txt");
	struct ft_frame f;

	cr_assert_not_null(c);
	cr_assert_eq(capture__n_frames(c), 0);
	cr_assert_eq(capture__frame(c, 0, &f), -ERANGE);
	capture__free(c);
}
