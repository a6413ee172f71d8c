/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The JSON records of one type that `animtrace --replay FILE --format json` writes. */
#ifndef ANIMTRACE_TESTS_REPLAY_LINES_H
#define ANIMTRACE_TESTS_REPLAY_LINES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#define REPLAY_ANIMTRACE BUILD_DIR "/animtrace"

/* Its lines of "type":type, concatenated (a malloc'd string); it must exit 0. */
static inline char *replay_lines(const char *path, const char *type)
{
	char cmd[512], line[8192], want[64];
	size_t len = 0, cap = 1 << 16;
	char *out = calloc(1, cap);
	FILE *p;

	cr_assert_not_null(out);
	snprintf(want, sizeof(want), "{\"type\":\"%s\"", type);
	snprintf(cmd, sizeof(cmd), "%s --replay %s --format json 2>/dev/null", REPLAY_ANIMTRACE,
		 path);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	while (fgets(line, sizeof(line), p))
		if (strstr(line, want) == line && len + strlen(line) < cap) {
			memcpy(out + len, line, strlen(line) + 1);
			len += strlen(line);
		}
	cr_assert_eq(pclose(p), 0);
	return out;
}

#endif
