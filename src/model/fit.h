/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What drove one animation run of one property: the per-frame values are fitted against
 * DynamicAnimation's SpringForce and FlingAnimation's DragForce, and against the framework
 * interpolators a ValueAnimator would use. Pure numerics: no I/O, no allocation, no state;
 * bounded work (at most FIT_MAX_SAMPLES samples are fitted, longer runs are evenly
 * downsampled; each search has an iteration cap). About 8 KB of stack, no heap.
 *
 * Samples are (time, value) per frame, in order; the first sample is the run's first frame,
 * the one that writes the start value (DynamicAnimation and ValueAnimator both do). Times
 * are rounded down to whole milliseconds, as both animation clocks are.
 */
#ifndef ANIMTRACE_FIT_H
#define ANIMTRACE_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* As many as the engine keeps per series (AT_SERIES_MAX): runs that long are slow curves. */
#define FIT_MAX_SAMPLES 64

struct fit_sample {
	uint64_t t_ns; /* the frame's Choreographer#doFrame start */
	double v;      /* the property's value in that frame */
};

enum fit_kind {
	FIT_SPRING = 0,	  /* SpringAnimation (SpringForce) */
	FIT_FLING,	  /* FlingAnimation (DragForce) */
	FIT_INTERPOLATED, /* a ValueAnimator with one of the framework interpolators */
	FIT_OTHER,	  /* none of them fits */
};

/* The animation's setMinValue/setMaxValue, when the caller knows them. */
struct fit_bounds {
	double min, max;
};

/*
 * Only the fields of the chosen kind are set; the others are 0 (NULL for names). Velocities
 * are in value units per second, as DynamicAnimation.setStartVelocity takes them.
 */
struct fit_result {
	enum fit_kind kind;
	double rms;	    /* of the chosen model in value units; other: of the closest model */
	double start_value; /* the first sample */
	double final_value; /* the last sample */
	/* spring (start_velocity and final_position also for a fling) */
	double stiffness; /* = natural frequency^2 (mass 1) */
	double damping_ratio;
	double final_position; /* spring: its rest position; fling: where it would coast to */
	double start_velocity;
	double overshoot_pct; /* past final_position, in % of |final_position - start_value| */
	double settle_ms;     /* from the first sample until it stays within 2 % of the travel */
	const char *stiffness_name; /* "STIFFNESS_LOW" when within 5 %, else NULL */
	const char *damping_name;   /* "DAMPING_RATIO_NO_BOUNCY" when within 5 %, else NULL */
	/* fling */
	double friction_scalar; /* FlingAnimation.setFriction: friction = -4.2 * scalar */
	bool at_bound;		/* it stopped at min/max, not by running out of velocity */
	/* interpolated */
	const char *interpolator; /* "FastOutSlowIn", ...; see fit_interpolator */
	double interp_rms;	  /* of the normalised curve (travel 1) */
	double duration_ms;	  /* the fitted animator duration */
};

/*
 * Classifies and fits one run of n >= 3 samples. Returns 0 (out filled; a run that never
 * moves is FIT_OTHER with rms 0), or -EINVAL for n < 3, a NaN or infinite value, times
 * that go backwards or a run shorter than 1 ms.
 */
int fit_run(const struct fit_sample *s, size_t n, struct fit_result *out);

/*
 * fit_run with the animation's bounds (NULL: unknown): a fling whose last value is one of
 * them stopped there. Without bounds, a fling that stops abruptly short of its curve is taken
 * to have hit one.
 */
int fit_run_bounded(const struct fit_sample *s, size_t n, const struct fit_bounds *bounds,
		    struct fit_result *out);

/*
 * The interpolator of a ValueAnimator whose start time, duration and from/to values the caller
 * knows (from its S and F markers and its first and last values). The animator's own clock
 * is its first frame's vsync time, not the marker's, and its duration may be up to a frame
 * shorter than F - S: both are fitted within about a frame. *name is "Linear",
 * "AccelerateDecelerate", "Accelerate", "Decelerate", "FastOutSlowIn", "LinearOutSlowIn",
 * "FastOutLinearIn", "Overshoot", "Anticipate", "Bounce", or "custom" when none fits; *rms
 * (may be NULL) is the closest one's rms on the normalised curve. Returns 0 or -EINVAL (as
 * fit_run, or dur_ns 0, from == to, from or to not finite).
 */
int fit_interpolator(const struct fit_sample *s, size_t n, uint64_t t0_ns, uint64_t dur_ns,
		     double from, double to, const char **name, double *rms);

/* True when name is one of the interpolators fit_interpolator can answer ("Linear", ...). */
bool fit_interpolator_known(const char *name);

const char *fit_kind_str(enum fit_kind k); /* "spring", "fling", "interpolated", "other" */

#endif
