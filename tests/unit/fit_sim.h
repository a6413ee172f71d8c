/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Synthetic animation runs for the fit tests and bench, computed the way the framework
 * computes them (sources cited in src/model/fit.c): DynamicAnimation's SpringAnimation and
 * FlingAnimation stepped frame by frame on the whole-ms frame clock with float state, and
 * ValueAnimator's fraction through the interpolators in float, PathInterpolator flattened to
 * segments and searched like the framework's. Written apart from fit.c on purpose: a test
 * that shared the model code with the fit would only check it against itself.
 */
#ifndef ANIMTRACE_TESTS_FIT_SIM_H
#define ANIMTRACE_TESTS_FIT_SIM_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/fit.h"

#define SIM_MAX 4096

/* Frame clock: vsync i at base + i * period, +- jitter (uniform); doFrame starts lat later. */
struct sim_clock {
	uint64_t rng; /* xorshift64 state, nonzero */
	double period_ns;
	double jitter_ns;
	double lat_ns; /* doFrame start - frame time, uniform in [0, lat) */
	uint64_t base_ns;
};

static inline struct sim_clock sim_clock_at(double hz, double jitter_ms, double lat_ms,
					    uint64_t seed)
{
	return (struct sim_clock){ .rng = seed * 0x9E3779B97F4A7C15ull | 1,
				   .period_ns = 1e9 / hz,
				   .jitter_ns = jitter_ms * 1e6,
				   .lat_ns = lat_ms * 1e6,
				   .base_ns = 1000000000000ull + seed * 7919ull };
}

static inline uint64_t sim_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static inline double sim_uniform(uint64_t *s)
{
	return (double)(sim_next(s) >> 11) * 0x1.0p-53;
}

/* Frame i's time as Choreographer hands it to the animations, and its doFrame start. */
static inline void sim_frame(struct sim_clock *c, int i, uint64_t *frame_ns, uint64_t *dofr_ns)
{
	double j = (2 * sim_uniform(&c->rng) - 1) * c->jitter_ns;

	*frame_ns = c->base_ns + (uint64_t)llround(i * c->period_ns + j);
	*dofr_ns = *frame_ns + (uint64_t)(sim_uniform(&c->rng) * c->lat_ns);
}

/* DynamicAnimation's minimum visible changes (MIN_VISIBLE_CHANGE_*). */
#define SIM_PIXELS 1.0f
#define SIM_ALPHA (1.0f / 256.0f)
#define SIM_SCALE (1.0f / 500.0f)

struct sim_spring {
	float stiffness, damping; /* setStiffness, setDampingRatio */
	float start, final_pos, start_velocity;
	float min_visible;
};

/* SpringForce.updateValues: double arithmetic on the float state, branch by branch. */
static inline void sim_spring_step(double wn, double z, double xf, float *x, float *v, long ms)
{
	double dt = ms / 1000.0, d = (double)*x - xf, lv = *v, disp, vel;

	if (z > 1) {
		double gp = -z * wn + wn * sqrt(z * z - 1), gm = -z * wn - wn * sqrt(z * z - 1);
		double ca = d - (gm * d - lv) / (gm - gp), cb = (gm * d - lv) / (gm - gp);

		disp = ca * pow(M_E, gm * dt) + cb * pow(M_E, gp * dt);
		vel = ca * gm * pow(M_E, gm * dt) + cb * gp * pow(M_E, gp * dt);
	} else if (z == 1) {
		double ca = d, cb = lv + wn * d;

		disp = (ca + cb * dt) * pow(M_E, -wn * dt);
		vel = (ca + cb * dt) * pow(M_E, -wn * dt) * -wn + cb * pow(M_E, -wn * dt);
	} else {
		double wd = wn * sqrt(1 - z * z), cc = d, sc = (1 / wd) * (z * wn * d + lv);

		disp = pow(M_E, -z * wn * dt) * (cc * cos(wd * dt) + sc * sin(wd * dt));
		vel = disp * -wn * z +
		      pow(M_E, -z * wn * dt) * (-wd * cc * sin(wd * dt) + wd * sc * cos(wd * dt));
	}
	*x = (float)(disp + xf);
	*v = (float)vel;
}

/*
 * DynamicAnimation.doAnimationFrame: the first frame records its time and writes the start
 * value, each later one steps the state by the whole-ms delta; the run ends on the frame
 * whose step finishes it. step returns true then.
 */
typedef bool (*sim_step_fn)(void *state, long dt_ms, float *x);

static inline size_t sim_dynamic(struct sim_clock *c, float x, sim_step_fn step, void *state,
				 struct fit_sample *out, size_t cap)
{
	long last = 0;
	size_t n = 0;

	for (int i = 0; n < cap; i++) {
		uint64_t f, t;
		long ms;
		bool done = false;

		sim_frame(c, i, &f, &t);
		ms = (long)(f / 1000000);
		if (i > 0)
			done = step(state, ms - last, &x);
		last = ms;
		out[n++] = (struct fit_sample){ t, x };
		if (done)
			break;
	}
	return n;
}

struct sim_spring_state {
	double wn, z, value_th, vel_th;
	float final_pos, v;
};

/* SpringAnimation.updateValueAndVelocity: at isAtEquilibrium it snaps to the final position. */
static inline bool sim_spring_frame(void *state, long dt_ms, float *x)
{
	struct sim_spring_state *s = state;

	sim_spring_step(s->wn, s->z, s->final_pos, x, &s->v, dt_ms);
	if (fabs(s->v) < s->vel_th && fabsf(*x - s->final_pos) < s->value_th) {
		*x = s->final_pos;
		s->v = 0;
		return true;
	}
	return false;
}

/* A SpringAnimation run until isAtEquilibrium snaps it to the final position. */
static inline size_t sim_spring(const struct sim_spring *p, struct sim_clock *c,
				struct fit_sample *out, size_t cap)
{
	double value_th = fabs((double)(p->min_visible * 0.75f));
	struct sim_spring_state s = { sqrt((double)p->stiffness), p->damping,	value_th,
				      value_th * (1000.0 / 16),	  p->final_pos, p->start_velocity };

	return sim_dynamic(c, p->start, sim_spring_frame, &s, out, cap);
}

struct sim_fling {
	float scalar, start, start_velocity;
	float min, max; /* -FLT_MAX, FLT_MAX when unset */
	float min_visible;
};

struct sim_fling_state {
	float fr, vel_th, min, max, v;
};

/* FlingAnimation.updateValueAndVelocity: DragForce in its float/double mix, ended by the
 * velocity threshold or by min/max, where the value is clamped. */
static inline bool sim_fling_frame(void *state, long dt, float *x)
{
	struct sim_fling_state *s = state;
	float v = s->v, fr = s->fr;
	float nv = (float)(v * exp((double)((dt / 1000.0f) * fr)));
	float nx = (float)((double)(*x - v / fr) +
			   (double)(v / fr) * exp((double)(fr * dt / 1000.0f)));

	if (fabsf(nv) < s->vel_th)
		nv = 0;
	*x = nx;
	s->v = nv;
	if (*x < s->min || *x > s->max)
		*x = *x < s->min ? s->min : s->max;
	return *x >= s->max || *x <= s->min || fabsf(s->v) < s->vel_th;
}

static inline size_t sim_fling(const struct sim_fling *p, struct sim_clock *c,
			       struct fit_sample *out, size_t cap)
{
	struct sim_fling_state s = { p->scalar * -4.2f,
				     (p->min_visible * 0.75f) * (1000.0f / 16.0f), p->min, p->max,
				     p->start_velocity };

	return sim_dynamic(c, p->start, sim_fling_frame, &s, out, cap);
}

/* ---- ValueAnimator ------------------------------------------------------------------- */

typedef float (*sim_interp_fn)(float t);

static inline float sim_linear(float t)
{
	return t;
}

static inline float sim_accel_decel(float t)
{
	return (float)(cos((t + 1) * M_PI) / 2.0f) + 0.5f;
}

static inline float sim_accel(float t)
{
	return t * t;
}

static inline float sim_decel(float t)
{
	return (float)(1.0f - (1.0f - t) * (1.0f - t));
}

static inline float sim_overshoot(float t)
{
	t -= 1.0f;
	return t * t * ((2.0f + 1) * t + 2.0f) + 1.0f;
}

static inline float sim_anticipate(float t)
{
	return t * t * ((2.0f + 1) * t - 2.0f);
}

static inline float sim_bounce_part(float t)
{
	return t * t * 8.0f;
}

static inline float sim_bounce(float t)
{
	t *= 1.1226f;
	if (t < 0.3535f)
		return sim_bounce_part(t);
	else if (t < 0.7408f)
		return sim_bounce_part(t - 0.54719f) + 0.7f;
	else if (t < 0.9644f)
		return sim_bounce_part(t - 0.8526f) + 0.9f;
	return sim_bounce_part(t - 1.0435f) + 0.95f;
}

/* PathInterpolator: the cubic flattened into 512 segments, then getInterpolation's binary
 * search and linear interpolation. */
static inline float sim_path(float t, float x1, float y1, float x2, float y2)
{
	enum { SEG = 512 };
	float xs[SEG + 1], ys[SEG + 1];
	int lo = 0, hi = SEG;

	if (t <= 0)
		return 0;
	if (t >= 1)
		return 1;
	for (int i = 0; i <= SEG; i++) {
		float s = (float)i / SEG, r = 1 - s;

		xs[i] = 3 * x1 * s * r * r + 3 * x2 * s * s * r + s * s * s;
		ys[i] = 3 * y1 * s * r * r + 3 * y2 * s * s * r + s * s * s;
	}
	while (hi - lo > 1) {
		int mid = (lo + hi) / 2;

		if (t < xs[mid])
			hi = mid;
		else
			lo = mid;
	}
	if (xs[hi] == xs[lo])
		return ys[lo];
	return ys[lo] + (t - xs[lo]) / (xs[hi] - xs[lo]) * (ys[hi] - ys[lo]);
}

static inline float sim_fast_out_slow_in(float t)
{
	return sim_path(t, 0.4f, 0, 0.2f, 1);
}

static inline float sim_linear_out_slow_in(float t)
{
	return sim_path(t, 0, 0, 0.2f, 1);
}

static inline float sim_fast_out_linear_in(float t)
{
	return sim_path(t, 0.4f, 0, 1, 1);
}

struct sim_interp {
	const char *name; /* as fit_interpolator names it */
	sim_interp_fn fn;
};

static const struct sim_interp sim_interps[] = {
	{ "Linear", sim_linear },
	{ "AccelerateDecelerate", sim_accel_decel },
	{ "Accelerate", sim_accel },
	{ "Decelerate", sim_decel },
	{ "FastOutSlowIn", sim_fast_out_slow_in },
	{ "LinearOutSlowIn", sim_linear_out_slow_in },
	{ "FastOutLinearIn", sim_fast_out_linear_in },
	{ "Overshoot", sim_overshoot },
	{ "Anticipate", sim_anticipate },
	{ "Bounce", sim_bounce },
};

#define SIM_N_INTERPS (sizeof(sim_interps) / sizeof(sim_interps[0]))

/* What a marked ValueAnimator run also gives: its S and F marker times. */
struct sim_markers {
	uint64_t s_ns, f_ns;
};

/*
 * A ValueAnimator from `from` to `to` over dur_ms: mStartTime is the first frame's time
 * (fraction 0), fraction = (frameTime - mStartTime) / duration, the last frame at fraction
 * >= 1 clamped to 1; FloatEvaluator from + fraction * (to - from). S and F are written
 * inside the first and the last frame's doFrame, a little after its start.
 */
static inline size_t sim_animator(sim_interp_fn fn, float from, float to, long dur_ms,
				  struct sim_clock *c, struct fit_sample *out, size_t cap,
				  struct sim_markers *mk)
{
	long start = -1;
	size_t n = 0;

	for (int i = 0; n < cap; i++) {
		uint64_t f, t;
		long ms;
		float fraction;

		sim_frame(c, i, &f, &t);
		ms = (long)(f / 1000000);
		if (start < 0) {
			start = ms;
			mk->s_ns = t + 200000 + (uint64_t)(sim_uniform(&c->rng) * 1e6);
		}
		fraction = (float)(ms - start) / (float)dur_ms;
		if (fraction > 1)
			fraction = 1;
		out[n++] = (struct fit_sample){ t, from + fn(fraction) * (to - from) };
		if (fraction >= 1) {
			mk->f_ns = t + 200000 + (uint64_t)(sim_uniform(&c->rng) * 1e6);
			break;
		}
	}
	return n;
}

#endif
