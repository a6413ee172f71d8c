// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/procfilter.h"
#include "fake_proc.h"

static struct procfilter *pf_with(const char *names, const char *pids)
{
	struct procfilter *f = procfilter__new();

	cr_assert_not_null(f);
	if (names)
		cr_assert_eq(procfilter__add_names(f, names), 0, "%s", procfilter__error(f));
	if (pids)
		cr_assert_eq(procfilter__add_pids(f, pids), 0, "%s", procfilter__error(f));
	return f;
}

static void expect_bad_names(const char *list, const char *reason)
{
	struct procfilter *f = procfilter__new();

	cr_assert_eq(procfilter__add_names(f, list), -EINVAL, "list \"%s\"", list);
	cr_assert_str_eq(procfilter__error(f), reason);
	cr_assert_eq(procfilter__name_count(f), 0);
	procfilter__free(f);
}

static void expect_bad_pids(const char *list, const char *reason)
{
	struct procfilter *f = procfilter__new();

	cr_assert_eq(procfilter__add_pids(f, list), -EINVAL, "list \"%s\"", list);
	cr_assert_str_eq(procfilter__error(f), reason);
	cr_assert_eq(procfilter__has_pids(f), false);
	procfilter__free(f);
}

Test(procfilter, a_new_filter_is_empty_and_selects_everything)
{
	struct procfilter *f = pf_with(NULL, NULL);

	cr_assert(procfilter__empty(f));
	cr_assert_not(procfilter__has_names(f));
	cr_assert(procfilter__wants_pid(f, 1234));
	cr_assert(procfilter__match_cmdline(f, "anything", 8));
	cr_assert(procfilter__match_comm(f, "anything"));
	cr_assert_str_eq(procfilter__error(f), "");
	procfilter__free(f);
	procfilter__free(NULL);
}

Test(procfilter, names_are_split_on_commas_trimmed_and_kept_once)
{
	struct procfilter *f = pf_with(" com.a , com.b:*,com.a", NULL);

	cr_assert_eq(procfilter__name_count(f), 2);
	cr_assert_str_eq(procfilter__name(f, 0), "com.a");
	cr_assert_str_eq(procfilter__name(f, 1), "com.b:*");
	cr_assert_null(procfilter__name(f, 2));
	cr_assert(procfilter__has_names(f));
	cr_assert_not(procfilter__empty(f));
	cr_assert_not(procfilter__wants_pid(f, 1), "a names-only filter lists no pid");
	procfilter__free(f);
}

Test(procfilter, bad_name_lists_are_rejected_with_a_reason)
{
	expect_bad_names("", "empty process name");
	expect_bad_names("com.a,,com.b", "empty process name");
	expect_bad_names("com.a,", "empty process name");
	expect_bad_names(":*", "empty process name before \":*\"");
	expect_bad_names("com.*", "\"com.*\": '*' is only allowed as a trailing \":*\"");
	expect_bad_names("a*b:*", "\"a*b:*\": '*' is only allowed as a trailing \":*\"");
}

Test(procfilter, a_rejected_list_leaves_earlier_names_untouched)
{
	struct procfilter *f = pf_with("com.keep", NULL);

	cr_assert_eq(procfilter__add_names(f, "com.new,,"), -EINVAL);
	cr_assert_eq(procfilter__name_count(f), 1);
	cr_assert_str_eq(procfilter__name(f, 0), "com.keep");
	procfilter__free(f);
}

Test(procfilter, names_up_to_255_characters_are_accepted_and_longer_ones_rejected)
{
	struct procfilter *f = procfilter__new();
	char name[300];

	memset(name, 'x', 255);
	name[255] = '\0';
	cr_assert_eq(procfilter__add_names(f, name), 0);
	name[255] = 'y';
	name[256] = '\0';
	cr_assert_eq(procfilter__add_names(f, name), -EINVAL);
	cr_assert_str_eq(procfilter__error(f),
			 "process name \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...\" is longer "
			 "than 255 characters");
	cr_assert_eq(procfilter__name_count(f), 1);
	procfilter__free(f);
}

Test(procfilter, more_than_32_names_are_rejected)
{
	struct procfilter *f = procfilter__new();
	char list[32 * 8] = "";

	for (int i = 0; i < 32; i++)
		sprintf(list + strlen(list), "%sp%d", i ? "," : "", i);
	cr_assert_eq(procfilter__add_names(f, list), 0);
	cr_assert_eq(procfilter__add_names(f, "one.more"), -EINVAL);
	cr_assert_str_eq(procfilter__error(f), "too many process names (at most 32)");
	cr_assert_eq(procfilter__name_count(f), 32);
	procfilter__free(f);
}

Test(procfilter, pids_are_parsed_and_kept_once)
{
	struct procfilter *f = pf_with(NULL, "12, 7,12");
	const int *pids;

	cr_assert_eq(procfilter__pids(f, &pids), 2);
	cr_assert_eq(pids[0], 12);
	cr_assert_eq(pids[1], 7);
	cr_assert(procfilter__wants_pid(f, 7));
	cr_assert_not(procfilter__wants_pid(f, 8));
	cr_assert(procfilter__has_pids(f));
	cr_assert_not(procfilter__has_names(f));
	cr_assert_not(procfilter__match_cmdline(f, "com.a", 5), "pids only: no name matches");
	cr_assert_not(procfilter__match_comm(f, "com.a"));
	procfilter__free(f);
}

Test(procfilter, bad_pid_lists_are_rejected_with_a_reason)
{
	expect_bad_pids("", "empty pid");
	expect_bad_pids("1,,2", "empty pid");
	expect_bad_pids("abc", "pid \"abc\" is not a number");
	expect_bad_pids("12x", "pid \"12x\" is not a number");
	expect_bad_pids("-", "pid \"-\" is not a number");
	expect_bad_pids("+5", "pid \"+5\" is not a number");
	expect_bad_pids("0", "pid 0 must be greater than 0");
	expect_bad_pids("-5", "pid -5 must be greater than 0");
	expect_bad_pids("99999999999", "pid 99999999999 is out of range");
	expect_bad_pids("5,2147483648", "pid 2147483648 is out of range");
}

Test(procfilter, the_largest_int_pid_is_accepted)
{
	struct procfilter *f = pf_with(NULL, "2147483647");

	cr_assert(procfilter__wants_pid(f, 2147483647));
	procfilter__free(f);
}

Test(procfilter, more_than_64_pids_are_rejected)
{
	struct procfilter *f = procfilter__new();
	char list[65 * 6] = "";

	for (int i = 1; i <= 65; i++)
		sprintf(list + strlen(list), "%s%d", i > 1 ? "," : "", i);
	cr_assert_eq(procfilter__add_pids(f, list), -EINVAL);
	cr_assert_str_eq(procfilter__error(f), "too many pids (at most 64)");
	cr_assert_not(procfilter__has_pids(f));
	procfilter__free(f);
}

#define CMD(s) (s), sizeof(s) - 1

Test(procfilter, a_plain_name_matches_argv0_exactly)
{
	struct procfilter *f = pf_with("com.foo", NULL);

	cr_assert(procfilter__match_cmdline(f, CMD("com.foo\0")));
	cr_assert(procfilter__match_cmdline(f, CMD("com.foo\0\0\0\0")));
	cr_assert(procfilter__match_cmdline(f, CMD("com.foo\0--flag\0")));
	cr_assert(procfilter__match_cmdline(f, CMD("com.foo")), "renamed, no NUL at all");
	cr_assert_not(procfilter__match_cmdline(f, CMD("com.foo:remote\0")));
	cr_assert_not(procfilter__match_cmdline(f, CMD("com.foobar\0")));
	cr_assert_not(procfilter__match_cmdline(f, CMD("com.fo\0")));
	cr_assert_not(procfilter__match_cmdline(f, CMD("com.foo --flag")));
	cr_assert_not(procfilter__match_cmdline(f, CMD("\0com.foo\0")));
	cr_assert_not(procfilter__match_cmdline(f, "", 0));
	procfilter__free(f);
}

Test(procfilter, a_name_with_colon_star_also_matches_its_subprocesses)
{
	struct procfilter *f = pf_with("com.foo:*", NULL);

	cr_assert(procfilter__match_cmdline(f, CMD("com.foo\0")));
	cr_assert(procfilter__match_cmdline(f, CMD("com.foo:remote\0")));
	cr_assert(procfilter__match_cmdline(f, CMD("com.foo:remote")));
	cr_assert(procfilter__match_cmdline(f, CMD("com.foo:a:b\0")));
	cr_assert_not(procfilter__match_cmdline(f, CMD("com.foobar\0")));
	cr_assert_not(procfilter__match_cmdline(f, CMD("com.foo.x:remote\0")));
	cr_assert_not(procfilter__match_cmdline(f, CMD("com.fo\0")));
	procfilter__free(f);
}

Test(procfilter, a_named_subprocess_matches_only_itself)
{
	struct procfilter *f = pf_with("com.foo:remote", NULL);

	cr_assert(procfilter__match_cmdline(f, CMD("com.foo:remote\0")));
	cr_assert_not(procfilter__match_cmdline(f, CMD("com.foo\0")));
	cr_assert_not(procfilter__match_cmdline(f, CMD("com.foo:other\0")));
	procfilter__free(f);
}

Test(procfilter, a_comm_matches_the_name_or_its_last_15_characters)
{
	struct procfilter *f = pf_with("com.android.systemui,surfaceflinger", NULL);

	cr_assert(procfilter__match_comm(f, "ndroid.systemui"));
	cr_assert(procfilter__match_comm(f, "com.android.systemui"));
	cr_assert(procfilter__match_comm(f, "surfaceflinger"));
	cr_assert_not(procfilter__match_comm(f, "com.android.sys"), "kernel default");
	cr_assert_not(procfilter__match_comm(f, "droid.systemui"));
	cr_assert_not(procfilter__match_comm(f, "systemui:remote"));
	cr_assert_not(procfilter__match_comm(f, "surfaceflinge"));
	cr_assert_not(procfilter__match_comm(f, ""));
	cr_assert(procfilter__match_comm_len(f, "ndroid.systemui|junk", 15));
	procfilter__free(f);
}

Test(procfilter, a_comm_matches_subprocesses_of_a_colon_star_name)
{
	struct procfilter *f = pf_with("com.android.systemui:*,com.foo:*", NULL);

	/* Last 15 characters of com.android.systemui, ...systemui:remote, ...:screenshot */
	cr_assert(procfilter__match_comm(f, "ndroid.systemui"));
	cr_assert(procfilter__match_comm(f, "systemui:remote"));
	cr_assert(procfilter__match_comm(f, "emui:screenshot"));
	cr_assert(procfilter__match_comm(f, "i:abcdefghijklm"), "13 character sub-name");
	cr_assert_not(procfilter__match_comm(f, ":abcdefghijklmn"), "nothing of NAME is left");
	cr_assert_not(procfilter__match_comm(f, "xmui:screenshot"));
	/* Short comms are whole process names: NAME must be complete. */
	cr_assert(procfilter__match_comm(f, "com.foo:remote"));
	cr_assert(procfilter__match_comm(f, "com.foo"));
	cr_assert_not(procfilter__match_comm(f, "foo:remote"));
	cr_assert_not(procfilter__match_comm(f, "ui:remote"));
	cr_assert_not(procfilter__match_comm(f, "com.foobar"));
	procfilter__free(f);
}

/* ---- /proc reading against a fake tree ------------------------------------------------ */

static char proc_root[64];

static void put_file(int pid, const char *file, const char *data, size_t len)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%d", proc_root, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%d/%s", proc_root, pid, file);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, data, len), (ssize_t)len);
	close(fd);
}

static void make_proc(void)
{
	char path[256];

	strcpy(proc_root, "/tmp/pf_procXXXXXX");
	cr_assert_not_null(mkdtemp(proc_root));
	put_file(100, "cmdline", CMD("com.foo\0\0\0"));
	put_file(100, "comm", CMD("com.foo\n"));
	put_file(101, "cmdline", CMD("com.foo:remote\0"));
	put_file(102, "cmdline", CMD("com.foobar\0"));
	put_file(103, "cmdline", "", 0);
	put_file(103, "comm", CMD("kworker/0:1\n"));
	put_file(104, "comm", CMD("gone\n")); /* exited: no cmdline any more */
	put_file(105, "cmdline", CMD("com.foo:bg")); /* renamed without a NUL */
	snprintf(path, sizeof(path), "%s/self", proc_root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/12ab", proc_root);
	mkdir(path, 0755);
}

static void remove_proc(void)
{
	temp_tree_remove(proc_root);
}

struct seen {
	int n;
	int pid[8];
	char argv0[8][64];
	int stop_after;
};

static int record(void *ctx, int pid, const char *argv0)
{
	struct seen *s = ctx;
	int i, j;

	cr_assert_lt(s->n, 8);
	/* readdir order is arbitrary: keep the list sorted by pid */
	for (i = s->n; i > 0 && s->pid[i - 1] > pid; i--)
		;
	for (j = s->n; j > i; j--) {
		s->pid[j] = s->pid[j - 1];
		strcpy(s->argv0[j], s->argv0[j - 1]);
	}
	s->pid[i] = pid;
	snprintf(s->argv0[i], sizeof(s->argv0[i]), "%s", argv0);
	s->n++;
	return s->stop_after && s->n == s->stop_after ? -EINTR : 0;
}

TestSuite(procfilter_proc, .init = make_proc, .fini = remove_proc);

Test(procfilter_proc, read_cmdline_returns_the_raw_bytes)
{
	char buf[64];

	cr_assert_eq(procfilter__read_cmdline(proc_root, 100, buf, sizeof(buf)), 10);
	cr_assert_eq(memcmp(buf, "com.foo\0\0\0", 11), 0);
	cr_assert_eq(procfilter__read_cmdline(proc_root, 100, buf, 5), 4);
	cr_assert_str_eq(buf, "com.");
	cr_assert_eq(procfilter__read_cmdline(proc_root, 103, buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, "");
	cr_assert_eq(procfilter__read_cmdline(proc_root, 104, buf, sizeof(buf)), -ENOENT);
	cr_assert_eq(procfilter__read_cmdline(proc_root, 999, buf, sizeof(buf)), -ENOENT);
	cr_assert_eq(procfilter__read_cmdline(proc_root, 100, buf, 0), -EINVAL);
}

Test(procfilter_proc, read_comm_drops_the_newline)
{
	char buf[16];

	cr_assert_eq(procfilter__read_comm(proc_root, 103, buf, sizeof(buf)), 11);
	cr_assert_str_eq(buf, "kworker/0:1");
	cr_assert_eq(procfilter__read_comm(proc_root, 101, buf, sizeof(buf)), -ENOENT);
}

Test(procfilter_proc, scan_reports_processes_selected_by_name_or_pid)
{
	struct procfilter *f = pf_with("com.foo:*", "103,104,999");
	struct seen s = { 0 };

	cr_assert_eq(procfilter__scan(f, proc_root, record, &s), 4);
	cr_assert_eq(s.n, 4);
	cr_assert_eq(s.pid[0], 100);
	cr_assert_str_eq(s.argv0[0], "com.foo");
	cr_assert_eq(s.pid[1], 101);
	cr_assert_str_eq(s.argv0[1], "com.foo:remote");
	cr_assert_eq(s.pid[2], 103);
	cr_assert_str_eq(s.argv0[2], "[kworker/0:1]");
	cr_assert_eq(s.pid[3], 105);
	cr_assert_str_eq(s.argv0[3], "com.foo:bg");
	procfilter__free(f);
}

Test(procfilter_proc, scan_with_a_plain_name_skips_subprocesses)
{
	struct procfilter *f = pf_with("com.foo", NULL);
	struct seen s = { 0 };

	cr_assert_eq(procfilter__scan(f, proc_root, record, &s), 1);
	cr_assert_eq(s.pid[0], 100);
	procfilter__free(f);
}

Test(procfilter_proc, scan_with_an_empty_filter_reports_every_live_process)
{
	struct procfilter *f = pf_with(NULL, NULL);
	struct seen s = { 0 };

	cr_assert_eq(procfilter__scan(f, proc_root, record, &s), 5);
	cr_assert_eq(s.pid[0], 100);
	cr_assert_eq(s.pid[4], 105);
	procfilter__free(f);
}

Test(procfilter_proc, scan_stops_when_the_callback_fails)
{
	struct procfilter *f = pf_with(NULL, NULL);
	struct seen s = { .stop_after = 2 };

	cr_assert_eq(procfilter__scan(f, proc_root, record, &s), -EINTR);
	cr_assert_eq(s.n, 2);
	procfilter__free(f);
}

Test(procfilter, scan_of_a_missing_proc_root_fails_with_enoent)
{
	struct procfilter *f = pf_with(NULL, NULL);
	struct seen s = { 0 };

	cr_assert_eq(procfilter__scan(f, "/nonexistent/animtrace/proc", record, &s), -ENOENT);
	procfilter__free(f);
}

Test(procfilter, scan_of_the_real_proc_finds_this_process_by_pid)
{
	char pid[16];
	struct procfilter *f;
	struct seen s = { 0 };

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	f = pf_with(NULL, pid);
	cr_assert_eq(procfilter__scan(f, "/proc", record, &s), 1);
	cr_assert_eq(s.pid[0], getpid());
	procfilter__free(f);
}
