/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Animator lifecycles: the animators running per process, their keys (pid, name, cookie) and the statistics per name. */
#ifndef ANIMTRACE_ENGINE_ANIMS_H
#define ANIMTRACE_ENGINE_ANIMS_H

#include "engine/state.h"

struct name_acc *name_get(struct engine *e, const char *name);
struct anim_key *key_get(struct engine *e, uint32_t pid, struct name_acc *n,
				int64_t cookie);
bool is_animator(struct strv name);
void anim_set_name(struct anim *a, const char *name);
void stats_end(struct engine *e, struct name_acc *n, const struct anim *a);
void anim_unlink(struct engine *e, struct proc *p, struct anim_run *r);
void anim_make_room(struct engine *e, struct proc *p);

#endif
