/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The reference line parser (capture_line_ref.c): the old capture_parse_line, for tests. */
#ifndef ANIMTRACE_TESTS_CAPTURE_LINE_REF_H
#define ANIMTRACE_TESTS_CAPTURE_LINE_REF_H

#include <stddef.h>

#include "replay/capture.h"

int capture_parse_line_ref(const char *line, size_t len, struct capture_line *out);

#endif
