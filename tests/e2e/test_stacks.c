// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Live end-to-end (root), --stacks: the ART probes copy the stack at ValueAnimator.start,
 * cancel and end in the simulator's ART fixture, animtrace unwinds it with the fixture's
 * CFI and MiniDebugInfo symbols, and the JSON animator lines carry the Java callers:
 * "start_stack" on animator_start (and animator_end), "end_stack" on animator_end, equal
 * to the "stack" lists of the simulator's "art" lines (innermost first).
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "e2e.h"

static char target[E2E_NAME_MAX];

static void setup(void)
{
	e2e_setup();
	e2e_name(target, "com.example.anim");
}

TestSuite(stacks, .init = setup, .fini = e2e_teardown, .timeout = 180);

/* The "stack" of the expect file's art line of method on cookie (NULL when none). */
static json_object *expected_stack(const struct e2e_jsonl *exp, const char *method, int64_t cookie)
{
	for (size_t i = 0; i < exp->n; i++) {
		json_object *o = exp->v[i];

		if (e2e_type_is(o, "art") && !strcmp(e2e_str(o, "method"), method) &&
		    e2e_int(o, "cookie") == cookie && !strcmp(e2e_str(o, "role"), "target"))
			return e2e_get(o, "stack");
	}
	return NULL;
}

static void assert_same_stack(json_object *got, json_object *want, const char *what)
{
	size_t n = json_object_array_length(want);

	cr_assert_not_null(got, "%s: no stack", what);
	cr_assert_eq(json_object_array_length(got), n, "%s: %s, expected %s", what,
		     json_object_to_json_string(got), json_object_to_json_string(want));
	for (size_t i = 0; i < n; i++)
		cr_assert_str_eq(json_object_get_string(json_object_array_get_idx(got, i)),
				 json_object_get_string(json_object_array_get_idx(want, i)),
				 "%s: frame %zu", what, i);
}

/* Checks the stacks of one animator line of the output against the expect file. */
static int check_line(json_object *o, const struct e2e_jsonl *exp)
{
	bool end = e2e_type_is(o, "animator_end");
	const char *name, *reason;
	json_object *want;
	char what[160];
	int checked = 0;
	int64_t id;

	if (!end && !e2e_type_is(o, "animator_start"))
		return 0;
	id = e2e_int(o, "id");
	name = e2e_str(o, "name");
	want = expected_stack(exp, "start", id);
	if (want) {
		snprintf(what, sizeof(what), "%s start_stack of %s", end ? "end" : "start", name);
		assert_same_stack(e2e_get(o, "start_stack"), want, what);
		checked++;
	}
	if (!end)
		return checked;
	reason = e2e_str(o, "reason");
	want = expected_stack(exp, !strcmp(reason, "force_end") ? "end" : "cancel", id);
	snprintf(what, sizeof(what), "end_stack of %s (%s)", name, reason);
	if (!strcmp(reason, "complete") || !strcmp(reason, "process_exit")) {
		json_object *none = NULL;

		/* Nothing explains a natural completion or a death: no end_stack, or empty. */
		if (json_object_object_get_ex(o, "end_stack", &none))
			cr_assert_eq(json_object_array_length(none), 0, "%s", what);
		if (!strcmp(reason, "process_exit"))
			return checked;
	} else
		assert_same_stack(e2e_get(o, "end_stack"), want, what);
	return checked + 1;
}

Test(stacks, start_and_end_stacks_name_the_simulators_java_callers_in_order)
{
	char out[PATH_MAX], err[PATH_MAX], exp_path[PATH_MAX], go[PATH_MAX];
	const char *args[] = { "--proc", target, "--stacks",	      "--format", "json",
			       "-o",	 out,	 "--no-atrace-setup", NULL };
	const char *sim[] = { E2E_ANIMSIM, "--name", target, "--linger-ms",	 "2000",
			      "--expect",  exp_path, "--go", e2e_path(go, "go"), NULL };
	struct e2e_jsonl got, exp;
	pid_t at, s;
	int checked = 0;

	e2e_path(out, "out.jsonl");
	e2e_path(exp_path, "expect.jsonl");
	at = e2e_animtrace(args, e2e_path(err, "err.txt"), NULL);
	s = e2e_spawn(sim, NULL);
	e2e_release(err, at, e2e_find_child(s, target), E2E_PROPS | E2E_ART, go);
	cr_assert_eq(e2e_exit_code(s, "animsim"), 0);
	e2e_await(err, at, "exited", NULL);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	e2e_jsonl_load(&got, out);
	e2e_jsonl_load(&exp, exp_path);
	for (size_t i = 0; i < got.n; i++)
		checked += check_line(got.v[i], &exp);
	/* Starts of alpha, translationY, animator, scaleY, rotation (5), their repeats on the
	 * 5 ends that had an S (rotation's at its process's exit), and 5 ends explained or
	 * not (2 complete, 2 cancel, 1 force_end). */
	cr_assert_eq(checked, 5 + 5 + 5, "checked %d stacks; stderr:\n%s", checked, e2e_slurp(err));
	e2e_jsonl_free(&got);
	e2e_jsonl_free(&exp);
}
