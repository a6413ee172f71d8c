// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * heaplive against this very process (and a forked copy of it) seen through a fake /proc:
 * <dir>/<pid>/environ names the boot class path and ANDROID_ROOT, <dir>/<pid>/maps the Java
 * heap's mapping, <dir>/<pid>/root is a tree where those jars and build.prop are. The heap is
 * the simulator's (sim_heap_open: a memfd named "dalvik-main space" below 4 GiB), read with
 * process_vm_readv as a traced app's would be.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "live/heaplive.h"
#include "sim/sim_heap.h"

#define FIX BUILD_DIR "/fixtures/dex/" SIM_HEAP_SET

static char dir[PATH_MAX], exe[PATH_MAX];

/* mkdir -p of path's parent, then a symlink path -> target. */
static void link_at(const char *path, const char *target)
{
	char p[PATH_MAX * 2];

	snprintf(p, sizeof(p), "%s", path);
	for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	cr_assert_eq(symlink(target, path), 0, "%s: %s", path, strerror(errno));
}

static void write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f, "%s", path);
	fwrite(data, 1, len, f);
	fclose(f);
}

/* The fake root: sim_heap's DexCache locations (<exe dir>/heaproot/...) lead to the fixtures. */
static void fake_root(void)
{
	char root[PATH_MAX * 2], p[PATH_MAX * 3], fw[PATH_MAX], *real;

	snprintf(root, sizeof(root), "%s/root", dir);
	snprintf(p, sizeof(p), "%.1000s%.1000s/heaproot/system/framework/framework.jar", root, exe);
	snprintf(fw, sizeof(fw), "%s/framework.jar", FIX);
	real = realpath(fw, NULL);
	cr_assert_not_null(real, "%s: %s", fw, strerror(errno));
	link_at(p, real);
	free(real);
	snprintf(p, sizeof(p), "%.1000s%.1000s/heaproot/apex/com.android.art/javalib/core-oj.jar",
		 root, exe);
	/* the simulator's core-oj.jar: the core fixture as a jar (sim.mk) */
	snprintf(fw, sizeof(fw), "%.1000s/../sim/heaproot/apex/com.android.art/javalib/core-oj.jar",
		 exe);
	cr_assert_eq(access(fw, R_OK), 0, "%s: run make sim", fw);
	real = realpath(fw, NULL);
	cr_assert_not_null(real, "%s: %s", fw, strerror(errno));
	link_at(p, real);
	free(real);
	snprintf(p, sizeof(p), "%.1000s%.1000s/heaproot/system/build.prop", root, exe);
	link_at(p, "/dev/null");
	unlink(p);
	write_file(p, "ro.product.name=x\nro.build.version.sdk=34\n", 42);
}

/* <dir>/<pid>: environ (env, NUL-separated), maps (this process's own), root. */
static void fake_pid(pid_t pid, const char *env, size_t env_len)
{
	char p[PATH_MAX + 32], self[64];

	snprintf(p, sizeof(p), "%s/%d", dir, (int)pid);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/%d/environ", dir, (int)pid);
	write_file(p, env, env_len);
	snprintf(p, sizeof(p), "%s/%d/maps", dir, (int)pid);
	snprintf(self, sizeof(self), "/proc/%d/maps", (int)pid);
	cr_assert_eq(symlink(self, p), 0);
	snprintf(p, sizeof(p), "%s/%d/root", dir, (int)pid);
	link_at(p, "../root");
}

static void setup(void)
{
	char *slash;

	snprintf(dir, sizeof(dir), "/tmp/heaplive.XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	cr_assert_gt(readlink("/proc/self/exe", exe, sizeof(exe) - 1), 0);
	slash = strrchr(exe, '/');
	*slash = '\0';
	fake_root();
}

static void teardown(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	system(cmd);
}

TestSuite(heaplive, .init = setup, .fini = teardown);

/* BOOTCLASSPATH and ANDROID_ROOT as sim_heap_env sets them, in environ's form. */
static size_t boot_env(char *env, size_t cap)
{
	int n = snprintf(env, cap,
			 "PATH=/nonexistent%cBOOTCLASSPATH=%s/heaproot/apex/"
			 "com.android.art/javalib/core-oj.jar:%s/heaproot/system/framework/"
			 "framework.jar%cANDROID_ROOT=%s/heaproot/system%c",
			 0, exe, exe, 0, exe, 0);

	return (size_t)n;
}

Test(heaplive, reads_this_process_and_a_fork_of_it_through_their_files)
{
	static const struct sim_anim_cfg slide = {
		.object_animator = true,
		.duration_ms = 450,
		.start_delay_ms = 50,
		.repeat_count = 1,
		.repeat_mode = 2,
		.interpolator = "Landroid/view/animation/LinearInterpolator;",
		.n_values = 1,
		.values = { { "translationY", SIM_FLOAT, 0, -96 } },
		.property_name = "translationY",
		.target_node = 0x7c00112230ull,
	};
	struct sim_heap *h = sim_heap_open(false);
	char env[4 * PATH_MAX];
	size_t env_len = boot_env(env, sizeof(env));
	struct heaplive *hl = heaplive__new(dir);
	struct anim_config c;
	const char *why;
	uint64_t n_read, n_failed, n_unread;
	uint32_t a;
	pid_t child;
	int p[2];

	cr_assert_not_null(h, "%s", strerror(errno));
	cr_assert_not_null(hl);
	a = sim_heap__animator(h, &slide, 77);
	cr_assert_neq(a, 0);
	cr_assert_eq(pipe(p), 0);
	child = fork();
	if (!child) { /* the same heap, another process: waits until the test is done */
		char b;

		close(p[1]);
		_exit(read(p[0], &b, 1) < 0);
	}
	close(p[0]);
	fake_pid(getpid(), env, env_len);
	fake_pid(child, env, env_len);
	for (int i = 0; i < 2; i++) {
		pid_t pid = i ? child : getpid();

		/* the probe's copy: the first 64 bytes, the rest read from the process */
		cr_assert_eq(heaplive__read(hl, (uint32_t)pid, a, (const void *)(uintptr_t)a, 64,
					    &c, &why),
			     0, "pid %d: %s", (int)pid, why);
		cr_assert_eq(c.duration_ms, 450);
		cr_assert_eq(c.start_delay_ms, 50);
		cr_assert_eq(c.repeat_count, 1);
		cr_assert_eq(c.repeat_mode, REPEAT_REVERSE);
		cr_assert_str_eq(c.interpolator, "Linear");
		cr_assert_str_eq(c.values[0].property, "translationY");
		cr_assert_eq(c.values[0].to, -96.0);
		cr_assert_eq(c.target_node, 0x7c00112230ull);
	}
	heaplive__counts(hl, &n_read, &n_failed, &n_unread);
	cr_assert_eq(n_read, 2);
	cr_assert_eq(n_failed, 0);
	close(p[1]);
	waitpid(child, NULL, 0);
	heaplive__free(hl);
	sim_heap__free(h);
}

Test(heaplive, the_copy_at_start_wins_over_a_later_memory)
{
	static const struct sim_anim_cfg fade = {
		.duration_ms = 300,
		.repeat_mode = 1,
		.n_values = 1,
		.values = { { "alpha", SIM_FLOAT, 1, 0 } },
	};
	struct sim_heap *h = sim_heap_open(false);
	char env[4 * PATH_MAX], head[256];
	struct heaplive *hl = heaplive__new(dir);
	struct anim_config c;
	const char *why;
	uint32_t a;
	int64_t later = 999;
	int changed = 0;

	cr_assert_not_null(h);
	a = sim_heap__animator(h, &fade, 5);
	fake_pid(getpid(), env, boot_env(env, sizeof(env)));
	memcpy(head, (const void *)(uintptr_t)a, sizeof(head));
	/* setDuration(999) after start(): the record holds the duration start() saw */
	for (int off = 8; off + 8 <= 128; off += 8) {
		if (*(int64_t *)(uintptr_t)(a + off) == 300) {
			memcpy((void *)(uintptr_t)(a + off), &later, 8);
			changed++;
		}
	}
	cr_assert_eq(changed, 1, "mDuration, once");
	cr_assert_eq(heaplive__read(hl, (uint32_t)getpid(), a, head, sizeof(head), &c, &why), 0,
		     "%s", why);
	cr_assert_eq(c.duration_ms, 300);
	/* without the copy, the memory as it is now */
	cr_assert_eq(heaplive__read(hl, (uint32_t)getpid(), a, head, 0, &c, &why), 0, "%s", why);
	cr_assert_eq(c.duration_ms, 999);
	heaplive__free(hl);
	sim_heap__free(h);
}

Test(heaplive, a_process_without_a_boot_class_path_says_why_once_then_stays_off)
{
	struct heaplive *hl = heaplive__new(dir);
	char env[4 * PATH_MAX];
	int n = snprintf(env, sizeof(env), "ANDROID_ROOT=%s/heaproot/system%c", exe, 0);
	struct anim_config c;
	const char *why;
	char head[16] = { 0 };

	fake_pid(getpid(), env, (size_t)n);
	cr_assert_eq(heaplive__read(hl, (uint32_t)getpid(), 0x12c00010, head, sizeof(head), &c,
				    &why),
		     -ENOENT);
	cr_assert_str_eq(why, "no dex file on its BOOTCLASSPATH (unset or empty)");
	cr_assert_eq(heaplive__read(hl, (uint32_t)getpid(), 0x12c00010, head, sizeof(head), &c,
				    &why),
		     -EAGAIN, "off, said once");
	heaplive__free(hl);
}

/*
 * A DynamicAnimation copied at its start(): the same reader as the animators', so a value
 * that fails its check turns it off for both, with one reason, and no value comes out.
 */
Test(heaplive, a_spring_reads_through_the_same_reader_and_a_bad_one_turns_it_off)
{
	static const struct sim_dyn_cfg spring = {
		.start_value_set = true,
		.value = 12,
		.velocity = -300,
		.min_visible_change = 0.1f,
		.stiffness = 10000,
		.damping_ratio = 1,
		.final_position = 0,
	};
	struct sim_dyn_cfg bad = spring;
	static const struct sim_anim_cfg fade = { .duration_ms = 300, .repeat_mode = 1 };
	struct sim_heap *h = sim_heap_open(false);
	char env[4 * PATH_MAX], head[256];
	struct heaplive *hl = heaplive__new(dir);
	struct dyn_config c;
	struct anim_config ac;
	const char *why;
	uint32_t a, b, v;

	cr_assert_not_null(h);
	bad.min_visible_change = -1;
	a = sim_heap__dyn(h, &spring);
	b = sim_heap__dyn(h, &bad);
	v = sim_heap__animator(h, &fade, 9);
	cr_assert(a && b && v);
	fake_pid(getpid(), env, boot_env(env, sizeof(env)));
	memcpy(head, (const void *)(uintptr_t)a, sizeof(head));
	cr_assert_eq(heaplive__read_dyn(hl, (uint32_t)getpid(), a, head, sizeof(head), &c, &why), 0,
		     "%s", why);
	cr_assert(c.has_spring && c.has_value);
	cr_assert_eq(c.stiffness, 10000); /* sqrt(10^4) = 100 exactly, squared back exactly */
	cr_assert_eq(c.damping_ratio, 1);
	cr_assert_eq(c.value, 12);
	cr_assert_eq(c.velocity, -300);
	cr_assert_eq(heaplive__read_dyn(hl, (uint32_t)getpid(), b, NULL, 0, &c, &why), -EINVAL);
	cr_assert(strstr(why, "mMinVisibleChange -1 is not positive"), "%s", why);
	cr_assert(!c.has_spring && !c.has_state, "no value from a failed read");
	cr_assert_eq(heaplive__read(hl, (uint32_t)getpid(), v, NULL, 0, &ac, &why), -EAGAIN,
		     "the animators' reader is off too");
	heaplive__free(hl);
	sim_heap__free(h);
}
