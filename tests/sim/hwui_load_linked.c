// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Static builds (arm64): the fixture object is linked into animsim, so the setters' symbols
 * sit in animsim's own MiniDebugInfo and a tracer probes /proc/<pid>/exe instead of libhwui.so.
 */
#include <stdio.h>

#include "hwui_load.h"

int hwui_default_path(char *buf, size_t size)
{
	snprintf(buf, size, "/proc/self/exe");
	return 0;
}

const struct hwui_fixture_methods *hwui_load(const char *path, char *err, size_t err_size)
{
	(void)path;
	(void)err;
	(void)err_size;
	return hwui_fixture_methods();
}

const struct runtime_fixture_methods *runtime_load(char *err, size_t err_size)
{
	(void)err;
	(void)err_size;
	return runtime_fixture_methods();
}
