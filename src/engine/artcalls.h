/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* ART call matching: ValueAnimator start/cancel/end calls seen by the probes, matched to the S and F markers they cause. */
#ifndef ANIMTRACE_ENGINE_ARTCALLS_H
#define ANIMTRACE_ENGINE_ARTCALLS_H

#include "engine/state.h"

void start_pending_add(struct proc *p, uint32_t cookie, uint64_t ts_ns);
bool start_pending_take(struct proc *p, int64_t cookie, uint64_t *ts_ns);
bool art_cause(struct engine *e, uint32_t tid, int64_t cookie, uint64_t ts_ns,
		      enum art_call *call, const struct art_pending **pending);
void art_start_stack(struct engine *e, uint32_t tid, int64_t cookie, uint64_t ts_ns,
			    struct anim *a);
void art_end_stack(struct anim *a, const struct art_pending *pending);
bool art_watched(const struct proc *p, uint64_t ts_ns);

#endif
