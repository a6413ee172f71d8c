// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Lifecycle engine: the dispatch. Every engine__* entry point hands its event to the trackers
 * (one concern each, one header each: procs, slices, frames, jank, props, attrib, anims,
 * artcalls, redraws, cujs, findings, summary, and the segmenter), and where an event involves several of them
 * this file states the order once: frame open, close, draw and send, animator start and end,
 * process exit, session end. Trackers never call back up; when one needs another to act (a
 * full node table, a frame completed by its draw) it says so to its caller here.
 *
 * State lives in hash tables (animator keys, processes, threads, nodes) so every event costs
 * O(1) on average; the only per-frame walk is over the animators running in that process,
 * which is what a frame has to list anyway.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/frametimeline.h"
#include "engine/anims.h"
#include "engine/artcalls.h"
#include "engine/attrib.h"
#include "engine/cujs.h"
#include "engine/engine.h"
#include "engine/findings.h"
#include "engine/frames.h"
#include "engine/jank.h"
#include "engine/procs.h"
#include "engine/props.h"
#include "engine/redraws.h"
#include "engine/segment.h"
#include "engine/slices.h"
#include "engine/state.h"
#include "engine/summary.h"

#define DEFAULT_INSTANT_NS 1000000ull

/* ---- processes, threads, batches, nodes ---------------------------------------------- */

/* pid's process, created on first sight; a non-empty name replaces the one known so far. */
static struct proc *proc_get(struct engine *e, uint32_t pid, const char *process)
{
	bool created;
	struct proc *p = procs__get(&e->procs, pid, process, &e->ev.processes, &created);

	if (p && created) {
		props__proc_init(&p->props, &e->props.nodes);
		p->jank.display = &e->display;
	}
	return p;
}

/* Thread tid of pid; a new one, or one whose tid another process had, starts afresh. */
static struct thread *thread_get(struct engine *e, uint32_t pid, uint32_t tid)
{
	bool fresh;
	struct thread *t =
		procs__thread_get(&e->procs, &e->slices, pid, tid, &e->ev.threads, &fresh);

	if (t && fresh) {
		slices__thread_reset(&e->slices, &t->slices);
		frames__thread_reset(&t->frames);
		jank__thread_reset(&t->jank);
		attrib__thread_reset(&t->attrib);
		dynanims__thread_reset(&t->dyn);
	}
	return t;
}

/* Frees p, part by part; its running animators go unreported. */
static void proc_free(struct proc *p)
{
	anims__proc_free(&p->anims);
	frames__proc_free(&p->frames);
	jank__proc_free(&p->jank);
	props__proc_free(&p->props);
	cujs__proc_free(&p->cujs);
	dynanims__proc_free(&p->dyn);
	free(p);
}

/*
 * Forgets p, which has nothing running (its pid may come back as another process): its line
 * is kept for the summary, its refresh storm ends and its Views enter the ranking first.
 */
static void proc_remove(struct engine *e, struct proc *p)
{
	summary__proc_exited(&e->session, p, &e->ev.proc_stats);
	redraws__storm_end(p, &e->out);
	redraws__rank(&e->redraws, p);
	if (procs__remove(&e->procs, p))
		proc_free(p);
}

/* Sends p's batch of property changes (its conflicts first); the animators whose first exact writes were in it
 * then say what they move (their anim_target follows the frame_props it describes). */
static void batch_send(struct engine *e, struct proc *p)
{
	findings__batch(&e->findings, p, &e->out);
	if (props__flush(&e->props, &p->props, p->name, &e->out))
		attrib__announce(&p->attrib, p->anims.running, &e->out);
}

/*
 * node of p, created on first sight. A full node table whose nodes all changed in the
 * current batch (no doFrame for a long time) makes room by sending the batch early.
 */
static struct node_st *node_get(struct engine *e, struct proc *p, uint64_t node, const char *name)
{
	struct node_st *n;
	int err = props__node(&p->props, node, name, &e->ev.nodes, &n);

	if (err == -ENOSPC) {
		batch_send(e, p);
		err = props__node(&p->props, node, name, &e->ev.nodes, &n);
		if (err == -ENOSPC) /* the other processes hold every node: this one is lost */
			e->ev.nodes++;
	}
	return err ? NULL : n;
}

/* ---- frames -------------------------------------------------------------------------- */

/*
 * fs (p's frame waiting for its draw) goes out, once: judged again with its draw's end and
 * against FrameTimeline, its record with the redraws it saw, then the jank records about it,
 * then the CUJs it follows (it counts for those it began in).
 */
static void frame_send(struct engine *e, struct proc *p, struct frame_st *fs)
{
	if (!frames__take(fs, p->name))
		return;
	jank__complete(&p->jank, fs, p->anims.running);
	redraws__attach(&p->redraws, fs);
	frames__count(&e->frames, &fs->f);
	SINK_CALL(&e->out, frame, &fs->f);
	jank__frame_sent(p, fs, &e->out);
	cujs__frame(&e->cujs, &p->cujs, &fs->f, &e->out);
}

/*
 * The frame-close order. p's open doFrame ended at ts_ns (t: its thread; NULL when a doFrame
 * of another thread or the end of the process closes it):
 *  1. the frame still waiting for its draw goes out first: frames go out in order;
 *  2. the segmenter sees this frame's changes while the batch still holds them, and a
 *     DynamicAnimation whose endAnimationInternal is not probed ends after missed frames;
 *  3. the batch goes out (and the targets it showed): a frame's values come before its record;
 *  4. the frame gets its duration, which
 *  5. jank judges it by, for the process and for the animators that ran in it;
 *  6. redraws count its Views and the refresh storm;
 *  7. its thread's next gap starts now;
 *  8. it waits for its draw, and the next doFrame collects in the buffers of the one sent;
 *  9. drawn already (with vsync ids a draw can end first), it goes out now.
 */
static void frame_end(struct engine *e, struct proc *p, struct thread *t, uint64_t ts_ns)
{
	struct frames_proc *fp = &p->frames;

	if (!fp->cur.live)
		return;
	frame_send(e, p, &fp->done);
	props__segment(&e->props, &p->props, &fp->cur.f, fp->cur.missed, p->name, ts_ns, e->seg);
	dynanims__frame_ended(&p->dyn, &e->out);
	batch_send(e, p);
	frames__end(fp, ts_ns);
	jank__judge(&p->jank, &fp->cur, p->anims.running);
	redraws__frame_closed(p, &fp->cur, &e->out);
	if (t && t->tid == fp->cur.f.tid) {
		frames__gap_start(&t->frames, ts_ns);
		slices__window_reset(&t->slices);
	}
	frames__wait_draw(fp);
	redraws__frame_reset(&fp->cur.rd);
	if (fp->done.drawn)
		frame_send(e, p, &fp->done);
}

/*
 * The frame-open order. Thread t of p began a doFrame (vsync id vsync, or -1) at ts_ns:
 *  1. a doFrame still open (on another thread) ends first;
 *  2. the frame waiting for its draw goes out, unless a draw may still come for it;
 *  3. the changes made since the last doFrame ended go out, before this frame collects;
 *  4. the frame opens; the interval since t's previous doFrame (step 7 overwrites it)
 *     measures the period, and jank places it on its vsync (start delay and its cause,
 *     deadline) and counts the vsyncs that passed since t's previous frame's;
 *  5. the gap before it takes the longest slices of t and of the RenderThread, and t starts
 *     a new window;
 *  6. every running animator counts the frame, and the gap with the vsyncs it missed;
 *  7. t remembers this frame as its last.
 */
static void frame_begin(struct engine *e, struct proc *p, struct thread *t, int64_t vsync,
			uint64_t ts_ns)
{
	struct frames_proc *fp = &p->frames;
	struct thread *rt;
	uint32_t dropped = 0;
	uint64_t budget;
	bool assumed;

	frame_end(e, p, NULL, ts_ns);
	if (!frames__done_waits(fp))
		frame_send(e, p, &fp->done);
	batch_send(e, p);
	budget = jank__budget(&p->jank, &assumed);
	frames__open(fp, p->pid, t->tid, vsync, ts_ns, budget, assumed);
	dropped = jank__frame_began(&p->jank, t, &fp->cur);
	rt = fp->render_tid ? procs__thread_find(&e->procs, fp->render_tid) : NULL;
	frames__gap(fp, t, rt && rt->pid == p->pid ? rt : NULL);
	slices__window_reset(&t->slices);
	frames__runs(fp, &t->frames, p->anims.running, dropped);
	frames__ran(fp, &t->frames, t->tid, vsync, ts_ns);
}

/* A DrawFrame(s) slice s ended on thread t after dur_ns: the frame it completes goes out. */
static void frame_drawn(struct engine *e, struct proc *p, struct thread *t, const struct slice *s,
			uint64_t dur_ns)
{
	slices__window_reset(&t->slices); /* the next gap's RenderThread slices start now */
	if (frames__drawn(&p->frames, t->tid, s, dur_ns))
		frame_send(e, p, &p->frames.done);
}

/* p's frames go out: the one waiting for its draw, the open one (ended at ts_ns), and the
 * changes made since. */
static void frames_flush(struct engine *e, struct proc *p, uint64_t ts_ns)
{
	frame_send(e, p, &p->frames.done);
	frame_end(e, p, NULL, ts_ns);
	frame_send(e, p, &p->frames.done);
	batch_send(e, p);
}

/* ---- slices (B/E) -------------------------------------------------------------------- */

/* A B of thread t of p: a doFrame opens a frame, a draw is under way. */
static void on_slice_begin(struct engine *e, struct proc *p, struct thread *t, uint64_t ts_ns,
			   struct strv name)
{
	struct slice *s = slices__begin(&e->slices, &t->slices, ts_ns, name, &e->ev.slices);

	if (s && s->kind == SLICE_DRAW)
		s->owner_seq = frames__draw_began(&p->frames, t->tid);
	if (s && s->kind == SLICE_DOFRAME)
		frame_begin(e, p, t, s->vsync, ts_ns);
	if (s && s->kind == SLICE_ONVSYNC)
		jank__onvsync(&p->jank, t, ts_ns, s->vsync);
}

/*
 * An E of thread t (NULL: unknown) at ts_ns: the slice it closes ends an animateValue window
 * opened in it, and by its kind a frame, a phase of it, a draw or (top-level) a block.
 */
static void on_slice_end(struct engine *e, struct thread *t, uint64_t ts_ns)
{
	const struct slice *s;
	struct proc *p;
	uint64_t dur;

	s = t ? slices__end(&e->slices, &t->slices, ts_ns, &dur) : NULL;
	if (!s)
		return;
	attrib__slice_ended(&t->attrib, t->slices.depth);
	dynanims__slice_ended(&t->dyn, t->slices.depth);
	p = procs__find(&e->procs, t->pid);
	if (!p)
		return;
	switch (s->kind) {
	case SLICE_DOFRAME:
		if (frames__doframe_ended(&p->frames, t->tid, s, dur))
			frame_end(e, p, t, ts_ns);
		break;
	case SLICE_PHASE:
		frames__phase(&p->frames, t->tid, s, dur);
		break;
	case SLICE_DRAW:
		frame_drawn(e, p, t, s, dur);
		break;
	default:
		if (!t->slices.depth)
			jank__block(p, t, s, dur, &e->out);
		break;
	}
}

/* ---- animators ----------------------------------------------------------------------- */

/* a ended: it counts for p's smoothness and for its name's statistics, then goes out. */
static void anim_report(struct engine *e, struct proc *p, struct name_acc *n, const struct anim *a)
{
	jank__anim_ended(&p->jank, a);
	anims__ended(&e->anims, n, a, &e->ev);
	SINK_CALL(&e->out, anim_end, a);
}

/*
 * The animator-end order. r of p ended at ts_ns on thread tid for reason (source):
 *  1. it leaves p's running list with its end (anims);
 *  2. its exact targets fill its record, and its interpolator is fitted to the curve
 *     attribution kept (exact or inferred);
 *  3. the findings about it go out, then its record is counted and goes out; the run is freed.
 */
static void anim_end(struct engine *e, struct proc *p, struct anim_run *r, uint64_t ts_ns,
		     uint32_t tid, enum end_reason reason, enum reason_source source)
{
	anims__stop(&e->anims, p, r, ts_ns, tid, reason, source);
	starter__ended(&p->starter, &r->a, ts_ns);
	attrib__fill(r);
	attrib__fit_interp(&r->a);
	findings__anim_ended(&e->findings, p, r, &e->out);
	anim_report(e, p, r->key->name, &r->a);
	anims__run_free(r);
}

/* The ART state of thread tid (NULL when it has none). */
static struct artcalls_thread *art_thread(struct engine *e, uint32_t tid)
{
	struct thread *t = procs__thread_find(&e->procs, tid);

	return t ? &t->art : NULL;
}

/*
 * The animator-start order. The S of k (named name) at ts_ns on thread tid:
 *  1. a run of k still going (S again without F) is over;
 *  2. a cap makes room by evicting the oldest running animator;
 *  3. the run starts, and counts for the doFrame open now;
 *  4. the ART calls that wrote the S give its start stack (and from it, who started it), its
 *     start delay and its configuration (read from the animator object at start());
 *  5. it may replace the animator whose F came right before (findings);
 *  6. it goes out, and runs inside the CUJs open in p.
 */
static void anim_begin(struct engine *e, struct proc *p, struct anim_key *k, const char *name,
		       uint64_t ts_ns, uint32_t tid)
{
	struct anim_run *r;

	if (k->run)
		anim_end(e, p, k->run, ts_ns, tid, END_ENDED, REASON_INFERRED);
	anims__make_room(&e->anims, p, e->procs.list, e->procs.n, &e->ev.animators);
	r = anims__start(&e->anims, p, k, name, ts_ns, tid);
	if (!r)
		return;
	frames__anim_started(&p->frames, r);
	artcalls__start_stack(art_thread(e, tid), k->cookie, ts_ns, &r->a);
	starter__started(&p->starter, &r->a, p->frames.cur.live ? p->frames.cur.f.start_ns : 0);
	artcalls__start_delay(&p->art, k->cookie, ts_ns, &r->a);
	anims__take_config(&p->anims, k->cookie, &r->a);
	findings__anim_started(p, r);
	SINK_CALL(&e->out, anim_start, &r->a);
	cujs__anim_started(&p->cujs, r->a.id);
}

/*
 * The F of k (named name) at ts_ns on thread tid. The cancel() or end() that caused it, if the
 * ART probes saw one, gives its reason and end stack. A running animator ends; one whose run
 * was evicted is forgotten; one that never started was cancelled during its start delay.
 */
static void anim_finish(struct engine *e, struct proc *p, struct anim_key *k, const char *name,
			uint64_t ts_ns, uint32_t tid)
{
	const struct art_pending *cause = artcalls__cause(art_thread(e, tid), k->cookie, ts_ns);
	enum reason_source source;
	enum end_reason reason;
	struct anim a;

	if (k->run) {
		if (cause)
			artcalls__end_stack(&k->run->a, cause);
		reason = artcalls__reason(&p->art, cause, ts_ns,
					  anims__inferred_reason(k->run, ts_ns, e->opts.instant_ns,
								 p->frames.seq != 0),
					  &source);
		anim_end(e, p, k->run, ts_ns, tid, reason, source);
		return;
	}
	if (anims__evicted_end(k)) /* its S was seen; the run was evicted and counted then */
		return;
	anims__cancelled_before_start(&a, k, name, p, ts_ns, tid);
	artcalls__start_dropped(&p->art, k->cookie); /* no S will follow its start() */
	anims__take_config(&p->anims, k->cookie, &a);
	artcalls__cancelled(&a, cause);
	findings__cancelled_before_start(p);
	anim_report(e, p, k->name, &a);
}

/* An S or F marker: animators' ones start or end their animator. */
static void on_async(struct engine *e, struct proc *p, uint64_t ts_ns, uint32_t tid,
		     const struct marker *m)
{
	char name[AT_NAME_MAX];
	struct name_acc *n;
	struct anim_key *k;

	if (!anims__is_animator(m->name))
		return;
	snprintf(name, sizeof(name), "%.*s",
		 (int)utf8_prefix(m->name.p, m->name.len, sizeof(name) - 1), m->name.p);
	n = anims__name(&e->anims, name, &e->ev);
	k = n ? anims__key(&e->anims, p->pid, n, m->value, &e->ev) : NULL;
	if (!k)
		return;
	if (m->type == MARKER_ASYNC_BEGIN)
		anim_begin(e, p, k, name, ts_ns, tid);
	else
		anim_finish(e, p, k, name, ts_ns, tid);
}

/* ---- entry points (engine.h) --------------------------------------------------------- */

/* An unmarked animation goes out; it ran inside the CUJs of its process it overlaps. */
static int seg_start(void *ctx, const struct animation *a)
{
	struct engine *e = ctx;
	struct proc *p = procs__find(&e->procs, a->pid);

	SINK_CALL(&e->out, animation_start, a);
	if (p)
		cujs__animation(&p->cujs, a);
	return e->out.err;
}

static int seg_end(void *ctx, const struct animation *a)
{
	struct engine *e = ctx;
	struct proc *p = procs__find(&e->procs, a->pid);

	findings__animation_ended(&e->findings, a, &e->out);
	SINK_CALL(&e->out, animation_end, a);
	if (p)
		cujs__animation(&p->cujs, a);
	return e->out.err;
}

struct engine *engine__new(const struct engine_opts *opts, struct sink sink)
{
	struct engine *e = calloc(1, sizeof(*e));

	if (!e) {
		errno = ENOMEM;
		return NULL;
	}
	e->seg = segment__new((struct seg_out){ seg_start, seg_end, e });
	if (!e->seg) {
		free(e);
		errno = ENOMEM;
		return NULL;
	}
	if (opts)
		e->opts = *opts;
	if (!e->opts.instant_ns)
		e->opts.instant_ns = DEFAULT_INSTANT_NS;
	e->out.sink = sink;
	return e;
}

/* FrameTracker's marker m (engine/cujs.h), with the doFrame open on tid (its first frame). */
static void on_cuj(struct engine *e, struct proc *p, uint32_t tid, uint64_t ts_ns,
		   const struct marker *m)
{
	bool in_frame = p->frames.cur.live && p->frames.cur.f.tid == tid;

	cujs__marker(&e->cujs, &p->cujs, p->pid, tid, p->name, m, ts_ns,
		     in_frame ? p->frames.cur.f.start_ns : 0, p->anims.running, &e->out);
}

void engine__marker(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid,
		    const char *process, const struct marker *m)
{
	struct proc *p;
	struct thread *t;

	e->out.src_ts_ns = ts_ns;
	summary__marker(&e->session, ts_ns);
	if (summary__is_annotation(m)) {
		summary__annotation(&e->session, ts_ns, pid, tid, process, m, &e->out);
		return;
	}
	if (trust__is_vsync_app(m)) { /* the display's, when SurfaceFlinger's (trust.h) */
		engine__display_vsync(e, ts_ns, pid, process);
		return;
	}
	t = procs__thread_find(&e->procs, tid);
	if (t) {
		attrib__marker(&t->attrib);
		dynanims__marker(&t->dyn);
	}
	if (m->type == MARKER_END) { /* may be a bare "E": the thread knows its process */
		on_slice_end(e, t, ts_ns);
		p = process && *process ? proc_get(e, pid, process) : procs__find(&e->procs, pid);
		if (p)
			summary__proc_marker(&p->summary);
		return;
	}
	p = proc_get(e, pid, process);
	if (!p)
		return;
	summary__proc_marker(&p->summary);
	switch (m->type) {
	case MARKER_BEGIN: /* Android 13's FT# events are slices too: they still balance an E */
		if (cujs__maybe(m->name) && cujs__is_cuj(m))
			on_cuj(e, p, tid, ts_ns, m);
		t = thread_get(e, pid, tid);
		if (t)
			on_slice_begin(e, p, t, ts_ns, m->name);
		break;
	case MARKER_ASYNC_BEGIN:
	case MARKER_ASYNC_END:
		if (cujs__maybe(m->name) && cujs__is_cuj(m))
			on_cuj(e, p, tid, ts_ns, m);
		else
			on_async(e, p, ts_ns, tid, m);
		break;
	case MARKER_TRACK_BEGIN:
	case MARKER_TRACK_END:
	case MARKER_INSTANT_TRACK:
		if (cujs__is_cuj(m))
			on_cuj(e, p, tid, ts_ns, m);
		break;
	default:
		break;
	}
}

/* Every entry point with a time: the session's span, and the source of what it now sends. */
static void note_time(struct engine *e, uint64_t ts_ns)
{
	e->out.src_ts_ns = ts_ns;
	summary__time(&e->session, ts_ns);
}

/* A probe saw node of pid at ts_ns: its process (*pp) and node state, or NULL (no memory). */
static struct node_st *node_seen(struct engine *e, uint64_t ts_ns, uint32_t pid, uint64_t node,
				 const char *node_name, struct proc **pp)
{
	note_time(e, ts_ns);
	*pp = proc_get(e, pid, NULL);
	return *pp ? node_get(e, *pp, node, node_name) : NULL;
}

/*
 * A property write: the node's earlier value is settled first, since both the batch (its value
 * before the frame) and attribution (an animator's "from") read it before the new value
 * replaces it, last.
 */
void engine__prop(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid, uint64_t node,
		  const char *node_name, enum view_prop prop, float value, const float *prev)
{
	const uint32_t *writer;
	struct thread *t;
	struct proc *p;
	struct node_st *n;
	bool explained;
	uint64_t dyn;

	if (!node || (unsigned int)prop >= PROP_COUNT)
		return;
	n = node_seen(e, ts_ns, pid, node, node_name, &p);
	if (!n)
		return;
	summary__proc_write(&p->summary);
	props__prev(n, prop, prev);
	t = procs__thread_find(&e->procs, tid);
	writer = attrib__writer(t, pid);
	/* inside a DynamicAnimation's doAnimationFrame: its write (its run's id), no animator's */
	dyn = t && t->pid == pid ? dynanims__write(&p->dyn, &t->dyn, node, node_name, prop, value,
						   prev, &e->out) :
				   0;
	if (dyn)
		writer = NULL;
	props__add(p, n, ts_ns, tid, prop, value, writer, dyn, &e->ev);
	explained = dyn ||
		    attrib__write(p, writer, n, prop, value, frames__frame_ns(&p->frames, ts_ns));
	props__set(&p->props, n, prop, value, explained);
}

void engine__display_vsync(struct engine *e, uint64_t ts_ns, uint32_t pid, const char *process)
{
	const struct proc *p = procs__find(&e->procs, pid);

	if (trust__vsync(&e->trust, &e->out, pid, process, p ? &p->trust : NULL))
		jank__display_vsync(&e->display, ts_ns);
}

void engine__process_impostor(struct engine *e, uint32_t pid, const char *name, const char *why)
{
	struct proc *p = proc_get(e, pid, name);

	if (p)
		trust__impostor(&p->trust, &e->out, pid, p->name, why);
}

int engine__timeline(struct engine *e, const struct ft_frame *f)
{
	struct proc *p;

	if (f->ev.kind != FT_EXPECTED_SURFACE && f->ev.kind != FT_ACTUAL_SURFACE)
		return 0;
	if (f->ev.pid <= 0)
		return -EINVAL;
	note_time(e, f->start_ns);
	p = proc_get(e, (uint32_t)f->ev.pid, NULL);
	if (!p)
		return -ENOMEM;
	jank__timeline(&p->jank, f);
	return 0;
}

void engine__node_id(struct engine *e, uint32_t pid, uint64_t node, uint64_t uid)
{
	struct proc *p = node ? proc_get(e, pid, NULL) : NULL;
	struct node_st *n = p ? node_get(e, p, node, NULL) : NULL;

	if (n)
		props__node_id(n, uid);
}

void engine__input(struct engine *e, const struct input_stats *in)
{
	e->session.input = *in;
	e->session.has_input = true;
}

void engine__evicted(struct engine *e, const struct evictions *add)
{
#define ADD_EVICTION(f) e->ev.f += add->f;
	AT_EVICTIONS(ADD_EVICTION)
#undef ADD_EVICTION
}

void engine__node_names(struct engine *e, const struct node_name_stats *st)
{
	summary__node_names(&e->session, st, &e->ev);
}

void engine__art_active(struct engine *e, uint32_t pid, uint64_t since_ns)
{
	struct proc *p = proc_get(e, pid, NULL);

	if (p)
		artcalls__active(&p->art, since_ns);
}

void engine__art_call(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid,
		      enum art_call call, bool has_cookie, uint32_t cookie)
{
	engine__art_call_stack(e, ts_ns, pid, tid, call, has_cookie, cookie, NULL, 0);
}

void engine__art_call_stack(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid,
			    enum art_call call, bool has_cookie, uint32_t cookie,
			    const char (*stack)[AT_FRAME_NAME], int n_stack)
{
	struct thread *t;

	note_time(e, ts_ns);
	if (has_cookie && call == ART_CALL_START) {
		struct proc *p = proc_get(e, pid, NULL);

		if (p)
			artcalls__start_called(&p->art, cookie, ts_ns);
	}
	if (!has_cookie)
		return;
	t = thread_get(e, pid, tid);
	if (t)
		artcalls__pending(&t->art, call, cookie, ts_ns, stack, n_stack);
}

void engine__anim_config(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t cookie,
			 const struct anim_config *c)
{
	struct proc *p;

	note_time(e, ts_ns);
	p = proc_get(e, pid, NULL);
	/* out of memory: the run has no configuration, as a run anims__start cannot make */
	if (p && c->known)
		(void)anims__config(&p->anims, cookie, c);
}

void engine__refresh_active(struct engine *e, uint32_t pid)
{
	struct proc *p = proc_get(e, pid, NULL);

	if (p)
		redraws__active(&e->redraws, &p->redraws);
}

void engine__redraw(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid, uint64_t node,
		    const char *node_name)
{
	struct proc *p;
	struct node_st *n;

	(void)tid;
	if (!node)
		return;
	n = node_seen(e, ts_ns, pid, node, node_name, &p);
	if (!n)
		return;
	redraws__active(&e->redraws, &p->redraws);
	redraws__redraw(p, n);
}

void engine__vsync_request(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid,
			   const char (*stack)[AT_FRAME_NAME], int n_stack)
{
	struct proc *p;

	(void)tid;
	note_time(e, ts_ns);
	p = proc_get(e, pid, NULL);
	if (!p)
		return;
	redraws__active(&e->redraws, &p->redraws);
	redraws__vsync_request(&p->frames.cur.rd, stack, n_stack);
}

void engine__art_animate(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid,
			 bool has_cookie, uint32_t cookie)
{
	struct thread *t;

	note_time(e, ts_ns);
	t = thread_get(e, pid, tid);
	if (!t)
		return;
	attrib__animate(&t->attrib, has_cookie, cookie,
			slices__phase_depth(&t->slices, PHASE_ANIMATION));
	dynanims__window_close(&t->dyn);
}

void engine__dyn_call(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid,
		      enum dyn_call call, uint64_t obj, uint64_t arg,
		      const char (*stack)[AT_FRAME_NAME], int n_stack)
{
	struct proc *p;
	struct thread *t;

	note_time(e, ts_ns);
	p = proc_get(e, pid, NULL);
	t = p ? thread_get(e, pid, tid) : NULL;
	if (!t)
		return;
	switch (call) {
	case DYN_CALL_START:
	case DYN_CALL_SPRING_START:
		dynanims__start(&e->dyn, &p->dyn, &t->dyn, p->name, pid, tid, obj,
				call == DYN_CALL_SPRING_START, ts_ns, stack, n_stack, &e->out);
		break;
	case DYN_CALL_CANCEL:
	case DYN_CALL_SKIP:
		dynanims__cancel(&p->dyn, &t->dyn, obj, call == DYN_CALL_SKIP, ts_ns, stack,
				 n_stack);
		break;
	case DYN_CALL_END:
		dynanims__end(&p->dyn, &t->dyn, obj, (uint32_t)arg != 0, ts_ns, &e->out);
		break;
	case DYN_CALL_FRAME:
		/* the writes that follow are the run's, no animator's */
		t->attrib.av_valid = false;
		dynanims__frame(&e->dyn, &p->dyn, &t->dyn, p->name, pid, tid, obj, arg, ts_ns,
				slices__phase_depth(&t->slices, PHASE_ANIMATION), &e->out);
		break;
	}
}

void engine__dyn_config(struct engine *e, uint32_t pid, uint64_t obj, const struct dyn_config *c)
{
	struct proc *p = procs__find(&e->procs, pid);

	if (p)
		dynanims__config(&p->dyn, obj, c);
}

void engine__process_name(struct engine *e, uint32_t pid, const char *name)
{
	proc_get(e, pid, name);
}

void engine__rejected(struct engine *e)
{
	summary__rejected(&e->session);
}

/*
 * The process-exit order: its frames go out (the open one ends now), its unmarked animations
 * and then its running animators end, its CUJs go out, it is noted when it wrote properties
 * but no marker, and it is forgotten (proc_remove).
 */
void engine__process_exit(struct engine *e, uint64_t ts_ns, uint32_t pid)
{
	struct proc *p = procs__find(&e->procs, pid);

	note_time(e, ts_ns);
	if (!p)
		return;
	frames_flush(e, p, ts_ns);
	segment__process_exit(e->seg, pid);
	dynanims__flush(&p->dyn, END_PROCESS_EXIT, ts_ns, &e->out);
	while (p->anims.running)
		anim_end(e, p, p->anims.running, ts_ns, 0, END_PROCESS_EXIT, REASON_INFERRED);
	cujs__flush(&e->cujs, &p->cujs, &e->out);
	summary__note_unmarked(p, &e->out);
	/* Nothing of it is needed any more (its pid may come back as another process): a
	 * long session of restarts must not fill CAP_PROCS with the dead. */
	proc_remove(e, p);
}

/*
 * The session-end order: every process's frames go out (the open ones end at ts_ns, or at the
 * last event), its refresh storm ends, its Views enter the ranking and it is noted when it
 * wrote properties but no marker; the unmarked animations still running end; the CUJs go out;
 * the animators still running count (their targets, their findings, p's smoothness, their
 * names) as running at exit; then the summary, built from all of it, goes out.
 */
/* DynamicAnimation runs dropped past CAP_DYN_RUNS: not lost silently. */
static void dyn_say_evicted(struct engine *e)
{
	char msg[160];

	if (!e->dyn.evicted)
		return;
	snprintf(msg, sizeof(msg),
		 "%llu DynamicAnimation runs were reported early, unfinished: "
		 "more than %d ran at once in a process",
		 (unsigned long long)e->dyn.evicted, CAP_DYN_RUNS);
	SINK_CALL(&e->out, note, msg);
}

void engine__finish(struct engine *e, uint64_t ts_ns, uint64_t drops, uint64_t truncated)
{
	uint64_t end_ns;

	if (ts_ns)
		note_time(e, ts_ns);
	end_ns = ts_ns > e->session.last_ns ? ts_ns : e->session.last_ns;
	for (size_t i = 0; i < e->procs.n; i++) {
		frames_flush(e, e->procs.list[i], end_ns);
		redraws__storm_end(e->procs.list[i], &e->out);
		redraws__rank(&e->redraws, e->procs.list[i]);
		summary__note_unmarked(e->procs.list[i], &e->out);
	}
	segment__finish(e->seg);
	for (size_t i = 0; i < e->procs.n; i++)
		dynanims__flush(&e->procs.list[i]->dyn, END_RUNNING_AT_EXIT, end_ns, &e->out);
	dyn_say_evicted(e);
	for (size_t i = 0; i < e->procs.n; i++)
		cujs__flush(&e->cujs, &e->procs.list[i]->cujs, &e->out);
	for (size_t i = 0; i < e->procs.n; i++) {
		struct proc *p = e->procs.list[i];

		for (struct anim_run *r = p->anims.running; r; r = r->next) {
			attrib__fill(r);
			findings__running_at_exit(&e->findings, p, r, end_ns, &e->out);
			jank__anim_ended(&p->jank, &r->a);
			anims__running_at_exit(r);
		}
	}
	summary__send(e, drops, truncated);
}

int engine__sink_error(const struct engine *e)
{
	return e->out.err;
}

void engine__free(struct engine *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->procs.n; i++)
		proc_free(e->procs.list[i]);
	procs__free(&e->procs);
	anims__free(&e->anims);
	props__free(&e->props);
	summary__free(&e->session);
	jank__display_free(&e->display);
	segment__free(e->seg);
	free(e);
}
