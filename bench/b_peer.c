// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * animtrace beside bpftrace (live): the summary of every row the live benchmarks of this run
 * measured both tools on (peer.h), animtrace / bpftrace each, and the rows bpftrace cannot
 * do with the reason. It measures nothing itself: it runs last and reports what the others
 * found, so it needs them in the same run (`make bench`, or BENCH_ONLY=...,peer).
 */
#include <string.h>
#include <sys/resource.h>

#include "bench.h"
#include "peer.h"

static struct {
	char date[64], load[64];
	struct rlimit memlock;
} s;

static void setup(const struct bench_env *env)
{
	bench_date(s.date, sizeof(s.date));
	bench_loadavg(s.load, sizeof(s.load));
	getrlimit(RLIMIT_MEMLOCK, &s.memlock);
}

static void measure(void)
{
}

static void limit(char *dst, size_t cap, rlim_t v)
{
	if (v == RLIM_INFINITY)
		snprintf(dst, cap, "unlimited");
	else
		snprintf(dst, cap, "%llu KiB", (unsigned long long)v / 1024);
}

static void report_how(FILE *md)
{
	char soft[32], hard[32];

	limit(soft, sizeof(soft), s.memlock.rlim_cur);
	limit(hard, sizeof(hard), s.memlock.rlim_max);
	fprintf(md,
		"Summarised %s, load average %s. bpftrace: **%s** (Debian's package,\n"
		"installed by `make bench`: bench/deps.sh). Each row below was measured by\n"
		"its section above, both tools in one run, their rounds interleaved;\n"
		"the ratio is animtrace / bpftrace (below 1: animtrace is cheaper or faster,\n"
		"except for markers captured, where 1 is every marker both ways).\n\n",
		s.date, s.load, peer_version());
	fprintf(md,
		"How bpftrace is run: `bpftrace --unsafe -p PID SCRIPT` (addresses in a\n"
		"stripped file need --unsafe), the script written by the bench to a fresh\n"
		"file, stdout and stderr to fresh files each run (a poll for a line must\n"
		"never find the previous run's). It counts as started once it prints\n"
		"`__BPFTRACE_NOTIFY_PROBES_ATTACHED`, which it does with that variable set,\n"
		"after its attach loop (src/bpftrace.cpp `BPFtrace::run`, v0.17.0): neither\n"
		"\"Attaching N probes...\" nor a BEGIN probe's printf says the probes are\n"
		"live, as 0.17 runs BEGIN before attaching the others. It stops on SIGINT\n"
		"sent to bpftrace itself, and prints its maps then; every script counts its\n"
		"hits and the bench fails unless the count equals the calls made. Its\n"
		"stderr says `couldn't set RLIMIT_MEMLOCK`: RLIMIT_MEMLOCK here is %s\n"
		"(hard %s) and this machine refuses to raise it, even to root;\n"
		"harmless, as kernels since 5.11 charge BPF maps to the memory cgroup\n"
		"instead (every count below is complete).\n\n",
		soft, hard);
}

static void report(FILE *md)
{
	const struct peer_row *v;
	size_t n = peer_rows(&v);

	report_how(md);
	if (!n) {
		fprintf(md, "No live benchmark ran with this section: run them together (`make\n"
			    "bench`, or `BENCH_ONLY=setter,...,peer`).\n\n");
		return;
	}
	fprintf(md, "| measured | animtrace | bpftrace | animtrace / bpftrace | notes |\n"
		    "|---|---:|---:|---:|---|\n");
	for (size_t i = 0; i < n; i++)
		fprintf(md, "| %s | %s | %s | %s | %s |\n", v[i].what, v[i].at, v[i].bt, v[i].ratio,
			v[i].note[0] ? v[i].note : "");
	fprintf(md, "\n");
}

static void summary(FILE *out)
{
	const struct peer_row *v;
	size_t n = peer_rows(&v);

	for (size_t i = 0; i < n; i++)
		fprintf(out, "bench: beside bpftrace: %s: %s\n", v[i].what, v[i].ratio);
}

const struct bench bench_peer = {
	.name = "peer",
	.heading = "## animtrace beside bpftrace (live, summary)",
	.live = true,
	.setup = setup,
	.measure = measure,
	.report = report,
	.summary = summary,
};
