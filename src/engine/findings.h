/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Findings: answers about animators and unmarked animations, computed once, here, from what
 * the other trackers keep (a run's record and curve, a batch's writers, a fitted spring). The
 * kinds (model.h enum finding_kind) and their numbers, after the troubleshooting scenarios of
 * the patched tracers' guide (AnimatorTracer 12.1-12.4, ViewPropertyTracer 15.7.3):
 *
 *   flicker      an animator ended by cancel(), end() or in the frame of its S (first_frame)
 *                before its second frame with values: fewer than FLICKER_FRAMES frames wrote
 *                its properties (its doFrames when no write of it was seen). One frame is
 *                one picture: a second frame is the least that shows motion (12.1).
 *   replaced     an animator whose F came within REPLACE_WINDOW_NS before the S of another on
 *                the same thread, with no animator's S or F between them, sharing a property
 *                and (when both are known) the node; or, with stacks, whose cancel() ran under
 *                AnimationHandler.autoCancelBasedOn.
 *                ObjectAnimator.start() cancels the old one and starts the new one in one
 *                call: microseconds apart; 1 ms leaves room for a descheduled thread (12.4).
 *   conflict     one property of one node written by two writers in one frame: two animators,
 *                or an animator and code outside every animateValue (ART probes); without
 *                them, a property written twice in a frame whose node two running animators
 *                inferred (15.7.3). Told once per node, property and pair of writers.
 *   slow_spring  an unmarked animation fitted as a spring whose settle time exceeds
 *                SLOW_SETTLE_MS (2 s), or whose damping ratio < 0.5 with stiffness < 100: the
 *                guide's rule for a spring that oscillates too long (12.3).
 *   repeating    running at the end (session or process) and its curve repeats: a lag of
 *                REPEAT_MIN_LAG..n/2 points at which the values differ by less than
 *                REPEAT_TOLERANCE of their range, seen twice over: an INFINITE repeat (12.2).
 *   stalled      running at the end, not repeating, and its values unchanged for the last
 *                STALL_NS (30 frames at 60 Hz; its whole run when none was written): paused
 *                or leaked (12.2). A run still moving is neither: the capture just stopped.
 */
#ifndef ANIMTRACE_ENGINE_FINDINGS_H
#define ANIMTRACE_ENGINE_FINDINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"

#define FLICKER_FRAMES 2
#define REPLACE_WINDOW_NS 1000000ull
#define SLOW_SETTLE_MS 2000.0
#define SLOW_DAMPING 0.5
#define SLOW_STIFFNESS 100.0
#define REPEAT_MIN_LAG 3
#define REPEAT_TOLERANCE 0.02
#define STALL_NS 500000000ull

struct anim_run;
struct emit;
struct engine;
struct proc;

#define RECENT_ENDS 8
#define CONFLICTS_TOLD 32

/* A recently ended animator, for the S that may have replaced it. */
struct recent_end {
	uint64_t id, node, end_ns;
	uint32_t tid;
	bool auto_cancel; /* its end stack shows AnimationHandler.autoCancelBasedOn */
	int n_props;
	char props[AT_MAX_PROPS][32];
};

struct findings_proc {
	struct recent_end recent[RECENT_ENDS]; /* a ring: next is the oldest */
	int next;
	bool adjacent; /* the newest one ended last, and no animator started since */
	struct {
		uint64_t node, a, b;
		enum view_prop prop;
	} told[CONFLICTS_TOLD];
	int n_told;
};

/* An animator's part: the one its S came right after (a replacement), until it is judged. */
struct findings_run {
	bool has_old;
	struct recent_end old;
};

/* The session's findings for the summary. */
struct findings {
	uint64_t by_kind[FINDING_KIND_COUNT];
	struct finding top[AT_FINDINGS_TOP];
	int n_top;
};

/* An F without S of p (cancel before start): an animator marker between an F and an S. */
void findings__cancelled_before_start(struct proc *p);

/* r of p started: it may replace the one p ended right before on its thread. */
void findings__anim_started(struct proc *p, struct anim_run *r);

/* r of p ended (its record filled): flicker, replaced and, at process exit, repeating or
 * stalled go out, before its anim_end. */
void findings__anim_ended(struct findings *fs, struct proc *p, struct anim_run *r,
			  struct emit *out);

/* r of p is still running when the session ends at end_ns: repeating or stalled, replaced. */
void findings__running_at_exit(struct findings *fs, struct proc *p, struct anim_run *r,
			       uint64_t end_ns, struct emit *out);

/* p's batch is about to go out: its properties written by two writers in one frame. */
void findings__batch(struct findings *fs, struct proc *p, struct emit *out);

/* The unmarked animation a ended (fitted): a slow spring, before its animation_end. */
void findings__animation_ended(struct findings *fs, const struct animation *a, struct emit *out);

/* The ranked findings and the counts go into s (valid while fs is). */
void findings__summary(const struct findings *fs, struct summary *s);

#endif
