/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * FlingAnimation's DragForce fitted to a series (internal to fit*.c; the sources are cited in
 * fit.c): x(t) = x0 + c (e^(f t) - 1), c = v0 / f, over the friction f < 0, with a last
 * sample clamped at min/max left off the curve.
 */
#ifndef ANIMTRACE_FIT_FLING_H
#define ANIMTRACE_FIT_FLING_H

#include <stdbool.h>
#include <stddef.h>

#include "model/fit.h"
#include "model/fit_core.h"

struct fling_fit {
	double f, c, rss;
	size_t m; /* samples on the curve: n, or n - 1 when the last one is a clamp */
	bool ok, at_bound;
};

/* The best fling for d; b (NULL: unknown) are the animation's min/max. out->ok when it only
 * slows down and its friction is inside the search box. */
void fling_fit(const struct series *d, const struct fit_bounds *b, struct fling_fit *out);

#endif
