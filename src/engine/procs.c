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
	if (ps->last_proc && ps->last_proc->pid == pid)
		return ps->last_proc;
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
	/* Called on every marker: copy only a name that differs from the (cut) one kept. */
	if (process && *process && strncmp(p->name, process, sizeof(p->name) - 1))
		snprintf(p->name, sizeof(p->name), "%s", process);
	ps->last_proc = p;
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
	if (ps->last_proc == p)
		ps->last_proc = NULL;
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
	if (ps->last_thread && ps->last_thread->tid == tid)
		return ps->last_thread;
	return htab_find(&ps->by_tid, hash_mix64(tid), thread_eq, &tid);
}

/* What a sweep of the full thread table drops: threads inside no slice, and the threads
 * last used at or before `before` (0: none). */
struct thread_drop {
	struct slices *ss;
	uint64_t before;
};

static bool thread_drop(void *v, void *ctx)
{
	struct thread *t = v;
	struct thread_drop *d = ctx;

	if (!slices__thread_idle(&t->slices) && t->used > d->before)
		return false;
	slices__thread_reset(d->ss, &t->slices); /* its open slices leave the global count */
	slices__thread_free(&t->slices);
	free(t);
	return true;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The thread table is full: forget at least a quarter of it, the threads inside no slice
 * first, then those used least recently. One O(n log n) pass per n/4 new threads keeps a
 * new thread O(log n) amortised (a sweep per insert made 40,000 threads take 30 s).
 */
static void threads_evict(struct procs *ps, struct slices *ss, uint64_t *evicted)
{
	size_t want = CAP_THREADS / 4, idle = 0, n = 0;
	struct thread_drop d = { .ss = ss };
	uint64_t *used;

	for (size_t i = 0; i < ps->by_tid.cap; i++) {
		struct thread *t = ps->by_tid.s[i].v;

		if (t && slices__thread_idle(&t->slices))
			idle++;
	}
	if (idle < want && (used = malloc(ps->by_tid.cnt * sizeof(*used)))) {
		for (size_t i = 0; i < ps->by_tid.cap; i++) {
			struct thread *t = ps->by_tid.s[i].v;

			if (t && !slices__thread_idle(&t->slices))
				used[n++] = t->used;
		}
		qsort(used, n, sizeof(*used), u64_cmp);
		if (n)
			d.before = used[(want - idle < n ? want - idle : n) - 1];
		free(used);
	}
	ps->last_thread = NULL; /* it may be dropped */
	sweep_count(&ps->by_tid, thread_drop, &d, evicted);
}

struct thread *procs__thread_get(struct procs *ps, struct slices *ss, uint32_t pid, uint32_t tid,
				 uint64_t *evicted, bool *fresh)
{
	struct thread *t = procs__thread_find(ps, tid);

	*fresh = false;
	if (!t) {
		if (ps->by_tid.cnt >= CAP_THREADS)
			threads_evict(ps, ss, evicted);
		if (ps->by_tid.cnt >= CAP_THREADS) { /* no memory to sweep: turn it away */
			(*evicted)++;
			return NULL;
		}
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
	t->used = ++ps->tick;
	ps->last_thread = t;
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
