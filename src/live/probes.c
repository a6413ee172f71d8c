// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "animtrace.skel.h"
#include "common/diag.h"
#include "live/corebtf.h"
#include "live/probes.h"
#include "live/ulink.h"

#define SELF_TEST_CALLS 4    /* getppid() calls per check: one seen is enough */
#define SELF_TEST_ATTACHES 3 /* attachments of sys_enter tried again before giving up */

struct probes {
	struct animtrace_bpf *skel;
	struct ring_buffer *rb;
	probes_record_fn on_record;
	void *ctx;
	uint64_t bad_records;
	uint64_t settle_faults; /* pending setter calls whose value could not be read at the end */
	bool multi;		/* uprobes as uprobe_multi links (ulink.h) */
};

static const uint16_t min_size[] = {
	[AT_REC_MARKER] = offsetof(struct at_marker_rec, data),
	[AT_REC_PROC] = sizeof(struct at_proc_rec),
	[AT_REC_PROP] = sizeof(struct at_prop_rec),
	[AT_REC_ART] = sizeof(struct at_art_rec),
	[AT_REC_REFRESH] = sizeof(struct at_refresh_rec),
	[AT_REC_ART_OBJ] = sizeof(struct at_art_obj_rec),
};

/* One sample holds one record, or several back to back (a setter batch: wire.h,
 * AT_SETTER_BATCH), each starting where the one before ends (its hdr.size). */
static int on_sample(void *ctx, void *data, size_t size)
{
	struct probes *p = ctx;
	const char *at = data;

	do {
		const struct at_hdr *h = (const struct at_hdr *)at;

		if (size < sizeof(*h) || h->size > size || h->kind == 0 ||
		    h->kind >= sizeof(min_size) / sizeof(min_size[0]) || !min_size[h->kind] ||
		    h->size < min_size[h->kind]) {
			p->bad_records++;
			return 0;
		}
		p->on_record(p->ctx, h, h->size);
		at += h->size;
		size -= h->size;
	} while (size);
	return 0;
}

static size_t pow2_at_least(size_t n)
{
	size_t v = 4096;

	while (v < n)
		v <<= 1;
	return v;
}

static void configure(struct animtrace_bpf *skel, const struct probes_opts *o)
{
	int n = o->n_markers < AT_MARKER_FILES_MAX ? o->n_markers : AT_MARKER_FILES_MAX;

	for (int i = 0; i < n; i++) {
		skel->rodata->marker_ino[i] = o->markers[i].ino;
		skel->rodata->marker_dev[i] = o->markers[i].dev;
	}
	skel->rodata->nr_marker_files = n;
	skel->rodata->trace_all = o->trace_all;
	skel->rodata->track_procs = o->track_procs;
	skel->rodata->art_stack_bytes =
		o->art_stack_bytes > AT_ART_STACK_MAX ? AT_ART_STACK_MAX : o->art_stack_bytes & ~7u;
	size_t ring = pow2_at_least(o->ringbuf_bytes ? o->ringbuf_bytes : AT_RINGBUF_DEFAULT);

	bpf_map__set_max_entries(skel->maps.events, ring);
	/* An eighth of the ring: the reader's 100 ms tick drains it long before it fills. */
	skel->rodata->art_obj_bytes = o->art_obj ? AT_ART_OBJ_BYTES : 0;
	skel->rodata->wakeup_bytes = ring / 8;
	skel->rodata->wake_markers = o->wake_markers;
	skel->rodata->self_tgid = o->self_tgid;
}

/* libbpf's own lines (its warnings, and with --verbose its debug detail) on the channel. */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	diag_vraw(level == LIBBPF_WARN ? DIAG_WARN :
		  level == LIBBPF_INFO ? DIAG_INFO :
					 DIAG_DEBUG,
		  fmt, ap);
	return 0;
}

/* Every uprobe program as uprobe_multi links when the kernel has them: detached in one go. */
static int prepare_uprobes(struct probes *p)
{
	struct bpf_program *prog;
	int ret;

	p->multi = ulink_multi_supported();
	bpf_object__for_each_program(prog, p->skel->obj)
	{
		if (!p->multi || bpf_program__type(prog) != BPF_PROG_TYPE_KPROBE)
			continue;
		ret = ulink_prepare_multi(prog);
		if (ret)
			return ret;
	}
	diag(DIAG_DEBUG, "uprobes as %s", p->multi ? "uprobe_multi links" : "perf-event links");
	return 0;
}

/* Opens, configures and loads the object, relocated against btf_path (NULL: the kernel's). */
static int open_and_load(struct probes *p, const struct probes_opts *o, const char *btf_path,
			 char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .btf_custom_path = btf_path);
	int ret;

	p->skel = animtrace_bpf__open_opts(&oo);
	if (!p->skel) {
		ret = -errno;
		snprintf(err, errlen, "opening the BPF object failed: %s", strerror(-ret));
		return ret;
	}
	configure(p->skel, o);
	ret = prepare_uprobes(p);
	if (ret) {
		snprintf(err, errlen, "preparing the uprobe programs failed: %s", strerror(-ret));
		return ret;
	}
	ret = animtrace_bpf__load(p->skel);
	if (ret)
		snprintf(err, errlen, "loading the BPF programs failed: %s", strerror(-ret));
	return ret;
}

/* With the embedded CO-RE types when they are this kernel's, else with the kernel's BTF. */
static int load_object(struct probes *p, const struct probes_opts *o, char *err, size_t errlen)
{
	const struct corebtf_blob *b = corebtf_embedded();
	char path[64];
	int fd = corebtf_match(b, COREBTF_KERNEL), ret;

	if (!fd)
		fd = corebtf_memfd(b, path, sizeof(path));
	if (fd < 0) {
		diag(DIAG_DEBUG, "CO-RE types from the kernel's BTF: %s",
		     !b->len	   ? "none embedded" :
		     fd == -ESTALE ? "the embedded ones are another kernel's" :
				     strerror(-fd));
		return open_and_load(p, o, NULL, err, errlen);
	}
	ret = open_and_load(p, o, path, err, errlen);
	close(fd);
	if (!ret) {
		diag(DIAG_DEBUG, "CO-RE types: the %zu bytes embedded for this kernel", b->len);
		return 0;
	}
	diag(DIAG_WARN, "%s with the embedded kernel types: trying the kernel's BTF", err);
	animtrace_bpf__destroy(p->skel);
	p->skel = NULL;
	return open_and_load(p, o, NULL, err, errlen);
}

struct probes *probes__load(const struct probes_opts *o, char *err, size_t errlen)
{
	struct probes *p = calloc(1, sizeof(*p));
	int ret;

	if (!p)
		return NULL;
	p->on_record = o->on_record;
	p->ctx = o->ctx;
	libbpf_set_print(libbpf_print);
	ret = load_object(p, o, err, errlen);
	if (ret)
		goto fail;
	p->rb = ring_buffer__new(bpf_map__fd(p->skel->maps.events), on_sample, p, NULL);
	if (!p->rb) {
		ret = -errno;
		snprintf(err, errlen, "creating the ring buffer reader failed: %s", strerror(-ret));
		goto fail;
	}
	return p;
fail:
	probes__free(p);
	errno = -ret;
	return NULL;
}

/* Does sys_enter run? A few getppid() calls of ours, each counted by the program. */
static bool sys_enter_fires(struct probes *p)
{
	volatile __u64 *calls = &p->skel->bss->self_test_calls;
	uint64_t before = *calls;

	for (int i = 0; i < SELF_TEST_CALLS; i++)
		syscall(SYS_getppid); /* the syscall itself, never a cached value */
	return *calls != before;
}

/*
 * Attaches every program, then checks that sys_enter fires: under qemu (arm64 6.1) a freshly
 * attached sys_enter program now and then never ran, on any CPU, for a whole session (both
 * as tp/ and as raw_tp/; uprobes and the other raw tracepoints fine). Attaching it again
 * cures that; a kernel where it never fires gets a clear error instead of a silent session.
 */
int probes__attach(struct probes *p, char *err, size_t errlen)
{
	int ret = animtrace_bpf__attach(p->skel);

	if (ret) {
		snprintf(err, errlen, "attaching the BPF programs failed: %s", strerror(-ret));
		return ret;
	}
	for (int i = 0; !sys_enter_fires(p); i++) {
		if (i == SELF_TEST_ATTACHES) {
			snprintf(err, errlen,
				 "the raw_syscalls:sys_enter probe is attached but never "
				 "runs on this kernel: no trace_marker writes can be seen");
			return -ENOTSUP;
		}
		diag(DIAG_WARN,
		     "the raw_syscalls:sys_enter probe did not fire: attaching it again");
		bpf_link__destroy(p->skel->links.at_sys_enter);
		p->skel->links.at_sys_enter = bpf_program__attach(p->skel->progs.at_sys_enter);
		if (!p->skel->links.at_sys_enter) {
			ret = -errno;
			snprintf(err, errlen, "attaching raw_syscalls:sys_enter failed: %s",
				 strerror(-ret));
			return ret;
		}
	}
	return 0;
}

int probes__allow(struct probes *p, uint32_t tgid, bool allow)
{
	uint8_t one = 1;
	int fd = bpf_map__fd(p->skel->maps.allow);

	if (allow)
		return bpf_map_update_elem(fd, &tgid, &one, BPF_ANY) ? -errno : 0;
	if (bpf_map_delete_elem(fd, &tgid) && errno != ENOENT)
		return -errno;
	return 0;
}

int probes__poll(struct probes *p, int timeout_ms)
{
	int n = ring_buffer__poll(p->rb, timeout_ms), m;

	if (n < 0 && n != -EINTR)
		return n;
	/* Records submitted without a wake-up (rb_flags() in BPF) are read here. */
	m = ring_buffer__consume(p->rb);
	return m < 0 ? m : (n > 0 ? n : 0) + m;
}

/* One entry link per setter (each its own program), then one return link for those whose
 * code was not understood (hwui_lib.one_probe_mask). */
struct setter_links {
	struct ulink *links[AT_PROP_COUNT + 1];
	int n;
};

static struct bpf_program *setter_prog(struct animtrace_bpf *skel, enum at_prop p)
{
	struct bpf_program *progs[AT_PROP_COUNT] = {
#define PROP_PROG(e, b, j, json, sh) [AT_PROP_##e] = skel->progs.at_set_##b,
		AT_PROPS(PROP_PROG)
#undef PROP_PROG
	};

	return progs[p];
}

/* Each process reads the offsets of its own libhwui: builds differ between apps. */
static int publish_offsets(struct probes *p, int pid, const struct hwui_lib *lib)
{
	struct at_prop_offsets o = { 0 };
	uint32_t tgid = (uint32_t)pid;

	for (int i = 0; i < AT_PROP_COUNT; i++)
		if (lib->ok_mask & (1u << i))
			o.off[i] = lib->field_off[i];
	o.pair_mask = lib->ok_mask & ~lib->one_probe_mask;
	if (!lib->node.uniqueid_err) {
		o.uniqueid_off = lib->node.uniqueid_off;
		o.has_uniqueid = 1;
	}
	return bpf_map_update_elem(bpf_map__fd(p->skel->maps.prop_offsets), &tgid, &o, BPF_ANY) ?
		       -errno :
		       0;
}

int probes__drop_offsets(struct probes *p, int pid)
{
	uint32_t tgid = (uint32_t)pid;

	if (bpf_map_delete_elem(bpf_map__fd(p->skel->maps.prop_offsets), &tgid) && errno != ENOENT)
		return -errno;
	return 0;
}

/* Attaches prog at path's n offsets for pid only, appending the link to links[*n]. */
static int attach_one(const struct probes *p, struct ulink **links, int *n,
		      const struct bpf_program *prog, bool ret, int pid, const char *path,
		      const uint64_t *offsets, int n_offsets)
{
	struct ulink *l = ulink__attach(prog, p->multi, ret, pid, path, offsets, n_offsets);

	if (!l)
		return -errno;
	links[(*n)++] = l;
	return 0;
}

struct setter_links *probes__attach_setters(struct probes *p, int pid, const struct hwui_lib *lib,
					    char *err, size_t errlen)
{
	struct setter_links *l = calloc(1, sizeof(*l));
	int ret = l ? publish_offsets(p, pid, lib) : -ENOMEM, n_ret = 0;
	uint64_t ret_offs[AT_PROP_COUNT];

	for (int i = 0; !ret && i < AT_PROP_COUNT; i++) {
		if (!(lib->ok_mask & (1u << i)))
			continue;
		ret = attach_one(p, l->links, &l->n, setter_prog(p->skel, i), false, pid, lib->path,
				 &lib->setter_off[i], 1);
		if (!(lib->one_probe_mask & (1u << i))) /* not understood: read at its return */
			ret_offs[n_ret++] = lib->setter_off[i];
		if (ret)
			snprintf(err, errlen, "attaching the %s setter probe in %s failed: %s",
				 hwui_prop_name(i), lib->path, strerror(-ret));
	}
	if (!ret && n_ret) {
		ret = attach_one(p, l->links, &l->n, p->skel->progs.at_set_ret, true, pid,
				 lib->path, ret_offs, n_ret);
		if (ret)
			snprintf(err, errlen, "attaching the setter return probes in %s failed: %s",
				 lib->path, strerror(-ret));
	}
	if (!ret)
		return l;
	setter_links__free(l);
	errno = -ret;
	return NULL;
}

void setter_links__free(struct setter_links *l)
{
	if (!l)
		return;
	ulinks__free(l->links, l->n);
	free(l);
}

/* One link per method kind, at every address of the kind. */
struct art_links {
	struct ulink *links[AT_ART_METHOD_COUNT];
	int n;
};

static struct bpf_program *art_prog(struct animtrace_bpf *skel, enum at_art_method m)
{
	struct bpf_program *progs[AT_ART_METHOD_COUNT] = {
		skel->progs.at_art_va_start,   skel->progs.at_art_va_cancel,
		skel->progs.at_art_va_end,     skel->progs.at_art_dyn_start,
		skel->progs.at_art_dyn_cancel, skel->progs.at_art_va_animate,
		skel->progs.at_art_oa_animate, skel->progs.at_art_spring_start,
		skel->progs.at_art_dyn_skip,   skel->progs.at_art_dyn_end,
		skel->progs.at_art_dyn_frame,
	};

	return progs[m];
}

struct art_links *probes__attach_art(struct probes *p, int pid, const struct art_oat *oat,
				     char *err, size_t errlen)
{
	struct art_links *l = calloc(1, sizeof(*l));
	int ret = l ? 0 : -ENOMEM;

	for (int k = 0; !ret && k < AT_ART_METHOD_COUNT; k++) {
		uint64_t offs[ART_MAX_ADDRS];
		int n = oat->n[k] < ART_MAX_ADDRS ? oat->n[k] : ART_MAX_ADDRS;

		for (int i = 0; i < n; i++)
			offs[i] = oat->addr[k][i].offset;
		/* Entry only: a return probe rewrites return addresses ART walks. */
		ret = n ? attach_one(p, l->links, &l->n, art_prog(p->skel, k), false, pid,
				     oat->path, offs, n) :
			  0;
		if (ret)
			snprintf(err, errlen, "attaching the %s probe at 0x%llx in %s failed: %s",
				 art_method_name(k), (unsigned long long)offs[0], oat->path,
				 strerror(-ret));
	}
	if (!ret)
		return l;
	art_links__free(l);
	errno = -ret;
	return NULL;
}

void art_links__free(struct art_links *l)
{
	if (!l)
		return;
	ulinks__free(l->links, l->n);
	free(l);
}

struct refresh_links {
	struct ulink *link;
};

/* One entry probe: a link of its own, so the redraw and the vsync probe come and go apart. */
static struct refresh_links *attach_refresh(const struct probes *p, struct bpf_program *prog,
					    int pid, const char *path, uint64_t off)
{
	struct refresh_links *l = calloc(1, sizeof(*l));
	int n = 0, ret = l ? attach_one(p, &l->link, &n, prog, false, pid, path, &off, 1) : -ENOMEM;

	if (!ret)
		return l;
	free(l);
	errno = -ret;
	return NULL;
}

struct refresh_links *probes__attach_redraw(struct probes *p, int pid, const char *path,
					    uint64_t off, int node_arg)
{
	if (node_arg != 2 && node_arg != 3) {
		errno = EINVAL;
		return NULL;
	}
	return attach_refresh(
		p, node_arg == 2 ? p->skel->progs.at_redraw_arg2 : p->skel->progs.at_redraw_arg3,
		pid, path, off);
}

struct refresh_links *probes__attach_vsync(struct probes *p, int pid, const char *path,
					   uint64_t off)
{
	return attach_refresh(p, p->skel->progs.at_vsync, pid, path, off);
}

void refresh_links__free(struct refresh_links *l)
{
	if (!l)
		return;
	ulinks__free(&l->link, 1);
	free(l);
}

static void add_drops(struct at_drops *t, const struct at_drops *c)
{
	t->marker_ringbuf_full += c->marker_ringbuf_full;
	t->proc_ringbuf_full += c->proc_ringbuf_full;
	t->prop_ringbuf_full += c->prop_ringbuf_full;
	t->art_ringbuf_full += c->art_ringbuf_full;
	t->marker_read_fault += c->marker_read_fault;
	t->prop_read_fault += c->prop_read_fault;
	t->prop_stash_full += c->prop_stash_full;
	t->refresh_ringbuf_full += c->refresh_ringbuf_full;
}

int probes__drops(struct probes *p, struct at_drops *total, struct at_drops *per_cpu, int n_cpu)
{
	int ncpu = libbpf_num_possible_cpus();
	uint32_t zero = 0;
	struct at_drops *vals;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	vals = calloc(ncpu, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	if (bpf_map_lookup_elem(bpf_map__fd(p->skel->maps.drops), &zero, vals)) {
		free(vals);
		return -errno;
	}
	memset(total, 0, sizeof(*total));
	for (int i = 0; i < ncpu; i++) {
		add_drops(total, &vals[i]);
		if (per_cpu && i < n_cpu)
			per_cpu[i] = vals[i];
	}
	free(vals);
	total->prop_read_fault += p->settle_faults;
	return ncpu;
}

/* A call whose stored value no event has read yet (a uretprobe reads the others'). */
static bool pending(const struct at_setter_call *c)
{
	return c->node && !c->awaits_return;
}

/* The 4 bytes at addr in thread tid's memory. */
static int read_bits(uint32_t tid, uint64_t addr, uint32_t *bits)
{
	struct iovec local = { bits, sizeof(*bits) };
	struct iovec remote = { (void *)(uintptr_t)addr, sizeof(*bits) };

	return process_vm_readv((pid_t)tid, &local, 1, &remote, 1, 0) == sizeof(*bits) ? 0 : -1;
}

/* Takes tid's pending call and batched records out of the map; false when there is none
 * (or BPF took them). */
static bool take_state(int fd, uint32_t tid, struct at_setter_state *s)
{
	struct at_setter_state done;

	if (bpf_map_lookup_elem(fd, &tid, s) || (!pending(&s->call) && !s->nrec))
		return false;
	if (!bpf_map_lookup_and_delete_elem(fd, &tid, s))
		return pending(&s->call) || s->nrec;
	/* kernels before 5.14 cannot take a hash element: mark it read in place */
	done = *s;
	done.call.node = 0;
	done.nrec = 0;
	return bpf_map_update_elem(fd, &tid, &done, BPF_EXIST) == 0;
}

/* tid's call c: its record, when the value it stored differs from the one before. */
static void settle_call(struct probes *p, uint32_t tid, const struct at_setter_call *c)
{
	struct at_prop_offsets o;
	struct at_prop_rec r = { 0 };
	uint32_t bits;

	if (c->prop >= AT_PROP_COUNT ||
	    bpf_map_lookup_elem(bpf_map__fd(p->skel->maps.prop_offsets), &c->tgid, &o) ||
	    !o.off[c->prop] || read_bits(tid, AT_UNTAG(c->node) + o.off[c->prop], &bits)) {
		p->settle_faults++; /* gone with its process, or its offsets: lost, and counted */
		return;
	}
	if (bits == c->old_bits)
		return;
	r.hdr = (struct at_hdr){ .kind = AT_REC_PROP,
				 .size = sizeof(r),
				 .tgid = c->tgid,
				 .tid = tid,
				 .ts_ns = c->ts_ns };
	r.node = c->node;
	r.prop = c->prop;
	r.value_bits = bits;
	r.old_bits = c->old_bits;
	r.flags = c->flags;
	r.unique_id = c->unique_id;
	p->on_record(p->ctx, &r.hdr, sizeof(r));
}

#define SETTLE_MAX 2048 /* setter_calls' max_entries */

int probes__settle_setters(struct probes *p)
{
	int fd = bpf_map__fd(p->skel->maps.setter_calls), n = 0, settled = 0;
	uint32_t *tids = malloc(SETTLE_MAX * sizeof(*tids)), *prev = NULL;
	struct at_setter_state st;

	if (!tids)
		return -ENOMEM;
	/* keys first: taking an element while walking would restart the walk */
	while (n < SETTLE_MAX && !bpf_map_get_next_key(fd, prev, &tids[n])) {
		prev = &tids[n];
		n++;
	}
	for (int i = 0; i < n; i++) {
		if (!take_state(fd, tids[i], &st))
			continue;
		/* the batch first: its calls came before the pending one */
		for (uint32_t k = 0; k < st.nrec && k < AT_SETTER_BATCH; k++)
			p->on_record(p->ctx, &st.rec[k].hdr, sizeof(st.rec[k]));
		if (pending(&st.call)) {
			settle_call(p, tids[i], &st.call);
			settled++;
		}
	}
	free(tids);
	return settled;
}

uint64_t probes__bad_records(const struct probes *p)
{
	return p->bad_records;
}

void probes__free(struct probes *p)
{
	if (!p)
		return;
	ring_buffer__free(p->rb);
	animtrace_bpf__destroy(p->skel);
	free(p);
}
