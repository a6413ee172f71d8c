// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * DynamicAnimation lifecycles from the ART probes (engine/dynanims.h): a run from start() to
 * endAnimationInternal, its exact target from the writes inside its doAnimationFrame, its
 * parameters fitted from those values, its reason and stacks; and no unmarked copy of it.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "common/caps.h"
#include "engine/engine.h"
#include "fit_sim.h"

#define MS 1000000ull
#define PID 10
#define NODE 0x7b0a51c0ull
#define SPRING_A 0x12c40010ull
#define SPRING_B 0x12c40050ull
#define MAX 8

static struct {
	struct dyn_anim starts[MAX], ends[MAX];
	int n_starts, n_ends, n_unmarked, n_summaries;
	uint64_t animations[FIT_OTHER + 1]; /* the summary's */
	int n_writes;			    /* writes of NODE's translationX in frame_props */
	struct prop_write writes[MAX];	    /* the first MAX of them */
} rec;
static struct engine *eng;

static int on_dyn_start(void *ctx, const struct dyn_anim *a)
{
	if (rec.n_starts < MAX)
		rec.starts[rec.n_starts++] = *a;
	return 0;
}

static int on_dyn_end(void *ctx, const struct dyn_anim *a)
{
	if (rec.n_ends < MAX)
		rec.ends[rec.n_ends++] = *a;
	return 0;
}

static int on_animation_end(void *ctx, const struct animation *a)
{
	rec.n_unmarked++;
	return 0;
}

static int on_frame_props(void *ctx, const struct frame_props *fp)
{
	for (int i = 0; i < fp->n_nodes; i++) {
		const struct node_props *np = &fp->nodes[i];

		if (np->node != NODE)
			continue;
		for (int k = 0; k < np->n_writes[PROP_TRANSLATION_X]; k++)
			if (rec.n_writes++ < MAX)
				rec.writes[rec.n_writes - 1] = np->writes[PROP_TRANSLATION_X][k];
	}
	return 0;
}

static int on_summary(void *ctx, const struct summary *s)
{
	rec.n_summaries++;
	memcpy(rec.animations, s->animations, sizeof(rec.animations));
	return 0;
}

static const struct sink_ops ops = {
	.frame_props = on_frame_props,
	.summary = on_summary,
	.dyn_start = on_dyn_start,
	.dyn_end = on_dyn_end,
	.animation_end = on_animation_end,
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

TestSuite(dyn, .init = setup, .fini = teardown);

static void mark(uint64_t ts, char type, const char *name)
{
	struct marker m = { .type = (enum marker_type)type, .tgid = PID };

	m.name.p = name ? name : "";
	m.name.len = name ? strlen(name) : 0;
	engine__marker(eng, ts, PID, PID, "com.example.dyn", &m);
}

static const char stack_start[3][AT_FRAME_NAME] = {
	"com.android.internal.dynamicanimation.animation.DynamicAnimation.start",
	"com.example.dock.DockView.snapTo",
	"com.example.dock.DockView.onTouchEvent",
};

static void call(uint64_t ts, enum dyn_call c, uint64_t obj, uint64_t arg)
{
	engine__dyn_call(eng, ts, PID, PID, c, obj, arg, stack_start, 3);
}

/* Frame i at 60 Hz: doFrame, the animation phase, obj's doAnimationFrame writing x. */
static uint64_t frame(int i, uint64_t obj, float x)
{
	uint64_t t = 5000 * MS + (uint64_t)llround(i * 1e9 / 60);

	mark(t, 'B', "Choreographer#doFrame");
	mark(t + 100000, 'B', "animation");
	call(t + 200000, DYN_CALL_FRAME, obj, t / MS);
	engine__prop(eng, t + 300000, PID, PID, NODE, "DockView", PROP_TRANSLATION_X, x, NULL);
	mark(t + 400000, 'E', NULL);
	mark(t + 500000, 'E', NULL);
	return t;
}

/* A spring from 0 to 300, stiffness 200 (LOW), damping 0.5, to its rest, its object moved to
 * moved_to from frame move_at on (0: never); returns its frames. */
static int spring_run_moved(uint64_t obj, int first, int max_frames, bool *rested,
			    uint64_t moved_to, int move_at)
{
	struct sim_spring_state s = { sqrt(200.0), 0.5, 0.75, 0.75 * 1000.0 / 16, 300, 0 };
	float x = 0;
	long last = 0;
	int i;

	*rested = false;
	for (i = 0; i < max_frames; i++) {
		uint64_t t = 5000 * MS + (uint64_t)llround((first + i) * 1e9 / 60);
		long ms = (long)(t / MS);

		if (i > 0)
			*rested = sim_spring_frame(&s, ms - last, &x);
		last = ms;
		frame(first + i, move_at && i >= move_at ? moved_to : obj, x);
		if (*rested)
			return i + 1;
	}
	return i;
}

static int spring_run(uint64_t obj, int first, int max_frames, bool *rested)
{
	return spring_run_moved(obj, first, max_frames, rested, 0, 0);
}

Test(dyn, a_spring_to_its_rest_has_its_start_stack_target_fit_and_no_unmarked_copy)
{
	bool rested;
	int n;

	call(4990 * MS, DYN_CALL_SPRING_START, SPRING_A, 0);
	call(4990 * MS + 1000, DYN_CALL_START, SPRING_A, 0);
	n = spring_run(SPRING_A, 0, 200, &rested);
	cr_assert(rested);
	call(5000 * MS + (uint64_t)llround((n - 1) * 1e9 / 60) + 350000, DYN_CALL_END, SPRING_A, 0);
	engine__finish(eng, 9000 * MS, 0, 0);

	cr_assert_eq(rec.n_starts, 1);
	cr_assert_eq(rec.n_ends, 1);
	const struct dyn_anim *a = &rec.ends[0];

	cr_assert_eq(a->id, 1);
	cr_assert_eq(a->kind, DYN_SPRING);
	cr_assert_eq(a->reason, END_COMPLETE);
	cr_assert_eq(a->start_ns, 4990 * MS);
	cr_assert_eq(a->frames, (uint32_t)n);
	cr_assert(a->has_target);
	cr_assert_eq(a->node, NODE);
	cr_assert_str_eq(a->node_name, "DockView");
	cr_assert_eq(a->prop, PROP_TRANSLATION_X);
	cr_assert_float_eq(a->from, 0, 1e-6);
	cr_assert_float_eq(a->to, 300, 1e-6);
	/* the framework frame is filtered as the seed's tracer filters it */
	cr_assert_eq(a->n_start_stack, 2);
	cr_assert_str_eq(a->start_stack[0], "com.example.dock.DockView.snapTo");
	cr_assert(a->fitted);
	cr_assert_eq(a->fit.kind, FIT_SPRING);
	cr_assert(fabs(a->fit.stiffness - 200) < 200 * 0.05, "stiffness %f", a->fit.stiffness);
	cr_assert(fabs(a->fit.damping_ratio - 0.5) < 0.05, "damping %f", a->fit.damping_ratio);
	cr_assert(fabs(a->fit.final_position - 300) < 1, "final %f", a->fit.final_position);
	cr_assert_eq(rec.n_unmarked, 0, "the segment finder reported the spring again");
}

/* frame_props name the run as the writer of each write inside its doAnimationFrame */
Test(dyn, a_write_inside_a_runs_frame_is_that_runs_in_frame_props)
{
	call(4990 * MS, DYN_CALL_START, SPRING_A, 0);
	frame(0, SPRING_A, 10);
	frame(1, SPRING_A, 20);
	frame(2, SPRING_A, 30);
	engine__finish(eng, 9000 * MS, 0, 0);

	cr_assert_eq(rec.n_writes, 3);
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(rec.writes[i].writer, WRITER_DYNAMIC, "write %d", i);
		cr_assert_eq(rec.writes[i].anim, 1, "write %d: the run's id", i);
		cr_assert_float_eq(rec.writes[i].value, 10.0f * (float)(i + 1), 0);
	}
}

Test(dyn, a_spring_cancelled_by_the_next_says_cancel_its_caller_and_is_replaced)
{
	bool rested;
	static const char stack_cancel[2][AT_FRAME_NAME] = {
		"com.example.dock.DockView.retarget",
		"com.example.dock.DockView.onTouchEvent",
	};

	call(4990 * MS, DYN_CALL_SPRING_START, SPRING_A, 0);
	spring_run(SPRING_A, 0, 10, &rested);
	engine__dyn_call(eng, 5200 * MS, PID, PID, DYN_CALL_CANCEL, SPRING_A, 0, stack_cancel, 2);
	call(5200 * MS + 1000, DYN_CALL_END, SPRING_A, 1);
	call(5200 * MS + 2000, DYN_CALL_SPRING_START, SPRING_B, 0);
	spring_run(SPRING_B, 13, 5, &rested);
	engine__finish(eng, 9000 * MS, 0, 0);

	cr_assert_eq(rec.n_ends, 2);
	cr_assert_eq(rec.ends[0].id, 1);
	cr_assert_eq(rec.ends[0].reason, END_CANCEL);
	cr_assert_eq(rec.ends[0].end_ns, 5200 * MS + 1000);
	cr_assert_eq(rec.ends[0].n_end_stack, 2);
	cr_assert_str_eq(rec.ends[0].end_stack[0], "com.example.dock.DockView.retarget");
	cr_assert_eq(rec.ends[1].id, 2);
	cr_assert_eq(rec.ends[1].replaces, 1);
	cr_assert_eq(rec.ends[1].reason, END_RUNNING_AT_EXIT);
	cr_assert_eq(rec.n_unmarked, 0);
	/* both count in the summary where springs are counted, and nothing else does */
	cr_assert_eq(rec.n_summaries, 1);
	cr_assert_eq(rec.animations[FIT_SPRING], 2);
	cr_assert_eq(rec.animations[FIT_FLING], 0);
	cr_assert_eq(rec.animations[FIT_INTERPOLATED], 0);
	cr_assert_eq(rec.animations[FIT_OTHER], 0);
}

Test(dyn, skip_to_end_ends_as_end_and_a_start_of_a_running_one_is_no_new_run)
{
	bool rested;

	call(4990 * MS, DYN_CALL_START, SPRING_A, 0);
	spring_run(SPRING_A, 0, 4, &rested);
	call(5100 * MS, DYN_CALL_START, SPRING_A, 0);
	call(5100 * MS + 10, DYN_CALL_SKIP, SPRING_A, 0);
	call(5117 * MS, DYN_CALL_END, SPRING_A, 0);
	cr_assert_eq(rec.n_starts, 1);
	cr_assert_eq(rec.n_ends, 1);
	cr_assert_eq(rec.ends[0].reason, END_FORCE_END);
	cr_assert_eq(rec.ends[0].kind, DYN_UNKNOWN, "4 frames: too few to say fling");
}

Test(dyn, a_fling_is_named_by_its_fit_and_a_run_seen_first_in_a_frame_still_counts)
{
	struct sim_fling_state s = { 1.0f * -4.2f, 0.75f * (1000.0f / 16.0f), -1e9f, 1e9f, 2000 };
	float x = 0;
	long last = 0;
	int i;

	for (i = 0; i < 200; i++) {
		uint64_t t = 5000 * MS + (uint64_t)llround(i * 1e9 / 60);
		bool done = false;

		if (i > 0)
			done = sim_fling_frame(&s, (long)(t / MS) - last, &x);
		last = (long)(t / MS);
		frame(i, SPRING_B, x);
		if (done)
			break;
	}
	call(5000 * MS + (uint64_t)llround(i * 1e9 / 60) + 350000, DYN_CALL_END, SPRING_B, 0);
	cr_assert_eq(rec.n_ends, 1);
	cr_assert_eq(rec.ends[0].kind, DYN_FLING);
	cr_assert_eq(rec.ends[0].reason, END_COMPLETE);
	cr_assert_eq(rec.ends[0].n_start_stack, 0, "no start() seen");
	cr_assert(fabs(rec.ends[0].fit.friction_scalar - 1) < 0.05, "friction %f",
		  rec.ends[0].fit.friction_scalar);
	cr_assert(fabs(rec.ends[0].fit.start_velocity - 2000) < 2000 * 0.05, "v0 %f",
		  rec.ends[0].fit.start_velocity);
	engine__finish(eng, 9000 * MS, 0, 0);
	cr_assert_eq(rec.animations[FIT_FLING], 1);
	cr_assert_eq(rec.animations[FIT_SPRING], 0);
}

Test(dyn, what_the_heap_reader_gives_first_is_kept_beside_the_fit)
{
	struct dyn_config c = {
		.has_spring = true, .stiffness = 200, .damping_ratio = 0.5, .final_position = 300
	};
	struct dyn_config later = c;
	bool rested;

	call(4990 * MS, DYN_CALL_SPRING_START, SPRING_A, 0);
	engine__dyn_config(eng, PID, SPRING_A, &c);
	engine__dyn_config(eng, PID, SPRING_B, &c); /* no run of it: ignored */
	/* DynamicAnimation.start's copy after SpringAnimation.start's, or a start() of the
	 * running spring (a no-op) that sees it mid-run: the first read stands */
	later.final_position = 999;
	engine__dyn_config(eng, PID, SPRING_A, &later);
	spring_run(SPRING_A, 0, 200, &rested);
	call(9000 * MS, DYN_CALL_END, SPRING_A, 0);
	cr_assert_eq(rec.n_ends, 1);
	cr_assert(rec.ends[0].config.has_spring);
	cr_assert_float_eq(rec.ends[0].config.stiffness, 200, 0);
	cr_assert_float_eq(rec.ends[0].config.final_position, 300, 0);
	cr_assert(rec.ends[0].fitted);
}

Test(dyn, a_process_exit_ends_its_runs_and_more_than_the_cap_are_reported_not_lost)
{
	for (uint64_t i = 0; i < CAP_DYN_RUNS + 2; i++)
		call(5000 * MS + i, DYN_CALL_START, 0x20000000 + 16 * i, 0);
	cr_assert_eq(rec.n_starts, MAX, "(the recorder keeps %d)", MAX);
	cr_assert_eq(rec.n_ends, 2, "the two oldest went out unfinished");
	cr_assert_eq(rec.ends[0].id, 1);
	cr_assert_eq(rec.ends[0].reason, END_NONE);
	engine__process_exit(eng, 6000 * MS, PID);
	cr_assert_eq(rec.n_ends, MAX);
	cr_assert_eq(rec.ends[2].reason, END_PROCESS_EXIT);
}

Test(dyn, a_spring_moved_by_the_gc_continues_its_run_under_its_new_reference)
{
	bool rested;
	int n;

	call(4990 * MS, DYN_CALL_SPRING_START, SPRING_A, 0);
	/* the concurrent copying GC moved it: from its 7th frame on it comes as SPRING_B */
	n = spring_run_moved(SPRING_A, 0, 200, &rested, SPRING_B, 6);
	cr_assert(rested);
	cr_assert_gt(n, 6);
	call(9000 * MS, DYN_CALL_END, SPRING_B, 0);
	cr_assert_eq(rec.n_starts, 1, "no second run for the moved object");
	cr_assert_eq(rec.n_ends, 1);
	cr_assert_eq(rec.ends[0].id, 1);
	cr_assert_eq(rec.ends[0].obj, SPRING_B);
	cr_assert_eq(rec.ends[0].reason, END_COMPLETE);
	cr_assert_eq(rec.ends[0].kind, DYN_SPRING);
	cr_assert(rec.ends[0].fitted);
	cr_assert(fabs(rec.ends[0].fit.stiffness - 200) < 10, "stiffness %f",
		  rec.ends[0].fit.stiffness);
}

/* Two frames of the process in which no DynamicAnimation runs (an idle UI frame). */
static void idle_frames(int first, int n)
{
	for (int i = first; i < first + n; i++) {
		uint64_t t = 5000 * MS + (uint64_t)llround(i * 1e9 / 60);

		mark(t, 'B', "Choreographer#doFrame");
		mark(t + 500000, 'E', NULL);
	}
}

Test(dyn, without_end_animation_internal_a_run_ends_two_frames_after_its_last_inferred)
{
	bool rested;
	int n;

	call(4990 * MS, DYN_CALL_SPRING_START, SPRING_A, 0);
	n = spring_run(SPRING_A, 0, 200, &rested);
	idle_frames(n, 1);
	cr_assert_eq(rec.n_ends, 0, "one frame without it: not yet");
	idle_frames(n + 1, 1);
	cr_assert_eq(rec.n_ends, 1);
	cr_assert(rec.ends[0].end_inferred);
	cr_assert_eq(rec.ends[0].reason, END_COMPLETE);
	cr_assert_eq(rec.ends[0].end_ns, 5000 * MS + (uint64_t)llround((n - 1) * 1e9 / 60) + 200000,
		     "at its last doAnimationFrame");
	cr_assert_float_eq(rec.ends[0].to, 300, 0);
}

Test(dyn, without_end_animation_internal_a_cancelled_run_ends_at_its_cancel)
{
	bool rested;

	call(4990 * MS, DYN_CALL_SPRING_START, SPRING_A, 0);
	spring_run(SPRING_A, 0, 5, &rested);
	call(5090 * MS, DYN_CALL_CANCEL, SPRING_A, 0);
	idle_frames(6, 2);
	cr_assert_eq(rec.n_ends, 1);
	cr_assert(rec.ends[0].end_inferred);
	cr_assert_eq(rec.ends[0].reason, END_CANCEL);
	cr_assert_eq(rec.ends[0].end_ns, 5090 * MS);
}
