// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The display period estimator (engine/period.h; not --refresh): medians of intervals or of vsync-id steps, snapped. */
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
		period__add(r, 11111111, 0);
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
		period__add(r, 11111111 + jitter_us[i] * 1000, 0);
	period__add(r, 33333333, 0); /* two missed vsyncs: one sample, far from the median */
	period__add(r, 60000000, 0); /* an idle gap: ignored */
	cr_assert_eq(period__period(r, &src), 11111111);
	cr_assert_eq(src, PERIOD_INTERVALS);
}

Test(period, vsync_steps_divide_the_elapsed_time)
{
	enum period_source src;

	for (int i = 0; i < 6; i++)
		period__add(r, 8333333, 1);
	period__add(r, 3 * 8333333, 3);      /* two missed vsyncs */
	period__add(r, 120 * 8333333ull, 120); /* idle for a second: still one period */
	period__add(r, 5000000, 0);          /* a pair without ids: an interval sample, outvoted */
	period__add(r, 8333333, -4);         /* a reordered id: ignored */
	cr_assert_eq(period__period(r, &src), 8333333);
	cr_assert_eq(src, PERIOD_VSYNC);
}

Test(period, a_rate_that_is_not_standard_is_kept_to_the_bucket)
{
	for (int i = 0; i < 20; i++)
		period__add(r, 13900000, 0); /* 71.9 Hz: outside 2 % of 72? it is 0.1 %: snaps */
	cr_assert_eq(period__period(r, NULL), 13888889);
	period__free(r);
	r = period__new();
	for (int i = 0; i < 20; i++)
		period__add(r, 25000000, 0); /* 40 Hz: no standard rate */
	cr_assert_eq(period__period(r, NULL), 25025000); /* the centre of its 50 us bucket */
}
