// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/caps.h"
#include "common/proctab.h"

Test(proctab, names_and_tgids_round_trip_through_growth)
{
	struct proctab *t = proctab__new();

	cr_assert_not_null(t);
	for (uint32_t id = 1; id <= 5000; id++) {
		char name[32];
		int n = snprintf(name, sizeof(name), "thread-%u", id);

		cr_assert_eq(proctab__set_name(t, id, name, n), 0);
		cr_assert_eq(proctab__set_tgid(t, id, id / 10 + 1), 0);
	}
	for (uint32_t id = 1; id <= 5000; id++) {
		char name[32];

		snprintf(name, sizeof(name), "thread-%u", id);
		cr_assert_str_eq(proctab__name(t, id), name);
		cr_assert_eq(proctab__tgid(t, id), id / 10 + 1);
	}
	cr_assert_null(proctab__name(t, 5001));
	cr_assert_eq(proctab__tgid(t, 5001), 0);
	proctab__free(t);
}

Test(proctab, removal_keeps_every_other_entry_reachable)
{
	struct proctab *t = proctab__new();

	for (uint32_t id = 1; id <= 1000; id++)
		proctab__set_name(t, id * 256, "x", 1); /* same low bits: long probe chains */
	for (uint32_t id = 1; id <= 1000; id += 2)
		proctab__remove(t, id * 256);
	for (uint32_t id = 1; id <= 1000; id++) {
		if (id % 2)
			cr_assert_null(proctab__name(t, id * 256), "id %u", id * 256);
		else
			cr_assert_str_eq(proctab__name(t, id * 256), "x", "id %u", id * 256);
	}
	proctab__free(t);
}

Test(proctab, names_are_truncated_not_overflowed_and_id_zero_is_refused)
{
	struct proctab *t = proctab__new();
	char big[200];

	memset(big, 'a', sizeof(big));
	cr_assert_eq(proctab__set_name(t, 7, big, sizeof(big)), 0);
	cr_assert_eq(strlen(proctab__name(t, 7)), PROCTAB_NAME_MAX - 1);
	cr_assert_eq(proctab__set_name(t, 0, "idle", 4), -EINVAL);
	cr_assert_null(proctab__name(t, 0));
	proctab__free(t);
	proctab__free(NULL);
}

Test(proctab, a_removed_id_added_again_has_neither_its_old_name_nor_its_old_tgid)
{
	struct proctab *t = proctab__new();

	cr_assert_eq(proctab__set_name(t, 4242, "com.example.old", 15), 0);
	cr_assert_eq(proctab__set_tgid(t, 4242, 4000), 0);
	proctab__remove(t, 4242);
	cr_assert_eq(proctab__set_tgid(t, 4242, 4100), 0);
	cr_assert_null(proctab__name(t, 4242), "the old name came back");
	cr_assert_eq(proctab__tgid(t, 4242), 4100);
	proctab__remove(t, 4242);
	cr_assert_eq(proctab__set_name(t, 4242, "com.example.new", 15), 0);
	cr_assert_str_eq(proctab__name(t, 4242), "com.example.new");
	cr_assert_eq(proctab__tgid(t, 4242), 0, "the old tgid came back");
	proctab__free(t);
}

Test(proctab, an_id_landing_in_a_slot_emptied_by_another_starts_blank)
{
	struct proctab *t = proctab__new();

	/* Same low bits: 512 lands in the slot 256 left, or shifts back over it. */
	cr_assert_eq(proctab__set_name(t, 256, "first", 5), 0);
	cr_assert_eq(proctab__set_tgid(t, 256, 77), 0);
	proctab__remove(t, 256);
	cr_assert_eq(proctab__set_tgid(t, 512, 88), 0);
	cr_assert_null(proctab__name(t, 512));
	cr_assert_eq(proctab__tgid(t, 512), 88);
	proctab__free(t);
}

Test(proctab, a_full_table_forgets_the_ids_set_least_recently)
{
	struct proctab *t = proctab__new();
	uint32_t n = 4 * CAP_PROC_IDS;

	cr_assert_not_null(t);
	proctab__set_name(t, 7, "keep", 4);
	for (uint32_t id = 100; id < 100 + n; id++) {
		cr_assert_eq(proctab__set_tgid(t, id, 1), 0);
		if (id % 1024 == 0)
			proctab__set_tgid(t, 7, 7); /* used again and again: spared */
	}
	cr_assert_str_eq(proctab__name(t, 7), "keep");
	cr_assert_eq(proctab__tgid(t, 99 + n), 1);
	cr_assert_eq(proctab__evicted(t), n + 1 - CAP_PROC_IDS);
	proctab__free(t);
}

/* What proctab__learn replaces: a look-up, then the name, then the tgid. */
static void learn_in_three(struct proctab *t, uint32_t id, uint32_t tgid, const char *name,
			   size_t len, bool replace)
{
	if (len && (replace || !proctab__name(t, id)))
		proctab__set_name(t, id, name, len);
	if (tgid)
		proctab__set_tgid(t, id, tgid);
}

Test(proctab, learn_leaves_the_table_as_the_three_calls_did_even_while_evicting)
{
	struct proctab *a = proctab__new(), *b = proctab__new();
	uint64_t x = 88172645463325252ull;
	char name[16];
	size_t checked = 0;

	cr_assert(a && b);
	/* ids from a range wider than CAP_PROC_IDS, so that CLOCK evicts by the marks set */
	for (int i = 0; i < 400000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint32_t id = 1 + (uint32_t)(x % (CAP_PROC_IDS + CAP_PROC_IDS / 2));
		uint32_t tgid = (x >> 20) % 3 ? (uint32_t)(x >> 24) % 5000 : 0;
		size_t len = (size_t)snprintf(name, sizeof(name), "n%u", (unsigned)(x >> 40) % 97);
		bool replace = (x >> 33) & 1;

		if ((x >> 50) % 4 == 0)
			len = 0;
		learn_in_three(a, id, tgid, name, len, replace);
		cr_assert_eq(proctab__learn(b, id, tgid, name, len, replace), 0);
	}
	cr_assert_gt(proctab__evicted(a), 1000);
	cr_assert_eq(proctab__evicted(a), proctab__evicted(b));
	for (uint32_t id = 1; id <= CAP_PROC_IDS + CAP_PROC_IDS / 2; id++) {
		const char *na = proctab__name(a, id), *nb = proctab__name(b, id);

		cr_assert_eq(!na, !nb, "id %u", id);
		if (na) {
			cr_assert_str_eq(na, nb, "id %u", id);
			checked++;
		}
		cr_assert_eq(proctab__tgid(a, id), proctab__tgid(b, id), "id %u", id);
	}
	cr_assert_gt(checked, CAP_PROC_IDS / 2);
	cr_assert_eq(proctab__learn(b, 0, 1, "x", 1, true), -EINVAL);
	proctab__free(a);
	proctab__free(b);
}
