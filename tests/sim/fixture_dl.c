// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fixture_dl.h"

int fixture_default_path(const char *file, char *buf, size_t size)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n < 0)
		return -errno;
	exe[n] = '\0';
	if ((size_t)snprintf(buf, size, "%s/%s", dirname(exe), file) >= size)
		return -ENAMETOOLONG;
	return 0;
}

const void *fixture_dl(const char *path, const char *table, char *err, size_t err_size)
{
	const void *(*fn)(void);
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (!lib) {
		snprintf(err, err_size, "%s", dlerror());
		return NULL;
	}
	*(void **)&fn = dlsym(lib, table);
	if (!fn) {
		snprintf(err, err_size, "%s: no %s", path, table);
		dlclose(lib);
		return NULL;
	}
	return fn();
}
