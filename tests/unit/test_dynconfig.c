// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * dynconfig_read against DynamicAnimations (the framework copy) laid out by the simulator's
 * heap (tests/sim/sim_heap.c) with artlayout12.py's offsets, not src/symbols/artlayout.c's:
 * exact springs and flings, a force not set yet left unknown, and every value that fails its
 * check refused with a reason, never read.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "live/dynconfig.h"
#include "live/heap.h"
#include "sim/sim_heap.h"
#include "symbols/artlayout.h"
#include "symbols/dex.h"

#define FIX BUILD_DIR "/fixtures/dex/android14b1/"
#define BASE 0x12c00000u
#define SIZE (1u << 18)
#define SDK 34

static const char *const locs[3] = {
	"/apex/com.android.art/javalib/core-oj.jar",
	"/system/framework/framework.jar",
	"/system/framework/framework.jar!classes2.dex",
};

static void *mem;
static struct sim_heap *sim;
static struct artlayout *lay;
static struct heap_buffer buf;
static struct heap_mem hm;
static struct heap *h;
static char why[256];

static void setup(void)
{
	static const char *const dexes[] = { "core.dex", "framework.jar",
					     "framework.jar!classes2.dex" };
	char path[256];

	mem = calloc(1, SIZE);
	sim = sim_heap__new(FIX, FIX, locs, mem, BASE, SIZE, SDK);
	cr_assert_not_null(sim, "%s", strerror(errno));
	lay = artlayout__new(art_rules_for_sdk(SDK));
	for (int i = 0; i < 3; i++) {
		struct dex *d;

		snprintf(path, sizeof(path), FIX "%s", dexes[i]);
		d = dex__open_location(path, 0);
		cr_assert_not_null(d, "%s", path);
		cr_assert_eq(artlayout__add_dex(lay, d, locs[i]), 0);
	}
	buf = (struct heap_buffer){ BASE, mem, SIZE };
	heap_mem_buffer(&hm, &buf);
	h = heap__new(&hm, lay, SDK);
	cr_assert_not_null(h);
	cr_assert_eq(heap__add_range(h, BASE, BASE + SIZE), 0);
}

static void teardown(void)
{
	heap__free(h);
	artlayout__free(lay);
	sim_heap__free(sim);
	free(mem);
}

TestSuite(dynconfig, .init = setup, .fini = teardown);

static uint32_t make(const struct sim_dyn_cfg *c)
{
	uint32_t a = sim_heap__dyn(sim, c);

	cr_assert_neq(a, 0, "%s", strerror(errno));
	return a;
}

/* SystemUI's dock: a spring of stiffness 1500, ratio 0.75 to 300 px, from a set start value. */
static const struct sim_dyn_cfg spring = {
	.start_value_set = true,
	.value = -40.5f,
	.velocity = 1234.5f,
	.min_visible_change = 1,
	.stiffness = 1500,
	.damping_ratio = 0.75,
	.final_position = 300,
};

Test(dynconfig, a_spring_reads_exactly_stiffness_from_the_natural_frequency)
{
	struct dyn_config c;

	cr_assert_eq(dynconfig_read(h, make(&spring), &c, why, sizeof(why)), 0, "%s", why);
	cr_assert(c.has_spring && c.has_state && c.has_value && !c.has_fling);
	/* SpringForce keeps sqrt(stiffness) as a double: squared back, exact to a double's ulp */
	cr_assert_float_eq(c.stiffness, 1500, 1500 * 4 * DBL_EPSILON, "%.17g", c.stiffness);
	cr_assert_eq(c.damping_ratio, 0.75);
	cr_assert_eq(c.final_position, 300);
	cr_assert_eq(c.value, -40.5);
	cr_assert_eq(c.velocity, 1234.5);
	cr_assert_eq(c.min_visible_change, 1);
}

Test(dynconfig, a_fling_reads_its_friction_as_dragforce_keeps_it)
{
	struct sim_dyn_cfg f = { .fling = true,
				 .velocity = -1800,
				 .min_visible_change = 0.1f,
				 .friction_scalar = 1.5f };
	struct dyn_config c;

	cr_assert_eq(dynconfig_read(h, make(&f), &c, why, sizeof(why)), 0, "%s", why);
	cr_assert(c.has_fling && c.has_state && !c.has_spring);
	cr_assert_eq(c.friction, (double)(1.5f * -4.2f));
	cr_assert_eq(c.velocity, -1800);
	cr_assert_eq(c.min_visible_change, (double)0.1f);
	cr_assert(!c.has_value, "no setStartValue: start() reads the property, not mValue");
}

Test(dynconfig, a_spring_without_its_force_or_final_position_is_unknown_not_wrong)
{
	struct sim_dyn_cfg s = spring;
	struct dyn_config c;

	s.no_spring = true;
	cr_assert_eq(dynconfig_read(h, make(&s), &c, why, sizeof(why)), 0, "%s", why);
	cr_assert(!c.has_spring && c.has_state);
	s.no_spring = false;
	s.final_position = DBL_MAX; /* SpringForce's UNSET */
	cr_assert_eq(dynconfig_read(h, make(&s), &c, why, sizeof(why)), 0, "%s", why);
	cr_assert(!c.has_spring && c.has_state);
}

/* Each value AOSP's setters refuse is refused here: the read fails whole, with why. */
Test(dynconfig, values_the_setters_refuse_fail_the_read_with_a_reason)
{
	struct sim_dyn_cfg bad[4] = {
		spring, spring, spring, { .fling = true, .min_visible_change = 1 }
	};
	const char *says[4] = { "mDampingRatio", "mMinVisibleChange", "mNaturalFreq", "mFriction" };
	struct dyn_config c;

	bad[0].damping_ratio = -0.5;
	bad[1].min_visible_change = 0;
	bad[2].stiffness = NAN;
	bad[3].friction_scalar = 0;
	for (int i = 0; i < 4; i++) {
		int err = dynconfig_read(h, make(&bad[i]), &c, why, sizeof(why));

		cr_assert_eq(err, -EINVAL, "%d", i);
		cr_assert(strstr(why, says[i]), "%d: %s", i, why);
		cr_assert(!c.has_spring && !c.has_fling && !c.has_state, "%d: no value kept", i);
	}
}

Test(dynconfig, an_object_of_another_class_is_no_dynamicanimation)
{
	struct sim_anim_cfg va = { .duration_ms = 100, .repeat_mode = 1 };
	uint32_t a = sim_heap__animator(sim, &va, 5);
	struct dyn_config c;

	cr_assert_neq(a, 0);
	cr_assert_eq(dynconfig_read(h, a, &c, why, sizeof(why)), -EINVAL);
	cr_assert(strstr(why, "ValueAnimator") && strstr(why, "no DynamicAnimation"), "%s", why);
}

/*
 * androidx's classes are in the app's own dex, not on the boot class path: the reader finds
 * them through the DexCache.location of the object's class (an APK's path on a device; here
 * the fixture dex's), opened and added on first sight.
 */
Test(dynconfig, androidx_springs_are_read_from_the_dex_their_class_names)
{
	struct sim_dyn_cfg s = spring, f = { .androidx = true,
					     .fling = true,
					     .velocity = 900,
					     .min_visible_change = 1.0f / 256,
					     .friction_scalar = 2 };
	struct dyn_config c;

	cr_assert_eq(sim_heap__add_dex(sim, FIX, "app", FIX "app.dex"), 0);
	cr_assert_null(artlayout__dex(lay, FIX "app.dex"), "not known before it is needed");
	s.androidx = true;
	s.stiffness = 200;
	s.damping_ratio = 0.2;
	s.final_position = -12.25;
	cr_assert_eq(dynconfig_read(h, make(&s), &c, why, sizeof(why)), 0, "%s", why);
	cr_assert(c.has_spring && c.has_value);
	cr_assert_float_eq(c.stiffness, 200, 200 * 4 * DBL_EPSILON, "%.17g", c.stiffness);
	cr_assert_eq(c.damping_ratio, 0.2);
	cr_assert_eq(c.final_position, -12.25);
	cr_assert_eq(c.value, -40.5);
	cr_assert_not_null(artlayout__dex(lay, FIX "app.dex"), "the app's dex was opened");
	cr_assert_eq(dynconfig_read(h, make(&f), &c, why, sizeof(why)), 0, "%s", why);
	cr_assert(c.has_fling);
	cr_assert_eq(c.friction, (double)(2.0f * -4.2f));
	cr_assert_eq(c.min_visible_change, (double)(1.0f / 256));
}
