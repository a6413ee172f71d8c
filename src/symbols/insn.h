/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Decodes the few instruction shapes that reveal where a RenderNode property lives: the
 * JNI getters are one load from the node plus a return, so the load's displacement is the
 * field offset the setter probes read; and whether a setter is a leaf storing that field,
 * so that one probe a call suffices. Pure; no ELF knowledge.
 */
#ifndef ANIMTRACE_INSN_H
#define ANIMTRACE_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Field offset read by a float getter whose code starts at @code (@len bytes, extra bytes
 * after the return are ignored). Accepted, and nothing else (-ENOTSUP):
 *   EM_AARCH64: [bti c] ldr s0, [x0, #imm] ; ret
 *   EM_X86_64:  [endbr64] movss xmm0, [rdi] | [rdi + disp8] | [rdi + disp32] ; ret
 * Negative displacements are rejected. Returns 0 with *offset set.
 */
int insn_getter_offset(uint16_t e_machine, const uint8_t *code, size_t len, uint32_t *offset);

/*
 * Field offset read by a 64-bit integer getter such as `jlong getUniqueId(jlong node)`, the
 * same way (-ENOTSUP for anything else):
 *   EM_AARCH64: [bti c] ldr x0, [x0, #imm] ; ret
 *   EM_X86_64:  [endbr64] mov rax, [rdi] | [rdi + disp8] | [rdi + disp32] ; ret
 */
int insn_getter64_offset(uint16_t e_machine, const uint8_t *code, size_t len, uint32_t *offset);

/*
 * Field offset written by an arm64 float setter: the one offset that every
 * `str s0, [x0, #imm]` in @code stores to. -ENOTSUP when there is none, when two differ,
 * or for any other machine. It does not track writes to x0: use it to cross-check a getter.
 */
int insn_setter_offset(uint16_t e_machine, const uint8_t *code, size_t len, uint32_t *offset);

/*
 * Whether the setter at @vaddr (@len bytes, its symbol's size) leaves the value it sets at
 * [first argument + @field_off] when it returns, with nothing after the store that could
 * make a system call or run other code: a leaf (no call, no indirect branch, no branch out
 * of [vaddr, vaddr + len), no system call) with a 32-bit store to that address through a
 * register holding the node: the first argument's (x0 / rdi) or a 64-bit copy of it (gcc's
 * arm64 `mov x1, x0`), that no instruction of the setter writes otherwise (a write followed
 * by a return is the return value: arm64's w0). Stores accepted:
 *   EM_AARCH64: str|stur s<t>|w<t>, [xn, #field_off]
 *   EM_X86_64:  movss|movd [reg + field_off], xmm ; mov dword [reg + field_off], r32|imm32
 * Such a setter can be read at its thread's next event instead of at its return. Returns 0
 * with *store_at the first such store's vaddr; -EXDEV when it is not a leaf; -ENOENT when
 * it has no store to the field through the node; -ENOTSUP when the stores' register is also
 * written otherwise, an instruction cannot be sized (x86_64 VEX, EVEX), or for another
 * machine.
 */
int insn_setter_store(uint16_t e_machine, const uint8_t *code, size_t len, uint64_t vaddr,
		      uint32_t field_off, uint64_t *store_at);

/* How a call names its callee. */
enum insn_call_kind {
	INSN_CALL_DIRECT,   /* bl / call rel32: target is the callee or its PLT stub */
	INSN_CALL_GOT,	    /* x86_64 call *disp(%rip) (-fno-plt): target is the GOT slot */
	INSN_CALL_INDIRECT, /* blr / call through a register or memory: target is 0 */
};

/* A register holding an earlier call's return value plus a constant. */
struct insn_ret {
	bool valid;		  /* false: anything else (stack address, loaded, unknown) */
	enum insn_call_kind kind; /* of that call */
	uint64_t target;	  /* of that call, as in struct insn_call */
	uint64_t site;		  /* vaddr of that call */
	int64_t add;		  /* added since: add #imm, sub #imm, lea disp */
};

/* arm64 x0..x30, 31 = sp; x86_64 0..15 in ModRM order (0 rax, 3 rbx, 4 rsp, 7 rdi, 12 r12). */
#define INSN_NO_REG 0xff

struct insn_call {
	uint64_t site; /* vaddr of the call instruction */
	uint64_t target;
	enum insn_call_kind kind;
	/* The last instruction before the call that wrote the first argument (x0 / rdi). */
	uint64_t arg0_set_at; /* its vaddr; 0 when none in the scanned code */
	uint8_t arg0_base;    /* the register it read: add/sub #imm, mov, lea; else INSN_NO_REG */
	int64_t arg0_imm;     /* what it added to that register (0 for mov) */
	struct insn_ret arg0; /* the argument's value, when it is an earlier call's result */
};

/* Return non-zero to stop the scan; insn_scan_calls() then returns that value. */
typedef int (*insn_call_fn)(void *ctx, const struct insn_call *call);

/*
 * Calls @fn for every call in the code at @vaddr (@len bytes), in address order, with what
 * the first argument holds there. The scan is linear (branches are not followed) and tracks
 * values only through mov, add/sub #imm and lea; every other write makes a register unknown,
 * and calls end the caller-saved ones (x0-x18, x30; rax, rcx, rdx, rsi, rdi, r8-r11), after
 * which x0 / rax is the call's result. x86_64 decoding stops quietly at the first instruction
 * it cannot size (VEX, EVEX, invalid). Returns 0, @fn's value, or -ENOTSUP for other machines.
 */
int insn_scan_calls(uint16_t e_machine, const uint8_t *code, size_t len, uint64_t vaddr,
		    insn_call_fn fn, void *ctx);

/*
 * The GOT slot a PLT stub at @vaddr jumps through. Accepted (-ENOTSUP otherwise):
 *   EM_AARCH64: [bti c] adrp x16, P ; ldr x17, [x16, #lo] ; add x16, x16, #lo ; br x17
 *   EM_X86_64:  [endbr64] [bnd] jmp *disp(%rip)   (.plt, .plt.sec and .plt.got entries)
 */
int insn_plt_slot(uint16_t e_machine, const uint8_t *code, size_t len, uint64_t vaddr,
		  uint64_t *slot);

#endif
