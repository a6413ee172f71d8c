/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A curve: one value per frame of one property, kept for a fit in bounded memory. Its first
 * sample, then one every `stride` frames: when CAP_SEG_SAMPLES are kept, every other one goes
 * and the stride doubles, so a curve of any length keeps its shape from start to end; the
 * last frame's sample (`tail`) is kept apart, kept in the array or not. Used by the unmarked
 * animations (segment) and the DynamicAnimation runs (dynanims).
 */
#ifndef ANIMTRACE_ENGINE_CURVE_H
#define ANIMTRACE_ENGINE_CURVE_H

#include <stddef.h>
#include <stdint.h>

#include "common/caps.h"
#include "model/fit.h"

struct curve {
	struct fit_sample s[CAP_SEG_SAMPLES];
	struct fit_sample tail; /* the last frame's sample */
	uint16_t n;
	uint32_t stride, added; /* one kept every stride frames after the first */
};

/* The value v of the frame at t_ns; a second value of the same frame replaces the first (the
 * frame shows its last). */
void curve__add(struct curve *c, uint64_t t_ns, float v);

/* The samples for a fit into out (room for CAP_SEG_SAMPLES + 1): the kept ones, then the
 * last frame's when it was not kept; returns how many. */
size_t curve__samples(const struct curve *c, struct fit_sample *out);

#endif
