/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The process and thread tables. */
#ifndef ANIMTRACE_ENGINE_PROCS_H
#define ANIMTRACE_ENGINE_PROCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/coll.h"

struct engine;
struct proc;
struct thread;

/* The processes and threads followed. */
struct procs {
	struct htab by_pid, by_tid;
	struct proc **list; /* creation order, for deterministic flushing */
	size_t n, cap;
};

struct proc *proc_find(struct engine *e, uint32_t pid);
struct proc *proc_get(struct engine *e, uint32_t pid, const char *process);
struct thread *thread_find(struct engine *e, uint32_t tid);
struct thread *thread_get(struct engine *e, uint32_t pid, uint32_t tid);
bool proc_is(void *v, void *ctx);

#endif
