/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Jank: frames judged against the display period, dropped vsyncs, blocks, and the smoothness of each process and animator. */
#ifndef ANIMTRACE_ENGINE_JANK_H
#define ANIMTRACE_ENGINE_JANK_H

#include "engine/state.h"

void frame_janks(struct engine *e, struct proc *p, const struct frame_st *fs);
void frame_judge(struct proc *p, struct frame_st *fs);
uint32_t frame_interval(struct proc *p, struct thread *t, int64_t vsync, uint64_t ts_ns,
			       uint64_t *budget, bool *assumed);
void block_check(struct engine *e, struct proc *p, struct thread *t,
			const struct slice *s, uint64_t dur);
void worst_add(struct proc *p, const struct anim *a);
void proc_stat_fill(struct proc *p, struct proc_stat *ps);

#endif
