/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The process and thread tables: processes by pid (in creation order too), threads by tid,
 * both capped (common/caps.h). Creating, finding and forgetting entries is all it does; a new
 * process or a fresh thread is said to the caller, which has the trackers set up their parts.
 * Calls slices (a full thread table forgets threads inside no slice).
 */
#ifndef ANIMTRACE_ENGINE_PROCS_H
#define ANIMTRACE_ENGINE_PROCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/coll.h"

struct proc;
struct slices;
struct thread;

/* The processes and threads followed. */
struct procs {
	struct htab by_pid, by_tid;
	struct proc **list; /* creation order, for deterministic flushing */
	size_t n, cap;
	uint64_t tick; /* thread uses so far: struct thread's used */
	/* The process and thread got last (NULL: none), found again without hashing: a
	 * capture's markers come in runs from one thread. */
	struct proc *last_proc;
	struct thread *last_thread;
};

/* pid's process, or NULL. */
struct proc *procs__find(const struct procs *ps, uint32_t pid);

/* pid's process, created zeroed on first sight (*created); a non-empty name replaces the one
 * known. NULL beyond CAP_PROCS (counted in *evicted) or out of memory. */
struct proc *procs__get(struct procs *ps, uint32_t pid, const char *process, uint64_t *evicted,
			bool *created);

/* Takes p out of the tables for the caller to free; false (it stays) when out of memory. */
bool procs__remove(struct procs *ps, struct proc *p);

/* Thread tid, or NULL. */
struct thread *procs__thread_find(const struct procs *ps, uint32_t tid);

/* Thread tid of pid, keyed by tid alone (a bare E has no tgid); *fresh when it is new or its
 * tid moved to pid. A full table (CAP_THREADS) forgets a quarter of its threads, those inside
 * no slice first, then the least recently used with their open slices (taken out of ss);
 * each forgotten thread is counted in *evicted. */
struct thread *procs__thread_get(struct procs *ps, struct slices *ss, uint32_t pid, uint32_t tid,
				 uint64_t *evicted, bool *fresh);

/* Frees the tables and the threads; the processes are the caller's to free first. */
void procs__free(struct procs *ps);

#endif
