// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Processes by pid and threads by tid: hash tables, capped (common/caps.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/procs.h"
#include "engine/slices.h"
#include "engine/state.h"

static bool proc_eq(const void *v, const void *key)
{
	return ((const struct proc *)v)->pid == *(const uint32_t *)key;
}

struct proc *proc_find(struct engine *e, uint32_t pid)
{
	return htab_find(&e->procs.by_pid, hash_mix64(pid), proc_eq, &pid);
}

/* Finds or creates the process; a non-empty name replaces the one known so far. */
struct proc *proc_get(struct engine *e, uint32_t pid, const char *process)
{
	struct proc *p = proc_find(e, pid);

	if (!p) {
		if (e->procs.n >= CAP_PROCS) {
			e->ev.processes++;
			return NULL;
		}
		p = calloc(1, sizeof(*p));
		if (!p)
			return NULL;
		p->pid = pid;
		p->props.pb.gen = 1; /* node_st.gen 0 is in no batch */
		struct proc **slot = vec_push((void **)&e->procs.list, &e->procs.n, &e->procs.cap,
					      sizeof(*slot));
		if (!slot || htab_add(&e->procs.by_pid, hash_mix64(pid), p)) {
			if (slot)
				e->procs.n--;
			free(p);
			return NULL;
		}
		*slot = p;
	}
	if (process && *process)
		snprintf(p->name, sizeof(p->name), "%s", process);
	return p;
}

static bool thread_eq(const void *v, const void *key)
{
	return ((const struct thread *)v)->tid == *(const uint32_t *)key;
}

struct thread *thread_find(struct engine *e, uint32_t tid)
{
	return htab_find(&e->procs.by_tid, hash_mix64(tid), thread_eq, &tid);
}

static bool thread_idle(void *v, void *ctx)
{
	struct thread *t = v;

	if (t->slices.depth || t->slices.overflow)
		return false;
	free(t->slices.st);
	free(t);
	return true;
}

/* The thread table is full: forget the threads inside no slice. */
static void threads_sweep(struct engine *e)
{
	sweep_count(&e->procs.by_tid, thread_idle, NULL, &e->ev.threads);
}

/* Threads are keyed by tid alone: a bare "E" has no tgid. A reused tid starts afresh. */
struct thread *thread_get(struct engine *e, uint32_t pid, uint32_t tid)
{
	struct thread *t = thread_find(e, tid);

	if (!t) {
		if (e->procs.by_tid.cnt >= CAP_THREADS)
			threads_sweep(e);
		t = calloc(1, sizeof(*t));
		if (!t)
			return NULL;
		t->tid = tid;
		t->pid = pid;
		t->jank.anchor_vsync = -1;
		if (htab_add(&e->procs.by_tid, hash_mix64(tid), t)) {
			free(t);
			return NULL;
		}
	}
	if (t->pid != pid) { /* the tid now belongs to another process */
		e->slices.n_open -= t->slices.depth;
		t->pid = pid;
		t->slices.depth = 0;
		t->slices.overflow = 0;
		t->frames.has_frame = false;
		t->jank.anchor_vsync = -1;
		t->jank.min_interval_ns = 0;
		t->attrib.av_valid = false;
		slices__window_reset(&t->slices);
	}
	return t;
}

bool proc_is(void *v, void *ctx)
{
	return v == ctx;
}
