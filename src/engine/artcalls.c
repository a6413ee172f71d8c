// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* ART call matching (engine/artcalls.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "engine/artcalls.h"

void artcalls__active(struct artcalls_proc *ap, uint64_t since_ns)
{
	ap->on = true;
	ap->since = since_ns;
}

void artcalls__start_called(struct artcalls_proc *ap, uint32_t cookie, uint64_t ts_ns)
{
	for (int i = 0; i < ap->n_starts; i++) {
		if (ap->starts[i].cookie == cookie) {
			ap->starts[i].ts_ns = ts_ns;
			return;
		}
	}
	if (ap->n_starts == CAP_PENDING_STARTS)
		memmove(ap->starts, ap->starts + 1, --ap->n_starts * sizeof(ap->starts[0]));
	ap->starts[ap->n_starts].cookie = cookie;
	ap->starts[ap->n_starts++].ts_ns = ts_ns;
}

/* The time start() was called on cookie, if it waits for its S; forgets it. */
static bool start_pending_take(struct artcalls_proc *ap, int64_t cookie, uint64_t *ts_ns)
{
	for (int i = 0; i < ap->n_starts; i++) {
		if ((int64_t)ap->starts[i].cookie != cookie)
			continue;
		*ts_ns = ap->starts[i].ts_ns;
		memmove(ap->starts + i, ap->starts + i + 1,
			(size_t)(ap->n_starts - i - 1) * sizeof(ap->starts[0]));
		ap->n_starts--;
		return true;
	}
	return false;
}

void artcalls__start_delay(struct artcalls_proc *ap, int64_t cookie, uint64_t ts_ns, struct anim *a)
{
	a->has_start_delay = start_pending_take(ap, cookie, &a->start_delay_ns);
	if (a->has_start_delay)
		a->start_delay_ns = ts_ns > a->start_delay_ns ? ts_ns - a->start_delay_ns : 0;
}

void artcalls__start_dropped(struct artcalls_proc *ap, int64_t cookie)
{
	uint64_t ts_ns;

	start_pending_take(ap, cookie, &ts_ns);
}

void artcalls__pending(struct artcalls_thread *at, enum art_call call, uint32_t cookie,
		       uint64_t ts_ns, const char (*stack)[AT_FRAME_NAME], int n_stack)
{
	struct art_pending *pd = call == ART_CALL_START ? &at->start : &at->call;

	pd->valid = true;
	pd->call = call;
	pd->cookie = cookie;
	pd->ts_ns = ts_ns;
	pd->n_stack = n_stack < 0 ? 0 : n_stack > AT_STACK_FRAMES ? AT_STACK_FRAMES : n_stack;
	memset(pd->stack, 0, sizeof(pd->stack));
	for (int i = 0; i < pd->n_stack; i++)
		snprintf(pd->stack[i], AT_FRAME_NAME, "%s", stack[i]);
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

const struct art_pending *artcalls__cause(struct artcalls_thread *at, int64_t cookie,
					  uint64_t ts_ns)
{
	if (!at || !at->call.valid)
		return NULL;
	at->call.valid = false;
	if ((int64_t)at->call.cookie != cookie || ts_ns - at->call.ts_ns > ART_CALL_WINDOW_NS)
		return NULL;
	return &at->call;
}

void artcalls__start_stack(struct artcalls_thread *at, int64_t cookie, uint64_t ts_ns,
			   struct anim *a)
{
	if (!at || !at->start.valid)
		return;
	at->start.valid = false;
	if ((int64_t)at->start.cookie != cookie || ts_ns - at->start.ts_ns > ART_CALL_WINDOW_NS)
		return;
	if (at->call.valid && (int64_t)at->call.cookie == cookie)
		at->call.valid = false; /* a cancel()/end() before this start() found it idle */
	a->n_start_stack = at->start.n_stack;
	memcpy(a->start_stack, at->start.stack, sizeof(a->start_stack));
}

void artcalls__end_stack(struct anim *a, const struct art_pending *cause)
{
	a->n_end_stack = cause->n_stack;
	memcpy(a->end_stack, cause->stack, sizeof(a->end_stack));
}

enum end_reason artcalls__reason(const struct artcalls_proc *ap, const struct art_pending *cause,
				 uint64_t ts_ns, enum end_reason inferred,
				 enum reason_source *source)
{
	bool watched = ap->on && ts_ns >= ap->since; /* were the probes on when F was written? */

	*source = cause || watched ? REASON_ART : REASON_INFERRED;
	if (cause)
		return cause->call == ART_CALL_END ? END_FORCE_END : END_CANCEL;
	return watched ? END_COMPLETE : inferred;
}

void artcalls__cancelled(struct anim *a, const struct art_pending *cause)
{
	if (!cause)
		return;
	a->reason_source = REASON_ART;
	artcalls__end_stack(a, cause);
}
