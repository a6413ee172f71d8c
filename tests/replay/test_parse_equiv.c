// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * capture_parse_line reads fields at their places; capture_parse_line_ref (the parser before,
 * capture_line_ref.c) searched for each. They must agree on every line: the real captures'
 * lines, each of them cut at every length, and bytes of sample lines replaced by the
 * separators the parser looks for.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "capture_line_ref.h"
#include "replay/capture.h"

#define TRACES TESTDATA "/traces/"

static bool same_strv(struct strv a, struct strv b)
{
	return a.len == b.len && (a.len == 0 || a.p == b.p);
}

/* The task columns kept from every line checked before (their cuts and variants too). */
static struct capture_tasks tasks;

/* Counts a disagreement of one parser with the reference (and prints the first few). */
static size_t check_one(const char *line, size_t len, bool kept)
{
	static int shown;
	struct capture_line a, b;
	int ka = kept ? capture_parse_line_tasks(&tasks, line, len, &a) :
			capture_parse_line(line, len, &a);
	int kb = capture_parse_line_ref(line, len, &b);
	bool same = ka == kb;

	if (same && (ka == CAPTURE_MARKER || ka == CAPTURE_SCHED)) {
		same = a.ts_ns == b.ts_ns && a.tgid == b.tgid && a.tid == b.tid &&
		       same_strv(a.comm, b.comm) && same_strv(a.payload, b.payload) &&
		       a.n_extra == b.n_extra;
		for (int i = 0; same && i < a.n_extra; i++)
			same = a.extra_tid[i] == b.extra_tid[i] &&
			       same_strv(a.extra_comm[i], b.extra_comm[i]);
	}
	if (!same && shown++ < 5)
		fprintf(stderr, "disagree%s (%d vs ref %d): %.*s\n", kept ? " (tasks kept)" : "",
			ka, kb, (int)len, line);
	return !same;
}

/* The line read alone, and read after the lines before it (its task may be one kept). */
static size_t check(const char *line, size_t len)
{
	return check_one(line, len, false) + check_one(line, len, true);
}

/* Every line of path through check, and what also each line does to it. */
static size_t each_line(const char *path, size_t (*fn)(const char *, size_t, size_t), size_t *lines)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, bad = 0;
	ssize_t got;

	cr_assert_not_null(f, "%s", path);
	for (*lines = 0; (got = getline(&line, &cap, f)) > 0; (*lines)++)
		bad += fn(line, (size_t)got, *lines);
	free(line);
	fclose(f);
	return bad;
}

static size_t whole(const char *line, size_t len, size_t n)
{
	return check(line, len) + check(line, len && line[len - 1] == '\n' ? len - 1 : len);
}

/* The line cut at every length (an exact-size copy, so ASan sees a read past it). */
static size_t cuts(const char *line, size_t len, size_t n)
{
	size_t bad = 0;

	for (size_t l = 0; l <= len; l++) {
		char *c = malloc(l ? l : 1);

		memcpy(c, line, l);
		bad += check(c, l);
		free(c);
	}
	return bad;
}

/* Every 50th line with each byte in turn replaced by each separator. */
static size_t replaced(const char *line, size_t len, size_t n)
{
	static const char seps[] = " :-()[].0\t\r#=<>pnc";
	char *c;
	size_t bad = 0;

	if (n % 50)
		return 0;
	c = malloc(len);
	for (size_t i = 0; i < len; i++)
		for (const char *s = seps; *s; s++) {
			memcpy(c, line, len);
			c[i] = *s;
			bad += check(c, len);
		}
	free(c);
	return bad;
}

static const char *const text_captures[] = {
	"antutu-2018.ftrace.txt",	 "flyme-launcher-scroll-2019.ftrace.txt",
	"miui-launcher-2021.ftrace.txt", "perfetto-example-30s.atrace-payloads.txt",
	"antutu-2018.systrace.html",
};

Test(parse_equiv, agrees_with_the_reference_parser_on_every_line_of_the_corpus)
{
	char path[512];
	size_t lines;

	for (size_t i = 0; i < sizeof(text_captures) / sizeof(text_captures[0]); i++) {
		snprintf(path, sizeof(path), TRACES "%s", text_captures[i]);
		cr_expect_eq(each_line(path, whole, &lines), 0, "%s", text_captures[i]);
		cr_expect_gt(lines, 1000, "%s", text_captures[i]);
	}
}

Test(parse_equiv, agrees_on_every_line_cut_at_every_length, .timeout = 120)
{
	size_t lines;

	cr_expect_eq(each_line(TRACES "antutu-2018.ftrace.txt", cuts, &lines), 0);
	cr_expect_eq(each_line(TRACES "flyme-launcher-scroll-2019.ftrace.txt", cuts, &lines), 0);
}

Test(parse_equiv, agrees_when_any_byte_becomes_a_separator, .timeout = 120)
{
	size_t lines;

	cr_expect_eq(each_line(TRACES "antutu-2018.ftrace.txt", replaced, &lines), 0);
	cr_expect_eq(each_line(TRACES "flyme-launcher-scroll-2019.ftrace.txt", replaced, &lines),
		     0);
	cr_expect_eq(each_line(TRACES "miui-launcher-2021.ftrace.txt", replaced, &lines), 0);
}

Test(parse_equiv, agrees_on_hand_made_lines)
{
	static const char *const lines[] = {
		"  a-b-c-204 (  200) [003] ...1 100.5: tracing_mark_write: S|200|x|77",
		"     <...>-203 [000] 100.000005: tracing_mark_write: B|200|no flags",
		"     x-205 ( 300) [003] ...1 100.6: sched_switch: prev_comm=prev_pid=5 "
		"prev_pid=301 "
		"prev_prio=120 prev_state=S ==> next_comm=a b next_pid=200 next_prio=120",
		"     x-205 ( 300) [003] ...1 100.6: sched_switch: prev_comm=n next_comm=x "
		"prev_pid=1 "
		"prev_state=n ==> nnext_comm=next_comm=y  next_pid=2 next_pid=3",
		"     x-205 ( 300) [003] ...1 100.6: task_rename: pid=207 oldcomm=z newcomm=c.r "
		"oom_score_adj=0",
		"     x-205 ( 300) [003] ...1 100.6: task_rename: pid=300 oldcomm=z newcomm=c.r",
		"     x-205 ( 300) [003] ...1 100.6: sched_wakeup_new: comm=newbie pid=206 "
		"prio=120",
		"     x-205 ( 300) [003] ...1 100.6: sched_wakeup_ne: comm=newbie pid=206 prio=120",
		"     x-205 ( 300) [003] ...1 100.6: sched_wakeupx: comm=newbie pid=206 prio=120",
		"     x-205 ( 300) [003] ...1 100.6: print:B|1|x",
		"     x-205 ( 300) [003] ...1 100.6: print",
		"     x-205 ( 300) [003] ...1 100.6: print:",
		"     x-205 ( 300) [003] ...1 100.6:",
		"     x-205 ( 300) [003] ...1 100.6",
		"     x-205 ( 300) [003] ...1 12345678901.123456789: print: x",
		"     x-205 ( 300) [003] ...1 123456789012.123456789: print: x",
		"     x-205 ( 300) [003] ...1 99999999999.999999999: print: x",
		"     x-205 ( 300) [003] ...1 18446744073.709551615: print: x",
		"     x-205 ( 300) [003] ...1 18446744073.709551616: print: x",
		"     x-205 ( 300) [003] ...1 1.1234567890: print: x",
		"     x-205 ( 300) [003] ...1 100.5: print: x",
		"     x-205 ( 300) [003] ...1 100.: print: x",
		"     x-205 ( 300) [003] ...1 100.5x print: x",
		"     x-205 ( 300) [003] ...1 1000.5: print: x",
		"     x-205 ( 300) [003] ...1 100.1234567890: print: x",
		"     x-205 ( 300) [003] ...1 1234567.5: print: x",
		"     x-205 ( 300) [003] ...1 1234567.",
		"     x-205 ( 300) [003] ...1 12345678.5: print: x",
		"     x-205 ( 300) [003] ...1 1.1:: print: x",
		"     x-205 ( 300) [003] 1.1: 2.2: print: x",
		"     x-205 ( 300) [003] a b 1.1: print: x",
		"     x-205 ( 300) [003] 1..1 1.1: print: x",
		"     x-205 ( 300) [003] d..3  1.1: print: x",
		"     x-205 ( 300) [003] d..31.1: print: x",
		"     x-205 ( 300) [003] d..3 d..3 1.1: print: x",
		"     x-205 ( 300) [003] d..3 ",
		"     x-205 ( 300) [003] d..3",
		"     x-2147483648 ( 300) [003] ...1 1.1: print: x",
		"     x-2147483647 (2147483647) [003] ...1 1.1: print: x",
		"     x-0012345678 ( 300) [003] ...1 1.1: print: x",
		"     x-00123456789 ( 300) [003] ...1 1.1: print: x",
		"     x- ( 300) [003] ...1 1.1: print: x",
		"     -5 (-----) [003] ...1 1.1: print: x",
		"     x-5 (----) [003] ...1 1.1: print: x",
		"     x-5 ( -----) [003] ...1 1.1: print: x",
		"     x-5 () [003] ...1 1.1: print: x",
		"     x-5 ) [003] ...1 1.1: print: x",
		"     x-5 ( 1 2) [003] ...1 1.1: print: x",
		"x-5 [] [0] 1.1: print: x",
		"x-5 [0]x [1] 1.1: print: x",
		"\t \t x-5 [1] 1.1: print: x",
		"        \t# comment",
		"         ",
		"",
		"\r\n",
		"x-5 [1] 1.1: print: x\r\r\n",
	};

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		cr_expect_eq(check(lines[i], strlen(lines[i])), 0, "%s", lines[i]);
}

/* capture__next_event over path, each event against the reference parser's reading of the
 * same line of the file (capture__next_event looks for NUL bytes by buffer, not by line). */
static size_t events_against_lines(const char *path, size_t *lines)
{
	struct capture *c = capture__open(path);
	FILE *f = fopen(path, "r");
	struct capture_line a, b;
	char *line = NULL;
	size_t cap = 0, bad = 0;
	ssize_t got;
	int ka, kb;

	cr_assert(c && f, "%s", path);
	for (*lines = 0; (got = getline(&line, &cap, f)) > 0; (*lines)++) {
		size_t len = (size_t)got;

		if (len && line[len - 1] == '\n')
			len--;
		if (len && line[len - 1] == '\r')
			len--;
		ka = capture__next_event(c, &a);
		kb = capture_parse_line_ref(line, len, &b);
		if (ka != kb)
			bad++;
		else if (ka == CAPTURE_MARKER || ka == CAPTURE_SCHED)
			bad += a.ts_ns != b.ts_ns || a.tgid != b.tgid || a.tid != b.tid ||
			       a.comm.len != b.comm.len || memcmp(a.comm.p, b.comm.p, a.comm.len) ||
			       a.payload.len != b.payload.len || a.n_extra != b.n_extra;
	}
	cr_assert_eq(capture__next_event(c, &a), CAPTURE_END);
	free(line);
	fclose(f);
	capture__free(c);
	return bad;
}

Test(parse_equiv, a_capture_read_event_by_event_agrees_line_by_line, .timeout = 60)
{
	static const char *const files[] = { "antutu-2018.ftrace.txt",
					     "flyme-launcher-scroll-2019.ftrace.txt",
					     "miui-launcher-2021.ftrace.txt" };
	char path[512];
	size_t lines;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), TRACES "%s", files[i]);
		cr_expect_eq(events_against_lines(path, &lines), 0, "%s", files[i]);
		cr_expect_gt(lines, 10000, "%s", files[i]);
	}
}
