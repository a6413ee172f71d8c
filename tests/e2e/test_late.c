// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Live end-to-end (root): the uprobe lifecycle. A process that maps libhwui and the boot
 * oat only after animtrace first read its maps is probed once they appear (its markers are
 * its signs of life), without --hwui or --art-oat; and without --proc/--pid animtrace says
 * that no setter or ART probe is attached. Synchronised on animtrace's stderr and on gate
 * files the simulator waits for, never on sleeps.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "e2e.h"
#include "expect.h"

#define LATE "com.example.late"
#define LATE_FRAMES "10"

TestSuite(late, .init = e2e_setup, .fini = e2e_teardown, .timeout = 180);

/* Waits until err holds the line "animtrace: pid <pid><rest>" (rest: its start). */
static void await_pid_line(const char *err, pid_t at, pid_t pid, const char *rest)
{
	char want[256];

	snprintf(want, sizeof(want), "animtrace: pid %d%s", pid, rest);
	e2e_await(err, at, want, NULL);
}

/* Every end of t came from the ART probes attached late, one per animator that ended. */
static void check_art_ends(const struct e2e_jsonl *out, const struct exp_proc *t)
{
	int want = 0, got = 0;

	for (int i = 0; i < t->n_anims; i++)
		want += t->anims[i].end_frame != 0;
	for (size_t i = 0; i < out->n; i++) {
		json_object *o = out->v[i];

		if (!e2e_type_is(o, "animator_end") || e2e_int(o, "pid") != t->pid)
			continue;
		got++;
		cr_assert_str_eq(e2e_str(o, "reason_source"), "art", "%s",
				 json_object_to_json_string(o));
	}
	cr_assert_eq(got, want, "pid %d: %d animator ends, want %d", t->pid, got, want);
}

/* The text of err must say line exactly once. */
static void check_said_once(const char *err, const char *line)
{
	char *text = e2e_slurp(err);
	const char *first = strstr(text, line);

	cr_assert_not_null(first, "no \"%s\" in:\n%s", line, text);
	cr_assert_null(strstr(first + 1, line), "\"%s\" said twice:\n%s", line, text);
	free(text);
}

Test(late, a_libhwui_mapped_after_animtrace_looked_gives_the_values_of_the_next_animation)
{
	char out[PATH_MAX], err[PATH_MAX], ex[PATH_MAX], gate[PATH_MAX], go[PATH_MAX], pidpat[32];
	char line[160], name[E2E_NAME_MAX];
	const char *args[] = { "--proc",
			       name,
			       "--format",
			       "json",
			       "-o",
			       e2e_path(out, "out.jsonl"),
			       "--no-atrace-setup",
			       NULL };
	const char *sim[] = { E2E_ANIMSIM,
			      "--name",
			      name,
			      "--hwui-late-frames",
			      LATE_FRAMES,
			      "--late-gate",
			      e2e_path(gate, "gate"),
			      "--go",
			      e2e_path(go, "go"),
			      "--linger-ms",
			      "1000",
			      "--expect",
			      e2e_path(ex, "e.jsonl"),
			      NULL };
	struct exp_proc procs[2];
	struct e2e_jsonl j;

	e2e_name(name, LATE);
	cr_assert_eq(mkdir(gate, 0755), 0);
	pid_t at = e2e_animtrace(args, e2e_path(err, "err.txt"), NULL);
	pid_t b = e2e_spawn(sim, NULL);
	pid_t app = e2e_find_child(b, name);

	/* Looked at without the libraries, then its first frames (released only now, so none is
	 * written before its markers are let through) traced: then it loads them. */
	await_pid_line(err, at, app, " maps neither libhwui.so nor libandroid_runtime.so");
	e2e_go(go);
	snprintf(pidpat, sizeof(pidpat), "\"pid\":%d,", app);
	/* its 6th late frame (vsync ids are the simulator's: count frames, not ids) */
	e2e_await(out, at, "{\"type\":\"frame\"", pidpat, "\"seq\":6,", NULL);
	e2e_gate(gate, "load");
	await_pid_line(err, at, app, ": libhwui.so appeared, probing");
	await_pid_line(err, at, app, ": View property values from ");
	await_pid_line(err, at, app, ": end reasons from ART probes in ");
	e2e_gate(gate, "go");
	/* the scenario's frame 24, after the 10 late ones */
	e2e_await(out, at, "{\"type\":\"frame\"", pidpat, "\"seq\":34,", NULL);
	e2e_await(out, at, "{\"type\":\"animator_end\"", pidpat, "\"name\":\"animator:alpha\"",
		  NULL);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	cr_assert_eq(e2e_exit_code(b, "animsim"), 0);

	cr_assert_eq(exp_load(ex, procs, 2), 1);
	const struct exp_proc *t = exp_role(procs, 1, "target");

	cr_assert_eq(t->pid, app);
	cr_assert(t->art, "the ART fixture was loaded late too");
	e2e_jsonl_load(&j, out);
	exp_check_props(&j, t);
	check_art_ends(&j, t);
	e2e_jsonl_free(&j);
	snprintf(line, sizeof(line), "animtrace: pid %d maps neither libhwui.so", app);
	check_said_once(err, line);
	snprintf(line, sizeof(line), "animtrace: pid %d maps no boot-framework.oat", app);
	check_said_once(err, line);
}

Test(late, without_proc_or_pid_animtrace_says_that_no_setter_or_art_probe_is_attached)
{
	char err[PATH_MAX];
	const char *argv[] = { E2E_ANIMTRACE, "--duration",	   "1", "--format",
			       "json",	      "--no-atrace-setup", NULL };
	pid_t at = e2e_spawn(argv, &(struct e2e_spawn){ .err = e2e_path(err, "err.txt") });

	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	check_said_once(err, "animtrace: no --proc/--pid: tracing markers of every process; "
			     "View property values and end reasons need --proc or --pid\n");
}

/* stderr of animtrace tracing this test process for a second, with extra (or no) option. */
static char *stderr_of_a_second(const char *opt)
{
	char err[PATH_MAX], pid[16];
	const char *argv[] = { E2E_ANIMTRACE, "--pid",	  pid,	  "--duration",
			       "1",	      "--format", "json", "--no-atrace-setup",
			       opt,	      NULL };

	snprintf(pid, sizeof(pid), "%d", getpid());
	pid_t at = e2e_spawn(argv, &(struct e2e_spawn){ .err = e2e_path(err, "err.txt") });

	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	return e2e_slurp(err);
}

Test(late, verbose_shows_libbpfs_debug_lines_and_the_default_does_not)
{
	char *quiet = stderr_of_a_second(NULL), *verbose = stderr_of_a_second("-v");

	cr_assert_null(strstr(quiet, "libbpf: "), "libbpf lines without -v:\n%s", quiet);
	cr_assert_not_null(strstr(verbose, "\nlibbpf: "), "no libbpf line with -v:\n%s", verbose);
	cr_assert_not_null(strstr(verbose, "animtrace: ready: "), "%s", verbose);
	free(quiet);
	free(verbose);
}
