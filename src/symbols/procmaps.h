/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Which files a process has mapped, from <proc_root>/<pid>/maps. */
#ifndef ANIMTRACE_PROCMAPS_H
#define ANIMTRACE_PROCMAPS_H

#include <stddef.h>

/*
 * The path of the first file pid maps whose name (the part after the last '/') is name
 * (so "libhwui.so" does not match "/x/libnotlibhwui.so"). 0 with path set, -ENOENT when
 * none is mapped, -errno when maps cannot be read.
 */
int procmaps_find(const char *proc_root, int pid, const char *name, char *path, size_t cap);

/*
 * The distinct paths of the files pid maps that keep accepts, in maps order: fills up to max
 * entries of cap bytes at paths and returns how many it kept, max + 1 when there were more,
 * or -errno when maps cannot be read.
 */
int procmaps_all(const char *proc_root, int pid, int (*keep)(const char *path), char *paths,
		 size_t cap, int max);

#endif
