// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Attach time and peak RSS (live): from starting animtrace --pid on a setter_loop process
 * until its "ready" line, with the setter probes (the stripped libhwui.so's MiniDebugInfo
 * read) and without (--no-props), alternating so both see the same background load. The
 * peak RSS is the marker benchmark's.
 */
#include <limits.h>
#include <string.h>
#include <sys/syscall.h>

#include "bench.h"
#include "e2e/e2e.h"
#include "peer.h"
#include "stats.h"
#include "ways.h"

enum { PROPS, NO_PROPS, BPFTRACE, N_KINDS };

static const char *const flags[BPFTRACE] = { "--props", "--no-props" };
static const char *const labels[N_KINDS] = { "with setter probes", "--no-props",
					     "bpftrace, the same probes (script below)" };

static struct {
	const struct bench_env *env;
	char lib[PATH_MAX], oat[PATH_MAX];
	struct helper loop;
	struct bt_probes probes;
	char script[16 * PATH_MAX]; /* bpftrace's, as the last run ran it */
	struct samples ms[N_KINDS];
} t;

static void setup(const struct bench_env *env)
{
	const char *libs[] = { t.lib, NULL };

	t.env = env;
	bench_file(t.lib, env, "sim/libhwui.so");
	bench_file(t.oat, env, "sim/boot-framework.oat");
	bt_probes_find(&t.probes, env, t.lib, t.oat);
	loop_start(&t.loop, env, libs);
}

/* What animtrace --no-art attaches, as bpftrace can: an entry uprobe on every setter (at the
 * offsets the project's symbol code finds) and the write(2) tracepoint copying the bytes. */
static void bt_script(pid_t pid)
{
	FILE *f = bt_script_open(t.script, sizeof(t.script));

	if (!bt_points(f, &t.probes, t.lib, "setter", -1))
		bench_fail("no setters in %s", t.lib);
	fprintf(f, " /pid == %d/ {\n"
		   "\t@node[tid] = arg0;\n"
		   "\t@sets = count();\n"
		   "}\n"
		   "tracepoint:raw_syscalls:sys_enter /pid == %d && args->id == %d/ {\n"
		   "\tprintf(\"M %%d %%s\\n\", tid, str(uptr(args->args[1]), args->args[2]));\n"
		   "}\n",
		(int)pid, (int)pid, SYS_write);
	fclose(f);
}

static void run_bpftrace(void)
{
	struct bt_run bt;

	bt_script(t.loop.pid);
	bt_start(&bt, t.script, t.loop.pid, NULL, NULL);
	samples_add(&t.ms[BPFTRACE], (double)bt.attach_ns / 1e6);
	bt_stop(&bt);
}

static void measure(void)
{
	char pid[16];

	snprintf(pid, sizeof(pid), "%d", (int)t.loop.pid);
	for (int i = 0; i < t.env->runs; i++) {
		if (peer_path())
			run_bpftrace();
		for (int k = 0; k < BPFTRACE; k++) {
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
	if (peer_path())
		peer_ratio("start to ready: setter uprobes and the marker tracepoint attached (ms)",
			   samples_median(&t.ms[PROPS]), samples_median(&t.ms[BPFTRACE]), "ms",
			   "animtrace reads the setters from MiniDebugInfo itself; bpftrace is given "
			   "their offsets and compiles its script with LLVM");
	else
		peer_cannot("start to ready", "measured", PEER_MISSING);
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
		if (!t.ms[k].n) {
			fprintf(md, "| %s | %s | | | 0 |\n", labels[k], PEER_MISSING);
			continue;
		}
		fprintf(md, "| %s | %.2f | %.2f | ", labels[k], samples_median(&t.ms[k]),
			samples_min(&t.ms[k]));
		samples_print(&t.ms[k], md, "%.1f");
		fprintf(md, " | %zu |\n", t.ms[k].n);
	}
	fprintf(md, "\n"
		    "Symbol loading and probe attachment for the setters add %.1f ms (median\n"
		    "difference).\n\n",
		samples_median(&t.ms[PROPS]) - samples_median(&t.ms[NO_PROPS]));
	if (t.ms[BPFTRACE].n) {
		fprintf(md, "bpftrace (%s): from its start until it prints\n"
			    "`__BPFTRACE_NOTIFY_PROBES_ATTACHED` (see the bpftrace section), polled\n"
			    "every millisecond, each round before animtrace's two; animtrace / bpftrace\n"
			    "= **%.2f** (medians, with setter probes). The same probes, their offsets\n"
			    "given (bpftrace cannot read MiniDebugInfo), its script compiled by its LLVM:\n\n",
			peer_version(), samples_median(&t.ms[PROPS]) / samples_median(&t.ms[BPFTRACE]));
		bt_print_script(md, t.script);
	}
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
