/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Frames: each doFrame of a process, open while its UI thread runs it, then waiting for its RenderThread draw. */
#ifndef ANIMTRACE_ENGINE_FRAMES_H
#define ANIMTRACE_ENGINE_FRAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/redraws.h"
#include "model/model.h"

struct engine;
struct proc;
struct slice;
struct thread;

#define LONGEST_FRAMES_MAX 3

struct frame_st {
	struct frame f;
	uint64_t *ids;
	size_t n_ids, cap_ids;
	bool live; /* open (cur) or waiting for its draw (done) */
	bool drawn; /* its RenderThread DrawFrame(s) ended (vsync ids: before the doFrame did) */
	bool assumed;      /* budget_ns was the assumed period, not a measured one */
	uint64_t *gap_ids; /* animators that ran across the gap before it */
	size_t n_gap_ids, cap_gap_ids;
	uint64_t gap_start_ns; /* the end of the previous doFrame of its thread */
	struct slice_chain ui, render;         /* the doFrame's and the draw's chains */
	struct slice_chain ui_gap, render_gap; /* the longest slices in the gap before it */
	struct redraws_frame rd;
};

struct frames_proc {
	uint64_t seq;
	struct frame_st cur;  /* the doFrame in progress */
	struct frame_st done; /* ended, waiting for its DrawFrame(s) */
	uint32_t ui_tid, render_tid;
	int draws_open; /* DrawFrame(s) slices begun and not yet ended, on any of its threads */
};

struct frames_thread {
	bool has_frame; /* it ran a doFrame: the fields below describe the last one */
	uint64_t last_frame_ns, last_frame_end_ns, last_frame_seq;
	int64_t last_vsync;
};

struct frames {
	uint64_t count;
	struct frame longest[LONGEST_FRAMES_MAX];
	int n_longest;
};

int frame_add_id(struct frame_st *fs, uint64_t id);
void frame_longest_add(struct engine *e, const struct frame *f);
void frame_runs(struct proc *p, struct thread *t, uint32_t dropped);
void frame_gap(struct engine *e, struct proc *p, struct thread *t);
struct frame_st *draw_owner(struct proc *p, const struct thread *t, const struct slice *s);

#endif
