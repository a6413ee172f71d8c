/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Who started an animator, read from the Java frames of its ValueAnimator.start (--stacks):
 * an AnimatorSet or a ViewPropertyAnimator, and for a set, the code that started the set.
 * A child the set starts at once has AnimatorSet.start on its stack, with the set's caller
 * right outside it; a child started later (AnimatorSet.doAnimationFrame on API 26+, a
 * dependency listener before) has only Choreographer frames, so each process remembers the
 * sets by caller and the animators they started: a later child belongs to the one set whose
 * children still run (or ended in this frame). Owns: those sets (CAP_STARTER_SETS per
 * process, CAP_STARTER_MEMBERS each). Calls no other tracker.
 */
#ifndef ANIMTRACE_ENGINE_STARTER_H
#define ANIMTRACE_ENGINE_STARTER_H

#include <stdbool.h>
#include <stdint.h>

#include "common/caps.h"
#include "model/model.h"

/* The animators an AnimatorSet started, by the set's caller. */
struct starter_set {
	char caller[AT_FRAME_NAME];
	struct {
		uint64_t id; /* the animator's id (cookie) */
		bool running;
	} members[CAP_STARTER_MEMBERS];
	int n_members, next_member;
	uint64_t last_end_ns; /* when a member last ended */
	uint64_t seq;	      /* when it was last used (the oldest is evicted) */
};

struct starter_proc {
	struct starter_set sets[CAP_STARTER_SETS];
	int n_sets;
	uint64_t tick;
};

/*
 * a just started (its start_stack set): its starter and set_caller; the AnimatorSet frames
 * are then left out of start_stack. frame_ns: the start of the frame open now (a set's child
 * that ended at or after it still counts as running), 0 when none.
 */
void starter__started(struct starter_proc *sp, struct anim *a, uint64_t frame_ns);

/* a ended at ts_ns: its set (if any) has one running child less. */
void starter__ended(struct starter_proc *sp, const struct anim *a, uint64_t ts_ns);

#endif
