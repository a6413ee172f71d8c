/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Animator lifecycles and name statistics. An S marker starts a run of its key (pid, name,
 * cookie), its F ends it; each process keeps its running animators in start order, and ended
 * ones feed the per-name counts, durations (median from a bounded reservoir) and the longest
 * animators. Owns: the key and name tables, struct anim_run, each process's running list.
 * Calls only attrib (to free a run's targets); why an animator ended is the caller's to say.
 */
#ifndef ANIMTRACE_ENGINE_ANIMS_H
#define ANIMTRACE_ENGINE_ANIMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/coll.h"
#include "common/marker.h"
#include "engine/attrib.h"
#include "engine/findings.h"
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
	bool evicted;	      /* its run was evicted: its F is no cancel-before-start */
	struct anim_run *run; /* non-NULL while running */
};

struct anim_run {
	struct anim a;
	struct anim_key *key;
	struct anim_run *prev, *next; /* the process's running list */
	uint64_t last_seq;	      /* the last frame it ran in (0: none yet; frames.c's) */
	struct attrib_run at;
	struct findings_run fr;
};

/* A configuration read at start(), waiting for the S of its animator (the start delay). */
struct anim_config_wait {
	uint32_t cookie;
	struct anim_config c;
};

struct anims_proc {
	struct anim_run *running, *running_tail; /* in start order */
	size_t n_running;
	/* oldest first, allocated at the first one; CAP_PENDING_STARTS at most, as the start()
	 * calls they come with (artcalls.h) */
	struct anim_config_wait *configs;
	int n_configs;
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

/* True for "animator" and "animator:<props>", the names of animator markers. */
bool anims__is_animator(struct strv name);

/* name's statistics, created on first use; past CAP_NAMES one shared "(other names)" row
 * (counted in ev->names). NULL: out of memory. */
struct name_acc *anims__name(struct anims *as, const char *name, struct evictions *ev);

/* The key (pid, n, cookie), created on first use; a full table forgets those not running
 * (counted in ev->anim_keys). NULL: out of memory. */
struct anim_key *anims__key(struct anims *as, uint32_t pid, struct name_acc *n, int64_t cookie,
			    struct evictions *ev);

/* Room for one more running animator of p: past a cap the oldest of p, or of the process
 * running most, is dropped unreported (counted in *evicted). */
void anims__make_room(struct anims *as, struct proc *p, struct proc *const *procs, size_t n_procs,
		      uint64_t *evicted);

/* Starts a run of k (its S, named name, at ts_ns on tid), last in p's list, counted for its
 * name and the session. NULL: out of memory. */
struct anim_run *anims__start(struct anims *as, struct proc *p, struct anim_key *k,
			      const char *name, uint64_t ts_ns, uint32_t tid);

/*
 * r's end reason at ts_ns when nothing says why: first_frame when no doFrame began after its
 * S (frames_seen: its process ran doFrames; without any, S and F within instant_ns), else
 * ended.
 */
enum end_reason anims__inferred_reason(const struct anim_run *r, uint64_t ts_ns,
				       uint64_t instant_ns, bool frames_seen);

/*
 * start() of the animator whose identity hash is cookie was asked for c: its next S gets it.
 * A later start() of the same cookie replaces it; past CAP_PENDING_STARTS the oldest waiting
 * is forgotten (that animator's run then has no configuration). Returns 0 or -ENOMEM.
 */
int anims__config(struct anims_proc *ap, uint32_t cookie, const struct anim_config *c);

/* The S of cookie, or its F before any S (cancelled during its start delay): a's
 * configuration, when one waits for cookie (consumed). */
void anims__take_config(struct anims_proc *ap, int64_t cookie, struct anim *a);

/* Takes r off p's running list, ended at ts_ns (not before its start) on tid for reason. */
void anims__stop(struct anims *as, struct proc *p, struct anim_run *r, uint64_t ts_ns, uint32_t tid,
		 enum end_reason reason, enum reason_source source);

/* True, once, for the F of k whose run was evicted (that F is ignored). */
bool anims__evicted_end(struct anim_key *k);

/* Fills a with k (named name) of p, cancelled at ts_ns on tid before its S (an F without S),
 * counted for its name. */
void anims__cancelled_before_start(struct anim *a, struct anim_key *k, const char *name,
				   const struct proc *p, uint64_t ts_ns, uint32_t tid);

/* Counts ended a for the session, its name n (cancels, durations) and the longest animators. */
void anims__ended(struct anims *as, struct name_acc *n, const struct anim *a, struct evictions *ev);

/* Counts r, still running when the session ends, as running for its name. */
void anims__running_at_exit(const struct anim_run *r);

/* Frees r, off its list. */
void anims__run_free(struct anim_run *r);

/* Frees ap's running animators, unreported. */
void anims__proc_free(struct anims_proc *ap);

/* Frees the keys and the names' statistics (the runs are the processes'). */
void anims__free(struct anims *as);

#endif
