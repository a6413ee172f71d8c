/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The one channel for status lines to the user (stderr), with levels: errors and warnings
 * always, status lines (ready, tracing, stats) by default, debug detail (libbpf, every
 * unwound frame) only with --verbose. Modules return errors; their callers say them here.
 */
#ifndef ANIMTRACE_DIAG_H
#define ANIMTRACE_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

enum diag_level {
	DIAG_ERROR = 0,
	DIAG_WARN,
	DIAG_INFO,
	DIAG_DEBUG,
};

/* Lines up to max go to f (NULL: stderr); before the first call: stderr, DIAG_INFO. */
void diag_init(FILE *f, enum diag_level max);

/* True when lines of level are shown (to skip building costly debug text). */
bool diag_on(enum diag_level level);

/* One line: "animtrace: " (warnings "animtrace: warning: "), then fmt, then a newline. */
void diag(enum diag_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* fmt exactly as given, no prefix or newline (stats lines, other libraries' own lines). */
void diag_raw(enum diag_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* diag_raw with a va_list. */
void diag_vraw(enum diag_level level, const char *fmt, va_list ap);

#endif
