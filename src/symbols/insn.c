// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <elf.h>
#include <errno.h>
#include <string.h>

#include "symbols/insn.h"

#define A64_RET 0xd65f03c0u   /* ret (x30) */
#define A64_BTI_C 0xd503245fu /* landing pad of address-taken functions with BTI */
/* LDR/STR (immediate), unsigned offset: imm12 at [21:10], scaled by the access size. */
#define A64_LDR_S_UIMM 0xbd400000u /* ldr s0, [x0, #imm]: SIMD&FP, 32-bit */
#define A64_STR_S_UIMM 0xbd000000u
#define A64_LDR_X_UIMM 0xf9400000u /* ldr x0, [x0, #imm]: 64-bit integer */
#define A64_LDST_MASK 0xffc003ffu  /* opcode bits plus Rn = x0 and Rt = 0 */

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

static int getter(uint16_t e_machine, const uint8_t *code, size_t len, const struct getter_shape *g,
		  uint32_t *offset)
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

/* ---- call scan: what the first argument holds at each call ---------------------------- */

#define BIT(r) (1u << (r))
#define A64_SP 31
#define A64_CLOBBER (0x7ffffu | BIT(30)) /* x0-x18 and the link register */
enum { X_RAX = 0, X_RCX, X_RDX, X_RBX, X_RSP, X_RBP, X_RSI, X_RDI };
#define X64_CLOBBER (BIT(X_RAX) | BIT(X_RCX) | BIT(X_RDX) | BIT(X_RSI) | BIT(X_RDI) | 0xf00u)

struct scan {
	struct insn_ret val[32];
	uint64_t set_at[32];
	uint8_t base[32];
	int64_t imm[32];
	uint8_t arg0; /* x0 or rdi */
	insn_call_fn fn;
	void *ctx;
};

static void set_unknown(struct scan *st, uint32_t mask, uint64_t pc)
{
	for (int r = 0; mask; r++, mask >>= 1) {
		if (!(mask & 1))
			continue;
		st->val[r].valid = false;
		st->set_at[r] = pc;
		st->base[r] = INSN_NO_REG;
		st->imm[r] = 0;
	}
}

/* dst = src + imm. A stack pointer base (@sp) never carries a call's result. */
static void set_copy(struct scan *st, uint8_t dst, uint8_t src, uint8_t sp, int64_t imm,
		     uint64_t pc)
{
	struct insn_ret v = st->val[src];

	v.valid = v.valid && src != sp && dst != sp;
	v.add += imm;
	st->val[dst] = v;
	st->set_at[dst] = pc;
	st->base[dst] = src;
	st->imm[dst] = imm;
}

static int on_call(struct scan *st, uint64_t pc, enum insn_call_kind kind, uint64_t target,
		   uint32_t clobber)
{
	struct insn_call c = {
		.site = pc,
		.target = target,
		.kind = kind,
		.arg0_set_at = st->set_at[st->arg0],
		.arg0_base = st->base[st->arg0],
		.arg0_imm = st->imm[st->arg0],
		.arg0 = st->val[st->arg0],
	};
	int ret = st->fn(st->ctx, &c);

	if (ret)
		return ret;
	set_unknown(st, clobber, pc);
	/* x0 and rax are register 0 on both machines. */
	st->val[0] = (struct insn_ret){ .valid = true, .kind = kind, .target = target, .site = pc };
	return 0;
}

/* Loads and stores: the registers a load, a writeback or an exclusive may write. */
static uint32_t a64_ldst_writes(uint32_t w)
{
	uint32_t rt = BIT(w & 31), rn = BIT((w >> 5) & 31), rt2 = BIT((w >> 10) & 31);
	uint32_t rs = BIT((w >> 16) & 31);
	bool simd = w & BIT(26), load = (w >> 22) & 3;

	switch ((w >> 27) & 7) {
	case 5: /* pairs; bit 23: pre/post-index writeback */
		return ((w & BIT(23)) ? rn : 0) | ((w & BIT(22)) && !simd ? rt | rt2 : 0);
	case 7: /* one register */
		if (!(w & BIT(24)) && (w & BIT(21)) && ((w >> 10) & 3) != 2)
			return rt | rs | rn; /* atomics, pointer-authenticated loads */
		return (!(w & BIT(24)) && !(w & BIT(21)) && (w & BIT(10)) ? rn : 0) |
		       (load && !simd ? rt : 0);
	case 3: /* literal loads; bit 24: ordered unscaled, memory copy */
		return (w & BIT(24)) ? rt | rn | rs : simd ? 0 : rt;
	default: /* exclusives and ordered; SIMD structures with post-index writeback */
		if (simd)
			return (w & BIT(23)) ? rn : 0;
		return rt | rs | rt2;
	}
}

/* SIMD&FP: only conversions to integers, FMOV to a general register, SMOV and UMOV. */
static uint32_t a64_simd_writes(uint32_t w)
{
	if ((w & 0x7f20fc00u) == 0x1e200000u) {
		uint32_t op = (w >> 16) & 7;

		return op == 2 || op == 3 || op == 7 ? 0 :
						       BIT(w & 31); /* scvtf, ucvtf, fmov to FP */
	}
	if ((w & 0xbfe0fc00u) == 0x0e002c00u || (w & 0xbfe0fc00u) == 0x0e003c00u)
		return BIT(w & 31);
	return 0;
}

/* The general registers @w may write (a superset); calls are handled before. */
static uint32_t a64_writes(uint32_t w)
{
	if ((w & 0x1c000000u) == 0x14000000u) /* branches, exceptions, system: mrs and sysl */
		return (w & 0xffc00000u) == 0xd5000000u && (w & BIT(21)) ? BIT(w & 31) : 0;
	if ((w & 0x0a000000u) == 0x08000000u)
		return a64_ldst_writes(w);
	if ((w & 0x0e000000u) == 0x0e000000u)
		return a64_simd_writes(w);
	return BIT(w & 31); /* data processing: Rd */
}

static int a64_step(struct scan *st, uint32_t w, uint64_t pc)
{
	uint8_t d = w & 31, n = (w >> 5) & 31, m = (w >> 16) & 31;
	int64_t imm = (int64_t)((w >> 10) & 0xfff) << ((w & BIT(22)) ? 12 : 0);

	if ((w & 0xfc000000u) == 0x94000000u) { /* bl: imm26 words */
		int64_t rel = (int64_t)((uint64_t)(w & 0x3ffffff) << 38) >> 36;

		return on_call(st, pc, INSN_CALL_DIRECT, pc + (uint64_t)rel, A64_CLOBBER);
	}
	if ((w & 0xfeff0000u) == 0xd63f0000u) /* blr, blraa, blrab and their z forms */
		return on_call(st, pc, INSN_CALL_INDIRECT, 0, A64_CLOBBER);
	if ((w & 0xff800000u) == 0x91000000u) /* add xd|sp, xn|sp, #imm{, lsl #12} */
		set_copy(st, d, n, A64_SP, imm, pc);
	else if ((w & 0xff800000u) == 0xd1000000u) /* sub */
		set_copy(st, d, n, A64_SP, -imm, pc);
	else if ((w & 0xffe0ffe0u) == 0xaa0003e0u && m != 31) /* mov xd, xm (orr xd, xzr, xm) */
		set_copy(st, d, m, INSN_NO_REG, 0, pc);
	else
		set_unknown(st, a64_writes(w), pc);
	return 0;
}

static int a64_scan(struct scan *st, const uint8_t *code, size_t len, uint64_t vaddr)
{
	for (size_t i = 0; i + 4 <= len; i += 4) {
		int ret = a64_step(st, a64_word(code + i), vaddr + i);

		if (ret)
			return ret;
	}
	return 0;
}

/*
 * x86_64 instruction lengths: one character per opcode of the one-byte and 0F maps (Intel
 * SDM vol. 2 appendix A). '.' no operand, 'M' ModRM, 'B' ModRM + imm8, 'Z' ModRM + imm16/32,
 * 'b' imm8, 'w' imm16, 'z' imm16/32, 'v' imm16/32/64 (mov r, imm), 'e' imm16 + imm8 (enter),
 * 'r' rel32, 'o' moffs, 'g' / 'G' group 3 (imm8 / imm16/32 for test only), 'p' prefix,
 * 'E' 0F escape, 'T' 0F 38 map (ModRM), 'U' 0F 3A map (ModRM + imm8), 'x' stop: invalid in
 * 64-bit mode or not decoded (VEX C4/C5, EVEX 62, 3DNow!).
 */
static const char x64_map1[] = "MMMMbzxxMMMMbzxE"
			       "MMMMbzxxMMMMbzxx"
			       "MMMMbzpxMMMMbzpx"
			       "MMMMbzpxMMMMbzpx"
			       "pppppppppppppppp"
			       "................"
			       "xxxMppppzZbB...."
			       "bbbbbbbbbbbbbbbb"
			       "BZxBMMMMMMMMMMMM"
			       "..........x....."
			       "oooo....bz......"
			       "bbbbbbbbvvvvvvvv"
			       "BBw.xxBZe.w..bx."
			       "MMMMxxx.MMMMMMMM"
			       "bbbbbbbbrrxb...."
			       "p.pp..gG......MM";
static const char x64_map0f[] = "MMMMx.....x.xM.x"
				"MMMMMMMMMMMMMMMM"
				"MMMMxxxxMMMMMMMM"
				"........TxUxxxxx"
				"MMMMMMMMMMMMMMMM"
				"MMMMMMMMMMMMMMMM"
				"MMMMMMMMMMMMMMMM"
				"BBBBMMM.MMxxMMMM"
				"rrrrrrrrrrrrrrrr"
				"MMMMMMMMMMMMMMMM"
				"...MBMxx...MBMMM"
				"MMMMMMMMMMBMMMMM"
				"MMBMBBBM........"
				"MMMMMMMMMMMMMMMM"
				"MMMMMMMMMMMMMMMM"
				"MMMMMMMMMMMMMMMM";

enum { X64_MAP1 = 1, X64_MAP0F, X64_MAP0F38, X64_MAP0F3A };

struct x64_insn {
	size_t len;
	uint8_t rex, map, op;
	bool opsize, addr32, rep, modrm, rip; /* rep: an F3 prefix */
	uint8_t mod, reg, rm;		      /* reg and rm extended by REX.R / REX.B */
	uint8_t base, index;		      /* memory operand registers, or INSN_NO_REG */
	int64_t disp, imm;
};

static int64_t le_signed(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	if (n < 8 && (v >> (8 * n - 1)) & 1)
		v |= ~0ull << (8 * n);
	return (int64_t)v;
}

static bool x64_is_prefix(uint8_t b)
{
	return b == 0x66 || b == 0x67 || b == 0xf0 || b == 0xf2 || b == 0xf3 || b == 0x2e ||
	       b == 0x36 || b == 0x3e || b == 0x26 || b == 0x64 || b == 0x65;
}

/* ModRM, SIB and displacement at p[*i]. */
static bool x64_modrm(struct x64_insn *d, const uint8_t *p, size_t len, size_t *i)
{
	uint8_t m, rm;
	size_t disp_len;

	if (*i >= len)
		return false;
	m = p[(*i)++];
	d->modrm = true;
	d->mod = m >> 6;
	d->reg = ((m >> 3) & 7) | ((d->rex & 4) << 1);
	rm = m & 7;
	d->rm = rm | ((d->rex & 1) << 3);
	d->base = d->index = INSN_NO_REG;
	if (d->mod == 3)
		return true;
	disp_len = d->mod == 1 ? 1 : d->mod == 2 ? 4 : 0;
	if (rm == 4) {
		uint8_t sib;

		if (*i >= len)
			return false;
		sib = p[(*i)++];
		d->index = ((sib >> 3) & 7) | ((d->rex & 2) << 2);
		if (d->index == X_RSP)
			d->index = INSN_NO_REG;
		d->base = (sib & 7) | ((d->rex & 1) << 3);
		if ((sib & 7) == 5 && d->mod == 0) {
			d->base = INSN_NO_REG;
			disp_len = 4;
		}
	} else if (rm == 5 && d->mod == 0) {
		d->rip = true;
		disp_len = 4;
	} else {
		d->base = d->rm;
	}
	if (len - *i < disp_len)
		return false;
	d->disp = disp_len ? le_signed(p + *i, disp_len) : 0;
	*i += disp_len;
	return true;
}

/* The opcode at p[*i] and its length class from the tables; 'x' when not decoded. */
static char x64_opcode(struct x64_insn *d, const uint8_t *p, size_t len, size_t *i)
{
	char k;

	d->map = X64_MAP1;
	d->op = p[(*i)++];
	k = x64_map1[d->op];
	if (k != 'E')
		return k == 'p' ? 'x' : k; /* a prefix after REX is not decoded */
	if (*i >= len)
		return 'x';
	d->map = X64_MAP0F;
	d->op = p[(*i)++];
	k = x64_map0f[d->op];
	if (k != 'T' && k != 'U')
		return k;
	if (*i >= len)
		return 'x';
	d->map = k == 'T' ? X64_MAP0F38 : X64_MAP0F3A;
	d->op = p[(*i)++];
	return k == 'T' ? 'M' : 'B';
}

static size_t x64_imm_len(const struct x64_insn *d, char k)
{
	size_t z = d->opsize && !(d->rex & 8) ? 2 : 4;

	switch (k) {
	case 'b':
	case 'B':
		return 1;
	case 'w':
		return 2;
	case 'e':
		return 3;
	case 'z':
	case 'Z':
	case 'r':
		return k == 'r' ? 4 : z;
	case 'v':
		return (d->rex & 8) ? 8 : z;
	case 'o':
		return d->addr32 ? 4 : 8;
	case 'g':
	case 'G':
		return (d->reg & 7) >= 2 ? 0 : k == 'g' ? 1 : z;
	default:
		return 0;
	}
}

/* Decodes one instruction; 0 when it cannot be sized or runs past @len. */
static size_t x64_decode(struct x64_insn *d, const uint8_t *p, size_t len)
{
	size_t i = 0, n;
	char k;

	memset(d, 0, sizeof(*d));
	d->base = d->index = INSN_NO_REG;
	for (; i < len && i < 14 && x64_is_prefix(p[i]); i++) {
		d->opsize |= p[i] == 0x66;
		d->rep |= p[i] == 0xf3;
		d->addr32 |= p[i] == 0x67;
	}
	if (i < len && (p[i] & 0xf0) == 0x40)
		d->rex = p[i++];
	if (i >= len)
		return 0;
	k = x64_opcode(d, p, len, &i);
	if (k == 'x')
		return 0;
	if (strchr("MBZgG", k) && !x64_modrm(d, p, len, &i))
		return 0;
	n = x64_imm_len(d, k);
	if (len - i < n || i + n > 15)
		return 0;
	d->imm = n ? le_signed(p + i, n) : 0;
	d->len = i + n;
	return d->len;
}

_Static_assert(sizeof(x64_map1) == 257 && sizeof(x64_map0f) == 257, "one class per opcode");

#define X64_ANY (X64_CLOBBER | BIT(X_RBX) | BIT(X_RBP))

/* One-byte map: the general registers an instruction may write (a superset). */
static uint32_t x64_writes1(const struct x64_insn *d, uint32_t reg, uint32_t rm)
{
	uint8_t op = d->op, ext = d->reg & 7, low = (op & 7) | ((d->rex & 1) << 3);

	if (op < 0x40 && (op & 7) < 6) /* ALU ops; CMP (38-3D) writes only flags */
		return (op & 0xf8) == 0x38 ? 0 :
		       (op & 7) < 2	   ? rm :
		       (op & 7) < 4	   ? reg :
					     BIT(X_RAX);
	if ((op >= 0x50 && op <= 0x57) || (op >= 0x70 && op <= 0x7f))
		return 0; /* push, jcc */
	if ((op >= 0x58 && op <= 0x5f) || (op >= 0xb0 && op <= 0xbf))
		return BIT(low); /* pop, mov r, imm */
	if (op >= 0x90 && op <= 0x97)
		return op == 0x90 && !(d->rex & 1) ? 0 : BIT(X_RAX) | BIT(low); /* nop, xchg */
	switch (op) {
	case 0x63:
	case 0x69:
	case 0x6b:
	case 0x8a:
	case 0x8b:
	case 0x8d:
		return reg;
	case 0x84:
	case 0x85:
	case 0x68:
	case 0x6a:
	case 0xc2:
	case 0xc3:
	case 0xcc:
	case 0xe9:
	case 0xeb:
	case 0x9b:
	case 0x9c:
	case 0x9d:
	case 0xf4:
	case 0xf5:
	case 0xf8:
	case 0xf9:
	case 0xfa:
	case 0xfb:
	case 0xfc:
	case 0xfd:
		return 0;
	case 0x86:
	case 0x87:
		return reg | rm;
	case 0x88:
	case 0x89:
	case 0x8c:
	case 0x8f:
	case 0xc0:
	case 0xc1:
	case 0xc6:
	case 0xc7:
	case 0xd0:
	case 0xd1:
	case 0xd2:
	case 0xd3:
		return rm;
	case 0x80:
	case 0x81:
	case 0x83:
		return ext == 7 ? 0 : rm;
	case 0x98:
	case 0xa0:
	case 0xa1:
	case 0x9f:
		return BIT(X_RAX);
	case 0x99:
		return BIT(X_RDX);
	case 0xc9:
		return BIT(X_RBP);
	case 0xf6:
	case 0xf7:
		return ext < 2 ? 0 : ext < 4 ? rm : BIT(X_RAX) | BIT(X_RDX);
	case 0xfe:
	case 0xff:
		return ext < 2 ? rm : 0; /* inc, dec; jmp, push (calls are handled before) */
	default:			 /* string operations and the rest */
		return X64_ANY | reg | rm;
	}
}

/* 0F map; SSE instructions write XMM registers except the few listed. */
static uint32_t x64_writes0f(const struct x64_insn *d, uint32_t reg, uint32_t rm)
{
	uint8_t op = d->op;

	if ((op >= 0x80 && op <= 0x8f) || (op >= 0x18 && op <= 0x1f))
		return 0; /* jcc, hint nops and endbr64 */
	if (op >= 0x40 && op <= 0x4f)
		return reg; /* cmovcc */
	if (op >= 0x90 && op <= 0x9f)
		return rm; /* setcc */
	if (op >= 0xc8 && op <= 0xcf)
		return BIT((op & 7) | ((d->rex & 1) << 3)); /* bswap */
	switch (op) {
	case 0x2c:
	case 0x2d:
	case 0x50:
	case 0xaf:
	case 0xb6:
	case 0xb7:
	case 0xbe:
	case 0xbf:
	case 0xb8:
	case 0xbc:
	case 0xbd:
	case 0xc5:
	case 0xd7:
		return reg; /* cvt to integer, movmsk, imul, movzx/sx, popcnt, bsf/bsr, pextrw */
	case 0xa3:
	case 0x0b:
	case 0x0d:
	case 0xae:
		return 0; /* bt, ud2, prefetch, fences */
	case 0xab:
	case 0xb3:
	case 0xbb:
	case 0xa4:
	case 0xa5:
	case 0xac:
	case 0xad:
	case 0xc3:
		return rm; /* bts/btr/btc, shld/shrd, movnti */
	case 0xba:
		return (d->reg & 7) == 4 ? 0 : rm;
	case 0xb0:
	case 0xb1:
	case 0xc7:
		return rm | BIT(X_RAX) | BIT(X_RDX);
	case 0xc0:
	case 0xc1:
		return reg | rm;
	case 0x7e:
		return d->opsize ? rm : 0; /* 66: movd/movq r/m, xmm; F3: movq xmm, xmm/m64 */
	}
	if ((op >= 0x10 && op <= 0x17) || (op >= 0x28 && op <= 0x2f) ||
	    (op >= 0x51 && op <= 0x7f) || op == 0xc2 || op == 0xc6 || op >= 0xd0)
		return 0;
	return X64_ANY | reg | rm; /* system instructions and the rest */
}

static uint32_t x64_writes(const struct x64_insn *d)
{
	uint32_t reg = d->modrm ? BIT(d->reg) : 0, rm = d->modrm && d->mod == 3 ? BIT(d->rm) : 0;

	if (d->map == X64_MAP1)
		return x64_writes1(d, reg, rm);
	if (d->map == X64_MAP0F)
		return x64_writes0f(d, reg, rm);
	return reg | rm;
}

/* mov, lea, add/sub #imm on 64-bit registers; false for anything else. */
static bool x64_track(struct scan *st, const struct x64_insn *d, uint64_t pc)
{
	bool w = d->rex & 8, reg_form = d->modrm && d->mod == 3;
	uint8_t ext = d->reg & 7;

	if (d->map != X64_MAP1 || !w || !d->modrm)
		return false;
	if (d->op == 0x89 && reg_form)
		set_copy(st, d->rm, d->reg, X_RSP, 0, pc);
	else if (d->op == 0x8b && reg_form)
		set_copy(st, d->reg, d->rm, X_RSP, 0, pc);
	else if (d->op == 0x8d && !reg_form && !d->rip && d->index == INSN_NO_REG &&
		 d->base != INSN_NO_REG)
		set_copy(st, d->reg, d->base, X_RSP, d->disp, pc);
	else if ((d->op == 0x81 || d->op == 0x83) && reg_form && (ext == 0 || ext == 5))
		set_copy(st, d->rm, d->rm, X_RSP, ext == 0 ? d->imm : -d->imm, pc);
	else
		return false;
	return true;
}

static int x64_step(struct scan *st, const struct x64_insn *d, uint64_t pc)
{
	uint64_t next = pc + d->len;
	uint8_t ext = d->reg & 7;

	if (d->map == X64_MAP1 && d->op == 0xe8)
		return on_call(st, pc, INSN_CALL_DIRECT, next + (uint64_t)d->imm, X64_CLOBBER);
	if (d->map == X64_MAP1 && d->op == 0xff && (ext == 2 || ext == 3)) {
		if (ext == 2 && d->rip)
			return on_call(st, pc, INSN_CALL_GOT, next + (uint64_t)d->disp,
				       X64_CLOBBER);
		return on_call(st, pc, INSN_CALL_INDIRECT, 0, X64_CLOBBER);
	}
	if (!x64_track(st, d, pc))
		set_unknown(st, x64_writes(d), pc);
	return 0;
}

static int x64_scan(struct scan *st, const uint8_t *code, size_t len, uint64_t vaddr)
{
	struct x64_insn d;
	size_t i = 0;

	while (i < len && x64_decode(&d, code + i, len - i)) {
		int ret = x64_step(st, &d, vaddr + i);

		if (ret)
			return ret;
		i += d.len;
	}
	return 0;
}

int insn_scan_calls(uint16_t e_machine, const uint8_t *code, size_t len, uint64_t vaddr,
		    insn_call_fn fn, void *ctx)
{
	struct scan st = { .fn = fn, .ctx = ctx };

	if (!code || !fn || (e_machine != EM_AARCH64 && e_machine != EM_X86_64))
		return -ENOTSUP;
	set_unknown(&st, ~0u, 0);
	if (e_machine == EM_AARCH64)
		return a64_scan(&st, code, len, vaddr);
	st.arg0 = X_RDI;
	return x64_scan(&st, code, len, vaddr);
}

/* ---- setters: where the field is stored ---------------------------------------------- */

#define A64_X0 0

/* One instruction of a setter, for insn_setter_store. */
struct setter_insn {
	bool leaves; /* a call, an indirect or outside branch, a system call: not a leaf */
	bool ret;
	uint8_t base; /* a 32-bit store to [base + the field's offset], else INSN_NO_REG */
	uint8_t copy_dst, copy_src; /* a 64-bit register copy, else INSN_NO_REG */
	uint32_t writes;	    /* general registers written (a superset) */
};

/* Conditional and unconditional immediate branches: *target, or false for other insns. */
static bool a64_branch(uint32_t w, uint64_t pc, uint64_t *target)
{
	int64_t rel;

	if ((w & 0xfc000000u) == 0x14000000u) /* b imm26 */
		rel = (int64_t)((uint64_t)(w & 0x3ffffff) << 38) >> 36;
	else if ((w & 0xff000010u) == 0x54000000u || (w & 0x7e000000u) == 0x34000000u)
		rel = (int64_t)((uint64_t)((w >> 5) & 0x7ffff) << 45) >> 43; /* b.cond, cbz/cbnz */
	else if ((w & 0x7e000000u) == 0x36000000u)			     /* tbz/tbnz imm14 */
		rel = (int64_t)((uint64_t)((w >> 5) & 0x3fff) << 50) >> 48;
	else
		return false;
	*target = pc + (uint64_t)rel;
	return true;
}

/* str/stur of s<t> or w<t> to [xn + off] (scaled imm12, or signed imm9): xn, else none. */
static uint8_t a64_field_store(uint32_t w, uint32_t off)
{
	uint8_t rn = (w >> 5) & 31;

	if (rn == A64_SP)
		return INSN_NO_REG;
	if ((w & 0xffc00000u) == 0xbd000000u || (w & 0xffc00000u) == 0xb9000000u)
		return a64_uimm(w) == off ? rn : INSN_NO_REG;
	if ((w & 0xffe00c00u) == 0xbc000000u || (w & 0xffe00c00u) == 0xb8000000u)
		return (int64_t)((uint64_t)((w >> 12) & 0x1ff) << 55) >> 55 == (int64_t)off ?
			       rn :
			       INSN_NO_REG;
	return INSN_NO_REG;
}

static void a64_setter_insn(uint32_t w, uint64_t pc, uint64_t lo, uint64_t hi, uint32_t off,
			    struct setter_insn *si)
{
	uint64_t target;

	*si = (struct setter_insn){ .base = INSN_NO_REG,
				    .copy_dst = INSN_NO_REG,
				    .copy_src = INSN_NO_REG };
	si->ret = (w & 0xfffffc1fu) == 0xd65f0000u;
	if (si->ret)
		return;
	if ((w & 0xfc000000u) == 0x94000000u || (w & 0xfe000000u) == 0xd6000000u ||
	    (w & 0xff000000u) == 0xd4000000u) {
		si->leaves = true; /* bl; br, blr and their authenticated forms; svc, brk */
		return;
	}
	if (a64_branch(w, pc, &target)) {
		si->leaves = target < lo || target >= hi;
		return;
	}
	si->base = a64_field_store(w, off);
	si->writes = a64_writes(w);
	if ((w & 0xffe0ffe0u) == 0xaa0003e0u && ((w >> 16) & 31) != 31) { /* mov xd, xm */
		si->copy_dst = w & 31;
		si->copy_src = (w >> 16) & 31;
	}
}

/* mov m32, r32 | movss m32, xmm | movd m32, xmm | mov m32, imm32 at [base + off]. */
static uint8_t x64_field_store(const struct x64_insn *d, uint32_t off)
{
	bool m32 = d->map == X64_MAP1 && !(d->rex & 8) && !d->opsize &&
		   (d->op == 0x89 || (d->op == 0xc7 && (d->reg & 7) == 0));
	bool xmm32 = d->map == X64_MAP0F && ((d->op == 0x11 && d->rep && !d->opsize) ||
					     (d->op == 0x7e && d->opsize && !(d->rex & 8)));

	if (!(m32 || xmm32) || !d->modrm || d->mod == 3 || d->rip || d->index != INSN_NO_REG ||
	    d->base == X_RSP || d->disp != (int64_t)off)
		return INSN_NO_REG;
	return d->base;
}

static void x64_setter_insn(const struct x64_insn *d, uint64_t pc, uint64_t lo, uint64_t hi,
			    uint32_t off, struct setter_insn *si)
{
	uint64_t next = pc + d->len;
	uint8_t ext = d->reg & 7;
	bool map1 = d->map == X64_MAP1, map0f = d->map == X64_MAP0F;

	*si = (struct setter_insn){ .base = INSN_NO_REG,
				    .copy_dst = INSN_NO_REG,
				    .copy_src = INSN_NO_REG };
	si->ret = map1 && (d->op == 0xc3 || d->op == 0xc2);
	if (si->ret)
		return;
	if ((map1 && (d->op == 0xe8 || d->op == 0xcd || d->op == 0xcc ||
		      (d->op == 0xff && ext >= 2 && ext <= 5))) ||
	    (map0f && (d->op == 0x05 || d->op == 0x34))) {
		si->leaves = true; /* calls, int, int3, indirect jumps; syscall, sysenter */
		return;
	}
	if ((map1 && ((d->op >= 0x70 && d->op <= 0x7f) || d->op == 0xe9 || d->op == 0xeb ||
		      (d->op >= 0xe0 && d->op <= 0xe3))) ||
	    (map0f && d->op >= 0x80 && d->op <= 0x8f)) {
		uint64_t target = next + (uint64_t)d->imm;

		si->leaves = target < lo || target >= hi;
		return;
	}
	si->base = x64_field_store(d, off);
	si->writes = x64_writes(d);
	if (map1 && (d->rex & 8) && d->modrm && d->mod == 3 && (d->op == 0x89 || d->op == 0x8b)) {
		si->copy_dst = d->op == 0x89 ? d->rm : d->reg;
		si->copy_src = d->op == 0x89 ? d->reg : d->rm;
	}
}

/*
 * The node's registers, followed in address order: the first argument, and its 64-bit
 * copies. A register is "bad" when some instruction anywhere writes it otherwise than as a
 * copy of the node or as the return value (a write followed by a return: arm64's w0), since
 * a branch could then reach a store through it with something else in it.
 */
struct setter_scan {
	uint32_t node, bad, pending;
	uint64_t store[32]; /* the first store to the field through each register, 0: none */
};

/* One instruction; -EXDEV when the setter leaves. */
static int setter_note(struct setter_scan *ss, const struct setter_insn *si, uint64_t pc)
{
	uint32_t written;

	if (!si->ret)
		ss->bad |= ss->pending; /* last instruction's writes were no return value */
	ss->pending = 0;
	if (si->leaves)
		return -EXDEV;
	if (si->base != INSN_NO_REG && (ss->node & BIT(si->base)) && !ss->store[si->base])
		ss->store[si->base] = pc;
	written = si->writes;
	if (si->copy_dst != INSN_NO_REG && (ss->node & BIT(si->copy_src))) {
		ss->node |= BIT(si->copy_dst);
		written &= ~BIT(si->copy_dst);
	}
	ss->node &= ~written;
	ss->pending = written;
	return 0;
}

static int a64_setter_scan(const uint8_t *code, size_t len, uint64_t vaddr, uint32_t off,
			   struct setter_scan *ss)
{
	struct setter_insn si;

	for (size_t i = 0; i + 4 <= len; i += 4) {
		int err;

		a64_setter_insn(a64_word(code + i), vaddr + i, vaddr, vaddr + len, off, &si);
		if ((err = setter_note(ss, &si, vaddr + i)))
			return err;
	}
	return 0;
}

static int x64_setter_scan(const uint8_t *code, size_t len, uint64_t vaddr, uint32_t off,
			   struct setter_scan *ss)
{
	struct setter_insn si;
	struct x64_insn d;
	size_t i = 0;

	while (i < len) {
		int err;

		if (!x64_decode(&d, code + i, len - i))
			return -ENOTSUP; /* not sized: nothing can be said of the rest */
		x64_setter_insn(&d, vaddr + i, vaddr, vaddr + len, off, &si);
		if ((err = setter_note(ss, &si, vaddr + i)))
			return err;
		i += d.len;
	}
	return 0;
}

int insn_setter_store(uint16_t e_machine, const uint8_t *code, size_t len, uint64_t vaddr,
		      uint32_t field_off, uint64_t *store_at)
{
	struct setter_scan ss = { 0 };
	uint64_t best = 0;
	bool any = false;
	int err;

	if (!code || !len)
		return -ENOTSUP;
	if (e_machine == EM_AARCH64) {
		ss.node = BIT(A64_X0);
		err = a64_setter_scan(code, len, vaddr, field_off, &ss);
	} else if (e_machine == EM_X86_64) {
		ss.node = BIT(X_RDI);
		err = x64_setter_scan(code, len, vaddr, field_off, &ss);
	} else {
		return -ENOTSUP;
	}
	if (err)
		return err;
	ss.bad |= ss.pending; /* a last write not followed by a return */
	for (int r = 0; r < 32; r++) {
		if (!ss.store[r])
			continue;
		any = true;
		if (!(ss.bad & BIT(r)) && (!best || ss.store[r] < best))
			best = ss.store[r];
	}
	if (!best)
		return any ? -ENOTSUP : -ENOENT;
	*store_at = best;
	return 0;
}

/* ---- PLT stubs ------------------------------------------------------------------------- */

static int a64_plt_slot(const uint8_t *code, size_t len, uint64_t vaddr, uint64_t *slot)
{
	uint32_t adrp, ldr, add;
	uint64_t page, lo;
	int64_t pages;

	if (len >= 4 && a64_word(code) == A64_BTI_C) {
		code += 4;
		len -= 4;
		vaddr += 4;
	}
	if (len < 16)
		return -ENOTSUP;
	adrp = a64_word(code);
	ldr = a64_word(code + 4);
	add = a64_word(code + 8);
	if ((adrp & 0x9f00001fu) != 0x90000010u || (ldr & 0xffc003ffu) != 0xf9400211u ||
	    (add & 0xffc003ffu) != 0x91000210u || a64_word(code + 12) != 0xd61f0220u)
		return -ENOTSUP;
	lo = ((ldr >> 10) & 0xfff) * 8;
	if (lo != ((add >> 10) & 0xfff))
		return -ENOTSUP; /* ldr and add must name the same slot */
	pages = (int64_t)((uint64_t)(((adrp >> 5) & 0x7ffff) << 2 | ((adrp >> 29) & 3)) << 43) >>
		31;
	page = (vaddr & ~0xfffull) + (uint64_t)pages;
	*slot = page + lo;
	return 0;
}

static int x64_plt_slot(const uint8_t *code, size_t len, uint64_t vaddr, uint64_t *slot)
{
	static const uint8_t endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	size_t i = 0;

	if (len >= sizeof(endbr64) && !memcmp(code, endbr64, sizeof(endbr64)))
		i = sizeof(endbr64);
	if (i < len && code[i] == 0xf2) /* bnd */
		i++;
	if (len - i < 6 || code[i] != 0xff || code[i + 1] != 0x25)
		return -ENOTSUP;
	*slot = vaddr + i + 6 + (uint64_t)(int64_t)le32(code + i + 2);
	return 0;
}

int insn_plt_slot(uint16_t e_machine, const uint8_t *code, size_t len, uint64_t vaddr,
		  uint64_t *slot)
{
	if (!code)
		return -ENOTSUP;
	if (e_machine == EM_AARCH64)
		return a64_plt_slot(code, len, vaddr, slot);
	if (e_machine == EM_X86_64)
		return x64_plt_slot(code, len, vaddr, slot);
	return -ENOTSUP;
}
