// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Replay throughput: animtrace --replay on a real capture against `wc -l` and `grep -c` on
 * the same file, best of N runs after a warm-up read (every tool reads from the page cache),
 * with each tool's peak RSS (ru_maxrss from wait4).
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "e2e/e2e.h"
#include "proc.h"
#include "stats.h"

#define CAPTURE "traces/miui-launcher-2021.ftrace.txt"

enum { ANIMTRACE, BASELINE, WC, GREP, N_CMDS };

static const char *const labels[N_CMDS] = { "animtrace --replay", "baseline --replay", "wc -l",
					     "grep -c" };
static const char *const raw_labels[N_CMDS] = { "animtrace", "baseline", "wc -l", "grep -c" };

static struct {
	const struct bench_env *env;
	char trace[PATH_MAX];
	char out[PATH_MAX]; /* every tool's stdout: GNU grep stops at the first match when its
			     * stdout is /dev/null (13 ms -> 1.5 ms here) */
	unsigned long long size, lines, json_lines;
	const char *argv[N_CMDS][8]; /* argv[BASELINE][0] NULL: no baseline */
	struct samples ms[N_CMDS]; /* wall times */
	long rss_kb[N_CMDS];
} r;

/* Counts the newlines of path; also its warm-up read. */
static unsigned long long count_lines(const char *path, unsigned long long *size)
{
	static char buf[1 << 16];
	unsigned long long lines = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		bench_fail("no capture at %s (set TESTDATA)", path);
	*size = 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		*size += (unsigned long long)n;
		for (char *p = buf; (p = memchr(p, '\n', (size_t)(buf + n - p))); p++)
			lines++;
	}
	close(fd);
	return lines;
}

/* The command line of one tool, NULL-terminated. */
static void set_cmd(int cmd, ...)
{
	va_list ap;
	int n = 0;

	va_start(ap, cmd);
	while ((r.argv[cmd][n++] = va_arg(ap, const char *)))
		;
	va_end(ap);
}

static void setup(const struct bench_env *env)
{
	r.env = env;
	snprintf(r.trace, sizeof(r.trace), "%s/%s", env->testdata, CAPTURE);
	e2e_path(r.out, "replay.out");
	r.lines = count_lines(r.trace, &r.size);
	set_cmd(ANIMTRACE, env->animtrace, "--replay", r.trace, "--format", "json", "-o",
		"/dev/null", NULL);
	if (env->baseline)
		set_cmd(BASELINE, env->baseline, "--replay", r.trace, "--format", "json", "-o",
			"/dev/null", NULL);
	set_cmd(WC, "wc", "-l", r.trace, NULL);
	set_cmd(GREP, "grep", "-c", "tracing_mark_write", r.trace, NULL);
}

static void measure(void)
{
	const char *json_argv[] = { r.env->animtrace, "--replay", r.trace, "--format", "json",
				    NULL };
	struct timed t;
	char *json;

	proc_timed(json_argv, r.out, &t); /* animtrace's JSON lines, counted once */
	json = e2e_slurp(r.out);
	for (char *p = json; (p = strchr(p, '\n')); p++)
		r.json_lines++;
	free(json);
	for (int cmd = 0; cmd < N_CMDS; cmd++) {
		for (int i = 0; r.argv[cmd][0] && i < r.env->runs; i++) {
			proc_timed(r.argv[cmd], r.out, &t);
			samples_add(&r.ms[cmd], (double)t.ns / 1e6);
			r.rss_kb[cmd] = t.maxrss_kb > r.rss_kb[cmd] ? t.maxrss_kb : r.rss_kb[cmd];
		}
	}
}

static double best(int cmd)
{
	return samples_min(&r.ms[cmd]);
}

static void row(FILE *md, int cmd)
{
	double ms = best(cmd);

	if (!r.ms[cmd].n)
		return;
	fprintf(md, "| %s | %.2f | %.0f | %.2f | %ld |\n", labels[cmd], ms,
		(double)r.size / (ms / 1e3) / 1e6, ms / best(WC), r.rss_kb[cmd]);
}

static void report(FILE *md)
{
	fprintf(md, "Capture: `%s` from TESTDATA, %llu bytes,\n"
		    "%llu lines; animtrace wrote %llu JSON lines. Wall time is the best of %d\n"
		    "runs after a warm-up read (page cache hot); MB = 10^6 bytes; \"x wc\" is\n"
		    "the time relative to `wc -l`; peak RSS is the largest `ru_maxrss`\n"
		    "(wait4) of those runs.\n",
		CAPTURE, r.size, r.lines, r.json_lines, r.env->runs);
	fprintf(md, "Commands: `animtrace --replay FILE --format json -o /dev/null`, `wc -l\n"
		    "FILE`, `grep -c tracing_mark_write FILE`.\n\n"
		    "| command | best (ms) | MB/s | x wc | peak RSS (KiB) |\n"
		    "|---|---:|---:|---:|---:|\n");
	for (int cmd = 0; cmd < N_CMDS; cmd++)
		row(md, cmd);
	fprintf(md, "\n"
		    "animtrace / grep time: %.2f. animtrace reads the capture with pread into a\n"
		    "256 KiB buffer (it used to map it, and its peak RSS then included the\n"
		    "page-cache pages it touched).\n\n"
		    "Raw wall times (ms, in run order):\n\n",
		best(ANIMTRACE) / best(GREP));
	for (int cmd = 0; cmd < N_CMDS; cmd++) {
		if (!r.ms[cmd].n)
			continue;
		fprintf(md, "- %s: ", raw_labels[cmd]);
		samples_print(&r.ms[cmd], md, "%.2f");
		fputc('\n', md);
	}
	fputc('\n', md);
}

static void summary(FILE *out)
{
	fprintf(out, "bench: replay %.0f MB/s (target >= 100)\n",
		(double)r.size / (best(ANIMTRACE) / 1e3) / 1e6);
	if (r.ms[BASELINE].n)
		fprintf(out, "bench: replay / baseline time: %.2f\n",
			best(ANIMTRACE) / best(BASELINE));
}

const struct bench bench_replay = {
	.name = "replay",
	.heading = "## Replay throughput",
	.setup = setup,
	.measure = measure,
	.report = report,
	.summary = summary,
};
