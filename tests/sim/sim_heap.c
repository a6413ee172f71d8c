// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The simulator's Java heap (sim_heap.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create, MAP_32BIT */
#endif
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <sys/mman.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_heap.h"

#define MAX_CLASSES 128
#define MAX_FIELDS 160
#define LOCK_HASH (2u << 30) /* lock word state "hash" (ART's LockWord::kStateHash) */

struct sim_field {
	char name[64];
	char type[96];
	uint32_t off;
};

struct sim_class {
	char desc[96];
	int dex;       /* which of the dexes defines it */
	uint32_t size; /* the end of its last field */
	int n_fields;
	struct sim_field *fields;
	uint32_t obj; /* its java.lang.Class object, made on first use */
};

struct sim_heap {
	uint8_t *mem;
	uint32_t base, size, top;
	int sdk;
	struct sim_class classes[MAX_CLASSES];
	int n_classes;
	const char *locs[SIM_HEAP_DEXES];
	uint32_t dex_cache[SIM_HEAP_DEXES];
	uint8_t *dex[SIM_HEAP_DEXES]; /* the dex files, for their type_ids */
	size_t dex_len[SIM_HEAP_DEXES];
	int n_dex;
	uint32_t class_class;
};

static uint32_t type_size(const char *t)
{
	switch (t[0]) {
	case 'J':
	case 'D':
		return 8;
	case 'C':
	case 'S':
		return 2;
	case 'Z':
	case 'B':
		return 1;
	default:
		return 4;
	}
}

/* Reads one offsets file: "Class <desc> : <n> instance fields", then "<off>:<type> <name>". */
static int load_offsets(struct sim_heap *h, const char *path, int dex)
{
	FILE *f = fopen(path, "r");
	char line[512];
	struct sim_class *c = NULL;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		struct sim_field fl;

		if (!strncmp(line, "Class ", 6)) {
			if (h->n_classes == MAX_CLASSES) {
				fclose(f);
				return -E2BIG;
			}
			c = &h->classes[h->n_classes++];
			memset(c, 0, sizeof(*c));
			sscanf(line + 6, "%95s", c->desc);
			c->dex = dex;
			c->fields = calloc(MAX_FIELDS, sizeof(*c->fields));
			if (!c->fields) {
				fclose(f);
				return -ENOMEM;
			}
			continue;
		}
		if (!c || sscanf(line, "%u:%95s %63s", &fl.off, fl.type, fl.name) != 3 ||
		    c->n_fields == MAX_FIELDS)
			continue;
		c->fields[c->n_fields++] = fl;
		if (fl.off + type_size(fl.type) > c->size)
			c->size = fl.off + type_size(fl.type);
	}
	fclose(f);
	return 0;
}

static int load_file(const char *path, uint8_t **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return -errno;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	*out = n > 0x70 ? malloc((size_t)n) : NULL;
	if (!*out || fread(*out, 1, (size_t)n, f) != (size_t)n) {
		free(*out);
		fclose(f);
		return -EINVAL;
	}
	fclose(f);
	*len = (size_t)n;
	return 0;
}

static uint32_t u32_at(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The index of descriptor in dex's type_ids (the dex format's header: string_ids at 0x38,
 * type_ids at 0x40; a string is a ULEB128 length and MUTF-8 bytes), or -1. */
static long type_index(const uint8_t *d, size_t len, const char *desc)
{
	uint32_t n_str = u32_at(d + 0x38), str_off = u32_at(d + 0x3c);
	uint32_t n_types = u32_at(d + 0x40), types_off = u32_at(d + 0x44);

	if ((uint64_t)types_off + 4ull * n_types > len || (uint64_t)str_off + 4ull * n_str > len)
		return -1;
	for (uint32_t i = 0; i < n_types; i++) {
		uint32_t s = u32_at(d + types_off + 4 * i), at;

		if (s >= n_str || (at = u32_at(d + str_off + 4 * s)) >= len)
			continue;
		while (at < len && d[at] & 0x80) /* the ULEB128 length */
			at++;
		at++;
		if (at < len && !strncmp((const char *)d + at, desc, len - at))
			return i;
	}
	return -1;
}

static struct sim_class *find_class(struct sim_heap *h, const char *desc)
{
	for (int i = 0; i < h->n_classes; i++)
		if (!strcmp(h->classes[i].desc, desc))
			return &h->classes[i];
	return NULL;
}

static uint32_t alloc(struct sim_heap *h, uint32_t size)
{
	uint32_t at = h->top;

	if (size > h->size - (h->top - h->base)) {
		errno = ENOMEM;
		return 0;
	}
	h->top = (h->top + size + 7) & ~7u;
	memset(h->mem + (at - h->base), 0, size);
	return at;
}

static void put(struct sim_heap *h, uint32_t addr, const void *v, size_t n)
{
	memcpy(h->mem + (addr - h->base), v, n);
}

/* Sets field name (declared by desc's class or inherited: the offsets files list both). */
static int set(struct sim_heap *h, uint32_t obj, const char *desc, const char *name, const void *v,
	       size_t n)
{
	struct sim_class *c = find_class(h, desc);

	for (int i = 0; c && i < c->n_fields; i++) {
		if (strcmp(c->fields[i].name, name))
			continue;
		if (type_size(c->fields[i].type) != n)
			return -EINVAL;
		put(h, obj + c->fields[i].off, v, n);
		return 0;
	}
	return -ENOENT;
}

static int set_ref(struct sim_heap *h, uint32_t obj, const char *desc, const char *name, uint32_t v)
{
	return set(h, obj, desc, name, &v, 4);
}

static uint32_t class_obj(struct sim_heap *h, const char *desc);

/* An instance of desc (its klass_ set); 0 with errno. */
static uint32_t object(struct sim_heap *h, const char *desc)
{
	struct sim_class *c = find_class(h, desc);
	uint32_t k, o;

	if (!c) {
		errno = ENOENT;
		return 0;
	}
	k = class_obj(h, desc);
	o = k ? alloc(h, c->size) : 0;
	if (o)
		put(h, o, &k, 4);
	return o;
}

static uint32_t string(struct sim_heap *h, const char *ascii)
{
	struct sim_class *c = find_class(h, "Ljava/lang/String;");
	uint32_t n = (uint32_t)strlen(ascii), s = object(h, "Ljava/lang/String;"), hash = 0;
	int32_t count = h->sdk >= 26 ? (int32_t)(n << 1) : (int32_t)n; /* flag 0: compressed */

	if (!s || !alloc(h, h->sdk >= 26 ? n : 2 * n))
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		uint16_t u = (uint8_t)ascii[i];

		hash = hash * 31 + u; /* String.hashCode() */
		if (h->sdk >= 26)
			h->mem[s + c->size + i - h->base] = (uint8_t)u;
		else
			put(h, s + c->size + 2 * i, &u, 2);
	}
	if (set(h, s, "Ljava/lang/String;", "count", &count, 4) ||
	    set(h, s, "Ljava/lang/String;", "hash", &hash, 4))
		return 0;
	return s;
}

/* The Class object of desc: its DexCache and type index ("[..." arrays: componentType). */
static uint32_t class_obj(struct sim_heap *h, const char *desc)
{
	struct sim_class *c = find_class(h, desc);
	const char *cc = "Ljava/lang/Class;";
	uint32_t k;
	int32_t type;

	if (c && c->obj)
		return c->obj;
	if (desc[0] == '[') {
		uint32_t comp = class_obj(h, desc + 1);

		k = comp ? object(h, cc) : 0;
		if (k)
			set_ref(h, k, cc, "componentType", comp);
		return k;
	}
	if (!c || (type = (int32_t)type_index(h->dex[c->dex], h->dex_len[c->dex], desc)) < 0) {
		errno = ENOENT;
		return 0;
	}
	c->obj = object(h, cc);
	if (!c->obj || set_ref(h, c->obj, cc, "dexCache", h->dex_cache[c->dex]) ||
	    set(h, c->obj, cc, "dexTypeIndex", &type, 4))
		return c->obj = 0;
	return c->obj;
}

/* The bootstrap: java.lang.Class is its own class; one DexCache per dex, named. */
static int bootstrap(struct sim_heap *h)
{
	struct sim_class *cc = find_class(h, "Ljava/lang/Class;");

	if (!cc || !find_class(h, "Ljava/lang/DexCache;") || !find_class(h, "Ljava/lang/String;"))
		return -ENOENT;
	alloc(h, 8); /* nothing at the base address: a null reference is no object */
	h->class_class = cc->obj = alloc(h, cc->size);
	if (!cc->obj)
		return -ENOMEM;
	put(h, cc->obj, &cc->obj, 4);
	/* the DexCaches before any other class object, which names its DexCache */
	for (int i = 0; i < 3; i++)
		if (!(h->dex_cache[i] = alloc(h, find_class(h, "Ljava/lang/DexCache;")->size)))
			return -ENOMEM;
	for (int i = 0; i < 3; i++) {
		uint32_t k = class_obj(h, "Ljava/lang/DexCache;"), loc = string(h, h->locs[i]);

		if (!k || !loc)
			return -errno;
		put(h, h->dex_cache[i], &k, 4);
		set_ref(h, h->dex_cache[i], "Ljava/lang/DexCache;", "location", loc);
	}
	return 0;
}

struct sim_heap *sim_heap__new(const char *types_dir, const char *layout_dir,
			       const char *const locs[3], void *mem, uint32_t base, uint32_t size,
			       int sdk)
{
	static const char *const dexes[] = { "core", "framework", "framework2" };
	struct sim_heap *h = calloc(1, sizeof(*h));
	char path[4096];
	int err = h ? 0 : -ENOMEM;

	for (int i = 0; !err && i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s.%s", i ? layout_dir : types_dir, dexes[i],
			 sdk >= 31 ? "offsets12.txt" : "offsets.txt");
		err = load_offsets(h, path, i);
		snprintf(path, sizeof(path), "%s/%s.dex", types_dir, dexes[i]);
		err = err ?: load_file(path, &h->dex[i], &h->dex_len[i]);
		h->locs[i] = locs[i];
	}
	h->n_dex = 3;
	if (!err) {
		h->mem = mem;
		h->base = h->top = base;
		h->size = size;
		h->sdk = sdk;
		/* the DexCaches' dex indexes stay those of the types, whatever the layout */
		err = bootstrap(h);
	}
	if (err) {
		sim_heap__free(h);
		errno = -err;
		return NULL;
	}
	return h;
}

void sim_heap__free(struct sim_heap *h)
{
	if (!h)
		return;
	for (int i = 0; i < h->n_classes; i++)
		free(h->classes[i].fields);
	for (int i = 0; i < SIM_HEAP_DEXES; i++)
		free(h->dex[i]);
	free(h);
}

/* Keyframe$FloatKeyframe or $IntKeyframe holding v at fraction. */
static uint32_t keyframe(struct sim_heap *h, enum sim_value_type t, double v, float fraction)
{
	const char *desc = t == SIM_FLOAT ? "Landroid/animation/Keyframe$FloatKeyframe;" :
					    "Landroid/animation/Keyframe$IntKeyframe;";
	uint32_t kf = object(h, desc);
	uint8_t yes = 1;
	float f = (float)v;
	int32_t i = (int32_t)(int64_t)v;

	if (!kf || set(h, kf, desc, "mValue", t == SIM_FLOAT ? (void *)&f : (void *)&i, 4) ||
	    set(h, kf, desc, "mFraction", &fraction, 4) || set(h, kf, desc, "mHasValue", &yes, 1))
		return 0;
	return kf;
}

/* One PropertyValuesHolder (Float or Int, as PropertyValuesHolder.ofFloat/ofInt/ofArgb make
 * them) with a two-keyframe KeyframeSet. */
static uint32_t holder(struct sim_heap *h, const struct sim_anim_cfg *c, int i)
{
	bool fl = c->values[i].type == SIM_FLOAT;
	const char *pd = fl ? "Landroid/animation/PropertyValuesHolder$FloatPropertyValuesHolder;" :
			      "Landroid/animation/PropertyValuesHolder$IntPropertyValuesHolder;";
	const char *sd = fl ? "Landroid/animation/FloatKeyframeSet;" :
			      "Landroid/animation/IntKeyframeSet;";
	uint32_t p = object(h, pd), set_ = object(h, sd);
	uint32_t k0 = keyframe(h, c->values[i].type, c->values[i].from, 0);
	uint32_t k1 = keyframe(h, c->values[i].type, c->values[i].to, 1);
	uint32_t name = c->values[i].property ? string(h, c->values[i].property) : 0;
	int32_t two = 2;

	if (!p || !set_ || !k0 || !k1 || (c->values[i].property && !name))
		return 0;
	if (set_ref(h, set_, sd, "mFirstKeyframe", k0) ||
	    set_ref(h, set_, sd, "mLastKeyframe", k1) ||
	    set(h, set_, sd, "mNumKeyframes", &two, 4) || set_ref(h, p, pd, "mKeyframes", set_) ||
	    set_ref(h, p, pd, "mPropertyName", name))
		return 0;
	if (c->values[i].type == SIM_ARGB) {
		uint32_t ev = object(h, "Landroid/animation/ArgbEvaluator;");

		if (!ev || set_ref(h, p, pd, "mEvaluator", ev) ||
		    set_ref(h, set_, sd, "mEvaluator", ev))
			return 0;
	}
	return p;
}

static int values(struct sim_heap *h, const struct sim_anim_cfg *c, uint32_t a, const char *ad)
{
	uint32_t arr_k = class_obj(h, "[Landroid/animation/PropertyValuesHolder;");
	uint32_t arr = arr_k ? alloc(h, 12 + 4 * (uint32_t)c->n_values) : 0;
	int32_t n = c->n_values;

	if (!arr)
		return -errno;
	put(h, arr, &arr_k, 4);
	put(h, arr + 8, &n, 4);
	for (int i = 0; i < c->n_values; i++) {
		uint32_t p = holder(h, c, i);

		if (!p)
			return -errno ?: -EINVAL;
		put(h, arr + 12 + 4 * (uint32_t)i, &p, 4);
	}
	return set_ref(h, a, ad, "mValues", arr);
}

/* ObjectAnimator: mPropertyName, and mTarget, a WeakReference to a View whose RenderNode's
 * mNativeRenderNode is the native node. */
static int target(struct sim_heap *h, const struct sim_anim_cfg *c, uint32_t a)
{
	const char *oa = "Landroid/animation/ObjectAnimator;";
	uint32_t name = c->property_name ? string(h, c->property_name) : 0;
	uint32_t ref = object(h, "Ljava/lang/ref/WeakReference;");
	uint32_t view = object(h, "Landroid/view/View;");
	uint32_t node = object(h, "Landroid/graphics/RenderNode;");
	int64_t native = (int64_t)c->target_node;

	if (!ref || !view || !node || (c->property_name && !name))
		return -errno ?: -EINVAL;
	if (set_ref(h, a, oa, "mPropertyName", name) || set_ref(h, a, oa, "mTarget", ref) ||
	    set_ref(h, ref, "Ljava/lang/ref/WeakReference;", "referent", view) ||
	    set_ref(h, view, "Landroid/view/View;", "mRenderNode", node) ||
	    set(h, node, "Landroid/graphics/RenderNode;", "mNativeRenderNode", &native, 8))
		return -EINVAL;
	return 0;
}

uint32_t sim_heap__animator(struct sim_heap *h, const struct sim_anim_cfg *c, uint32_t cookie)
{
	const char *ad = c->object_animator ? "Landroid/animation/ObjectAnimator;" :
					      "Landroid/animation/ValueAnimator;";
	const char *va = "Landroid/animation/ValueAnimator;";
	uint32_t a = object(h, ad), lock = LOCK_HASH | cookie, ip = 0;
	int err;

	if (!a || c->n_values > SIM_HEAP_VALUES)
		return 0;
	put(h, a + 4, &lock, 4);
	if (c->interpolator && !(ip = object(h, c->interpolator)))
		return 0;
	err = set(h, a, va, "mDuration", &c->duration_ms, 8);
	err = err ?: set(h, a, va, "mStartDelay", &c->start_delay_ms, 8);
	err = err ?: set(h, a, va, "mRepeatCount", &c->repeat_count, 4);
	err = err ?: set(h, a, va, "mRepeatMode", &c->repeat_mode, 4);
	err = err ?: set_ref(h, a, va, "mInterpolator", ip);
	err = err ?: values(h, c, a, va);
	err = err ?: (c->object_animator ? target(h, c, a) : 0);
	if (err) {
		errno = -err;
		return 0;
	}
	return a;
}

/* A DexCache named loc for dex index i (after the bootstrap: before its classes' objects). */
static int dex_cache_new(struct sim_heap *h, int i, const char *loc)
{
	uint32_t k = class_obj(h, "Ljava/lang/DexCache;"), str = k ? string(h, loc) : 0;

	if (!k || !str || !(h->dex_cache[i] = object(h, "Ljava/lang/DexCache;")))
		return -errno;
	return set_ref(h, h->dex_cache[i], "Ljava/lang/DexCache;", "location", str);
}

int sim_heap__add_dex(struct sim_heap *h, const char *dir, const char *name, const char *loc)
{
	char path[4096];
	int i = h->n_dex, err;

	if (i == SIM_HEAP_DEXES)
		return -E2BIG;
	snprintf(path, sizeof(path), "%s/%s.%s", dir, name,
		 h->sdk >= 31 ? "offsets12.txt" : "offsets.txt");
	err = load_offsets(h, path, i);
	snprintf(path, sizeof(path), "%s/%s.dex", dir, name);
	err = err ?: load_file(path, &h->dex[i], &h->dex_len[i]);
	err = err ?: dex_cache_new(h, i, loc);
	if (!err)
		h->n_dex++;
	return err;
}

static const char *dyn_pkg(const struct sim_dyn_cfg *c)
{
	return c->androidx ? "Landroidx/dynamicanimation/animation/" :
			     "Lcom/android/internal/dynamicanimation/animation/";
}

/* desc := "L<pkg>name;" */
static const char *dyn_class(const struct sim_dyn_cfg *c, const char *name, char *desc, size_t n)
{
	snprintf(desc, n, "%s%s;", dyn_pkg(c), name);
	return desc;
}

/* SpringAnimation.mSpring: a SpringForce (sqrt(stiffness) stored, as setStiffness does). */
static int dyn_spring(struct sim_heap *h, const struct sim_dyn_cfg *c, uint32_t a)
{
	char sf[96], sa[96];
	double freq = sqrt(c->stiffness);
	uint32_t f;
	int err;

	if (c->no_spring)
		return 0;
	f = object(h, dyn_class(c, "SpringForce", sf, sizeof(sf)));
	if (!f)
		return -errno;
	err = set(h, f, sf, "mNaturalFreq", &freq, 8);
	err = err ?: set(h, f, sf, "mDampingRatio", &c->damping_ratio, 8);
	err = err ?: set(h, f, sf, "mFinalPosition", &c->final_position, 8);
	return err ?: set_ref(h, a, dyn_class(c, "SpringAnimation", sa, sizeof(sa)), "mSpring", f);
}

/* FlingAnimation.mFlingForce: a DragForce (mFriction = -4.2 * the scalar: setFriction). */
static int dyn_fling(struct sim_heap *h, const struct sim_dyn_cfg *c, uint32_t a)
{
	char df[96], fa[96];
	float friction = c->friction_scalar * -4.2f;
	uint32_t f = object(h, dyn_class(c, "FlingAnimation$DragForce", df, sizeof(df)));

	if (!f)
		return -errno;
	return set(h, f, df, "mFriction", &friction, 4) ?:
		       set_ref(h, a, dyn_class(c, "FlingAnimation", fa, sizeof(fa)), "mFlingForce",
			       f);
}

uint32_t sim_heap__dyn(struct sim_heap *h, const struct sim_dyn_cfg *c)
{
	char da[96], cls[96];
	uint32_t a = object(h, dyn_class(c, c->fling ? "FlingAnimation" : "SpringAnimation", cls,
					 sizeof(cls)));
	float value = c->start_value_set ? c->value : FLT_MAX; /* UNSET */
	uint8_t set_flag = c->start_value_set;
	int err;

	if (!a)
		return 0;
	dyn_class(c, "DynamicAnimation", da, sizeof(da));
	err = set(h, a, da, "mValue", &value, 4);
	err = err ?: set(h, a, da, "mVelocity", &c->velocity, 4);
	err = err ?: set(h, a, da, "mMinVisibleChange", &c->min_visible_change, 4);
	err = err ?: set(h, a, da, "mStartValueIsSet", &set_flag, 1);
	err = err ?: (c->fling ? dyn_fling(h, c, a) : dyn_spring(h, c, a));
	if (err) {
		errno = -err;
		return 0;
	}
	return a;
}

/* ---- --scenario config --------------------------------------------------------------------- */

#define HEAP_BASE_HINT 0x12c00000u /* where ART's main space usually starts */
#ifndef MAP_32BIT
#define MAP_32BIT 0 /* x86_64 only: elsewhere the hint (free in a fresh process) places it */
#endif
#define HEAP_SIZE (1u << 20)

static const char *const core_jar = "/apex/com.android.art/javalib/core-oj.jar";
static const char *const fw_jar = "/system/framework/framework.jar";
static const char *const app_apk = "/data/app/com.example.dock/base.apk";

/* The directory of the simulator's executable. */
static int exe_dir(char *out, size_t n)
{
	ssize_t len = readlink("/proc/self/exe", out, n - 1);
	char *slash;

	if (len < 0)
		return -errno;
	out[len] = '\0';
	slash = strrchr(out, '/');
	if (!slash)
		return -EINVAL;
	*slash = '\0';
	return 0;
}

int sim_heap_env(char **argv)
{
	char dir[PATH_MAX], bcp[3 * PATH_MAX], root[PATH_MAX + 16];
	int err;

	if (getenv("BOOTCLASSPATH"))
		return 0;
	err = exe_dir(dir, sizeof(dir));
	if (err)
		return err;
	snprintf(bcp, sizeof(bcp), "%s/heaproot%s:%s/heaproot%s", dir, core_jar, dir, fw_jar);
	snprintf(root, sizeof(root), "%s/heaproot/system", dir);
	if (setenv("BOOTCLASSPATH", bcp, 1) || setenv("ANDROID_ROOT", root, 1))
		return -errno;
	execv("/proc/self/exe", argv);
	return -errno;
}

struct sim_heap *sim_heap_open(bool wrong_layout)
{
	char dir[PATH_MAX], types[PATH_MAX + 32], layout[PATH_MAX + 32], locs[3][PATH_MAX + 64];
	struct sim_heap *h;
	const char *loc_p[3] = { locs[0], locs[1], locs[2] };
	int fd = memfd_create("dalvik-main space", MFD_CLOEXEC), err = exe_dir(dir, sizeof(dir));
	void *mem;

	if (fd < 0 || err || ftruncate(fd, HEAP_SIZE)) {
		err = fd < 0 || !err ? -errno : err;
		if (fd >= 0)
			close(fd);
		errno = -err;
		return NULL;
	}
	/* 32-bit references: the heap lies below 4 GiB */
	mem = mmap((void *)(uintptr_t)HEAP_BASE_HINT, HEAP_SIZE, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_32BIT, fd, 0);
	close(fd);
	if (mem == MAP_FAILED)
		return NULL;
	if ((uint64_t)(uintptr_t)mem + HEAP_SIZE > 1ull << 32) {
		munmap(mem, HEAP_SIZE);
		errno = ENOMEM;
		return NULL;
	}
	snprintf(types, sizeof(types), "%s/../fixtures/dex/%s", dir, SIM_HEAP_SET);
	snprintf(layout, sizeof(layout), "%s/../fixtures/dex/%s", dir,
		 wrong_layout ? "android10" : SIM_HEAP_SET);
	/* the DexCache locations ART gives them: the jar, then "<jar>!classes2.dex" */
	snprintf(locs[0], sizeof(locs[0]), "%s/heaproot%s", dir, core_jar);
	snprintf(locs[1], sizeof(locs[1]), "%s/heaproot%s", dir, fw_jar);
	snprintf(locs[2], sizeof(locs[2]), "%s/heaproot%s!classes2.dex", dir, fw_jar);
	h = sim_heap__new(types, layout, loc_p, mem, (uint32_t)(uintptr_t)mem, HEAP_SIZE,
			  SIM_HEAP_SDK);
	/* the app's own classes (androidx's DynamicAnimation): ART names an APK's first dex
	 * by the APK's path */
	snprintf(locs[0], sizeof(locs[0]), "%s/heaproot%s", dir, app_apk);
	err = h ? sim_heap__add_dex(h, types, "app", locs[0]) : 0;
	if (err) {
		sim_heap__free(h);
		errno = -err;
		return NULL;
	}
	return h;
}

#define ADI "Landroid/view/animation/AccelerateDecelerateInterpolator;"
#define PATHI "Landroid/view/animation/PathInterpolator;"

/*
 * The config scenario's animators, in its order: a fade repeated INFINITE REVERSE; a slide
 * started 100 ms late; a colour (ObjectAnimator.ofArgb); a ValueAnimator of two holders.
 */
static const struct sim_anim_cfg configs[] = {
	{ .object_animator = true,
	  .duration_ms = 300,
	  .repeat_count = -1,
	  .repeat_mode = 2,
	  .interpolator = ADI,
	  .n_values = 1,
	  .values = { { "alpha", SIM_FLOAT, 1, 0 } },
	  .property_name = "alpha" },
	{ .object_animator = true,
	  .duration_ms = 200,
	  .start_delay_ms = 100,
	  .repeat_mode = 1,
	  .interpolator = PATHI,
	  .n_values = 1,
	  .values = { { "translationX", SIM_FLOAT, 0, 120 } },
	  .property_name = "translationX" },
	{ .object_animator = true,
	  .duration_ms = 150,
	  .repeat_mode = 1,
	  .interpolator = ADI,
	  .n_values = 1,
	  .values = { { "backgroundColor", SIM_ARGB, (double)(int32_t)0xffff0000u,
			(double)(int32_t)0xff0000ffu } },
	  .property_name = "backgroundColor" },
	{ .duration_ms = 250,
	  .repeat_count = 2,
	  .repeat_mode = 1,
	  .interpolator = PATHI,
	  .n_values = 2,
	  .values = { { "x", SIM_FLOAT, -40.5, 100 }, { "level", SIM_INT, 3, 50 } } },
};

const struct sim_anim_cfg *sim_heap_config(int i)
{
	return i >= 0 && i < (int)(sizeof(configs) / sizeof(configs[0])) ? &configs[i] : NULL;
}
