// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * marker_parse grammar. Every payload is copied into a heap buffer of exactly its length
 * (no NUL after it), so ASan catches any read past len.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "common/marker.h"

struct parsed {
	char *buf;
	struct marker m;
	int rc;
};

static struct parsed parse_n(const char *s, size_t len)
{
	struct parsed p = { .buf = malloc(len ? len : 1) };

	cr_assert_not_null(p.buf);
	memcpy(p.buf, s, len);
	memset(&p.m, 0x5a, sizeof(p.m));
	p.rc = marker_parse(p.buf, len, &p.m);
	return p;
}

static struct parsed parse(const char *s)
{
	return parse_n(s, strlen(s));
}

static void done(struct parsed *p)
{
	free(p->buf);
}

static void expect_strv(struct strv v, const char *want)
{
	cr_assert(strv_eq(v, want), "got \"%.*s\" (%zu bytes), want \"%s\"", (int)v.len,
		  v.p ? v.p : "", v.len, want);
}

static void expect_marker(const char *in, char type, int32_t tgid, const char *track,
			  const char *name, int64_t value)
{
	struct parsed p = parse(in);

	cr_assert_eq(p.rc, 0, "\"%s\" was rejected (%d)", in, p.rc);
	cr_assert_eq(p.m.type, type, "type of \"%s\"", in);
	cr_assert_eq(p.m.tgid, tgid, "tgid of \"%s\"", in);
	expect_strv(p.m.track, track);
	expect_strv(p.m.name, name);
	cr_assert_eq(p.m.value, value, "value of \"%s\": %lld", in, (long long)p.m.value);
	done(&p);
}

Test(marker, parses_a_begin_with_its_tgid_and_name)
{
	expect_marker("B|24675|Choreographer#doFrame 123", 'B', 24675, "",
		      "Choreographer#doFrame 123", 0);
}

Test(marker, parses_an_end_with_a_tgid)
{
	expect_marker("E|1234", 'E', 1234, "", "", 0);
}

Test(marker, accepts_a_bare_end_and_an_end_with_an_empty_tgid_as_tgid_minus_one)
{
	expect_marker("E", 'E', -1, "", "", 0);
	expect_marker("E|", 'E', -1, "", "", 0);
	expect_marker("E\n", 'E', -1, "", "", 0);
}

Test(marker, accepts_an_end_followed_by_extra_text)
{
	expect_marker("E|1234|anything", 'E', 1234, "", "", 0);
}

Test(marker, parses_an_async_begin_and_end_with_their_cookie)
{
	expect_marker("S|24675|animator|44292905", 'S', 24675, "", "animator", 44292905);
	expect_marker("F|27619|animator:alpha|214461257", 'F', 27619, "", "animator:alpha",
		      214461257);
}

Test(marker, parses_a_counter_value)
{
	expect_marker("C|429|VSYNC-app|0", 'C', 429, "", "VSYNC-app", 0);
	expect_marker("C|2238|Heap size (KB)|11558", 'C', 2238, "", "Heap size (KB)", 11558);
}

Test(marker, parses_an_instant)
{
	expect_marker("I|77|an instant", 'I', 77, "", "an instant", 0);
}

Test(marker, parses_an_instant_on_a_track)
{
	expect_marker("N|77|my track|the event", 'N', 77, "my track", "the event", 0);
}

Test(marker, parses_a_track_begin_with_track_name_and_cookie)
{
	expect_marker("G|77|launch|cold start|9", 'G', 77, "launch", "cold start", 9);
}

Test(marker, parses_the_android_14_track_end_without_a_name)
{
	expect_marker("H|77|launch|9", 'H', 77, "launch", "", 9);
}

Test(marker, parses_the_android_13_track_end_with_a_name)
{
	expect_marker("H|77|launch|cold start|9", 'H', 77, "launch", "cold start", 9);
}

Test(marker, keeps_pipes_inside_names_and_takes_the_last_field_as_the_value)
{
	expect_marker("S|1|a|b|c|-42", 'S', 1, "", "a|b|c", -42);
	expect_marker("F|1|x||7", 'F', 1, "", "x|", 7);
	expect_marker("C|1|n|a|m|e|5", 'C', 1, "", "n|a|m|e", 5);
	expect_marker("B|1|x|y|z", 'B', 1, "", "x|y|z", 0);
	expect_marker("I|1|x|y", 'I', 1, "", "x|y", 0);
	expect_marker("N|1|track|x|y", 'N', 1, "track", "x|y", 0);
	expect_marker("G|1|track|x|y|3", 'G', 1, "track", "x|y", 3);
	expect_marker("H|1|track|x|y|3", 'H', 1, "track", "x|y", 3);
}

Test(marker, accepts_negative_cookies_and_the_int64_limits)
{
	expect_marker("S|1|animator|-1", 'S', 1, "", "animator", -1);
	expect_marker("C|1|c|9223372036854775807", 'C', 1, "", "c", INT64_MAX);
	expect_marker("C|1|c|-9223372036854775808", 'C', 1, "", "c", INT64_MIN);
	expect_marker("S|2147483647|a|007", 'S', INT32_MAX, "", "a", 7);
}

Test(marker, accepts_empty_names)
{
	expect_marker("B|1204|", 'B', 1204, "", "", 0);
	expect_marker("B|1204", 'B', 1204, "", "", 0);
	expect_marker("S|1||5", 'S', 1, "", "", 5);
}

Test(marker, ignores_trailing_newline_crlf_and_nul_bytes)
{
	static const char nul[] = "B|1|name\n\0\0";
	struct parsed p;

	expect_marker("B|1|name\n", 'B', 1, "", "name", 0);
	expect_marker("B|1|name\r\n", 'B', 1, "", "name", 0);
	expect_marker("S|1|animator|12\n", 'S', 1, "", "animator", 12);
	expect_marker("E|5\r\n", 'E', 5, "", "", 0);
	p = parse_n(nul, sizeof(nul)); /* the literal's own NUL too: three of them */
	cr_assert_eq(p.rc, 0);
	expect_strv(p.m.name, "name");
	done(&p);
}

Test(marker, keeps_other_trailing_whitespace_in_the_name)
{
	expect_marker("B|1|name  ", 'B', 1, "", "name  ", 0);
}

Test(marker, accepts_a_begin_whose_name_was_truncated_at_1024_bytes)
{
	char buf[1024];
	struct parsed p;

	memcpy(buf, "B|1204|", 7);
	memset(buf + 7, 'x', sizeof(buf) - 7);
	p = parse_n(buf, sizeof(buf));
	cr_assert_eq(p.rc, 0);
	cr_assert_eq(p.m.type, MARKER_BEGIN);
	cr_assert_eq(p.m.tgid, 1204);
	cr_assert_eq(p.m.name.len, 1017);
	cr_assert_eq(p.m.name.p, p.buf + 7);
	done(&p);
}

Test(marker, rejects_an_async_begin_truncated_before_or_inside_its_cookie_separator)
{
	static const char full[] = "S|24675|animator|44292905";
	struct parsed p;

	/* "S|24675|animator|" and "S|24675|animator": the cookie is gone. */
	p = parse_n(full, 17);
	cr_assert_eq(p.rc, -EINVAL);
	done(&p);
	p = parse_n(full, 16);
	cr_assert_eq(p.rc, -EINVAL);
	done(&p);
}

Test(marker, never_reads_past_len)
{
	static const char s[] = "S|1|animator|123456";
	struct parsed p;

	p = parse_n(s, 15); /* "S|1|animator|12" */
	cr_assert_eq(p.rc, 0);
	cr_assert_eq(p.m.value, 12);
	done(&p);
	p = parse_n("E|12345", 4); /* "E|12" */
	cr_assert_eq(p.rc, 0);
	cr_assert_eq(p.m.tgid, 12);
	done(&p);
	p = parse_n("B|99|x", 4); /* "B|99" */
	cr_assert_eq(p.rc, 0);
	cr_assert_eq(p.m.tgid, 99);
	cr_assert_eq(p.m.name.len, 0);
	done(&p);
}

struct bad_input {
	char text[64];
	size_t len; /* 0: strlen(text) */
};

static const struct bad_input bad_inputs[] = {
	{ "", 0 },
	{ "\n", 0 },
	{ "\0", 1 },
	{ "X|1|foo", 0 },
	{ "b|1|foo", 0 },
	{ "Bfoo", 0 },
	{ "B 1|foo", 0 },
	{ "B|", 0 },
	{ "B||foo", 0 },
	{ "B|abc|foo", 0 },
	{ "B|-1|foo", 0 },
	{ "B|12a|foo", 0 },
	{ "B|2147483648|x", 0 },
	{ "B| 1|x", 0 },
	{ "I", 0 },
	{ "Ex", 0 },
	{ "E|abc", 0 },
	{ "E|1x", 0 },
	{ "E| ", 0 },
	{ "trace_event_clock_sync: parent_ts=69739.375000", 0 },
	{ "trace_event_clock_sync: realtime_ts=1523928042856", 0 },
	{ "S", 0 },
	{ "S|1", 0 },
	{ "S|123|animator", 0 },
	{ "S|123|animator|", 0 },
	{ "S|123|animator|12x", 0 },
	{ "S|1|a|-", 0 },
	{ "F|1|x|--5", 0 },
	{ "F|1|x|+5", 0 },
	{ "C|1|x", 0 },
	{ "C|1|name|1.5", 0 },
	{ "C|1|name|5 ", 0 },
	{ "S|1|a|9223372036854775808", 0 },
	{ "S|1|a|-9223372036854775809", 0 },
	{ "S|1|a|99999999999999999999", 0 },
	{ "N|1|trackonly", 0 },
	{ "G|1|track|5", 0 },
	{ "G|1|track|name|", 0 },
	{ "H|1|5", 0 },
	{ "H|1|track|", 0 },
};

Test(marker, rejects_malformed_payloads)
{
	size_t i;

	for (i = 0; i < sizeof(bad_inputs) / sizeof(bad_inputs[0]); i++) {
		const struct bad_input *b = &bad_inputs[i];
		struct parsed p = parse_n(b->text, b->len ? b->len : strlen(b->text));

		cr_expect_eq(p.rc, -EINVAL, "\"%s\" was accepted as type %d", b->text, p.m.type);
		done(&p);
	}
}

Test(marker, leaves_the_output_untouched_on_rejection)
{
	struct marker m = { .type = MARKER_END, .tgid = 7, .value = 3 };

	cr_assert_eq(marker_parse("S|1|animator", 12, &m), -EINVAL);
	cr_assert_eq(m.type, MARKER_END);
	cr_assert_eq(m.tgid, 7);
	cr_assert_eq(m.value, 3);
}

Test(marker, compares_slices_with_strings)
{
	struct strv v = { .p = "animator:alpha|x", .len = 14 };
	struct strv empty = { .p = NULL, .len = 0 };

	cr_assert(strv_eq(v, "animator:alpha"));
	cr_assert_not(strv_eq(v, "animator:alph"));
	cr_assert_not(strv_eq(v, "animator:alpha|"));
	cr_assert(strv_starts_with(v, "animator"));
	cr_assert(strv_starts_with(v, "animator:alpha"));
	cr_assert(strv_starts_with(v, ""));
	cr_assert_not(strv_starts_with(v, "animator:alpha|"));
	cr_assert_not(strv_starts_with(v, "Animator"));
	cr_assert(strv_eq(empty, ""));
	cr_assert(strv_starts_with(empty, ""));
	cr_assert_not(strv_eq(empty, "a"));
	cr_assert_not(strv_starts_with(empty, "a"));
}

Test(marker, utf8_prefix_never_ends_inside_a_character)
{
	static const char s[] = "ab\xc3\xa9\xe2\x82\xac"; /* "abé€": 2 + 2 + 3 bytes */

	cr_assert_eq(utf8_prefix(s, 7, 100), 7);
	cr_assert_eq(utf8_prefix(s, 7, 7), 7);
	cr_assert_eq(utf8_prefix(s, 7, 6), 4);
	cr_assert_eq(utf8_prefix(s, 7, 5), 4);
	cr_assert_eq(utf8_prefix(s, 7, 4), 4);
	cr_assert_eq(utf8_prefix(s, 7, 3), 2);
	cr_assert_eq(utf8_prefix(s, 7, 0), 0);
}
