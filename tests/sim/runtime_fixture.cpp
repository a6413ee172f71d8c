// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fixture libandroid_runtime.so: the vsync request of core/jni/android_view_DisplayEventReceiver.cpp,
 * `static void nativeScheduleVsync(JNIEnv*, jclass, jlong receiverPtr)` in namespace android,
 * so it gets the real mangled name (_ZN7androidL19nativeScheduleVsyncEP7_JNIEnvP7_jclassl),
 * reached through a registration table as RegisterNatives reaches it.
 */
#include <stdint.h>

#include "hwui_fixture.h"

class _jobject {};
class _jclass : public _jobject {};
typedef _jclass *jclass;
struct _JNIEnv;
typedef _JNIEnv JNIEnv;
typedef int64_t jlong;

namespace android {

static volatile jlong gPendingReceiver; /* what DisplayEventDispatcher::scheduleVsync marks */

__attribute__((noinline, used)) static void nativeScheduleVsync(JNIEnv *, jclass, jlong receiverPtr)
{
	gPendingReceiver = receiverPtr;
}

static const struct runtime_fixture_methods gMethods = {
	reinterpret_cast<void (*)(void *, void *, int64_t)>(nativeScheduleVsync),
};

} // namespace android

extern "C" __attribute__((visibility("default"))) const struct runtime_fixture_methods *
runtime_fixture_methods(void)
{
	return &android::gMethods;
}
