// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Static builds (arm64): both copies are linked into animsim (no late mapping there). */
#include "dyn_load.h"

const struct dyn_fixture_methods *dyn_load_framework(const char *art_path, char *err,
						     size_t err_size)
{
	(void)art_path;
	(void)err;
	(void)err_size;
	return dyn_fixture_framework();
}

const struct dyn_fixture_methods *dyn_load_androidx(char *err, size_t err_size)
{
	(void)err;
	(void)err_size;
	return dyn_fixture_androidx();
}
