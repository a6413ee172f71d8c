// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* curve.c: a capped curve keeps its first sample, an even spread, and its last. */
#include <criterion/criterion.h>

#include "engine/curve.h"

Test(curve, a_long_curve_keeps_its_first_sample_an_even_stride_and_its_last)
{
	struct curve c = { 0 };
	struct fit_sample out[CAP_SEG_SAMPLES + 1];
	int frames = 3 * CAP_SEG_SAMPLES + 3;
	size_t n;

	for (int i = 0; i < frames; i++)
		curve__add(&c, (uint64_t)i * 1000, (float)i);
	n = curve__samples(&c, out);
	cr_assert_leq(c.n, CAP_SEG_SAMPLES);
	cr_assert_eq(c.stride, 4, "halved twice past the cap");
	cr_assert_eq(out[0].v, 0, "the first sample stays");
	for (size_t i = 1; i < n - 1; i++)
		cr_assert_eq(out[i].v - out[i - 1].v, (float)c.stride, "sample %zu", i);
	cr_assert_eq(out[n - 1].v, (float)(frames - 1), "the last frame's sample ends it");
}

Test(curve, a_second_value_of_a_frame_replaces_the_first)
{
	struct curve c = { 0 };
	struct fit_sample out[CAP_SEG_SAMPLES + 1];

	curve__add(&c, 1000, 1);
	curve__add(&c, 2000, 2);
	curve__add(&c, 2000, 5);
	cr_assert_eq(curve__samples(&c, out), 2);
	cr_assert_eq(out[1].v, 5);
	cr_assert_eq(out[1].t_ns, 2000);
}
