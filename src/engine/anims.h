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

/* The statistics of animators called name, created on first use; beyond CAP_NAMES one
 * "(other names)" row for all new names (counted in ev->names). NULL: out of memory. */
struct name_acc *anims__name(struct anims *as, const char *name, struct evictions *ev);

/* The key (pid, n, cookie), created on first use; a full table forgets the keys of animators
 * not running (counted in ev->anim_keys). NULL: out of memory. */
struct anim_key *anims__key(struct anims *as, uint32_t pid, struct name_acc *n, int64_t cookie,
			    struct evictions *ev);

/* True for "animator" and "animator:<props>" (the names AnimatorTracer-style markers use). */
bool anims__is_animator(struct strv name);

/* Room for one more running animator in p within both caps: the oldest running animator of p,
 * or of the process running most, is dropped unreported (counted in *evicted). */
void anims__make_room(struct anims *as, struct proc *p, struct proc *const *procs, size_t n_procs,
		      uint64_t *evicted);

/* A run of k starts (its S, named name, at ts_ns on tid): last in p's running list, counted
 * for its name and the session. NULL: out of memory. */
struct anim_run *anims__start(struct anims *as, struct proc *p, struct anim_key *k,
			      const char *name, uint64_t ts_ns, uint32_t tid);

/* The reason of r's end at ts_ns when nothing says why: force_end closer than instant_ns to
 * its start, else ended. */
enum end_reason anims__inferred_reason(const struct anim_run *r, uint64_t ts_ns,
				       uint64_t instant_ns);

/* r leaves p's running list, ended at ts_ns (never before its start) on tid for reason. */
void anims__stop(struct anims *as, struct proc *p, struct anim_run *r, uint64_t ts_ns,
		 uint32_t tid, enum end_reason reason, enum reason_source source);

/* a ended: it counts for the session, its name n (cancels, durations) and the longest
 * animators. */
void anims__ended(struct anims *as, struct name_acc *n, const struct anim *a,
		  struct evictions *ev);

/* Frees r, off its list. */
void anims__run_free(struct anim_run *r);

/* An F of k, whose run was evicted: true the first time (the F is ignored). */
bool anims__evicted_end(struct anim_key *k);

/* a = the animator k (named name) of p cancelled at ts_ns on tid before it started (an F
 * without S), counted for its name. */
void anims__cancelled_before_start(struct anim *a, struct anim_key *k, const char *name,
				   const struct proc *p, uint64_t ts_ns, uint32_t tid);

/* Frees ap's running animators, unreported. */
void anims__proc_free(struct anims_proc *ap);

/* Frees the keys and the names' statistics (the runs are the processes'). */
void anims__free(struct anims *as);

/* r still runs when the session ends: it counts as running for its name. */
void anims__running_at_exit(const struct anim_run *r);

#endif
