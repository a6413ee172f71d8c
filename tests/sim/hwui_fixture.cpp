// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fixture libhwui.so. Mirrors libs/hwui/jni/android_graphics_RenderNode.cpp closely enough
 * that the static JNI functions get the real mangled names (namespace android, internal
 * linkage, (jlong, float) arguments, (JNIEnv*, jobject, jstring) for create), and each getter
 * compiles to one load plus ret, the pattern animtrace decodes to find the field offsets.
 * create is the real one's shape (AOSP core/jni/android_view_RenderNode.cpp, Android 9 and
 * 10, and libs/hwui/jni/android_graphics_RenderNode.cpp, 11+): operator new, then
 * GetStringUTFChars and RenderNode::setName, whose String8::setTo(node + mName's offset)
 * call reveals where the name lives. No libstdc++ is used (the fixture brings its own
 * operator new), so the same objects link into a static C program too.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "hwui_fixture.h"
#include "utils_fixture.h"

typedef unsigned char jboolean;
typedef int64_t jlong;

/* jni.h's C++ types, named as there so that create mangles to the real name. */
class _jobject {};
class _jstring : public _jobject {};
typedef _jobject *jobject;
typedef _jstring *jstring;

struct _JNIEnv {
	const struct hwui_jni_functions *functions;

	const char *GetStringUTFChars(jstring string, jboolean *is_copy)
	{
		return functions->GetStringUTFChars(this, string, is_copy);
	}
	void ReleaseStringUTFChars(jstring string, const char *utf)
	{
		functions->ReleaseStringUTFChars(this, string, utf);
	}
};
typedef _JNIEnv JNIEnv;

static_assert(offsetof(hwui_jni_functions, GetStringUTFChars) ==
		      HWUI_JNI_GET_STRING_UTF_CHARS * sizeof(void *),
	      "JNI index");
static_assert(offsetof(hwui_jni_functions, ReleaseStringUTFChars) ==
		      HWUI_JNI_RELEASE_STRING_UTF_CHARS * sizeof(void *),
	      "JNI index");

/*
 * libc++ without exceptions aborts when out of memory; so does this one. GCC keeps the
 * replaceable allocation functions at default visibility whatever -fvisibility says, so
 * libhwui.so exports them and calls operator new through its PLT, as Android's libhwui calls
 * libc++'s; a static build calls it directly.
 *
 * Freed blocks go on a small LIFO list and the next operator new of the same size takes the
 * last one back, so a node made right after one is freed gets its address, as a real
 * allocator often does (the simulator's realloc scenario relies on it). Only RenderNodes
 * come through here, from one thread (the app's UI thread).
 */
#define FREE_LIST_MAX 8
#define BLOCK_HDR 16 /* the size, in front; keeps malloc's 16-byte alignment */

struct free_block {
	void *p;
	size_t size;
};

static struct free_block free_list[FREE_LIST_MAX];
static int n_free;

static void *alloc_block(size_t size)
{
	for (int i = n_free - 1; i >= 0; i--)
		if (free_list[i].size == size) {
			void *p = free_list[i].p;

			free_list[i] = free_list[--n_free];
			return p;
		}
	char *p = static_cast<char *>(malloc(size + BLOCK_HDR));

	if (!p)
		abort();
	*reinterpret_cast<size_t *>(p) = size;
	return p + BLOCK_HDR;
}

static void free_block(void *p)
{
	char *hdr = static_cast<char *>(p) - BLOCK_HDR;

	if (!p)
		return;
	if (n_free == FREE_LIST_MAX) {
		free(static_cast<char *>(free_list[0].p) - BLOCK_HDR);
		free_list[0] = free_list[--n_free];
	}
	free_list[n_free++] = { p, *reinterpret_cast<size_t *>(hdr) };
}

void *operator new(size_t size)
{
	return alloc_block(size);
}

void operator delete(void *p) noexcept
{
	free_block(p);
}

void operator delete(void *p, size_t) noexcept
{
	free_block(p);
}

/* libhwui-noname.so, for the decoder's tests: a create that never names its node. */
#ifdef HWUI_FIXTURE_NO_SET_NAME
#define SET_NAME(node, name) ((void)(node), (void)(name))
#else
#define SET_NAME(node, name) (node)->setName(name)
#endif

/* Kept and out of line: reached only through the table, as JNI natives are. */
#define JNI_NATIVE __attribute__((noinline, used))

namespace android {

static const uint64_t NODE_MAGIC = 0x52656e6465724e64ULL; /* "RenderNd" */

/* RenderNode.cpp's generateId(): ids start at 1. */
static int64_t generate_id()
{
	static int64_t next_id;

	return __atomic_add_fetch(&next_id, 1, __ATOMIC_RELAXED);
}

struct RenderNodeFixture {
	RenderNodeFixture() : mUniqueId(generate_id())
	{
	}

	/* RenderNode.h's setName: keep the part after the last '.'. */
	void setName(const char *name)
	{
		if (name) {
			const char *lastPeriod = strrchr(name, '.');

			mName.setTo(lastPeriod ? lastPeriod + 1 : name);
		}
	}

	uint64_t magic = NODE_MAGIC;
	char reserved0[HWUI_OFF_UNIQUE_ID - sizeof(uint64_t)] = {};
	const int64_t mUniqueId;
	String8 mName;
	char reserved1[HWUI_OFF_ALPHA - HWUI_OFF_NAME - sizeof(String8)] = {};
	float alpha = 1.0f;
	float translationX = 0.0f;
	float translationY = 0.0f;
	float translationZ = 0.0f;
	float elevation = 0.0f;
	float rotation = 0.0f;
	float rotationX = 0.0f;
	float rotationY = 0.0f;
	float scaleX = 1.0f;
	float scaleY = 1.0f;
};

static_assert(sizeof(String8) == sizeof(const char *), "String8 is one pointer");
static_assert(offsetof(RenderNodeFixture, mUniqueId) == HWUI_OFF_UNIQUE_ID, "id offset");
static_assert(offsetof(RenderNodeFixture, mName) == HWUI_OFF_NAME, "mName offset");
static_assert(offsetof(RenderNodeFixture, alpha) == HWUI_OFF_ALPHA, "alpha offset");
static_assert(offsetof(RenderNodeFixture, translationX) == HWUI_OFF_TRANSLATION_X, "tx offset");
static_assert(offsetof(RenderNodeFixture, translationY) == HWUI_OFF_TRANSLATION_Y, "ty offset");
static_assert(offsetof(RenderNodeFixture, translationZ) == HWUI_OFF_TRANSLATION_Z, "tz offset");
static_assert(offsetof(RenderNodeFixture, elevation) == HWUI_OFF_ELEVATION, "elev offset");
static_assert(offsetof(RenderNodeFixture, rotation) == HWUI_OFF_ROTATION, "rot offset");
static_assert(offsetof(RenderNodeFixture, rotationX) == HWUI_OFF_ROTATION_X, "rx offset");
static_assert(offsetof(RenderNodeFixture, rotationY) == HWUI_OFF_ROTATION_Y, "ry offset");
static_assert(offsetof(RenderNodeFixture, scaleX) == HWUI_OFF_SCALE_X, "sx offset");
static_assert(offsetof(RenderNodeFixture, scaleY) == HWUI_OFF_SCALE_Y, "sy offset");

static inline RenderNodeFixture *to_node(jlong ptr)
{
	return reinterpret_cast<RenderNodeFixture *>(ptr);
}

#ifdef HWUI_FIXTURE_SETTER_CALLS
/* libhwui-calls.so: setters that call out after the store, which animtrace's decoder cannot
 * clear for one probe a call (insn_setter_store: not a leaf), so they keep a return probe. */
static volatile unsigned long gSets;
__attribute__((noinline)) static void note_set()
{
	gSets = gSets + 1;
}
#define NOTE_SET() note_set()
#else
#define NOTE_SET() ((void)0)
#endif

/* RenderProperties' RP_SET: store and report a change only when the value differs. */
static inline bool rp_set(float &field, float value)
{
	if (field != value) {
		field = value;
		NOTE_SET();
		return true;
	}
	return false;
}

/* MathUtils::clampAlpha */
static inline float clamp_alpha(float alpha)
{
	if (alpha <= 0.0f)
		return 0.0f;
	if (alpha >= 1.0f)
		return 1.0f;
	return alpha;
}

JNI_NATIVE static jlong android_view_RenderNode_create(JNIEnv *env, jobject, jstring name)
{
	RenderNodeFixture *renderNode = new RenderNodeFixture();

	if (name != NULL) {
		const char *textArray = env->GetStringUTFChars(name, NULL);

		SET_NAME(renderNode, textArray);
		env->ReleaseStringUTFChars(name, textArray);
	}
	return reinterpret_cast<jlong>(renderNode);
}

JNI_NATIVE static jlong android_view_RenderNode_getUniqueId(jlong renderNodePtr)
{
	return to_node(renderNodePtr)->mUniqueId;
}

JNI_NATIVE static jboolean android_view_RenderNode_setAlpha(jlong renderNodePtr, float alpha)
{
	return rp_set(to_node(renderNodePtr)->alpha, clamp_alpha(alpha));
}

JNI_NATIVE static float android_view_RenderNode_getAlpha(jlong renderNodePtr)
{
	return to_node(renderNodePtr)->alpha;
}

#define FLOAT_PROPERTY(Name, field)                                                       \
	JNI_NATIVE static jboolean android_view_RenderNode_set##Name(jlong renderNodePtr, \
								     float value)         \
	{                                                                                 \
		return rp_set(to_node(renderNodePtr)->field, value);                      \
	}                                                                                 \
	JNI_NATIVE static float android_view_RenderNode_get##Name(jlong renderNodePtr)    \
	{                                                                                 \
		return to_node(renderNodePtr)->field;                                     \
	}

FLOAT_PROPERTY(TranslationX, translationX)
FLOAT_PROPERTY(TranslationY, translationY)
FLOAT_PROPERTY(TranslationZ, translationZ)
FLOAT_PROPERTY(Elevation, elevation)
FLOAT_PROPERTY(Rotation, rotation)
FLOAT_PROPERTY(RotationX, rotationX)
FLOAT_PROPERTY(RotationY, rotationY)
FLOAT_PROPERTY(ScaleX, scaleX)
FLOAT_PROPERTY(ScaleY, scaleY)

/* libs/hwui/jni/android_graphics_DisplayListCanvas.cpp (12+): the node in the second argument. */
static volatile int64_t gLastRecorded;
JNI_NATIVE static void android_view_DisplayListCanvas_finishRecording(jlong canvasPtr,
								      jlong renderNodePtr)
{
	gLastRecorded = renderNodePtr ^ canvasPtr;
}

static const struct hwui_fixture_methods gMethods = {
	{ "alpha", "translationX", "translationY", "translationZ", "elevation", "rotation",
	  "rotationX", "rotationY", "scaleX", "scaleY" },
	{ HWUI_OFF_ALPHA, HWUI_OFF_TRANSLATION_X, HWUI_OFF_TRANSLATION_Y, HWUI_OFF_TRANSLATION_Z,
	  HWUI_OFF_ELEVATION, HWUI_OFF_ROTATION, HWUI_OFF_ROTATION_X, HWUI_OFF_ROTATION_Y,
	  HWUI_OFF_SCALE_X, HWUI_OFF_SCALE_Y },
	{ android_view_RenderNode_setAlpha, android_view_RenderNode_setTranslationX,
	  android_view_RenderNode_setTranslationY, android_view_RenderNode_setTranslationZ,
	  android_view_RenderNode_setElevation, android_view_RenderNode_setRotation,
	  android_view_RenderNode_setRotationX, android_view_RenderNode_setRotationY,
	  android_view_RenderNode_setScaleX, android_view_RenderNode_setScaleY },
	{ android_view_RenderNode_getAlpha, android_view_RenderNode_getTranslationX,
	  android_view_RenderNode_getTranslationY, android_view_RenderNode_getTranslationZ,
	  android_view_RenderNode_getElevation, android_view_RenderNode_getRotation,
	  android_view_RenderNode_getRotationX, android_view_RenderNode_getRotationY,
	  android_view_RenderNode_getScaleX, android_view_RenderNode_getScaleY },
	hwui_fixture_create_node,
	hwui_fixture_free_node,
	/* _JNIEnv and hwui_jni_env have one layout; only the C++ names differ. */
	reinterpret_cast<hwui_create>(android_view_RenderNode_create),
	android_view_RenderNode_getUniqueId,
	android_view_DisplayListCanvas_finishRecording,
};

/* A JNIEnv for C callers: their jstrings are C strings. */
static const char *utf_chars(void *, void *string, unsigned char *is_copy)
{
	if (is_copy)
		*is_copy = 0;
	return static_cast<const char *>(string);
}

static void release_utf_chars(void *, void *, const char *)
{
}

static const struct hwui_jni_functions c_string_jni = {
	{ NULL },
	utf_chars,
	release_utf_chars,
};

} // namespace android

extern "C" {

__attribute__((visibility("default"))) const struct hwui_fixture_methods *hwui_fixture_methods(void)
{
	return &android::gMethods;
}

/* Like RenderNode.create(getClass().getName()): the native name keeps the simple name. */
__attribute__((visibility("default"))) int64_t hwui_fixture_create_node(const char *class_name)
{
	struct hwui_jni_env env = { &android::c_string_jni };

	if (!class_name) {
		errno = EINVAL;
		return 0;
	}
	return android::gMethods.create(&env, NULL, const_cast<char *>(class_name));
}

__attribute__((visibility("default"))) void hwui_fixture_free_node(int64_t ptr)
{
	delete android::to_node(ptr);
}

} // extern "C"
