/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Frames: each doFrame of a process, open while its UI thread runs it, then waiting for its RenderThread draw. */
#ifndef ANIMTRACE_ENGINE_FRAMES_H
#define ANIMTRACE_ENGINE_FRAMES_H

#include "engine/state.h"

int frame_add_id(struct frame_st *fs, uint64_t id);
void frame_longest_add(struct engine *e, const struct frame *f);
void frame_runs(struct proc *p, struct thread *t, uint32_t dropped);
void frame_gap(struct engine *e, struct proc *p, struct thread *t);
struct frame_st *draw_owner(struct proc *p, const struct thread *t, const struct slice *s);

#endif
