// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The insn decoders: byte 0 picks the machine, the rest is code. */
#include <elf.h>
#include <errno.h>
#include <string.h>

#include "fuzz.h"
#include "insn.h"

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
	free(code);
	return 0;
}
