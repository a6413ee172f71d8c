/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Jank: frames judged against the display period, dropped vsyncs, blocks, and the smoothness of each process and animator. */
#ifndef ANIMTRACE_ENGINE_JANK_H
#define ANIMTRACE_ENGINE_JANK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct engine;
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

void frame_janks(struct engine *e, struct proc *p, const struct frame_st *fs);
void frame_judge(struct proc *p, struct frame_st *fs);
uint32_t frame_interval(struct proc *p, struct thread *t, int64_t vsync, uint64_t ts_ns,
			       uint64_t *budget, bool *assumed);
void block_check(struct engine *e, struct proc *p, struct thread *t,
			const struct slice *s, uint64_t dur);
void worst_add(struct proc *p, const struct anim *a);
void proc_stat_fill(struct proc *p, struct proc_stat *ps);

#endif
