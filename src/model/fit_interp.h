/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The framework interpolators fitted to a series (internal to fit*.c; fit_interpolator in
 * fit.h is defined here too): each curve's duration (and start, within a few ms) is searched
 * on a grid, the nearest few refined by Levenberg-Marquardt; a curve is named when the rms of
 * the normalised run (travel 1) is within INTERP_RMS_MAX (fit_interp.c).
 */
#ifndef ANIMTRACE_FIT_INTERP_H
#define ANIMTRACE_FIT_INTERP_H

#include <stdbool.h>
#include <stddef.h>

#include "model/fit.h"
#include "model/fit_core.h"

struct interp_fit {
	const char *name; /* NULL: none within INTERP_RMS_MAX */
	double rms;	  /* the closest one's, normalised */
	double dur;	  /* s */
};

/*
 * fit_run's animator: from the first sample (fraction 0) to the last (fraction 1). False
 * when the run does not travel; else out holds the closest curve.
 */
bool interp_run(const struct series *d, struct interp_fit *out);

#endif
