/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * results.md: a preamble, then sections that each run from a "## " heading line to the next
 * one. A full run writes the file whole; a run of some benchmarks replaces their sections.
 */
#ifndef ANIMTRACE_BENCH_RESULTS_H
#define ANIMTRACE_BENCH_RESULTS_H

#include <stddef.h>

struct section {
	const char *heading; /* its first line, without the newline */
	const char *text;    /* the heading line included */
};

/* Writes text to path through a temporary file renamed over it. 0 or -errno. */
int results_write(const char *path, const char *text);

/* Replaces the sections of path whose heading is one of secs' and keeps the rest. A section
 * path lacks goes before the first section that follows it in order (every heading, in the
 * file's order), else at the end. A missing path is an empty one. 0 or -errno. */
int results_splice(const char *path, const struct section *secs, size_t n,
		   const char *const order[], size_t n_order);

#endif
