/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The heap reader wired to live processes (issue #24): for each traced process, what the
 * reader needs, found on the device as ART itself finds it, through the process's own root
 * (/proc/PID/root), so a process in another mount namespace is read from its own files:
 *   - the SDK level: ro.build.version.sdk of $ANDROID_ROOT/build.prop (ANDROID_ROOT from the
 *     process's environment, /system when unset: Android's init.environ.rc exports it), else
 *     getprop;
 *   - the boot class path: $BOOTCLASSPATH from /proc/PID/environ (zygote's, inherited by every
 *     app), each jar's classes.dex, classes2.dex, ... added under ART's dex locations
 *     ("<jar>" and "<jar>!classes<N>.dex": DexFileLoader::GetMultiDexLocation; '!' since
 *     Android 8.0, ':' before);
 *   - the Java heap: the mappings of /proc/PID/maps below 4 GiB named dalvik-* (the spaces:
 *     main, region, zygote, non moving, large object) or *.art (boot image);
 * then decodes the animator (or DynamicAnimation) object the start probe copied the head of (AT_REC_ART_OBJ), the
 * copy standing in for the process's memory over its bytes. The first failure disables the
 * reader for that process (one reason is returned once; never a value from a failed read).
 */
#ifndef ANIMTRACE_HEAPLIVE_H
#define ANIMTRACE_HEAPLIVE_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

#define HEAPLIVE_PROCS 32 /* processes read at once; more are not read (counted) */

struct heaplive;

/* proc_root: "/proc" (NULL for that) unless testing. NULL with errno. */
struct heaplive *heaplive__new(const char *proc_root);

void heaplive__free(struct heaplive *hl);

/*
 * The configuration of the animator at obj in process pid, whose first len bytes the probe
 * copied into head. 0 with c filled; -EAGAIN: the reader is off for pid (said before);
 * other -errno: it failed now and is off for pid from now on: *why says why, once (valid
 * until the next call).
 */
int heaplive__read(struct heaplive *hl, uint32_t pid, uint64_t obj, const void *head, size_t len,
		   struct anim_config *c, const char **why);

/* The same for the DynamicAnimation at obj (live/dynconfig.h), copied at its start(): one
 * reader per process serves both, and a failure of either turns it off. */
int heaplive__read_dyn(struct heaplive *hl, uint32_t pid, uint64_t obj, const void *head,
		       size_t len, struct dyn_config *c, const char **why);

/* pid exited: its reader goes. */
void heaplive__forget(struct heaplive *hl, uint32_t pid);

/* Configurations read, reads that failed, processes beyond HEAPLIVE_PROCS left unread. */
void heaplive__counts(const struct heaplive *hl, uint64_t *read, uint64_t *failed,
		      uint64_t *unread);

#endif
