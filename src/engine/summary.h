/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The session summary: the span and counts of the session, the processes that exited, and the records the summary is built from. */
#ifndef ANIMTRACE_ENGINE_SUMMARY_H
#define ANIMTRACE_ENGINE_SUMMARY_H

#include "engine/state.h"

void proc_stat_keep(struct engine *e, struct proc *p);
void note_time(struct engine *e, uint64_t ts_ns);
void note_unmarked_proc(struct engine *e, const struct proc *p);
struct name_stat *build_names(struct engine *e);
struct anim *build_running(struct engine *e, size_t *n_out);
void note_dropped(struct engine *e);
struct proc_stat *build_procs(struct engine *e, size_t *n_out);
void finish_frame_stats(const struct engine *e, struct summary *s);
void finish_animations(struct engine *e, struct summary *s);

#endif
