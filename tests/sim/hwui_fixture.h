/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The simulator's stand-in for Android's libhwui: RenderNode property setters and getters
 * with the real (static, mangled) names, reached only through a registration table the way
 * JNI's RegisterNatives reaches them, so the calls stay real calls a uprobe can see.
 */
#ifndef ANIMSIM_HWUI_FIXTURE_H
#define ANIMSIM_HWUI_FIXTURE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum hwui_prop {
	HWUI_ALPHA = 0,
	HWUI_TRANSLATION_X,
	HWUI_TRANSLATION_Y,
	HWUI_TRANSLATION_Z,
	HWUI_ELEVATION,
	HWUI_ROTATION,
	HWUI_ROTATION_X,
	HWUI_ROTATION_Y,
	HWUI_SCALE_X,
	HWUI_SCALE_Y,
	HWUI_PROP_COUNT,
};

/*
 * Field offsets in the fixture's native RenderNode. Chosen unlike Android's (alpha at 500,
 * mUniqueId at 0x10 and mName at 0x18 on Android 10+) so a tool that hardcodes offsets
 * instead of decoding the getters and android_view_RenderNode_create fails visibly.
 */
#define HWUI_OFF_UNIQUE_ID 0x20 /* int64_t mUniqueId, before mName as on Android 10+ */
#define HWUI_OFF_NAME 0x28 /* String8 mName (one const char *): class name after the last '.' */
#define HWUI_OFF_ALPHA 0x4c
#define HWUI_OFF_TRANSLATION_X 0x50
#define HWUI_OFF_TRANSLATION_Y 0x54
#define HWUI_OFF_TRANSLATION_Z 0x58
#define HWUI_OFF_ELEVATION 0x5c
#define HWUI_OFF_ROTATION 0x60
#define HWUI_OFF_ROTATION_X 0x64
#define HWUI_OFF_ROTATION_Y 0x68
#define HWUI_OFF_SCALE_X 0x6c
#define HWUI_OFF_SCALE_Y 0x70

/*
 * The part of JNI's function table RenderNode create uses, at the real indexes of
 * JNINativeInterface (libnativehelper's jni.h): Android 9's create loads them from 1352 and
 * 1360 (169 and 170 pointers in).
 */
#define HWUI_JNI_GET_STRING_UTF_CHARS 169
#define HWUI_JNI_RELEASE_STRING_UTF_CHARS 170

struct hwui_jni_functions {
	void *reserved[HWUI_JNI_GET_STRING_UTF_CHARS];
	const char *(*GetStringUTFChars)(void *env, void *string, unsigned char *is_copy);
	void (*ReleaseStringUTFChars)(void *env, void *string, const char *utf);
};

/* JNIEnv as C++ code sees it (struct _JNIEnv): its first member points at the table. */
struct hwui_jni_env {
	const struct hwui_jni_functions *functions;
};

/* jlong android_view_RenderNode_create(JNIEnv *env, jobject clazz, jstring name) */
typedef int64_t (*hwui_create)(struct hwui_jni_env *env, void *clazz, void *name);
/* jlong android_view_RenderNode_getUniqueId(jlong renderNodePtr) */
typedef int64_t (*hwui_unique_id)(int64_t node);

/* jboolean android_view_RenderNode_setX(jlong renderNodePtr, float value) */
typedef unsigned char (*hwui_setter)(int64_t node, float value);
/* float android_view_RenderNode_getX(jlong renderNodePtr) */
typedef float (*hwui_getter)(int64_t node);

struct hwui_fixture_methods {
	const char *name[HWUI_PROP_COUNT]; /* Java property names: "alpha", "translationX", ... */
	unsigned int offset[HWUI_PROP_COUNT];
	hwui_setter set[HWUI_PROP_COUNT];
	hwui_getter get[HWUI_PROP_COUNT];
	int64_t (*create_node)(const char *class_name);
	void (*free_node)(int64_t node);
	hwui_create create; /* the JNI native itself, for a caller with its own JNIEnv */
	hwui_unique_id unique_id;
	/* void android_view_DisplayListCanvas_finishRecording(jlong canvasPtr,
	 * jlong renderNodePtr): Android 12+ (CriticalNative), the node gets its new list */
	void (*finish_recording)(int64_t canvas, int64_t node);
};

/* The simulator's stand-in for libandroid_runtime's vsync request (runtime_fixture.cpp). */
struct runtime_fixture_methods {
	/* static void android::nativeScheduleVsync(JNIEnv*, jclass, jlong receiverPtr) */
	void (*schedule_vsync)(void *env, void *clazz, int64_t receiver);
};

/* The registration table of libandroid_runtime.so; valid for the life of the library. */
const struct runtime_fixture_methods *runtime_fixture_methods(void);

/* The registration table; valid for the life of the library. */
const struct hwui_fixture_methods *hwui_fixture_methods(void);
/*
 * A node with Android's defaults (alpha 1, scale 1, the rest 0) and the next unique id, made
 * by android_view_RenderNode_create with a JNIEnv whose strings are C strings, so the name
 * really goes through String8::setTo at HWUI_OFF_NAME. 0 with errno EINVAL for no name;
 * aborts when out of memory (operator new without exceptions, as on Android).
 */
int64_t hwui_fixture_create_node(const char *class_name);
/* Frees a node; accepts 0. */
void hwui_fixture_free_node(int64_t node);

#ifdef __cplusplus
}
#endif

#endif /* ANIMSIM_HWUI_FIXTURE_H */
