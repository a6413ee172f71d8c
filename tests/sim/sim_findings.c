// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * animsim's findings scenarios (sim_findings.h, tests/sim/README.md). Animators run as
 * frameworks/base core/java/android/animation does (checked in AOSP):
 * - ValueAnimator.start() (no start delay) calls startAnimation(), which writes the S, then
 *   setCurrentPlayTime(0): animateValue(0) writes the start value at once; the first
 *   doAnimationFrame takes its frame time as mStartTime.
 * - animateBasedOnTime: fraction = (frameTime - mStartTime) / duration; an INFINITE repeat
 *   wraps it (getCurrentIterationFraction: RESTART from 0, REVERSE backwards on odd
 *   iterations) and never ends; otherwise fraction >= 1 writes the end value and
 *   endAnimation() writes the F.
 * - cancel() -> endAnimation(): the F, no value; end() -> animateValue(1) then the F;
 *   pause(): doAnimationFrame removes its callback, no value and no marker, until resume().
 * - ObjectAnimator.start(): AnimationHandler.autoCancelBasedOn(this) cancels every running
 *   ObjectAnimator with mAutoCancel and the same target and properties, then super.start().
 *   ofFloat(target, prop, to) (one value) starts from the target's value at start().
 * Unmarked springs step as DynamicAnimation does (tests/unit/fit_sim.h), without markers.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit_sim.h"
#include "sim_findings.h"

#define SA_MAX 6
#define SN_MAX 3
#define SS_MAX 2
#define SP_MAX 2
#define SF_MAX 4

enum sa_stop { STOP_NONE = 0, STOP_CANCEL, STOP_END, STOP_PAUSE };

/* One animator: an ObjectAnimator ("animator:<prop>") or a ValueAnimator ("animator") whose
 * update listener sets the property; started by app code in an input phase. */
struct sa_def {
	const char *name;
	uint32_t cookie; /* added to the role's base */
	int node;
	enum hwui_prop prop;
	float from, to; /* from NAN: ofFloat(target, prop, to), from the target's value */
	long duration_ms;
	sim_interp_fn interp;	/* NULL: LinearInterpolator */
	bool infinite, reverse; /* setRepeatCount(INFINITE), setRepeatMode(REVERSE) */
	int start_frame;
	int replaces; /* > 0: its ObjectAnimator.start() auto-cancels animator replaces - 1 */
	int stop_frame;
	enum sa_stop stop;
};

/* A SpringAnimation (no markers) from `from` to its final position. */
struct ss_def {
	int node;
	enum hwui_prop prop;
	float stiffness, damping, from, to;
	int start_frame;
};

/* Code that is no animator sets a property in an input phase (a touch handler), before the
 * animators of that frame. */
struct sp_def {
	int frame, node;
	enum hwui_prop prop;
	float value;
};

/* What animtrace must conclude: ids are animator indexes + 1 (spring: the spring's index + 1,
 * unmarked); code: code that is no animator is among the writers. */
struct sf_def {
	const char *kind;
	int ids[2];
	bool unmarked, code;
	int node;
	enum hwui_prop prop;
};

struct sc_def {
	const char *name;
	const char *cls[SN_MAX];
	struct sa_def anims[SA_MAX];
	struct ss_def springs[SS_MAX];
	struct sp_def pokes[SP_MAX];
	struct sf_def findings[SF_MAX];
};

#define OBJ(nm, ck, nd, pr, f, t, ms) \
	.name = nm, .cookie = ck, .node = nd, .prop = pr, .from = f, .to = t, .duration_ms = ms

static const struct sc_def scripts[] = {
	/* Started and cancelled in one click (alpha 0 on a visible view, then nothing); a
	 * translationY started in one frame and cancelled in the next (one frame of values);
	 * a completed scaleX and a rotation cancelled after six frames are no flicker. */
	{ .name = "flicker",
	  .cls = { "com.android.systemui.statusbar.notification.row.NotificationRow",
		   "com.android.systemui.scrim.ScrimView" },
	  .anims = { { OBJ("animator:alpha", 1, 0, HWUI_ALPHA, 0, 1, 300), .start_frame = 3,
		       .stop_frame = 3, .stop = STOP_CANCEL },
		     { OBJ("animator:translationY", 2, 1, HWUI_TRANSLATION_Y, 50, 0, 300),
		       .start_frame = 6, .stop_frame = 7, .stop = STOP_CANCEL },
		     { OBJ("animator:scaleX", 3, 1, HWUI_SCALE_X, 1, 0.5f, 200), .start_frame = 10 },
		     { OBJ("animator:rotation", 4, 0, HWUI_ROTATION, 0, 90, 500), .start_frame = 10,
		       .stop_frame = 16, .stop = STOP_CANCEL } },
	  .findings = { { "flicker", { 1 }, .node = 0, .prop = HWUI_ALPHA },
			{ "flicker", { 2 }, .node = 1, .prop = HWUI_TRANSLATION_Y } } },
	/* A tile's fade-out replaced by a fade-in of the same view and property (auto-cancel);
	 * on another view, an explicit cancel() right before the start of another property. */
	{ .name = "replace",
	  .cls = { "com.android.systemui.qs.tileimpl.QSTileView",
		   "com.android.systemui.scrim.ScrimView" },
	  .anims = { { OBJ("animator:alpha", 1, 0, HWUI_ALPHA, 1, 0, 500), .start_frame = 2 },
		     { OBJ("animator:alpha", 2, 0, HWUI_ALPHA, NAN, 1, 200), .start_frame = 10,
		       .replaces = 1 },
		     { OBJ("animator:scaleX", 3, 1, HWUI_SCALE_X, 1, 0.8f, 300), .start_frame = 4,
		       .stop_frame = 12, .stop = STOP_CANCEL },
		     { OBJ("animator:translationX", 4, 1, HWUI_TRANSLATION_X, 0, 40, 200),
		       .start_frame = 12 } },
	  .findings = { { "replaced", { 1, 2 }, .node = 0, .prop = HWUI_ALPHA } } },
	/* An ObjectAnimator and a ValueAnimator's update listener set one alpha in the same
	 * frames; in one of them code that is no animator sets it too. */
	{ .name = "fight",
	  .cls = { "com.android.systemui.statusbar.notification.row.NotificationRow" },
	  .anims = { { OBJ("animator:alpha", 1, 0, HWUI_ALPHA, 1, 0, 400), .start_frame = 2 },
		     { OBJ("animator", 2, 0, HWUI_ALPHA, 0.2f, 0.8f, 200), .start_frame = 6 } },
	  .pokes = { { 10, 0, HWUI_ALPHA, 0.5f } }, /* a touch handler's setAlpha */
	  .findings = { { "conflict", { 1, 2 }, .node = 0, .prop = HWUI_ALPHA },
			{ "conflict", { 1, 2 }, .code = true, .node = 0, .prop = HWUI_ALPHA } } },
	/* SpringForce STIFFNESS_VERY_LOW with DAMPING_RATIO_HIGH_BOUNCY beside STIFFNESS_MEDIUM
	 * with the same damping: only the first oscillates long. */
	{ .name = "springs",
	  .cls = { "com.android.systemui.shade.NotificationPanelView",
		   "com.android.systemui.statusbar.phone.KeyguardBottomArea" },
	  .springs = { { 0, HWUI_TRANSLATION_Y, 50, 0.2f, 0, 100, 2 },
		       { 1, HWUI_TRANSLATION_X, 1500, 0.2f, 0, 100, 2 } },
	  .findings = { { "slow_spring",
			  { 1 },
			  .unmarked = true,
			  .node = 0,
			  .prop = HWUI_TRANSLATION_Y } } },
	/* Still running when tracing stops: an INFINITE RESTART spin, an INFINITE REVERSE
	 * pulse whose period is no whole number of frames, a paused slide, and a 20 s scale
	 * that still moves (neither). */
	{ .name = "leak",
	  .cls = { "com.android.systemui.util.LoadingSpinner",
		   "com.android.systemui.statusbar.PulsingDot",
		   "com.android.systemui.media.MediaScrollView" },
	  .anims = { { OBJ("animator:rotation", 1, 0, HWUI_ROTATION, 0, 360, 600), .infinite = true,
		       .start_frame = 2 },
		     { OBJ("animator:alpha", 2, 1, HWUI_ALPHA, 0.2f, 1, 430),
		       .interp = sim_accel_decel, .infinite = true, .reverse = true,
		       .start_frame = 3 },
		     { OBJ("animator:translationX", 3, 2, HWUI_TRANSLATION_X, 0, 200, 1000),
		       .start_frame = 2, .stop_frame = 12, .stop = STOP_PAUSE },
		     { OBJ("animator:scaleY", 4, 2, HWUI_SCALE_Y, 1, 1.2f, 20000),
		       .start_frame = 4 } },
	  .findings = { { "repeating", { 1 }, .node = 0, .prop = HWUI_ROTATION },
			{ "repeating", { 2 }, .node = 1, .prop = HWUI_ALPHA },
			{ "stalled", { 3 }, .node = 2, .prop = HWUI_TRANSLATION_X } } },
	/* Nothing wrong: a 0 -> 1 fade of a view at alpha 1, a FastOutSlowIn slide. */
	{ .name = "clean",
	  .cls = { "com.android.systemui.statusbar.notification.row.NotificationRow",
		   "com.android.systemui.qs.QSPanel" },
	  .anims = { { OBJ("animator:alpha", 1, 0, HWUI_ALPHA, 0, 1, 300), .start_frame = 2 },
		     { OBJ("animator:translationY", 2, 1, HWUI_TRANSLATION_Y, 0, -120, 300),
		       .interp = sim_fast_out_slow_in, .start_frame = 4 } } },
};

#define N_SCRIPTS ((int)(sizeof(scripts) / sizeof(scripts[0])))

struct sa_run {
	uint32_t obj;	    /* the ART object (0 without the ART fixture) */
	int started, ended; /* frames, 0 when it did not happen */
	const char *end;    /* complete, cancel, end */
	bool running, paused;
	float from;
	long start_ms; /* mStartTime: -1 until its first animation frame */
};

struct ss_run {
	struct sim_spring_state st;
	float x;
	long last_ms;
	int started, ended;
};

struct state {
	const struct sc_def *sc;
	int64_t node[SN_MAX];
	struct sa_run run[SA_MAX];
	struct ss_run spring[SS_MAX];
};

static int n_anims(const struct sc_def *sc)
{
	int n = 0;

	while (n < SA_MAX && sc->anims[n].name)
		n++;
	return n;
}

static int n_nodes(const struct sc_def *sc)
{
	int n = 0;

	while (n < SN_MAX && sc->cls[n])
		n++;
	return n;
}

struct write_ctx {
	const struct sim_env *env;
	int64_t node;
	enum hwui_prop prop;
	float v;
};

static void write_value(void *arg)
{
	const struct write_ctx *w = arg;

	w->env->hwui->set[w->prop](w->node, w->v);
}

/* animateValue: an ObjectAnimator's property holder or a ValueAnimator's listener sets v. */
static void animate(const struct sim_env *env, struct state *s, int i, float v)
{
	const struct sa_def *d = &s->sc->anims[i];
	struct write_ctx w = { env, s->node[d->node], d->prop, v };

	if (env->art)
		env->art->animate_value(s->run[i].obj, strchr(d->name, ':') != NULL, write_value,
					&w);
	else
		write_value(&w);
}

static void s_marker(const struct sim_env *env, struct state *s, int i, int frame)
{
	env->marker(env->app, "S|%d|%s|%" PRIu32, env->tgid, s->sc->anims[i].name,
		    env->cookie_base + s->sc->anims[i].cookie);
	s->run[i].started = frame;
	s->run[i].running = true;
}

static void f_marker(const struct sim_env *env, struct state *s, int i, int frame, const char *how)
{
	env->marker(env->app, "F|%d|%s|%" PRIu32, env->tgid, s->sc->anims[i].name,
		    env->cookie_base + s->sc->anims[i].cookie);
	s->run[i].ended = frame;
	s->run[i].end = how;
	s->run[i].running = false;
}

struct cancel_ctx {
	const struct sim_env *env;
	struct state *s;
	int old, frame;
};

static void auto_cancelled(void *arg)
{
	const struct cancel_ctx *c = arg;

	f_marker(c->env, c->s, c->old, c->frame, "cancel");
}

/* start(): (ObjectAnimator's auto-cancel,) the S, then animateValue(0). */
static void start(const struct sim_env *env, struct state *s, int i, int frame)
{
	const struct sa_def *d = &s->sc->anims[i];
	struct sa_run *r = &s->run[i];
	int old = d->replaces - 1;
	bool cancels = old >= 0 && s->run[old].running;
	struct cancel_ctx c = { env, s, old, frame };

	if (env->art && strchr(d->name, ':'))
		env->art->object_start(r->obj, cancels ? s->run[old].obj : 0, auto_cancelled, &c);
	else if (env->art)
		env->art->call[ART_CALL_START](r->obj);
	else if (cancels)
		auto_cancelled(&c);
	s_marker(env, s, i, frame);
	r->from = isnan(d->from) ? env->hwui->get[d->prop](s->node[d->node]) : d->from;
	r->start_ms = -1;
	animate(env, s, i, r->from);
}

static void stop(const struct sim_env *env, struct state *s, int i, int frame)
{
	const struct sa_def *d = &s->sc->anims[i];
	struct sa_run *r = &s->run[i];

	if (!r->running)
		return;
	if (d->stop == STOP_PAUSE) {
		r->paused = true;
		return;
	}
	if (env->art)
		env->art->call[d->stop == STOP_END ? ART_CALL_END : ART_CALL_CANCEL](r->obj);
	if (d->stop == STOP_END)
		animate(env, s, i, d->to);
	f_marker(env, s, i, frame, d->stop == STOP_END ? "end" : "cancel");
}

/* ValueAnimator.getCurrentIterationFraction for a fraction already past mStartTime. */
static float iteration_fraction(const struct sa_def *d, double fraction)
{
	double it = floor(fraction), cur;

	if (fraction == it && fraction > 0)
		it--;
	cur = fraction - it;
	if (d->reverse && (long)it % 2)
		cur = 1 - cur;
	return (float)cur;
}

/* AnimationHandler.doAnimationFrame for animator i at frame time ms. */
static void anim_frame(const struct sim_env *env, struct state *s, int i, int frame, long ms)
{
	const struct sa_def *d = &s->sc->anims[i];
	struct sa_run *r = &s->run[i];
	double fraction;
	bool done;
	float f;

	if (!r->running || r->paused)
		return;
	if (r->start_ms < 0)
		r->start_ms = ms;
	fraction = (double)(ms - r->start_ms) / (double)d->duration_ms;
	done = !d->infinite && fraction >= 1;
	f = done ? 1.0f : iteration_fraction(d, fraction);
	animate(env, s, i, r->from + (d->interp ? d->interp(f) : f) * (d->to - r->from));
	if (done)
		f_marker(env, s, i, frame, "complete");
}

/* DynamicAnimation.doAnimationFrame: the start value first, then whole-ms steps. */
static void spring_frame(const struct sim_env *env, struct state *s, int k, int frame, long ms)
{
	const struct ss_def *d = &s->sc->springs[k];
	struct ss_run *r = &s->spring[k];

	if (!d->stiffness || r->ended || frame < d->start_frame)
		return;
	if (frame == d->start_frame) {
		double value_th = SIM_PIXELS * 0.75;

		r->st = (struct sim_spring_state){ sqrt((double)d->stiffness), d->damping, value_th,
						   value_th * (1000.0 / 16),   d->to,	   0 };
		r->x = d->from;
		r->started = frame;
	} else if (sim_spring_frame(&r->st, ms - r->last_ms, &r->x)) {
		r->ended = frame;
	}
	r->last_ms = ms;
	env->hwui->set[d->prop](s->node[d->node], r->x);
}

static const struct sc_def *script_def(const char *name)
{
	for (int i = 0; i < N_SCRIPTS; i++)
		if (!strcmp(scripts[i].name, name))
			return &scripts[i];
	return NULL;
}

int sim_findings_setup(const struct sim_env *env, const char *name, void **state)
{
	struct state *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->sc = script_def(name);
	*state = s;
	if (!s->sc)
		return -EINVAL;
	for (int i = 0; i < n_nodes(s->sc); i++) {
		s->node[i] = env->hwui->create_node(s->sc->cls[i]);
		if (!s->node[i])
			return -errno;
	}
	for (int i = 0; env->art && i < n_anims(s->sc); i++) {
		s->run[i].obj = env->art->new_object(env->cookie_base + s->sc->anims[i].cookie);
		if (!s->run[i].obj)
			return -errno;
	}
	return 0;
}

void sim_findings_frame(const struct sim_env *env, void *state, int frame, enum sim_phase phase,
			uint64_t frame_ns)
{
	struct state *s = state;
	const struct sc_def *sc = s->sc;
	long ms = (long)(frame_ns / 1000000); /* AnimationHandler's frame time */

	for (int i = 0; phase == SIM_INPUT && i < n_anims(sc); i++) {
		if (sc->anims[i].start_frame == frame)
			start(env, s, i, frame);
		if (sc->anims[i].stop_frame == frame)
			stop(env, s, i, frame);
	}
	for (int k = 0; phase == SIM_INPUT && k < SP_MAX; k++)
		if (sc->pokes[k].frame == frame)
			env->hwui->set[sc->pokes[k].prop](s->node[sc->pokes[k].node],
							  sc->pokes[k].value);
	if (phase != SIM_ANIMATION)
		return;
	for (int i = 0; i < n_anims(sc); i++)
		anim_frame(env, s, i, frame, ms);
	for (int k = 0; k < SS_MAX; k++)
		spring_frame(env, s, k, frame, ms);
}

static const char *simple(const char *cls)
{
	return strrchr(cls, '.') + 1;
}

static void expect_anims(const struct sim_env *env, const struct state *s)
{
	char sf[16], ef[16], end[16];

	for (int i = 0; i < n_anims(s->sc); i++) {
		const struct sa_run *r = &s->run[i];

		snprintf(sf, sizeof(sf), r->started ? "%d" : "null", r->started);
		snprintf(ef, sizeof(ef), r->ended ? "%d" : "null", r->ended);
		snprintf(end, sizeof(end), r->ended ? "\"%s\"" : "null", r->end);
		env->line(env->app,
			  "{\"type\":\"animator\",\"pid\":%d,\"process\":\"%s\",\"role\":\"%s\","
			  "\"name\":\"%s\",\"cookie\":%" PRIu32 ",\"start_frame\":%s,"
			  "\"end_frame\":%s,\"start_vsync\":null,\"end_vsync\":null,\"end\":%s}",
			  env->tgid, env->pkg, env->role, s->sc->anims[i].name,
			  env->cookie_base + s->sc->anims[i].cookie, sf, ef, end);
	}
}

static void expect_springs(const struct sim_env *env, const struct state *s)
{
	for (int k = 0; k < SS_MAX; k++) {
		const struct ss_def *d = &s->sc->springs[k];

		if (!d->stiffness)
			continue;
		env->line(env->app,
			  "{\"type\":\"physics\",\"pid\":%d,\"process\":\"%s\",\"role\":\"%s\","
			  "\"kind\":\"spring\",\"node\":\"0x%" PRIx64 "\",\"node_name\":\"%s\","
			  "\"property\":\"%s\",\"start_frame\":%d,\"end_frame\":%d,\"from\":%.9g,"
			  "\"to\":%.9g,\"stiffness\":%.9g,\"damping_ratio\":%.9g,"
			  "\"start_velocity\":0}",
			  env->tgid, env->pkg, env->role, (uint64_t)s->node[d->node],
			  simple(s->sc->cls[d->node]), env->hwui->name[d->prop],
			  s->spring[k].started, s->spring[k].ended, (double)d->from,
			  (double)s->spring[k].x, (double)d->stiffness, (double)d->damping);
	}
}

/* The findings, ids as the cookies of the animators (an unmarked spring's: its index). */
static void expect_findings(const struct sim_env *env, const struct state *s)
{
	for (int k = 0; k < SF_MAX && s->sc->findings[k].kind; k++) {
		const struct sf_def *f = &s->sc->findings[k];
		char ids[64] = "";
		size_t len = 0;

		for (int j = 0; j < 2 && f->ids[j]; j++)
			len += (size_t)snprintf(
				ids + len, sizeof(ids) - len, "%s%" PRIu32, j ? "," : "",
				f->unmarked ?
					(uint32_t)f->ids[j] - 1 :
					env->cookie_base + s->sc->anims[f->ids[j] - 1].cookie);
		env->line(env->app,
			  "{\"type\":\"finding\",\"pid\":%d,\"role\":\"%s\",\"kind\":\"%s\","
			  "\"ids\":[%s],\"unmarked\":%s,\"code\":%s,\"node\":\"0x%" PRIx64 "\","
			  "\"node_name\":\"%s\",\"property\":\"%s\"}",
			  env->tgid, env->role, f->kind, ids, f->unmarked ? "true" : "false",
			  f->code ? "true" : "false", (uint64_t)s->node[f->node],
			  simple(s->sc->cls[f->node]), env->hwui->name[f->prop]);
	}
}

void sim_findings_finish(const struct sim_env *env, void *state)
{
	struct state *s = state;

	if (!s)
		return;
	if (s->sc) {
		expect_anims(env, s);
		expect_springs(env, s);
		expect_findings(env, s);
		for (int i = 0; i < n_nodes(s->sc); i++)
			if (s->node[i])
				env->hwui->free_node(s->node[i]);
	}
	free(s);
}

bool sim_findings_has(const char *name)
{
	return script_def(name) != NULL;
}
