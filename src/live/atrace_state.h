/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the tracing properties were before animtrace changed them, on disk, so that a run
 * that dies without restoring them (SIGKILL, a crash, the battery) is undone by the next one
 * instead of becoming its baseline for ever.
 *
 * One small text file per run, <dir>/animtrace-atrace.<pid>.state, written (atomically:
 * a file of unguessable name, renamed over it) before each property is first written, and
 * removed once they are all restored. It names the writer: its pid, its start time (field 22
 * of /proc/<pid>/stat) and the boot id, and lists each property with its previous value, in
 * the order they are to be restored. A file whose writer is no longer running (no such pid, or
 * another start time) is stale; one from before a reboot is obsolete (a reboot resets the
 * debug.* properties: restoring would undo that). Only regular files owned by this user, and
 * only debug.atrace.* properties in them, are ever acted on.
 *
 * The directory is $ANIMTRACE_STATE_DIR, else /data/local/animtrace: a directory only root
 * can write (its parent /data/local is root 0751 on every Android: system/core
 * rootdir/init.rc `mkdir /data/local 0751 root root`), not /data/local/tmp, where the shell
 * user can plant a FIFO or a link at any name (`mkdir /data/local/tmp 0771 shell shell`).
 * It is made 0700 when missing, and refused (never used, said by the caller) when it is a
 * symbolic link, another user's, or writable by a group or others. Every file in it is
 * opened relative to it, O_NOFOLLOW | O_NONBLOCK, and read only when fstat says it is a
 * regular file: a FIFO there cannot hang a run. Tests point it at their fake property store.
 */
#ifndef ANIMTRACE_ATRACE_STATE_H
#define ANIMTRACE_ATRACE_STATE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "live/atrace_setup.h"

#define ATRACE_STATE_DIR_ENV "ANIMTRACE_STATE_DIR"
#define ATRACE_STATE_DIR_DEFAULT "/data/local/animtrace"
#define ATRACE_STATE_PROPS_MAX (2 * ATRACE_SETUP_APPS_MAX + 3)

struct atrace_state_prop {
	char name[40];
	char old[ATRACE_SETUP_VALUE_MAX + 1]; /* "" = unset */
};

enum atrace_state_owner {
	ATRACE_STATE_GONE,     /* its writer is not running: restore it */
	ATRACE_STATE_REBOOTED, /* written before the last boot: only remove it */
};

/* A state file read back. */
struct atrace_state {
	char path[PATH_MAX]; /* <dir>/<name>, for messages */
	size_t dir_len;	     /* where <dir> ends in path */
	int pid;
	unsigned long long start;
	enum atrace_state_owner owner;
	size_t n;
	struct atrace_state_prop props[]; /* in restore order */
};

/* $ANIMTRACE_STATE_DIR, else ATRACE_STATE_DIR_DEFAULT. */
const char *atrace_state_dir(void);

/* Why err (from the functions below) happened, for a message: a refused directory said as
 * such, else strerror. */
const char *atrace_state_strerror(int err);

/* This process's state file in dir (made when missing), (re)written whole with props.
 * 0 or -errno (-ELOOP, -EPERM: dir refused). */
int atrace_state_save(const char *dir, const struct atrace_state_prop *props, size_t n);

/* Removes this process's state file from dir. 0, also when there was none, or -errno. */
int atrace_state_remove(const char *dir);

/*
 * Calls fn for each state file in dir left by a run that is no longer running (pids checked
 * under proc_root, "/proc" but in tests); st is valid during the call. Files of running
 * writers, of other owners, anything but a regular file and those that do not parse are left
 * alone. Returns how many were found, 0 when dir does not exist, or -errno (-ELOOP, -EPERM:
 * dir refused).
 */
int atrace_state_each_stale(const char *dir, const char *proc_root,
			    void (*fn)(void *ctx, const struct atrace_state *st), void *ctx);

/* Removes a stale file once it was dealt with. 0 or -errno. */
int atrace_state_discard(const struct atrace_state *st);

#endif
