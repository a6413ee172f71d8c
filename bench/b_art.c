// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Per-animateValue-call overhead, and setter calls with names and attribution (live): one
 * setter_loop process with the ART fixture's boot-framework.oat runs, per round and way,
 * `animate N` (ValueAnimator.animateValue, no listener) and `attributed N` (S marker, one
 * animateValue whose update listener makes N setAlpha calls, F marker), the ways rotated.
 */
#include <limits.h>
#include <string.h>

#include <json-c/json.h>

#include "bench.h"
#include "animtrace/wire.h"
#include "e2e/e2e.h"
#include "peer.h"
#include "sim/hwui_fixture.h"
#include "stats.h"
#include "ways.h"

#define SETTER "_ZN7androidL32android_view_RenderNode_setAlphaElf"
#define ANIMATE_VALUE "android.animation.ValueAnimator.animateValue"
#define DYN_FRAME "com.android.internal.dynamicanimation.animation.DynamicAnimation.doAnimationFrame"
#define COOKIE 0x0bec4a1 /* BENCH_COOKIE in setter_loop.c: the animator's identity hash */

enum { NONE, BARE, ANIMTRACE, BPFTRACE, N_WAYS };
enum { ANIMATE, ATTRIBUTED, DYNFRAME, N_LOOPS };

static struct {
	const struct bench_env *env;
	char lib[PATH_MAX], oat[PATH_MAX];
	char addr[96];	   /* where animateValue is, bare_uprobe's */
	char set_addr[96]; /* where setAlpha is */
	char date[64], load[64];
	char names[256]; /* animtrace's "View names:" line, "" when this build has none */
	struct helper loop;
	int n_ways; /* bpftrace's only when it is installed */
	struct bt_probes probes;
	char script[4 * PATH_MAX]; /* bpftrace's, as the last round ran it */
	struct samples ns[N_LOOPS][N_WAYS];
} a;

static void setup(const struct bench_env *env)
{
	const char *libs[] = { a.lib, a.oat, NULL };

	a.env = env;
	bench_date(a.date, sizeof(a.date));
	bench_loadavg(a.load, sizeof(a.load));
	bench_file(a.lib, env, "sim/libhwui.so");
	bench_file(a.oat, env, "sim/boot-framework.oat");
	bare_addr(a.addr, sizeof(a.addr), env, a.oat, ANIMATE_VALUE);
	bare_addr(a.set_addr, sizeof(a.set_addr), env, a.lib, SETTER);
	bt_probes_find(&a.probes, env, a.lib, a.oat);
	a.n_ways = peer_path() ? N_WAYS : BPFTRACE;
	loop_start(&a.loop, env, libs);
}

static void loops(int way, unsigned long n)
{
	samples_add(&a.ns[ANIMATE][way], loop_ns(&a.loop, "animate", n, false));
	samples_add(&a.ns[ATTRIBUTED][way], loop_ns(&a.loop, "attributed", n, true));
	samples_add(&a.ns[DYNFRAME][way], loop_ns(&a.loop, "dynframe", n, false));
}

/* The last animator_end of path: its writes attributed exactly, all n of them to the one
 * node; with View names in this build, the node named by its class. */
static void check_end(const char *path, unsigned long n)
{
	struct e2e_jsonl j;
	json_object *end = NULL, *t, *alpha;

	e2e_jsonl_load(&j, path);
	for (size_t i = 0; i < j.n; i++)
		if (e2e_type_is(j.v[i], "animator_end"))
			end = j.v[i];
	if (!end)
		bench_fail("no animator_end in %s", path);
	if (strcmp(e2e_str(end, "target_source"), "exact"))
		bench_fail("animator not attributed exactly: %s", json_object_to_json_string(end));
	t = json_object_array_get_idx(e2e_get(end, "targets"), 0);
	alpha = t ? e2e_get(e2e_get(t, "properties"), "alpha") : NULL;
	if (!alpha || e2e_int(alpha, "sets") != (int64_t)n)
		bench_fail("the targets do not count %lu writes: %s", n,
			   json_object_to_json_string(end));
	if (a.names[0] &&
	    (e2e_is_null(t, "node_class") || strcmp(e2e_str(t, "node_class"), "BenchView")))
		bench_fail("no View name in the targets: %s", json_object_to_json_string(end));
	e2e_jsonl_free(&j);
}

static void way_animtrace(unsigned long n)
{
	char pid[16], out[PATH_MAX], line[256];
	const char *names;
	const char *args[] = { "--pid", pid, "--art-oat", a.oat, "--no-atrace-setup", "--stats",
			       "--format", "json", "-o", e2e_path(out, "art.jsonl"), NULL };
	struct at_stats st;
	struct at_run at;

	snprintf(pid, sizeof(pid), "%d", (int)a.loop.pid);
	at_start(&at, a.env->animtrace, args, a.loop.pid, E2E_PROPS | E2E_ART);
	if (log_line(at.log, "animateValue not AOT-compiled", line, sizeof(line)))
		bench_fail("no animateValue probes: %s", line);
	loops(ANIMTRACE, n);
	/* as the setter benchmark: a reader starved by this VM's load may take seconds */
	if (!at_await(&at, &(struct at_stats){ .props = n }, E2E_WAIT_MS))
		bench_fail("animtrace saw fewer than %lu changes", n);
	bench_nap_ms(1100); /* one more stats line: the ART records are behind the changes */
	at_stats(&at, &st);
	if (st.lost)
		bench_fail("animtrace lost %llu records", (unsigned long long)st.lost);
	at_stop(&at);
	/* A build without View names prints no such line; one with them named the node once. */
	names = log_line(at.log, "View names: ", line, sizeof(line)) ? strstr(line, "View") : "";
	if (*names && !strstr(names, "View names: 1 nodes named, 0 without"))
		bench_fail("animtrace did not name the bench node: %s", names);
	snprintf(a.names, sizeof(a.names), "%s", names);
	check_end(out, n);
}

/*
 * animtrace's ART probes as bpftrace can have them: at each animateValue address `this` (the
 * 32-bit reference in esi, arg1) and its lock word (the identity hash animtrace's reader
 * takes as the cookie) into a map, the animator kept per thread (@cur) for the setter's
 * record: the attribution animtrace's engine makes from the same probe; doAnimationFrame's
 * `this` and frame time (rdx, arg2). Each counted.
 */
static void bt_script(pid_t pid)
{
	FILE *f = bt_script_open(a.script, sizeof(a.script));
	unsigned long long set = 0;

	if (!bt_points(f, &a.probes, a.oat, "art", AT_ART_VA_ANIMATE))
		bench_fail("no animateValue address in %s", a.oat);
	fprintf(f, " /pid == %d/ {\n"
		   "\t$o = arg1 & 0xffffffff;\n"
		   "\t@cur[tid] = $o;\n"
		   "\t@av[tid] = (nsecs, $o, *(uint32 *)($o + %d));\n"
		   "\t@animate = count();\n"
		   "}\n",
		(int)pid, AT_ART_LOCK_WORD_OFF);
	if (!bt_points(f, &a.probes, a.oat, "art", AT_ART_DYN_FRAME))
		bench_fail("no doAnimationFrame address in %s", a.oat);
	fprintf(f, " /pid == %d/ {\n"
		   "\t@df[tid] = (nsecs, arg1 & 0xffffffff, arg2);\n"
		   "\t@frames = count();\n"
		   "}\n",
		(int)pid);
	sscanf(strstr(a.set_addr, "offset "), "offset %llx", &set);
	bt_setter_script(f, a.lib, set, HWUI_OFF_ALPHA, pid, true);
	fclose(f);
}

/* Every call counted: `attributed n` runs one animateValue around its n setter calls. */
static void way_bpftrace(unsigned long n)
{
	struct bt_run bt;

	bt_script(a.loop.pid);
	bt_start(&bt, a.script, a.loop.pid, NULL, NULL);
	loops(BPFTRACE, n);
	bt_stop(&bt);
	bt_check_count(&bt, "animate", n + 1, "animateValue calls");
	bt_check_count(&bt, "changes", n, "setter changes");
	bt_check_count(&bt, "frames", n, "doAnimationFrame calls");
}

static void run_way(int way, unsigned long n)
{
	struct helper bare_av, bare_set, bare_dyn;

	if (way == NONE) {
		loops(NONE, n);
	} else if (way == BARE) {
		bare_start(&bare_av, a.env, a.oat, ANIMATE_VALUE, a.loop.pid, true);
		bare_start(&bare_set, a.env, a.lib, SETTER, a.loop.pid, false);
		bare_start(&bare_dyn, a.env, a.oat, DYN_FRAME, a.loop.pid, true);
		loops(BARE, n);
		helper_stop(&bare_dyn);
		helper_stop(&bare_set);
		helper_stop(&bare_av);
	} else if (way == ANIMTRACE) {
		way_animtrace(n);
	} else {
		way_bpftrace(n);
	}
}

static double med(int loop, int way);

static void add_peer_rows(void)
{
	static const char *const what[N_LOOPS] = {
		"ValueAnimator.animateValue call: `this` and its lock word (ns/call)",
		"setter call inside animateValue, attributed to the animator (ns/call)",
		"DynamicAnimation.doAnimationFrame call: `this` and frame time (ns/call)",
	};
	static const char *const note[N_LOOPS] = {
		"medians of the rounds; every bpftrace round counted every call",
		"animtrace also names the View (RenderNode's class name, read once): bpftrace "
		"cannot, the name's offset is decoded from the setters' code it cannot find "
		"(MiniDebugInfo)",
		"",
	};

	for (int l = 0; l < N_LOOPS; l++) {
		if (a.n_ways <= BPFTRACE)
			peer_cannot(what[l], "measured", PEER_MISSING);
		else
			peer_ratio(what[l], med(l, ANIMTRACE), med(l, BPFTRACE), "ns", note[l]);
	}
}

static void measure(void)
{
	loop_ns(&a.loop, "animate", 100000, false); /* warm-up: page faults, caches, frequency */
	loop_ns(&a.loop, "attributed", 100000, true);
	loop_ns(&a.loop, "dynframe", 100000, false);
	ways_rotate(a.env->rounds, a.n_ways, a.env->calls / (unsigned long)a.env->rounds, run_way);
	helper_stop(&a.loop);
	add_peer_rows();
}

static double med(int loop, int way)
{
	return samples_median(&a.ns[loop][way]);
}

static void row(FILE *md, int loop, int way, const char *label)
{
	const struct samples *s = &a.ns[loop][way];

	if (!s->n) {
		fprintf(md, "| %s | %s | | |\n", label, PEER_MISSING);
		return;
	}
	fprintf(md, "| %s | %.2f | %.2f | ", label, med(loop, way), samples_min(s));
	samples_print(s, md, "%.2f");
	fputs(" |\n", md);
}

static void report_method(FILE *md)
{
	unsigned long per = a.env->calls / (unsigned long)a.env->rounds;

	fprintf(md, "Measured %s, load average at start %s, with %s. `bench/setter_loop LIBHWUI\n"
		    "OAT` dlopens the simulator's stripped `libhwui.so` and its\n"
		    "`boot-framework.oat` (ART-named methods in MiniDebugInfo, reached through\n"
		    "`art_fixture_methods()` as animsim does), creates one node\n"
		    "(`com.example.bench.BenchView`) and one animator object (identity hash %d\n"
		    "in its lock word). One process, %lu calls per way and loop in %d rounds of\n"
		    "%lu, the ways rotated each round. Per round and way:\n\n",
		a.date, a.load, a.env->animtrace, COOKIE, per * (unsigned long)a.env->rounds,
		a.env->rounds, per);
	fprintf(md, "- animateValue: `animate N`, N calls of `ValueAnimator.animateValue` (%s,\n"
		    "  %s) with no update listener;\n"
		    "- setter, attributed: `attributed N`: `S|pid|animator|cookie`, one\n"
		    "  `animateValue` whose update listener makes N `setAlpha` calls (timed\n"
		    "  alone, alternating 0.25/0.75: all changes), `F|pid|animator|cookie`. With\n"
		    "  animtrace every write is the animator's (exact attribution) and, with\n"
		    "  View names, its node is shown by the class name read from the\n"
		    "  RenderNode.\n\n",
		ANIMATE_VALUE, a.addr);
	fprintf(md, "Ways:\n\n"
		    "- no probes;\n"
		    "- bare: `bench/bare_uprobe --entry OAT %s PID` (an empty entry-only uprobe,\n"
		    "  the kind animtrace's ART probes are) and `bench/bare_uprobe LIB setter\n"
		    "  PID` (empty uprobe+uretprobe on setAlpha), both attached for the round;\n"
		    "- animtrace: `animtrace --pid PID --art-oat OAT --no-atrace-setup --stats\n"
		    "  --format json -o FILE` (setter probes on all 10 setters, the ART probes\n"
		    "  on start/cancel/end and both animateValue methods), started once per\n"
		    "  round, timed after its \"ready\", \"tracing\" and `pid PID: end reasons\n"
		    "  from ART probes in OAT` lines. Every round checked: the stats count every\n"
		    "  change, 0 lost, and the round's `animator_end` has\n"
		    "  `\"target_source\":\"exact\"` and `\"sets\"` equal to N. View names:\n",
		ANIMATE_VALUE);
	if (a.names[0])
		fprintf(md, "  on; every round checked `\"node_class\":\"BenchView\"` and, at\n"
			    "  exit, `%s`;\n", a.names);
	else
		fprintf(md, "  **not in this build** (no \"View names:\" line at exit,\n"
			    "  `node_class` null): these rows are attribution without names;\n");
	if (a.n_ways <= BPFTRACE) {
		fprintf(md, "- bpftrace: %s.\n\n", PEER_MISSING);
		return;
	}
	fprintf(md, "- bpftrace: %s, `bpftrace --unsafe -p PID SCRIPT` with the script\n"
		    "  below (the same addresses, found by `many_uprobes --list`: bpftrace\n"
		    "  cannot read MiniDebugInfo): at animateValue `this` and its lock word\n"
		    "  (the identity hash), kept per thread as the animator of the setter\n"
		    "  records that follow (animtrace's attribution, without its S/F markers);\n"
		    "  the setter's uprobe+uretprobe as in the per-setter-call section; at\n"
		    "  doAnimationFrame `this` and the frame time. No View names: the name is\n"
		    "  read at an offset animtrace decodes from the setters' code. Started once\n"
		    "  per round, timed once it says its probes are attached; every round\n"
		    "  checked: @animate = N + 1 (the attributed loop's own animateValue),\n"
		    "  @changes = N, @frames = N.\n\n",
		peer_version());
}

static void report(FILE *md)
{
	const char *names = a.names[0] ? "names and " : "";
	char label[96];

	report_method(md);
	fprintf(md, "| way | median ns/call | best ns/call | per round (ns/call, run order) |\n"
		    "|---|---:|---:|---|\n");
	row(md, ANIMATE, NONE, "animateValue, no probes");
	row(md, ANIMATE, BARE, "animateValue, bare entry uprobe");
	row(md, ANIMATE, ANIMTRACE, "animateValue, animtrace");
	row(md, ANIMATE, BPFTRACE, "animateValue, bpftrace");
	row(md, ATTRIBUTED, NONE, "setter (attributed), no probes");
	row(md, ATTRIBUTED, BARE, "setter (attributed), bare uprobe+uretprobe");
	snprintf(label, sizeof(label), "setter, animtrace with %sattribution", names);
	row(md, ATTRIBUTED, ANIMTRACE, label);
	row(md, ATTRIBUTED, BPFTRACE, "setter, bpftrace with the animator (no names)");
	row(md, DYNFRAME, NONE, "DynamicAnimation.doAnimationFrame, no probes");
	row(md, DYNFRAME, BARE, "DynamicAnimation.doAnimationFrame, bare entry uprobe");
	row(md, DYNFRAME, ANIMTRACE, "DynamicAnimation.doAnimationFrame, animtrace");
	row(md, DYNFRAME, BPFTRACE, "DynamicAnimation.doAnimationFrame, bpftrace");
	fprintf(md, "\n"
		    "Ratios of medians, animtrace / bare: animateValue **%.2f**, setter with\n"
		    "%sattribution **%.2f**. Cost added per call over no probes: animateValue\n"
		    "bare %.0f ns, animtrace %.0f ns; setter bare %.0f ns, animtrace %.0f ns.\n"
		    "(The per-setter-call table above, from the full run, has animtrace with\n"
		    "`--no-art`.)\n\n",
		med(ANIMATE, ANIMTRACE) / med(ANIMATE, BARE), names,
		med(ATTRIBUTED, ANIMTRACE) / med(ATTRIBUTED, BARE),
		med(ANIMATE, BARE) - med(ANIMATE, NONE),
		med(ANIMATE, ANIMTRACE) - med(ANIMATE, NONE),
		med(ATTRIBUTED, BARE) - med(ATTRIBUTED, NONE),
		med(ATTRIBUTED, ANIMTRACE) - med(ATTRIBUTED, NONE));
	fprintf(md, "DynamicAnimation.doAnimationFrame (`dynframe N`: N calls of the framework\n"
		    "copy's compiled method on one object, a step that writes nothing; animtrace's\n"
		    "probe reads `this` and the frame time, no stack): animtrace / bare **%.2f**,\n"
		    "added per call over no probes: bare %.0f ns, animtrace %.0f ns. (start,\n"
		    "cancel and skipToEnd run once per animation; their cost is the stack copy's,\n"
		    "as ValueAnimator.start's.)\n\n",
		med(DYNFRAME, ANIMTRACE) / med(DYNFRAME, BARE),
		med(DYNFRAME, BARE) - med(DYNFRAME, NONE),
		med(DYNFRAME, ANIMTRACE) - med(DYNFRAME, NONE));
	if (a.n_ways <= BPFTRACE)
		return;
	fprintf(md, "Ratios of medians, animtrace / bpftrace: animateValue **%.2f**, setter\n"
		    "(attributed) **%.2f**, doAnimationFrame **%.2f**. bpftrace's script, as the\n"
		    "last round ran it:\n\n",
		med(ANIMATE, ANIMTRACE) / med(ANIMATE, BPFTRACE),
		med(ATTRIBUTED, ANIMTRACE) / med(ATTRIBUTED, BPFTRACE),
		med(DYNFRAME, ANIMTRACE) / med(DYNFRAME, BPFTRACE));
	bt_print_script(md, a.script);
}

static void summary(FILE *out)
{
	fprintf(out, "bench: animateValue ns/call (median): none %.2f, bare entry uprobe %.2f, "
		     "animtrace %.2f (animtrace/bare %.2f)\n",
		med(ANIMATE, NONE), med(ANIMATE, BARE), med(ANIMATE, ANIMTRACE),
		med(ANIMATE, ANIMTRACE) / med(ANIMATE, BARE));
	fprintf(out, "bench: setter with %sattribution ns/call (median): none %.2f, bare %.2f, "
		     "animtrace %.2f (animtrace/bare %.2f)\n",
		a.names[0] ? "names and " : "", med(ATTRIBUTED, NONE), med(ATTRIBUTED, BARE),
		med(ATTRIBUTED, ANIMTRACE), med(ATTRIBUTED, ANIMTRACE) / med(ATTRIBUTED, BARE));
	fprintf(out, "bench: DynamicAnimation.doAnimationFrame ns/call (median): none %.2f, bare "
		     "entry uprobe %.2f, animtrace %.2f (animtrace/bare %.2f)\n",
		med(DYNFRAME, NONE), med(DYNFRAME, BARE), med(DYNFRAME, ANIMTRACE),
		med(DYNFRAME, ANIMTRACE) / med(DYNFRAME, BARE));
}

const struct bench bench_art = {
	.name = "art",
	.heading = "## Per-animateValue-call overhead, and setter calls with names and "
		   "attribution (live)",
	.live = true,
	.setup = setup,
	.measure = measure,
	.report = report,
	.summary = summary,
};
