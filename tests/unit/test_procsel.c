// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <criterion/criterion.h>

#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/procsel.h"
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

/* ---- the one --proc/--pid parser, as animtrace and doctor call it ------------------- */

static error_t parse_into(int key, char *arg, struct argp_state *state)
{
	return procfilter__parse_opt(state->input, key, arg, state);
}

/* argp_parse of args (after argv[0]) with procfilter__parse_opt, errors returned not exited. */
static int parse_args(struct procfilter *f, int argc, char **args)
{
	static const struct argp_option opts[] = {
		{ "proc", PROCFILTER_KEY_PROC, "NAME", 0, "", 0 },
		{ "pid", PROCFILTER_KEY_PID, "PID", 0, "", 0 },
		{ "other", 'o', 0, 0, "", 0 },
		{ 0 },
	};
	static const struct argp argp = { .options = opts, .parser = parse_into };
	char *argv[8] = { "animtrace" };

	cr_assert_lt(argc, 8);
	memcpy(argv + 1, args, (size_t)argc * sizeof(*argv));
	return argp_parse(&argp, argc + 1, argv, ARGP_NO_EXIT | ARGP_NO_ERRS | ARGP_NO_HELP, NULL,
			  f);
}

Test(procfilter, parse_opt_adds_proc_names_and_pids_on_any_command_line)
{
	struct procfilter *f = pf_with(NULL, NULL);
	char *args[] = { "--proc", "com.a:*", "-P", "7,8", "-p", "com.b" };
	const int *pids;

	cr_assert_eq(parse_args(f, 6, args), 0);
	cr_assert_eq(procfilter__name_count(f), 2);
	cr_assert_str_eq(procfilter__name(f, 0), "com.a:*");
	cr_assert_str_eq(procfilter__name(f, 1), "com.b");
	cr_assert_eq(procfilter__pids(f, &pids), 2);
	cr_assert_eq(pids[0], 7);
	cr_assert_eq(pids[1], 8);
	procfilter__free(f);
}

Test(procfilter, parse_opt_stops_the_parse_with_the_reason_and_leaves_other_keys)
{
	struct procfilter *f = pf_with(NULL, NULL);
	char *bad_pid[] = { "--pid", "0" }, *bad_name[] = { "--proc", "a*" }, *other[] = { "-o" };

	cr_assert_eq(parse_args(f, 2, bad_pid), EINVAL);
	cr_assert_str_eq(procfilter__error(f), "pid 0 must be greater than 0");
	cr_assert_eq(parse_args(f, 2, bad_name), EINVAL);
	cr_assert_str_eq(procfilter__error(f), "\"a*\": '*' is only allowed as a trailing \":*\"");
	cr_assert_eq(parse_args(f, 1, other), EINVAL, "not ours: argp's unknown option");
	cr_assert(procfilter__empty(f));
	cr_assert_eq(procfilter__parse_opt(f, 'o', NULL, NULL), ARGP_ERR_UNKNOWN);
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
	put_file(104, "comm", CMD("gone\n"));	     /* exited: no cmdline any more */
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

/* ---- the selection, live: ops calls against a fake /proc ------------------------------ */

struct calls {
	char log[512];
	int allow_err; /* what allow returns */
};

__attribute__((format(printf, 2, 3))) static void note(struct calls *c, const char *fmt, ...)
{
	size_t n = strlen(c->log);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->log + n, sizeof(c->log) - n, fmt, ap);
	va_end(ap);
}

static int rec_allow(void *ctx, uint32_t tgid, bool allow)
{
	struct calls *c = ctx;

	note(c, "allow %u %d; ", tgid, allow);
	return allow ? c->allow_err : 0;
}

static void rec_selected(void *ctx, uint32_t tgid, const char *argv0)
{
	note(ctx, "selected %u %s; ", tgid, argv0);
}

static void rec_exited(void *ctx, uint32_t tgid, const char *name, uint64_t ts_ns)
{
	note(ctx, "exited %u %s %llu; ", tgid, name, (unsigned long long)ts_ns);
}

static void rec_missing(void *ctx, int pid)
{
	note(ctx, "missing %d; ", pid);
}

static const struct procsel_ops rec_ops = {
	.allow = rec_allow,
	.selected = rec_selected,
	.exited = rec_exited,
	.missing = rec_missing,
};

static void make_zygote_proc(void)
{
	strcpy(proc_root, "/tmp/ps_procXXXXXX");
	cr_assert_not_null(mkdtemp(proc_root));
	put_file(200, "cmdline", CMD("com.foo\0"));
	put_file(201, "cmdline", CMD("zygote64\0"));
	put_file(202, "cmdline", CMD("com.other\0--flag\0"));
	put_file(203, "cmdline", CMD("zygote64\0"));
}

/* A live selection over the fake /proc; f is freed with it (free_sel). */
static struct procsel *live_sel(struct procfilter *f, struct calls *c)
{
	struct procsel *s = procsel__new(&(struct procsel_opts){
		.filter = f, .proc_root = proc_root, .ops = &rec_ops, .ctx = c });

	cr_assert_not_null(s);
	return s;
}

static void free_sel(struct procsel *s, struct procfilter *f)
{
	procsel__free(s);
	procfilter__free(f);
}

TestSuite(procsel_live, .init = make_zygote_proc, .fini = remove_proc);

Test(procsel_live, start_selects_what_runs_by_name_and_reports_absent_pids)
{
	struct procfilter *f = pf_with("com.foo", "999");
	struct calls c = { .log = "" };
	struct procsel *s = live_sel(f, &c);

	cr_assert_not(procsel__all(s));
	cr_assert(procsel__watches(s));
	cr_assert_eq(procsel__start(s), 0);
	cr_assert_str_eq(c.log, "allow 200 1; selected 200 com.foo; missing 999; ");
	cr_assert_str_eq(procsel__name(s, 200), "com.foo");
	cr_assert_null(procsel__name(s, 201), "not selected: no name read");
	cr_assert(procsel__wants(s, 200));
	cr_assert_not(procsel__wants(s, 201));
	cr_assert(procsel__wants(s, 999), "a listed pid is wanted");
	free_sel(s, f);
}

Test(procsel_live, pids_select_by_id_whatever_the_name)
{
	struct procfilter *f = pf_with(NULL, "202,999");
	struct calls c = { .log = "" };
	struct procsel *s = live_sel(f, &c);

	cr_assert_not(procsel__watches(s), "pids only: no fork to watch");
	cr_assert_eq(procsel__start(s), 0);
	cr_assert_str_eq(c.log, "allow 202 1; selected 202 com.other; missing 999; ");
	free_sel(s, f);
}

Test(procsel_live, only_absent_pids_fail_the_start_with_esrch)
{
	struct procfilter *f = pf_with(NULL, "998,999");
	struct calls c = { .log = "" };
	struct procsel *s = live_sel(f, &c);

	cr_assert_eq(procsel__start(s), -ESRCH);
	cr_assert_str_eq(c.log, "missing 998; missing 999; ");
	free_sel(s, f);
}

Test(procsel_live, names_that_match_nothing_yet_wait_for_forks)
{
	struct procfilter *f = pf_with("com.later", "999");
	struct calls c = { .log = "" };
	struct procsel *s = live_sel(f, &c);

	cr_assert_eq(procsel__start(s), 0);
	cr_assert_str_eq(c.log, "missing 999; ");
	free_sel(s, f);
}

Test(procsel_live, a_fork_that_takes_the_name_within_its_watch_is_selected)
{
	struct procfilter *f = pf_with("com.foo:*", NULL);
	struct calls c = { .log = "" };
	struct procsel *s = live_sel(f, &c);

	procsel__start(s);
	c.log[0] = '\0';
	procsel__fork(s, 201, 1000);
	procsel__tick(s, 1001);
	cr_assert_str_eq(c.log, "", "still zygote64");
	put_file(201, "cmdline", CMD("com.foo:remote\0"));
	procsel__tick(s, 1000 + PROCSEL_WATCH_NS - 1);
	cr_assert_str_eq(c.log, "allow 201 1; selected 201 com.foo:remote; ");
	procsel__tick(s, 1000 + PROCSEL_WATCH_NS - 1);
	cr_assert_str_eq(c.log, "allow 201 1; selected 201 com.foo:remote; ", "selected once");
	cr_assert_str_eq(procsel__name(s, 201), "com.foo:remote");
	free_sel(s, f);
}

Test(procsel_live, a_fork_named_after_its_watch_is_let_go_but_a_rename_is_checked_at_once)
{
	struct procfilter *f = pf_with("com.foo:*", NULL);
	struct calls c = { .log = "" };
	struct procsel *s = live_sel(f, &c);

	procsel__start(s);
	c.log[0] = '\0';
	procsel__fork(s, 201, 0);
	procsel__tick(s, PROCSEL_WATCH_NS);
	put_file(201, "cmdline", CMD("com.foo:late\0"));
	procsel__tick(s, PROCSEL_WATCH_NS + 1);
	cr_assert_str_eq(c.log, "");
	procsel__exec(s, 201, PROCSEL_WATCH_NS + 2);
	cr_assert_str_eq(c.log, "allow 201 1; selected 201 com.foo:late; ");
	free_sel(s, f);
}

Test(procsel_live, an_exec_that_does_not_match_yet_is_watched)
{
	struct procfilter *f = pf_with("com.bar", NULL);
	struct calls c = { .log = "" };
	struct procsel *s = live_sel(f, &c);

	procsel__start(s);
	procsel__exec(s, 203, 50);
	cr_assert_str_eq(c.log, "");
	put_file(203, "cmdline", CMD("com.bar"));
	procsel__tick(s, 60);
	cr_assert_str_eq(c.log, "allow 203 1; selected 203 com.bar; ");
	free_sel(s, f);
}

Test(procsel_live, in_a_fork_storm_the_oldest_watch_is_let_go)
{
	struct procfilter *f = pf_with("com.foo:*", NULL);
	struct calls c = { .log = "" };
	struct procsel *s = live_sel(f, &c);

	procsel__start(s);
	c.log[0] = '\0';
	procsel__fork(s, 201, 0);
	procsel__fork(s, 203, 0);
	for (uint32_t pid = 10000; pid < 10000 + PROCSEL_WATCH_MAX - 1; pid++)
		procsel__fork(s, pid, 0); /* no such process: let go at the next tick */
	put_file(201, "cmdline", CMD("com.foo:a\0"));
	put_file(203, "cmdline", CMD("com.foo:b\0"));
	procsel__tick(s, 1);
	cr_assert_str_eq(c.log, "allow 203 1; selected 203 com.foo:b; ");
	free_sel(s, f);
}

Test(procsel_live, an_exit_of_a_selected_process_forgets_it_then_takes_it_off_the_map)
{
	struct procfilter *f = pf_with("com.foo", NULL);
	struct calls c = { .log = "" };
	struct procsel *s = live_sel(f, &c);

	procsel__start(s);
	c.log[0] = '\0';
	procsel__exit(s, 555, 41);
	cr_assert_str_eq(c.log, "", "never selected: nothing to do");
	procsel__exit(s, 200, 42);
	cr_assert_str_eq(c.log, "exited 200 com.foo 42; allow 200 0; ");
	cr_assert_null(procsel__name(s, 200));
	cr_assert_not(procsel__wants(s, 200));
	free_sel(s, f);
}

Test(procsel_live, a_process_the_allow_map_refuses_is_not_selected)
{
	struct procfilter *f = pf_with("com.foo", "200");
	struct calls c = { .allow_err = -ENOSPC };
	struct procsel *s = live_sel(f, &c);

	cr_assert_eq(procsel__start(s), 0, "a name can still match a process started later");
	cr_assert_str_eq(c.log, "allow 200 1; missing 200; ");
	cr_assert_null(procsel__name(s, 200));
	free_sel(s, f);
}

Test(procsel_live, with_no_filter_every_process_is_named_from_proc_and_nothing_is_allowed)
{
	struct calls c = { .log = "" };
	struct procsel *s = live_sel(NULL, &c);

	cr_assert(procsel__all(s));
	cr_assert_not(procsel__watches(s));
	cr_assert(procsel__wants(s, 12345));
	cr_assert_eq(procsel__start(s), 0);
	procsel__fork(s, 201, 0);
	procsel__exec(s, 203, 0);
	procsel__tick(s, 1);
	cr_assert_str_eq(c.log, "");
	cr_assert_str_eq(procsel__name(s, 202), "com.other");
	cr_assert_null(procsel__name(s, 999));
	procsel__exit(s, 999, 6);
	procsel__exit(s, 202, 7);
	cr_assert_str_eq(c.log, "exited 202 com.other 7; ");
	procsel__free(s);
}

/* ---- the selection, replay: what a capture shows ------------------------------------- */

static void thread(struct procsel *s, uint32_t tid, uint32_t tgid, const char *comm, bool replace)
{
	procsel__thread(s, tid, tgid, comm, comm ? strlen(comm) : 0, replace);
}

static struct procsel *replay_sel(struct procfilter *f)
{
	struct procsel *s = procsel__new(&(struct procsel_opts){ .filter = f });

	cr_assert_not_null(s);
	return s;
}

Test(procsel_replay, a_task_column_name_stays_and_a_sched_name_replaces_it)
{
	struct procsel *s = replay_sel(NULL);

	thread(s, 5, 0, "first", false);
	thread(s, 5, 0, "second", false);
	cr_assert_str_eq(procsel__name(s, 5), "first");
	thread(s, 5, 0, "now", true);
	cr_assert_str_eq(procsel__name(s, 5), "now");
	thread(s, 5, 9, NULL, false);
	thread(s, 5, 0, NULL, false);
	cr_assert_eq(procsel__tgid(s, 5), 9, "tgid 0 is not shown, not a change");
	cr_assert_eq(procsel__tgid(s, 6), 0);
	thread(s, 0, 9, "idle", false);
	cr_assert_null(procsel__name(s, 0));
	procsel__free(s);
}

Test(procsel_replay, with_no_filter_every_process_is_wanted_and_proc_is_never_read)
{
	struct procsel *s = replay_sel(NULL);
	char msg[64] = "";

	cr_assert(procsel__all(s));
	cr_assert_eq(procsel__decide(s, msg, sizeof(msg)), 0);
	cr_assert(procsel__wants(s, 1));
	cr_assert_null(procsel__name(s, 1), "pid 1 exists here, but a capture is not this host");
	procsel__free(s);
}

Test(procsel_replay, proc_selects_by_the_main_threads_comm_then_names_stay)
{
	struct procfilter *f = pf_with("com.android.systemui", NULL);
	struct procsel *s = replay_sel(f);
	char msg[256] = "";

	thread(s, 100, 100, "ndroid.systemui", false);
	thread(s, 101, 100, "RenderThread", false);
	thread(s, 102, 0, "com.android.systemui", false); /* not known as a main thread */
	thread(s, 200, 200, "surfaceflinger", false);
	cr_assert_eq(procsel__decide(s, msg, sizeof(msg)), 0);
	cr_assert_str_eq(msg, "");
	cr_assert_eq(procsel__named(s), 2);
	cr_assert(procsel__wants(s, 100));
	cr_assert_not(procsel__wants(s, 101));
	cr_assert_not(procsel__wants(s, 102));
	cr_assert_not(procsel__wants(s, 200));
	cr_assert_eq(procsel__tgid(s, 101), 100);
	thread(s, 100, 100, "renamed", true);
	thread(s, 300, 300, "late", false);
	cr_assert_str_eq(procsel__name(s, 100), "ndroid.systemui");
	cr_assert_null(procsel__name(s, 300));
	free_sel(s, f);
}

Test(procsel_replay, proc_that_matches_nothing_lists_the_names_the_capture_shows)
{
	struct procfilter *f = pf_with("com.foo", NULL);
	struct procsel *s = replay_sel(f);
	char msg[256];

	thread(s, 100, 100, "sysui", false);
	thread(s, 200, 200, "sf", false);
	cr_assert_eq(procsel__decide(s, msg, sizeof(msg)), -ESRCH);
	cr_assert_str_eq(msg, "no process in the capture matches --proc; processes it names: "
			      "sysui (100), sf (200)");
	free_sel(s, f);
}

Test(procsel_replay, proc_in_a_capture_without_names_suggests_pid)
{
	struct procfilter *f = pf_with("com.foo", NULL);
	struct procsel *s = replay_sel(f);
	char msg[256];

	thread(s, 100, 100, NULL, false);
	procsel__wrote(s, 100);
	cr_assert_eq(procsel__decide(s, msg, sizeof(msg)), -ESRCH);
	cr_assert_str_eq(msg, "the capture names no process (task names are <...>): select one "
			      "with --pid");
	cr_assert_eq(procsel__named(s), 0);
	free_sel(s, f);
}

Test(procsel_replay, pid_is_checked_against_the_processes_that_wrote_markers)
{
	struct procfilter *f = pf_with(NULL, "999");
	struct procsel *s = replay_sel(f);
	char msg[256];

	thread(s, 300, 300, "a", false);
	procsel__wrote(s, 300);
	procsel__wrote(s, 400);
	procsel__wrote(s, 0);
	cr_assert_eq(procsel__decide(s, msg, sizeof(msg)), -ESRCH);
	cr_assert_str_eq(msg, "no process in the capture matches --pid; processes that wrote "
			      "markers: a (300), 400");
	free_sel(s, f);
}

Test(procsel_replay, pid_that_wrote_markers_is_wanted_and_names_keep_being_learnt)
{
	struct procfilter *f = pf_with(NULL, "300");
	struct procsel *s = replay_sel(f);
	char msg[256] = "";

	procsel__wrote(s, 300);
	cr_assert_eq(procsel__decide(s, msg, sizeof(msg)), 0);
	cr_assert(procsel__wants(s, 300));
	cr_assert_not(procsel__wants(s, 400));
	thread(s, 300, 300, "later", false);
	cr_assert_str_eq(procsel__name(s, 300), "later");
	free_sel(s, f);
}

Test(procfilter, says_how_a_process_was_selected)
{
	struct procfilter *f = procfilter__new();
	const char *name;

	cr_assert_eq(procfilter__add_names(f, "com.foo:*,com.bar"), 0);
	cr_assert_eq(procfilter__add_pids(f, "77"), 0);
	cr_assert_eq(procfilter__how(f, 1, "com.foo", &name), PROCFILTER_EXACT);
	cr_assert_str_eq(name, "com.foo:*");
	cr_assert_eq(procfilter__how(f, 2, "com.foo:remote", &name), PROCFILTER_SUBPROCESS);
	cr_assert_str_eq(name, "com.foo:*");
	cr_assert_eq(procfilter__how(f, 3, "com.bar", &name), PROCFILTER_EXACT);
	cr_assert_eq(procfilter__how(f, 4, "com.bar:remote", &name), PROCFILTER_NOT);
	cr_assert_eq(procfilter__how(f, 77, "anything", &name), PROCFILTER_BY_PID);
	cr_assert_null(name);
	procfilter__free(f);
}
