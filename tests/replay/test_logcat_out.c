// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * --logcat-out of a replay (issue 33): valid `logcat -v threadtime` text that a parser of its
 * own (tests/logd/logcheck.h) reads back to the records of the box output of the same run
 * (-o, -F): every box, Target and note line in order, every finding, each entry under the
 * seed's tag and priority; each line stamped with its record's time from the capture (a Begin
 * box at its Start:, an End box at its End:) and its process's pid.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "logd/logcheck.h"

#define ANIMTRACE BUILD_DIR "/animtrace"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	cr_assert(f, "%s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

/* Replays capture (pid selected) into box and logcat text files under dir. */
static void replay(const char *capture, const char *pid, const char *box, const char *text)
{
	int status;
	pid_t child = fork();

	cr_assert_geq(child, 0);
	if (child == 0) {
		setenv("LC_ALL", "C.UTF-8",
		       1); /* boxes drawn as logcat's are, whatever CI's locale */
		execl(ANIMTRACE, ANIMTRACE, "--replay", capture, "--pid", pid, "-F", "-o", box,
		      "--logcat-out", text, (char *)NULL);
		_exit(127);
	}
	cr_assert_eq(waitpid(child, &status, 0), child);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d", status);
}

/* "MM-DD HH:MM:SS.mmm" of a box line "<label> <sec>.<usec> s" (the capture's clock). */
static bool box_time(const char *msg, const char *label, char *out, size_t size)
{
	const char *p = strstr(msg, label);
	unsigned long long sec, usec;
	struct tm tm;
	time_t t;

	if (!p || sscanf(p + strlen(label), " %llu.%llu s", &sec, &usec) != 2)
		return false;
	t = (time_t)sec;
	gmtime_r(&t, &tm);
	snprintf(out, size, "%02d-%02d %02d:%02d:%02d.%03u", tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, (unsigned int)(usec / 1000 % 1000));
	return true;
}

static void check_capture(const char *capture, const char *pid)
{
	char dir[] = "/tmp/logcat-out-XXXXXX", box[64], text[64], want[32];
	struct lc_log log = { 0 };
	struct lc_counts c;
	char *boxes, *lines;
	size_t begins = 0, ends = 0;

	cr_assert(mkdtemp(dir));
	snprintf(box, sizeof(box), "%s/box.txt", dir);
	snprintf(text, sizeof(text), "%s/logcat.txt", dir);
	replay(capture, pid, box, text);
	boxes = slurp(box);
	lines = slurp(text);
	lc_parse_threadtime(&log, lines);
	cr_assert_eq(log.bad, 0, "%s", log.why);
	lc_rejoin(&log);
	cr_assert_eq(log.bad, 0, "%s", log.why);
	lc_check(&log, boxes, &c);
	cr_assert_eq(c.failed, 0, "%s", c.why);
	cr_assert_eq(c.boxes, lc_count_boxes(boxes));
	for (size_t i = 0; i < log.n; i++) {
		const struct lc_entry *e = &log.e[i];
		bool begin = !strncmp(e->msg, "┌── Begin ", strlen("┌── Begin "));
		bool end = !strncmp(e->msg, "┌── End ", strlen("┌── End "));

		if (!begin && !end)
			continue;
		cr_assert(box_time(e->msg, begin ? "│ Start:" : "│ End:", want, sizeof(want)), "%s",
			  e->msg);
		cr_assert_str_eq(e->time, want, "%s", e->msg);
		cr_assert_eq(e->pid, (unsigned int)atoi(pid));
		begins += begin;
		ends += end;
	}
	cr_assert_gt(begins, 0);
	cr_assert_eq(begins, ends);
	lc_free(&log);
	free(boxes);
	free(lines);
	unlink(box);
	unlink(text);
	rmdir(dir);
}

Test(logcat_out, antutu_replay_reads_back_to_its_boxes_with_the_captures_times)
{
	check_capture(TESTDATA "/traces/antutu-2018.ftrace.txt", "24675");
}

Test(logcat_out, a_perfetto_capture_too)
{
	check_capture(TESTDATA "/traces/pixel6a-android13-startup.perfetto-trace", "1858");
}

Test(logcat_out, a_launcher_scroll_with_frames)
{
	check_capture(TESTDATA "/traces/flyme-launcher-scroll-2019.ftrace.txt", "27619");
}
