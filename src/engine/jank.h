/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Jank and the use of the display period (engine/period.h): a frame is late when it runs
 * longer than the period, the vsyncs missed before it are dropped frames, a top-level UI
 * thread slice longer than the period while an animator runs is a block. Owns: each process's
 * period, late/dropped counts and worst animators, each thread's vsync anchor. Calls slices
 * (chains) and period.
 */
#ifndef ANIMTRACE_ENGINE_JANK_H
#define ANIMTRACE_ENGINE_JANK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct anim_run;
struct emit;
struct frame_st;
struct proc;
struct slice;
struct thread;

/* A process's smoothness. */
struct jank_proc {
	struct period *period; /* NULL until its first interval */
	uint64_t janky, dropped;     /* over frames judged with a measured period */
	uint64_t early[16];          /* doFrame durations judged with the assumed period */
	int n_early;
	struct anim_smooth worst[AT_WORST_ANIMS];
	int n_worst;
};

struct jank_thread {
	uint64_t anchor_ns;  /* the frame vsync-id periods are measured from (vsync -1: none) */
	uint64_t min_interval_ns; /* its shortest doFrame interval without ids (0: none yet) */
	int64_t anchor_vsync;
};

/* The period a frame opening now is judged against; *assumed when none is measured yet. */
uint64_t jank__budget(struct jank_proc *jp, bool *assumed);

/* t's doFrame (vsync id or -1) at ts_ns, after its last one: the interval measures the period
 * (*budget, *assumed); returns the vsyncs missed in it. */
uint32_t jank__interval(struct jank_proc *jp, struct thread *t, int64_t vsync, uint64_t ts_ns,
			uint64_t *budget, bool *assumed);

/* Judges ended fs late or not, for the process and for the animators that ran in it. */
void jank__judge(struct jank_proc *jp, struct frame_st *fs, struct anim_run *running);

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
