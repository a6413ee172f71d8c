/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The View properties animtrace probes: the one list every other table is generated from
 * (BPF programs, setter/getter symbol names, engine enum, JSON and box names). Order is the
 * wire format's (enum at_prop) and the engine's (enum view_prop): append, never reorder.
 *
 * X(ENUM, bpf, Jni, json, short):
 *   ENUM  suffix of AT_PROP_* / PROP_*
 *   bpf   suffix of the BPF program at_set_<bpf>
 *   Jni   suffix of android_view_RenderNode_set<Jni> / get<Jni> (AOSP
 *         libs/hwui/jni/android_graphics_RenderNode.cpp; core/jni/android_view_RenderNode.cpp
 *         before Android 11)
 *   json  the ObjectAnimator property name ("animator:<json>"), also the JSON key
 *   short the box format's column name
 */
#ifndef ANIMTRACE_PROPS_H
#define ANIMTRACE_PROPS_H

#define AT_PROPS(X)                                                             \
	X(ALPHA, alpha, Alpha, "alpha", "alpha")                                \
	X(TRANSLATION_X, translation_x, TranslationX, "translationX", "transX") \
	X(TRANSLATION_Y, translation_y, TranslationY, "translationY", "transY") \
	X(TRANSLATION_Z, translation_z, TranslationZ, "translationZ", "transZ") \
	X(ELEVATION, elevation, Elevation, "elevation", "elev")                 \
	X(ROTATION, rotation, Rotation, "rotation", "rot")                      \
	X(ROTATION_X, rotation_x, RotationX, "rotationX", "rotX")               \
	X(ROTATION_Y, rotation_y, RotationY, "rotationY", "rotY")               \
	X(SCALE_X, scale_x, ScaleX, "scaleX", "scaleX")                         \
	X(SCALE_Y, scale_y, ScaleY, "scaleY", "scaleY")

#endif
