// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Jank and the display period's use (engine/jank.h). */
#include <stdbool.h>
#include <string.h>

#include "engine/jank.h"
#include "engine/period.h"
#include "engine/slices.h"
#include "engine/state.h"

/* The jank records of a frame that hit an animator: the gap before it, then its lateness. */
void jank__frame_sent(const struct proc *p, const struct frame_st *fs, struct emit *out)
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
		SINK_CALL(out, jank, &j);
	}
	if (fs->f.janky && fs->n_ids) {
		j.kind = JANK_LATE;
		j.ts_ns = fs->f.start_ns;
		j.duration_ns = fs->f.dur_ns;
		j.n_anims = (int)fs->n_ids;
		j.anim_ids = fs->ids;
		j.ui = fs->ui;
		j.render = fs->render;
		SINK_CALL(out, jank, &j);
	}
}

void jank__judge(struct jank_proc *jp, struct frame_st *fs, struct anim_run *running)
{
	fs->f.janky = fs->f.dur_ns > fs->f.budget_ns;
	if (!fs->assumed)
		jp->janky += fs->f.janky;
	else if (jp->n_early < (int)(sizeof(jp->early) / sizeof(jp->early[0])))
		jp->early[jp->n_early++] = fs->f.dur_ns; /* judged again with the final period */
	else
		jp->janky += fs->f.janky;
	jp->dropped += fs->f.dropped_before;
	for (struct anim_run *r = running; r; r = r->next) {
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

uint64_t jank__budget(struct jank_proc *jp, bool *assumed)
{
	enum period_source src;
	uint64_t budget = period__period(jp->period, &src);

	*assumed = src == PERIOD_ASSUMED;
	return budget;
}

uint32_t jank__interval(struct jank_proc *jp, struct thread *t, int64_t vsync, uint64_t ts_ns,
			uint64_t *budget, bool *assumed)
{
	uint64_t dt = ts_ns > t->frames.last_frame_ns ? ts_ns - t->frames.last_frame_ns : 0;
	int64_t dv = vsync >= 0 && t->frames.last_vsync >= 0 ? vsync - t->frames.last_vsync : 0;
	enum period_source src;

	if (!jp->period)
		jp->period = period__new();
	if (jp->period && dv > 0)
		refresh_add_vsync(jp->period, t, vsync, ts_ns);
	else if (jp->period)
		period__add(jp->period, dt, dv);
	*budget = period__period(jp->period, &src);
	*assumed = src == PERIOD_ASSUMED;
	if (!dv && dt && (!t->jank.min_interval_ns || dt < t->jank.min_interval_ns))
		t->jank.min_interval_ns = dt;
	if (dv > 1)
		return (uint32_t)(dv - 1 > UINT32_MAX ? UINT32_MAX : dv - 1);
	return dv ? 0 : missed_vsyncs(dt, *assumed ? t->jank.min_interval_ns : *budget);
}

void jank__block(struct proc *p, const struct thread *t, const struct slice *s, uint64_t dur,
		 struct emit *out)
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
	slices__chain_of(&j.ui, s, dur);
	SINK_CALL(out, jank, &j);
}

void jank__anim_ended(struct jank_proc *jp, const struct anim *a)
{
	uint32_t score = a->frames_dropped + a->janky_frames;
	int i;

	if (!score)
		return;
	i = jp->n_worst < AT_WORST_ANIMS ? jp->n_worst++ : AT_WORST_ANIMS;
	while (i > 0 && jp->worst[i - 1].frames_dropped + jp->worst[i - 1].janky_frames < score) {
		if (i < AT_WORST_ANIMS)
			jp->worst[i] = jp->worst[i - 1];
		i--;
	}
	if (i == AT_WORST_ANIMS)
		return;
	jp->worst[i].id = a->id;
	memcpy(jp->worst[i].name, a->name, sizeof(jp->worst[i].name));
	jp->worst[i].frames = a->frames;
	jp->worst[i].frames_dropped = a->frames_dropped;
	jp->worst[i].janky_frames = a->janky_frames;
}

/* Early frames are judged again with the period now known. */
void jank__stat(struct proc *p, struct proc_stat *ps)
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

void jank__thread_reset(struct jank_thread *jt)
{
	jt->anchor_vsync = -1;
	jt->min_interval_ns = 0;
}

void jank__proc_free(struct jank_proc *jp)
{
	period__free(jp->period);
}
