// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* DynamicAnimation lifecycles (engine/dynanims.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/curve.h"
#include "engine/dynanims.h"
#include "engine/state.h"
#include "model/fit.h"

struct dyn_run {
	struct dyn_run *next;
	struct dynanims *d; /* its session's, which counts it when it ends */
	struct dyn_anim a;
	bool skip;	    /* skipToEnd() was called: its end is END_FORCE_END */
	bool framed;	    /* a doAnimationFrame since the process's last frame ended */
	int missed;	    /* process frames ended since without one */
	bool cancel_called; /* cancel() while it ran: at cancel_ns */
	uint64_t cancel_ns, frame_ts_ns; /* frame_ts_ns: its last doAnimationFrame entry */
	bool unannounced;   /* first seen in a doAnimationFrame: dyn_start waits for its
				* first write (it may be a moved object of a run: see run_moved) */
	uint64_t frame_ns;  /* the frame time its last doAnimationFrame was given */
	struct curve curve; /* the target's values, one per frame */
};

/* A caller frame of DynamicAnimation itself, left out of stacks as the seed's tracer does
 * (it filters "com.android.internal.dynamicanimation."; androidx's copy likewise). */
static bool internal_frame(const char *name)
{
	return !strncmp(name, "com.android.internal.dynamicanimation.", 38) ||
	       !strncmp(name, "androidx.dynamicanimation.", 26);
}

static int stack_copy(char (*dst)[AT_FRAME_NAME], const char (*src)[AT_FRAME_NAME], int n)
{
	int k = 0;

	for (int i = 0; i < n && k < AT_STACK_FRAMES; i++)
		if (!internal_frame(src[i]))
			snprintf(dst[k++], AT_FRAME_NAME, "%s", src[i]);
	return k;
}

static struct dyn_run *run_find(struct dynanims_proc *dp, uint64_t obj)
{
	for (struct dyn_run *r = dp->runs; r; r = r->next)
		if (r->a.obj == obj)
			return r;
	return NULL;
}

static void run_unlink(struct dynanims_proc *dp, struct dyn_run *r)
{
	for (struct dyn_run **pp = &dp->runs; *pp; pp = &(*pp)->next) {
		if (*pp == r) {
			*pp = r->next;
			dp->n--;
			return;
		}
	}
}

/* Fits the target's values; a run not known to be a spring is a fling when they say so. */
static void run_fit(struct dyn_run *r)
{
	struct fit_sample smp[CAP_SEG_SAMPLES + 1];
	size_t n = curve__samples(&r->curve, smp);
	r->a.fitted = n >= 3 && fit_run_bounded(smp, n, NULL, &r->a.fit) == 0;
	if (r->a.kind == DYN_UNKNOWN && r->a.fitted && r->a.fit.kind == FIT_FLING)
		r->a.kind = DYN_FLING;
}

/* r ends (reason at ts_ns): fitted, sent, freed. */
static void run_end(struct dynanims_proc *dp, struct dyn_run *r, enum end_reason reason,
		    uint64_t ts_ns, struct emit *out)
{
	run_unlink(dp, r);
	if (r->unannounced)
		SINK_CALL(out, dyn_start, &r->a);
	r->a.ended = true;
	r->a.reason = reason;
	r->a.end_ns = ts_ns;
	run_fit(r); /* a fling is known by its fit */
	r->d->ended[r->a.kind <= DYN_FLING ? r->a.kind : DYN_UNKNOWN]++;
	SINK_CALL(out, dyn_end, &r->a);
	free(r);
}

static struct dyn_run *run_new(struct dynanims *d, struct dynanims_proc *dp, const char *process,
			       uint32_t pid, uint32_t tid, uint64_t obj, uint64_t ts_ns,
			       struct emit *out)
{
	struct dyn_run *r, *oldest;

	if (dp->n >= CAP_DYN_RUNS) { /* the oldest goes out as it is */
		for (oldest = dp->runs; oldest->next; oldest = oldest->next)
			;
		d->evicted++;
		run_end(dp, oldest, END_NONE, ts_ns, out);
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		d->evicted++;
		return NULL;
	}
	r->d = d;
	r->a.id = ++d->next_id;
	r->a.pid = pid;
	r->a.tid = tid;
	r->a.obj = obj;
	r->a.start_ns = ts_ns;
	snprintf(r->a.process, sizeof(r->a.process), "%s", process ? process : "");
	r->next = dp->runs;
	dp->runs = r;
	dp->n++;
	return r;
}

void dynanims__start(struct dynanims *d, struct dynanims_proc *dp, struct dynanims_thread *dt,
		     const char *process, uint32_t pid, uint32_t tid, uint64_t obj, bool spring,
		     uint64_t ts_ns, const char (*stack)[AT_FRAME_NAME], int n_stack,
		     struct emit *out)
{
	struct dyn_run *r = run_find(dp, obj);

	if (r) { /* start() of a running animation is a no-op; SpringAnimation.start then super */
		if (spring && r->a.kind == DYN_UNKNOWN && !r->a.frames)
			r->a.kind = DYN_SPRING;
		if (!r->a.n_start_stack && !r->a.frames)
			r->a.n_start_stack = stack_copy(r->a.start_stack, stack, n_stack);
		return;
	}
	r = run_new(d, dp, process, pid, tid, obj, ts_ns, out);
	if (!r)
		return;
	r->a.kind = spring ? DYN_SPRING : DYN_UNKNOWN;
	r->a.n_start_stack = stack_copy(r->a.start_stack, stack, n_stack);
	if (dt && dt->cancelled_id)
		r->a.replaces = dt->cancelled_id; /* confirmed by its first write (same target) */
	SINK_CALL(out, dyn_start, &r->a);
}

void dynanims__cancel(struct dynanims_proc *dp, struct dynanims_thread *dt, uint64_t obj, bool skip,
		      uint64_t ts_ns, const char (*stack)[AT_FRAME_NAME], int n_stack)
{
	struct dyn_run *r = run_find(dp, obj);

	(void)dt;
	if (!r) /* cancel() of an animation not running is a no-op */
		return;
	if (skip) {
		r->skip = true;
	} else {
		r->cancel_called = true;
		r->cancel_ns = ts_ns;
	}
	r->a.n_end_stack = stack_copy(r->a.end_stack, stack, n_stack);
}

void dynanims__end(struct dynanims_proc *dp, struct dynanims_thread *dt, uint64_t obj,
		   bool canceled, uint64_t ts_ns, struct emit *out)
{
	struct dyn_run *r = run_find(dp, obj);
	enum end_reason reason = canceled     ? END_CANCEL :
				 r && r->skip ? END_FORCE_END :
						END_COMPLETE;

	if (!r)
		return;
	if (canceled && dt && r->a.has_target) {
		dt->cancelled_id = r->a.id;
		dt->cancelled_node = r->a.node;
		dt->cancelled_prop = r->a.prop;
	}
	if (dt && dt->win_valid && dt->win_obj == obj)
		dt->win_valid = false; /* ended in its own frame: its writes are over */
	run_end(dp, r, reason, ts_ns, out);
}

void dynanims__frame(struct dynanims *d, struct dynanims_proc *dp, struct dynanims_thread *dt,
		     const char *process, uint32_t pid, uint32_t tid, uint64_t obj,
		     uint64_t frame_ms, uint64_t ts_ns, size_t phase_depth, struct emit *out)
{
	struct dyn_run *r = run_find(dp, obj);

	if (!r) { /* its start() was not seen (not compiled, before the probes, or moved) */
		r = run_new(d, dp, process, pid, tid, obj, ts_ns, out);
		if (!r)
			return;
		r->unannounced = true;
	}
	r->frame_ns = frame_ms * 1000000ULL;
	r->frame_ts_ns = ts_ns;
	r->framed = true;
	r->missed = 0;
	if (!r->a.frames++)
		r->a.first_frame_ns = r->frame_ns;
	r->a.last_frame_ns = r->frame_ns;
	dt->win_valid = true;
	dt->win_obj = obj;
	dt->win_depth = phase_depth;
	dt->cancelled_id = 0; /* a frame passed: no start after it replaces that cancel */
}

void dynanims__frame_ended(struct dynanims_proc *dp, struct emit *out)
{
	struct dyn_run *r = dp->runs, *next;

	for (; r; r = next) {
		next = r->next;
		if (!r->a.frames || r->framed) {
			r->framed = false;
			r->missed = 0;
			continue;
		}
		if (++r->missed < DYN_MISSED_FRAMES)
			continue;
		r->a.end_inferred = true;
		run_end(dp, r,
			r->cancel_called ? END_CANCEL :
			r->skip		 ? END_FORCE_END :
					   END_COMPLETE,
			r->cancel_called ? r->cancel_ns : r->frame_ts_ns, out);
	}
}

void dynanims__window_close(struct dynanims_thread *dt)
{
	dt->win_valid = false;
}

void dynanims__marker(struct dynanims_thread *dt)
{
	if (dt->win_valid && !dt->win_depth)
		dt->win_valid = false;
}

void dynanims__slice_ended(struct dynanims_thread *dt, size_t depth)
{
	if (dt->win_valid && dt->win_depth && depth < dt->win_depth)
		dt->win_valid = false;
}

/*
 * ART's concurrent copying GC moves objects (a young DynamicAnimation first of all), so a
 * running animation can come back under another `this`: a run first seen in a doAnimationFrame
 * whose first write is the property of a run that got no doAnimationFrame since is that run,
 * moved. Returns the run it continues (r is freed), or NULL.
 */
static struct dyn_run *run_moved(struct dynanims_proc *dp, struct dyn_run *r, uint64_t node,
				 enum view_prop prop)
{
	for (struct dyn_run *o = dp->runs; o; o = o->next) {
		if (o == r || !o->a.has_target || o->a.node != node || o->a.prop != prop ||
		    o->frame_ns >= r->frame_ns)
			continue;
		o->a.obj = r->a.obj;
		o->frame_ns = r->frame_ns;
		o->a.last_frame_ns = r->frame_ns;
		o->a.frames++;
		run_unlink(dp, r);
		free(r);
		return o;
	}
	return NULL;
}

uint64_t dynanims__write(struct dynanims_proc *dp, const struct dynanims_thread *dt, uint64_t node,
			 const char *node_name, enum view_prop prop, float value, const float *prev,
			 struct emit *out)
{
	struct dyn_run *r = dt && dt->win_valid ? run_find(dp, dt->win_obj) : NULL;

	if (!r)
		return 0;
	if (r->unannounced && !r->a.has_target) {
		struct dyn_run *o = run_moved(dp, r, node, prop);

		if (o) {
			r = o;
		} else {
			r->unannounced = false;
			SINK_CALL(out, dyn_start, &r->a);
		}
	}
	if (!r->a.has_target) {
		r->a.has_target = true;
		r->a.node = node;
		r->a.prop = prop;
		r->a.from = value;
		/* the first frame wrote the start value, unseen when it changed nothing (the
		 * setter probes report changes): it is the value before this first change */
		if (prev && r->a.frames > 1 && r->frame_ns > r->a.first_frame_ns) {
			r->a.from = *prev;
			curve__add(&r->curve, r->a.first_frame_ns, *prev);
		}
		snprintf(r->a.node_name, sizeof(r->a.node_name), "%s", node_name ? node_name : "");
		/* the cancelled run it replaces moved the same property of the same node */
		if (r->a.replaces && (dt->cancelled_node != node || dt->cancelled_prop != prop))
			r->a.replaces = 0;
	}
	if (r->a.node == node && r->a.prop == prop) {
		r->a.to = value;
		curve__add(&r->curve, r->frame_ns, value);
	}
	return r->a.id;
}

void dynanims__config(struct dynanims_proc *dp, uint64_t obj, const struct dyn_config *c)
{
	struct dyn_run *r = run_find(dp, obj);

	/* the first read of a run: SpringAnimation.start's copy and then DynamicAnimation.start's
	 * see the same object; a start() of a running one (a no-op) sees it mid-run */
	if (r && c && !r->a.config.has_state && !r->a.config.has_spring && !r->a.config.has_fling)
		r->a.config = *c;
}

void dynanims__flush(struct dynanims_proc *dp, enum end_reason reason, uint64_t ts_ns,
		     struct emit *out)
{
	while (dp->runs)
		run_end(dp, dp->runs, reason, ts_ns, out);
}

void dynanims__proc_free(struct dynanims_proc *dp)
{
	while (dp->runs) {
		struct dyn_run *r = dp->runs;

		dp->runs = r->next;
		free(r);
	}
	dp->n = 0;
}

void dynanims__thread_reset(struct dynanims_thread *dt)
{
	memset(dt, 0, sizeof(*dt));
}
