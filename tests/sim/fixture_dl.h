/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Dynamic builds: a fixture library mapped from its own file, as in an Android app. */
#ifndef ANIMSIM_FIXTURE_DL_H
#define ANIMSIM_FIXTURE_DL_H

#include <stddef.h>

/* <directory of this executable>/file into buf. 0 or -errno. */
int fixture_default_path(const char *file, char *buf, size_t size);

/*
 * dlopens path (kept open for the life of the process, like what zygote preloads) and calls
 * its exported `const void *table(void)`. NULL with err set on failure.
 */
const void *fixture_dl(const char *path, const char *table, char *err, size_t err_size);

#endif
