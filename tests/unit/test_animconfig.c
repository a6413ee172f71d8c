// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * animconfig_read against heaps laid out by the simulator's heap (tests/sim/sim_heap.c), whose
 * offsets come from the second implementations of ART's layout (baksmali for Android 10,
 * artlayout12.py for 14 beta 1), not from src/symbols/artlayout.c: exact configurations for
 * both fixture versions, and a heap laid out for the other version is refused with a reason.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "live/animconfig.h"
#include "live/heap.h"
#include "sim/sim_heap.h"
#include "symbols/artlayout.h"
#include "symbols/dex.h"

#define FIX BUILD_DIR "/fixtures/dex/"
#define BASE 0x12c00000u
#define SIZE (1u << 18)

static const char *const locs[3] = {
	"/apex/com.android.art/javalib/core-oj.jar",
	"/system/framework/framework.jar",
	"/system/framework/framework.jar!classes2.dex",
};

struct world {
	void *mem;
	struct sim_heap *sim;
	struct artlayout *l;
	struct heap_buffer buf;
	struct heap_mem hm;
	struct heap *h;
};

/* A heap of fixture set `set` (SDK sdk) laid out with the offsets of set `layout`. */
static void world_init(struct world *w, const char *set, const char *layout, int sdk)
{
	static const char *const dexes[] = { "core.dex", "framework.jar",
					     "framework.jar!classes2.dex" };
	char types[256], lay[256], path[256];

	memset(w, 0, sizeof(*w));
	w->mem = calloc(1, SIZE);
	snprintf(types, sizeof(types), FIX "%s", set);
	snprintf(lay, sizeof(lay), FIX "%s", layout);
	w->sim = sim_heap__new(types, lay, locs, w->mem, BASE, SIZE, sdk);
	cr_assert_not_null(w->sim, "%s", strerror(errno));
	w->l = artlayout__new(art_rules_for_sdk(sdk));
	for (int i = 0; i < 3; i++) {
		struct dex *d;

		snprintf(path, sizeof(path), FIX "%s/%s", set, dexes[i]);
		d = dex__open_location(path, 0);
		cr_assert_not_null(d, "%s", path);
		cr_assert_eq(artlayout__add_dex(w->l, d, locs[i]), 0);
	}
	w->buf = (struct heap_buffer){ BASE, w->mem, SIZE };
	heap_mem_buffer(&w->hm, &w->buf);
	w->h = heap__new(&w->hm, w->l, sdk);
	cr_assert_not_null(w->h);
	cr_assert_eq(heap__add_range(w->h, BASE, BASE + SIZE), 0);
}

static void world_free(struct world *w)
{
	heap__free(w->h);
	artlayout__free(w->l);
	sim_heap__free(w->sim);
	free(w->mem);
}

/* The seed's fade: alpha 1 -> 0, 300 ms, INFINITE REVERSE, 100 ms late, on a View's node. */
static const struct sim_anim_cfg fade = {
	.object_animator = true,
	.duration_ms = 300,
	.start_delay_ms = 100,
	.repeat_count = -1,
	.repeat_mode = 2,
	.interpolator = "Landroid/view/animation/AccelerateDecelerateInterpolator;",
	.n_values = 1,
	.values = { { "alpha", SIM_FLOAT, 1, 0 } },
	.property_name = "alpha",
	.target_node = 0x7b0a3f2c40ull,
};

static void assert_fade(const struct anim_config *c)
{
	cr_assert(c->known);
	cr_assert(c->has_duration && c->has_start_delay && c->has_repeat);
	cr_assert_eq(c->duration_ms, 300);
	cr_assert_eq(c->start_delay_ms, 100);
	cr_assert_eq(c->repeat_count, -1);
	cr_assert_eq(c->repeat_mode, REPEAT_REVERSE);
	cr_assert_str_eq(c->interpolator, "AccelerateDecelerate");
	cr_assert(c->has_values);
	cr_assert_eq(c->n_values, 1);
	cr_assert_eq(c->values_left_out, 0);
	cr_assert_str_eq(c->values[0].property, "alpha");
	cr_assert_eq(c->values[0].type, CONFIG_FLOAT);
	cr_assert(c->values[0].has_range);
	cr_assert_eq(c->values[0].from, 1.0);
	cr_assert_eq(c->values[0].to, 0.0);
	cr_assert_str_eq(c->target_class, "android.view.View");
	cr_assert_eq(c->target_node, 0x7b0a3f2c40ull);
}

static void read_fade(const char *set, int sdk)
{
	struct world w;
	struct anim_config c;
	char why[160];
	uint32_t a;

	world_init(&w, set, set, sdk);
	a = sim_heap__animator(w.sim, &fade, 0x3f2c1a8);
	cr_assert_neq(a, 0, "%s", strerror(errno));
	cr_assert_eq(animconfig_read(w.h, a, &c, why, sizeof(why)), 0, "%s", why);
	assert_fade(&c);
	world_free(&w);
}

Test(animconfig, the_seed_fade_reads_exactly_on_android_14)
{
	read_fade("android14b1", 34);
}

Test(animconfig, the_seed_fade_reads_exactly_on_android_10)
{
	read_fade("android10", 29);
}

Test(animconfig, two_holders_ints_and_a_colour_and_a_path_interpolator)
{
	struct sim_anim_cfg two = {
		.duration_ms = 450,
		.repeat_count = 3,
		.repeat_mode = 1,
		.interpolator = "Landroid/view/animation/PathInterpolator;",
		.n_values = 2,
		.values = { { NULL, SIM_FLOAT, -12.5, 80.25 }, { "level", SIM_INT, -3, 1200 } },
	};
	struct sim_anim_cfg colour = {
		.object_animator = true,
		.duration_ms = 0,
		.repeat_mode = 1,
		.n_values = 1,
		.values = { { "backgroundColor", SIM_ARGB, (double)(int32_t)0xffff0000u,
			      0x7f00ff00 } },
		.property_name = "backgroundColor",
		.target_node = 0x5500a0b8ull,
	};
	struct world w;
	struct anim_config c;
	char why[160];
	uint32_t a, b;

	world_init(&w, "android14b1", "android14b1", 34);
	a = sim_heap__animator(w.sim, &two, 11);
	b = sim_heap__animator(w.sim, &colour, 12);
	cr_assert(a && b);
	cr_assert_eq(animconfig_read(w.h, a, &c, why, sizeof(why)), 0, "%s", why);
	cr_assert_eq(c.duration_ms, 450);
	cr_assert_eq(c.start_delay_ms, 0);
	cr_assert_eq(c.repeat_count, 3);
	cr_assert_eq(c.repeat_mode, REPEAT_RESTART);
	cr_assert_str_eq(c.interpolator, "PathInterpolator");
	cr_assert_eq(c.n_values, 2);
	cr_assert_str_eq(c.values[0].property, "");
	cr_assert_eq(c.values[0].type, CONFIG_FLOAT);
	cr_assert_eq(c.values[0].from, -12.5);
	cr_assert_eq(c.values[0].to, 80.25);
	cr_assert_str_eq(c.values[1].property, "level");
	cr_assert_eq(c.values[1].type, CONFIG_INT);
	cr_assert_eq(c.values[1].from, -3);
	cr_assert_eq(c.values[1].to, 1200);
	cr_assert_str_eq(c.target_class, "", "a ValueAnimator has no target");
	cr_assert_eq(c.target_node, 0);

	cr_assert_eq(animconfig_read(w.h, b, &c, why, sizeof(why)), 0, "%s", why);
	cr_assert_eq(c.duration_ms, 0);
	cr_assert_str_eq(c.interpolator, "", "no interpolator object: unknown");
	cr_assert_eq(c.values[0].type, CONFIG_ARGB);
	cr_assert_eq((uint32_t)(int32_t)c.values[0].from, 0xffff0000u);
	cr_assert_eq((uint32_t)(int32_t)c.values[0].to, 0x7f00ff00u);
	cr_assert_eq(c.target_node, 0x5500a0b8ull);
	world_free(&w);
}

Test(animconfig, a_heap_laid_out_for_another_version_is_refused_with_a_reason)
{
	struct world w;
	struct anim_config c;
	char why[160];
	uint32_t a;
	int err;

	/* Android 14's dex for the reader, the framework's objects where Android 10 puts the
	 * fields (java.lang's as 14's) */
	world_init(&w, "android14b1", "android10", 34);
	a = sim_heap__animator(w.sim, &fade, 0x3f2c1a8);
	cr_assert_neq(a, 0);
	err = animconfig_read(w.h, a, &c, why, sizeof(why));
	cr_assert_eq(err, -EINVAL, "%d", err);
	cr_assert_not(c.known);
	cr_assert_eq(c.duration_ms, 0, "no value survives a failed read");
	/* 14 reads mRepeatMode at 100; 10 put it at 96 and nothing at 100 */
	cr_assert_str_eq(why, "mRepeatMode 0 is neither RESTART nor REVERSE");
	world_free(&w);
}

Test(animconfig, not_an_animator_is_refused)
{
	struct world w;
	struct anim_config c;
	char why[160];
	uint32_t a;

	world_init(&w, "android14b1", "android14b1", 34);
	a = sim_heap__animator(w.sim, &fade, 1);
	cr_assert_neq(a, 0);
	/* java.lang.Class, the first object: no animator */
	cr_assert_lt(animconfig_read(w.h, BASE + 8, &c, why, sizeof(why)), 0);
	cr_assert_not(c.known);
	cr_assert_neq(why[0], '\0');
	world_free(&w);
}

Test(animconfig, interpolator_names_as_the_seed_prints_them)
{
	char n[64];

	animconfig_interp_name("Landroid/view/animation/AccelerateDecelerateInterpolator;", n,
			       sizeof(n));
	cr_assert_str_eq(n, "AccelerateDecelerate");
	animconfig_interp_name("Landroid/view/animation/PathInterpolator;", n, sizeof(n));
	cr_assert_str_eq(n, "PathInterpolator");
	animconfig_interp_name("Landroidx/interpolator/view/animation/FastOutSlowInInterpolator;",
			       n, sizeof(n));
	cr_assert_str_eq(n, "FastOutSlowIn");
	animconfig_interp_name("Lcom/example/anim/Panel$$ExternalSyntheticLambda0;", n, sizeof(n));
	cr_assert_str_eq(n, "Panel$$ExternalSyntheticLambda0");
	animconfig_interp_name("Lcom/example/BouncyInterpolator;", n, sizeof(n));
	cr_assert_str_eq(n, "BouncyInterpolator", "an app's class keeps its name");
}
