// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Dynamic builds: the tables come from the mapped boot oat and a base.odex mapped late. */
#include <limits.h>

#include "dyn_load.h"
#include "fixture_dl.h"

const struct dyn_fixture_methods *dyn_load_framework(const char *art_path, char *err,
						     size_t err_size)
{
	return fixture_dl(art_path, "dyn_fixture_framework", err, err_size);
}

const struct dyn_fixture_methods *dyn_load_androidx(char *err, size_t err_size)
{
	char path[PATH_MAX];

	if (fixture_default_path("base.odex", path, sizeof(path)))
		return NULL;
	return fixture_dl(path, "dyn_fixture_androidx", err, err_size);
}
