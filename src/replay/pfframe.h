/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The top level of a Perfetto trace, Trace { repeated TracePacket packet = 1 }, read from a
 * struct pf_src (internal to replay/pftrace.c): a packet's field header, and where the next
 * whole packet starts after damage. Reads the source and nothing else, never more than a
 * small window of it at a time (64 KiB held at most), in time linear in the bytes scanned.
 */
#ifndef ANIMTRACE_PFFRAME_H
#define ANIMTRACE_PFFRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "replay/pftrace.h"

#define PF_PACKET_MAX (16u << 20) /* one TracePacket, or one inflated compressed_packets */

/* A top-level field header at off: key and length of a LEN field, and the header size. */
struct pf_hdr {
	uint64_t key, len;
	size_t size;
};

/* Reads a LEN field's header from the avail bytes at p; false when it is not one or is cut. */
bool pf_read_hdr(const uint8_t *p, size_t avail, struct pf_hdr *h);

/*
 * The next offset after off where a whole TracePacket provably starts (a 0x0a header whose
 * length fits the source, PF_PACKET_MAX at most, fields that parse to exactly its end, then
 * another 0x0a or the end of the source), or src->size when none does.
 */
uint64_t pf_resync(const struct pf_src *src, uint64_t off);

#endif
