/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * B/E slices per thread: the open ones (capped per thread and in all), their kinds (doFrame,
 * draw, frame phase), and for each ended slice the chain of its longest descendants, kept for
 * the longest top-level slice of the current window (the cause of the next gap). Calls no
 * other tracker.
 */
#ifndef ANIMTRACE_ENGINE_SLICES_H
#define ANIMTRACE_ENGINE_SLICES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/marker.h"
#include "model/model.h"

enum slice_kind { SLICE_OTHER, SLICE_DOFRAME, SLICE_PHASE, SLICE_DRAW, SLICE_ONVSYNC };

struct slice {
	uint8_t kind;
	uint8_t phase;
	int64_t vsync;
	uint64_t owner_seq; /* a draw: the frame whose doFrame was open when it began (0: none) */
	uint64_t start_ns;
	char name[AT_SLICE_NAME];
	uint64_t best_dur;	 /* its longest ended child so far... */
	struct slice_chain best; /* ...with that child's own longest descendants */
};

#define SLICES_RECENT 4
#define SLICES_RECENT_MIN_NS 500000ull

/* A thread's open slices. */
struct slices_thread {
	struct slice *st;
	size_t depth, cap;
	uint32_t overflow; /* B markers beyond CAP_SLICE_DEPTH, waiting for their E */
	/* the longest top-level slice since its last doFrame or draw ended (a gap's cause) */
	uint64_t top_dur;
	struct slice_chain top;
	/* the last top-level slices of SLICES_RECENT_MIN_NS or more (what delayed a frame) */
	struct slice_recent {
		uint64_t start_ns, end_ns;
		struct slice_chain c;
	} recent[SLICES_RECENT];
	unsigned int n_recent; /* ever kept: recent[n_recent % SLICES_RECENT] is the next */
};

/* Open slices in all threads (CAP_OPEN_SLICES). */
struct slices {
	size_t n_open;
};

/* Opens a slice for a B named name at ts_ns, classified; valid until st's next B. NULL when a
 * cap turned it away (counted in *evicted): its E then closes nothing else. */
struct slice *slices__begin(struct slices *ss, struct slices_thread *st, uint64_t ts_ns,
			    struct strv name, uint64_t *evicted);

/* Closes st's innermost slice for an E at ts_ns, offering it to its parent's chain (or the
 * window's); returns it and *dur_ns, valid until st's next B, or NULL when nothing was open. */
const struct slice *slices__end(struct slices *ss, struct slices_thread *st, uint64_t ts_ns,
				uint64_t *dur_ns);

/* c = s, then its longest child and that child's own chain. */
void slices__chain_of(struct slice_chain *c, const struct slice *s, uint64_t dur);

/* The chain of st's slice that overlapped [from_ns, to_ns] longest: a recent top-level one,
 * or an open one (its chain so far); n 0 when none did. */
void slices__busy_between(const struct slices_thread *st, uint64_t from_ns, uint64_t to_ns,
			  struct slice_chain *out);

/* A new window for st's longest top-level slice (the next gap's cause). */
void slices__window_reset(struct slices_thread *st);

/* 1 + the depth of st's innermost open slice of phase, or 0 when it is inside none. */
size_t slices__phase_depth(const struct slices_thread *st, enum frame_phase phase);

/* st is new, or its tid now belongs to another process: it has no open slice. */
void slices__thread_reset(struct slices *ss, struct slices_thread *st);

/* True when st is inside no slice (a full thread table may forget it). */
bool slices__thread_idle(const struct slices_thread *st);

/* Frees what st holds. */
void slices__thread_free(struct slices_thread *st);

#endif
