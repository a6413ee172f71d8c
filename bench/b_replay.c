// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Replay throughput: animtrace --replay on a real capture (every process, and one process by
 * --pid) against `wc -l` and `grep -c` on the same file, in interleaved rounds after a warm-up
 * read (every tool reads from the page cache; a round runs each command once, so load from
 * others falls on all of them alike), with each tool's peak RSS (ru_maxrss from wait4). Then
 * callgrind's instruction count of one run of each, per line of the capture: it does not drift
 * with the machine's load as wall times do (valgrind absent: no counts).
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
/* A process of that capture that wrote markers (com.android.systemui, "ndroid.systemui"):
 * --pid selects it without a names pass. */
#define CAPTURE_PID "3243"

enum { ANIMTRACE, ANIMTRACE_PID, BASELINE, BASELINE_PID, WC, GREP, N_CMDS };

static const char *const labels[N_CMDS] = {
	"animtrace --replay",	    "animtrace --replay --pid " CAPTURE_PID,
	"baseline --replay",	    "baseline --replay --pid " CAPTURE_PID,
	"wc -l",		    "grep -c",
};
static const char *const raw_labels[N_CMDS] = { "animtrace", "animtrace --pid", "baseline",
						 "baseline --pid", "wc -l", "grep -c" };

static struct {
	const struct bench_env *env;
	char trace[PATH_MAX];
	char out[PATH_MAX]; /* every tool's stdout: GNU grep stops at the first match when its
			     * stdout is /dev/null (13 ms -> 1.5 ms here) */
	char valgrind[PATH_MAX]; /* "" when not installed: no instruction counts */
	unsigned long long size, lines, json_lines;
	const char *argv[N_CMDS][10]; /* argv[BASELINE][0] NULL: no baseline */
	struct samples ms[N_CMDS]; /* wall times */
	long rss_kb[N_CMDS];
	unsigned long long instr[N_CMDS]; /* callgrind's Ir of one run; 0: not measured */
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
	const char *base = env->baseline;

	r.env = env;
	snprintf(r.trace, sizeof(r.trace), "%s/%s", env->testdata, CAPTURE);
	e2e_path(r.out, "replay.out");
	r.lines = count_lines(r.trace, &r.size);
	set_cmd(ANIMTRACE, env->animtrace, "--replay", r.trace, "--format", "json", "-o",
		"/dev/null", NULL);
	set_cmd(ANIMTRACE_PID, env->animtrace, "--replay", r.trace, "--format", "json", "-o",
		"/dev/null", "--pid", CAPTURE_PID, NULL);
	if (base) {
		set_cmd(BASELINE, base, "--replay", r.trace, "--format", "json", "-o", "/dev/null",
			NULL);
		set_cmd(BASELINE_PID, base, "--replay", r.trace, "--format", "json", "-o",
			"/dev/null", "--pid", CAPTURE_PID, NULL);
	}
	set_cmd(WC, "wc", "-l", r.trace, NULL);
	set_cmd(GREP, "grep", "-c", "tracing_mark_write", r.trace, NULL);
	if (!proc_which("valgrind", r.valgrind, sizeof(r.valgrind)))
		r.valgrind[0] = '\0';
}

/* callgrind's instruction count (Ir) of one run of cmd, whole process (start-up included). */
static unsigned long long instructions(int cmd)
{
	const char *argv[20] = { r.valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null",
				 NULL };
	char log[PATH_MAX], opt[PATH_MAX + 16], line[256];
	const char *p;
	struct timed t;
	int n = 3;

	e2e_path(log, "replay.callgrind.log");
	snprintf(opt, sizeof(opt), "--log-file=%s", log);
	argv[n++] = opt;
	for (int i = 0; r.argv[cmd][i] && n < 19; i++)
		argv[n++] = r.argv[cmd][i];
	argv[n] = NULL;
	proc_timed(argv, r.out, &t);
	if (!log_line(log, "Collected :", line, sizeof(line)) || !(p = strstr(line, ": ")))
		bench_fail("no instruction count from callgrind in %s", log);
	return strtoull(p + 2, NULL, 10);
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
	for (int i = 0; i < r.env->runs; i++) {
		for (int cmd = 0; cmd < N_CMDS; cmd++) {
			if (!r.argv[cmd][0])
				continue;
			proc_timed(r.argv[cmd], r.out, &t);
			samples_add(&r.ms[cmd], (double)t.ns / 1e6);
			r.rss_kb[cmd] = t.maxrss_kb > r.rss_kb[cmd] ? t.maxrss_kb : r.rss_kb[cmd];
		}
	}
	for (int cmd = 0; r.valgrind[0] && cmd < N_CMDS; cmd++)
		if (r.argv[cmd][0] && cmd != WC)
			r.instr[cmd] = instructions(cmd);
}

static double best(int cmd)
{
	return samples_min(&r.ms[cmd]);
}

/* The median of the per-round ratios cmd / grep (the runs of a round share the load). */
static double round_ratio(int cmd)
{
	struct samples q = { 0 };

	for (size_t i = 0; i < r.ms[cmd].n && i < r.ms[GREP].n; i++)
		samples_add(&q, r.ms[cmd].v[i] / r.ms[GREP].v[i]);
	return samples_median(&q);
}

static double per_line(int cmd)
{
	return (double)r.instr[cmd] / (double)r.lines;
}

static void row(FILE *md, int cmd)
{
	double ms = best(cmd);

	if (!r.ms[cmd].n)
		return;
	fprintf(md, "| %s | %.2f | %.0f | %.2f | %.2f | ", labels[cmd], ms,
		(double)r.size / (ms / 1e3) / 1e6, ms / best(GREP), round_ratio(cmd));
	if (r.instr[cmd])
		fprintf(md, "%.0f | %.2f | ", per_line(cmd),
			(double)r.instr[cmd] / (double)r.instr[GREP]);
	else
		fprintf(md, "- | - | ");
	fprintf(md, "%ld |\n", r.rss_kb[cmd]);
}

static void report(FILE *md)
{
	fprintf(md, "Capture: `%s` from TESTDATA, %llu bytes,\n"
		    "%llu lines; animtrace wrote %llu JSON lines. Wall times: %d interleaved\n"
		    "rounds (each runs every command once) after a warm-up read (page cache\n"
		    "hot); \"best\" is the fastest run, \"x grep\" best against best, \"x grep\n"
		    "(rounds)\" the median of each round's ratio; MB = 10^6 bytes; peak RSS is\n"
		    "the largest `ru_maxrss` (wait4). Instructions: callgrind's count (Ir) of\n"
		    "one run, start-up included, per line of the capture, and against grep's.\n",
		CAPTURE, r.size, r.lines, r.json_lines, r.env->runs);
	fprintf(md, "Commands: `animtrace --replay FILE --format json -o /dev/null [--pid %s]`,\n"
		    "`wc -l FILE`, `grep -c tracing_mark_write FILE`.\n\n"
		    "| command | best (ms) | MB/s | x grep | x grep (rounds) | instructions "
		    "/ line | x grep instructions | peak RSS (KiB) |\n"
		    "|---|---:|---:|---:|---:|---:|---:|---:|\n", CAPTURE_PID);
	for (int cmd = 0; cmd < N_CMDS; cmd++)
		row(md, cmd);
	fprintf(md, "\n"
		    "animtrace reads the capture with pread into a 256 KiB buffer, once, with\n"
		    "--pid too (the run goes on from the marker its check stopped at); --proc\n"
		    "reads it twice (every name first).\n\n"
		    "Raw wall times (ms, in run order):\n\n");
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
	fprintf(out, "bench: replay %.0f MB/s, / grep time %.2f (rounds %.2f, target <= 2)\n",
		(double)r.size / (best(ANIMTRACE) / 1e3) / 1e6, best(ANIMTRACE) / best(GREP),
		round_ratio(ANIMTRACE));
	fprintf(out, "bench: replay --pid / grep time %.2f (rounds %.2f)\n",
		best(ANIMTRACE_PID) / best(GREP), round_ratio(ANIMTRACE_PID));
	if (r.instr[ANIMTRACE])
		fprintf(out, "bench: replay %.0f instructions/line (target <= 1000), --pid %.0f, "
			     "grep %.0f\n",
			per_line(ANIMTRACE), per_line(ANIMTRACE_PID), per_line(GREP));
	if (r.ms[BASELINE].n)
		fprintf(out, "bench: replay / baseline time: %.2f, --pid %.2f\n",
			best(ANIMTRACE) / best(BASELINE), best(ANIMTRACE_PID) / best(BASELINE_PID));
}

const struct bench bench_replay = {
	.name = "replay",
	.heading = "## Replay throughput",
	.setup = setup,
	.measure = measure,
	.report = report,
	.summary = summary,
};
