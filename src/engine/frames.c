// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Frames: open (the doFrame in progress) and done (waiting for its DrawFrame) per process, the animators each ran, and the longest frames. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/frames.h"
#include "engine/procs.h"
#include "engine/slices.h"
#include "engine/state.h"

static int ids_add(uint64_t **ids, size_t *n, size_t *cap, uint64_t id)
{
	for (size_t i = 0; i < *n; i++)
		if ((*ids)[i] == id)
			return 0;
	uint64_t *slot = vec_push((void **)ids, n, cap, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	*slot = id;
	return 0;
}

int frame_add_id(struct frame_st *fs, uint64_t id)
{
	return ids_add(&fs->ids, &fs->n_ids, &fs->cap_ids, id);
}

/* Keeps the longest frames for the summary; ties keep the earlier one first. */
void frame_longest_add(struct engine *e, const struct frame *f)
{
	int i = e->frames.n_longest < LONGEST_FRAMES_MAX ? e->frames.n_longest++ :
							    LONGEST_FRAMES_MAX;

	while (i > 0 && e->frames.longest[i - 1].dur_ns < f->dur_ns) {
		if (i < LONGEST_FRAMES_MAX)
			e->frames.longest[i] = e->frames.longest[i - 1];
		i--;
	}
	if (i == LONGEST_FRAMES_MAX)
		return;
	e->frames.longest[i] = *f;
	e->frames.longest[i].n_anims = 0; /* its id buffer is reused by the next frame */
	e->frames.longest[i].anim_ids = NULL;
}

/*
 * Counts the frame for every running animator; those that ran in the previous frame of
 * this thread ran across the gap before it, and the vsyncs it missed count for them.
 */
void frame_runs(struct proc *p, struct thread *t, uint32_t dropped)
{
	struct frame_st *fs = &p->frames.cur;
	uint64_t gap = fs->f.start_ns - t->frames.last_frame_ns;

	fs->n_gap_ids = 0;
	for (struct anim_run *r = p->anims.running; r; r = r->next) {
		r->a.frames++;
		frame_add_id(fs, r->a.id);
		if (t->frames.has_frame && r->last_seq && r->last_seq == t->frames.last_frame_seq) {
			ids_add(&fs->gap_ids, &fs->n_gap_ids, &fs->cap_gap_ids, r->a.id);
			r->a.frames_dropped += dropped;
			if (gap > r->a.worst_gap_ns)
				r->a.worst_gap_ns = gap;
		}
		r->last_seq = fs->f.seq;
	}
	fs->f.dropped_before = fs->n_gap_ids ? dropped : 0;
}

/* The gap before the frame: the longest slices of the UI thread and the RenderThread in it. */
void frame_gap(struct engine *e, struct proc *p, struct thread *t)
{
	struct thread *rt = p->frames.render_tid ? thread_find(e, p->frames.render_tid) : NULL;

	p->frames.cur.gap_start_ns = t->frames.last_frame_end_ns;
	p->frames.cur.ui_gap = t->slices.top;
	p->frames.cur.render_gap.n = 0;
	if (rt && rt->pid == p->pid)
		p->frames.cur.render_gap = rt->slices.top;
	p->frames.cur.ui.n = p->frames.cur.render.n = 0;
	thread_window_reset(t);
}

/*
 * The frame a DrawFrame(s) slice s of thread t drew: the one waiting for its draw, or with
 * vsync ids the open one too (a quick draw can end before its doFrame does). Without ids a
 * draw that ends while a doFrame is open may still be the previous frame's: only the
 * waiting frame takes it.
 */
struct frame_st *draw_owner(struct proc *p, const struct thread *t, const struct slice *s)
{
	struct frame_st *fs[2] = { &p->frames.done, &p->frames.cur }; /* oldest first: draws come in order */

	for (int i = 0; i < (s->vsync >= 0 ? 2 : 1); i++) {
		if (!fs[i]->live || fs[i]->drawn || fs[i]->f.tid == t->tid)
			continue;
		if (s->vsync >= 0 && fs[i]->f.vsync_id >= 0 && s->vsync != fs[i]->f.vsync_id)
			continue;
		return fs[i];
	}
	return NULL;
}
