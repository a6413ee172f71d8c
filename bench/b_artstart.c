// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The ValueAnimator.start probe's cost, with and without its copy of the animator object
 * (issue #24, AT_REC_ART_OBJ): one setter_loop process with the ART fixture's
 * boot-framework.oat runs `start N` (ValueAnimator.start through its app-level callers, no
 * marker) per round and way, the ways rotated: no probes, animtrace --no-heap (the start
 * probe as it was: one AT_REC_ART record), animtrace (that record and the object's first
 * AT_ART_OBJ_BYTES bytes in a second one).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "animtrace/wire.h"
#include "bench.h"
#include "e2e/e2e.h"
#include "peer.h"
#include "stats.h"
#include "ways.h"

enum { NONE, NO_HEAP, HEAP, BPFTRACE, N_WAYS };

/* bpftrace's buf() is at most BPFTRACE_STRLEN (200 in 0.17) bytes: two copies make the 256. */
#define BT_HALF (AT_ART_OBJ_BYTES / 2)

static struct {
	const struct bench_env *env;
	char lib[PATH_MAX], oat[PATH_MAX];
	char date[64], load[64];
	struct helper loop;
	int n_ways; /* bpftrace's only when it is installed */
	struct bt_probes probes;
	char script[2 * PATH_MAX]; /* bpftrace's, as the last round ran it */
	struct samples ns[N_WAYS];
} s;

static void setup(const struct bench_env *env)
{
	const char *libs[] = { s.lib, s.oat, NULL };

	s.env = env;
	bench_date(s.date, sizeof(s.date));
	bench_loadavg(s.load, sizeof(s.load));
	bench_file(s.lib, env, "sim/libhwui.so");
	bench_file(s.oat, env, "sim/boot-framework.oat");
	bt_probes_find(&s.probes, env, s.lib, s.oat);
	s.n_ways = peer_path() ? N_WAYS : BPFTRACE;
	loop_start(&s.loop, env, libs);
}

/* animtrace on the loop's process for one loop of n starts; heap: the copy on. */
static void way_animtrace(unsigned long n, bool heap)
{
	char pid[16], out[PATH_MAX];
	/* A 64M ring: with the default one a reader starved by this VM's load (average ~10)
	 * lost records, and a probe whose reserve fails skips its copy, flattering it. */
	const char *args[] = { "--pid", pid, "--art-oat", s.oat, "--no-atrace-setup", "--stats",
			       "--buffer-size", "64M", "--format", "json", "-o",
			       e2e_path(out, "start.jsonl"), heap ? NULL : "--no-heap", NULL };
	struct at_stats st;
	struct at_run at;

	snprintf(pid, sizeof(pid), "%d", (int)s.loop.pid);
	at_start(&at, s.env->animtrace, args, s.loop.pid, E2E_ART);
	samples_add(&s.ns[heap ? HEAP : NO_HEAP], loop_ns(&s.loop, "start", n, false));
	bench_nap_ms(1100); /* one more stats line */
	at_stats(&at, &st);
	if (st.lost)
		bench_fail("animtrace lost %llu records", (unsigned long long)st.lost);
	at_stop(&at);
}

/* animtrace's start probe as bpftrace can have it, at every ValueAnimator.start address:
 * `this` and its lock word, and the object's first AT_ART_OBJ_BYTES bytes, into maps. */
static void bt_script(pid_t pid)
{
	FILE *f = bt_script_open(s.script, sizeof(s.script));

	if (!bt_points(f, &s.probes, s.oat, "art", AT_ART_VA_START))
		bench_fail("no ValueAnimator.start address in %s", s.oat);
	fprintf(f, " /pid == %d/ {\n"
		   "\t$o = arg1 & 0xffffffff;\n"
		   "\t@obj[tid] = (nsecs, $o, *(uint32 *)($o + %d));\n"
		   "\t@head[tid] = buf($o, %d);\n"
		   "\t@tail[tid] = buf($o + %d, %d);\n"
		   "\t@starts = count();\n"
		   "}\n",
		(int)pid, AT_ART_LOCK_WORD_OFF, BT_HALF, BT_HALF, BT_HALF);
	fclose(f);
}

static void way_bpftrace(unsigned long n)
{
	char strlen[32];
	const char *env[] = { strlen, NULL };
	struct bt_run bt;

	snprintf(strlen, sizeof(strlen), "BPFTRACE_STRLEN=%d", BT_HALF);
	bt_script(s.loop.pid);
	bt_start(&bt, s.script, s.loop.pid, NULL, env);
	samples_add(&s.ns[BPFTRACE], loop_ns(&s.loop, "start", n, false));
	bt_stop(&bt);
	bt_check_count(&bt, "starts", n, "start() calls");
}

static void run_way(int way, unsigned long n)
{
	if (way == NONE)
		samples_add(&s.ns[NONE], loop_ns(&s.loop, "start", n, false));
	else if (way == BPFTRACE)
		way_bpftrace(n);
	else
		way_animtrace(n, way == HEAP);
}

static void measure(void)
{
	loop_ns(&s.loop, "start", 100000, false); /* warm-up */
	ways_rotate(s.env->rounds, s.n_ways, s.env->calls / (unsigned long)s.env->rounds, run_way);
	helper_stop(&s.loop);
	if (s.n_ways <= BPFTRACE)
		peer_cannot("ValueAnimator.start call with a 256-byte copy of `this` (ns/call)",
			    "measured", PEER_MISSING);
	else
		peer_ratio("ValueAnimator.start call with a 256-byte copy of `this` (ns/call)",
			   samples_median(&s.ns[HEAP]), samples_median(&s.ns[BPFTRACE]), "ns",
			   "animtrace sends both records to its reader; bpftrace keeps the last copy "
			   "in maps (two 128-byte buf(), its limit being 200)");
}

static double med(int way)
{
	return samples_median(&s.ns[way]);
}

static void row(FILE *md, int way, const char *label)
{
	if (!s.ns[way].n) {
		fprintf(md, "| %s | %s | | |\n", label, PEER_MISSING);
		return;
	}
	fprintf(md, "| %s | %.2f | %.2f | ", label, med(way), samples_min(&s.ns[way]));
	samples_print(&s.ns[way], md, "%.2f");
	fputs(" |\n", md);
}

static void report(FILE *md)
{
	unsigned long per = s.env->calls / (unsigned long)s.env->rounds;

	fprintf(md, "Measured %s, load average at start %s, with %s. `bench/setter_loop LIBHWUI\n"
		    "OAT`, command `start N`: N calls of the fixture's `ValueAnimator.start`\n"
		    "through its two app-level callers, no marker; %lu calls per way in %d rounds\n"
		    "of %lu, the ways rotated. animtrace: `--pid PID --art-oat OAT\n"
		    "--no-atrace-setup --stats --buffer-size 64M --format json -o FILE` (the\n"
		    "default 256K ring lost records when this shared VM's load starved the\n"
		    "reader, and a probe whose reserve fails skips its copy), with `--no-heap` for the\n"
		    "start probe as it was (one %zu-byte record), without it for the probe that\n"
		    "also copies the animator's first %d bytes (a second %zu-byte record); every\n"
		    "round checked 0 records lost. The fixture's object is no real ValueAnimator:\n"
		    "the reader gives up on it at the first start (one line), so the rows measure\n"
		    "the probe, not the decoding.\n\n",
		s.date, s.load, s.env->animtrace, per * (unsigned long)s.env->rounds,
		s.env->rounds, per, sizeof(struct at_art_rec), AT_ART_OBJ_BYTES,
		sizeof(struct at_art_obj_rec));
	fprintf(md, "| way | median ns/call | best ns/call | per round (ns/call, run order) |\n"
		    "|---|---:|---:|---|\n");
	row(md, NONE, "start(), no probes");
	row(md, NO_HEAP, "start(), animtrace --no-heap (the probe before #24)");
	row(md, HEAP, "start(), animtrace (the probe and its copy of `this`)");
	row(md, BPFTRACE, "start(), bpftrace (`this`, its lock word and a copy of 256 bytes)");
	fprintf(md, "\nThe copy adds **%.0f ns** per start() over the probe without it, medians\n"
		    "(%.2fx); best rounds %.0f against %.0f ns. Where the rounds of one way spread\n"
		    "wider than that difference, the copy's cost is within this machine's noise.\n\n",
		med(HEAP) - med(NO_HEAP), med(HEAP) / med(NO_HEAP), samples_min(&s.ns[HEAP]),
		samples_min(&s.ns[NO_HEAP]));
	if (s.n_ways <= BPFTRACE) {
		fprintf(md, "bpftrace: %s.\n\n", PEER_MISSING);
		return;
	}
	fprintf(md, "bpftrace (%s, `bpftrace --unsafe -p PID SCRIPT`, BPFTRACE_STRLEN=%d),\n"
		    "started once per round and timed once it says its probes are attached, every\n"
		    "round checked to count N starts: animtrace / bpftrace **%.2f** (medians).\n"
		    "The same job but for the reader: animtrace's records go to its ring buffer\n"
		    "and are decoded; bpftrace keeps the last copy in its maps. Its script, as the\n"
		    "last round ran it:\n\n",
		peer_version(), BT_HALF, med(HEAP) / med(BPFTRACE));
	bt_print_script(md, s.script);
}

static void summary(FILE *out)
{
	fprintf(out, "bench: ValueAnimator.start ns/call (median): none %.2f, animtrace --no-heap "
		     "%.2f, animtrace %.2f (copy adds %.0f ns)\n",
		med(NONE), med(NO_HEAP), med(HEAP), med(HEAP) - med(NO_HEAP));
}

const struct bench bench_artstart = {
	.name = "artstart",
	.heading = "## The ValueAnimator.start probe with its copy of the animator (live)",
	.live = true,
	.setup = setup,
	.measure = measure,
	.report = report,
	.summary = summary,
};
