// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Dynamic builds: boot-framework.oat is mapped from its own file, as in an Android app. */
#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "art_load.h"

int art_default_path(char *buf, size_t size)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n < 0)
		return -errno;
	exe[n] = '\0';
	if ((size_t)snprintf(buf, size, "%s/boot-framework.oat", dirname(exe)) >= size)
		return -ENAMETOOLONG;
	return 0;
}

const struct art_fixture_methods *art_load(const char *path, char *err, size_t err_size)
{
	const struct art_fixture_methods *(*methods)(void);
	void *lib;

	/* Kept open for the life of the process, like the boot image zygote maps. */
	lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(err, err_size, "%s", dlerror());
		return NULL;
	}
	*(void **)&methods = dlsym(lib, "art_fixture_methods");
	if (!methods) {
		snprintf(err, err_size, "%s: no art_fixture_methods", path);
		dlclose(lib);
		return NULL;
	}
	return methods();
}
