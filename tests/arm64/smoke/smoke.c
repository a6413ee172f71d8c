// SPDX-License-Identifier: GPL-2.0
/*
 * smoke: proves, inside the qemu arm64 guest, what animtrace relies on, before animtrace
 * itself exists: a trace_marker write reaches the ftrace buffer, and a static libbpf
 * program loads with CO-RE against the guest's BTF and gets events from a uprobe, a
 * uretprobe, a kprobe and raw_syscalls:sys_enter.
 *
 * Usage: smoke marker | smoke bpf. Prints one "smoke: ..." line per check; exits 0 only
 * when every check passed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "smoke.skel.h"

#define TRACEFS "/sys/kernel/tracing"
#define ARG 0x1234u

static int failures;

static void check(int ok, const char *what, unsigned long long got)
{
	printf("smoke: %s %s (%llu)\n", ok ? "ok  " : "FAIL", what, got);
	failures += !ok;
}

/* The function the uprobe and uretprobe attach to; noinline keeps it a real call. */
__attribute__((noinline)) unsigned long smoke_target(unsigned long arg)
{
	__asm__ volatile("" ::: "memory");
	return arg + 1;
}

static int write_marker(const char *text)
{
	int fd = open(TRACEFS "/trace_marker", O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -EIO;
}

/* Returns 1 when the ftrace buffer holds text. */
static int trace_contains(const char *text)
{
	static char buf[1 << 16];
	int fd = open(TRACEFS "/trace", O_RDONLY);
	ssize_t n, len = 0;

	if (fd < 0)
		return 0;
	while (len < (ssize_t)sizeof(buf) - 1 &&
	       (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return strstr(buf, text) != NULL;
}

static void check_marker(void)
{
	char text[64];

	snprintf(text, sizeof(text), "animtrace-smoke pid=%d", getpid());
	check(write_marker(text) == 0, "trace_marker write", strlen(text));
	check(trace_contains(text), "marker in " TRACEFS "/trace", 1);
}

static struct bpf_link *attach_self(struct bpf_program *prog, int retprobe)
{
	LIBBPF_OPTS(bpf_uprobe_opts, opts, .func_name = "smoke_target", .retprobe = retprobe);

	return bpf_program__attach_uprobe_opts(prog, 0, "/proc/self/exe", 0, &opts);
}

static void check_bpf(struct smoke *skel)
{
	struct bpf_link *enter = attach_self(skel->progs.on_enter, 0);
	struct bpf_link *ret = attach_self(skel->progs.on_return, 1);
	volatile unsigned long got;
	int fd;

	check(enter && ret, "uprobe and uretprobe attached", 2);
	got = smoke_target(ARG);
	check(write_marker("animtrace-smoke bpf") == 0, "marker write under BPF", 1);
	fd = open("/proc/self/status", O_RDONLY);
	if (fd >= 0)
		close(fd);
	check(skel->bss->uprobe_arg == ARG, "uprobe saw x0", skel->bss->uprobe_arg);
	check(skel->bss->uretprobe_ret == got, "uretprobe saw the return",
	      skel->bss->uretprobe_ret);
	check(skel->bss->kprobe_hits >= 1, "kprobe do_sys_openat2 fired", skel->bss->kprobe_hits);
	check(skel->bss->write_calls >= 1, "sys_enter saw write", skel->bss->write_calls);
	bpf_link__destroy(enter);
	bpf_link__destroy(ret);
}

static int run_bpf(void)
{
	struct smoke *skel = smoke__open();

	if (!skel) {
		printf("smoke: FAIL open: %s\n", strerror(errno));
		return 1;
	}
	skel->rodata->target_tgid = getpid();
	if (smoke__load(skel) || smoke__attach(skel)) {
		printf("smoke: FAIL load/attach: %s\n", strerror(errno));
		smoke__destroy(skel);
		return 1;
	}
	check(1, "skeleton loaded with CO-RE and attached", 1);
	check_bpf(skel);
	smoke__destroy(skel);
	return failures != 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "marker")) {
		check_marker();
		return failures != 0;
	}
	if (argc == 2 && !strcmp(argv[1], "bpf"))
		return run_bpf();
	fprintf(stderr, "usage: %s marker|bpf\n", argv[0]);
	return 2;
}
