// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Perfetto protobuf reader: pftrace_detect and pftrace__new on the input (framing a packet at
 * a time, resynchronising after damage), then everything replay reads back: every print
 * (its payload through marker_parse), every thread, every FrameTimeline frame (its layer
 * name and jank string), and the damage counts. Payloads are copies owned by the index, read
 * through here so ASan checks their bounds. The input is also decoded as one
 * FrameTimelineEvent message.
 */
#include <errno.h>
#include <string.h>

#include "fuzz.h"
#include "replay/pftrace.h"

static void touch(struct strv v)
{
	volatile char sink = 0;
	size_t i;

	for (i = 0; i < v.len; i++)
		sink ^= v.p[i];
	(void)sink;
}

static void check_prints(const struct pftrace *t)
{
	size_t i, n = pftrace__n_prints(t);
	uint64_t last = 0;
	struct pf_print p;

	for (i = 0; i < n; i++) {
		FUZZ_CHECK(pftrace__print(t, i, &p) == 0);
		FUZZ_CHECK(p.ts_ns >= last);
		last = p.ts_ns;
		touch(p.buf);
		fuzz_marker(p.buf.p, p.buf.len);
	}
	FUZZ_CHECK(pftrace__print(t, n, &p) == -ERANGE);
}

static void check_threads(const struct pftrace *t)
{
	size_t i, n = pftrace__n_threads(t);
	const struct pf_thread *th, *found;

	for (i = 0; i < n; i++) {
		th = pftrace__thread_at(t, i);
		FUZZ_CHECK(th != NULL);
		FUZZ_CHECK(i == 0 || pftrace__thread_at(t, i - 1)->tid <= th->tid);
		touch(th->name);
		found = pftrace__thread(t, th->tid);
		FUZZ_CHECK(found && found->tid == th->tid);
	}
	FUZZ_CHECK(pftrace__thread_at(t, n) == NULL);
}

static void check_frames(const struct pftrace *t)
{
	size_t i, n = pftrace__n_frames(t), unended = 0;
	struct pf_timeline_stats st;
	uint64_t last = 0;
	struct ft_frame f;
	char jank[64];

	for (i = 0; i < n; i++) {
		FUZZ_CHECK(pftrace__frame(t, i, &f) == 0);
		FUZZ_CHECK(ft_kind_is_start(f.ev.kind));
		FUZZ_CHECK(f.start_ns >= last);
		FUZZ_CHECK(f.ended || f.end_ns == 0);
		last = f.start_ns;
		unended += !f.ended;
		touch(f.ev.layer);
		FUZZ_CHECK(ft_jank_string(f.ev.jank_type, jank, sizeof(jank)) >= strlen(jank));
	}
	FUZZ_CHECK(pftrace__frame(t, n, &f) == -ERANGE);
	pftrace__timeline_stats(t, &st);
	FUZZ_CHECK(st.frames == n && st.evicted <= st.unended);
	FUZZ_CHECK(st.unended >= unended);
}

/* The input as one FrameTimelineEvent: pure, its layer a slice of the input. */
static void check_decode(const uint8_t *data, size_t size)
{
	struct ft_event e;
	int rc = pftrace_timeline_decode(data, size, &e);

	FUZZ_CHECK(rc == 0 || rc == -EINVAL || rc == -ENOMSG || rc == -EBADMSG);
	if (rc == 0) {
		FUZZ_CHECK(e.kind >= FT_EXPECTED_DISPLAY && e.kind <= FT_FRAME_END);
		fuzz_check_slice(e.layer, (const char *)data, size);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pf_damage d;
	struct pftrace *t;

	(void)pftrace_detect(data, size);
	check_decode(data, size);
	t = pftrace__new(data, size);
	if (!t) {
		FUZZ_CHECK(errno == EINVAL || errno == ENOMEM);
		return 0;
	}
	check_prints(t);
	check_threads(t);
	check_frames(t);
	pftrace__damage(t, &d);
	FUZZ_CHECK(d.packets > 0);
	FUZZ_CHECK(d.truncated_at == 0 || d.truncated_at == size);
	(void)pftrace__malformed(t);
	pftrace__free(t);
	return 0;
}
