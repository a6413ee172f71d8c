// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Perfetto protobuf traces. One validating pass, a packet at a time, indexes print events
 * (payloads copied, capped) and thread names (merged per tid as they come, capped).
 * The wire format is replay/pbwire.h, the top-level framing and resync replay/pfframe.c,
 * FrameTimeline decoding and pairing replay/pftimeline.c.
 */
#include <errno.h>
#include <sys/types.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/frametimeline.h"
#include "model/model.h"
#include "replay/pbwire.h"
#include "replay/pfframe.h"
#include "replay/pftimeline.h"
#include "replay/pftrace.h"
#include "replay/pftrackevent.h"

/* ---- the index --------------------------------------------------------------------- */

enum name_rank { RANK_SCHED = 1, RANK_THREAD = 2, RANK_CMDLINE = 3 };

/* Bounds that keep a replay's memory flat whatever the trace holds (see pftrace.h). */
#define PF_PRINTS_MAX (1u << 19)   /* print events indexed (16 MiB of index) */
#define PF_PAYLOAD_MAX (16u << 20) /* bytes of their payloads */
#define PF_THREADS_MAX (1u << 16)  /* distinct tids named */
#define PF_NAME_MAX AT_PROC_MAX	   /* what the engine keeps of a name */

struct print_rec {
	uint64_t ts_ns, seq;
	int32_t tid;
	uint32_t len;
	uint32_t off; /* into payload */
};

/* One thread as known so far: the best name (rank, latest among equals), the last tgid. */
struct thread_rec {
	int32_t tid, tgid;
	int rank; /* of the name; 0 when there is none */
	uint8_t name_len;
	char name[PF_NAME_MAX];
};

struct timeline;

struct pftrace {
	struct print_rec *prints;
	size_t n_prints, cap_prints;
	char *payload;
	size_t payload_len, payload_cap;
	struct thread_rec *recs; /* in first-seen order */
	size_t n_recs, cap_recs;
	int32_t *slots; /* open addressing on tid: index + 1 into recs, 0 = empty */
	size_t n_slots;
	struct pf_thread *threads; /* from recs, sorted by tid */
	size_t n_threads;
	uint8_t *pkt; /* the packet being read */
	size_t pkt_cap;
	uint64_t seq, malformed;
	struct pf_damage dmg;
	int err;	     /* ENOMEM seen */
	struct timeline *tl; /* FrameTimeline frames: NULL until the first event */
	struct pfte *te;     /* TrackEvent CUJs: NULL until the first TrackEvent packet */
};

static bool payload_room(struct pftrace *t, size_t len)
{
	size_t ncap;
	char *tmp;

	if (t->payload_len + len <= t->payload_cap)
		return true;
	if (t->payload_len + len > PF_PAYLOAD_MAX)
		return false;
	ncap = t->payload_cap ? t->payload_cap : 1 << 16;
	while (ncap < t->payload_len + len)
		ncap *= 2;
	ncap = ncap < PF_PAYLOAD_MAX ? ncap : PF_PAYLOAD_MAX;
	tmp = realloc(t->payload, ncap);
	if (!tmp) {
		t->err = ENOMEM;
		return false;
	}
	t->payload = tmp;
	t->payload_cap = ncap;
	return true;
}

/* The payload is copied: the packet it came from is reused for the next one. */
static void add_print(struct pftrace *t, const struct pf_print *p)
{
	struct print_rec *tmp;

	if (t->n_prints >= PF_PRINTS_MAX || !payload_room(t, p->buf.len)) {
		t->dmg.dropped_prints++;
		return;
	}
	tmp = pf_grow(t->prints, &t->cap_prints, t->n_prints, sizeof(*tmp));
	if (!tmp) {
		t->err = ENOMEM;
		return;
	}
	t->prints = tmp;
	memcpy(t->payload + t->payload_len, p->buf.p, p->buf.len);
	t->prints[t->n_prints++] = (struct print_rec){ p->ts_ns, t->seq++, p->tid,
						       (uint32_t)p->buf.len,
						       (uint32_t)t->payload_len };
	t->payload_len += p->buf.len;
}

static size_t slot_of(const struct pftrace *t, int32_t tid)
{
	size_t i = ((uint32_t)tid * 2654435761u) & (t->n_slots - 1);

	while (t->slots[i] && t->recs[t->slots[i] - 1].tid != tid)
		i = (i + 1) & (t->n_slots - 1);
	return i;
}

/* Doubles the hash table once it is half full. */
static int rehash(struct pftrace *t)
{
	size_t n = t->n_slots ? t->n_slots * 2 : 1024;
	int32_t *old = t->slots;

	t->slots = calloc(n, sizeof(*t->slots));
	if (!t->slots) {
		t->slots = old;
		return -ENOMEM;
	}
	t->n_slots = n;
	for (size_t i = 0; i < t->n_recs; i++)
		t->slots[slot_of(t, t->recs[i].tid)] = (int32_t)i + 1;
	free(old);
	return 0;
}

static struct thread_rec *thread_get(struct pftrace *t, int32_t tid)
{
	struct thread_rec *tmp;
	size_t i;

	if (t->n_slots && t->slots[i = slot_of(t, tid)])
		return &t->recs[t->slots[i] - 1];
	if (t->n_recs >= PF_THREADS_MAX) {
		t->dmg.dropped_threads++;
		return NULL;
	}
	if ((t->n_recs + 1) * 2 > t->n_slots && rehash(t))
		goto nomem;
	tmp = pf_grow(t->recs, &t->cap_recs, t->n_recs, sizeof(*tmp));
	if (!tmp)
		goto nomem;
	t->recs = tmp;
	t->recs[t->n_recs] = (struct thread_rec){ .tid = tid, .tgid = -1 };
	t->slots[slot_of(t, tid)] = (int32_t)++t->n_recs;
	return &t->recs[t->n_recs - 1];
nomem:
	t->err = ENOMEM;
	return NULL;
}

/*
 * One thread per tid: the last known tgid, and the name from the best source (argv[0]
 * beats a thread name or rename, which beat a sched comm), the latest among equals.
 */
static void add_name(struct pftrace *t, int32_t tid, int32_t tgid, struct strv name, int rank)
{
	struct thread_rec *r;

	if (tid <= 0 || !(r = thread_get(t, tid)))
		return;
	if (tgid > 0)
		r->tgid = tgid;
	if (!name.len || rank < r->rank)
		return;
	r->rank = rank;
	r->name_len = (uint8_t)(name.len < PF_NAME_MAX - 1 ? name.len : PF_NAME_MAX - 1);
	memcpy(r->name, name.p, r->name_len);
}

/* ---- messages ---------------------------------------------------------------------- */

/* pb_next that counts a damaged message once (the caller then leaves it, and what it held). */
static bool next_field(struct pftrace *t, struct pb *b, struct pb_field *f, int *rc)
{
	*rc = pb_next(b, f);
	if (*rc < 0) {
		t->malformed++;
		t->dmg.bad_messages++;
	}
	return *rc == 1;
}

/* Returns true when the print message was intact. */
static bool read_print(struct pftrace *t, struct pb b, struct pf_print *p)
{
	struct pb_field f;
	int rc;

	while (next_field(t, &b, &f, &rc))
		if (f.id == 2 && f.wt == WT_LEN)
			p->buf = pb_str(&f);
	return rc == 0;
}

/* SchedSwitch {prev_comm=1, prev_pid=2, next_comm=5, next_pid=6}: two names. */
static void read_sched_switch(struct pftrace *t, struct pb b)
{
	struct strv comm[2] = { { "", 0 }, { "", 0 } };
	int32_t pid[2] = { 0, 0 };
	struct pb_field f;
	int rc;

	while (next_field(t, &b, &f, &rc)) {
		if ((f.id == 1 || f.id == 5) && f.wt == WT_LEN)
			comm[f.id == 5] = pb_str(&f);
		else if ((f.id == 2 || f.id == 6) && f.wt == WT_VARINT)
			pid[f.id == 6] = (int32_t)f.v;
	}
	if (rc < 0)
		return;
	for (int i = 0; i < 2; i++)
		add_name(t, pid[i], -1, comm[i], RANK_SCHED);
}

/* TaskNewtask {pid=1, comm=2} and TaskRename {pid=1, newcomm=3}. */
static void read_task(struct pftrace *t, struct pb b, uint32_t comm_id, int rank)
{
	struct strv comm = { "", 0 };
	struct pb_field f;
	int32_t pid = 0;
	int rc;

	while (next_field(t, &b, &f, &rc)) {
		if (f.id == 1 && f.wt == WT_VARINT)
			pid = (int32_t)f.v;
		else if (f.id == comm_id && f.wt == WT_LEN)
			comm = pb_str(&f);
	}
	if (rc == 0)
		add_name(t, pid, -1, comm, rank);
}

static void read_event(struct pftrace *t, struct pb b)
{
	struct pf_print p = { .buf = { "", 0 } };
	struct pb_field f;
	bool is_print = false;
	int rc;

	while (next_field(t, &b, &f, &rc)) {
		if (f.id == 1 && f.wt == WT_VARINT) {
			p.ts_ns = f.v;
		} else if (f.id == 2 && f.wt == WT_VARINT) {
			p.tid = (int32_t)f.v;
		} else if (f.wt != WT_LEN) {
			continue;
		} else if (f.id == 3) {
			is_print = read_print(t, pb_sub(&f), &p);
		} else if (f.id == 4) {
			read_sched_switch(t, pb_sub(&f));
		} else if (f.id == 235) {
			read_task(t, pb_sub(&f), 2, RANK_SCHED);
		} else if (f.id == 236) {
			read_task(t, pb_sub(&f), 3, RANK_THREAD);
		}
	}
	if (rc == 0 && is_print)
		add_print(t, &p);
}

/* Index of the n-th intern_table (5) string of a CompactSched message. */
static struct strv intern_at(struct pb b, uint64_t n)
{
	struct pb_field f;

	while (pb_next(&b, &f) == 1)
		if (f.id == 5 && f.wt == WT_LEN && n-- == 0)
			return pb_str(&f);
	return (struct strv){ "", 0 };
}

/* CompactSched: packed pids (3 switch_next_pid, 8 waking_pid) and comm indexes (6, 11). */
static void read_compact_pairs(struct pftrace *t, struct pb msg, uint32_t pid_id, uint32_t comm_id)
{
	struct pb b = msg, pids = { NULL, NULL }, comms = { NULL, NULL };
	struct pb_field f;
	uint64_t pid, idx;

	while (pb_next(&b, &f) == 1) {
		if (f.wt == WT_LEN && f.id == pid_id)
			pids = pb_sub(&f);
		else if (f.wt == WT_LEN && f.id == comm_id)
			comms = pb_sub(&f);
	}
	while (pids.p < pids.end && comms.p < comms.end) {
		if (pb_varint(&pids, &pid) || pb_varint(&comms, &idx)) {
			t->malformed++;
			t->dmg.bad_messages++;
			return;
		}
		add_name(t, (int32_t)pid, -1, intern_at(msg, idx), RANK_SCHED);
	}
}

/*
 * After damage at p inside b: the next byte `tag` from which a LEN field parses whole and
 * is followed by another `tag` or the end of b (b.end when there is none).
 */
static const uint8_t *resync_mem(struct pb b, const uint8_t *p, uint8_t tag)
{
	struct pb_field f;
	struct pb c;

	for (p++; p < b.end; p++) {
		c = (struct pb){ p, b.end };
		if (*p != tag || pb_next(&c, &f) != 1 || f.wt != WT_LEN)
			continue;
		if ((c.p == b.end || *c.p == tag) && pb_whole(pb_sub(&f)))
			return p;
	}
	return b.end;
}

/* FtraceEventBundle: a damaged event is skipped up to the next one that parses. */
static void read_bundle(struct pftrace *t, struct pb b)
{
	const struct pb whole = b;
	const uint8_t *at, *to;
	struct pb_field f;
	int rc;

	for (;;) {
		at = b.p;
		if ((rc = pb_next(&b, &f)) != 1) {
			if (rc == 0)
				break;
			t->malformed++;
			to = resync_mem(whole, at, 0x12);
			t->dmg.skipped_events++;
			t->dmg.skipped_bytes += (uint64_t)(to - at);
			b.p = to;
			continue;
		}
		if (f.wt != WT_LEN)
			continue;
		if (f.id == 2) {
			read_event(t, pb_sub(&f));
		} else if (f.id == 4) {
			read_compact_pairs(t, pb_sub(&f), 3, 6);
			read_compact_pairs(t, pb_sub(&f), 8, 11);
		}
	}
}

/* Process {pid=1, cmdline=3}: the main thread is named by argv[0]. */
static void read_process(struct pftrace *t, struct pb b)
{
	struct strv argv0 = { "", 0 };
	bool have_argv0 = false;
	struct pb_field f;
	int32_t pid = 0;
	int rc;

	while (next_field(t, &b, &f, &rc)) {
		if (f.id == 1 && f.wt == WT_VARINT) {
			pid = (int32_t)f.v;
		} else if (f.id == 3 && f.wt == WT_LEN && !have_argv0) {
			argv0 = pb_str(&f);
			have_argv0 = true;
		}
	}
	if (rc == 0)
		add_name(t, pid, pid, argv0, RANK_CMDLINE);
}

/* Thread {tid=1, name=2, tgid=3}. */
static void read_thread(struct pftrace *t, struct pb b)
{
	struct strv name = { "", 0 };
	int32_t tid = 0, tgid = -1;
	struct pb_field f;
	int rc;

	while (next_field(t, &b, &f, &rc)) {
		if (f.id == 1 && f.wt == WT_VARINT)
			tid = (int32_t)f.v;
		else if (f.id == 2 && f.wt == WT_LEN)
			name = pb_str(&f);
		else if (f.id == 3 && f.wt == WT_VARINT)
			tgid = (int32_t)f.v > 0 ? (int32_t)f.v : -1;
	}
	if (rc == 0)
		add_name(t, tid, tgid, name, RANK_THREAD);
}

static void read_process_tree(struct pftrace *t, struct pb b)
{
	struct pb_field f;
	int rc;

	while (next_field(t, &b, &f, &rc)) {
		if (f.id == 1 && f.wt == WT_LEN)
			read_process(t, pb_sub(&f));
		else if (f.id == 2 && f.wt == WT_LEN)
			read_thread(t, pb_sub(&f));
	}
}

static uint64_t read_trace_mem(struct pftrace *t, const uint8_t *p, size_t len, int depth,
			       bool more);

/* The inflated bytes of a compressed_packets parsed so far, and what is left of them. */
struct inflater {
	z_stream z;
	uint8_t *buf;
	size_t have, cap;
};

/* Inflates into the room left in the buffer, growing it up to PF_PACKET_MAX. Z_OK while there
 * is more to come, Z_STREAM_END at its end, else the zlib error. */
static int inflate_some(struct inflater *in)
{
	size_t ncap;
	uint8_t *tmp;
	int zrc;

	if (in->have == in->cap && in->cap < PF_PACKET_MAX) {
		ncap = in->cap ? in->cap * 2 : 1u << 16;
		ncap = ncap < PF_PACKET_MAX ? ncap : PF_PACKET_MAX;
		tmp = realloc(in->buf, ncap);
		if (!tmp)
			return Z_MEM_ERROR;
		in->buf = tmp;
		in->cap = ncap;
	}
	in->z.next_out = in->buf + in->have;
	in->z.avail_out = (uInt)(in->cap - in->have);
	zrc = inflate(&in->z, Z_NO_FLUSH);
	in->have = in->cap - in->z.avail_out;
	if (zrc != Z_BUF_ERROR)
		return zrc;
	/* No progress: with no room left, the caller reads some out; else the stream is cut. */
	return in->z.avail_out ? Z_DATA_ERROR : Z_OK;
}

/*
 * compressed_packets (TracePacket field 50): a zlib-deflated Trace, one level only, read a
 * window at a time: whole packets are parsed as soon as they are inflated, so a block that
 * inflates past PF_PACKET_MAX loses nothing, and a damaged one keeps the packets before
 * its damage. A block that does not inflate whole is counted once (bad_blocks).
 */
static void read_compressed(struct pftrace *t, const struct pb_field *f, int depth)
{
	struct inflater in = { .z = { .next_in = (Bytef *)f->data, .avail_in = (uInt)f->len } };
	uint64_t used;
	int zrc = Z_DATA_ERROR;

	if (depth > 0 || f->len > UINT32_MAX || inflateInit(&in.z) != Z_OK)
		goto bad;
	while ((zrc = inflate_some(&in)) == Z_OK) {
		if (in.have < in.cap || in.cap < PF_PACKET_MAX)
			continue;
		used = read_trace_mem(t, in.buf, in.have, depth + 1, true);
		if (used == 0) { /* one packet over PF_PACKET_MAX: skipped like a damaged one */
			t->dmg.skipped_packets++;
			t->dmg.skipped_bytes += in.have;
			used = in.have;
		}
		memmove(in.buf, in.buf + used, in.have - (size_t)used);
		in.have -= (size_t)used;
	}
	inflateEnd(&in.z);
	used = read_trace_mem(t, in.buf, in.have, depth + 1, false);
	free(in.buf);
	if (zrc == Z_STREAM_END && used == in.have)
		return;
	if (zrc == Z_MEM_ERROR)
		t->err = ENOMEM;
bad:
	t->malformed++;
	t->dmg.bad_blocks++;
}

/* A frame_timeline_event (76), with its packet's timestamp (8) and clock (58). */
static void read_timeline(struct pftrace *t, const struct pb_field *f, uint64_t ts, uint32_t clock)
{
	if (!t->tl && !(t->tl = pftl_new())) {
		t->err = ENOMEM;
		return;
	}
	if (pftl_event(t->tl, f, ts, clock))
		t->err = ENOMEM;
}

/* A TrackEvent CUJ restated as a marker (replay/pftrackevent.h): indexed as a print event. */
static void te_print(void *ctx, uint64_t ts_ns, int32_t tid, const char *payload, size_t len)
{
	add_print(ctx, &(struct pf_print){ ts_ns, tid, { payload, len } });
}

/* The packet's TrackEvent parts (replay/pftrackevent.h), once it is read whole. */
static void read_track_event(struct pftrace *t, const struct pfte_packet *p)
{
	if (!t->te && !(t->te = pfte__new(te_print, t))) {
		t->err = ENOMEM;
		return;
	}
	if (pfte__packet(t->te, p))
		t->err = ENOMEM;
}

/* TracePacket fields of TrackEvent (pftrackevent.h): the varints, then the messages. */
static void te_field(struct pfte_packet *te, const struct pb_field *f)
{
	if (f->wt == WT_VARINT) {
		te->seq = f->id == 10 ? (uint32_t)f->v : te->seq;
		te->cleared |= (f->id == 13 && (f->v & 1)) || (f->id == 41 && f->v);
	} else if (f->wt == WT_LEN) {
		if (f->id == 11)
			te->ev = *f;
		else if (f->id == 12)
			te->interned = *f;
		else if (f->id == 59)
			te->defaults = *f;
		else if (f->id == 60)
			te->desc = *f;
	}
}
/*
 * FrameTimeline is SurfaceFlinger's (uid 1000, AID_SYSTEM: surfaceflinger.rc `user system`),
 * but any producer may register a data source of that name. traced stamps each packet with its
 * producer's uid (TracePacket.trusted_uid = 3, google/perfetto
 * protos/perfetto/trace/trace_packet.proto), which a producer cannot set: the Pixel 6a and 7 Pro
 * Android 13 captures in ../shared/testdata stamp every frame_timeline_event packet 1000.
 */
#define FRAMETIMELINE_UID 1000

static void read_packet(struct pftrace *t, struct pb b, int depth)
{
	struct pb_field f, timeline = { .id = 0 };
	struct pfte_packet te = { .seq = 0 };
	uint64_t ts = 0;
	uint32_t clock = 0;
	bool untrusted = false;
	int rc;

	while (next_field(t, &b, &f, &rc)) {
		if (f.id == 8 && f.wt == WT_VARINT)
			ts = f.v;
		else if (f.id == 58 && f.wt == WT_VARINT)
			clock = (uint32_t)f.v;
		else if (f.id == 3 && f.wt == WT_VARINT) /* trusted_uid, int32 */
			untrusted = (int32_t)f.v != FRAMETIMELINE_UID;
		te_field(&te, &f);
		if (f.wt != WT_LEN)
			continue;
		if (f.id == 1)
			read_bundle(t, pb_sub(&f));
		else if (f.id == 2)
			read_process_tree(t, pb_sub(&f));
		else if (f.id == 50)
			read_compressed(t, &f, depth);
		else if (f.id == 76)
			timeline = f;
	}
	/* After the loop: the timestamp and the uid may follow the event. */
	if (timeline.id && untrusted)
		t->dmg.untrusted++;
	else if (timeline.id)
		read_timeline(t, &timeline, ts, clock);
	if (rc == 0 && (te.ev.id || te.desc.id || te.interned.id || te.defaults.id || te.cleared)) {
		te.ts = ts;
		te.clock = clock;
		read_track_event(t, &te);
	}
}

/* ---- framing and resynchronisation --------------------------------------------------- */

/*
 * Reads `n` bytes at off from the source into t->pkt. Returns the bytes read (fewer at
 * the end of the source), or -errno.
 */
static ssize_t src_read(struct pftrace *t, const struct pf_src *src, uint64_t off, size_t n)
{
	size_t done = 0;
	ssize_t r;
	uint8_t *tmp;

	if (n > t->pkt_cap) {
		tmp = realloc(t->pkt, n);
		if (!tmp)
			return -ENOMEM;
		t->pkt = tmp;
		t->pkt_cap = n;
	}
	while (done < n) {
		r = src->read(src->ctx, t->pkt + done, n - done, off + done);
		if (r < 0)
			return r;
		if (r == 0)
			break;
		done += (size_t)r;
	}
	return (ssize_t)done;
}

/*
 * Is there a whole TracePacket at off: a 0x0a header whose length fits the source, fields
 * that parse to exactly its end, and (when resyncing, where a random 0x0a must not pass)
 * then another 0x0a or the end of the source? On true the packet is in t->pkt (after its
 * header) and *next is where the following one starts.
 */
static bool packet_at(struct pftrace *t, const struct pf_src *src, uint64_t off, bool resyncing,
		      struct pf_hdr *h, uint64_t *next)
{
	uint8_t head[16];
	ssize_t n;

	n = src_read(t, src, off, sizeof(head));
	if (n < 2 || t->pkt[0] != 0x0a)
		return false;
	memcpy(head, t->pkt, (size_t)n);
	if (!pf_read_hdr(head, (size_t)n, h) || h->len > PF_PACKET_MAX ||
	    h->len + h->size > src->size - off)
		return false;
	*next = off + h->size + h->len;
	n = src_read(t, src, off + h->size, (size_t)h->len + (*next < src->size));
	if (n < 0 || (uint64_t)n < h->len)
		return false;
	if (resyncing && *next < src->size && t->pkt[h->len] != 0x0a)
		return false;
	return pb_whole((struct pb){ t->pkt, t->pkt + h->len });
}

/* A well-formed top-level field that is not a packet (Trace has none today): skipped. */
static bool other_field_at(struct pftrace *t, const struct pf_src *src, uint64_t off,
			   uint64_t *next)
{
	struct pb b;
	struct pb_field f;
	ssize_t n = src_read(t, src, off, 32);

	if (n <= 0)
		return false;
	b = (struct pb){ t->pkt, t->pkt + n };
	if (t->pkt[0] == 0x0a || pb_next(&b, &f) != 1 || f.wt == WT_LEN)
		return false;
	*next = off + (uint64_t)(b.p - t->pkt);
	return true;
}

static bool packet_runs_past_end(struct pftrace *t, const struct pf_src *src, uint64_t off);

/*
 * Trace { repeated TracePacket packet = 1 }, one packet at a time from src. A packet that
 * does not parse is skipped up to the next one that provably does (resync). Returns where
 * it stopped: src->size, or the start of a last packet that runs past the end, which is
 * the file's truncation at depth 0, and (more: the source continues) where to go on.
 */
static uint64_t read_trace_src(struct pftrace *t, const struct pf_src *src, int depth, bool more)
{
	uint64_t off = 0, next, to, fields_at = UINT64_MAX;
	struct pf_hdr h;

	while (off < src->size && !t->err) {
		if (packet_at(t, src, off, false, &h, &next)) {
			read_packet(t, (struct pb){ t->pkt, t->pkt + h.len }, depth);
			t->dmg.packets++;
			off = next;
			fields_at = UINT64_MAX;
			continue;
		}
		if (other_field_at(t, src, off, &next)) {
			fields_at = fields_at < off ? fields_at : off;
			off = next;
			continue;
		}
		if (more && packet_runs_past_end(t, src, off))
			return fields_at < off ? fields_at :
						 off; /* all of it with the next window */
		to = pf_resync(src, off);
		if (to == src->size && packet_runs_past_end(t, src, off)) {
			if (depth > 0)
				return off; /* the caller counts its block */
			t->malformed++;
			t->dmg.truncated_at = src->size; /* cut off, not damaged */
			return off;
		}
		/* Fields just before damage were garbage that happened to parse: skipped too. */
		off = fields_at < off ? fields_at : off;
		t->malformed++;
		t->dmg.skipped_packets++;
		t->dmg.skipped_bytes += to - off;
		off = to;
		fields_at = UINT64_MAX;
	}
	return src->size;
}

/* The header at off is a packet's whose length runs past the end of the source. */
static bool packet_runs_past_end(struct pftrace *t, const struct pf_src *src, uint64_t off)
{
	uint8_t head[16];
	struct pf_hdr h;
	ssize_t n = src_read(t, src, off, sizeof(head));

	if (n < 1 || t->pkt[0] != 0x0a)
		return false;
	memcpy(head, t->pkt, (size_t)n);
	if (!pf_read_hdr(head, (size_t)n, &h))
		return (size_t)n < sizeof(head); /* the length itself is cut off */
	return h.len + h.size > src->size - off;
}

struct mem_src {
	const uint8_t *p;
	size_t len;
};

static ssize_t mem_read(void *ctx, void *buf, size_t n, uint64_t off)
{
	const struct mem_src *m = ctx;

	if (off >= m->len)
		return 0;
	n = n < m->len - off ? n : (size_t)(m->len - off);
	memcpy(buf, m->p + off, n);
	return (ssize_t)n;
}

/* An inflated compressed_packets: framed like the file, read from memory (read_trace_src). */
static uint64_t read_trace_mem(struct pftrace *t, const uint8_t *p, size_t len, int depth,
			       bool more)
{
	struct mem_src m = { p, len };
	struct pf_src src = { mem_read, &m, len };
	uint8_t *pkt = t->pkt;
	size_t cap = t->pkt_cap;
	uint64_t stop;

	/* The outer packet (which holds p) lives in t->pkt: read this one elsewhere. */
	t->pkt = NULL;
	t->pkt_cap = 0;
	stop = read_trace_src(t, &src, depth, more);
	free(t->pkt);
	t->pkt = pkt;
	t->pkt_cap = cap;
	return stop;
}

/* ---- after the walk ---------------------------------------------------------------- */

static int cmp_print(const void *a, const void *b)
{
	const struct print_rec *x = a, *y = b;

	if (x->ts_ns != y->ts_ns)
		return x->ts_ns < y->ts_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_thread(const void *a, const void *b)
{
	const struct pf_thread *x = a, *y = b;

	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* The public thread list: recs sorted by tid, names pointing into recs. */
static int make_threads(struct pftrace *t)
{
	t->threads = malloc((t->n_recs ? t->n_recs : 1) * sizeof(*t->threads));
	if (!t->threads)
		return -ENOMEM;
	for (size_t i = 0; i < t->n_recs; i++) {
		const struct thread_rec *r = &t->recs[i];

		t->threads[i] = (struct pf_thread){ r->tid, r->tgid, { r->name, r->name_len } };
	}
	t->n_threads = t->n_recs;
	qsort(t->threads, t->n_threads, sizeof(*t->threads), cmp_thread);
	free(t->slots);
	t->slots = NULL;
	return 0;
}

struct pftrace *pftrace__read(const struct pf_src *src)
{
	struct pftrace *t = calloc(1, sizeof(*t));
	int err = ENOMEM;

	if (!t)
		return NULL;
	read_trace_src(t, src, 0, false);
	free(t->pkt);
	t->pkt = NULL;
	if (t->err)
		goto fail;
	if (t->dmg.packets == 0) {
		err = EINVAL;
		goto fail;
	}
	pfte__finish(t->te); /* its FT# events join the prints before they are sorted */
	if (t->err || make_threads(t) || (t->tl && pftl_finish(t->tl)))
		goto fail;
	if (t->n_prints)
		qsort(t->prints, t->n_prints, sizeof(*t->prints), cmp_print);
	return t;
fail:
	pftrace__free(t);
	errno = err;
	return NULL;
}

struct pftrace *pftrace__new(const void *data, size_t len)
{
	struct mem_src m = { data, len };
	struct pf_src src = { mem_read, &m, len };

	return pftrace__read(&src);
}

bool pftrace_detect(const void *data, size_t len)
{
	struct pb b = { data, (const uint8_t *)data + len };
	struct pb_field f;

	if (len < 2 || *(const uint8_t *)data != 0x0a || pb_next(&b, &f) != 1)
		return false;
	return pb_whole(pb_sub(&f));
}

size_t pftrace__n_prints(const struct pftrace *t)
{
	return t->n_prints;
}

int pftrace__print(const struct pftrace *t, size_t i, struct pf_print *out)
{
	const struct print_rec *r;

	if (i >= t->n_prints)
		return -ERANGE;
	r = &t->prints[i];
	*out = (struct pf_print){ r->ts_ns, r->tid, { t->payload + r->off, r->len } };
	return 0;
}

size_t pftrace__n_threads(const struct pftrace *t)
{
	return t->n_threads;
}

const struct pf_thread *pftrace__thread_at(const struct pftrace *t, size_t i)
{
	return i < t->n_threads ? &t->threads[i] : NULL;
}

static int cmp_thread_tid(const void *key, const void *elem)
{
	int32_t tid = *(const int32_t *)key, other = ((const struct pf_thread *)elem)->tid;

	return tid < other ? -1 : tid > other;
}

const struct pf_thread *pftrace__thread(const struct pftrace *t, int32_t tid)
{
	if (!t->n_threads)
		return NULL;
	return bsearch(&tid, t->threads, t->n_threads, sizeof(*t->threads), cmp_thread_tid);
}

size_t pftrace__n_frames(const struct pftrace *t)
{
	return pftl_n_frames(t->tl);
}

int pftrace__frame(const struct pftrace *t, size_t i, struct ft_frame *out)
{
	return pftl_frame(t->tl, i, out);
}

void pftrace__timeline_stats(const struct pftrace *t, struct pf_timeline_stats *out)
{
	pftl_stats(t->tl, out);
}

uint64_t pftrace__malformed(const struct pftrace *t)
{
	return t->malformed;
}

void pftrace__damage(const struct pftrace *t, struct pf_damage *out)
{
	*out = t->dmg;
	out->unread_events = pfte__unread(t->te);
}

void pftrace__free(struct pftrace *t)
{
	if (!t)
		return;
	free(t->prints);
	free(t->payload);
	free(t->recs);
	free(t->slots);
	free(t->threads);
	free(t->pkt);
	pftl_free(t->tl);
	pfte__free(t->te);
	free(t);
}
