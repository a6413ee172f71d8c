// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Attribution of property writes to animators (engine/attrib.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/attrib.h"
#include "engine/state.h"

static bool anim_has_prop(const struct anim *a, enum view_prop prop)
{
	const char *name = view_prop_str(prop);

	for (int i = 0; i < a->n_props; i++)
		if (!strcmp(a->props[i], name))
			return true;
	return false;
}

/*
 * Where a's curve of n's prop starts, its first write seen being value: an animator writes its
 * start value in its first frame, so a write then is it (a 0 -> 1 fade on a View at 1 starts at
 * 0). Setters record only changes: a first write seen in a later frame means the first frame
 * wrote the value the node had, which is then the start. Without doFrames (frames_seen false)
 * the frames cannot be told apart and the node's value is taken.
 */
static float start_value(const struct anim *a, bool frames_seen, const struct node_st *n,
			 enum view_prop prop, float value)
{
	if (frames_seen && a->frames <= 1)
		return value;
	return n->known & (1u << prop) ? n->val[prop] : value;
}

/* n, changing a property a names in frame_key, fits a's target: listed, its frames counted. */
static void fit_add(struct anim *a, const struct node_st *n, uint64_t frame_key)
{
	struct anim_fit *f = NULL;

	for (int i = 0; i < a->n_fits && !f; i++)
		if (a->fits[i].node == n->node)
			f = &a->fits[i];
	if (!f && a->n_fits == AT_FITS) {
		a->fits_more = true;
		return;
	}
	if (!f) {
		f = &a->fits[a->n_fits++];
		memset(f, 0, sizeof(*f));
		f->node = n->node;
	}
	memcpy(f->node_name, n->name, sizeof(f->node_name));
	if (f->frame_key != frame_key || !f->frames) {
		f->frame_key = frame_key;
		f->frames++;
	}
}

/* node no longer fits a (an animator wrote it exactly). */
static void fit_drop(struct anim *a, uint64_t node)
{
	for (int i = 0; i < a->n_fits; i++) {
		if (a->fits[i].node != node)
			continue;
		memmove(&a->fits[i], &a->fits[i + 1],
			(size_t)(a->n_fits - i - 1) * sizeof(a->fits[0]));
		a->n_fits--;
		return;
	}
}

/*
 * A running animator that names prop takes the first node seen changing it as its target,
 * unless an animator wrote that node exactly (it is that animator's); from: start_value. Every
 * such node fits (fit_add): the box lists them when several do.
 */
static void anim_link(struct anim *a, bool frames_seen, const struct node_st *n,
		      enum view_prop prop, float value, uint64_t frame_key)
{
	int i;

	if (!anim_has_prop(a, prop))
		return;
	if (!n->exact)
		fit_add(a, n, frame_key);
	if (!a->target_node) {
		if (n->exact)
			return;
		a->target_node = n->node;
		a->target_inferred = true;
	} else if (a->target_node != n->node) {
		return;
	}
	memcpy(a->target_name, n->name, sizeof(a->target_name));
	for (i = 0; i < a->n_changes && a->changes[i].prop != prop; i++)
		;
	if (i == a->n_changes) {
		if (i == AT_MAX_PROPS)
			return;
		a->n_changes++;
		a->changes[i].prop = prop;
		a->changes[i].from = start_value(a, frames_seen, n, prop, value);
	}
	a->changes[i].to = value;
}

/* A full series keeps every other point: each now stands for twice as many frames. */
static void series_halve(struct prop_series *s)
{
	uint64_t shared = 0;

	for (int i = 0; i < AT_SERIES_MAX / 2; i++) {
		s->v[i] = s->v[2 * i + 1];
		s->t_us[i] = s->t_us[2 * i + 1];
		if (s->shared & (3ull << (2 * i))) /* a point's frames are both old points' */
			shared |= 1ull << i;
	}
	s->shared = shared;
	s->n = AT_SERIES_MAX / 2;
	s->stride *= 2;
}

/*
 * Adds the value of one frame (frame_key) at t_us: a later value in the same frame replaces
 * it.
 */
static void series_add(struct prop_series *s, uint64_t frame_key, float value, int32_t t_us)
{
	if (s->n && s->frame_key == frame_key) {
		s->v[s->n - 1] = value;
		return;
	}
	if (!s->stride)
		s->stride = 1;
	if (s->frames % s->stride == 0) { /* a new point; else the last one's bucket goes on */
		if (s->n == AT_SERIES_MAX)
			series_halve(s);
		s->n++;
		s->shared &= ~(1ull << (s->n - 1));
	}
	s->frames++;
	s->frame_key = frame_key;
	s->v[s->n - 1] = value;
	s->t_us[s->n - 1] = t_us;
}

/* Another writer also wrote s's property in frame_key, the frame of its last point: marked. */
static void series_share(struct prop_series *s, uint64_t frame_key)
{
	if (!s->n || s->frame_key != frame_key)
		return;
	s->shared |= 1ull << (s->n - 1);
	if (s->shared_key != frame_key) {
		s->shared_key = frame_key;
		s->shared_frames++;
	}
}

/* The time of frame_ns since a's start in microseconds, clamped to the series' range. */
static int32_t since_start_us(const struct anim *a, uint64_t frame_ns)
{
	int64_t t_us = ((int64_t)frame_ns - (int64_t)a->start_ns) / 1000;

	return (int32_t)(t_us > INT32_MAX ? INT32_MAX : t_us < INT32_MIN ? INT32_MIN : t_us);
}

/*
 * The target's value of prop in this frame (which began at frame_ns) goes into the
 * animator's curve. The batch generation names the frame: it changes exactly when a frame's
 * changes are sent. True when a is the animator of this write.
 */
static bool anim_sample(struct anim *a, const struct node_st *n, enum view_prop prop, float value,
			uint64_t frame_key, uint64_t frame_ns)
{
	bool mine = false;

	if (a->target_node != n->node)
		return false;
	for (int i = 0; i < a->n_changes; i++) {
		if (a->changes[i].prop == prop) {
			series_add(&a->series[i], frame_key, value, since_start_us(a, frame_ns));
			mine = true;
		}
	}
	return mine;
}

void attrib__fit_interp(struct anim *a)
{
	struct fit_sample smp[AT_SERIES_MAX];

	if (!a->start_ns || a->end_ns <= a->start_ns ||
	    (a->reason != END_COMPLETE && a->reason != END_ENDED))
		return;
	for (int i = 0; i < a->n_changes; i++) {
		const struct prop_series *ps = &a->series[i];

		if (ps->n < 3 || a->changes[i].from == a->changes[i].to)
			continue;
		for (int k = 0; k < ps->n; k++)
			smp[k] = (struct fit_sample){ a->start_ns + (int64_t)ps->t_us[k] * 1000,
						      ps->v[k] };
		if (fit_interpolator(smp, ps->n, a->start_ns, a->end_ns - a->start_ns,
				     a->changes[i].from, a->changes[i].to, &a->interpolator,
				     &a->interp_rms) == 0)
			return;
		a->interpolator = NULL;
	}
}

/* n is an animator's exact target: no animator may keep it as an inferred one. */
static void unlink_inferred(struct anim_run *running, struct node_st *n)
{
	n->exact = true;
	for (struct anim_run *r = running; r; r = r->next) {
		struct anim *a = &r->a;

		fit_drop(a, n->node);
		if (!a->target_inferred || a->target_node != n->node)
			continue;
		a->target_node = 0;
		a->target_inferred = false;
		a->target_name[0] = '\0';
		a->n_changes = 0;
		memset(a->series, 0, sizeof(a->series));
	}
}

/* The running animator of p with this cookie (the id its S marker carried), or NULL. */
static struct anim_run *run_by_cookie(struct anim_run *running, uint32_t cookie)
{
	for (struct anim_run *r = running; r; r = r->next)
		if (r->a.id == cookie)
			return r;
	return NULL;
}

/* r's entry for node n, added on its first write; NULL past CAP_ANIM_TARGETS. */
static struct anim_target *target_get(struct anim_run *r, const struct node_st *n)
{
	struct anim_target *t;

	for (size_t i = 0; i < r->at.n_tg; i++)
		if (r->at.tg[i].node == n->node)
			return &r->at.tg[i];
	if (r->at.n_tg >= CAP_ANIM_TARGETS)
		return NULL;
	t = vec_push((void **)&r->at.tg, &r->at.n_tg, &r->at.cap_tg, sizeof(*t));
	if (!t)
		return NULL;
	memset(t, 0, sizeof(*t));
	t->node = n->node;
	return t;
}

/* The property's slot in t, added with from (start_value). */
static struct target_prop *target_prop_get(struct anim_target *t, enum view_prop prop, float from)
{
	struct target_prop *tp;

	for (int i = 0; i < t->n_props; i++)
		if (t->props[i].prop == prop)
			return &t->props[i];
	if (t->n_props == AT_TARGET_PROPS)
		return NULL;
	tp = &t->props[t->n_props++];
	memset(tp, 0, sizeof(*tp));
	tp->prop = prop;
	tp->from = from;
	tp->to = tp->from;
	return tp;
}

/* r wrote value to prop of n (n->val still holds the value before the write) in the frame
 * that began at frame_ns. */
static void target_write(struct proc *p, struct anim_run *r, const struct node_st *n,
			 enum view_prop prop, float value, uint64_t frame_key, uint64_t frame_ns)
{
	struct anim_target *t = target_get(r, n);
	struct target_prop *tp;
	float from;

	if (!t) {
		r->a.targets_left_out++;
		return;
	}
	t->writes++;
	memcpy(t->node_name, n->name, sizeof(t->node_name));
	from = start_value(&r->a, p->frames.seq != 0, n, prop, value);
	tp = target_prop_get(t, prop, from);
	if (!tp) {
		t->props_left_out++;
		return;
	}
	if (!(n->known & (1u << prop)) || n->val[prop] != value)
		tp->sets++;
	tp->to = value;
	series_add(&tp->series, frame_key, value, since_start_us(&r->a, frame_ns));
	if (!r->at.announced)
		p->attrib.tg_pending = true;
}

/* n's prop has several writers in this frame (frame_key): every curve of it gets the mark. */
static void mark_shared(struct anim_run *running, const struct node_st *n, enum view_prop prop,
			uint64_t frame_key)
{
	for (struct anim_run *r = running; r; r = r->next) {
		struct anim *a = &r->a;

		for (int i = 0; i < a->n_changes && a->target_node == n->node; i++)
			if (a->changes[i].prop == prop)
				series_share(&a->series[i], frame_key);
		for (size_t k = 0; k < r->at.n_tg; k++) {
			struct anim_target *t = &r->at.tg[k];

			for (int i = 0; i < t->n_props && t->node == n->node; i++)
				if (t->props[i].prop == prop)
					series_share(&t->props[i].series, frame_key);
		}
	}
}

const uint32_t *attrib__writer(const struct thread *t, uint32_t pid)
{
	return t && t->attrib.av_valid && t->pid == pid ? &t->attrib.av_cookie : NULL;
}

bool attrib__write(struct proc *p, const uint32_t *writer, struct node_st *n, enum view_prop prop,
		   float value, uint64_t frame_ns)
{
	uint64_t frame_key = p->props.pb.gen; /* it changes exactly when a batch is sent */
	bool explained = false;

	if (writer) { /* the animator is known: no other one may claim the write */
		struct anim_run *r = run_by_cookie(p->anims.running, *writer);

		explained = true; /* an animator's write is never an unmarked animation */
		unlink_inferred(p->anims.running, n);
		if (r)
			target_write(p, r, n, prop, value, frame_key, frame_ns);
	}
	for (struct anim_run *r = p->anims.running; r && !writer; r = r->next) {
		anim_link(&r->a, p->frames.seq != 0, n, prop, value, frame_key);
		explained |= anim_sample(&r->a, n, prop, value, frame_key, frame_ns);
	}
	if (props__shared(&p->props, n, prop))
		mark_shared(p->anims.running, n, prop, frame_key);
	return explained;
}

/* Most writes first; insertion sort keeps ties in first-write order (n <= CAP_ANIM_TARGETS). */
static void targets_sort(struct anim_target *tg, size_t n)
{
	struct anim_target tmp;

	for (size_t i = 1; i < n; i++) {
		size_t j = i;

		if (tg[i].writes <= tg[i - 1].writes)
			continue;
		tmp = tg[i];
		while (j > 0 && tg[j - 1].writes < tmp.writes) {
			tg[j] = tg[j - 1];
			j--;
		}
		tg[j] = tmp;
	}
}

void attrib__fill(struct anim_run *r)
{
	struct anim *a = &r->a;
	const struct anim_target *t;

	if (!r->at.n_tg)
		return;
	targets_sort(r->at.tg, r->at.n_tg);
	a->targets = r->at.tg;
	a->n_targets = (int)r->at.n_tg;
	t = &r->at.tg[0];
	a->target_node = t->node;
	memcpy(a->target_name, t->node_name, sizeof(a->target_name));
	a->target_inferred = false;
	a->target_exact = true;
	a->n_changes = t->n_props;
	for (int i = 0; i < t->n_props; i++) {
		a->changes[i] =
			(struct prop_change){ t->props[i].prop, t->props[i].from, t->props[i].to };
		a->series[i] = t->props[i].series;
	}
}

/* After a batch: the animators whose first exact writes were in it say what they move. */
void attrib__run_free(struct attrib_run *at)
{
	free(at->tg);
}

void attrib__announce(struct attrib_proc *ap, struct anim_run *running, struct emit *out)
{
	if (!ap->tg_pending)
		return;
	ap->tg_pending = false;
	for (struct anim_run *r = running; r; r = r->next) {
		if (r->at.announced || !r->at.n_tg)
			continue;
		r->at.announced = true;
		attrib__fill(r);
		SINK_CALL(out, anim_target, &r->a);
	}
}

void attrib__animate(struct attrib_thread *at, bool has_cookie, uint32_t cookie, size_t phase_depth)
{
	/* ObjectAnimator.animateValue calling ValueAnimator's with the same this: one call. */
	at->av_valid = has_cookie;
	at->av_cookie = cookie;
	at->av_depth = phase_depth;
}

void attrib__marker(struct attrib_thread *at)
{
	if (at->av_valid && !at->av_depth)
		at->av_valid = false;
}

void attrib__slice_ended(struct attrib_thread *at, size_t depth)
{
	if (at->av_valid && at->av_depth > depth) /* its animation phase ended */
		at->av_valid = false;
}

void attrib__thread_reset(struct attrib_thread *at)
{
	at->av_valid = false;
}
