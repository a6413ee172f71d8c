// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "engine/period.h"

#define BUCKET_NS 50000ull /* 0.3 % of 16.7 ms; the median is taken at a bucket's centre */
#define N_BUCKETS (PERIOD_MAX_INTERVAL_NS / BUCKET_NS)
#define SNAP_TOLERANCE 0.02

struct period {
	uint32_t count[N_BUCKETS];
	uint64_t n_interval, n_vsync;
	uint64_t cached;      /* the estimate after `cached_at` samples */
	uint64_t cached_at;
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

static bool add_sample(struct period *r, uint64_t period_ns)
{
	uint64_t b = period_ns / BUCKET_NS;

	if (!period_ns || b >= N_BUCKETS || r->count[b] == UINT32_MAX)
		return false;
	r->count[b]++;
	return true;
}

void period__add(struct period *r, uint64_t dt_ns, int64_t dvsync)
{
	if (dvsync > 0)
		r->n_vsync += add_sample(r, dt_ns / (uint64_t)dvsync);
	else if (dvsync == 0 && dt_ns < PERIOD_MAX_INTERVAL_NS)
		r->n_interval += add_sample(r, dt_ns);
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

static uint64_t median(const struct period *r, uint64_t n)
{
	uint64_t seen = 0, half = (n + 1) / 2;

	for (uint64_t b = 0; b < N_BUCKETS; b++) {
		seen += r->count[b];
		if (seen >= half)
			return b * BUCKET_NS + BUCKET_NS / 2;
	}
	return PERIOD_ASSUMED_NS;
}

uint64_t period__period(struct period *r, enum period_source *src)
{
	uint64_t n = r ? r->n_interval + r->n_vsync : 0;

	if (src)
		*src = n < PERIOD_MIN_SAMPLES ? PERIOD_ASSUMED :
		       r->n_vsync >= r->n_interval ? PERIOD_VSYNC : PERIOD_INTERVALS;
	if (n < PERIOD_MIN_SAMPLES)
		return PERIOD_ASSUMED_NS;
	if (r->cached_at != n) { /* a walk of the histogram only when it changed */
		r->cached = snap(median(r, n));
		r->cached_at = n;
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
