// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* A whole replay (fuzz_replay.h) of a Perfetto protobuf trace. */
#include "fuzz_replay.h"
#include "replay/pftrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (pftrace_detect(data, size))
		fuzz_replay(data, size);
	return 0;
}
