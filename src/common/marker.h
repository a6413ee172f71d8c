/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * atrace marker grammar (libcutils trace-dev.cpp) -> typed markers. Pure: no I/O, no
 * allocation; the string fields of a parsed marker point into the caller's buffer.
 */
#ifndef ANIMTRACE_MARKER_H
#define ANIMTRACE_MARKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum marker_type {
	MARKER_BEGIN = 'B',	    /* B|tgid|name */
	MARKER_END = 'E',	    /* E|tgid (or bare E on old kernels/ROMs) */
	MARKER_ASYNC_BEGIN = 'S',   /* S|tgid|name|cookie */
	MARKER_ASYNC_END = 'F',	    /* F|tgid|name|cookie */
	MARKER_COUNTER = 'C',	    /* C|tgid|name|value */
	MARKER_INSTANT = 'I',	    /* I|tgid|name (13+) */
	MARKER_INSTANT_TRACK = 'N', /* N|tgid|track|name (13+) */
	MARKER_TRACK_BEGIN = 'G',   /* G|tgid|track|name|cookie (13+) */
	MARKER_TRACK_END = 'H',	    /* H|tgid|track|cookie (14+), H|tgid|track|name|cookie (13) */
};

/* A string slice; not NUL-terminated. */
struct strv {
	const char *p;
	size_t len;
};

struct marker {
	enum marker_type type;
	int32_t tgid;	   /* -1 when the marker carries none (bare "E") */
	struct strv name;  /* empty for E and 14+ H */
	struct strv track; /* N, G, H only */
	int64_t value;	   /* cookie (S F G H) or counter value (C); 0 otherwise */
};

/*
 * Parses one marker payload of len bytes (trailing '\n' and NUL bytes are ignored).
 * Returns 0 and fills *out, or -EINVAL when the payload is not a well-formed marker
 * (e.g. "trace_event_clock_sync: ...", a missing cookie, a non-numeric tgid).
 * Names may contain '|': the cookie/value is the last field.
 */
int marker_parse(const char *buf, size_t len, struct marker *out);

/* True when the slice equals the NUL-terminated string s. Inline: on every line of a
 * capture, and the length of a literal s folds to a constant. */
static inline bool strv_eq(struct strv v, const char *s)
{
	size_t n = strlen(s);

	return v.len == n && (n == 0 || memcmp(v.p, s, n) == 0);
}

/* True when the slice starts with the NUL-terminated string prefix. */
static inline bool strv_starts_with(struct strv v, const char *prefix)
{
	size_t n = strlen(prefix);

	return v.len >= n && (n == 0 || memcmp(v.p, prefix, n) == 0);
}

/*
 * The longest prefix of s[0, len) of at most max bytes that does not end inside a UTF-8
 * sequence (a name cut to fit a buffer stays valid UTF-8 when it was). Pure.
 */
size_t utf8_prefix(const char *s, size_t len, size_t max);

#endif
