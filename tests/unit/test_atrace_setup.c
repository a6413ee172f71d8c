// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * atrace_setup against the fake getprop/setprop/service in tests/fakes, which keep each
 * property as a file in $AT_FAKE_PROPS and log every call to $AT_FAKE_LOG.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "live/atrace_setup.h"
#include "live/atrace_state.h"
#include "fake_proc.h"
#include "common/procsel.h"

#define FLAGS "debug.atrace.tags.enableflags"
#define PREFER "debug.atrace.prefer_sdk"
#define POKE "service call activity 1599295570\n"

static char fake_dir[64];
static char props_dir[96];
static char log_path[96];
static char state_dir[96];

static void use_path(const char *bin_dir)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s:/usr/bin:/bin", bin_dir);
	cr_assert_eq(setenv("PATH", path, 1), 0);
}

static void make_fakes(void)
{
	char cwd[PATH_MAX], bin[PATH_MAX + 16];

	strcpy(fake_dir, "/tmp/at_fakeXXXXXX");
	cr_assert_not_null(mkdtemp(fake_dir));
	snprintf(props_dir, sizeof(props_dir), "%s/props", fake_dir);
	snprintf(log_path, sizeof(log_path), "%s/log", fake_dir);
	cr_assert_eq(mkdir(props_dir, 0755), 0);
	snprintf(state_dir, sizeof(state_dir), "%s/state", fake_dir);
	cr_assert_eq(mkdir(state_dir, 0755), 0);
	setenv(ATRACE_STATE_DIR_ENV, state_dir, 1);
	setenv("AT_FAKE_PROPS", props_dir, 1);
	setenv("AT_FAKE_LOG", log_path, 1);
	cr_assert_not_null(getcwd(cwd, sizeof(cwd)));
	snprintf(bin, sizeof(bin), "%s/tests/fakes", cwd);
	use_path(bin);
}

static void remove_fakes(void)
{
	temp_tree_remove(fake_dir);
}

TestSuite(atrace_setup, .init = make_fakes, .fini = remove_fakes);

static void put(const char *name, const char *val)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", props_dir, name);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(val, f);
	fclose(f);
}

/* The property's value, or "<unset>" when it was never set. */
static const char *get(const char *name)
{
	static char val[128];
	char path[256];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", props_dir, name);
	f = fopen(path, "r");
	if (!f)
		return "<unset>";
	n = fread(val, 1, sizeof(val) - 1, f);
	val[n] = '\0';
	fclose(f);
	return val;
}

/* The setprop and service calls logged since the last call (getprop reads left out). */
static const char *writes(void)
{
	static char out[4096];
	char line[256];
	FILE *f = fopen(log_path, "r");

	out[0] = '\0';
	if (!f)
		return out;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "getprop ", 8))
			strcat(out, line);
	fclose(f);
	unlink(log_path);
	return out;
}

static struct atrace_setup *started(const char *const *apps, size_t n)
{
	struct atrace_setup *s = atrace_setup__new_apps(apps, n);

	cr_assert_not_null(s);
	cr_assert_eq(atrace_setup__state(s), ATRACE_SETUP_ACTIVE, "%s", atrace_setup__status(s));
	cr_assert(atrace_setup__active(s));
	return s;
}

Test(atrace_setup, the_view_tag_is_ored_into_the_flags_and_restored)
{
	struct atrace_setup *s;

	put(FLAGS, "0x1002");
	s = started(NULL, 0);
	cr_assert_str_eq(get(FLAGS), "0x100a");
	cr_assert_str_eq(writes(), "setprop " FLAGS " 0x100a\n" POKE);
	cr_assert_str_eq(atrace_setup__status(s), "atrace: enableflags 0x1002 -> 0x100a");
	cr_assert_str_eq(get("debug.atrace.app_number"), "<unset>");

	cr_assert_eq(atrace_setup__restore(s), 0);
	cr_assert_eq(atrace_setup__state(s), ATRACE_SETUP_RESTORED);
	cr_assert_not(atrace_setup__active(s));
	cr_assert_str_eq(get(FLAGS), "0x1002");
	cr_assert_str_eq(writes(), "setprop " FLAGS " 0x1002\n" POKE);
	cr_assert_str_eq(atrace_setup__status(s), "atrace: previous tracing properties restored");

	cr_assert_eq(atrace_setup__restore(s), 0, "a second restore is a no-op");
	cr_assert_str_eq(writes(), "");
	atrace_setup__free(s);
	cr_assert_str_eq(writes(), "");
}

Test(atrace_setup, unset_flags_become_0x1008_and_are_restored_to_empty)
{
	struct atrace_setup *s = started(NULL, 0);

	cr_assert_str_eq(get(FLAGS), "0x1008");
	cr_assert_str_eq(atrace_setup__status(s), "atrace: enableflags (unset) -> 0x1008");
	cr_assert_eq(atrace_setup__restore(s), 0);
	cr_assert_str_eq(get(FLAGS), "");
	cr_assert_str_eq(writes(), "setprop " FLAGS " 0x1008\n" POKE "setprop " FLAGS " \n" POKE);
	atrace_setup__free(s);
}

Test(atrace_setup, decimal_flags_are_parsed_like_libcutils_does)
{
	struct atrace_setup *s;

	put(FLAGS, "4096");
	s = started(NULL, 0);
	cr_assert_str_eq(get(FLAGS), "0x1008");
	atrace_setup__free(s);
	cr_assert_str_eq(get(FLAGS), "4096", "free restores what is still active");
	cr_assert_str_eq(writes(),
			 "setprop " FLAGS " 0x1008\n" POKE "setprop " FLAGS " 4096\n" POKE);
}

Test(atrace_setup, flags_that_already_have_the_view_tag_are_not_touched)
{
	struct atrace_setup *s;

	put(FLAGS, "0x100a");
	s = started(NULL, 0);
	cr_assert_str_eq(atrace_setup__status(s),
			 "atrace: enableflags 0x100a already has the view and app tags");
	cr_assert_eq(atrace_setup__restore(s), 0);
	cr_assert_str_eq(get(FLAGS), "0x100a");
	cr_assert_str_eq(writes(), "", "no setprop, no poke");
	atrace_setup__free(s);
}

/* 15+: with the view bit in prefer_sdk a Perfetto session taking "view" would get the View
 * markers instead of trace_marker: the bit goes off while tracing, before the flags go on. */
Test(atrace_setup, the_view_bit_of_prefer_sdk_is_cleared_and_restored)
{
	struct atrace_setup *s;

	put(FLAGS, "0x1002");
	put(PREFER, "0x1008");
	s = started(NULL, 0);
	cr_assert_str_eq(get(PREFER), "0x1000");
	cr_assert_str_eq(writes(), "setprop " PREFER " 0x1000\n"
				   "setprop " FLAGS " 0x100a\n" POKE);
	cr_assert_str_eq(atrace_setup__status(s), "atrace: enableflags 0x1002 -> 0x100a; "
						  "prefer_sdk 0x1008 -> 0x1000 (view stays on "
						  "trace_marker)");
	put(PREFER, "8"); /* a session that prefers the SDK again, in decimal */
	cr_assert_eq(atrace_setup__reassert(s), 1);
	cr_assert_str_eq(get(PREFER), "0x0");
	cr_assert_str_eq(writes(), "setprop " PREFER " 0x0\n" POKE);
	cr_assert_eq(atrace_setup__restore(s), 0);
	cr_assert_str_eq(get(PREFER), "0x1008");
	cr_assert_str_eq(get(FLAGS), "0x1002");
	cr_assert_str_eq(writes(), "setprop " FLAGS " 0x1002\n"
				   "setprop " PREFER " 0x1008\n" POKE);
	atrace_setup__free(s);
}

Test(atrace_setup, prefer_sdk_without_the_view_bit_or_unset_is_not_touched)
{
	struct atrace_setup *s;

	put(FLAGS, "0x100a");
	put(PREFER, "0x1000");
	s = started(NULL, 0);
	cr_assert_str_eq(atrace_setup__status(s),
			 "atrace: enableflags 0x100a already has the view and app tags");
	cr_assert_eq(atrace_setup__restore(s), 0);
	cr_assert_str_eq(get(PREFER), "0x1000");
	cr_assert_str_eq(writes(), "", "no setprop, no poke");
	atrace_setup__free(s);
}

Test(atrace_setup, proc_names_are_appended_to_the_app_list_and_restored)
{
	const char *apps[] = { "com.foo:*", "com.bar", "com.other", "com.bar" };
	struct atrace_setup *s;

	put(FLAGS, "0x1002");
	put("debug.atrace.app_number", "1");
	put("debug.atrace.app_0", "com.other");
	put("debug.atrace.app_1", "old.stale");
	s = started(apps, 4);
	cr_assert_str_eq(get("debug.atrace.app_number"), "4");
	cr_assert_str_eq(get("debug.atrace.app_0"), "com.other");
	cr_assert_str_eq(get("debug.atrace.app_1"), "com.foo");
	cr_assert_str_eq(get("debug.atrace.app_2"), "com.foo:*");
	cr_assert_str_eq(get("debug.atrace.app_3"), "com.bar");
	cr_assert_str_eq(writes(), "setprop debug.atrace.app_1 com.foo\n"
				   "setprop debug.atrace.app_2 com.foo:*\n"
				   "setprop debug.atrace.app_3 com.bar\n"
				   "setprop debug.atrace.app_number 4\n"
				   "setprop " FLAGS " 0x100a\n" POKE);
	cr_assert_str_eq(atrace_setup__status(s), "atrace: enableflags 0x1002 -> 0x100a; "
						  "3 apps added to debug.atrace.app_*");

	cr_assert_eq(atrace_setup__restore(s), 0);
	cr_assert_str_eq(writes(), "setprop " FLAGS " 0x1002\n"
				   "setprop debug.atrace.app_number 1\n"
				   "setprop debug.atrace.app_3 \n"
				   "setprop debug.atrace.app_2 \n"
				   "setprop debug.atrace.app_1 old.stale\n" POKE);
	cr_assert_str_eq(get("debug.atrace.app_number"), "1");
	cr_assert_str_eq(get("debug.atrace.app_1"), "old.stale");
	cr_assert_str_eq(get("debug.atrace.app_2"), "");
	atrace_setup__free(s);
}

Test(atrace_setup, unset_app_number_is_restored_to_empty)
{
	const char *apps[] = { "com.foo" };
	struct atrace_setup *s;

	put(FLAGS, "0x1008");
	s = started(apps, 1);
	cr_assert_str_eq(writes(), "setprop debug.atrace.app_0 com.foo\n"
				   "setprop debug.atrace.app_number 1\n" POKE);
	cr_assert_str_eq(atrace_setup__status(s),
			 "atrace: enableflags 0x1008 already has the view and app tags; "
			 "1 app added to debug.atrace.app_*");
	cr_assert_eq(atrace_setup__restore(s), 0);
	cr_assert_str_eq(writes(), "setprop debug.atrace.app_number \n"
				   "setprop debug.atrace.app_0 \n" POKE);
	atrace_setup__free(s);
}

Test(atrace_setup, apps_an_existing_pattern_already_matches_are_not_added)
{
	const char *apps[] = { "com.foo", "com.foo:*" };
	struct atrace_setup *s;

	put(FLAGS, "0x1008");
	put("debug.atrace.app_number", "1");
	put("debug.atrace.app_0", "*");
	s = started(apps, 2);
	cr_assert_str_eq(writes(), "");
	cr_assert_str_eq(get("debug.atrace.app_number"), "1");
	atrace_setup__free(s);
}

Test(atrace_setup, names_too_long_for_a_property_are_left_out)
{
	char longname[100];
	const char *apps[] = { longname, "com.ok" };
	struct atrace_setup *s;

	memset(longname, 'a', 92);
	longname[92] = '\0';
	put(FLAGS, "0x1008");
	s = started(apps, 2);
	cr_assert_str_eq(writes(), "setprop debug.atrace.app_0 com.ok\n"
				   "setprop debug.atrace.app_number 1\n" POKE);
	atrace_setup__free(s);
}

Test(atrace_setup, reassert_sets_our_values_again_after_an_external_rewrite)
{
	const char *apps[] = { "com.foo" };
	struct atrace_setup *s;

	put(FLAGS, "0x1002");
	s = started(apps, 1);
	writes();
	cr_assert_eq(atrace_setup__reassert(s), 0, "nothing changed yet");
	cr_assert_str_eq(writes(), "");

	/* Another session ends and puts back what it found before it started. */
	put(FLAGS, "0x1002");
	put("debug.atrace.app_number", "0");
	cr_assert_eq(atrace_setup__reassert(s), 2);
	cr_assert_str_eq(writes(), "setprop debug.atrace.app_number 1\n"
				   "setprop " FLAGS " 0x100a\n" POKE);
	cr_assert_str_eq(get(FLAGS), "0x100a");

	/* A session that has the view and app tags on too is left alone; one without gets them
	 * ORed in, the app tag as well when only the view tag is missing, and back. */
	put(FLAGS, "0x500a");
	cr_assert_eq(atrace_setup__reassert(s), 0);
	put(FLAGS, "0x4000");
	cr_assert_eq(atrace_setup__reassert(s), 1);
	cr_assert_str_eq(get(FLAGS), "0x5008");
	cr_assert_str_eq(writes(), "setprop " FLAGS " 0x5008\n" POKE);
	put(FLAGS, "0x400a"); /* view on, app off: the CUJ markers would not flow */
	cr_assert_eq(atrace_setup__reassert(s), 1);
	cr_assert_str_eq(get(FLAGS), "0x500a");
	cr_assert_str_eq(writes(), "setprop " FLAGS " 0x500a\n" POKE);

	cr_assert_eq(atrace_setup__restore(s), 0);
	cr_assert_str_eq(get(FLAGS), "0x1002");
	cr_assert_str_eq(get("debug.atrace.app_number"), "");
	cr_assert_str_eq(get("debug.atrace.app_0"), "");
	cr_assert_eq(atrace_setup__reassert(s), 0, "nothing after restore");
	cr_assert_str_eq(writes(), "setprop " FLAGS " 0x1002\n"
				   "setprop debug.atrace.app_number \n"
				   "setprop debug.atrace.app_0 \n" POKE);
	atrace_setup__free(s);
}

Test(atrace_setup, reassert_restores_flags_it_did_not_change_at_start)
{
	struct atrace_setup *s;

	put(FLAGS, "0x1008");
	s = started(NULL, 0);
	put(FLAGS, "");
	cr_assert_eq(atrace_setup__reassert(s), 1);
	cr_assert_str_eq(get(FLAGS), "0x1008");
	cr_assert_eq(atrace_setup__restore(s), 0);
	cr_assert_str_eq(get(FLAGS), "0x1008", "the value from before we started");
	cr_assert_str_eq(writes(),
			 "setprop " FLAGS " 0x1008\n" POKE "setprop " FLAGS " 0x1008\n" POKE);
	atrace_setup__free(s);
}

Test(atrace_setup, a_failing_setprop_undoes_what_start_wrote)
{
	const char *apps[] = { "com.foo" };
	struct atrace_setup *s;

	put(FLAGS, "0x2");
	put(".fail." FLAGS, "");
	s = atrace_setup__new_apps(apps, 1);
	cr_assert_eq(atrace_setup__state(s), ATRACE_SETUP_FAILED);
	cr_assert_not(atrace_setup__active(s));
	cr_assert_str_eq(atrace_setup__status(s), "atrace: could not set tracing properties "
						  "(Input/output error); changes undone");
	cr_assert_str_eq(writes(), "setprop debug.atrace.app_0 com.foo\n"
				   "setprop debug.atrace.app_number 1\n"
				   "setprop " FLAGS " 0x100a\n"
				   "setprop " FLAGS " 0x2\n"
				   "setprop debug.atrace.app_number \n"
				   "setprop debug.atrace.app_0 \n" POKE);
	cr_assert_str_eq(get("debug.atrace.app_0"), "");
	cr_assert_eq(atrace_setup__restore(s), 0);
	cr_assert_eq(atrace_setup__reassert(s), 0);
	atrace_setup__free(s);
	cr_assert_str_eq(writes(), "", "nothing more after a failed start");
}

Test(atrace_setup, a_failing_poke_is_reported_but_not_fatal)
{
	struct atrace_setup *s;

	put(".fail.service", "");
	s = started(NULL, 0);
	cr_assert_str_eq(get(FLAGS), "0x1008");
	cr_assert_str_eq(atrace_setup__status(s),
			 "atrace: enableflags (unset) -> 0x1008; sysprops poke failed");
	atrace_setup__free(s);
}

Test(atrace_setup, without_getprop_on_path_it_is_not_android_and_runs_nothing)
{
	char bin[PATH_MAX], lnk[PATH_MAX + 16], target[PATH_MAX + 32], cwd[PATH_MAX];
	const char *apps[] = { "com.foo" };
	struct atrace_setup *s;

	/* setprop and service are there; only getprop is missing */
	cr_assert_not_null(getcwd(cwd, sizeof(cwd)));
	snprintf(bin, sizeof(bin), "%s/bin", fake_dir);
	cr_assert_eq(mkdir(bin, 0755), 0);
	for (int i = 0; i < 2; i++) {
		const char *prog = i ? "service" : "setprop";

		snprintf(lnk, sizeof(lnk), "%s/%s", bin, prog);
		snprintf(target, sizeof(target), "%s/tests/fakes/%s", cwd, prog);
		cr_assert_eq(symlink(target, lnk), 0);
	}
	cr_assert_eq(setenv("PATH", bin, 1), 0);

	s = atrace_setup__new_apps(apps, 1);
	cr_assert_eq(atrace_setup__state(s), ATRACE_SETUP_NOT_ANDROID);
	cr_assert_not(atrace_setup__active(s));
	cr_assert_str_eq(atrace_setup__status(s),
			 "not Android (no getprop on PATH): tracing properties left alone");
	cr_assert_eq(atrace_setup__reassert(s), 0);
	cr_assert_eq(atrace_setup__restore(s), 0);
	atrace_setup__free(s);
	cr_assert_eq(access(log_path, F_OK), -1, "no fake program ran");
	cr_assert_str_eq(get(FLAGS), "<unset>");
}

Test(atrace_setup, the_proc_names_of_a_filter_become_apps)
{
	struct procfilter *f = procfilter__new();
	struct atrace_setup *s;

	cr_assert_eq(procfilter__add_names(f, "com.foo:*,com.bar"), 0);
	cr_assert_eq(procfilter__add_pids(f, "42"), 0);
	put(FLAGS, "0x1008");
	s = atrace_setup__new(f);
	cr_assert(atrace_setup__active(s));
	cr_assert_str_eq(writes(), "setprop debug.atrace.app_0 com.foo\n"
				   "setprop debug.atrace.app_1 com.foo:*\n"
				   "setprop debug.atrace.app_2 com.bar\n"
				   "setprop debug.atrace.app_number 3\n" POKE);
	atrace_setup__free(s);
	procfilter__free(f);
	cr_assert_str_eq(get("debug.atrace.app_number"), "");
}

Test(atrace_setup, no_filter_only_sets_the_flags)
{
	struct atrace_setup *s = atrace_setup__new(NULL);

	cr_assert(atrace_setup__active(s));
	cr_assert_str_eq(writes(), "setprop " FLAGS " 0x1008\n" POKE);
	atrace_setup__free(s);
	atrace_setup__free(NULL);
	cr_assert_eq(atrace_setup__restore(NULL), 0);
}

/* ---- the state file: what a killed run left is restored by the next one ---------------- */

/* dir/animtrace-atrace.<pid>.state, whole ("" when there is none). */
static const char *state_of(int pid)
{
	static char text[4096];
	char path[256];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/animtrace-atrace.%d.state", state_dir, pid);
	text[0] = '\0';
	f = fopen(path, "r");
	if (!f)
		return text;
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

/* The "prop ..." lines of a state file. */
static const char *props_of(const char *state)
{
	const char *p = strstr(state, "\nprop ");

	return p ? p + 1 : "";
}

Test(atrace_setup, the_previous_values_are_on_disk_while_active_and_gone_after_restore)
{
	const char *apps[] = { "com.foo" };
	struct atrace_setup *s;

	put(FLAGS, "0x1002");
	s = started(apps, 1);
	cr_assert_null(atrace_setup__recovered(s));
	cr_assert_not(atrace_setup__unsaved(s));
	/* Restore order: the flags first, the app list last. */
	cr_assert_str_eq(props_of(state_of(getpid())), "prop " FLAGS " 0x1002\n"
						       "prop debug.atrace.app_number \n"
						       "prop debug.atrace.app_0 \n");
	cr_assert(!strncmp(state_of(getpid()), "animtrace-atrace-state 1\npid ", 29));
	cr_assert_eq(atrace_setup__restore(s), 0);
	cr_assert_str_eq(state_of(getpid()), "", "removed once restored");
	atrace_setup__free(s);
}

Test(atrace_setup, a_property_first_written_by_reassert_is_saved_before_it_is_written)
{
	struct atrace_setup *s;

	put(FLAGS, "0x1008");
	s = started(NULL, 0);
	cr_assert_str_eq(state_of(getpid()), "", "nothing written, nothing saved");
	put(FLAGS, "0x1");
	cr_assert_eq(atrace_setup__reassert(s), 1);
	cr_assert_str_eq(props_of(state_of(getpid())), "prop " FLAGS " 0x1008\n");
	atrace_setup__free(s);
	cr_assert_str_eq(get(FLAGS), "0x1008");
	cr_assert_str_eq(state_of(getpid()), "");
}

/* A child that sets the properties like a run of animtrace would, then is SIGKILLed. */
static int killed_run(const char *const *apps, size_t n)
{
	int go[2];
	pid_t pid;
	char c;

	cr_assert_eq(pipe(go), 0);
	fflush(NULL);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		struct atrace_setup *s = atrace_setup__new_apps(apps, n);

		c = atrace_setup__active(s) ? 'y' : 'n';
		if (write(go[1], &c, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	cr_assert_eq(read(go[0], &c, 1), 1);
	cr_assert_eq(c, 'y');
	close(go[0]);
	close(go[1]);
	return pid;
}

Test(atrace_setup, what_a_killed_run_left_is_restored_first_and_said_in_one_line)
{
	const char *apps[] = { "com.foo" };
	struct atrace_setup *s;
	int child;

	put(FLAGS, "0x1002");
	child = killed_run(apps, 1);
	cr_assert_str_eq(get(FLAGS), "0x100a");
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	cr_assert_str_eq(get(FLAGS), "0x100a", "a kill restores nothing");
	cr_assert_str_neq(state_of(child), "");
	writes();

	s = started(apps, 1);
	cr_assert_str_eq(writes(),
			 "setprop " FLAGS " 0x1002\n"
			 "setprop debug.atrace.app_number \n"
			 "setprop debug.atrace.app_0 \n" POKE "setprop debug.atrace.app_0 com.foo\n"
			 "setprop debug.atrace.app_number 1\n"
			 "setprop " FLAGS " 0x100a\n" POKE);
	cr_assert_str_eq(state_of(child), "", "the stale file is gone");
	cr_assert_not_null(atrace_setup__recovered(s));
	cr_assert_null(strchr(atrace_setup__recovered(s), '\n'));
	cr_assert(strstr(atrace_setup__recovered(s), "atrace: run ") &&
			  strstr(atrace_setup__recovered(s),
				 " ended without restoring the tracing "
				 "properties: " FLAGS "=0x1002, debug.atrace.app_number=, "
				 "debug.atrace.app_0=: restored first"),
		  "%s", atrace_setup__recovered(s));
	cr_assert_str_eq(atrace_setup__status(s),
			 "atrace: enableflags 0x1002 -> 0x100a; 1 app "
			 "added to debug.atrace.app_*",
			 "the baseline is the restored one");
	atrace_setup__free(s);
	cr_assert_str_eq(get(FLAGS), "0x1002");
	cr_assert_str_eq(get("debug.atrace.app_number"), "");
}

Test(atrace_setup, the_state_of_a_run_still_going_is_left_alone)
{
	struct atrace_setup *s;
	int child;

	put(FLAGS, "0x1002");
	child = killed_run(NULL, 0);
	writes();
	s = started(NULL, 0);
	cr_assert_null(atrace_setup__recovered(s));
	cr_assert_str_eq(writes(), "", "0x100a has the view tag: nothing to write");
	cr_assert_str_neq(state_of(child), "");
	atrace_setup__free(s);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	cr_assert_str_eq(get(FLAGS), "0x100a", "the other run's values: its own to restore");
}

/* Writes a state file by hand: pid, start time and boot id as given. */
static void plant(int pid, const char *start, const char *boot, const char *props)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/animtrace-atrace.%d.state", state_dir, pid);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fprintf(f, "animtrace-atrace-state 1\npid %d\nstart %s\nboot %s\n%s", pid, start, boot,
		props);
	fclose(f);
}

Test(atrace_setup, a_state_file_from_before_a_reboot_is_removed_not_restored)
{
	struct atrace_setup *s;

	put(FLAGS, "0x1008");
	plant(999999999, "1", "00000000-0000-0000-0000-000000000000", "prop " FLAGS " 0x1002\n");
	s = started(NULL, 0);
	cr_assert_str_eq(writes(), "", "a reboot reset the properties: nothing to undo");
	cr_assert_str_eq(state_of(999999999), "");
	cr_assert(strstr(atrace_setup__recovered(s), "left by run 999999999 before the last "
						     "reboot"),
		  "%s", atrace_setup__recovered(s));
	atrace_setup__free(s);
}

Test(atrace_setup, state_files_that_do_not_parse_or_name_other_properties_are_ignored)
{
	char boot[64] = "", path[256];
	struct atrace_setup *s;
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

	cr_assert(f && fgets(boot, sizeof(boot), f));
	fclose(f);
	boot[strcspn(boot, "\n")] = '\0';
	put(FLAGS, "0x1008");
	plant(999999997, "1", boot, "prop persist.sys.usb.config adb\n");
	plant(999999998, "1", boot, "prop " FLAGS " 0x1\nwhat is this\n");
	snprintf(path, sizeof(path), "%s/animtrace-atrace.1.state", state_dir);
	cr_assert_eq(symlink("/etc/passwd", path), 0);
	s = started(NULL, 0);
	cr_assert_str_eq(writes(), "");
	cr_assert_null(atrace_setup__recovered(s));
	cr_assert_str_neq(state_of(999999997), "", "left for a human to look at");
	atrace_setup__free(s);
}

Test(atrace_setup, a_state_that_cannot_be_saved_is_said_and_tracing_goes_on)
{
	struct atrace_setup *s;

	setenv(ATRACE_STATE_DIR_ENV, "/nonexistent/dir", 1);
	put(FLAGS, "0x2");
	s = started(NULL, 0);
	cr_assert(atrace_setup__unsaved(s));
	cr_assert_str_eq(atrace_setup__status(s),
			 "atrace: enableflags 0x2 -> 0x100a; previous "
			 "values not saved in /nonexistent/dir (No such file or directory): a "
			 "killed run leaves them changed");
	atrace_setup__free(s);
	cr_assert_str_eq(get(FLAGS), "0x2");
}

/* The view tag alone is not enough: FrameTracker's CUJ tracks (J<CUJ>) are written under
 * TRACE_TAG_APP (1 << 12), so the app tag is ORed in beside it, and taken off again. */
Test(atrace_setup, flags_with_the_view_tag_only_get_the_app_tag)
{
	struct atrace_setup *s;

	put(FLAGS, "0xa");
	s = started(NULL, 0);
	cr_assert_str_eq(get(FLAGS), "0x100a");
	cr_assert_str_eq(atrace_setup__status(s), "atrace: enableflags 0xa -> 0x100a");
	cr_assert_eq(atrace_setup__restore(s), 0);
	cr_assert_str_eq(get(FLAGS), "0xa");
	cr_assert_str_eq(writes(),
			 "setprop " FLAGS " 0x100a\n" POKE "setprop " FLAGS " 0xa\n" POKE);
	atrace_setup__free(s);
}

/* ---- the state directory and its files, where someone may have planted things ---------- */

/* dir/animtrace-atrace.<what>: a FIFO nobody writes or reads. */
static void plant_fifo(const char *what)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/animtrace-atrace.%s", state_dir, what);
	cr_assert_eq(mkfifo(path, 0600), 0, "%s", path);
}

/* Every entry of the state directory, as "name:type" lines (f file, p FIFO, l link). */
static const char *entries(void)
{
	static char out[1024];
	char cmd[256];
	FILE *p;
	size_t n;

	snprintf(cmd, sizeof(cmd), "cd %s && find . -mindepth 1 -printf '%%f:%%y\\n'", state_dir);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	pclose(p);
	return out;
}

Test(atrace_setup, fifos_planted_as_state_or_temporary_files_do_not_hang_a_run, .timeout = 30)
{
	char pid_tmp[32], other[64];
	struct atrace_setup *s;

	plant_fifo("1.state"); /* an old run's name: read O_NONBLOCK, not a regular file */
	snprintf(pid_tmp, sizeof(pid_tmp), "%d.tmp", getpid()); /* the name once predictable */
	plant_fifo(pid_tmp);
	put(FLAGS, "0x2");
	s = started(NULL, 0);
	cr_assert_not(atrace_setup__unsaved(s), "%s", atrace_setup__status(s));
	cr_assert_null(atrace_setup__recovered(s));
	snprintf(other, sizeof(other), "animtrace-atrace.%d.state:f\n", getpid());
	cr_assert(strstr(entries(), other), "%s", entries());
	atrace_setup__free(s);
	snprintf(other, sizeof(other), "animtrace-atrace.%d.tmp:p\n", getpid());
	cr_assert(strstr(entries(), other) && strstr(entries(), "animtrace-atrace.1.state:p\n") &&
			  strlen(entries()) ==
				  strlen(other) + strlen("animtrace-atrace.1.state:p\n"),
		  "the state is gone, the FIFOs left, no temporary:\n%s", entries());
	cr_assert_str_eq(get(FLAGS), "0x2");
}

Test(atrace_setup, a_state_directory_that_is_a_link_or_writable_by_others_is_refused)
{
	char link[128], target[128];
	struct atrace_setup *s;

	snprintf(target, sizeof(target), "%s/elsewhere", fake_dir);
	snprintf(link, sizeof(link), "%s/link", fake_dir);
	cr_assert_eq(mkdir(target, 0700), 0);
	cr_assert_eq(symlink(target, link), 0);
	setenv(ATRACE_STATE_DIR_ENV, link, 1);
	put(FLAGS, "0x2");
	s = started(NULL, 0);
	cr_assert(atrace_setup__unsaved(s));
	cr_assert(strstr(atrace_setup__status(s), "previous values not saved in") &&
			  strstr(atrace_setup__status(s), "/link (a symbolic link: refused)"),
		  "%s", atrace_setup__status(s));
	cr_assert(strstr(atrace_setup__recovered(s), "/link: a symbolic link: refused (what a "
						     "killed run left cannot be restored)"),
		  "%s", atrace_setup__recovered(s));
	atrace_setup__free(s);
	cr_assert_eq(rmdir(target), 0, "nothing was written through the link");

	cr_assert_eq(chmod(state_dir, 0777), 0); /* the /data/local/tmp mistake */
	setenv(ATRACE_STATE_DIR_ENV, state_dir, 1);
	s = started(NULL, 0);
	cr_assert(strstr(atrace_setup__status(s), "(another user's, or writable by others: "
						  "refused)"),
		  "%s", atrace_setup__status(s));
	atrace_setup__free(s);
	cr_assert_str_eq(entries(), "");
}

Test(atrace_setup, a_missing_state_directory_is_made_for_root_alone)
{
	char dir[128];
	struct atrace_setup *s;
	struct stat st;

	snprintf(dir, sizeof(dir), "%s/new", state_dir);
	setenv(ATRACE_STATE_DIR_ENV, dir, 1);
	put(FLAGS, "0x2");
	s = started(NULL, 0);
	cr_assert_not(atrace_setup__unsaved(s), "%s", atrace_setup__status(s));
	cr_assert_eq(lstat(dir, &st), 0);
	cr_assert(S_ISDIR(st.st_mode));
	cr_assert_eq(st.st_mode & 07777, 0700);
	cr_assert_eq(st.st_uid, geteuid());
	atrace_setup__free(s);
}
