/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Decodes the few instruction shapes that reveal where a RenderNode property lives: the
 * JNI getters are one load from the node plus a return, so the load's displacement is the
 * field offset a return probe on the setter reads. Pure; no ELF knowledge.
 */
#ifndef ANIMTRACE_INSN_H
#define ANIMTRACE_INSN_H

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

#endif
