/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Which capture timestamps are time and which are damage. A timestamp past INPUT_TS_MAX,
 * more than INPUT_TS_BACK_NS before the latest accepted one or more than INPUT_TS_FORWARD_NS
 * after it is damage: fed on, one such event made a frame of 584 years. The first timestamp
 * is checked against an anchor (the median of the capture's first ones), so a damaged first
 * event cannot become the baseline; a run of TS_GUARD_REBASE rejected timestamps that agree
 * with each other is a new stretch of time, not damage, and becomes the baseline. Pure.
 */
#ifndef ANIMTRACE_TSGUARD_H
#define ANIMTRACE_TSGUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TS_GUARD_REBASE 16
#define TS_GUARD_ANCHOR_SAMPLES 63

struct ts_guard {
	uint64_t anchor; /* valid when has_anchor */
	uint64_t last;	 /* the latest accepted, valid when started */
	uint64_t run_last;
	uint32_t run_n; /* rejected timestamps in a row that agree with each other */
	bool has_anchor, started;
};

/* anchor: ts_guard_median of the first timestamps; has_anchor false when there were none. */
void ts_guard_init(struct ts_guard *g, bool has_anchor, uint64_t anchor);

/* True when ts is time (the caller feeds the event on), false when it is damage. */
bool ts_guard_accept(struct ts_guard *g, uint64_t ts);

/* The median of ts[0..n) (sorted in place), n > 0. */
uint64_t ts_guard_median(uint64_t *ts, size_t n);

#endif
