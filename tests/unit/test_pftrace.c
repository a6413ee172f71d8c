// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The Perfetto protobuf reader on hand-built traces: print events across bundles, names
 * from process trees, sched_switch, task_rename and CompactSched, compressed packets, and
 * damaged input (long varints, lengths past the end, group wire types).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <zlib.h>

#include "replay/pftrace.h"
#include "pbw.h"
#include "pf_expect.h"

/* FtraceEvent { timestamp = 1, pid = 2, print = 3 { buf = 2 } } */
static void w_print_event(struct pbw *bundle, uint64_t ts, uint32_t tid, const char *buf)
{
	struct pbw ev = { .len = 0 }, pr = { .len = 0 };

	w_uint(&pr, 1, 0xffffffc0081234ull); /* ip */
	w_str(&pr, 2, buf);
	w_uint(&ev, 1, ts);
	w_uint(&ev, 2, tid);
	w_msg(&ev, 3, &pr);
	w_msg(bundle, 2, &ev);
}

/* Trace { packet = 1 { field id = the message } } */
static void w_packet(struct pbw *trace, uint32_t id, const struct pbw *msg)
{
	struct pbw pkt = { .len = 0 };

	w_uint(&pkt, 10, 1); /* trusted_packet_sequence_id: ignored */
	w_msg(&pkt, id, msg);
	w_msg(trace, 1, &pkt);
}

static void expect_thread(const struct pftrace *t, int32_t tid, int32_t tgid, const char *name)
{
	const struct pf_thread *th = pftrace__thread(t, tid);

	cr_assert_not_null(th, "thread %d missing", tid);
	cr_assert_eq(th->tgid, tgid, "thread %d: tgid %d", tid, th->tgid);
	cr_assert(strv_eq(th->name, name), "thread %d: \"%.*s\"", tid, (int)th->name.len,
		  th->name.p);
}

/* Two CPUs' bundles: the second holds an event between the first bundle's two. */
static struct pbw two_bundles(void)
{
	struct pbw trace = { .len = 0 }, b0 = { .len = 0 }, b1 = { .len = 0 };

	w_uint(&b0, 1, 0);
	w_print_event(&b0, 100, 11, "B|10|first\n");
	w_print_event(&b0, 300, 11, "E|10\n");
	w_uint(&b1, 1, 1);
	w_print_event(&b1, 200, 12, "S|10|animator|42\n");
	w_print_event(&b1, 300, 12, "F|10|animator|42\n");
	w_packet(&trace, 1, &b0);
	w_packet(&trace, 1, &b1);
	return trace;
}

Test(pftrace, sorts_print_events_of_per_cpu_bundles_by_timestamp)
{
	struct pbw trace = two_bundles();
	struct pftrace *t = pftrace__new(trace.b, trace.len);
	struct pf_print p;

	cr_assert_not_null(t, "errno %d", errno);
	cr_assert_eq(pftrace__n_prints(t), 4);
	expect_print(t, 0, 100, 11, "B|10|first\n");
	expect_print(t, 1, 200, 12, "S|10|animator|42\n");
	expect_print(t, 2, 300, 11, "E|10\n"); /* equal timestamps keep file order */
	expect_print(t, 3, 300, 12, "F|10|animator|42\n");
	cr_assert_eq(pftrace__print(t, 4, &p), -ERANGE);
	cr_assert_eq(pftrace__n_threads(t), 0);
	cr_assert_null(pftrace__thread(t, 11));
	cr_assert_eq(pftrace__malformed(t), 0);
	pftrace__free(t);
}

static struct pbw process_tree(void)
{
	struct pbw tree = { .len = 0 }, proc = { .len = 0 }, th = { .len = 0 };

	w_uint(&proc, 1, 10);
	w_uint(&proc, 2, 1);
	w_str(&proc, 3, "com.example.app");
	w_str(&proc, 3, "--flag");
	w_msg(&tree, 1, &proc);
	w_uint(&th, 1, 10);
	w_str(&th, 2, "example.app");
	w_uint(&th, 3, 10);
	w_msg(&tree, 2, &th);
	th.len = 0;
	w_uint(&th, 1, 11);
	w_str(&th, 2, "RenderThread");
	w_uint(&th, 3, 10);
	w_msg(&tree, 2, &th);
	return tree;
}

Test(pftrace, names_threads_from_process_trees_with_argv0_for_the_main_thread)
{
	struct pbw trace = { .len = 0 }, tree = process_tree();
	struct pftrace *t;

	w_packet(&trace, 2, &tree);
	t = pftrace__new(trace.b, trace.len);
	cr_assert_not_null(t);
	cr_assert_eq(pftrace__n_prints(t), 0);
	cr_assert_eq(pftrace__n_threads(t), 2);
	expect_thread(t, 10, 10, "com.example.app");
	expect_thread(t, 11, 10, "RenderThread");
	cr_assert_eq(pftrace__thread_at(t, 0)->tid, 10);
	cr_assert_eq(pftrace__thread_at(t, 1)->tid, 11);
	cr_assert_null(pftrace__thread_at(t, 2));
	cr_assert_null(pftrace__thread(t, 12));
	pftrace__free(t);
}

/* sched_switch names both tasks; task_rename (zygote child) beats an older comm. */
static struct pbw sched_bundle(void)
{
	struct pbw b = { .len = 0 }, ev = { .len = 0 }, sw = { .len = 0 }, rn = { .len = 0 };

	w_str(&sw, 1, "<pre-initialized>");
	w_uint(&sw, 2, 20);
	w_str(&sw, 5, "kworker/0:1");
	w_uint(&sw, 6, 21);
	w_uint(&ev, 1, 50);
	w_uint(&ev, 2, 20);
	w_msg(&ev, 4, &sw);
	w_msg(&b, 2, &ev);
	w_uint(&rn, 1, 20);
	w_str(&rn, 2, "<pre-initialized>");
	w_str(&rn, 3, "ndroid.systemui");
	ev.len = 0;
	w_uint(&ev, 1, 60);
	w_uint(&ev, 2, 20);
	w_msg(&ev, 236, &rn);
	w_msg(&b, 2, &ev);
	return b;
}

Test(pftrace, learns_names_from_sched_switch_and_task_rename)
{
	struct pbw trace = { .len = 0 }, b = sched_bundle();
	struct pftrace *t;

	w_packet(&trace, 1, &b);
	t = pftrace__new(trace.b, trace.len);
	cr_assert_not_null(t);
	cr_assert_eq(pftrace__n_prints(t), 0);
	cr_assert_eq(pftrace__n_threads(t), 2);
	expect_thread(t, 20, -1, "ndroid.systemui");
	expect_thread(t, 21, -1, "kworker/0:1");
	pftrace__free(t);
}

/* CompactSched { switch_next_pid = 3, switch_next_comm_index = 6, intern_table = 5,
 * waking_pid = 8, waking_comm_index = 11 }, packed. */
Test(pftrace, learns_names_from_compact_sched)
{
	struct pbw trace = { .len = 0 }, b = { .len = 0 }, cs = { .len = 0 }, v = { .len = 0 };
	struct pftrace *t;

	w_str(&cs, 5, "surfaceflinger");
	w_str(&cs, 5, "RenderThread");
	w_varint(&v, 500);
	w_varint(&v, 501);
	w_msg(&cs, 3, &v);
	v.len = 0;
	w_varint(&v, 0);
	w_varint(&v, 1);
	w_msg(&cs, 6, &v);
	v.len = 0;
	w_varint(&v, 502);
	w_msg(&cs, 8, &v);
	v.len = 0;
	w_varint(&v, 7); /* past the intern table: no name */
	w_msg(&cs, 11, &v);
	w_msg(&b, 4, &cs);
	w_packet(&trace, 1, &b);
	t = pftrace__new(trace.b, trace.len);
	cr_assert_not_null(t);
	expect_thread(t, 500, -1, "surfaceflinger");
	expect_thread(t, 501, -1, "RenderThread");
	expect_thread(t, 502, -1, "");
	cr_assert_eq(pftrace__n_threads(t), 3);
	pftrace__free(t);
}

Test(pftrace, reads_compressed_packets)
{
	struct pbw inner = two_bundles(), trace = { .len = 0 }, pkt = { .len = 0 };
	uint8_t z[4096];
	uLongf zlen = sizeof(z);
	struct pftrace *t;

	cr_assert_eq(compress2(z, &zlen, inner.b, inner.len, 9), Z_OK);
	w_bytes(&pkt, 50, z, zlen);
	w_msg(&trace, 1, &pkt);
	t = pftrace__new(trace.b, trace.len);
	cr_assert_not_null(t);
	cr_assert_eq(pftrace__n_prints(t), 4);
	expect_print(t, 1, 200, 12, "S|10|animator|42\n");
	cr_assert_eq(pftrace__malformed(t), 0);
	pftrace__free(t);
}

Test(pftrace, skips_a_damaged_compressed_packet)
{
	struct pbw trace = { .len = 0 }, pkt = { .len = 0 };
	struct pf_damage d;
	struct pftrace *t;

	w_str(&pkt, 50, "not zlib at all");
	w_msg(&trace, 1, &pkt);
	t = pftrace__new(trace.b, trace.len);
	cr_assert_not_null(t);
	cr_assert_eq(pftrace__n_prints(t), 0);
	cr_assert_eq(pftrace__malformed(t), 1);
	pftrace__damage(t, &d);
	cr_assert_eq(d.bad_blocks, 1, "a bad block is counted, not lost silently");
	pftrace__free(t);
}

Test(pftrace, keeps_the_packets_a_cut_compressed_block_inflated_before_its_damage)
{
	struct pbw inner = two_bundles(), more = two_bundles(), trace = { .len = 0 },
		   pkt = { .len = 0 };
	uint8_t z[8192];
	uLongf zlen = sizeof(z);
	struct pf_damage d;
	struct pftrace *t;

	memcpy(inner.b + inner.len, more.b, more.len); /* four bundles: 8 prints */
	inner.len += more.len;
	cr_assert_eq(compress2(z, &zlen, inner.b, inner.len, 0), Z_OK); /* stored: no tables */
	w_bytes(&pkt, 50, z, zlen - 40); /* the last packet and the checksum cut off */
	w_msg(&trace, 1, &pkt);
	t = pftrace__new(trace.b, trace.len);
	cr_assert_not_null(t);
	cr_assert_eq(pftrace__n_prints(t), 6, "prints %zu", pftrace__n_prints(t));
	pftrace__damage(t, &d);
	cr_assert_eq(d.bad_blocks, 1);
	cr_assert_eq(d.packets, 1 + 3);
	cr_assert_eq(d.truncated_at, 0, "the file itself is whole");
	pftrace__free(t);
}

Test(pftrace, a_compressed_block_inside_a_compressed_block_is_a_bad_block)
{
	struct pbw inner = { .len = 0 }, ipkt = { .len = 0 }, trace = { .len = 0 },
		   pkt = { .len = 0 };
	uint8_t z[512];
	uLongf zlen = sizeof(z);
	struct pf_damage d;
	struct pftrace *t;

	w_str(&ipkt, 50, "nested");
	w_msg(&inner, 1, &ipkt);
	cr_assert_eq(compress2(z, &zlen, inner.b, inner.len, 9), Z_OK);
	w_bytes(&pkt, 50, z, zlen);
	w_msg(&trace, 1, &pkt);
	t = pftrace__new(trace.b, trace.len);
	cr_assert_not_null(t);
	pftrace__damage(t, &d);
	cr_assert_eq(d.bad_blocks, 1);
	pftrace__free(t);
}

/* A good packet, then raw bytes appended as a second top-level field. */
static struct pftrace *good_then(const uint8_t *tail, size_t n, struct pbw *trace)
{
	struct pbw b = { .len = 0 };

	w_print_event(&b, 100, 11, "B|10|ok\n");
	w_packet(trace, 1, &b);
	memcpy(trace->b + trace->len, tail, n);
	trace->len += n;
	return pftrace__new(trace->b, trace->len);
}

Test(pftrace, keeps_what_precedes_damage_and_counts_it)
{
	static const uint8_t tails[][16] = {
		/* an 11-byte varint length */
		{ 0x0a, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01 },
		/* a length past the end of the buffer */
		{ 0x0a, 0x7f, 0x01, 0x02 },
		/* a group wire type (3) at the top level */
		{ 0x0b, 0x00 },
		/* a varint cut off by the end of the buffer */
		{ 0x08, 0xff },
		/* field number 0 */
		{ 0x02, 0x00 },
	};
	static const size_t lens[] = { 12, 4, 2, 2, 2 };

	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		struct pbw trace = { .len = 0 };
		struct pftrace *t = good_then(tails[i], lens[i], &trace);

		cr_assert_not_null(t, "case %zu", i);
		cr_expect_eq(pftrace__n_prints(t), 1, "case %zu", i);
		cr_expect_eq(pftrace__malformed(t), 1, "case %zu", i);
		pftrace__free(t);
	}
}

Test(pftrace, drops_an_event_whose_print_is_damaged)
{
	struct pbw trace = { .len = 0 }, b = { .len = 0 }, ev = { .len = 0 };
	static const uint8_t bad_print[] = { 0x12, 0x09, 'B', '|' }; /* buf longer than left */
	struct pf_damage d;
	struct pftrace *t;

	w_uint(&ev, 1, 5);
	w_uint(&ev, 2, 11);
	w_bytes(&ev, 3, bad_print, sizeof(bad_print));
	w_msg(&b, 2, &ev);
	w_print_event(&b, 6, 11, "E|10\n");
	w_packet(&trace, 1, &b);
	t = pftrace__new(trace.b, trace.len);
	cr_assert_not_null(t);
	cr_assert_eq(pftrace__n_prints(t), 1);
	expect_print(t, 0, 6, 11, "E|10\n");
	cr_assert_eq(pftrace__malformed(t), 1);
	pftrace__damage(t, &d);
	cr_assert_eq(d.bad_messages, 1, "the lost print is counted");
	pftrace__free(t);
}

Test(pftrace, detects_perfetto_traces_but_not_text)
{
	struct pbw trace = two_bundles();
	static const char text[] = "\n# tracer: nop\n#\n# entries-in-buffer/entries-written: 1\n";

	cr_assert(pftrace_detect(trace.b, trace.len));
	cr_assert_not(pftrace_detect(text, strlen(text)));
	cr_assert_not(pftrace_detect("", 0));
	cr_assert_not(pftrace_detect("\n", 1));
	cr_assert_not(pftrace_detect("hello", 5));
	errno = 0;
	cr_assert_null(pftrace__new("", 0));
	cr_assert_eq(errno, EINVAL);
	pftrace__free(NULL);
}
