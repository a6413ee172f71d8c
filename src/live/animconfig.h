/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * An animator's configuration (model.h struct anim_config) read from its ValueAnimator object
 * through the heap reader (live/heap.h): mDuration, mStartDelay, mRepeatCount, mRepeatMode,
 * mInterpolator's class, mValues (each PropertyValuesHolder's mPropertyName and the values of
 * its KeyframeSet's mFirstKeyframe and mLastKeyframe; an ArgbEvaluator makes int values
 * colours) and, for an ObjectAnimator, mTarget (a WeakReference) with its class and, for a
 * View, View.mRenderNode -> RenderNode.mNativeRenderNode.
 *
 * Fields as AOSP frameworks/base declares them in core/java/android/animation/
 * {ValueAnimator,ObjectAnimator,PropertyValuesHolder,KeyframeSet,Keyframe}.java,
 * view/View.java and graphics/java/android/graphics/RenderNode.java (android-10.0.0_r36 and
 * android-u-beta-1-gpl alike: tests/fixtures/dex); their offsets are the layout's.
 *
 * Every value is checked before it is believed: a duration or start delay within 0..1 h
 * (ValueAnimator.setDuration throws below 0; setStartDelay clamps below 0 since Android 8),
 * a repeat count within -1..10^6, a repeat mode RESTART or REVERSE, objects of the classes the
 * fields declare, at most AT_HEAP_HOLDERS holders, finite float values, a native RenderNode
 * that is a user-space address. A check that fails makes the whole read fail, never a value.
 */
#ifndef ANIMTRACE_ANIMCONFIG_H
#define ANIMTRACE_ANIMCONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "live/heap.h"
#include "model/model.h"

#define ANIMCONFIG_MAX_MS (3600ll * 1000) /* durations and start delays: 1 h */
#define ANIMCONFIG_MAX_REPEAT 1000000
#define AT_HEAP_HOLDERS 64 /* PropertyValuesHolders of one animator */

/*
 * The configuration of the ValueAnimator (or subclass) at obj into c (known set). Values that
 * are legitimately absent stay unknown: a null interpolator or mValues, a cleared target, a
 * class whose dex is not at hand. 0, or -errno with one sentence in why (-EINVAL: a value
 * failed its check, the layout does not match this heap; other: a read failed).
 */
int animconfig_read(struct heap *h, uint64_t obj, struct anim_config *c, char *why, size_t n);

/*
 * The name the seed gives an interpolator of class descriptor desc: the framework's
 * android.view.animation.FooInterpolator (and androidx's) is "Foo", PathInterpolator keeps its
 * name, any other class (an app's, a lambda) its name without the package.
 */
void animconfig_interp_name(const char *desc, char *out, size_t n);

#endif
