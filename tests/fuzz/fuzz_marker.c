// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* marker_parse on the whole input: one atrace payload as a trace_marker write carries it. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_marker((const char *)data, size);
	return 0;
}
