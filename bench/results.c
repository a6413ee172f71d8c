// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* results.md written whole or section by section, see results.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"

int results_write(const char *path, const char *text)
{
	char tmp[4096];
	FILE *f;
	int ret = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	f = fopen(tmp, "w");
	if (!f)
		return -errno;
	if (fputs(text, f) == EOF)
		ret = -errno;
	if (fclose(f) == EOF && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		remove(tmp);
	return ret;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[65536];
	FILE *m;

	if (!f)
		return errno == ENOENT ? strdup("") : NULL;
	m = open_memstream(&buf, &len);
	while (m && (n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, m);
	if (m)
		fclose(m);
	fclose(f);
	return buf;
}

/* The index in order of the section whose heading is line (-1: none). */
static int order_of(const char *line, const char *const order[], size_t n_order)
{
	size_t len = strcspn(line, "\n");

	for (size_t i = 0; i < n_order; i++)
		if (strlen(order[i]) == len && !strncmp(line, order[i], len))
			return (int)i;
	return -1;
}

static const struct section *new_for(const char *heading, const struct section *secs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(secs[i].heading, heading))
			return &secs[i];
	return NULL;
}

/* Puts the new sections not yet placed whose order is before `before` (all: n_order). */
static void put_pending(FILE *out, const struct section *secs, size_t n, bool *done,
			const char *const order[], size_t before)
{
	for (size_t k = 0; k < before; k++) {
		const struct section *s = new_for(order[k], secs, n);

		if (s && !done[s - secs]) {
			fputs(s->text, out);
			done[s - secs] = true;
		}
	}
}

int results_splice(const char *path, const struct section *secs, size_t n,
		   const char *const order[], size_t n_order)
{
	char *old = slurp(path), *text = NULL;
	bool *done = calloc(n + 1, sizeof(*done));
	const struct section *cur = NULL; /* replacing the section being read */
	size_t len = 0;
	FILE *out = old && done ? open_memstream(&text, &len) : NULL;
	int ret = old ? -ENOMEM : -errno;

	for (char *l = old; out && *l;) {
		char *nl = strchr(l, '\n');
		size_t llen = nl ? (size_t)(nl - l) + 1 : strlen(l);

		if (!strncmp(l, "## ", 3)) {
			int k = order_of(l, order, n_order);

			put_pending(out, secs, n, done, order, k < 0 ? 0 : (size_t)k);
			cur = k < 0 ? NULL : new_for(order[k], secs, n);
			if (cur && !done[cur - secs]) {
				fputs(cur->text, out);
				done[cur - secs] = true;
			}
		}
		if (!cur)
			fwrite(l, 1, llen, out);
		l += llen;
	}
	if (out) {
		put_pending(out, secs, n, done, order, n_order);
		fclose(out);
	}
	if (out)
		ret = results_write(path, text);
	free(text);
	free(done);
	free(old);
	return ret;
}
