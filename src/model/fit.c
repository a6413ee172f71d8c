// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Model fits of one animation run (see fit.h). Every model is fitted by variable projection:
 * the parameters a model is linear in (rest position, start velocity, ...) are solved exactly
 * for each value of the nonlinear ones (frequency, damping, friction, duration), which a small
 * Levenberg-Marquardt then refines from a few seeds. That keeps the searches at one or two
 * dimensions, so a coarse grid is enough to start them in the right basin.
 *
 * Framework sources checked (AOSP frameworks/base and androidx, read for this module):
 * - com/android/internal/dynamicanimation/animation/SpringForce.java (= androidx
 *   dynamicanimation SpringForce.java): updateValues() is the closed-form solution of
 *   x'' = -w0^2 (x - xf) - 2 z w0 x' over deltaT = timeElapsed / 1000 s, in its over-damped
 *   (z > 1: gamma+-), critically damped (z == 1) and under-damped (z < 1: cos/sin at the damped
 *   frequency) branches; stiffness = mNaturalFreq^2. Applying it frame after frame from the
 *   previous value and velocity is the same curve as one solution from the start (the flow of a
 *   linear ODE composes), up to the float storage of mValue/mVelocity, so one closed form with
 *   x(0) = first sample fits the whole run.
 * - .../SpringAnimation.java updateValueAndVelocity(): at isAtEquilibrium the value snaps to
 *   the final position, so a naturally ended spring's last sample is its rest position.
 * - .../FlingAnimation.java DragForce.updateValueAndVelocity(): v' = v exp(f dt),
 *   x' = x - v / f + v / f exp(f dt), f = -4.2 * friction scalar; it ends when |v| falls
 *   under the velocity threshold (value threshold * 62.5) or the value passes min/max, where
 *   it is clamped: the last sample then lies short of the curve.
 * - .../DynamicAnimation.java doAnimationFrame(): the frame time is in whole milliseconds,
 *   the first frame only records it and writes the start value; deltaT = frameTime -
 *   mLastFrameTime. android.animation.ValueAnimator likewise: fraction = (currentTime -
 *   mStartTime) / mDuration, with mStartTime the first frame's time (fraction 0), clamped
 *   to 1 on its last frame. Sample times are therefore rounded down to whole ms here too.
 * - android/view/animation/ *Interpolator.java: see the interpolator table below.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "model/fit.h"

#define MAXN FIT_MAX_SAMPLES
#define LM_MAXP 2 /* nonlinear parameters of the largest model (spring: w0, z) */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Model choice (choose_kind), measured on the synthetic runs of tests/unit/test_fit.c
 * (framework arithmetic, +-1 ms frame-time jitter, and also 1 and 2 ms of doFrame lag behind
 * the frame time, which real devices add), rms relative to the run's range:
 * - the right model leaves at most 0.0005 (no lag), 0.008 (1 ms), 0.012 (2 ms; a stiff spring
 *   over a few frames is the worst); a run that pauses midway leaves >= 0.055 with every model.
 *   FIT_REL_RMS_MAX 0.03 sits between 0.012 and 0.055 (2.5x over one, 1.8x under the other).
 * - FIT_PENALTY, per fitted parameter: of two models that both fit to the noise, the one with
 *   fewer parameters must win: a spring (4: w0, z, rest position, start velocity) contains the
 *   fling (2) exactly (over-damped, fast mode unexcited) and fits timing noise a little better.
 *   Penalties from 0.001 to 0.004 classify every test run right at 0, 1 and 2 ms of lag; below,
 *   noisy flings read as springs; above, springs of a few frames read as flings. 0.002 is the
 *   middle of that range (geometrically).
 */
#define FIT_REL_RMS_MAX 0.03
#define FIT_PENALTY 0.002

/*
 * INTERP_RMS_MAX: above this rms of the normalised curve (travel 1), no framework
 * interpolator is named ("custom"). Measured over 300 ms at 60 Hz and 250 ms at 120 Hz, 20
 * runs of each interpolator, +-1 ms jitter: the right curve leaves at most 0.0000 (no lag),
 * 0.0053 (1 ms lag), 0.0086 (2 ms, Bounce: its corners are the most sensitive to time); the
 * nearest wrong curve leaves at least 0.032 in fit_run and 0.0172 in fit_interpolator (whose
 * start and duration are freer), both FastOutLinearIn against Accelerate. 0.012 is the
 * geometric mean of 0.0086 and 0.0172: a margin of 1.4 on either side (200 and 250 ms runs
 * at 90 and 60 Hz, 2 ms lag: the right curve up to 0.0098, still under it).
 */
#define INTERP_RMS_MAX 0.012

struct series {
	size_t n;
	double t[MAXN]; /* s since the origin, on the animation clocks' whole-ms grid */
	double y[MAXN];
	double dt;      /* median frame interval, s */
	double lo, hi;  /* value range */
};

static double clamp(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static double sumsq(const double *r, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += r[i] * r[i];
	return s;
}

/* ---- samples --------------------------------------------------------------------------- */

static int check_samples(const struct fit_sample *s, size_t n)
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
static void series_load(const struct fit_sample *s, size_t n, int64_t origin_ms,
			struct series *d)
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
static void series_decimate(const struct series *d, struct series *g, size_t m)
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
static int solve_small(int np, double a[LM_MAXP][LM_MAXP], double *b)
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

/* r[i] = model(p, t[i]) - y[i]; ctx is the model's. */
typedef void (*lm_resid)(const double *p, double *r, const void *ctx);

struct lm {
	lm_resid f;
	const void *ctx;
	size_t n;
	int np;
	double lo[LM_MAXP], hi[LM_MAXP]; /* box: steps are clamped into it */
	double h[LM_MAXP];               /* forward-difference step */
};

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
static double lm_solve(const struct lm *m, double *p, int iters)
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

struct spring_fit {
	double w, z, xf, b, v0, rss;
	bool ok;
};

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
	struct lm m = { .f = spring_resid, .ctx = sc, .n = sc->d->n, .np = 2,
			.lo = { log(SPRING_W_LO), log(0.01) }, .hi = { log(w_hi), log(10.0) },
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

static void spring_fit(const struct series *d, struct spring_fit *out)
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
static void spring_shape(const struct spring_fit *f, double x0, double t_end, double *os_pct,
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

struct fling_fit {
	double f, c, rss;
	size_t m; /* samples on the curve: n, or n - 1 when the last one is a clamp */
	bool ok, at_bound;
};

#define FLING_F_LO 0.1 /* |friction| bounds, 1/s: scalars 0.024 .. 95 */
#define FLING_F_HI 400.0

static void fling_fit_m(const struct series *d, size_t m, struct fling_fit *out)
{
	struct fling_ctx fc = { d, m };
	struct lm lm = { .f = fling_resid, .ctx = &fc, .n = m, .np = 1,
			 .lo = { log(FLING_F_LO) }, .hi = { log(FLING_F_HI) }, .h = { 1e-6 } };
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

static void fling_fit(const struct series *d, const struct fit_bounds *b, struct fling_fit *out)
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

/* ---- interpolators --------------------------------------------------------------------- */

/*
 * android/view/animation, getInterpolation(): AccelerateDecelerate cos((t + 1) pi) / 2 + 0.5;
 * Accelerate (factor 1) t^2; Decelerate (factor 1) 1 - (1 - t)^2; Linear t; Overshoot
 * (tension 2) (t - 1)^2 (3 (t - 1) + 2) + 1; Anticipate (tension 2) t^2 (3 t - 2); Bounce its
 * four parabolas of 8 t^2 on t * 1.1226. PathInterpolator(x1, y1, x2, y2) is the cubic Bezier
 * (0,0) (x1,y1) (x2,y2) (1,1) read as y(x) (the framework flattens it to segments of 0.002
 * first, which is below any frame's resolution): FastOutSlowIn (0.4, 0, 0.2, 1),
 * LinearOutSlowIn (0, 0, 0.2, 1), FastOutLinearIn (0.4, 0, 1, 1), the Material curves of
 * androidx.interpolator and com.android.internal Interpolators.
 */
static double bezier_at(double s, double p1, double p2)
{
	double r = 1 - s;

	return 3 * p1 * s * r * r + 3 * p2 * s * s * r + s * s * s;
}

/* y at x = u: Newton on x(s) = u, kept inside a bisection bracket (x(s) is monotonic). */
static double bezier(double u, double x1, double y1, double x2, double y2)
{
	double lo = 0, hi = 1, s = u;

	for (int i = 0; i < 20; i++) {
		double r = 1 - s, e = bezier_at(s, x1, x2) - u, dx, next;

		if (fabs(e) < 1e-10)
			break;
		if (e > 0)
			hi = s;
		else
			lo = s;
		dx = 3 * x1 * r * r + 6 * (x2 - x1) * s * r + 3 * (1 - x2) * s * s;
		next = dx > 1e-12 ? s - e / dx : -1;
		s = next > lo && next < hi ? next : (lo + hi) / 2;
	}
	return bezier_at(s, y1, y2);
}

static double ip_linear(double u)
{
	return u;
}

static double ip_accel_decel(double u)
{
	return cos((u + 1) * M_PI) / 2 + 0.5;
}

static double ip_accel(double u)
{
	return u * u;
}

static double ip_decel(double u)
{
	return 1 - (1 - u) * (1 - u);
}

static double ip_fast_out_slow_in(double u)
{
	return bezier(u, 0.4, 0, 0.2, 1);
}

static double ip_linear_out_slow_in(double u)
{
	return bezier(u, 0, 0, 0.2, 1);
}

static double ip_fast_out_linear_in(double u)
{
	return bezier(u, 0.4, 0, 1, 1);
}

static double ip_overshoot(double u)
{
	u -= 1;
	return u * u * (3 * u + 2) + 1;
}

static double ip_anticipate(double u)
{
	return u * u * (3 * u - 2);
}

static double ip_bounce(double u)
{
	u *= 1.1226;
	if (u < 0.3535)
		return 8 * u * u;
	if (u < 0.7408)
		return 8 * (u - 0.54719) * (u - 0.54719) + 0.7;
	if (u < 0.9644)
		return 8 * (u - 0.8526) * (u - 0.8526) + 0.9;
	return 8 * (u - 1.0435) * (u - 1.0435) + 0.95;
}

struct interp {
	const char *name;
	double (*fn)(double u);
};

static const struct interp interps[] = {
	{ "Linear", ip_linear },
	{ "AccelerateDecelerate", ip_accel_decel },
	{ "Accelerate", ip_accel },
	{ "Decelerate", ip_decel },
	{ "FastOutSlowIn", ip_fast_out_slow_in },
	{ "LinearOutSlowIn", ip_linear_out_slow_in },
	{ "FastOutLinearIn", ip_fast_out_linear_in },
	{ "Overshoot", ip_overshoot },
	{ "Anticipate", ip_anticipate },
	{ "Bounce", ip_bounce },
};

struct ip_ctx {
	const struct interp *ip;
	const struct series *d; /* y normalised: 0 = from, 1 = to */
	int np;                 /* 1: duration p[0]; 2: also the start p[1] (else 0) */
};

static void interp_resid(const double *p, double *r, const void *ctx)
{
	const struct ip_ctx *c = ctx;
	double a = c->np > 1 ? p[1] : 0;

	for (size_t i = 0; i < c->d->n; i++)
		r[i] = c->ip->fn(clamp((c->d->t[i] - a) / p[0], 0, 1)) - c->d->y[i];
}

/* The grid's best duration (and start) of one interpolator in the box, 5 x 3 points: within
 * a frame's slack the cost has a single basin, and the start's slack is the smaller. */
static double interp_grid(const struct ip_ctx *c, const struct lm *box, double *p)
{
	double r[MAXN], q[LM_MAXP] = { 0 }, best = INFINITY;

	for (int i = 0; i < 5; i++) {
		for (int j = 0; j < (box->np > 1 ? 3 : 1); j++) {
			double cost;

			q[0] = box->lo[0] + (box->hi[0] - box->lo[0]) * (i + 0.5) / 5;
			if (box->np > 1)
				q[1] = box->lo[1] + (box->hi[1] - box->lo[1]) * (j + 0.5) / 3;
			interp_resid(q, r, c);
			cost = sumsq(r, c->d->n);
			if (cost < best) {
				best = cost;
				memcpy(p, q, sizeof(q));
			}
		}
	}
	return best;
}

struct interp_fit {
	const char *name; /* NULL: none within INTERP_RMS_MAX */
	double rms;       /* the closest one's, normalised */
	double dur;       /* s */
};

#define INTERP_REFINED 3 /* curves refined by LM after the grid: the rest are far off */

static void interp_best(const struct series *d, const struct lm *box, struct interp_fit *out)
{
	struct ip_ctx c[ARRAY_SIZE(interps)];
	double grid[ARRAY_SIZE(interps)], p[ARRAY_SIZE(interps)][LM_MAXP], best = INFINITY;
	const struct interp *win = NULL;
	struct lm m = *box;

	m.f = interp_resid;
	for (size_t i = 0; i < ARRAY_SIZE(interps); i++) {
		c[i] = (struct ip_ctx){ &interps[i], d, box->np };
		grid[i] = interp_grid(&c[i], box, p[i]);
	}
	for (int k = 0; k < INTERP_REFINED; k++) {
		size_t i = 0;
		double cost;

		for (size_t j = 1; j < ARRAY_SIZE(interps); j++)
			if (grid[j] < grid[i])
				i = j;
		if (!isfinite(grid[i]))
			break;
		grid[i] = INFINITY;
		m.ctx = &c[i];
		cost = lm_solve(&m, p[i], 30);
		if (cost < best) {
			best = cost;
			win = &interps[i];
			out->dur = p[i][0];
		}
	}
	out->rms = sqrt(best / (double)d->n);
	out->name = win && out->rms <= INTERP_RMS_MAX ? win->name : NULL;
}

static void normalise(struct series *d, double from, double to)
{
	for (size_t i = 0; i < d->n; i++)
		d->y[i] = (d->y[i] - from) / (to - from);
	d->lo = (d->lo - from) / (to - from);
	d->hi = (d->hi - from) / (to - from);
}

/*
 * fit_run's animator: from the first sample (fraction 0) to the last (the frame where the
 * fraction reached 1), so the duration lies between the last two sample times. Its start is
 * free by +-2 ms: the first doFrame's lag behind its vsync shifts every later sample's time
 * from the first one's, a bias the duration alone cannot absorb.
 */
static bool interp_run(const struct series *d, struct interp_fit *out)
{
	struct series u = *d;
	size_t n = d->n;
	double from = d->y[0], to = d->y[n - 1], lo = d->t[n - 2], hi = d->t[n - 1];
	struct lm box = { .n = n, .np = 2, .h = { 1e-6, 1e-6 } };

	if (!(fabs(to - from) > 1e-9 * (d->hi - d->lo)))
		return false;
	if (hi - lo < 1e-4)
		lo = hi - d->dt;
	box.lo[0] = fmax(lo, 1e-3);
	box.hi[0] = fmax(hi, 2e-3);
	box.lo[1] = -2e-3;
	box.hi[1] = 2e-3;
	normalise(&u, from, to);
	interp_best(&u, &box, out);
	return true;
}

int fit_interpolator(const struct fit_sample *s, size_t n, uint64_t t0_ns, uint64_t dur_ns,
		     double from, double to, const char **name, double *rms)
{
	struct series d;
	struct interp_fit f;
	struct lm box = { .n = 0, .np = 2, .h = { 1e-6, 1e-6 } };
	double dur = (double)dur_ns / 1e9, slack;
	int err = check_samples(s, n);

	if (err)
		return err;
	if (!name || dur_ns == 0 || !isfinite(from) || !isfinite(to) || from == to)
		return -EINVAL;
	series_load(s, n, (int64_t)(t0_ns / 1000000), &d);
	normalise(&d, from, to);
	/* The animator's clock starts at its first frame's vsync, before the S marker, and F - S
	 * overstates its duration by up to a frame; 2 ms more for the rounding and doFrame's
	 * lag behind the vsync. */
	slack = d.dt + 2e-3;
	box.n = d.n;
	box.lo[0] = fmax(dur - slack, 1e-3);
	box.hi[0] = fmax(dur + 2e-3, 2e-3);
	box.lo[1] = -slack;
	box.hi[1] = 2e-3;
	interp_best(&d, &box, &f);
	*name = f.name ? f.name : "custom";
	if (rms)
		*rms = f.rms;
	return 0;
}

/* ---- classification -------------------------------------------------------------------- */

struct named {
	double v;
	const char *name;
};

static const struct named stiffness_names[] = {
	{ 10000, "STIFFNESS_HIGH" },
	{ 1500, "STIFFNESS_MEDIUM" },
	{ 200, "STIFFNESS_LOW" },
	{ 50, "STIFFNESS_VERY_LOW" },
};

static const struct named damping_names[] = {
	{ 0.2, "DAMPING_RATIO_HIGH_BOUNCY" },
	{ 0.5, "DAMPING_RATIO_MEDIUM_BOUNCY" },
	{ 0.75, "DAMPING_RATIO_LOW_BOUNCY" },
	{ 1, "DAMPING_RATIO_NO_BOUNCY" },
};

static const char *name_within(const struct named *t, size_t n, double v)
{
	for (size_t i = 0; i < n; i++)
		if (fabs(v - t[i].v) <= 0.05 * t[i].v)
			return t[i].name;
	return NULL;
}

struct cand {
	bool ok;
	double rms; /* value units */
	int k;      /* fitted parameters */
};

/* The model with the lowest rms relative to the range plus FIT_PENALTY per parameter. */
static enum fit_kind choose_kind(const struct cand c[FIT_OTHER], double range, double *rms)
{
	enum fit_kind kind = FIT_OTHER;
	double best = INFINITY;

	*rms = INFINITY;
	for (int i = 0; i < FIT_OTHER; i++) {
		double rel = c[i].rms / range, score = rel + FIT_PENALTY * c[i].k;

		*rms = fmin(*rms, c[i].rms);
		if (c[i].ok && rel <= FIT_REL_RMS_MAX && score < best) {
			best = score;
			kind = (enum fit_kind)i;
		}
	}
	if (kind != FIT_OTHER)
		*rms = c[kind].rms;
	else if (!isfinite(*rms))
		*rms = 0;
	return kind;
}

static void fill_spring(struct fit_result *out, const struct spring_fit *f, const struct series *d)
{
	out->stiffness = f->w * f->w;
	out->damping_ratio = f->z;
	out->final_position = f->xf;
	out->start_velocity = f->v0;
	spring_shape(f, d->y[0], d->t[d->n - 1], &out->overshoot_pct, &out->settle_ms);
	out->stiffness_name = name_within(stiffness_names, ARRAY_SIZE(stiffness_names),
					  out->stiffness);
	out->damping_name = name_within(damping_names, ARRAY_SIZE(damping_names), f->z);
}

static void fill_fling(struct fit_result *out, const struct fling_fit *f, const struct series *d)
{
	out->friction_scalar = f->f / -4.2;
	out->start_velocity = f->c * f->f;
	out->final_position = d->y[0] - f->c;
	out->at_bound = f->at_bound;
}

int fit_run_bounded(const struct fit_sample *s, size_t n, const struct fit_bounds *bounds,
		    struct fit_result *out)
{
	struct series d;
	struct spring_fit sp = { 0 };
	struct fling_fit fl = { 0 };
	struct interp_fit ip = { 0 };
	struct cand c[FIT_OTHER] = { { 0 } };
	int err = check_samples(s, n);

	if (err || !out)
		return err ? err : -EINVAL;
	memset(out, 0, sizeof(*out));
	out->kind = FIT_OTHER;
	out->start_value = s[0].v;
	out->final_value = s[n - 1].v;
	series_load(s, n, (int64_t)(s[0].t_ns / 1000000), &d);
	if (!(d.hi > d.lo))
		return 0;
	spring_fit(&d, &sp);
	fling_fit(&d, bounds, &fl);
	c[FIT_SPRING] = (struct cand){ sp.ok, sqrt(sp.rss / (double)d.n), 4 };
	c[FIT_FLING] = (struct cand){ fl.ok, sqrt(fl.rss / (double)fl.m), 2 };
	if (interp_run(&d, &ip))
		c[FIT_INTERPOLATED] = (struct cand){ ip.name != NULL,
						     ip.rms * fabs(d.y[d.n - 1] - d.y[0]), 2 };
	else
		c[FIT_INTERPOLATED] = (struct cand){ false, INFINITY, 2 };
	out->kind = choose_kind(c, d.hi - d.lo, &out->rms);
	if (out->kind == FIT_SPRING)
		fill_spring(out, &sp, &d);
	else if (out->kind == FIT_FLING)
		fill_fling(out, &fl, &d);
	else if (out->kind == FIT_INTERPOLATED) {
		out->interpolator = ip.name;
		out->interp_rms = ip.rms;
		out->duration_ms = ip.dur * 1e3;
	}
	return 0;
}

int fit_run(const struct fit_sample *s, size_t n, struct fit_result *out)
{
	return fit_run_bounded(s, n, NULL, out);
}

const char *fit_kind_str(enum fit_kind k)
{
	switch (k) {
	case FIT_SPRING:
		return "spring";
	case FIT_FLING:
		return "fling";
	case FIT_INTERPOLATED:
		return "interpolated";
	case FIT_OTHER:
		return "other";
	}
	return "?";
}
