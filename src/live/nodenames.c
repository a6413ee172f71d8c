// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "animtrace/wire.h"
#include "common/caps.h"
#include "common/coll.h"
#include "live/nodenames.h"

/* Entries per bucket: one (pid, node) always lands in the same bucket, whatever its id. */
#define WAYS 4

struct entry {
	uint64_t node, uid, used; /* used: 0 for an empty entry, else the clock at last use */
	uint32_t pid;
	uint8_t status; /* enum nodename_status */
	bool has_uid;
	char name[NODENAME_MAX + 1];
};

struct nodenames {
	nodenames_read_fn read;
	void *ctx;
	char proc_root[256];
	size_t n_buckets;
	uint64_t clock;
	struct node_name_stats st;
	struct entry e[];
};

/* /proc/PID/mem: where process_vm_readv is filtered (seccomp) or not built in. */
static long read_mem_file(const struct nodenames *nn, uint32_t pid, uint64_t addr, void *buf,
			  size_t len)
{
	char path[300];
	long n;
	int fd;

	snprintf(path, sizeof(path), "%s/%u/mem", nn->proc_root, pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = pread(fd, buf, len, (off_t)addr);
	n = n < 0 ? -errno : n;
	close(fd);
	return n;
}

static long read_target(struct nodenames *nn, uint32_t pid, uint64_t addr, void *buf, size_t len)
{
	struct iovec local = { buf, len }, remote = { (void *)(uintptr_t)addr, len };
	long n;

	if (nn->read)
		return nn->read(nn->ctx, pid, addr, buf, len);
	n = process_vm_readv((pid_t)pid, &local, 1, &remote, 1, 0);
	if (n >= 0)
		return n;
	if (errno == ESRCH || errno == EFAULT)
		return -errno;
	return read_mem_file(nn, pid, addr, buf, len);
}

struct nodenames *nodenames__new(nodenames_read_fn read, void *ctx, const char *proc_root,
				 size_t cap)
{
	size_t buckets = (cap ? cap : CAP_NODE_NAMES) / WAYS;
	struct nodenames *nn;

	buckets = buckets ? buckets : 1;
	nn = calloc(1, sizeof(*nn) + buckets * WAYS * sizeof(struct entry));
	if (!nn)
		return NULL;
	nn->read = read;
	nn->ctx = ctx;
	nn->n_buckets = buckets;
	nn->st.live = true;
	snprintf(nn->proc_root, sizeof(nn->proc_root), "%s", proc_root ? proc_root : "/proc");
	return nn;
}

bool nodename_is_class(const char *s, size_t n)
{
	if (n == 0 || n > NODENAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
			  c == '$' || (i > 0 && c >= '0' && c <= '9');

		if (!ok)
			return false;
	}
	return true;
}

/* The 8-byte value at addr (a pointer or an int64), or -errno. */
static int read_u64(struct nodenames *nn, uint32_t pid, uint64_t addr, uint64_t *v)
{
	long n = read_target(nn, pid, addr, v, sizeof(*v));

	if (n < 0)
		return (int)n;
	return n == sizeof(*v) ? 0 : -EFAULT;
}

/* Reads mName of node into e->name; the id read after it proves the string was this node's. */
static enum nodename_status read_name(struct nodenames *nn, struct entry *e,
				      const struct hwui_node_layout *lay)
{
	uint64_t node = AT_UNTAG(e->node), str, uid;
	char buf[NODENAME_MAX + 1];
	long n;
	char *nul;

	if (!lay || lay->name_err || !lay->name_off)
		return NODENAME_NO_OFFSET;
	if (read_u64(nn, e->pid, node + lay->name_off, &str) || !str)
		return NODENAME_UNREADABLE;
	n = read_target(nn, e->pid, AT_UNTAG(str), buf, sizeof(buf));
	if (n <= 0)
		return NODENAME_UNREADABLE;
	nul = memchr(buf, '\0', (size_t)n);
	if (!nul) /* longer than a class name may be, or cut by an unreadable page */
		return n == sizeof(buf) ? NODENAME_NOT_CLASS : NODENAME_UNREADABLE;
	if (!nodename_is_class(buf, (size_t)(nul - buf)))
		return NODENAME_NOT_CLASS;
	if (e->has_uid && !lay->uniqueid_err &&
	    (read_u64(nn, e->pid, node + lay->uniqueid_off, &uid) || uid != e->uid))
		return NODENAME_GONE;
	memcpy(e->name, buf, (size_t)(nul - buf) + 1);
	return NODENAME_OK;
}

static void count(struct node_name_stats *st, enum nodename_status s)
{
	uint64_t *by[] = {
		[NODENAME_OK] = &st->named,
		[NODENAME_NO_OFFSET] = &st->no_offset,
		[NODENAME_UNREADABLE] = &st->unreadable,
		[NODENAME_NOT_CLASS] = &st->not_class,
		[NODENAME_GONE] = &st->gone,
	};

	(*by[s])++;
}

/*
 * The entry of (pid, node): the cached one when its id matches, else a slot to fill: the
 * one of another id (the node it named is gone), an empty one, or the least recently used.
 */
static struct entry *slot(struct nodenames *nn, uint32_t pid, uint64_t node, bool has_uid,
			  uint64_t uid, bool *hit)
{
	uint64_t h = hash_mix64(node ^ ((uint64_t)pid << 48 | pid));
	struct entry *b = &nn->e[(h % nn->n_buckets) * WAYS], *victim = &b[0];

	*hit = false;
	for (int i = 0; i < WAYS; i++) {
		if (b[i].used && b[i].pid == pid && b[i].node == node) {
			*hit = b[i].has_uid == has_uid && (!has_uid || b[i].uid == uid);
			return &b[i];
		}
		if (b[i].used < victim->used)
			victim = &b[i];
	}
	if (victim->used)
		nn->st.evicted++;
	return victim;
}

void nodenames__get(struct nodenames *nn, uint32_t pid, uint64_t node, bool has_uid, uint64_t uid,
		    const struct hwui_node_layout *lay, struct nodename *out)
{
	bool hit;
	struct entry *e = slot(nn, pid, node, has_uid, uid, &hit);

	e->used = ++nn->clock;
	if (!hit) {
		*e = (struct entry){
			.node = node, .uid = uid, .used = e->used, .pid = pid, .has_uid = has_uid
		};
		e->status = (uint8_t)read_name(nn, e, lay);
		count(&nn->st, e->status);
	}
	out->status = e->status;
	out->name = e->status == NODENAME_OK ? e->name : NULL;
	out->fresh = !hit;
}

void nodenames__forget(struct nodenames *nn, uint32_t pid)
{
	for (size_t i = 0; nn && i < nn->n_buckets * WAYS; i++)
		if (nn->e[i].used && nn->e[i].pid == pid)
			nn->e[i].used = 0;
}

void nodenames__stats(const struct nodenames *nn, struct node_name_stats *out)
{
	*out = nn->st;
}

const char *nodename_strerror(enum nodename_status st)
{
	switch (st) {
	case NODENAME_OK:
		return "named";
	case NODENAME_NO_OFFSET:
		return "no name offset";
	case NODENAME_UNREADABLE:
		return "unreadable";
	case NODENAME_NOT_CLASS:
		return "not a class name";
	case NODENAME_GONE:
		return "reallocated before it was read";
	}
	return "unknown";
}

void nodenames__free(struct nodenames *nn)
{
	free(nn);
}
