// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <elf.h>
#include <errno.h>
#include <string.h>

#include "insn.h"

#define A64_RET		0xd65f03c0u	/* ret (x30) */
#define A64_BTI_C	0xd503245fu	/* landing pad of address-taken functions with BTI */
/* LDR/STR (immediate), unsigned offset: imm12 at [21:10], scaled by the access size. */
#define A64_LDR_S_UIMM	0xbd400000u	/* ldr s0, [x0, #imm]: SIMD&FP, 32-bit */
#define A64_STR_S_UIMM	0xbd000000u
#define A64_LDR_X_UIMM	0xf9400000u	/* ldr x0, [x0, #imm]: 64-bit integer */
#define A64_LDST_MASK	0xffc003ffu	/* opcode bits plus Rn = x0 and Rt = 0 */

static uint32_t a64_word(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t a64_uimm(uint32_t insn)
{
	return ((insn >> 10) & 0xfff) * 4;
}

/* @load is the instruction with Rn = x0, Rt = 0 and imm12 = 0; @scale its access size. */
static int a64_getter(const uint8_t *code, size_t len, uint32_t load, uint32_t scale,
		      uint32_t *offset)
{
	if (len >= 4 && a64_word(code) == A64_BTI_C) {
		code += 4;
		len -= 4;
	}
	if (len < 8 || (a64_word(code) & A64_LDST_MASK) != load || a64_word(code + 4) != A64_RET)
		return -ENOTSUP;
	*offset = ((a64_word(code) >> 10) & 0xfff) * scale;
	return 0;
}

static int32_t le32(const uint8_t *p)
{
	return (int32_t)a64_word(p);
}

/*
 * @op (@op_len bytes) is the load's opcode: movss xmm0, m32 is F3 0F 10 /r, mov rax, m64 is
 * REX.W 8B /r. The ModRM that follows, with reg = 0 and rm = rdi, picks the disp size.
 */
static int x64_getter(const uint8_t *code, size_t len, const uint8_t *op, size_t op_len,
		      uint32_t *offset)
{
	static const uint8_t endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	const uint8_t *m;
	size_t disp_len;
	int32_t disp;

	if (len >= sizeof(endbr64) && !memcmp(code, endbr64, sizeof(endbr64))) {
		code += sizeof(endbr64);
		len -= sizeof(endbr64);
	}
	if (len < op_len + 1 || memcmp(code, op, op_len))
		return -ENOTSUP;
	m = code + op_len;
	len -= op_len;
	switch (m[0]) {
	case 0x07:
		disp_len = 0;
		break;
	case 0x47:
		disp_len = 1;
		break;
	case 0x87:
		disp_len = 4;
		break;
	default:
		return -ENOTSUP;
	}
	if (len < 1 + disp_len + 1 || m[1 + disp_len] != 0xc3)
		return -ENOTSUP;
	disp = disp_len == 0 ? 0 : disp_len == 1 ? (int8_t)m[1] : le32(m + 1);
	if (disp < 0)
		return -ENOTSUP;
	*offset = (uint32_t)disp;
	return 0;
}

/* The one-load getter shapes: the arm64 load (Rn = x0, Rt = 0, imm12 = 0), its access size,
 * and the x86_64 opcode bytes before the ModRM. */
struct getter_shape {
	uint32_t a64_load, a64_scale;
	uint8_t x64_op[3];
	size_t x64_op_len;
};

static int getter(uint16_t e_machine, const uint8_t *code, size_t len,
		  const struct getter_shape *g, uint32_t *offset)
{
	if (!code)
		return -ENOTSUP;
	if (e_machine == EM_AARCH64)
		return a64_getter(code, len, g->a64_load, g->a64_scale, offset);
	if (e_machine == EM_X86_64)
		return x64_getter(code, len, g->x64_op, g->x64_op_len, offset);
	return -ENOTSUP;
}

int insn_getter_offset(uint16_t e_machine, const uint8_t *code, size_t len, uint32_t *offset)
{
	static const struct getter_shape movss = { A64_LDR_S_UIMM, 4, { 0xf3, 0x0f, 0x10 }, 3 };

	return getter(e_machine, code, len, &movss, offset);
}

int insn_getter64_offset(uint16_t e_machine, const uint8_t *code, size_t len, uint32_t *offset)
{
	static const struct getter_shape mov_rax = { A64_LDR_X_UIMM, 8, { 0x48, 0x8b }, 2 };

	return getter(e_machine, code, len, &mov_rax, offset);
}

int insn_setter_offset(uint16_t e_machine, const uint8_t *code, size_t len, uint32_t *offset)
{
	uint32_t found = 0;
	size_t i;
	int n = 0;

	if (!code || e_machine != EM_AARCH64)
		return -ENOTSUP;
	for (i = 0; i + 4 <= len; i += 4) {
		uint32_t insn = a64_word(code + i);

		if ((insn & A64_LDST_MASK) != A64_STR_S_UIMM)
			continue;
		if (n++ && a64_uimm(insn) != found)
			return -ENOTSUP;
		found = a64_uimm(insn);
	}
	if (!n)
		return -ENOTSUP;
	*offset = found;
	return 0;
}
