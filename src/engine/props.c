// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Property batches and nodes (engine/props.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/props.h"
#include "engine/segment.h"
#include "engine/state.h"

/* Summary statistics of one frame's batch: how many property writes a frame makes. */
static void props_count(struct props *ps, const struct prop_batch *b)
{
	uint64_t sets = 0;

	if (!b->fp.in_frame)
		return;
	for (size_t i = 0; i < b->n; i++)
		for (int p = 0; p < PROP_COUNT; p++)
			sets += b->nodes[i].sets[p];
	ps->frames++;
	ps->sets += sets;
	if (sets > ps->sets_max)
		ps->sets_max = sets > UINT32_MAX ? UINT32_MAX : (uint32_t)sets;
}

bool props__flush(struct props *ps, struct props_proc *pp, const char *process, struct emit *out)
{
	struct prop_batch *b = &pp->pb;

	if (!b->n)
		return false;
	props_count(ps, b);
	memcpy(b->fp.process, process, sizeof(b->fp.process));
	b->fp.n_nodes = (int)b->n;
	b->fp.nodes = b->nodes;
	SINK_CALL(out, frame_props, &b->fp);
	b->n = 0;
	b->gen++;
	return true;
}

/* The first change of a batch fixes its header: the open doFrame, or this change. */
static void batch_head(struct proc *p, uint64_t ts_ns, uint32_t tid)
{
	struct frame_props *fp = &p->props.pb.fp;
	const struct frame_st *cur = &p->frames.cur;

	memset(fp, 0, sizeof(*fp));
	fp->pid = p->pid;
	fp->in_frame = cur->live;
	if (fp->in_frame) {
		fp->tid = cur->f.tid;
		fp->ts_ns = cur->f.start_ns;
		fp->frame_seq = cur->f.seq;
		fp->vsync_id = cur->f.vsync_id;
	} else {
		fp->tid = tid;
		fp->ts_ns = ts_ns;
		fp->vsync_id = -1;
	}
}

/* before[] as long as nodes[]. */
static int batch_before_grow(struct prop_batch *b)
{
	struct batch_before *nb;

	if (b->cap_before >= b->n)
		return 0;
	nb = realloc(b->before, b->cap * sizeof(*nb));
	if (!nb)
		return -ENOMEM;
	b->before = nb;
	b->cap_before = b->cap;
	return 0;
}

/* Keeps who wrote prop first in the batch, and whether another writer followed. */
static void writers_add(struct batch_before *bb, const struct node_props *np, enum view_prop prop,
			const uint32_t *writer)
{
	uint32_t bit = 1u << prop;

	if (np->set_mask & bit && np->sets[prop] > 1) { /* this write is counted already */
		bool first_anim = bb->first_anim & bit;

		if (first_anim != !!writer || (writer && bb->first[prop] != *writer))
			bb->multi |= bit;
		return;
	}
	bb->first_anim = writer ? bb->first_anim | bit : bb->first_anim & ~bit;
	bb->first[prop] = writer ? *writer : 0;
}

/*
 * Keeps the write in np's list of prop: the first AT_PROP_WRITES - 1 writes, then the last slot
 * follows the latest write and the ones it replaces are counted. A write without a window is
 * code's once windows were seen in the process (the probes watch it), else unknown.
 */
static void write_keep(struct node_props *np, enum view_prop prop, float value,
		       const uint32_t *writer, uint64_t dyn, bool windows, uint64_t *left_out)
{
	struct prop_write *w;

	if (np->n_writes[prop] < AT_PROP_WRITES) {
		w = &np->writes[prop][np->n_writes[prop]++];
	} else {
		w = &np->writes[prop][AT_PROP_WRITES - 1];
		if (np->writes_left_out[prop] < UINT16_MAX)
			np->writes_left_out[prop]++;
		(*left_out)++;
	}
	w->value = value;
	w->anim = writer ? *writer : dyn;
	w->writer = writer  ? WRITER_ANIMATOR :
		    dyn	    ? WRITER_DYNAMIC :
		    windows ? WRITER_CODE :
			      WRITER_UNKNOWN;
}

void props__add(struct proc *p, struct node_st *n, uint64_t ts_ns, uint32_t tid,
		enum view_prop prop, float value, const uint32_t *writer, uint64_t dyn,
		struct evictions *ev)
{
	uint64_t *evicted = &ev->node_frames;

	struct prop_batch *b = &p->props.pb;
	struct node_props *np;

	if (!b->n)
		batch_head(p, ts_ns, tid);
	if (n->gen != b->gen) {
		n->gen = b->gen;
		n->idx = -1;
		np = b->n < CAP_FRAME_NODES ?
			     vec_push((void **)&b->nodes, &b->n, &b->cap, sizeof(*np)) :
			     NULL;
		if (!np) {
			(*evicted)++;
			return;
		}
		memset(np, 0, sizeof(*np));
		np->node = n->node;
		n->idx = (int)(b->n - 1);
		if (batch_before_grow(b) < 0) {
			b->n--;
			n->idx = -1;
			(*evicted)++;
			return;
		}
		memset(&b->before[n->idx], 0, sizeof(b->before[0]));
	}
	if (n->idx < 0)
		return;
	np = &b->nodes[n->idx];
	if (!np->sets[prop] && (n->known & (1u << prop))) { /* its value before this frame */
		b->before[n->idx].v[prop] = n->val[prop];
		b->before[n->idx].known |= 1u << prop;
	}
	memcpy(np->node_name, n->name, sizeof(np->node_name));
	np->set_mask |= 1u << prop;
	np->values[prop] = value;
	if (np->sets[prop] < UINT16_MAX)
		np->sets[prop]++;
	writers_add(&b->before[n->idx], np, prop, writer);
	if (writer)
		p->props.windows = true;
	write_keep(np, prop, value, writer, dyn, p->props.windows, &ev->prop_writes);
	np->writer_mask &= ~(1u << prop);
	np->writer[prop] = writer ? *writer : 0;
	if (writer)
		np->writer_mask |= 1u << prop;
}

bool props__shared(const struct props_proc *pp, const struct node_st *n, enum view_prop prop)
{
	if (n->gen != pp->pb.gen || n->idx < 0)
		return false;
	if (pp->windows) /* the writers are known */
		return pp->pb.before[n->idx].multi & (1u << prop);
	/* Unknown writers: an ObjectAnimator sets each of its properties once a frame
	 * (PropertyValuesHolder.setAnimatedValue from animateValue), so a second write of the
	 * property in the frame is another writer's. */
	return pp->pb.nodes[n->idx].sets[prop] > 1;
}

static bool node_eq(const void *v, const void *key)
{
	return ((const struct node_st *)v)->node == *(const uint64_t *)key;
}

static void node_fallback_name(char *buf, size_t size, uint64_t node)
{
	node_label(buf, size, NULL, node);
}

struct node_st *props__node_find(struct props_proc *pp, uint64_t node)
{
	return htab_find(&pp->nodes, hash_mix64(node), node_eq, &node);
}

/* The node table is full: forget the nodes that did not change in the current batch. */
static bool node_stale(void *v, void *ctx)
{
	struct node_st *n = v;

	if (n->gen == *(const uint64_t *)ctx)
		return false;
	free(n);
	return true;
}

/*
 * A name, once known, sticks when later calls pass none; a different name means the address
 * now holds another node, whose old values are no "from".
 */
int props__node(struct props_proc *pp, uint64_t node, const char *name, uint64_t *evicted,
		struct node_st **out)
{
	uint64_t h = hash_mix64(node);
	struct node_st *n = htab_find(&pp->nodes, h, node_eq, &node);
	char fallback[32];

	if (!n) {
		if (pp->nodes.cnt >= CAP_NODES_PROC || (pp->total && *pp->total >= CAP_NODES)) {
			long k = sweep_count(&pp->nodes, node_stale, &pp->pb.gen, evicted);

			if (k <= 0)
				return -ENOSPC;
			if (pp->total)
				*pp->total -= (size_t)k;
		}
		n = calloc(1, sizeof(*n));
		if (!n)
			return -ENOMEM;
		n->node = node;
		if (htab_add(&pp->nodes, h, n)) {
			free(n);
			return -ENOMEM;
		}
		node_fallback_name(n->name, sizeof(n->name), node);
		if (pp->total)
			++*pp->total;
	}
	*out = n;
	if (!name || !*name || !strncmp(n->name, name, sizeof(n->name) - 1))
		return 0;
	node_fallback_name(fallback, sizeof(fallback), node);
	if (strcmp(n->name, fallback))
		n->known = 0;
	snprintf(n->name, sizeof(n->name), "%s", name);
	return 0;
}

/* One change of the batch for segment.h, in ps->seg_buf. */
static int seg_push(struct props *ps, const struct node_props *np, const struct batch_before *bb,
		    int prop)
{
	struct seg_change *c =
		vec_push((void **)&ps->seg_buf, &ps->n_seg_buf, &ps->cap_seg_buf, sizeof(*c));

	if (!c)
		return -ENOMEM;
	*c = (struct seg_change){ .node = np->node,
				  .node_name = np->node_name,
				  .prop = (enum view_prop)prop,
				  .has_before = bb->known & (1u << prop),
				  .before = bb->v[prop],
				  .value = np->values[prop],
				  .explained = bb->explained & (1u << prop) };
	return 0;
}

void props__segment(struct props *ps, const struct props_proc *pp, const struct frame *f,
		    uint32_t missed, const char *process, uint64_t ts_ns, struct segment *seg)
{
	const struct prop_batch *b = &pp->pb;
	struct seg_frame sf = {
		.pid = f->pid,
		.tid = f->tid,
		.process = process,
		.seq = f->seq,
		.missed = missed,
		.start_ns = f->start_ns,
		.dur_ns = ts_ns > f->start_ns ? ts_ns - f->start_ns : 0,
		.budget_ns = f->budget_ns,
	};

	ps->n_seg_buf = 0;
	if (b->n && b->fp.in_frame && b->fp.frame_seq == f->seq) {
		for (size_t i = 0; i < b->n; i++)
			for (int k = 0; k < PROP_COUNT; k++)
				if (b->nodes[i].set_mask & (1u << k))
					seg_push(ps, &b->nodes[i], &b->before[i], k);
	}
	sf.n = (int)ps->n_seg_buf;
	sf.changes = ps->seg_buf;
	segment__frame(seg, &sf);
}

void props__proc_init(struct props_proc *pp, size_t *total)
{
	pp->total = total;
	pp->pb.gen = 1; /* node_st.gen 0 is in no batch */
}

void props__proc_free(struct props_proc *pp)
{
	free(pp->pb.nodes);
	free(pp->pb.before);
	if (pp->total)
		*pp->total -= pp->nodes.cnt;
	htab_free_values(&pp->nodes);
}

void props__free(struct props *ps)
{
	free(ps->seg_buf);
}

void props__prev(struct node_st *n, enum view_prop prop, const float *prev)
{
	if (prev && !(n->known & (1u << prop))) {
		n->val[prop] = *prev;
		n->known |= 1u << prop;
	}
}

void props__set(struct props_proc *pp, struct node_st *n, enum view_prop prop, float value,
		bool explained)
{
	if (explained && n->gen == pp->pb.gen && n->idx >= 0)
		pp->pb.before[n->idx].explained |= 1u << prop;
	n->val[prop] = value;
	n->known |= 1u << prop;
}

void props__node_id(struct node_st *n, uint64_t uid)
{
	if (n->has_uid && n->uid != uid) { /* freed, and another node made at its address */
		n->known = 0;
		n->exact = false;
		node_fallback_name(n->name, sizeof(n->name), n->node);
	}
	n->uid = uid;
	n->has_uid = true;
}
