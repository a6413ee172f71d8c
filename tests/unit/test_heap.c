// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "live/heap.h"
#include "symbols/artlayout.h"
#include "symbols/dex.h"

#define FIX BUILD_DIR "/fixtures/dex/"
/* Where ART's main space usually starts on a 64-bit device (32-bit references). */
#define BASE 0x12c00000u
#define IMAGE_SIZE (1u << 16)

/* Device paths the synthetic DexCaches name; the fixtures are added under them. */
#define CORE_LOC "/apex/com.android.art/javalib/core-oj.jar"
#define FW_LOC "/system/framework/framework.jar"
#define FW2_LOC "/system/framework/framework.jar!classes2.dex"

/* A heap image under construction: objects bump-allocated, fields written at the offsets the
 * layout gives for the version at hand. */
struct image {
	uint8_t *b;
	uint32_t base, top;
	struct artlayout *l;
	struct heap_buffer buf;
	struct heap_mem mem;
	uint32_t class_class, dex_caches[3];
};

static uint32_t alloc(struct image *im, uint32_t size)
{
	uint32_t at = im->top;

	im->top = (im->top + size + 7) & ~7u;
	cr_assert_leq(im->top - im->base, IMAGE_SIZE);
	return at;
}

static void put(struct image *im, uint32_t addr, const void *v, size_t n)
{
	memcpy(im->b + (addr - im->base), v, n);
}

static void put32(struct image *im, uint32_t addr, uint32_t v)
{
	put(im, addr, &v, 4);
}

static uint32_t field(struct image *im, const char *cls, const char *name)
{
	const struct art_field *f = artlayout__field(im->l, cls, name);

	cr_assert_not_null(f, "%s.%s", cls, name);
	return f->offset;
}

static void set_field(struct image *im, uint32_t obj, const char *cls, const char *name,
		      const void *v, size_t n)
{
	put(im, obj + field(im, cls, name), v, n);
}

static void set_ref(struct image *im, uint32_t obj, const char *cls, const char *name, uint32_t v)
{
	set_field(im, obj, cls, name, &v, 4);
}

static uint32_t new_object(struct image *im, uint32_t klass, const char *cls)
{
	const struct art_class *c = artlayout__class(im->l, cls);
	uint32_t o;

	cr_assert_not_null(c, "%s", cls);
	o = alloc(im, c->object_size);
	put32(im, o, klass); /* klass_ at 0 */
	return o;
}

static uint32_t java_hash(const uint16_t *u, size_t n)
{
	uint32_t h = 0;

	for (size_t i = 0; i < n; i++)
		h = h * 31 + u[i];
	return h;
}

/* A java.lang.String of n UTF-16 units, compressed when every unit is ASCII (and sdk >= 26). */
static uint32_t new_string16(struct image *im, const uint16_t *u, size_t n, int sdk, bool hashed)
{
	bool ascii = true;
	uint32_t s, data, hash = hashed ? java_hash(u, n) : 0;
	int32_t count;

	for (size_t i = 0; i < n; i++)
		ascii = ascii && u[i] < 0x80;
	s = new_object(im, 0, "Ljava/lang/String;");
	data = s + artlayout__class(im->l, "Ljava/lang/String;")->object_size;
	alloc(im, (uint32_t)(n * 2 + 8));
	if (sdk >= 26 && ascii) {
		count = (int32_t)(n << 1); /* flag 0: compressed */
		for (size_t i = 0; i < n; i++)
			im->b[data - im->base + i] = (uint8_t)u[i];
	} else {
		count = sdk >= 26 ? (int32_t)(n << 1 | 1) : (int32_t)n;
		put(im, data, u, n * 2);
	}
	set_field(im, s, "Ljava/lang/String;", "count", &count, 4);
	set_field(im, s, "Ljava/lang/String;", "hash", &hash, 4);
	return s;
}

static uint32_t new_string(struct image *im, const char *ascii, int sdk)
{
	uint16_t u[256];
	size_t n = strlen(ascii);

	for (size_t i = 0; i < n; i++)
		u[i] = (uint8_t)ascii[i];
	return new_string16(im, u, n, sdk, true);
}

static uint32_t new_array(struct image *im, uint32_t klass, uint32_t elem, uint32_t n,
			  const void *data)
{
	uint32_t a = alloc(im, 16 + elem * n), off = elem == 8 ? 16 : 12;
	int32_t len = (int32_t)n;

	put32(im, a, klass);
	put(im, a + 8, &len, 4);
	put(im, a + off, data, (size_t)elem * n);
	return a;
}

static void add_dex(struct artlayout *l, const char *path, const char *location)
{
	struct dex *d = dex__open_location(path, 0);

	cr_assert_not_null(d, "%s", path);
	cr_assert_eq(artlayout__add_dex(l, d, location), 0);
}

/* The image of a fixture set: java.lang.Class (its own class), one DexCache per dex. */
static void image_init(struct image *im, const char *set, int sdk)
{
	char path[256];

	memset(im, 0, sizeof(*im));
	im->b = calloc(1, IMAGE_SIZE);
	im->base = im->top = BASE;
	alloc(im, 8); /* nothing at the base address */
	im->l = artlayout__new(art_rules_for_sdk(sdk));
	snprintf(path, sizeof(path), FIX "%s/core.dex", set);
	add_dex(im->l, path, CORE_LOC);
	snprintf(path, sizeof(path), FIX "%s/framework.jar", set);
	add_dex(im->l, path, FW_LOC);
	snprintf(path, sizeof(path), FIX "%s/framework.jar!classes2.dex", set);
	add_dex(im->l, path, FW2_LOC);
	im->class_class = new_object(im, 0, "Ljava/lang/Class;");
	put32(im, im->class_class, im->class_class);
	const char *locs[] = { CORE_LOC, FW_LOC, FW2_LOC };
	for (int i = 0; i < 3; i++) {
		im->dex_caches[i] = new_object(im, 0, "Ljava/lang/DexCache;");
		set_ref(im, im->dex_caches[i], "Ljava/lang/DexCache;", "location",
			new_string(im, locs[i], sdk));
	}
	im->buf = (struct heap_buffer){ im->base, im->b, IMAGE_SIZE };
	heap_mem_buffer(&im->mem, &im->buf);
}

static void image_free(struct image *im)
{
	artlayout__free(im->l);
	free(im->b);
}

/* A class object for descriptor, defined in the dex of dex_cache index which. */
static uint32_t new_class(struct image *im, const char *descriptor, int which)
{
	const char *locs[] = { CORE_LOC, FW_LOC, FW2_LOC };
	const struct dex *d = artlayout__dex(im->l, locs[which]);
	uint32_t k = new_object(im, im->class_class, "Ljava/lang/Class;");
	long type = dex__find_type(d, descriptor);
	int32_t t = (int32_t)type;

	cr_assert_geq(type, 0, "%s", descriptor);
	set_ref(im, k, "Ljava/lang/Class;", "dexCache", im->dex_caches[which]);
	set_field(im, k, "Ljava/lang/Class;", "dexTypeIndex", &t, 4);
	return k;
}

/* A class made by the runtime (array or primitive): no dex cache. */
static uint32_t new_runtime_class(struct image *im, uint32_t component, const char *name, int sdk)
{
	uint32_t k = new_object(im, im->class_class, "Ljava/lang/Class;");

	set_ref(im, k, "Ljava/lang/Class;", "componentType", component);
	if (name)
		set_ref(im, k, "Ljava/lang/Class;", "name", new_string(im, name, sdk));
	return k;
}

Test(heap, decodes_compressed_and_utf16_strings_and_checks_their_hash)
{
	struct image im;
	struct heap_string info;
	char out[64];

	image_init(&im, "android14b1", 34);
	/* "é€😀!": U+00E9, U+20AC, U+1F600 as a surrogate pair, '!'. */
	const uint16_t u16[] = { 0xe9, 0x20ac, 0xd83d, 0xde00, '!' };
	uint32_t ascii = new_string(&im, "alpha", 34);
	uint32_t wide = new_string16(&im, u16, 5, 34, true);
	uint32_t unhashed = new_string16(&im, u16, 5, 34, false);
	uint32_t empty = new_string(&im, "", 34);
	struct heap *h = heap__new(&im.mem, im.l, 34);

	cr_assert_not_null(h);
	cr_assert_eq(heap__string(h, ascii, out, sizeof(out), &info), 5);
	cr_assert_str_eq(out, "alpha");
	cr_assert(info.compressed);
	cr_assert_eq(info.length, 5);
	cr_assert_eq(heap__string(h, wide, out, sizeof(out), &info), 10);
	cr_assert_str_eq(out, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80!");
	cr_assert_not(info.compressed);
	cr_assert_eq(info.length, 5);
	cr_assert_eq((uint32_t)info.hash, java_hash(u16, 5));
	cr_assert_eq(heap__string(h, unhashed, out, sizeof(out), &info), 10, "hash not computed");
	cr_assert_eq(info.hash, 0);
	cr_assert_eq(heap__string(h, empty, out, sizeof(out), NULL), 0);
	cr_assert_str_eq(out, "");
	cr_assert_eq(heap__string(h, ascii, out, 4, NULL), 3, "truncated");
	cr_assert_str_eq(out, "alp");
	/* A wrong stored hash: not a string. */
	uint32_t bad = 12345;
	set_field(&im, ascii, "Ljava/lang/String;", "hash", &bad, 4);
	cr_assert_eq(heap__string(h, ascii, out, sizeof(out), NULL), -EINVAL);
	/* An absurd length. */
	int32_t huge = (int32_t)(HEAP_MAX_LENGTH + 1) << 1;
	set_field(&im, wide, "Ljava/lang/String;", "count", &huge, 4);
	cr_assert_eq(heap__string(h, wide, out, sizeof(out), NULL), -EINVAL);
	heap__free(h);
	image_free(&im);
}

/* Before Android 8.0 there is no compression: count is the length, the data UTF-16. */
Test(heap, strings_before_android_8_are_always_utf16)
{
	struct image im;
	struct heap_string info;
	char out[64];

	image_init(&im, "android10", 24);
	uint32_t s = new_string(&im, "scaleX", 24);
	struct heap *h = heap__new(&im.mem, im.l, 24);
	cr_assert_eq(heap__string(h, s, out, sizeof(out), &info), 6);
	cr_assert_str_eq(out, "scaleX");
	cr_assert_not(info.compressed);
	heap__free(h);
	/* The same bytes read as Android 8.0+ (count 6: three compressed chars) do not give the
	 * stored hash: the string is rejected rather than misread. */
	h = heap__new(&im.mem, im.l, 26);
	cr_assert_eq(heap__string(h, s, out, sizeof(out), &info), -EINVAL);
	heap__free(h);
	image_free(&im);
}

Test(heap, reads_arrays_of_each_element_size_and_bounds)
{
	struct image im;
	const int32_t ints[] = { 7, -8, 9 };
	const int64_t longs[] = { 1ll << 40, -5 };
	const uint8_t bytes[] = { 1, 2, 3, 4, 5 };
	int32_t i3[3];
	int64_t l2[2];
	uint8_t b2[2];
	uint32_t len;

	image_init(&im, "android14b1", 34);
	uint32_t ia = new_array(&im, 0, 4, 3, ints), la = new_array(&im, 0, 8, 2, longs);
	uint32_t ba = new_array(&im, 0, 1, 5, bytes);
	struct heap *h = heap__new(&im.mem, im.l, 34);

	cr_assert_eq(heap__array_length(h, ia, &len), 0);
	cr_assert_eq(len, 3);
	cr_assert_eq(heap__array_read(h, ia, 4, 0, 3, i3), 0);
	cr_assert_arr_eq(i3, ints, sizeof(ints));
	cr_assert_eq(heap__array_read(h, la, 8, 0, 2, l2), 0, "64-bit data at 16");
	cr_assert_arr_eq(l2, longs, sizeof(longs));
	cr_assert_eq(heap__array_read(h, ba, 1, 3, 2, b2), 0);
	cr_assert_eq(b2[0], 4);
	cr_assert_eq(b2[1], 5);
	cr_assert_eq(heap__array_read(h, ia, 4, 2, 2, i3), -ERANGE);
	cr_assert_eq(heap__array_read(h, ia, 3, 0, 1, i3), -EINVAL);
	int32_t neg = -1;
	put(&im, ia + 8, &neg, 4);
	cr_assert_eq(heap__array_length(h, ia, &len), -EINVAL);
	heap__free(h);
	image_free(&im);
}

/* Plausibility: alignment, ranges, readable memory, class objects. */
Test(heap, rejects_implausible_addresses_and_class_objects)
{
	struct image im;
	const char *desc;
	uint32_t v;

	image_init(&im, "android14b1", 34);
	uint32_t k = new_class(&im, "Landroid/animation/ValueAnimator;", 1);
	uint32_t va = new_object(&im, k, "Landroid/animation/ValueAnimator;");
	struct heap *h = heap__new(&im.mem, im.l, 34);

	cr_assert_not(heap__plausible(h, 0));
	cr_assert_not(heap__plausible(h, va + 4));
	cr_assert_not(heap__plausible(h, 1ull << 32));
	cr_assert_eq(heap__get_ref(h, va + 4, "Landroid/animation/ValueAnimator;", "mValues", &v),
		     -EINVAL);
	cr_assert_eq(heap__get_ref(h, BASE + IMAGE_SIZE, "Landroid/animation/ValueAnimator;",
				   "mValues", &v),
		     -EFAULT);
	cr_assert_eq(heap__add_range(h, BASE, BASE + 64), 0);
	cr_assert_not(heap__plausible(h, va), "outside the only range");
	heap__free(h);

	h = heap__new(&im.mem, im.l, 34);
	/* Wrong size or kind for the field's type; unknown field. */
	int64_t l;
	cr_assert_eq(heap__get_long(h, va, "Landroid/animation/ValueAnimator;", "mValues", &l),
		     -EINVAL);
	cr_assert_eq(heap__get(h, va, "Landroid/animation/ValueAnimator;", "mDuration", &v, 4),
		     -EINVAL);
	cr_assert_eq(heap__get_ref(h, va, "Landroid/animation/ValueAnimator;", "mNope", &v),
		     -ENOENT);
	/* A class object whose class's class is not itself. */
	uint32_t fake_cc = new_object(&im, 0, "Ljava/lang/Class;");
	put32(&im, fake_cc, im.class_class);
	uint32_t fake_k = new_object(&im, fake_cc, "Ljava/lang/Class;");
	uint32_t o = new_object(&im, fake_k, "Ljava/lang/Object;");
	put32(&im, fake_cc, fake_k);
	cr_assert_eq(heap__class_of(h, o, &desc), -EINVAL);
	/* A type index past the dex's table. */
	uint32_t kb = new_class(&im, "Landroid/animation/Animator;", 1);
	int32_t big = 60000;
	set_field(&im, kb, "Ljava/lang/Class;", "dexTypeIndex", &big, 4);
	cr_assert_eq(heap__class_of(h, new_object(&im, kb, "Ljava/lang/Object;"), &desc), -EINVAL);
	/* A DexCache naming a dex nobody has. */
	uint32_t dc = new_object(&im, 0, "Ljava/lang/DexCache;");
	set_ref(&im, dc, "Ljava/lang/DexCache;", "location",
		new_string(&im, "/nonexistent/x.jar", 34));
	uint32_t kc = new_class(&im, "Landroid/animation/Animator;", 1);
	set_ref(&im, kc, "Ljava/lang/Class;", "dexCache", dc);
	cr_assert_eq(heap__class_of(h, new_object(&im, kc, "Ljava/lang/Object;"), &desc), -ENOENT);
	heap__free(h);
	image_free(&im);
}

/*
 * An ObjectAnimator as the issue needs it read: its class from klass_, its duration, delay,
 * repeat count, property name, PropertyValuesHolders and their keyframes, its target (a
 * WeakReference to a View) and the View's RenderNode, built at the offsets of one version and
 * decoded with that version's layout.
 */
static void object_animator_round_trip(const char *fixture, int sdk)
{
	struct image im;
	const char *desc;
	char out[64];

	image_init(&im, fixture, sdk);
	const char *OA = "Landroid/animation/ObjectAnimator;";
	const char *VA = "Landroid/animation/ValueAnimator;";
	const char *PVH = "Landroid/animation/PropertyValuesHolder;";
	const char *FPVH = "Landroid/animation/PropertyValuesHolder$FloatPropertyValuesHolder;";
	const char *KFS = "Landroid/animation/KeyframeSet;";
	const char *FK = "Landroid/animation/Keyframe$FloatKeyframe;";
	uint32_t k_oa = new_class(&im, OA, 1), k_fpvh = new_class(&im, FPVH, 1);
	uint32_t k_fks = new_class(&im, "Landroid/animation/FloatKeyframeSet;", 1);
	uint32_t k_fk = new_class(&im, FK, 1), k_list = new_class(&im, "Ljava/util/ArrayList;", 0);
	uint32_t k_weak = new_class(&im, "Ljava/lang/ref/WeakReference;", 0);
	uint32_t k_view = new_class(&im, "Landroid/view/View;", 2);
	uint32_t k_rn = new_class(&im, "Landroid/graphics/RenderNode;", 2);
	uint32_t k_float = new_runtime_class(&im, 0, "float", sdk);
	uint32_t k_floats = new_runtime_class(&im, k_float, NULL, sdk);
	uint32_t k_object = new_class(&im, "Ljava/lang/Object;", 0);
	uint32_t k_objects = new_runtime_class(&im, k_object, NULL, sdk);
	uint32_t k_pvhs =
		new_runtime_class(&im, 0, "[Landroid.animation.PropertyValuesHolder;", sdk);

	/* Two float keyframes in an ArrayList, in a FloatKeyframeSet. */
	uint32_t kf[2];
	for (int i = 0; i < 2; i++) {
		float fr = (float)i, val = i ? 1.0f : 0.25f;
		kf[i] = new_object(&im, k_fk, FK);
		set_field(&im, kf[i], FK, "mFraction", &fr, 4);
		set_field(&im, kf[i], FK, "mValue", &val, 4);
	}
	uint32_t elems = new_array(&im, k_objects, 4, 2, kf);
	uint32_t list = new_object(&im, k_list, "Ljava/util/ArrayList;");
	int32_t two = 2;
	set_ref(&im, list, "Ljava/util/ArrayList;", "elementData", elems);
	set_field(&im, list, "Ljava/util/ArrayList;", "size", &two, 4);
	uint32_t kfs = new_object(&im, k_fks, KFS);
	set_ref(&im, kfs, KFS, "mKeyframes", list);
	set_field(&im, kfs, KFS, "mNumKeyframes", &two, 4);
	uint32_t pvh = new_object(&im, k_fpvh, PVH);
	set_ref(&im, pvh, PVH, "mPropertyName", new_string(&im, "alpha", sdk));
	set_ref(&im, pvh, PVH, "mKeyframes", kfs);
	uint32_t pvhs = new_array(&im, k_pvhs, 4, 1, &pvh);

	uint32_t rn = new_object(&im, k_rn, "Landroid/graphics/RenderNode;");
	int64_t native = 0x7a5c001230ll;
	set_field(&im, rn, "Landroid/graphics/RenderNode;", "mNativeRenderNode", &native, 8);
	uint32_t view = new_object(&im, k_view, "Landroid/view/View;");
	set_ref(&im, view, "Landroid/view/View;", "mRenderNode", rn);
	uint32_t weak = new_object(&im, k_weak, "Ljava/lang/ref/WeakReference;");
	set_ref(&im, weak, "Ljava/lang/ref/Reference;", "referent", view);

	uint32_t oa = new_object(&im, k_oa, OA);
	int64_t dur = 300, delay = 50;
	int32_t repeat = 2;
	set_field(&im, oa, VA, "mDuration", &dur, 8);
	set_field(&im, oa, VA, "mStartDelay", &delay, 8);
	set_field(&im, oa, VA, "mRepeatCount", &repeat, 4);
	set_ref(&im, oa, VA, "mValues", pvhs);
	set_ref(&im, oa, OA, "mTarget", weak);
	set_ref(&im, oa, OA, "mPropertyName", new_string(&im, "alpha", sdk));
	uint32_t floats = new_array(&im, k_floats, 4, 2, (float[]){ 0.5f, 1.5f });

	struct heap *h = heap__new(&im.mem, im.l, sdk);
	cr_assert_not_null(h);
	cr_assert_eq(heap__add_range(h, BASE, BASE + IMAGE_SIZE), 0);

	cr_assert_eq(heap__class_of(h, oa, &desc), 0);
	cr_assert_str_eq(desc, OA);
	cr_assert_eq(heap__is_a(h, oa, "Landroid/animation/Animator;"), 1);
	cr_assert_eq(heap__is_a(h, oa, "Landroid/view/View;"), 0);
	int64_t l;
	int32_t i;
	uint32_t r, refs[4];
	float f;
	cr_assert_eq(heap__get_long(h, oa, OA, "mDuration", &l), 0);
	cr_assert_eq(l, 300);
	cr_assert_eq(heap__get_long(h, oa, OA, "mStartDelay", &l), 0);
	cr_assert_eq(l, 50);
	cr_assert_eq(heap__get_int(h, oa, OA, "mRepeatCount", &i), 0);
	cr_assert_eq(i, 2);
	cr_assert_eq(heap__get_ref(h, oa, OA, "mPropertyName", &r), 0);
	cr_assert_eq(heap__string(h, r, out, sizeof(out), NULL), 5);
	cr_assert_str_eq(out, "alpha");

	/* mValues -> PropertyValuesHolder[] -> its keyframes. */
	cr_assert_eq(heap__get_ref(h, oa, OA, "mValues", &r), 0);
	cr_assert_eq(heap__class_of(h, r, &desc), 0);
	cr_assert_str_eq(desc, "[Landroid/animation/PropertyValuesHolder;");
	cr_assert_eq(heap__array_read(h, r, 4, 0, 1, refs), 0);
	cr_assert_eq(heap__class_of(h, refs[0], &desc), 0);
	cr_assert_str_eq(desc, FPVH);
	cr_assert_eq(heap__get_ref(h, refs[0], PVH, "mKeyframes", &r), 0);
	cr_assert_eq(heap__class_of(h, r, &desc), 0);
	cr_assert_str_eq(desc, "Landroid/animation/FloatKeyframeSet;");
	cr_assert_eq(heap__get_ref(h, r, KFS, "mKeyframes", &r), 0);
	cr_assert_eq(heap__arraylist(h, r, refs, 4), 2);
	cr_assert_eq(heap__arraylist(h, r, refs, 1), 2, "the size, though only one is copied");
	cr_assert_eq(heap__get_float(h, refs[0], FK, "mValue", &f), 0);
	cr_assert_float_eq(f, 0.25f, 0);
	cr_assert_eq(heap__get_float(h, refs[1], FK, "mFraction", &f), 0);
	cr_assert_float_eq(f, 1.0f, 0);

	/* mTarget -> WeakReference.referent -> View.mRenderNode -> mNativeRenderNode. */
	cr_assert_eq(heap__get_ref(h, oa, OA, "mTarget", &r), 0);
	cr_assert_eq(heap__class_of(h, r, &desc), 0);
	cr_assert_str_eq(desc, "Ljava/lang/ref/WeakReference;");
	cr_assert_eq(heap__referent(h, r, &r), 0);
	cr_assert_eq(r, view);
	cr_assert_eq(heap__class_of(h, r, &desc), 0);
	cr_assert_str_eq(desc, "Landroid/view/View;", "from classes2.dex of the jar");
	cr_assert_eq(heap__get_ref(h, r, "Landroid/view/View;", "mRenderNode", &r), 0);
	cr_assert_eq(heap__get_long(h, r, "Landroid/graphics/RenderNode;", "mNativeRenderNode", &l),
		     0);
	cr_assert_eq(l, native);

	/* Runtime classes: a float[] through componentType and the primitive's name. */
	cr_assert_eq(heap__class_of(h, floats, &desc), 0);
	cr_assert_str_eq(desc, "[F");
	cr_assert_eq(heap__is_a(h, floats, "Ljava/lang/Object;"), 1);
	/* Cached per class pointer: a second object of the class gives the same string. */
	const char *again;
	cr_assert_eq(heap__class_of(h, new_object(&im, k_oa, OA), &again), 0);
	cr_assert_eq(heap__class_of(h, oa, &desc), 0);
	cr_assert_eq(desc, again);
	heap__free(h);
	image_free(&im);
}

Test(heap, object_animator_graph_decodes_with_android10_offsets)
{
	object_animator_round_trip("android10", 29);
}

Test(heap, object_animator_graph_decodes_with_android14_offsets)
{
	object_animator_round_trip("android14b1", 34);
}

/* The same bytes decoded with the other version's layout are not the same animator. */
Test(heap, the_wrong_versions_layout_reads_other_fields)
{
	struct image im;
	struct artlayout *other = artlayout__new(ART_RULES_7);
	uint32_t r;

	image_init(&im, "android14b1", 34);
	add_dex(other, FIX "android10/core.dex", CORE_LOC);
	add_dex(other, FIX "android10/framework.jar", FW_LOC);
	uint32_t k = new_class(&im, "Landroid/animation/ValueAnimator;", 1);
	uint32_t va = new_object(&im, k, "Landroid/animation/ValueAnimator;");
	set_ref(&im, va, "Landroid/animation/ValueAnimator;", "mValues", 0x12c00100);
	struct heap *right = heap__new(&im.mem, im.l, 34), *wrong = heap__new(&im.mem, other, 29);
	const char *VA = "Landroid/animation/ValueAnimator;";
	cr_assert_eq(heap__get_ref(right, va, VA, "mValues", &r), 0);
	cr_assert_eq(r, 0x12c00100);
	cr_assert_eq(heap__get_ref(wrong, va, VA, "mValues", &r), 0);
	cr_assert_neq(r, 0x12c00100, "Android 10 has mValues at 36, 14 beta 1 at 40");
	heap__free(right);
	heap__free(wrong);
	artlayout__free(other);
	image_free(&im);
}

/*
 * The process backends on a live child: a string built in memory mapped at a 32-bit address
 * (as ART's heap is), read by the parent with process_vm_readv and with /proc/PID/mem.
 */
Test(heap, reads_a_child_process_through_both_backends)
{
	struct image im;
	char out[64];
	int pipefd[2];

	image_init(&im, "android14b1", 34);
	uint32_t s = new_string(&im, "translationY", 34);
	void *at = mmap((void *)(uintptr_t)BASE, IMAGE_SIZE, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	cr_assert_eq(at, (void *)(uintptr_t)BASE, "mmap at 0x%x: %s", BASE, strerror(errno));
	memcpy(at, im.b, IMAGE_SIZE);
	cr_assert_eq(pipe(pipefd), 0);
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		close(pipefd[1]);
		(void)!read(pipefd[0], &c, 1); /* until the parent is done */
		_exit(0);
	}
	memset(at, 0, IMAGE_SIZE); /* only the child has the image now */
	for (unsigned flags = 0; flags <= HEAP_MEM_PROC_MEM; flags++) {
		struct heap_mem mem;
		cr_assert_eq(heap_mem_process(&mem, pid, flags), 0);
		struct heap *h = heap__new(&mem, im.l, 34);
		cr_assert_eq(heap__string(h, s, out, sizeof(out), NULL), 12, "flags %u", flags);
		cr_assert_str_eq(out, "translationY");
		uint8_t b;
		cr_assert_eq(mem.read(mem.ctx, 8, &b, 1), -EFAULT, "page 0 is not mapped");
		heap__free(h);
		heap_mem_release(&mem);
	}
	close(pipefd[1]);
	close(pipefd[0]);
	cr_assert_eq(waitpid(pid, NULL, 0), pid);
	munmap(at, IMAGE_SIZE);
	image_free(&im);
}

Test(heap, needs_the_core_classes_in_its_layout)
{
	struct artlayout *l = artlayout__new(ART_RULES_12);
	struct heap_buffer b = { BASE, "", 1 };
	struct heap_mem mem;

	heap_mem_buffer(&mem, &b);
	add_dex(l, FIX "android14b1/framework.jar", FW_LOC);
	errno = 0;
	cr_assert_null(heap__new(&mem, l, 34));
	cr_assert_eq(errno, ENOENT, "no java.lang.String without core-oj");
	heap_mem_release(&mem);
	artlayout__free(l);
}

/* A proxy class has Proxy's DexCache and no type of its own there: its name_ names it. */
Test(heap, proxies_are_named_by_name_not_by_their_dex_cache)
{
	struct image im;
	const char *desc;

	image_init(&im, "android14b1", 34);
	uint32_t k = new_class(&im, "Landroid/animation/Animator;", 1);
	int32_t zero = 0;
	set_field(&im, k, "Ljava/lang/Class;", "dexTypeIndex", &zero, 4);
	set_ref(&im, k, "Ljava/lang/Class;", "name", new_string(&im, "$Proxy7", 34));
	uint32_t o = new_object(&im, k, "Ljava/lang/Object;");
	struct heap *h = heap__new(&im.mem, im.l, 34);
	cr_assert_eq(heap__class_of(h, o, &desc), 0);
	cr_assert_str_eq(desc, "L$Proxy7;");
	heap__free(h);
	image_free(&im);
}
