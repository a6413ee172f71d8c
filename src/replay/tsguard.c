// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Capture timestamps that are damage. See tsguard.h. */
#include <stdlib.h>

#include "model/input.h"
#include "replay/tsguard.h"

void ts_guard_init(struct ts_guard *g, bool has_anchor, uint64_t anchor)
{
	*g = (struct ts_guard){ .anchor = anchor, .has_anchor = has_anchor };
}

/* ts may follow ref: at most INPUT_TS_BACK_NS before it, INPUT_TS_FORWARD_NS after it. */
static bool follows(uint64_t ref, uint64_t ts)
{
	return ts >= ref ? ts - ref <= INPUT_TS_FORWARD_NS : ref - ts <= INPUT_TS_BACK_NS;
}

/* Within a day either way: the test for the first timestamp against the anchor. */
static bool near(uint64_t a, uint64_t b)
{
	return (a > b ? a - b : b - a) <= INPUT_TS_FORWARD_NS;
}

bool ts_guard_accept(struct ts_guard *g, uint64_t ts)
{
	if (ts > INPUT_TS_MAX)
		return false;
	if (!g->started) {
		if (g->has_anchor && !near(ts, g->anchor))
			return false;
		g->started = true;
		g->last = ts;
		return true;
	}
	if (follows(g->last, ts)) {
		g->last = ts > g->last ? ts : g->last;
		g->run_n = 0;
		return true;
	}
	g->run_n = g->run_n && follows(g->run_last, ts) ? g->run_n + 1 : 1;
	g->run_last = ts > g->run_last || g->run_n == 1 ? ts : g->run_last;
	if (g->run_n < TS_GUARD_REBASE)
		return false;
	g->last = g->run_last;
	g->run_n = 0;
	return true;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t ts_guard_median(uint64_t *ts, size_t n)
{
	qsort(ts, n, sizeof(*ts), cmp_u64);
	return ts[n / 2];
}
