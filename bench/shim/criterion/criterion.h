/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The checks of tests/e2e/e2e.c for bench/: the same file is built against this header
 * instead of Criterion's, whose cr_assert may only run inside a Criterion test. Here a failed
 * check is a failed benchmark: bench_check_failed() prints it and exits, and the exit handler
 * (e2e_teardown) ends every child. Only the macros e2e.c uses are here.
 */
#ifndef ANIMTRACE_BENCH_SHIM_CRITERION_H
#define ANIMTRACE_BENCH_SHIM_CRITERION_H

#include <stddef.h>

/* Prints "FILE:LINE: " and the message (fmt, or expr when fmt is ""), then exits 1. No format
 * attribute: most checks have no message, and "" would be a zero-length format. */
_Noreturn void bench_check_failed(const char *file, int line, const char *expr,
				  const char *fmt, ...);

#define cr_assert_fail(...) bench_check_failed(__FILE__, __LINE__, "failed", "" __VA_ARGS__)
#define cr_assert(cond, ...)                                                               \
	do {                                                                               \
		if (!(cond))                                                               \
			bench_check_failed(__FILE__, __LINE__, #cond, "" __VA_ARGS__);     \
	} while (0)
#define cr_assert_not_null(p, ...) cr_assert((p) != NULL, ##__VA_ARGS__)
#define cr_assert_lt(a, b, ...) cr_assert((a) < (b), ##__VA_ARGS__)
#define cr_assert_geq(a, b, ...) cr_assert((a) >= (b), ##__VA_ARGS__)

#endif
