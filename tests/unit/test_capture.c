// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * capture_parse_line on real lines from the three ftrace captures, and capture__open /
 * capture__next_event on temporary files (text, html, a hand-built Perfetto trace) and
 * on the real antutu systrace .html.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "replay/capture.h"
#include "replay/pftrace.h"

#define TRACES TESTDATA "/traces/"

/* Copies the line into a heap buffer of exactly its length so ASan sees overreads. */
struct cap_parsed {
	char *buf;
	struct capture_line l;
	int rc;
};

static struct cap_parsed cap_parse(const char *s)
{
	size_t len = strlen(s);
	struct cap_parsed p = { .buf = malloc(len ? len : 1) };

	cr_assert_not_null(p.buf);
	memcpy(p.buf, s, len);
	p.rc = capture_parse_line(p.buf, len, &p.l);
	return p;
}

static void cap_expect_strv(struct strv v, const char *want)
{
	cr_assert(strv_eq(v, want), "got \"%.*s\" (%zu bytes), want \"%s\"", (int)v.len,
		  v.p ? v.p : "", v.len, want);
}

static void cap_expect_task(const struct cap_parsed *p, uint64_t ts_ns, int32_t tgid, int32_t tid,
			    const char *comm)
{
	cr_assert_eq(p->l.ts_ns, ts_ns, "ts_ns %llu", (unsigned long long)p->l.ts_ns);
	cr_assert_eq(p->l.tgid, tgid, "tgid %d", p->l.tgid);
	cr_assert_eq(p->l.tid, tid, "tid %d", p->l.tid);
	cap_expect_strv(p->l.comm, comm);
}

static void cap_expect_marker(const char *line, uint64_t ts_ns, int32_t tgid, int32_t tid,
			      const char *comm, const char *payload)
{
	struct cap_parsed p = cap_parse(line);

	cr_assert_eq(p.rc, CAPTURE_MARKER, "\"%s\" -> %d", line, p.rc);
	cap_expect_task(&p, ts_ns, tgid, tid, comm);
	cap_expect_strv(p.l.payload, payload);
	cr_assert_eq(p.l.n_extra, 0);
	free(p.buf);
}

Test(capture_line, parses_a_marker_with_a_tgid_column)
{
	cap_expect_marker("tutu.ABenchMark-24675 (24675) [001] ...1 69739.902489: "
			  "tracing_mark_write: S|24675|animator|44292905",
			  69739902489000ull, 24675, 24675, "tutu.ABenchMark",
			  "S|24675|animator|44292905");
}

Test(capture_line, parses_a_marker_without_a_tgid_column_from_an_unknown_task)
{
	cap_expect_marker("           <...>-27619 [005] .... 958957.138279: "
			  "tracing_mark_write: S|27619|animator|214461257",
			  958957138279000ull, -1, 27619, "<...>", "S|27619|animator|214461257");
}

Test(capture_line, parses_a_padded_tgid_column)
{
	cap_expect_marker("   TimerDispatch-1769  (  990) [003] .... 28304.425713: "
			  "tracing_mark_write: B|990|TimerIteration #3",
			  28304425713000ull, 990, 1769, "TimerDispatch", "B|990|TimerIteration #3");
}

Test(capture_line, parses_the_perfetto_print_form)
{
	cap_expect_marker("  surfaceflinger-990   (  990) [002] .... 28306.035073: "
			  "print: B|123|foo",
			  28306035073000ull, 990, 990, "surfaceflinger", "B|123|foo");
}

Test(capture_line, parses_lines_without_a_flags_column)
{
	cap_expect_marker("comm-12 [000] 123.456: tracing_mark_write: E|12", 123456000000ull, -1,
			  12, "comm", "E|12");
}

Test(capture_line, parses_nine_decimal_timestamps_exactly)
{
	cap_expect_marker("comm-12 [000] .... 123.456789123: print: E|12", 123456789123ull, -1, 12,
			  "comm", "E|12");
	cap_expect_marker("comm-12 [000] .... 18446744073.709551615: print: E|12",
			  18446744073709551615ull, -1, 12, "comm", "E|12");
}

Test(capture_line, takes_the_tid_after_the_last_dash_of_the_task_name)
{
	cap_expect_marker(" sensors@1.0-ser-31605 [003] .... 958955.786982: tracing_mark_write: "
			  "E|31605",
			  958955786982000ull, -1, 31605, "sensors@1.0-ser", "E|31605");
	cap_expect_marker("     ->transport-1654  [001] .... 958955.765733: print: E|1",
			  958955765733000ull, -1, 1654, "->transport", "E|1");
}

Test(capture_line, keeps_spaces_in_task_names)
{
	cap_expect_marker("    Job.Worker 1-3871  ( 3346) [005] .... 28306.085354: "
			  "tracing_mark_write: B|3346|job",
			  28306085354000ull, 3346, 3871, "Job.Worker 1", "B|3346|job");
}

Test(capture_line, keeps_colons_and_trailing_spaces_in_the_payload_but_not_the_newline)
{
	cap_expect_marker("    Binder:990_1-1109  (  990) [002] .... 28306.025017: "
			  "tracing_mark_write: "
			  "B|990|com.miui.home/com.miui.home.launcher.Launcher#0: 1: 605",
			  28306025017000ull, 990, 1109, "Binder:990_1",
			  "B|990|com.miui.home/com.miui.home.launcher.Launcher#0: 1: 605");
	cap_expect_marker("a-1 [000] .... 1.000001: tracing_mark_write: B|1|x  \r\n", 1000001000ull,
			  -1, 1, "a", "B|1|x  ");
}

Test(capture_line, hands_clock_sync_lines_over_as_markers_for_marker_parse_to_reject)
{
	cap_expect_marker("atrace-23408 (23408) [001] ...1 69739.347047: tracing_mark_write: "
			  "trace_event_clock_sync: parent_ts=69739.375000",
			  69739347047000ull, 23408, 23408, "atrace",
			  "trace_event_clock_sync: parent_ts=69739.375000");
}

Test(capture_line, learns_both_names_from_a_sched_switch_with_a_dashed_tgid)
{
	struct cap_parsed p =
		cap_parse("          <idle>-0     (-----) [001] d..3 69739.347126: sched_switch: "
			  "prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> "
			  "next_comm=ksoftirqd/1 next_pid=15 next_prio=120");

	cr_assert_eq(p.rc, CAPTURE_SCHED);
	cap_expect_task(&p, 69739347126000ull, -1, 0, "<idle>");
	cr_assert_eq(p.l.n_extra, 2);
	cr_assert_eq(p.l.extra_tid[0], 0);
	cap_expect_strv(p.l.extra_comm[0], "swapper/1");
	cr_assert_eq(p.l.extra_tid[1], 15);
	cap_expect_strv(p.l.extra_comm[1], "ksoftirqd/1");
	cr_assert_eq(p.l.payload.len, 0);
	free(p.buf);
}

Test(capture_line, learns_names_with_spaces_from_a_sched_switch)
{
	struct cap_parsed p =
		cap_parse("    Job.Worker 1-3871  ( 3346) [005] d..2 28306.085354: sched_switch: "
			  "prev_comm=Job.Worker 1 prev_pid=3871 prev_prio=120 prev_state=S ==> "
			  "next_comm=Job.Worker 0 next_pid=3870 next_prio=120");

	cr_assert_eq(p.rc, CAPTURE_SCHED);
	cap_expect_task(&p, 28306085354000ull, 3346, 3871, "Job.Worker 1");
	cr_assert_eq(p.l.n_extra, 2);
	cr_assert_eq(p.l.extra_tid[0], 3871);
	cap_expect_strv(p.l.extra_comm[0], "Job.Worker 1");
	cr_assert_eq(p.l.extra_tid[1], 3870);
	cap_expect_strv(p.l.extra_comm[1], "Job.Worker 0");
	free(p.buf);
}

Test(capture_line, learns_the_woken_task_from_sched_wakeup_and_sched_waking)
{
	struct cap_parsed p = cap_parse("ksoftirqd/1-15    (   15) [001] d.H5 69739.347150: "
					"sched_wakeup: comm=rcu_preempt pid=10 prio=120 "
					"success=1 target_cpu=001");

	cr_assert_eq(p.rc, CAPTURE_SCHED);
	cap_expect_task(&p, 69739347150000ull, 15, 15, "ksoftirqd/1");
	cr_assert_eq(p.l.n_extra, 1);
	cr_assert_eq(p.l.extra_tid[0], 10);
	cap_expect_strv(p.l.extra_comm[0], "rcu_preempt");
	free(p.buf);

	p = cap_parse("           <...>-10176 [005] d..2 958955.762701: sched_waking: "
		      "comm=kworker/5:0 pid=6371 prio=120 target_cpu=005");
	cr_assert_eq(p.rc, CAPTURE_SCHED);
	cap_expect_task(&p, 958955762701000ull, -1, 10176, "<...>");
	cr_assert_eq(p.l.n_extra, 1);
	cr_assert_eq(p.l.extra_tid[0], 6371);
	cap_expect_strv(p.l.extra_comm[0], "kworker/5:0");
	free(p.buf);
}

Test(capture_line, learns_the_new_name_from_task_rename)
{
	struct cap_parsed p = cap_parse("           <...>-3690  ( 3553) [002] ...1 28306.015159: "
					"task_rename: pid=9550 oldcomm=RenderThread "
					"newcomm=HWC release oom_score_adj=0");

	cr_assert_eq(p.rc, CAPTURE_SCHED);
	cap_expect_task(&p, 28306015159000ull, 3553, 3690, "<...>");
	cr_assert_eq(p.l.n_extra, 1);
	cr_assert_eq(p.l.extra_tid[0], 9550);
	cap_expect_strv(p.l.extra_comm[0], "HWC release");
	free(p.buf);
}

Test(capture_line, reports_other_events_as_sched_lines_without_extras)
{
	struct cap_parsed p = cap_parse("     kworker/5:0-6371  [005] .... 958955.762714: "
					"workqueue_execute_start: work struct ffffff83b8f89238: "
					"function binder_deferred_func");

	cr_assert_eq(p.rc, CAPTURE_SCHED);
	cap_expect_task(&p, 958955762714000ull, -1, 6371, "kworker/5:0");
	cr_assert_eq(p.l.n_extra, 0);
	free(p.buf);
}

Test(capture_line, skips_comments_headers_and_blank_lines)
{
	static const char skips[][64] = {
		"# tracer: nop",
		"#",
		"#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP",
		"",
		"  ",
		"\t",
		"\r",
		"   # indented comment",
	};
	size_t i;

	for (i = 0; i < sizeof(skips) / sizeof(skips[0]); i++) {
		struct cap_parsed p = cap_parse(skips[i]);

		cr_expect_eq(p.rc, CAPTURE_SKIP, "\"%s\" -> %d", skips[i], p.rc);
		free(p.buf);
	}
}

Test(capture_line, rejects_garbage)
{
	static const char bad[][96] = {
		"hello world",
		"<html>",
		"trace_event_clock_sync: parent_ts=1",
		"B|1|x",
		"comm [000] .... 1.000001: print: B|1|x",
		"comm-12x [000] .... 1.000001: print: B|1|x",
		"comm- [000] .... 1.000001: print: B|1|x",
		"comm-12 (abc) [000] .... 1.000001: print: B|1|x",
		"comm-12 [000] .... notatime: print: B|1|x",
		"comm-12 [000] .... 1.000001 print: B|1|x",
		"comm-12 [000] .... 1.1234567890: print: B|1|x",
		"comm-12 [000] .... 1.: print: B|1|x",
		"comm-12 [000] .... .5: print: B|1|x",
		"comm-12 [000] .... 1.000001: : B|1|x",
		"comm-12 [000] .... 1.000001: print B|1|x",
		"comm-12 [000] .... 1.000001: print:B|1|x",
		"comm-12 [] .... 1.000001: print: B|1|x",
		"comm-12 [0a0] .... 1.000001: print: B|1|x",
		"comm-99999999999 [000] .... 1.000001: print: B|1|x",
		"comm-12 [000] .... 18446744073.709551616: print: B|1|x",
		"comm-12 [000] .... 99999999999.000000: print: B|1|x",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct cap_parsed p = cap_parse(bad[i]);

		cr_expect_eq(p.rc, -EINVAL, "\"%s\" -> %d", bad[i], p.rc);
		free(p.buf);
	}
}

/* ---- capture files ------------------------------------------------------------------ */

static char *write_temp(const char *content, size_t len)
{
	char *path = strdup("/tmp/animtrace-capture-XXXXXX");
	int fd;

	cr_assert_not_null(path);
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, content, len), (ssize_t)len);
	close(fd);
	return path;
}

static void expect_lines(struct capture *c, const char *const *want, size_t n)
{
	const char *line;
	size_t len, i;

	for (i = 0; i < n; i++) {
		cr_assert_eq(capture__next(c, &line, &len), 1, "line %zu missing", i);
		cr_assert(len == strlen(want[i]) && memcmp(line, want[i], len) == 0,
			  "line %zu: \"%.*s\", want \"%s\"", i, (int)len, line, want[i]);
	}
	cr_assert_eq(capture__next(c, &line, &len), 0);
	cr_assert_eq(capture__next(c, &line, &len), 0);
}

static const char two_blocks[] =
	"<html><head><script>var x = '</scr' + 'ipt>';</script></head><body>\n"
	"  <script class=\"trace-data\" type=\"application/text\">\n"
	"{\"traceEvents\": [], \"note\": \"# tracer: in json, not at a line start\"}\n"
	"  </script>\n"
	"  <script class=\"trace-data\" type=\"application/text\">\n"
	"# tracer: nop\n"
	"#\n"
	"a-1 (1) [000] ...1 1.000001: tracing_mark_write: B|1|x\r\n"
	"a-1 (1) [000] ...1 1.000002: tracing_mark_write: E|1\n"
	"  </script>\n"
	"</body></html>\n";

Test(capture_file, reads_only_the_ftrace_block_of_a_systrace_html)
{
	static const char *const want[] = {
		"# tracer: nop",
		"#",
		"a-1 (1) [000] ...1 1.000001: tracing_mark_write: B|1|x",
		"a-1 (1) [000] ...1 1.000002: tracing_mark_write: E|1",
	};
	char *path = write_temp(two_blocks, strlen(two_blocks));
	struct capture *c = capture__open(path);

	cr_assert_not_null(c, "errno %d", errno);
	expect_lines(c, want, 4);
	/* 14 + 2 + 56 + 53 bytes: the lines with their "\n" or "\r\n", no tag or indent */
	cr_assert_eq(capture__size(c), 125);
	capture__rewind(c);
	expect_lines(c, want, 4);
	capture__free(c);
	unlink(path);
	free(path);
}

Test(capture_file, reads_every_ftrace_block_in_order)
{
	static const char html[] =
		"<script class=\"trace-data\" type=\"application/text\">\n# tracer: nop\n"
		"a-1 [000] 1.000001: print: B|1|x\n</script>\n"
		"<script class=\"trace-data\" type=\"application/text\">{}</script>\n"
		"<script class=\"trace-data\" type=\"application/text\"># tracer: nop\n"
		"b-2 [000] 2.000001: print: E|2</script>";
	static const char *const want[] = {
		"# tracer: nop",
		"a-1 [000] 1.000001: print: B|1|x",
		"# tracer: nop",
		"b-2 [000] 2.000001: print: E|2",
	};
	char *path = write_temp(html, strlen(html));
	struct capture *c = capture__open(path);

	cr_assert_not_null(c, "errno %d", errno);
	expect_lines(c, want, 4);
	capture__free(c);
	unlink(path);
	free(path);
}

Test(capture_file, rejects_a_systrace_html_without_ftrace_text)
{
	static const char html[] =
		"<script class=\"trace-data\" type=\"application/text\">{}</script>\n";
	char *path = write_temp(html, strlen(html));

	errno = 0;
	cr_assert_null(capture__open(path));
	cr_assert_eq(errno, EINVAL);
	unlink(path);
	free(path);
}

Test(capture_file, reads_plain_text_with_crlf_and_no_final_newline)
{
	static const char text[] = "# tracer: nop\r\n\na-1 [000] 1.000001: print: B|1|x";
	static const char *const want[] = {
		"# tracer: nop",
		"",
		"a-1 [000] 1.000001: print: B|1|x",
	};
	char *path = write_temp(text, strlen(text));
	struct capture *c = capture__open(path);

	cr_assert_not_null(c, "errno %d", errno);
	cr_assert_eq(capture__size(c), strlen(text));
	expect_lines(c, want, 3);
	capture__rewind(c);
	expect_lines(c, want, 3);
	capture__free(c);
	unlink(path);
	free(path);
}

Test(capture_file, rejects_an_empty_file_with_enodata)
{
	char *path = write_temp("", 0);

	errno = 0;
	cr_assert_null(capture__open(path));
	cr_assert_eq(errno, ENODATA);
	unlink(path);
	free(path);
}

Test(capture_file, fails_with_enoent_for_a_missing_file)
{
	errno = 0;
	cr_assert_null(capture__open("/nonexistent/animtrace/capture.txt"));
	cr_assert_eq(errno, ENOENT);
	capture__free(NULL);
}

Test(capture_file, rejects_gzip_data_with_eprotonosupport)
{
	static const char gz[] = "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03";
	char *path = write_temp(gz, sizeof(gz) - 1);

	errno = 0;
	cr_assert_null(capture__open(path));
	cr_assert_eq(errno, EPROTONOSUPPORT);
	unlink(path);
	free(path);
}

/*
 * A hand-built Perfetto trace: a process tree (pid 10 "com.example.app", thread 11
 * "RenderThread") and one bundle with three prints out of time order, the last one
 * NUL-padded.
 */
static const char pb_trace[] = "\x0a\x2b\x12\x29\x0a\x13\x08\x0a\x1a\x0f\x63\x6f\x6d\x2e\x65\x78"
			       "\x61\x6d\x70\x6c\x65\x2e\x61\x70\x70\x12\x12\x08\x0b\x12\x0c\x52"
			       "\x65\x6e\x64\x65\x72\x54\x68\x72\x65\x61\x64\x18\x0a\x0a\x58\x0a"
			       "\x56\x08\x00\x12\x1a\x08\xc8\x01\x10\x0b\x1a\x13\x12\x11\x53\x7c"
			       "\x31\x30\x7c\x61\x6e\x69\x6d\x61\x74\x6f\x72\x7c\x34\x32\x0a\x12"
			       "\x25\x08\x64\x10\x0a\x1a\x1f\x12\x1d\x42\x7c\x31\x30\x7c\x43\x68"
			       "\x6f\x72\x65\x6f\x67\x72\x61\x70\x68\x65\x72\x23\x64\x6f\x46\x72"
			       "\x61\x6d\x65\x20\x31\x0a\x12\x0f\x08\xac\x02\x10\x0c\x1a\x08\x12"
			       "\x06\x45\x7c\x31\x30\x0a\x00";

static void expect_event(struct capture *c, int kind, uint64_t ts_ns, int32_t tgid, int32_t tid,
			 const char *comm, const char *payload)
{
	struct capture_line l;

	cr_assert_eq(capture__next_event(c, &l), kind);
	cr_assert_eq(l.ts_ns, ts_ns, "ts_ns %llu", (unsigned long long)l.ts_ns);
	cr_assert_eq(l.tgid, tgid, "tgid %d", l.tgid);
	cr_assert_eq(l.tid, tid, "tid %d", l.tid);
	cap_expect_strv(l.comm, comm);
	cap_expect_strv(l.payload, payload);
	cr_assert_eq(l.n_extra, 0);
}

Test(capture_file, hands_out_names_then_prints_in_time_order_from_a_perfetto_trace)
{
	char *path = write_temp(pb_trace, sizeof(pb_trace) - 1);
	struct capture *c = capture__open(path);
	struct capture_line l;
	const char *line;
	size_t len;

	cr_assert_not_null(c, "errno %d", errno);
	cr_assert(capture__is_protobuf(c));
	cr_assert_eq(capture__size(c), 135);
	cr_assert_eq(capture__next(c, &line, &len), 0, "no text lines in protobuf");
	for (int round = 0; round < 2; round++) {
		expect_event(c, CAPTURE_SCHED, 0, 10, 10, "com.example.app", "");
		expect_event(c, CAPTURE_SCHED, 0, 10, 11, "RenderThread", "");
		expect_event(c, CAPTURE_MARKER, 100, 10, 10, "com.example.app",
			     "B|10|Choreographer#doFrame 1");
		expect_event(c, CAPTURE_MARKER, 200, 10, 11, "RenderThread", "S|10|animator|42");
		expect_event(c, CAPTURE_MARKER, 300, -1, 12, "", "E|10");
		cr_assert_eq(capture__next_event(c, &l), CAPTURE_END);
		cr_assert_eq(capture__next_event(c, &l), CAPTURE_END);
		capture__rewind(c);
	}
	capture__free(c);
	unlink(path);
	free(path);
}

/* 0x0a, length 32, then 16 valid varint fields: a first "packet" made of printable text. */
Test(capture_file, reads_text_that_starts_like_a_protobuf_packet_as_text)
{
	static const char text[] = "\n (1(1(1(1(1(1(1(1(1(1(1(1(1(1(1(1\n"
				   "a-1 [000] 1.000001: print: B|1|x\n";
	char *path = write_temp(text, sizeof(text) - 1);
	struct capture *c = capture__open(path);
	static const char *const want[] = {
		"",
		" (1(1(1(1(1(1(1(1(1(1(1(1(1(1(1(1",
		"a-1 [000] 1.000001: print: B|1|x",
	};

	cr_assert(pftrace_detect(text, sizeof(text) - 1), "the first packet must look valid");
	cr_assert_not_null(c, "errno %d", errno);
	cr_assert_not(capture__is_protobuf(c));
	expect_lines(c, want, 3);
	capture__free(c);
	unlink(path);
	free(path);
}

Test(capture_file, hands_out_parsed_text_lines_as_events)
{
	static const char text[] = "# tracer: nop\n"
				   "a-1 [000] 1.000001: print: B|1|x\n"
				   "garbage\n"
				   "b-2 [001] 1.000002: sched_wakeup: comm=c pid=3 prio=120\n";
	char *path = write_temp(text, sizeof(text) - 1);
	struct capture *c = capture__open(path);
	struct capture_line l;

	cr_assert_not_null(c, "errno %d", errno);
	cr_assert_not(capture__is_protobuf(c));
	cr_assert_eq(capture__next_event(c, &l), CAPTURE_SKIP);
	expect_event(c, CAPTURE_MARKER, 1000001000, -1, 1, "a", "B|1|x");
	cr_assert_eq(capture__next_event(c, &l), -EINVAL);
	cr_assert_eq(capture__next_event(c, &l), CAPTURE_SCHED);
	cr_assert_eq(l.n_extra, 1);
	cr_assert_eq(l.extra_tid[0], 3);
	cr_assert_eq(capture__next_event(c, &l), CAPTURE_END);
	capture__free(c);
	unlink(path);
	free(path);
}

struct marker_tally {
	size_t lines, markers, animator_starts;
};

static struct marker_tally tally(struct capture *c)
{
	struct marker_tally t = { 0 };
	struct capture_line l;
	const char *line;
	size_t len;

	while (capture__next(c, &line, &len)) {
		t.lines++;
		if (capture_parse_line(line, len, &l) != CAPTURE_MARKER)
			continue;
		t.markers++;
		if (strv_starts_with(l.payload, "S|24675|animator"))
			t.animator_starts++;
	}
	return t;
}

Test(capture_file, finds_the_16_animator_starts_in_the_antutu_systrace_html)
{
	struct capture *c = capture__open(TRACES "antutu-2018.systrace.html");
	struct marker_tally t;

	cr_assert_not_null(c, "errno %d", errno);
	t = tally(c);
	cr_assert_eq(t.animator_starts, 16);
	cr_assert_eq(t.markers, 2742);
	cr_assert_eq(t.lines, 17259);
	cr_assert_eq(capture__size(c), 2597400);
	capture__free(c);
}

/*
 * The .html and the .txt are the same capture: the .txt only adds the indent line that
 * preceded </script>. Every marker line is identical, in the same order.
 */
Test(capture_file, finds_the_same_marker_lines_in_the_antutu_html_and_text)
{
	struct capture *h = capture__open(TRACES "antutu-2018.systrace.html");
	struct capture *t = capture__open(TRACES "antutu-2018.ftrace.txt");
	const char *hl, *tl;
	size_t hn, tn, same = 0;
	struct capture_line l;

	cr_assert_not_null(h);
	cr_assert_not_null(t);
	cr_assert_eq(capture__size(t), 2597402);
	for (;;) {
		int hr = 0, tr = 0;

		while ((hr = capture__next(h, &hl, &hn)) &&
		       capture_parse_line(hl, hn, &l) != CAPTURE_MARKER)
			;
		while ((tr = capture__next(t, &tl, &tn)) &&
		       capture_parse_line(tl, tn, &l) != CAPTURE_MARKER)
			;
		cr_assert_eq(hr, tr, "after %zu marker lines", same);
		if (!hr)
			break;
		cr_assert(hn == tn && memcmp(hl, tl, hn) == 0, "marker line %zu differs", same);
		same++;
	}
	cr_assert_eq(same, 2742);
	capture__free(h);
	capture__free(t);
}

Test(capture_file, counts_nul_and_overlong_lines_as_malformed_and_a_cut_last_line_as_truncation)
{
	static const char good[] = "a-1 [000] 1.000001: print: B|1|x\n";
	size_t big = 200 << 10, n = 0;
	char *text = malloc(big + 256), *path;
	struct capture_damage d;
	struct capture_line l;
	struct capture *c;

	n += (size_t)sprintf(text + n, "%s", good);
	memset(text + n, 'x', big); /* one 200 KiB line */
	n += big;
	text[n++] = '\n';
	n += (size_t)sprintf(text + n, "%s", good);
	static const char nul_line[] = "b-2 [000] 1.0\0000002: print: E|1\n"; /* a NUL in it */
	memcpy(text + n, nul_line, sizeof(nul_line) - 1);
	n += sizeof(nul_line) - 1;
	n += (size_t)sprintf(text + n, "b-2 [000] 1.000003: pri");
	path = write_temp(text, n);
	c = capture__open(path);
	cr_assert_not_null(c, "errno %d", errno);
	cr_assert_eq(capture__next_event(c, &l), CAPTURE_MARKER);
	cr_assert_eq(capture__next_event(c, &l), -EINVAL);
	cr_assert_eq(capture__next_event(c, &l), CAPTURE_MARKER);
	cr_assert_eq(capture__next_event(c, &l), -EINVAL);
	cr_assert_eq(capture__next_event(c, &l), CAPTURE_SKIP);
	cr_assert_eq(capture__next_event(c, &l), CAPTURE_END);
	capture__damage(c, &d);
	cr_assert_eq(d.overlong, 1);
	cr_assert_eq(d.truncated_at, n);
	capture__free(c);
	unlink(path);
	free(path);
	free(text);
}

Test(capture_file, rejects_prose_and_a_stream_of_nul_bytes_as_not_a_capture)
{
	static const char prose[] = "# animtrace\n\nEvery animation of an Android process.\n";
	char *path = write_temp(prose, sizeof(prose) - 1);
	struct capture_probe why;

	errno = 0;
	cr_assert_null(capture__open_probe(path, &why));
	cr_assert_eq(errno, EINVAL);
	cr_assert_eq(why.probed, sizeof(prose) - 1);
	errno = 0;
	cr_assert_null(capture__open_probe("/dev/zero", &why));
	cr_assert_eq(errno, EINVAL);
	cr_assert_eq(why.probed, CAPTURE_PROBE_BYTES);
	unlink(path);
	free(path);
}

Test(capture_file, drops_a_last_marker_cut_off_without_its_newline_even_when_it_parses)
{
	static const char text[] = "a-1 [000] 1.000001: print: B|1|x\n"
				   "a-1 [000] 1.000002: print: B|1|Choreographer#doFr";
	char *path = write_temp(text, strlen(text));
	struct capture *c = capture__open(path);
	struct capture_damage d;
	struct capture_line l;

	cr_assert_not_null(c, "errno %d", errno);
	expect_event(c, CAPTURE_MARKER, 1000001000, -1, 1, "a", "B|1|x");
	cr_assert_eq(capture__next_event(c, &l), CAPTURE_SKIP);
	cr_assert_eq(l.payload.len, 0);
	cr_assert_eq(capture__next_event(c, &l), CAPTURE_END);
	capture__damage(c, &d);
	cr_assert_eq(d.truncated_at, strlen(text));
	capture__free(c);
	unlink(path);
	free(path);
}

Test(capture_file, trailing_blanks_without_a_newline_are_no_cut)
{
	static const char text[] = "a-1 [000] 1.000001: print: B|1|x\n  ";
	char *path = write_temp(text, strlen(text));
	struct capture *c = capture__open(path);
	struct capture_damage d;
	struct capture_line l;

	cr_assert_not_null(c, "errno %d", errno);
	expect_event(c, CAPTURE_MARKER, 1000001000, -1, 1, "a", "B|1|x");
	cr_assert_eq(capture__next_event(c, &l), CAPTURE_SKIP);
	cr_assert_eq(capture__next_event(c, &l), CAPTURE_END);
	capture__damage(c, &d);
	cr_assert_eq(d.truncated_at, 0);
	capture__free(c);
	unlink(path);
	free(path);
}

Test(capture_file, drops_the_cut_last_line_of_an_html_file_cut_inside_its_block)
{
	static const char html[] = "<html><script class=\"trace-data\" type=\"application/text\">\n"
				   "# tracer: nop\n"
				   "a-1 [000] 1.000001: print: B|1|x\n"
				   "a-1 [000] 1.000002: print: B|1|y";
	char *path = write_temp(html, strlen(html));
	struct capture *c = capture__open(path);
	struct capture_damage d;
	struct capture_line l;

	cr_assert_not_null(c, "errno %d", errno);
	cr_assert_eq(capture__next_event(c, &l), CAPTURE_SKIP); /* # tracer: */
	expect_event(c, CAPTURE_MARKER, 1000001000, -1, 1, "a", "B|1|x");
	cr_assert_eq(capture__next_event(c, &l), CAPTURE_SKIP);
	cr_assert_eq(capture__next_event(c, &l), CAPTURE_END);
	capture__damage(c, &d);
	cr_assert_eq(d.truncated_at, strlen(html));
	capture__free(c);
	unlink(path);
	free(path);
}
