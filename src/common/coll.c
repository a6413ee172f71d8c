// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Open addressing with linear probing; entries leave only by a sweep that
 * rebuilds the table, so no tombstones. */
#include <errno.h>
#include <stdlib.h>

#include "common/coll.h"

uint64_t hash_mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

uint64_t hash_str(const char *s, uint64_t seed)
{
	uint64_t h = 0xcbf29ce484222325ull ^ seed;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return hash_mix64(h);
}

void *htab_find(const struct htab *t, uint64_t h, htab_eq_fn eq, const void *key)
{
	if (!t->cap)
		return NULL;
	for (size_t i = h & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
		if (!t->s[i].v)
			return NULL;
		if (t->s[i].h == h && eq(t->s[i].v, key))
			return t->s[i].v;
	}
}

static void htab_put_slot(struct hslot *s, size_t cap, uint64_t h, void *v)
{
	size_t i = h & (cap - 1);

	while (s[i].v)
		i = (i + 1) & (cap - 1);
	s[i].h = h;
	s[i].v = v;
}

int htab_add(struct htab *t, uint64_t h, void *v)
{
	if ((t->cnt + 1) * 2 > t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 64;
		struct hslot *ns = calloc(ncap, sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		for (size_t i = 0; i < t->cap; i++)
			if (t->s[i].v)
				htab_put_slot(ns, ncap, t->s[i].h, t->s[i].v);
		free(t->s);
		t->s = ns;
		t->cap = ncap;
	}
	htab_put_slot(t->s, t->cap, h, v);
	t->cnt++;
	return 0;
}

long htab_sweep(struct htab *t, bool (*drop)(void *v, void *ctx), void *ctx)
{
	struct hslot *ns;
	long n = 0;

	if (!t->cap)
		return 0;
	ns = calloc(t->cap, sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->s[i].v)
			continue;
		if (drop(t->s[i].v, ctx))
			n++;
		else
			htab_put_slot(ns, t->cap, t->s[i].h, t->s[i].v);
	}
	free(t->s);
	t->s = ns;
	t->cnt -= (size_t)n;
	return n;
}

void htab_free_values(struct htab *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->s[i].v);
	free(t->s);
}

void *vec_push(void **arr, size_t *n, size_t *cap, size_t elem)
{
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 8;
		void *na = realloc(*arr, ncap * elem);

		if (!na)
			return NULL;
		*arr = na;
		*cap = ncap;
	}
	return (char *)*arr + (*n)++ * elem;
}
