// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Live (root): animsim --scenario physics runs, without markers, a SpringAnimation and a
 * FlingAnimation the way DynamicAnimation steps them, plus a marked ObjectAnimator through
 * FastOutSlowIn and one single jump. animtrace must find the two unmarked ones from the
 * setter values alone, with their physics, fit the animator's interpolator, and report
 * nothing for the jump.
 */
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "e2e.h"
#include "expect.h"

#define TARGET "com.example.physics"

TestSuite(physics, .init = e2e_setup, .fini = e2e_teardown, .timeout = 180);

static double num(json_object *o, const char *key)
{
	return json_object_get_double(e2e_get(o, key));
}

/* The animation_end records of node, and how many there were. */
static json_object *end_of(const struct e2e_jsonl *out, uint64_t node, int *count)
{
	json_object *found = NULL;
	char want[32];

	snprintf(want, sizeof(want), "0x%llx", (unsigned long long)node);
	*count = 0;
	for (size_t i = 0; i < out->n; i++) {
		if (!e2e_type_is(out->v[i], "animation_end") ||
		    strcmp(e2e_str(out->v[i], "node"), want))
			continue;
		found = out->v[i];
		(*count)++;
	}
	return found;
}

static int count_type(const struct e2e_jsonl *out, const char *type)
{
	int n = 0;

	for (size_t i = 0; i < out->n; i++)
		n += e2e_type_is(out->v[i], type);
	return n;
}

static void check_spring(const struct e2e_jsonl *out, const struct exp_phys *x)
{
	int n;
	json_object *r = end_of(out, x->node, &n), *fit, *prop;

	cr_assert_eq(n, 1, "one animation on the spring's node");
	cr_assert_str_eq(e2e_str(r, "kind"), "spring");
	fit = e2e_get(r, "fit");
	prop = e2e_get(e2e_get(r, "properties"), x->property);
	cr_assert_float_eq(num(fit, "stiffness"), x->stiffness, 0.05 * x->stiffness);
	cr_assert_float_eq(num(fit, "damping_ratio"), x->damping_ratio, 0.05 * x->damping_ratio);
	cr_assert_float_eq(num(fit, "final_position"), x->to, 0.5);
	cr_assert_str_eq(e2e_str(fit, "stiffness_name"), "STIFFNESS_LOW");
	cr_assert_str_eq(e2e_str(fit, "damping_name"), "DAMPING_RATIO_MEDIUM_BOUNCY");
	cr_assert_float_eq(num(prop, "from"), x->from, 0);
	cr_assert_float_eq(num(prop, "to"), x->to, 0);
	cr_assert_eq(e2e_int(r, "frames"), x->end_frame - x->start_frame + 1);
	cr_assert_str_eq(e2e_str(r, "reason"), "complete");
}

static void check_fling(const struct e2e_jsonl *out, const struct exp_phys *x)
{
	int n;
	json_object *r = end_of(out, x->node, &n), *fit, *prop;

	cr_assert_eq(n, 1, "one animation on the fling's node (its scaleX jump is none)");
	cr_assert_str_eq(e2e_str(r, "kind"), "fling");
	fit = e2e_get(r, "fit");
	prop = e2e_get(e2e_get(r, "properties"), x->property);
	cr_assert_float_eq(num(fit, "friction_scalar"), x->friction_scalar,
			   0.05 * x->friction_scalar);
	cr_assert_float_eq(num(fit, "start_velocity"), x->start_velocity, 0.05 * x->start_velocity);
	cr_assert_float_eq(num(prop, "to"), x->to, 0.5);
	cr_assert_eq(e2e_int(r, "frames"), x->end_frame - x->start_frame + 1);
}

/* The marked fade is its animator's: an interpolator on animator_end, no animation. */
static void check_fade(const struct e2e_jsonl *out, const struct exp_phys *x)
{
	int n, ends = 0;

	end_of(out, x->node, &n);
	cr_assert_eq(n, 0, "the animator's writes are no unmarked animation");
	for (size_t i = 0; i < out->n; i++) {
		json_object *r = out->v[i];

		if (!e2e_type_is(r, "animator_end") || strcmp(e2e_str(r, "name"), x->animator))
			continue;
		ends++;
		cr_assert_str_eq(e2e_str(e2e_get(r, "interpolator"), "name"), x->interpolator);
		cr_assert_lt(num(e2e_get(r, "interpolator"), "rms"), 0.012);
	}
	cr_assert_eq(ends, 1);
}

Test(physics, springs_flings_and_an_animators_curve_are_fitted_and_a_jump_is_no_animation)
{
	char out[PATH_MAX], err[PATH_MAX], exp_path[PATH_MAX], go[PATH_MAX], name[E2E_NAME_MAX];
	const char *args[] = { "--proc", name, "--format",	    "json",
			       "-o",	 out,  "--no-atrace-setup", NULL };
	const char *sim[] = { E2E_ANIMSIM, "--name", name,    "--scenario", "physics",
			      "--frames",  "90",     "--art", "none",	    "--expect",
			      exp_path,	   "--go",   go,      NULL };
	struct exp_proc procs[2];
	struct e2e_jsonl j;
	pid_t at, s;

	e2e_name(name, TARGET);
	e2e_path(go, "go");
	e2e_path(out, "out.jsonl");
	e2e_path(exp_path, "expect.jsonl");
	at = e2e_animtrace(args, e2e_path(err, "err.txt"), NULL);
	s = e2e_spawn(sim, NULL);
	e2e_release(err, at, e2e_find_child(s, name), E2E_PROPS, go);
	cr_assert_eq(e2e_exit_code(s, "animsim"), 0);
	e2e_await(err, at, "exited", NULL);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	cr_assert_eq(exp_load(exp_path, procs, 2), 1);
	e2e_jsonl_load(&j, out);
	check_spring(&j, exp_phys_kind(&procs[0], "spring"));
	check_fling(&j, exp_phys_kind(&procs[0], "fling"));
	check_fade(&j, exp_phys_kind(&procs[0], "interpolated"));
	cr_assert_eq(count_type(&j, "animation_start"), 2, "the spring and the fling");
	cr_assert_eq(count_type(&j, "animation_end"), 2);
	e2e_jsonl_free(&j);
}
