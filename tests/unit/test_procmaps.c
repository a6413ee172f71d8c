// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fake_proc.h"
#include "symbols/procmaps.h"

static char root[] = "/tmp/at-procmaps-XXXXXX";

static void setup(void)
{
	cr_assert_not_null(mkdtemp(root));
	fake_maps(root, 42,
		  "5000-6000 r-xp 00000000 fd:01 7 /system/lib64/libnotlibhwui.so\n"
		  "7000-8000 rw-p 00000000 00:00 0 [anon:libhwui.so]\n"
		  "9000-a000 r--p 00000000 fd:01 8 /data/misc/apexdata/x/boot-framework.oat\n"
		  "b000-c000 r-xp 00000000 fd:01 9 /system/lib64/libhwui.so\n"
		  "d000-e000 r-xp 00001000 fd:01 9 /system/lib64/libhwui.so\n");
}

static void teardown(void)
{
	temp_tree_remove(root);
}

TestSuite(procmaps, .init = setup, .fini = teardown);

Test(procmaps, finds_a_file_by_its_whole_name_only)
{
	char path[256];

	cr_assert_eq(procmaps_find(root, 42, "libhwui.so", path, sizeof(path)), 0);
	cr_assert_str_eq(path, "/system/lib64/libhwui.so");
	cr_assert_eq(procmaps_find(root, 42, "boot-framework.oat", path, sizeof(path)), 0);
	cr_assert_str_eq(path, "/data/misc/apexdata/x/boot-framework.oat");
	cr_assert_eq(procmaps_find(root, 42, "hwui.so", path, sizeof(path)), -ENOENT);
	cr_assert_eq(procmaps_find(root, 42, "libc.so", path, sizeof(path)), -ENOENT);
}

Test(procmaps, a_process_without_maps_is_an_errno)
{
	char path[256];

	cr_assert_eq(procmaps_find(root, 43, "libhwui.so", path, sizeof(path)), -ENOENT);
	cr_assert_eq(procmaps_find("/nonexistent-root", 1, "libhwui.so", path, sizeof(path)),
		     -ENOENT);
}
