// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * setter_loop: the per-call cost of a RenderNode setter, probed or not, in one process.
 *
 *   setter_loop LIBHWUI [LIBANDROID_RUNTIME]
 *
 * dlopens the simulator's fixture libhwui.so (so the setter lives in a file-backed mapping a
 * uprobe can hit), creates one node, prints "ready <pid>" and then obeys stdin, one command
 * a line, so a driver can attach and detach probes between loops of the same process:
 *
 *   run N    N calls of setAlpha with alternating values (each one changes the value and
 *            returns true, so a return probe always reads the field); prints
 *            "ns_per_call <ns> calls <N> changed <count>"
 *   redraw N N calls of finishRecording(canvas, node), the display-list probe's function
 *   vsync N  N calls of nativeScheduleVsync (needs LIBANDROID_RUNTIME), the vsync probe's;
 *            both print "ns_per_call <ns> calls <N>"
 *   (EOF)    exit 0
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hwui_fixture.h"

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

static void run(hwui_setter set, int64_t node, unsigned long calls)
{
	/* Both inside alpha's clamp range [0, 1]: every call is a change. */
	static const float values[2] = { 0.25f, 0.75f };
	unsigned long changed = 0;
	unsigned long long t0, t1;

	t0 = now_ns();
	for (unsigned long i = 0; i < calls; i++)
		changed += set(node, values[i & 1]) != 0;
	t1 = now_ns();
	printf("ns_per_call %.2f calls %lu changed %lu\n",
	       calls ? (double)(t1 - t0) / (double)calls : 0.0, calls, changed);
	fflush(stdout);
}

/* --refresh's probed functions: entry probes only, nothing read at return. */
static void run_refresh(const struct hwui_fixture_methods *m,
			const struct runtime_fixture_methods *rt, int64_t node, bool vsync,
			unsigned long calls)
{
	unsigned long long t0, t1;

	t0 = now_ns();
	for (unsigned long i = 0; i < calls; i++) {
		if (vsync)
			rt->schedule_vsync(NULL, NULL, (int64_t)i);
		else
			m->finish_recording((int64_t)i, node);
	}
	t1 = now_ns();
	printf("ns_per_call %.2f calls %lu\n", calls ? (double)(t1 - t0) / (double)calls : 0.0,
	       calls);
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

int main(int argc, char **argv)
{
	const struct runtime_fixture_methods *rt = NULL;
	const struct hwui_fixture_methods *(*methods)(void);
	const struct hwui_fixture_methods *m;
	char line[128];
	int64_t node;
	void *lib;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: setter_loop LIBHWUI [LIBANDROID_RUNTIME]\n");
		return 2;
	}
	if (argc == 3 && !(rt = load_runtime(argv[2])))
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
	m = methods();
	node = m->create_node("com.example.bench.BenchView");
	if (!node) {
		fprintf(stderr, "setter_loop: cannot create a node\n");
		return 1;
	}
	/* Start from 1.0 so the first call (0.25) is a change too. */
	m->set[HWUI_ALPHA](node, 1.0f);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin)) {
		unsigned long calls;

		if (sscanf(line, "run %lu", &calls) == 1) {
			run(m->set[HWUI_ALPHA], node, calls);
		} else if (sscanf(line, "redraw %lu", &calls) == 1) {
			run_refresh(m, rt, node, false, calls);
		} else if (rt && sscanf(line, "vsync %lu", &calls) == 1) {
			run_refresh(m, rt, node, true, calls);
		} else {
			fprintf(stderr, "setter_loop: unknown command: %s", line);
			return 2;
		}
	}
	m->free_node(node);
	return 0;
}
