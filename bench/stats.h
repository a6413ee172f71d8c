/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Samples in run order and their order statistics. */
#ifndef ANIMTRACE_BENCH_STATS_H
#define ANIMTRACE_BENCH_STATS_H

#include <stddef.h>
#include <stdio.h>

struct samples {
	double *v; /* in the order they were added */
	size_t n, cap;
};

/* Appends x; exits the run when memory is short. */
void samples_add(struct samples *s, double x);
void samples_free(struct samples *s);
double samples_min(const struct samples *s);
double samples_max(const struct samples *s);
/* The middle value; with an even count the mean of the two middle ones. 0 when empty. */
double samples_median(const struct samples *s);
/* The value at index n * p / 100 of the sorted samples (p in [0, 100)). 0 when empty. */
double samples_pct(const struct samples *s, double p);
/* Every value in run order, each printed with fmt (one double), separated by spaces. */
void samples_print(const struct samples *s, FILE *f, const char *fmt);

#endif
