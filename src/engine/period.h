/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The display period (vsync interval) of one process, estimated from its frames. Named
 * "period", not "refresh", so it is not confused with --refresh (redraws and storms).
 * With Android 12+ vsync ids (`Choreographer#doFrame <id>`) each pair of consecutive frames
 * gives elapsed time / ids advanced; without, each interval shorter than 50 ms between
 * consecutive doFrame starts on one thread is one sample. The estimate is the median of all
 * samples so far (a 50 us histogram: bounded, exact enough), snapped to the nearest standard
 * display rate when within 2 % (devices run 24, 30, 48, 50, 60, 72, 90, 96, 120, 144 or 165 Hz);
 * with fewer than 8 samples it is 16.67 ms, "assumed". Pure: no I/O, no clock.
 */
#ifndef ANIMTRACE_PERIOD_H
#define ANIMTRACE_PERIOD_H

#include <stdint.h>

#define PERIOD_ASSUMED_NS 16666667ull
#define PERIOD_MIN_SAMPLES 8
#define PERIOD_MAX_INTERVAL_NS 50000000ull /* longer intervals are idle gaps, not periods */

enum period_source {
	PERIOD_ASSUMED = 0, /* fewer than PERIOD_MIN_SAMPLES samples */
	PERIOD_INTERVALS,   /* from doFrame start intervals */
	PERIOD_VSYNC,       /* from vsync ids */
};

struct period;

/* Returns NULL and sets errno. */
struct period *period__new(void);

/*
 * One pair of consecutive frames of one thread: dt_ns between their doFrame starts and
 * dvsync vsync ids advanced (0 when either frame had no id). Non-positive dvsync with ids
 * (a repeated or reordered id) and intervals of 50 ms or more without ids are ignored.
 */
void period__add(struct period *r, uint64_t dt_ns, int64_t dvsync);

/* The current estimate and where it comes from (r and src may be NULL; r NULL: assumed). */
uint64_t period__period(struct period *r, enum period_source *src);

/* "vsync", "intervals", "assumed". */
const char *period_source_str(enum period_source s);

/* Accepts NULL. */
void period__free(struct period *r);

#endif
