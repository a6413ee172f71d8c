/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * DynamicAnimation lifecycles (SpringAnimation, FlingAnimation; the framework's copy and
 * androidx's), from the ART entry probes on their methods: no marker exists for them.
 *
 * A run of one DynamicAnimation object (its heap reference) starts at start() (SpringAnimation's
 * or DynamicAnimation's, whichever is compiled: the first one entered), or at its first
 * doAnimationFrame when start() was not seen; it ends at endAnimationInternal(canceled): cancel
 * when canceled, skip (END_FORCE_END) after skipToEnd(), else complete. Between its
 * doAnimationFrame entry and the thread's next doAnimationFrame or animateValue entry, the end
 * of the animation phase slice it was entered in, or (outside one) the thread's next marker,
 * the thread's property writes are the run's (exact attribution): its first one names its
 * target, and that property's values, at the frame times doAnimationFrame was given, are
 * fitted when it ends.
 *
 * Owns: the runs per process (at most CAP_DYN_RUNS: the oldest is reported and dropped past
 * it), the window and the pending cancel/skip per thread. Calls no other tracker.
 */
#ifndef ANIMTRACE_ENGINE_DYNANIMS_H
#define ANIMTRACE_ENGINE_DYNANIMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/caps.h"
#include "engine/engine.h"
#include "model/model.h"

struct emit;
struct dyn_run;

struct dynanims {
	uint64_t next_id;
	uint64_t evicted;	       /* runs dropped past CAP_DYN_RUNS (said at the end) */
	uint64_t ended[DYN_FLING + 1]; /* runs that ended (sent in dyn_end), per dyn_kind */
};

struct dynanims_proc {
	struct dyn_run *runs; /* running, newest first */
	int n;
};

struct dynanims_thread {
	bool win_valid; /* its writes are those of the run of win_obj */
	uint64_t win_obj;
	size_t win_depth; /* as attrib's: the animation phase depth, 0 outside one */
	/* the run this thread's caller cancelled last, until its next doAnimationFrame: a start
	 * in between on the same target replaces it */
	uint64_t cancelled_id;
	uint64_t cancelled_node;
	enum view_prop cancelled_prop;
};

/* A start of obj (spring: SpringAnimation.start) at ts_ns on thread tid of p. */
void dynanims__start(struct dynanims *d, struct dynanims_proc *dp, struct dynanims_thread *dt,
		     const char *process, uint32_t pid, uint32_t tid, uint64_t obj, bool spring,
		     uint64_t ts_ns, const char (*stack)[AT_FRAME_NAME], int n_stack,
		     struct emit *out);

/* cancel() or skipToEnd() (skip) of obj at ts_ns: its end (that follows) gets these callers. */
void dynanims__cancel(struct dynanims_proc *dp, struct dynanims_thread *dt, uint64_t obj, bool skip,
		      uint64_t ts_ns, const char (*stack)[AT_FRAME_NAME], int n_stack);

/*
 * Frames of the process a run misses before it is taken as ended without its
 * endAnimationInternal (not compiled, or inlined): AnimationHandler calls every registered
 * DynamicAnimation in every frame, and endAnimationInternal runs inside the last one.
 */
#define DYN_MISSED_FRAMES 2

/* A frame (doFrame) of the process ended: a run that missed DYN_MISSED_FRAMES of them ends,
 * inferred (end_inferred), cancel when cancel() was seen. */
void dynanims__frame_ended(struct dynanims_proc *dp, struct emit *out);

/* endAnimationInternal(canceled) of obj at ts_ns: its run ends and goes out. */
void dynanims__end(struct dynanims_proc *dp, struct dynanims_thread *dt, uint64_t obj,
		   bool canceled, uint64_t ts_ns, struct emit *out);

/* doAnimationFrame(frame_ms) of obj at ts_ns, in the animation phase at depth phase_depth - 1
 * (0: none): the thread's writes are the run's from now on. */
void dynanims__frame(struct dynanims *d, struct dynanims_proc *dp, struct dynanims_thread *dt,
		     const char *process, uint32_t pid, uint32_t tid, uint64_t obj,
		     uint64_t frame_ms, uint64_t ts_ns, size_t phase_depth, struct emit *out);

/* The thread's writes belong to none of the runs any more (animateValue entered). */
void dynanims__window_close(struct dynanims_thread *dt);

/* A marker of the thread ends a window opened outside an animation phase. */
void dynanims__marker(struct dynanims_thread *dt);

/* A slice of the thread ended, depth remain open. */
void dynanims__slice_ended(struct dynanims_thread *dt, size_t depth);

/*
 * A write of the thread (dt may be NULL) to node's prop (prev: its value before, NULL when
 * unknown): the run's id when its window is open (the write is explained: exact; 0 when none),
 * and the run then keeps its target and values. Writes that change nothing are not seen (the setter probes report
 * changes only): a first change after the run's first frame starts from prev, at that frame.
 * A write made in the window by code no probe sees (an interpreted animation called after the
 * run in the same AnimationHandler frame) is taken as the run's: the window has no return.
 * A run first seen in a doAnimationFrame is announced (dyn_start) at its first write, unless
 * that write shows it is a running one moved by the GC (then it continues that one).
 */
uint64_t dynanims__write(struct dynanims_proc *dp, const struct dynanims_thread *dt, uint64_t node,
			 const char *node_name, enum view_prop prop, float value, const float *prev,
			 struct emit *out);

/* The heap reader's view of obj's configuration at its start() (engine__dyn_config): the
 * first one of its run is kept (a start() of a running animation is a no-op). */
void dynanims__config(struct dynanims_proc *dp, uint64_t obj, const struct dyn_config *c);

/* Every run of dp ends with reason (process exit, session end) at ts_ns and goes out. */
void dynanims__flush(struct dynanims_proc *dp, enum end_reason reason, uint64_t ts_ns,
		     struct emit *out);

/* Frees dp's runs, unreported. */
void dynanims__proc_free(struct dynanims_proc *dp);

/* at is new, or its tid belongs to another process now. */
void dynanims__thread_reset(struct dynanims_thread *dt);

#endif
