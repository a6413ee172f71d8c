// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Jank and the display period's use: a frame is late when it runs longer than the period, vsyncs missed before it are dropped frames, a long UI-thread slice while an animator runs is a block. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/jank.h"
#include "engine/period.h"
#include "engine/slices.h"
#include "engine/state.h"

static void jank_emit(struct engine *e, const struct proc *p, const struct jank *j)
{
	SINK_CALL(&e->out, jank, j);
}

/* The jank records of a frame that hit an animator: the gap before it, then its lateness. */
void frame_janks(struct engine *e, struct proc *p, const struct frame_st *fs)
{
	struct jank j = {
		.pid = p->pid, .tid = fs->f.tid, .frame_seq = fs->f.seq,
		.vsync_id = fs->f.vsync_id, .budget_ns = fs->f.budget_ns,
		.dropped_before = fs->f.dropped_before,
	};

	memcpy(j.process, p->name, sizeof(j.process));
	if (fs->f.dropped_before) {
		j.kind = JANK_DROPPED;
		j.ts_ns = fs->gap_start_ns;
		j.duration_ns = fs->f.start_ns - fs->gap_start_ns;
		j.n_anims = (int)fs->n_gap_ids;
		j.anim_ids = fs->gap_ids;
		j.ui = fs->ui_gap;
		j.render = fs->render_gap;
		jank_emit(e, p, &j);
	}
	if (fs->f.janky && fs->n_ids) {
		j.kind = JANK_LATE;
		j.ts_ns = fs->f.start_ns;
		j.duration_ns = fs->f.dur_ns;
		j.n_anims = (int)fs->n_ids;
		j.anim_ids = fs->ids;
		j.ui = fs->ui;
		j.render = fs->render;
		jank_emit(e, p, &j);
	}
}

/* The frame's lateness goes to the process and to every animator that ran in it. */
void frame_judge(struct proc *p, struct frame_st *fs)
{
	fs->f.janky = fs->f.dur_ns > fs->f.budget_ns;
	if (!fs->assumed)
		p->jank.janky += fs->f.janky;
	else if (p->jank.n_early < (int)(sizeof(p->jank.early) / sizeof(p->jank.early[0])))
		p->jank.early[p->jank.n_early++] = fs->f.dur_ns; /* judged again with the final period */
	else
		p->jank.janky += fs->f.janky;
	p->jank.dropped += fs->f.dropped_before;
	for (struct anim_run *r = p->anims.running; r; r = r->next) {
		if (r->last_seq != fs->f.seq)
			continue;
		if (fs->f.dur_ns > r->a.worst_frame_ns)
			r->a.worst_frame_ns = fs->f.dur_ns;
		r->a.janky_frames += fs->f.janky;
	}
}

/*
 * With vsync ids the period is measured from an anchor frame up to VSYNC_SPAN vsyncs back, not
 * from the previous frame: a doFrame that starts late (scheduling latency) then moves the
 * estimate by its lateness divided by the whole span instead of by one vsync.
 */
#define VSYNC_SPAN 240

static void refresh_add_vsync(struct period *r, struct thread *t, int64_t vsync, uint64_t ts)
{
	if (t->jank.anchor_vsync < 0 || vsync <= t->jank.anchor_vsync ||
	    vsync - t->jank.anchor_vsync > VSYNC_SPAN || ts < t->jank.anchor_ns) {
		t->jank.anchor_vsync = t->frames.last_vsync;
		t->jank.anchor_ns = t->frames.last_frame_ns;
	}
	period__add(r, ts - t->jank.anchor_ns, vsync - t->jank.anchor_vsync);
}

/*
 * Vsyncs missed in an interval dt of doFrame starts without ids, against period. Before the
 * period is measured the thread's shortest interval stands in for it, not the assumed 60 Hz,
 * which would see every frame of a 30 Hz display as one missed vsync.
 */
static uint32_t missed_vsyncs(uint64_t dt, uint64_t period)
{
	if (!period || dt < period + period / 2)
		return 0;
	return (uint32_t)((dt + period / 2) / period - 1);
}

/* The refresh period, with this interval of t's doFrames counted; returns vsyncs missed. */
uint32_t frame_interval(struct proc *p, struct thread *t, int64_t vsync, uint64_t ts_ns,
			       uint64_t *budget, bool *assumed)
{
	uint64_t dt = ts_ns > t->frames.last_frame_ns ? ts_ns - t->frames.last_frame_ns : 0;
	int64_t dv = vsync >= 0 && t->frames.last_vsync >= 0 ? vsync - t->frames.last_vsync : 0;
	enum period_source src;

	if (!p->jank.period)
		p->jank.period = period__new();
	if (p->jank.period && dv > 0)
		refresh_add_vsync(p->jank.period, t, vsync, ts_ns);
	else if (p->jank.period)
		period__add(p->jank.period, dt, dv);
	*budget = period__period(p->jank.period, &src);
	*assumed = src == PERIOD_ASSUMED;
	if (!dv && dt && (!t->jank.min_interval_ns || dt < t->jank.min_interval_ns))
		t->jank.min_interval_ns = dt;
	if (dv > 1)
		return (uint32_t)(dv - 1 > UINT32_MAX ? UINT32_MAX : dv - 1);
	return dv ? 0 : missed_vsyncs(dt, *assumed ? t->jank.min_interval_ns : *budget);
}

/* A top-level UI-thread slice longer than the period while an animator runs is a block. */
void block_check(struct engine *e, struct proc *p, struct thread *t,
			const struct slice *s, uint64_t dur)
{
	struct jank j = { .kind = JANK_BLOCK, .pid = p->pid, .tid = t->tid, .vsync_id = -1 };
	uint64_t ids[64];
	int n = 0;

	j.budget_ns = period__period(p->jank.period, NULL);
	if (t->tid != p->frames.ui_tid || dur <= j.budget_ns || !p->anims.running)
		return;
	for (struct anim_run *r = p->anims.running; r && n < 64; r = r->next)
		ids[n++] = r->a.id;
	memcpy(j.process, p->name, sizeof(j.process));
	j.ts_ns = s->start_ns;
	j.duration_ns = dur;
	j.n_anims = n;
	j.anim_ids = ids;
	chain_of(&j.ui, s, dur);
	jank_emit(e, p, &j);
}

/* Keeps p's animators with the most dropped + late frames, most first (ties: earlier). */
void worst_add(struct proc *p, const struct anim *a)
{
	uint32_t score = a->frames_dropped + a->janky_frames;
	int i;

	if (!score)
		return;
	i = p->jank.n_worst < AT_WORST_ANIMS ? p->jank.n_worst++ : AT_WORST_ANIMS;
	while (i > 0 && p->jank.worst[i - 1].frames_dropped + p->jank.worst[i - 1].janky_frames < score) {
		if (i < AT_WORST_ANIMS)
			p->jank.worst[i] = p->jank.worst[i - 1];
		i--;
	}
	if (i == AT_WORST_ANIMS)
		return;
	p->jank.worst[i].id = a->id;
	memcpy(p->jank.worst[i].name, a->name, sizeof(p->jank.worst[i].name));
	p->jank.worst[i].frames = a->frames;
	p->jank.worst[i].frames_dropped = a->frames_dropped;
	p->jank.worst[i].janky_frames = a->janky_frames;
}

/* The smoothness of p so far; early frames are judged again with the period now known. */
void proc_stat_fill(struct proc *p, struct proc_stat *ps)
{
	enum period_source src;

	memset(ps, 0, sizeof(*ps));
	ps->pid = p->pid;
	memcpy(ps->process, p->name, sizeof(ps->process));
	ps->refresh_period_ns = period__period(p->jank.period, &src);
	ps->refresh_source = period_source_str(src);
	ps->frames = p->frames.seq;
	ps->frames_dropped = p->jank.dropped;
	ps->janky_frames = p->jank.janky;
	for (int i = 0; i < p->jank.n_early; i++)
		ps->janky_frames += p->jank.early[i] > ps->refresh_period_ns;
	ps->n_worst = p->jank.n_worst;
	memcpy(ps->worst, p->jank.worst, sizeof(ps->worst));
}
