// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <criterion/criterion.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/fit.h"
#include "fit_sim.h"

/* Each Criterion test runs in its own process: one buffer per process is enough. */
static struct fit_sample run[SIM_MAX];

struct prop {
	const char *name;
	float from, to, min_visible;
	double xf_tol; /* acceptance: final position within 0.5 px, or 0.005 for alpha/scale */
};

static const struct prop pixels = { "translationX", 0, 300, SIM_PIXELS, 0.5 };
static const struct prop alpha = { "alpha", 1, 0, SIM_ALPHA, 0.005 };
static const struct prop scale = { "scaleX", 0.5f, 1, SIM_SCALE, 0.005 };

static const float stiffnesses[] = { 10000, 1500, 200, 50 };
static const char *const stiffness_names[] = { "STIFFNESS_HIGH", "STIFFNESS_MEDIUM",
					       "STIFFNESS_LOW", "STIFFNESS_VERY_LOW" };
static const float dampings[] = { 0.2f, 0.5f, 0.75f, 1 };
static const char *const damping_names[] = {
	"DAMPING_RATIO_HIGH_BOUNCY",
	"DAMPING_RATIO_MEDIUM_BOUNCY",
	"DAMPING_RATIO_LOW_BOUNCY",
	"DAMPING_RATIO_NO_BOUNCY",
};
static const double rates[] = { 60, 90, 120 };

static double rel_err(double got, double want)
{
	return fabs(got - want) / fabs(want);
}

/* Relative tolerances: for runs of at least `frames` frames, and for shorter ones. */
struct tol {
	double k, z;
	size_t frames;
	double k_short, z_short;
};

static const struct tol acceptance = { 0.05, 0.05, 0, 0.05, 0.05 };

struct worst {
	double k, z, xf;
};

/* One spring of the matrix: kind, stiffness, damping and rest position within tol. */
static void check_spring(const struct prop *p, double hz, int i, int j, double lat_ms,
			 const struct tol *tol, uint64_t seed, struct worst *w)
{
	struct sim_spring sp = { stiffnesses[i], dampings[j], p->from, p->to, 0, p->min_visible };
	struct sim_clock c = sim_clock_at(hz, 1, lat_ms, seed);
	size_t n = sim_spring(&sp, &c, run, SIM_MAX);
	bool longer = n >= tol->frames;
	struct fit_result r;
	double ek, ez, ex;
	char what[96];

	snprintf(what, sizeof(what), "%s %.0f Hz k %.0f z %.2f (%zu frames)", p->name, hz,
		 sp.stiffness, sp.damping, n);
	cr_assert_eq(fit_run(run, n, &r), 0);
	cr_assert_eq(r.kind, FIT_SPRING, "%s: %s", what, fit_kind_str(r.kind));
	ek = rel_err(r.stiffness, sp.stiffness);
	ez = rel_err(r.damping_ratio, sp.damping);
	ex = fabs(r.final_position - p->to);
	cr_assert_leq(ek, longer ? tol->k : tol->k_short, "%s: k %.1f", what, r.stiffness);
	cr_assert_leq(ez, longer ? tol->z : tol->z_short, "%s: z %.4f", what, r.damping_ratio);
	cr_assert_leq(ex, p->xf_tol, "%s: rest %.5f", what, r.final_position);
	w->k = fmax(w->k, ek);
	w->z = fmax(w->z, ez);
	w->xf = fmax(w->xf, ex);
}

/* Every stiffness x damping constant at 60, 90 and 120 Hz, +-1 ms frame-time jitter. */
static void check_spring_matrix(const struct prop *p, double lat_ms, const struct tol *tol,
				uint64_t seed)
{
	struct worst w = { 0 };

	for (int c = 0; c < 48; c++)
		check_spring(p, rates[c / 16], c / 4 % 4, c % 4, lat_ms, tol, seed + c, &w);
	cr_log_info("%s springs, lag %.1f ms: worst stiffness %.2f %%, damping %.2f %%, rest %.4f",
		    p->name, lat_ms, 100 * w.k, 100 * w.z, w.xf);
}

Test(fit, every_spring_constant_pair_on_a_pixel_property_is_fitted_within_5_percent)
{
	check_spring_matrix(&pixels, 0, &acceptance, 1);
}

Test(fit, every_spring_constant_pair_on_alpha_is_fitted_within_5_percent)
{
	check_spring_matrix(&alpha, 0, &acceptance, 101);
}

Test(fit, every_spring_constant_pair_on_scale_is_fitted_within_5_percent)
{
	check_spring_matrix(&scale, 0, &acceptance, 201);
}

/*
 * Beyond the acceptance: doFrame starting up to 1 ms after the frame time, as on devices.
 * The sample times are then off the animation clock by up to a ms, which a stiff spring
 * over a few frames cannot average out (STIFFNESS_HIGH: 7 frames at 60 Hz, 12 at 120 Hz).
 * Measured over 5 seeds of this matrix: runs of 20 frames or more within 4.9 % (stiffness)
 * and 2.2 % (damping), shorter ones within 42 % and 7.4 %; every run stays a spring and
 * rests exactly on its last frame. These tolerances are those measurements, rounded up, not
 * the acceptance's 5 %.
 */
Test(fit, springs_with_a_millisecond_of_doframe_lag_stay_springs)
{
	static const struct tol lagged = { 0.06, 0.03, 20, 0.50, 0.10 };

	check_spring_matrix(&pixels, 1, &lagged, 301);
}

Test(fit, spring_results_name_the_framework_constants)
{
	for (int k = 0; k < 16; k++) {
		int i = k / 4, j = k % 4;
		struct sim_spring sp = { stiffnesses[i], dampings[j], 0, 300, 0, SIM_PIXELS };
		struct sim_clock c = sim_clock_at(90, 1, 0, 401 + k);
		size_t n = sim_spring(&sp, &c, run, SIM_MAX);
		struct fit_result r;

		cr_assert_eq(fit_run(run, n, &r), 0);
		cr_assert_str_eq(r.stiffness_name, stiffness_names[i]);
		cr_assert_str_eq(r.damping_name, damping_names[j]);
		cr_assert_float_eq(r.start_value, 0, 1e-9);
		cr_assert_float_eq(r.final_value, 300, 1e-9);
		/* Started at rest: the velocity's scale is w0 * travel (30000 px/s for 10000). */
		cr_assert_leq(fabs(r.start_velocity), 0.005 * sqrt(sp.stiffness) * 300,
			      "k %.0f z %.2f: v0 %.1f", sp.stiffness, sp.damping, r.start_velocity);
	}
}

/* The true curve's 2 % settling time, stepping SpringForce 1 ms at a time. */
static double true_settle_ms(const struct sim_spring *sp)
{
	float x = sp->start, v = sp->start_velocity;
	double band = 0.02 * fabs(sp->final_pos - sp->start), last = 0;

	for (int ms = 1; ms < 20000; ms++) {
		sim_spring_step(sqrt(sp->stiffness), sp->damping, sp->final_pos, &x, &v, 1);
		if (fabs(x - sp->final_pos) > band)
			last = ms;
	}
	return last;
}

Test(fit, a_bouncy_spring_reports_its_overshoot_and_settling_time)
{
	for (int j = 0; j < 4; j++) {
		struct sim_spring sp = { 200, dampings[j], 0, 300, 0, SIM_PIXELS };
		struct sim_clock c = sim_clock_at(60, 1, 0, 501 + j);
		size_t n = sim_spring(&sp, &c, run, SIM_MAX);
		double z = dampings[j], os = z < 1 ? 100 * exp(-M_PI * z / sqrt(1 - z * z)) : 0;
		double settle = true_settle_ms(&sp);
		struct fit_result r;

		cr_assert_eq(fit_run(run, n, &r), 0);
		cr_assert_eq(r.kind, FIT_SPRING);
		cr_assert_float_eq(r.overshoot_pct, os, 0.5, "z %.2f: %.2f %% vs %.2f %%", z,
				   r.overshoot_pct, os);
		cr_assert_leq(fabs(r.settle_ms - settle), fmax(5, 0.03 * settle),
			      "z %.2f: settle %.1f ms vs %.1f ms", z, r.settle_ms, settle);
	}
}

Test(fit, runs_longer_than_fit_max_samples_are_downsampled_not_refused)
{
	struct sim_spring sp = { 50, 0.2f, 0, 300, 0, SIM_PIXELS };
	struct sim_clock c = sim_clock_at(120, 1, 0, 601);
	size_t n = sim_spring(&sp, &c, run, SIM_MAX);
	struct fit_result r;

	cr_assert_gt(n, 2 * FIT_MAX_SAMPLES, "%zu frames", n);
	cr_assert_eq(fit_run(run, n, &r), 0);
	cr_assert_eq(r.kind, FIT_SPRING);
	cr_assert_leq(rel_err(r.stiffness, 50), 0.05);
	cr_assert_leq(rel_err(r.damping_ratio, 0.2), 0.05);
}

static const float scalars[] = { 0.5f, 1, 2 };
static const float fling_v0[] = { 2000, -3000 };

/* Fling case k of 18: rate, friction scalar and start velocity; max/min at 60 % of its reach
 * when bounded. */
static size_t fling_case(int k, bool bounded, struct sim_fling *f, struct fit_bounds *b,
			 uint64_t seed)
{
	float reach, bound;
	struct sim_clock c = sim_clock_at(rates[k / 6], 1, 0, seed);

	*f = (struct sim_fling){ scalars[k / 2 % 3], 100,     fling_v0[k % 2],
				 -FLT_MAX,	     FLT_MAX, SIM_PIXELS };
	*b = (struct fit_bounds){ -FLT_MAX, FLT_MAX };
	reach = f->start_velocity / (4.2f * f->scalar);
	bound = 100 + 0.6f * reach;
	if (bounded) {
		*(reach > 0 ? &f->max : &f->min) = bound;
		*(reach > 0 ? &b->max : &b->min) = bound;
	}
	return sim_fling(f, &c, run, SIM_MAX);
}

Test(fit, flings_with_friction_0_5_1_and_2_are_flings_within_5_percent)
{
	double worst = 0;

	for (int k = 0; k < 18; k++) {
		struct sim_fling f;
		struct fit_bounds b;
		size_t n = fling_case(k, false, &f, &b, 701 + k);
		struct fit_result r;
		char what[64];

		snprintf(what, sizeof(what), "%.0f Hz scalar %.1f v0 %.0f", rates[k / 6], f.scalar,
			 f.start_velocity);
		cr_assert_eq(fit_run(run, n, &r), 0);
		cr_assert_eq(r.kind, FIT_FLING, "%s: %s", what, fit_kind_str(r.kind));
		cr_assert_leq(rel_err(r.friction_scalar, f.scalar), 0.05, "%s: %.4f", what,
			      r.friction_scalar);
		cr_assert_leq(rel_err(r.start_velocity, f.start_velocity), 0.05, "%s", what);
		cr_assert_not(r.at_bound, "%s", what);
		/* It stops at |v| < 46.875 px/s: 46.875 / (4.2 scalar) px short of its rest. */
		cr_assert_leq(fabs(r.final_position - r.final_value), 47 / (4.2 * f.scalar) + 1);
		worst = fmax(worst, rel_err(r.friction_scalar, f.scalar));
	}
	cr_log_info("flings: worst friction scalar %.3f %%", 100 * worst);
}

Test(fit, a_fling_stopped_by_its_min_or_max_is_at_bound_with_or_without_the_bounds)
{
	for (int k = 0; k < 18; k++) {
		struct sim_fling f;
		struct fit_bounds b;
		size_t n = fling_case(k, true, &f, &b, 801 + k);
		struct fit_result r, rb;
		char what[64];

		snprintf(what, sizeof(what), "%.0f Hz scalar %.1f v0 %.0f", rates[k / 6], f.scalar,
			 f.start_velocity);
		cr_assert_float_eq(run[n - 1].v, f.start_velocity > 0 ? f.max : f.min, 1e-3);
		cr_assert_eq(fit_run_bounded(run, n, &b, &rb), 0);
		cr_assert_eq(rb.kind, FIT_FLING, "%s: %s", what, fit_kind_str(rb.kind));
		cr_assert(rb.at_bound, "%s", what);
		cr_assert_leq(rel_err(rb.friction_scalar, f.scalar), 0.05, "%s", what);
		cr_assert_eq(fit_run(run, n, &r), 0);
		cr_assert_eq(r.kind, FIT_FLING, "%s: %s", what, fit_kind_str(r.kind));
		cr_assert(r.at_bound, "%s", what);
		cr_assert_leq(rel_err(r.friction_scalar, f.scalar), 0.05, "%s", what);
	}
}

struct interp_case {
	double hz;
	long ms;
};

/* 300 ms at 60 Hz is 19 frames, 250 ms at 120 Hz 31: both over the 16 the issue asks. */
static const struct interp_case interp_cases[] = { { 60, 300 }, { 120, 250 } };

/* Both entry points name interpolator i over case ic; *worst: the rms of each. */
static void check_interpolator(size_t i, const struct interp_case *ic, double lat_ms, uint64_t seed,
			       double worst[2])
{
	struct sim_clock c = sim_clock_at(ic->hz, 1, lat_ms, seed);
	struct sim_markers mk = { 0 };
	size_t n = sim_animator(sim_interps[i].fn, 40, 340, ic->ms, &c, run, SIM_MAX, &mk);
	const char *name = sim_interps[i].name, *got;
	struct fit_result r;
	double rms;
	char what[64];

	snprintf(what, sizeof(what), "%s %ld ms at %.0f Hz", name, ic->ms, ic->hz);
	cr_assert_geq(n, 16);
	cr_assert_eq(fit_run(run, n, &r), 0);
	cr_assert_eq(r.kind, FIT_INTERPOLATED, "%s: %s", what, fit_kind_str(r.kind));
	cr_assert_str_eq(r.interpolator, name, "%s", what);
	cr_assert_leq(fabs(r.duration_ms - ic->ms), 1000 / ic->hz, "%s", what);
	cr_assert_eq(fit_interpolator(run, n, mk.s_ns, mk.f_ns - mk.s_ns, 40, 340, &got, &rms), 0);
	cr_assert_str_eq(got, name, "%s: rms %.4f", what, rms);
	worst[0] = fmax(worst[0], r.interp_rms);
	worst[1] = fmax(worst[1], rms);
}

static void check_interpolators(double lat_ms, uint64_t seed)
{
	double worst[2] = { 0, 0 };

	for (size_t k = 0; k < 2 * SIM_N_INTERPS * 3; k++)
		check_interpolator(k / 3 % SIM_N_INTERPS, &interp_cases[k / (3 * SIM_N_INTERPS)],
				   lat_ms, seed + k, worst);
	cr_log_info("interpolators, lag %.1f ms: worst rms of the right curve %.4f (fit_run), "
		    "%.4f (fit_interpolator)",
		    lat_ms, worst[0], worst[1]);
}

Test(fit, every_framework_interpolator_is_named_by_fit_run_and_by_fit_interpolator)
{
	check_interpolators(0, 901);
}

Test(fit, interpolators_are_still_named_with_a_millisecond_of_doframe_lag)
{
	check_interpolators(1, 1001);
}

/* Moves, holds for some frames, moves again: no animator, spring or fling does that. */
static size_t paused_run(double hz, int move, int hold, uint64_t seed)
{
	struct sim_clock c = sim_clock_at(hz, 1, 0, seed);
	size_t n = 0;

	for (int i = 0; i < 2 * move + hold + 1; i++) {
		uint64_t f, t;
		double u = i < move	   ? (double)i / move :
			   i < move + hold ? 1 :
					     1 + (double)(i - move - hold) / move;

		sim_frame(&c, i, &f, &t);
		run[n++] = (struct fit_sample){ t, 150 * u };
	}
	return n;
}

Test(fit, a_curve_that_pauses_midway_is_other_and_custom)
{
	for (int rep = 0; rep < 6; rep++) {
		size_t n = paused_run(60 + 30 * (rep % 3), 6 + rep % 2, 4 + rep, 1101 + rep);
		struct fit_result r;
		const char *name;
		double rms;

		cr_assert_eq(fit_run(run, n, &r), 0);
		cr_assert_eq(r.kind, FIT_OTHER, "rep %d: %s", rep, fit_kind_str(r.kind));
		cr_assert_gt(r.rms, 0);
		cr_assert_null(r.interpolator);
		uint64_t dur = run[n - 1].t_ns - run[0].t_ns;

		cr_assert_eq(fit_interpolator(run, n, run[0].t_ns, dur, 0, 300, &name, &rms), 0);
		cr_assert_str_eq(name, "custom", "rep %d: rms %.4f", rep, rms);
	}
}

/*
 * A critically damped spring launched toward its target at w0 * travel is a single
 * exponential, the same curve as a fling: not a confusion, left out of the matrix.
 */
static bool one_exponential(const struct sim_spring *sp)
{
	double w = sqrt(sp->stiffness), a = sp->start - sp->final_pos;

	return sp->damping >= 1 && fabs(sp->start_velocity + w * a) < 0.2 * w * fabs(a);
}

enum { TRUE_SPRING, TRUE_FLING, TRUE_INTERP };

/* Springs of every constant pair at rest and launched both ways: 3 x 16 x 3 runs. */
static void count_springs(unsigned cm[3][4], double lat, uint64_t seed)
{
	static const float v0[] = { 0, 2000, -1500 };

	for (int k = 0; k < 144; k++) {
		struct sim_spring sp = {
			stiffnesses[k / 3 % 4], dampings[k / 12 % 4], 0, 300, v0[k % 3], SIM_PIXELS
		};
		struct sim_clock c = sim_clock_at(rates[k / 48], 1, lat, seed + k);
		size_t n = sim_spring(&sp, &c, run, SIM_MAX);
		struct fit_result r;

		if (one_exponential(&sp))
			continue;
		cr_assert_eq(fit_run(run, n, &r), 0);
		cr_assert_lt(r.kind, 4);
		cm[TRUE_SPRING][r.kind]++;
	}
}

/* Flings of every friction and three velocities; ValueAnimators of 200, 350 and 500 ms. */
static void count_flings_and_animators(unsigned cm[3][4], double lat, uint64_t seed)
{
	static const float v0[] = { 2000, -3000, 800 };

	for (int k = 0; k < 27; k++) {
		struct sim_fling f = { scalars[k / 3 % 3], 100,	    v0[k % 3],
				       -FLT_MAX,	   FLT_MAX, SIM_PIXELS };
		struct sim_clock c = sim_clock_at(rates[k / 9], 1, lat, seed + k);
		size_t n = sim_fling(&f, &c, run, SIM_MAX);
		struct fit_result r;

		cr_assert_eq(fit_run(run, n, &r), 0);
		cm[TRUE_FLING][r.kind]++;
	}
	for (size_t k = 0; k < 3 * SIM_N_INTERPS * 3; k++) {
		struct sim_clock c = sim_clock_at(rates[k % 3], 1, lat, seed + 100 + k);
		struct sim_markers mk;
		struct fit_result r;
		long ms = 200 + 150 * (long)(k / 3 % 3);
		size_t n = sim_animator(sim_interps[k / 9].fn, 0, 300, ms, &c, run, SIM_MAX, &mk);

		cr_assert_eq(fit_run(run, n, &r), 0);
		cm[TRUE_INTERP][r.kind]++;
	}
}

Test(fit, the_confusion_matrix_is_diagonal_with_and_without_doframe_lag)
{
	for (int lat = 0; lat <= 1; lat++) {
		unsigned cm[3][4] = { { 0 } };

		count_springs(cm, lat, 1201 + 1000 * lat);
		count_flings_and_animators(cm, lat, 1501 + 1000 * lat);
		cr_log_info("lag %d ms, rows spring/fling/interpolated, columns as fitted "
			    "spring/fling/interpolated/other: "
			    "%u %u %u %u | %u %u %u %u | %u %u %u %u",
			    lat, cm[0][0], cm[0][1], cm[0][2], cm[0][3], cm[1][0], cm[1][1],
			    cm[1][2], cm[1][3], cm[2][0], cm[2][1], cm[2][2], cm[2][3]);
		for (int t = 0; t < 3; t++) {
			for (int k = 0; k < 4; k++)
				cr_assert(k == t || cm[t][k] == 0, "lag %d ms: row %d as %s: %u",
					  lat, t, fit_kind_str(k), cm[t][k]);
		}
	}
}

Test(fit, a_critically_damped_spring_launched_as_one_exponential_fits_as_fling_or_spring)
{
	struct sim_spring sp = { 50, 1, 0, 300, 2000, SIM_PIXELS };
	struct sim_clock c = sim_clock_at(60, 1, 0, 1301);
	size_t n = sim_spring(&sp, &c, run, SIM_MAX);
	struct fit_result r;

	cr_assert(one_exponential(&sp));
	cr_assert_eq(fit_run(run, n, &r), 0);
	cr_assert(r.kind == FIT_FLING || r.kind == FIT_SPRING, "%s", fit_kind_str(r.kind));
	cr_assert_leq(r.rms, 0.2, "rms %.4f px", r.rms);
}

Test(fit, a_linear_ramp_is_linear_never_a_spring_or_a_fling)
{
	for (int rep = 0; rep < 9; rep++) {
		struct sim_clock c = sim_clock_at(rates[rep % 3], 1, rep / 3 * 0.5, 1401 + rep);
		struct sim_markers mk;
		struct fit_result r;
		long ms = 150 + 100 * (rep % 4);
		size_t n = sim_animator(sim_linear, 300, -20, ms, &c, run, SIM_MAX, &mk);

		cr_assert_eq(fit_run(run, n, &r), 0);
		cr_assert_eq(r.kind, FIT_INTERPOLATED, "rep %d: %s", rep, fit_kind_str(r.kind));
		cr_assert_str_eq(r.interpolator, "Linear");
	}
}

Test(fit, bad_input_is_rejected_with_einval)
{
	struct fit_sample s[4] = {
		{ 1000000000, 0 }, { 1016000000, 1 }, { 1033000000, 2 }, { 1050000000, 3 }
	};
	struct fit_result r;
	const char *name;

	cr_assert_eq(fit_run(s, 2, &r), -EINVAL);
	cr_assert_eq(fit_run(NULL, 4, &r), -EINVAL);
	cr_assert_eq(fit_run(s, 4, NULL), -EINVAL);
	cr_assert_eq(fit_interpolator(s, 2, 0, 1, 0, 1, &name, NULL), -EINVAL);
	cr_assert_eq(fit_interpolator(s, 4, s[0].t_ns, 0, 0, 3, &name, NULL), -EINVAL);
	cr_assert_eq(fit_interpolator(s, 4, s[0].t_ns, 50000000, 1, 1, &name, NULL), -EINVAL);
	cr_assert_eq(fit_interpolator(s, 4, s[0].t_ns, 50000000, 0, NAN, &name, NULL), -EINVAL);
	s[2].v = NAN;
	cr_assert_eq(fit_run(s, 4, &r), -EINVAL);
	s[2].v = INFINITY;
	cr_assert_eq(fit_run(s, 4, &r), -EINVAL);
	cr_assert_eq(fit_interpolator(s, 4, s[0].t_ns, 50000000, 0, 3, &name, NULL), -EINVAL);
	s[2].v = 2;
	s[2].t_ns = s[0].t_ns - 1; /* backwards */
	cr_assert_eq(fit_run(s, 4, &r), -EINVAL);
	for (int i = 0; i < 4; i++)
		s[i].t_ns = 1000000000 + i * 100000; /* all within one ms */
	cr_assert_eq(fit_run(s, 4, &r), -EINVAL);
}

Test(fit, a_run_that_never_moves_is_other_with_zero_rms)
{
	struct fit_sample s[5];
	struct fit_result r;

	for (int i = 0; i < 5; i++)
		s[i] = (struct fit_sample){ 2000000000ull + i * 16666667ull, 42 };
	cr_assert_eq(fit_run(s, 5, &r), 0);
	cr_assert_eq(r.kind, FIT_OTHER);
	cr_assert_float_eq(r.rms, 0, 1e-12);
	cr_assert_float_eq(r.start_value, 42, 1e-12);
	cr_assert_float_eq(r.final_value, 42, 1e-12);
}

Test(fit, fit_kind_str_names_every_kind)
{
	cr_assert_str_eq(fit_kind_str(FIT_SPRING), "spring");
	cr_assert_str_eq(fit_kind_str(FIT_FLING), "fling");
	cr_assert_str_eq(fit_kind_str(FIT_INTERPOLATED), "interpolated");
	cr_assert_str_eq(fit_kind_str(FIT_OTHER), "other");
}
