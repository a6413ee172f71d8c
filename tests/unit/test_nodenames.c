// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* View class names of RenderNodes: validation, the bounded cache and its reasons, with a fake
 * target memory (a few regions) in place of process_vm_readv. */
#include <errno.h>
#include <string.h>

#include <criterion/criterion.h>

#include "live/nodenames.h"

#define NAME_OFF 0x28
#define UID_OFF 0x20

struct region {
	uint64_t addr;
	uint8_t bytes[256];
	size_t len;
};

struct fake_mem {
	struct region r[8];
	int n, reads;
};

static long fake_read(void *ctx, uint32_t pid, uint64_t addr, void *buf, size_t len)
{
	struct fake_mem *m = ctx;

	(void)pid;
	m->reads++;
	for (int i = 0; i < m->n; i++) {
		struct region *r = &m->r[i];

		if (addr >= r->addr && addr < r->addr + r->len) {
			size_t n = r->addr + r->len - addr < len ? r->addr + r->len - addr : len;

			memcpy(buf, r->bytes + (addr - r->addr), n);
			return (long)n;
		}
	}
	return -EFAULT;
}

static struct region *add_region(struct fake_mem *m, uint64_t addr, const void *b, size_t len)
{
	struct region *r = &m->r[m->n++];

	r->addr = addr;
	r->len = len;
	memcpy(r->bytes, b, len);
	return r;
}

/* A node at addr whose mName points at str (a region of its own) and whose id is uid. */
static void add_node(struct fake_mem *m, uint64_t addr, uint64_t str, const char *name,
		     uint64_t uid)
{
	uint8_t node[0x80] = { 0 };

	memcpy(node + NAME_OFF, &str, sizeof(str));
	memcpy(node + UID_OFF, &uid, sizeof(uid));
	add_region(m, addr, node, sizeof(node));
	if (name)
		add_region(m, str, name, strlen(name) + 1);
}

static const struct hwui_node_layout layout = { .name_off = NAME_OFF, .uniqueid_off = UID_OFF };

Test(nodenames, java_simple_class_names_pass_and_anything_else_does_not)
{
	char long_name[NODENAME_MAX + 2];

	cr_assert(nodename_is_class("NotificationRow", 15));
	cr_assert(nodename_is_class("_Outer$Inner2", 13));
	cr_assert(nodename_is_class("$", 1));
	cr_assert_not(nodename_is_class("", 0));
	cr_assert_not(nodename_is_class("2Fast", 5));
	cr_assert_not(nodename_is_class("com.android.Foo", 15));
	cr_assert_not(nodename_is_class("Row View", 8));
	cr_assert_not(nodename_is_class("Caf\xc3\xa9", 5));
	memset(long_name, 'A', sizeof(long_name));
	cr_assert(nodename_is_class(long_name, NODENAME_MAX));
	cr_assert_not(nodename_is_class(long_name, NODENAME_MAX + 1));
}

Test(nodenames, a_name_is_read_once_per_node_and_the_tag_bits_are_cleared_before_the_read)
{
	struct fake_mem m = { 0 };
	struct nodenames *nn = nodenames__new(fake_read, &m, NULL, 64);
	struct nodename got;
	struct node_name_stats st;

	add_node(&m, 0x7b0a80e0, 0x7c001000, "NotificationRow", 7);
	nodenames__get(nn, 42, 0xb40000007b0a80e0ULL, true, 7, &layout, &got);
	cr_assert_str_eq(got.name, "NotificationRow");
	cr_assert(got.fresh);
	cr_assert_eq(m.reads, 3, "pointer, string, id");
	nodenames__get(nn, 42, 0xb40000007b0a80e0ULL, true, 7, &layout, &got);
	cr_assert_str_eq(got.name, "NotificationRow");
	cr_assert_not(got.fresh);
	cr_assert_eq(m.reads, 3, "the second call is served from the cache");
	nodenames__stats(nn, &st);
	cr_assert(st.live);
	cr_assert_eq(st.named, 1);
	nodenames__free(nn);
}

Test(nodenames, a_new_unique_id_at_the_same_address_reads_the_name_again)
{
	struct fake_mem m = { 0 };
	struct nodenames *nn = nodenames__new(fake_read, &m, NULL, 64);
	struct nodename got;

	add_node(&m, 0x1000, 0x9000, "NotificationRow", 1);
	nodenames__get(nn, 1, 0x1000, true, 1, &layout, &got);
	cr_assert_str_eq(got.name, "NotificationRow");
	m.n = 0; /* freed; a QSPanel with id 2 now lives there */
	add_node(&m, 0x1000, 0xa000, "QSPanel", 2);
	nodenames__get(nn, 1, 0x1000, true, 2, &layout, &got);
	cr_assert_str_eq(got.name, "QSPanel");
	cr_assert(got.fresh);
	nodenames__free(nn);
}

Test(nodenames, a_record_of_a_node_already_replaced_in_memory_is_not_given_the_new_name)
{
	struct fake_mem m = { 0 };
	struct nodenames *nn = nodenames__new(fake_read, &m, NULL, 64);
	struct nodename got;
	struct node_name_stats st;

	add_node(&m, 0x1000, 0xa000, "QSPanel", 2);
	nodenames__get(nn, 1, 0x1000, true, 1, &layout, &got);
	cr_assert_null(got.name);
	cr_assert_eq(got.status, NODENAME_GONE);
	nodenames__stats(nn, &st);
	cr_assert_eq(st.gone, 1);
	cr_assert_eq(st.named, 0);
	nodenames__free(nn);
}

Test(nodenames, each_reason_is_counted_once_per_node)
{
	struct fake_mem m = { 0 };
	struct nodenames *nn = nodenames__new(fake_read, &m, NULL, 64);
	struct hwui_node_layout noname = { .name_err = -ENOENT };
	struct nodename got;
	struct node_name_stats st;
	char big[200];

	memset(big, 'A', sizeof(big));
	add_node(&m, 0x1000, 0x9000, "com.example.Dotted", 1);
	add_node(&m, 0x2000, 0xdead0000, NULL, 2); /* the string is not mapped */
	add_node(&m, 0x3000, 0x9800, NULL, 3);
	add_region(&m, 0x9800, big, sizeof(big)); /* no NUL within 129 bytes */
	for (int i = 0; i < 2; i++) {
		nodenames__get(nn, 1, 0x1000, true, 1, &layout, &got);
		cr_assert_eq(got.status, NODENAME_NOT_CLASS);
		nodenames__get(nn, 1, 0x2000, true, 2, &layout, &got);
		cr_assert_eq(got.status, NODENAME_UNREADABLE);
		nodenames__get(nn, 1, 0x3000, true, 3, &layout, &got);
		cr_assert_eq(got.status, NODENAME_NOT_CLASS);
		nodenames__get(nn, 1, 0x4000, false, 0, &noname, &got);
		cr_assert_eq(got.status, NODENAME_NO_OFFSET);
		nodenames__get(nn, 1, 0x5000, false, 0, NULL, &got);
		cr_assert_eq(got.status, NODENAME_NO_OFFSET);
		nodenames__get(nn, 1, 0x6000, false, 0, &layout, &got); /* nothing mapped there */
		cr_assert_eq(got.status, NODENAME_UNREADABLE);
		cr_assert_null(got.name);
	}
	nodenames__stats(nn, &st);
	cr_assert_eq(st.not_class, 2);
	cr_assert_eq(st.unreadable, 2);
	cr_assert_eq(st.no_offset, 2);
	cr_assert_eq(st.named + st.gone + st.evicted, 0);
	nodenames__free(nn);
}

Test(nodenames, the_cache_is_bounded_and_counts_what_it_evicts)
{
	struct fake_mem m = { 0 };
	struct nodenames *nn = nodenames__new(fake_read, &m, NULL, 8);
	struct nodename got;
	struct node_name_stats st;

	add_node(&m, 0x1000, 0x9000, "ScrimView", 1);
	/* Another process's nodes: same address, a different pid each, 40 of them. */
	for (uint32_t pid = 1; pid <= 40; pid++)
		nodenames__get(nn, pid, 0x1000, false, 0, &layout, &got);
	nodenames__stats(nn, &st);
	cr_assert_eq(st.named, 40);
	cr_assert_eq(st.evicted, 40 - 8, "8 entries kept, every further one evicts one");
	nodenames__free(nn);
}

Test(nodenames, a_process_that_exits_loses_its_names)
{
	struct fake_mem m = { 0 };
	struct nodenames *nn = nodenames__new(fake_read, &m, NULL, 64);
	struct nodename got;

	add_node(&m, 0x1000, 0x9000, "ScrimView", 1);
	nodenames__get(nn, 5, 0x1000, false, 0, &layout, &got);
	nodenames__forget(nn, 5);
	nodenames__get(nn, 5, 0x1000, false, 0, &layout, &got);
	cr_assert(got.fresh);
	cr_assert_str_eq(got.name, "ScrimView");
	nodenames__free(nn);
}
