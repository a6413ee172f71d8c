/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The display period (vsync interval) of one process, from time alone, and the vsync grid its
 * frames are judged against. Named "period", not "refresh", so it is not confused with
 * --refresh (redraws and storms).
 *
 * Vsync ids (`Choreographer#doFrame <id>`, Android 12+) are FrameTimeline tokens: they rise
 * by several, irregularly, per vsync (SurfaceFlinger's TokenManager makes one per
 * prediction), so they never measure time. The samples are intervals shorter than 50 ms:
 * between consecutive doFrame (or onVsync) starts of one thread, and, exact when a capture
 * has them, between SurfaceFlinger's VSYNC-app toggles or FrameTimeline's expected starts.
 * A late start lengthens one interval and shortens the next (the caller averages pairs of
 * them); skipped vsyncs lengthen intervals to multiples. So the estimate is taken from the
 * lower envelope (a 50 us histogram: bounded, exact enough): the median of the samples
 * within 12.5 % of a third or a half of the median when a fifth of them are there, else of
 * those around the median; snapped to the nearest standard display rate when within 2 % (24,
 * 30, 48, 50, 60, 72, 90, 96, 120, 144 or 165 Hz). Exact samples win once there are 8; with fewer
 * than 8 samples of either kind it is 16.67 ms, "assumed". Pure: no I/O, no clock.
 */
#ifndef ANIMTRACE_PERIOD_H
#define ANIMTRACE_PERIOD_H

#include <stdbool.h>
#include <stdint.h>

#define PERIOD_ASSUMED_NS 16666667ull
#define PERIOD_MIN_SAMPLES 8
#define PERIOD_MAX_INTERVAL_NS 50000000ull /* longer intervals are idle gaps, not periods */

enum period_source {
	PERIOD_ASSUMED = 0, /* fewer than PERIOD_MIN_SAMPLES samples */
	PERIOD_INTERVALS,   /* from doFrame / onVsync start intervals */
	PERIOD_VSYNC,	    /* from SurfaceFlinger's vsyncs (VSYNC-app, FrameTimeline) */
};

struct period;

/* Returns NULL and sets errno. */
struct period *period__new(void);

/* An interval between consecutive frame starts of one thread; 0 and 50 ms or more are
 * ignored. */
void period__add(struct period *r, uint64_t dt_ns);

/* An interval between two vsyncs SurfaceFlinger reported (a multiple of the period). */
void period__add_vsync(struct period *r, uint64_t dt_ns);

/* The current estimate and where it comes from (r and src may be NULL; r NULL: assumed). */
uint64_t period__period(struct period *r, enum period_source *src);

/* "vsync", "intervals", "assumed". */
const char *period_source_str(enum period_source s);

/* Accepts NULL. */
void period__free(struct period *r);

/*
 * The vsync grid: anchor + k * period. Anchored exactly on a vsync SurfaceFlinger reported,
 * else on the lower envelope of frame starts (a start earlier in the period than the grid
 * says moves the grid there; late starts never do).
 */
struct period_grid {
	uint64_t anchor_ns;    /* 0: none yet */
	uint64_t since_ns;     /* when the anchor was last set */
	uint64_t min_phase_ns; /* the earliest start in the period since then */
	bool exact;	       /* the anchor is a reported vsync */
};

/* A vsync at ts_ns (VSYNC-app toggle, FrameTimeline expected start): the grid's anchor. */
void period__grid_vsync(struct period_grid *g, uint64_t ts_ns);

/* A frame began at start_ns: the latest grid point at or before it (the start itself when
 * the grid moves to it). */
uint64_t period__grid_floor(struct period_grid *g, uint64_t period_ns, uint64_t start_ns);

/* Vsyncs skipped between frames whose vsyncs were prev_ns and ns (0 when consecutive). */
uint32_t period__skipped(uint64_t prev_ns, uint64_t ns, uint64_t period_ns);

#endif
