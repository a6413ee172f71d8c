// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * setter_loop: the per-call cost of a RenderNode setter, probed or not, in one process.
 *
 *   setter_loop LIBHWUI [OAT] [LIBANDROID_RUNTIME]   (told apart by their names)
 *
 * dlopens the simulator's fixture libhwui.so (so the setter lives in a file-backed mapping a
 * uprobe can hit), creates one node, prints "ready <pid>" and then obeys stdin, one command
 * a line, so a driver can attach and detach probes between loops of the same process:
 *
 *   run N         N calls of setAlpha with alternating values (each one changes the value
 *                 and returns true, so a return probe always reads the field); prints
 *                 "ns_per_call <ns> calls <N> changed <count> cpu_ns_per_call <ns>", the
 *                 last the thread's CPU time (CLOCK_THREAD_CPUTIME_ID)
 *   animate N     (OAT given) N calls of the ART fixture's ValueAnimator.animateValue on one
 *                 animator object, no update listener; prints "ns_per_call <ns> calls <N>"
 *   start N       (OAT given) N calls of ValueAnimator.start() on it (through its app-level
 *                 callers, no S marker); prints "ns_per_call <ns> calls <N>"
 *   attributed N  (OAT given) the animator's frame as a listener animator runs it:
 *                 S|pid|animator|cookie, one animateValue whose update listener makes the
 *                 N setAlpha calls of `run N` (timed alone), F|pid|animator|cookie; every
 *                 write is then the animator's for animtrace's exact attribution. Prints
 *                 "ns_per_call <ns> calls <N> changed <count> cookie <cookie>"
 *   redraw N      N calls of finishRecording(canvas, node), the display-list probe's function
 *   vsync N       (LIBANDROID_RUNTIME given) N calls of nativeScheduleVsync, the vsync
 *                 probe's; both print "ns_per_call <ns> calls <N>"
 *   (EOF)         exit 0
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "art_fixture.h"
#include "dyn_fixture.h"
#include "hwui_fixture.h"

/* The animator's identity hash (< 2^28): the cookie of its S/F markers. */
#define BENCH_COOKIE 0x0bec4a1

struct art_bench {
	const struct art_fixture_methods *m;
	uint32_t obj;
	const struct dyn_fixture_methods *dyn; /* the framework's DynamicAnimation, if there */
	uint32_t dyn_obj;
	int marker_fd;
};

/* One timed loop of setter calls, run directly or from inside animateValue. */
struct sets {
	hwui_setter set;
	int64_t node;
	unsigned long calls;
	unsigned long changed;
	unsigned long long ns;
};

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

static double per_call(unsigned long long ns, unsigned long calls)
{
	return calls ? (double)ns / (double)calls : 0.0;
}

/* An art_update_fn: the loop itself, timed without the animateValue around it. */
static void sets_run(void *ctx)
{
	/* Both inside alpha's clamp range [0, 1]: every call is a change. */
	static const float values[2] = { 0.25f, 0.75f };
	struct sets *s = ctx;
	unsigned long long t0;

	s->changed = 0;
	t0 = now_ns();
	for (unsigned long i = 0; i < s->calls; i++)
		s->changed += s->set(s->node, values[i & 1]) != 0;
	s->ns = now_ns() - t0;
}

/* This thread's CPU time: the calls and their traps, without the waits for a CPU. */
static unsigned long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

static void run(hwui_setter set, int64_t node, unsigned long calls)
{
	struct sets s = { set, node, calls, 0, 0 };
	unsigned long long c0 = cpu_ns();

	sets_run(&s);
	c0 = cpu_ns() - c0;
	printf("ns_per_call %.2f calls %lu changed %lu cpu_ns_per_call %.2f\n",
	       per_call(s.ns, calls), calls, s.changed, per_call(c0, calls));
	fflush(stdout);
}

static void animate(const struct art_bench *a, unsigned long calls)
{
	unsigned long long t0 = now_ns();

	for (unsigned long i = 0; i < calls; i++)
		a->m->animate_value(a->obj, 0, NULL, NULL);
	printf("ns_per_call %.2f calls %lu\n", per_call(now_ns() - t0, calls), calls);
	fflush(stdout);
}

static bool no_step(void *ctx, long dt_ms)
{
	(void)ctx;
	(void)dt_ms;
	return false;
}

/* N calls of DynamicAnimation.doAnimationFrame (the per-frame DynamicAnimation probe), one
 * ms apart, with a step that writes nothing. */
static void dyn_frames(const struct art_bench *a, unsigned long calls)
{
	static int64_t ms = 1000;
	unsigned long long t0 = now_ns();

	for (unsigned long i = 0; i < calls; i++)
		a->dyn->frame(a->dyn_obj, ms++, no_step, NULL);
	printf("ns_per_call %.2f calls %lu\n", per_call(now_ns() - t0, calls), calls);
	fflush(stdout);
}

static void start(const struct art_bench *a, unsigned long calls)
{
	unsigned long long t0 = now_ns();

	for (unsigned long i = 0; i < calls; i++)
		a->m->call[ART_CALL_START](a->obj);
	printf("ns_per_call %.2f calls %lu\n", per_call(now_ns() - t0, calls), calls);
	fflush(stdout);
}

static int marker(const struct art_bench *a, char kind)
{
	char buf[64];
	int n = snprintf(buf, sizeof(buf), "%c|%d|animator|%d", kind, (int)getpid(),
			 BENCH_COOKIE);

	return write(a->marker_fd, buf, (size_t)n) == n ? 0 : -1;
}

static int attributed(const struct art_bench *a, hwui_setter set, int64_t node,
		      unsigned long calls)
{
	struct sets s = { set, node, calls, 0, 0 };

	if (marker(a, 'S'))
		return -1;
	a->m->animate_value(a->obj, 0, sets_run, &s);
	if (marker(a, 'F'))
		return -1;
	printf("ns_per_call %.2f calls %lu changed %lu cookie %d\n", per_call(s.ns, calls),
	       calls, s.changed, BENCH_COOKIE);
	fflush(stdout);
	return 0;
}

/* The ART fixture and a trace_marker fd for the animator's S/F markers. */
static int art_open(const char *path, struct art_bench *a)
{
	const struct art_fixture_methods *(*methods)(void);
	const struct dyn_fixture_methods *(*dyn)(void);
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (!lib) {
		fprintf(stderr, "setter_loop: %s\n", dlerror());
		return -1;
	}
	*(void **)&methods = dlsym(lib, "art_fixture_methods");
	if (!methods) {
		fprintf(stderr, "setter_loop: %s: no art_fixture_methods\n", path);
		return -1;
	}
	a->m = methods();
	a->obj = a->m->new_object(BENCH_COOKIE);
	*(void **)&dyn = dlsym(lib, "dyn_fixture_framework");
	a->dyn = dyn ? dyn() : NULL;
	a->dyn_obj = a->dyn ? a->dyn->new_object() : 0;
	if (!a->obj) {
		fprintf(stderr, "setter_loop: no animator object: %s\n", strerror(errno));
		return -1;
	}
	a->marker_fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY | O_CLOEXEC);
	if (a->marker_fd < 0)
		a->marker_fd = open("/sys/kernel/debug/tracing/trace_marker", O_WRONLY | O_CLOEXEC);
	if (a->marker_fd < 0) {
		fprintf(stderr, "setter_loop: no trace_marker: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* --refresh's probed functions: entry probes only, nothing read at return. */
static void run_refresh(const struct hwui_fixture_methods *m,
			const struct runtime_fixture_methods *rt, int64_t node, bool vsync,
			unsigned long calls)
{
	unsigned long long t0 = now_ns();

	for (unsigned long i = 0; i < calls; i++) {
		if (vsync)
			rt->schedule_vsync(NULL, NULL, (int64_t)i);
		else
			m->finish_recording((int64_t)i, node);
	}
	printf("ns_per_call %.2f calls %lu\n", per_call(now_ns() - t0, calls), calls);
	fflush(stdout);
}

/* The vsync request's table from the fixture libandroid_runtime.so; NULL without one. */
static const struct runtime_fixture_methods *load_runtime(const char *path)
{
	const struct runtime_fixture_methods *(*methods)(void);
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (!lib) {
		fprintf(stderr, "setter_loop: %s\n", dlerror());
		return NULL;
	}
	*(void **)&methods = dlsym(lib, "runtime_fixture_methods");
	if (!methods)
		fprintf(stderr, "setter_loop: %s: no runtime_fixture_methods\n", path);
	return methods ? methods() : NULL;
}

struct loop {
	const struct hwui_fixture_methods *m;
	const struct runtime_fixture_methods *rt; /* NULL without LIBANDROID_RUNTIME */
	struct art_bench art;
	int64_t node;
};

/* One command line; 0 to go on, else the exit status. */
static int command(const char *line, const struct loop *l)
{
	const struct art_bench *a = &l->art;
	hwui_setter set = l->m->set[HWUI_ALPHA];
	int64_t node = l->node;
	unsigned long calls;

	if (sscanf(line, "redraw %lu", &calls) == 1) {
		run_refresh(l->m, l->rt, node, false, calls);
		return 0;
	}
	if (l->rt && sscanf(line, "vsync %lu", &calls) == 1) {
		run_refresh(l->m, l->rt, node, true, calls);
		return 0;
	}
	if (sscanf(line, "run %lu", &calls) == 1) {
		run(set, node, calls);
		return 0;
	}
	if (a->m && sscanf(line, "animate %lu", &calls) == 1) {
		animate(a, calls);
		return 0;
	}
	if (a->dyn_obj && sscanf(line, "dynframe %lu", &calls) == 1) {
		dyn_frames(a, calls);
		return 0;
	}
	if (a->m && sscanf(line, "start %lu", &calls) == 1) {
		start(a, calls);
		return 0;
	}
	if (a->m && sscanf(line, "attributed %lu", &calls) == 1) {
		if (!attributed(a, set, node, calls))
			return 0;
		fprintf(stderr, "setter_loop: writing trace_marker: %s\n", strerror(errno));
		return 1;
	}
	fprintf(stderr, "setter_loop: unknown command: %s", line);
	return 2;
}

/* The optional arguments after LIBHWUI, by what their names say they are. */
static int open_extras(int argc, char **argv, struct loop *l)
{
	for (int i = 2; i < argc; i++) {
		size_t n = strlen(argv[i]);

		if (n > 4 && !strcmp(argv[i] + n - 4, ".oat")) {
			if (art_open(argv[i], &l->art))
				return -1;
		} else if (!(l->rt = load_runtime(argv[i]))) {
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct hwui_fixture_methods *(*methods)(void);
	struct loop l = { .art = { .marker_fd = -1 } };
	char line[128];
	void *lib;
	int ret = 0;

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: setter_loop LIBHWUI [OAT] [LIBANDROID_RUNTIME]\n");
		return 2;
	}
	if (open_extras(argc, argv, &l))
		return 1;
	lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "setter_loop: %s\n", dlerror());
		return 1;
	}
	*(void **)&methods = dlsym(lib, "hwui_fixture_methods");
	if (!methods) {
		fprintf(stderr, "setter_loop: %s: no hwui_fixture_methods\n", argv[1]);
		return 1;
	}
	l.m = methods();
	l.node = l.m->create_node("com.example.bench.BenchView");
	if (!l.node) {
		fprintf(stderr, "setter_loop: cannot create a node\n");
		return 1;
	}
	/* Start from 1.0 so the first call (0.25) is a change too. */
	l.m->set[HWUI_ALPHA](l.node, 1.0f);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (!ret && fgets(line, sizeof(line), stdin))
		ret = command(line, &l);
	l.m->free_node(l.node);
	return ret;
}
