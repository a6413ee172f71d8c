// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "live/tracefs.h"

static const char *const marker_paths[] = {
	"/sys/kernel/tracing/trace_marker",	  /* tracefs, Android 12+ opens this first */
	"/sys/kernel/debug/tracing/trace_marker", /* debugfs automount, Android 11 and earlier */
};

static int add_marker(struct marker_file *out, int n, int max, const char *path)
{
	struct stat st;

	if (n >= max || stat(path, &st))
		return n;
	/* glibc's dev_t encoding differs from the kernel's sb->s_dev: rebuild the latter. */
	uint32_t dev = (major(st.st_dev) << 20) | minor(st.st_dev);

	for (int i = 0; i < n; i++)
		if (out[i].ino == st.st_ino && out[i].dev == dev)
			return n;
	snprintf(out[n].path, sizeof(out[n].path), "%s", path);
	out[n].ino = st.st_ino;
	out[n].dev = dev;
	return n + 1;
}

int tracefs_find_markers(struct marker_file *out, int max, int may_mount)
{
	int n = 0;

	for (size_t i = 0; i < sizeof(marker_paths) / sizeof(marker_paths[0]); i++)
		n = add_marker(out, n, max, marker_paths[i]);
	if (n == 0 && may_mount) {
		if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) && errno != EBUSY)
			return -errno;
		n = add_marker(out, n, max, marker_paths[0]);
	}
	return n ? n : -ENOENT;
}
