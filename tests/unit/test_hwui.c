// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <criterion/criterion.h>

#include "fake_proc.h"
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hwui.h"

#define ANDROID9_RUNTIME TESTDATA "/android/android9-arm64-libandroid_runtime.so"
#define FIXTURE BUILD_DIR "/sim/libhwui.so"

struct warnings {
	int n;
	char last[256];
};

static void collect(void *ctx, const char *msg)
{
	struct warnings *w = ctx;

	w->n++;
	snprintf(w->last, sizeof(w->last), "%s", msg);
}

Test(hwui, android9_runtime_gives_every_setter_and_the_getter_offsets)
{
	static const uint32_t want[AT_PROP_COUNT] = { 500, 504, 508, 512, 516,
						      520, 524, 528, 532, 536 };
	struct hwui_lib lib;
	struct warnings w = { 0 };

	cr_assert_eq(hwui_resolve(ANDROID9_RUNTIME, NULL, &lib, collect, &w), 0);
	cr_assert_eq(w.n, 0, "unexpected warning: %s", w.last);
	cr_assert_eq(lib.machine, EM_AARCH64);
	cr_assert_eq(lib.ok_mask, (1u << AT_PROP_COUNT) - 1);
	for (int p = 0; p < AT_PROP_COUNT; p++)
		cr_assert_eq(lib.field_off[p], want[p], "%s", hwui_prop_name(p));
	/* setAlpha at vaddr 0x1036e0; the first PT_LOAD maps 0x35000 to offset 0. */
	cr_assert_eq(lib.setter_off[AT_PROP_ALPHA], 0x1036e0 - 0x35000);
}

Test(hwui, the_stripped_fixture_gives_the_offsets_its_source_defines)
{
	static const uint32_t want[AT_PROP_COUNT] = { 0x4c, 0x50, 0x54, 0x58, 0x5c,
						      0x60, 0x64, 0x68, 0x6c, 0x70 };
	struct hwui_lib lib;

	cr_assert_eq(hwui_resolve(FIXTURE, NULL, &lib, NULL, NULL), 0);
	cr_assert_eq(lib.ok_mask, (1u << AT_PROP_COUNT) - 1);
	for (int p = 0; p < AT_PROP_COUNT; p++) {
		cr_assert_eq(lib.field_off[p], want[p], "%s", hwui_prop_name(p));
		cr_assert_neq(lib.setter_off[p], 0);
	}
}

Test(hwui, overrides_replace_decoding_and_bad_ones_are_refused)
{
	struct hwui_lib lib;

	cr_assert_eq(hwui_resolve(FIXTURE, "alpha=0x80,scaleY=12", &lib, NULL, NULL), 0);
	cr_assert_eq(lib.field_off[AT_PROP_ALPHA], 0x80);
	cr_assert_eq(lib.field_off[AT_PROP_SCALE_Y], 12);
	cr_assert_eq(lib.field_off[AT_PROP_SCALE_X], 0x6c);
	cr_assert_eq(hwui_resolve(FIXTURE, "alpha", &lib, NULL, NULL), -EINVAL);
	cr_assert_eq(hwui_resolve(FIXTURE, "opacity=4", &lib, NULL, NULL), -EINVAL);
	cr_assert_eq(hwui_resolve(FIXTURE, "alpha=4x", &lib, NULL, NULL), -EINVAL);
	cr_assert_eq(hwui_resolve(FIXTURE, "alpha=0", &lib, NULL, NULL), -EINVAL);
}

Test(hwui, a_library_without_any_setter_fails_without_per_property_warnings)
{
	struct hwui_lib lib;
	struct warnings w = { 0 };

	cr_assert_eq(hwui_resolve(TESTDATA "/android/android9-arm64-libcutils.so", NULL, &lib,
				  collect, &w), -ENODATA);
	cr_assert_eq(w.n, 0, "%s", w.last);
	cr_assert_eq(hwui_resolve("/nonexistent/libhwui.so", NULL, &lib, NULL, NULL), -ENOENT);
}

Test(hwui, a_library_cut_before_its_section_headers_is_malformed_not_setterless)
{
	char path[] = "/tmp/at-hwui-cut-XXXXXX", buf[3000];
	struct hwui_lib lib;
	FILE *in = fopen(FIXTURE, "rb");
	int fd = mkstemp(path);

	cr_assert(in && fd >= 0);
	cr_assert_eq(fread(buf, 1, sizeof(buf), in), sizeof(buf));
	cr_assert_eq(write(fd, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	close(fd);
	fclose(in);
	cr_assert_eq(hwui_resolve(path, NULL, &lib, NULL, NULL), -EINVAL);
	unlink(path);
}

Test(hwui, maps_prefer_libhwui_and_fall_back_to_libandroid_runtime)
{
	char root[] = "/tmp/at-hwui-XXXXXX", path[512];

	cr_assert_not_null(mkdtemp(root));
	fake_maps(root, 10, "7f0000-7f1000 r-xp 00000000 fd:01 12 /system/lib64/libandroid_runtime.so\n"
			     "7f2000-7f3000 r-xp 00000000 fd:01 13 /system/lib64/libhwui.so\n");
	fake_maps(root, 11, "7f0000-7f1000 r-xp 00000000 fd:01 12 /system/lib64/libandroid_runtime.so\n"
			     "7f4000-7f5000 rw-p 00000000 00:00 0 [heap]\n");
	fake_maps(root, 12, "7f0000-7f1000 r-xp 00000000 fd:01 12 /system/lib64/libnotthehwui.so.1\n");
	cr_assert_eq(hwui_find_library(root, 10, path, sizeof(path)), 0);
	cr_assert_str_eq(path, "/system/lib64/libhwui.so");
	cr_assert_eq(hwui_find_library(root, 11, path, sizeof(path)), 0);
	cr_assert_str_eq(path, "/system/lib64/libandroid_runtime.so");
	cr_assert_eq(hwui_find_library(root, 12, path, sizeof(path)), -ENOENT);
	cr_assert_eq(hwui_find_library(root, 13, path, sizeof(path)), -ENOENT);
}
