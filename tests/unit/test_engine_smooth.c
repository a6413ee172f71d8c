// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Smoothness: refresh period, dropped and late frames per animator, and their causes. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine/engine.h"

#define MS 1000000ull
#define P60 16666667ull
#define P90 11111111ull
#define MAX 64

struct rec {
	struct frame frames[MAX];
	int n_frames;
	struct jank janks[MAX];
	uint64_t jank_ids[MAX][8];
	int n_janks;
	struct anim ends[MAX];
	int n_ends;
	struct summary sum;
	struct proc_stat procs[4];
	char notes[4][512];
	int n_notes;
};

static struct rec rec;

static int on_frame(void *ctx, const struct frame *f)
{
	if (rec.n_frames < MAX)
		rec.frames[rec.n_frames++] = *f;
	return 0;
}

static int on_jank(void *ctx, const struct jank *j)
{
	if (rec.n_janks >= MAX)
		return 0;
	cr_assert(j->n_anims <= 8);
	rec.janks[rec.n_janks] = *j;
	memcpy(rec.jank_ids[rec.n_janks], j->anim_ids, j->n_anims * sizeof(uint64_t));
	rec.n_janks++;
	return 0;
}

static int on_end(void *ctx, const struct anim *a)
{
	if (rec.n_ends < MAX)
		rec.ends[rec.n_ends++] = *a;
	return 0;
}

static int on_summary(void *ctx, const struct summary *s)
{
	rec.sum = *s;
	cr_assert(s->n_procs <= 4);
	memcpy(rec.procs, s->procs, s->n_procs * sizeof(*s->procs));
	return 0;
}

static int on_note(void *ctx, const char *msg)
{
	if (rec.n_notes < 4)
		snprintf(rec.notes[rec.n_notes], sizeof(rec.notes[0]), "%s", msg);
	rec.n_notes++;
	return 0;
}

static const struct sink_ops ops = {
	.note = on_note,
	.frame = on_frame,
	.jank = on_jank,
	.anim_end = on_end,
	.summary = on_summary,
};

static struct engine *eng;

static void setup(void)
{
	memset(&rec, 0, sizeof(rec));
	eng = engine__new(NULL, (struct sink){ &ops, NULL });
	cr_assert_not_null(eng);
}

static void teardown(void)
{
	engine__free(eng);
}

TestSuite(smooth, .init = setup, .fini = teardown);

#define PID 50
#define UI 50
#define RT 51

static void mk(uint64_t ts, uint32_t tid, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void mk(uint64_t ts, uint32_t tid, const char *fmt, ...)
{
	char buf[256];
	struct marker m;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	cr_assert_eq(marker_parse(buf, strlen(buf), &m), 0, "%s", buf);
	engine__marker(eng, ts, PID, tid, "app", &m);
}

/* One frame at t: doFrame of dur (vsync < 0: no id), then the RenderThread's draw. */
static void frame(uint64_t t, int64_t vsync, uint64_t dur)
{
	if (vsync >= 0)
		mk(t, UI, "B|%d|Choreographer#doFrame %lld", PID, (long long)vsync);
	else
		mk(t, UI, "B|%d|Choreographer#doFrame", PID);
	mk(t + dur, UI, "E|%d", PID);
	mk(t + dur + MS, RT, "B|%d|DrawFrame", PID);
	mk(t + dur + 2 * MS, RT, "E|%d", PID);
}

static void finish(uint64_t t)
{
	engine__finish(eng, t, 0, 0);
}

Test(smooth, missed_vsyncs_without_ids_count_for_the_animator_running_across_the_gap)
{
	uint64_t t = 1000 * MS;
	int f;

	mk(t - MS, UI, "S|%d|animator:alpha|7", PID);
	for (f = 0; f < 12; f++)
		frame(t + f * P60, -1, 4 * MS);
	t += 11 * P60 + 3 * P60; /* vsyncs 12 and 13 missed */
	frame(t, -1, 4 * MS);
	frame(t + P60, -1, 4 * MS);
	mk(t + P60 + 5 * MS, UI, "F|%d|animator:alpha|7", PID);
	finish(t + 2 * P60);
	cr_assert_eq(rec.n_frames, 14);
	cr_assert_eq(rec.frames[12].dropped_before, 2);
	cr_assert_eq(rec.frames[12].budget_ns, P60);
	cr_assert_eq(rec.frames[13].dropped_before, 0);
	cr_assert_eq(rec.n_ends, 1);
	cr_assert_eq(rec.ends[0].frames_dropped, 2);
	cr_assert_eq(rec.ends[0].janky_frames, 0);
	cr_assert_eq(rec.ends[0].worst_gap_ns, 3 * P60);
	cr_assert_eq(rec.ends[0].worst_frame_ns, 4 * MS);
	cr_assert_eq(rec.n_janks, 1);
	cr_assert_eq(rec.janks[0].kind, JANK_DROPPED);
	cr_assert_eq(rec.janks[0].frame_seq, 13);
	cr_assert_eq(rec.janks[0].dropped_before, 2);
	cr_assert_eq(rec.janks[0].n_anims, 1);
	cr_assert_eq(rec.jank_ids[0][0], 7);
	cr_assert_eq(rec.janks[0].duration_ns, 3 * P60 - 4 * MS); /* doFrame end to next start */
	cr_assert_eq(rec.sum.n_procs, 1);
	cr_assert_eq(rec.procs[0].refresh_period_ns, P60);
	cr_assert_str_eq(rec.procs[0].refresh_source, "intervals");
	cr_assert_eq(rec.procs[0].frames, 14);
	cr_assert_eq(rec.procs[0].frames_dropped, 2);
	cr_assert_eq(rec.procs[0].n_worst, 1);
	cr_assert_eq(rec.procs[0].worst[0].id, 7);
	cr_assert_eq(rec.procs[0].worst[0].frames_dropped, 2);
}

/* FrameTimeline tokens: 3 to 12 per vsync, as SurfaceFlinger's TokenManager hands them out. */
static const int id_steps[] = { 7, 3, 12, 8, 5, 9, 4, 11, 6, 10, 7, 3, 8, 12, 5, 9 };

static int64_t token(int f)
{
	int64_t v = 5000;

	for (int i = 0; i < f; i++)
		v += id_steps[i % 16];
	return v;
}

Test(smooth, vsyncs_missed_count_from_time_whatever_the_ids_say)
{
	uint64_t t = 1000 * MS;

	mk(t - MS, UI, "S|%d|animator|9", PID);
	for (int f = 0; f < 10; f++)
		frame(t + f * P90, token(f), 3 * MS);
	frame(t + 13 * P90 + MS, token(10), 3 * MS); /* 3 vsyncs missed, 7 ids apart */
	mk(t + 14 * P90, UI, "F|%d|animator|9", PID);
	finish(t + 15 * P90);
	cr_assert_eq(rec.frames[10].dropped_before, 3);
	cr_assert_eq(rec.frames[10].budget_ns, P90);
	cr_assert_eq(rec.frames[10].vsync_ns, t + 13 * P90);
	cr_assert_eq(rec.frames[10].start_delay_ns, MS);
	cr_assert_eq(rec.frames[10].deadline_ns, t + 14 * P90);
	cr_assert_eq(rec.ends[0].frames_dropped, 3);
	cr_assert_str_eq(rec.procs[0].refresh_source, "intervals");
	cr_assert_eq(rec.procs[0].refresh_period_ns, P90);
}

Test(smooth, ids_advancing_irregularly_do_not_change_the_period)
{
	uint64_t t = 1000 * MS;

	for (int f = 0; f < 30; f++)
		frame(t + f * P90 + (f % 3) * 100000, token(f), 2 * MS);
	finish(t + 31 * P90);
	cr_assert_eq(rec.procs[0].refresh_period_ns, P90);
	cr_assert_str_eq(rec.procs[0].refresh_source, "intervals");
	cr_assert_eq(rec.procs[0].frames_dropped, 0);
	cr_assert_eq(rec.procs[0].janky_frames, 0);
	for (int f = 10; f < 30; f++) {
		cr_assert_eq(rec.frames[f].budget_ns, P90, "frame %d", f + 1);
		cr_assert_eq(rec.frames[f].vsync_ns, t + f * P90, "frame %d", f + 1);
		cr_assert_eq(rec.frames[f].start_delay_ns, (f % 3) * 100000ull, "frame %d", f + 1);
	}
}

Test(smooth, a_late_start_makes_a_short_frame_late_and_names_what_held_its_thread)
{
	uint64_t t = 1000 * MS, f0 = t + 10 * P60;

	mk(t - MS, UI, "S|%d|animator:alpha|12", PID);
	for (int f = 0; f < 10; f++)
		frame(t + f * P60, token(f), 4 * MS);
	mk(f0 - 2 * MS, UI, "B|%d|addStartingWindow", PID); /* holds the thread past the vsync */
	mk(f0 - MS, UI, "B|%d|addRootView", PID);
	mk(f0 + 7 * MS, UI, "E|%d", PID);
	mk(f0 + 8 * MS, UI, "E|%d", PID);
	frame(f0 + 8 * MS, token(10), 10 * MS); /* 10 ms: within the period, not the deadline */
	frame(f0 + P60 + 2 * P60, token(11), 4 * MS);
	mk(f0 + 3 * P60 + 5 * MS, UI, "F|%d|animator:alpha|12", PID);
	finish(f0 + 4 * P60);
	cr_assert_eq(rec.frames[10].vsync_ns, f0);
	cr_assert_eq(rec.frames[10].start_delay_ns, 8 * MS);
	cr_assert_eq(rec.frames[10].deadline_ns, f0 + P60);
	cr_assert(rec.frames[10].janky, "ended at 18 ms (its draw at 20 ms), deadline 16.7 ms");
	cr_assert_eq(rec.frames[11].dropped_before, 2); /* vsyncs f0 + P and f0 + 2P */
	cr_assert_eq(rec.janks[0].kind, JANK_LATE);
	cr_assert_eq(rec.janks[0].start_delay_ns, 8 * MS);
	cr_assert_eq(rec.janks[0].start.n, 2);
	cr_assert_str_eq(rec.janks[0].start.s[0].name, "addStartingWindow");
	cr_assert_eq(rec.janks[0].start.s[0].dur_ns, 10 * MS);
	cr_assert_str_eq(rec.janks[0].start.s[1].name, "addRootView");
	cr_assert_eq(rec.ends[0].janky_frames, 1);
	cr_assert_eq(rec.procs[0].janky_frames, 1);
}

/*
 * The doFrame waits 20 ms (more than a period) behind a Handler message after its onVsync: its
 * vsync is the onVsync's of the same id, not the grid point just before the doFrame.
 */
Test(smooth, a_doframe_held_past_a_period_by_a_message_keeps_the_vsync_of_its_onvsync)
{
	uint64_t t = 1000 * MS, f0 = t + 20 * P60;

	mk(t - MS, UI, "S|%d|animator:alpha|12", PID);
	for (int f = 0; f < 20; f++) {
		mk(t + f * P60, UI, "B|%d|Choreographer#onVsync %lld", PID, (long long)token(f));
		mk(t + f * P60 + 10000, UI, "E|%d", PID);
		frame(t + f * P60 + 20000, token(f), 4 * MS);
	}
	mk(f0, UI, "B|%d|Choreographer#onVsync %lld", PID, (long long)token(20));
	mk(f0 + 10000, UI, "E|%d", PID);
	mk(f0 + MS, UI, "B|%d|android.os.Handler: com.example.Feed$1", PID);
	mk(f0 + 20 * MS, UI, "E|%d", PID);
	frame(f0 + 20 * MS, token(20), 4 * MS);
	mk(f0 + P60 + 5 * MS, UI, "F|%d|animator:alpha|12", PID);
	finish(f0 + 4 * P60);
	cr_assert_eq(rec.frames[20].vsync_ns, f0);
	cr_assert_eq(rec.frames[20].start_delay_ns, 20 * MS);
	cr_assert(rec.frames[20].janky, "ended at 24 ms, deadline 16.7 ms");
	cr_assert_eq(rec.frames[20].dropped_before, 0);
	const struct jank *late = NULL;

	for (int i = 0; i < rec.n_janks; i++)
		if (rec.janks[i].kind == JANK_LATE)
			late = late ? late : &rec.janks[i];
	cr_assert_not_null(late);
	cr_assert_eq(late->start_delay_ns, 20 * MS);
	cr_assert_geq(late->start.n, 1);
	cr_assert_str_eq(late->start.s[0].name, "android.os.Handler: com.example.Feed$1");
}

Test(smooth, surfaceflinger_vsync_app_toggles_give_the_period_and_the_grid)
{
	uint64_t t = 1000 * MS;
	struct marker m;
	char buf[64];

	for (int f = 0; f < 12; f++) {
		snprintf(buf, sizeof(buf), "C|%d|VSYNC-app|%d", 7, f % 2);
		cr_assert_eq(marker_parse(buf, strlen(buf), &m), 0);
		engine__marker(eng, t + f * P90 - 300000, 7, 8, "surfaceflinger", &m);
		if (f == 2 || f == 5) /* an app that draws every third vsync: 33 ms intervals */
			frame(t + f * P90 + MS, token(f), 2 * MS);
		if (f == 8)
			frame(t + f * P90 + 2 * MS, token(f), 2 * MS);
	}
	finish(t + 13 * P90);
	cr_assert_eq(rec.n_frames, 3);
	cr_assert_eq(rec.procs[0].refresh_period_ns, P90);
	cr_assert_str_eq(rec.procs[0].refresh_source, "vsync");
	cr_assert_eq(rec.frames[2].vsync_ns, t + 8 * P90 - 300000);
	cr_assert_eq(rec.frames[2].start_delay_ns, 2 * MS + 300000);
	cr_assert_eq(rec.frames[2].budget_ns, P90);
}

Test(smooth, an_idle_gap_with_no_animation_counts_nothing)
{
	uint64_t t = 1000 * MS;

	for (int f = 0; f < 10; f++)
		frame(t + f * P60, -1, 4 * MS);
	frame(t + 20 * P60, -1, 4 * MS); /* 10 vsyncs later, nothing running */
	mk(t + 20 * P60 + 6 * MS, UI, "S|%d|animator|3", PID);
	frame(t + 21 * P60, -1, 4 * MS);
	frame(t + 25 * P60, -1, 4 * MS); /* it started in the gap before: ran across this one */
	mk(t + 26 * P60, UI, "F|%d|animator|3", PID);
	finish(t + 27 * P60);
	cr_assert_eq(rec.frames[10].dropped_before, 0);
	cr_assert_eq(rec.frames[11].dropped_before, 0);
	cr_assert_eq(rec.frames[12].dropped_before, 3);
	cr_assert_eq(rec.ends[0].frames_dropped, 3);
	cr_assert_eq(rec.procs[0].frames_dropped, 3);
	cr_assert_eq(rec.n_janks, 1);
}

Test(smooth, a_late_frame_names_its_longest_nested_slices)
{
	uint64_t t = 1000 * MS, f0;

	mk(t - MS, UI, "S|%d|animator:alpha|11", PID);
	for (int f = 0; f < 10; f++)
		frame(t + f * P60, -1, 4 * MS);
	f0 = t + 10 * P60;
	mk(f0, UI, "B|%d|Choreographer#doFrame", PID);
	mk(f0 + 1 * MS, UI, "B|%d|animation", PID);
	mk(f0 + 3 * MS, UI, "E|%d", PID);
	mk(f0 + 4 * MS, UI, "B|%d|traversal", PID);
	mk(f0 + 5 * MS, UI, "B|%d|measure", PID);
	mk(f0 + 7 * MS, UI, "E|%d", PID);
	mk(f0 + 8 * MS, UI, "B|%d|RV OnBindView", PID);
	mk(f0 + 9 * MS, UI, "B|%d|inflate", PID);
	mk(f0 + 30 * MS, UI, "E|%d", PID);
	mk(f0 + 31 * MS, UI, "E|%d", PID);
	mk(f0 + 33 * MS, UI, "E|%d", PID);
	mk(f0 + 34 * MS, UI, "E|%d", PID);
	mk(f0 + 35 * MS, RT, "B|%d|DrawFrame", PID);
	mk(f0 + 36 * MS, RT, "B|%d|flush commands", PID);
	mk(f0 + 38 * MS, RT, "E|%d", PID);
	mk(f0 + 39 * MS, RT, "E|%d", PID);
	frame(f0 + 3 * P60, -1, 4 * MS);
	mk(f0 + 3 * P60 + 5 * MS, UI, "F|%d|animator:alpha|11", PID);
	finish(f0 + 4 * P60);
	cr_assert(rec.frames[10].janky);
	cr_assert_eq(rec.frames[10].dur_ns, 34 * MS);
	cr_assert_eq(rec.n_janks, 2, "late frame, then the gap it caused: %d", rec.n_janks);
	struct jank *j = &rec.janks[0];
	cr_assert_eq(j->kind, JANK_LATE);
	cr_assert_eq(j->frame_seq, 11);
	cr_assert_eq(j->duration_ns, 34 * MS);
	cr_assert_eq(j->ui.n, 4);
	cr_assert_str_eq(j->ui.s[0].name, "Choreographer#doFrame");
	cr_assert_eq(j->ui.s[0].dur_ns, 34 * MS);
	cr_assert_str_eq(j->ui.s[1].name, "traversal");
	cr_assert_eq(j->ui.s[1].dur_ns, 29 * MS);
	cr_assert_str_eq(j->ui.s[2].name, "RV OnBindView");
	cr_assert_eq(j->ui.s[2].dur_ns, 23 * MS);
	cr_assert_str_eq(j->ui.s[3].name, "inflate");
	cr_assert_eq(j->ui.s[3].dur_ns, 21 * MS);
	cr_assert_eq(j->render.n, 2);
	cr_assert_str_eq(j->render.s[0].name, "DrawFrame");
	cr_assert_str_eq(j->render.s[1].name, "flush commands");
	cr_assert_eq(rec.janks[1].kind, JANK_DROPPED);
	cr_assert_eq(rec.janks[1].dropped_before, 2);
	cr_assert_eq(rec.ends[0].janky_frames, 1);
	cr_assert_eq(rec.ends[0].worst_frame_ns, 34 * MS);
	cr_assert_eq(rec.procs[0].janky_frames, 1);
}

Test(smooth, a_long_ui_slice_outside_frames_while_an_animator_runs_is_a_block)
{
	uint64_t t = 1000 * MS;

	for (int f = 0; f < 10; f++)
		frame(t + f * P60, -1, 4 * MS);
	mk(t + 10 * P60, UI, "B|%d|binder transaction", PID); /* no animator: not a block */
	mk(t + 10 * P60 + 30 * MS, UI, "E|%d", PID);
	mk(t + 13 * P60, UI, "S|%d|animator|5", PID);
	mk(t + 13 * P60 + MS, UI, "B|%d|binder transaction", PID);
	mk(t + 13 * P60 + 2 * MS, UI, "B|%d|Lock contention", PID);
	mk(t + 13 * P60 + 20 * MS, UI, "E|%d", PID);
	mk(t + 13 * P60 + 31 * MS, UI, "E|%d", PID);
	finish(t + 20 * P60);
	cr_assert_eq(rec.n_janks, 1);
	cr_assert_eq(rec.janks[0].kind, JANK_BLOCK);
	cr_assert_eq(rec.janks[0].duration_ns, 30 * MS);
	cr_assert_eq(rec.janks[0].frame_seq, 0);
	cr_assert_eq(rec.janks[0].n_anims, 1);
	cr_assert_eq(rec.janks[0].ui.n, 2);
	cr_assert_str_eq(rec.janks[0].ui.s[1].name, "Lock contention");
}

Test(smooth, frames_judged_before_the_period_was_known_are_judged_again_in_the_summary)
{
	uint64_t t = 1000 * MS;

	frame(t, -1, 14 * MS); /* late at 90 Hz, not at the assumed 60 Hz */
	for (int f = 1; f < 20; f++)
		frame(t + f * P90, -1, 3 * MS);
	frame(t + 20 * P90, -1, 12 * MS); /* late at 90 Hz, judged with the measured period */
	finish(t + 21 * P90);
	cr_assert_not(rec.frames[0].janky);
	cr_assert_eq(rec.frames[0].budget_ns, 16666667);
	cr_assert(rec.frames[20].janky);
	cr_assert_eq(rec.frames[20].budget_ns, P90);
	cr_assert_eq(rec.procs[0].janky_frames, 2);
	cr_assert_eq(rec.n_janks, 0); /* no animator was hit */
}

Test(smooth, late_frame_starts_do_not_bias_the_period)
{
	uint64_t t = 1000 * MS;

	/* every other doFrame starts 3 ms late: frame-to-frame steps are 19.7 and 13.7 ms */
	for (int f = 0; f < 40; f++)
		frame(t + f * P60 + (f % 2) * 3 * MS, token(f), 2 * MS);
	finish(t + 41 * P60);
	cr_assert_eq(rec.procs[0].refresh_period_ns, P60);
	cr_assert_str_eq(rec.procs[0].refresh_source, "intervals");
	for (int f = 10; f < 40; f++) {
		cr_assert_eq(rec.frames[f].budget_ns, P60, "frame %d", f + 1);
		cr_assert_eq(rec.frames[f].start_delay_ns, (f % 2) * 3 * MS, "frame %d", f + 1);
	}
}

Test(smooth, before_the_period_is_measured_a_skip_counts_against_the_shortest_interval)
{
	uint64_t t = 1000 * MS;

	mk(t - MS, UI, "S|%d|animator|21", PID);
	frame(t, -1, 2 * MS);
	frame(t + P60, -1, 2 * MS);
	frame(t + 4 * P60, -1, 2 * MS); /* two vsyncs missed, the period still assumed */
	frame(t + 5 * P60, -1, 2 * MS);
	mk(t + 5 * P60 + 5 * MS, UI, "F|%d|animator|21", PID);
	finish(t + 6 * P60);
	cr_assert_eq(rec.frames[2].dropped_before, 2);
	cr_assert_eq(rec.frames[3].dropped_before, 0);
	cr_assert_eq(rec.ends[0].frames_dropped, 2);
}

Test(smooth, before_the_period_is_measured_a_thirty_hertz_display_drops_nothing)
{
	uint64_t t = 1000 * MS;

	mk(t - MS, UI, "S|%d|animator|22", PID);
	for (int f = 0; f < 6; f++)
		frame(t + f * 2 * P60, -1, 2 * MS);
	mk(t + 11 * P60, UI, "F|%d|animator|22", PID);
	finish(t + 12 * P60);
	for (int f = 0; f < 6; f++)
		cr_assert_eq(rec.frames[f].dropped_before, 0, "frame %d", f + 1);
	cr_assert_eq(rec.ends[0].frames_dropped, 0);
}

Test(smooth, a_process_with_few_frames_takes_the_period_every_process_measured)
{
	uint64_t t = 1000 * MS;
	struct marker m;

	for (int f = 0; f < 20; f++)
		frame(t + f * P90, token(f), 2 * MS);
	for (int f = 0; f < 3; f++) { /* pid 60: three frames, two intervals of its own */
		cr_assert_eq(marker_parse("B|60|Choreographer#doFrame", 26, &m), 0);
		engine__marker(eng, t + (25 + f) * P90, 60, 60, "other", &m);
		cr_assert_eq(marker_parse("E|60", 4, &m), 0);
		engine__marker(eng, t + (25 + f) * P90 + MS, 60, 60, "other", &m);
	}
	finish(t + 30 * P90);
	cr_assert_eq(rec.sum.n_procs, 2);
	cr_assert_eq(rec.procs[1].pid, 60);
	cr_assert_eq(rec.procs[1].refresh_period_ns, P90);
	cr_assert_str_eq(rec.procs[1].refresh_source, "intervals");
	cr_assert_eq(rec.frames[22].budget_ns, P90);
}

#define P24 41666667ull

/*
 * Before the period is measured (fewer than PERIOD_MIN_SAMPLES intervals), a doFrame held 1.2
 * periods behind a Handler message is followed at once by the next one (its onVsync was queued
 * behind the same message): two doFrame starts 0.1 ms apart are no vsync period, and the
 * vsyncs since the previous frame are counted against the onVsync intervals, so no frame
 * drops thousands of vsyncs.
 */
Test(smooth, a_doframe_right_after_a_held_one_drops_no_vsync_before_the_period_is_known)
{
	uint64_t t = 1000 * MS, f3 = t + 3 * P24;

	mk(t - MS, UI, "S|%d|animator:alpha|23", PID);
	for (int f = 0; f < 3; f++) {
		mk(t + f * P24, UI, "B|%d|Choreographer#onVsync %lld", PID, (long long)token(f));
		mk(t + f * P24 + 10000, UI, "E|%d", PID);
		frame(t + f * P24 + 20000, token(f), 2 * MS);
	}
	mk(f3, UI, "B|%d|Choreographer#onVsync %lld", PID, (long long)token(3));
	mk(f3 + 10000, UI, "E|%d", PID);
	mk(f3 + 20000, UI, "B|%d|android.os.Handler: com.example.Feed$1", PID);
	mk(f3 + 50 * MS, UI, "E|%d", PID);
	mk(f3 + 50 * MS, UI, "B|%d|Choreographer#doFrame %lld", PID, (long long)token(3));
	mk(f3 + 50 * MS + 50000, UI, "E|%d", PID);
	mk(f3 + 50 * MS + 60000, UI, "B|%d|Choreographer#onVsync %lld", PID, (long long)token(4));
	mk(f3 + 50 * MS + 70000, UI, "E|%d", PID);
	mk(f3 + 50 * MS + 80000, UI, "B|%d|Choreographer#doFrame %lld", PID, (long long)token(4));
	mk(f3 + 50 * MS + 130000, UI, "E|%d", PID);
	for (int f = 5; f < 7; f++) {
		mk(t + f * P24, UI, "B|%d|Choreographer#onVsync %lld", PID, (long long)token(f));
		mk(t + f * P24 + 10000, UI, "E|%d", PID);
		frame(t + f * P24 + 20000, token(f), 2 * MS);
	}
	mk(t + 6 * P24 + 5 * MS, UI, "F|%d|animator:alpha|23", PID);
	finish(t + 8 * P24);
	cr_assert_eq(rec.n_frames, 7);
	cr_assert(rec.frames[3].budget_ns != P24, "the period is not measured yet");
	cr_assert_eq(rec.frames[3].start_delay_ns, 50 * MS);
	cr_assert(rec.frames[3].janky);
	for (int f = 0; f < 7; f++)
		cr_assert_eq(rec.frames[f].dropped_before, 0, "frame %d: %u", f + 1,
			     rec.frames[f].dropped_before);
	cr_assert_eq(rec.ends[0].frames_dropped, 0);
	cr_assert_eq(rec.procs[0].frames_dropped, 0);
}

#define SHELL 52

/* A doFrame of thread tid at t (its onVsync at vsync_ns), dur long, drawn by the RenderThread. */
static void thread_frame(uint32_t tid, uint64_t vsync_ns, uint64_t t, int64_t vsync, uint64_t dur)
{
	mk(vsync_ns, tid, "B|%d|Choreographer#onVsync %lld", PID, (long long)vsync);
	mk(vsync_ns + 10000, tid, "E|%d", PID);
	mk(t, tid, "B|%d|Choreographer#doFrame %lld", PID, (long long)vsync);
	mk(t + dur, tid, "B|%d|DrawFrames %lld", PID, (long long)vsync); /* sync: inside it */
	mk(t + dur + 10000, RT, "B|%d|DrawFrames %lld", PID, (long long)vsync);
	mk(t + dur + 20000, tid, "E|%d", PID);
	mk(t + dur + 30000, tid, "E|%d", PID);
	mk(t + dur + MS, RT, "E|%d", PID);
}

/*
 * SystemUI runs a second Choreographer on its shell thread (the Pixel 6a capture's 2380 beside
 * main 2348): its frames are judged the same way, against their own onVsync, and a late start's
 * cause is what held that thread, not what the main thread was doing at the time.
 */
Test(smooth, a_late_start_on_a_second_choreographer_thread_names_what_held_that_thread)
{
	uint64_t t = 1000 * MS, v = t + 12 * P60;
	int64_t id = 7000;

	mk(t - MS, UI, "S|%d|animator:alpha|24", PID);
	for (int f = 0; f < 12; f++, id += 7) {
		thread_frame(UI, t + f * P60, t + f * P60 + 20000, id, 2 * MS);
		thread_frame(SHELL, t + f * P60 + 4 * MS, t + f * P60 + 4 * MS + 20000, id + 3, MS);
	}
	mk(v - 8 * MS, SHELL, "B|%d|addStartingWindow", PID); /* holds the shell past the vsync */
	mk(v + 3 * MS, SHELL, "E|%d", PID);
	thread_frame(UI, v, v + 20000, id, 2 * MS);
	/* the main thread, meanwhile, is busy longer (6.8 ms) in the shell's late start */
	mk(v + 2100000, UI, "B|%d|android.os.Handler: com.example.Main$1", PID);
	mk(v + 8900000, UI, "E|%d", PID);
	thread_frame(SHELL, v + 9 * MS, v + 9 * MS, id + 3, 10 * MS);
	id += 7;
	thread_frame(UI, v + P60, v + P60 + 20000, id, 2 * MS);
	mk(v + P60 + 5 * MS, UI, "F|%d|animator:alpha|24", PID);
	finish(v + 3 * P60);
	cr_assert_eq(rec.n_frames, 27);
	const struct frame *late = &rec.frames[25];

	cr_assert_eq(late->tid, SHELL);
	cr_assert_eq(late->vsync_id, id - 7 + 3);
	cr_assert_eq(late->budget_ns, P60);
	cr_assert_eq(late->start_delay_ns, 9 * MS);
	cr_assert(late->janky, "ended 20 ms after its onVsync's vsync");
	cr_assert_eq(late->dropped_before, 0);
	cr_assert_eq(rec.frames[24].tid, UI);
	cr_assert_eq(rec.frames[24].start_delay_ns, 20000);
	cr_assert(!rec.frames[24].janky);

	const struct jank *j = NULL;

	for (int i = 0; i < rec.n_janks; i++)
		if (rec.janks[i].kind == JANK_LATE)
			j = j ? j : &rec.janks[i];
	cr_assert_not_null(j);
	cr_assert_eq(j->tid, SHELL);
	cr_assert_eq(j->start.n, 1);
	cr_assert_str_eq(j->start.s[0].name, "addStartingWindow");
	cr_assert_eq(rec.procs[0].janky_frames, 1);
	cr_assert_eq(rec.procs[0].frames_dropped, 0);
}

/* ---- whose vsync (engine/trust.h) ---------------------------------------------------- */

/* A counter write C|pid|VSYNC-app|v by process pid named name (NULL: unnamed) at ts. */
static void vsync_app(uint64_t ts, uint32_t pid, const char *name, int v)
{
	struct marker m;
	char buf[64];

	snprintf(buf, sizeof(buf), "C|%u|VSYNC-app|%d", pid, v);
	cr_assert_eq(marker_parse(buf, strlen(buf), &m), 0);
	engine__marker(eng, ts, pid, pid, name, &m);
}

/*
 * SurfaceFlinger (sf, named sf_name) at 90 Hz, the app drawing every third vsync and once late,
 * and, when evil_name is not "", another process writing VSYNC-app too: every 27.2 ms, the
 * period the attack moved the app to. A fresh engine each time; rec holds its records.
 */
static void vsync_run(uint32_t sf, const char *sf_name, const char *evil_name)
{
	uint64_t t = 1000 * MS;

	engine__free(eng);
	setup();
	for (int f = 0; f < 12; f++) {
		vsync_app(t + f * P90 - 300000, sf, sf_name, f % 2);
		if (!evil_name || *evil_name)
			vsync_app(t + f * 27200000ull - 100000, 66, evil_name, f % 2);
		if (f == 2 || f == 5)
			frame(t + f * P90 + MS, token(f), 2 * MS);
		if (f == 8)
			frame(t + f * P90 + 2 * MS, token(f), 2 * MS);
	}
	finish(t + 13 * P90);
}

/* The app's records that the display's vsyncs decide. */
static void app_records(uint64_t out[3][4], uint64_t *period, uint64_t *dropped)
{
	cr_assert_eq(rec.n_frames, 3);
	for (int i = 0; i < 3; i++) {
		out[i][0] = rec.frames[i].vsync_ns;
		out[i][1] = rec.frames[i].start_delay_ns;
		out[i][2] = rec.frames[i].budget_ns;
		out[i][3] = rec.frames[i].dropped_before;
	}
	for (int i = 0; i < rec.sum.n_procs; i++)
		if (rec.procs[i].pid == PID) {
			*period = rec.procs[i].refresh_period_ns;
			*dropped = rec.procs[i].frames_dropped;
			return;
		}
	cr_assert_fail("no summary line for the app");
}

Test(smooth, another_processs_vsync_app_counter_moves_nothing_and_is_said_once)
{
	uint64_t want[3][4], got[3][4], want_period, period, want_dropped, dropped;

	vsync_run(7, "surfaceflinger", "");
	app_records(want, &want_period, &want_dropped);
	cr_assert_eq(want_period, P90);
	cr_assert_eq(rec.sum.vsync_foreign, 0);
	cr_assert_eq(rec.n_notes, 0);

	vsync_run(7, "surfaceflinger", "com.evil");
	app_records(got, &period, &dropped);
	cr_assert_eq(period, want_period, "period %llu", (unsigned long long)period);
	cr_assert_eq(dropped, want_dropped);
	cr_assert_arr_eq(got, want, sizeof(want), "the app's frames are as without the writer");
	cr_assert_eq(rec.sum.vsync_foreign, 12);
	cr_assert_eq(rec.n_notes, 1);
	cr_assert_str_eq(rec.notes[0],
			 "pid 66 (com.evil) wrote SurfaceFlinger's VSYNC-app counter but is not "
			 "SurfaceFlinger: its vsyncs are not used (said once; the summary counts "
			 "them all)");
}

Test(smooth, surfaceflingers_argv0_is_surfaceflinger_too)
{
	uint64_t got[3][4], period, dropped;

	vsync_run(7, "/system/bin/surfaceflinger", ""); /* Perfetto's process tree names it so */
	app_records(got, &period, &dropped);
	cr_assert_eq(period, P90);
	cr_assert_str_eq(rec.procs[0].refresh_source, "vsync");
	cr_assert_eq(rec.sum.vsync_foreign, 0);
}

Test(smooth, an_unnamed_writer_is_taken_when_first_and_a_second_one_is_not)
{
	uint64_t want[3][4], got[3][4], want_period, period, dropped;

	vsync_run(7, "surfaceflinger", "");
	app_records(want, &want_period, &dropped);
	vsync_run(7, NULL, NULL); /* a capture that names neither: the first is kept */
	app_records(got, &period, &dropped);
	cr_assert_eq(period, want_period);
	cr_assert_arr_eq(got, want, sizeof(want));
	cr_assert_eq(rec.sum.vsync_foreign, 12);
	cr_assert(strstr(rec.notes[0], "pid 66 (unnamed) wrote SurfaceFlinger's VSYNC-app counter "
				       "but is not the process that wrote it first"),
		  "%s", rec.notes[0]);
}

Test(smooth, an_impostor_named_surfaceflinger_gives_no_vsync)
{
	uint64_t t = 1000 * MS;

	engine__process_impostor(eng, 7, "surfaceflinger", "uid 10234, not 1000 (AID_SYSTEM)");
	for (int f = 0; f < 12; f++)
		vsync_app(t + f * P90 - 300000, 7, "surfaceflinger", f % 2);
	frame(t + 2 * P90 + MS, token(2), 2 * MS);
	frame(t + 5 * P90 + MS, token(5), 2 * MS);
	finish(t + 13 * P90);
	cr_assert_str_neq(rec.procs[0].refresh_source, "vsync");
	cr_assert_eq(rec.sum.vsync_foreign, 12);
	cr_assert_eq(rec.n_notes, 2);
	cr_assert_str_eq(rec.notes[0], "pid 7 calls itself surfaceflinger but is an impostor: "
				       "uid 10234, not 1000 (AID_SYSTEM)");
	cr_assert(strstr(rec.notes[1], "pid 7 (surfaceflinger) wrote SurfaceFlinger's VSYNC-app "
				       "counter but is an impostor"),
		  "%s", rec.notes[1]);
}
