// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * animtrace doctor on this machine (root, BTF, tracefs, no SELinux, not Android) and with
 * faked pieces: BTF path, kernel config, SELinux file, tracefs dir, proc root, getprop.
 */
#include <criterion/criterion.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#include "doctor.h"
#include "procfilter.h"
#include "tracefs.h"

#define FIXTURE BUILD_DIR "/sim/libhwui.so"
#define OAT TESTDATA "/android/android12L-arm64-boot-framework.oat"

static char tmp[64];

static void make_tmp(void)
{
	strcpy(tmp, "/tmp/at_doctorXXXXXX");
	cr_assert_not_null(mkdtemp(tmp));
	/* Deterministic: no getprop unless a test puts the fakes first. */
	cr_assert_eq(setenv("PATH", "/usr/bin:/bin", 1), 0);
}

static void remove_tmp(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "/bin/rm -rf '%s'", tmp);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(doctor, .init = make_tmp, .fini = remove_tmp);

/* Runs doctor_run into a string the caller frees. */
static char *run(const struct doctor_opts *o, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	*rc = doctor_run(o, f);
	cr_assert_eq(fclose(f), 0);
	return buf;
}

static void assert_line(const char *out, const char *want)
{
	size_t n = strlen(want);

	for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, want, n) && (p[n] == '\n' || p[n] == '\0'))
			return;
	cr_assert_fail("no line\n%s\nin\n%s", want, out);
}

static void put_file(const char *name, const char *text, size_t len)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	cr_assert_eq(fwrite(text, 1, len, f), len);
	cr_assert_eq(fclose(f), 0);
}

static void put_dir(const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	cr_assert_eq(mkdir(path, 0755), 0, "%s", path);
}

Test(doctor, on_this_machine_the_defaults_pass_and_the_known_checks_are_ok)
{
	struct doctor_opts o = { 0 };
	struct marker_file m[TRACEFS_MAX_MARKERS];
	char kernel[128];
	struct utsname u;
	int rc;
	char *out;

	cr_assert_geq(tracefs_find_markers(m, TRACEFS_MAX_MARKERS, 1), 1, "mount tracefs");
	cr_assert_eq(uname(&u), 0);
	snprintf(kernel, sizeof(kernel), "kernel                 ok       %s", u.release);
	out = run(&o, &rc);
	cr_assert_eq(rc, 0, "%s", out);
	assert_line(out, "root                   ok       euid 0");
	assert_line(out, "SELinux                ok       absent");
	assert_line(out, kernel);
	assert_line(out, "BTF                    ok       /sys/kernel/btf/vmlinux");
	assert_line(out, "ring buffer            ok       BPF_MAP_TYPE_RINGBUF");
	assert_line(out, "raw_syscalls           ok       raw_syscalls:sys_enter");
	assert_line(out, "tracefs                ok       /sys/kernel/tracing/trace_marker");
	assert_line(out, "debug.atrace           skip     not Android (no getprop on PATH)");
	assert_line(out, "target process         skip     no --proc or --pid given");
	assert_line(out, "RenderNode setters     skip     no target process");
	assert_line(out, "ART methods            skip     no target process");
	cr_assert(strstr(out, "\nlive tracing should work ("), "%s", out);
	free(out);
}

Test(doctor, a_btf_path_that_does_not_exist_is_missing_with_advice_and_fails)
{
	struct doctor_opts o = { .btf = "/nonexistent/vmlinux" };
	int rc;
	char *out = run(&o, &rc);

	cr_assert_eq(rc, 1);
	assert_line(out, "BTF                    missing  /nonexistent/vmlinux: No such file or "
			 "directory: the kernel needs CONFIG_DEBUG_INFO_BTF=y (most GKI 5.10+ "
			 "builds)");
	cr_assert(strstr(out, "\n\nlive tracing will not work: fix BTF\n"), "%s", out);
	free(out);
}

Test(doctor, a_file_that_is_not_btf_is_missing)
{
	char path[PATH_MAX];
	struct doctor_opts o = { .btf = path };
	int rc;
	char *out;

	snprintf(path, sizeof(path), "%s/vmlinux", tmp);
	put_file("vmlinux", "not BTF at all", 14);
	out = run(&o, &rc);
	cr_assert_eq(rc, 1);
	cr_assert(strstr(out, "\nBTF                    missing  "), "%s", out);
	cr_assert(strstr(out, "does not parse ("), "%s", out);
	free(out);
}

static void write_config_gz(const char *path, const char *text)
{
	gzFile gz = gzopen(path, "wb");

	cr_assert_not_null(gz);
	cr_assert_eq(gzputs(gz, text), (int)strlen(text));
	cr_assert_eq(gzclose(gz), Z_OK);
}

Test(doctor, a_config_without_uprobe_events_says_what_is_missing)
{
	char path[PATH_MAX], want[PATH_MAX + 160];
	struct doctor_opts o = { .config = path };
	int rc;
	char *out;

	snprintf(path, sizeof(path), "%s/config.gz", tmp);
	write_config_gz(path, "CONFIG_BPF_SYSCALL=y\n"
			      "CONFIG_DEBUG_INFO_BTF=y\n"
			      "# CONFIG_UPROBE_EVENTS is not set\n"
			      "# CONFIG_UPROBES is not set\n"
			      "CONFIG_BPF_EVENTS=y\n"
			      "CONFIG_FTRACE_SYSCALLS=m\n");
	out = run(&o, &rc);
	cr_assert_eq(rc, 0, "config options only warn:\n%s", out);
	assert_line(out, "CONFIG_BPF_SYSCALL     ok       =y");
	assert_line(out, "CONFIG_DEBUG_INFO_BTF  ok       =y");
	snprintf(want, sizeof(want), "CONFIG_UPROBE_EVENTS   missing  not set in %s: needed for "
		 "property values and ART reasons (uprobes)", path);
	assert_line(out, want);
	assert_line(out, "CONFIG_BPF_EVENTS      ok       =y");
	assert_line(out, "CONFIG_FTRACE_SYSCALLS ok       =m");
	free(out);
}

Test(doctor, config_uprobes_alone_satisfies_the_uprobe_line_and_plain_text_is_read)
{
	char path[PATH_MAX];
	struct doctor_opts o = { .config = path };
	int rc;
	char *out;

	snprintf(path, sizeof(path), "%s/config-plain", tmp);
	put_file("config-plain", "CONFIG_UPROBES=y\nCONFIG_BPF_SYSCALL=y\n", 37);
	out = run(&o, &rc);
	assert_line(out, "CONFIG_UPROBE_EVENTS   ok       CONFIG_UPROBES=y");
	assert_line(out, "CONFIG_BPF_SYSCALL     ok       =y");
	cr_assert(strstr(out, "\nCONFIG_BPF_EVENTS      missing  not set in "), "%s", out);
	free(out);
}

Test(doctor, an_unreadable_config_skips_the_options)
{
	struct doctor_opts o = { .config = "/nonexistent/config.gz" };
	int rc;
	char *out = run(&o, &rc);

	assert_line(out, "kernel config          skip     cannot read /nonexistent/config.gz: "
			 "options not checked");
	cr_assert_null(strstr(out, "CONFIG_"), "%s", out);
	free(out);
}

Test(doctor, an_old_kernel_is_missing_the_ring_buffer)
{
	struct doctor_opts o = { .release = "4.19.191-android11", .config = "/nonexistent" };
	int rc;
	char *out = run(&o, &rc);

	cr_assert_eq(rc, 1);
	assert_line(out, "kernel                 missing  4.19.191-android11: the BPF ring buffer "
			 "needs Linux 5.8+ (Android GKI 5.10 or later)");
	cr_assert(strstr(out, "\nlive tracing will not work: fix kernel\n"), "%s", out);
	free(out);
}

Test(doctor, selinux_enforcing_warns_and_permissive_is_ok)
{
	char path[PATH_MAX];
	struct doctor_opts o = { .selinux = path };
	int rc;
	char *out;

	snprintf(path, sizeof(path), "%s/enforce", tmp);
	put_file("enforce", "1", 1);
	out = run(&o, &rc);
	assert_line(out, "SELinux                warn     enforcing: BPF may be denied: "
			 "setenforce 0 or use Magisk/KernelSU");
	free(out);
	put_file("enforce", "0", 1);
	out = run(&o, &rc);
	assert_line(out, "SELinux                ok       permissive");
	free(out);
}

Test(doctor, an_unmounted_tracefs_is_missing_with_the_mount_command)
{
	char want[2][PATH_MAX + 128];
	struct doctor_opts o = { .tracefs = tmp };
	int rc;
	char *out = run(&o, &rc);

	snprintf(want[0], sizeof(want[0]),
		 "raw_syscalls           missing  no %s/events/raw_syscalls/sys_enter/id: "
		 "tracefs is not mounted (see tracefs)", tmp);
	snprintf(want[1], sizeof(want[1]),
		 "tracefs                missing  no %s/trace_marker: mount -t tracefs nodev %s",
		 tmp, tmp);
	cr_assert_eq(rc, 1);
	assert_line(out, want[0]);
	assert_line(out, want[1]);
	cr_assert(strstr(out, "\nlive tracing will not work: fix raw_syscalls, tracefs\n"),
		  "%s", out);
	free(out);
}

static void use_fake_getprop(const char *flags)
{
	char cwd[PATH_MAX], path[PATH_MAX + 32], props[PATH_MAX];

	cr_assert_not_null(getcwd(cwd, sizeof(cwd)));
	snprintf(path, sizeof(path), "%s/tests/fakes:/usr/bin:/bin", cwd);
	cr_assert_eq(setenv("PATH", path, 1), 0);
	put_dir("props");
	snprintf(props, sizeof(props), "%s/props", tmp);
	cr_assert_eq(setenv("AT_FAKE_PROPS", props, 1), 0);
	unsetenv("AT_FAKE_LOG");
	if (flags)
		put_file("props/debug.atrace.tags.enableflags", flags, strlen(flags));
}

Test(doctor, without_getprop_on_path_the_property_line_is_skipped)
{
	struct doctor_opts o = { 0 };
	int rc;
	char *out;

	cr_assert_eq(setenv("PATH", tmp, 1), 0);
	out = run(&o, &rc);
	assert_line(out, "debug.atrace           skip     not Android (no getprop on PATH)");
	free(out);
}

Test(doctor, the_enableflags_value_and_its_view_tag_are_shown)
{
	struct doctor_opts o = { 0 };
	int rc;
	char *out;

	use_fake_getprop("0x1002");
	out = run(&o, &rc);
	assert_line(out, "debug.atrace           ok       enableflags 0x1002, view tag 0x8 off "
			 "(animtrace turns it on while tracing)");
	free(out);
	put_file("props/debug.atrace.tags.enableflags", "0x100a", 6);
	out = run(&o, &rc);
	assert_line(out, "debug.atrace           ok       enableflags 0x100a, view tag 0x8 on");
	free(out);
}

Test(doctor, unset_enableflags_say_unset)
{
	struct doctor_opts o = { 0 };
	int rc;
	char *out;

	use_fake_getprop(NULL);
	out = run(&o, &rc);
	assert_line(out, "debug.atrace           ok       enableflags unset, view tag 0x8 off "
			 "(animtrace turns it on while tracing)");
	free(out);
}

/* <tmp>/proc/<pid>/{cmdline,comm,maps}; maps lists the given files. */
static void fake_process(int pid, const char *cmdline, size_t len, const char *lib,
			 const char *oat)
{
	char name[64], maps[2 * PATH_MAX + 200];
	int n;

	snprintf(name, sizeof(name), "proc/%d", pid);
	put_dir(name);
	snprintf(name, sizeof(name), "proc/%d/cmdline", pid);
	put_file(name, cmdline, len);
	snprintf(name, sizeof(name), "proc/%d/comm", pid);
	put_file(name, "sim\n", 4);
	n = snprintf(maps, sizeof(maps),
		     "5582f000-55830000 r--p 00000000 08:01 11 /usr/bin/app_process64\n"
		     "7f0000000000-7f0000001000 rw-p 00000000 00:00 0 [anon:dalvik-main space]\n");
	if (oat)
		n += snprintf(maps + n, sizeof(maps) - n,
			      "70f00000-70f80000 r--p 00000000 08:01 12 %s\n", oat);
	if (lib)
		n += snprintf(maps + n, sizeof(maps) - n,
			      "7f1000000000-7f1000010000 r-xp 00000000 08:01 13 %s\n", lib);
	snprintf(name, sizeof(name), "proc/%d/maps", pid);
	put_file(name, maps, (size_t)n);
}

static struct procfilter *filter_for(const char *names)
{
	struct procfilter *f = procfilter__new();

	cr_assert_not_null(f);
	cr_assert_eq(procfilter__add_names(f, names), 0);
	return f;
}

Test(doctor, a_fake_sim_process_has_all_ten_setters_and_no_compiled_valueanimator)
{
	char lib[PATH_MAX], oat_real[PATH_MAX], oat[PATH_MAX], root[PATH_MAX];
	char want[3][2 * PATH_MAX];
	struct doctor_opts o = { .proc_root = root, .filter = filter_for("com.example.sim") };
	int rc;
	char *out;

	cr_assert_not_null(realpath(FIXTURE, lib), "build " FIXTURE " first (make sim)");
	cr_assert_not_null(realpath(OAT, oat_real));
	snprintf(oat, sizeof(oat), "%s/boot-framework.oat", tmp);
	cr_assert_eq(symlink(oat_real, oat), 0);
	snprintf(root, sizeof(root), "%s/proc", tmp);
	put_dir("proc");
	fake_process(4242, "com.example.sim\0--x\0", 20, lib, oat);
	fake_process(4243, "com.example.sim:remote", 22, NULL, NULL);
	fake_process(77, "com.other", 10, lib, oat);
	out = run(&o, &rc);
	snprintf(want[0], sizeof(want[0]),
		 "target process         ok       com.example.sim: pid 4242");
	snprintf(want[1], sizeof(want[1]),
		 "RenderNode setters     ok       10/10 properties in %s", lib);
	snprintf(want[2], sizeof(want[2]),
		 "ART methods            warn     ValueAnimator start, cancel, end not compiled "
		 "in %s (boot profile): cancel and end are inferred", oat);
	for (int i = 0; i < 3; i++)
		assert_line(out, want[i]);
	cr_assert_eq(rc, 0, "%s", out);
	free(out);
	procfilter__free((struct procfilter *)o.filter);
}

Test(doctor, several_processes_are_listed_and_the_lowest_pid_is_examined)
{
	char root[PATH_MAX];
	struct doctor_opts o = { .proc_root = root, .filter = filter_for("com.example.sim:*") };
	int rc;
	char *out;

	snprintf(root, sizeof(root), "%s/proc", tmp);
	put_dir("proc");
	fake_process(4250, "com.example.sim:remote", 22, NULL, NULL);
	fake_process(4242, "com.example.sim", 15, NULL, NULL);
	out = run(&o, &rc);
	assert_line(out, "target process         ok       com.example.sim:*: pids 4242, 4250");
	assert_line(out, "RenderNode setters     warn     pid 4242 maps neither libhwui.so nor "
			 "libandroid_runtime.so: no property values");
	assert_line(out, "ART methods            warn     pid 4242 maps no boot-framework.oat: "
			 "cancel and end are inferred");
	free(out);
	procfilter__free((struct procfilter *)o.filter);
}

Test(doctor, a_target_that_is_not_running_fails_and_skips_its_checks)
{
	char root[PATH_MAX];
	struct doctor_opts o = { .proc_root = root, .filter = filter_for("com.absent") };
	int rc;
	char *out;

	snprintf(root, sizeof(root), "%s/proc", tmp);
	put_dir("proc");
	fake_process(4242, "com.example.sim", 15, NULL, NULL);
	out = run(&o, &rc);
	cr_assert_eq(rc, 1);
	assert_line(out, "target process         missing  nothing matches com.absent: start it "
			 "first (check the name with ps -A)");
	assert_line(out, "RenderNode setters     skip     no target process");
	assert_line(out, "ART methods            skip     no target process");
	cr_assert(strstr(out, "\nlive tracing will not work: fix target process\n"), "%s", out);
	free(out);
	procfilter__free((struct procfilter *)o.filter);
}

Test(doctor_cli, doctor_main_parses_its_options_and_returns_the_status)
{
	char a0[] = "doctor", a1[] = "--btf", a2[] = "/nonexistent/vmlinux";
	char *argv[] = { a0, a1, a2, NULL };

	cr_assert_not_null(freopen("/dev/null", "w", stdout));
	cr_assert_eq(doctor_main(3, argv), 1);
}

Test(doctor_cli, doctor_main_refuses_a_bad_pid_with_status_2, .exit_code = 2)
{
	char a0[] = "doctor", a1[] = "--pid", a2[] = "12x";
	char *argv[] = { a0, a1, a2, NULL };

	cr_assert_not_null(freopen("/dev/null", "w", stderr));
	doctor_main(3, argv);
}

Test(doctor, annotations_are_ok_when_trace_marker_opens_for_writing_and_say_when_tracing_is_off)
{
	char want[2][PATH_MAX + 128];
	struct doctor_opts o = { .tracefs = tmp };
	int rc;
	char *out = run(&o, &rc);

	assert_line(out, "annotations            skip     no trace_marker (see tracefs)");
	free(out);
	put_file("trace_marker", "", 0);
	put_file("tracing_on", "0\n", 2);
	out = run(&o, &rc);
	snprintf(want[0], sizeof(want[0]), "annotations            ok       %s/trace_marker "
		 "writable; tracing_on is 0: --annotate is recorded once a Perfetto or atrace "
		 "capture runs", tmp);
	assert_line(out, want[0]);
	free(out);
	put_file("tracing_on", "1\n", 2);
	out = run(&o, &rc);
	snprintf(want[1], sizeof(want[1]),
		 "annotations            ok       %s/trace_marker writable (--annotate)", tmp);
	assert_line(out, want[1]);
	free(out);
}
