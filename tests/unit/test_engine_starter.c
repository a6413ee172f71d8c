// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Who started an animator, from the Java frames of its ValueAnimator.start (engine/starter.h):
 * an AnimatorSet (with the set's own caller, also for children it starts in later frames) or
 * a ViewPropertyAnimator; the AnimatorSet frames are left out of the start stack.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "common/caps.h"
#include "engine/engine.h"

#define MS 1000000ull
#define PID 10
#define MAX 16

static struct anim starts[MAX];
static int n_starts;
static struct engine *eng;

static int on_start(void *ctx, const struct anim *a)
{
	(void)ctx;
	if (n_starts < MAX)
		starts[n_starts++] = *a;
	return 0;
}

static const struct sink_ops ops = { .anim_start = on_start };

static void setup(void)
{
	n_starts = 0;
	eng = engine__new(NULL, (struct sink){ &ops, NULL });
	cr_assert_not_null(eng);
}

static void teardown(void)
{
	engine__free(eng);
}

TestSuite(starter, .init = setup, .fini = teardown);

static void mark(uint64_t ts, char type, const char *name, int64_t cookie)
{
	struct marker m = { .type = (enum marker_type)type, .tgid = PID };

	m.name.p = name ? name : "";
	m.name.len = name ? strlen(name) : 0;
	m.value = cookie;
	engine__marker(eng, ts, PID, PID, "com.example.anim", &m);
}

/* start() of cookie with the NULL-terminated frames, innermost first, then its S. */
static const struct anim *start(uint64_t ts, const char *name, uint32_t cookie,
				const char *const *frames)
{
	char stack[AT_STACK_FRAMES][AT_FRAME_NAME];
	int n = 0;

	for (; frames[n]; n++)
		snprintf(stack[n], sizeof(stack[n]), "%s", frames[n]);
	engine__art_call_stack(eng, ts, PID, PID, ART_CALL_START, true, cookie,
			       (const char(*)[AT_FRAME_NAME])stack, n);
	mark(ts, 'S', name, cookie);
	cr_assert_gt(n_starts, 0);
	return &starts[n_starts - 1];
}

/* API 26+: AnimatorSet.start -> start(boolean, boolean) -> startAnimation ->
 * handleAnimationEvents -> (ValueAnimator.startWithoutPulsing, left out by the unwinder) */
static const char *const at_once[] = {
	"android.animation.AnimatorSet.handleAnimationEvents",
	"android.animation.AnimatorSet.startAnimation",
	"android.animation.AnimatorSet.start",
	"android.animation.AnimatorSet.start",
	"com.example.Shade.expand",
	"com.example.Shade.onClick",
	NULL,
};

static const char *const later[] = {
	"android.animation.AnimatorSet.handleAnimationEvents",
	"android.animation.AnimatorSet.doAnimationFrame",
	"android.view.Choreographer.doCallbacks",
	"android.view.Choreographer.doFrame",
	NULL,
};

static void frame(uint64_t ts)
{
	mark(ts, 'B', "Choreographer#doFrame", 0);
}

Test(starter, a_child_started_by_animator_set_start_names_the_sets_caller)
{
	const struct anim *a = start(1 * MS, "animator:alpha", 1, at_once);

	cr_assert_eq(a->starter, STARTER_SET);
	cr_assert_str_eq(a->set_caller, "com.example.Shade.expand");
	cr_assert_str_eq(anim_type_str(a->kind, a->starter), "ObjectAnimator in an AnimatorSet");
	cr_assert_eq(a->n_start_stack, 2, "the AnimatorSet frames are left out");
	cr_assert_str_eq(a->start_stack[0], "com.example.Shade.expand");
	cr_assert_str_eq(a->start_stack[1], "com.example.Shade.onClick");
}

Test(starter, a_child_started_in_a_later_frame_inherits_the_caller_of_its_running_set)
{
	const struct anim *b;

	start(1 * MS, "animator:alpha", 1, at_once);
	frame(16 * MS);
	mark(17 * MS, 'F', "animator:alpha", 1); /* a sequence: the next starts in this frame */
	b = start(18 * MS, "animator:translationY", 2, later);
	cr_assert_eq(b->starter, STARTER_SET);
	cr_assert_str_eq(b->set_caller, "com.example.Shade.expand");
	cr_assert_eq(b->n_start_stack, 2);
	cr_assert_str_eq(b->start_stack[0], "android.view.Choreographer.doCallbacks");
}

Test(starter, with_two_sets_running_a_later_child_says_it_cannot_tell_which)
{
	static const char *const other[] = {
		"android.animation.AnimatorSet.start",
		"com.example.Toast.show",
		NULL,
	};
	const struct anim *c;

	start(1 * MS, "animator:alpha", 1, at_once);
	start(2 * MS, "animator:alpha", 3, other);
	frame(16 * MS);
	c = start(18 * MS, "animator:scaleX", 4, later);
	cr_assert_eq(c->starter, STARTER_SET);
	cr_assert_str_eq(c->set_caller, "");
	cr_assert_eq(c->sets_open, 2);
}

Test(starter, a_set_whose_children_ended_before_this_frame_is_no_longer_a_candidate)
{
	const struct anim *b;

	start(1 * MS, "animator:alpha", 1, at_once);
	mark(5 * MS, 'F', "animator:alpha", 1);
	frame(16 * MS);
	b = start(18 * MS, "animator:scaleX", 2, later);
	cr_assert_eq(b->starter, STARTER_SET);
	cr_assert_str_eq(b->set_caller, "");
	cr_assert_eq(b->sets_open, 0);
}

Test(starter, view_property_animator_start_animation_makes_a_view_property_animator)
{
	static const char *const vpa[] = {
		"android.view.ViewPropertyAnimator.startAnimation",
		"android.view.ViewPropertyAnimator.start",
		"com.example.Toast.show",
		NULL,
	};
	const struct anim *a = start(1 * MS, "animator", 5, vpa);

	cr_assert_eq(a->starter, STARTER_VPA);
	cr_assert_str_eq(anim_type_str(a->kind, a->starter), "ViewPropertyAnimator");
	cr_assert_eq(a->n_start_stack, 3, "its frames stay");
}

Test(starter, a_direct_start_is_typed_by_its_name_alone)
{
	static const char *const direct[] = { "com.example.Panel.open", NULL };
	const struct anim *a = start(1 * MS, "animator:alpha", 6, direct);

	cr_assert_eq(a->starter, STARTER_UNKNOWN);
	cr_assert_str_eq(anim_type_str(a->kind, a->starter), "ObjectAnimator");
}

Test(starter, sets_beyond_the_cap_forget_the_least_recently_used)
{
	char callers[CAP_STARTER_SETS + 1][AT_FRAME_NAME];
	const char *frames[3] = { "android.animation.AnimatorSet.start", NULL, NULL };

	for (int i = 0; i <= CAP_STARTER_SETS; i++) {
		snprintf(callers[i], sizeof(callers[i]), "com.example.C%d.go", i);
		frames[1] = callers[i];
		cr_assert_str_eq(start((uint64_t)(i + 1) * MS, "animator:alpha", (uint32_t)(10 + i),
				       frames)
					 ->set_caller,
				 callers[i]);
	}
	frame(100 * MS);
	/* all of them run: the later child cannot tell, and only CAP_STARTER_SETS are kept */
	cr_assert_eq(start(101 * MS, "animator:scaleX", 99, later)->sets_open, CAP_STARTER_SETS);
}
