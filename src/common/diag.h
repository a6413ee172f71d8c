/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The one channel for status lines to the user (stderr), with levels: errors and warnings
 * always, status lines (ready, tracing, stats) by default, debug detail (libbpf, every
 * unwound frame) only with --verbose. Modules return errors; their callers say them here.
 *
 * Lines name processes, paths and properties other parties chose: each line is escaped as a
 * whole (common/termesc.h) where it is printed, so a newline or an escape sequence in a name
 * shows as `\n` or `\x1b` and cannot forge a line or act on the terminal.
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

/* One line: "animtrace: " (warnings "animtrace: warning: "), then fmt escaped, then a
 * newline. At most 1023 bytes of the formatted text. */
void diag(enum diag_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* fmt escaped, no prefix or newline added (stats lines, other libraries' own lines): a
 * newline that ends fmt is kept, any other is shown as `\n`. */
void diag_raw(enum diag_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* diag_raw with a va_list. */
void diag_vraw(enum diag_level level, const char *fmt, va_list ap);

#endif
