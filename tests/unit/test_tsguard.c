// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Which capture timestamps are time and which are damage; the damage line they end in. */
#include <criterion/criterion.h>
#include <string.h>

#include "model/input.h"
#include "replay/tsguard.h"

#define S 1000000000ull
#define DAY (86400 * S)

Test(tsguard, past_2_to_the_63_ns_is_never_time)
{
	struct ts_guard g;

	ts_guard_init(&g, false, 0);
	cr_assert(ts_guard_accept(&g, 5000 * S));
	cr_assert_not(ts_guard_accept(&g, UINT64_MAX));
	cr_assert_not(ts_guard_accept(&g, (uint64_t)INT64_MAX + 1));
	cr_assert(ts_guard_accept(&g, 5000 * S + 1));
}

Test(tsguard, a_jump_back_over_a_second_or_on_over_a_day_is_dropped_and_the_baseline_kept)
{
	struct ts_guard g;

	ts_guard_init(&g, true, 5000 * S);
	cr_assert(ts_guard_accept(&g, 5000 * S));
	cr_assert(ts_guard_accept(&g, 5000 * S - S / 2), "half a second back: per-CPU order");
	cr_assert_not(ts_guard_accept(&g, 5000 * S - 2 * S));
	cr_assert_not(ts_guard_accept(&g, 5000 * S + DAY + 1));
	cr_assert(ts_guard_accept(&g, 5000 * S + DAY), "a day on is still time");
	cr_assert_not(ts_guard_accept(&g, 5000 * S), "a day back from the new latest");
}

Test(tsguard, a_damaged_first_timestamp_does_not_become_the_baseline)
{
	struct ts_guard g;

	ts_guard_init(&g, true, 9 * DAY);
	cr_assert_not(ts_guard_accept(&g, 5), "far from the anchor");
	cr_assert(ts_guard_accept(&g, 9 * DAY + S));
	cr_assert(ts_guard_accept(&g, 9 * DAY + 2 * S));
}

Test(tsguard, a_long_run_of_timestamps_that_agree_is_a_new_stretch_of_time)
{
	struct ts_guard g;
	int accepted = 0;

	ts_guard_init(&g, false, 0);
	cr_assert(ts_guard_accept(&g, 100 * S));
	for (int i = 0; i < TS_GUARD_REBASE; i++)
		accepted += ts_guard_accept(&g, 10 * DAY + (uint64_t)i * S);
	cr_assert_eq(accepted, 1, "only the run's last one, which rebases");
	cr_assert(ts_guard_accept(&g, 10 * DAY + 100 * S));
	cr_assert_not(ts_guard_accept(&g, 100 * S), "the old stretch is now the jump");
}

Test(tsguard, scattered_bad_timestamps_never_rebase)
{
	struct ts_guard g;

	ts_guard_init(&g, false, 0);
	cr_assert(ts_guard_accept(&g, 100 * S));
	for (int i = 0; i < 100; i++)
		cr_assert_not(ts_guard_accept(&g, (uint64_t)(i + 2) * 3 * DAY * (i % 2 ? 1 : 7)));
	cr_assert(ts_guard_accept(&g, 101 * S));
}

Test(tsguard, the_median_ignores_a_few_outliers)
{
	uint64_t ts[] = { 7, 5000 * S, 5000 * S + 1, UINT64_MAX / 2, 5000 * S + 2 };

	cr_assert_eq(ts_guard_median(ts, 5), 5000 * S + 1);
}

Test(input_stats, an_intact_capture_says_nothing)
{
	struct input_stats in = { .bytes = 100, .lines = 3, .packets = 2 };
	char buf[256];

	cr_assert_not(input_stats_damaged(&in));
	cr_assert_eq(input_stats_describe(&in, buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, "");
}

Test(input_stats, every_kind_of_damage_is_one_clause_of_one_line)
{
	struct input_stats in = { .protobuf = true,
				  .damaged = 2,
				  .bad_blocks = 1,
				  .skipped = 3025,
				  .truncated = 1,
				  .truncated_at = 500000,
				  .time_jumps = 1,
				  .dropped = 4,
				  .untrusted = 3 };
	char buf[512];
	int n = input_stats_describe(&in, buf, sizeof(buf));

	cr_assert(input_stats_damaged(&in));
	cr_assert_str_eq(
		buf, "2 damaged packets or messages, 1 compressed block that did not "
		     "inflate whole, 3025 bytes skipped, cut at byte 500000 (its last packet "
		     "dropped), 1 event with an impossible timestamp dropped, 4 print events "
		     "beyond the 512Ki-event index left out, 3 FrameTimeline events not written "
		     "by SurfaceFlinger (uid 1000) left out");
	cr_assert_eq((size_t)n, strlen(buf));
	cr_assert_null(strchr(buf, '\n'));
}

Test(input_stats, a_short_buffer_is_cut_and_the_length_needed_returned)
{
	struct input_stats in = { .damaged = 1, .skipped = 10 };
	char buf[8];

	cr_assert_eq(input_stats_describe(&in, buf, sizeof(buf)),
		     (int)strlen("1 damaged line, 10 bytes skipped"));
	cr_assert_str_eq(buf, "1 damag");
}
