// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Who redraws: --refresh (engine/redraws.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/props.h"
#include "engine/redraws.h"
#include "engine/state.h"

#define FRAME_REDRAWS_MAX 64 /* distinct Views listed per frame */

void redraws__attach(const struct redraws_proc *rp, struct frame_st *fs)
{
	fs->f.refresh = rp->on;
	fs->f.n_redraws = (int)fs->rd.n;
	fs->f.redraws = fs->rd.nodes;
	fs->f.redraws_dropped = fs->rd.dropped;
	fs->f.vsync_requests = fs->rd.vsync_req;
}

static bool frame_redrew(const struct redraws_frame *rf, uint64_t node)
{
	for (size_t i = 0; i < rf->n; i++)
		if (rf->nodes[i].node == node)
			return true;
	return false;
}

/* Adds n to the frame's Views (once each). */
static void frame_add_redraw(struct redraws_frame *rf, const struct node_st *n)
{
	struct redraw_node *rn;

	if (frame_redrew(rf, n->node))
		return;
	rn = rf->n < FRAME_REDRAWS_MAX ?
		     vec_push((void **)&rf->nodes, &rf->n, &rf->cap, sizeof(*rn)) :
		     NULL;
	if (!rn) {
		rf->dropped++;
		return;
	}
	rn->node = n->node;
	memcpy(rn->node_name, n->name, sizeof(rn->node_name));
}

void redraws__active(struct redraws *rs, struct redraws_proc *rp)
{
	rp->on = rs->on = true;
}

void redraws__redraw(struct proc *p, const struct node_st *n)
{
	struct frame_st *cur = &p->frames.cur;

	/* Counted while the animator runs, in the frame it started in too (its update listener
	 * invalidates before the traversal); a redraw after its F in its last frame is not. */
	if (cur->live && !frame_redrew(&cur->rd, n->node))
		for (struct anim_run *r = p->anims.running; r; r = r->next)
			r->a.target_redraws += r->a.target_node == n->node;
	frame_add_redraw(&cur->rd, n);
}

void redraws__vsync_request(struct redraws_frame *rf, const char (*stack)[AT_FRAME_NAME],
			    int n_stack)
{
	if (rf->vsync_req < UINT32_MAX)
		rf->vsync_req++;
	if (n_stack > 0) {
		rf->n_vstack = n_stack < AT_STACK_FRAMES ? n_stack : AT_STACK_FRAMES;
		memcpy(rf->vstack, stack, (size_t)rf->n_vstack * AT_FRAME_NAME);
	}
}

/* The engine-wide ranking of Views by frames redrawn keeps the AT_REDRAW_TOP most. */
static void redraw_top_offer(struct redraws *rs, uint32_t pid, const struct node_st *n)
{
	struct redraw_stat *t = rs->top;
	int i;

	if (!n->redraw_frames)
		return;
	i = rs->n_top < AT_REDRAW_TOP ? rs->n_top++ : AT_REDRAW_TOP;
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

void redraws__rank(struct redraws *rs, const struct proc *p)
{
	for (size_t i = 0; i < p->props.nodes.cap; i++)
		if (p->props.nodes.s[i].v)
			redraw_top_offer(rs, p->pid, p->props.nodes.s[i].v);
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

void redraws__storm_end(struct proc *p, struct emit *out)
{
	struct storm_st *st = &p->redraws.storm;
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
		SINK_CALL(out, refresh_storm, r);
		free(r);
	}
	memset(st, 0, sizeof(*st));
}

/* A frame with redraws or requests and no animator goes on the storm; another ends it. */
static void storm_frame(struct proc *p, const struct frame_st *fs, struct emit *out)
{
	struct storm_st *st = &p->redraws.storm;
	int j;

	if ((!fs->rd.n && !fs->rd.vsync_req) || fs->n_ids || p->anims.running) {
		redraws__storm_end(p, out);
		return;
	}
	if (!st->frames++)
		st->first_ns = fs->f.start_ns;
	st->end_ns = fs->f.start_ns + fs->f.dur_ns;
	st->vsyncs += fs->rd.vsync_req;
	if (!st->n_stack && fs->rd.n_vstack) {
		st->n_stack = fs->rd.n_vstack;
		memcpy(st->stack, fs->rd.vstack, sizeof(st->stack));
	}
	for (size_t i = 0; i < fs->rd.n; i++) {
		for (j = 0; j < st->n_views && st->views[j].node != fs->rd.nodes[i].node; j++)
			;
		if (j == st->n_views && j == STORM_VIEWS) {
			st->views_other++;
			continue;
		}
		if (j == st->n_views)
			st->views[st->n_views++] = fs->rd.nodes[i];
		st->view_frames[j]++;
	}
}

void redraws__frame_closed(struct proc *p, const struct frame_st *fs, struct emit *out)
{
	struct node_st *n;

	if (!p->redraws.on)
		return;
	for (size_t i = 0; i < fs->rd.n; i++) {
		n = props__node_find(&p->props, fs->rd.nodes[i].node);
		if (n)
			n->redraw_frames++;
	}
	storm_frame(p, fs, out);
}

void redraws__frame_reset(struct redraws_frame *rf)
{
	rf->n = 0;
	rf->dropped = rf->vsync_req = 0;
	rf->n_vstack = 0;
}

void redraws__frame_free(struct redraws_frame *rf)
{
	free(rf->nodes);
}
