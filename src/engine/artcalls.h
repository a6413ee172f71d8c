/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* ART call matching: ValueAnimator start/cancel/end calls seen by the probes, matched to the S and F markers they cause. */
#ifndef ANIMTRACE_ENGINE_ARTCALLS_H
#define ANIMTRACE_ENGINE_ARTCALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/caps.h"
#include "engine/engine.h"
#include "model/model.h"

struct engine;
struct proc;

/* The last ValueAnimator.cancel/end this thread entered, waiting for its F. */
struct art_pending {
	bool valid;
	enum art_call call;
	uint32_t cookie;
	uint64_t ts_ns;
	int n_stack; /* its Java callers (--stacks) */
	char stack[AT_STACK_FRAMES][AT_FRAME_NAME];
};

struct artcalls_proc {
	bool on;        /* ART probes on cancel/end: unexplained F means complete... */
	uint64_t since; /* ...for an F written once they were attached */
	/* ValueAnimator.start calls waiting for their S (start delay), oldest first */
	struct {
		uint32_t cookie;
		uint64_t ts_ns;
	} starts[CAP_PENDING_STARTS];
	int n_starts;
};

struct artcalls_thread {
	struct art_pending call;  /* the last cancel() or end(), waiting for its F */
	struct art_pending start; /* the last start(), waiting for its S (--stacks) */
};

void start_pending_add(struct proc *p, uint32_t cookie, uint64_t ts_ns);
bool start_pending_take(struct proc *p, int64_t cookie, uint64_t *ts_ns);
bool art_cause(struct engine *e, uint32_t tid, int64_t cookie, uint64_t ts_ns,
		      enum art_call *call, const struct art_pending **pending);
void art_start_stack(struct engine *e, uint32_t tid, int64_t cookie, uint64_t ts_ns,
			    struct anim *a);
void art_end_stack(struct anim *a, const struct art_pending *pending);
bool art_watched(const struct proc *p, uint64_t ts_ns);

#endif
