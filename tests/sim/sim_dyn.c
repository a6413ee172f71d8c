// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* --scenario dyn (see sim_dyn.h). The physics are the fit tests' (tests/unit/fit_sim.h). */
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dyn_load.h"
#include "fit_sim.h"
#include "sim_dyn.h"
#include "sim_heap.h"

/* In AnimationHandler's order: the uncompiled spring's writes come before any probed
 * doAnimationFrame of the frame (after one, they would fall in its window: see dynanims.h). */
enum { R_UNCOMPILED = 0, R_FW_SPRING, R_AX_SPRING, R_AX_NEXT, R_AX_FLING, R_COUNT };

#define FW_START_FRAME 2
#define AX_START_FRAME 3
#define AX_RETARGET_FRAME (AX_START_FRAME + 9)

struct run {
	const struct dyn_fixture_methods *m; /* NULL: not compiled (written directly) */
	uint32_t obj;
	int64_t node;
	const char *cls;
	enum hwui_prop prop;
	bool fling;
	float stiffness, damping, to, v0, friction;
	struct sim_spring_state sp;
	struct sim_fling_state fl;
	float x, from;
	int start_frame, end_frame;
	long last_ms;
	bool running, cancelled;
	bool read;	     /* a Java object of the heap: its configuration is readable */
	bool no_start_value; /* started without setStartValue (animateToFinalPosition's way) */
	uint64_t start_call_ns, end_ns;
	const char *caller, *end_caller;
	struct sim_dyn *d;
};

struct sim_dyn {
	struct sim_dyn_host h;
	/* the framework copy's objects as Java objects (sim_heap.h) when the boot class path is
	 * set: animtrace reads their configuration at start() */
	struct sim_heap *heap;
	const struct dyn_fixture_methods *fw, *ax;
	struct run r[R_COUNT];
};

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void set(struct run *r)
{
	*r->d->h.n_changes += r->d->h.hwui->set[r->prop](r->node, r->x);
}

/* DynamicAnimation.doAnimationFrame's step (setPropertyValue included): the first frame
 * (dt 0) writes the start value only. */
static bool step(void *ctx, long dt_ms)
{
	struct run *r = ctx;
	bool done = false;

	if (dt_ms > 0)
		done = r->fling ? sim_fling_frame(&r->fl, dt_ms, &r->x) :
				  sim_spring_frame(&r->sp, dt_ms, &r->x);
	set(r);
	return done;
}

static void configure(struct run *r, float from)
{
	double value_th = fabs((double)(SIM_PIXELS * 0.75f));

	r->x = r->from = from;
	if (r->fling)
		r->fl = (struct sim_fling_state){ r->friction * -4.2f,
						  (SIM_PIXELS * 0.75f) * (1000.0f / 16.0f),
						  -FLT_MAX, FLT_MAX, r->v0 };
	else
		r->sp = (struct sim_spring_state){ sqrt((double)r->stiffness), r->damping, value_th,
						   value_th * (1000.0 / 16),   r->to,	   r->v0 };
}

static int make_run(struct sim_dyn *d, int i, const struct dyn_fixture_methods *m, const char *cls,
		    enum hwui_prop prop, int start_frame)
{
	struct run *r = &d->r[i];

	r->d = d;
	r->m = m;
	r->cls = cls;
	r->prop = prop;
	r->start_frame = start_frame;
	r->node = d->h.hwui->create_node(cls);
	return r->node ? 0 : -errno;
}

struct sim_dyn *sim_dyn_new(const struct sim_dyn_host *h)
{
	struct sim_dyn *d = calloc(1, sizeof(*d));
	char err[512];
	int e = 0;

	if (!d)
		return NULL;
	d->h = *h;
	d->fw = dyn_load_framework(h->art_path, err, sizeof(err));
	if (!d->fw) {
		fprintf(stderr, "animsim: dyn: %s\n", err);
		free(d);
		errno = ENOENT;
		return NULL;
	}
	e = e ? e :
		make_run(d, R_FW_SPRING, d->fw, "com.example.dock.DockView", HWUI_TRANSLATION_X,
			 FW_START_FRAME);
	e = e ? e :
		make_run(d, R_AX_SPRING, NULL, "com.example.dock.PanelView", HWUI_TRANSLATION_Y,
			 AX_START_FRAME);
	d->r[R_AX_NEXT] = d->r[R_AX_SPRING]; /* the same view and property, started later */
	d->r[R_AX_NEXT].start_frame = AX_RETARGET_FRAME;
	e = e ? e :
		make_run(d, R_AX_FLING, NULL, "com.example.dock.ShelfView", HWUI_TRANSLATION_X,
			 AX_START_FRAME);
	e = e ? e :
		make_run(d, R_UNCOMPILED, NULL, "com.example.dock.BadgeView", HWUI_TRANSLATION_Y,
			 FW_START_FRAME);
	if (e) {
		sim_dyn_free(d);
		errno = -e;
		return NULL;
	}
	/* the parameters: each a SpringForce/DragForce constant or a value between them */
	d->r[R_FW_SPRING].stiffness = 1500, d->r[R_FW_SPRING].damping = 0.75f;
	d->r[R_FW_SPRING].to = 300;
	d->r[R_AX_SPRING].stiffness = 200, d->r[R_AX_SPRING].damping = 0.5f;
	d->r[R_AX_SPRING].to = 200;
	d->r[R_AX_NEXT].stiffness = 1500, d->r[R_AX_NEXT].damping = 0.5f;
	d->r[R_AX_NEXT].to = 400;
	d->r[R_AX_NEXT].no_start_value = true;
	d->r[R_AX_FLING].fling = true, d->r[R_AX_FLING].friction = 1.5f;
	d->r[R_AX_FLING].v0 = 1800;
	d->r[R_UNCOMPILED].stiffness = 400, d->r[R_UNCOMPILED].damping = 0.75f;
	d->r[R_UNCOMPILED].to = -150;
	for (int i = 0; i < R_COUNT; i++)
		configure(&d->r[i], 0);
	if (getenv("BOOTCLASSPATH") && !(d->heap = sim_heap_open(false)))
		fprintf(stderr, "animsim: dyn: no heap (%s): fitted only\n", strerror(errno));
	return d;
}

int sim_dyn_load(struct sim_dyn *d)
{
	char err[512];

	/* the app's class loader maps its odex: after the tracer first looked at the process */
	d->h.gate(d->h.app, "load");
	d->ax = dyn_load_androidx(err, sizeof(err));
	if (!d->ax) {
		fprintf(stderr, "animsim: dyn: %s\n", err);
		return -ENOENT;
	}
	for (int i = R_AX_SPRING; i <= R_AX_FLING; i++)
		d->r[i].m = d->ax;
	d->h.gate(d->h.app, "go");
	return 0;
}

/*
 * r's SpringAnimation/FlingAnimation (the framework's copy or androidx's, from the app's dex)
 * as a Java object configured as r is
 * (setStartValue, setStartVelocity, its SpringForce or DragForce), or 0. The fixture's own
 * state (dyn_fixture.c: mRunning's stand-in and the last frame time, at 8..24) lies over
 * reference fields animtrace does not read, and it writes them only after start()'s entry,
 * where the object's head is copied.
 */
static uint32_t heap_object(struct run *r)
{
	struct sim_dyn_cfg c = { .androidx = r->m == r->d->ax,
				 .fling = r->fling,
				 .start_value_set = !r->no_start_value,
				 .value = r->from,
				 .velocity = r->v0,
				 .min_visible_change = 1,
				 .stiffness = r->stiffness,
				 .damping_ratio = r->damping,
				 .final_position = r->to,
				 .friction_scalar = r->friction };

	if (!r->d->heap || !r->m)
		return 0;
	r->obj = sim_heap__dyn(r->d->heap, &c);
	r->read = r->obj != 0;
	return r->obj;
}

/* start() of r in this frame's animation phase (its first doAnimationFrame is the next). */
static void start(struct run *r)
{
	r->running = true;
	if (!r->m)
		return;
	r->obj = heap_object(r);
	if (!r->obj)
		r->obj = r->m->new_object();
	r->start_call_ns = mono_ns();
	if (r->fling) {
		r->m->fling_start(r->obj);
		r->caller = r->m->fling_stack[0];
	} else {
		r->m->spring_start(r->obj);
		r->caller = r->m->start_stack[0];
	}
}

/* DockView.retarget: the running spring is cancelled and the next one started at once. */
static void retarget(struct sim_dyn *d)
{
	struct run *old = &d->r[R_AX_SPRING], *next = &d->r[R_AX_NEXT];

	next->obj = heap_object(next);
	if (!next->obj)
		next->obj = next->m->new_object();
	configure(next, old->x); /* startAnimationInternal reads the property's current value */
	next->start_call_ns = mono_ns();
	next->m->retarget(old->obj, next->obj);
	old->end_ns = mono_ns();
	old->running = false;
	old->cancelled = true;
	old->end_frame = next->start_frame;
	old->end_caller = next->m->retarget_stack[0];
	next->caller = next->m->retarget_stack[0];
	next->running = true;
}

static void frame_of(struct run *r, int frame, long ms)
{
	bool done;

	if (!r->running || frame <= r->start_frame)
		return;
	if (r->m) {
		done = r->m->frame(r->obj, ms, step, r);
	} else { /* interpreted: the same steps, no compiled method around them */
		done = step(r, frame == r->start_frame + 1 ? 0 : ms - r->last_ms) &&
		       frame > r->start_frame + 1;
	}
	r->last_ms = ms;
	if (done) {
		r->running = false;
		r->end_frame = frame;
		r->end_ns = mono_ns();
	}
}

void sim_dyn_frame(struct sim_dyn *d, int frame, uint64_t frame_ns)
{
	long ms = (long)(frame_ns / 1000000); /* AnimationHandler's frame time */

	if (!d)
		return;
	for (int i = 0; i < R_COUNT; i++)
		frame_of(&d->r[i], frame, ms);
	if (frame == FW_START_FRAME) {
		start(&d->r[R_FW_SPRING]);
		start(&d->r[R_UNCOMPILED]);
	}
	if (frame == AX_START_FRAME && d->ax) {
		start(&d->r[R_AX_SPRING]);
		start(&d->r[R_AX_FLING]);
	}
	if (frame == AX_RETARGET_FRAME && d->ax && d->r[R_AX_SPRING].running)
		retarget(d);
}

static void expect(struct sim_dyn *d, int i)
{
	const struct run *r = &d->r[i];
	char line[1536];

	snprintf(line, sizeof(line),
		 "{\"type\":\"dyn\",\"pid\":%d,\"role\":\"%s\",\"run\":%d,"
		 "\"kind\":\"%s\",\"pkg\":\"%s\",\"node\":\"0x%" PRIx64 "\","
		 "\"node_name\":\"%s\",\"property\":\"%s\",\"start_call_ns\":%" PRIu64 ","
		 "\"start_frame\":%d,\"end_frame\":%d,\"end_ns\":%" PRIu64 ",\"reason\":\"%s\","
		 "\"from\":%.9g,\"to\":%.9g,\"stiffness\":%.9g,\"damping_ratio\":%.9g,"
		 "\"final_position\":%.9g,\"start_velocity\":%.9g,\"friction_scalar\":%.9g,"
		 "\"caller\":\"%s\",\"end_caller\":\"%s\",\"replaces_run\":%d,"
		 "\"read\":%s,\"start_value_set\":%s}",
		 d->h.tgid, d->h.role, i, r->fling ? "Fling" : "Spring",
		 !r->m		     ? "" :
		 r->m->pkg[0] == 'a' ? "androidx" :
				       "framework",
		 (uint64_t)r->node, strrchr(r->cls, '.') + 1, d->h.hwui->name[r->prop],
		 r->start_call_ns, r->start_frame, r->end_frame, r->end_ns,
		 r->cancelled ? "cancel" :
		 r->end_frame ? "complete" :
				"running",
		 (double)r->from, (double)r->x, (double)r->stiffness, (double)r->damping,
		 (double)r->to, (double)r->v0, (double)r->friction, r->caller ? r->caller : "",
		 r->end_caller ? r->end_caller : "", i == R_AX_NEXT ? R_AX_SPRING : -1,
		 r->read ? "true" : "false", r->no_start_value ? "false" : "true");
	d->h.line(d->h.app, line);
}

void sim_dyn_free(struct sim_dyn *d)
{
	if (!d)
		return;
	for (int i = 0; i < R_COUNT; i++)
		if (d->r[i].running || d->r[i].end_frame)
			expect(d, i);
	for (int i = 0; i < R_COUNT; i++)
		if (d->r[i].node && i != R_AX_NEXT)
			d->h.hwui->free_node(d->r[i].node);
	sim_heap__free(d->heap); /* its objects stay: the mapping is never unmapped */
	free(d);
}
