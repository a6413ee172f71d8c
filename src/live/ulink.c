// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <linux/bpf.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "live/ulink.h"

/* The uapi of uprobe_multi links (Linux 6.6), newer than libbpf 1.1 and these headers. */
#define UM_ATTACH_TYPE 48 /* BPF_TRACE_UPROBE_MULTI */
#define UM_RETURN 1u	  /* BPF_F_UPROBE_MULTI_RETURN */

/* union bpf_attr as BPF_LINK_CREATE reads it for BPF_TRACE_UPROBE_MULTI. */
struct um_attr {
	__u32 prog_fd;
	__u32 target_fd;
	__u32 attach_type;
	__u32 flags;
	__aligned_u64 path;
	__aligned_u64 offsets;
	__aligned_u64 ref_ctr_offsets;
	__aligned_u64 cookies;
	__u32 cnt;
	__u32 um_flags;
	__u32 pid;
};

struct ulink {
	int fd; /* the uprobe_multi link, or -1 */
	int n;
	struct bpf_link **perf; /* else one perf-event link per offset */
};

static int um_create(int prog_fd, const char *path, const uint64_t *offsets, int n, bool retprobe,
		     int pid)
{
	struct um_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.prog_fd = (__u32)prog_fd;
	a.attach_type = UM_ATTACH_TYPE;
	a.path = (__u64)(uintptr_t)path;
	a.offsets = (__u64)(uintptr_t)offsets;
	a.cnt = (__u32)n;
	a.um_flags = retprobe ? UM_RETURN : 0;
	a.pid = (__u32)pid;
	fd = (int)syscall(__NR_bpf, BPF_LINK_CREATE, &a, sizeof(a));
	return fd < 0 ? -errno : fd;
}

/*
 * A program of the uprobe_multi kind on "/": a kernel that has such links fails the path
 * check (-EBADF, not a regular file); one without fails on the attach type (-EINVAL). Then
 * pid -1: the first kernels with these links filtered by thread, not by process, and looked
 * at the pid only after the path; since "bpf: fix multi-uprobe PID filtering logic" (6.10)
 * a negative pid is refused first (-EINVAL). A thread filter would miss RenderThread's calls.
 */
static bool probe_multi(void)
{
	const struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = UM_ATTACH_TYPE);
	uint64_t off = 0;
	int prog, first, second;

	prog = bpf_prog_load(BPF_PROG_TYPE_KPROBE, NULL, "GPL", ret0, 2, &o);
	if (prog < 0)
		return false;
	first = um_create(prog, "/", &off, 1, false, 0);
	second = first == -EBADF ? um_create(prog, "/", &off, 1, false, -1) : 0;
	if (first >= 0)
		close(first);
	if (second >= 0)
		close(second);
	close(prog);
	return first == -EBADF && second == -EINVAL;
}

static pthread_once_t probed = PTHREAD_ONCE_INIT;
static bool multi;

static void probe_once(void)
{
	multi = probe_multi();
}

bool ulink_multi_supported(void)
{
	pthread_once(&probed, probe_once);
	return multi;
}

int ulink_prepare_multi(struct bpf_program *prog)
{
	return bpf_program__set_expected_attach_type(prog, UM_ATTACH_TYPE);
}

static int attach_perf(struct ulink *l, const struct bpf_program *prog, bool retprobe, int pid,
		       const char *path, const uint64_t *offsets)
{
	LIBBPF_OPTS(bpf_uprobe_opts, o, .retprobe = retprobe);

	l->perf = calloc((size_t)l->n, sizeof(*l->perf));
	if (!l->perf)
		return -ENOMEM;
	for (int i = 0; i < l->n; i++) {
		l->perf[i] =
			bpf_program__attach_uprobe_opts(prog, pid, path, (size_t)offsets[i], &o);
		if (!l->perf[i])
			return -errno;
	}
	return 0;
}

struct ulink *ulink__attach(const struct bpf_program *prog, bool multi, bool retprobe, int pid,
			    const char *path, const uint64_t *offsets, int n)
{
	struct ulink *l = calloc(1, sizeof(*l));
	int ret;

	if (!l)
		return NULL;
	l->fd = -1;
	l->n = n;
	if (n <= 0)
		ret = -EINVAL;
	else if (multi)
		ret = l->fd = um_create(bpf_program__fd(prog), path, offsets, n, retprobe, pid);
	else
		ret = attach_perf(l, prog, retprobe, pid, path, offsets);
	if (ret >= 0)
		return l;
	ulinks__free(&l, 1);
	errno = -ret;
	return NULL;
}

int ulink__count(const struct ulink *l)
{
	return l ? l->n : 0;
}

/* One detach job: a multi link's fd, or one perf-event link. */
struct job {
	int fd;
	struct bpf_link *link;
};

static void *run_job(void *arg)
{
	struct job *j = arg;

	if (j->fd >= 0)
		close(j->fd); /* the link goes with its last reference: it was not pinned */
	bpf_link__destroy(j->link);
	return NULL;
}

static int jobs_of(struct ulink **links, int n, struct job *jobs)
{
	int k = 0;

	for (int i = 0; i < n; i++) {
		if (!links[i])
			continue;
		if (links[i]->fd >= 0)
			jobs[k++] = (struct job){ links[i]->fd, NULL };
		for (int j = 0; links[i]->perf && j < links[i]->n; j++)
			if (links[i]->perf[j])
				jobs[k++] = (struct job){ -1, links[i]->perf[j] };
	}
	return k;
}

/*
 * One thread per job, so the grace period each detach waits for overlaps the others'; a
 * job whose thread cannot start runs inline.
 */
static void run_jobs(struct job *jobs, int n)
{
	pthread_t *th = calloc((size_t)n, sizeof(*th));
	int started = 0;

	while (th && started < n && !pthread_create(&th[started], NULL, run_job, &jobs[started]))
		started++;
	for (int i = started; i < n; i++)
		run_job(&jobs[i]);
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	free(th);
}

static void detach_inline(struct ulink *l)
{
	if (l->fd >= 0)
		close(l->fd);
	for (int j = 0; l->perf && j < l->n; j++)
		bpf_link__destroy(l->perf[j]);
}

void ulinks__free(struct ulink **links, int n)
{
	int total = 0;
	struct job *jobs;

	for (int i = 0; i < n; i++)
		total += links[i] ? links[i]->n : 0;
	jobs = total ? calloc((size_t)total, sizeof(*jobs)) : NULL;
	if (jobs)
		run_jobs(jobs, jobs_of(links, n, jobs));
	for (int i = 0; i < n; i++) {
		if (!links[i])
			continue;
		if (!jobs) /* no memory for the jobs: one after another */
			detach_inline(links[i]);
		free(links[i]->perf);
		free(links[i]);
		links[i] = NULL;
	}
	free(jobs);
}
