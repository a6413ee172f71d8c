/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Attribution: which animator wrote which node. Exact when the animateValue probes say which
 * animator a thread's writes belong to (its window); inferred otherwise: a running animator
 * naming the property takes the first node seen changing it (the nodes that fit are listed).
 * Owns: the windows per thread, a run's exact targets and per-frame curves (with the frames in
 * which another writer also wrote: props__shared reads the batch), the targets announced per
 * batch. Calls no other tracker.
 */
#ifndef ANIMTRACE_ENGINE_ATTRIB_H
#define ANIMTRACE_ENGINE_ATTRIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct anim_run;
struct emit;
struct node_st;
struct proc;
struct thread;

/* An animator's exact targets: the nodes it wrote. */
struct attrib_run {
	struct anim_target *tg; /* unsorted */
	size_t n_tg, cap_tg;
	bool announced; /* its first frame with writes was told to the sink */
};

struct attrib_proc {
	bool tg_pending; /* an animator got its first exact target in the current batch */
};

/*
 * The animator whose animateValue the thread entered last: its property writes are
 * that animator's until the next animateValue, the end of the animation phase slice at
 * depth av_depth - 1, or (av_depth 0: entered outside a phase) the thread's next marker.
 */
struct attrib_thread {
	bool av_valid;
	uint32_t av_cookie;
	size_t av_depth;
};

/* The thread entered animateValue of cookie (has_cookie false: of none told) in the animation
 * phase at depth phase_depth - 1 (0: in none): its writes are that animator's from now on. */
void attrib__animate(struct attrib_thread *at, bool has_cookie, uint32_t cookie,
		     size_t phase_depth);

/* A marker of the thread ends a window opened outside any animation phase. */
void attrib__marker(struct attrib_thread *at);

/* A slice of the thread ended, depth remain open: a window of the phase it closed ends. */
void attrib__slice_ended(struct attrib_thread *at, size_t depth);

/* The cookie whose window thread t (may be NULL) writes pid's properties in, or NULL. */
const uint32_t *attrib__writer(const struct thread *t, uint32_t pid);

/* Attributes p's write of value to n's prop (n->val: the old one) in the frame begun at
 * frame_ns: exact to writer's run (n is then no animator's inferred target), else inferred to
 * animators naming prop. True if explained. */
bool attrib__write(struct proc *p, const uint32_t *writer, struct node_st *n, enum view_prop prop,
		   float value, uint64_t frame_ns);

/* After a batch went out, the running animators whose first exact writes it held say what they
 * move (anim_target). */
void attrib__announce(struct attrib_proc *ap, struct anim_run *running, struct emit *out);

/* r's exact targets fill r->a, most writes first; the first becomes its target. */
void attrib__fill(struct anim_run *r);

/* a's interpolator, fitted to its first property seen on 3+ frames that moved (ran to its end). */
void attrib__fit_interp(struct anim *a);

/* at is new, or its tid now belongs to another process: no window is open. */
void attrib__thread_reset(struct attrib_thread *at);

/* Frees what at holds. */
void attrib__run_free(struct attrib_run *at);

#endif
