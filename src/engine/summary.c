// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The summary (engine/summary.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/jank.h"
#include "engine/segment.h"
#include "engine/state.h"
#include "engine/summary.h"

void summary__time(struct session *ss, uint64_t ts_ns)
{
	if (!ss->seen || ts_ns < ss->first_ns)
		ss->first_ns = ts_ns;
	if (!ss->seen || ts_ns > ss->last_ns)
		ss->last_ns = ts_ns;
	ss->seen = true;
}

void summary__marker(struct session *ss, uint64_t ts_ns)
{
	ss->markers++;
	summary__time(ss, ts_ns);
}

void summary__rejected(struct session *ss)
{
	ss->rejected++;
}

void summary__proc_marker(struct summary_proc *sp)
{
	sp->markers++;
}

void summary__proc_write(struct summary_proc *sp)
{
	sp->prop_writes++;
}

void summary__node_names(struct session *ss, const struct node_name_stats *st, struct evictions *ev)
{
	ss->node_names = *st;
	ev->node_names = st->evicted;
}

bool summary__is_annotation(const struct marker *m)
{
	switch (m->type) {
	case MARKER_TRACK_BEGIN:
	case MARKER_TRACK_END:
	case MARKER_INSTANT_TRACK:
		return strv_eq(m->track, AT_ANNOT_TRACK);
	case MARKER_COUNTER:
		/* captures annotated by earlier builds are replayed too */
		return strv_starts_with(m->name, AT_ANNOT_COUNTER) ||
		       strv_starts_with(m->name, AT_ANNOT_COUNTER_OLD);
	default:
		return false;
	}
}

void summary__annotation(struct session *ss, uint64_t ts_ns, uint32_t pid, uint32_t tid,
			 const char *process, const struct marker *m, struct emit *out)
{
	struct annotation an = {
		.pid = pid,
		.tid = tid,
		.ts_ns = ts_ns,
		.type = (char)m->type,
		.value = m->type == MARKER_INSTANT_TRACK ? 0 : m->value,
	};

	ss->annotations++;
	snprintf(an.process, sizeof(an.process), "%s", process ? process : "");
	snprintf(an.name, sizeof(an.name), "%.*s",
		 (int)utf8_prefix(m->name.p, m->name.len, sizeof(an.name) - 1), m->name.p);
	SINK_CALL(out, annotation, &an);
}

/* A process's line of the summary: its smoothness, and whether it is what it says. */
static void proc_stat_of(struct proc *p, struct proc_stat *ps)
{
	jank__stat(p, ps);
	memcpy(ps->impostor, p->trust.impostor, sizeof(ps->impostor));
}

void summary__proc_exited(struct session *ss, struct proc *p, uint64_t *evicted)
{
	struct proc_stat *ps;

	if (!p->frames.seq)
		return;
	if (ss->n_exited >= CAP_PROCS) {
		(*evicted)++;
		return;
	}
	ps = vec_push((void **)&ss->exited, &ss->n_exited, &ss->cap_exited, sizeof(*ps));
	if (ps)
		proc_stat_of(p, ps);
}

/*
 * View property writes but not one trace_marker write: without markers there are no frames,
 * animator lifecycles or jank, only bare values. On a phone the app does not see the VIEW
 * tag on, or (15+) routes android.os.Trace to the Perfetto SDK (ANDROID.md section 2): say so
 * instead of printing a quiet session.
 */
void summary__note_unmarked(const struct proc *p, struct emit *out)
{
	char msg[256], who[AT_PROC_MAX + 24];

	if (p->summary.markers || !p->summary.prop_writes || !out->sink.ops || !out->sink.ops->note)
		return;
	if (*p->name)
		snprintf(who, sizeof(who), "%s (pid %u)", p->name, p->pid);
	else
		snprintf(who, sizeof(who), "pid %u", p->pid);
	snprintf(msg, sizeof(msg),
		 "%s: %llu View property writes but no trace_marker writes: no frames or "
		 "animator lifecycles for it (is its atrace view tag on? animtrace doctor)",
		 who, (unsigned long long)p->summary.prop_writes);
	SINK_CALL(out, note, msg);
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

static struct name_stat *build_names(const struct anims *as)
{
	struct name_stat *ns = calloc(as->n_names ? as->n_names : 1, sizeof(*ns));

	if (!ns)
		return NULL;
	for (size_t i = 0; i < as->n_names; i++) {
		struct name_acc *n = as->name_list[i];

		memcpy(ns[i].name, n->name, sizeof(ns[i].name));
		ns[i].count = n->count;
		ns[i].cancels = n->cancels;
		ns[i].running = n->running;
		ns[i].total_ns = n->total_ns;
		ns[i].max_ns = n->max_ns;
		ns[i].frames = n->frames;
		ns[i].median_ns = median(n->durs, n->n_durs);
	}
	qsort(ns, as->n_names, sizeof(*ns), cmp_name_stat);
	return ns;
}

/* The animators still running, in start order (their run was counted by the caller). */
static struct anim *build_running(const struct procs *ps, size_t *n_out)
{
	size_t n = 0, cap = 0;
	struct anim *arr = NULL;

	for (size_t i = 0; i < ps->n; i++) {
		const struct proc *p = ps->list[i];

		for (const struct anim_run *r = p->anims.running; r; r = r->next) {
			struct anim *a = vec_push((void **)&arr, &n, &cap, sizeof(*a));

			if (!a)
				break;
			*a = r->a;
			a->reason = END_RUNNING_AT_EXIT;
			a->reason_source = REASON_INFERRED;
			memcpy(a->process, p->name, sizeof(a->process));
		}
	}
	if (n)
		qsort(arr, n, sizeof(*arr), cmp_running);
	*n_out = n;
	return arr;
}

/* Nodes beyond CAP_FRAME_NODES are not in any frame_props: say how many were left out. */
static void note_dropped(const struct evictions *ev, struct emit *out)
{
	char msg[128];

	if (!ev->node_frames || !out->sink.ops || !out->sink.ops->note)
		return;
	snprintf(msg, sizeof(msg),
		 "property changes of %llu node-frames not reported (over %d nodes in a frame)",
		 (unsigned long long)ev->node_frames, CAP_FRAME_NODES);
	SINK_CALL(out, note, msg);
}

/* Every process with frames: the exited ones, then those still alive. NULL when none. */
static struct proc_stat *build_procs(const struct session *ss, const struct procs *procs,
				     size_t *n_out)
{
	struct proc_stat *ps = calloc(ss->n_exited + procs->n + 1, sizeof(*ps));
	size_t n = ss->n_exited;

	*n_out = 0;
	if (!ps)
		return NULL;
	if (n)
		memcpy(ps, ss->exited, n * sizeof(*ps));
	for (size_t i = 0; i < procs->n; i++)
		if (procs->list[i]->frames.seq)
			proc_stat_of(procs->list[i], &ps[n++]);
	*n_out = n;
	return ps;
}

/* The frame statistics of the summary: longest frames and property writes per frame. */
static void frame_stats(const struct engine *e, struct summary *s)
{
	s->n_longest_frames = e->frames.n_longest;
	s->longest_frames = e->frames.longest;
	s->prop_frames = e->props.frames;
	s->prop_sets = e->props.sets;
	s->prop_sets_max = e->props.sets_max;
}

/* The unmarked animations' counts and longest go to s (they have all ended). */
static void animation_stats(struct engine *e, struct summary *s)
{
	const struct animation *longest;

	segment__stats(e->seg, s->animations, &longest, &s->n_unmarked);
	/* springs and flings the ART probes followed count beside those the values showed
	 * (the segment finder leaves those out: no animation is counted twice) */
	s->animations[FIT_SPRING] += e->dyn.ended[DYN_SPRING];
	s->animations[FIT_FLING] += e->dyn.ended[DYN_FLING];
	s->animations[FIT_OTHER] += e->dyn.ended[DYN_UNKNOWN];
	s->unmarked = longest;
	e->ev.prop_runs = segment__evicted(e->seg);
}

void summary__send(struct engine *e, uint64_t drops, uint64_t truncated)
{
	struct summary s = { 0 };
	size_t n_running = 0, n_procs = 0;
	struct anim *running;
	struct name_stat *names;
	struct proc_stat *procs;

	animation_stats(e, &s);
	running = build_running(&e->procs, &n_running);
	names = build_names(&e->anims);
	procs = build_procs(&e->session, &e->procs, &n_procs);
	s.first_ns = e->session.first_ns;
	s.last_ns = e->session.last_ns;
	s.anims_started = e->anims.started;
	s.anims_ended = e->anims.ended;
	s.frames = e->frames.count;
	s.markers = e->session.markers;
	s.markers_rejected = e->session.rejected;
	s.annotations = e->session.annotations;
	s.cujs = e->cujs.count;
	s.vsync_foreign = e->trust.vsync_foreign;
	s.n_names = names ? (int)e->anims.n_names : 0;
	s.names = names;
	s.n_longest = e->anims.n_longest;
	s.longest = e->anims.longest;
	s.n_running = (int)n_running;
	s.running = running;
	s.drops = drops;
	s.truncated = truncated;
	s.evicted = e->ev;
	s.node_names = e->session.node_names;
	s.input = e->session.has_input ? &e->session.input : NULL;
	s.n_procs = (int)n_procs;
	s.procs = procs;
	frame_stats(e, &s);
	s.refresh = e->redraws.on;
	s.n_redraw_views = e->redraws.n_top;
	s.redraw_views = e->redraws.top;
	findings__summary(&e->findings, &s);
	note_dropped(&e->ev, &e->out);
	SINK_CALL(&e->out, summary, &s);
	free(names);
	free(running);
	free(procs);
}

void summary__free(struct session *ss)
{
	free(ss->exited);
}
