/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Jank: frames judged against the display period, dropped vsyncs, blocks, and the smoothness of each process and animator. */
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

/* The period a frame opened now is judged against (*assumed: no measured one yet). */
uint64_t jank__budget(struct jank_proc *jp, bool *assumed);

/*
 * Thread t begins a doFrame (vsync id vsync, or -1) at ts_ns after its previous one: the
 * interval measures jp's period, which becomes *budget (*assumed). Returns the vsyncs missed
 * in the interval.
 */
uint32_t jank__interval(struct jank_proc *jp, struct thread *t, int64_t vsync, uint64_t ts_ns,
			uint64_t *budget, bool *assumed);

/* fs ended: late or not, for the process and for every animator that ran in it. */
void jank__judge(struct jank_proc *jp, struct frame_st *fs, struct anim_run *running);

/* fs went out: its jank records (the gap before it, then its lateness) follow it, when it hit
 * an animator. */
void jank__frame_sent(const struct proc *p, const struct frame_st *fs, struct emit *out);

/* A top-level slice s of thread t ended: longer than the period on the UI thread while an
 * animator runs, it is a block (a jank record). */
void jank__block(struct proc *p, const struct thread *t, const struct slice *s, uint64_t dur,
		 struct emit *out);

/* a ended (or runs at exit): it stays among jp's worst when it has most dropped + late frames
 * (most first; ties: the earlier). */
void jank__anim_ended(struct jank_proc *jp, const struct anim *a);

/* p's smoothness so far into ps. */
void jank__stat(struct proc *p, struct proc_stat *ps);

/* jt's tid now belongs to another process (or is new): no interval measured yet. */
void jank__thread_reset(struct jank_thread *jt);

/* Frees what jp holds. */
void jank__proc_free(struct jank_proc *jp);

#endif
