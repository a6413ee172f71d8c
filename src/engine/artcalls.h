/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ART call matching. The probes on ValueAnimator.start/cancel/end leave one pending call per
 * thread, consumed by the S or F it causes on that thread; start() calls also wait per process
 * for their S (the start delay). Owns: the pending calls, the start() calls, whether the
 * probes watched a process. Calls no other tracker.
 */
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
	bool on;	/* ART probes on cancel/end: unexplained F means complete... */
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

/* The probes on ValueAnimator.cancel/end were attached to the process at since_ns. */
void artcalls__active(struct artcalls_proc *ap, uint64_t since_ns);

/* start() was called on cookie at ts_ns: it waits for its S (the latest CAP_PENDING_STARTS). */
void artcalls__start_called(struct artcalls_proc *ap, uint32_t cookie, uint64_t ts_ns);

/* The thread entered call on cookie at ts_ns (its Java callers: n_stack of stack): it waits
 * for the S or F it causes, replacing the one waiting before. */
void artcalls__pending(struct artcalls_thread *at, enum art_call call, uint32_t cookie,
		       uint64_t ts_ns, const char (*stack)[AT_FRAME_NAME], int n_stack);

/* The S of cookie at ts_ns: a's start delay, from the start() waiting for it (consumed). */
void artcalls__start_delay(struct artcalls_proc *ap, int64_t cookie, uint64_t ts_ns,
			   struct anim *a);

/* The S of cookie at ts_ns on the thread (at may be NULL): a's start stack, from its start();
 * the thread's pending start() is consumed either way. */
void artcalls__start_stack(struct artcalls_thread *at, int64_t cookie, uint64_t ts_ns,
			   struct anim *a);

/* cookie was cancelled before its S: its start() waits no more. */
void artcalls__start_dropped(struct artcalls_proc *ap, int64_t cookie);

/* The cancel() or end() of the thread (at may be NULL) that caused the F of cookie at ts_ns,
 * or NULL; the pending call is consumed either way. */
const struct art_pending *artcalls__cause(struct artcalls_thread *at, int64_t cookie,
					  uint64_t ts_ns);

/* The reason of an F at ts_ns: cause's, else complete while the probes watched, else
 * inferred; *source says which. */
enum end_reason artcalls__reason(const struct artcalls_proc *ap, const struct art_pending *cause,
				 uint64_t ts_ns, enum end_reason inferred,
				 enum reason_source *source);

/* a's end stack is cause's Java callers. */
void artcalls__end_stack(struct anim *a, const struct art_pending *cause);

/* a, cancelled before its S, was cancelled by cause (NULL: none seen): its source and stack. */
void artcalls__cancelled(struct anim *a, const struct art_pending *cause);

#endif
