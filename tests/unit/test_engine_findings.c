// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Findings (engine/findings.h): each kind from engine input, exact records; none on clean input. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/findings.h"
#include "engine/state.h"

#define MS 1000000ull
#define PID 10
#define NODE_A 0x7b0a51c0ull
#define MAX 16

static struct finding fnd[MAX];
static int n_fnd;
static char order[64]; /* 'f' finding, 'e' anim_end, 's' summary */
static int n_order;
static struct summary sum;
static struct engine *eng;

static void rec(char c)
{
	if (n_order < (int)sizeof(order) - 1)
		order[n_order++] = c;
}

static int on_finding(void *ctx, const struct finding *f)
{
	if (n_fnd < MAX)
		fnd[n_fnd++] = *f;
	rec('f');
	return 0;
}

static int on_end(void *ctx, const struct anim *a)
{
	rec('e');
	return 0;
}

static int on_summary(void *ctx, const struct summary *s)
{
	sum = *s;
	rec('s');
	return 0;
}

static const struct sink_ops ops = { .finding = on_finding, .anim_end = on_end,
				     .summary = on_summary };

static void setup(void)
{
	memset(fnd, 0, sizeof(fnd));
	n_fnd = 0;
	memset(order, 0, sizeof(order));
	n_order = 0;
	eng = engine__new(NULL, (struct sink){ &ops, NULL });
	cr_assert_not_null(eng);
}

static void teardown(void)
{
	engine__free(eng);
}

TestSuite(findings, .init = setup, .fini = teardown);

static void mark(uint64_t ts, char type, const char *name, int64_t cookie)
{
	struct marker m = { .type = (enum marker_type)type, .tgid = PID };

	m.name.p = name ? name : "";
	m.name.len = name ? strlen(name) : 0;
	m.value = cookie;
	engine__marker(eng, ts, PID, PID, "com.example.anim", &m);
}

static void set(uint64_t ts, enum view_prop p, float v)
{
	engine__prop(eng, ts, PID, PID, NODE_A, "Row", p, v, NULL);
}

static void animate(uint64_t ts, uint32_t cookie)
{
	engine__art_animate(eng, ts, PID, PID, true, cookie);
}

/* Frame f (from 1) at f * 16 ms; its animation phase runs [t+1, t+8] ms. */
static uint64_t frame_open(int f)
{
	uint64_t t = (uint64_t)f * 16 * MS;

	mark(t, 'B', "Choreographer#doFrame", 0);
	mark(t + 1 * MS, 'B', "animation", 0);
	return t;
}

static void frame_close(uint64_t t)
{
	mark(t + 8 * MS, 'E', NULL, 0);
	mark(t + 10 * MS, 'E', NULL, 0);
}

static void assert_finding(int i, enum finding_kind k, int n_ids, uint64_t id0, uint64_t id1,
			   const char *text)
{
	cr_assert_lt(i, n_fnd, "finding %d of %d", i, n_fnd);
	cr_assert_str_eq(finding_kind_str(fnd[i].kind), finding_kind_str(k));
	cr_assert_eq(fnd[i].n_ids, n_ids);
	cr_assert_eq(fnd[i].ids[0], id0);
	if (n_ids > 1)
		cr_assert_eq(fnd[i].ids[1], id1);
	cr_assert_eq(fnd[i].pid, PID);
	cr_assert_str_eq(fnd[i].text, text);
}

Test(findings, a_fade_that_runs_to_its_end_finds_nothing)
{
	for (int f = 1; f <= 5; f++) {
		uint64_t t = frame_open(f);

		if (f == 1)
			mark(t + 2 * MS, 'S', "animator:alpha", 7);
		set(t + 4 * MS, PROP_ALPHA, (float)(f - 1) / 4.0f);
		if (f == 5)
			mark(t + 5 * MS, 'F', "animator:alpha", 7);
		frame_close(t);
	}
	engine__finish(eng, 200 * MS, 0, 0);
	cr_assert_eq(n_fnd, 0, "%s", fnd[0].text);
	cr_assert_eq(sum.n_findings, 0);
}

Test(findings, a_cancel_in_the_first_frame_is_a_flicker_naming_both_callers)
{
	static const char start[][AT_FRAME_NAME] = { "com.example.Row.show" };
	static const char cancel[][AT_FRAME_NAME] = { "com.example.Row.hide" };
	uint64_t t;

	engine__art_active(eng, PID, 0);
	t = frame_open(1);
	engine__art_call_stack(eng, t + 2 * MS, PID, PID, ART_CALL_START, true, 7, start, 1);
	mark(t + 2 * MS + 10000, 'S', "animator:alpha", 7);
	animate(t + 3 * MS, 7);
	set(t + 4 * MS, PROP_ALPHA, 0.0f);
	engine__art_call_stack(eng, t + 5 * MS, PID, PID, ART_CALL_CANCEL, true, 7, cancel, 1);
	mark(t + 5 * MS + 10000, 'F', "animator:alpha", 7);
	frame_close(t);
	engine__finish(eng, 200 * MS, 0, 0);
	cr_assert_eq(n_fnd, 1);
	assert_finding(0, FINDING_FLICKER, 1, 7, 0,
		       "animator:alpha 7 on Row@51c0 ended by cancel() before its second frame "
		       "with values (1): started by com.example.Row.show | ended by "
		       "com.example.Row.hide, 3.0 ms later");
	cr_assert_eq(fnd[0].node, NODE_A);
	cr_assert(fnd[0].has_prop);
	cr_assert_eq(fnd[0].prop, PROP_ALPHA);
	cr_assert_str_eq(order, "fes", "the finding before the box of its animator");
	cr_assert_eq(sum.n_findings, 1);
	cr_assert_eq(sum.findings_by_kind[FINDING_FLICKER], 1);
}

Test(findings, without_probes_an_f_in_the_first_frame_is_a_flicker_of_cancel_or_end)
{
	uint64_t t = frame_open(1);

	mark(t + 2 * MS, 'S', "animator", 7);
	mark(t + 2 * MS + 200000, 'F', "animator", 7);
	frame_close(t);
	engine__finish(eng, 200 * MS, 0, 0);
	cr_assert_eq(n_fnd, 1);
	assert_finding(0, FINDING_FLICKER, 1, 7, 0,
		       "animator 7 ended by cancel() or end() before its second frame with values "
		       "(1): started by thread 10 (no stack) | ended by thread 10 (no stack), 0.2 "
		       "ms later");
	cr_assert_not(fnd[0].has_prop);
}

/* 7 fades A over frames 1-2; in frame 3 its F and 8's S come back to back (8 fades A back). */
static void replace(const char (*stack)[AT_FRAME_NAME], int n)
{
	for (int f = 1; f <= 5; f++) {
		uint64_t t = frame_open(f);

		if (f == 1)
			mark(t + 2 * MS, 'S', "animator:alpha", 7);
		if (f == 3) {
			if (n)
				engine__art_call_stack(eng, t + 2 * MS, PID, PID, ART_CALL_CANCEL,
						       true, 7, stack, n);
			mark(t + 2 * MS + 10000, 'F', "animator:alpha", 7);
			mark(t + 2 * MS + 20000, 'S', "animator:alpha", 8);
		}
		if (n)
			animate(t + 3 * MS, f < 3 ? 7 : 8);
		set(t + 4 * MS, PROP_ALPHA, f < 3 ? 1.0f - 0.25f * f : 0.25f * f);
		if (f == 5)
			mark(t + 5 * MS, 'F', "animator:alpha", 8);
		frame_close(t);
	}
	engine__finish(eng, 200 * MS, 0, 0);
}

Test(findings, an_f_right_before_an_s_on_the_same_property_and_node_is_replaced)
{
	replace(NULL, 0);
	cr_assert_eq(n_fnd, 1);
	assert_finding(0, FINDING_REPLACED, 2, 7, 8,
		       "7 was cancelled by the start of animator:alpha 8 on Row@51c0, property "
		       "alpha, 0.0 ms later (its F right before this S on the same thread)");
	cr_assert_eq(fnd[0].node, NODE_A);
	cr_assert_eq(fnd[0].prop, PROP_ALPHA);
}

Test(findings, auto_cancel_based_on_in_the_cancel_stack_is_the_evidence_of_a_replacement)
{
	static const char stack[][AT_FRAME_NAME] = {
		"android.animation.AnimationHandler.autoCancelBasedOn",
		"android.animation.ObjectAnimator.start", "com.example.Row.fadeIn"
	};

	engine__art_active(eng, PID, 0);
	replace(stack, 3);
	cr_assert_eq(n_fnd, 1);
	assert_finding(0, FINDING_REPLACED, 2, 7, 8,
		       "7 was cancelled by the start of animator:alpha 8 on Row@51c0, property "
		       "alpha, 0.0 ms later (AnimationHandler.autoCancelBasedOn in its cancel "
		       "stack)");
}

Test(findings, two_animators_writing_one_property_in_one_frame_conflict_once)
{
	engine__art_active(eng, PID, 0);
	for (int f = 1; f <= 3; f++) {
		uint64_t t = frame_open(f);

		if (f == 1) {
			mark(t + 2 * MS, 'S', "animator:alpha", 7);
			mark(t + 2 * MS, 'S', "animator", 8);
		}
		animate(t + 3 * MS, 7);
		set(t + 4 * MS, PROP_ALPHA, 0.5f);
		animate(t + 5 * MS, 8);
		set(t + 6 * MS, PROP_ALPHA, 0.8f);
		frame_close(t);
	}
	mark(100 * MS, 'F', "animator:alpha", 7);
	mark(100 * MS, 'F', "animator", 8);
	engine__finish(eng, 200 * MS, 0, 0);
	cr_assert_eq(n_fnd, 1);
	assert_finding(0, FINDING_CONFLICT, 2, 7, 8,
		       "alpha of Row@51c0 written 2 times in one frame by animators 7 and 8: they "
		       "fight");
	cr_assert_eq(fnd[0].node, NODE_A);
}

Test(findings, an_animator_and_code_writing_one_property_in_one_frame_conflict)
{
	engine__art_active(eng, PID, 0);
	for (int f = 1; f <= 3; f++) {
		uint64_t t = frame_open(f);

		if (f == 1)
			mark(t + 2 * MS, 'S', "animator:alpha", 7);
		animate(t + 3 * MS, 7);
		set(t + 4 * MS, PROP_ALPHA, 0.25f * f);
		mark(t + 8 * MS, 'E', NULL, 0); /* the animation phase ends: code writes */
		set(t + 9 * MS, PROP_ALPHA, 1.0f);
		mark(t + 10 * MS, 'E', NULL, 0);
	}
	mark(100 * MS, 'F', "animator:alpha", 7);
	engine__finish(eng, 200 * MS, 0, 0);
	cr_assert_eq(n_fnd, 1);
	assert_finding(0, FINDING_CONFLICT, 1, 7, 0,
		       "alpha of Row@51c0 written 2 times in one frame by animator 7 and code that "
		       "is no animator: they fight");
}

Test(findings, without_probes_two_animators_inferring_a_property_written_twice_conflict)
{
	for (int f = 1; f <= 3; f++) {
		uint64_t t = frame_open(f);

		if (f == 1) {
			mark(t + 2 * MS, 'S', "animator:alpha", 7);
			mark(t + 2 * MS, 'S', "animator:alpha", 8);
		}
		set(t + 4 * MS, PROP_ALPHA, 0.1f * f);
		set(t + 5 * MS, PROP_ALPHA, 0.9f - 0.1f * f);
		frame_close(t);
	}
	mark(100 * MS, 'F', "animator:alpha", 7);
	mark(100 * MS, 'F', "animator:alpha", 8);
	engine__finish(eng, 200 * MS, 0, 0);
	cr_assert_eq(n_fnd, 1);
	assert_finding(0, FINDING_CONFLICT, 2, 7, 8,
		       "alpha of Row@51c0 written 2 times in one frame by animators 7 and 8: they "
		       "fight");
}

Test(findings, running_at_the_end_with_a_repeating_curve_is_repeating)
{
	for (int f = 1; f <= 40; f++) {
		uint64_t t = frame_open(f);

		if (f == 1)
			mark(t + 2 * MS, 'S', "animator:rotation", 7);
		set(t + 4 * MS, PROP_ROTATION, 90.0f * (float)((f - 1) % 6));
		frame_close(t);
	}
	engine__finish(eng, 700 * MS, 0, 0);
	cr_assert_eq(n_fnd, 1);
	assert_finding(0, FINDING_REPEATING, 1, 7, 0,
		       "animator:rotation 7 on Row@51c0 still runs after 0.7 s and its rotation "
		       "repeats: an INFINITE repeat");
	cr_assert_str_eq(order, "fs");
}

Test(findings, running_at_the_end_with_no_change_for_half_a_second_is_stalled)
{
	for (int f = 1; f <= 60; f++) {
		uint64_t t = frame_open(f);

		if (f == 1)
			mark(t + 2 * MS, 'S', "animator:alpha", 7);
		if (f <= 3)
			set(t + 4 * MS, PROP_ALPHA, 0.25f * f);
		frame_close(t);
	}
	engine__finish(eng, 1200 * MS, 0, 0);
	cr_assert_eq(n_fnd, 1);
	/* its last change in frame 3, which began at 48 ms */
	assert_finding(0, FINDING_STALLED, 1, 7, 0,
		       "animator:alpha 7 on Row@51c0 still runs after 1.2 s with no value change "
		       "for the last 1.2 s: paused or leaked");
}

Test(findings, a_configured_infinite_repeat_running_at_the_end_is_repeating_not_stalled)
{
	struct anim_config c = { .known = true, .has_repeat = true,
				 .repeat_count = AT_REPEAT_INFINITE, .repeat_mode = REPEAT_REVERSE };

	engine__anim_config(eng, 15 * MS, PID, 7, &c);
	for (int f = 1; f <= 60; f++) {
		uint64_t t = frame_open(f);

		if (f == 1)
			mark(t + 2 * MS, 'S', "animator:alpha", 7);
		if (f <= 3) /* the same values as the stalled one above */
			set(t + 4 * MS, PROP_ALPHA, 0.25f * f);
		frame_close(t);
	}
	engine__finish(eng, 1200 * MS, 0, 0);
	cr_assert_eq(n_fnd, 1);
	assert_finding(0, FINDING_REPEATING, 1, 7, 0,
		       "animator:alpha 7 on Row@51c0 still runs after 1.2 s: it was started with "
		       "repeat INFINITE (REVERSE)");
}

Test(findings, running_at_the_end_and_still_moving_is_neither_repeating_nor_stalled)
{
	for (int f = 1; f <= 20; f++) {
		uint64_t t = frame_open(f);

		if (f == 1)
			mark(t + 2 * MS, 'S', "animator:alpha", 7);
		set(t + 4 * MS, PROP_ALPHA, 0.04f * f);
		frame_close(t);
	}
	engine__finish(eng, 340 * MS, 0, 0);
	cr_assert_eq(n_fnd, 0, "%s", fnd[0].text);
}

/* The unmarked animation sp, as segment.h ends it, fitted as a spring. */
static void spring_ended(double settle_ms, double zeta, double k)
{
	struct findings fs = { 0 };
	struct emit out = { .sink = { &ops, NULL } };
	struct animation a = { .id = 3, .ended = true, .kind = FIT_SPRING, .pid = PID,
			       .node = NODE_A, .n_props = 1, .start_ns = 1000 * MS,
			       .duration_ns = 2500 * MS };

	snprintf(a.node_name, sizeof(a.node_name), "Row");
	a.props[0] = (struct animation_prop){ .prop = PROP_TRANSLATION_Y, .fitted = true };
	a.props[0].fit.kind = FIT_SPRING;
	a.props[0].fit.settle_ms = settle_ms;
	a.props[0].fit.damping_ratio = zeta;
	a.props[0].fit.stiffness = k;
	findings__animation_ended(&fs, &a, &out);
}

Test(findings, a_spring_that_settles_after_2_s_is_slow)
{
	spring_ended(2400, 0.75, 200);
	cr_assert_eq(n_fnd, 1);
	assert_finding(0, FINDING_SLOW_SPRING, 1, 3, 0,
		       "spring 3 on Row@51c0 translationY settles in 2.4 s (over 2 s)");
	cr_assert(fnd[0].unmarked);
}

Test(findings, a_bouncy_soft_spring_is_slow_and_says_why)
{
	spring_ended(1500, 0.3, 50);
	cr_assert_eq(n_fnd, 1);
	assert_finding(0, FINDING_SLOW_SPRING, 1, 3, 0,
		       "spring 3 on Row@51c0 translationY damping ratio 0.30 < 0.5 with stiffness "
		       "50 < 100: it oscillates long");
}

Test(findings, a_quick_spring_is_no_finding)
{
	spring_ended(400, 0.3, 1500);
	spring_ended(400, 0.75, 50);
	cr_assert_eq(n_fnd, 0);
}

Test(findings, another_animators_start_between_the_f_and_the_s_is_no_replacement)
{
	for (int f = 1; f <= 5; f++) {
		uint64_t t = frame_open(f);

		if (f == 1)
			mark(t + 2 * MS, 'S', "animator:alpha", 7);
		if (f == 3) {
			mark(t + 2 * MS + 10000, 'F', "animator:alpha", 7);
			mark(t + 2 * MS + 15000, 'S', "animator", 9);
			mark(t + 2 * MS + 20000, 'S', "animator:alpha", 8);
		}
		set(t + 4 * MS, PROP_ALPHA, f < 3 ? 1.0f - 0.25f * f : 0.25f * f);
		if (f == 5) {
			mark(t + 5 * MS, 'F', "animator:alpha", 8);
			mark(t + 5 * MS, 'F', "animator", 9);
		}
		frame_close(t);
	}
	engine__finish(eng, 200 * MS, 0, 0);
	cr_assert_eq(n_fnd, 0, "%s", fnd[0].text);
}

Test(findings, without_probes_an_object_animators_property_written_twice_in_a_frame_conflicts)
{
	for (int f = 1; f <= 3; f++) {
		uint64_t t = frame_open(f);

		if (f == 1)
			mark(t + 2 * MS, 'S', "animator:alpha", 7);
		set(t + 4 * MS, PROP_ALPHA, 0.1f * f);
		if (f == 2)
			set(t + 5 * MS, PROP_ALPHA, 0.5f); /* once a frame is all it writes */
		frame_close(t);
	}
	mark(100 * MS, 'F', "animator:alpha", 7);
	engine__finish(eng, 200 * MS, 0, 0);
	cr_assert_eq(n_fnd, 1);
	assert_finding(0, FINDING_CONFLICT, 1, 7, 0,
		       "alpha of Row@51c0 written 2 times in one frame by animator 7 and another "
		       "writer (code or an animator no probe names): they fight");
}

Test(findings, an_f_without_s_between_the_f_and_the_s_is_no_replacement)
{
	for (int f = 1; f <= 5; f++) {
		uint64_t t = frame_open(f);

		if (f == 1)
			mark(t + 2 * MS, 'S', "animator:alpha", 7);
		if (f == 3) {
			mark(t + 2 * MS + 10000, 'F', "animator:alpha", 7);
			mark(t + 2 * MS + 15000, 'F', "animator:alpha", 9); /* cancel before start */
			mark(t + 2 * MS + 20000, 'S', "animator:alpha", 8);
		}
		set(t + 4 * MS, PROP_ALPHA, f < 3 ? 1.0f - 0.25f * f : 0.25f * f);
		if (f == 5)
			mark(t + 5 * MS, 'F', "animator:alpha", 8);
		frame_close(t);
	}
	engine__finish(eng, 200 * MS, 0, 0);
	cr_assert_eq(n_fnd, 0, "%s", fnd[0].text);
}
