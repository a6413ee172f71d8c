// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "common/coll.h"

struct item {
	uint64_t id;
	char name[16];
};

static bool item_eq(const void *v, const void *key)
{
	return ((const struct item *)v)->id == *(const uint64_t *)key;
}

Test(coll, a_table_finds_every_item_through_many_growths)
{
	struct htab t = { 0 };

	for (uint64_t id = 1; id <= 10000; id++) {
		struct item *it = calloc(1, sizeof(*it));

		it->id = id * 4096; /* same low bits: the mix must spread them */
		cr_assert_eq(htab_add(&t, hash_mix64(it->id), it), 0);
	}
	cr_assert_eq(t.cnt, 10000);
	cr_assert_leq(t.cnt * 2, t.cap, "load factor above one half");
	for (uint64_t id = 1; id <= 10000; id++) {
		uint64_t key = id * 4096;
		struct item *it = htab_find(&t, hash_mix64(key), item_eq, &key);

		cr_assert_not_null(it, "id %llu", (unsigned long long)key);
		cr_assert_eq(it->id, key);
	}
	uint64_t absent = 4095;

	cr_assert_null(htab_find(&t, hash_mix64(absent), item_eq, &absent));
	htab_free_values(&t);
}

Test(coll, an_empty_table_finds_nothing_and_strings_hash_by_content)
{
	struct htab t = { 0 };
	uint64_t key = 1;
	char a[] = "animator:alpha", b[] = "animator:alpha";

	cr_assert_null(htab_find(&t, 7, item_eq, &key));
	cr_assert_eq(hash_str(a, 0), hash_str(b, 0));
	cr_assert_neq(hash_str(a, 0), hash_str("animator:alphb", 0));
	cr_assert_neq(hash_str(a, 0), hash_str(a, 1), "the seed matters");
	htab_free_values(&t);
}

Test(coll, vec_push_appends_in_order_across_reallocations)
{
	int *v = NULL;
	size_t n = 0, cap = 0;

	for (int i = 0; i < 1000; i++) {
		int *slot = vec_push((void **)&v, &n, &cap, sizeof(*v));

		cr_assert_not_null(slot);
		*slot = i * 3;
	}
	cr_assert_eq(n, 1000);
	for (int i = 0; i < 1000; i++)
		cr_assert_eq(v[i], i * 3);
	free(v);
}
