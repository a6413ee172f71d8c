// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* What a capture reader could not use, said in one line. See input.h. */
#include <stdarg.h>
#include <stdio.h>

#include "model/input.h"

bool input_stats_damaged(const struct input_stats *s)
{
	return s->damaged || s->bad_blocks || s->skipped || s->truncated || s->time_jumps ||
	       s->dropped || s->unread_events || s->untrusted;
}

struct clauses {
	char *buf;
	size_t cap;
	int len;
};

__attribute__((format(printf, 2, 3))) static void add(struct clauses *c, const char *fmt, ...)
{
	size_t at = (size_t)c->len < c->cap ? (size_t)c->len : c->cap;
	va_list ap;
	int n;

	if (c->len) {
		n = snprintf(c->buf + at, c->cap - at, ", ");
		c->len += n;
		at = (size_t)c->len < c->cap ? (size_t)c->len : c->cap;
	}
	va_start(ap, fmt);
	n = vsnprintf(c->buf + at, c->cap - at, fmt, ap);
	va_end(ap);
	c->len += n > 0 ? n : 0;
}

static const char *s_if(uint64_t n)
{
	return n == 1 ? "" : "s";
}

int input_stats_describe(const struct input_stats *s, char *buf, size_t cap)
{
	struct clauses c = { buf, cap, 0 };
	unsigned long long n;

	if (cap)
		buf[0] = '\0';
	if ((n = s->damaged))
		add(&c, "%llu damaged %s", n,
		    s->protobuf ? (n == 1 ? "packet or message" : "packets or messages") :
				  (n == 1 ? "line" : "lines"));
	if ((n = s->bad_blocks))
		add(&c, "%llu compressed block%s that did not inflate whole", n, s_if(n));
	if ((n = s->skipped))
		add(&c, "%llu byte%s skipped", n, s_if(n));
	if (s->truncated)
		add(&c, "cut at byte %llu (its last %s dropped)",
		    (unsigned long long)s->truncated_at, s->protobuf ? "packet" : "line");
	if ((n = s->time_jumps))
		add(&c, "%llu event%s with an impossible timestamp dropped", n, s_if(n));
	if ((n = s->dropped))
		add(&c, "%llu print event%s beyond the 512Ki-event index left out", n, s_if(n));
	if ((n = s->unread_events))
		add(&c, "%llu TrackEvent%s of CUJs not read (no process track, another clock)", n,
		    s_if(n));
	if ((n = s->untrusted))
		add(&c,
		    "%llu FrameTimeline event%s not written by SurfaceFlinger (uid 1000) left out",
		    n, s_if(n));
	return c.len;
}
