/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Property batches (the changes of one frame of a process) and the RenderNodes they change. */
#ifndef ANIMTRACE_ENGINE_PROPS_H
#define ANIMTRACE_ENGINE_PROPS_H

#include "engine/state.h"

void props_flush(struct engine *e, struct proc *p);
void batch_add(struct engine *e, struct proc *p, struct node_st *n, uint64_t ts_ns,
		      uint32_t tid, enum view_prop prop, float value, const uint32_t *writer);
bool node_eq(const void *v, const void *key);
void node_fallback_name(char *buf, size_t size, uint64_t node);
struct node_st *node_get(struct engine *e, struct proc *p, uint64_t node,
				const char *name);
void seg_feed(struct engine *e, struct proc *p, uint64_t ts_ns);

#endif
