/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * How the simulator reaches the DynamicAnimation fixtures (dyn_fixture.h): dynamic builds look
 * the framework's table up in the boot oat already mapped and dlopen the app's base.odex when
 * asked (late, like an app's class loader); static builds have both linked in.
 */
#ifndef ANIMSIM_DYN_LOAD_H
#define ANIMSIM_DYN_LOAD_H

#include <stddef.h>

#include "dyn_fixture.h"

/* The framework copy's table from the boot oat at art_path; NULL with err set. */
const struct dyn_fixture_methods *dyn_load_framework(const char *art_path, char *err,
						     size_t err_size);

/* Maps the app's base.odex (next to the executable) and returns androidx's table; NULL with
 * err set. */
const struct dyn_fixture_methods *dyn_load_androidx(char *err, size_t err_size);

#endif
