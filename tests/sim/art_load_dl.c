// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Dynamic builds: boot-framework.oat is mapped from its own file, as in an Android app. */
#include "art_load.h"
#include "fixture_dl.h"

int art_default_path(char *buf, size_t size)
{
	return fixture_default_path("boot-framework.oat", buf, size);
}

const struct art_fixture_methods *art_load(const char *path, char *err, size_t err_size)
{
	return fixture_dl(path, "art_fixture_methods", err, err_size);
}
