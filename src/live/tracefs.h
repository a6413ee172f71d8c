/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Finding the trace_marker files apps write to (mounting tracefs when needed). */
#ifndef ANIMTRACE_TRACEFS_H
#define ANIMTRACE_TRACEFS_H

#include <stdint.h>

#include "animtrace/wire.h"

#define TRACEFS_MAX_MARKERS AT_MARKER_FILES_MAX /* as many as the BPF program compares */

struct marker_file {
	char path[128];
	uint64_t ino;
	uint32_t dev; /* kernel-internal dev_t (MAJOR << 20 | MINOR), as in sb->s_dev */
};

/*
 * Stats the trace_marker paths Android uses (/sys/kernel/tracing first, then the
 * debugfs one), mounting tracefs on /sys/kernel/tracing when nothing is there and
 * may_mount is set. Distinct inodes are listed once. Returns the count (>= 1) or a
 * negative errno (-ENOENT when no marker file exists).
 */
int tracefs_find_markers(struct marker_file *out, int max, int may_mount);

#endif
