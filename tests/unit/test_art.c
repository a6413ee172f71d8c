// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <elf.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <criterion/criterion.h>

#include "fake_proc.h"

#include "symbols/art.h"
#include "symbols/elfsym.h"

#define OAT_12L TESTDATA "/android/android12L-arm64-boot-framework.oat"
#define ART_FIXTURE BUILD_DIR "/sim/boot-framework.oat"
#define ART_FIXTURE_FULL BUILD_DIR "/sim/boot-framework.unstripped.oat"

Test(art, the_12L_oat_resolves_getDurationScale_through_its_MiniDebugInfo)
{
	struct art_addr a[4];

	cr_assert_eq(art_find_method(OAT_12L, "android.animation.ValueAnimator.getDurationScale", a,
				     4),
		     1);
	cr_assert_eq(a[0].vaddr, 0x9d7f0);
	/* The R E PT_LOAD maps vaddr 0x4c000 from file offset 0x4c000 (readelf -lW). */
	cr_assert_eq(a[0].offset, 0x9d7f0);
	cr_assert_eq(art_find_method(OAT_12L, "android.animation.ValueAnimator.noSuchMethod", a, 4),
		     0);
}

Test(art, the_12L_oat_did_not_compile_start_cancel_end_or_animate_value)
{
	struct art_oat o;
	char missing[256];

	cr_assert_eq(art_resolve(OAT_12L, &o), -ENOENT);
	cr_assert_eq(o.ok_mask, 0);
	cr_assert_eq(o.machine, EM_AARCH64);
	for (int k = 0; k < AT_ART_METHOD_COUNT; k++)
		cr_assert_eq(o.n[k], 0, "kind %d", k);
	art_missing(&o, missing, sizeof(missing));
	cr_assert_str_eq(missing, "android.animation.ValueAnimator.start, "
				  "android.animation.ValueAnimator.cancel, "
				  "android.animation.ValueAnimator.end");
}

/* The fixture's addresses are the ones its unstripped build's .symtab holds. */
static void assert_same_as_symtab(const struct art_oat *o, enum at_art_method k, int n)
{
	struct elfsym *s = elfsym__open(ART_FIXTURE_FULL);
	struct elfsym_hit hits[4];

	cr_assert_not_null(s);
	cr_assert_eq(elfsym__find_all(s, art_method_name(k), hits, 4), n);
	cr_assert_eq(o->n[k], n, "%s", art_method_name(k));
	for (int i = 0; i < n; i++) {
		uint64_t off;

		cr_assert_eq(o->addr[k][i].vaddr, hits[i].vaddr);
		cr_assert_eq(elfsym__vaddr_to_offset(s, hits[i].vaddr, &off), 0);
		cr_assert_eq(o->addr[k][i].offset, off);
	}
	elfsym__free(s);
}

Test(art, the_fixture_resolves_its_methods_and_both_start_overloads)
{
	struct art_oat o;
	char missing[256];

	cr_assert_eq(art_resolve(ART_FIXTURE, &o), 0);
	cr_assert_str_eq(o.path, ART_FIXTURE);
	cr_assert_eq(o.ok_mask, (1u << AT_ART_VA_START) | (1u << AT_ART_VA_CANCEL) |
					(1u << AT_ART_VA_END) | (1u << AT_ART_VA_ANIMATE) |
					(1u << AT_ART_OA_ANIMATE) | (1u << AT_ART_DYN_START) |
					(1u << AT_ART_DYN_CANCEL) | (1u << AT_ART_SPRING_START) |
					(1u << AT_ART_DYN_SKIP) | (1u << AT_ART_DYN_END) |
					(1u << AT_ART_DYN_FRAME));
	cr_assert(o.mini_debug_info);
	assert_same_as_symtab(&o, AT_ART_VA_ANIMATE, 1);
	assert_same_as_symtab(&o, AT_ART_OA_ANIMATE, 1);
	cr_assert_neq(o.addr[AT_ART_VA_ANIMATE][0].vaddr, o.addr[AT_ART_OA_ANIMATE][0].vaddr);
	assert_same_as_symtab(&o, AT_ART_VA_START, 2);
	assert_same_as_symtab(&o, AT_ART_VA_CANCEL, 1);
	assert_same_as_symtab(&o, AT_ART_VA_END, 1);
	cr_assert_neq(o.addr[AT_ART_VA_START][0].vaddr, o.addr[AT_ART_VA_START][1].vaddr);
	assert_same_as_symtab(&o, AT_ART_DYN_END, 1);
	assert_same_as_symtab(&o, AT_ART_DYN_FRAME, 1);
	art_missing(&o, missing, sizeof(missing));
	cr_assert_str_eq(missing, "");
	art_missing_dynamic(&o, missing, sizeof(missing));
	cr_assert_str_eq(missing, "");
}

Test(art, the_apps_odex_resolves_androidx_dynamic_animation_only)
{
	struct art_oat o;
	char missing[256];

	cr_assert_eq(art_resolve(BUILD_DIR "/sim/base.odex", &o), 0);
	cr_assert(o.mini_debug_info);
	cr_assert_not(art_is_boot_oat(o.path));
	cr_assert_eq(o.ok_mask, (1u << AT_ART_DYN_START) | (1u << AT_ART_DYN_CANCEL) |
					(1u << AT_ART_SPRING_START) | (1u << AT_ART_DYN_SKIP) |
					(1u << AT_ART_DYN_END) | (1u << AT_ART_DYN_FRAME));
	cr_assert_eq(o.n[AT_ART_DYN_START], 1);
	art_missing(&o, missing, sizeof(missing));
	cr_assert_str_eq(missing, "android.animation.ValueAnimator.start, "
				  "android.animation.ValueAnimator.cancel, "
				  "android.animation.ValueAnimator.end");
}

Test(art, a_file_that_cannot_be_read_is_an_error_not_a_missing_method)
{
	struct art_oat o;
	struct art_addr a[1];

	cr_assert_eq(art_resolve("/nonexistent/boot-framework.oat", &o), -ENOENT);
	cr_assert_eq(o.ok_mask, 0);
	cr_assert_eq(art_find_method("/nonexistent/boot-framework.oat", "x", a, 1), -ENOENT);
	cr_assert_eq(art_find_method("/proc/self/status", "x", a, 1), -EINVAL);
}

Test(art, maps_find_the_framework_oat_wherever_ART_put_it)
{
	char root[] = "/tmp/at-art-XXXXXX", path[512];

	cr_assert_not_null(mkdtemp(root));
	fake_maps(root, 20,
		  "70000000-70100000 r--p 00000000 fd:01 9 "
		  "/system/framework/arm64/boot.oat\n"
		  "70100000-70200000 r-xp 0004c000 fd:01 10 "
		  "/system/framework/arm64/boot-framework.oat\n");
	fake_maps(root, 21,
		  "70100000-70200000 r-xp 0004c000 fd:05 10 /data/misc/apexdata/"
		  "com.android.art/dalvik-cache/arm64/boot-framework.oat\n");
	fake_maps(root, 22,
		  "70000000-70100000 r--p 00000000 fd:01 9 "
		  "/system/framework/arm64/boot.oat\n"
		  "70100000-70200000 r-xp 00000000 fd:01 11 "
		  "/data/app/myboot-framework.oat\n"
		  "7f4000-7f5000 rw-p 00000000 00:00 0 [anon:boot-framework.oat]\n");
	cr_assert_eq(art_find_oat(root, 20, path, sizeof(path)), 0);
	cr_assert_str_eq(path, "/system/framework/arm64/boot-framework.oat");
	cr_assert_eq(art_find_oat(root, 21, path, sizeof(path)), 0);
	cr_assert_str_eq(path, "/data/misc/apexdata/com.android.art/dalvik-cache/arm64/"
			       "boot-framework.oat");
	cr_assert_eq(art_find_oat(root, 22, path, sizeof(path)), -ENOENT);
	cr_assert_eq(art_find_oat(root, 23, path, sizeof(path)), -ENOENT);
	temp_tree_remove(root);
}

Test(art, maps_give_the_boot_framework_oat_and_the_apps_own_compiled_code_once_each)
{
	char root[] = "/tmp/at-art-XXXXXX", paths[2][ART_PATH_MAX];

	cr_assert_not_null(mkdtemp(root));
	fake_maps(root, 30,
		  "70000000-70100000 r--p 00000000 fd:01 9 "
		  "/system/framework/arm64/boot.oat\n"
		  "70100000-70200000 r-xp 0004c000 fd:01 10 "
		  "/system/framework/arm64/boot-framework.oat\n"
		  "70200000-70300000 r-xp 0004c000 fd:01 12 "
		  "/system/framework/arm64/boot-core-libart.oat\n"
		  "71000000-71100000 r--p 00000000 fd:05 20 "
		  "/data/app/~~x==/com.example.app-y==/oat/arm64/base.odex\n"
		  "71100000-71200000 r-xp 00001000 fd:05 20 "
		  "/data/app/~~x==/com.example.app-y==/oat/arm64/base.odex\n"
		  "72000000-72100000 r-xp 00001000 fd:01 21 "
		  "/system_ext/priv-app/SystemUIGoogle/oat/arm64/SystemUIGoogle.odex\n"
		  "7f4000-7f5000 rw-p 00000000 00:00 0 [anon:base.odex]\n");
	cr_assert_eq(art_find_oats(root, 30, paths, 2), 3, "three files, two kept: max + 1");
	cr_assert_str_eq(paths[0], "/system/framework/arm64/boot-framework.oat");
	cr_assert_str_eq(paths[1], "/data/app/~~x==/com.example.app-y==/oat/arm64/base.odex");
	cr_assert(art_is_boot_oat(paths[0]));
	cr_assert_not(art_is_boot_oat(paths[1]));
	cr_assert_eq(art_find_oats(root, 31, paths, 2), -ENOENT);
	temp_tree_remove(root);
}

Test(art, method_kinds_and_names_are_what_the_engine_and_the_user_see)
{
	cr_assert_str_eq(art_method_kind(AT_ART_VA_START), "start");
	cr_assert_str_eq(art_method_kind(AT_ART_VA_CANCEL), "cancel");
	cr_assert_str_eq(art_method_kind(AT_ART_VA_END), "end");
	cr_assert_str_eq(art_method_kind(AT_ART_DYN_START), "start");
	cr_assert_str_eq(art_method_kind(AT_ART_DYN_CANCEL), "cancel");
	cr_assert_str_eq(art_method_kind(AT_ART_METHOD_COUNT), "?");
	cr_assert_str_eq(art_method_name(AT_ART_VA_END), "android.animation.ValueAnimator.end");
	cr_assert_str_eq(art_method_name(AT_ART_DYN_CANCEL),
			 "com.android.internal.dynamicanimation.animation.DynamicAnimation.cancel");
}

Test(art, dynamic_animation_rows_name_the_framework_copy_and_say_their_roles)
{
	cr_assert_str_eq(art_method_name(AT_ART_DYN_END),
			 "com.android.internal.dynamicanimation."
			 "animation.DynamicAnimation.endAnimationInternal");
	cr_assert_str_eq(
		art_method_name(AT_ART_DYN_SKIP),
		"com.android.internal.dynamicanimation.animation.SpringAnimation.skipToEnd");
	cr_assert_str_eq(art_method_name(AT_ART_DYN_FRAME),
			 "com.android.internal."
			 "dynamicanimation.animation.DynamicAnimation.doAnimationFrame");
	cr_assert_str_eq(art_method_kind(AT_ART_SPRING_START), "spring");
	cr_assert_str_eq(art_method_kind(AT_ART_DYN_END), "end-internal");
	cr_assert_str_eq(art_method_kind(AT_ART_DYN_FRAME), "frame");
	cr_assert(art_method_dynamic(AT_ART_DYN_START));
	cr_assert(art_method_dynamic(AT_ART_DYN_FRAME));
	cr_assert_not(art_method_dynamic(AT_ART_VA_START));
	cr_assert_not(art_method_dynamic(AT_ART_OA_ANIMATE));
}

Test(art, a_short_buffer_gets_a_truncated_list_of_missing_methods)
{
	struct art_oat o = { .ok_mask = 1u << AT_ART_VA_CANCEL };
	char small[12];

	art_missing(&o, small, sizeof(small));
	cr_assert_str_eq(small, "android.ani");
}

/* The BPF side writes this layout; userspace reads it: both compile the same header. */
Test(art, the_art_record_layout_is_fixed)
{
	cr_assert_eq(sizeof(struct at_art_rec), 56);
	cr_assert_eq(offsetof(struct at_art_rec, arg), 48);
	cr_assert_eq(offsetof(struct at_art_rec, obj), 24);
	cr_assert_eq(offsetof(struct at_art_rec, method), 32);
	cr_assert_eq(offsetof(struct at_art_rec, cookie), 36);
	cr_assert_eq(offsetof(struct at_art_rec, lock_word), 40);
	cr_assert_eq(offsetof(struct at_art_rec, has_cookie), 44);
}
