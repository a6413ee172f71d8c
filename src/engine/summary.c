// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The summary: what the session counted, the exited processes' smoothness, and the names, running animators and processes the summary lists. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/attrib.h"
#include "engine/jank.h"
#include "engine/state.h"
#include "engine/summary.h"

/* An exited process with frames keeps its line in the summary. */
void proc_stat_keep(struct engine *e, struct proc *p)
{
	struct proc_stat *ps;

	if (!p->frames.seq)
		return;
	if (e->session.n_exited >= CAP_PROCS) {
		e->ev.proc_stats++;
		return;
	}
	ps = vec_push((void **)&e->session.exited, &e->session.n_exited, &e->session.cap_exited, sizeof(*ps));
	if (ps)
		jank__stat(p, ps);
}

void note_time(struct engine *e, uint64_t ts_ns)
{
	if (!e->session.seen || ts_ns < e->session.first_ns)
		e->session.first_ns = ts_ns;
	if (!e->session.seen || ts_ns > e->session.last_ns)
		e->session.last_ns = ts_ns;
	e->session.seen = true;
}

/*
 * View property writes but not one trace_marker write: without markers there are no frames,
 * animator lifecycles or jank, only bare values. On a phone the app does not see the VIEW
 * tag on, or (15+) routes android.os.Trace to the Perfetto SDK (ANDROID.md section 2): say so
 * instead of printing a quiet session.
 */
void note_unmarked_proc(struct engine *e, const struct proc *p)
{
	char msg[256], who[AT_PROC_MAX + 24];

	if (p->summary.markers || !p->summary.prop_writes || !e->out.sink.ops || !e->out.sink.ops->note)
		return;
	if (*p->name)
		snprintf(who, sizeof(who), "%s (pid %u)", p->name, p->pid);
	else
		snprintf(who, sizeof(who), "pid %u", p->pid);
	snprintf(msg, sizeof(msg),
		 "%s: %llu View property writes but no trace_marker writes: no frames or "
		 "animator lifecycles for it (is its atrace view tag on? animtrace doctor)",
		 who, (unsigned long long)p->summary.prop_writes);
	SINK_CALL(&e->out, note, msg);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_name_stat(const void *a, const void *b)
{
	const struct name_stat *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_running(const void *a, const void *b)
{
	const struct anim *x = a, *y = b;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Median of the ended durations; the mean of the two middle ones when the count is even. */
static uint64_t median(uint64_t *d, size_t n)
{
	if (!n)
		return 0;
	qsort(d, n, sizeof(*d), cmp_u64);
	if (n % 2)
		return d[n / 2];
	return d[n / 2 - 1] + (d[n / 2] - d[n / 2 - 1]) / 2;
}

struct name_stat *build_names(struct engine *e)
{
	struct name_stat *ns = calloc(e->anims.n_names ? e->anims.n_names : 1, sizeof(*ns));

	if (!ns)
		return NULL;
	for (size_t i = 0; i < e->anims.n_names; i++) {
		struct name_acc *n = e->anims.name_list[i];

		memcpy(ns[i].name, n->name, sizeof(ns[i].name));
		ns[i].count = n->count;
		ns[i].cancels = n->cancels;
		ns[i].running = n->running;
		ns[i].total_ns = n->total_ns;
		ns[i].max_ns = n->max_ns;
		ns[i].frames = n->frames;
		ns[i].median_ns = median(n->durs, n->n_durs);
	}
	qsort(ns, e->anims.n_names, sizeof(*ns), cmp_name_stat);
	return ns;
}

/* Collects the animators still running; each counts as running in its name's stats. */
struct anim *build_running(struct engine *e, size_t *n_out)
{
	size_t n = 0, cap = 0;
	struct anim *arr = NULL;

	for (size_t i = 0; i < e->procs.n; i++) {
		struct proc *p = e->procs.list[i];

		for (struct anim_run *r = p->anims.running; r; r = r->next) {
			struct anim *a = vec_push((void **)&arr, &n, &cap, sizeof(*a));

			if (!a)
				break;
			attrib__fill(r);
			*a = r->a;
			a->reason = END_RUNNING_AT_EXIT;
			a->reason_source = REASON_INFERRED;
			memcpy(a->process, p->name, sizeof(a->process));
			jank__anim_ended(&p->jank, &r->a);
			r->key->name->running++;
			r->key->name->frames += r->a.frames;
		}
	}
	if (n)
		qsort(arr, n, sizeof(*arr), cmp_running);
	*n_out = n;
	return arr;
}

/* Nodes beyond CAP_FRAME_NODES are not in any frame_props: say how many were left out. */
void note_dropped(struct engine *e)
{
	char msg[128];

	if (!e->ev.node_frames || !e->out.sink.ops || !e->out.sink.ops->note)
		return;
	snprintf(msg, sizeof(msg),
		 "property changes of %llu node-frames not reported (over %d nodes in a frame)",
		 (unsigned long long)e->ev.node_frames, CAP_FRAME_NODES);
	SINK_CALL(&e->out, note, msg);
}

/* Every process with frames: the exited ones, then those still alive. NULL when none. */
struct proc_stat *build_procs(struct engine *e, size_t *n_out)
{
	struct proc_stat *ps = calloc(e->session.n_exited + e->procs.n + 1, sizeof(*ps));
	size_t n = e->session.n_exited;

	*n_out = 0;
	if (!ps)
		return NULL;
	if (n)
		memcpy(ps, e->session.exited, n * sizeof(*ps));
	for (size_t i = 0; i < e->procs.n; i++)
		if (e->procs.list[i]->frames.seq)
			jank__stat(e->procs.list[i], &ps[n++]);
	*n_out = n;
	return ps;
}

/* The frame statistics of the summary: longest frames and property writes per frame. */
void finish_frame_stats(const struct engine *e, struct summary *s)
{
	s->n_longest_frames = e->frames.n_longest;
	s->longest_frames = e->frames.longest;
	s->prop_frames = e->props.frames;
	s->prop_sets = e->props.sets;
	s->prop_sets_max = e->props.sets_max;
}

/* The unmarked animations still running end; their counts and longest go to s. */
void finish_animations(struct engine *e, struct summary *s)
{
	const struct animation *longest;

	segment__finish(e->seg);
	segment__stats(e->seg, s->animations, &longest, &s->n_unmarked);
	s->unmarked = longest;
	e->ev.prop_runs = segment__evicted(e->seg);
}
