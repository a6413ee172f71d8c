// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "engine/period.h"

#define BUCKET_NS 50000ull /* 0.3 % of 16.7 ms; the median is taken at a bucket's centre */
#define N_BUCKETS (PERIOD_MAX_INTERVAL_NS / BUCKET_NS)
#define SNAP_TOLERANCE 0.02

struct hist {
	uint32_t count[N_BUCKETS];
	uint64_t n;
};

struct period {
	struct hist interval, vsync;
	uint64_t cached; /* the estimate after `cached_at` samples */
	uint64_t cached_at;
	enum period_source cached_src;
};

struct period *period__new(void)
{
	struct period *r = calloc(1, sizeof(*r));

	if (!r)
		errno = ENOMEM;
	return r;
}

void period__free(struct period *r)
{
	free(r);
}

static void add_sample(struct hist *h, uint64_t dt_ns)
{
	uint64_t b = dt_ns / BUCKET_NS;

	if (!dt_ns || b >= N_BUCKETS || h->count[b] == UINT32_MAX)
		return;
	h->count[b]++;
	h->n++;
}

void period__add(struct period *r, uint64_t dt_ns)
{
	add_sample(&r->interval, dt_ns);
}

void period__add_vsync(struct period *r, uint64_t dt_ns)
{
	add_sample(&r->vsync, dt_ns);
}

/* The standard rate's period within SNAP_TOLERANCE of p, else p. */
static uint64_t snap(uint64_t p)
{
	static const unsigned int hz[] = { 24, 30, 48, 50, 60, 72, 90, 96, 120, 144, 165 };

	for (size_t i = 0; i < sizeof(hz) / sizeof(hz[0]); i++) {
		uint64_t std = (1000000000ull + hz[i] / 2) / hz[i];
		double d = (double)p / (double)std - 1.0;

		if (d < SNAP_TOLERANCE && d > -SNAP_TOLERANCE)
			return std;
	}
	return p;
}

/* The bucket holding the k-th sample (1-based). */
static uint64_t kth_bucket(const struct hist *h, uint64_t k)
{
	uint64_t seen = 0;

	for (uint64_t b = 0; b < N_BUCKETS; b++) {
		seen += h->count[b];
		if (seen >= k)
			return b;
	}
	return N_BUCKETS - 1;
}

/* The median of the samples within 12.5 % of bucket c, and (*n) how many there are. */
static uint64_t cluster(const struct hist *h, uint64_t c, uint64_t *n)
{
	uint64_t lo = c - c / 8, hi = c + c / 8 < N_BUCKETS ? c + c / 8 : N_BUCKETS - 1, seen = 0;

	*n = 0;
	for (uint64_t b = lo; b <= hi; b++)
		*n += h->count[b];
	for (uint64_t b = lo; b <= hi; b++) {
		seen += h->count[b];
		if (seen >= (*n + 1) / 2)
			return b * BUCKET_NS + BUCKET_NS / 2;
	}
	return c * BUCKET_NS + BUCKET_NS / 2;
}

/*
 * The lower envelope: skipped vsyncs make intervals multiples of the period, so when a fifth
 * of the samples or more sit at a third or a half of the median, that is the period; else it
 * is the median of the samples around the median. Short outliers (a late start, then an
 * on-time one) never decide it.
 */
static uint64_t envelope(const struct hist *h)
{
	uint64_t m = kth_bucket(h, (h->n + 1) / 2), n, p;

	for (uint64_t div = 3; div >= 2; div--) {
		p = cluster(h, m / div, &n);
		if (n * 5 >= h->n)
			return p;
	}
	return cluster(h, m, &n);
}

/* Recomputed while the estimate settles, then every 16th sample: a walk per frame is waste. */
#define RECOMPUTE_EVERY 16

uint64_t period__period(struct period *r, enum period_source *src)
{
	const struct hist *h = NULL;
	enum period_source s = PERIOD_ASSUMED;
	uint64_t n;

	if (r && r->vsync.n >= PERIOD_MIN_SAMPLES)
		h = &r->vsync, s = PERIOD_VSYNC;
	else if (r && r->interval.n >= PERIOD_MIN_SAMPLES)
		h = &r->interval, s = PERIOD_INTERVALS;
	if (src)
		*src = s;
	if (!h)
		return PERIOD_ASSUMED_NS;
	n = r->vsync.n + r->interval.n;
	if (r->cached_src != s ||
	    (r->cached_at != n && (n < 128 || n - r->cached_at >= RECOMPUTE_EVERY))) {
		r->cached = snap(envelope(h));
		r->cached_at = n;
		r->cached_src = s;
	}
	return r->cached;
}

const char *period_source_str(enum period_source s)
{
	switch (s) {
	case PERIOD_VSYNC:
		return "vsync";
	case PERIOD_INTERVALS:
		return "intervals";
	default:
		return "assumed";
	}
}

/* Frames older than this many periods leave the envelope: the grid follows a slow drift. */
#define GRID_WINDOW 64

void period__grid_vsync(struct period_grid *g, uint64_t ts_ns)
{
	g->anchor_ns = ts_ns;
	g->since_ns = ts_ns;
	g->min_phase_ns = UINT64_MAX;
	g->exact = true;
}

static uint64_t grid_move(struct period_grid *g, uint64_t start_ns)
{
	g->anchor_ns = start_ns;
	g->since_ns = start_ns;
	g->min_phase_ns = UINT64_MAX;
	g->exact = false;
	return start_ns;
}

/*
 * A start earlier in the period than the grid says (in its last quarter: before the grid's
 * next point) moves the grid to it. A grid not set for GRID_WINDOW periods moves by the
 * smallest phase seen since: the envelope of the recent starts.
 */
uint64_t period__grid_floor(struct period_grid *g, uint64_t period_ns, uint64_t start_ns)
{
	uint64_t phase;
	bool fresh;

	if (!g->anchor_ns || !period_ns)
		return grid_move(g, start_ns);
	if (start_ns < g->anchor_ns) {
		if (!g->exact)
			return grid_move(g, start_ns);
		phase = (g->anchor_ns - start_ns) % period_ns;
		return phase ? start_ns - (period_ns - phase) : start_ns;
	}
	fresh = start_ns - g->since_ns <= GRID_WINDOW * period_ns;
	phase = (start_ns - g->anchor_ns) % period_ns;
	if (fresh && g->exact)
		return start_ns - phase;
	if (phase > period_ns - period_ns / 4)
		return grid_move(g, start_ns);
	if (phase < g->min_phase_ns)
		g->min_phase_ns = phase;
	if (!fresh) {
		g->anchor_ns = start_ns - phase + g->min_phase_ns;
		g->since_ns = start_ns;
		g->min_phase_ns = UINT64_MAX;
		g->exact = false;
		phase = (start_ns - g->anchor_ns) % period_ns;
	}
	return start_ns - phase;
}

uint32_t period__skipped(uint64_t prev_ns, uint64_t ns, uint64_t period_ns)
{
	uint64_t k;

	if (!prev_ns || ns <= prev_ns || !period_ns)
		return 0;
	k = (ns - prev_ns + period_ns / 2) / period_ns;
	return k > 1 ? (uint32_t)(k - 1 > UINT32_MAX ? UINT32_MAX : k - 1) : 0;
}
