/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Protobuf wire format, for the Perfetto reader (replay/pftrace.c, pftimeline.c, pfframe.c):
 * a message is a bounded byte range (struct pb); pb_next reads one field of it. Every varint
 * is bounds-checked (at most 10 bytes) and every length is checked against what is left of
 * the enclosing message, so a damaged message yields -EINVAL, never a read past its end.
 * Pure, no allocation; the fields point into the message.
 */
#ifndef ANIMTRACE_PBWIRE_H
#define ANIMTRACE_PBWIRE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/marker.h"

enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2, WT_I32 = 5 };

struct pb {
	const uint8_t *p, *end;
};

struct pb_field {
	uint32_t id;
	int wt;
	uint64_t v;	     /* WT_VARINT, WT_I64, WT_I32 */
	const uint8_t *data; /* WT_LEN */
	size_t len;
};

static inline int pb_varint(struct pb *b, uint64_t *out)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 10 && b->p < b->end; i++) {
		uint8_t c = *b->p++;

		v |= (uint64_t)(c & 0x7f) << (7 * i);
		if (!(c & 0x80)) {
			*out = v;
			return 0;
		}
	}
	return -EINVAL; /* over 10 bytes or cut off */
}

static inline int pb_fixed(struct pb *b, size_t n, uint64_t *out)
{
	uint64_t v = 0;

	if ((size_t)(b->end - b->p) < n)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)b->p[i] << (8 * i);
	b->p += n;
	*out = v;
	return 0;
}

/* Reads the next field. Returns 1, 0 at the end of the message, -EINVAL when damaged. */
static inline int pb_next(struct pb *b, struct pb_field *f)
{
	uint64_t key, len;

	if (b->p >= b->end)
		return 0;
	if (pb_varint(b, &key) || (key >> 3) == 0 || (key >> 3) > 0x1fffffff)
		return -EINVAL;
	f->id = (uint32_t)(key >> 3);
	f->wt = (int)(key & 7);
	switch (f->wt) {
	case WT_VARINT:
		return pb_varint(b, &f->v) ? -EINVAL : 1;
	case WT_I64:
		return pb_fixed(b, 8, &f->v) ? -EINVAL : 1;
	case WT_I32:
		return pb_fixed(b, 4, &f->v) ? -EINVAL : 1;
	case WT_LEN:
		if (pb_varint(b, &len) || len > (uint64_t)(b->end - b->p))
			return -EINVAL;
		f->data = b->p;
		f->len = (size_t)len;
		b->p += len;
		return 1;
	default: /* groups (3, 4) are long deprecated; 6 and 7 do not exist */
		return -EINVAL;
	}
}

static inline struct pb pb_sub(const struct pb_field *f)
{
	return (struct pb){ f->data, f->data + f->len };
}

static inline struct strv pb_str(const struct pb_field *f)
{
	return (struct strv){ (const char *)f->data, f->len };
}

/* True when every field of b is well formed up to its end (nested ones are not opened). */
static inline bool pb_whole(struct pb b)
{
	struct pb_field f;
	int rc;

	while ((rc = pb_next(&b, &f)) == 1)
		;
	return rc == 0;
}

/* The index arrays' growth: doubles cap (from 256) when n reaches it; NULL when that fails. */
static inline void *pf_grow(void *arr, size_t *cap, size_t n, size_t size)
{
	size_t ncap;
	void *tmp;

	if (n < *cap)
		return arr;
	ncap = *cap ? *cap * 2 : 256;
	tmp = realloc(arr, ncap * size);
	if (tmp)
		*cap = ncap;
	return tmp;
}

#endif
