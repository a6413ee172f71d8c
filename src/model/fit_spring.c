// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * SpringForce fits (see fit_spring.h): a seed grid and a seed from the zero crossings, then
 * Levenberg-Marquardt over (log w, log z) with the linear parameters projected out.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "model/fit_spring.h"

/* ---- spring ---------------------------------------------------------------------------- */

/*
 * x(t) - xf = (x0 - xf) c(t) + b s(t) with b = v0 + z w (x0 - xf): SpringForce.updateValues'
 * three branches in one form. Near z = 1 (|q t| small) the series of cos/cosh and sin/sinh
 * join them smoothly, so the fit can cross from under- to over-damped.
 */
static void spring_basis(double w, double z, double t, double *c, double *s)
{
	double zw = z * w, q2 = w * w * (z * z - 1), x = q2 * t * t;

	if (fabs(x) < 1e-4) {
		double e = exp(-zw * t);

		*c = e * (1 + x / 2 + x * x / 24);
		*s = e * t * (1 + x / 6 + x * x / 120);
	} else if (x < 0) {
		double q = sqrt(-q2), e = exp(-zw * t);

		*c = e * cos(q * t);
		*s = e * sin(q * t) / q;
	} else {
		/* Both modes as exponentials: cosh alone would overflow for a stiff spring. */
		double q = sqrt(q2), ep = exp((q - zw) * t), em = exp((-q - zw) * t);

		*c = (ep + em) / 2;
		*s = (ep - em) / (2 * q);
	}
}

struct spring_lin {
	double xf, b;
};

struct spring_ctx {
	const struct series *d;
	bool pin; /* the rest position is the last sample (the snap at equilibrium) */
};

/* The best rest position and b for (w, z), x0 being the first sample; r gets the residuals. */
static double spring_project(const struct spring_ctx *sc, double w, double z,
			     struct spring_lin *lin, double *r)
{
	const struct series *d = sc->d;
	double c[MAXN], s[MAXN], a[LM_MAXP][LM_MAXP] = { { 0 } }, b[LM_MAXP] = { 0 }, ridge;
	double x0 = d->y[0], xf = d->y[d->n - 1];

	for (size_t i = 0; i < d->n; i++) {
		double u, e;

		spring_basis(w, z, d->t[i], &c[i], &s[i]);
		u = 1 - c[i];
		e = d->y[i] - x0 * c[i] - (sc->pin ? xf * u : 0);
		a[0][0] += u * u;
		a[0][1] += u * s[i];
		a[1][1] += s[i] * s[i];
		b[0] += u * e;
		b[1] += s[i] * e;
	}
	/* A stiff spring over coarse frames leaves s ~ 0 at every sample: keep it solvable. */
	ridge = 1e-12 * (a[0][0] + a[1][1]) + 1e-300;
	if (sc->pin) {
		lin->xf = xf;
		lin->b = b[1] / (a[1][1] + ridge);
	} else {
		a[1][0] = a[0][1];
		a[0][0] += ridge;
		a[1][1] += ridge;
		if (solve_small(2, a, b)) {
			b[0] = xf;
			b[1] = 0;
		}
		lin->xf = b[0];
		lin->b = b[1];
	}
	for (size_t i = 0; i < d->n; i++)
		r[i] = x0 * c[i] + lin->xf * (1 - c[i]) + lin->b * s[i] - d->y[i];
	return sumsq(r, d->n);
}

static void spring_resid(const double *p, double *r, const void *ctx)
{
	struct spring_lin lin;

	spring_project(ctx, exp(p[0]), exp(p[1]), &lin, r);
}

struct seed {
	double cost, w, z;
};

/* Keeps the best few seeds, at most one per basin (close in log w and log z). */
static void seed_offer(struct seed *best, int nbest, double cost, double w, double z)
{
	int worst = 0;

	for (int i = 0; i < nbest; i++) {
		if (fabs(log(best[i].w / w)) < 0.4 && fabs(log(best[i].z / z)) < 0.6) {
			if (cost < best[i].cost)
				best[i] = (struct seed){ cost, w, z };
			return;
		}
		if (best[i].cost > best[worst].cost)
			worst = i;
	}
	if (cost < best[worst].cost)
		best[worst] = (struct seed){ cost, w, z };
}

static const double spring_z_grid[] = { 0.05, 0.12, 0.25, 0.4, 0.6, 0.8, 1.0, 1.4, 2.2, 4.0 };

static void spring_grid(const struct series *g, double w_lo, double w_hi, struct seed *best,
			int nbest)
{
	struct spring_ctx sc = { g, false };
	double r[MAXN];
	struct spring_lin lin;

	for (double w = w_lo; w <= w_hi; w *= 1.3) {
		for (size_t j = 0; j < ARRAY_SIZE(spring_z_grid); j++) {
			double z = spring_z_grid[j];

			seed_offer(best, nbest, spring_project(&sc, w, z, &lin, r), w, z);
		}
	}
}

/*
 * An oscillation's seed, finer than the grid: the damped frequency from the mean spacing of
 * the sign changes of y - y_last (the snap makes the last sample the rest position), the decay
 * from the peaks of the two lobes after the first crossing. False below two crossings.
 */
static bool spring_crossing_seed(const struct series *d, double *w, double *z)
{
	double rest = d->y[d->n - 1], tol = 0.01 * (d->hi - d->lo);
	double first = 0, last = 0, lobe = 0, lobes[4] = { 0 }, pe = 0, pt = 0, half, wd, sigma;
	int k = 0;

	for (size_t i = 0; i < d->n; i++) {
		double e = d->y[i] - rest;

		if (fabs(e) < tol)
			continue;
		if (pe != 0 && (e > 0) != (pe > 0)) {
			last = pt + (d->t[i] - pt) * pe / (pe - e);
			if (k == 0)
				first = last;
			if (k < 3)
				lobes[k] = lobe;
			k++;
			lobe = 0;
		}
		lobe = fmax(lobe, fabs(e));
		pe = e;
		pt = d->t[i];
	}
	if (k < 2 || !(last > first))
		return false;
	if (k < 3)
		lobes[k] = lobe; /* the lobe still open at the end */
	half = (last - first) / (k - 1);
	wd = M_PI / half;
	sigma = lobes[2] > 0 && lobes[1] > lobes[2] ? log(lobes[1] / lobes[2]) / half : 0.3 * wd;
	*w = sqrt(wd * wd + sigma * sigma);
	*z = clamp(sigma / *w, 0.02, 0.95);
	return true;
}

/* Ringing faster than half the frame rate: the frames cannot tell it from a slower alias
 * (with a few frames and some timing noise the alias may even fit better). */
static bool spring_aliased(double w, double z, double dt)
{
	return z < 1 && w * sqrt(1 - z * z) > M_PI / dt;
}

#define SPRING_W_LO 0.5 /* rad/s: stiffness 0.25 */

/*
 * A short LM from each seed, then a full one from the best of them that is not an alias:
 * the seeds only have to tell the basins apart.
 */
static double spring_search(const struct spring_ctx *sc, const struct seed *seeds, int ns,
			    double w_hi, double *w, double *z)
{
	struct lm m = { .f = spring_resid,
			.ctx = sc,
			.n = sc->d->n,
			.np = 2,
			.lo = { log(SPRING_W_LO), log(0.01) },
			.hi = { log(w_hi), log(10.0) },
			.h = { 1e-6, 1e-6 } };
	double best = INFINITY, p[LM_MAXP], q[LM_MAXP];

	for (int i = 0; i < ns; i++) {
		double c;

		if (!isfinite(seeds[i].cost))
			continue;
		q[0] = log(seeds[i].w);
		q[1] = log(seeds[i].z);
		c = lm_solve(&m, q, 10);
		if (c < best && !spring_aliased(exp(q[0]), exp(q[1]), sc->d->dt)) {
			best = c;
			memcpy(p, q, sizeof(p));
		}
	}
	if (!isfinite(best))
		return best;
	best = lm_solve(&m, p, 40);
	*w = exp(p[0]);
	*z = exp(p[1]);
	return spring_aliased(*w, *z, sc->d->dt) ? INFINITY : best;
}

void spring_fit(const struct series *d, struct spring_fit *out)
{
	struct spring_ctx sc = { d, false }, pin = { d, true };
	struct series g;
	struct seed best[4];
	struct spring_lin lin;
	double r[MAXN], w_hi = fmax(2.5 * M_PI / d->dt, 1.0), last = d->y[d->n - 1], w, z, rss;

	for (int i = 0; i < 4; i++)
		best[i] = (struct seed){ INFINITY, NAN, NAN };
	series_decimate(d, &g, 32);
	spring_grid(&g, SPRING_W_LO, w_hi, best, 3);
	if (spring_crossing_seed(d, &best[3].w, &best[3].z))
		best[3].cost = 0;
	out->rss = spring_search(&sc, best, 4, w_hi, &out->w, &out->z);
	out->ok = isfinite(out->rss);
	if (!out->ok)
		return;
	spring_project(&sc, out->w, out->z, &lin, r);
	/* Ended at rest: SpringAnimation snapped the last frame onto the rest position. Pinned
	 * there, the fit has one parameter less to spend on timing noise. */
	if (fabs(lin.xf - last) <= 0.01 * (d->hi - d->lo)) {
		best[0] = (struct seed){ 0, out->w, out->z };
		rss = spring_search(&pin, best, 1, w_hi, &w, &z);
		if (rss <= 4 * out->rss) {
			sc.pin = true;
			out->rss = rss;
			out->w = w;
			out->z = z;
		}
	}
	spring_project(&sc, out->w, out->z, &lin, r);
	out->xf = lin.xf;
	out->b = lin.b;
	out->v0 = lin.b - out->z * out->w * (d->y[0] - lin.xf);
	/* Pinned to the box, or resting far off the run: not a spring that explains it. */
	out->ok = out->z < 9.5 && out->w > SPRING_W_LO * 1.05 && out->w < w_hi / 1.05 &&
		  fabs(out->xf - last) <= d->hi - d->lo;
}

/*
 * Overshoot and 2 % settling time of the fitted curve, scanned over the run or until its
 * envelope has decayed a thousandfold, whichever is longer (at most a minute).
 */
void spring_shape(const struct spring_fit *f, double x0, double t_end, double *os_pct,
		  double *settle_ms)
{
	double a = x0 - f->xf, sgn = a < 0 ? -1 : 1, travel = fabs(a), over = 0, settle = 0;
	double rate = f->z <= 1 ? f->z * f->w : f->w * (f->z - sqrt(f->z * f->z - 1));
	double horizon = fmin(fmax(t_end, log(1e3) / rate), 60.0);
	/* Pushed from its rest position (no travel): the band scales with the excursion. */
	double band = 0.02 * fmax(travel, fabs(f->b) / f->w);
	const int steps = 512;

	for (int i = 0; i <= steps; i++) {
		double t = horizon * i / steps, c, s, x;

		spring_basis(f->w, f->z, t, &c, &s);
		x = a * c + f->b * s;
		over = fmax(over, -x * sgn);
		if (fabs(x) > band)
			settle = fmin(horizon, t + horizon / steps);
	}
	*os_pct = travel > 0 ? 100 * over / travel : 0;
	*settle_ms = settle * 1e3;
}
