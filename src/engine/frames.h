/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Frames: per process the doFrame in progress (cur) and the one ended and waiting for its
 * RenderThread draw (done), with the animators each ran in, the gap before it and its chains;
 * per thread its last doFrame; the frame count and the longest frames. Owns struct frame_st
 * (which carries the redraws of its frame). Calls slices (chains) and redraws (to free);
 * opening, closing and sending a frame are sequences in engine.c.
 */
#ifndef ANIMTRACE_ENGINE_FRAMES_H
#define ANIMTRACE_ENGINE_FRAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/redraws.h"
#include "model/model.h"

struct anim_run;
struct slice;
struct thread;

#define LONGEST_FRAMES_MAX 3

struct frame_st {
	struct frame f;
	uint64_t *ids;
	size_t n_ids, cap_ids;
	bool live;    /* open (cur) or waiting for its draw (done) */
	bool drawn;   /* its RenderThread DrawFrame(s) ended (vsync ids: before the doFrame did) */
	bool assumed; /* budget_ns was the assumed period, not a measured one */
	uint64_t *gap_ids; /* animators that ran across the gap before it */
	size_t n_gap_ids, cap_gap_ids;
	uint64_t gap_start_ns; /* the end of the previous doFrame of its thread */
	uint32_t missed;       /* vsyncs that passed, in time, since its thread's previous frame */
	struct slice_chain ui, render;	       /* the doFrame's and the draw's chains */
	struct slice_chain ui_gap, render_gap; /* the longest slices in the gap before it */
	struct slice_chain start_cause; /* the longest slice between its vsync and its start */
	uint64_t end_ns; /* the doFrame's end, then the later of it and its draw's end */
	struct redraws_frame rd;
};

struct frames_proc {
	uint64_t seq;
	struct frame_st cur;  /* the doFrame in progress */
	struct frame_st done; /* ended, waiting for its DrawFrame(s) */
	uint32_t ui_tid, render_tid;
	int draws_open; /* DrawFrame(s) slices begun and not yet ended, on any of its threads */
};

struct frames_thread {
	bool has_frame; /* it ran a doFrame: the fields below describe the last one */
	uint64_t last_frame_ns, last_frame_end_ns, last_frame_seq;
	int64_t last_vsync;
};

struct frames {
	uint64_t count;
	struct frame longest[LONGEST_FRAMES_MAX];
	int n_longest;
};

/* Opens tid's doFrame at ts_ns as fp->cur (vsync id or -1), numbered next, with the period
 * known so far as its budget. */
void frames__open(struct frames_proc *fp, uint32_t pid, uint32_t tid, int64_t vsync, uint64_t ts_ns,
		  uint64_t budget_ns, bool assumed);

/* The gap before cur: since t's last doFrame ended, with the longest slices of t and of the
 * RenderThread rt (NULL: none). */
void frames__gap(struct frames_proc *fp, const struct thread *t, const struct thread *rt);

/* cur counts for every running animator; those that ran in ft's last frame ran across the gap,
 * and the vsyncs dropped in it count for them. */
void frames__runs(struct frames_proc *fp, const struct frames_thread *ft, struct anim_run *running,
		  uint32_t dropped);

/* Thread tid ran cur (begun at ts_ns, vsync id vsync): its last frame; p's UI thread. */
void frames__ran(struct frames_proc *fp, struct frames_thread *ft, uint32_t tid, int64_t vsync,
		 uint64_t ts_ns);

/* The start of the doFrame open at ts_ns, else ts_ns: when a property write happened. */
uint64_t frames__frame_ns(const struct frames_proc *fp, uint64_t ts_ns);

/* r started: in an open doFrame it ran in that frame. */
void frames__anim_started(struct frames_proc *fp, struct anim_run *r);

/* A phase slice s of tid ended: its time counts for cur when tid runs cur. */
void frames__phase(struct frames_proc *fp, uint32_t tid, const struct slice *s, uint64_t dur_ns);

/* True when doFrame slice s of tid was cur's: its chain is kept, and cur must end now. */
bool frames__doframe_ended(struct frames_proc *fp, uint32_t tid, const struct slice *s,
			   uint64_t dur_ns);

/* cur ended at ts_ns: its duration. */
void frames__end(struct frames_proc *fp, uint64_t ts_ns);

/* The thread's doFrame ended at ts_ns: the gap before its next one starts. */
void frames__gap_start(struct frames_thread *ft, uint64_t ts_ns);

/* cur, ended, becomes done and waits for its draw; the old done's buffers collect the next. */
void frames__wait_draw(struct frames_proc *fp);

/* True while a draw can still come for done: one is under way, or the process has drawn. */
bool frames__done_waits(const struct frames_proc *fp);

/*
 * A DrawFrame(s) slice began on thread tid of the process: the seq of the frame it draws when
 * that frame's doFrame is open on another thread (0 otherwise). A device hands a frame to its
 * RenderThread inside the doFrame's traversal and waits there until the draw began (ViewRootImpl
 * performDraw -> ThreadedRenderer.draw -> DrawFrameTask::postAndWait), so a draw that begins
 * during a doFrame is that frame's, however long either lasts.
 */
uint64_t frames__draw_began(struct frames_proc *fp, uint32_t tid);

/* A DrawFrame(s) slice s of tid ended: the frame it drew (done; with vsync ids cur too) takes
 * it. True when that frame is done, now complete. */
bool frames__drawn(struct frames_proc *fp, uint32_t tid, const struct slice *s, uint64_t dur_ns);

/* fs goes out: no longer live, with process (a struct proc's name) and its animators; false
 * when it was not live. */
bool frames__take(struct frame_st *fs, const char *process);

/* Counts f, gone out, for the summary (frames, the longest ones). */
void frames__count(struct frames *fr, const struct frame *f);

/* ft is new, or its tid now belongs to another process: it ran no doFrame. */
void frames__thread_reset(struct frames_thread *ft);

/* Frees what fp holds. */
void frames__proc_free(struct frames_proc *fp);

#endif
