// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Who a traced process is: its uid (a fake /proc) against a fake packages.list. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fake_proc.h"
#include "live/identity.h"

static char root[64], list[96];

static void setup(void)
{
	FILE *f;

	snprintf(root, sizeof(root), "/tmp/animtrace-ident-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	snprintf(list, sizeof(list), "%s/packages.list", root);
	f = fopen(list, "w");
	cr_assert_not_null(f);
	/* the format PackageManager writes (libpackagelistparser parse_line) */
	fputs("com.android.systemui 10123 0 /data/user/0/com.android.systemui "
	      "platform:privapp:targetSdkVersion=33 1065,3002 0 33\n"
	      "com.android.settings 1000 0 /data/user_de/0/com.android.settings "
	      "platform:system_app:targetSdkVersion=33 3002,3003 0 33\n"
	      "com.android.systemui.extra 10999 0 /data/user/0/x default:targetSdkVersion=33 none\n",
	      f);
	fclose(f);
}

static void teardown(void)
{
	temp_tree_remove(root);
}

TestSuite(identity, .init = setup, .fini = teardown);

/* Process pid of the fake /proc runs as uid (real; the others differ, as after setresuid). */
static void proc_uid(int pid, unsigned int uid)
{
	char text[160];

	snprintf(text, sizeof(text),
		 "Name:\tsomething\nUmask:\t0077\nTgid:\t%d\nUid:\t%u\t0\t0\t0\n", pid, uid);
	fake_proc_file(root, pid, "status", text);
}

static enum identity_verdict check(struct identity *id, int pid, const char *name, char *why)
{
	struct identity_result r;

	identity__check(id, (uint32_t)pid, name, &r);
	strcpy(why, r.why);
	return r.verdict;
}

Test(identity, a_package_s_processes_are_checked_against_packages_list_in_any_user)
{
	struct identity *id = identity__new(root, list, false);
	char why[AT_IDENTITY_MAX];

	cr_assert(identity__active(id) && identity__has_list(id));
	proc_uid(100, 10123);
	proc_uid(101, 1010123); /* user 10 */
	proc_uid(102, 10123);
	proc_uid(103, 1000);
	cr_assert_eq(check(id, 100, "com.android.systemui", why), IDENTITY_OK);
	cr_assert_eq(check(id, 101, "com.android.systemui", why), IDENTITY_OK);
	cr_assert_eq(check(id, 102, "com.android.systemui:screenshot", why), IDENTITY_OK);
	cr_assert_eq(check(id, 103, "com.android.settings", why), IDENTITY_OK, "shared uid 1000");
	identity__free(id);
}

Test(identity, a_process_that_took_a_package_s_name_is_an_impostor_and_says_whose_uid_it_has)
{
	struct identity *id = identity__new(root, list, false);
	char why[AT_IDENTITY_MAX];

	proc_uid(200, 10234);
	cr_assert_eq(check(id, 200, "com.android.systemui", why), IDENTITY_IMPOSTOR);
	cr_assert_str_eq(why, "uid 10234, not 10123 (com.android.systemui in packages.list)");
	cr_assert_eq(check(id, 200, "com.android.systemui:x", why), IDENTITY_IMPOSTOR);
	proc_uid(201, 10999); /* a prefix of another package's name is not that package */
	cr_assert_eq(check(id, 201, "com.android.systemui.extra", why), IDENTITY_OK);
	identity__free(id);
}

Test(identity, surfaceflinger_is_system_and_isolated_uids_are_said_not_judged)
{
	struct identity *id = identity__new(root, list, false);
	char why[AT_IDENTITY_MAX];

	proc_uid(300, 1000);
	proc_uid(301, 10234);
	proc_uid(302, 99012);
	proc_uid(303, 1001000); /* system of user 10 is not SurfaceFlinger */
	cr_assert_eq(check(id, 300, "/system/bin/surfaceflinger", why), IDENTITY_OK);
	cr_assert_eq(check(id, 301, "surfaceflinger", why), IDENTITY_IMPOSTOR);
	cr_assert_str_eq(why, "uid 10234, not 1000 (SurfaceFlinger runs as system)");
	cr_assert_eq(check(id, 303, "surfaceflinger", why), IDENTITY_IMPOSTOR);
	cr_assert_eq(check(id, 302, "com.android.systemui", why), IDENTITY_ISOLATED);
	cr_assert_str_eq(why, "isolated uid 99012: no package to check it against");
	identity__free(id);
}

Test(identity, without_packages_list_a_name_is_checked_against_its_first_process)
{
	struct identity *id = identity__new(root, "/nonexistent/packages.list", true);
	char why[AT_IDENTITY_MAX];

	cr_assert(identity__active(id) && !identity__has_list(id));
	proc_uid(400, 10500);
	proc_uid(401, 10500);
	proc_uid(402, 10666);
	cr_assert_eq(check(id, 400, "com.foo", why), IDENTITY_UNCHECKED, "the first: nothing yet");
	cr_assert_eq(check(id, 401, "com.foo:sub", why), IDENTITY_OK);
	cr_assert_eq(check(id, 402, "com.foo", why), IDENTITY_IMPOSTOR);
	cr_assert_str_eq(why, "uid 10666, not 10500 (pid 400, the first com.foo)");
	identity__free(id);
}

Test(identity, off_android_nothing_is_judged_and_a_planted_list_that_is_not_a_file_is_not_read)
{
	struct identity *id = identity__new(root, "/nonexistent/packages.list", false);
	char why[AT_IDENTITY_MAX], fifo[128];

	proc_uid(500, 12345);
	cr_assert_not(identity__active(id));
	cr_assert_eq(check(id, 500, "com.android.systemui", why), IDENTITY_UNCHECKED);
	identity__free(id);
	snprintf(fifo, sizeof(fifo), "%s/fifo.list", root);
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	id = identity__new(root, fifo, false); /* O_NONBLOCK: no wait for a writer */
	cr_assert_not(identity__has_list(id));
	identity__free(id);
}
