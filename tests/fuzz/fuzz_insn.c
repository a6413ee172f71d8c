// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The insn decoders: byte 0 picks the machine, the rest is code. */
#include <elf.h>
#include <errno.h>
#include <string.h>

#include "fuzz.h"
#include "symbols/insn.h"

#define FUZZ_VADDR 0x7f0000001000ull

/* Every reported call lies in the code, in address order, with sane register numbers. */
static int check_call(void *ctx, const struct insn_call *c)
{
	uint64_t *last = ctx;
	const uint64_t end = last[1];

	FUZZ_CHECK(c->site >= FUZZ_VADDR && c->site < end && (!last[0] || c->site > last[0]));
	FUZZ_CHECK(c->kind == INSN_CALL_DIRECT || c->kind == INSN_CALL_GOT ||
		   c->kind == INSN_CALL_INDIRECT);
	FUZZ_CHECK(c->kind != INSN_CALL_INDIRECT || c->target == 0);
	FUZZ_CHECK(c->arg0_base < 32 || c->arg0_base == INSN_NO_REG);
	FUZZ_CHECK(!c->arg0_set_at || (c->arg0_set_at >= FUZZ_VADDR && c->arg0_set_at < c->site));
	FUZZ_CHECK(!c->arg0.valid || (c->arg0.site >= FUZZ_VADDR && c->arg0.site < c->site));
	last[0] = c->site;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint16_t machine;
	uint8_t *code;
	uint32_t off;
	size_t len;
	int err;

	if (size < 1)
		return 0;
	machine = (data[0] & 1) ? EM_X86_64 : EM_AARCH64;
	if (data[0] & 2)
		machine = data[0] >> 2; /* anything else, including EM_NONE, must be refused */
	len = size - 1;
	code = malloc(len ? len : 1);
	if (!code)
		return 0;
	memcpy(code, data + 1, len);
	err = insn_getter_offset(machine, code, len, &off);
	FUZZ_CHECK(err == 0 || err == -ENOTSUP);
	if (!err)
		FUZZ_CHECK(off <= INT32_MAX);
	err = insn_getter64_offset(machine, code, len, &off);
	FUZZ_CHECK(err == 0 || err == -ENOTSUP);
	if (!err)
		FUZZ_CHECK(off <= INT32_MAX && (machine != EM_AARCH64 || off % 8 == 0));
	err = insn_setter_offset(machine, code, len, &off);
	FUZZ_CHECK(err == 0 || err == -ENOTSUP);
	if (!err)
		FUZZ_CHECK(machine == EM_AARCH64 && off % 4 == 0 && off < 4 * 4096);
	uint64_t last[2] = { 0, FUZZ_VADDR + len }, slot;

	err = insn_scan_calls(machine, code, len, FUZZ_VADDR, check_call, last);
	FUZZ_CHECK(err == 0 || (err == -ENOTSUP && machine != EM_AARCH64 && machine != EM_X86_64));
	err = insn_plt_slot(machine, code, len, FUZZ_VADDR, &slot);
	FUZZ_CHECK(err == 0 || err == -ENOTSUP);
	free(code);
	return 0;
}
