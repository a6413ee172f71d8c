// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Frames (engine/frames.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/frames.h"
#include "engine/redraws.h"
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

static int frame_add_id(struct frame_st *fs, uint64_t id)
{
	return ids_add(&fs->ids, &fs->n_ids, &fs->cap_ids, id);
}

void frames__open(struct frames_proc *fp, uint32_t pid, uint32_t tid, int64_t vsync, uint64_t ts_ns,
		  uint64_t budget_ns, bool assumed)
{
	struct frame_st *fs = &fp->cur;

	memset(&fs->f, 0, sizeof(fs->f));
	fs->f.pid = pid;
	fs->f.tid = tid;
	fs->f.seq = ++fp->seq;
	fs->f.vsync_id = vsync;
	fs->f.start_ns = ts_ns;
	fs->f.budget_ns = budget_ns;
	fs->assumed = assumed;
	fs->n_ids = 0;
	fs->end_ns = 0;
	fs->start_cause.n = 0;
	fs->live = true;
	fs->drawn = false;
}

/* The gap before the frame: the longest slices of the UI thread and the RenderThread in it. */
void frames__gap(struct frames_proc *fp, const struct thread *t, const struct thread *rt)
{
	fp->cur.gap_start_ns = t->frames.last_frame_end_ns;
	fp->cur.ui_gap = t->slices.top;
	fp->cur.render_gap.n = 0;
	if (rt)
		fp->cur.render_gap = rt->slices.top;
	fp->cur.ui.n = fp->cur.render.n = 0;
}

/*
 * Counts the frame for every running animator; those that ran in the previous frame of
 * this thread ran across the gap before it, and the vsyncs it missed count for them.
 */
void frames__runs(struct frames_proc *fp, const struct frames_thread *ft, struct anim_run *running,
		  uint32_t dropped)
{
	struct frame_st *fs = &fp->cur;
	uint64_t gap = fs->f.start_ns - ft->last_frame_ns;

	fs->n_gap_ids = 0;
	for (struct anim_run *r = running; r; r = r->next) {
		r->a.frames++;
		frame_add_id(fs, r->a.id);
		if (ft->has_frame && r->last_seq && r->last_seq == ft->last_frame_seq) {
			ids_add(&fs->gap_ids, &fs->n_gap_ids, &fs->cap_gap_ids, r->a.id);
			r->a.frames_dropped += dropped;
			if (gap > r->a.worst_gap_ns)
				r->a.worst_gap_ns = gap;
		}
		r->last_seq = fs->f.seq;
	}
	fs->missed = dropped;
	fs->f.dropped_before = fs->n_gap_ids ? dropped : 0;
}

void frames__ran(struct frames_proc *fp, struct frames_thread *ft, uint32_t tid, int64_t vsync,
		 uint64_t ts_ns)
{
	ft->has_frame = true;
	ft->last_frame_ns = ts_ns;
	ft->last_frame_seq = fp->cur.f.seq;
	ft->last_vsync = vsync;
	fp->ui_tid = tid;
}

uint64_t frames__frame_ns(const struct frames_proc *fp, uint64_t ts_ns)
{
	return fp->cur.live ? fp->cur.f.start_ns : ts_ns;
}

void frames__anim_started(struct frames_proc *fp, struct anim_run *r)
{
	if (!fp->cur.live)
		return;
	r->a.frames = 1;
	frame_add_id(&fp->cur, r->a.id);
	r->last_seq = fp->cur.f.seq;
}

bool frames__doframe_ended(struct frames_proc *fp, uint32_t tid, const struct slice *s,
			   uint64_t dur_ns)
{
	if (!fp->cur.live || fp->cur.f.tid != tid)
		return false;
	slices__chain_of(&fp->cur.ui, s, dur_ns);
	return true;
}

void frames__phase(struct frames_proc *fp, uint32_t tid, const struct slice *s, uint64_t dur_ns)
{
	if (fp->cur.live && fp->cur.f.tid == tid)
		fp->cur.f.phase_ns[s->phase] += dur_ns;
}

void frames__end(struct frames_proc *fp, uint64_t ts_ns)
{
	fp->cur.f.dur_ns = ts_ns > fp->cur.f.start_ns ? ts_ns - fp->cur.f.start_ns : 0;
	fp->cur.end_ns = ts_ns > fp->cur.end_ns ? ts_ns : fp->cur.end_ns;
}

void frames__gap_start(struct frames_thread *ft, uint64_t ts_ns)
{
	ft->last_frame_end_ns = ts_ns;
}

void frames__wait_draw(struct frames_proc *fp)
{
	struct frame_st tmp;

	/* Swap rather than copy so both id buffers are reused. */
	tmp = fp->done;
	fp->done = fp->cur;
	fp->cur = tmp;
	fp->cur.live = false;
}

/*
 * The RenderThread may still be drawing the previous frame: its DrawFrame begins before the
 * UI thread goes on (DrawFrameTask::postAndWait), but can end after the next vsync. While a
 * draw is under way, or once one has drawn in this process, the frame waits until this one
 * ends.
 */
bool frames__done_waits(const struct frames_proc *fp)
{
	return fp->render_tid || fp->draws_open;
}

uint64_t frames__draw_began(struct frames_proc *fp, uint32_t tid)
{
	fp->draws_open++;
	return fp->cur.live && fp->cur.f.tid != tid ? fp->cur.f.seq : 0;
}

/*
 * The frame a DrawFrame(s) slice s of thread tid drew: the one its id names, else the one whose
 * doFrame was open when it began (frames__draw_began), else the one waiting for its draw.
 * Without ids or an owner, a draw that ends while a doFrame is open may still be the previous
 * frame's: only the waiting frame takes it.
 */
static struct frame_st *draw_owner(struct frames_proc *fp, uint32_t tid, const struct slice *s)
{
	struct frame_st *fs[2] = { &fp->done, &fp->cur }; /* oldest first: draws come in order */

	if (s->vsync < 0 && s->owner_seq) {
		for (int i = 0; i < 2; i++)
			if (fs[i]->live && !fs[i]->drawn && fs[i]->f.seq == s->owner_seq)
				return fs[i];
		return NULL;
	}
	for (int i = 0; i < (s->vsync >= 0 ? 2 : 1); i++) {
		if (!fs[i]->live || fs[i]->drawn || fs[i]->f.tid == tid)
			continue;
		if (s->vsync >= 0 && fs[i]->f.vsync_id >= 0 && s->vsync != fs[i]->f.vsync_id)
			continue;
		return fs[i];
	}
	return NULL;
}

bool frames__drawn(struct frames_proc *fp, uint32_t tid, const struct slice *s, uint64_t dur_ns)
{
	struct frame_st *fs;

	if (fp->draws_open)
		fp->draws_open--;
	fs = draw_owner(fp, tid, s);
	if (!fs)
		return false;
	fp->render_tid = tid;
	slices__chain_of(&fs->render, s, dur_ns);
	fs->f.phase_ns[PHASE_DRAW] += dur_ns;
	if (s->start_ns + dur_ns > fs->end_ns)
		fs->end_ns = s->start_ns + dur_ns;
	fs->drawn = true;
	return fs == &fp->done;
}

bool frames__take(struct frame_st *fs, const char *process)
{
	if (!fs->live)
		return false;
	fs->live = false;
	memcpy(fs->f.process, process, sizeof(fs->f.process));
	fs->f.n_anims = (int)fs->n_ids;
	fs->f.anim_ids = fs->ids;
	return true;
}

/* Keeps the longest frames for the summary; ties keep the earlier one first. */
void frames__count(struct frames *fr, const struct frame *f)
{
	int i = fr->n_longest < LONGEST_FRAMES_MAX ? fr->n_longest++ : LONGEST_FRAMES_MAX;

	fr->count++;
	while (i > 0 && fr->longest[i - 1].dur_ns < f->dur_ns) {
		if (i < LONGEST_FRAMES_MAX)
			fr->longest[i] = fr->longest[i - 1];
		i--;
	}
	if (i == LONGEST_FRAMES_MAX)
		return;
	fr->longest[i] = *f;
	fr->longest[i].n_anims = 0; /* its id buffer is reused by the next frame */
	fr->longest[i].anim_ids = NULL;
}

void frames__thread_reset(struct frames_thread *ft)
{
	ft->has_frame = false;
}

void frames__proc_free(struct frames_proc *fp)
{
	free(fp->cur.ids);
	free(fp->done.ids);
	free(fp->cur.gap_ids);
	free(fp->done.gap_ids);
	redraws__frame_free(&fp->cur.rd);
	redraws__frame_free(&fp->done.rd);
}
