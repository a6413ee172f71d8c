// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fixture libutils.so: android::String8::setTo out of line in a library of its own, so the
 * fixture libhwui's RenderNode create reaches it the way the real one does (a call through
 * the PLT to an import named _ZN7android7String85setToEPKc). Static builds link it in.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "utils_fixture.h"

namespace android {

String8::~String8()
{
	free(const_cast<char *>(mString));
}

status_t String8::setTo(const char *other)
{
	char *copy = strdup(other ? other : "");

	if (!copy)
		return -ENOMEM;
	free(const_cast<char *>(mString));
	mString = copy;
	return 0;
}

} // namespace android
