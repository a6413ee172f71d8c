// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* ART call matching: a pending call per thread waits for the marker it causes; start() calls wait per process for their S (the start delay). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/artcalls.h"
#include "engine/procs.h"
#include "engine/state.h"

/* Remembers when start() was called on cookie, for the delay to its S. */
void start_pending_add(struct proc *p, uint32_t cookie, uint64_t ts_ns)
{
	for (int i = 0; i < p->art.n_starts; i++) {
		if (p->art.starts[i].cookie == cookie) {
			p->art.starts[i].ts_ns = ts_ns;
			return;
		}
	}
	if (p->art.n_starts == CAP_PENDING_STARTS)
		memmove(p->art.starts, p->art.starts + 1, --p->art.n_starts * sizeof(p->art.starts[0]));
	p->art.starts[p->art.n_starts].cookie = cookie;
	p->art.starts[p->art.n_starts++].ts_ns = ts_ns;
}

/* The time start() was called on cookie, if it waits for its S; forgets it. */
bool start_pending_take(struct proc *p, int64_t cookie, uint64_t *ts_ns)
{
	for (int i = 0; i < p->art.n_starts; i++) {
		if ((int64_t)p->art.starts[i].cookie != cookie)
			continue;
		*ts_ns = p->art.starts[i].ts_ns;
		memmove(p->art.starts + i, p->art.starts + i + 1,
			(size_t)(p->art.n_starts - i - 1) * sizeof(p->art.starts[0]));
		p->art.n_starts--;
		return true;
	}
	return false;
}

/*
 * cancel() and end() write their F synchronously, on the calling thread, microseconds
 * after the probe, and start() its S: what keeps a call from explaining the wrong marker is
 * that each pending call is consumed by the thread's next F (or S), and that a start() of
 * the animator drops a cancel()/end() still pending for it (that one found it not running:
 * no F). The window only bounds how stale a pending call may be; it is generous because a
 * loaded device (or qemu) can deschedule the thread between the probe and the write.
 */
#define ART_CALL_WINDOW_NS (1000ULL * 1000000ULL)

/* The ART call that caused this F, if any; consumes it. */
bool art_cause(struct engine *e, uint32_t tid, int64_t cookie, uint64_t ts_ns,
		      enum art_call *call, const struct art_pending **pending)
{
	struct thread *t = thread_find(e, tid);

	if (!t || !t->art.call.valid)
		return false;
	t->art.call.valid = false;
	if ((int64_t)t->art.call.cookie != cookie || ts_ns - t->art.call.ts_ns > ART_CALL_WINDOW_NS)
		return false;
	*call = t->art.call.call;
	*pending = &t->art.call;
	return true;
}

/* The stack of the start() that wrote this S on the same thread just before; consumes it. */
void art_start_stack(struct engine *e, uint32_t tid, int64_t cookie, uint64_t ts_ns,
			    struct anim *a)
{
	struct thread *t = thread_find(e, tid);

	if (!t || !t->art.start.valid)
		return;
	t->art.start.valid = false;
	if ((int64_t)t->art.start.cookie != cookie ||
	    ts_ns - t->art.start.ts_ns > ART_CALL_WINDOW_NS)
		return;
	if (t->art.call.valid && (int64_t)t->art.call.cookie == cookie)
		t->art.call.valid = false; /* a cancel()/end() before this start() found it idle */
	a->n_start_stack = t->art.start.n_stack;
	memcpy(a->start_stack, t->art.start.stack, sizeof(a->start_stack));
}

void art_end_stack(struct anim *a, const struct art_pending *pending)
{
	a->n_end_stack = pending->n_stack;
	memcpy(a->end_stack, pending->stack, sizeof(a->end_stack));
}

/* Were the ART probes watching cancel()/end() when this F was written? */
bool art_watched(const struct proc *p, uint64_t ts_ns)
{
	return p->art.on && ts_ns >= p->art.since;
}
