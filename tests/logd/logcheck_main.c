// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * logcheck BOX LOGD: tests/logd/logcheck.h's checks of a fake logd's lines (LOGD) against the
 * box output of the same run (BOX), for tests/arm64/check.sh. Prints one line of counts;
 * exits 1 when a line was bad, an entry failed, or no box arrived.
 */
#include "logd/logcheck.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[65536];

	if (!f)
		return strdup("");
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		buf = realloc(buf, len + n + 1);
		memcpy(buf + len, chunk, n);
		len += n;
	}
	fclose(f);
	if (!buf)
		return strdup("");
	buf[len] = '\0';
	return buf;
}

int main(int argc, char **argv)
{
	struct lc_log log = { 0 };
	struct lc_counts c;
	char *box;

	if (argc != 3) {
		fprintf(stderr, "usage: logcheck BOX LOGD\n");
		return 2;
	}
	box = slurp(argv[1]);
	lc_parse_fakelogd(&log, slurp(argv[2]));
	lc_rejoin(&log);
	lc_check(&log, box, &c);
	printf("logcheck: %zu entries, %zu bad lines, %zu boxes of %zu, %zu targets, %zu batches, "
	       "%zu refresh, %zu findings, %zu failed%s%s%s\n",
	       log.n, log.bad, c.boxes, lc_count_boxes(box), c.targets, c.batches, c.refresh,
	       c.findings, c.failed, log.bad || c.failed ? ": " : "", log.why, c.why);
	return log.bad || c.failed || !c.boxes || c.boxes != lc_count_boxes(box) ? 1 : 0;
}
