// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Getter/setter decoding; encodings checked against GNU as/objdump. */
#include <criterion/criterion.h>
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "symbols/insn.h"

#define A64_RET 0xd65f03c0u
#define A64_NOP 0xd503201fu
#define A64_BTI_C 0xd503245fu

/* Little-endian bytes of up to 8 arm64 instructions. */
static size_t a64(uint8_t *buf, const uint32_t *words, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		buf[i * 4] = words[i] & 0xff;
		buf[i * 4 + 1] = (words[i] >> 8) & 0xff;
		buf[i * 4 + 2] = (words[i] >> 16) & 0xff;
		buf[i * 4 + 3] = words[i] >> 24;
	}
	return n * 4;
}

static int a64_get(const uint32_t *words, size_t n, uint32_t *off)
{
	uint8_t buf[32];

	return insn_getter_offset(EM_AARCH64, buf, a64(buf, words, n), off);
}

static int x64_get(const uint8_t *code, size_t len, uint32_t *off)
{
	return insn_getter_offset(EM_X86_64, code, len, off);
}

Test(insn, arm64_ldr_s0_x0_500_then_ret_gives_500)
{
	uint32_t w[] = { 0xbd41f400, A64_RET }, off = 0;

	cr_assert_eq(a64_get(w, 2, &off), 0);
	cr_assert_eq(off, 500);
}

Test(insn, arm64_largest_scaled_immediate_gives_16380)
{
	uint32_t w[] = { 0xbd7ffc00, A64_RET }, off = 0;

	cr_assert_eq(a64_get(w, 2, &off), 0);
	cr_assert_eq(off, 16380);
}

Test(insn, arm64_getter_after_bti_c_is_accepted)
{
	uint32_t w[] = { A64_BTI_C, 0xbd421400, A64_RET }, off = 0;

	cr_assert_eq(a64_get(w, 3, &off), 0);
	cr_assert_eq(off, 532);
}

Test(insn, arm64_bytes_after_the_ret_are_ignored)
{
	uint32_t w[] = { 0xbd41f800, A64_RET, 0x910b0000, 0x17fe9006 }, off = 0;

	cr_assert_eq(a64_get(w, 4, &off), 0);
	cr_assert_eq(off, 504);
}

Test(insn, arm64_rejects_other_registers_and_addressing_modes)
{
	uint32_t bad[] = {
		0xbd41f401, /* ldr s1, [x0, #500] */
		0xbd41f420, /* ldr s0, [x1, #500] */
		0xbc404c00, /* ldr s0, [x0, #4]!  (pre-index) */
		0xbc404400, /* ldr s0, [x0], #4   (post-index) */
		0xbc5fc000, /* ldur s0, [x0, #-4] */
		0xfd400400, /* ldr d0, [x0, #8]   (double) */
		0xbd01f400, /* str s0, [x0, #500] (a store) */
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint32_t w[] = { bad[i], A64_RET }, off = 7;

		cr_assert_eq(a64_get(w, 2, &off), -ENOTSUP, "insn %#x", bad[i]);
		cr_assert_eq(off, 7);
	}
}

Test(insn, arm64_rejects_a_missing_or_different_ret)
{
	uint32_t nop[] = { 0xbd41f400, A64_NOP }, ret_x1[] = { 0xbd41f400, 0xd65f0020 };
	uint32_t two_bti[] = { A64_BTI_C, A64_BTI_C, 0xbd41f400, A64_RET }, off;

	cr_assert_eq(a64_get(nop, 2, &off), -ENOTSUP);
	cr_assert_eq(a64_get(ret_x1, 2, &off), -ENOTSUP);
	cr_assert_eq(a64_get(two_bti, 4, &off), -ENOTSUP);
}

Test(insn, arm64_rejects_code_shorter_than_two_instructions)
{
	uint32_t w[] = { 0xbd41f400, A64_RET }, off;
	uint8_t buf[8];

	a64(buf, w, 2);
	cr_assert_eq(insn_getter_offset(EM_AARCH64, buf, 7, &off), -ENOTSUP);
	cr_assert_eq(insn_getter_offset(EM_AARCH64, buf, 4, &off), -ENOTSUP);
	cr_assert_eq(insn_getter_offset(EM_AARCH64, buf, 0, &off), -ENOTSUP);
	cr_assert_eq(insn_getter_offset(EM_AARCH64, NULL, 8, &off), -ENOTSUP);
}

Test(insn, x86_64_movss_disp8_then_ret_gives_8)
{
	uint8_t c[] = { 0xf3, 0x0f, 0x10, 0x47, 0x08, 0xc3 };
	uint32_t off = 0;

	cr_assert_eq(x64_get(c, sizeof(c), &off), 0);
	cr_assert_eq(off, 8);
}

Test(insn, x86_64_movss_disp32_then_ret_gives_500)
{
	uint8_t c[] = { 0xf3, 0x0f, 0x10, 0x87, 0xf4, 0x01, 0x00, 0x00, 0xc3 };
	uint32_t off = 0;

	cr_assert_eq(x64_get(c, sizeof(c), &off), 0);
	cr_assert_eq(off, 500);
}

Test(insn, x86_64_movss_without_displacement_gives_0)
{
	uint8_t c[] = { 0xf3, 0x0f, 0x10, 0x07, 0xc3 };
	uint32_t off = 99;

	cr_assert_eq(x64_get(c, sizeof(c), &off), 0);
	cr_assert_eq(off, 0);
}

Test(insn, x86_64_getter_after_endbr64_is_accepted)
{
	uint8_t c[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0xf3, 0x0f, 0x10, 0x87, 0x14, 0x02, 0, 0, 0xc3 };
	uint32_t off = 0;

	cr_assert_eq(x64_get(c, sizeof(c), &off), 0);
	cr_assert_eq(off, 532);
}

Test(insn, x86_64_rejects_other_registers_opcodes_and_negative_displacements)
{
	uint8_t xmm1[] = { 0xf3, 0x0f, 0x10, 0x4f, 0x08, 0xc3 };
	uint8_t rsi[] = { 0xf3, 0x0f, 0x10, 0x46, 0x08, 0xc3 };
	uint8_t movsd[] = { 0xf2, 0x0f, 0x10, 0x47, 0x08, 0xc3 };
	uint8_t store[] = { 0xf3, 0x0f, 0x11, 0x47, 0x08, 0xc3 };
	uint8_t neg8[] = { 0xf3, 0x0f, 0x10, 0x47, 0xf8, 0xc3 };
	uint8_t neg32[] = { 0xf3, 0x0f, 0x10, 0x87, 0xf8, 0xff, 0xff, 0xff, 0xc3 };
	uint32_t off;

	cr_assert_eq(x64_get(xmm1, sizeof(xmm1), &off), -ENOTSUP);
	cr_assert_eq(x64_get(rsi, sizeof(rsi), &off), -ENOTSUP);
	cr_assert_eq(x64_get(movsd, sizeof(movsd), &off), -ENOTSUP);
	cr_assert_eq(x64_get(store, sizeof(store), &off), -ENOTSUP);
	cr_assert_eq(x64_get(neg8, sizeof(neg8), &off), -ENOTSUP);
	cr_assert_eq(x64_get(neg32, sizeof(neg32), &off), -ENOTSUP);
}

Test(insn, x86_64_rejects_a_missing_ret_and_truncated_code)
{
	uint8_t no_ret[] = { 0xf3, 0x0f, 0x10, 0x47, 0x08, 0x90 };
	uint8_t c[] = { 0xf3, 0x0f, 0x10, 0x87, 0xf4, 0x01, 0x00, 0x00, 0xc3 };
	uint32_t off;
	size_t len;

	cr_assert_eq(x64_get(no_ret, sizeof(no_ret), &off), -ENOTSUP);
	for (len = 0; len < sizeof(c); len++)
		cr_assert_eq(x64_get(c, len, &off), -ENOTSUP, "len %zu", len);
}

Test(insn, unknown_machines_and_crossed_encodings_are_rejected)
{
	uint8_t x64[] = { 0xf3, 0x0f, 0x10, 0x47, 0x08, 0xc3, 0, 0 };
	uint32_t w[] = { 0xbd41f400, A64_RET }, off;
	uint8_t a[8];

	a64(a, w, 2);
	cr_assert_eq(insn_getter_offset(EM_ARM, a, sizeof(a), &off), -ENOTSUP);
	cr_assert_eq(insn_getter_offset(EM_AARCH64, x64, sizeof(x64), &off), -ENOTSUP);
	cr_assert_eq(insn_getter_offset(EM_X86_64, a, sizeof(a), &off), -ENOTSUP);
}

Test(insn, arm64_setter_store_offset_is_found_among_other_instructions)
{
	/* android9 setAlpha tail: ldr s4,[x0,#500] ... str s0,[x0,#500] ... ret */
	uint32_t w[] = { 0xbd41f404, 0x1e202080, 0xb9402008, 0xbd01f400, 0xb9002008, A64_RET };
	uint8_t buf[32];
	uint32_t off = 0;

	cr_assert_eq(insn_setter_offset(EM_AARCH64, buf, a64(buf, w, 6), &off), 0);
	cr_assert_eq(off, 500);
}

Test(insn, arm64_setter_without_one_consistent_store_is_rejected)
{
	uint32_t none[] = { 0xbd01fc01, A64_RET };	      /* str s1 only */
	uint32_t two[] = { 0xbd01f400, 0xbd01f800, A64_RET }; /* #500 and #504 */
	uint32_t same[] = { 0xbd01f400, 0xbd01f400, A64_RET };
	uint8_t buf[32];
	uint32_t off = 0;

	cr_assert_eq(insn_setter_offset(EM_AARCH64, buf, a64(buf, none, 2), &off), -ENOTSUP);
	cr_assert_eq(insn_setter_offset(EM_AARCH64, buf, a64(buf, two, 3), &off), -ENOTSUP);
	cr_assert_eq(insn_setter_offset(EM_X86_64, buf, a64(buf, same, 3), &off), -ENOTSUP);
	cr_assert_eq(insn_setter_offset(EM_AARCH64, buf, a64(buf, same, 3), &off), 0);
	cr_assert_eq(off, 500);
}

Test(insn, arm64_ldr_x0_x0_32_then_ret_is_a_64_bit_getter_at_32)
{
	/* the fixture's getUniqueId: ldr x0, [x0, #32] ; ret */
	uint32_t w[] = { 0xf9401000, A64_RET }, bti[] = { A64_BTI_C, 0xf9400800, A64_RET };
	uint8_t buf[16];
	uint32_t off = 0;

	cr_assert_eq(insn_getter64_offset(EM_AARCH64, buf, a64(buf, w, 2), &off), 0);
	cr_assert_eq(off, 32);
	cr_assert_eq(insn_getter64_offset(EM_AARCH64, buf, a64(buf, bti, 3), &off), 0);
	cr_assert_eq(off, 16);
}

Test(insn, arm64_64_bit_getter_rejects_float_word_and_other_register_loads)
{
	uint32_t bad[] = {
		0xbd401000, /* ldr s0, [x0, #16] (the float getter) */
		0xb9401000, /* ldr w0, [x0, #16] */
		0xf9401001, /* ldr x1, [x0, #32] */
		0xf9401020, /* ldr x0, [x1, #32] */
	};
	uint32_t off = 7;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint32_t w[] = { bad[i], A64_RET };
		uint8_t buf[8];

		cr_assert_eq(insn_getter64_offset(EM_AARCH64, buf, a64(buf, w, 2), &off), -ENOTSUP,
			     "insn %#x", bad[i]);
	}
	cr_assert_eq(off, 7);
}

Test(insn, x86_64_mov_rax_from_rdi_plus_disp_then_ret_is_a_64_bit_getter)
{
	uint8_t d8[] = { 0x48, 0x8b, 0x47, 0x20, 0xc3 };
	uint8_t d32[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0x48, 0x8b, 0x87, 0x10, 0x01, 0, 0, 0xc3 };
	uint8_t d0[] = { 0x48, 0x8b, 0x07, 0xc3 };
	uint32_t off = 0;

	cr_assert_eq(insn_getter64_offset(EM_X86_64, d8, sizeof(d8), &off), 0);
	cr_assert_eq(off, 0x20);
	cr_assert_eq(insn_getter64_offset(EM_X86_64, d32, sizeof(d32), &off), 0);
	cr_assert_eq(off, 0x110);
	cr_assert_eq(insn_getter64_offset(EM_X86_64, d0, sizeof(d0), &off), 0);
	cr_assert_eq(off, 0);
}

Test(insn, x86_64_64_bit_getter_rejects_32_bit_moves_other_registers_and_truncation)
{
	uint8_t mov32[] = { 0x8b, 0x47, 0x20, 0xc3 };	  /* mov eax, [rdi+0x20] */
	uint8_t rcx[] = { 0x48, 0x8b, 0x4f, 0x20, 0xc3 }; /* mov rcx, [rdi+0x20] */
	uint8_t rsi[] = { 0x48, 0x8b, 0x46, 0x20, 0xc3 }; /* mov rax, [rsi+0x20] */
	uint8_t neg[] = { 0x48, 0x8b, 0x47, 0xf8, 0xc3 }; /* mov rax, [rdi-8] */
	uint8_t ok[] = { 0x48, 0x8b, 0x87, 0x10, 0x01, 0, 0, 0xc3 };
	uint32_t off;

	cr_assert_eq(insn_getter64_offset(EM_X86_64, mov32, sizeof(mov32), &off), -ENOTSUP);
	cr_assert_eq(insn_getter64_offset(EM_X86_64, rcx, sizeof(rcx), &off), -ENOTSUP);
	cr_assert_eq(insn_getter64_offset(EM_X86_64, rsi, sizeof(rsi), &off), -ENOTSUP);
	cr_assert_eq(insn_getter64_offset(EM_X86_64, neg, sizeof(neg), &off), -ENOTSUP);
	for (size_t len = 0; len < sizeof(ok); len++)
		cr_assert_eq(insn_getter64_offset(EM_X86_64, ok, len, &off), -ENOTSUP, "len %zu",
			     len);
	cr_assert_eq(insn_getter64_offset(EM_ARM, ok, sizeof(ok), &off), -ENOTSUP);
	cr_assert_eq(insn_getter64_offset(EM_X86_64, NULL, 8, &off), -ENOTSUP);
}

/* ---- insn_scan_calls ------------------------------------------------------------------ */

#define MAX_CALLS 16

struct calls {
	int n;
	struct insn_call c[MAX_CALLS];
	int stop_at; /* return 1 from this call (1-based), 0 never */
};

static int record(void *ctx, const struct insn_call *call)
{
	struct calls *cs = ctx;

	cr_assert_lt(cs->n, MAX_CALLS);
	cs->c[cs->n++] = *call;
	return cs->n == cs->stop_at;
}

static struct calls a64_calls(const uint32_t *words, size_t n, uint64_t vaddr)
{
	struct calls cs = { 0 };
	uint8_t buf[4 * 40];

	cr_assert_leq(n, 40);
	cr_assert_eq(insn_scan_calls(EM_AARCH64, buf, a64(buf, words, n), vaddr, record, &cs), 0);
	return cs;
}

static struct calls x64_calls(const uint8_t *code, size_t len, uint64_t vaddr)
{
	struct calls cs = { 0 };

	cr_assert_eq(insn_scan_calls(EM_X86_64, code, len, vaddr, record, &cs), 0);
	return cs;
}

/* A call at @site to @target whose first argument is @base + @imm = (the result of the call
 * at @from) + @add. */
static void assert_call(const struct insn_call *c, uint64_t site, uint64_t target, uint8_t base,
			int64_t imm, uint64_t from, int64_t add)
{
	cr_assert_eq(c->site, site);
	cr_assert_eq(c->target, target);
	cr_assert_eq(c->arg0_base, base);
	cr_assert_eq(c->arg0_imm, imm);
	cr_assert(c->arg0.valid, "call at %#lx", (unsigned long)site);
	cr_assert_eq(c->arg0.site, from);
	cr_assert_eq(c->arg0.add, add);
}

/* Android 9 libandroid_runtime.so, android_view_RenderNode_create at 0x102eb4..0x102f38. */
static const uint32_t android9_create[] = {
	0xa9bd57f6, 0xa9014ff4, 0xa9027bfd, 0x910083fd, 0xaa0003f4, 0x52808500, 0xaa0203f3,
	0x97fe801e, 0xaa0003f5, 0x97fe933c, 0x910022a8, 0x885f7d09, 0x11000529, 0x880a7d09,
	0x35ffffaa, 0xb4000333, 0xf9400288, 0xaa1403e0, 0xaa1303e1, 0xaa1f03e2, 0xf942a508,
	0xd63f0100, 0xaa0003f6, 0xb4000176, 0x528005c1, 0xaa1603e0, 0x97fe932f, 0xaa0003e8,
	0x910042a0, 0xb4000068, 0x91000501, 0x14000002, 0xaa1603e1, 0x97fe8778,
};

Test(insn, android9_create_passes_operator_new_result_plus_0x10_to_string8_set_to)
{
	struct calls cs = a64_calls(android9_create, 34, 0x102eb4);
	const struct insn_call *set_to = &cs.c[4];

	cr_assert_eq(cs.n, 5);
	/* bl _Znwm@plt, bl RenderNode::RenderNode()@plt, blr GetStringUTFChars, bl strrchr@plt */
	cr_assert_eq(cs.c[0].site, 0x102ed0);
	cr_assert_eq(cs.c[0].target, 0xa2f48);
	cr_assert_eq(cs.c[0].kind, INSN_CALL_DIRECT);
	cr_assert_eq(cs.c[1].target, 0xa7bc8);
	cr_assert(cs.c[1].arg0.valid && cs.c[1].arg0.target == 0xa2f48); /* mov x21, x0 kept it */
	cr_assert_eq(cs.c[2].kind, INSN_CALL_INDIRECT);
	cr_assert_eq(cs.c[2].target, 0);
	cr_assert_eq(cs.c[3].target, 0xa7bd8);
	assert_call(set_to, 0x102f38, 0xa4d18, 21, 0x10, 0x102ed0, 0x10);
	cr_assert_eq(set_to->arg0_set_at, 0x102f24); /* add x0, x21, #0x10 */
	cr_assert_eq(set_to->arg0.kind, INSN_CALL_DIRECT);
	cr_assert_eq(set_to->arg0.target, 0xa2f48);
}

Test(insn, arm64_add_x0_x21_0x10_then_bl_reports_base_immediate_and_target)
{
	/* bl -> x0; mov x21, x0; add x0, x21, #0x10; bl +8 */
	uint32_t w[] = { 0x94000010, 0xaa0003f5, 0x910042a0, 0x94000002 };
	struct calls cs = a64_calls(w, 4, 0x1000);

	cr_assert_eq(cs.n, 2);
	cr_assert_eq(cs.c[0].target, 0x1040);
	assert_call(&cs.c[1], 0x100c, 0x1014, 21, 0x10, 0x1000, 0x10);
}

Test(insn, arm64_mov_x0_x19_then_bl_is_offset_0_and_lsl_12_immediates_are_scaled)
{
	/* bl; mov x19, x0; mov x0, x19; bl; (x0 is now that call's) add x1, x19, #1, lsl #12 */
	uint32_t w[] = { 0x94000010, 0xaa0003f3, 0xaa1303e0, 0x97fffffd,
			 0x91400661, 0xaa0103e0, 0x94000001 };
	struct calls cs = a64_calls(w, 7, 0x2000);

	cr_assert_eq(cs.n, 3);
	cr_assert_eq(cs.c[1].arg0_base, 19);
	cr_assert_eq(cs.c[1].arg0_imm, 0);
	cr_assert(cs.c[1].arg0.valid);
	cr_assert_eq(cs.c[1].arg0.add, 0);
	cr_assert_eq(cs.c[1].arg0.site, 0x2000);
	cr_assert_eq(cs.c[1].target, 0x2000); /* bl -12 from 0x200c */
	cr_assert(cs.c[2].arg0.valid);
	cr_assert_eq(cs.c[2].arg0.add, 0x1000);
	cr_assert_eq(cs.c[2].arg0.site, 0x2000); /* x19 survived the second call */
}

Test(insn, arm64_stack_addresses_and_clobbered_registers_are_not_call_results)
{
	/* bl; mov x9, x0; bl; add x0, sp, #16; bl; add x0, x9, #8; bl; mov x29, sp-ish */
	uint32_t w[] = { 0x94000010, 0xaa0003e9, 0x94000010, 0x910043e0,
			 0x94000010, 0x91002120, 0x94000010 };
	struct calls cs = a64_calls(w, 7, 0x3000);

	cr_assert_eq(cs.n, 4);
	cr_assert_eq(cs.c[2].arg0_base, 31); /* add x0, sp, #16 */
	cr_assert_not(cs.c[2].arg0.valid);
	cr_assert_eq(cs.c[3].arg0_base, 9);
	cr_assert_not(cs.c[3].arg0.valid, "x9 is caller-saved: the calls ended it");
}

Test(insn, arm64_loads_into_the_base_register_end_its_value_but_stores_from_it_do_not)
{
	/* bl; mov x19, x0; str x19, [sp, #8]; stp x19, x20, [sp, #16]; str q0, [x19, #32];
	 * ldr x20, [x19]; add x0, x19, #0x28; bl; ldr x19, [sp]; add x0, x19, #8; bl */
	uint32_t w[] = { 0x94000010, 0xaa0003f3, 0xf90007f3, 0xa90153f3, 0x3d800a60, 0xf9400274,
			 0x9100a260, 0x94000010, 0xf94003f3, 0x91002260, 0x94000010 };
	struct calls cs = a64_calls(w, 11, 0x4000);

	cr_assert_eq(cs.n, 3);
	cr_assert(cs.c[1].arg0.valid);
	cr_assert_eq(cs.c[1].arg0.add, 0x28);
	cr_assert_not(cs.c[2].arg0.valid, "ldr x19, [sp] replaced it");
}

Test(insn, x86_64_lea_rdi_rbx_0x18_then_call_rel32_reports_the_call_result_base)
{
	static const uint8_t c[] = {
		0xe8, 0x10, 0x00, 0x00, 0x00, /* call +0x10 */
		0x48, 0x89, 0xc3,	      /* mov rbx, rax */
		0x48, 0x8d, 0x7b, 0x18,	      /* lea rdi, [rbx+0x18] */
		0xe8, 0xf0, 0xff, 0xff, 0xff, /* call -0x10 */
	};
	struct calls cs = x64_calls(c, sizeof(c), 0x1000);

	cr_assert_eq(cs.n, 2);
	cr_assert_eq(cs.c[0].target, 0x1015);
	assert_call(&cs.c[1], 0x100c, 0x1001, 3, 0x18, 0x1000, 0x18);
	cr_assert_eq(cs.c[1].arg0_set_at, 0x1008);
	cr_assert_eq(cs.c[1].arg0.target, 0x1015);
}

Test(insn, x86_64_lea_rdi_r12_0x100_through_a_sib_byte_and_mov_r12_rax)
{
	static const uint8_t c[] = {
		0xff, 0x15, 0x00, 0x10, 0x00, 0x00,		/* call *0x1000(%rip) */
		0x49, 0x89, 0xc4,				/* mov r12, rax */
		0x66, 0x0f, 0xef, 0xc0,				/* pxor xmm0, xmm0 */
		0x41, 0x0f, 0x11, 0x44, 0x24, 0x08,		/* movups [r12+8], xmm0 */
		0x49, 0x8d, 0xbc, 0x24, 0x00, 0x01, 0x00, 0x00, /* lea rdi, [r12+0x100] */
		0xe8, 0x00, 0x00, 0x00, 0x00,			/* call +0 */
	};
	struct calls cs = x64_calls(c, sizeof(c), 0x2000);

	cr_assert_eq(cs.n, 2);
	cr_assert_eq(cs.c[0].kind, INSN_CALL_GOT);
	cr_assert_eq(cs.c[0].target, 0x2006 + 0x1000);
	cr_assert_eq(cs.c[1].arg0_base, 12);
	cr_assert_eq(cs.c[1].arg0_imm, 0x100);
	cr_assert(cs.c[1].arg0.valid);
	cr_assert_eq(cs.c[1].arg0.kind, INSN_CALL_GOT);
	cr_assert_eq(cs.c[1].arg0.target, 0x3006);
	cr_assert_eq(cs.c[1].arg0.add, 0x100);
}

Test(insn, x86_64_the_fixtures_create_sequence_keeps_rbx_through_stores_and_calls)
{
	/* call; pxor; mov rbx,rax; movabs rax; mov [rbx],rax; lock xadd [rip],rax;
	 * movq [rbx+0x28], 0; test r12,r12; mov rax,[rbp]; call *0x548(rax);
	 * lea rdi,[rbx+0x28]; lea rsi,[rax+1]; cmove rsi,r13; call */
	static const uint8_t c[] = {
		0xe8, 0x00, 0x00, 0x00, 0x00, 0x66, 0x0f, 0xef, 0xc0, 0x48, 0x89, 0xc3,
		0x48, 0xb8, 0x64, 0x4e, 0x72, 0x65, 0x64, 0x6e, 0x65, 0x52, 0x48, 0x89,
		0x03, 0xf0, 0x48, 0x0f, 0xc1, 0x05, 0x10, 0x2c, 0x00, 0x00, 0x48, 0xc7,
		0x43, 0x28, 0x00, 0x00, 0x00, 0x00, 0x4d, 0x85, 0xe4, 0x48, 0x8b, 0x45,
		0x00, 0xff, 0x90, 0x48, 0x05, 0x00, 0x00, 0x48, 0x8d, 0x7b, 0x28, 0x48,
		0x8d, 0x70, 0x01, 0x49, 0x0f, 0x44, 0xf5, 0xe8, 0x00, 0x00, 0x00, 0x00,
	};
	struct calls cs = x64_calls(c, sizeof(c), 0x1400);

	cr_assert_eq(cs.n, 3);
	cr_assert_eq(cs.c[1].kind, INSN_CALL_INDIRECT);
	cr_assert_eq(cs.c[2].site, 0x1400 + sizeof(c) - 5);
	cr_assert(cs.c[2].arg0.valid);
	cr_assert_eq(cs.c[2].arg0.site, 0x1400);
	cr_assert_eq(cs.c[2].arg0.add, 0x28);
}

Test(insn, x86_64_rsp_bases_and_overwritten_registers_are_not_call_results)
{
	static const uint8_t c[] = {
		0xe8, 0x00, 0x00, 0x00, 0x00, /* call */
		0x48, 0x89, 0xc3,	      /* mov rbx, rax */
		0x48, 0x8d, 0x7c, 0x24, 0x10, /* lea rdi, [rsp+0x10] */
		0xe8, 0x00, 0x00, 0x00, 0x00, /* call */
		0x8b, 0x1b,		      /* mov ebx, [rbx] */
		0x48, 0x8d, 0x7b, 0x08,	      /* lea rdi, [rbx+8] */
		0xe8, 0x00, 0x00, 0x00, 0x00, /* call */
	};
	struct calls cs = x64_calls(c, sizeof(c), 0);

	cr_assert_eq(cs.n, 3);
	cr_assert_eq(cs.c[1].arg0_base, 4);
	cr_assert_not(cs.c[1].arg0.valid);
	cr_assert_eq(cs.c[2].arg0_base, 3);
	cr_assert_not(cs.c[2].arg0.valid);
}

Test(insn, x86_64_scan_stops_at_an_instruction_it_cannot_size)
{
	static const uint8_t c[] = {
		0xe8, 0x00, 0x00, 0x00, 0x00, /* call */
		0xc5, 0xf8, 0x77,	      /* vzeroupper (VEX): not decoded */
		0xe8, 0x00, 0x00, 0x00, 0x00, /* call, never reported */
	};
	struct calls cs = x64_calls(c, sizeof(c), 0);

	cr_assert_eq(cs.n, 1);
	cs = x64_calls(c, 3, 0); /* a truncated call */
	cr_assert_eq(cs.n, 0);
}

Test(insn, a_callback_stops_the_scan_with_its_value_and_other_machines_are_refused)
{
	uint32_t w[] = { 0x94000010, 0x94000010, 0x94000010 };
	struct calls cs = { .stop_at = 2 };
	uint8_t buf[12];

	cr_assert_eq(insn_scan_calls(EM_AARCH64, buf, a64(buf, w, 3), 0, record, &cs), 1);
	cr_assert_eq(cs.n, 2);
	cr_assert_eq(insn_scan_calls(EM_ARM, buf, 12, 0, record, &cs), -ENOTSUP);
	cr_assert_eq(insn_scan_calls(EM_X86_64, NULL, 12, 0, record, &cs), -ENOTSUP);
}

/* ---- insn_plt_slot -------------------------------------------------------------------- */

Test(insn, arm64_plt_stub_gives_its_got_slot)
{
	/* the fixture's String8::setTo@plt at 0xb50: adrp x16, 0x20000; ldr x17, [x16, #8];
	 * add x16, x16, #8; br x17 */
	uint32_t w[] = { 0x90000110, 0xf9400611, 0x91002210, 0xd61f0220 };
	uint32_t bti[] = { A64_BTI_C, 0x90000110, 0xf9400611, 0x91002210, 0xd61f0220 };
	uint8_t buf[20];
	uint64_t slot = 0;

	cr_assert_eq(insn_plt_slot(EM_AARCH64, buf, a64(buf, w, 4), 0xb50, &slot), 0);
	cr_assert_eq(slot, 0x20008);
	cr_assert_eq(insn_plt_slot(EM_AARCH64, buf, a64(buf, bti, 5), 0xb4c, &slot), 0);
	cr_assert_eq(slot, 0x20008);
}

Test(insn, arm64_plt_stub_with_a_negative_page_or_mismatched_slot_is_handled)
{
	/* adrp x16, -0x1000 (immlo 3, immhi all ones); ldr x17, [x16, #0x10]; add x16, #0x10 */
	uint32_t neg[] = { 0xf0fffff0, 0xf9400a11, 0x91004210, 0xd61f0220 };
	uint32_t mismatch[] = { 0x90000110, 0xf9400611, 0x91004210, 0xd61f0220 };
	uint32_t not_br[] = { 0x90000110, 0xf9400611, 0x91002210, 0xd61f0200 };
	uint8_t buf[16];
	uint64_t slot = 0;

	cr_assert_eq(insn_plt_slot(EM_AARCH64, buf, a64(buf, neg, 4), 0x5000, &slot), 0);
	cr_assert_eq(slot, 0x4010);
	cr_assert_eq(insn_plt_slot(EM_AARCH64, buf, a64(buf, mismatch, 4), 0, &slot), -ENOTSUP);
	cr_assert_eq(insn_plt_slot(EM_AARCH64, buf, a64(buf, not_br, 4), 0, &slot), -ENOTSUP);
	cr_assert_eq(insn_plt_slot(EM_AARCH64, buf, 12, 0, &slot), -ENOTSUP);
}

Test(insn, x86_64_plt_stubs_with_and_without_endbr64_and_bnd_give_the_got_slot)
{
	static const uint8_t plain[] = { 0xff, 0x25, 0xe2, 0x2f, 0x00, 0x00, 0x68, 0, 0, 0, 0 };
	static const uint8_t sec[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0xf2, 0xff, 0x25, 0x10,
				       0x00, 0x00, 0x00, 0x0f, 0x1f, 0x44, 0x00, 0x00 };
	static const uint8_t other[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0x68, 0x00, 0x00, 0x00, 0x00 };
	uint64_t slot = 0;

	cr_assert_eq(insn_plt_slot(EM_X86_64, plain, sizeof(plain), 0x1030, &slot), 0);
	cr_assert_eq(slot, 0x1036 + 0x2fe2);
	cr_assert_eq(insn_plt_slot(EM_X86_64, sec, sizeof(sec), 0x1100, &slot), 0);
	cr_assert_eq(slot, 0x110b + 0x10);
	cr_assert_eq(insn_plt_slot(EM_X86_64, other, sizeof(other), 0, &slot), -ENOTSUP);
	cr_assert_eq(insn_plt_slot(EM_X86_64, plain, 5, 0, &slot), -ENOTSUP);
	cr_assert_eq(insn_plt_slot(EM_ARM, plain, sizeof(plain), 0, &slot), -ENOTSUP);
}

/* ---- insn_setter_store: may a setter be read at its thread's next event? ---------------- */

/* gcc -O2 of the fixture's rp_set (objdump -d build/x86/sim/libhwui.unstripped.so), at 0x1210:
 * ucomiss 0x50(%rdi),%xmm0; jp 1220; mov $0,%eax; jne 1220; ret; xchg %ax,%ax;
 * 1220: movss %xmm0,0x50(%rdi); mov $1,%eax; ret */
static const uint8_t x64_set_tx[] = { 0x0f, 0x2e, 0x47, 0x50, 0x7a, 0x0a, 0xb8, 0,    0,
				      0,    0,	  0x75, 0x03, 0xc3, 0x66, 0x90, 0xf3, 0x0f,
				      0x11, 0x47, 0x50, 0xb8, 1,    0,	  0,	0,    0xc3 };

Test(insn, x86_64_rp_set_setter_stores_its_field_after_the_compare)
{
	uint64_t at = 0;

	cr_assert_eq(
		insn_setter_store(EM_X86_64, x64_set_tx, sizeof(x64_set_tx), 0x1210, 0x50, &at), 0);
	cr_assert_eq(at, 0x1220);
	/* another field: no store to it */
	cr_assert_eq(insn_setter_store(EM_X86_64, x64_set_tx, sizeof(x64_set_tx), 0x1210, 0x54,
				       &at),
		     -ENOENT);
	cr_assert_eq(insn_setter_store(EM_ARM, x64_set_tx, sizeof(x64_set_tx), 0x1210, 0x50, &at),
		     -ENOTSUP);
}

/* The same setter with one instruction replaced (same length), at 0x1210. */
static int x64_patched(size_t at, const uint8_t *insn, size_t n, size_t len)
{
	uint8_t code[sizeof(x64_set_tx)];
	uint64_t store;

	memcpy(code, x64_set_tx, sizeof(code));
	memcpy(code + at, insn, n);
	return insn_setter_store(EM_X86_64, code, len, 0x1210, 0x50, &store);
}

Test(insn, x86_64_setters_that_call_leave_or_lose_the_node_are_refused)
{
	static const uint8_t call[] = { 0xe8, 0, 0, 0, 0 }; /* call (the mov $1,%eax) */
	static const uint8_t syscall[] = { 0x0f, 0x05, 0x90, 0x90, 0x90 };
	static const uint8_t jmp_out[] = { 0xe9, 0, 1, 0, 0 };		 /* jmp +0x100 */
	static const uint8_t jmp_in[] = { 0xe9, 0, 0, 0, 0 };		 /* jmp to the next ret */
	static const uint8_t vex[] = { 0xc5, 0xfa, 0x11, 0x47, 0x50 };	 /* vmovss: not decoded */
	static const uint8_t movd[] = { 0x66, 0x0f, 0x7e, 0x47, 0x50 };	 /* movd %xmm0,0x50(%rdi) */
	static const uint8_t mov32[] = { 0x89, 0x47, 0x50, 0x90, 0x90 }; /* mov %eax,0x50(%rdi) */
	static const uint8_t mov64[] = { 0x48, 0x89, 0x47, 0x50, 0x90 }; /* 8 bytes: not a float */

	cr_assert_eq(x64_patched(21, call, sizeof(call), sizeof(x64_set_tx)), -EXDEV);
	cr_assert_eq(x64_patched(21, syscall, sizeof(syscall), sizeof(x64_set_tx)), -EXDEV);
	cr_assert_eq(x64_patched(21, jmp_out, sizeof(jmp_out), sizeof(x64_set_tx)), -EXDEV);
	cr_assert_eq(x64_patched(21, jmp_in, sizeof(jmp_in), sizeof(x64_set_tx)), 0);
	cr_assert_eq(x64_patched(16, vex, sizeof(vex), sizeof(x64_set_tx)), -ENOTSUP);
	cr_assert_eq(x64_patched(16, movd, sizeof(movd), sizeof(x64_set_tx)), 0);
	cr_assert_eq(x64_patched(16, mov32, sizeof(mov32), sizeof(x64_set_tx)), 0);
	cr_assert_eq(x64_patched(16, mov64, sizeof(mov64), sizeof(x64_set_tx)), -ENOENT);
	/* the node's register rewritten before the store: no store through the node */
	cr_assert_eq(x64_patched(6, (const uint8_t[]){ 0x48, 0x89, 0xf7, 0x90, 0x90 }, 5,
				 sizeof(x64_set_tx)),
		     -ENOENT);
	/* rdi copied to rsi first, the store through rsi: the node still */
	cr_assert_eq(x64_patched(6, (const uint8_t[]){ 0x48, 0x89, 0xfe, 0x90, 0x90 }, 5,
				 sizeof(x64_set_tx)),
		     0);
}

/* Android 9 setAlpha (aarch64-linux-gnu-objdump -d, 0x1036e0, 84 bytes). */
static const uint32_t a64_set_alpha[] = {
	0xb00007c8, 0xbd44bd02, 0xb00007c8, 0xbd44c103, 0xbd41f404, 0x1e2e1001, 0x1e222000,
	0x1e20ac21, 0x1e232000, 0x1e2703e0, 0x1e219c00, 0x1e202080, 0x540000e0, 0xb9402008,
	0xbd01f400, 0x32130108, 0xb9002008, 0x320003e0, A64_RET,    0x2a1f03e0, A64_RET,
};
#define A64_SET_ALPHA_N (sizeof(a64_set_alpha) / sizeof(a64_set_alpha[0]))

static int a64_patched(size_t at, uint32_t insn, uint32_t field, uint64_t *store)
{
	uint32_t w[A64_SET_ALPHA_N];
	uint8_t buf[sizeof(w)];

	memcpy(w, a64_set_alpha, sizeof(w));
	if (at < A64_SET_ALPHA_N)
		w[at] = insn;
	return insn_setter_store(EM_AARCH64, buf, a64(buf, w, A64_SET_ALPHA_N), 0x1036e0, field,
				 store);
}

Test(insn, arm64_android9_set_alpha_stores_the_field_at_0x103718)
{
	uint64_t at = 0;

	cr_assert_eq(a64_patched(SIZE_MAX, 0, 500, &at), 0);
	cr_assert_eq(at, 0x103718);
	cr_assert_eq(a64_patched(SIZE_MAX, 0, 504, &at), -ENOENT);
	/* stur s0, [x0, #500] is out of imm9's reach; stur s0, [x0, #-4] is not the field */
	cr_assert_eq(a64_patched(14, 0xbc1fc000, 500, &at), -ENOENT);
}

/* gcc -O2 of the fixture for arm64 (objdump -d build/arm64/sim/libhwui.unstripped.so, 0xdc0):
 * ldr s1,[x0,#80]; mov x1,x0; mov w0,#0; fcmp s1,s0; b.ne dd8; ret;
 * dd8: mov w0,#1; str s0,[x1,#80]; ret */
Test(insn, arm64_gcc_setter_stores_through_a_copy_of_the_node)
{
	uint32_t w[] = { 0xbd405001, 0xaa0003e1, 0x52800000, 0x1e202020, 0x54000041,
			 A64_RET,    0x52800020, 0xbd005020, A64_RET };
	uint8_t buf[sizeof(w)];
	uint64_t at = 0;

	cr_assert_eq(insn_setter_store(EM_AARCH64, buf, a64(buf, w, 9), 0xdc0, 80, &at), 0);
	cr_assert_eq(at, 0xddc);
	w[1] = 0xaa0203e1; /* mov x1, x2: not the node */
	cr_assert_eq(insn_setter_store(EM_AARCH64, buf, a64(buf, w, 9), 0xdc0, 80, &at), -ENOENT);
}

Test(insn, arm64_setters_that_call_leave_or_lose_the_node_are_refused)
{
	uint64_t at;

	cr_assert_eq(a64_patched(15, 0x94000010, 500, &at), -EXDEV);  /* bl */
	cr_assert_eq(a64_patched(15, 0xd63f0100, 500, &at), -EXDEV);  /* blr x8 */
	cr_assert_eq(a64_patched(15, 0xd61f0100, 500, &at), -EXDEV);  /* br x8 */
	cr_assert_eq(a64_patched(15, 0xd4000001, 500, &at), -EXDEV);  /* svc #0 */
	cr_assert_eq(a64_patched(15, 0x14000100, 500, &at), -EXDEV);  /* b out (+0x400) */
	cr_assert_eq(a64_patched(12, 0x54001000, 500, &at), -EXDEV);  /* b.eq out */
	cr_assert_eq(a64_patched(15, 0x14000002, 500, &at), 0);	      /* b to the ret */
	cr_assert_eq(a64_patched(13, 0xaa0103e0, 500, &at), -ENOENT); /* mov x0, x1 first */
	/* mov x0, x1 after the store, not before a ret: a branch back could store through it */
	cr_assert_eq(a64_patched(15, 0xaa0103e0, 500, &at), -ENOTSUP);
	cr_assert_eq(a64_patched(14, 0xb901f400, 500, &at), 0);	      /* str w0, [x0, #500] */
	cr_assert_eq(a64_patched(14, 0xbd01f420, 500, &at), -ENOENT); /* str s0, [x1, #500] */
}
