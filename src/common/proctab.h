/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* A table of process/thread ids -> names and owning process, for live and replay. */
#ifndef ANIMTRACE_PROCTAB_H
#define ANIMTRACE_PROCTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROCTAB_NAME_MAX 64

struct proctab;

struct proctab *proctab__new(void);
void proctab__free(struct proctab *t);

/* Every set may evict an entry once the table holds CAP_PROC_IDS (common/caps.h): the ids set
 * least recently, by CLOCK. */

/* Sets the name of id (truncated to PROCTAB_NAME_MAX - 1). Returns 0 or -ENOMEM. */
int proctab__set_name(struct proctab *t, uint32_t id, const char *name, size_t len);

/* Records that thread id belongs to process tgid. Returns 0 or -ENOMEM. */
int proctab__set_tgid(struct proctab *t, uint32_t id, uint32_t tgid);

/*
 * What a line shows of thread id in one look-up: its name (len 0: none), kept when one is
 * known unless replace, and its process (tgid 0: none). The same as proctab__name, then
 * proctab__set_name, then proctab__set_tgid. Returns 0, -EINVAL (id 0) or -ENOMEM.
 */
int proctab__learn(struct proctab *t, uint32_t id, uint32_t tgid, const char *name, size_t len,
		   bool replace);
/* The name of id, or NULL when none is known. Valid until the next set on t. */
const char *proctab__name(const struct proctab *t, uint32_t id);

/* The process of thread id, or 0 when unknown. */
uint32_t proctab__tgid(const struct proctab *t, uint32_t id);

/* Forgets id. */
void proctab__remove(struct proctab *t, uint32_t id);

/* Entries evicted so far. */
uint64_t proctab__evicted(const struct proctab *t);

/* Calls fn for every id that has a name. */
void proctab__for_each(const struct proctab *t,
		       void (*fn)(void *ctx, uint32_t id, const char *name), void *ctx);

#endif
