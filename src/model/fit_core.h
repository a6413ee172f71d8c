/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the model fits of model/fit.c share (internal to fit*.c): the samples of one run as a
 * series (at most FIT_MAX_SAMPLES, times in s on the animation clocks' whole-ms grid), and a
 * small box-constrained Levenberg-Marquardt least-squares solver. Pure numerics: no I/O, no
 * allocation, no state.
 */
#ifndef ANIMTRACE_FIT_CORE_H
#define ANIMTRACE_FIT_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/fit.h"

#define MAXN FIT_MAX_SAMPLES
#define LM_MAXP 2 /* nonlinear parameters of the largest model (spring: w0, z) */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct series {
	size_t n;
	double t[MAXN]; /* s since the origin, on the animation clocks' whole-ms grid */
	double y[MAXN];
	double dt;     /* median frame interval, s */
	double lo, hi; /* value range */
};

static inline double clamp(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static inline double sumsq(const double *r, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += r[i] * r[i];
	return s;
}

/* 0 when s holds n >= 3 finite samples in time order lasting at least a whole ms; -EINVAL. */
int check_samples(const struct fit_sample *s, size_t n);

/* d from at most MAXN of the n samples, evenly spread, the last two kept; times relative to
 * origin_ms, rounded down to whole ms as frameTimeNanos / 1000000 is. */
void series_load(const struct fit_sample *s, size_t n, int64_t origin_ms, struct series *d);

/* A cheaper copy of at most m points of d into g for the seed grids (first and last two kept). */
void series_decimate(const struct series *d, struct series *g, size_t m);

/* Solves a x = b for np <= LM_MAXP unknowns into b (a and b are overwritten): Gaussian
 * elimination with partial pivoting. 0, or -1 when a is singular. */
int solve_small(int np, double a[LM_MAXP][LM_MAXP], double *b);

/* r[i] = model(p, t[i]) - y[i]; ctx is the model's. */
typedef void (*lm_resid)(const double *p, double *r, const void *ctx);

struct lm {
	lm_resid f;
	const void *ctx;
	size_t n;
	int np;
	double lo[LM_MAXP], hi[LM_MAXP]; /* box: steps are clamped into it */
	double h[LM_MAXP];		 /* forward-difference step */
};

/*
 * Minimises the sum of squared residuals of m from p (clamped into m's box) over at most
 * iters iterations; p gets the best point. Returns that sum.
 */
double lm_solve(const struct lm *m, double *p, int iters);

#endif
