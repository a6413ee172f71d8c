/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Included by animtrace.bpf.c; the ART probes live here (issue: ART probes).
 *
 * Entry uprobes on ART-compiled framework methods (boot-framework.oat). Never return
 * probes: a uretprobe rewrites the return address on the stack and ART's stack walker
 * (GC, exceptions, Thread.getStackTrace) reads those. The quick ABI passes ArtMethod* in
 * the first argument register and the 32-bit `this` reference (a real address below
 * 4 GiB) in the second; the object's lock word at this + 4 holds the identity hash, which
 * is the cookie of the animator's S|/F| markers. One program per method kind, because
 * bpf_get_attach_cookie() is missing from Android's 5.10 kernels.
 */
#ifndef ANIMTRACE_ART_BPF_H
#define ANIMTRACE_ART_BPF_H

static __always_inline int art_entry(struct pt_regs *ctx, __u32 method)
{
	__u64 obj = AT_UNTAG((__u64)(__u32)PT_REGS_PARM2(ctx));
	struct at_art_rec *r;
	struct at_drops *d;
	__u32 lock = 0;

	if (!allowed(bpf_get_current_pid_tgid() >> 32))
		return 0;
	r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
	if (!r) {
		d = drops_slot();
		if (d)
			d->art_ringbuf_full++;
		return 0;
	}
	fill_hdr(&r->hdr, AT_REC_ART, sizeof(*r));
	r->obj = obj;
	r->method = method;
	r->has_cookie = 0;
	r->cookie = 0;
	__builtin_memset(r->pad, 0, sizeof(r->pad));
	if (obj && !bpf_probe_read_user(&lock, sizeof(lock),
					(const void *)(obj + AT_ART_LOCK_WORD_OFF))) {
		if ((lock >> AT_ART_LOCK_STATE_SHIFT) == AT_ART_LOCK_STATE_HASH) {
			r->cookie = lock & AT_ART_HASH_MASK;
			r->has_cookie = 1;
		}
	}
	r->lock_word = lock;
	bpf_ringbuf_submit(r, 0);
	return 0;
}

#define AT_ART_PROBE(name, method)                              \
	SEC("uprobe")                                           \
	int BPF_KPROBE(at_art_##name)                           \
	{                                                       \
		return art_entry(ctx, method);                  \
	}

AT_ART_PROBE(va_start, AT_ART_VA_START)
AT_ART_PROBE(va_cancel, AT_ART_VA_CANCEL)
AT_ART_PROBE(va_end, AT_ART_VA_END)
AT_ART_PROBE(dyn_start, AT_ART_DYN_START)
AT_ART_PROBE(dyn_cancel, AT_ART_DYN_CANCEL)

#endif
