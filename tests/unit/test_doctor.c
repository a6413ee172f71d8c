// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * animtrace doctor against fake devices: every host probe (euid, uname, files, BTF, ring
 * buffer, getprop) comes from a table the test fills, so the results are the same as root or
 * not, with or without tracefs. Process checks read a fake /proc in a temp dir.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "doctor.h"
#include "fake_proc.h"
#include "common/procsel.h"

#define FIXTURE BUILD_DIR "/sim/libhwui.so"
#define OAT TESTDATA "/android/android12L-arm64-boot-framework.oat"
#define TRACING "/sys/kernel/tracing"
#define RAW_ID TRACING "/events/raw_syscalls/sys_enter/id"

static char tmp[64];

/* ---- a fake device --------------------------------------------------------------------- */

struct fake_file {
	char path[PATH_MAX];
	char text[1024];
	int err;    /* != 0: every probe of this path (or below it) fails so */
	bool below; /* err applies to everything under path */
};

static struct {
	unsigned int euid;
	char release[64];
	int ringbuf;
	bool android;
	char enableflags[32];
	char prefer_sdk[32]; /* debug.atrace.prefer_sdk (15+) */
	struct fake_file files[24];
	int n;
	int write_err; /* what opening any file for writing returns */
} dev;

/* path holds text (NULL: the path fails with err, and so does everything below it). */
static void fake(const char *path, const char *text, int err)
{
	struct fake_file *f = &dev.files[dev.n++];

	cr_assert_leq(dev.n, 24);
	snprintf(f->path, sizeof(f->path), "%s", path);
	snprintf(f->text, sizeof(f->text), "%s", text ? text : "");
	f->err = err;
	f->below = !text;
}

/* The entry for path: 0 and *f, or -errno (-ENOENT when the device has no such file). */
static int lookup(const char *path, const struct fake_file **out)
{
	for (int i = dev.n - 1; i >= 0; i--) {
		const struct fake_file *f = &dev.files[i];
		size_t n = strlen(f->path);

		if (f->below && !strncmp(path, f->path, n) && (path[n] == '/' || !path[n]))
			return f->err;
		if (!strcmp(path, f->path)) {
			*out = f;
			return f->err;
		}
	}
	return -ENOENT;
}

static unsigned int fake_euid(void)
{
	return dev.euid;
}

static int fake_release(char *buf, size_t cap)
{
	snprintf(buf, cap, "%s", dev.release);
	return 0;
}

static int fake_exists(const char *path)
{
	const struct fake_file *f;

	return lookup(path, &f);
}

static int fake_read_line(const char *path, char *buf, size_t cap)
{
	const struct fake_file *f;
	int err = lookup(path, &f);

	if (err)
		return err;
	snprintf(buf, cap, "%.*s", (int)strcspn(f->text, "\n"), f->text);
	return 0;
}

static int fake_each_line(const char *path, void (*fn)(void *, const char *), void *ctx)
{
	const struct fake_file *f;
	char line[256];
	int err = lookup(path, &f);

	for (const char *p = err ? "" : f->text; *p;) {
		size_t n = strcspn(p, "\n");

		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		fn(ctx, line);
		p += n + (p[n] != '\0');
	}
	return err;
}

/* A file parses as BTF when its text says so. */
static int fake_parse_btf(const char *path)
{
	const struct fake_file *f;
	int err = lookup(path, &f);

	return err ? err : strcmp(f->text, "BTF") ? -EINVAL : 0;
}

static int fake_ringbuf(void)
{
	return dev.ringbuf;
}

static bool fake_has_getprop(void)
{
	return dev.android;
}

static int fake_getprop(const char *name, char *val, size_t cap)
{
	if (!strcmp(name, "debug.atrace.prefer_sdk")) {
		snprintf(val, cap, "%s", dev.prefer_sdk);
		return 0;
	}
	cr_assert_str_eq(name, "debug.atrace.tags.enableflags");
	snprintf(val, cap, "%s", dev.enableflags);
	return 0;
}

static int fake_writable(const char *path)
{
	int err = fake_exists(path);

	return err ? err : dev.write_err;
}

static const struct doctor_probes fake_probes = {
	.euid = fake_euid,
	.release = fake_release,
	.exists = fake_exists,
	.readable = fake_exists,
	.writable = fake_writable,
	.read_line = fake_read_line,
	.each_line = fake_each_line,
	.parse_btf = fake_parse_btf,
	.ringbuf = fake_ringbuf,
	.has_getprop = fake_has_getprop,
	.getprop = fake_getprop,
};

#define ALL_CONFIG                                                                \
	"CONFIG_BPF_SYSCALL=y\nCONFIG_DEBUG_INFO_BTF=y\nCONFIG_UPROBE_EVENTS=y\n" \
	"CONFIG_BPF_EVENTS=y\nCONFIG_FTRACE_SYSCALLS=y\n"

/* A rooted GKI device where everything works, tracefs mounted, SELinux absent. */
static void healthy_device(void)
{
	memset(&dev, 0, sizeof(dev));
	snprintf(dev.release, sizeof(dev.release), "6.1.75-android14");
	dev.ringbuf = 1;
	fake("/sys/kernel/btf/vmlinux", "BTF", 0);
	fake("/proc/config.gz", ALL_CONFIG, 0);
	fake("/sys/bus/event_source/devices/uprobe/type", "7\n", 0);
	fake(TRACING "/trace_marker", "", 0);
	fake(RAW_ID, "21\n", 0);
}

static void make_tmp(void)
{
	strcpy(tmp, "/tmp/at_doctorXXXXXX");
	cr_assert_not_null(mkdtemp(tmp));
	healthy_device();
}

static void remove_tmp(void)
{
	temp_tree_remove(tmp);
}

TestSuite(doctor, .init = make_tmp, .fini = remove_tmp);

/* Runs doctor_run on the fake device into a string the caller frees. */
static char *run(struct doctor_opts *o, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	o->probes = &fake_probes;
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

Test(doctor, a_healthy_rooted_device_prints_every_check_ok_and_passes)
{
	struct doctor_opts o = { 0 };
	int rc;
	char *out = run(&o, &rc);

	cr_assert_str_eq(
		out, "root                   ok       euid 0\n"
		     "SELinux                ok       absent\n"
		     "kernel                 ok       6.1.75-android14\n"
		     "BTF                    ok       /sys/kernel/btf/vmlinux\n"
		     "CONFIG_BPF_SYSCALL     ok       =y\n"
		     "CONFIG_DEBUG_INFO_BTF  ok       =y\n"
		     "CONFIG_UPROBE_EVENTS   ok       =y\n"
		     "CONFIG_BPF_EVENTS      ok       =y\n"
		     "CONFIG_FTRACE_SYSCALLS ok       =y\n"
		     "ring buffer            ok       BPF_MAP_TYPE_RINGBUF\n"
		     "uprobes                ok       perf event type 7\n"
		     "raw_syscalls           ok       raw_syscalls:sys_enter\n"
		     "tracefs                ok       /sys/kernel/tracing/trace_marker\n"
		     "annotations            ok       /sys/kernel/tracing/trace_marker writable "
		     "(--annotate)\n"
		     "debug.atrace           skip     not Android (no getprop on PATH)\n"
		     "target process         skip     no --proc or --pid given\n"
		     "RenderNode setters     skip     no target process\n"
		     "ART methods            skip     no target process\n"
		     "\n"
		     "live tracing should work (0 warnings)\n");
	cr_assert_eq(rc, 0);
	free(out);
}

Test(doctor, without_proc_config_the_boot_config_of_the_release_is_read)
{
	struct doctor_opts o = { 0 };
	int rc;
	char *out;

	dev.files[1].path[0] = '\0'; /* no /proc/config.gz */
	fake("/boot/config-6.1.75-android14", "CONFIG_BPF_SYSCALL=m\n", 0);
	out = run(&o, &rc);
	assert_line(out, "CONFIG_BPF_SYSCALL     ok       =m");
	assert_line(out,
		    "CONFIG_BPF_EVENTS      missing  not set in /boot/config-6.1.75-android14: "
		    "needed for BPF programs on tracepoints and uprobes");
	cr_assert_eq(rc, 0, "config options only warn:\n%s", out);
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
	struct doctor_opts o = { 0 };
	int rc;
	char *out;

	fake("/sys/kernel/btf/vmlinux", "not BTF at all", 0);
	out = run(&o, &rc);
	cr_assert_eq(rc, 1);
	assert_line(out, "BTF                    missing  /sys/kernel/btf/vmlinux does not parse "
			 "(Invalid argument): kernel BTF is broken");
	free(out);
}

Test(doctor, a_config_without_uprobe_events_says_what_is_missing)
{
	struct doctor_opts o = { .config = "/data/config.gz" };
	int rc;
	char *out;

	fake("/data/config.gz",
	     "CONFIG_BPF_SYSCALL=y\n"
	     "CONFIG_DEBUG_INFO_BTF=y\n"
	     "# CONFIG_UPROBE_EVENTS is not set\n"
	     "# CONFIG_UPROBES is not set\n"
	     "CONFIG_BPF_EVENTS=y\n"
	     "CONFIG_FTRACE_SYSCALLS=m\n",
	     0);
	out = run(&o, &rc);
	cr_assert_eq(rc, 0, "config options only warn:\n%s", out);
	assert_line(out, "CONFIG_BPF_SYSCALL     ok       =y");
	assert_line(out, "CONFIG_DEBUG_INFO_BTF  ok       =y");
	assert_line(out, "CONFIG_UPROBE_EVENTS   missing  not set in /data/config.gz: needed for "
			 "property values and ART reasons (uprobes)");
	assert_line(out, "CONFIG_BPF_EVENTS      ok       =y");
	assert_line(out, "CONFIG_FTRACE_SYSCALLS ok       =m");
	cr_assert(strstr(out, "\nlive tracing should work (1 warning)\n"), "%s", out);
	free(out);
}

Test(doctor, config_uprobes_alone_satisfies_the_uprobe_line)
{
	struct doctor_opts o = { .config = "/data/config" };
	int rc;
	char *out;

	fake("/data/config", "CONFIG_UPROBES=y\nCONFIG_BPF_SYSCALL=y\n", 0);
	out = run(&o, &rc);
	assert_line(out, "CONFIG_UPROBE_EVENTS   ok       CONFIG_UPROBES=y");
	assert_line(out, "CONFIG_BPF_SYSCALL     ok       =y");
	assert_line(out, "CONFIG_BPF_EVENTS      missing  not set in /data/config: needed for BPF "
			 "programs on tracepoints and uprobes");
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
	cr_assert_eq(rc, 0, "%s", out);
	free(out);
}

Test(doctor, an_old_kernel_is_missing_the_ring_buffer)
{
	struct doctor_opts o = { .release = "4.19.191-android11" };
	int rc;
	char *out;

	dev.ringbuf = 0;
	out = run(&o, &rc);
	cr_assert_eq(rc, 1);
	assert_line(out, "kernel                 missing  4.19.191-android11: the BPF ring buffer "
			 "needs Linux 5.8+ (Android GKI 5.10 or later)");
	assert_line(out, "ring buffer            missing  no BPF_MAP_TYPE_RINGBUF in this kernel: "
			 "needs Linux 5.8+");
	cr_assert(strstr(out, "\nlive tracing will not work: fix kernel, ring buffer\n"), "%s",
		  out);
	free(out);
}

Test(doctor, a_denied_bpf_call_names_the_error)
{
	struct doctor_opts o = { 0 };
	int rc;
	char *out;

	dev.ringbuf = -EPERM;
	out = run(&o, &rc);
	cr_assert_eq(rc, 1);
	assert_line(out, "ring buffer            missing  bpf() failed (Operation not permitted): "
			 "SELinux or seccomp may deny it");
	free(out);
}

Test(doctor, selinux_enforcing_warns_and_permissive_is_ok)
{
	struct doctor_opts o = { 0 };
	int rc;
	char *out;

	fake("/sys/fs/selinux/enforce", "1", 0);
	out = run(&o, &rc);
	assert_line(out, "SELinux                warn     enforcing: BPF may be denied: "
			 "setenforce 0 or use Magisk/KernelSU");
	free(out);
	fake("/sys/fs/selinux/enforce", "0\n", 0);
	out = run(&o, &rc);
	assert_line(out, "SELinux                ok       permissive");
	free(out);
}

Test(doctor, an_selinux_file_that_cannot_be_read_warns_with_the_error)
{
	struct doctor_opts o = { 0 };
	int rc;
	char *out;

	/* read_line fails before writing anything: the mode must not be read. */
	fake("/sys/fs/selinux/enforce", NULL, -EACCES);
	out = run(&o, &rc);
	assert_line(out, "SELinux                warn     cannot read /sys/fs/selinux/enforce "
			 "(Permission denied): BPF may be denied");
	free(out);
}

Test(doctor, as_root_an_unmounted_tracefs_is_not_blocking_because_animtrace_mounts_it)
{
	struct doctor_opts o = { 0 };
	int rc;
	char *out;

	dev.files[3].path[0] = dev.files[4].path[0] = '\0'; /* nothing under TRACING */
	out = run(&o, &rc);
	assert_line(out, "raw_syscalls           skip     tracefs is not mounted: checked once it "
			 "is (see tracefs)");
	assert_line(out,
		    "tracefs                ok       not mounted: animtrace mounts it at start");
	cr_assert(strstr(out, "\nlive tracing should work (0 warnings)\n"), "%s", out);
	cr_assert_eq(rc, 0, "%s", out);
	free(out);
}

Test(doctor, not_root_an_unmounted_tracefs_is_missing)
{
	struct doctor_opts o = { 0 };
	int rc;
	char *out;

	dev.euid = 2000;
	dev.files[3].path[0] = dev.files[4].path[0] = '\0';
	out = run(&o, &rc);
	assert_line(out,
		    "root                   missing  euid 2000: run as root (su -c on a rooted "
		    "device, adb root on userdebug)");
	assert_line(out, "ring buffer            skip     needs root to probe");
	assert_line(out,
		    "tracefs                missing  not mounted: as root, animtrace mounts it "
		    "at start (or mount -t tracefs nodev /sys/kernel/tracing)");
	cr_assert(strstr(out, "\nlive tracing will not work: fix root, tracefs\n"), "%s", out);
	cr_assert_eq(rc, 1);
	free(out);
}

Test(doctor, not_root_a_tracefs_it_may_not_look_into_is_mounted_not_absent)
{
	struct doctor_opts o = { 0 };
	int rc;
	char *out;

	dev.euid = 2000;
	fake(TRACING, NULL, -EACCES); /* mode 700 */
	out = run(&o, &rc);
	assert_line(out, "raw_syscalls           skip     cannot look in /sys/kernel/tracing "
			 "(Permission denied): checked as root");
	assert_line(out, "tracefs                ok       /sys/kernel/tracing is mounted (not "
			 "readable as euid 2000)");
	cr_assert(strstr(out, "\nlive tracing will not work: fix root\n"), "%s", out);
	free(out);
}

Test(doctor, a_kernel_without_syscall_tracepoints_is_missing_raw_syscalls)
{
	struct doctor_opts o = { 0 };
	int rc;
	char *out;

	dev.files[4].path[0] = '\0';
	out = run(&o, &rc);
	assert_line(out, "raw_syscalls           missing  no " RAW_ID ": the kernel needs "
			 "CONFIG_FTRACE_SYSCALLS");
	cr_assert(strstr(out, "\nlive tracing will not work: fix raw_syscalls\n"), "%s", out);
	free(out);
}

Test(doctor, missing_uprobes_warn)
{
	struct doctor_opts o = { 0 };
	int rc;
	char *out;

	dev.files[2].path[0] = '\0';
	out = run(&o, &rc);
	assert_line(out, "uprobes                missing  no /sys/bus/event_source/devices/uprobe/"
			 "type: property values and ART reasons need CONFIG_UPROBE_EVENTS");
	cr_assert(strstr(out, "\nlive tracing should work (1 warning)\n"), "%s", out);
	free(out);
}

Test(doctor, the_enableflags_value_and_its_view_tag_are_shown)
{
	struct doctor_opts o = { 0 };
	int rc;
	char *out;

	dev.android = true;
	snprintf(dev.enableflags, sizeof(dev.enableflags), "0x1002");
	out = run(&o, &rc);
	assert_line(out, "debug.atrace           ok       enableflags 0x1002, view tag 0x8 off "
			 "(animtrace turns it on while tracing)");
	free(out);
	snprintf(dev.enableflags, sizeof(dev.enableflags), "0x100a");
	out = run(&o, &rc);
	assert_line(out, "debug.atrace           ok       enableflags 0x100a, view tag 0x8 on");
	free(out);
}

Test(doctor, unset_enableflags_say_unset)
{
	struct doctor_opts o = { 0 };
	int rc;
	char *out;

	dev.android = true;
	out = run(&o, &rc);
	assert_line(out, "debug.atrace           ok       enableflags unset, view tag 0x8 off "
			 "(animtrace turns it on while tracing)");
	free(out);
}

Test(doctor, a_prefer_sdk_with_the_view_bit_is_said_and_one_without_is_not)
{
	struct doctor_opts o = { 0 };
	int rc;
	char *out;

	dev.android = true;
	snprintf(dev.prefer_sdk, sizeof(dev.prefer_sdk), "0x1000");
	out = run(&o, &rc);
	cr_assert_null(strstr(out, "prefer_sdk"), "%s", out);
	free(out);
	snprintf(dev.prefer_sdk, sizeof(dev.prefer_sdk), "0x8");
	out = run(&o, &rc);
	assert_line(out, "debug.atrace           ok       prefer_sdk 0x8 has the view bit: a "
			 "Perfetto session on 'view' would take the View markers (animtrace "
			 "clears it while tracing)");
	free(out);
}

Test(doctor, a_state_file_a_killed_run_left_is_shown_and_only_then)
{
	struct doctor_opts o = { .state_dir = tmp };
	char boot[64] = "", text[512];
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	int rc, n;
	char *out;

	cr_assert(f && fgets(boot, sizeof(boot), f));
	fclose(f);
	boot[strcspn(boot, "\n")] = '\0';
	dev.android = true;
	out = run(&o, &rc);
	cr_assert_null(strstr(out, "atrace state"), "%s", out);
	free(out);
	/* pid 999999999 cannot exist (pid_max is at most 2^22). */
	n = snprintf(text, sizeof(text),
		     "animtrace-atrace-state 1\npid 999999999\nstart 1\n"
		     "boot %s\nprop debug.atrace.tags.enableflags 0x1002\n"
		     "prop debug.atrace.app_0 \n",
		     boot);
	put_file("animtrace-atrace.999999999.state", text, (size_t)n);
	out = run(&o, &rc);
	cr_assert(strstr(out, "\natrace state           warn     /"), "%s", out);
	cr_assert(strstr(out, "/animtrace-atrace.999999999.state: run 999999999 ended (killed?) "
			      "with the tracing properties changed; they were "
			      "debug.atrace.tags.enableflags=0x1002, debug.atrace.app_0=: the next "
			      "animtrace run restores them first\n"),
		  "%s", out);
	cr_assert_eq(rc, 0, "a warning, not a failure");
	free(out);
}

/* ---- the real system's probes, on files of the test's own ------------------------------ */

static void count_line(void *ctx, const char *line)
{
	char *seen = ctx;

	strcat(seen, line);
	strcat(seen, "|");
}

Test(doctor, the_system_probes_read_plain_and_gzipped_files_and_report_errno)
{
	const struct doctor_probes *p = &doctor_system_probes;
	char path[PATH_MAX], line[16], seen[64] = "";
	gzFile gz;

	snprintf(path, sizeof(path), "%s/plain", tmp);
	put_file("plain", "one\ntwo\n", 8);
	cr_assert_eq(p->read_line(path, line, sizeof(line)), 0);
	cr_assert_str_eq(line, "one");
	cr_assert_eq(p->exists(path), 0);
	cr_assert_eq(p->readable(path), 0);
	cr_assert_eq(p->each_line(path, count_line, seen), 0);
	cr_assert_str_eq(seen, "one|two|");
	snprintf(path, sizeof(path), "%s/config.gz", tmp);
	gz = gzopen(path, "wb");
	cr_assert_not_null(gz);
	cr_assert_eq(gzputs(gz, "A=y\nB=m\n"), 8);
	cr_assert_eq(gzclose(gz), Z_OK);
	seen[0] = '\0';
	cr_assert_eq(p->each_line(path, count_line, seen), 0);
	cr_assert_str_eq(seen, "A=y|B=m|");
	cr_assert_lt(p->parse_btf(path), 0);
	snprintf(path, sizeof(path), "%s/absent", tmp);
	cr_assert_eq(p->exists(path), -ENOENT);
	cr_assert_eq(p->read_line(path, line, sizeof(line)), -ENOENT);
	cr_assert_eq(p->each_line(path, count_line, seen), -ENOENT);
	cr_assert_eq(p->euid(), (unsigned int)geteuid());
	cr_assert_eq(p->release(line, 2), 0);
}

/* <tmp>/proc/<pid>/{cmdline,comm,maps}; maps lists the given files. */
static void fake_process(int pid, const char *cmdline, size_t len, const char *lib, const char *oat)
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
	snprintf(want[1], sizeof(want[1]), "RenderNode setters     ok       10/10 properties in %s",
		 lib);
	snprintf(want[2], sizeof(want[2]),
		 "ART methods            warn     ValueAnimator start, cancel, end not compiled "
		 "in %s (boot profile): cancel and end are inferred",
		 oat);
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
	/* A missing BTF file fails doctor on any host. */
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
	struct doctor_opts o = { 0 };
	int rc;
	char *out = run(&o, &rc);

	assert_line(out, "annotations            ok       " TRACING "/trace_marker writable "
			 "(--annotate)");
	free(out);
	fake(TRACING "/tracing_on", "0", 0);
	out = run(&o, &rc);
	assert_line(out, "annotations            ok       " TRACING "/trace_marker writable; "
			 "tracing_on is 0: --annotate is recorded once a Perfetto or atrace "
			 "capture runs");
	free(out);
}

Test(doctor, annotations_are_skipped_without_tracefs_and_missing_when_it_refuses_writes)
{
	struct doctor_opts o = { 0 };
	int rc;
	char *out;

	dev.write_err = -EACCES;
	out = run(&o, &rc);
	assert_line(out, "annotations            missing  " TRACING "/trace_marker: Permission "
			 "denied: --annotate cannot write");
	cr_assert_eq(rc, 0, "annotations are not blocking");
	free(out);
	for (int i = 0; i < dev.n; i++)
		if (!strcmp(dev.files[i].path, TRACING "/trace_marker"))
			dev.files[i].path[0] = '\0';
	out = run(&o, &rc);
	assert_line(out, "annotations            skip     no trace_marker (see tracefs)");
	free(out);
}
