// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * capture__open on the input as a whole file (ftrace text, systrace .html, Perfetto protobuf
 * or junk), then two passes over its events as replay makes them and one over its lines.
 * capture has no memory entry point, so the input goes into a memfd opened again through
 * /proc/self/fd: a regular file, read with pread like a real capture.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "replay/capture.h"
#include "fuzz.h"

static int memfd = -1;
static char memfd_path[64];

static int put_input(const uint8_t *data, size_t size)
{
	size_t done = 0;
	ssize_t n;

	if (memfd < 0) {
		memfd = memfd_create("fuzz_capture", MFD_CLOEXEC);
		if (memfd < 0)
			return -errno;
		snprintf(memfd_path, sizeof(memfd_path), "/proc/self/fd/%d", memfd);
	}
	if (ftruncate(memfd, 0))
		return -errno;
	while (done < size) {
		n = pwrite(memfd, data + done, size - done, (off_t)done);
		if (n <= 0)
			return -EIO;
		done += (size_t)n;
	}
	return 0;
}

static void touch(struct strv v)
{
	volatile char sink = 0;
	size_t i;

	for (i = 0; i < v.len; i++)
		sink ^= v.p[i];
	(void)sink;
}

/* One pass over the events, as replay makes it; returns how many and sums their times. */
static size_t pass_events(struct capture *c, uint64_t *ts_sum)
{
	struct capture_line cl;
	size_t n = 0;
	int kind, i;

	*ts_sum = 0;
	while ((kind = capture__next_event(c, &cl)) != CAPTURE_END) {
		FUZZ_CHECK(kind == -EINVAL || kind == CAPTURE_MARKER || kind == CAPTURE_SCHED ||
			   kind == CAPTURE_SKIP);
		n++;
		if (kind < 0 || kind == CAPTURE_SKIP)
			continue;
		*ts_sum += cl.ts_ns;
		touch(cl.comm);
		FUZZ_CHECK(cl.n_extra >= 0 && cl.n_extra <= 2);
		for (i = 0; i < cl.n_extra; i++)
			touch(cl.extra_comm[i]);
		if (kind == CAPTURE_MARKER) {
			touch(cl.payload);
			fuzz_marker(cl.payload.p, cl.payload.len);
		}
	}
	return n;
}

/* One pass over the text lines; returns how many and their total length. */
static size_t pass_lines(struct capture *c, size_t *bytes)
{
	const char *line;
	size_t len, n = 0;

	*bytes = 0;
	while (capture__next(c, &line, &len) == 1) {
		FUZZ_CHECK(!memchr(line, '\n', len));
		touch((struct strv){ .p = line, .len = len });
		*bytes += len;
		n++;
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t events, events2, lines, bytes;
	struct capture_damage d;
	uint64_t sum, sum2;
	struct capture *c;

	if (put_input(data, size))
		return 0;
	c = capture__open(memfd_path);
	if (!c) {
		FUZZ_CHECK(errno != 0);
		return 0;
	}
	FUZZ_CHECK(capture__size(c) <= size);
	events = pass_events(c, &sum);
	FUZZ_CHECK(capture__next_event(c, &(struct capture_line){ 0 }) == CAPTURE_END);
	capture__rewind(c);
	events2 = pass_events(c, &sum2);
	FUZZ_CHECK(events == events2 && sum == sum2);
	capture__rewind(c);
	lines = pass_lines(c, &bytes);
	capture__damage(c, &d);
	/* Text: one event per line (lines over 64 KiB are events, not lines). Protobuf: none. */
	FUZZ_CHECK(capture__is_protobuf(c) ? lines == 0 : lines + d.overlong == events);
	FUZZ_CHECK(bytes <= capture__size(c));
	capture__free(c);
	return 0;
}
