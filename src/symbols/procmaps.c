// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "symbols/procmaps.h"

/* The pathname column of a maps line, NUL-terminated in place, or NULL (anonymous). */
static char *mapped_path(char *line)
{
	char *p = strchr(line, '/');

	if (p)
		p[strcspn(p, "\n")] = '\0';
	return p;
}

int procmaps_find(const char *proc_root, int pid, const char *name, char *path, size_t cap)
{
	size_t want = strlen(name);
	char maps[4096], line[1024];
	int ret = -ENOENT;
	FILE *f;

	snprintf(maps, sizeof(maps), "%s/%d/maps", proc_root, pid);
	f = fopen(maps, "re");
	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f)) {
		char *p = mapped_path(line);
		size_t n = p ? strlen(p) : 0;

		if (n > want && p[n - want - 1] == '/' && !strcmp(p + n - want, name)) {
			snprintf(path, cap, "%s", p);
			ret = 0;
		}
	}
	fclose(f);
	return ret;
}

/* path is among the first n of paths (entries of cap bytes). */
static int seen(const char *paths, size_t cap, int n, const char *path)
{
	for (int i = 0; i < n; i++)
		if (!strncmp(paths + (size_t)i * cap, path, cap - 1))
			return 1;
	return 0;
}

int procmaps_all(const char *proc_root, int pid, int (*keep)(const char *path), char *paths,
		 size_t cap, int max)
{
	char maps[4096], line[1024];
	int n = 0, extra = 0;
	FILE *f;

	snprintf(maps, sizeof(maps), "%s/%d/maps", proc_root, pid);
	f = fopen(maps, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *p = mapped_path(line);

		if (!p || !keep(p) || seen(paths, cap, n < max ? n : max, p))
			continue;
		if (n < max)
			snprintf(paths + (size_t)n++ * cap, cap, "%s", p);
		else
			extra = 1;
	}
	fclose(f);
	return extra ? max + 1 : n;
}
