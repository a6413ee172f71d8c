// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Perfetto protobuf traces. One validating pass indexes print events and thread names;
 * slices point into the caller's buffer (or into inflated compressed_packets we own).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "pftrace.h"

/* ---- wire format ------------------------------------------------------------------- */

enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2, WT_I32 = 5 };

struct pb {
	const uint8_t *p, *end;
};

struct pb_field {
	uint32_t id;
	int wt;
	uint64_t v;           /* WT_VARINT, WT_I64, WT_I32 */
	const uint8_t *data;  /* WT_LEN */
	size_t len;
};

static int pb_varint(struct pb *b, uint64_t *out)
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

static int pb_fixed(struct pb *b, size_t n, uint64_t *out)
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
static int pb_next(struct pb *b, struct pb_field *f)
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

static struct pb pb_sub(const struct pb_field *f)
{
	return (struct pb){ f->data, f->data + f->len };
}

static struct strv pb_str(const struct pb_field *f)
{
	return (struct strv){ (const char *)f->data, f->len };
}

/* ---- the index --------------------------------------------------------------------- */

enum name_rank { RANK_SCHED = 1, RANK_THREAD = 2, RANK_CMDLINE = 3 };

struct name_rec {
	struct pf_thread t;
	int rank;      /* which source named it; 0 when only the tgid is known */
	uint64_t seq;  /* file order, so that later names win among equals */
};

struct print_rec {
	struct pf_print p;
	uint64_t seq;
};

struct pftrace {
	struct print_rec *prints;
	size_t n_prints, cap_prints;
	struct name_rec *names;
	size_t n_names, cap_names;
	struct pf_thread *threads; /* merged from names, sorted by tid */
	size_t n_threads;
	uint8_t **owned;           /* inflated compressed_packets */
	size_t n_owned, cap_owned;
	size_t inflated;
	uint64_t seq, malformed;
	int err;                   /* ENOMEM seen */
};

#define MAX_INFLATED (256u << 20) /* a bound on compressed_packets, against zip bombs */

static void *grow(void *arr, size_t *cap, size_t n, size_t size)
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

static void add_print(struct pftrace *t, const struct pf_print *p)
{
	struct print_rec *tmp = grow(t->prints, &t->cap_prints, t->n_prints, sizeof(*tmp));

	if (!tmp) {
		t->err = ENOMEM;
		return;
	}
	t->prints = tmp;
	t->prints[t->n_prints++] = (struct print_rec){ *p, t->seq++ };
}

static void add_name(struct pftrace *t, int32_t tid, int32_t tgid, struct strv name, int rank)
{
	struct name_rec *tmp;

	if (tid <= 0)
		return;
	tmp = grow(t->names, &t->cap_names, t->n_names, sizeof(*tmp));
	if (!tmp) {
		t->err = ENOMEM;
		return;
	}
	t->names = tmp;
	if (!name.len)
		rank = 0;
	t->names[t->n_names++] = (struct name_rec){ { tid, tgid, name }, rank, t->seq++ };
}

/* ---- messages ---------------------------------------------------------------------- */

/* pb_next that counts a damaged message once (the caller then leaves it). */
static bool next_field(struct pftrace *t, struct pb *b, struct pb_field *f, int *rc)
{
	*rc = pb_next(b, f);
	if (*rc < 0)
		t->malformed++;
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
static void read_compact_pairs(struct pftrace *t, struct pb msg, uint32_t pid_id,
			       uint32_t comm_id)
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
			return;
		}
		add_name(t, (int32_t)pid, -1, intern_at(msg, idx), RANK_SCHED);
	}
}

static void read_bundle(struct pftrace *t, struct pb b)
{
	struct pb_field f;
	int rc;

	while (next_field(t, &b, &f, &rc)) {
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

/* Inflates a zlib stream of at most limit bytes. Returns NULL when damaged or too big. */
static uint8_t *inflate_all(const uint8_t *in, size_t len, size_t limit, size_t *out_len)
{
	z_stream z = { .next_in = (Bytef *)in, .avail_in = (uInt)len };
	uint8_t *out = NULL, *tmp;
	size_t cap = 0, ncap;
	int zrc;

	if (len > UINT32_MAX || inflateInit(&z) != Z_OK)
		return NULL;
	do {
		if (z.total_out == cap) {
			ncap = cap ? cap * 2 : len * 4 + 4096;
			ncap = ncap < limit ? ncap : limit;
			tmp = ncap > cap ? realloc(out, ncap) : NULL;
			if (!tmp) {
				zrc = Z_MEM_ERROR;
				break;
			}
			out = tmp;
			cap = ncap;
		}
		z.next_out = out + z.total_out;
		z.avail_out = (uInt)(cap - z.total_out);
		zrc = inflate(&z, Z_NO_FLUSH);
	} while (zrc == Z_OK);
	*out_len = z.total_out;
	inflateEnd(&z);
	if (zrc != Z_STREAM_END) {
		free(out);
		return NULL;
	}
	return out;
}

static int read_trace(struct pftrace *t, const uint8_t *p, size_t len, int depth);

/* compressed_packets (TracePacket field 50): a zlib-deflated Trace, one level only. */
static void read_compressed(struct pftrace *t, const struct pb_field *f, int depth)
{
	uint8_t **owned, *out;
	size_t out_len;

	if (depth > 0) {
		t->malformed++;
		return;
	}
	owned = grow(t->owned, &t->cap_owned, t->n_owned, sizeof(*owned));
	if (!owned) {
		t->err = ENOMEM;
		return;
	}
	t->owned = owned;
	out = inflate_all(f->data, f->len, MAX_INFLATED - t->inflated, &out_len);
	if (!out) {
		t->malformed++;
		return;
	}
	t->owned[t->n_owned++] = out;
	t->inflated += out_len;
	read_trace(t, out, out_len, depth + 1);
}

static void read_packet(struct pftrace *t, struct pb b, int depth)
{
	struct pb_field f;
	int rc;

	while (next_field(t, &b, &f, &rc)) {
		if (f.wt != WT_LEN)
			continue;
		if (f.id == 1)
			read_bundle(t, pb_sub(&f));
		else if (f.id == 2)
			read_process_tree(t, pb_sub(&f));
		else if (f.id == 50)
			read_compressed(t, &f, depth);
	}
}

/* Trace { repeated TracePacket packet = 1 }. Returns the number of packets read. */
static int read_trace(struct pftrace *t, const uint8_t *p, size_t len, int depth)
{
	struct pb b = { p, p + len };
	struct pb_field f;
	int rc, packets = 0;

	while (next_field(t, &b, &f, &rc)) {
		if (f.id != 1 || f.wt != WT_LEN)
			continue;
		read_packet(t, pb_sub(&f), depth);
		packets++;
	}
	return packets;
}

/* ---- after the walk ---------------------------------------------------------------- */

static int cmp_print(const void *a, const void *b)
{
	const struct print_rec *x = a, *y = b;

	if (x->p.ts_ns != y->p.ts_ns)
		return x->p.ts_ns < y->p.ts_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_name(const void *a, const void *b)
{
	const struct name_rec *x = a, *y = b;

	if (x->t.tid != y->t.tid)
		return x->t.tid < y->t.tid ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * One thread per tid: the last known tgid, and the name from the best source (argv[0]
 * beats a thread name or rename, which beat a sched comm), the latest among equals.
 */
static void merge_names(struct pftrace *t)
{
	struct pf_thread *out = t->threads;
	size_t i, j;
	int rank;

	if (t->n_names)
		qsort(t->names, t->n_names, sizeof(*t->names), cmp_name);
	for (i = 0; i < t->n_names; i = j) {
		*out = (struct pf_thread){ t->names[i].t.tid, -1, { "", 0 } };
		for (j = i, rank = 0; j < t->n_names && t->names[j].t.tid == out->tid; j++) {
			if (t->names[j].t.tgid > 0)
				out->tgid = t->names[j].t.tgid;
			if (t->names[j].rank && t->names[j].rank >= rank) {
				out->name = t->names[j].t.name;
				rank = t->names[j].rank;
			}
		}
		out++;
	}
	t->n_threads = (size_t)(out - t->threads);
}

struct pftrace *pftrace__new(const void *data, size_t len)
{
	struct pftrace *t = calloc(1, sizeof(*t));
	int err = ENOMEM;

	if (!t)
		return NULL;
	if (read_trace(t, data, len, 0) == 0) {
		err = EINVAL;
		goto fail;
	}
	if (t->err)
		goto fail;
	t->threads = malloc((t->n_names ? t->n_names : 1) * sizeof(*t->threads));
	if (!t->threads)
		goto fail;
	if (t->n_prints)
		qsort(t->prints, t->n_prints, sizeof(*t->prints), cmp_print);
	merge_names(t);
	return t;
fail:
	pftrace__free(t);
	errno = err;
	return NULL;
}

bool pftrace_detect(const void *data, size_t len)
{
	struct pb b = { data, (const uint8_t *)data + len }, pkt;
	struct pb_field f;
	int rc;

	if (len < 2 || *(const uint8_t *)data != 0x0a || pb_next(&b, &f) != 1)
		return false;
	pkt = pb_sub(&f);
	while ((rc = pb_next(&pkt, &f)) == 1)
		;
	return rc == 0;
}

size_t pftrace__n_prints(const struct pftrace *t)
{
	return t->n_prints;
}

int pftrace__print(const struct pftrace *t, size_t i, struct pf_print *out)
{
	if (i >= t->n_prints)
		return -ERANGE;
	*out = t->prints[i].p;
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

uint64_t pftrace__malformed(const struct pftrace *t)
{
	return t->malformed;
}

void pftrace__free(struct pftrace *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n_owned; i++)
		free(t->owned[i]);
	free(t->owned);
	free(t->prints);
	free(t->names);
	free(t->threads);
	free(t);
}
