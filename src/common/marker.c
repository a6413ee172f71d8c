// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * atrace marker grammar (ANDROID.md section 1). Every field is a slice of the caller's
 * buffer; nothing here reads a byte at or past buf + len.
 */
#include <errno.h>
#include <string.h>

#include "common/marker.h"

/* Parses a whole slice as a non-negative decimal that fits int32 (a tgid). */
static int parse_tgid(const char *p, size_t len, int32_t *out)
{
	int64_t v = 0;
	size_t i;

	if (len == 0 || len > 10)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -EINVAL;
		v = v * 10 + (p[i] - '0');
	}
	if (v > INT32_MAX)
		return -EINVAL;
	*out = (int32_t)v;
	return 0;
}

/* Parses a whole slice as a signed decimal that fits int64 (a cookie or counter). */
static int parse_i64(const char *p, size_t len, int64_t *out)
{
	uint64_t v = 0, limit = (uint64_t)INT64_MAX;
	bool neg = false;
	size_t i = 0;

	if (len > 0 && p[0] == '-') {
		neg = true;
		limit += 1; /* INT64_MIN has no positive twin */
		i = 1;
	}
	if (i == len)
		return -EINVAL;
	for (; i < len; i++) {
		unsigned int d = (unsigned char)p[i] - '0';

		if (d > 9 || v > (limit - d) / 10)
			return -EINVAL;
		v = v * 10 + d;
	}
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

static struct strv slice(const char *b, const char *e)
{
	return (struct strv){ .p = b, .len = (size_t)(e - b) };
}

/* Splits [p, end) at its last '|': *head before it, the number after it into *value. */
static int split_value(const char *p, const char *end, struct strv *head, int64_t *value)
{
	const char *bar = memrchr(p, '|', (size_t)(end - p));

	if (!bar)
		return -EINVAL;
	*head = slice(p, bar);
	return parse_i64(bar + 1, (size_t)(end - bar - 1), value);
}

/* Splits [p, end) at its first '|' into *first and *rest; -EINVAL when there is none. */
static int split_first(const char *p, const char *end, struct strv *first, struct strv *rest)
{
	const char *bar = memchr(p, '|', (size_t)(end - p));

	if (!bar)
		return -EINVAL;
	*first = slice(p, bar);
	*rest = slice(bar + 1, end);
	return 0;
}

/* "E", "E|", "E|tgid" and "E|tgid|anything" (some ROMs append the name). */
static int parse_end(const char *p, const char *end, struct marker *m)
{
	const char *bar;

	if (p == end)
		return 0;
	bar = memchr(p, '|', (size_t)(end - p));
	return parse_tgid(p, (size_t)((bar ? bar : end) - p), &m->tgid);
}

/* H|tgid|track|cookie (14+) or H|tgid|track|name|cookie (13 only). */
static int parse_track_end(const char *p, const char *end, struct marker *m)
{
	struct strv head, rest;
	int err = split_value(p, end, &head, &m->value);

	if (err)
		return err;
	if (split_first(head.p, head.p + head.len, &m->track, &rest) == 0)
		m->name = rest;
	else
		m->track = head;
	return 0;
}

/* Everything after "X|tgid|": p points at the first byte after the tgid's '|'. */
static int parse_fields(const char *p, const char *end, struct marker *m)
{
	struct strv head, rest;
	int err;

	switch (m->type) {
	case MARKER_BEGIN:
	case MARKER_INSTANT:
		m->name = slice(p, end);
		return 0;
	case MARKER_ASYNC_BEGIN:
	case MARKER_ASYNC_END:
	case MARKER_COUNTER:
		return split_value(p, end, &m->name, &m->value);
	case MARKER_INSTANT_TRACK:
		return split_first(p, end, &m->track, &m->name);
	case MARKER_TRACK_BEGIN:
		err = split_value(p, end, &head, &m->value);
		if (err)
			return err;
		if (split_first(head.p, head.p + head.len, &m->track, &rest))
			return -EINVAL;
		m->name = rest;
		return 0;
	case MARKER_TRACK_END:
		return parse_track_end(p, end, m);
	default:
		return -EINVAL;
	}
}

static bool known_type(char c)
{
	switch (c) { /* on every marker: no search of "BESFCINGH" */
	case 'B':
	case 'E':
	case 'S':
	case 'F':
	case 'C':
	case 'I':
	case 'N':
	case 'G':
	case 'H':
		return true;
	default:
		return false;
	}
}

/*
 * The tgid after "X|" at p: its digits, up to the '|' that ends it (*bar) or the end (*bar
 * NULL); parse_tgid of the field before the first '|', read in one pass.
 */
static int parse_tgid_field(const char *p, const char *end, int32_t *out, const char **bar)
{
	const char *q = p;
	int64_t v = 0;
	unsigned int d;

	while (q < end && q - p <= 10 && (d = (unsigned char)*q - '0') <= 9) {
		v = v * 10 + d;
		q++;
	}
	if (q == p || q - p > 10 || v > INT32_MAX || (q < end && *q != '|'))
		return -EINVAL;
	*out = (int32_t)v;
	*bar = q < end ? q : NULL;
	return 0;
}

int marker_parse(const char *buf, size_t len, struct marker *out)
{
	const char *p, *end, *bar;
	struct marker m = { .tgid = -1, .name = { "", 0 }, .track = { "", 0 } };
	int err;

	/* write(2) callers may add "\n", "\r\n" or a NUL; BPF copies may carry NUL padding. */
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r' || buf[len - 1] == '\0'))
		len--;
	if (len == 0 || !known_type(buf[0]))
		return -EINVAL;
	m.type = (enum marker_type)buf[0];
	end = buf + len;
	if (m.type == MARKER_END && (len == 1 || buf[1] == '|')) {
		err = parse_end(buf + (len == 1 ? 1 : 2), end, &m);
		goto done;
	}
	if (len < 3 || buf[1] != '|')
		return -EINVAL;
	p = buf + 2;
	err = parse_tgid_field(p, end, &m.tgid, &bar);
	if (err)
		return err;
	/* A bare "B|tgid" (empty name) still balances its E; other types need fields. */
	if (!bar)
		err = (m.type == MARKER_BEGIN || m.type == MARKER_INSTANT) ? 0 : -EINVAL;
	else
		err = parse_fields(bar + 1, end, &m);
done:
	if (err)
		return err;
	*out = m;
	return 0;
}

size_t utf8_prefix(const char *s, size_t len, size_t max)
{
	size_t n = len < max ? len : max;

	/* Cutting before a continuation byte (10xxxxxx) splits a character: back off to
	 * its lead byte, which then starts the cut-off part. */
	if (n < len)
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	return n;
}
