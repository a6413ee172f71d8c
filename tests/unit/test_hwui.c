// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <criterion/criterion.h>

#include "fake_proc.h"
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/elfsym.h"
#include "symbols/hwui.h"
#include "sim/hwui_fixture.h"

#define ANDROID9_RUNTIME TESTDATA "/android/android9-arm64-libandroid_runtime.so"
#define FIXTURE_DIR BUILD_DIR "/sim/"
#define FIXTURE FIXTURE_DIR "libhwui.so"

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

/*
 * One probe per setter call (issue 23) on the real Android 9 library. AOSP
 * core/jni/android_view_RenderNode.cpp (9.0.0_r1): SET_AND_DIRTY(setAlpha, alpha,
 * RenderNode::ALPHA) inlines RenderProperties::setAlpha, RP_SET(mPrimitiveFields.mAlpha,
 * clampAlpha(alpha)) of libs/hwui/RenderProperties.h: compare, and only when the value
 * differs store it and set the dirty bits. aarch64-linux-gnu-objdump -d of the file:
 *   setAlpha     1036e0: ... ldr s4,[x0,#500]; ... fcmp s4,s0; b.eq 10372c;
 *                103714: ldr w8,[x0,#32]; 103718: str s0,[x0,#500]; orr; str w8,[x0,#32];
 *                orr w0,wzr,#1; ret; 10372c: mov w0,wzr; ret
 *   setElevation 103764: ldr s1,[x0,#516]; fcmp s1,s0; b.eq; ldr w8,[x0,#32];
 *                103774: str s0,[x0,#516]; ...; ret
 * and the same for the other eight: no call, no branch out, x0 rewritten only as the
 * return value right before a ret. So the field holds the stored value from the setter's
 * return to the thread's next event, and each setter gets one probe, at its entry (the
 * symbol's address: the field read there is the value before the call), and no uretprobe.
 */
Test(hwui, android9_runtime_setters_are_leaves_storing_the_field_so_one_probe_a_call)
{
	static const struct {
		uint64_t setter, store;
	} want[AT_PROP_COUNT] = {
		[AT_PROP_ALPHA] = { 0x1036e0, 0x103718 },
		[AT_PROP_TRANSLATION_X] = { 0x103790, 0x1037a8 },
		[AT_PROP_TRANSLATION_Y] = { 0x1037cc, 0x1037e4 },
		[AT_PROP_TRANSLATION_Z] = { 0x103808, 0x10381c },
		[AT_PROP_ELEVATION] = { 0x103764, 0x103774 },
		[AT_PROP_ROTATION] = { 0x103838, 0x10384c },
		[AT_PROP_ROTATION_X] = { 0x103870, 0x103884 },
		[AT_PROP_ROTATION_Y] = { 0x1038a8, 0x1038bc },
		[AT_PROP_SCALE_X] = { 0x1038e0, 0x1038f4 },
		[AT_PROP_SCALE_Y] = { 0x103918, 0x10392c },
	};
	struct hwui_lib lib;

	cr_assert_eq(hwui_resolve(ANDROID9_RUNTIME, NULL, &lib, NULL, NULL), 0);
	cr_assert_eq(lib.one_probe_mask, (1u << AT_PROP_COUNT) - 1);
	for (int p = 0; p < AT_PROP_COUNT; p++) {
		cr_assert_eq(lib.store_err[p], 0, "%s: %s", hwui_prop_name(p),
			     hwui_store_strerror(lib.store_err[p]));
		cr_assert_eq(lib.setter_vaddr[p], want[p].setter, "%s", hwui_prop_name(p));
		cr_assert_eq(lib.setter_off[p], want[p].setter - 0x35000, "%s", hwui_prop_name(p));
		cr_assert_eq(lib.store_vaddr[p], want[p].store, "%s", hwui_prop_name(p));
	}
}

/* --hwui-offsets naming another field than the one the setter stores: the pair is kept. */
Test(hwui, a_setter_that_does_not_store_the_given_field_keeps_its_return_probe)
{
	struct hwui_lib lib;

	cr_assert_eq(hwui_resolve(ANDROID9_RUNTIME, "alpha=504", &lib, NULL, NULL), 0);
	cr_assert_eq(lib.ok_mask, (1u << AT_PROP_COUNT) - 1);
	cr_assert_eq(lib.one_probe_mask, ((1u << AT_PROP_COUNT) - 1) & ~(1u << AT_PROP_ALPHA));
	cr_assert_eq(lib.store_err[AT_PROP_ALPHA], -ENOENT);
	cr_assert_str_eq(hwui_store_strerror(-ENOENT),
			 "no 32-bit store to the field through its first argument");
}

/* libhwui-calls.so's setters call note_set() after their store: every one keeps its pair. */
Test(hwui, setters_that_call_out_keep_the_entry_and_return_pair_and_say_why)
{
	struct hwui_lib lib;

	cr_assert_eq(hwui_resolve(FIXTURE_DIR "libhwui-calls.so", NULL, &lib, NULL, NULL), 0);
	cr_assert_eq(lib.ok_mask, (1u << AT_PROP_COUNT) - 1);
	cr_assert_eq(lib.one_probe_mask, 0);
	for (int p = 0; p < AT_PROP_COUNT; p++)
		cr_assert_eq(lib.store_err[p], -EXDEV, "%s", hwui_prop_name(p));
	cr_assert_str_eq(hwui_store_strerror(-EXDEV), "calls or branches out (not a leaf)");
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
	/* gcc's rp_set: ucomiss off(%rdi),%xmm0; jp/jne to movss %xmm0,off(%rdi); ret. */
	cr_assert_eq(lib.one_probe_mask, (1u << AT_PROP_COUNT) - 1);
	for (int p = 0; p < AT_PROP_COUNT; p++)
		cr_assert(lib.store_vaddr[p] > lib.setter_vaddr[p], "%s", hwui_prop_name(p));
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

Test(hwui, offsets_are_parsed_whole_and_each_bad_one_says_why)
{
	static const struct {
		const char *spec, *why;
	} bad[] = {
		{ "", "no PROP=OFF given" },
		{ "alpha", "'alpha' is not PROP=OFF" },
		{ "alpha=zz", "'zz' is no offset for alpha (1 to 0xffff, e.g. alpha=0x4c)" },
		{ "alpha=0", "'0' is no offset for alpha" },
		{ "alpha=0x10000", "'0x10000' is no offset" },
		{ "alpha=-4", "'-4' is no offset" },
		{ "alpha= 4", "' 4' is no offset" },
		{ "alpha=4x", "'4x' is no offset" },
		{ "alpha=99999999999999999999999", "is no offset" },
		{ "opacity=4", "no property 'opacity' (alpha, translationX, " },
		{ "alpha=4,", "an empty item" },
		{ "alpha=4,,scaleX=8", "an empty item" },
	};
	uint32_t off[AT_PROP_COUNT] = { 0 };
	char why[160];

	cr_assert_eq(hwui_parse_offsets("alpha=0x4c,scaleX=108,elevation=0xffff", off, why,
					sizeof(why)),
		     0);
	cr_assert_eq(off[AT_PROP_ALPHA], 0x4c);
	cr_assert_eq(off[AT_PROP_SCALE_X], 108);
	cr_assert_eq(off[AT_PROP_ELEVATION], 0xffff);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		cr_expect_eq(hwui_parse_offsets(bad[i].spec, off, why, sizeof(why)), -EINVAL, "%s",
			     bad[i].spec);
		cr_expect(strstr(why, bad[i].why), "'%s': \"%s\"", bad[i].spec, why);
	}
}

Test(hwui, a_library_without_any_setter_fails_without_per_property_warnings)
{
	struct hwui_lib lib;
	struct warnings w = { 0 };

	cr_assert_eq(hwui_resolve(TESTDATA "/android/android9-arm64-libcutils.so", NULL, &lib,
				  collect, &w),
		     -ENODATA);
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
	fake_maps(root, 10,
		  "7f0000-7f1000 r-xp 00000000 fd:01 12 /system/lib64/libandroid_runtime.so\n"
		  "7f2000-7f3000 r-xp 00000000 fd:01 13 /system/lib64/libhwui.so\n");
	fake_maps(root, 11,
		  "7f0000-7f1000 r-xp 00000000 fd:01 12 /system/lib64/libandroid_runtime.so\n"
		  "7f4000-7f5000 rw-p 00000000 00:00 0 [heap]\n");
	fake_maps(root, 12,
		  "7f0000-7f1000 r-xp 00000000 fd:01 12 /system/lib64/libnotthehwui.so.1\n");
	cr_assert_eq(hwui_find_library(root, 10, path, sizeof(path)), 0);
	cr_assert_str_eq(path, "/system/lib64/libhwui.so");
	cr_assert_eq(hwui_find_library(root, 11, path, sizeof(path)), 0);
	cr_assert_str_eq(path, "/system/lib64/libandroid_runtime.so");
	cr_assert_eq(hwui_find_library(root, 12, path, sizeof(path)), -ENOENT);
	cr_assert_eq(hwui_find_library(root, 13, path, sizeof(path)), -ENOENT);
	temp_tree_remove(root);
}

/* ---- RenderNode name and unique id offsets ----------------------------------------- */

Test(hwui, android9_runtime_create_puts_the_render_node_name_at_0x10_and_has_no_unique_id)
{
	struct hwui_lib lib;
	struct warnings w = { 0 };

	/* create at 0x102eb4: bl _Znwm@plt; mov x21, x0; ... add x0, x21, #0x10 (0x102f24);
	 * bl String8::setTo@plt (0x102f38). No getUniqueId before Android 10. */
	cr_assert_eq(hwui_resolve(ANDROID9_RUNTIME, NULL, &lib, collect, &w), 0);
	cr_assert_eq(w.n, 0, "%s", w.last);
	cr_assert_eq(lib.node.name_err, 0, "%s", hwui_name_strerror(lib.node.name_err));
	cr_assert_eq(lib.node.name_off, 0x10);
	cr_assert_eq(lib.node.uniqueid_err, -ENOENT);
	cr_assert_eq(lib.node.uniqueid_off, 0);
	cr_assert_str_eq(hwui_uniqueid_strerror(lib.node.uniqueid_err),
			 "no android_view_RenderNode_getUniqueId (Android 9 and earlier)");
}

Test(hwui, the_x86_64_fixtures_give_the_name_and_id_offsets_their_source_defines)
{
	/* The stripped library (create and setTo@plt known only from MiniDebugInfo and
	 * .rela.plt), its unstripped twin, the .plt.sec build and the -fno-plt build. */
	static const char *const libs[] = { "libhwui.so", "libhwui.unstripped.so", "libhwui-ibt.so",
					    "libhwui-noplt.so" };

	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
		char path[256];
		struct hwui_lib lib;

		snprintf(path, sizeof(path), FIXTURE_DIR "%s", libs[i]);
		cr_assert_eq(hwui_resolve(path, NULL, &lib, NULL, NULL), 0, "%s", path);
		cr_assert_eq(lib.machine, EM_X86_64);
		cr_assert_eq(lib.node.name_err, 0, "%s: %s", libs[i],
			     hwui_name_strerror(lib.node.name_err));
		cr_assert_eq(lib.node.name_off, HWUI_OFF_NAME, "%s", libs[i]);
		cr_assert_eq(lib.node.uniqueid_err, 0, "%s: %s", libs[i],
			     hwui_uniqueid_strerror(lib.node.uniqueid_err));
		cr_assert_eq(lib.node.uniqueid_off, HWUI_OFF_UNIQUE_ID, "%s", libs[i]);
		cr_assert_eq(lib.one_probe_mask, (1u << AT_PROP_COUNT) - 1, "%s", libs[i]);
	}
}

Test(hwui, the_decoded_offsets_are_where_a_created_node_keeps_its_name_and_id)
{
	struct hwui_lib lib;
	void *dl = dlopen(FIXTURE, RTLD_NOW | RTLD_LOCAL);
	const struct hwui_fixture_methods *(*table)(void);
	const struct hwui_fixture_methods *m;
	int64_t a, b;

	cr_assert_not_null(dl, "%s", dlerror());
	*(void **)&table = dlsym(dl, "hwui_fixture_methods");
	cr_assert_not_null(table);
	m = table();
	cr_assert_eq(hwui_resolve(FIXTURE, NULL, &lib, NULL, NULL), 0);
	a = m->create_node("com.android.systemui.statusbar.NotificationRow");
	b = m->create_node("ScrimView");
	cr_assert(a && b);
	cr_assert_str_eq(*(const char **)(uintptr_t)(a + lib.node.name_off), "NotificationRow");
	cr_assert_str_eq(*(const char **)(uintptr_t)(b + lib.node.name_off), "ScrimView");
	cr_assert_eq(*(int64_t *)(uintptr_t)(a + lib.node.uniqueid_off), m->unique_id(a));
	cr_assert_eq(m->unique_id(b), m->unique_id(a) + 1);
	m->free_node(a);
	m->free_node(b);
	dlclose(dl);
}

Test(hwui, a_create_without_the_string8_call_leaves_the_name_unknown_with_enoent)
{
	struct hwui_lib lib;

	cr_assert_eq(hwui_resolve(FIXTURE_DIR "libhwui-noname.so", NULL, &lib, NULL, NULL), 0,
		     "the setters keep working");
	cr_assert_eq(lib.ok_mask, (1u << AT_PROP_COUNT) - 1);
	cr_assert_eq(lib.node.name_err, -ENOENT);
	cr_assert_eq(lib.node.name_off, 0);
	cr_assert_str_eq(hwui_name_strerror(lib.node.name_err),
			 "RenderNode name offset not found in android_view_RenderNode_create");
	cr_assert_eq(lib.node.uniqueid_off, HWUI_OFF_UNIQUE_ID);
}

/* Android 9's create with one instruction replaced (vaddr - 0x35000 = file offset). */
static int android9_patched(uint64_t vaddr, uint32_t insn, struct hwui_node_layout *out)
{
	FILE *f = fopen(ANDROID9_RUNTIME, "rb");
	static uint8_t buf[4 << 20];
	size_t len, at = vaddr - 0x35000;
	struct elfsym *s;
	int ret;

	cr_assert_not_null(f);
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	cr_assert(len > at + 4 && len < sizeof(buf));
	for (int i = 0; i < 4; i++)
		buf[at + i] = (uint8_t)(insn >> (8 * i));
	s = elfsym__open_mem(buf, len);
	cr_assert_not_null(s);
	ret = hwui_node_layout(s, out);
	elfsym__free(s);
	return ret;
}

Test(hwui, android9_create_patched_to_move_drop_or_misdirect_the_set_to_call_is_decoded_so)
{
	struct hwui_node_layout l;

	cr_assert_eq(android9_patched(0x102f24, 0x910042a0, &l), 0, "add x0, x21, #0x10 as is");
	cr_assert_eq(l.name_off, 0x10);
	cr_assert_eq(android9_patched(0x102f24, 0x910062a0, &l), 0); /* add x0, x21, #0x18 */
	cr_assert_eq(l.name_off, 0x18);
	cr_assert_eq(android9_patched(0x102f38, 0xd503201f, &l), -ENOENT, "bl setTo -> nop");
	cr_assert_eq(android9_patched(0x102f24, 0x910043e0, &l), -ENOENT, "add x0, sp, #0x10");
	cr_assert_eq(android9_patched(0x102f24, 0x91004280, &l), -ENOENT, "add x0, x20 (env)");
	cr_assert_eq(android9_patched(0x102ed4, 0xaa0103f5, &l), -ENOENT, "mov x21, x1");
	cr_assert_eq(l.name_off, 0);
	cr_assert_eq(l.uniqueid_err, -ENOENT);
}

Test(hwui, libraries_without_create_or_unreadable_ones_say_why_the_name_is_unknown)
{
	struct hwui_lib lib;

	cr_assert_eq(hwui_resolve(TESTDATA "/android/android9-arm64-libcutils.so", NULL, &lib, NULL,
				  NULL),
		     -ENODATA);
	cr_assert_eq(lib.node.name_err, -ESRCH);
	cr_assert_str_eq(hwui_name_strerror(-ESRCH), "no android_view_RenderNode_create symbol");
	cr_assert_eq(lib.node.uniqueid_err, -ENOENT);
	cr_assert_eq(hwui_resolve("/nonexistent/libhwui.so", NULL, &lib, NULL, NULL), -ENOENT);
	cr_assert_eq(lib.node.name_err, -ENODATA);
	cr_assert_eq(lib.node.uniqueid_err, -ENODATA);
	cr_assert_str_eq(hwui_name_strerror(-ENODATA), "the library could not be read");
	cr_assert_str_eq(hwui_name_strerror(-ENOTUNIQ),
			 "android_view_RenderNode_create sets two different RenderNode names");
}

/*
 * The arm64 fixtures, decoded by this (x86) runner: `make hwui-arm64-test` builds them and
 * passes their directory. `make unit` filters this suite out; run without the directory it
 * fails, so a wiring mistake cannot pass as a skip.
 */
static const char *arm64_path(char *buf, size_t size, const char *file)
{
	const char *dir = getenv("HWUI_ARM64_DIR");

	if (!dir || !*dir)
		cr_assert_fail(
			"HWUI_ARM64_DIR is not set: run this suite with `make hwui-arm64-test`, "
			"which builds the arm64 fixtures");
	snprintf(buf, size, "%s/%s", dir, file);
	return buf;
}

static void assert_arm64_fixture(const char *file)
{
	char path[512];
	struct hwui_lib lib;

	cr_assert_eq(hwui_resolve(arm64_path(path, sizeof(path), file), NULL, &lib, NULL, NULL), 0,
		     "%s", path);
	cr_assert_eq(lib.machine, EM_AARCH64);
	cr_assert_eq(lib.ok_mask, (1u << AT_PROP_COUNT) - 1);
	cr_assert_eq(lib.field_off[AT_PROP_ALPHA], HWUI_OFF_ALPHA);
	cr_assert_eq(lib.node.name_err, 0, "%s: %s", file, hwui_name_strerror(lib.node.name_err));
	cr_assert_eq(lib.node.name_off, HWUI_OFF_NAME, "%s", file);
	cr_assert_eq(lib.node.uniqueid_err, 0, "%s: %s", file,
		     hwui_uniqueid_strerror(lib.node.uniqueid_err));
	cr_assert_eq(lib.node.uniqueid_off, HWUI_OFF_UNIQUE_ID, "%s", file);
	cr_assert_eq(lib.one_probe_mask, (1u << AT_PROP_COUNT) - 1, "%s", file);
}

Test(hwui_arm64, the_arm64_fixture_library_calls_set_to_through_its_plt_at_the_defined_offset)
{
	assert_arm64_fixture("libhwui.so");
}

Test(hwui_arm64, the_static_arm64_animsim_calls_a_minidebuginfo_set_to_directly_and_agrees)
{
	assert_arm64_fixture("animsim");
}

Test(hwui_arm64, the_arm64_create_without_the_string8_call_gives_enoent)
{
	char path[512];
	struct hwui_lib lib;

	cr_assert_eq(hwui_resolve(arm64_path(path, sizeof(path), "libhwui-noname.so"), NULL, &lib,
				  NULL, NULL),
		     0);
	cr_assert_eq(lib.node.name_err, -ENOENT);
	cr_assert_eq(lib.node.uniqueid_off, HWUI_OFF_UNIQUE_ID);
}

/* Issue 15: Android 9 has no two-argument finishRecording: setDisplayList takes the node. */
Test(hwui, android9_runtime_gives_set_display_list_and_native_schedule_vsync_with_offsets)
{
	struct hwui_lib lib;
	struct hwui_fn vsync;

	cr_assert_eq(hwui_resolve(ANDROID9_RUNTIME, NULL, &lib, NULL, NULL), 0);
	cr_assert_eq(lib.redraw.err, 0);
	cr_assert_str_eq(
		lib.redraw.name,
		"_ZN7androidL38android_view_RenderNode_setDisplayListEP7_JNIEnvP8_jobjectll");
	cr_assert_eq(lib.redraw.vaddr, 0x10310c);
	cr_assert_eq(lib.redraw.offset, 0x10310c - 0x35000); /* 0xce10c */
	cr_assert_eq(lib.redraw.node_arg, 3, "JNIEnv*, jobject, then the node");
	cr_assert_eq(hwui_resolve_vsync(ANDROID9_RUNTIME, &vsync), 0);
	cr_assert_str_eq(vsync.name, "_ZN7androidL19nativeScheduleVsyncEP7_JNIEnvP7_jclassl");
	cr_assert_eq(vsync.vaddr, 0xf75e8);
	cr_assert_eq(vsync.offset, 0xf75e8 - 0x35000); /* 0xc25e8 */
}

Test(hwui, a_library_without_the_vsync_request_says_enoent)
{
	struct hwui_fn vsync;

	cr_assert_eq(hwui_resolve_vsync(TESTDATA "/android/android9-arm64-libcutils.so", &vsync),
		     -ENOENT);
	cr_assert_eq(hwui_resolve_vsync("/nonexistent/libgui.so", &vsync), -ENOENT);
}
