// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Live end-to-end (root): SIGINT, SIGTERM, SIGHUP and --duration end animtrace cleanly, with
 * a summary, and undo its Android tracing properties. The properties are kept by the fake
 * getprop/setprop/service of tests/fakes (one file per property in $AT_FAKE_PROPS).
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <criterion/criterion.h>

#include "e2e.h"

static char target[E2E_NAME_MAX];

static void setup(void)
{
	e2e_setup();
	e2e_name(target, "com.example.anim");
}
#define FLAGS "debug.atrace.tags.enableflags"

TestSuite(signals, .init = setup, .fini = e2e_teardown, .timeout = 120);

static void check_summary_only(const char *out)
{
	struct e2e_jsonl j;
	int summaries = 0;

	e2e_jsonl_load(&j, out);
	cr_assert_gt(j.n, 0u, "no output");
	for (size_t i = 0; i < j.n; i++)
		summaries += e2e_type_is(j.v[i], "summary");
	cr_assert_eq(summaries, 1);
	cr_assert(e2e_type_is(j.v[j.n - 1], "summary"), "the last record is no summary");
	e2e_jsonl_free(&j);
}

static void stop_with(int sig)
{
	char out[PATH_MAX], err[PATH_MAX];
	const char *args[] = { "--proc",
			       target,
			       "--format",
			       "json",
			       "-o",
			       e2e_path(out, "o.jsonl"),
			       "--no-atrace-setup",
			       NULL };
	pid_t at = e2e_animtrace(args, e2e_path(err, "err.txt"), NULL);

	kill(at, sig);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0, "after signal %d", sig);
	check_summary_only(out);
}

Test(signals, sigint_ends_animtrace_with_status_0_and_a_summary)
{
	stop_with(SIGINT);
}

Test(signals, sigterm_ends_animtrace_with_status_0_and_a_summary)
{
	stop_with(SIGTERM);
}

Test(signals, sighup_ends_animtrace_with_status_0_and_a_summary)
{
	stop_with(SIGHUP);
}

struct props {
	char dir[PATH_MAX], log[PATH_MAX], state[PATH_MAX];
	char path_var[PATH_MAX + 4096], dir_var[PATH_MAX + 16], log_var[PATH_MAX + 16];
	char state_var[PATH_MAX + 32];
	char **env;
};

/* A fake device whose enableflags is 0x1002 (no view tag) and whose app list is empty. */
static void props_init(struct props *p)
{
	char fakes[PATH_MAX], file[PATH_MAX + 64];
	const char *path = getenv("PATH");
	FILE *f;

	cr_assert_not_null(realpath("tests/fakes", fakes), "run from the repository root");
	e2e_path(p->dir, "props");
	e2e_path(p->log, "props.log");
	e2e_path(p->state, "state");
	cr_assert_eq(mkdir(p->dir, 0755), 0);
	cr_assert_eq(mkdir(p->state, 0755), 0);
	snprintf(file, sizeof(file), "%s/%s", p->dir, FLAGS);
	cr_assert_not_null(f = fopen(file, "w"));
	fputs("0x1002", f);
	fclose(f);
	snprintf(p->path_var, sizeof(p->path_var), "PATH=%s:%s", fakes,
		 path ? path : "/usr/bin:/bin");
	snprintf(p->dir_var, sizeof(p->dir_var), "AT_FAKE_PROPS=%s", p->dir);
	snprintf(p->log_var, sizeof(p->log_var), "AT_FAKE_LOG=%s", p->log);
	snprintf(p->state_var, sizeof(p->state_var), "ANIMTRACE_STATE_DIR=%s", p->state);
	p->env = e2e_env(
		(const char *const[]){ p->path_var, p->dir_var, p->log_var, p->state_var, NULL });
}

/* A property's value ("" when unset or set empty). */
static char *prop(const struct props *p, const char *name)
{
	char file[PATH_MAX + 64];

	snprintf(file, sizeof(file), "%s/%s", p->dir, name);
	return e2e_slurp(file);
}

static void check_prop(const struct props *p, const char *name, const char *want, const char *when)
{
	char *v = prop(p, name);

	cr_assert_str_eq(v, want, "%s %s", name, when);
	free(v);
}

/* The setprop calls on the flags: set to 0x100a once, then back to 0x1002 once. */
static void check_flag_writes(const struct props *p)
{
	char *log = e2e_slurp(p->log);
	const char *on = strstr(log, "setprop " FLAGS " 0x100a\n");
	const char *off = strstr(log, "setprop " FLAGS " 0x1002\n");
	int writes = 0;

	for (const char *s = log; (s = strstr(s, "setprop " FLAGS " ")); s++)
		writes++;
	cr_assert_eq(writes, 2, "log:\n%s", log);
	cr_assert(on && off && on < off, "log:\n%s", log);
	free(log);
}

/* The state directory holds no state file (every run that wrote one restored and removed it). */
static void check_no_state(const struct props *p)
{
	char cmd[PATH_MAX + 64];

	snprintf(cmd, sizeof(cmd), "test -z \"$(ls -A '%s')\"", p->state);
	cr_assert_eq(system(cmd), 0, "state files left in %s", p->state);
}

/* sig == 0: let --duration end the run instead. */
static void props_run(int sig)
{
	char out[PATH_MAX], err[PATH_MAX];
	struct props p;

	props_init(&p);
	struct e2e_spawn so = { .env = p.env };
	const char *args[] = { "--proc",     target,
			       "--format",   "json",
			       "-o",	     e2e_path(out, "o.jsonl"),
			       "--duration", sig ? "120" : "1",
			       NULL };
	pid_t at = e2e_animtrace(args, e2e_path(err, "err.txt"), &so);

	if (sig) {
		check_prop(&p, FLAGS, "0x100a", "while running");
		check_prop(&p, "debug.atrace.app_number", "1", "while running");
		check_prop(&p, "debug.atrace.app_0", target, "while running");
		kill(at, sig);
	}
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	check_prop(&p, FLAGS, "0x1002", "after exit");
	check_prop(&p, "debug.atrace.app_number", "", "after exit");
	check_prop(&p, "debug.atrace.app_0", "", "after exit");
	check_flag_writes(&p);
	check_summary_only(out);
	check_no_state(&p);
	free(p.env);
}

Test(signals, sigint_restores_the_atrace_properties_set_while_running)
{
	props_run(SIGINT);
}

Test(signals, sigterm_restores_the_atrace_properties_set_while_running)
{
	props_run(SIGTERM);
}

Test(signals, sighup_restores_the_atrace_properties_set_while_running)
{
	props_run(SIGHUP);
}

Test(signals, duration_expiry_restores_the_atrace_properties)
{
	props_run(0);
}

/*
 * A run killed with SIGKILL cannot restore the properties: they stay changed, doctor shows the
 * state file it left, and the next run restores them first (one line), so at its exit they are
 * the originals, not the killed run's values taken as a baseline.
 */
Test(signals, sigkill_leaves_a_state_file_and_the_next_run_restores_the_originals)
{
	char out[PATH_MAX], err[PATH_MAX], err2[PATH_MAX], doc[PATH_MAX], pidtxt[64];
	struct props p;

	props_init(&p);
	struct e2e_spawn so = { .env = p.env };
	const char *args[] = { "--proc", target, "--format", "json", "-o", e2e_path(out, "o.jsonl"),
			       NULL };
	pid_t at = e2e_animtrace(args, e2e_path(err, "err.txt"), &so);

	check_prop(&p, FLAGS, "0x100a", "while running");
	kill(at, SIGKILL);
	int st = e2e_wait(at, "animtrace");

	cr_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "status %#x", st);
	check_prop(&p, FLAGS, "0x100a", "after SIGKILL");
	check_prop(&p, "debug.atrace.app_number", "1", "after SIGKILL");
	check_prop(&p, "debug.atrace.app_0", target, "after SIGKILL");

	const char *dargs[] = { E2E_ANIMTRACE, "doctor", NULL };
	pid_t d = e2e_spawn(dargs, &(struct e2e_spawn){ .out = e2e_path(doc, "doctor.txt"),
							.env = p.env });
	char *dtext;

	e2e_wait(d, "animtrace doctor");
	dtext = e2e_slurp(doc);
	snprintf(pidtxt, sizeof(pidtxt), "animtrace-atrace.%d.state: run %d ended", at, at);
	cr_assert(strstr(dtext, "\natrace state           warn     ") && strstr(dtext, pidtxt),
		  "doctor:\n%s", dtext);
	cr_assert(strstr(dtext, "they were " FLAGS "=0x1002, debug.atrace.app_number=, "
				"debug.atrace.app_0=: the next animtrace run restores them first"),
		  "doctor:\n%s", dtext);
	free(dtext);

	const char *args2[] = { "--proc", target,	"--format", "json", "-o",
				out,	  "--duration", "1",	    NULL };
	pid_t at2 = e2e_animtrace(args2, e2e_path(err2, "err2.txt"), &so);

	cr_assert_eq(e2e_exit_code(at2, "animtrace"), 0);
	check_prop(&p, FLAGS, "0x1002", "after the next run");
	check_prop(&p, "debug.atrace.app_number", "", "after the next run");
	check_prop(&p, "debug.atrace.app_0", "", "after the next run");
	check_no_state(&p);
	char *etext = e2e_slurp(err2), *log = e2e_slurp(p.log);

	snprintf(pidtxt, sizeof(pidtxt), "animtrace: atrace: run %d ended without restoring", at);
	cr_assert(strstr(etext, pidtxt) &&
			  strstr(etext, FLAGS "=0x1002, debug.atrace.app_number=, "
					      "debug.atrace.app_0=: restored first\n"),
		  "stderr:\n%s", etext);
	/* Killed run: on. Next run: restore first, on, and off at its exit. */
	const char *on = strstr(log, "setprop " FLAGS " 0x100a\n");
	const char *fix = on ? strstr(on, "setprop " FLAGS " 0x1002\n") : NULL;
	const char *on2 = fix ? strstr(fix, "setprop " FLAGS " 0x100a\n") : NULL;
	const char *off2 = on2 ? strstr(on2, "setprop " FLAGS " 0x1002\n") : NULL;

	cr_assert(off2, "log:\n%s", log);
	free(etext);
	free(log);
	free(p.env);
}
