/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The session summary: the span and counts of the session, the processes that exited, and the records the summary is built from. */
#ifndef ANIMTRACE_ENGINE_SUMMARY_H
#define ANIMTRACE_ENGINE_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct engine;
struct proc;

struct summary_proc {
	uint64_t markers, prop_writes; /* props without markers: its atrace tags are off */
};

/* What the session counted. */
struct session {
	uint64_t first_ns, last_ns, markers, rejected;
	uint64_t annotations;
	bool seen;
	struct proc_stat *exited; /* smoothness of processes that exited */
	size_t n_exited, cap_exited;
	struct node_name_stats node_names; /* live: given by engine__node_names */
};

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
