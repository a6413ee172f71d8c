// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The logcat sink (src/sinks/logcat.h): liblog's datagram byte for byte, logcat's threadtime
 * prefix, entries split at line ends (and inside a line only when one is longer than a part),
 * the box formatter's text and escape, the per-frame rate limit with its counts, and a real
 * datagram socket read back.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "logd/logcheck.h"
#include "sinks/box.h"
#include "sinks/logcat.h"

Test(sink_logcat, a_datagram_is_liblogs_header_then_priority_tag_and_message)
{
	uint8_t buf[64];
	const uint8_t want[] = { 0, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12, 0x15, 0xcd, 0x5b, 0x07,
				 4, 'T',  'a',	'g',  0,    'h',  'i',	'\n', 'x',  0 };
	size_t n = logcat_encode(buf, sizeof(buf), 0x1234, 0x12345678, 123456789, LOGCAT_INFO,
				 "Tag", "hi\nx", 4);

	cr_assert_eq(n, sizeof(want));
	cr_assert_arr_eq(buf, want, sizeof(want));
}

Test(sink_logcat, a_payload_over_logds_limit_is_not_encoded)
{
	static uint8_t buf[8192];
	static char msg[LOGCAT_PAYLOAD_MAX];

	memset(msg, 'a', sizeof(msg));
	/* 1 + "T" + NUL + len + NUL: 4068 exactly fits, one more does not */
	cr_assert_eq(logcat_encode(buf, sizeof(buf), 1, 0, 0, LOGCAT_INFO, "T", msg,
				   LOGCAT_PAYLOAD_MAX - 4),
		     LOGCAT_HEADER_SIZE + LOGCAT_PAYLOAD_MAX);
	cr_assert_eq(logcat_encode(buf, sizeof(buf), 1, 0, 0, LOGCAT_INFO, "T", msg,
				   LOGCAT_PAYLOAD_MAX - 3),
		     0);
}

Test(sink_logcat, the_threadtime_prefix_is_logcats)
{
	char buf[96];

	/* 1 day, 2 h, 3 min, 4.5678 s after 0 */
	logcat_threadtime(buf, sizeof(buf), 93784567800000ull, 1234, 56, LOGCAT_INFO,
			  "ViewPropTrace");
	cr_assert_str_eq(buf, "01-02 02:03:04.567  1234    56 I ViewPropTrace: ");
	logcat_threadtime(buf, sizeof(buf), 0, 7, 7, LOGCAT_DEBUG, "Tag");
	cr_assert_str_eq(buf, "01-01 00:00:00.000     7     7 D Tag     : ");
}

Test(sink_logcat, an_entry_splits_after_whole_lines)
{
	const char *msg = "aaaa\nbbbb\ncc\ndddddd";
	size_t cut[8];
	bool mid[8];

	cr_assert_eq(logcat_split(msg, strlen(msg), 100, cut, mid, 8), 1);
	cr_assert_eq(cut[0], strlen(msg));
	cr_assert_eq(logcat_split(msg, strlen(msg), 9, cut, mid, 8), 2);
	cr_assert_eq(cut[0], 9); /* "aaaa\nbbbb", then "cc\ndddddd": 9 bytes, the room */
	cr_assert_eq(logcat_split(msg, strlen(msg), 8, cut, mid, 8), 3);
	cr_assert_eq(cut[0], 4);  /* "aaaa" */
	cr_assert_eq(cut[1], 12); /* "bbbb\ncc" */
	cr_assert_eq(cut[2], strlen(msg));
	cr_assert(!mid[0] && !mid[1]);
	cr_assert_eq(logcat_split(msg, strlen(msg), 8, cut, mid, 2), 0, "more parts than allowed");
}

Test(sink_logcat, a_line_longer_than_a_part_is_cut_at_a_character_not_inside_one)
{
	const char *msg = "ab→→→cd"; /* → is 3 bytes */
	size_t cut[8];
	bool mid[8];

	cr_assert_eq(logcat_split(msg, strlen(msg), 4, cut, mid, 8), 5);
	cr_assert_eq(cut[0], 2); /* "ab", not "ab" and a byte of → */
	cr_assert(mid[0] && mid[1] && mid[2] && mid[3]);
	cr_assert_eq(cut[1], 5);  /* → */
	cr_assert_eq(cut[2], 8);  /* → */
	cr_assert_eq(cut[3], 12); /* →c */
	cr_assert_eq(cut[4], strlen(msg));
}

/* A text-only sink fed through its callbacks; returns the threadtime text. */
static char *run_text(void (*feed)(struct sink s), unsigned int rate)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sink_logcat *l =
		sink_logcat__new(&(struct sink_logcat_opts){ .text = f, .rate = rate });

	cr_assert(l);
	feed(sink_logcat__sink(l));
	sink_logcat__free(l);
	fclose(f);
	return buf;
}

static struct anim hostile = {
	.id = 42,
	.name = "animator:alpha\n01-01 00:00:00.000     1     1 E Fake: forged",
	.pid = 100,
	.start_tid = 101,
	.process = "com.evil\033[2J",
	.start_ns = 1500000000,
	.src_ts_ns = 1500000000,
	.n_props = 1,
	.props = { "alpha" },
};

static void feed_hostile(struct sink s)
{
	cr_assert_eq(s.ops->anim_start(s.ctx, &hostile), 0);
}

Test(sink_logcat, a_box_is_one_entry_of_the_box_formatters_text_and_names_cannot_forge_lines)
{
	char *text = run_text(feed_hostile, 0), *box = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&box, &len);
	struct sink_box *b = sink_box__new(f, &(struct sink_box_opts){ .utf8 = true });
	struct lc_log log = { 0 };
	struct lc_counts c;

	sink_box__sink(b).ops->anim_start(b, &hostile);
	sink_box__free(b);
	fclose(f);
	lc_parse_threadtime(&log, text);
	cr_assert_eq(log.bad, 0, "%s", log.why);
	cr_assert_eq(log.n, 1, "%s", text);
	cr_assert_str_eq(log.e[0].tag, "AnimatorTracer");
	cr_assert_eq(log.e[0].prio, 'I');
	cr_assert_eq(log.e[0].pid, 100);
	cr_assert_eq(log.e[0].tid, 101);
	cr_assert_str_eq(log.e[0].time, "01-01 00:00:01.500");
	lc_check(&log, box, &c);
	cr_assert_eq(c.failed, 0, "%s", c.why);
	cr_assert_eq(c.boxes, 1);
	cr_assert_null(strstr(text, "\n01-01 00:00:00.000     1"), "%s", text);
	cr_assert_null(strchr(text, '\033'));
	lc_free(&log);
	free(text);
	free(box);
}

/* 120 Hz for 2.5 s: frames of one node each. */
static void feed_frames(struct sink s)
{
	struct node_props np = { .node = 0x51c0, .node_name = "NotificationRow", .set_mask = 1 };
	struct summary sum = { .last_ns = 3000000000ull };

	np.values[0] = 0.5f;
	for (int i = 0; i < 300; i++) {
		uint64_t ts = 1000000000ull + (uint64_t)i * 8333334ull;
		struct frame_props fp = { .pid = 9,
					  .tid = 9,
					  .ts_ns = ts,
					  .frame_seq = i + 1,
					  .in_frame = true,
					  .n_nodes = 1,
					  .nodes = &np,
					  .src_ts_ns = ts };

		cr_assert_eq(s.ops->frame_props(s.ctx, &fp), 0);
	}
	cr_assert_eq(s.ops->summary_fill(s.ctx, &sum), 0);
	cr_assert_eq(sum.logcat->rate_limited, 300 - 3 * 50);
	cr_assert_eq(s.ops->summary(s.ctx, &sum), 0);
}

Test(sink_logcat, per_frame_entries_over_the_rate_are_counted_in_their_place)
{
	char *text = run_text(feed_frames, 50);
	struct lc_log log = { 0 };
	size_t batches = 0, left = 0;

	lc_parse_threadtime(&log, text);
	cr_assert_eq(log.bad, 0, "%s", log.why);
	for (size_t i = 0; i < log.n; i++) {
		unsigned int n;
		const char *m = log.e[i].msg;

		if (!strncmp(m, "── F:", strlen("── F:"))) {
			batches++;
			cr_assert(strstr(m, "\n│   NotificationRow@51c0 alpha=0.500"), "%s", m);
		} else if (sscanf(m, "── %u frames not logged in the second from", &n) == 1) {
			left += n;
			cr_assert_str_eq(log.e[i].tag, "ViewPropTrace");
		}
	}
	/* seconds from 1.0, 2.0 and 3.0 s (frames 0-119, 120-239, 240-299): 50 each */
	cr_assert_eq(batches, 150);
	cr_assert_eq(left, 70 + 70 + 10);
	cr_assert(strstr(text, "Logcat:     153 messages, 0 refused by logd (lost), 150 per-frame"),
		  "%s", text);
	lc_free(&log);
	free(text);
}

Test(sink_logcat, a_socket_gets_one_datagram_per_message)
{
	char dir[] = "/tmp/logcat-unit-XXXXXX", path[64];
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	struct sink_logcat *l = sink_logcat__new(NULL);
	uint8_t buf[8192];
	int fd;
	ssize_t n;

	cr_assert(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/logdw", dir);
	strcpy(un.sun_path, path);
	fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	cr_assert_eq(bind(fd, (struct sockaddr *)&un, sizeof(un)), 0);
	cr_assert_eq(sink_logcat__connect(l, "/nonexistent/logdw"), -ENOENT);
	cr_assert_eq(sink_logcat__connect(l, path), 0);
	feed_hostile(sink_logcat__sink(l));
	n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
	cr_assert_gt(n, LOGCAT_HEADER_SIZE + 20);
	cr_assert_eq(buf[0], 0);
	cr_assert_eq(buf[LOGCAT_HEADER_SIZE], LOGCAT_INFO);
	cr_assert_str_eq((char *)buf + LOGCAT_HEADER_SIZE + 1, "AnimatorTracer");
	cr_assert(!strncmp((char *)buf + LOGCAT_HEADER_SIZE + 16, "┌── Begin ", 12));
	cr_assert_eq(buf[n - 1], 0);
	cr_assert_eq(recv(fd, buf, sizeof(buf), MSG_DONTWAIT), -1, "one datagram only");
	sink_logcat__free(l);
	close(fd);
	unlink(path);
	rmdir(dir);
}
