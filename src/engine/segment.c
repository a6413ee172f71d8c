// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unmarked animations from per-frame property values. Runs live in one hash table keyed by
 * (pid, node, property), so a change costs O(1); the per-frame walk is over the process's
 * open groups (animations), which is what a frame has to update anyway.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/caps.h"
#include "common/coll.h"
#include "engine/curve.h"
#include "engine/segment.h"

/* A start-value frame further back than this many periods is no part of the run. */
#define SEG_LEAD_PERIODS 3
#define SEG_DEFAULT_PERIOD_NS 16666667ull

struct group;

struct run {
	uint32_t pid;
	uint64_t node;
	enum view_prop prop;
	bool ended;		      /* stays in the table (unfindable) until its group ends */
	bool explained;		      /* a marked animator wrote it before it was recognised */
	uint64_t first_seq, last_seq; /* its first and last changing frame */
	uint32_t changes;
	float from;
	struct group *g;
	struct curve curve; /* its values */
};

struct group {
	struct animation a;
	struct group *next; /* the process's open groups */
	struct run *runs[AT_MAX_PROPS];
	int n_runs, n_open;
	bool begun;
	uint64_t first_seq, last_seq; /* first frame, last changing frame of any member */
	/* smoothness of the frames since its last change, added once another change comes */
	uint32_t p_frames, p_dropped, p_janky;
	uint64_t p_worst_frame, p_worst_gap;
};

struct seg_proc {
	uint32_t pid;
	bool has_last;
	uint64_t last_seq, last_start;
	struct group *groups;
};

struct segment {
	struct seg_out out;
	struct htab runs;	/* struct run by (pid, node, prop) */
	struct htab procs;	/* struct seg_proc by pid */
	size_t n_open, n_ended; /* runs in the table */
	uint64_t next_id, evicted;
	uint64_t counts[FIT_OTHER + 1];
	struct animation longest[AT_UNMARKED_MAX];
	int n_longest;
	int err;
};

struct run_key {
	uint32_t pid;
	uint64_t node;
	enum view_prop prop;
};

static uint64_t run_hash(uint32_t pid, uint64_t node, enum view_prop prop)
{
	return hash_mix64(node ^ ((uint64_t)pid << 40) ^ ((uint64_t)prop << 56));
}

static bool run_eq(const void *v, const void *key)
{
	const struct run *r = v;
	const struct run_key *k = key;

	return !r->ended && r->pid == k->pid && r->node == k->node && r->prop == k->prop;
}

static struct run *run_find(struct segment *s, uint32_t pid, uint64_t node, enum view_prop prop)
{
	struct run_key k = { pid, node, prop };

	return htab_find(&s->runs, run_hash(pid, node, prop), run_eq, &k);
}

static bool proc_eq(const void *v, const void *key)
{
	return ((const struct seg_proc *)v)->pid == *(const uint32_t *)key;
}

static struct seg_proc *proc_find(const struct segment *s, uint32_t pid)
{
	return htab_find(&s->procs, hash_mix64(pid), proc_eq, &pid);
}

static struct seg_proc *proc_get(struct segment *s, uint32_t pid)
{
	struct seg_proc *p = proc_find(s, pid);

	if (p)
		return p;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	if (htab_add(&s->procs, hash_mix64(pid), p)) {
		free(p);
		return NULL;
	}
	return p;
}

/* ---- groups -------------------------------------------------------------------------- */

static bool run_counts(const struct run *r)
{
	return r->changes >= SEG_MIN_FRAMES && !r->explained;
}

/* The animation's properties (from/to, no fit): its unexplained members, or only those
 * long enough to count. */
static void group_props(struct group *g, bool counting)
{
	struct animation *a = &g->a;

	a->n_props = 0;
	for (int i = 0; i < g->n_runs; i++) {
		const struct run *r = g->runs[i];
		struct animation_prop *ap;

		if (r->explained || (counting && !run_counts(r)))
			continue;
		ap = &a->props[a->n_props++];
		memset(ap, 0, sizeof(*ap));
		ap->prop = r->prop;
		ap->from = r->from;
		ap->to = r->curve.tail.v;
		ap->frames = r->changes;
	}
}

static int emit(struct segment *s, int (*cb)(void *, const struct animation *),
		const struct animation *a)
{
	if (!s->err && cb)
		s->err = cb(s->out.ctx, a);
	return s->err;
}

/* The frames of g up to its last change count; those after it wait for another change. */
static void group_commit(struct group *g)
{
	struct animation *a = &g->a;

	a->frames += g->p_frames;
	a->frames_dropped += g->p_dropped;
	a->janky_frames += g->p_janky;
	if (g->p_worst_frame > a->worst_frame_ns)
		a->worst_frame_ns = g->p_worst_frame;
	if (g->p_worst_gap > a->worst_gap_ns)
		a->worst_gap_ns = g->p_worst_gap;
	g->p_frames = g->p_dropped = g->p_janky = 0;
	g->p_worst_frame = g->p_worst_gap = 0;
}

/* One frame of the process while g is open: gap is 0 for g's own first frame. */
static void group_frame(struct group *g, uint64_t dur, bool janky, uint32_t dropped, uint64_t gap)
{
	g->p_frames++;
	g->p_janky += janky;
	g->p_dropped += dropped;
	if (dur > g->p_worst_frame)
		g->p_worst_frame = dur;
	if (gap > g->p_worst_gap)
		g->p_worst_gap = gap;
}

static void longest_add(struct segment *s, const struct animation *a)
{
	int i = s->n_longest < AT_UNMARKED_MAX ? s->n_longest++ : AT_UNMARKED_MAX;

	while (i > 0 && s->longest[i - 1].duration_ns < a->duration_ns) {
		if (i < AT_UNMARKED_MAX)
			s->longest[i] = s->longest[i - 1];
		i--;
	}
	if (i < AT_UNMARKED_MAX)
		s->longest[i] = *a;
}

/* Fits every property of a; the animation's kind is its first property's. */
static void animation_fit(struct animation *a, struct run *const *runs, int n_runs)
{
	struct fit_sample smp[CAP_SEG_SAMPLES + 1];

	a->kind = FIT_OTHER;
	for (int i = 0; i < a->n_props; i++) {
		struct animation_prop *ap = &a->props[i];

		for (int j = 0; j < n_runs; j++) {
			size_t n;

			if (runs[j]->prop != ap->prop)
				continue;
			n = curve__samples(&runs[j]->curve, smp);
			ap->fitted = fit_run_bounded(smp, n, NULL, &ap->fit) == 0;
			break;
		}
		if (i == 0 && ap->fitted)
			a->kind = ap->fit.kind;
	}
}

static void animation_report(struct segment *s, struct animation *a, struct run *const *runs,
			     int n_runs, enum end_reason reason)
{
	a->ended = true;
	a->reason = reason;
	animation_fit(a, runs, n_runs);
	s->counts[a->kind]++;
	longest_add(s, a);
	emit(s, s->out.end, a);
}

/* A member that stopped long before the others: an animation of its own, start and end. */
static void report_alone(struct segment *s, struct group *g, struct run *r, enum end_reason reason)
{
	struct animation a = g->a;

	a.id = ++s->next_id;
	a.ended = false;
	a.n_props = 1;
	memset(&a.props[0], 0, sizeof(a.props[0]));
	a.props[0] = (struct animation_prop){
		.prop = r->prop, .from = r->from, .to = r->curve.tail.v, .frames = r->changes
	};
	a.start_ns = r->curve.s[0].t_ns;
	a.duration_ns = r->curve.tail.t_ns - a.start_ns;
	a.frames = (uint32_t)(r->last_seq - r->first_seq + 1);
	emit(s, s->out.start, &a);
	animation_report(s, &a, &r, 1, reason);
}

/* g's last member ended: report it (when it was recognised) and forget its runs. */
static void group_end(struct segment *s, struct group *g, enum end_reason reason)
{
	struct run *main_runs[AT_MAX_PROPS];
	int n_main = 0;

	for (int i = 0; i < g->n_runs; i++)
		g->runs[i]->g = NULL; /* the sweep may free them now */
	if (g->begun) {
		for (int i = 0; i < g->n_runs; i++) {
			struct run *r = g->runs[i];

			if (!run_counts(r))
				continue;
			if (r->last_seq + SEG_GROUP_END < g->last_seq)
				report_alone(s, g, r, reason);
			else
				main_runs[n_main++] = r;
		}
		memcpy(g->runs, main_runs, n_main * sizeof(*main_runs));
		g->n_runs = n_main;
		group_props(g, true);
		g->a.duration_ns = 0;
		for (int i = 0; i < n_main; i++)
			if (main_runs[i]->curve.tail.t_ns - g->a.start_ns > g->a.duration_ns)
				g->a.duration_ns = main_runs[i]->curve.tail.t_ns - g->a.start_ns;
		if (n_main)
			animation_report(s, &g->a, main_runs, n_main, reason);
	}
	free(g);
}

static void group_unlink(struct seg_proc *p, struct group *g)
{
	struct group **pp = &p->groups;

	while (*pp && *pp != g)
		pp = &(*pp)->next;
	if (*pp)
		*pp = g->next;
}

/* A member of g reached SEG_MIN_FRAMES changes: the animation is recognised. */
static void group_begin(struct segment *s, struct group *g, const struct seg_frame *f)
{
	g->begun = true;
	g->a.id = ++s->next_id;
	g->a.duration_ns = f->start_ns - g->a.start_ns;
	group_props(g, false);
	emit(s, s->out.start, &g->a);
}

/* A new group from c's change in f; lead: its first frame was the one before f. */
static struct group *group_new(struct seg_proc *p, const struct seg_frame *f,
			       const struct seg_change *c, bool lead)
{
	struct group *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	g->a.kind = FIT_OTHER;
	g->a.pid = f->pid;
	g->a.tid = f->tid;
	snprintf(g->a.process, sizeof(g->a.process), "%s", f->process ? f->process : "");
	g->a.node = c->node;
	if (c->node_name && *c->node_name)
		snprintf(g->a.node_name, sizeof(g->a.node_name), "%s", c->node_name);
	else
		snprintf(g->a.node_name, sizeof(g->a.node_name), "RenderNode@%04x",
			 (unsigned int)(c->node & 0xffff));
	g->a.start_ns = lead ? p->last_start : f->start_ns;
	g->a.frames = lead; /* the start-value frame, before its first change */
	g->first_seq = f->seq;
	g->next = p->groups;
	p->groups = g;
	return g;
}

/* The open group of node that started within SEG_GROUP_START frames of seq, if any. */
static struct group *group_join(struct segment *s, uint32_t pid, uint64_t node, uint64_t seq)
{
	for (int prop = 0; prop < PROP_COUNT; prop++) {
		struct run *r = run_find(s, pid, node, (enum view_prop)prop);

		if (r && r->g && r->g->first_seq + SEG_GROUP_START >= seq &&
		    r->g->n_runs < AT_MAX_PROPS)
			return r->g;
	}
	return NULL;
}

/* ---- runs ---------------------------------------------------------------------------- */

static bool run_dead(void *v, void *ctx)
{
	struct run *r = v;

	if (!r->ended || r->g)
		return false;
	free(r);
	return true;
}

/* Forgets the ended runs of ended groups once they outnumber the open ones. */
static void runs_sweep(struct segment *s)
{
	long n;

	if (s->n_ended < 64 || s->n_ended < s->n_open)
		return;
	n = htab_sweep(&s->runs, run_dead, NULL);
	if (n > 0)
		s->n_ended -= (size_t)n;
}

/*
 * A new run of c: its first sample is the frame before when that frame was the previous
 * one of the process and recent (DynamicAnimation's and ValueAnimator's first frame write
 * the start value, which is no change), else its first change.
 */
static struct run *run_new(struct segment *s, struct seg_proc *p, const struct seg_frame *f,
			   const struct seg_change *c)
{
	uint64_t period = f->budget_ns ? f->budget_ns : SEG_DEFAULT_PERIOD_NS;
	bool lead = p->has_last && p->last_seq + 1 == f->seq &&
		    f->start_ns - p->last_start <= SEG_LEAD_PERIODS * period;
	struct run *r;
	struct group *g;

	if (s->n_open >= CAP_SEG_RUNS) {
		s->evicted++;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	g = group_join(s, f->pid, c->node, f->seq);
	if (!g)
		g = group_new(p, f, c, lead);
	if (!g || htab_add(&s->runs, run_hash(f->pid, c->node, c->prop), r)) {
		free(r);
		return NULL;
	}
	*r = (struct run){ .pid = f->pid,
			   .node = c->node,
			   .prop = c->prop,
			   .g = g,
			   .first_seq = f->seq,
			   .from = c->before };
	g->runs[g->n_runs++] = r;
	g->n_open++;
	s->n_open++;
	if (lead)
		curve__add(&r->curve, p->last_start, c->before);
	return r;
}

static void run_change(struct segment *s, struct seg_proc *p, const struct seg_frame *f,
		       const struct seg_change *c)
{
	struct run *r;

	if (!c->has_before || c->before == c->value || (isnan(c->before) && isnan(c->value)) ||
	    (unsigned int)c->prop >= PROP_COUNT)
		return;
	r = run_find(s, f->pid, c->node, c->prop);
	if (!r)
		r = run_new(s, p, f, c);
	if (!r)
		return;
	if (!r->g->begun)
		r->explained |= c->explained;
	r->last_seq = f->seq;
	r->changes++;
	curve__add(&r->curve, f->start_ns, c->value);
	if (r->g->last_seq < f->seq)
		r->g->last_seq = f->seq;
	if (!r->g->begun && run_counts(r))
		group_begin(s, r->g, f);
}

/*
 * The vsyncs missed between the process's previous frame and f: the jank model's count from
 * time (engine/jank.c), never from vsync ids, which on Android 12+ are FrameTimeline tokens
 * that rise by several per vsync (frameworks/native/services/surfaceflinger/FrameTimeline/
 * FrameTimeline.cpp, TokenManager::generateTokenForPredictions).
 */
static uint32_t frame_dropped(const struct seg_proc *p, const struct seg_frame *f)
{
	return p->has_last ? f->missed : 0;
}

/* Ends the runs of g that did not change for SEG_END_FRAMES frames; true when g is over. */
static bool group_settle(struct segment *s, struct group *g, uint64_t seq, bool all)
{
	for (int i = 0; i < g->n_runs; i++) {
		struct run *r = g->runs[i];

		if (r->ended || (!all && r->last_seq + SEG_END_FRAMES > seq))
			continue;
		r->ended = true;
		g->n_open--;
		s->n_open--;
		s->n_ended++;
	}
	return g->n_open == 0;
}

/* Smoothness of this frame for each open group, then the end of those that settled. */
static void groups_frame(struct segment *s, struct seg_proc *p, const struct seg_frame *f)
{
	uint64_t gap = p->has_last ? f->start_ns - p->last_start : 0;
	uint32_t dropped = frame_dropped(p, f);
	bool janky = f->budget_ns && f->dur_ns > f->budget_ns;
	struct group **pp = &p->groups;

	while (*pp) {
		struct group *g = *pp;
		bool first = g->first_seq == f->seq;

		group_frame(g, f->dur_ns, janky, first ? 0 : dropped, first ? 0 : gap);
		if (g->last_seq == f->seq)
			group_commit(g);
		if (group_settle(s, g, f->seq, false)) {
			*pp = g->next;
			group_end(s, g, END_COMPLETE);
		} else {
			pp = &g->next;
		}
	}
}

/* ---- public API ---------------------------------------------------------------------- */

struct segment *segment__new(struct seg_out out)
{
	struct segment *s = calloc(1, sizeof(*s));

	if (!s) {
		errno = ENOMEM;
		return NULL;
	}
	s->out = out;
	return s;
}

int segment__frame(struct segment *s, const struct seg_frame *f)
{
	struct seg_proc *p = proc_get(s, f->pid);

	if (!p)
		return s->err;
	for (int i = 0; i < f->n; i++)
		run_change(s, p, f, &f->changes[i]);
	groups_frame(s, p, f);
	p->has_last = true;
	p->last_seq = f->seq;
	p->last_start = f->start_ns;
	runs_sweep(s);
	return s->err;
}

static void proc_end(struct segment *s, struct seg_proc *p, enum end_reason reason)
{
	while (p->groups) {
		struct group *g = p->groups;

		group_unlink(p, g);
		group_settle(s, g, 0, true);
		group_end(s, g, reason);
	}
}

static bool proc_is(void *v, void *ctx)
{
	if (v != ctx)
		return false;
	free(v);
	return true;
}

int segment__process_exit(struct segment *s, uint32_t pid)
{
	struct seg_proc *p = proc_find(s, pid);

	if (!p)
		return s->err;
	proc_end(s, p, END_PROCESS_EXIT);
	htab_sweep(&s->procs, proc_is, p); /* the pid may come back as another process */
	runs_sweep(s);
	return s->err;
}

int segment__finish(struct segment *s)
{
	for (size_t i = 0; i < s->procs.cap; i++)
		if (s->procs.s[i].v)
			proc_end(s, s->procs.s[i].v, END_RUNNING_AT_EXIT);
	return s->err;
}

void segment__stats(const struct segment *s, uint64_t *counts, const struct animation **longest,
		    int *n_longest)
{
	memcpy(counts, s->counts, sizeof(s->counts));
	*longest = s->longest;
	*n_longest = s->n_longest;
}

uint64_t segment__evicted(const struct segment *s)
{
	return s->evicted;
}

void segment__free(struct segment *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->procs.cap; i++) {
		struct seg_proc *p = s->procs.s[i].v;

		while (p && p->groups) {
			struct group *g = p->groups;

			p->groups = g->next;
			free(g);
		}
	}
	htab_free_values(&s->runs);
	htab_free_values(&s->procs);
	free(s);
}
