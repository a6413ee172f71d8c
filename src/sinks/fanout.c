// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The fan-out (see fanout.h): one forwarder per entry of AT_SINK_OPS, written once, below.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>

#include "sinks/fanout.h"

struct sink_fanout {
	struct sink *sinks;
	size_t n, cap;
};

/* A callback declared in struct sink_ops but not through AT_SINK_OPS would get no forwarder. */
enum {
#define FANOUT_INDEX(cb, type) FANOUT_##cb,
	AT_SINK_OPS(FANOUT_INDEX)
#undef FANOUT_INDEX
		FANOUT_CALLBACKS
};
static_assert(sizeof(struct sink_ops) == FANOUT_CALLBACKS * sizeof(int (*)(void *, const void *)),
	      "struct sink_ops has a callback that is not in AT_SINK_OPS (model.h)");

#define FANOUT_FORWARD(cb, type)                                          \
	static int fanout_##cb(void *ctx, type rec)                       \
	{                                                                 \
		const struct sink_fanout *f = ctx;                        \
		int err = 0;                                              \
                                                                          \
		for (size_t i = 0; i < f->n; i++) {                       \
			const struct sink *s = &f->sinks[i];              \
			int e = s->ops->cb ? s->ops->cb(s->ctx, rec) : 0; \
                                                                          \
			err = err ? err : e;                              \
		}                                                         \
		return err;                                               \
	}
AT_SINK_OPS(FANOUT_FORWARD)
#undef FANOUT_FORWARD

static const struct sink_ops fanout_ops = {
#define FANOUT_OP(cb, type) .cb = fanout_##cb,
	AT_SINK_OPS(FANOUT_OP)
#undef FANOUT_OP
};

struct sink_fanout *sink_fanout__new(void)
{
	struct sink_fanout *f = calloc(1, sizeof(*f));

	if (!f)
		errno = ENOMEM;
	return f;
}

int sink_fanout__add(struct sink_fanout *f, struct sink s)
{
	struct sink *tmp;

	if (!s.ops)
		return -EINVAL;
	if (f->n == f->cap) {
		tmp = realloc(f->sinks, (f->cap ? f->cap * 2 : 4) * sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		f->sinks = tmp;
		f->cap = f->cap ? f->cap * 2 : 4;
	}
	f->sinks[f->n++] = s;
	return 0;
}

struct sink sink_fanout__sink(struct sink_fanout *f)
{
	return (struct sink){ .ops = &fanout_ops, .ctx = f };
}

void sink_fanout__free(struct sink_fanout *f)
{
	if (!f)
		return;
	free(f->sinks);
	free(f);
}
