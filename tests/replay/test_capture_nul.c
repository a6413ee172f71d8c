// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A NUL byte damages its own line only: capture__next_event looks for NUL bytes once per read
 * buffer, not per line, and must still blame exactly the lines that hold one, across refills
 * of the buffer.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay/capture.h"

Test(capture_nul, blames_exactly_the_lines_with_a_nul_across_buffer_refills)
{
	enum { LINES = 40000 }; /* 1.4 MB: several refills of the 256 KiB buffer */
	char *text = malloc((size_t)LINES * 48), path[] = "/tmp/animtrace-nul-XXXXXX";
	size_t n = 0, markers = 0, bad = 0, want_bad = 0, lines = 0;
	struct capture_line l;
	struct capture *c;
	int fd, kind;

	cr_assert_not_null(text);
	for (int i = 0; i < LINES; i++) {
		size_t b = n;

		n += (size_t)sprintf(text + n, "a-1 [000] 1.%06d: print: B|1|x%d\n", i, i % 10);
		if (i % 997 == 3 || i % 4999 == 0) { /* NUL bytes: mid-line, or first on a line */
			text[i % 4999 == 0 ? b : b + 12] = '\0';
			want_bad++;
		}
	}
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, n), (ssize_t)n);
	close(fd);
	c = capture__open(path);
	cr_assert_not_null(c, "errno %d", errno);
	while ((kind = capture__next_event(c, &l)) != CAPTURE_END) {
		lines++;
		if (kind == CAPTURE_MARKER)
			markers++;
		else if (kind == -EINVAL)
			bad++;
	}
	cr_assert_eq(lines, LINES);
	cr_assert_eq(bad, want_bad);
	cr_assert_eq(markers, LINES - want_bad);
	/* again after a rewind: the same lines */
	capture__rewind(c);
	for (bad = 0; (kind = capture__next_event(c, &l)) != CAPTURE_END;)
		bad += kind == -EINVAL;
	cr_assert_eq(bad, want_bad);
	capture__free(c);
	unlink(path);
	free(text);
}
