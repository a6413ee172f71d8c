/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The summary: what the session counted (markers, rejections, annotations, its span), the
 * smoothness lines of processes that exited, the notes on processes without markers and on
 * left-out node-frames, and the summary record built from every tracker's state at the end.
 * Calls jank (smoothness lines) and the segmenter (unmarked animation counts).
 */
#ifndef ANIMTRACE_ENGINE_SUMMARY_H
#define ANIMTRACE_ENGINE_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/marker.h"
#include "model/model.h"

struct emit;
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
	struct input_stats input;	   /* replay: given by engine__input... */
	bool has_input;			   /* ...once */
};

/* The session saw ts_ns: its span grows to include it. */
void summary__time(struct session *ss, uint64_t ts_ns);

/* Counts a marker at ts_ns. */
void summary__marker(struct session *ss, uint64_t ts_ns);

/* Counts a payload that was no marker. */
void summary__rejected(struct session *ss);

/* Counts a marker of the process. */
void summary__proc_marker(struct summary_proc *sp);

/* Counts a View property write of the process. */
void summary__proc_write(struct summary_proc *sp);

/* How the live side named nodes goes into the summary, its cache evictions into ev. */
void summary__node_names(struct session *ss, const struct node_name_stats *st,
			 struct evictions *ev);

/* True for animtrace --annotate's own markers (model.h): they describe animators, are none. */
bool summary__is_annotation(const struct marker *m);

/* Counts such a marker (of tid of pid, named process, at ts_ns) and passes it on. */
void summary__annotation(struct session *ss, uint64_t ts_ns, uint32_t pid, uint32_t tid,
			 const char *process, const struct marker *m, struct emit *out);

/* p exited: with frames it keeps its smoothness line (past CAP_PROCS counted in *evicted). */
void summary__proc_exited(struct session *ss, struct proc *p, uint64_t *evicted);

/* p wrote View properties but no marker: a note says its atrace tags look off. */
void summary__note_unmarked(const struct proc *p, struct emit *out);

/* Builds the summary from every tracker (sorting the names' durations) and sends it; once,
 * after frames, unmarked animations and running animators were settled. */
void summary__send(struct engine *e, uint64_t drops, uint64_t truncated);

/* Frees what ss holds. */
void summary__free(struct session *ss);

#endif
