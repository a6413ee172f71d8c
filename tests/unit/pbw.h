/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* A protobuf writer just big enough for the unit tests of the Perfetto reader. */
#ifndef ANIMTRACE_TESTS_PBW_H
#define ANIMTRACE_TESTS_PBW_H

#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

struct pbw {
	uint8_t b[4096];
	size_t len;
};

static inline void w_varint(struct pbw *w, uint64_t v)
{
	do {
		cr_assert_lt(w->len, sizeof(w->b));
		w->b[w->len++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
}

static inline void w_uint(struct pbw *w, uint32_t id, uint64_t v)
{
	w_varint(w, (uint64_t)id << 3);
	w_varint(w, v);
}

static inline void w_bytes(struct pbw *w, uint32_t id, const void *p, size_t n)
{
	w_varint(w, (uint64_t)id << 3 | 2);
	w_varint(w, n);
	cr_assert_leq(w->len + n, sizeof(w->b));
	memcpy(w->b + w->len, p, n);
	w->len += n;
}

static inline void w_str(struct pbw *w, uint32_t id, const char *s)
{
	w_bytes(w, id, s, strlen(s));
}

static inline void w_msg(struct pbw *w, uint32_t id, const struct pbw *sub)
{
	w_bytes(w, id, sub->b, sub->len);
}

#endif
