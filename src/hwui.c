// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfsym.h"
#include "hwui.h"
#include "insn.h"
#include "model.h"
#include "procmaps.h"

/* JNI function suffixes (props.h). */
static const char *const jni_names[AT_PROP_COUNT] = {
#define PROP_JNI(e, b, j, json, sh) [AT_PROP_##e] = #j,
	AT_PROPS(PROP_JNI)
#undef PROP_JNI
};

const char *hwui_prop_name(enum at_prop p)
{
	return (unsigned)p < AT_PROP_COUNT ? view_prop_str((enum view_prop)p) : "?";
}

/*
 * Static functions in namespace android: _ZN7androidL<len><name><params>, where setters
 * take (jlong, float) -> "Elf" and getters (jlong) -> "El".
 */
static void mangle(char *buf, size_t cap, const char *verb, enum at_prop p)
{
	char fn[64];

	snprintf(fn, sizeof(fn), "android_view_RenderNode_%s%s", verb, jni_names[p]);
	snprintf(buf, cap, "_ZN7androidL%zu%s%s", strlen(fn), fn, verb[0] == 's' ? "Elf" : "El");
}

const char *hwui_strerror(int err)
{
	if (err == -ENODATA)
		return "no RenderNode setter found";
	if (err == -EINVAL)
		return "not a readable ELF file (malformed or truncated: no symbols), or bad --hwui-offsets";
	return strerror(-err);
}

int hwui_find_library(const char *proc_root, int pid, char *path, size_t cap)
{
	int ret = procmaps_find(proc_root, pid, "libhwui.so", path, cap);

	/* Android 10 and earlier keep the RenderNode JNI functions in libandroid_runtime. */
	return ret == -ENOENT ? procmaps_find(proc_root, pid, "libandroid_runtime.so", path, cap)
			      : ret;
}

static void warnf(hwui_warn_fn warn, void *ctx, const char *fmt, const char *a, const char *b)
{
	char msg[256];

	if (!warn)
		return;
	snprintf(msg, sizeof(msg), fmt, a, b);
	warn(ctx, msg);
}

static void resolve_prop(struct elfsym *s, enum at_prop p, struct hwui_lib *out,
			 hwui_warn_fn warn, void *ctx)
{
	struct elfsym_hit set, get;
	char sname[96], gname[96];
	uint8_t code[16];

	mangle(sname, sizeof(sname), "set", p);
	mangle(gname, sizeof(gname), "get", p);
	if (elfsym__find(s, sname, &set) || set.offset == ELFSYM_NO_OFFSET) {
		warnf(warn, ctx, "%s: setter %s not found: property disabled", hwui_prop_name(p), sname);
		return;
	}
	out->setter_off[p] = set.offset;
	if (out->field_off[p]) /* given by --hwui-offsets */
		goto ok;
	if (elfsym__find(s, gname, &get) || elfsym__read(s, get.vaddr, code, sizeof(code)) ||
	    insn_getter_offset(out->machine, code, sizeof(code), &out->field_off[p])) {
		warnf(warn, ctx, "%s: getter %s is not a single load + ret: property disabled "
			  "(use --hwui-offsets)", hwui_prop_name(p), gname);
		return;
	}
ok:
	out->ok_mask |= 1u << p;
}

static size_t symbol_count(const struct elfsym *s)
{
	size_t n = 0;

	for (int t = 0; t < ELFSYM_NR_TABLES; t++)
		n += elfsym__count(s, t);
	return n;
}

static bool has_any_setter(const struct elfsym *s)
{
	struct elfsym_hit hit;
	char name[96];

	for (int p = 0; p < AT_PROP_COUNT; p++) {
		mangle(name, sizeof(name), "set", p);
		if (!elfsym__find(s, name, &hit))
			return true;
	}
	return false;
}

static int parse_overrides(const char *spec, struct hwui_lib *out)
{
	char *copy, *tok, *save = NULL;
	int ret = 0;

	if (!spec || !*spec)
		return 0;
	copy = strdup(spec);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '='), *end;
		int p;

		ret = -EINVAL;
		if (!eq)
			break;
		*eq = '\0';
		for (p = 0; p < AT_PROP_COUNT && strcmp(hwui_prop_name(p), tok); p++)
			;
		unsigned long v = strtoul(eq + 1, &end, 0);

		if (p == AT_PROP_COUNT || *end || end == eq + 1 || v == 0 || v > 0xffff)
			break;
		out->field_off[p] = (uint32_t)v;
		ret = 0;
	}
	free(copy);
	return ret;
}

int hwui_resolve(const char *path, const char *overrides, struct hwui_lib *out,
		 hwui_warn_fn warn, void *ctx)
{
	struct elfsym *s;
	int ret;

	memset(out, 0, sizeof(*out));
	snprintf(out->path, sizeof(out->path), "%s", path);
	if ((ret = parse_overrides(overrides, out)))
		return ret;
	s = elfsym__open(path);
	if (!s)
		return -errno;
	out->machine = elfsym__machine(s);
	if (elfsym__debugdata_err(s))
		warnf(warn, ctx, "%s: MiniDebugInfo unreadable (%s): static setters may be missing",
		      path, strerror(-elfsym__debugdata_err(s)));
	/* A library with no setter at all is the wrong library: one error, not ten warnings.
	 * One with no symbol at all (even a stripped .so keeps .dynsym) is cut short. */
	ret = has_any_setter(s) ? 0 : symbol_count(s) ? -ENODATA : -EINVAL;
	for (int p = 0; !ret && p < AT_PROP_COUNT; p++)
		resolve_prop(s, p, out, warn, ctx);
	elfsym__free(s);
	return ret ? ret : out->ok_mask ? 0 : -ENODATA;
}
