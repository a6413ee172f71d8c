// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Who redraws (--refresh): Views re-recorded per frame, per animator, and refresh storms. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine/engine.h"

#define MS 1000000ull
#define P60 16666667ull
#define MAX 128
#define PID 60
#define UI 60
#define RT 61
#define ROW 0x7100080e0ull
#define METER 0x710001a2bull

struct rec {
	struct frame frames[MAX];
	struct redraw_node redraws[MAX][4];
	int n_frames;
	struct anim ends[8];
	int n_ends;
	struct refresh_storm storms[4];
	int n_storms;
	struct summary sum;
	struct redraw_stat top[AT_REDRAW_TOP];
};

static struct rec rec;
static struct engine *eng;

static int on_frame(void *ctx, const struct frame *f)
{
	cr_assert(f->n_redraws <= 4);
	if (rec.n_frames < MAX) {
		if (f->n_redraws) /* redraws may be NULL when there are none */
			memcpy(rec.redraws[rec.n_frames], f->redraws,
			       f->n_redraws * sizeof(*f->redraws));
		rec.frames[rec.n_frames++] = *f;
	}
	return 0;
}

static int on_end(void *ctx, const struct anim *a)
{
	if (rec.n_ends < 8)
		rec.ends[rec.n_ends++] = *a;
	return 0;
}

static int on_storm(void *ctx, const struct refresh_storm *s)
{
	if (rec.n_storms < 4)
		rec.storms[rec.n_storms++] = *s;
	return 0;
}

static int on_summary(void *ctx, const struct summary *s)
{
	rec.sum = *s;
	memcpy(rec.top, s->redraw_views, s->n_redraw_views * sizeof(*s->redraw_views));
	return 0;
}

static const struct sink_ops ops = {
	.frame = on_frame,
	.anim_end = on_end,
	.summary = on_summary,
	.refresh_storm = on_storm,
};

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

TestSuite(redraw, .init = setup, .fini = teardown);

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

/* Frame i at t: the animation phase sets alpha of row (when row), the draw re-records the
 * nodes given (0 ends the list), each frame asks for the next vsync when vsync is set. */
static void frame(uint64_t t, bool alpha, bool vsync, uint64_t n1, uint64_t n2)
{
	static const char(*none)[AT_FRAME_NAME] = NULL;

	mk(t, UI, "B|%d|Choreographer#doFrame", PID);
	if (alpha)
		engine__prop(eng, t + MS, PID, UI, ROW, "NotificationRow", PROP_ALPHA, 0.5f, NULL);
	if (vsync)
		engine__vsync_request(eng, t + MS, PID, UI, none, 0);
	if (n1)
		engine__redraw(eng, t + 2 * MS, PID, UI, n1, NULL);
	if (n2)
		engine__redraw(eng, t + 2 * MS, PID, UI, n2, NULL);
	if (n1) /* twice in one frame is still one redraw of that frame */
		engine__redraw(eng, t + 3 * MS, PID, UI, n1, NULL);
	mk(t + 5 * MS, UI, "E|%d", PID);
	mk(t + 6 * MS, RT, "B|%d|DrawFrame", PID);
	mk(t + 7 * MS, RT, "E|%d", PID);
}

Test(redraw, an_alpha_animator_whose_target_redraws_in_every_frame_counts_each_frame)
{
	uint64_t t = 1000 * MS;

	engine__refresh_active(eng, PID);
	mk(t - MS, UI, "S|%d|animator:alpha|7", PID);
	for (int i = 0; i < 18; i++)
		frame(t + i * P60, true, true, i < 12 ? ROW : 0, i % 2 ? METER : 0);
	mk(t + 18 * P60, UI, "F|%d|animator:alpha|7", PID);
	engine__finish(eng, t + 20 * P60, 0, 0);
	cr_assert_eq(rec.n_ends, 1);
	cr_assert(rec.ends[0].refresh_traced);
	cr_assert_eq(rec.ends[0].frames, 18);
	cr_assert_eq(rec.ends[0].target_node, ROW);
	cr_assert_eq(rec.ends[0].target_redraws, 12, "METER's redraws are not the target's");
	cr_assert_eq(rec.ends[0].frames, 18);
	cr_assert_eq(rec.n_frames, 18);
	cr_assert(rec.frames[0].refresh);
	cr_assert_eq(rec.frames[0].n_redraws, 1);
	cr_assert_eq(rec.redraws[0][0].node, ROW);
	cr_assert_str_eq(rec.redraws[0][0].node_name, "NotificationRow");
	cr_assert_eq(rec.frames[1].n_redraws, 2);
	cr_assert_eq(rec.redraws[1][1].node, METER);
	cr_assert_str_eq(rec.redraws[1][1].node_name, "RenderNode@1a2b");
	cr_assert_eq(rec.frames[12].n_redraws, 0);
	cr_assert_eq(rec.frames[17].vsync_requests, 1);
	cr_assert_eq(rec.n_storms, 0, "an animation ran: no storm");
	cr_assert(rec.sum.refresh);
	cr_assert_eq(rec.sum.n_redraw_views, 2);
	cr_assert_eq(rec.top[0].node, ROW);
	cr_assert_eq(rec.top[0].frames, 12);
	cr_assert_eq(rec.top[1].node, METER);
	cr_assert_eq(rec.top[1].frames, 9);
}

Test(redraw, a_redraw_between_frames_counts_for_the_next_frame)
{
	uint64_t t = 1000 * MS;

	frame(t, false, false, 0, 0);
	engine__redraw(eng, t + 10 * MS, PID, UI, METER, "BatteryMeterView");
	engine__vsync_request(eng, t + 10 * MS, PID, UI, NULL, 0);
	frame(t + P60, false, false, 0, 0);
	engine__finish(eng, t + 3 * P60, 0, 0);
	cr_assert_eq(rec.n_frames, 2);
	cr_assert_eq(rec.frames[0].n_redraws, 0);
	cr_assert_eq(rec.frames[0].vsync_requests, 0);
	cr_assert_eq(rec.frames[1].n_redraws, 1);
	cr_assert_str_eq(rec.redraws[1][0].node_name, "BatteryMeterView");
	cr_assert_eq(rec.frames[1].vsync_requests, 1);
}

Test(redraw, forty_idle_frames_that_redraw_one_view_are_one_storm_reported_once)
{
	static const char stack[2][AT_FRAME_NAME] = { "android.view.View.invalidate",
						      "com.example.BatteryMeterView.onLevel" };
	uint64_t t = 1000 * MS;

	engine__refresh_active(eng, PID);
	engine__vsync_request(eng, t - MS, PID, UI, stack, 2);
	for (int i = 0; i < 40; i++)
		frame(t + i * P60, false, true, METER, i < 3 ? ROW : 0);
	for (int i = 40; i < 45; i++)
		frame(t + i * P60, false, false, 0, 0); /* quiet: the storm is over */
	for (int i = 45; i < 70; i++)
		frame(t + i * P60, false, true, METER, 0); /* 25 frames: too short for a storm */
	engine__finish(eng, t + 80 * P60, 0, 0);
	cr_assert_eq(rec.n_storms, 1);
	cr_assert_eq(rec.storms[0].pid, PID);
	cr_assert_eq(rec.storms[0].node, METER);
	cr_assert_eq(rec.storms[0].node_frames, 40);
	cr_assert_eq(rec.storms[0].frames, 40);
	cr_assert_eq(rec.storms[0].n_views, 2);
	cr_assert_eq(rec.storms[0].vsync_requests, 41, "the first frame's request came before it");
	cr_assert_eq(rec.storms[0].first_ns, t);
	cr_assert_eq(rec.storms[0].duration_ns, 39 * P60 + 5 * MS);
	cr_assert_eq(rec.storms[0].n_stack, 2);
	cr_assert_str_eq(rec.storms[0].stack[1], "com.example.BatteryMeterView.onLevel");
}

Test(redraw, a_storm_still_going_at_exit_is_reported_by_the_process_exit)
{
	uint64_t t = 1000 * MS;

	for (int i = 0; i < 30; i++)
		frame(t + i * P60, false, true, 0, 0); /* requests only, nothing re-recorded */
	engine__process_exit(eng, t + 31 * P60, PID);
	cr_assert_eq(rec.n_storms, 1);
	cr_assert_eq(rec.storms[0].node, 0);
	cr_assert_eq(rec.storms[0].frames, 30);
	cr_assert_eq(rec.storms[0].vsync_requests, 30);
	engine__finish(eng, t + 40 * P60, 0, 0);
	cr_assert_eq(rec.n_storms, 1, "once");
}

Test(redraw, without_refresh_probes_frames_and_animators_say_nothing_of_redraws)
{
	uint64_t t = 1000 * MS;

	mk(t - MS, UI, "S|%d|animator:alpha|7", PID);
	frame(t, true, false, 0, 0);
	mk(t + P60, UI, "F|%d|animator:alpha|7", PID);
	engine__finish(eng, t + 2 * P60, 0, 0);
	cr_assert(!rec.frames[0].refresh);
	cr_assert(!rec.ends[0].refresh_traced);
	cr_assert(!rec.sum.refresh);
	cr_assert_eq(rec.sum.n_redraw_views, 0);
}
