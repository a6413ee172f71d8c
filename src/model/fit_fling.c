// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * DragForce fits (see fit_fling.h): a grid over the friction, then Levenberg-Marquardt on
 * its log with the velocity projected out.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "model/fit_fling.h"

/* ---- fling ----------------------------------------------------------------------------- */

/* x(t) = x0 + c (e^(f t) - 1), c = v0 / f: DragForce composed over frames. c is linear. */
static double fling_project(const struct series *d, size_t m, double f, double *c, double *r)
{
	double sgg = 0, sgy = 0, x0 = d->y[0];

	for (size_t i = 0; i < m; i++) {
		r[i] = expm1(f * d->t[i]);
		sgg += r[i] * r[i];
		sgy += r[i] * (d->y[i] - x0);
	}
	*c = sgg > 0 ? sgy / sgg : 0;
	for (size_t i = 0; i < m; i++)
		r[i] = x0 + *c * r[i] - d->y[i];
	return sumsq(r, m);
}

struct fling_ctx {
	const struct series *d;
	size_t m;
};

static void fling_resid(const double *p, double *r, const void *ctx)
{
	const struct fling_ctx *fc = ctx;
	double c;

	fling_project(fc->d, fc->m, -exp(p[0]), &c, r);
}

/*
 * A fling only slows down: every frame moves the same way, and the second half of the run
 * (by time) covers less per ms than the first. Not per frame: a frame time off by a ms
 * changes one interval's speed by more than the friction does.
 */
static bool fling_decelerates(const struct series *d, size_t m)
{
	double dir = d->y[m - 1] > d->y[0] ? 1 : -1, tol = 1e-6 * (d->hi - d->lo);
	double end = d->t[m - 1];
	size_t h = 0; /* the last sample of the first half */

	if (d->y[m - 1] == d->y[0])
		return false;
	for (size_t i = 1; i < m; i++) {
		if ((d->y[i] - d->y[i - 1]) * dir < -tol)
			return false;
		if (d->t[i] <= end / 2)
			h = i;
	}
	if (h == 0 || h == m - 1)
		return true; /* too few frames to compare halves */
	return (d->y[h] - d->y[0]) * dir / d->t[h] >
	       (d->y[m - 1] - d->y[h]) * dir / (end - d->t[h]);
}

#define FLING_F_LO 0.1 /* |friction| bounds, 1/s: scalars 0.024 .. 95 */
#define FLING_F_HI 400.0

static void fling_fit_m(const struct series *d, size_t m, struct fling_fit *out)
{
	struct fling_ctx fc = { d, m };
	struct lm lm = { .f = fling_resid,
			 .ctx = &fc,
			 .n = m,
			 .np = 1,
			 .lo = { log(FLING_F_LO) },
			 .hi = { log(FLING_F_HI) },
			 .h = { 1e-6 } };
	double r[MAXN], c, best = INFINITY, p[LM_MAXP] = { 0 };

	for (double f = FLING_F_LO; f <= FLING_F_HI; f *= 1.5) {
		double cost = fling_project(d, m, -f, &c, r);

		if (cost < best) {
			best = cost;
			p[0] = log(f);
		}
	}
	out->rss = lm_solve(&lm, p, 30);
	out->f = -exp(p[0]);
	fling_project(d, m, out->f, &out->c, r);
	out->m = m;
	out->ok = isfinite(out->rss) && -out->f > FLING_F_LO * 1.05 &&
		  -out->f < FLING_F_HI / 1.05 && fling_decelerates(d, m);
}

/*
 * Without the caller's bounds, a clamp shows as a last sample short of the curve the others
 * follow, still moving the same way: min/max cut the step, not the friction.
 */
static bool fling_clamped(const struct series *d, const struct fling_fit *cut)
{
	size_t n = d->n;
	double dir = d->y[n - 2] > d->y[0] ? 1 : -1;
	double pred = d->y[0] + cut->c * expm1(cut->f * d->t[n - 1]);
	double e = (d->y[n - 1] - pred) * dir, rms_cut = sqrt(cut->rss / (double)cut->m);

	return cut->ok && n >= 5 && e < -(4 * rms_cut + 1e-6 * (d->hi - d->lo)) &&
	       (d->y[n - 1] - d->y[n - 2]) * dir >= 0;
}

void fling_fit(const struct series *d, const struct fit_bounds *b, struct fling_fit *out)
{
	double last = d->y[d->n - 1], eps = 1e-6 * (d->hi - d->lo);
	struct fling_fit cut;

	if (b && (fabs(last - b->min) <= eps || fabs(last - b->max) <= eps)) {
		fling_fit_m(d, d->n - 1, out);
		out->at_bound = true;
		return;
	}
	fling_fit_m(d, d->n, out);
	out->at_bound = false;
	if (d->n < 5)
		return;
	fling_fit_m(d, d->n - 1, &cut);
	if (fling_clamped(d, &cut)) {
		*out = cut;
		out->at_bound = true;
	}
}
