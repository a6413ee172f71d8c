// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Jank and the display period's use (engine/jank.h). */
#include <stdbool.h>
#include <string.h>

#include "common/frametimeline.h"
#include "engine/jank.h"
#include "engine/period.h"
#include "engine/slices.h"
#include "engine/state.h"

/* The jank records of a frame that hit an animator: the gap before it, then its lateness. */
void jank__frame_sent(const struct proc *p, const struct frame_st *fs, struct emit *out)
{
	struct jank j = {
		.pid = p->pid,
		.tid = fs->f.tid,
		.frame_seq = fs->f.seq,
		.vsync_id = fs->f.vsync_id,
		.budget_ns = fs->f.budget_ns,
		.vsync_ns = fs->f.vsync_ns,
		.start_delay_ns = fs->f.start_delay_ns,
		.deadline_ns = fs->f.deadline_ns,
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
	/* late while animators ran, or late as SurfaceFlinger saw it */
	if (fs->f.janky && (fs->n_ids || ft_jank_is_app(fs->f.timeline.jank_type))) {
		j.kind = JANK_LATE;
		j.start = fs->start_cause;
		j.timeline = fs->f.timeline;
		j.ts_ns = fs->f.start_ns;
		j.duration_ns = fs->f.dur_ns;
		j.n_anims = (int)fs->n_ids;
		j.anim_ids = fs->ids;
		j.ui = fs->ui;
		j.render = fs->render;
		SINK_CALL(out, jank, &j);
	}
}

/* The end after the deadline; early frames (assumed period) are kept to judge again. */
void jank__judge(struct jank_proc *jp, struct frame_st *fs, struct anim_run *running)
{
	fs->f.janky = fs->end_ns > fs->f.deadline_ns;
	if (!fs->assumed)
		jp->janky += fs->f.janky;
	else if (jp->n_early < (int)(sizeof(jp->early) / sizeof(jp->early[0])))
		jp->early[jp->n_early++] = fs->end_ns - fs->f.vsync_ns; /* judged again later */
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

static bool ran_in(const struct frame_st *fs, uint64_t id)
{
	for (size_t i = 0; i < fs->n_ids; i++)
		if (fs->ids[i] == id)
			return true;
	return false;
}

static const struct jank_actual *actual_of(const struct jank_proc *jp, int64_t token)
{
	for (unsigned int i = 0; token >= 0 && i < JANK_TIMELINE_RING && i < jp->n_actual; i++)
		if (jp->actual[i].token == token)
			return &jp->actual[i];
	return NULL;
}

/* A draw that ended after the deadline makes the frame late; FrameTimeline's verdict, when it
 * judged the token, is compared. */
void jank__complete(struct jank_proc *jp, struct frame_st *fs, struct anim_run *running)
{
	const struct jank_actual *a = actual_of(jp, fs->f.vsync_id);

	if (!fs->f.janky && fs->end_ns > fs->f.deadline_ns && !fs->assumed) {
		fs->f.janky = true;
		jp->janky++;
		for (struct anim_run *r = running; r; r = r->next)
			r->a.janky_frames += ran_in(fs, r->a.id);
	}
	fs->f.timeline.judged = false;
	if (!a)
		return;
	fs->f.timeline = a->v;
	if (ft_jank_is_app(a->v.jank_type) == fs->f.janky)
		jp->timeline_agree++;
	else
		jp->timeline_disagree++;
}

void jank__timeline(struct jank_proc *jp, const struct ft_frame *f)
{
	if (f->ev.kind == FT_EXPECTED_SURFACE && f->ended && f->end_ns > f->start_ns) {
		struct jank_expected *x = &jp->expected[jp->n_expected++ % JANK_TIMELINE_RING];

		x->token = f->ev.token;
		x->vsync_ns = f->start_ns;
		x->deadline_ns = f->end_ns;
		if (!jp->period)
			jp->period = period__new();
		if (jp->period && jp->last_expected_ns && f->start_ns > jp->last_expected_ns)
			period__add_vsync(jp->period, f->start_ns - jp->last_expected_ns);
		jp->last_expected_ns = f->start_ns;
		period__grid_vsync(&jp->grid, f->start_ns);
	} else if (f->ev.kind == FT_ACTUAL_SURFACE) {
		struct jank_actual *a = &jp->actual[jp->n_actual++ % JANK_TIMELINE_RING];
		size_t n = f->ev.layer.len < AT_LAYER_MAX - 1 ? f->ev.layer.len : AT_LAYER_MAX - 1;

		a->token = f->ev.token;
		a->v.judged = true;
		a->v.present = f->ev.present_type;
		a->v.jank_type = f->ev.jank_type;
		memcpy(a->v.layer, f->ev.layer.p, n);
		a->v.layer[n] = '\0';
	}
}

static const struct jank_expected *expected_of(const struct jank_proc *jp, int64_t token)
{
	for (unsigned int i = 0; token >= 0 && i < JANK_TIMELINE_RING && i < jp->n_expected; i++)
		if (jp->expected[i].token == token)
			return &jp->expected[i];
	return NULL;
}

void jank__display_vsync(struct jank_display *d, uint64_t ts_ns)
{
	if (!d->period)
		d->period = period__new();
	if (d->period && d->last_ns && ts_ns > d->last_ns)
		period__add_vsync(d->period, ts_ns - d->last_ns);
	d->last_ns = ts_ns;
	period__grid_vsync(&d->grid, ts_ns);
}

void jank__display_free(struct jank_display *d)
{
	period__free(d->period);
}

/*
 * The display's vsyncs when SurfaceFlinger marked enough of them, else the process's own
 * measure, else the intervals of every process (they share the display), else assumed.
 */
static uint64_t period_of(const struct jank_proc *jp, enum period_source *src)
{
	enum period_source s, own;
	uint64_t p = jp->display ? period__period(jp->display->period, &s) : 0, q;

	if (!p || s != PERIOD_VSYNC) {
		q = period__period(jp->period, &own);
		if (!p || own != PERIOD_ASSUMED)
			p = q, s = own;
	}
	if (src)
		*src = s;
	return p;
}

/* The display's grid while SurfaceFlinger marks vsyncs, else the process's own. */
static struct period_grid *grid_of(struct jank_proc *jp, uint64_t period_ns, uint64_t ts_ns)
{
	struct period_grid *g = jp->display ? &jp->display->grid : NULL;

	if (g && g->anchor_ns && g->exact && g->anchor_ns <= ts_ns &&
	    ts_ns - g->anchor_ns <= 4 * period_ns)
		return g;
	return &jp->grid;
}

uint64_t jank__budget(struct jank_proc *jp, bool *assumed)
{
	enum period_source src;
	uint64_t budget = period_of(jp, &src);

	*assumed = src == PERIOD_ASSUMED;
	return budget;
}

/*
 * A start interval dt of t: the sample is its mean with the interval before, the time across
 * two of them, in which the lateness of the start between cancels (a late start lengthens
 * one interval and shortens the next by as much); the first interval of a run counts alone.
 * The thread's shortest sample stands in for the period until it is measured: a raw interval
 * would not do, as a doFrame held past its vsync can be followed at once by the next one
 * (0.1 ms apart), and every later gap would then count thousands of missed vsyncs.
 */
static void add_interval(struct jank_proc *jp, struct thread *t, uint64_t dt)
{
	uint64_t sample;

	if (!jp->period)
		jp->period = period__new();
	if (!dt || dt >= PERIOD_MAX_INTERVAL_NS) {
		t->jank.prev_dt_ns = 0;
		return;
	}
	sample = t->jank.prev_dt_ns ? (dt + t->jank.prev_dt_ns) / 2 : dt; /* a run's first alone */
	if (!t->jank.min_interval_ns || sample < t->jank.min_interval_ns)
		t->jank.min_interval_ns = sample;
	if (jp->period)
		period__add(jp->period, sample);
	if (jp->display && !jp->display->period)
		jp->display->period = period__new();
	if (jp->display && jp->display->period) /* one display: every process measures it */
		period__add(jp->display->period, sample);
	t->jank.prev_dt_ns = dt;
}

void jank__onvsync(struct jank_proc *jp, struct thread *t, uint64_t ts_ns, int64_t vsync)
{
	if (t->jank.onvsync_ns && ts_ns > t->jank.onvsync_ns)
		add_interval(jp, t, ts_ns - t->jank.onvsync_ns);
	t->jank.onvsync_ns = ts_ns;
	t->jank.onvsync_id = vsync;
}

/*
 * Where t's frame starting at ts (vsync id vsync) meets the vsync grid: its own onVsync, when
 * t marked one for it, however long the doFrame then waited behind other Looper messages
 * (FrameDisplayEventReceiver.onVsync posts the doFrame; a Handler message ahead of it delays
 * it past its vsync, even by more than a period); else the doFrame's start.
 */
static uint64_t grid_point(const struct thread *t, uint64_t ts, int64_t vsync, uint64_t p)
{
	uint64_t on = t->jank.onvsync_ns;

	if (!on || on > ts)
		return ts;
	if (vsync >= 0 && t->jank.onvsync_id >= 0)
		return t->jank.onvsync_id == vsync ? on : ts;
	/* without ids: the onVsync since t's previous frame began, else a stale one */
	if (t->frames.has_frame && on <= t->frames.last_frame_ns)
		return ts;
	return ts - on < 4 * p ? on : ts;
}

/*
 * The interval since t's last frame measures the period, unless t marks its vsync events
 * (onVsync: those are measured). Before the period is measured the thread's shortest interval
 * stands in for it when counting skipped vsyncs, not the assumed 60 Hz, which would see every
 * frame of a 30 Hz display as one missed vsync.
 */
uint32_t jank__frame_began(struct jank_proc *jp, struct thread *t, struct frame_st *fs)
{
	uint64_t ts = fs->f.start_ns, p, dt = 0, grid_ts = ts;
	const struct jank_expected *x = expected_of(jp, fs->f.vsync_id);
	uint32_t skipped;

	if (!jp->period)
		jp->period = period__new();
	if (t->frames.has_frame && ts > t->frames.last_frame_ns)
		dt = ts - t->frames.last_frame_ns;
	if (dt && !t->jank.onvsync_ns)
		add_interval(jp, t, dt);
	p = jank__budget(jp, &fs->assumed);
	fs->f.budget_ns = p;
	grid_ts = grid_point(t, ts, fs->f.vsync_id, p);
	if (x && x->vsync_ns <= ts) {
		fs->f.vsync_ns = x->vsync_ns;
		fs->f.deadline_ns = x->deadline_ns;
	} else {
		/* an assumed period puts no vsync before the start: it may be the wrong rate */
		fs->f.vsync_ns = period__grid_floor(grid_of(jp, p, grid_ts), p, grid_ts);
		if (fs->assumed)
			fs->f.vsync_ns = grid_ts;
		fs->f.deadline_ns = fs->f.vsync_ns + p;
	}
	fs->f.start_delay_ns = ts - fs->f.vsync_ns;
	if (fs->f.start_delay_ns)
		slices__busy_between(&t->slices, fs->f.vsync_ns, ts, &fs->start_cause);
	skipped = period__skipped(t->jank.last_vsync_ns, fs->f.vsync_ns,
				  fs->assumed ? t->jank.min_interval_ns : p);
	t->jank.last_vsync_ns = fs->f.vsync_ns;
	return t->frames.has_frame ? skipped : 0;
}

void jank__block(struct proc *p, const struct thread *t, const struct slice *s, uint64_t dur,
		 struct emit *out)
{
	struct jank j = { .kind = JANK_BLOCK, .pid = p->pid, .tid = t->tid, .vsync_id = -1 };
	uint64_t ids[64];
	int n = 0;

	j.budget_ns = period_of(&p->jank, NULL);
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
	ps->refresh_period_ns = period_of(&p->jank, &src);
	ps->refresh_source = period_source_str(src);
	ps->frames = p->frames.seq;
	ps->frames_dropped = p->jank.dropped;
	ps->janky_frames = p->jank.janky;
	ps->timeline_agree = p->jank.timeline_agree;
	ps->timeline_disagree = p->jank.timeline_disagree;
	for (int i = 0; i < p->jank.n_early; i++)
		ps->janky_frames += p->jank.early[i] > ps->refresh_period_ns;
	ps->n_worst = p->jank.n_worst;
	memcpy(ps->worst, p->jank.worst, sizeof(ps->worst));
}

void jank__thread_reset(struct jank_thread *jt)
{
	memset(jt, 0, sizeof(*jt));
}

void jank__proc_free(struct jank_proc *jp)
{
	period__free(jp->period);
}
