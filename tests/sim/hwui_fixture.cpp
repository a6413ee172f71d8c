// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fixture libhwui.so. Mirrors libs/hwui/jni/android_graphics_RenderNode.cpp closely enough
 * that the static JNI functions get the real mangled names (namespace android, internal
 * linkage, (jlong, float) arguments), and each getter compiles to one load plus ret, the
 * pattern animtrace decodes to find the field offsets. No libstdc++ is used, so the same
 * object links into a static C program too.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "hwui_fixture.h"

typedef unsigned char jboolean;
typedef int64_t jlong;

/* Kept and out of line: reached only through the table, as JNI natives are. */
#define JNI_NATIVE __attribute__((noinline, used))

namespace android {

struct RenderNodeFixture {
	uint64_t magic;
	uint64_t reserved0;
	const char *mName;
	char reserved1[HWUI_OFF_ALPHA - HWUI_OFF_NAME - sizeof(const char *)];
	float alpha;
	float translationX;
	float translationY;
	float translationZ;
	float elevation;
	float rotation;
	float rotationX;
	float rotationY;
	float scaleX;
	float scaleY;
};

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

static const uint64_t NODE_MAGIC = 0x52656e6465724e64ULL; /* "RenderNd" */

static inline RenderNodeFixture *to_node(jlong ptr)
{
	return reinterpret_cast<RenderNodeFixture *>(ptr);
}

/* RenderProperties' RP_SET: store and report a change only when the value differs. */
static inline bool rp_set(float &field, float value)
{
	if (field != value) {
		field = value;
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

JNI_NATIVE static jboolean android_view_RenderNode_setAlpha(jlong renderNodePtr, float alpha)
{
	return rp_set(to_node(renderNodePtr)->alpha, clamp_alpha(alpha));
}

JNI_NATIVE static float android_view_RenderNode_getAlpha(jlong renderNodePtr)
{
	return to_node(renderNodePtr)->alpha;
}

#define FLOAT_PROPERTY(Name, field)                                                        \
	JNI_NATIVE static jboolean android_view_RenderNode_set##Name(jlong renderNodePtr,  \
								      float value)          \
	{                                                                                  \
		return rp_set(to_node(renderNodePtr)->field, value);                       \
	}                                                                                  \
	JNI_NATIVE static float android_view_RenderNode_get##Name(jlong renderNodePtr)     \
	{                                                                                  \
		return to_node(renderNodePtr)->field;                                      \
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
	android::RenderNodeFixture *node;
	const char *dot;

	if (!class_name) {
		errno = EINVAL;
		return 0;
	}
	node = static_cast<android::RenderNodeFixture *>(calloc(1, sizeof(*node)));
	if (!node)
		return 0;
	dot = strrchr(class_name, '.');
	node->mName = strdup(dot ? dot + 1 : class_name);
	if (!node->mName) {
		free(node);
		return 0;
	}
	node->magic = android::NODE_MAGIC;
	node->alpha = 1.0f;
	node->scaleX = 1.0f;
	node->scaleY = 1.0f;
	return reinterpret_cast<int64_t>(node);
}

__attribute__((visibility("default"))) void hwui_fixture_free_node(int64_t ptr)
{
	android::RenderNodeFixture *node = android::to_node(ptr);

	if (!node)
		return;
	free(const_cast<char *>(node->mName));
	free(node);
}

} // extern "C"
