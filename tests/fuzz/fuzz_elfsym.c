// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * elfsym__open_mem on the input, then what probe setup does with a symbol: find it, map its
 * vaddr to a file offset, read its code and decode it, name the targets of the calls in it
 * (by address, PLT stub and GOT relocation). The names looked up are the ones animtrace
 * wants plus NUL-terminated strings of the input itself, so mutated string tables are looked
 * up by the names they now hold. An input starting with "APS2" is also decoded as a packed
 * relocation table.
 */
#include <errno.h>
#include <string.h>

#include "symbols/elfsym.h"
#include "fuzz.h"
#include "symbols/insn.h"

#define MAX_INPUT_NAMES 32
#define MAX_NAME_LEN 256
#define MAX_HITS 8
#define CODE_MAX 4096

static const char *const fixed_names[] = {
	"_ZN7androidL32android_view_RenderNode_getAlphaEl",
	"_ZN7androidL32android_view_RenderNode_setAlphaElf",
	"atrace_async_begin_body",
	"oatdata",
	"android.animation.ValueAnimator.getDurationScale",
	"main",
	"",
	"x.llvm.123",
	"_ZN7androidL30android_view_RenderNode_createEP7_JNIEnvP8_jobjectP8_jstring",
};

/* What hwui does with each call of RenderNode create: name its target. */
static int name_target(void *ctx, const struct insn_call *c)
{
	const struct elfsym *s = ctx;
	struct elfsym_hit h;
	const char *name = NULL;
	uint8_t stub[16];
	uint64_t slot = c->target;

	if (c->kind == INSN_CALL_DIRECT && elfsym__find_addr(s, c->target, &h) == 0) {
		FUZZ_CHECK(h.vaddr == c->target);
		return 0;
	}
	if (c->kind == INSN_CALL_DIRECT &&
	    (elfsym__read(s, c->target, stub, sizeof(stub)) ||
	     insn_plt_slot(elfsym__machine(s), stub, sizeof(stub), c->target, &slot)))
		return 0;
	if (c->kind != INSN_CALL_INDIRECT && elfsym__got_symbol(s, slot, &name) == 0)
		FUZZ_CHECK(name && strlen(name) > 0);
	return 0;
}

static int count_rel(void *ctx, const struct elfsym_rel *rel)
{
	(*(size_t *)ctx)++;
	(void)rel;
	return 0;
}

static void check_hit(const struct elfsym *s, const struct elfsym_hit *h)
{
	static uint8_t code[CODE_MAX];
	uint64_t off;
	size_t n;
	uint32_t field;

	FUZZ_CHECK(h->name && (unsigned int)h->table < ELFSYM_NR_TABLES);
	(void)strlen(h->name);
	if (elfsym__vaddr_to_offset(s, h->vaddr, &off) == 0)
		FUZZ_CHECK(off == h->offset);
	else
		FUZZ_CHECK(h->offset == ELFSYM_NO_OFFSET);
	n = h->size && h->size < CODE_MAX ? (size_t)h->size : 16;
	if (elfsym__read(s, h->vaddr, code, n) != 0)
		return;
	(void)insn_getter_offset(elfsym__machine(s), code, n, &field);
	(void)insn_setter_offset(elfsym__machine(s), code, n, &field);
	(void)insn_scan_calls(elfsym__machine(s), code, n, h->vaddr, name_target, (void *)s);
}

static void lookup(const struct elfsym *s, const char *name)
{
	struct elfsym_hit hits[MAX_HITS], one;
	int i, n;

	if (elfsym__find(s, name, &one) == 0)
		check_hit(s, &one);
	n = elfsym__find_all(s, name, hits, MAX_HITS);
	FUZZ_CHECK(n >= 0);
	for (i = 0; i < n && i < MAX_HITS; i++)
		check_hit(s, &hits[i]);
}

/* Looks up the input's own printable strings: the names its symbol tables are likely to hold. */
static void lookup_input_names(const struct elfsym *s, const uint8_t *data, size_t size)
{
	char name[MAX_NAME_LEN + 1];
	size_t i = 0, start, found = 0;

	while (i < size && found < MAX_INPUT_NAMES) {
		start = i;
		while (i < size && data[i] >= 0x21 && data[i] < 0x7f && i - start < MAX_NAME_LEN)
			i++;
		if (i < size && data[i] == 0 && i - start >= 4) {
			memcpy(name, data + start, i - start);
			name[i - start] = '\0';
			lookup(s, name);
			found++;
		}
		i++;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elfsym *s;
	size_t i, n = 0;
	int err;

	if (size >= 4 && !memcmp(data, "APS2", 4)) {
		err = elfsym_aps2_decode(data, size, data[size - 1] & 1, count_rel, &n);
		FUZZ_CHECK((err == 0 || err == -EBADMSG) && n <= ELFSYM_APS2_MAX);
	}
	s = elfsym__open_mem(data, size);
	if (!s) {
		FUZZ_CHECK(errno == EINVAL || errno == ENOMEM);
		return 0;
	}
	err = elfsym__debugdata_err(s);
	FUZZ_CHECK(err == 0 || err == -EBADMSG || err == -EFBIG || err == -ENOMEM);
	for (i = 0; i < ELFSYM_NR_TABLES; i++)
		(void)elfsym__count(s, (enum elfsym_table)i);
	for (i = 0; i < sizeof(fixed_names) / sizeof(fixed_names[0]); i++)
		lookup(s, fixed_names[i]);
	lookup_input_names(s, data, size);
	elfsym__free(s);
	return 0;
}
