// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Interpolator fits (see fit_interp.h): the framework curves, and the search of their
 * duration and start.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "model/fit_interp.h"

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
	int np;			/* 1: duration p[0]; 2: also the start p[1] (else 0) */
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
bool interp_run(const struct series *d, struct interp_fit *out)
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

bool fit_interpolator_known(const char *name)
{
	for (size_t i = 0; i < sizeof(interps) / sizeof(interps[0]); i++)
		if (!strcmp(interps[i].name, name))
			return true;
	return false;
}
