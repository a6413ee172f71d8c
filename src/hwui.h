/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Where a process's RenderNode setters are: the library that holds them (libhwui.so on
 * Android 11+, libandroid_runtime.so before), their file offsets (from .dynsym, .symtab or
 * MiniDebugInfo) and the RenderNode field offsets the getters read.
 */
#ifndef ANIMTRACE_HWUI_H
#define ANIMTRACE_HWUI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animtrace/wire.h"

struct hwui_lib {
	char path[512];
	uint16_t machine;                    /* EM_X86_64 or EM_AARCH64 */
	uint64_t setter_off[AT_PROP_COUNT];  /* file offsets for uprobes */
	uint32_t field_off[AT_PROP_COUNT];   /* float field inside RenderNode */
	uint32_t ok_mask;                    /* bit per at_prop whose setter and field are known */
};

/* Called once per property that had to be disabled, with a reason naming the symbol. */
typedef void (*hwui_warn_fn)(void *ctx, const char *msg);

/* "alpha", "translationX", ... (the names ObjectAnimator uses). */
const char *hwui_prop_name(enum at_prop p);

/*
 * Finds the library of pid that holds the setters in <proc_root>/<pid>/maps: libhwui.so,
 * else libandroid_runtime.so. Returns 0 with path set, -ENOENT when neither is mapped, or
 * -errno when maps cannot be read.
 */
int hwui_find_library(const char *proc_root, int pid, char *path, size_t cap);

/*
 * Resolves setters and field offsets in the ELF at path. overrides ("alpha=0x4c,scaleX=108",
 * may be NULL) replace decoded field offsets. Properties whose setter is missing or whose
 * getter has an unknown shape are left out of ok_mask with a warning. Returns 0 when at
 * least one property is usable, -ENODATA when none is (no warning when the library has
 * no setter at all), -EINVAL for bad overrides or a file that is not a readable ELF,
 * -errno (-ENOENT, -EACCES, ...) when the file cannot be opened.
 */
int hwui_resolve(const char *path, const char *overrides, struct hwui_lib *out,
		 hwui_warn_fn warn, void *ctx);

/* What a hwui_resolve error means, for the user. */
const char *hwui_strerror(int err);

#endif
