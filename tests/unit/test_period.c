// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The display period estimator (engine/period.h; not --refresh): the lower envelope of intervals, snapped; the vsync grid. */
#include <criterion/criterion.h>

#include "engine/period.h"

static struct period *r;

static void setup(void)
{
	r = period__new();
	cr_assert_not_null(r);
}

static void teardown(void)
{
	period__free(r);
}

TestSuite(period, .init = setup, .fini = teardown);

Test(period, fewer_than_eight_samples_assume_sixty_hertz)
{
	enum period_source src;

	for (int i = 0; i < PERIOD_MIN_SAMPLES - 1; i++)
		period__add(r, 11111111);
	cr_assert_eq(period__period(r, &src), PERIOD_ASSUMED_NS);
	cr_assert_eq(src, PERIOD_ASSUMED);
	cr_assert_str_eq(period_source_str(src), "assumed");
	cr_assert_eq(period__period(NULL, &src), PERIOD_ASSUMED_NS);
}

Test(period, jittered_intervals_snap_to_ninety_hertz)
{
	enum period_source src;
	static const int jitter_us[] = { -900, 400, 0, 700, -300, 100, -600, 800, 200 };

	for (int i = 0; i < 9; i++)
		period__add(r, 11111111 + jitter_us[i] * 1000);
	period__add(r, 33333333); /* two missed vsyncs: above the envelope */
	period__add(r, 60000000); /* an idle gap: ignored */
	cr_assert_eq(period__period(r, &src), 11111111);
	cr_assert_eq(src, PERIOD_INTERVALS);
}

Test(period, skipped_vsyncs_do_not_lengthen_the_period)
{
	/* 40 % of the intervals are two or three vsyncs long: a plain median would say 2P */
	for (int i = 0; i < 30; i++)
		period__add(r, 16666667);
	for (int i = 0; i < 12; i++)
		period__add(r, 2 * 16666667);
	for (int i = 0; i < 8; i++)
		period__add(r, 3 * 16666667);
	cr_assert_eq(period__period(r, NULL), 16666667);
}

Test(period, mostly_skipped_vsyncs_still_give_the_period)
{
	for (int i = 0; i < 10; i++)
		period__add(r, 11111111);
	for (int i = 0; i < 20; i++)
		period__add(r, 2 * 11111111); /* the median is two periods */
	cr_assert_eq(period__period(r, NULL), 11111111);
}

Test(period, a_short_interval_among_few_does_not_decide)
{
	static const int us[] = { 16790, 16720, 16450, 16630, 17290, 16570, 16320 };

	period__add(r, 3850000); /* a late start, then an on-time one (Pixel 6a, system_server) */
	for (int i = 0; i < 7; i++)
		period__add(r, us[i] * 1000ull);
	cr_assert_eq(period__period(r, NULL), 16666667);
}

Test(period, surfaceflinger_vsyncs_win_over_frame_intervals)
{
	enum period_source src;

	for (int i = 0; i < 20; i++)
		period__add(r, 16666667); /* an app that draws every other vsync of 120 Hz */
	for (int i = 0; i < 7; i++)
		period__add_vsync(r, 8333333);
	cr_assert_eq(period__period(r, &src), 16666667);
	cr_assert_eq(src, PERIOD_INTERVALS);
	period__add_vsync(r, 2 * 8333333); /* a multiple: VSYNC-app toggles when apps listen */
	period__add_vsync(r, 8333333);
	cr_assert_eq(period__period(r, &src), 8333333);
	cr_assert_eq(src, PERIOD_VSYNC);
	cr_assert_str_eq(period_source_str(src), "vsync");
}

Test(period, a_rate_that_is_not_standard_is_kept_to_the_bucket)
{
	for (int i = 0; i < 20; i++)
		period__add(r, 13900000); /* 71.9 Hz: within 2 % of 72 (0.1 %): snaps */
	cr_assert_eq(period__period(r, NULL), 13888889);
	period__free(r);
	r = period__new();
	for (int i = 0; i < 20; i++)
		period__add(r, 25000000);		 /* 40 Hz: no standard rate */
	cr_assert_eq(period__period(r, NULL), 25025000); /* the centre of its 50 us bucket */
}

#define P 16666667ull
#define MS 1000000ull

Test(period, the_grid_floor_of_a_reported_vsync_is_exact)
{
	struct period_grid g = { 0 };

	period__grid_vsync(&g, 1000 * MS);
	cr_assert_eq(period__grid_floor(&g, P, 1000 * MS + 3 * P + 2 * MS), 1000 * MS + 3 * P);
	cr_assert_eq(period__grid_floor(&g, P, 1000 * MS + 3 * P + 16 * MS), 1000 * MS + 3 * P);
	/* a start earlier than an exact grid says does not move it */
	cr_assert_eq(period__grid_floor(&g, P, 1000 * MS + 4 * P - MS), 1000 * MS + 3 * P);
	cr_assert_eq(g.anchor_ns, 1000 * MS);
}

Test(period, the_grid_follows_the_lower_envelope_of_starts)
{
	struct period_grid g = { 0 };
	uint64_t t = 1000 * MS;

	cr_assert_eq(period__grid_floor(&g, P, t + MS), t + MS); /* the first start: the grid */
	cr_assert_eq(period__grid_floor(&g, P, t + P + 3 * MS), t + P + MS);	     /* late 2 ms */
	cr_assert_eq(period__grid_floor(&g, P, t + 2 * P + 8 * MS), t + 2 * P + MS); /* late 7 */
	/* earlier in the period than the grid: the grid moves to it, late starts never did */
	cr_assert_eq(period__grid_floor(&g, P, t + 3 * P + MS / 2), t + 3 * P + MS / 2);
	cr_assert_eq(period__grid_floor(&g, P, t + 4 * P + MS), t + 4 * P + MS / 2);
	cr_assert_eq(period__grid_floor(&g, P, t + 9 * P + MS), t + 9 * P + MS / 2);
}

Test(period, vsyncs_skipped_between_frames_count_from_time)
{
	cr_assert_eq(period__skipped(0, 5 * P, P), 0);
	cr_assert_eq(period__skipped(10 * P, 11 * P, P), 0);
	cr_assert_eq(period__skipped(10 * P, 13 * P, P), 2);
	cr_assert_eq(period__skipped(10 * P, 13 * P + 2 * MS, P), 2);
	cr_assert_eq(period__skipped(13 * P, 10 * P, P), 0);
}
