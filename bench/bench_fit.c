// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * bench_fit: what src/model/fit.c costs per animation run, offline (no root, no probes).
 *
 *   bench_fit [RUNS]
 *
 * Fits RUNS (default 200) synthetic runs of each kind, made the way the framework computes
 * them (tests/unit/fit_sim.h, +-1 ms frame jitter): springs over every stiffness x damping
 * constant at 60/90/120 Hz, flings of friction 0.5/1/2, and ValueAnimators over the ten
 * interpolators (300 ms at 60 Hz, 250 ms at 120 Hz), the last also through
 * fit_interpolator. Each run is fitted 3 times and its best time kept (the cost, not the
 * machine's noise); prints one markdown table row per kind with the median and 90th
 * percentile in microseconds over the runs, and how many came out as the right kind.
 */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/fit.h"
#include "fit_sim.h"

#define MAX_RUNS 10000

static struct fit_sample buf[SIM_MAX];
static double us[MAX_RUNS];
static size_t frames[MAX_RUNS];

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* Synthesises run i of a kind into buf; returns its length. */
static size_t make_run(int kind, int i, struct sim_markers *mk)
{
	static const float k[] = { 10000, 1500, 200, 50 }, z[] = { 0.2f, 0.5f, 0.75f, 1 };
	static const float scalar[] = { 0.5f, 1, 2 }, v0[] = { 2000, -3000 };
	static const double hz[] = { 60, 90, 120 };
	struct sim_clock c = sim_clock_at(hz[i % 3], 1, 0, (uint64_t)(kind * MAX_RUNS + i + 1));

	if (kind == FIT_SPRING) {
		struct sim_spring sp = { k[i / 3 % 4], z[i / 12 % 4], 0, 300, 0, SIM_PIXELS };

		return sim_spring(&sp, &c, buf, SIM_MAX);
	}
	if (kind == FIT_FLING) {
		struct sim_fling f = { scalar[i / 3 % 3], 100, v0[i / 9 % 2], -FLT_MAX, FLT_MAX,
				       SIM_PIXELS };

		return sim_fling(&f, &c, buf, SIM_MAX);
	}
	c = sim_clock_at(i % 2 ? 120 : 60, 1, 0, (uint64_t)(kind * MAX_RUNS + i + 1));
	return sim_animator(sim_interps[i / 2 % SIM_N_INTERPS].fn, 0, 300, i % 2 ? 250 : 300, &c,
			    buf, SIM_MAX, mk);
}

/* Best of 3 of one fit of buf[0..n), in us; *right: it came out as `kind` (and `want`). */
static double time_fit(int kind, bool marked, size_t n, const struct sim_markers *mk,
		       const char *want, bool *right)
{
	double best = INFINITY;

	for (int rep = 0; rep < 3; rep++) {
		struct fit_result r;
		const char *name = NULL;
		double t0 = now_us(), t;

		if (marked)
			fit_interpolator(buf, n, mk->s_ns, mk->f_ns - mk->s_ns, 0, 300, &name,
					 NULL);
		else
			fit_run(buf, n, &r);
		t = now_us() - t0;
		best = t < best ? t : best;
		if (marked)
			*right = !strcmp(name, want);
		else
			*right = (int)r.kind == kind &&
				 (kind != FIT_INTERPOLATED || !strcmp(r.interpolator, want));
	}
	return best;
}

static void bench(const char *label, int kind, bool marked, int runs)
{
	int right = 0;

	for (int i = 0; i < runs; i++) {
		const char *want = sim_interps[i / 2 % SIM_N_INTERPS].name;
		struct sim_markers mk = { 0 };
		bool ok;

		frames[i] = make_run(kind, i, &mk);
		us[i] = time_fit(kind, marked, frames[i], &mk, want, &ok);
		right += ok;
	}
	qsort(us, (size_t)runs, sizeof(*us), cmp_double);
	qsort(frames, (size_t)runs, sizeof(*frames), cmp_size);
	printf("| %s | %d | %zu | %.1f | %.1f | %d |\n", label, runs, frames[runs / 2],
	       us[runs / 2], us[runs * 9 / 10], right);
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 200;

	if (runs < 1 || runs > MAX_RUNS) {
		fprintf(stderr, "usage: bench_fit [RUNS]  (1..%d)\n", MAX_RUNS);
		return 2;
	}
	printf("| run | runs | frames (median) | median (us) | p90 (us) | right kind |\n");
	printf("|---|---:|---:|---:|---:|---:|\n");
	bench("spring, fit_run", FIT_SPRING, false, runs);
	bench("fling, fit_run", FIT_FLING, false, runs);
	bench("ValueAnimator, fit_run", FIT_INTERPOLATED, false, runs);
	bench("ValueAnimator, fit_interpolator", FIT_INTERPOLATED, true, runs);
	return 0;
}
