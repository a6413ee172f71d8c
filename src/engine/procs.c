// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The process and thread tables (engine/procs.h). */
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

struct proc *procs__find(const struct procs *ps, uint32_t pid)
{
	return htab_find(&ps->by_pid, hash_mix64(pid), proc_eq, &pid);
}

struct proc *procs__get(struct procs *ps, uint32_t pid, const char *process, uint64_t *evicted,
			bool *created)
{
	struct proc *p = procs__find(ps, pid);

	*created = false;
	if (!p) {
		if (ps->n >= CAP_PROCS) {
			(*evicted)++;
			return NULL;
		}
		p = calloc(1, sizeof(*p));
		if (!p)
			return NULL;
		p->pid = pid;
		struct proc **slot = vec_push((void **)&ps->list, &ps->n, &ps->cap, sizeof(*slot));
		if (!slot || htab_add(&ps->by_pid, hash_mix64(pid), p)) {
			if (slot)
				ps->n--;
			free(p);
			return NULL;
		}
		*slot = p;
		*created = true;
	}
	if (process && *process)
		snprintf(p->name, sizeof(p->name), "%s", process);
	return p;
}

static bool proc_is(void *v, void *ctx)
{
	return v == ctx;
}

bool procs__remove(struct procs *ps, struct proc *p)
{
	size_t i;

	if (htab_sweep(&ps->by_pid, proc_is, p) != 1)
		return false; /* no memory to rebuild the table: keep it */
	for (i = 0; i < ps->n && ps->list[i] != p; i++)
		;
	memmove(ps->list + i, ps->list + i + 1, (ps->n - i - 1) * sizeof(p));
	ps->n--;
	return true;
}

static bool thread_eq(const void *v, const void *key)
{
	return ((const struct thread *)v)->tid == *(const uint32_t *)key;
}

struct thread *procs__thread_find(const struct procs *ps, uint32_t tid)
{
	return htab_find(&ps->by_tid, hash_mix64(tid), thread_eq, &tid);
}

/* The thread table is full: forget the threads inside no slice. */
static bool thread_idle(void *v, void *ctx)
{
	struct thread *t = v;

	if (!slices__thread_idle(&t->slices))
		return false;
	slices__thread_free(&t->slices);
	free(t);
	return true;
}

struct thread *procs__thread_get(struct procs *ps, uint32_t pid, uint32_t tid, uint64_t *evicted,
				 bool *fresh)
{
	struct thread *t = procs__thread_find(ps, tid);

	*fresh = false;
	if (!t) {
		if (ps->by_tid.cnt >= CAP_THREADS)
			sweep_count(&ps->by_tid, thread_idle, NULL, evicted);
		t = calloc(1, sizeof(*t));
		if (!t)
			return NULL;
		t->tid = tid;
		t->pid = pid;
		if (htab_add(&ps->by_tid, hash_mix64(tid), t)) {
			free(t);
			return NULL;
		}
		*fresh = true;
	}
	if (t->pid != pid) { /* the tid now belongs to another process */
		t->pid = pid;
		*fresh = true;
	}
	return t;
}

void procs__free(struct procs *ps)
{
	for (size_t i = 0; i < ps->by_tid.cap; i++)
		if (ps->by_tid.s[i].v)
			slices__thread_free(&((struct thread *)ps->by_tid.s[i].v)->slices);
	htab_free_values(&ps->by_tid);
	free(ps->by_pid.s);
	free(ps->list);
}
