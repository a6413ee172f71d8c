/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Unmarked animations found in the per-frame property values. Pure: no I/O, no clock; the
 * engine hands it every frame of every process as the frame ends, and it reports through
 * two callbacks.
 *
 * Per (process, node, property) a run is the frames in which the value changes on
 * consecutive frames of that process; one frame without a change is bridged, two end it
 * (so a run ends at the second unchanged frame), as do the process's exit and the session's
 * end. A run with fewer than SEG_MIN_FRAMES changing frames is no animation (a layout jump),
 * nor is one a marked animator explained (the engine says which writes it linked to one).
 * Runs of one node that start within SEG_GROUP_START frames of each other are one animation
 * (a spring on translationX and translationY); when it ends, members that stopped more than
 * SEG_GROUP_END frames before the last one are reported as animations of their own.
 *
 * animation_start comes at the end of the frame where a run of the animation reaches its
 * SEG_MIN_FRAMES-th change, with kind unknown (ended false); animation_end at its end, with
 * every property fitted (fit_run_bounded) and the kind of the first one.
 */
#ifndef ANIMTRACE_SEGMENT_H
#define ANIMTRACE_SEGMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"

#define SEG_MIN_FRAMES 3
#define SEG_END_FRAMES 2
#define SEG_GROUP_START 1
#define SEG_GROUP_END 4

/* One property's last value in a frame. */
struct seg_change {
	uint64_t node;
	const char *node_name; /* NULL or "": "RenderNode@<low 16 bits>" */
	enum view_prop prop;
	bool has_before; /* before is the value it had when the frame began */
	float before;
	float value;	/* its last value in the frame */
	bool explained; /* a running marked animator wrote it */
};

/* One ended frame (Choreographer#doFrame) of a process, with its changes. */
struct seg_frame {
	uint32_t pid, tid;
	const char *process;
	uint64_t seq;	   /* 1, 2, ... per process, without holes */
	uint32_t missed;   /* vsyncs that passed, in time, since the previous frame (jank) */
	uint64_t start_ns; /* the doFrame start: what these animations compute from */
	uint64_t dur_ns;
	uint64_t budget_ns; /* the refresh period (0: unknown, nothing is late) */
	int n;
	const struct seg_change *changes;
};

/* Each returns 0 or a negative errno, which the segment call then returns. */
struct seg_out {
	int (*start)(void *ctx, const struct animation *a);
	int (*end)(void *ctx, const struct animation *a);
	void *ctx;
};

struct segment;

/* Returns NULL and sets errno on allocation failure. */
struct segment *segment__new(struct seg_out out);

/* The frame f ended. Returns 0 or the first error of a callback. */
int segment__frame(struct segment *s, const struct seg_frame *f);

/* pid exited at ts_ns: its animations end (END_PROCESS_EXIT). */
int segment__process_exit(struct segment *s, uint32_t pid);

/* The session ends: every animation still running ends (END_RUNNING_AT_EXIT). */
int segment__finish(struct segment *s);

/* Ended animations per enum fit_kind (counts[FIT_OTHER + 1]) and the longest of them. */
void segment__stats(const struct segment *s, uint64_t *counts, const struct animation **longest,
		    int *n_longest);

/* Runs not followed because CAP_SEG_RUNS were active (struct evictions.prop_runs). */
uint64_t segment__evicted(const struct segment *s);

void segment__free(struct segment *s);

#endif
