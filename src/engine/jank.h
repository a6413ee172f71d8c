/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Jank and the use of the display period (engine/period.h): every frame is placed on its
 * vsync (FrameTimeline's expected start for its token, else the process's vsync grid); it is
 * late (janky) when it, or its draw, ended after its deadline (the vsync plus the period, or
 * FrameTimeline's expected end); the vsyncs that passed between its vsync and its thread's
 * previous one are dropped frames; a top-level UI thread slice longer than the period while
 * an animator runs is a block. Owns: each process's period, grid, FrameTimeline frames not
 * yet matched, late/dropped counts and worst animators; each thread's last vsync. Calls
 * slices (chains) and period.
 */
#ifndef ANIMTRACE_ENGINE_JANK_H
#define ANIMTRACE_ENGINE_JANK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/marker.h"
#include "engine/period.h"
#include "model/model.h"

struct anim_run;
struct emit;
struct frame_st;
struct ft_frame;
struct proc;
struct slice;
struct thread;

#define JANK_TIMELINE_RING 16

/* FrameTimeline's expected surface frame of a token: its vsync and deadline. */
struct jank_expected {
	int64_t token;
	uint64_t vsync_ns, deadline_ns;
};

/* FrameTimeline's actual surface frame of a token: its verdict. */
struct jank_actual {
	int64_t token;
	struct frame_timeline v;
};

/* The display's vsyncs, from SurfaceFlinger's VSYNC-app counter: every process's first source
 * of the period and the grid; and every process's frame intervals, the last source. */
struct jank_display {
	struct period *period; /* NULL until its second vsync or first interval */
	struct period_grid grid;
	uint64_t last_ns; /* its last vsync (0: none) */
};

/* A process's smoothness. */
struct jank_proc {
	struct jank_display *display; /* the engine's; set when the process is created */
	struct period *period;	      /* NULL until its first interval */
	struct period_grid grid;
	uint64_t last_expected_ns; /* FrameTimeline's last expected start */
	struct jank_expected expected[JANK_TIMELINE_RING];
	struct jank_actual actual[JANK_TIMELINE_RING];
	unsigned int n_expected, n_actual; /* ever seen: [n % RING] is the next slot */
	uint64_t timeline_agree, timeline_disagree;
	uint64_t janky, dropped; /* over frames judged with a measured period */
	uint64_t early[16];	 /* doFrame durations judged with the assumed period */
	int n_early;
	struct anim_smooth worst[AT_WORST_ANIMS];
	int n_worst;
};

struct jank_thread {
	uint64_t min_interval_ns; /* its shortest interval sample (add_interval; 0: none yet) */
	uint64_t onvsync_ns;	  /* its last Choreographer#onVsync start (0: none) */
	int64_t onvsync_id;	  /* that onVsync's vsync id (-1: none) */
	uint64_t prev_dt_ns;	  /* its last start interval under 50 ms (0: none) */
	uint64_t last_vsync_ns;	  /* the vsync of its last frame (0: none) */
};

/* SurfaceFlinger toggled VSYNC-app at ts_ns: one vsync of the display. */
void jank__display_vsync(struct jank_display *d, uint64_t ts_ns);

/* Frees what d holds. */
void jank__display_free(struct jank_display *d);

/* The period a frame opening now is judged against; *assumed when none is measured yet. */
uint64_t jank__budget(struct jank_proc *jp, bool *assumed);

/* t began a Choreographer#onVsync at ts_ns: an interval of its vsync events. */
void jank__onvsync(struct jank_proc *jp, struct thread *t, uint64_t ts_ns, int64_t vsync);

/* t began fs (open, vsync id fs->f.vsync_id or -1): the interval since its last frame
 * measures the period; fs gets its budget, vsync, start delay (and what caused it) and
 * deadline. Returns the vsyncs that passed unanswered since t's last frame. */
uint32_t jank__frame_began(struct jank_proc *jp, struct thread *t, struct frame_st *fs);

/* Judges ended fs (doFrame ended) late or not, for the process and for the animators that
 * ran in it. */
void jank__judge(struct jank_proc *jp, struct frame_st *fs, struct anim_run *running);

/* fs goes out, complete: judged again with its draw's end, and against FrameTimeline's
 * verdict on its token. */
void jank__complete(struct jank_proc *jp, struct frame_st *fs, struct anim_run *running);

/* A FrameTimeline surface frame of the process (its start before its token's doFrame):
 * expected ones give the vsync grid and deadlines, actual ones the verdicts. */
void jank__timeline(struct jank_proc *jp, const struct ft_frame *f);

/* fs went out: its jank records (the gap before it, then its lateness) when it hit animators. */
void jank__frame_sent(const struct proc *p, const struct frame_st *fs, struct emit *out);

/* Top-level slice s of t ended: on the UI thread, longer than the period while animators
 * run, it is a block (a jank record). */
void jank__block(struct proc *p, const struct thread *t, const struct slice *s, uint64_t dur,
		 struct emit *out);

/* Keeps ended (or still running) a among jp's worst animators by dropped + late frames. */
void jank__anim_ended(struct jank_proc *jp, const struct anim *a);

/* p's smoothness so far; early frames are judged again with the period now known. */
void jank__stat(struct proc *p, struct proc_stat *ps);

/* jt is new, or its tid now belongs to another process: no interval measured from it yet. */
void jank__thread_reset(struct jank_thread *jt);

/* Frees what jp holds. */
void jank__proc_free(struct jank_proc *jp);

#endif
