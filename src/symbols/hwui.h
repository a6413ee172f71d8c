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

/*
 * Where a native RenderNode keeps its name and id. Neither offset is exported; both are
 * decoded from code (AOSP core/jni/android_view_RenderNode.cpp for Android 9 and 10,
 * libs/hwui/jni/android_graphics_RenderNode.cpp for 11+, libs/hwui/RenderNode.h):
 * - android_view_RenderNode_create(JNIEnv*, jobject, jstring) does `new RenderNode()`, then
 *   setName(), which strrchr()s the last '.' and calls String8::setTo (or `mName = name`,
 *   String8::operator=, inline around setTo) on `node + offsetof(mName)`;
 * - android_view_RenderNode_getUniqueId(jlong) (Android 10+) returns `mUniqueId` in one load.
 */
struct hwui_node_layout {
	uint32_t name_off;     /* String8 mName: its only member, the C string, is the first word */
	uint32_t uniqueid_off; /* int64_t mUniqueId */
	int name_err;	       /* 0 when name_off is known, else why not: hwui_name_strerror() */
	int uniqueid_err;      /* 0 when uniqueid_off is known; -ENOENT: no getter (Android 9-) */
};

/* A function probed for --refresh: where it is, and which argument holds the RenderNode. */
struct hwui_fn {
	char name[96]; /* the symbol found (with its ".llvm." suffix, if any) */
	uint64_t vaddr;
	uint64_t offset; /* file offset for a uprobe */
	int node_arg;	 /* 2 (finishRecording, 12+), 3 (setDisplayList, 11-), 0 (vsync) */
	int err;	 /* hwui_resolve: 0 when found, else -ENOENT (or -EFAULT: no file bytes) */
};

struct hwui_lib {
	char path[512];
	uint16_t machine;		    /* EM_X86_64 or EM_AARCH64 */
	uint64_t setter_off[AT_PROP_COUNT]; /* file offsets for uprobes */
	uint32_t field_off[AT_PROP_COUNT];  /* float field inside RenderNode */
	uint32_t ok_mask;		    /* bit per at_prop whose setter and field are known */
	/* One probe per call (bpf/animtrace.bpf.c): the setter decoded as a leaf storing the
	 * field (insn_setter_store), so the field is read at its thread's next event. The other
	 * ok_mask setters keep an entry and a return probe; store_err says why. */
	uint32_t one_probe_mask;
	uint64_t setter_vaddr[AT_PROP_COUNT];
	uint64_t store_vaddr[AT_PROP_COUNT]; /* the store to the field, when one_probe_mask */
	int store_err[AT_PROP_COUNT];	     /* else insn_setter_store's error, or -EFAULT */
	struct hwui_node_layout node;	     /* filled whenever the file could be read */
	struct hwui_fn redraw;		     /* the display-list function (--refresh) */
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

struct elfsym;

/*
 * Decodes the RenderNode name and id offsets of the library @s. Returns out->name_err:
 * 0, -ESRCH without android_view_RenderNode_create, -EFAULT when its code is not in the
 * file, -ENOTSUP for a machine other than arm64 and x86_64, -ENOENT when no String8::setTo
 * call in it takes operator new's result plus an offset, -ENOTUNIQ when two such calls
 * disagree. The id's absence (out->uniqueid_err -ENOENT) is not an error.
 */
int hwui_node_layout(const struct elfsym *s, struct hwui_node_layout *out);

/* Why hwui_lib.node.name_err / uniqueid_err left the offset unknown, for the user. */
const char *hwui_name_strerror(int err);
const char *hwui_uniqueid_strerror(int err);

#define HWUI_FIELD_OFF_MAX 0xffff /* the largest RenderNode field offset believed */

/*
 * Parses --hwui-offsets ("alpha=0x4c,scaleX=108": property names as hwui_prop_name, offsets
 * 1 to HWUI_FIELD_OFF_MAX in C notation) into field_off, all of it: 0, or -EINVAL with why
 * saying what is wrong in one phrase. Pure.
 */
int hwui_parse_offsets(const char *spec, uint32_t field_off[AT_PROP_COUNT], char *why, size_t cap);

/*
 * Resolves setters and field offsets in the ELF at path. overrides ("alpha=0x4c,scaleX=108",
 * may be NULL) replace decoded field offsets. Properties whose setter is missing or whose
 * getter has an unknown shape are left out of ok_mask with a warning. Returns 0 when at
 * least one property is usable, -ENODATA when none is (no warning when the library has
 * no setter at all), -EINVAL for bad overrides or a file that is not a readable ELF,
 * -errno (-ENOENT, -EACCES, ...) when the file cannot be opened. out->node is decoded too,
 * whatever it finds, without changing the return value.
 */
int hwui_resolve(const char *path, const char *overrides, struct hwui_lib *out, hwui_warn_fn warn,
		 void *ctx);

/*
 * The function that gives a RenderNode its new display list in @s: Android 12+
 * android_view_DisplayListCanvas_finishRecording(jlong canvas, jlong node) (node_arg 2),
 * else android_view_RenderNode_setDisplayList(JNIEnv*, jobject, jlong node, jlong list)
 * (node_arg 3). 0, -ENOENT when neither is there, -EFAULT when it has no file bytes.
 */
int hwui_redraw_symbol(const struct elfsym *s, struct hwui_fn *out);

/*
 * The vsync request in @s: android::nativeScheduleVsync(JNIEnv*, jclass, jlong) (static, in
 * libandroid_runtime), else android::DisplayEventDispatcher::scheduleVsync() (libgui).
 * 0, -ENOENT or -EFAULT as hwui_redraw_symbol.
 */
int hwui_vsync_symbol(const struct elfsym *s, struct hwui_fn *out);

/* hwui_vsync_symbol of the ELF at path; -errno when it cannot be opened. */
int hwui_resolve_vsync(const char *path, struct hwui_fn *out);

/*
 * The library of pid that requests vsyncs, from <proc_root>/<pid>/maps: libandroid_runtime.so,
 * else libgui.so. 0, -ENOENT when neither is mapped, -errno.
 */
int hwui_find_vsync_library(const char *proc_root, int pid, char *path, size_t cap);

/* Why a setter keeps its return probe (hwui_lib.store_err), for the user. */
const char *hwui_store_strerror(int err);

/* What a hwui_resolve error means, for the user. */
const char *hwui_strerror(int err);

#endif
