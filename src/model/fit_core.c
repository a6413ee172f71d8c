// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The series of one run and the least-squares solver the model fits share (see fit_core.h).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "model/fit_core.h"

/* ---- samples --------------------------------------------------------------------------- */

int check_samples(const struct fit_sample *s, size_t n)
{
	if (!s || n < 3)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(s[i].v) || (i && s[i].t_ns < s[i - 1].t_ns))
			return -EINVAL;
	}
	/* On the whole-ms clock the run must last at least one tick. */
	if (s[n - 1].t_ns / 1000000 <= s[0].t_ns / 1000000)
		return -EINVAL;
	return 0;
}

/* Evenly spread picks that keep the last two samples: a fling's clamp and an animator's
 * duration are read from them. */
static size_t pick(size_t k, size_t n, size_t m)
{
	if (n <= m)
		return k;
	if (k == m - 1)
		return n - 1;
	return (size_t)((double)k * (double)(n - 2) / (double)(m - 2) + 0.5);
}

/* Median, not mean: one long frame (jank) must not stretch the frame interval. */
static double median_interval(const struct series *d)
{
	double v[MAXN];
	size_t m = d->n - 1;

	for (size_t i = 0; i < m; i++) {
		double x = d->t[i + 1] - d->t[i];
		size_t j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return v[m / 2] > 0 ? v[m / 2] : 1e-3;
}

/* Times relative to origin_ms, rounded down to whole ms as frameTimeNanos / 1000000 is. */
void series_load(const struct fit_sample *s, size_t n, int64_t origin_ms, struct series *d)
{
	size_t m = n < MAXN ? n : MAXN;

	d->n = m;
	d->lo = INFINITY;
	d->hi = -INFINITY;
	for (size_t k = 0; k < m; k++) {
		size_t i = pick(k, n, m);

		d->t[k] = (double)((int64_t)(s[i].t_ns / 1000000) - origin_ms) / 1e3;
		d->y[k] = s[i].v;
		d->lo = fmin(d->lo, d->y[k]);
		d->hi = fmax(d->hi, d->y[k]);
	}
	d->dt = median_interval(d);
}

/* A cheaper copy of at most m points for the seed grids (first and last two kept). */
void series_decimate(const struct series *d, struct series *g, size_t m)
{
	size_t k, n = d->n < m ? d->n : m;

	for (k = 0; k < n; k++) {
		size_t i = pick(k, d->n, n);

		g->t[k] = d->t[i];
		g->y[k] = d->y[i];
	}
	g->n = n;
	g->dt = d->dt;
	g->lo = d->lo;
	g->hi = d->hi;
}

/* ---- least squares --------------------------------------------------------------------- */

/* Gaussian elimination with partial pivoting; a and b are overwritten. */
int solve_small(int np, double a[LM_MAXP][LM_MAXP], double *b)
{
	for (int c = 0; c < np; c++) {
		int piv = c;

		for (int r = c + 1; r < np; r++)
			if (fabs(a[r][c]) > fabs(a[piv][c]))
				piv = r;
		if (!(fabs(a[piv][c]) > 1e-300))
			return -1;
		for (int k = 0; k < np; k++) {
			double t = a[c][k];

			a[c][k] = a[piv][k];
			a[piv][k] = t;
		}
		double t = b[c];

		b[c] = b[piv];
		b[piv] = t;
		for (int r = c + 1; r < np; r++) {
			double f = a[r][c] / a[c][c];

			for (int k = c; k < np; k++)
				a[r][k] -= f * a[c][k];
			b[r] -= f * b[c];
		}
	}
	for (int c = np - 1; c >= 0; c--) {
		for (int k = c + 1; k < np; k++)
			b[c] -= a[c][k] * b[k];
		b[c] /= a[c][c];
	}
	return 0;
}

static void lm_jacobian(const struct lm *m, const double *p, const double *r,
			double J[LM_MAXP][MAXN])
{
	for (int j = 0; j < m->np; j++) {
		double q[LM_MAXP], h = m->h[j];

		memcpy(q, p, sizeof(q));
		if (q[j] + h > m->hi[j])
			h = -h;
		q[j] += h;
		m->f(q, J[j], m->ctx);
		for (size_t i = 0; i < m->n; i++)
			J[j][i] = (J[j][i] - r[i]) / h;
	}
}

/* Raises lambda until a step lowers the cost (Marquardt's diagonal scaling); false if none. */
static bool lm_step(const struct lm *m, double A[LM_MAXP][LM_MAXP], const double *g, double *p,
		    double *r, double *cost, double *lambda)
{
	double pt[LM_MAXP], rt[MAXN];

	for (; *lambda < 1e12; *lambda *= 4) {
		double M[LM_MAXP][LM_MAXP], d[LM_MAXP], c;

		for (int j = 0; j < m->np; j++) {
			memcpy(M[j], A[j], sizeof(M[j]));
			M[j][j] += *lambda * (A[j][j] > 0 ? A[j][j] : 1e-12);
			d[j] = -g[j];
		}
		if (solve_small(m->np, M, d))
			continue;
		for (int j = 0; j < m->np; j++)
			pt[j] = clamp(p[j] + d[j], m->lo[j], m->hi[j]);
		m->f(pt, rt, m->ctx);
		c = sumsq(rt, m->n);
		if (c < *cost) {
			memcpy(p, pt, sizeof(pt));
			memcpy(r, rt, m->n * sizeof(*r));
			*cost = c;
			*lambda = fmax(*lambda * 0.3, 1e-12);
			return true;
		}
	}
	return false;
}

/* Minimises the sum of squared residuals from p (clamped into the box); returns it. */
double lm_solve(const struct lm *m, double *p, int iters)
{
	double r[MAXN], J[LM_MAXP][MAXN], lambda = 1e-3, cost;

	for (int j = 0; j < m->np; j++)
		p[j] = clamp(p[j], m->lo[j], m->hi[j]);
	m->f(p, r, m->ctx);
	cost = sumsq(r, m->n);
	for (int it = 0; it < iters && cost > 0 && isfinite(cost); it++) {
		double A[LM_MAXP][LM_MAXP] = { { 0 } }, g[LM_MAXP] = { 0 }, before = cost;

		lm_jacobian(m, p, r, J);
		for (int j = 0; j < m->np; j++) {
			for (int k = 0; k < m->np; k++)
				for (size_t i = 0; i < m->n; i++)
					A[j][k] += J[j][i] * J[k][i];
			for (size_t i = 0; i < m->n; i++)
				g[j] += J[j][i] * r[i];
		}
		if (!lm_step(m, A, g, p, r, &cost, &lambda) || before - cost < 1e-9 * before)
			break;
	}
	return cost;
}
