// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Attach time and peak RSS (live): from starting animtrace --pid on a setter_loop process
 * until its "ready" line, with the setter probes (the stripped libhwui.so's MiniDebugInfo
 * read) and without (--no-props), alternating so both see the same background load. The
 * peak RSS is the marker benchmark's.
 */
#include <limits.h>
#include <string.h>

#include "bench.h"
#include "e2e/e2e.h"
#include "stats.h"
#include "ways.h"

enum { PROPS, NO_PROPS, N_KINDS };

static const char *const flags[N_KINDS] = { "--props", "--no-props" };
static const char *const labels[N_KINDS] = { "with setter probes", "--no-props" };

static struct {
	const struct bench_env *env;
	char lib[PATH_MAX];
	struct helper loop;
	struct samples ms[N_KINDS];
} t;

static void setup(const struct bench_env *env)
{
	const char *libs[] = { t.lib, NULL };

	t.env = env;
	bench_file(t.lib, env, "sim/libhwui.so");
	loop_start(&t.loop, env, libs);
}

static void measure(void)
{
	char pid[16];

	snprintf(pid, sizeof(pid), "%d", (int)t.loop.pid);
	for (int i = 0; i < t.env->runs; i++) {
		for (int k = 0; k < N_KINDS; k++) {
			const char *args[] = { "--pid", pid, "--no-art", "--no-atrace-setup",
					       flags[k], "--format", "json", "-o", "/dev/null",
					       NULL };
			struct at_run at;

			at_start(&at, t.env->animtrace, args, t.loop.pid, E2E_MARKERS);
			samples_add(&t.ms[k], (double)at.attach_ns / 1e6);
			at_stop(&at);
		}
	}
	helper_stop(&t.loop);
}

static void report_rss(FILE *md)
{
	const struct marker_rss *v;
	size_t n = marker_bench_rss(&v);
	char ring[16];
	long kb = -1;

	bench_default_ring(ring, sizeof(ring));
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].ring, ring) && v[i].rate == 100000)
			kb = v[i].kb;
	if (!n) {
		fprintf(md, "Peak RSS: not measured (it comes from the marker runs: run `marker`\n"
			    "too).\n\n");
		return;
	}
	fprintf(md, "Peak RSS of animtrace during the 100,000 markers/s run (default %s ring):\n"
		    "VmHWM\n"
		    "**", ring);
	if (kb < 0)
		fprintf(md, "?");
	else
		fprintf(md, "%ld", kb);
	fprintf(md, " KiB**, read from /proc/PID/status just before SIGINT. For each marker run\n"
		    "(ring, rate: KiB): ");
	for (size_t i = 0; i < n; i++)
		fprintf(md, "%s%s %ld: %ld", i ? "; " : "", v[i].ring, v[i].rate, v[i].kb);
	fprintf(md, ".\n\n");
}

static void report(FILE *md)
{
	fprintf(md, "Attach time: from starting `animtrace --pid PID --no-art --no-atrace-setup\n"
		    "--format json -o /dev/null` until its \"ready\" line (BPF loaded and\n"
		    "attached, the target found in /proc, its libhwui.so located in its maps and\n"
		    "read: .dynsym, .symtab and the xz MiniDebugInfo, getters decoded, 10 setter\n"
		    "uprobes + uretprobes attached), on a setter_loop process; the log is polled\n"
		    "every millisecond.\n\n"
		    "| run | median (ms) | best (ms) | all (ms, run order) | N |\n"
		    "|---|---:|---:|---|---:|\n");
	for (int k = 0; k < N_KINDS; k++) {
		fprintf(md, "| %s | %.2f | %.2f | ", labels[k], samples_median(&t.ms[k]),
			samples_min(&t.ms[k]));
		samples_print(&t.ms[k], md, "%.1f");
		fprintf(md, " | %zu |\n", t.ms[k].n);
	}
	fprintf(md, "\n"
		    "Symbol loading and probe attachment for the setters add %.1f ms (median\n"
		    "difference).\n\n",
		samples_median(&t.ms[PROPS]) - samples_median(&t.ms[NO_PROPS]));
	report_rss(md);
}

static void summary(FILE *out)
{
	fprintf(out, "bench: attach %.2f ms with setter probes, %.2f ms without\n",
		samples_median(&t.ms[PROPS]), samples_median(&t.ms[NO_PROPS]));
}

const struct bench bench_attach = {
	.name = "attach",
	.heading = "## Attach time and peak RSS (live)",
	.live = true,
	.setup = setup,
	.measure = measure,
	.report = report,
	.summary = summary,
};
