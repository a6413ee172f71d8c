/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Fake /proc trees for unit tests: <root>/<pid>/maps with the given text. */
#ifndef ANIMTRACE_TESTS_FAKE_PROC_H
#define ANIMTRACE_TESTS_FAKE_PROC_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <sys/stat.h>

static inline void fake_maps(const char *root, int pid, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d", root, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%d/maps", root, pid);
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

#endif
