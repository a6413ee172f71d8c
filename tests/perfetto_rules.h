/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * How Perfetto's trace processor splits an atrace payload: ParseSystraceTracePoint of
 * google/perfetto src/trace_processor/importers/systrace/systrace_parser.h, transcribed for the
 * tests (every field is read up to the next '|'; B keeps the rest of the line; H takes its
 * cookie from the 4th field, else the 3rd). tests/unit/test_perfetto_rules.c holds it to
 * Perfetto's own unit test cases (../shared/testdata/peer); the annotate tests read the markers
 * animtrace writes with it. Header-only: the unit and the e2e runners both include it.
 */
#ifndef ANIMTRACE_TESTS_PERFETTO_RULES_H
#define ANIMTRACE_TESTS_PERFETTO_RULES_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum pf_result { PF_FAILURE = 0, PF_UNSUPPORTED, PF_SUCCESS };

struct pf_view {
	const char *p;
	size_t len;
};

struct pf_point {
	char phase;
	uint32_t tgid;
	struct pf_view name;  /* B C S F I N G */
	int64_t value;	      /* C: value; S F G H: cookie */
	struct pf_view track; /* N G H */
};

struct pf_reader {
	const char *s;
	size_t len, off;
};

/* The next field up to '|', '\0' or the end; the separator is eaten. */
static inline struct pf_view pf_next(struct pf_reader *r)
{
	size_t start = r->off;

	for (;; r->off++) {
		char c = r->off >= r->len ? '\0' : r->s[r->off];

		if (c == '|' || c == '\0') {
			struct pf_view v = { r->s + (start < r->len ? start : r->len),
					     start < r->len ? r->off - start : 0 };
			r->off++;
			return v;
		}
	}
}

/* base::StringToInt64 / StringToUInt32: the whole field, base 10. */
static inline int pf_to_i64(struct pf_view v, int64_t *out)
{
	char buf[32], *end;
	long long x;

	if (!v.len || v.len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, v.p, v.len);
	buf[v.len] = '\0';
	errno = 0;
	x = strtoll(buf, &end, 10);
	if (*end || errno)
		return -EINVAL;
	*out = x;
	return 0;
}

static inline enum pf_result pf_parse(const char *s, size_t len, struct pf_point *out)
{
	struct pf_reader r = { s, len, 0 };
	struct pf_view f0, f1, f2, f3, f4;
	int64_t tgid = -1;
	int has_tgid;

	memset(out, 0, sizeof(*out));
	while (r.len && (s[r.len - 1] == '\n' || s[r.len - 1] == '\0'))
		r.len--;
	f0 = pf_next(&r);
	if (!f0.len)
		return PF_FAILURE;
	out->phase = f0.p[0];
	f1 = pf_next(&r);
	has_tgid = !pf_to_i64(f1, &tgid) && tgid >= 0 && tgid <= UINT32_MAX && f1.p[0] != '-';
	out->tgid = has_tgid ? (uint32_t)tgid : 0;
	switch (out->phase) {
	case 'B':
		if (!has_tgid)
			return PF_FAILURE;
		out->name = r.off < r.len ? (struct pf_view){ s + r.off, r.len - r.off } :
					    (struct pf_view){ "[empty slice name]", 18 };
		return PF_SUCCESS;
	case 'E':
		return PF_SUCCESS;
	case 'S':
	case 'F':
	case 'C':
		f2 = pf_next(&r);
		f3 = pf_next(&r);
		if (!has_tgid || !f2.len || pf_to_i64(f3, &out->value))
			return PF_FAILURE;
		out->name = f2;
		return PF_SUCCESS;
	case 'I':
		f2 = pf_next(&r);
		if (!has_tgid || !f2.len)
			return PF_FAILURE;
		out->name = f2;
		return PF_SUCCESS;
	case 'N':
		f2 = pf_next(&r);
		f3 = pf_next(&r);
		if (!has_tgid || !f2.len || !f3.len)
			return PF_FAILURE;
		out->track = f2;
		out->name = f3;
		return PF_SUCCESS;
	case 'G':
		f2 = pf_next(&r);
		f3 = pf_next(&r);
		f4 = pf_next(&r);
		if (!has_tgid || !f2.len || !f3.len || pf_to_i64(f4, &out->value))
			return PF_FAILURE;
		out->track = f2;
		out->name = f3;
		return PF_SUCCESS;
	case 'H':
		f2 = pf_next(&r);
		f3 = pf_next(&r);
		f4 = pf_next(&r);
		if (!has_tgid || !f2.len || pf_to_i64(f4.len ? f4 : f3, &out->value))
			return PF_FAILURE;
		out->track = f2;
		return PF_SUCCESS;
	default:
		return r.len >= 23 && !memcmp(s, "trace_event_clock_sync:", 23) ? PF_UNSUPPORTED :
										  PF_FAILURE;
	}
}

/* The point as Perfetto's unit test writes it: G(123, "track", "event", 456). */
static inline void pf_render(char *buf, size_t cap, const struct pf_point *p)
{
	int n = (int)p->name.len, t = (int)p->track.len;
	long long v = (long long)p->value;

	switch (p->phase) {
	case 'B':
	case 'I':
		snprintf(buf, cap, "%c(%u, \"%.*s\")", p->phase, p->tgid, n, p->name.p);
		break;
	case 'E':
		snprintf(buf, cap, "E(%u)", p->tgid);
		break;
	case 'C':
	case 'S':
	case 'F':
		snprintf(buf, cap, "%c(%u, \"%.*s\", %lld)", p->phase, p->tgid, n, p->name.p, v);
		break;
	case 'N':
		snprintf(buf, cap, "N(%u, \"%.*s\", \"%.*s\")", p->tgid, t, p->track.p, n,
			 p->name.p);
		break;
	case 'G':
		snprintf(buf, cap, "G(%u, \"%.*s\", \"%.*s\", %lld)", p->tgid, t, p->track.p, n,
			 p->name.p, v);
		break;
	case 'H':
		snprintf(buf, cap, "H(%u, \"%.*s\", %lld)", p->tgid, t, p->track.p, v);
		break;
	default:
		snprintf(buf, cap, "?");
	}
}

#endif
