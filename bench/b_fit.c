// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fitting cost (offline): what src/model/fit.c costs per animation run, no root, no probes.
 * Synthetic runs of each kind, made the way the framework computes them
 * (tests/unit/fit_sim.h), are fitted 3 times each and the best time kept (the cost, not the
 * machine's noise); the table has the median and 90th percentile over the runs.
 */
#include <float.h>
#include <string.h>

#include "bench.h"
#include "fit_sim.h"
#include "model/fit.h"
#include "stats.h"

#define RUNS 200
#define REPS 3

enum { SPRING, FLING, ANIMATOR, INTERPOLATOR, N_ROWS };

static const struct {
	const char *label;
	int kind;
	bool marked; /* fit_interpolator: start, duration and from/to known */
} rows[N_ROWS] = {
	{ "spring, fit_run", FIT_SPRING, false },
	{ "fling, fit_run", FIT_FLING, false },
	{ "ValueAnimator, fit_run", FIT_INTERPOLATED, false },
	{ "ValueAnimator, fit_interpolator", FIT_INTERPOLATED, true },
};

static struct {
	struct samples us[N_ROWS], frames[N_ROWS];
	int right[N_ROWS];
} f;

static struct fit_sample buf[SIM_MAX];

/* Synthesises run i of a kind into buf; returns its length. */
static size_t make_run(int kind, int i, struct sim_markers *mk)
{
	static const float k[] = { 10000, 1500, 200, 50 }, z[] = { 0.2f, 0.5f, 0.75f, 1 };
	static const float scalar[] = { 0.5f, 1, 2 }, v0[] = { 2000, -3000 };
	static const double hz[] = { 60, 90, 120 };
	struct sim_clock c = sim_clock_at(hz[i % 3], 1, 0, (uint64_t)(kind * 10000 + i + 1));

	if (kind == FIT_SPRING) {
		struct sim_spring sp = { k[i / 3 % 4], z[i / 12 % 4], 0, 300, 0, SIM_PIXELS };

		return sim_spring(&sp, &c, buf, SIM_MAX);
	}
	if (kind == FIT_FLING) {
		struct sim_fling fl = { scalar[i / 3 % 3], 100, v0[i / 9 % 2], -FLT_MAX, FLT_MAX,
					SIM_PIXELS };

		return sim_fling(&fl, &c, buf, SIM_MAX);
	}
	c = sim_clock_at(i % 2 ? 120 : 60, 1, 0, (uint64_t)(kind * 10000 + i + 1));
	return sim_animator(sim_interps[i / 2 % SIM_N_INTERPS].fn, 0, 300, i % 2 ? 250 : 300, &c,
			    buf, SIM_MAX, mk);
}

/* Best of REPS fits of buf[0..n), in us; *right: it came out as the row's kind (and want). */
static double time_fit(int row, size_t n, const struct sim_markers *mk, const char *want,
		       bool *right)
{
	int kind = rows[row].kind;
	double best = INFINITY;

	for (int rep = 0; rep < REPS; rep++) {
		struct fit_result res;
		const char *name = NULL;
		uint64_t t0 = bench_now_ns();
		double us;

		if (rows[row].marked)
			fit_interpolator(buf, n, mk->s_ns, mk->f_ns - mk->s_ns, 0, 300, &name,
					 NULL);
		else
			fit_run(buf, n, &res);
		us = (double)(bench_now_ns() - t0) / 1e3;
		best = us < best ? us : best;
		if (rows[row].marked)
			*right = !strcmp(name, want);
		else
			*right = (int)res.kind == kind &&
				 (kind != FIT_INTERPOLATED || !strcmp(res.interpolator, want));
	}
	return best;
}

static void setup(const struct bench_env *env)
{
}

static void measure(void)
{
	for (int row = 0; row < N_ROWS; row++) {
		for (int i = 0; i < RUNS; i++) {
			const char *want = sim_interps[i / 2 % SIM_N_INTERPS].name;
			struct sim_markers mk = { 0 };
			size_t n = make_run(rows[row].kind, i, &mk);
			bool ok;

			samples_add(&f.frames[row], (double)n);
			samples_add(&f.us[row], time_fit(row, n, &mk, want, &ok));
			f.right[row] += ok;
		}
	}
}

static void report(FILE *md)
{
	fprintf(md, "`bench --only fit` fits %d synthetic runs of each kind, computed the way\n"
		    "the framework computes them (`tests/unit/fit_sim.h`, +-1 ms frame jitter):\n"
		    "springs over every stiffness x damping constant at 60/90/120 Hz (0 -> 300\n"
		    "px), flings of friction 0.5/1/2 from 2000 and -3000 px/s, ValueAnimators\n"
		    "over the ten interpolators (300 ms at 60 Hz, 250 ms at 120 Hz), the last\n"
		    "once more through `fit_interpolator` (start, duration and from/to known).\n"
		    "Each run is fitted %d times and its best time kept; the table has the\n"
		    "median and 90th percentile over the runs, in microseconds on one core, and\n"
		    "how many came out as the right kind (and name).\n\n",
		RUNS, REPS);
	fprintf(md, "| run | runs | frames (median) | median (us) | p90 (us) | right kind |\n"
		    "|---|---:|---:|---:|---:|---:|\n");
	for (int row = 0; row < N_ROWS; row++)
		fprintf(md, "| %s | %d | %.0f | %.1f | %.1f | %d |\n", rows[row].label, RUNS,
			samples_pct(&f.frames[row], 50), samples_pct(&f.us[row], 50),
			samples_pct(&f.us[row], 90), f.right[row]);
	fputc('\n', md);
}

static void summary(FILE *out)
{
	fprintf(out, "bench: fit_run median us per run: spring %.1f, fling %.1f, ValueAnimator "
		     "%.1f; fit_interpolator %.1f\n",
		samples_pct(&f.us[SPRING], 50), samples_pct(&f.us[FLING], 50),
		samples_pct(&f.us[ANIMATOR], 50), samples_pct(&f.us[INTERPOLATOR], 50));
}

const struct bench bench_fit = {
	.name = "fit",
	.heading = "## Fitting cost (offline)",
	.setup = setup,
	.measure = measure,
	.report = report,
	.summary = summary,
};
