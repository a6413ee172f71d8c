// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The CUJ tracker (engine/cujs.c): InteractionJankMonitor's J<CUJ> sessions, through the engine. */
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
			G(at(1, 12), "J<SHADE_EXPAND_COLLAPSE>", 1002);
		if (i == 7)
			H(at(6, 12), "J<SHADE_EXPAND_COLLAPSE>", 1002);
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
	cr_assert_eq(rec.cujs[0].begin_vsync, 1002);
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
			G(at(0, 12), "J<LAUNCHER_APP_CLOSE_TO_HOME>", 1001);
		frame(i, i == 7 ? 25 : 8);
		if (i == 9) {
			F(at(9, 1) - MS / 4, 5);
			H(at(9, 12), "J<LAUNCHER_APP_CLOSE_TO_HOME>", 1001);
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
	G(at(0, 12), "J<NOTIFICATION_SHADE_EXPAND_COLLAPSE>", 1000);
	mark(at(0, 13), PID, 'G', "JobScheduler", "com.foo/.SyncJob", 3);
	H(at(0, 13), "J<UNLOCK>", 4);
	mark(at(0, 13), PID, 'G', "animtrace", "animtrace", 5);
	frame(1, 8);
	G(at(1, 12), "J<QS_EXPAND>", 1001);
	frame(2, 8);
	frame(3, 8);
	/* Android 13's H names the slice too: H|pid|track|name|cookie */
	mark(at(3, 12), PID, 'H', "J<QS_EXPAND>", "J<QS_EXPAND>", 1001);
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
	G(at(1, 0) + MS / 2, "J<SHADE_EXPAND_COLLAPSE>", 1001);
	mark(at(1, 0) + MS, PID, 'E', NULL, NULL, 0);
	mark(at(1, 8), PID, 'E', NULL, NULL, 0);
	frame(2, 8);
	H(at(2, 4), "J<SHADE_EXPAND_COLLAPSE>", 1001); /* inside frame 2: it counts */
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
	G(at(0, 12), "J<RECENTS_SCROLLING>", 1000);
	frame(1, 8);
	G(at(1, 12), "J<RECENTS_SCROLLING>", 1001);
	frame(2, 8);
	frame(3, 8);
	engine__process_exit(eng, at(4, 0), PID);
	cr_assert_eq(rec.n, 2);
	cr_assert_eq(rec.cujs[0].begin_vsync, 1000);
	cr_assert_not(rec.cujs[0].ended);
	cr_assert_eq(rec.cujs[0].end_ns, 0);
	cr_assert_eq(rec.cujs[0].frames, 1, "frame 1");
	cr_assert_eq(rec.cujs[1].begin_vsync, 1001);
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
			G(at(0, 12), "J<SHADE_EXPAND_COLLAPSE>", 1001);
		if (i == 9)
			H(at(8, 12), "J<SHADE_EXPAND_COLLAPSE>", 1001);
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

/* ---- what each Android version writes (engine/cujs.h) ---------------------------------- */

enum form { A12, A13, A14 };

/* FrameTracker's markEvent: 13 a zero-length slice "J<X>#FT#<event>", 14+ an instant
 * "FT#<event>" on the CUJ's track. */
static void ft_event(enum form f, uint64_t ts, const char *session, const char *ev)
{
	char name[128];

	if (f == A12)
		return;
	if (f == A14) {
		snprintf(name, sizeof(name), "FT#%s", ev);
		mark(ts, PID, 'N', session, name, 0);
		return;
	}
	snprintf(name, sizeof(name), "%s#FT#%s", session, ev);
	mark(ts, PID, 'B', NULL, name, 0);
	mark(ts, PID, 'E', NULL, NULL, 0);
}

/* FrameTracker.beginInternal in version f: its begin, with the cookie (int) mBeginVsyncId. */
static void ft_begin(enum form f, uint64_t ts, const char *session, int64_t vsync)
{
	char ev[64];

	if (f == A13)
		ft_event(f, ts, session, "begin");
	if (f == A14)
		G(ts, session, vsync);
	else
		mark(ts, PID, 'S', NULL, session, vsync);
	snprintf(ev, sizeof(ev), "beginVsync#%lld", (long long)vsync);
	if (f == A14)
		ft_event(f, ts, session, ev);
}

/* FrameTracker.end (reason 0) or cancel (reason >= 16): its event(s), then its end. */
static void ft_end(enum form f, uint64_t ts, const char *session, int64_t vsync, int reason)
{
	char ev[64];

	snprintf(ev, sizeof(ev), "%s#%d", reason >= 16 ? "cancel" : "end", reason);
	ft_event(f, ts, session, ev);
	if (reason < 16 && f == A14)
		ft_event(f, ts, session, "endVsync#1009");
	if (f == A14)
		H(ts, session, vsync);
	else
		mark(ts, PID, 'F', NULL, session, vsync);
}

/* Frames 0..11: SHADE_EXPAND_COLLAPSE over frames 2..6 (animator 7 inside), QS_EXPAND from
 * frame 8, cancelled in frame 9. */
static void two_cujs(enum form f)
{
	for (int i = 0; i < 12; i++) {
		if (i == 2)
			ft_begin(f, at(1, 12), "J<SHADE_EXPAND_COLLAPSE>", 1002);
		if (i == 7)
			ft_end(f, at(6, 12), "J<SHADE_EXPAND_COLLAPSE>", 1002, 0);
		if (i == 8)
			ft_begin(f, at(7, 12), "J<QS_EXPAND::tile>", 1008);
		if (i == 10)
			ft_end(f, at(9, 12), "J<QS_EXPAND::tile>", 1008, 16);
		frame(i, 8);
		if (i == 3)
			S(at(3, 1) - MS / 4, 7);
		if (i == 5)
			F(at(5, 1) - MS / 4, 7);
	}
	engine__finish(eng, at(12, 0), 0, 0);
}

static void restart(void)
{
	teardown();
	setup();
}

static void same_cuj(const struct cuj *a, const struct cuj *b)
{
	cr_assert_str_eq(a->name, b->name);
	cr_assert_eq(a->begin_vsync, b->begin_vsync, "%s", a->name);
	cr_assert_eq(a->begin_ns, b->begin_ns);
	cr_assert_eq(a->end_ns, b->end_ns);
	cr_assert_eq(a->ended, b->ended);
	cr_assert_eq(a->cancelled, b->cancelled, "%s", a->name);
	cr_assert_eq(a->has_reason, b->has_reason);
	cr_assert_eq(a->reason, b->reason);
	cr_assert_eq(a->frames, b->frames);
	cr_assert_eq(a->janky_frames, b->janky_frames);
	cr_assert_eq(a->n_anims, b->n_anims);
}

/* Android 13's S/F with its FT# slices and 14's G/H with its FT# instants: one record each,
 * the same; the name is what stands between "J<" and ">", its tag kept. */
Test(engine_cujs, android_13_and_14_give_the_same_records)
{
	struct cuj a13[2];
	uint64_t frames13;

	two_cujs(A13);
	cr_assert_eq(rec.n, 2);
	memcpy(a13, rec.cujs, sizeof(a13));
	frames13 = (uint64_t)rec.n_frames;
	restart();
	two_cujs(A14);
	cr_assert_eq(rec.n, 2);
	cr_assert_eq(rec.n_frames, (int)frames13, "13's FT# slices are no frames of their own");
	for (int i = 0; i < 2; i++)
		same_cuj(&rec.cujs[i], &a13[i]);
	cr_assert_str_eq(rec.cujs[0].name, "SHADE_EXPAND_COLLAPSE");
	cr_assert_eq(rec.cujs[0].begin_vsync, 1002);
	cr_assert(rec.cujs[0].ended && !rec.cujs[0].cancelled);
	cr_assert(rec.cujs[0].has_reason);
	cr_assert_eq(rec.cujs[0].reason, 0);
	cr_assert_eq(rec.cujs[0].frames, 5);
	cr_assert_eq(rec.cujs[0].n_anims, 1);
	cr_assert_str_eq(rec.cujs[1].name, "QS_EXPAND::tile");
	cr_assert(rec.cujs[1].ended && rec.cujs[1].cancelled);
	cr_assert_eq(rec.cujs[1].reason, 16);
	cr_assert_eq(rec.cujs[1].begin_vsync, 1008);
	cr_assert_eq(rec.cujs[1].frames, 2, "frames 8 and 9");
}

/* Android 12 writes a cancel as an end (S then F, no FT# event): the same spans and frames,
 * neither reason nor cancel said. */
Test(engine_cujs, android_12_says_no_reason_and_no_cancel)
{
	struct cuj a14[2];

	two_cujs(A14);
	memcpy(a14, rec.cujs, sizeof(a14));
	restart();
	two_cujs(A12);
	cr_assert_eq(rec.n, 2);
	for (int i = 0; i < 2; i++) {
		cr_assert_str_eq(rec.cujs[i].name, a14[i].name);
		cr_assert_eq(rec.cujs[i].begin_vsync, a14[i].begin_vsync);
		cr_assert_eq(rec.cujs[i].end_ns, a14[i].end_ns);
		cr_assert_eq(rec.cujs[i].frames, a14[i].frames);
		cr_assert(rec.cujs[i].ended);
		cr_assert_not(rec.cujs[i].cancelled);
		cr_assert_not(rec.cujs[i].has_reason);
	}
}

/* A Perfetto TrackEvent CUJ (replay/pftrackevent.c) has no cookie: its FT#beginVsync says the
 * begin vsync. An FT# event of a session not open, a cancel of one that never began, says
 * nothing; nor do names that are no session. */
Test(engine_cujs, ft_begin_vsync_and_names_that_are_no_session)
{
	mark(at(0, 1), PID, 'N', "J<SHADE_EXPAND_COLLAPSE>", "FT#cancel#17", 0);
	G(at(0, 2), "J<SHADE_EXPAND_COLLAPSE>", 0);
	mark(at(0, 2), PID, 'N', "J<SHADE_EXPAND_COLLAPSE>", "FT#beginVsync#4294967297", 0);
	mark(at(0, 2), PID, 'N', "J<SHADE_EXPAND_COLLAPSE>", "FT#layerId#12", 0);
	G(at(0, 3), "JSHADE_EXPAND_COLLAPSE", 1);		  /* never Android's */
	mark(at(0, 3), PID, 'S', NULL, "L<UNLOCK>", 2);		  /* a latency CUJ */
	mark(at(0, 3), PID, 'S', NULL, "J<>", 3);		  /* no name */
	mark(at(0, 3), PID, 'B', NULL, "J<QS>#FTX#cancel#16", 0); /* no FT# event */
	mark(at(0, 3), PID, 'N', "J<SHADE_EXPAND_COLLAPSE>", "FT#cancel#x", 0); /* no value */
	mark(at(0, 3), PID, 'E', NULL, NULL, 0);
	frame(1, 8);
	H(at(1, 12), "J<SHADE_EXPAND_COLLAPSE>", 0);
	frame(2, 8);
	engine__finish(eng, at(3, 0), 0, 0);
	cr_assert_eq(rec.n, 1);
	cr_assert_eq(rec.cujs[0].begin_vsync, 4294967297ll);
	cr_assert_not(rec.cujs[0].cancelled);
	cr_assert_not(rec.cujs[0].has_reason);
	cr_assert_eq(rec.cujs[0].frames, 1);
}

/* A session name longer than the record keeps: cut at a character, no ">" left to strip. */
Test(engine_cujs, a_long_name_is_cut_whole)
{
	char session[AT_NAME_MAX + 40];

	memset(session, 'A', sizeof(session) - 1);
	session[0] = 'J';
	session[1] = '<';
	session[sizeof(session) - 2] = '>';
	session[sizeof(session) - 1] = '\0';
	G(at(0, 1), session, 5);
	H(at(0, 2), session, 5);
	engine__finish(eng, at(1, 0), 0, 0);
	cr_assert_eq(rec.n, 1);
	cr_assert_eq(strlen(rec.cujs[0].name), AT_NAME_MAX - 3);
	cr_assert(rec.cujs[0].ended);
}
