/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Android system properties through the getprop, setprop and service programs found on
 * PATH (so tests can put fakes first). Each runs with fork+execvp, no shell, in its own
 * process group, and is killed (with its group) and reaped after 5 s in all: a program that
 * hangs never hangs the caller.
 */
#ifndef ANIMTRACE_ANDROIDPROP_H
#define ANIMTRACE_ANDROIDPROP_H

#include <stdbool.h>
#include <stddef.h>

/* True when getprop is an executable on PATH: the sign of an Android device. */
bool androidprop_available(void);

/* The value of name (without getprop's newline; "" when unset). 0 or -errno. */
int androidprop_get(const char *name, char *val, size_t cap);

/* setprop name val. 0 or -errno. */
int androidprop_set(const char *name, const char *val);

/* SYSPROPS_TRANSACTION ('_SPR'): every app re-reads its trace properties. 0 or -errno. */
int androidprop_poke(void);

/* The bound on each program's run time (5000 when ms <= 0); for tests. */
void androidprop_set_timeout_ms(int ms);

#endif
