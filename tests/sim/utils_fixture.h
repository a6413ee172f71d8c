/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The simulator's stand-in for Android's libutils: just enough of android::String8 for
 * RenderNode::setName (system/core/libutils/include/utils/String8.h). Its only member is the
 * character pointer, as in the real class, so a String8 field's first word is the C string.
 * C++ only; exported from libutils.so so libhwui.so calls setTo through its PLT.
 */
#ifndef ANIMSIM_UTILS_FIXTURE_H
#define ANIMSIM_UTILS_FIXTURE_H

#include <stdint.h>

#define UTILS_API __attribute__((visibility("default")))

namespace android {

typedef int32_t status_t;

class String8 {
      public:
	String8() : mString(nullptr)
	{
	}
	UTILS_API ~String8();
	/* Mangles to _ZN7android7String85setToEPKc, like the real one. 0 or -ENOMEM. */
	UTILS_API status_t setTo(const char *other);
	const char *string() const
	{
		return mString;
	}

      private:
	String8(const String8 &) = delete;
	String8 &operator=(const String8 &) = delete;

	const char *mString;
};

} // namespace android

#endif /* ANIMSIM_UTILS_FIXTURE_H */
