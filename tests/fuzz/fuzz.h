/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Helpers shared by the libFuzzer targets. A broken promise of a module contract aborts,
 * so libFuzzer records it as a finding just like a sanitizer report.
 */
#ifndef ANIMTRACE_FUZZ_H
#define ANIMTRACE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/marker.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)                                                                    \
	do {                                                                                \
		if (!(cond)) {                                                              \
			fprintf(stderr, "%s:%d: contract broken: %s\n", __FILE__, __LINE__, \
				#cond);                                                     \
			abort();                                                            \
		}                                                                           \
	} while (0)

/*
 * Slices must lie inside [b, b + len): touching every byte makes ASan report a slice that
 * points past the input even when the pointer arithmetic alone would look plausible.
 */
static inline void fuzz_check_slice(struct strv v, const char *b, size_t len)
{
	volatile char sink = 0;
	size_t i;

	if (!v.len)
		return;
	FUZZ_CHECK(v.p >= b && v.p <= b + len && v.len <= (size_t)(b + len - v.p));
	for (i = 0; i < v.len; i++)
		sink ^= v.p[i];
	(void)sink;
}

/* What replay does with a payload: the marker parser must keep its slices in the payload. */
static inline void fuzz_marker(const char *p, size_t len)
{
	struct marker m;

	if (marker_parse(p, len, &m) != 0)
		return;
	fuzz_check_slice(m.name, p, len);
	fuzz_check_slice(m.track, p, len);
	FUZZ_CHECK(m.tgid >= -1);
	(void)strv_eq(m.name, "animator");
	(void)strv_starts_with(m.name, "animator:");
}

#endif
