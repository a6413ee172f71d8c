// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/elfsym.h"
#include "symbols/hwui.h"
#include "symbols/insn.h"
#include "model/model.h"
#include "symbols/procmaps.h"

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
	return ret == -ENOENT ? procmaps_find(proc_root, pid, "libandroid_runtime.so", path, cap) :
				ret;
}

static void warnf(hwui_warn_fn warn, void *ctx, const char *fmt, const char *a, const char *b)
{
	char msg[256];

	if (!warn)
		return;
	snprintf(msg, sizeof(msg), fmt, a, b);
	warn(ctx, msg);
}

struct err_text {
	int err;
	const char *text;
};

static const char *err_text(const struct err_text *t, int err)
{
	for (; t->text; t++)
		if (t->err == err)
			return t->text;
	return strerror(-err);
}

#define SETTER_CODE_MAX 512 /* an RP_SET setter is a few dozen instructions */

static const struct err_text store_errs[] = {
	{ -EXDEV, "calls or branches out (not a leaf)" },
	{ -ENOENT, "no 32-bit store to the field through its first argument" },
	{ -ENOTSUP, "code not understood" },
	{ -EFAULT, "no code of known size in the file" },
	{ 0, NULL },
};

const char *hwui_store_strerror(int err)
{
	return err_text(store_errs, err);
}

/* One probe per call when the setter's code says it may be read late (insn_setter_store). */
static void decode_setter(const struct elfsym *s, const struct elfsym_hit *set, enum at_prop p,
			  struct hwui_lib *out)
{
	uint8_t code[SETTER_CODE_MAX];
	size_t len = set->size < sizeof(code) ? (size_t)set->size : 0;

	out->store_err[p] = len && !elfsym__read(s, set->vaddr, code, len) ? 0 : -EFAULT;
	if (!out->store_err[p])
		out->store_err[p] = insn_setter_store(out->machine, code, len, set->vaddr,
						      out->field_off[p], &out->store_vaddr[p]);
	if (!out->store_err[p])
		out->one_probe_mask |= 1u << p;
}

static void resolve_prop(struct elfsym *s, enum at_prop p, struct hwui_lib *out, hwui_warn_fn warn,
			 void *ctx)
{
	struct elfsym_hit set, get;
	char sname[96], gname[96];
	uint8_t code[16];

	mangle(sname, sizeof(sname), "set", p);
	mangle(gname, sizeof(gname), "get", p);
	if (elfsym__find(s, sname, &set) || set.offset == ELFSYM_NO_OFFSET) {
		warnf(warn, ctx, "%s: setter %s not found: property disabled", hwui_prop_name(p),
		      sname);
		return;
	}
	out->setter_off[p] = set.offset;
	if (out->field_off[p]) /* given by --hwui-offsets */
		goto ok;
	if (elfsym__find(s, gname, &get) || elfsym__read(s, get.vaddr, code, sizeof(code)) ||
	    insn_getter_offset(out->machine, code, sizeof(code), &out->field_off[p])) {
		warnf(warn, ctx,
		      "%s: getter %s is not a single load + ret: property disabled "
		      "(use --hwui-offsets)",
		      hwui_prop_name(p), gname);
		return;
	}
ok:
	out->ok_mask |= 1u << p;
	out->setter_vaddr[p] = set.vaddr;
	decode_setter(s, &set, p, out);
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

/* One PROP=OFF item of [p, end) into field_off; 0 or -EINVAL with why set. */
static int parse_offset(const char *p, const char *end, uint32_t *field_off, char *why, size_t cap)
{
	const char *eq = memchr(p, '=', (size_t)(end - p));
	unsigned long long v = 0;
	const char *d;
	int prop;

	if (p == end) {
		snprintf(why, cap, "an empty item (PROP=OFF,PROP=OFF...)");
		return -EINVAL;
	}
	if (!eq) {
		snprintf(why, cap, "'%.*s' is not PROP=OFF", (int)(end - p), p);
		return -EINVAL;
	}
	for (prop = 0; prop < AT_PROP_COUNT; prop++)
		if (strlen(hwui_prop_name(prop)) == (size_t)(eq - p) &&
		    !strncmp(hwui_prop_name(prop), p, (size_t)(eq - p)))
			break;
	if (prop == AT_PROP_COUNT) {
		int n = snprintf(why, cap, "no property '%.*s' (", (int)(eq - p), p);

		for (int i = 0; i < AT_PROP_COUNT && n > 0 && (size_t)n < cap; i++)
			n += snprintf(why + n, cap - (size_t)n, "%s%s", hwui_prop_name(i),
				      i + 1 < AT_PROP_COUNT ? ", " : ")");
		return -EINVAL;
	}
	d = eq + 1;
	if (d < end && *d >= '0' && *d <= '9') {
		char num[24];
		char *stop;

		snprintf(num, sizeof(num), "%.*s", (int)(end - d < 23 ? end - d : 23), d);
		v = strtoull(num, &stop, 0);
		if (*stop || end - d > 23)
			v = 0;
	}
	if (v == 0 || v > HWUI_FIELD_OFF_MAX) {
		snprintf(why, cap, "'%.*s' is no offset for %s (1 to 0xffff, e.g. %s=0x4c)",
			 (int)(end - d), d, hwui_prop_name(prop), hwui_prop_name(prop));
		return -EINVAL;
	}
	field_off[prop] = (uint32_t)v;
	return 0;
}

int hwui_parse_offsets(const char *spec, uint32_t field_off[AT_PROP_COUNT], char *why, size_t cap)
{
	const char *p = spec, *end;
	int err;

	if (!*spec) {
		snprintf(why, cap, "no PROP=OFF given");
		return -EINVAL;
	}
	for (;; p = end + 1) {
		end = strchrnul(p, ',');
		if ((err = parse_offset(p, end, field_off, why, cap)))
			return err;
		if (!*end)
			return 0;
	}
}

static int parse_overrides(const char *spec, struct hwui_lib *out)
{
	char why[160];

	return spec && *spec ? hwui_parse_offsets(spec, out->field_off, why, sizeof(why)) : 0;
}

/* ---- RenderNode name and id --------------------------------------------------------- */

/* JNI natives in namespace android (see struct hwui_node_layout for the sources read). */
#define CREATE_NAME "_ZN7androidL30android_view_RenderNode_createEP7_JNIEnvP8_jobjectP8_jstring"
#define UNIQUE_ID_NAME "_ZN7androidL35android_view_RenderNode_getUniqueIdEl"
/* Largest create function read, and largest field offset believed. */
#define CREATE_CODE_MAX 4096
#define NODE_FIELD_MAX 0xffff

/* String8::setTo(const char*) and String8::operator=(const char*), which calls it. */
static const char *const set_name_calls[] = { "_ZN7android7String85setToEPKc",
					      "_ZN7android7String8aSEPKc", NULL };
static const char *const new_calls[] = { "_Znwm", NULL }; /* operator new(size_t) */

static const struct err_text name_errs[] = {
	{ -ESRCH, "no android_view_RenderNode_create symbol" },
	{ -ENOENT, "RenderNode name offset not found in android_view_RenderNode_create" },
	{ -ENOTUNIQ, "android_view_RenderNode_create sets two different RenderNode names" },
	{ -EFAULT, "android_view_RenderNode_create has no code in the file" },
	{ -ENOTSUP, "RenderNode name offset: machine not supported" },
	{ -ENODATA, "the library could not be read" },
	{ 0, NULL },
};

static const struct err_text uniqueid_errs[] = {
	{ -ENOENT, "no android_view_RenderNode_getUniqueId (Android 9 and earlier)" },
	{ -ENOTSUP, "android_view_RenderNode_getUniqueId is not a single 64-bit load + ret" },
	{ -EFAULT, "android_view_RenderNode_getUniqueId has no code in the file" },
	{ -ENODATA, "the library could not be read" },
	{ 0, NULL },
};

const char *hwui_name_strerror(int err)
{
	return err_text(name_errs, err);
}

const char *hwui_uniqueid_strerror(int err)
{
	return err_text(uniqueid_errs, err);
}

/* @name is one of @want, maybe with a ThinLTO ".llvm.<digits>" suffix. */
static bool name_in(const char *name, const char *const *want)
{
	for (; *want; want++) {
		size_t n = strlen(*want);

		if (!strncmp(name, *want, n) && (!name[n] || !strncmp(name + n, ".llvm.", 6)))
			return true;
	}
	return false;
}

/* A direct call reaches a defined function (static builds) or a PLT stub; a GOT call a slot. */
static bool call_is(const struct elfsym *s, enum insn_call_kind kind, uint64_t target,
		    const char *const *want)
{
	struct elfsym_hit hit;
	const char *name;
	uint8_t stub[16];
	uint64_t slot = target;

	if (kind == INSN_CALL_INDIRECT)
		return false;
	if (kind == INSN_CALL_DIRECT) {
		if (elfsym__find_addr(s, target, &hit) == 0)
			return name_in(hit.name, want);
		if (elfsym__read(s, target, stub, sizeof(stub)) ||
		    insn_plt_slot(elfsym__machine(s), stub, sizeof(stub), target, &slot))
			return false;
	}
	return elfsym__got_symbol(s, slot, &name) == 0 && name_in(name, want);
}

struct create_scan {
	const struct elfsym *s;
	int found;
	uint32_t off;
	bool conflict;
};

/* setTo(x0 = operator new's result + off): the name field's offset. */
static int create_call(void *ctx, const struct insn_call *c)
{
	struct create_scan *cs = ctx;

	if (!c->arg0.valid || c->arg0.add < 0 || c->arg0.add > NODE_FIELD_MAX)
		return 0;
	if (!call_is(cs->s, c->kind, c->target, set_name_calls) ||
	    !call_is(cs->s, c->arg0.kind, c->arg0.target, new_calls))
		return 0;
	if (cs->found++ && cs->off != (uint32_t)c->arg0.add)
		cs->conflict = true;
	cs->off = (uint32_t)c->arg0.add;
	return 0;
}

/* @hit's code, at most @cap bytes (all of it when the symbol has no size). */
static int read_code(const struct elfsym *s, const struct elfsym_hit *hit, uint8_t *buf, size_t cap,
		     size_t *len)
{
	*len = hit->size && hit->size < cap ? (size_t)hit->size : cap;
	if (elfsym__read(s, hit->vaddr, buf, *len) == 0)
		return 0;
	return -EFAULT;
}

static int name_offset(const struct elfsym *s, uint32_t *off)
{
	struct create_scan cs = { .s = s };
	struct elfsym_hit hit;
	uint8_t *code;
	size_t len;
	int err;

	if (elfsym__find(s, CREATE_NAME, &hit))
		return -ESRCH;
	code = malloc(CREATE_CODE_MAX);
	if (!code)
		return -ENOMEM;
	err = read_code(s, &hit, code, CREATE_CODE_MAX, &len);
	if (!err)
		err = insn_scan_calls(elfsym__machine(s), code, len, hit.vaddr, create_call, &cs);
	free(code);
	if (err)
		return err;
	if (!cs.found)
		return -ENOENT;
	*off = cs.off;
	return cs.conflict ? -ENOTUNIQ : 0;
}

static int uniqueid_offset(const struct elfsym *s, uint32_t *off)
{
	struct elfsym_hit hit;
	uint8_t code[16];
	size_t len;

	if (elfsym__find(s, UNIQUE_ID_NAME, &hit))
		return -ENOENT;
	if (read_code(s, &hit, code, sizeof(code), &len))
		return -EFAULT;
	return insn_getter64_offset(elfsym__machine(s), code, len, off);
}

int hwui_node_layout(const struct elfsym *s, struct hwui_node_layout *out)
{
	memset(out, 0, sizeof(*out));
	out->name_err = name_offset(s, &out->name_off);
	if (out->name_err)
		out->name_off = 0;
	out->uniqueid_err = uniqueid_offset(s, &out->uniqueid_off);
	if (out->uniqueid_err)
		out->uniqueid_off = 0;
	return out->name_err;
}

int hwui_resolve(const char *path, const char *overrides, struct hwui_lib *out, hwui_warn_fn warn,
		 void *ctx)
{
	struct elfsym *s;
	int ret;

	memset(out, 0, sizeof(*out));
	out->node.name_err = out->node.uniqueid_err = -ENODATA; /* until the file is read */
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
	hwui_node_layout(s, &out->node);
	out->redraw.err = hwui_redraw_symbol(s, &out->redraw);
	elfsym__free(s);
	return ret ? ret : out->ok_mask ? 0 : -ENODATA;
}

/* ---- who redraws (issue 15): display lists and vsync requests -------------------- */

/*
 * Verified against AOSP (see bpf/refresh.bpf.h): 12+ finishRecording(jlong canvasPtr,
 * jlong renderNodePtr) in libhwui, CriticalNative, so (jlong, jlong) -> "Ell"; 11 and
 * earlier setDisplayList(JNIEnv*, jobject, jlong renderNodePtr, jlong displayListPtr).
 */
#define FINISH_RECORDING_NAME "_ZN7androidL46android_view_DisplayListCanvas_finishRecordingEll"
#define SET_DISPLAY_LIST_NAME \
	"_ZN7androidL38android_view_RenderNode_setDisplayListEP7_JNIEnvP8_jobjectll"
/* core/jni/android_view_DisplayEventReceiver.cpp, static in namespace android. */
#define SCHEDULE_VSYNC_NAME "_ZN7androidL19nativeScheduleVsyncEP7_JNIEnvP7_jclassl"
/* libgui's exported DisplayEventDispatcher::scheduleVsync(). */
#define DISPATCHER_VSYNC_NAME "_ZN7android22DisplayEventDispatcher13scheduleVsyncEv"

static int find_fn(const struct elfsym *s, const char *name, struct hwui_fn *out, int arg)
{
	struct elfsym_hit hit;

	if (elfsym__find(s, name, &hit))
		return -ENOENT;
	if (hit.offset == ELFSYM_NO_OFFSET)
		return -EFAULT;
	out->vaddr = hit.vaddr;
	out->offset = hit.offset;
	out->node_arg = arg;
	snprintf(out->name, sizeof(out->name), "%s", hit.name);
	return 0;
}

int hwui_redraw_symbol(const struct elfsym *s, struct hwui_fn *out)
{
	int ret;

	memset(out, 0, sizeof(*out));
	ret = find_fn(s, FINISH_RECORDING_NAME, out, 2);
	if (ret == -ENOENT)
		ret = find_fn(s, SET_DISPLAY_LIST_NAME, out, 3);
	return ret;
}

int hwui_vsync_symbol(const struct elfsym *s, struct hwui_fn *out)
{
	int ret;

	memset(out, 0, sizeof(*out));
	ret = find_fn(s, SCHEDULE_VSYNC_NAME, out, 0);
	if (ret == -ENOENT)
		ret = find_fn(s, DISPATCHER_VSYNC_NAME, out, 0);
	return ret;
}

int hwui_resolve_vsync(const char *path, struct hwui_fn *out)
{
	struct elfsym *s = elfsym__open(path);
	int ret;

	memset(out, 0, sizeof(*out));
	if (!s)
		return -errno;
	ret = hwui_vsync_symbol(s, out);
	elfsym__free(s);
	return ret;
}

int hwui_find_vsync_library(const char *proc_root, int pid, char *path, size_t cap)
{
	int ret = procmaps_find(proc_root, pid, "libandroid_runtime.so", path, cap);

	return ret == -ENOENT ? procmaps_find(proc_root, pid, "libgui.so", path, cap) : ret;
}
