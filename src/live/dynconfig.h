/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A DynamicAnimation's configuration (model.h struct dyn_config) read from its object at
 * start() through the heap reader (live/heap.h): the framework's copy
 * (com.android.internal.dynamicanimation.animation, in framework.jar on the boot class path)
 * and androidx's (androidx.dynamicanimation.animation, in the app's own APK: the heap reader
 * opens the dex its Class.dexCache's location names).
 *
 * Fields as AOSP declares them (frameworks/base core/java/com/android/internal/
 * dynamicanimation/animation/, checked at aosp-mirror/platform_frameworks_base: DynamicAnimation
 * 052ac3d, SpringAnimation 42d96bb, SpringForce 37b59a0, FlingAnimation 1246007; androidx's
 * copy alike: androidx/androidx dynamicanimation DynamicAnimation.java 0ccdd90, whose
 * mProperty is a FloatPropertyCompat):
 *   DynamicAnimation.java: float mVelocity; float mValue (UNSET = Float.MAX_VALUE until
 *     setStartValue, or startAnimationInternal reads the property: at start()'s entry it is
 *     the start value only when boolean mStartValueIsSet); float mMinVisibleChange
 *     (setMinimumVisibleChange throws unless > 0; the constructors set 1, 1/10, 1/256, 1/500);
 *   SpringAnimation.java: SpringForce mSpring (null until setSpring or a final position);
 *   SpringForce.java: double mNaturalFreq (= sqrt(stiffness): setStiffness throws unless
 *     stiffness > 0), double mDampingRatio (setDampingRatio throws below 0), double
 *     mFinalPosition (UNSET = Double.MAX_VALUE: sanityCheck throws at start());
 *   FlingAnimation.java: final DragForce mFlingForce; FlingAnimation$DragForce: float
 *     mFriction = -4.2 * the friction scalar (setFriction throws unless the scalar > 0).
 * Every value is checked against those bounds; a check that fails makes the whole read fail,
 * never a value. A spring force not set yet (null, or no final position: its start() throws)
 * is left unknown, not wrong.
 *
 * The object's own fields come from the probe's copy of its head (the state at start()); the
 * SpringForce and DragForce objects are read from the process when the record is decoded, so
 * a force changed in between (setStiffness right after start()) reads as changed.
 */
#ifndef ANIMTRACE_DYNCONFIG_H
#define ANIMTRACE_DYNCONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "live/heap.h"
#include "model/model.h"

/* The configuration of the DynamicAnimation at obj into c. 0, or -errno with one sentence in
 * why (-EINVAL: a value failed its check, the layout does not match this heap; -ENOENT: no
 * DynamicAnimation class of either package is known; other: a read failed). */
int dynconfig_read(struct heap *h, uint64_t obj, struct dyn_config *c, char *why, size_t n);

#endif
