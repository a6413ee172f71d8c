// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Dynamic builds: libhwui.so is mapped from its own file, as it is in an Android app. */
#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hwui_load.h"

int hwui_default_path(char *buf, size_t size)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n < 0)
		return -errno;
	exe[n] = '\0';
	if ((size_t)snprintf(buf, size, "%s/libhwui.so", dirname(exe)) >= size)
		return -ENAMETOOLONG;
	return 0;
}

const struct hwui_fixture_methods *hwui_load(const char *path, char *err, size_t err_size)
{
	const struct hwui_fixture_methods *(*methods)(void);
	void *lib;

	/* Kept open for the life of the process, like a preloaded zygote library. */
	lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(err, err_size, "%s", dlerror());
		return NULL;
	}
	*(void **)&methods = dlsym(lib, "hwui_fixture_methods");
	if (!methods) {
		snprintf(err, err_size, "%s: no hwui_fixture_methods", path);
		dlclose(lib);
		return NULL;
	}
	return methods();
}
