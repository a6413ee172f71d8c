// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Framing of a Perfetto trace's top level (see pfframe.h): field headers, and the resync
 * scan that finds the next whole packet after damage.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/pbwire.h"
#include "replay/pfframe.h"

#define PF_SCAN_BYTES (64u << 10) /* the view resync scans through */

bool pf_read_hdr(const uint8_t *p, size_t avail, struct pf_hdr *h)
{
	struct pb b = { p, p + avail };

	if (pb_varint(&b, &h->key) || (h->key & 7) != WT_LEN || pb_varint(&b, &h->len))
		return false;
	h->size = (size_t)(b.p - p);
	return true;
}

/*
 * A view of the source for resync, which must not read a candidate's whole body (a random
 * length made the scan quadratic): bytes [base, base + n) of it, cap at most.
 */
struct pf_win {
	uint64_t base;
	size_t n, cap;
	uint8_t *b;
};

/*
 * Points *p at the bytes from off on, at least want of them unless the source ends first;
 * reads cap bytes at off when the view does not hold them. Returns how many there are from
 * off in the view (0 at the end of the source or on a read error).
 */
static size_t win_at(const struct pf_src *src, struct pf_win *w, uint64_t off, size_t want,
		     const uint8_t **p)
{
	bool inside = off >= w->base && off <= w->base + w->n;
	ssize_t r;

	if (!inside || (off - w->base + want > w->n && w->base + w->n < src->size)) {
		r = src->read(src->ctx, w->b, w->cap, off);
		w->base = off;
		w->n = r > 0 ? (size_t)r : 0;
	}
	*p = w->b + (off - w->base);
	return w->n - (size_t)(off - w->base);
}

/* win_at from the scan's view when it holds the bytes, else from the probe's. */
static size_t probe_at(const struct pf_src *src, struct pf_win *w, uint64_t off, size_t want,
		       const uint8_t **p)
{
	const struct pf_win *s = w + 1;

	if (off >= s->base && off - s->base + want <= s->n) {
		*p = s->b + (off - s->base);
		return s->n - (size_t)(off - s->base);
	}
	return win_at(src, w, off, want, p);
}

/* pb_whole of the bytes [off, end) of the source, read a field header at a time. */
static bool pb_whole_at(const struct pf_src *src, struct pf_win *w, uint64_t off, uint64_t end)
{
	const uint8_t *p;
	uint64_t key, v;
	size_t n;
	struct pb b;

	while (off < end) {
		n = probe_at(src, w, off, 20, &p); /* a key and a varint: 10 bytes each at most */
		b = (struct pb){ p, p + (n < end - off ? n : (size_t)(end - off)) };
		if (pb_varint(&b, &key) || (key >> 3) == 0 || (key >> 3) > 0x1fffffff)
			return false;
		if ((key & 7) == WT_VARINT || (key & 7) == WT_LEN) {
			if (pb_varint(&b, &v))
				return false;
		} else {
			v = (key & 7) == WT_I64 ? 8 : (key & 7) == WT_I32 ? 4 : UINT64_MAX;
		}
		off += (uint64_t)(b.p - p);
		if ((key & 7) != WT_VARINT && v > end - off)
			return false; /* a length or fixed field past the end, or a group */
		off += (key & 7) == WT_VARINT ? 0 : v;
	}
	return true;
}

/*
 * packet_at(resyncing) for the resync scan: header and length first, then the byte after
 * the packet, then its fields, each read only once the cheaper test passed.
 */
static bool candidate_at(const struct pf_src *src, struct pf_win w[2], uint64_t off)
{
	struct pf_win *probe = &w[0], *scan = &w[1];
	const uint8_t *p;
	size_t n = win_at(src, scan, off, 16, &p);
	struct pf_hdr h;
	uint64_t next;

	if (n < 2 || p[0] != 0x0a || !pf_read_hdr(p, n < 16 ? n : 16, &h) ||
	    h.len > PF_PACKET_MAX || h.len + h.size > src->size - off)
		return false;
	next = off + h.size + h.len;
	if (next < src->size && (probe_at(src, probe, next, 1, &p) < 1 || *p != 0x0a))
		return false;
	return pb_whole_at(src, probe, off + h.size, next);
}

/* The next offset after off where packet_at(resyncing) holds, or src->size when none does.
 * Linear in the bytes scanned: each 0x0a costs a few header reads, never its body. */
uint64_t pf_resync(const struct pf_src *src, uint64_t off)
{
	uint8_t probe_buf[64], small[64];
	/* [0]: far reads (the byte after a candidate, its fields); [1]: the scan itself */
	struct pf_win w[2] = { { .cap = sizeof(probe_buf), .b = probe_buf },
			       { .cap = PF_SCAN_BYTES, .b = malloc(PF_SCAN_BYTES) } };
	uint64_t found = src->size;
	const uint8_t *p, *hit;
	size_t n;

	if (!w[1].b) /* no memory for the view: smaller reads, still linear */
		w[1] = (struct pf_win){ .cap = sizeof(small), .b = small };
	for (off++; off < src->size; off++) {
		n = win_at(src, &w[1], off, 16, &p);
		if (n == 0)
			break;
		hit = memchr(p, 0x0a, n);
		if (!hit) {
			off += n - 1;
			continue;
		}
		off += (uint64_t)(hit - p);
		if (candidate_at(src, w, off)) {
			found = off;
			break;
		}
	}
	if (w[1].b != small)
		free(w[1].b);
	return found;
}
