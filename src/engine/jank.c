// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Jank and the display period's use: a frame is late when it runs longer than the period, vsyncs missed before it are dropped frames, a long UI-thread slice while an animator runs is a block. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/jank.h"
#include "engine/slices.h"

static void jank_emit(struct engine *e, const struct proc *p, const struct jank *j)
{
	SINK_CALL(e, jank, j);
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
		p->janky += fs->f.janky;
	else if (p->n_early < (int)(sizeof(p->early) / sizeof(p->early[0])))
		p->early[p->n_early++] = fs->f.dur_ns; /* judged again with the final period */
	else
		p->janky += fs->f.janky;
	p->dropped += fs->f.dropped_before;
	for (struct anim_run *r = p->running; r; r = r->next) {
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
	if (t->anchor_vsync < 0 || vsync <= t->anchor_vsync ||
	    vsync - t->anchor_vsync > VSYNC_SPAN || ts < t->anchor_ns) {
		t->anchor_vsync = t->last_vsync;
		t->anchor_ns = t->last_frame_ns;
	}
	period__add(r, ts - t->anchor_ns, vsync - t->anchor_vsync);
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
	uint64_t dt = ts_ns > t->last_frame_ns ? ts_ns - t->last_frame_ns : 0;
	int64_t dv = vsync >= 0 && t->last_vsync >= 0 ? vsync - t->last_vsync : 0;
	enum period_source src;

	if (!p->refresh)
		p->refresh = period__new();
	if (p->refresh && dv > 0)
		refresh_add_vsync(p->refresh, t, vsync, ts_ns);
	else if (p->refresh)
		period__add(p->refresh, dt, dv);
	*budget = period__period(p->refresh, &src);
	*assumed = src == PERIOD_ASSUMED;
	if (!dv && dt && (!t->min_interval_ns || dt < t->min_interval_ns))
		t->min_interval_ns = dt;
	if (dv > 1)
		return (uint32_t)(dv - 1 > UINT32_MAX ? UINT32_MAX : dv - 1);
	return dv ? 0 : missed_vsyncs(dt, *assumed ? t->min_interval_ns : *budget);
}

/* A top-level UI-thread slice longer than the period while an animator runs is a block. */
void block_check(struct engine *e, struct proc *p, struct thread *t,
			const struct slice *s, uint64_t dur)
{
	struct jank j = { .kind = JANK_BLOCK, .pid = p->pid, .tid = t->tid, .vsync_id = -1 };
	uint64_t ids[64];
	int n = 0;

	j.budget_ns = period__period(p->refresh, NULL);
	if (t->tid != p->ui_tid || dur <= j.budget_ns || !p->running)
		return;
	for (struct anim_run *r = p->running; r && n < 64; r = r->next)
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
	i = p->n_worst < AT_WORST_ANIMS ? p->n_worst++ : AT_WORST_ANIMS;
	while (i > 0 && p->worst[i - 1].frames_dropped + p->worst[i - 1].janky_frames < score) {
		if (i < AT_WORST_ANIMS)
			p->worst[i] = p->worst[i - 1];
		i--;
	}
	if (i == AT_WORST_ANIMS)
		return;
	p->worst[i].id = a->id;
	memcpy(p->worst[i].name, a->name, sizeof(p->worst[i].name));
	p->worst[i].frames = a->frames;
	p->worst[i].frames_dropped = a->frames_dropped;
	p->worst[i].janky_frames = a->janky_frames;
}

/* The smoothness of p so far; early frames are judged again with the period now known. */
void proc_stat_fill(struct proc *p, struct proc_stat *ps)
{
	enum period_source src;

	memset(ps, 0, sizeof(*ps));
	ps->pid = p->pid;
	memcpy(ps->process, p->name, sizeof(ps->process));
	ps->refresh_period_ns = period__period(p->refresh, &src);
	ps->refresh_source = period_source_str(src);
	ps->frames = p->seq;
	ps->frames_dropped = p->dropped;
	ps->janky_frames = p->janky;
	for (int i = 0; i < p->n_early; i++)
		ps->janky_frames += p->early[i] > ps->refresh_period_ns;
	ps->n_worst = p->n_worst;
	memcpy(ps->worst, p->worst, sizeof(ps->worst));
}
