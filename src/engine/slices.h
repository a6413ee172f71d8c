/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* B/E slices per thread and their chains of longest children (the causes of jank). */
#ifndef ANIMTRACE_ENGINE_SLICES_H
#define ANIMTRACE_ENGINE_SLICES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/marker.h"
#include "model/model.h"

struct thread;

enum slice_kind { SLICE_OTHER, SLICE_DOFRAME, SLICE_PHASE, SLICE_DRAW };

struct slice {
	uint8_t kind;
	uint8_t phase;
	int64_t vsync;
	uint64_t start_ns;
	char name[AT_SLICE_NAME];
	uint64_t best_dur;       /* its longest ended child so far... */
	struct slice_chain best; /* ...with that child's own longest descendants */
};

/* A thread's open slices. */
struct slices_thread {
	struct slice *st;
	size_t depth, cap;
	uint32_t overflow; /* B markers beyond CAP_SLICE_DEPTH, waiting for their E */
	/* the longest top-level slice since its last doFrame or draw ended (a gap's cause) */
	uint64_t top_dur;
	struct slice_chain top;
};

/* Open slices in all threads (CAP_OPEN_SLICES). */
struct slices {
	size_t n_open;
};

/* A new window for st's longest top-level slice (the next gap's cause). */
void slices__window_reset(struct slices_thread *st);

/* c = s, then its longest child and that child's own chain. */
void slices__chain_of(struct slice_chain *c, const struct slice *s, uint64_t dur);

void chain_offer(struct thread *t, const struct slice *s, uint64_t dur);
void slice_classify(struct strv name, struct slice *s);

#endif
