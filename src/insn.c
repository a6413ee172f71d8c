// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <elf.h>
#include <errno.h>
#include <string.h>

#include "insn.h"

#define A64_RET		0xd65f03c0u	/* ret (x30) */
#define A64_BTI_C	0xd503245fu	/* landing pad of address-taken functions with BTI */
/* LDR/STR (immediate, SIMD&FP), 32-bit, unsigned offset: imm12 at [21:10], scaled by 4. */
#define A64_LDR_S_UIMM	0xbd400000u
#define A64_STR_S_UIMM	0xbd000000u
#define A64_LDST_MASK	0xffc003ffu	/* opcode bits plus Rn = x0 and Rt = s0 */

static uint32_t a64_word(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t a64_uimm(uint32_t insn)
{
	return ((insn >> 10) & 0xfff) * 4;
}

static int a64_getter(const uint8_t *code, size_t len, uint32_t *offset)
{
	if (len >= 4 && a64_word(code) == A64_BTI_C) {
		code += 4;
		len -= 4;
	}
	if (len < 8 || (a64_word(code) & A64_LDST_MASK) != A64_LDR_S_UIMM ||
	    a64_word(code + 4) != A64_RET)
		return -ENOTSUP;
	*offset = a64_uimm(a64_word(code));
	return 0;
}

/* movss xmm0, m32 is F3 0F 10 /r; ModRM with reg = xmm0 and rm = rdi picks the disp size. */
static int x64_getter(const uint8_t *code, size_t len, uint32_t *offset)
{
	static const uint8_t endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	static const uint8_t movss[] = { 0xf3, 0x0f, 0x10 };
	size_t disp_len;
	int32_t disp;

	if (len >= sizeof(endbr64) && !memcmp(code, endbr64, sizeof(endbr64))) {
		code += sizeof(endbr64);
		len -= sizeof(endbr64);
	}
	if (len < sizeof(movss) + 1 || memcmp(code, movss, sizeof(movss)))
		return -ENOTSUP;
	switch (code[3]) {
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
	if (len < 4 + disp_len + 1 || code[4 + disp_len] != 0xc3)
		return -ENOTSUP;
	if (disp_len == 0)
		disp = 0;
	else if (disp_len == 1)
		disp = (int8_t)code[4];
	else
		disp = (int32_t)((uint32_t)code[4] | (uint32_t)code[5] << 8 |
				 (uint32_t)code[6] << 16 | (uint32_t)code[7] << 24);
	if (disp < 0)
		return -ENOTSUP;
	*offset = (uint32_t)disp;
	return 0;
}

int insn_getter_offset(uint16_t e_machine, const uint8_t *code, size_t len, uint32_t *offset)
{
	if (!code)
		return -ENOTSUP;
	if (e_machine == EM_AARCH64)
		return a64_getter(code, len, offset);
	if (e_machine == EM_X86_64)
		return x64_getter(code, len, offset);
	return -ENOTSUP;
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
