// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * --refresh probes (live): the cost per probe hit, from one setter_loop process calling
 * finishRecording (the redraw probe's function) and nativeScheduleVsync (the vsync probe's)
 * in rounds of rotated ways (none, bare entry uprobe, animtrace --refresh); then the hits per
 * frame, from the simulator's refresh scenario under animtrace --refresh.
 */
#include <limits.h>
#include <string.h>

#include <json-c/json.h>

#include "bench.h"
#include "e2e/e2e.h"
#include "peer.h"
#include "stats.h"
#include "ways.h"

#define REDRAW "_ZN7androidL46android_view_DisplayListCanvas_finishRecordingEll"
#define VSYNC "_ZN7androidL19nativeScheduleVsyncEP7_JNIEnvP7_jclassl"
#define NAME "com.example.benchrefresh"
#define FRAMES_ARG "95"

enum { NONE, BARE, ANIMTRACE, BPFTRACE, N_WAYS };
enum { RD, VS, N_FNS };

static const char *const cmds[N_FNS] = { "redraw", "vsync" };
static const char *const fn_labels[N_FNS] = { "finishRecording", "nativeScheduleVsync" };
static const char *const way_labels[N_WAYS] = { "no probes", "bare entry uprobe",
						"animtrace --refresh", "bpftrace" };

/* The refresh records of the storm run's frames. */
struct storm {
	int frames, hits, max;	  /* every frame */
	int sframes, sredraws, svsync; /* frames within the refresh_storm record's span */
};

static struct {
	const struct bench_env *env;
	char lib[PATH_MAX], rt_lib[PATH_MAX];
	char date[64], load[64], version[128];
	struct helper loop;
	int n_ways;			 /* bpftrace's only when it is installed */
	char off[N_FNS][32];		 /* the functions' file offsets, for bpftrace */
	char script[2 * PATH_MAX + 256]; /* bpftrace's, as the last round ran it */
	struct samples ns[N_FNS][N_WAYS];
	struct storm st;
} f;

static void setup(const struct bench_env *env)
{
	const char *libs[] = { f.lib, f.rt_lib, NULL };
	const char *argv[] = { env->animtrace, "--version", NULL };

	f.env = env;
	bench_date(f.date, sizeof(f.date));
	bench_loadavg(f.load, sizeof(f.load));
	proc_line(argv, f.version, sizeof(f.version));
	bench_file(f.lib, env, "sim/libhwui.so");
	bench_file(f.rt_lib, env, "sim/libandroid_runtime.so");
	for (int fn = 0; fn < N_FNS; fn++) {
		char addr[96];

		bare_addr(addr, sizeof(addr), env, fn == RD ? f.lib : f.rt_lib,
			  fn == RD ? REDRAW : VSYNC);
		sscanf(addr, "vaddr %*s offset %31s", f.off[fn]);
	}
	f.n_ways = peer_path() ? N_WAYS : BPFTRACE;
	loop_start(&f.loop, env, libs);
}

static void loops(int way, unsigned long n)
{
	for (int fn = 0; fn < N_FNS; fn++)
		samples_add(&f.ns[fn][way], loop_ns(&f.loop, cmds[fn], n, false));
}

/* Timed once both refresh probes are in; a stats line that comes after the loops must count
 * nothing lost (ring full on the refresh records included). */
static void way_animtrace(unsigned long n)
{
	char pid[16], pat[128], line[256];
	const char *args[] = { "--pid", pid, "--refresh", "--no-art", "--no-atrace-setup",
			       "--stats", "--format", "json", "-o", "/dev/null", NULL };
	struct at_stats st;
	struct at_run at;

	snprintf(pid, sizeof(pid), "%d", (int)f.loop.pid);
	at_start(&at, f.env->animtrace, args, f.loop.pid, E2E_MARKERS);
	snprintf(pat, sizeof(pat), "pid %d: frame requests from ", (int)f.loop.pid);
	e2e_await(at.log, at.pid, pat, NULL);
	snprintf(pat, sizeof(pat), "pid %d: redraws from " REDRAW " ", (int)f.loop.pid);
	if (!log_line(at.log, pat, line, sizeof(line)))
		bench_fail("animtrace attached no redraw probe: %s", e2e_slurp(at.log));
	loops(ANIMTRACE, n);
	at_stats(&at, &st);
	at_await(&at, &(struct at_stats){ .lines = st.lines + 1 }, 3000);
	at_stats(&at, &st);
	if (st.lost)
		bench_fail("animtrace lost %llu refresh records", (unsigned long long)st.lost);
	at_stop(&at);
}

/* --refresh's records as bpftrace can keep them: the node (finishRecording's second
 * argument) or the time, per thread, and a count each. */
static void way_bpftrace(unsigned long n)
{
	struct bt_run bt;

	snprintf(f.script, sizeof(f.script),
		 "uprobe:%s:%s /pid == %d/ { @rd[tid] = (nsecs, arg1); @redraws = count(); }\n"
		 "uprobe:%s:%s /pid == %d/ { @vs[tid] = nsecs; @vsyncs = count(); }\n",
		 f.lib, f.off[RD], (int)f.loop.pid, f.rt_lib, f.off[VS], (int)f.loop.pid);
	bt_start(&bt, f.script, f.loop.pid, NULL, NULL);
	loops(BPFTRACE, n);
	bt_stop(&bt);
	bt_check_count(&bt, "redraws", n, "finishRecording calls");
	bt_check_count(&bt, "vsyncs", n, "nativeScheduleVsync calls");
}

static void run_way(int way, unsigned long n)
{
	struct helper rd, vs;

	if (way == NONE) {
		loops(NONE, n);
	} else if (way == BARE) {
		bare_start(&rd, f.env, f.lib, REDRAW, f.loop.pid, true);
		bare_start(&vs, f.env, f.rt_lib, VSYNC, f.loop.pid, true);
		loops(BARE, n);
		helper_stop(&vs);
		helper_stop(&rd);
	} else if (way == ANIMTRACE) {
		way_animtrace(n);
	} else {
		way_bpftrace(n);
	}
}

/* Every refresh record lands in its frame's "redraws" (one per View) and "vsync_requests". */
static void read_storm(const char *path)
{
	struct e2e_jsonl j;
	int64_t first = -1, last = -1;
	struct storm *s = &f.st;

	e2e_jsonl_load(&j, path);
	for (size_t i = 0; i < j.n; i++)
		if (e2e_type_is(j.v[i], "refresh_storm")) {
			first = e2e_int(j.v[i], "first_ns");
			last = first + e2e_int(j.v[i], "duration_ns");
		}
	if (first < 0)
		bench_fail("no refresh_storm in %s", path);
	for (size_t i = 0; i < j.n; i++) {
		int64_t ts;
		int rd, vs;

		if (!e2e_type_is(j.v[i], "frame"))
			continue;
		ts = e2e_int(j.v[i], "ts_ns");
		rd = (int)json_object_array_length(e2e_get(j.v[i], "redraws"));
		vs = (int)e2e_int(j.v[i], "vsync_requests");
		s->frames++;
		s->hits += rd + vs;
		s->max = rd + vs > s->max ? rd + vs : s->max;
		if (ts >= first && ts <= last) {
			s->sframes++;
			s->sredraws += rd;
			s->svsync += vs;
		}
	}
	e2e_jsonl_free(&j);
}

/* How many redraws and vsync requests the simulator made: its --expect lines. */
static int expected_hits(const char *path)
{
	struct e2e_jsonl j;
	int n = 0;

	e2e_jsonl_load(&j, path);
	for (size_t i = 0; i < j.n; i++)
		n += e2e_type_is(j.v[i], "redraw") || e2e_type_is(j.v[i], "vsync_request");
	e2e_jsonl_free(&j);
	return n;
}

/* The refresh scenario under animtrace --refresh; the simulator plays once animtrace says
 * its vsync probe is in. */
static void storm_run(void)
{
	char out[PATH_MAX], go[PATH_MAX], expect[PATH_MAX], err[PATH_MAX], sim[PATH_MAX];
	const char *args[] = { "--proc", NAME, "--refresh", "--no-atrace-setup", "--format",
			       "json", "-o", e2e_path(out, "storm.jsonl"), NULL };
	const char *argv[] = { sim, "--name", NAME, "--scenario", "refresh", "--frames", FRAMES_ARG,
			       "--go", e2e_path(go, "go"), "--expect",
			       e2e_path(expect, "expect.jsonl"), NULL };
	struct at_run at;
	int want;
	pid_t pid;

	snprintf(sim, sizeof(sim), "%s/sim/animsim", f.env->build);
	at_start(&at, f.env->animtrace, args, 0, 0);
	pid = e2e_spawn(argv, &(struct e2e_spawn){ .err = e2e_path(err, "animsim.err") });
	e2e_await(at.log, at.pid, ": frame requests from ", NULL);
	e2e_go(go);
	if (e2e_exit_code(pid, "animsim"))
		bench_fail("animsim failed: %s", e2e_slurp(err));
	e2e_await(at.log, at.pid, NAME " (pid ", ") exited", NULL);
	at_stop(&at);
	read_storm(out);
	want = expected_hits(expect);
	if (f.st.hits != want)
		bench_fail("animtrace has %d refresh records, animsim made %d", f.st.hits, want);
}

static void measure(void)
{
	for (int fn = 0; fn < N_FNS; fn++) /* warm-up: page faults, caches, CPU frequency */
		loop_ns(&f.loop, cmds[fn], 100000, false);
	ways_rotate(f.env->rounds, f.n_ways, f.env->calls / (unsigned long)f.env->rounds, run_way);
	helper_stop(&f.loop);
	storm_run();
	for (int fn = 0; fn < N_FNS; fn++) {
		char what[96];

		snprintf(what, sizeof(what), "--refresh probe hit, %s (ns/call)", fn_labels[fn]);
		if (f.n_ways > BPFTRACE)
			peer_ratio(what, samples_median(&f.ns[fn][ANIMTRACE]),
				   samples_median(&f.ns[fn][BPFTRACE]), "ns",
				   fn == RD ? "every bpftrace round counted every call" : "");
		else
			peer_cannot(what, "measured", PEER_MISSING);
	}
}

static double med(int fn, int way)
{
	return samples_median(&f.ns[fn][way]);
}

static void row(FILE *md, int fn, int way)
{
	const struct samples *s = &f.ns[fn][way];

	if (!s->n) {
		fprintf(md, "| %s, %s | %s | | | | |\n", fn_labels[fn], way_labels[way],
			PEER_MISSING);
		return;
	}
	fprintf(md, "| %s, %s | %.2f | %.2f | %.0f | ", fn_labels[fn], way_labels[way],
		med(fn, way), samples_min(s), med(fn, way) - med(fn, NONE));
	if (way != NONE)
		fprintf(md, "%.0f", med(fn, way) - med(fn, BARE));
	fputs(" | ", md);
	samples_print(s, md, "%.2f");
	fputs(" |\n", md);
}

static void report_method(FILE *md)
{
	unsigned long per = f.env->calls / (unsigned long)f.env->rounds;

	fprintf(md, "Run %s, %s, %s, load average %s (`bench --only refresh --out\n"
		    "bench/results.md` runs this part alone and replaces this section).\n\n",
		f.date, f.version, f.env->animtrace, f.load);
	fprintf(md, "`bench/setter_loop LIBHWUI LIBANDROID_RUNTIME` dlopens the simulator's\n"
		    "stripped fixture libraries and calls\n"
		    "`%s` (redraw N: canvas i, one node)\n"
		    "and `%s` (vsync N: receiver i);\n"
		    "%lu calls of each per way in %d rounds of %lu, the ways taking turns\n"
		    "(rotated order) in one process. ns/call = loop wall time / calls.\n\n",
		REDRAW, VSYNC, per * (unsigned long)f.env->rounds, f.env->rounds, per);
	fprintf(md, "- no probes: nothing attached;\n"
		    "- bare entry uprobe: `bench/bare_uprobe --entry` on each function (an empty\n"
		    "  program, no uretprobe: --refresh's probes are entry-only), the kernel's\n"
		    "  floor;\n"
		    "- animtrace: `animtrace --pid PID --refresh --no-art --no-atrace-setup\n"
		    "  --stats --format json -o /dev/null` (without --stacks; its setter probes\n"
		    "  are attached too, but not hit), timed once its \"redraws from\" and\n"
		    "  \"frame requests from\" lines are out; every round checked: a stats line\n"
		    "  after the loops counts 0 lost (ring full on refresh records included).\n"
		    "  Outside a frame the engine keeps no count of the records, so the hit\n"
		    "  count is checked by the scenario run below instead (its records equal the\n"
		    "  simulator's calls).\n\n");
}

static void report_cost(FILE *md)
{
	double rd = med(RD, ANIMTRACE) - med(RD, NONE), vs = med(VS, ANIMTRACE) - med(VS, NONE);
	const struct storm *s = &f.st;

	fprintf(md, "\n"
		    "Cost per probe hit (animtrace minus no probes, medians): finishRecording\n"
		    "**%.0f ns**, nativeScheduleVsync **%.0f ns** (mean %.0f ns); of which\n"
		    "animtrace's own program, record and reader (animtrace minus the bare entry\n"
		    "uprobe): %.0f and %.0f ns, against a spread of %.0f and %.0f ns between the\n"
		    "bare rounds (max - min), and the uprobe trap itself (the bare rows over\n"
		    "none): %.1f and %.1f us here.\n\n",
		rd, vs, (rd + vs) / 2, med(RD, ANIMTRACE) - med(RD, BARE),
		med(VS, ANIMTRACE) - med(VS, BARE),
		samples_max(&f.ns[RD][BARE]) - samples_min(&f.ns[RD][BARE]),
		samples_max(&f.ns[VS][BARE]) - samples_min(&f.ns[VS][BARE]),
		(med(RD, BARE) - med(RD, NONE)) / 1e3, (med(VS, BARE) - med(VS, NONE)) / 1e3);
	fprintf(md, "Hits per frame: `animtrace --proc NAME --refresh --no-atrace-setup --format\n"
		    "json -o FILE` on `animsim --scenario refresh --frames %s --go FILE`\n"
		    "(played once animtrace's vsync probe is in). Each frame's hits are its\n"
		    "`redraws` entries plus its `vsync_requests` (a View redrawn twice in a\n"
		    "frame is listed once; the simulator redraws each View once).\n\n",
		FRAMES_ARG);
	fprintf(md, "| frames | refresh records (= animsim's calls) | max per frame "
		    "| storm frames | records in the storm (redraws + requests) "
		    "| per storm frame |\n"
		    "|---:|---:|---:|---:|---:|---:|\n"
		    "| %d | %d | %d | %d | %d (%d + %d) | %.2f |\n\n",
		s->frames, s->hits, s->max, s->sframes, s->sredraws + s->svsync, s->sredraws,
		s->svsync, s->sframes ? (double)(s->sredraws + s->svsync) / s->sframes : 0.0);
	fprintf(md, "At the measured cost that is %.2f us of probe time per storm frame (redraws\n"
		    "x finishRecording's added ns + requests x nativeScheduleVsync's).\n\n",
		s->sframes ? (rd * s->sredraws + vs * s->svsync) / s->sframes / 1000 : 0.0);
}

static void report(FILE *md)
{
	report_method(md);
	fprintf(md, "| function, way | median ns/call | best ns/call | added over none "
		    "| added over bare | per round (ns/call, run order) |\n"
		    "|---|---:|---:|---:|---:|---|\n");
	for (int fn = 0; fn < N_FNS; fn++)
		for (int way = 0; way < N_WAYS; way++)
			row(md, fn, way);
	report_cost(md);
	if (f.n_ways <= BPFTRACE)
		return;
	fprintf(md, "bpftrace (%s): `bpftrace --unsafe -p PID SCRIPT` on the same file\n"
		    "offsets, started once per round, timed once it says its probes are\n"
		    "attached, every round checked to count every call. animtrace / bpftrace\n"
		    "(medians): finishRecording **%.2f**, nativeScheduleVsync **%.2f**. Its\n"
		    "script, as the last round ran it:\n\n",
		peer_version(), med(RD, ANIMTRACE) / med(RD, BPFTRACE),
		med(VS, ANIMTRACE) / med(VS, BPFTRACE));
	bt_print_script(md, f.script);
}

static void summary(FILE *out)
{
	const struct storm *s = &f.st;

	fprintf(out, "bench: --refresh ns/call (median) finishRecording none %.2f, bare %.2f, "
		     "animtrace %.2f; nativeScheduleVsync none %.2f, bare %.2f, animtrace %.2f\n",
		med(RD, NONE), med(RD, BARE), med(RD, ANIMTRACE), med(VS, NONE), med(VS, BARE),
		med(VS, ANIMTRACE));
	fprintf(out, "bench: --refresh storm: %.2f records per frame (%d in %d frames)\n",
		s->sframes ? (double)(s->sredraws + s->svsync) / s->sframes : 0.0,
		s->sredraws + s->svsync, s->sframes);
}

const struct bench bench_refresh = {
	.name = "refresh",
	.heading = "## --refresh probes (live): cost per hit and hits per frame",
	.live = true,
	.setup = setup,
	.measure = measure,
	.report = report,
	.summary = summary,
};
