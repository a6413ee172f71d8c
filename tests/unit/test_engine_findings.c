// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Findings (engine/findings.h): each kind from engine input, exact records; none on clean input. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

static const struct sink_ops ops = { .finding = on_finding,
				     .anim_end = on_end,
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

/* Finding i is a repeating one of id whose text is head, a period within 2 % of period_ms
 * (from two periods of sparse points the fold tells it to about that), then tail. */
static void assert_repeating(int i, uint64_t id, const char *head, double period_ms,
			     const char *tail)
{
	const char *t = fnd[i].text;
	char *end;
	double got;

	cr_assert_lt(i, n_fnd);
	cr_assert_eq(fnd[i].kind, FINDING_REPEATING, "%s", t);
	cr_assert_eq(fnd[i].ids[0], id);
	cr_assert_eq(strncmp(t, head, strlen(head)), 0, "%s", t);
	got = strtod(t + strlen(head), &end);
	cr_assert_float_eq(got, period_ms, period_ms / 50, "%s", t);
	cr_assert_str_eq(end, tail);
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
	assert_repeating(0, 7,
			 "animator:rotation 7 on Row@51c0 still runs after 0.7 s and its "
			 "rotation repeats every ",
			 96, " ms: an INFINITE repeat");
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
	struct anim_config c = { .known = true,
				 .has_repeat = true,
				 .repeat_count = AT_REPEAT_INFINITE,
				 .repeat_mode = REPEAT_REVERSE };

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
	struct animation a = { .id = 3,
			       .ended = true,
			       .kind = FIT_SPRING,
			       .pid = PID,
			       .node = NODE_A,
			       .n_props = 1,
			       .start_ns = 1000 * MS,
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
			mark(t + 2 * MS + 15000, 'F', "animator:alpha",
			     9); /* cancel before start */
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

/* Animator 7 writes, animator 8 in the middle, animator 7 again: first and last are one
 * writer, yet two animators fought; code first in a later frame adds itself. */
Test(findings, every_animator_that_wrote_in_the_frame_is_named_and_code_beside_them)
{
	engine__art_active(eng, PID, 0);
	for (int f = 1; f <= 3; f++) {
		uint64_t t = frame_open(f);

		if (f == 1) {
			mark(t + 2 * MS, 'S', "animator:alpha", 7);
			mark(t + 2 * MS, 'S', "animator", 8);
		}
		if (f == 3)
			set(t + 1 * MS + MS / 2, PROP_ALPHA, 0.05f); /* code, before any animator */
		animate(t + 3 * MS, 7);
		set(t + 3 * MS + MS / 2, PROP_ALPHA, 0.1f * f);
		animate(t + 4 * MS, 8);
		set(t + 4 * MS + MS / 2, PROP_ALPHA, 0.5f + 0.1f * f);
		animate(t + 5 * MS, 7);
		set(t + 5 * MS + MS / 2, PROP_ALPHA, 0.1f * f + 0.01f);
		frame_close(t);
	}
	mark(100 * MS, 'F', "animator:alpha", 7);
	mark(100 * MS, 'F', "animator", 8);
	engine__finish(eng, 200 * MS, 0, 0);
	cr_assert_eq(n_fnd, 2);
	assert_finding(0, FINDING_CONFLICT, 2, 7, 8,
		       "alpha of Row@51c0 written 3 times in one frame by animators 7 and 8: they "
		       "fight");
	assert_finding(1, FINDING_CONFLICT, 2, 7, 8,
		       "alpha of Row@51c0 written 4 times in one frame by animators 7, 8 and code "
		       "that is no animator: they fight");
}

/* Animator 8 writes its last value and ends (its F) before the frame's changes go out. */
Test(findings, an_animator_that_ended_in_the_frame_is_still_one_of_its_writers)
{
	engine__art_active(eng, PID, 0);
	for (int f = 1; f <= 3; f++) {
		uint64_t t = frame_open(f);

		if (f == 1) {
			mark(t + 2 * MS, 'S', "animator:alpha", 7);
			mark(t + 2 * MS, 'S', "animator", 8);
		}
		animate(t + 3 * MS, 7);
		set(t + 3 * MS + MS / 2, PROP_ALPHA, 0.1f * f);
		if (f == 3) {
			animate(t + 4 * MS, 8);
			set(t + 4 * MS + MS / 2, PROP_ALPHA, 0.9f);
			mark(t + 5 * MS, 'F', "animator", 8);
		}
		frame_close(t);
	}
	mark(100 * MS, 'F', "animator:alpha", 7);
	engine__finish(eng, 200 * MS, 0, 0);
	cr_assert_eq(n_fnd, 1);
	assert_finding(0, FINDING_CONFLICT, 2, 7, 8,
		       "alpha of Row@51c0 written 2 times in one frame by animators 7 and 8: they "
		       "fight");
}

/* setRepeatMode(REVERSE), INFINITE: 0.2 -> 1 -> 0.2 every 2 x 430 ms (51.6 frames of 16 ms:
 * no whole number of them), values from the frame time as ValueAnimator computes them. */
Test(findings, a_reverse_repeat_whose_period_is_no_whole_number_of_frames_is_repeating)
{
	for (int f = 1; f <= 130; f++) {
		uint64_t t = frame_open(f);
		double frac = (double)((f - 1) * 16) / 430.0, it = floor(frac), cur = frac - it;

		if ((long)it % 2)
			cur = 1 - cur;
		if (f == 1)
			mark(t + 2 * MS, 'S', "animator:alpha", 7);
		set(t + 4 * MS, PROP_ALPHA, 0.2f + 0.8f * (float)cur);
		frame_close(t);
	}
	engine__finish(eng, 2100 * MS, 0, 0);
	cr_assert_eq(n_fnd, 1);
	assert_repeating(0, 7,
			 "animator:alpha 7 on Row@51c0 still runs after 2.1 s and its alpha "
			 "repeats every ",
			 860, " ms: an INFINITE repeat");
}

/* A move over 10 frames, then the same value written for 50 (a listener that keeps setting
 * it): the still part falls on itself at any shift, but no window of it sweeps the range. */
Test(findings, a_curve_that_moved_and_held_still_is_stalled_not_repeating)
{
	for (int f = 1; f <= 60; f++) {
		uint64_t t = frame_open(f);

		if (f == 1)
			mark(t + 2 * MS, 'S', "animator:translationX", 7);
		set(t + 4 * MS, PROP_TRANSLATION_X, 20.0f * (float)(f <= 10 ? f : 10));
		frame_close(t);
	}
	engine__finish(eng, 1000 * MS, 0, 0);
	cr_assert_eq(n_fnd, 1);
	assert_finding(0, FINDING_STALLED, 1, 7, 0,
		       "animator:translationX 7 on Row@51c0 still runs after 1.0 s with no value "
		       "change for the last 0.8 s: paused or leaked");
}

/* Without the ART probes an F one frame after its S whose values came in one frame only
 * (started, one value, gone): a flicker whose end markers cannot name. */
Test(findings, without_probes_an_f_after_one_frame_of_values_is_a_flicker_of_unknown_cause)
{
	for (int f = 1; f <= 3; f++) {
		uint64_t t = frame_open(f);

		if (f == 1) {
			mark(t + 2 * MS, 'S', "animator:translationY", 7);
			set(t + 4 * MS, PROP_TRANSLATION_Y, 50.0f);
		}
		if (f == 2)
			mark(t + 2 * MS, 'F', "animator:translationY", 7);
		frame_close(t);
	}
	engine__finish(eng, 200 * MS, 0, 0);
	cr_assert_eq(n_fnd, 1);
	assert_finding(0, FINDING_FLICKER, 1, 7, 0,
		       "animator:translationY 7 on Row@51c0 ended by cancel(), end() or a duration "
		       "under a frame (no ART probes to tell) before its second frame with values "
		       "(1): started by thread 10 (no stack) | ended by thread 10 (no stack), 16.0 "
		       "ms later");
}

/* Frames per point of a curve of n frames (AT_SERIES_MAX points, halved when full). */
static long stride_of(int n)
{
	long stride = 1;

	while (n > stride * AT_SERIES_MAX)
		stride *= 2;
	return stride;
}

static double period_of(const char *text)
{
	const char *p = strstr(text, "repeats every ");

	return p ? strtod(p + strlen("repeats every "), NULL) : 0;
}

/* ValueAnimator's value at ms for an INFINITE repeat of duration_ms (RESTART or REVERSE). */
static float repeat_value(long ms, long duration_ms, bool reverse, bool ease)
{
	double frac = (double)ms / (double)duration_ms, it = floor(frac), cur = frac - it;

	if (reverse && (long)it % 2)
		cur = 1 - cur;
	if (ease) /* AccelerateDecelerateInterpolator */
		cur = cos((cur + 1) * M_PI) / 2 + 0.5;
	return (float)(10 + 90 * cur);
}

/* Periods of a whole or no whole number of frames, RESTART and REVERSE, linear and eased,
 * over sessions long enough that the curve keeps one point in 2, 4 or 8 frames: each seen
 * twice with 3 points or more in a period is repeating, with its period. */
Test(findings, infinite_repeats_of_any_period_mode_and_length_are_repeating)
{
	static const long durations[] = { 150, 275, 430, 700 };
	static const int frames[] = { 60, 130, 300 };

	for (int d = 0; d < 4; d++)
		for (int fr = 0; fr < 3; fr++)
			for (int mode = 0; mode < 4; mode++) {
				bool reverse = mode & 1, ease = mode & 2;
				long period = durations[d] * (reverse ? 2 : 1);

				if (2 * period > (frames[fr] - 1) * 16 ||
				    period < 3 * 16 * stride_of(frames[fr]))
					continue; /* under two periods, or 3 points a period */
				teardown();
				setup();
				for (int f = 1; f <= frames[fr]; f++) {
					uint64_t t = frame_open(f);

					if (f == 1)
						mark(t + 2 * MS, 'S', "animator:alpha", 7);
					set(t + 4 * MS, PROP_ALPHA,
					    repeat_value((f - 1) * 16, durations[d], reverse,
							 ease) /
						    100.0f);
					frame_close(t);
				}
				engine__finish(eng, (uint64_t)(frames[fr] + 2) * 16 * MS, 0, 0);
				cr_expect_eq(n_fnd, 1, "%ld ms %s%s, %d frames: %d findings",
					     durations[d], reverse ? "REVERSE" : "RESTART",
					     ease ? " eased" : "", frames[fr], n_fnd);
				if (n_fnd == 1)
					cr_expect_eq(fnd[0].kind, FINDING_REPEATING,
						     "%ld ms %s%s, %d frames: %s", durations[d],
						     reverse ? "REVERSE" : "RESTART",
						     ease ? " eased" : "", frames[fr], fnd[0].text);
				if (n_fnd == 1)
					cr_expect_float_eq(period_of(fnd[0].text), (double)period,
							   period / 50.0, "%s", fnd[0].text);
			}
}

/* An animator of which no write was seen, running at the end: stalled only where its writes
 * would have shown. 60 frames of 16 ms; other: a write of another view in each. */
static void run_unseen(const char *name, bool art, bool other)
{
	if (art)
		engine__art_active(eng, PID, 0);
	for (int f = 1; f <= 60; f++) {
		uint64_t t = frame_open(f);

		if (f == 1)
			mark(t + 2 * MS, 'S', name, 7);
		if (other)
			engine__prop(eng, t + 4 * MS, PID, PID, NODE_A + 0x100, "Other",
				     PROP_TRANSLATION_X, (float)f, NULL);
		frame_close(t);
	}
	engine__finish(eng, 1000 * MS, 0, 0);
}

Test(findings, a_named_animator_never_seen_writing_where_values_are_watched_is_stalled)
{
	run_unseen("animator:rotation", false, true);
	cr_assert_eq(n_fnd, 1);
	assert_finding(0, FINDING_STALLED, 1, 7, 0,
		       "animator:rotation 7 still runs after 1.0 s with no value change for the "
		       "last 1.0 s: paused or leaked");
}

/* A replay without values, or --no-props: nothing says it did not move. */
Test(findings, an_animator_in_a_process_without_values_is_no_stall)
{
	run_unseen("animator:rotation", true, false);
	cr_assert_eq(n_fnd, 0, "%s", fnd[0].text);
}

/* A ValueAnimator's listener writes are nobody's without the ART probes. */
Test(findings, a_value_animator_without_art_probes_is_no_stall)
{
	run_unseen("animator", false, true);
	cr_assert_eq(n_fnd, 0, "%s", fnd[0].text);
}

Test(findings, a_value_animator_with_art_probes_and_no_write_is_stalled)
{
	run_unseen("animator", true, true);
	cr_assert_eq(n_fnd, 1);
	cr_assert_eq(fnd[0].kind, FINDING_STALLED, "%s", fnd[0].text);
}

/* Its S came before tracing: its animateValue names it all the same. */
Test(findings, an_animator_started_before_tracing_and_code_conflict_by_its_window)
{
	engine__art_active(eng, PID, 0);
	for (int f = 1; f <= 3; f++) {
		uint64_t t = frame_open(f);

		animate(t + 3 * MS, 9);
		set(t + 4 * MS, PROP_ALPHA, 0.25f * f);
		mark(t + 8 * MS, 'E', NULL, 0); /* the animation phase ends: code writes */
		set(t + 9 * MS, PROP_ALPHA, 1.0f);
		mark(t + 10 * MS, 'E', NULL, 0);
	}
	engine__finish(eng, 200 * MS, 0, 0);
	cr_assert_eq(n_fnd, 1);
	assert_finding(0, FINDING_CONFLICT, 1, 9, 0,
		       "alpha of Row@51c0 written 2 times in one frame by animator 9 and code that "
		       "is no animator: they fight");
}
