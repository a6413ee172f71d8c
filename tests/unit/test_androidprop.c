// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * androidprop against fake property programs: the ones in tests/fakes, and ones written into
 * a temp dir that hang. A hanging program must cost the caller at most the timeout, and be
 * killed and reaped with what it started, however far it got (the checks hold whatever the
 * machine's speed).
 */
#include <criterion/criterion.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "live/androidprop.h"
#include "fake_proc.h"

#define HANG_MS 300

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
	temp_tree_remove(dir);
}

TestSuite(androidprop, .init = make_dir, .fini = remove_dir, .timeout = 30);

/* A program that leaves a child of its own running (a subshell: it names the program too),
 * prints a little, then hangs. */
static void hanging(const char *prog)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, prog);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("#!/bin/sh\n"
	      "(while :; do sleep 1; done) &\n"
	      "printf partial\n"
	      "wait\n",
	      f);
	cr_assert_eq(fclose(f), 0);
	cr_assert_eq(chmod(path, 0755), 0);
}

/* Field 3 (state) and 4 (ppid) of /proc/<pid>/stat; false when it is gone. */
static bool proc_stat(const char *pid, char *state, int *ppid)
{
	char path[300], buf[512];
	const char *rp;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	rp = strrchr(buf, ')');
	return rp && sscanf(rp + 1, " %c %d", state, ppid) == 2;
}

/* Whether /proc/<pid>/cmdline mentions text. */
static bool cmdline_has(const char *pid, const char *text)
{
	char path[300], buf[4096];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%s/cmdline", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	for (size_t i = 0; i < n; i++)
		buf[i] = buf[i] ? buf[i] : ' ';
	buf[n] = '\0';
	return strstr(buf, text) != NULL;
}

/* A process of the hanging program still alive, or one of ours unreaped: a description. */
static bool leftover(char *what, size_t cap)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	bool found = false;
	char state;
	int ppid;

	cr_assert_not_null(d);
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9' ||
		    !proc_stat(de->d_name, &state, &ppid))
			continue;
		if (ppid == getpid())
			snprintf(what, cap, "pid %s (state %c) is a child left unreaped",
				 de->d_name, state);
		else if (state != 'Z' && cmdline_has(de->d_name, dir))
			snprintf(what, cap, "pid %s (state %c) still runs", de->d_name, state);
		else
			continue;
		found = true;
	}
	closedir(d);
	return found;
}

/*
 * However far the program got before the timeout: nothing of it runs and no zombie of ours
 * is left. SIGKILL takes effect when the victim next runs, so this polls (bounded).
 */
static void assert_killed_and_reaped(const char *prog)
{
	const struct timespec nap = { .tv_nsec = 10 * 1000 * 1000 };
	char what[320];

	for (int i = 0; i < 1000 && leftover(what, sizeof(what)); i++)
		nanosleep(&nap, NULL);
	cr_assert(!leftover(what, sizeof(what)), "the hanging %s: %s", prog, what);
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
