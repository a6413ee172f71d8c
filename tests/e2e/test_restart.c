// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Live end-to-end (root): the traced app exits and starts again under the same name while
 * animtrace runs (--proc). The first pid's running animator ends with process_exit, the
 * second pid is picked up and traced exactly like the first.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "e2e.h"
#include "expect.h"

static char target[E2E_NAME_MAX];

static void setup(void)
{
	e2e_setup();
	e2e_name(target, "com.example.restart");
}

#define ROTATION_COOKIE 168950278 /* animator:rotation, left running by the basic scenario */

TestSuite(restart, .init = setup, .fini = e2e_teardown, .timeout = 180);

static int count_of(const struct e2e_jsonl *j, const char *type, pid_t pid)
{
	int n = 0;

	for (size_t i = 0; i < j->n; i++)
		n += e2e_type_is(j->v[i], type) && e2e_int(j->v[i], "pid") == pid;
	return n;
}

/* The first run: 24 frames, 5 starts, and 6 ends, of which the leaked one by its exit. */
static void check_first_run(const struct e2e_jsonl *j, const struct exp_proc *t)
{
	int exits = 0;

	cr_assert_eq(count_of(j, "frame", t->pid), 24);
	cr_assert_eq(count_of(j, "animator_start", t->pid), 5);
	cr_assert_eq(count_of(j, "animator_end", t->pid), 6);
	for (size_t i = 0; i < j->n; i++) {
		json_object *o = j->v[i];

		if (!e2e_type_is(o, "animator_end") || e2e_int(o, "pid") != t->pid ||
		    strcmp(e2e_str(o, "reason"), "process_exit"))
			continue;
		exits++;
		cr_assert_eq(e2e_int(o, "id"), ROTATION_COOKIE);
		cr_assert_str_eq(e2e_str(o, "name"), "animator:rotation");
		cr_assert_str_eq(e2e_str(o, "reason_source"), "inferred");
		cr_assert_eq(e2e_int(o, "frames"), 21, "frames 4..24 of the first run");
	}
	cr_assert_eq(exits, 1, "one animator ended by the exit of pid %d", t->pid);
}

static void check_stderr(const char *err, pid_t first, pid_t second)
{
	char *text = e2e_slurp(err), want[256];

	snprintf(want, sizeof(want), "animtrace: tracing %s (pid %d)\n", target, first);
	cr_assert_not_null(strstr(text, want), "no \"%s\" in:\n%s", want, text);
	snprintf(want, sizeof(want), "animtrace: %s (pid %d) exited\n", target, first);
	cr_assert_not_null(strstr(text, want), "no \"%s\" in:\n%s", want, text);
	const char *exited = strstr(text, want);

	snprintf(want, sizeof(want), "animtrace: tracing %s (pid %d)\n", target, second);
	cr_assert_not_null(strstr(text, want), "no \"%s\" in:\n%s", want, text);
	cr_assert(strstr(text, want) > exited, "the second pid was traced before the first exited");
	free(text);
}

Test(restart, a_target_that_exits_and_starts_again_is_picked_up_under_its_new_pid)
{
	char out[PATH_MAX], err[PATH_MAX], e1[PATH_MAX], e2[PATH_MAX], exitpat[256];
	char go1[PATH_MAX], go2[PATH_MAX];
	const char *args[] = { "--proc",
			       target,
			       "--format",
			       "json",
			       "-o",
			       e2e_path(out, "out.jsonl"),
			       "--no-atrace-setup",
			       NULL };
	const char *sim1[] = { E2E_ANIMSIM,
			       "--name",
			       target,
			       "--expect",
			       e2e_path(e1, "e1.jsonl"),
			       "--go",
			       e2e_path(go1, "go1"),
			       NULL };
	/* Each run plays once its new pid is traced, as an app's cold start outlasts that. */
	const char *sim2[] = { E2E_ANIMSIM,
			       "--name",
			       target,
			       "--go",
			       e2e_path(go2, "go2"),
			       "--linger-ms",
			       "3000",
			       "--expect",
			       e2e_path(e2, "e2.jsonl"),
			       NULL };
	struct exp_proc p1[2], p2[2];
	struct e2e_jsonl j;
	char pidpat[32];

	pid_t at = e2e_animtrace(args, e2e_path(err, "err.txt"), NULL);
	pid_t a = e2e_spawn(sim1, NULL);
	pid_t first = e2e_find_child(a, target);

	e2e_release(err, at, first, E2E_PROPS | E2E_ART, go1);
	cr_assert_eq(e2e_exit_code(a, "first animsim"), 0);
	snprintf(exitpat, sizeof(exitpat), "animtrace: %s (pid %d) exited", target, first);
	e2e_await(err, at, exitpat, NULL);
	pid_t b = e2e_spawn(sim2, NULL);
	pid_t second = e2e_find_child(b, target);

	e2e_release(err, at, second, E2E_PROPS | E2E_ART, go2);
	snprintf(pidpat, sizeof(pidpat), "\"pid\":%d,", second);
	e2e_await(out, at, "{\"type\":\"frame\"", pidpat, "\"seq\":24,", NULL);
	e2e_await(out, at, "{\"type\":\"animator_end\"", pidpat, "\"name\":\"animator:alpha\"",
		  NULL);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	cr_assert_eq(e2e_exit_code(b, "second animsim"), 0);

	cr_assert_eq(exp_load(e1, p1, 2), 1);
	cr_assert_eq(exp_load(e2, p2, 2), 1);
	cr_assert_eq(p1[0].pid, first);
	cr_assert_eq(p2[0].pid, second);
	cr_assert_neq(first, second);
	e2e_jsonl_load(&j, out);
	check_first_run(&j, &p1[0]);
	/* The second process, still running at the end, exactly as a first one would be. */
	exp_check_target(&j, &p2[0]);
	exp_check_props(&j, &p2[0]);
	check_stderr(err, first, second);
	e2e_jsonl_free(&j);
}
