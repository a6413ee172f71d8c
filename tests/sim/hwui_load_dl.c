// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Dynamic builds: libhwui.so is mapped from its own file, as it is in an Android app. */
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
