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
 * - android/view/animation/ *Interpolator.java: see the interpolator table in fit_interp.c.
 *
 * Here: the choice between the models. The series and the solver are fit_core.c; the
 * models fit_spring.c, fit_fling.c and fit_interp.c.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "model/fit.h"
#include "model/fit_core.h"
#include "model/fit_fling.h"
#include "model/fit_interp.h"
#include "model/fit_spring.h"

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
	int k;	    /* fitted parameters */
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
	out->stiffness_name =
		name_within(stiffness_names, ARRAY_SIZE(stiffness_names), out->stiffness);
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
		c[FIT_INTERPOLATED] =
			(struct cand){ ip.name != NULL, ip.rms * fabs(d.y[d.n - 1] - d.y[0]), 2 };
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
