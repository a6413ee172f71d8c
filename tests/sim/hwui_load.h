/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * How animsim reaches the fixture libhwui. Two builds implement this: hwui_load_dl.c maps the
 * stripped libhwui.so with dlopen (dynamic builds, as on Android), hwui_load_linked.c returns
 * the table of the fixture object linked into animsim itself (static builds, where dlopen
 * cannot load a library).
 */
#ifndef ANIMSIM_HWUI_LOAD_H
#define ANIMSIM_HWUI_LOAD_H

#include <stddef.h>

#include "hwui_fixture.h"

/* Where the setters live when `path` is not given: next to the executable, or itself. */
int hwui_default_path(char *buf, size_t size);
/* The fixture's table, or NULL with a reason in err. */
const struct hwui_fixture_methods *hwui_load(const char *path, char *err, size_t err_size);

/* The fixture libandroid_runtime's table (--scenario refresh), or NULL with a reason in err. */
const struct runtime_fixture_methods *runtime_load(char *err, size_t err_size);

#endif /* ANIMSIM_HWUI_LOAD_H */
