/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Attribution: which animator wrote which node (inferred from names, exact from animateValue). */
#ifndef ANIMTRACE_ENGINE_ATTRIB_H
#define ANIMTRACE_ENGINE_ATTRIB_H

#include "engine/state.h"

void anim_link(struct anim *a, const struct node_st *n, enum view_prop prop, float value);
bool anim_sample(struct anim *a, const struct node_st *n, enum view_prop prop,
			float value, uint64_t frame_key, uint64_t frame_ns);
void anim_fit_interp(struct anim *a);
struct anim_run *run_by_cookie(struct proc *p, uint32_t cookie);
void target_write(struct proc *p, struct anim_run *r, const struct node_st *n,
			 enum view_prop prop, float value, uint64_t frame_ns);
void targets_fill(struct anim_run *r);
void targets_announce(struct engine *e, struct proc *p);
size_t animation_phase_depth(const struct thread *t);
void av_marker(struct engine *e, uint32_t tid);

#endif
