// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Dynamic builds: libhwui.so is mapped from its own file, as it is in an Android app. */
#include <stdio.h>

#include "fixture_dl.h"
#include "hwui_load.h"

int hwui_default_path(char *buf, size_t size)
{
	return fixture_default_path("libhwui.so", buf, size);
}

const struct hwui_fixture_methods *hwui_load(const char *path, char *err, size_t err_size)
{
	return fixture_dl(path, "hwui_fixture_methods", err, err_size);
}

const struct runtime_fixture_methods *runtime_load(char *err, size_t err_size)
{
	char path[4096];

	if (fixture_default_path("libandroid_runtime.so", path, sizeof(path)) < 0) {
		snprintf(err, err_size, "cannot find libandroid_runtime.so");
		return NULL;
	}
	return fixture_dl(path, "runtime_fixture_methods", err, err_size);
}
