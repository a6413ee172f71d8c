// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Static builds (arm64): the ART fixture is linked into animsim, so its methods sit in
 * animsim's own MiniDebugInfo and a tracer resolves them in /proc/<pid>/exe.
 */
#include <stdio.h>

#include "art_load.h"

int art_default_path(char *buf, size_t size)
{
	snprintf(buf, size, "/proc/self/exe");
	return 0;
}

const struct art_fixture_methods *art_load(const char *path, char *err, size_t err_size)
{
	(void)path;
	(void)err;
	(void)err_size;
	return art_fixture_methods();
}
