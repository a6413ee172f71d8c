/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * How animsim reaches the ART fixture, like hwui_load.h: art_load_dl.c maps the stripped
 * boot-framework.oat with dlopen (dynamic builds; on Android the oat is mapped from its own
 * file too), art_load_linked.c returns the table of the fixture linked into animsim (static).
 */
#ifndef ANIMSIM_ART_LOAD_H
#define ANIMSIM_ART_LOAD_H

#include <stddef.h>

#include "art_fixture.h"

/* Where the methods live when `path` is not given: next to the executable, or itself. */
int art_default_path(char *buf, size_t size);
/* The fixture's table, or NULL with a reason in err. */
const struct art_fixture_methods *art_load(const char *path, char *err, size_t err_size);

#endif /* ANIMSIM_ART_LOAD_H */
