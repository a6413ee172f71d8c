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

/* --stacks=BYTES: stack bytes copied per ART record (0: no registers, no stack). */
const volatile __u32 art_stack_bytes = 0;

/* The record's size: a constant once rodata is frozen, as bpf_ringbuf_reserve requires. */
#define AT_ART_REC_SIZE              \
	(sizeof(struct at_art_rec) + \
	 (art_stack_bytes ? sizeof(struct at_art_stack) + art_stack_bytes : 0))

/* Registers by DWARF number, for the userspace unwinder. */
static __always_inline void art_regs(struct pt_regs *ctx, struct at_art_stack *st)
{
#if defined(__TARGET_ARCH_x86)
	st->regs[0] = ctx->ax;
	st->regs[1] = ctx->dx;
	st->regs[2] = ctx->cx;
	st->regs[3] = ctx->bx;
	st->regs[4] = ctx->si;
	st->regs[5] = ctx->di;
	st->regs[6] = ctx->bp;
	st->regs[7] = ctx->sp;
	st->regs[8] = ctx->r8;
	st->regs[9] = ctx->r9;
	st->regs[10] = ctx->r10;
	st->regs[11] = ctx->r11;
	st->regs[12] = ctx->r12;
	st->regs[13] = ctx->r13;
	st->regs[14] = ctx->r14;
	st->regs[15] = ctx->r15;
	for (int i = AT_ART_NREGS_X86_64; i < AT_ART_NREGS; i++)
		st->regs[i] = 0;
	st->pc = ctx->ip;
	st->nregs = AT_ART_NREGS_X86_64;
#else
	const struct user_pt_regs *u = (const struct user_pt_regs *)ctx;

	/* Unrolled: the verifier refuses ctx loads at a variable offset (arm64 6.1:
	 * "dereference of modified ctx ptr"). */
#pragma unroll
	for (int i = 0; i < 31; i++)
		st->regs[i] = u->regs[i];
	st->regs[31] = u->sp;
	st->pc = u->pc;
	st->nregs = AT_ART_NREGS_ARM64;
#endif
}

/*
 * Registers, then the stack from sp up. A copy that runs off the top of the stack mapping
 * fails as a whole, so shorter ones are tried (a thread near the base of its stack).
 */
static __always_inline void art_stack(struct pt_regs *ctx, struct at_art_stack *st)
{
	__u32 n = art_stack_bytes;

	art_regs(ctx, st);
	st->len = 0;
#pragma unroll
	for (int i = 0; i < 4; i++) {
		if (!bpf_probe_read_user(st->data, n, (const void *)PT_REGS_SP(ctx))) {
			st->len = n;
			break;
		}
		n >>= 1;
	}
}

/*
 * stacks is a constant at each call site: animateValue runs every frame for every animator,
 * so its records never carry registers and stack (no unwinding on the per-frame path).
 */
static __always_inline int art_entry(struct pt_regs *ctx, __u32 method, bool stacks, __u64 arg)
{
	__u64 obj = AT_UNTAG((__u64)(__u32)PT_REGS_PARM2(ctx));
	__u32 size = stacks ? AT_ART_REC_SIZE : sizeof(struct at_art_rec);
	struct at_art_rec *r;
	struct at_drops *d;
	__u32 lock = 0;

	setter_flush(); /* a setter the thread called before: its record comes first */
	if (!allowed(bpf_get_current_pid_tgid() >> 32))
		return 0;
	r = bpf_ringbuf_reserve(&events, size, 0);
	if (!r) {
		d = drops_slot();
		if (d)
			d->art_ringbuf_full++;
		return 0;
	}
	fill_hdr(&r->hdr, AT_REC_ART, size);
	if (stacks && art_stack_bytes)
		art_stack(ctx, (struct at_art_stack *)(r + 1));
	r->obj = obj;
	r->method = method;
	r->has_cookie = 0;
	r->cookie = 0;
	__builtin_memset(r->pad, 0, sizeof(r->pad));
	if (obj &&
	    !bpf_probe_read_user(&lock, sizeof(lock), (const void *)(obj + AT_ART_LOCK_WORD_OFF))) {
		if ((lock >> AT_ART_LOCK_STATE_SHIFT) == AT_ART_LOCK_STATE_HASH) {
			r->cookie = lock & AT_ART_HASH_MASK;
			r->has_cookie = 1;
		}
	}
	r->lock_word = lock;
	r->arg = arg;
	bpf_ringbuf_submit(r, rb_flags());
	return 0;
}

#define AT_ART_PROBE(name, method, stacks)                \
	SEC("uprobe")                                     \
	int BPF_KPROBE(at_art_##name)                     \
	{                                                 \
		return art_entry(ctx, method, stacks, 0); \
	}

/*
 * The same, with the first argument after `this`: ART's managed ABI passes ArtMethod* in
 * rdi/x0, `this` in esi/w1 and the next core argument in rdx/x2 (a long in one register on
 * both 64-bit ABIs; a boolean as 0/1 in its low 32 bits). Checked in art/compiler/optimizing:
 * code_generator_x86_64.h kParameterCoreRegisters = { RSI, RDX, RCX, R8, R9 } (method in RDI),
 * code_generator_arm64.h kParameterCoreRegisters = { x1 .. x7 } (method in x0).
 */
#define AT_ART_PROBE_ARG(name, method, stacks)                                    \
	SEC("uprobe")                                                             \
	int BPF_KPROBE(at_art_##name)                                             \
	{                                                                         \
		return art_entry(ctx, method, stacks, (__u64)PT_REGS_PARM3(ctx)); \
	}

/* The heap reader (issue #24): bytes of `this` copied at ValueAnimator.start and
 * DynamicAnimation.start / SpringAnimation.start (0: none). */
const volatile __u32 art_obj_bytes = 0;

/*
 * An AT_REC_ART_OBJ record: the head of `this`, the second argument of the quick ABI as for
 * art_entry (AOSP art/compiler/optimizing/code_generator_x86_64.h: kParameterCoreRegisters =
 * { RSI, RDX, RCX, R8, R9 } after ArtMethod* in RDI; jni/quick/arm64/
 * calling_convention_arm64.cc: X0 = ArtMethod*, then X1...). A copy crossing the end of the
 * mapping fails as a whole, so shorter ones are tried, as for the stack.
 */
static __always_inline void art_obj_copy(struct pt_regs *ctx, __u32 method)
{
	__u64 obj = AT_UNTAG((__u64)(__u32)PT_REGS_PARM2(ctx));
	__u32 n = AT_ART_OBJ_BYTES;
	struct at_art_obj_rec *r;
	struct at_drops *d;

	if (!art_obj_bytes || !obj || !allowed(bpf_get_current_pid_tgid() >> 32))
		return;
	r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
	if (!r) {
		d = drops_slot();
		if (d)
			d->art_ringbuf_full++;
		return;
	}
	fill_hdr(&r->hdr, AT_REC_ART_OBJ, sizeof(*r));
	r->obj = obj;
	r->len = 0;
	r->method = method;
#pragma unroll
	for (int i = 0; i < 4; i++) {
		if (!bpf_probe_read_user(r->data, n, (const void *)obj)) {
			r->len = n;
			break;
		}
		n >>= 1;
	}
	bpf_ringbuf_submit(r, rb_flags());
}

SEC("uprobe")
int BPF_KPROBE(at_art_va_start)
{
	art_entry(ctx, AT_ART_VA_START, true, 0);
	art_obj_copy(ctx, AT_ART_VA_START);
	return 0;
}

AT_ART_PROBE(va_cancel, AT_ART_VA_CANCEL, true)
AT_ART_PROBE(va_end, AT_ART_VA_END, true)
/* DynamicAnimation's start()s: `this` copied too, its mValue and mVelocity as start() saw
 * them (SpringAnimation.start runs DynamicAnimation.start inside: both copy, the engine keeps
 * the first of a run). */
SEC("uprobe")
int BPF_KPROBE(at_art_dyn_start)
{
	art_entry(ctx, AT_ART_DYN_START, true, 0);
	art_obj_copy(ctx, AT_ART_DYN_START);
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(at_art_spring_start) /* super.start() may be inlined */
{
	art_entry(ctx, AT_ART_SPRING_START, true, 0);
	art_obj_copy(ctx, AT_ART_SPRING_START);
	return 0;
}

AT_ART_PROBE(dyn_cancel, AT_ART_DYN_CANCEL, true)
/* Who writes the properties: the animator whose animateValue the thread entered last. */
AT_ART_PROBE(va_animate, AT_ART_VA_ANIMATE, false)
AT_ART_PROBE(oa_animate, AT_ART_OA_ANIMATE, false)
/* DynamicAnimation (framework copy and androidx): start stacks, end reasons, per-frame writes. */
AT_ART_PROBE(dyn_skip, AT_ART_DYN_SKIP, true)
AT_ART_PROBE_ARG(dyn_end, AT_ART_DYN_END, false)     /* canceled: cancel's own probe has stacks */
AT_ART_PROBE_ARG(dyn_frame, AT_ART_DYN_FRAME, false) /* frameTime, every frame: no stack */

#endif
