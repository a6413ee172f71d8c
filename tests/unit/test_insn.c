// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Getter/setter decoding; encodings checked against GNU as/objdump. */
#include <criterion/criterion.h>
#include <elf.h>
#include <errno.h>
#include <stdint.h>

#include "insn.h"

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
	uint32_t none[] = { 0xbd01fc01, A64_RET };		 /* str s1 only */
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
	uint8_t mov32[] = { 0x8b, 0x47, 0x20, 0xc3 };		/* mov eax, [rdi+0x20] */
	uint8_t rcx[] = { 0x48, 0x8b, 0x4f, 0x20, 0xc3 };	/* mov rcx, [rdi+0x20] */
	uint8_t rsi[] = { 0x48, 0x8b, 0x46, 0x20, 0xc3 };	/* mov rax, [rsi+0x20] */
	uint8_t neg[] = { 0x48, 0x8b, 0x47, 0xf8, 0xc3 };	/* mov rax, [rdi-8] */
	uint8_t ok[] = { 0x48, 0x8b, 0x87, 0x10, 0x01, 0, 0, 0xc3 };
	uint32_t off;

	cr_assert_eq(insn_getter64_offset(EM_X86_64, mov32, sizeof(mov32), &off), -ENOTSUP);
	cr_assert_eq(insn_getter64_offset(EM_X86_64, rcx, sizeof(rcx), &off), -ENOTSUP);
	cr_assert_eq(insn_getter64_offset(EM_X86_64, rsi, sizeof(rsi), &off), -ENOTSUP);
	cr_assert_eq(insn_getter64_offset(EM_X86_64, neg, sizeof(neg), &off), -ENOTSUP);
	for (size_t len = 0; len < sizeof(ok); len++)
		cr_assert_eq(insn_getter64_offset(EM_X86_64, ok, len, &off), -ENOTSUP, "len %zu", len);
	cr_assert_eq(insn_getter64_offset(EM_ARM, ok, sizeof(ok), &off), -ENOTSUP);
	cr_assert_eq(insn_getter64_offset(EM_X86_64, NULL, 8, &off), -ENOTSUP);
}
