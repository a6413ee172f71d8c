/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Who redraws (--refresh): the Views re-recorded and the vsync requests of each frame, refresh storms, and the Views redrawn most. */
#ifndef ANIMTRACE_ENGINE_REDRAWS_H
#define ANIMTRACE_ENGINE_REDRAWS_H

#include "engine/state.h"

void redraws_attach(const struct proc *p, struct frame_st *fs);
bool frame_redrew(const struct frame_st *fs, uint64_t node);
void frame_add_redraw(struct frame_st *fs, const struct node_st *n);
void redraw_top_proc(struct engine *e, struct proc *p);
void storm_end(struct engine *e, struct proc *p);
void redraws_close(struct engine *e, struct proc *p, struct frame_st *fs);
void redraws_reset(struct frame_st *fs);

#endif
