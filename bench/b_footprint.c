// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Footprint (live): animtrace's peak RSS over the demo's run (tests/sim/demo.sh: three
 * simulated apps traced one after another with --stacks), and how long animtrace takes to
 * exit after SIGINT with setter and ART probes attached, against the same uprobes on empty
 * programs (bench/many_uprobes): perf-event links detached one after another, and
 * uprobe_multi links freed together (the kernel's floor). The ways take turns in each round.
 */
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "e2e/e2e.h"
#include "peer.h"
#include "stats.h"
#include "ways.h"

#define RSS_TARGET_KB 9765 /* 10 MB: 10^7 bytes */
#define EXIT_TARGET 2.0	   /* animtrace's exit / a plain libbpf tool's, same uprobes */

enum { AT_NEW, AT_BASE, N_BINS };
enum { W_AT, W_BASE, W_SERIAL, W_MULTI, W_BT, N_WAYS };

static const char *const way_label[N_WAYS] = {
	"animtrace", "baseline animtrace (--baseline)", "bare, perf-event links one after another",
	"bare, uprobe_multi links together (the kernel's floor)",
	"bpftrace, the same uprobes (script below)",
};

static struct {
	const struct bench_env *env;
	char lib[PATH_MAX], oat[PATH_MAX], sim[PATH_MAX], many[PATH_MAX];
	char date[64], load[64];
	struct helper loop;
	bool multi; /* the kernel has uprobe_multi links */
	int uprobes, setters, rets, art; /* many_uprobes' counts */
	struct samples exit_ms[N_WAYS];
	/* the demo's run, per binary */
	struct samples rss_kb[N_BINS], demo_exit_ms[N_BINS];
	bool debuginfod[N_BINS]; /* libdebuginfod or libcurl mapped at the end */
	struct bt_probes probes;
	char script[32 * PATH_MAX]; /* bpftrace's, as the last run ran it */
} f;

static bool has_bin(int b)
{
	return b == AT_NEW || f.env->baseline;
}

static const char *bin_of(int b)
{
	return b == AT_NEW ? f.env->animtrace : f.env->baseline;
}

static void setup(const struct bench_env *env)
{
	const char *libs[] = { f.lib, f.oat, NULL };
	const char *argv[] = { f.many, "--probe", NULL };
	char line[64];

	f.env = env;
	bench_date(f.date, sizeof(f.date));
	bench_loadavg(f.load, sizeof(f.load));
	bench_file(f.lib, env, "sim/libhwui.so");
	bench_file(f.oat, env, "sim/boot-framework.oat");
	bench_file(f.sim, env, "sim/animsim");
	bench_file(f.many, env, "bench/many_uprobes");
	f.multi = !strcmp(proc_line(argv, line, sizeof(line)), "uprobe_multi yes");
	bt_probes_find(&f.probes, env, f.lib, f.oat);
	loop_start(&f.loop, env, libs);
}

/* ---- the demo's run ------------------------------------------------------------------- */

/* One app of the demo: started, released once animtrace probes it, played to its end. */
static void play(const struct at_run *at, const char *name, const char *const extra[])
{
	const char *argv[16] = { f.sim, "--name", name, "--go", NULL };
	char go[PATH_MAX];
	int n = 4;
	pid_t s;

	argv[n++] = e2e_path(go, "go");
	while (*extra && n < 15)
		argv[n++] = *extra++;
	argv[n] = NULL;
	unlink(go);
	s = e2e_spawn(argv, NULL);
	e2e_release(at->log, at->pid, e2e_find_child(s, name), E2E_PROPS | E2E_ART, go);
	if (e2e_exit_code(s, "animsim"))
		bench_fail("animsim --name %s failed", name);
	e2e_forget_exited();
}

static void demo_run(int b)
{
	char ui[E2E_NAME_MAX], launcher[E2E_NAME_MAX], feed[E2E_NAME_MAX], decoy[E2E_NAME_MAX];
	char procs[4 * E2E_NAME_MAX];
	const char *args[] = { "--proc", procs, "--stacks", NULL };
	const char *ui_args[] = { "--decoy", e2e_name(decoy, "com.example.decoy"), NULL };
	const char *physics[] = { "--scenario", "physics", NULL };
	const char *jank[] = { "--scenario", "jank", "--frames", "40", NULL };
	struct at_run at;

	snprintf(procs, sizeof(procs), "%s,%s,%s", e2e_name(ui, "com.android.systemui"),
		 e2e_name(launcher, "com.android.launcher3"), e2e_name(feed, "com.example.feed"));
	at_start(&at, bin_of(b), args, 0, 0);
	play(&at, ui, ui_args);
	play(&at, launcher, physics);
	play(&at, feed, jank);
	samples_add(&f.rss_kb[b], (double)proc_status_kb(at.pid, "VmHWM"));
	f.debuginfod[b] |= proc_maps_hold(at.pid, "libdebuginfod") ||
			   proc_maps_hold(at.pid, "libcurl");
	samples_add(&f.demo_exit_ms[b], (double)proc_sigint_exit_ns(at.pid) / 1e6);
	if (e2e_exit_code(at.pid, "animtrace"))
		bench_fail("animtrace exited with an error: %s", e2e_slurp(at.log));
	e2e_forget_exited();
}

/* ---- exit with setter and ART probes -------------------------------------------------- */

static void exit_animtrace(int way)
{
	char pid[16], line[256];
	const char *args[] = { "--pid", pid, "--art-oat", f.oat, "--no-atrace-setup", "--format",
			       "json", "-o", "/dev/null", NULL };
	struct at_run at;
	int setters = -1;

	snprintf(pid, sizeof(pid), "%d", (int)f.loop.pid);
	at_start(&at, bin_of(way == W_AT ? AT_NEW : AT_BASE), args, f.loop.pid,
		 E2E_PROPS | E2E_ART);
	if (log_line(at.log, " setters)", line, sizeof(line)))
		sscanf(strrchr(line, '(') ? strrchr(line, '(') : line, "(%d", &setters);
	if (setters != f.setters)
		bench_fail("animtrace probes %d setters, many_uprobes %d", setters, f.setters);
	samples_add(&f.exit_ms[way], (double)proc_sigint_exit_ns(at.pid) / 1e6);
	e2e_wait(at.pid, "animtrace");
	e2e_forget_exited();
}

static void exit_bare(int way, bool timed)
{
	char pid[16];
	const char *argv[] = { f.many, way == W_MULTI ? "--multi" : f.lib,
			       way == W_MULTI ? f.lib : f.oat, way == W_MULTI ? f.oat : pid,
			       way == W_MULTI ? pid : NULL, NULL };
	struct helper h;

	snprintf(pid, sizeof(pid), "%d", (int)f.loop.pid);
	helper_start(&h, argv);
	if (sscanf(h.ready, "ready uprobes %d setters %d returns %d art %d", &f.uprobes,
		   &f.setters, &f.rets, &f.art) != 4)
		bench_fail("many_uprobes: '%s'", h.ready);
	if (timed)
		samples_add(&f.exit_ms[way], (double)proc_sigint_exit_ns(h.pid) / 1e6);
	else
		kill(h.pid, SIGINT);
	helper_stop(&h);
}

/* The uprobes many_uprobes attaches, in a bpftrace script: each setter's entry stashes the
 * node, a return (if any) counts, each ART address keeps `this`. */
static void bt_script(pid_t pid)
{
	FILE *s = bt_script_open(f.script, sizeof(f.script));

	if (bt_points(s, &f.probes, f.lib, "setter", -1))
		fprintf(s, " /pid == %d/ { @node[tid] = arg0; @sets = count(); }\n", (int)pid);
	if (bt_points(s, &f.probes, f.lib, "return", -1))
		fprintf(s, " /pid == %d/ { @rets = count(); }\n", (int)pid);
	if (bt_points(s, &f.probes, f.oat, "art", -1))
		fprintf(s, " /pid == %d/ { @obj[tid] = arg1 & 0xffffffff; @art = count(); }\n",
			(int)pid);
	fclose(s);
}

static void exit_bpftrace(void)
{
	struct bt_run bt;

	bt_script(f.loop.pid);
	bt_start(&bt, f.script, f.loop.pid, NULL, NULL);
	samples_add(&f.exit_ms[W_BT], (double)bt_stop(&bt) / 1e6);
}

static void exit_way(int way, unsigned long unused)
{
	if (way == W_BT) {
		if (peer_path())
			exit_bpftrace();
		return;
	}
	if (way == W_AT || (way == W_BASE && f.env->baseline))
		exit_animtrace(way);
	else if (way == W_SERIAL || (way == W_MULTI && f.multi))
		exit_bare(way, true);
}

static void add_peer_rows(void)
{
	char kb[48];

	if (f.exit_ms[W_BT].n)
		peer_ratio("SIGINT to exit, setter and ART uprobes attached (ms)",
			   samples_median(&f.exit_ms[W_AT]), samples_median(&f.exit_ms[W_BT]), "ms",
			   "the same uprobes; bpftrace detaches its perf-event links one after "
			   "another and prints its maps");
	else
		peer_cannot("SIGINT to exit", "measured", PEER_MISSING);
	snprintf(kb, sizeof(kb), "%.0f KiB", samples_max(&f.rss_kb[AT_NEW]));
	peer_cannot("peak RSS over the demo's run (`--proc` three apps, `--stacks`)", kb,
		    "not the same job: the demo traces apps by name as they start, finds their "
		    "setters in MiniDebugInfo and their ART methods in the oat's, reads View "
		    "names and unwinds ART stacks; bpftrace reads no MiniDebugInfo and has no "
		    "ART unwinder (its RSS copying markers is in the marker row)");
}

static void measure(void)
{
	/* Once untimed first: animtrace's setter count is checked against many_uprobes'. */
	exit_bare(W_SERIAL, false);
	ways_rotate(f.env->runs, N_WAYS, 0, exit_way);
	helper_stop(&f.loop);
	for (int i = 0; i < f.env->runs; i++)
		for (int b = 0; b < N_BINS; b++)
			if (has_bin((b + i) % N_BINS))
				demo_run((b + i) % N_BINS);
	add_peer_rows();
}

/* ---- report --------------------------------------------------------------------------- */

static void report_rss(FILE *md)
{
	double kb = samples_max(&f.rss_kb[AT_NEW]);
	char ring[16];

	fprintf(md, "### Peak RSS over the demo's run\n\n"
		    "The demo's run (`tests/sim/demo.sh`, as `make demo` traces it): `animtrace\n"
		    "--proc SYSTEMUI,LAUNCHER,FEED --stacks` (default %s ring buffer), then\n"
		    "three simulated apps one after another, each released once its setter and\n"
		    "ART probes are attached: SystemUI's animators (with a decoy app), a\n"
		    "launcher's spring and fling, a feed that drops frames. VmHWM is read from\n"
		    "/proc/PID/status after the last app ends (call stacks unwound, View names\n"
		    "read), just before SIGINT; /proc/PID/maps is searched then for libdebuginfod\n"
		    "and libcurl. %d runs per binary, taking turns.\n\n"
		    "| binary | peak RSS, max (KiB) | median (KiB) | all (KiB, run order) | "
		    "libdebuginfod/libcurl mapped | SIGINT to exit, median (ms) |\n"
		    "|---|---:|---:|---|---|---:|\n",
		bench_default_ring(ring, sizeof(ring)), f.env->runs);
	for (int b = 0; b < N_BINS; b++) {
		if (!has_bin(b))
			continue;
		if (b == AT_NEW)
			fprintf(md, "| animtrace ");
		else
			fprintf(md, "| baseline `%s` ", bin_of(b));
		fprintf(md, "| %.0f | %.0f | ", samples_max(&f.rss_kb[b]),
			samples_median(&f.rss_kb[b]));
		samples_print(&f.rss_kb[b], md, "%.0f");
		fprintf(md, " | %s | %.1f |\n", f.debuginfod[b] ? "yes" : "no",
			samples_median(&f.demo_exit_ms[b]));
	}
	fprintf(md, "\nPeak RSS (the largest of the runs): **%.0f KiB** (%.1f MB).\n"
		    "Target <= 10 MB (%d KiB): %s.\n\n",
		kb, kb * 1024 / 1e6, RSS_TARGET_KB, kb <= RSS_TARGET_KB ? "met" : "missed");
}

static void report_exit(FILE *md)
{
	double at = samples_median(&f.exit_ms[W_AT]);
	double serial = samples_median(&f.exit_ms[W_SERIAL]);
	double floor = samples_median(&f.exit_ms[W_MULTI]);

	fprintf(md, "### SIGINT to exit with setter and ART probes attached\n\n"
		    "`bench/setter_loop` holds the simulator's `libhwui.so` and\n"
		    "`boot-framework.oat` mapped. Per round and way, one process attaches its\n"
		    "uprobes to it, then gets SIGINT; the time is from the kill() to its exit\n"
		    "(waitid, polled every 0.1 ms). The uprobes: %d setters (entry) + %d setter\n"
		    "returns (the setters animtrace could not decode) + %d ART method addresses\n"
		    "(entry) = **%d uprobes**, found by the project's\n"
		    "symbol code (`hwui_resolve`, `art_resolve`); animtrace's setter count is\n"
		    "checked to be the same.\n\n"
		    "- animtrace: `animtrace --pid PID --art-oat OAT --no-atrace-setup --format\n"
		    "  json -o /dev/null`, timed once its setter and ART probes are attached;\n"
		    "- bare, perf-event links: `bench/many_uprobes LIB OAT PID`, empty programs\n"
		    "  attached as one perf-event link per uprobe (libbpf's\n"
		    "  `bpf_program__attach_uprobe`), detached one after another at SIGINT:\n"
		    "  what a plain libbpf tool does, and bpftrace too;\n"
		    "- bare, uprobe_multi links: `bench/many_uprobes --multi`, the same uprobes\n"
		    "  as uprobe_multi links (one per program and file) freed together (animtrace's\n"
		    "  `src/live/ulink.c`): the kernel's floor%s;\n"
		    "- bpftrace (%s): `bpftrace --unsafe -p PID SCRIPT` on the same uprobes\n"
		    "  (the script below), timed once it says they are attached.\n\n"
		    "| way | median (ms) | best (ms) | all (ms, run order) |\n"
		    "|---|---:|---:|---|\n",
		f.setters, f.rets, f.art, f.uprobes,
		f.multi ? "" : " (this kernel has no uprobe_multi links: not measured)",
		peer_path() ? peer_version() : PEER_MISSING);
	for (int w = 0; w < N_WAYS; w++) {
		if (!f.exit_ms[w].n)
			continue;
		fprintf(md, "| %s | %.1f | %.1f | ", way_label[w], samples_median(&f.exit_ms[w]),
			samples_min(&f.exit_ms[w]));
		samples_print(&f.exit_ms[w], md, "%.1f");
		fprintf(md, " |\n");
	}
	fprintf(md, "\nThe target's baseline is the bare perf-event program, with the same number\n"
		    "of uprobes. animtrace / bare perf-event = **%.2f**\n"
		    "(target <= %.0f: %s)",
		at / serial, EXIT_TARGET, at <= EXIT_TARGET * serial ? "met" : "missed");
	if (f.exit_ms[W_MULTI].n)
		fprintf(md, "; animtrace / the floor = %.2f", at / floor);
	if (!f.exit_ms[W_BT].n) {
		fprintf(md, "; bpftrace: %s.\n\n", PEER_MISSING);
		return;
	}
	fprintf(md, "; animtrace / bpftrace = **%.2f**. bpftrace's script:\n\n",
		at / samples_median(&f.exit_ms[W_BT]));
	bt_print_script(md, f.script);
}

static void report(FILE *md)
{
	fprintf(md, "Run %s, load average at start %s, %s.\n\n", f.date, f.load, f.env->animtrace);
	report_rss(md);
	report_exit(md);
}

static void summary(FILE *out)
{
	fprintf(out, "bench: footprint: peak RSS %.0f KiB (demo, --stacks); exit %.1f ms "
		     "(bare perf-event %.1f ms, %d uprobes)\n",
		samples_max(&f.rss_kb[AT_NEW]), samples_median(&f.exit_ms[W_AT]),
		samples_median(&f.exit_ms[W_SERIAL]), f.uprobes);
}

const struct bench bench_footprint = {
	.name = "footprint",
	.heading = "## Footprint: peak RSS and exit time (live)",
	.live = true,
	.setup = setup,
	.measure = measure,
	.report = report,
	.summary = summary,
};
