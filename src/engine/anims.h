/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Animator lifecycles: the animators running per process, their keys (pid, name, cookie) and the statistics per name. */
#ifndef ANIMTRACE_ENGINE_ANIMS_H
#define ANIMTRACE_ENGINE_ANIMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/coll.h"
#include "common/marker.h"
#include "engine/attrib.h"
#include "model/model.h"

struct engine;
struct proc;

#define LONGEST_MAX 5

struct name_acc {
	char name[AT_NAME_MAX];
	uint32_t count, cancels, running;
	uint64_t total_ns, max_ns;
	uint64_t frames;
	uint64_t *durs; /* ended durations, for the median (a reservoir beyond CAP_DURATIONS) */
	size_t n_durs, cap_durs;
	uint64_t seen_durs; /* durations offered to durs */
};

struct anim_run;

/* One (pid, name, cookie): small and kept forever so cookie reuse can be counted. */
struct anim_key {
	uint32_t pid;
	int64_t cookie;
	struct name_acc *name;
	uint32_t starts;
	bool evicted;         /* its run was evicted: its F is no cancel-before-start */
	struct anim_run *run; /* non-NULL while running */
};

struct anim_run {
	struct anim a;
	struct anim_key *key;
	struct anim_run *prev, *next; /* the process's running list */
	uint64_t last_seq; /* the last frame it ran in (0: none yet; frames.c's) */
	struct attrib_run at;
};

struct anims_proc {
	struct anim_run *running, *running_tail; /* in start order */
	size_t n_running;
};

struct anims {
	struct htab keys, names;
	struct name_acc **name_list;
	size_t n_names, cap_names;
	struct anim longest[LONGEST_MAX];
	int n_longest;
	uint64_t started, ended;
	size_t n_running;
	uint64_t rng; /* the duration reservoir's generator (deterministic) */
};

struct name_acc *name_get(struct engine *e, const char *name);
struct anim_key *key_get(struct engine *e, uint32_t pid, struct name_acc *n,
				int64_t cookie);
bool is_animator(struct strv name);
void anim_set_name(struct anim *a, const char *name);
void stats_end(struct engine *e, struct name_acc *n, const struct anim *a);
void anim_unlink(struct engine *e, struct proc *p, struct anim_run *r);
void anim_make_room(struct engine *e, struct proc *p);

#endif
