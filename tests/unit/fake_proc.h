/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Fake /proc trees for unit tests: <root>/<pid>/maps (or any file) with the given text; temp_tree_remove
 * takes such a tree (any temporary directory a test made) away again. */
#ifndef ANIMTRACE_TESTS_FAKE_PROC_H
#define ANIMTRACE_TESTS_FAKE_PROC_H

#include <criterion/criterion.h>
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* <root>/<pid>/<name> holding text. */
static inline void fake_proc_file(const char *root, int pid, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d", root, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%d/%s", root, pid, name);
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

static inline void fake_maps(const char *root, int pid, const char *text)
{
	fake_proc_file(root, pid, "maps", text);
}

static inline int temp_tree_unlink(const char *path, const struct stat *st, int type,
				   struct FTW *ftw)
{
	(void)st, (void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

/* Removes root and everything under it (not following symlinks); asserts it all went. */
static inline void temp_tree_remove(const char *root)
{
	cr_assert_eq(nftw(root, temp_tree_unlink, 16, FTW_DEPTH | FTW_PHYS), 0, "removing %s",
		     root);
}

#endif
