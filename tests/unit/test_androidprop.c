// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * androidprop against fake property programs: the ones in tests/fakes, and ones written into
 * a temp dir that hang. A hanging program must cost the caller at most the timeout, and be
 * killed and reaped with what it started.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "androidprop.h"

#define HANG_MS 2000 /* long enough for sh to write its pid files on a busy machine */

static char dir[64];

static void make_dir(void)
{
	char path[PATH_MAX + 32], cwd[PATH_MAX];

	strcpy(dir, "/tmp/at_propXXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	cr_assert_not_null(getcwd(cwd, sizeof(cwd)));
	/* The temp dir first (hanging programs), then the well-behaved fakes. */
	snprintf(path, sizeof(path), "%s:%s/tests/fakes:/usr/bin:/bin", dir, cwd);
	cr_assert_eq(setenv("PATH", path, 1), 0);
	cr_assert_eq(setenv("AT_FAKE_PROPS", dir, 1), 0);
	unsetenv("AT_FAKE_LOG");
	androidprop_set_timeout_ms(HANG_MS);
}

static void remove_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "/bin/rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(androidprop, .init = make_dir, .fini = remove_dir, .timeout = 30);

/* A program that records its pid and its background child's, prints a little, then hangs. */
static void hanging(const char *prog)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, prog);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fprintf(f, "#!/bin/sh\n"
		   "sleep 1000 &\n"
		   "echo $! > %s/child.pid\n"
		   "echo $$ > %s/%s.pid\n"
		   "printf partial\n"
		   "wait\n", dir, dir, prog);
	cr_assert_eq(fclose(f), 0);
	cr_assert_eq(chmod(path, 0755), 0);
}

static int read_pid(const char *name)
{
	char path[PATH_MAX];
	FILE *f;
	int pid = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s was not written: the fake did not run", path);
	cr_assert_eq(fscanf(f, "%d", &pid), 1);
	fclose(f);
	return pid;
}

/* Gone, or a zombie of someone else's (killed, waiting for init to reap it). */
static bool dead(int pid)
{
	char path[64], stat[256] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return true;
	if (!fgets(stat, sizeof(stat), f))
		stat[0] = '\0';
	fclose(f);
	return strstr(stat, ") Z ") != NULL;
}

static void assert_killed_and_reaped(const char *prog)
{
	char name[64];
	int pid, child;

	snprintf(name, sizeof(name), "%s.pid", prog);
	pid = read_pid(name);
	child = read_pid("child.pid");
	/* Our own child: not even a zombie may be left. */
	cr_assert(kill(pid, 0) && errno == ESRCH, "%s (pid %d) was not reaped", prog, pid);
	cr_assert(dead(child), "the hanging %s's child (pid %d) is still running", prog, child);
}

Test(androidprop, a_getprop_that_hangs_times_out_and_is_killed_with_its_children)
{
	char val[32] = "untouched";

	hanging("getprop");
	cr_assert_eq(androidprop_get("debug.atrace.tags.enableflags", val, sizeof(val)),
		     -ETIMEDOUT);
	cr_assert_str_eq(val, "untouched");
	assert_killed_and_reaped("getprop");
}

static void on_alarm(int sig)
{
}

Test(androidprop, signals_during_a_hanging_getprop_do_not_turn_the_bound_into_a_block)
{
	struct sigaction sa = { .sa_handler = on_alarm }; /* no SA_RESTART: EINTR everywhere */
	struct itimerval every = { { 0, 50000 }, { 0, 50000 } };
	char val[32];

	cr_assert_eq(sigaction(SIGALRM, &sa, NULL), 0);
	cr_assert_eq(setitimer(ITIMER_REAL, &every, NULL), 0);
	hanging("getprop");
	cr_assert_eq(androidprop_get("debug.atrace.tags.enableflags", val, sizeof(val)),
		     -ETIMEDOUT);
	assert_killed_and_reaped("getprop");
}

Test(androidprop, a_setprop_that_hangs_times_out_and_is_killed_with_its_children)
{
	hanging("setprop");
	cr_assert_eq(androidprop_set("debug.atrace.app_0", "com.example"), -ETIMEDOUT);
	assert_killed_and_reaped("setprop");
}

Test(androidprop, a_well_behaved_getprop_gives_the_value_without_its_newline)
{
	char path[PATH_MAX], val[32];
	FILE *f;

	snprintf(path, sizeof(path), "%s/debug.atrace.tags.enableflags", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("0x100a", f);
	cr_assert_eq(fclose(f), 0);
	cr_assert(androidprop_available());
	cr_assert_eq(androidprop_get("debug.atrace.tags.enableflags", val, sizeof(val)), 0);
	cr_assert_str_eq(val, "0x100a");
	cr_assert_eq(androidprop_get("debug.atrace.app_0", val, sizeof(val)), 0);
	cr_assert_str_eq(val, "");
}
