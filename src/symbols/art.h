/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Where a process's ART-compiled animator methods are: the oat file that maps framework.jar
 * code (boot-framework.oat: ValueAnimator, the framework's copy of DynamicAnimation) and the
 * app's own oat files (base.odex: androidx's DynamicAnimation), and the file offsets of the
 * probed methods (one table in art.c) in their MiniDebugInfo. ART names compiled methods
 * without a signature, so overloads share a name: every address counts.
 *
 * An app's odex has MiniDebugInfo only when dex2oat ran with --generate-mini-debug-info:
 * installd (frameworks/native cmds/installd/run_dex2oat.cpp) passes it when the property
 * dalvik.vm.dex2oat-minidebuginfo is true, whose default there is false
 * (kMinidebugInfoSystemPropertyDefault); Pixel builds set it true (ANDROID.md, 5), while
 * several custom ROMs' art.mk set it false. So an app odex may have no symbols: said once.
 */
#ifndef ANIMTRACE_ART_H
#define ANIMTRACE_ART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animtrace/wire.h"

#define ART_PATH_MAX 512
#define ART_OATS_MAX 4 /* oat files probed per process: boot-framework.oat and the app's */

/* Addresses kept per method kind: every overload of every name of that kind. */
#define ART_MAX_ADDRS 8

struct art_addr {
	uint64_t vaddr;
	uint64_t offset; /* file offset for a uprobe */
};

struct art_oat {
	char path[512];
	uint16_t machine;	    /* EM_AARCH64 or EM_X86_64 */
	bool mini_debug_info;	    /* it has a .gnu_debugdata symbol table */
	int n[AT_ART_METHOD_COUNT]; /* addresses kept per kind (0: not compiled) */
	struct art_addr addr[AT_ART_METHOD_COUNT][ART_MAX_ADDRS];
	uint32_t ok_mask; /* bit per enum at_art_method with at least one address */
};

/* "start", "cancel", "end": what the engine calls the kind. */
const char *art_method_kind(enum at_art_method m);

/* The symbol name probed for m, e.g. "android.animation.ValueAnimator.cancel" (for kinds
 * with rows in several packages, the first: the framework's copy of DynamicAnimation). */
const char *art_method_name(enum at_art_method m);

/* m is one of DynamicAnimation's (framework copy or androidx), not ValueAnimator's. */
bool art_method_dynamic(enum at_art_method m);

/*
 * Finds the oat file of pid that holds framework code in <proc_root>/<pid>/maps (a path
 * ending in boot-framework.oat). 0 with path set, -ENOENT when none is mapped, or -errno
 * when maps cannot be read.
 */
int art_find_oat(const char *proc_root, int pid, char *path, size_t cap);

/*
 * The oat files of pid that can hold probed methods (boot-framework.oat, *.odex, an app's
 * .oat), in maps order: fills up to max paths and returns how many it kept (max + 1: there
 * were more), or -errno when maps cannot be read.
 */
int art_find_oats(const char *proc_root, int pid, char (*paths)[ART_PATH_MAX], int max);

/* path is the boot image's framework oat (else: an app's own compiled code). */
bool art_is_boot_oat(const char *path);

/*
 * Every address of the compiled method called name in the ELF at path, in vaddr order:
 * fills up to max and returns how many there are (0 when not compiled), or -errno when
 * the file cannot be read (-EINVAL: not ELF).
 */
int art_find_method(const char *path, const char *name, struct art_addr *out, int max);

/*
 * Resolves every method kind in the oat at path. 0 when at least one is compiled,
 * -ENOENT when none is, -errno when the file cannot be read. Methods left out of ok_mask
 * are not AOT-compiled on this device (they run interpreted or JIT: nothing to probe).
 */
int art_resolve(const char *path, struct art_oat *out);

/* Comma-separated names of the ValueAnimator methods missing from o ("" when none). */
void art_missing(const struct art_oat *o, char *buf, size_t cap);

/* Comma-separated roles (art_method_kind) of the DynamicAnimation kinds missing from o. */
void art_missing_dynamic(const struct art_oat *o, char *buf, size_t cap);

#endif
