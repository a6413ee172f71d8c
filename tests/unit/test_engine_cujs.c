// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The CUJ tracker (engine/cujs.c): InteractionJankMonitor's J<CUJ> tracks, through the engine. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "engine/engine.h"

#define MS 1000000ull
#define PERIOD 16666667ull /* 60 Hz */
#define T0 (1000 * MS)
#define PID 100
#define CAP 16

static struct {
	struct cuj cujs[CAP];
	uint64_t ids[CAP][AT_CUJ_ANIMS];
	int n;
	struct frame frames[64];
	int n_frames;
	char order[128]; /* f per frame, c per CUJ, in the order they went out */
	int n_order;
	struct summary sum;
	int animations; /* animation_end records */
} rec;

static struct engine *eng;

static void order(char c)
{
	if (rec.n_order < (int)sizeof(rec.order) - 1)
		rec.order[rec.n_order++] = c;
}

static int on_cuj(void *ctx, const struct cuj *c)
{
	cr_assert_lt(rec.n, CAP);
	rec.cujs[rec.n] = *c;
	memcpy(rec.ids[rec.n], c->anim_ids, (size_t)c->n_anims * sizeof(uint64_t));
	rec.cujs[rec.n].anim_ids = rec.ids[rec.n];
	rec.n++;
	order('c');
	return 0;
}

static int on_frame(void *ctx, const struct frame *f)
{
	if (rec.n_frames < 64)
		rec.frames[rec.n_frames++] = *f;
	order('f');
	return 0;
}

static int on_summary(void *ctx, const struct summary *s)
{
	rec.sum = *s;
	return 0;
}

static int on_animation_end(void *ctx, const struct animation *a)
{
	rec.animations++;
	return 0;
}

static const struct sink_ops ops = { .cuj = on_cuj,
				     .frame = on_frame,
				     .summary = on_summary,
				     .animation_end = on_animation_end };

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

TestSuite(engine_cujs, .init = setup, .fini = teardown);

static void mark(uint64_t ts, uint32_t tid, char type, const char *track, const char *name,
		 int64_t value)
{
	struct marker m = { .type = (enum marker_type)type, .tgid = PID };

	m.name.p = name ? name : "";
	m.name.len = name ? strlen(name) : 0;
	m.track.p = track ? track : "";
	m.track.len = track ? strlen(track) : 0;
	m.value = value;
	engine__marker(eng, ts, PID, tid, "com.android.systemui", &m);
}

/* FrameTracker.beginInternal / end: G|pid|J<CUJ>|J<CUJ>|<vsync>, H|pid|J<CUJ>|<vsync> (14+). */
static void G(uint64_t ts, const char *track, int64_t cookie)
{
	mark(ts, PID, 'G', track, track, cookie);
}

static void H(uint64_t ts, const char *track, int64_t cookie)
{
	mark(ts, PID, 'H', track, NULL, cookie);
}

/* doFrame i (vsync id 1000 + i) at T0 + i periods, dur_ms long, its animation phase first. */
static void frame(int i, uint64_t dur_ms)
{
	char name[64];
	uint64_t t = T0 + (uint64_t)i * PERIOD;

	snprintf(name, sizeof(name), "Choreographer#doFrame %d", 1000 + i);
	mark(t, PID, 'B', NULL, name, 0);
	mark(t + MS / 2, PID, 'B', NULL, "animation", 0);
	mark(t + MS, PID, 'E', NULL, NULL, 0);
	mark(t + dur_ms * MS, PID, 'E', NULL, NULL, 0);
}

static uint64_t at(int i, uint64_t ms)
{
	return T0 + (uint64_t)i * PERIOD + ms * MS;
}

static void S(uint64_t ts, int64_t cookie)
{
	mark(ts, PID, 'S', NULL, "animator:alpha", cookie);
}

static void F(uint64_t ts, int64_t cookie)
{
	mark(ts, PID, 'F', NULL, "animator:alpha", cookie);
}

/*
 * Frames 0..9; the CUJ begins between frames 1 and 2 and ends between 6 and 7: frames 2..6
 * are its frames. Animator 7 starts in frame 3 and ends in frame 5; animator 8 starts in
 * frame 8, after the CUJ.
 */
Test(engine_cujs, a_cuj_has_the_frames_and_animators_of_its_span)
{
	for (int i = 0; i < 10; i++) {
		if (i == 2)
			G(at(1, 12), "JSHADE_EXPAND_COLLAPSE", 1002);
		if (i == 7)
			H(at(6, 12), "JSHADE_EXPAND_COLLAPSE", 1002);
		frame(i, 8);
		if (i == 3)
			S(at(3, 1) - MS / 4, 7);
		if (i == 5)
			F(at(5, 1) - MS / 4, 7);
		if (i == 8)
			S(at(8, 1) - MS / 4, 8);
	}
	engine__finish(eng, at(10, 0), 0, 0);
	cr_assert_eq(rec.n, 1);
	cr_assert_str_eq(rec.cujs[0].name, "SHADE_EXPAND_COLLAPSE");
	cr_assert_str_eq(rec.cujs[0].process, "com.android.systemui");
	cr_assert_eq(rec.cujs[0].pid, PID);
	cr_assert_eq(rec.cujs[0].cookie, 1002);
	cr_assert_eq(rec.cujs[0].begin_ns, at(1, 12));
	cr_assert_eq(rec.cujs[0].end_ns, at(6, 12));
	cr_assert(rec.cujs[0].ended);
	cr_assert_eq(rec.cujs[0].frames, 5);
	cr_assert_eq(rec.cujs[0].janky_frames, 0);
	cr_assert_eq(rec.cujs[0].frames_dropped, 0);
	cr_assert_eq(rec.cujs[0].n_anims, 1);
	cr_assert_eq(rec.cujs[0].anim_ids[0], 7);
	cr_assert_eq(rec.cujs[0].anims_left_out, 0);
	cr_assert_eq(rec.cujs[0].animations, 0);
	cr_assert_eq(rec.sum.cujs, 1);
	/* it goes out right after frame 7, the first that began after its end */
	cr_assert_str_eq(rec.order, "ffffffffcff", "%s", rec.order);
}

/* Its frames' records decide: one late doFrame (25 ms), two vsyncs missed while an animator
 * ran; an animator running at its begin counts for it. */
Test(engine_cujs, janky_and_dropped_frames_are_those_of_its_frame_records)
{
	S(at(0, 1) - MS / 4 - PERIOD, 5); /* before frame 0: running when the CUJ begins */
	for (int i = 0; i < 10; i++) {
		if (i == 4 || i == 5)
			continue; /* two vsyncs missed */
		if (i == 1)
			G(at(0, 12), "JLAUNCHER_APP_CLOSE_TO_HOME", 1001);
		frame(i, i == 7 ? 25 : 8);
		if (i == 9) {
			F(at(9, 1) - MS / 4, 5);
			H(at(9, 12), "JLAUNCHER_APP_CLOSE_TO_HOME", 1001);
		}
	}
	engine__finish(eng, at(11, 0), 0, 0);
	cr_assert_eq(rec.n, 1);
	cr_assert_eq(rec.cujs[0].frames, 7, "frames 1, 2, 3, 6, 7, 8, 9: %u", rec.cujs[0].frames);
	cr_assert_eq(rec.cujs[0].janky_frames, 1);
	cr_assert_eq(rec.cujs[0].frames_dropped, 2);
	cr_assert_eq(rec.cujs[0].n_anims, 1);
	cr_assert_eq(rec.cujs[0].anim_ids[0], 5);
	cr_assert(rec.cujs[0].ended);
	cr_assert_eq(rec.cujs[0].end_ns, at(9, 12));
	/* the same counts as the frame records in its span */
	uint32_t janky = 0, dropped = 0;

	for (int i = 0; i < rec.n_frames; i++)
		if (rec.frames[i].start_ns >= rec.cujs[0].begin_ns &&
		    rec.frames[i].start_ns < rec.cujs[0].end_ns) {
			janky += rec.frames[i].janky;
			dropped += rec.frames[i].dropped_before;
		}
	cr_assert_eq(janky, 1);
	cr_assert_eq(dropped, 2);
}

/* Two CUJs at once, one never ended (out at the end of the session, begin order), and tracks
 * that are no CUJ: another name than the track's, an H with no CUJ open, animtrace's own. */
Test(engine_cujs, overlapping_unended_and_foreign_tracks)
{
	G(at(0, 12), "JNOTIFICATION_SHADE_EXPAND_COLLAPSE", 1000);
	mark(at(0, 13), PID, 'G', "JobScheduler", "com.foo/.SyncJob", 3);
	H(at(0, 13), "JUNLOCK", 4);
	mark(at(0, 13), PID, 'G', "animtrace", "animtrace", 5);
	frame(1, 8);
	G(at(1, 12), "JQS_EXPAND", 1001);
	frame(2, 8);
	frame(3, 8);
	/* Android 13's H names the slice too: H|pid|track|name|cookie */
	mark(at(3, 12), PID, 'H', "JQS_EXPAND", "JQS_EXPAND", 1001);
	frame(4, 8);
	engine__finish(eng, at(5, 0), 0, 0);
	cr_assert_eq(rec.n, 2);
	cr_assert_str_eq(rec.cujs[0].name, "QS_EXPAND");
	cr_assert(rec.cujs[0].ended);
	cr_assert_eq(rec.cujs[0].frames, 2);
	cr_assert_str_eq(rec.cujs[1].name, "NOTIFICATION_SHADE_EXPAND_COLLAPSE");
	cr_assert_not(rec.cujs[1].ended);
	cr_assert_eq(rec.cujs[1].end_ns, 0);
	cr_assert_eq(rec.cujs[1].frames, 4);
	cr_assert_eq(rec.cujs[1].n_anims, 0);
	cr_assert_eq(rec.sum.cujs, 2);
}

/* FrameTracker begins in a Choreographer callback (CALLBACK_INPUT) of the frame of its begin
 * vsync: that doFrame, open when the G is written, is its first frame. */
Test(engine_cujs, the_frame_its_begin_was_written_in_is_its_first)
{
	frame(0, 8);
	mark(at(1, 0), PID, 'B', NULL, "Choreographer#doFrame 1001", 0);
	mark(at(1, 0) + MS / 4, PID, 'B', NULL, "input", 0);
	G(at(1, 0) + MS / 2, "JSHADE_EXPAND_COLLAPSE", 1001);
	mark(at(1, 0) + MS, PID, 'E', NULL, NULL, 0);
	mark(at(1, 8), PID, 'E', NULL, NULL, 0);
	frame(2, 8);
	H(at(2, 4), "JSHADE_EXPAND_COLLAPSE", 1001); /* inside frame 2: it counts */
	frame(3, 8);
	engine__finish(eng, at(4, 0), 0, 0);
	cr_assert_eq(rec.n, 1);
	cr_assert_eq(rec.cujs[0].begin_ns, at(1, 0) + MS / 2);
	cr_assert_eq(rec.cujs[0].frames, 2, "frames 1 and 2: %u", rec.cujs[0].frames);
}

/* The process exits: its CUJ goes out with the frames it had; a new G of an open CUJ's track
 * starts it over (the first goes out unended, with the frames that began before). */
Test(engine_cujs, process_exit_and_restart)
{
	G(at(0, 12), "JRECENTS_SCROLLING", 1000);
	frame(1, 8);
	G(at(1, 12), "JRECENTS_SCROLLING", 1001);
	frame(2, 8);
	frame(3, 8);
	engine__process_exit(eng, at(4, 0), PID);
	cr_assert_eq(rec.n, 2);
	cr_assert_eq(rec.cujs[0].cookie, 1000);
	cr_assert_not(rec.cujs[0].ended);
	cr_assert_eq(rec.cujs[0].end_ns, 0);
	cr_assert_eq(rec.cujs[0].frames, 1, "frame 1");
	cr_assert_eq(rec.cujs[1].cookie, 1001);
	cr_assert_eq(rec.cujs[1].frames, 2, "frames 2 and 3");
	cr_assert_not(rec.cujs[1].ended);
}

/* An unmarked animation (no animator: a spring, a hand-written loop) moving a node in frames
 * 2..7 ran inside the CUJ; one in frames 11..16, after its end, did not. */
Test(engine_cujs, unmarked_animations_inside_it_count)
{
	char name[64];

	for (int i = 0; i < 18; i++) {
		if (i == 1)
			G(at(0, 12), "JSHADE_EXPAND_COLLAPSE", 1001);
		if (i == 9)
			H(at(8, 12), "JSHADE_EXPAND_COLLAPSE", 1001);
		snprintf(name, sizeof(name), "Choreographer#doFrame %d", 1000 + i);
		mark(at(i, 0), PID, 'B', NULL, name, 0);
		mark(at(i, 0) + MS / 2, PID, 'B', NULL, "animation", 0);
		if (i >= 2 && i <= 7)
			engine__prop(eng, at(i, 0) + 3 * MS / 4, PID, PID, 0x51c0, "Row",
				     PROP_TRANSLATION_X, 10.0f * (float)(i - 1), NULL);
		if (i >= 11 && i <= 16)
			engine__prop(eng, at(i, 0) + 3 * MS / 4, PID, PID, 0x61c0, "Scrim",
				     PROP_ALPHA, 1.0f - 0.1f * (float)(i - 10), NULL);
		mark(at(i, 1), PID, 'E', NULL, NULL, 0);
		mark(at(i, 8), PID, 'E', NULL, NULL, 0);
	}
	engine__finish(eng, at(19, 0), 0, 0);
	cr_assert_eq(rec.animations, 2, "the segmenter found both: %d", rec.animations);
	cr_assert_eq(rec.n, 1);
	cr_assert_eq(rec.cujs[0].frames, 8, "frames 1..8: %u", rec.cujs[0].frames);
	cr_assert_eq(rec.cujs[0].n_anims, 0);
	cr_assert_eq(rec.cujs[0].animations, 1);
}
