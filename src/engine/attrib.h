/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Attribution: which animator wrote which node (inferred from names, exact from animateValue). */
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

/* The animator of the thread's property writes of process pid (t: the writing thread, may
 * be NULL): the cookie of its open animateValue window, or NULL. */
const uint32_t *attrib__writer(const struct thread *t, uint32_t pid);

/*
 * p's node n gets value for prop (n->val still holds the value before) in the frame begun
 * at frame_ns. With a writer the write is that animator's (an exact target of its run, when
 * it runs); without, every running animator naming prop links n as its inferred target and
 * samples its curve. True when an animator explains the write.
 */
bool attrib__write(struct proc *p, const uint32_t *writer, const struct node_st *n,
		   enum view_prop prop, float value, uint64_t frame_ns);

/* The interpolator of a, ended at its end (its S to F is its duration), fitted to the first
 * property whose values were seen on 3 or more frames and moved. */
void attrib__fit_interp(struct anim *a);

/* r's exact targets go into r->a, most writes first; the first becomes its target. */
void attrib__fill(struct anim_run *r);

/* Frees what at holds. */
void attrib__run_free(struct attrib_run *at);

/* After a batch was sent: the running animators whose first exact writes were in it say
 * what they move (anim_target). */
void attrib__announce(struct attrib_proc *ap, struct anim_run *running, struct emit *out);
/* The thread entered animateValue of the animator cookie (has_cookie false: of none that can
 * be told), inside the animation phase slice at depth phase_depth - 1 (0: outside one): its
 * writes are that animator's from now on. */
void attrib__animate(struct attrib_thread *at, bool has_cookie, uint32_t cookie,
		     size_t phase_depth);

/* A marker of the thread: it ends a window opened outside any animation phase. */
void attrib__marker(struct attrib_thread *at);

/* A slice of the thread ended, depth slices remain open: the window of the animation phase
 * it closed ends. */
void attrib__slice_ended(struct attrib_thread *at, size_t depth);

/* at's tid now belongs to another process (or is new): no window is open. */
void attrib__thread_reset(struct attrib_thread *at);

#endif
