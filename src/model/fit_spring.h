/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * DynamicAnimation's SpringForce fitted to a series (internal to fit*.c; the sources are cited
 * in fit.c): x(t) - xf = (x0 - xf) c(t) + b s(t), over natural frequency w and damping ratio
 * z, with the rest position pinned to the last sample when the run ended at rest.
 */
#ifndef ANIMTRACE_FIT_SPRING_H
#define ANIMTRACE_FIT_SPRING_H

#include <stdbool.h>
#include <stddef.h>

#include "model/fit.h"
#include "model/fit_core.h"

struct spring_fit {
	double w, z, xf, b, v0, rss;
	bool ok;
};

/* The best spring for d; out->ok when it is one that explains the run (not an alias, not
 * pinned to the search box, resting near the run). */
void spring_fit(const struct series *d, struct spring_fit *out);

/*
 * Overshoot (in % of the travel from x0) and 2 % settling time of the fitted curve, scanned
 * over the run (t_end, s) or until its envelope has decayed a thousandfold, whichever is
 * longer (at most a minute).
 */
void spring_shape(const struct spring_fit *f, double x0, double t_end, double *os_pct,
		  double *settle_ms);

#endif
