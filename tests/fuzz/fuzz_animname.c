// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * animname_parse on the whole input: it reads nothing past it, and a name it reads is a fixed
 * point of format-then-parse (what the parser read, formatted, reads back to the same text).
 */
#include <errno.h>
#include <string.h>

#include "fuzz.h"
#include "sinks/animname.h"

static void round_trip(const struct animname *n, enum animname_sep sep)
{
	static char a[ANIMNAME_MAX], b[ANIMNAME_MAX];
	struct animname again;
	size_t len = animname_format(a, sizeof(a), n, sep);
	int r;

	FUZZ_CHECK(len == strlen(a) && len < sizeof(a));
	r = animname_parse(a, len, &again);
	if (len + 1 == sizeof(a) && r < 0)
		return; /* cut to the buffer: it may end inside a field */
	FUZZ_CHECK(r >= 0);
	animname_format(b, sizeof(b), &again, sep);
	FUZZ_CHECK(!strcmp(a, b));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size ? size : 1); /* exactly size bytes: ASan sees a read past them */
	struct animname n;
	int r;

	FUZZ_CHECK(copy);
	memcpy(copy, data, size);
	r = animname_parse(copy, size, &n);
	FUZZ_CHECK(r == -EINVAL || (r >= 0 && (size_t)r <= size));
	if (r >= 0) {
		round_trip(&n, ANIMNAME_PIPE);
		round_trip(&n, ANIMNAME_ATRACE);
	}
	free(copy);
	return 0;
}
