// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Frames as Android makes them, on the Pixel 6a Android 13 capture: the period from time (its
 * doFrame ids rise by 8 to 35 per vsync), each frame against its vsync, and SurfaceFlinger's
 * FrameTimeline verdicts beside animtrace's (systemui's 191058 on thread 2380 is the only
 * late app frame: it began 7.9 ms after its vsync, in addStartingWindow > addRootView).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "common/frametimeline.h"
#include "engine/engine.h"
#include "replay/replay.h"

#define PIXEL TESTDATA "/traces/pixel6a-android13-startup.perfetto-trace"
#define MAX 256

static struct {
	struct frame frames[MAX];
	int n_frames;
	struct jank janks[16];
	int n_janks;
	struct anim ends[32];
	int n_ends;
	struct proc_stat procs[16];
	int n_procs;
} got;

static int on_frame(void *ctx, const struct frame *f)
{
	if (got.n_frames < MAX)
		got.frames[got.n_frames++] = *f;
	return 0;
}

static int on_jank(void *ctx, const struct jank *j)
{
	if (got.n_janks < 16)
		got.janks[got.n_janks++] = *j;
	return 0;
}

static int on_end(void *ctx, const struct anim *a)
{
	if (got.n_ends < 32)
		got.ends[got.n_ends++] = *a;
	return 0;
}

static int on_summary(void *ctx, const struct summary *s)
{
	got.n_procs = s->n_procs < 16 ? s->n_procs : 16;
	memcpy(got.procs, s->procs, got.n_procs * sizeof(*s->procs));
	return 0;
}

static const struct sink_ops ops = {
	.frame = on_frame,
	.jank = on_jank,
	.anim_end = on_end,
	.summary = on_summary,
};

static void replay_pixel(void)
{
	struct engine *e = engine__new(NULL, (struct sink){ &ops, NULL });
	struct replay_stats st;
	char msg[512];

	memset(&got, 0, sizeof(got));
	cr_assert_not_null(e);
	cr_assert_eq(replay_run(PIXEL, NULL, e, &st, msg, sizeof(msg)), 0, "%s", msg);
	engine__finish(e, st.last_ns, 0, 0);
	engine__free(e);
}

static const struct proc_stat *proc(uint32_t pid)
{
	for (int i = 0; i < got.n_procs; i++)
		if (got.procs[i].pid == pid)
			return &got.procs[i];
	cr_assert_fail("no summary line for pid %u", pid);
	return NULL;
}

TestSuite(vsync_replay, .init = replay_pixel, .timeout = 60);

Test(vsync_replay, the_period_is_sixty_hertz_in_systemui_launcher_and_system_server)
{
	static const uint32_t pids[] = { 2348, 2969, 1858 };

	for (int i = 0; i < 3; i++) {
		double err = (double)proc(pids[i])->refresh_period_ns / 16666667.0 - 1.0;

		cr_assert(err < 0.02 && err > -0.02, "pid %u: %llu ns", pids[i],
			  (unsigned long long)proc(pids[i])->refresh_period_ns);
	}
	cr_assert_geq(got.n_frames, 30);
	for (int i = 0; i < got.n_frames; i++)
		cr_assert_geq(got.frames[i].budget_ns, 8000000ull, "frame %lld: budget %llu",
			      (long long)got.frames[i].vsync_id,
			      (unsigned long long)got.frames[i].budget_ns);
}

Test(vsync_replay, none_of_its_eight_animators_drops_a_frame)
{
	cr_assert_eq(got.n_ends, 8);
	for (int i = 0; i < got.n_ends; i++)
		cr_assert_eq(got.ends[i].frames_dropped, 0, "animator %llu of %u",
			     (unsigned long long)got.ends[i].id, got.ends[i].pid);
	for (int i = 0; i < got.n_procs; i++)
		cr_assert_eq(got.procs[i].frames_dropped, 0, "pid %u", got.procs[i].pid);
}

Test(vsync_replay, janky_agrees_with_frametimeline_on_its_six_app_frames)
{
	int judged = 0, janky = 0;
	uint64_t agree = 0, disagree = 0;

	for (int i = 0; i < got.n_frames; i++) {
		const struct frame *f = &got.frames[i];

		if (!f->timeline.judged)
			continue;
		judged++;
		cr_assert_eq(f->janky, ft_jank_is_app(f->timeline.jank_type), "frame %lld",
			     (long long)f->vsync_id);
		if (f->janky) {
			janky++;
			cr_assert_eq(f->vsync_id, 191058);
			cr_assert_eq(f->pid, 2348);
			cr_assert_eq(f->tid, 2380);
			cr_assert_eq(f->timeline.present, FT_PRESENT_LATE);
			cr_assert_geq(f->start_delay_ns, 7000000ull);
		}
	}
	cr_assert_eq(judged, 6);
	cr_assert_eq(janky, 1);
	for (int i = 0; i < got.n_procs; i++) {
		agree += got.procs[i].timeline_agree;
		disagree += got.procs[i].timeline_disagree;
	}
	cr_assert_eq(agree, 6);
	cr_assert_eq(disagree, 0);
}

Test(vsync_replay, the_late_frame_names_app_deadline_missed_and_what_delayed_its_start)
{
	const struct jank *j = NULL;
	const char *names[4];

	for (int i = 0; i < got.n_janks; i++)
		if (got.janks[i].kind == JANK_LATE && got.janks[i].vsync_id == 191058)
			j = &got.janks[i];
	cr_assert_not_null(j);
	cr_assert(j->timeline.judged);
	cr_assert_eq(ft_jank_names(j->timeline.jank_type, names, 4), 1);
	cr_assert_str_eq(names[0], "App Deadline Missed");
	cr_assert_geq(j->start.n, 2);
	cr_assert_str_eq(j->start.s[0].name, "addStartingWindow");
	cr_assert_str_eq(j->start.s[1].name, "addRootView");
	cr_assert_eq(j->start_delay_ns, j->ts_ns - j->vsync_ns);
	cr_assert_gt(j->start_delay_ns, 7900000ull);
	cr_assert_lt(j->start_delay_ns, 8000000ull);
}
