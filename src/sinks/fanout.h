/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * One engine, several outputs: a sink that hands every record to each of its sinks, in the
 * order they were added. Its callbacks are generated from AT_SINK_OPS (model.h), so every
 * callback of struct sink_ops reaches every sink; a sink's NULL callback is skipped.
 *
 * Errors: each sink gets the record even when one before it failed, and the first error is
 * returned; the engine then sends nothing more to any of them (engine__sink_error).
 */
#ifndef ANIMTRACE_SINK_FANOUT_H
#define ANIMTRACE_SINK_FANOUT_H

#include "model/model.h"

struct sink_fanout;

/* An empty fan-out. Returns NULL and sets errno. */
struct sink_fanout *sink_fanout__new(void);

/* Appends s (its ops not NULL; it must outlive f). 0, -EINVAL or -ENOMEM. */
int sink_fanout__add(struct sink_fanout *f, struct sink s);

/* The engine-facing view of f, valid until sink_fanout__free. */
struct sink sink_fanout__sink(struct sink_fanout *f);

/* Frees f, not its sinks; accepts NULL. */
void sink_fanout__free(struct sink_fanout *f);

#endif
