// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* --refresh: redraws per frame, refresh storms (runs of frames redrawn with no animator), and the engine-wide ranking of Views by frames redrawn. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/props.h"
#include "engine/redraws.h"

#define FRAME_REDRAWS_MAX 64 /* distinct Views listed per frame */

void redraws_attach(const struct proc *p, struct frame_st *fs)
{
	fs->f.refresh = p->refresh_on;
	fs->f.n_redraws = (int)fs->n_rd;
	fs->f.redraws = fs->rd;
	fs->f.redraws_dropped = fs->rd_dropped;
	fs->f.vsync_requests = fs->vsync_req;
}

bool frame_redrew(const struct frame_st *fs, uint64_t node)
{
	for (size_t i = 0; i < fs->n_rd; i++)
		if (fs->rd[i].node == node)
			return true;
	return false;
}

/* Adds n to the frame's Views (once each). */
void frame_add_redraw(struct frame_st *fs, const struct node_st *n)
{
	struct redraw_node *rn;

	if (frame_redrew(fs, n->node))
		return;
	rn = fs->n_rd < FRAME_REDRAWS_MAX ?
		     vec_push((void **)&fs->rd, &fs->n_rd, &fs->cap_rd, sizeof(*rn)) : NULL;
	if (!rn) {
		fs->rd_dropped++;
		return;
	}
	rn->node = n->node;
	memcpy(rn->node_name, n->name, sizeof(rn->node_name));
}

/* The engine-wide ranking of Views by frames redrawn keeps the AT_REDRAW_TOP most. */
static void redraw_top_offer(struct engine *e, uint32_t pid, const struct node_st *n)
{
	struct redraw_stat *t = e->redraw_top;
	int i;

	if (!n->redraw_frames)
		return;
	i = e->n_redraw_top < AT_REDRAW_TOP ? e->n_redraw_top++ : AT_REDRAW_TOP;
	while (i > 0 && t[i - 1].frames < n->redraw_frames) {
		if (i < AT_REDRAW_TOP)
			t[i] = t[i - 1];
		i--;
	}
	if (i == AT_REDRAW_TOP)
		return;
	t[i].pid = pid;
	t[i].node = n->node;
	t[i].frames = n->redraw_frames;
	memcpy(t[i].node_name, n->name, sizeof(t[i].node_name));
}

void redraw_top_proc(struct engine *e, struct proc *p)
{
	for (size_t i = 0; i < p->nodes.cap; i++)
		if (p->nodes.s[i].v)
			redraw_top_offer(e, p->pid, p->nodes.s[i].v);
}

/* The storm's View redrawn in most frames (the first seen among equals). */
static int storm_top(const struct storm_st *st)
{
	int best = -1;

	for (int i = 0; i < st->n_views; i++)
		if (best < 0 || st->view_frames[i] > st->view_frames[best])
			best = i;
	return best;
}

/* The run of busy idle frames ended: a storm when it lasted long enough, said once. */
void storm_end(struct engine *e, struct proc *p)
{
	struct storm_st *st = &p->storm;
	struct refresh_storm *r;
	int top = storm_top(st);

	if (st->frames >= REFRESH_STORM_FRAMES && (r = calloc(1, sizeof(*r)))) {
		r->pid = p->pid;
		memcpy(r->process, p->name, sizeof(r->process));
		if (top >= 0) {
			r->node = st->views[top].node;
			memcpy(r->node_name, st->views[top].node_name, sizeof(r->node_name));
			r->node_frames = st->view_frames[top];
		}
		r->n_views = (uint32_t)st->n_views + st->views_other;
		r->frames = st->frames;
		r->vsync_requests = st->vsyncs;
		r->first_ns = st->first_ns;
		r->duration_ns = st->end_ns - st->first_ns;
		r->n_stack = st->n_stack;
		memcpy(r->stack, st->stack, sizeof(r->stack));
		SINK_CALL(e, refresh_storm, r);
		free(r);
	}
	memset(st, 0, sizeof(*st));
}

/* A frame with redraws or requests and no animator goes on the storm; another ends it. */
static void storm_frame(struct engine *e, struct proc *p, const struct frame_st *fs)
{
	struct storm_st *st = &p->storm;
	int j;

	if ((!fs->n_rd && !fs->vsync_req) || fs->n_ids || p->running) {
		storm_end(e, p);
		return;
	}
	if (!st->frames++)
		st->first_ns = fs->f.start_ns;
	st->end_ns = fs->f.start_ns + fs->f.dur_ns;
	st->vsyncs += fs->vsync_req;
	if (!st->n_stack && fs->n_vstack) {
		st->n_stack = fs->n_vstack;
		memcpy(st->stack, fs->vstack, sizeof(st->stack));
	}
	for (size_t i = 0; i < fs->n_rd; i++) {
		for (j = 0; j < st->n_views && st->views[j].node != fs->rd[i].node; j++)
			;
		if (j == st->n_views && j == STORM_VIEWS) {
			st->views_other++;
			continue;
		}
		if (j == st->n_views)
			st->views[st->n_views++] = fs->rd[i];
		st->view_frames[j]++;
	}
}

/*
 * The doFrame closed: its redraws count for the Views and for a refresh storm.
 */
void redraws_close(struct engine *e, struct proc *p, struct frame_st *fs)
{
	struct node_st *n;

	if (!p->refresh_on)
		return;
	for (size_t i = 0; i < fs->n_rd; i++) {
		n = htab_find(&p->nodes, hash_mix64(fs->rd[i].node), node_eq, &fs->rd[i].node);
		if (n)
			n->redraw_frames++;
	}
	storm_frame(e, p, fs);
}

/* The frame_st now collects for the next doFrame. */
void redraws_reset(struct frame_st *fs)
{
	fs->n_rd = 0;
	fs->rd_dropped = fs->vsync_req = 0;
	fs->n_vstack = 0;
}
