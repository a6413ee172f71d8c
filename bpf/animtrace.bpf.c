// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * animtrace kernel side: trace_marker writes of allowed processes, and the process
 * lifecycle events userspace needs to follow zygote forks and renames.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

#include "animtrace/wire.h"
#include "compat.bpf.h"

/* Set through skel->rodata before load. */
const volatile __u64 marker_ino[AT_MARKER_FILES_MAX] = {};
const volatile __u32 marker_dev[AT_MARKER_FILES_MAX] = {};
const volatile __u32 nr_marker_files = 0;
const volatile __u32 trace_all = 0;   /* no --proc/--pid: every process */
const volatile __u32 track_procs = 0; /* --proc: report forks, execs and renames */
/* Wake the reader only once this much is queued (0: at every record); see rb_flags(). */
const volatile __u64 wakeup_bytes = 0;
/* animtrace's own tgid: its --annotate writes to trace_marker must never come back as input,
 * not even with trace_all (0: none). */
const volatile __u32 self_tgid = 0;
/* --annotate: every marker record wakes the reader, so what it causes (a slice, a frame's
 * counters) is written at once. Property and ART records keep rb_flags(): every annotation
 * is caused by a marker (S, F, a doFrame's end) or a process exit, whose wake-up reads them.
 * FORCE: the default (0) only wakes a reader that has consumed everything before the record,
 * and the un-woken property records before it mean it has not (measured: p99 100 ms). */
const volatile __u32 wake_markers = 0;
/* animtrace's own getppid() calls seen by sys_enter: userspace checks that the program runs. */
__u64 self_test_calls = 0;

/* Allowed processes (tgid -> 1), maintained by userspace. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, __u8);
} allow SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, AT_RINGBUF_DEFAULT); /* resized by userspace before load */
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct at_drops);
} drops SEC(".maps");

/* A marker record is 1 KiB: too big for the 512-byte BPF stack, so it is built here. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct at_marker_rec);
} scratch SEC(".maps");

static __always_inline struct at_drops *drops_slot(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&drops, &zero);
}

static __always_inline bool allowed(__u32 tgid)
{
	return trace_all || bpf_map_lookup_elem(&allow, &tgid);
}

/*
 * Waking the reader costs more than the probe itself (measured: a setter uprobe pair 10 us
 * bare, 20 us with a wake-up per record). Userspace consumes on its own 100 ms tick, so
 * records only force a wake-up when the ring starts to fill.
 */
static __always_inline __u64 rb_flags(void)
{
	if (!wakeup_bytes)
		return 0;
	return bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) >= wakeup_bytes ? BPF_RB_FORCE_WAKEUP :
									       BPF_RB_NO_WAKEUP;
}

static __always_inline void fill_hdr(struct at_hdr *h, __u16 kind, __u16 size)
{
	__u64 id = bpf_get_current_pid_tgid();

	h->kind = kind;
	h->size = size;
	h->tgid = id >> 32;
	h->tid = (__u32)id;
	h->cpu = bpf_get_smp_processor_id();
	h->ts_ns = bpf_ktime_get_ns();
}

/*
 * libhwui RenderNode setters: one uprobe per call, at the entry. pt_regs holds no FP
 * registers, so the float argument cannot be read there: the entry reads the field as it is
 * (where an animation starts from) and leaves the call pending for its thread; the value
 * the setter stored is read at that thread's next event (its next setter call, any system
 * call, an ART or refresh probe, its exit), before that event's own record, so records keep
 * the order of the calls; userspace reads those still pending when it stops
 * (probes__settle_setters). This holds for setters that userspace decoded as leaves that store
 * the field through the node's register (insn_setter_store): no system call runs between
 * the entry and the store, and nothing of the thread writes the field before its next event
 * (staging properties are the UI thread's: AOSP libs/hwui/RenderNode.h). RenderProperties'
 * RP_SET stores only a value that differs, so an unchanged field is an unchanged call (AOSP
 * libs/hwui/RenderProperties.h; a NaN stored over the same NaN is the one change unseen).
 * A signal handler making a system call inside that window would read the field unstored.
 * Setters whose code was not understood keep a uretprobe (at_prop_offsets.pair_mask): their
 * return reads the field as before.
 */

/* The entry of a thread is overwritten by its next call, never deleted (a delete costs a
 * hash operation per call); LRU evicts the entries of threads that are gone. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	/* Threads that call setters, the dead ones until evicted. A value is 1.5 KiB,
	 * preallocated (3 MiB); the common LRU holds up to 128 free entries per CPU, so 2048
	 * leaves 1024 to the rest on an 8-CPU phone before it would evict a live thread's. */
	__uint(max_entries, 2048);
	__type(key, __u32); /* tid */
	__type(value, struct at_setter_state);
} setter_calls SEC(".maps");

/* A new thread's state, copied into setter_calls (too big for the BPF stack). */
static struct at_setter_state setter_zero;

/* Threads with a call pending until their next event: other events (every system call of
 * the system) look their thread up only while this is not 0, and then only when the slot of
 * their tid is not 0 either, so the system calls of other threads skip the hash lookup while
 * a UI thread has a call pending (its slot's other threads still pay it). */
#define AT_PENDING_SLOTS 64
__u64 setter_pending = 0;
__u32 setter_pending_slot[AT_PENDING_SLOTS] = {};

/* One thread more (add 1) or fewer (add -1) with a call pending. */
static __always_inline void pending_add(__u32 tid, int add)
{
	__sync_fetch_and_add(&setter_pending, add);
	__sync_fetch_and_add(&setter_pending_slot[tid & (AT_PENDING_SLOTS - 1)], add);
}

/* Field offsets inside RenderNode, learnt from each process's getters by userspace. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256); /* probed processes, a few more than userspace keeps */
	__type(key, __u32);	  /* tgid */
	__type(value, struct at_prop_offsets);
} prop_offsets SEC(".maps");

/* The offsets of the libhwui of process tgid, or NULL when unknown. */
static __always_inline struct at_prop_offsets *offsets(__u32 tgid)
{
	return bpf_map_lookup_elem(&prop_offsets, &tgid);
}

/* The offset of prop in o, or 0 when unknown. */
static __always_inline __u32 prop_offset(const struct at_prop_offsets *o, __u32 prop)
{
	if (!o || prop >= AT_PROP_COUNT)
		return 0;
	return o->off[prop];
}

/* The record of c's call, which stored value_bits; its time is the call's entry. id: the
 * current pid_tgid, read once by the caller (each helper call counts on this path). */
static __always_inline void fill_prop(struct at_prop_rec *r, const struct at_setter_call *c,
				      __u64 id, __u32 value_bits)
{
	r->hdr.kind = AT_REC_PROP;
	r->hdr.size = sizeof(*r);
	r->hdr.tgid = id >> 32;
	r->hdr.tid = (__u32)id;
	r->hdr.cpu = bpf_get_smp_processor_id();
	r->hdr.ts_ns = c->ts_ns;
	r->node = c->node;
	r->prop = c->prop;
	r->value_bits = value_bits;
	r->old_bits = c->old_bits;
	r->flags = c->flags;
	r->unique_id = c->unique_id;
}

/* The uretprobe's record, sent at once (its thread's batch is empty: setter_entry). */
static __always_inline void emit_prop(const struct at_setter_call *c, __u64 id, __u32 value_bits)
{
	struct at_prop_rec *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
	struct at_drops *d;

	if (!r) {
		d = drops_slot();
		if (d)
			d->prop_ringbuf_full++;
		return;
	}
	fill_prop(r, c, id, value_bits);
	bpf_ringbuf_submit(r, rb_flags());
}

/* The batched records of s in one ring-buffer sample (wire.h: AT_SETTER_BATCH). */
static __always_inline void batch_send(struct at_setter_state *s)
{
	__u32 n = s->nrec;
	struct at_drops *d;

	if (!n)
		return;
	s->nrec = 0;
	if (n > AT_SETTER_BATCH) /* never: the bound the verifier needs */
		n = AT_SETTER_BATCH;
	if (bpf_ringbuf_output(&events, s->rec, n * sizeof(s->rec[0]), rb_flags())) {
		d = drops_slot();
		if (d)
			d->prop_ringbuf_full += n;
	}
}

/* s's pending call stored value_bits, another value: its record joins the batch. */
static __always_inline void batch_prop(struct at_setter_state *s, __u64 id, __u32 value_bits)
{
	__u32 i = s->nrec;

	if (i >= AT_SETTER_BATCH) /* never: sent once full */
		return;
	fill_prop(&s->rec[i], &s->call, id, value_bits);
	s->nrec = i + 1;
	if (i + 1 == AT_SETTER_BATCH)
		batch_send(s);
}

/* Records s's pending call (it has returned) when the field it set holds another value. */
static __always_inline void settle(struct at_setter_state *s, const struct at_prop_offsets *o,
				   __u64 id)
{
	__u32 off = prop_offset(o, s->call.prop), bits;
	struct at_drops *d;

	if (!off)
		return;
	if (bpf_probe_read_user(&bits, sizeof(bits),
				(const void *)(AT_UNTAG(s->call.node) + off))) {
		d = drops_slot();
		if (d)
			d->prop_read_fault++;
		return;
	}
	if (bits != s->call.old_bits) /* RP_SET stored: the value changed */
		batch_prop(s, id, bits);
}

/* The current thread's pending call and batch, if any, recorded before the event that runs
 * this. */
static __always_inline void setter_flush(void)
{
	struct at_setter_state *s;
	__u64 id;
	__u32 tid;

	if (!setter_pending)
		return;
	id = bpf_get_current_pid_tgid();
	tid = (__u32)id;
	if (!setter_pending_slot[tid & (AT_PENDING_SLOTS - 1)])
		return;
	s = bpf_map_lookup_elem(&setter_calls, &tid);
	if (!s || !s->call.node || s->call.awaits_return)
		return; /* the batch is empty too: it only grows under a pending call */
	settle(s, offsets(id >> 32), id);
	batch_send(s);
	s->call.node = 0;
	pending_add(tid, -1);
}

/* The thread's state, made on its first call; NULL when the map is full. */
static __always_inline struct at_setter_state *setter_state(__u32 tid)
{
	struct at_setter_state *s = bpf_map_lookup_elem(&setter_calls, &tid);
	struct at_drops *d;

	if (s)
		return s;
	if (!bpf_map_update_elem(&setter_calls, &tid, &setter_zero, BPF_ANY))
		s = bpf_map_lookup_elem(&setter_calls, &tid);
	if (!s) {
		d = drops_slot();
		if (d)
			d->prop_stash_full++;
	}
	return s;
}

/*
 * The field at off (n->old_bits; true when read) and the node's mUniqueId (n->unique_id, and
 * AT_PROP_HAS_UID): userspace names a node once per id, so a freed node's memory reused gets
 * a new one. Both lie inside the node, so the bytes between them are mapped: one read when
 * they are within AT_SETTER_SPAN (wire.h), two when not or when that read fails (a page of
 * the span not resident).
 */
static __always_inline bool read_node(struct at_setter_state *s, const struct at_prop_offsets *o,
				      __u64 node, __u32 off, struct at_setter_call *n)
{
	const char *base = (const char *)AT_UNTAG(node);
	__u32 uo = o->uniqueid_off, lo, hi, len;
	bool read;

	if (off && o->has_uniqueid) {
		lo = off < uo ? off : uo;
		hi = off + 4 > uo + 8 ? off + 4 : uo + 8;
		len = (hi - lo) & ((AT_SETTER_SPAN << 1) - 1); /* the bound, for the verifier */
		if (hi - lo <= AT_SETTER_SPAN && len <= AT_SETTER_SPAN &&
		    !bpf_probe_read_user(s->span, len, base + lo)) {
			__builtin_memcpy(&n->old_bits, &s->span[(off - lo) & (AT_SETTER_SPAN - 1)],
					 sizeof(n->old_bits));
			__builtin_memcpy(&n->unique_id, &s->span[(uo - lo) & (AT_SETTER_SPAN - 1)],
					 sizeof(n->unique_id));
			n->flags = AT_PROP_HAS_UID;
			return true;
		}
	}
	read = off && !bpf_probe_read_user(&n->old_bits, sizeof(n->old_bits), base + off);
	if (o->has_uniqueid && !bpf_probe_read_user(&n->unique_id, sizeof(n->unique_id), base + uo))
		n->flags = AT_PROP_HAS_UID;
	return read;
}

/*
 * The cost of this path is its helper calls and map lookups (bpf_stats: run_time_ns/run_cnt),
 * so each is made once: pid_tgid read once; the process's offsets are its allow check too
 * (userspace publishes them once the process is selected and allowed, and drops them before
 * it disallows it at its exit: live.c sel_selected, procsel__exit, uprobes__retire); the
 * thread's last call is settled with the field this call reads anyway when it set the same
 * field of the same node; records are batched (wire.h: AT_SETTER_BATCH).
 */
static __always_inline int setter_entry(__u64 node, __u32 prop)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32, tid = (__u32)id, off;
	struct at_setter_call n = { .node = node, .prop = prop, .tgid = tgid };
	struct at_prop_offsets *o;
	struct at_setter_state *s;
	bool was, read = false;

	if (!node || prop >= AT_PROP_COUNT)
		return 0;
	o = offsets(tgid);
	if (!o) /* not a selected process, or its libhwui not understood */
		return 0;
	s = setter_state(tid);
	if (!s)
		return 0;
	n.ts_ns = bpf_ktime_get_ns();
	off = o->off[prop];
	read = read_node(s, o, node, off, &n);
	n.awaits_return = !!(o->pair_mask & (1u << prop));
	/* the thread's last call first; then this one takes its place */
	was = s->call.node && !s->call.awaits_return;
	if (was && read && s->call.node == node && s->call.prop == prop) { /* just read */
		if (n.old_bits != s->call.old_bits)
			batch_prop(s, id, n.old_bits);
	} else if (was) {
		settle(s, o, id);
	}
	if (n.awaits_return) /* its uretprobe sends its record at once: the batch goes first */
		batch_send(s);
	if (was != !n.awaits_return) /* in a burst of calls: neither */
		pending_add(tid, was ? -1 : 1);
	s->call = n;
	return 0;
}

#define AT_SETTER(name, prop)                     \
	SEC("uprobe")                             \
	int BPF_KPROBE(at_set_##name, __u64 node) \
	{                                         \
		return setter_entry(node, prop);  \
	}

#define AT_SETTER_PROP(e, b, j, json, sh) AT_SETTER(b, AT_PROP_##e)
AT_PROPS(AT_SETTER_PROP)
#undef AT_SETTER_PROP

/* The return of a setter whose code was not understood: it settles its own call. */
SEC("uretprobe")
int BPF_KRETPROBE(at_set_ret, long ret)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct at_setter_state *s = bpf_map_lookup_elem(&setter_calls, &tid);
	struct at_setter_call *c = s ? &s->call : NULL;
	struct at_drops *d;
	__u32 off, bits;

	if (!c || !c->node || !c->awaits_return)
		return 0;
	off = prop_offset(offsets(bpf_get_current_pid_tgid() >> 32), c->prop);
	d = drops_slot();
	if ((ret & 0xff) && off && d) { /* jboolean true: the value changed */
		if (bpf_probe_read_user(&bits, sizeof(bits),
					(const void *)(AT_UNTAG(c->node) + off)))
			d->prop_read_fault++;
		else
			emit_prop(c, bpf_get_current_pid_tgid(), bits);
	}
	c->node = 0; /* consumed */
	return 0;
}

/* Is fd of the current task one of the trace_marker files userspace found? */
static __always_inline bool fd_is_marker(int fd)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct fdtable *fdt = BPF_CORE_READ(task, files, fdt);
	struct file **fds = BPF_CORE_READ(fdt, fd);
	struct file *file = NULL;
	__u32 max_fds = BPF_CORE_READ(fdt, max_fds);

	if (fd < 0 || (__u32)fd >= max_fds)
		return false;
	if (bpf_probe_read_kernel(&file, sizeof(file), &fds[fd]) || !file)
		return false;

	struct inode *inode = BPF_CORE_READ(file, f_inode);
	__u64 ino = BPF_CORE_READ(inode, i_ino);
	__u32 dev = BPF_CORE_READ(inode, i_sb, s_dev);

	for (int i = 0; i < AT_MARKER_FILES_MAX; i++) {
		if (i >= nr_marker_files)
			break;
		if (marker_ino[i] == ino && marker_dev[i] == dev)
			return true;
	}
	return false;
}

/*
 * raw_syscalls:sys_enter as a raw tracepoint (the syscall's pt_regs and number): no tracefs
 * event id to look up, and no perf record built for every syscall of the system. Userspace
 * checks after attaching that it fires (probes.c, self_test_calls).
 */
SEC("raw_tp/sys_enter")
int BPF_PROG(at_sys_enter, struct pt_regs *regs, long id)
{
	struct at_marker_rec *rec;
	struct at_drops *d;
	__u32 zero = 0, len, tgid;
	__u64 count;
	const void *buf;

	setter_flush(); /* a system call: the thread's setter has returned */
	if (id != AT_NR_WRITE) {
		if (id == AT_NR_GETPPID && bpf_get_current_pid_tgid() >> 32 == self_tgid)
			__sync_fetch_and_add(&self_test_calls, 1);
		return 0;
	}
	tgid = bpf_get_current_pid_tgid() >> 32;
	if (tgid == self_tgid || !allowed(tgid))
		return 0;
	if (!fd_is_marker((int)PT_REGS_PARM1_CORE_SYSCALL(regs)))
		return 0;
	rec = bpf_map_lookup_elem(&scratch, &zero);
	d = drops_slot();
	if (!rec || !d)
		return 0;

	count = PT_REGS_PARM3_CORE_SYSCALL(regs);
	buf = (const void *)PT_REGS_PARM2_CORE_SYSCALL(regs);
	len = count > AT_MARKER_MAX ? AT_MARKER_MAX : (__u32)count;
	/* The mask proves the bound to the verifier; len is already <= AT_MARKER_MAX. */
	len &= (AT_MARKER_MAX << 1) - 1;
	if (len > AT_MARKER_MAX)
		return 0;
	if (bpf_probe_read_user(rec->data, len, buf)) {
		d->marker_read_fault++;
		return 0;
	}
	rec->len = len;
	rec->req_len = count > 0xffffffffULL ? 0xffffffffU : (__u32)count;
	bpf_get_current_comm(rec->comm, sizeof(rec->comm));
	fill_hdr(&rec->hdr, AT_REC_MARKER, offsetof(struct at_marker_rec, data) + len);
	if (bpf_ringbuf_output(&events, rec, offsetof(struct at_marker_rec, data) + len,
			       wake_markers ? BPF_RB_FORCE_WAKEUP : rb_flags()))
		d->marker_ringbuf_full++;
	return 0;
}

static __always_inline void emit_proc(__u32 event, __u32 tgid, __u32 child, const char *comm)
{
	struct at_proc_rec *r;
	struct at_drops *d;

	r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
	if (!r) {
		d = drops_slot();
		if (d)
			d->proc_ringbuf_full++;
		return;
	}
	fill_hdr(&r->hdr, AT_REC_PROC, sizeof(*r));
	r->hdr.tgid = tgid; /* the process the event is about, not always current */
	r->event = event;
	r->child = child;
	bpf_probe_read_kernel_str(r->comm, sizeof(r->comm), comm);
	bpf_ringbuf_submit(r, 0);
}

/* raw tracepoints: their arguments are stable task pointers on every kernel since 4.17. */
SEC("raw_tp/sched_process_fork")
int BPF_PROG(at_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 pid = BPF_CORE_READ(child, pid), tgid = BPF_CORE_READ(child, tgid);

	if (!track_procs || pid != tgid) /* threads are not new processes */
		return 0;
	emit_proc(AT_PROC_FORK, BPF_CORE_READ(parent, tgid), tgid, child->comm);
	return 0;
}

SEC("raw_tp/sched_process_exec")
int BPF_PROG(at_exec, struct task_struct *task)
{
	if (!track_procs)
		return 0;
	emit_proc(AT_PROC_EXEC, BPF_CORE_READ(task, tgid), 0, task->comm);
	return 0;
}

SEC("raw_tp/task_rename")
int BPF_PROG(at_rename, struct task_struct *task, const char *comm)
{
	__u32 pid = BPF_CORE_READ(task, pid), tgid = BPF_CORE_READ(task, tgid);

	if (!track_procs || pid != tgid)
		return 0;
	emit_proc(AT_PROC_RENAME, tgid, 0, comm);
	return 0;
}

SEC("raw_tp/sched_process_exit")
int BPF_PROG(at_exit, struct task_struct *task)
{
	__u32 pid = BPF_CORE_READ(task, pid), tgid = BPF_CORE_READ(task, tgid);

	setter_flush(); /* current is the task exiting: its memory may be gone (a read fault) */
	if (pid != tgid || !allowed(tgid))
		return 0;
	emit_proc(AT_PROC_EXIT, tgid, 0, task->comm);
	return 0;
}

/* ART-compiled framework methods (ValueAnimator.start/cancel/end): entry probes only. */
#include "art.bpf.h"

/* --refresh: display lists re-recorded and vsync requests, entry probes only. */
#include "refresh.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";
