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

/* ART probes on ValueAnimator.cancel/end were attached to the process at since_ns. */
void artcalls__active(struct artcalls_proc *ap, uint64_t since_ns);

/* start() was called on cookie at ts_ns: its S, when it comes, has a start delay (the
 * CAP_PENDING_STARTS latest calls wait). */
void artcalls__start_called(struct artcalls_proc *ap, uint32_t cookie, uint64_t ts_ns);

/* The S of cookie at ts_ns: a->has_start_delay and start_delay_ns from the start() call
 * waiting for it, which is consumed. */
void artcalls__start_delay(struct artcalls_proc *ap, int64_t cookie, uint64_t ts_ns,
			   struct anim *a);

/* The animator cookie was cancelled before its S: its start() call waits no more. */
void artcalls__start_dropped(struct artcalls_proc *ap, int64_t cookie);

/* The thread entered call on cookie at ts_ns (stack: its Java callers, n_stack of them): it
 * waits for the S (start) or F (cancel, end) it causes, replacing the one before. */
void artcalls__pending(struct artcalls_thread *at, enum art_call call, uint32_t cookie,
		       uint64_t ts_ns, const char (*stack)[AT_FRAME_NAME], int n_stack);

/* The cancel() or end() of the thread (at; NULL: unknown thread) that caused the F of cookie
 * at ts_ns, or NULL; the pending call is consumed either way. */
const struct art_pending *artcalls__cause(struct artcalls_thread *at, int64_t cookie,
					  uint64_t ts_ns);

/* The S of cookie at ts_ns on the thread (at; may be NULL): the stack of the start() that
 * wrote it goes into a; the pending start() is consumed either way. */
void artcalls__start_stack(struct artcalls_thread *at, int64_t cookie, uint64_t ts_ns,
			   struct anim *a);

/* a's end stack is its cause's Java callers. */
void artcalls__end_stack(struct anim *a, const struct art_pending *cause);

/* The reason of an F at ts_ns: its cause's (cancel, or end: force_end), else complete while
 * the probes watched, else inferred; *source says which. */
enum end_reason artcalls__reason(const struct artcalls_proc *ap, const struct art_pending *cause,
				 uint64_t ts_ns, enum end_reason inferred,
				 enum reason_source *source);

#endif
