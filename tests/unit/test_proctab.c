// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "proctab.h"

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
