/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Reading animtrace's log entries back, independently of src/sinks/logcat.c, and holding them
 * against the box output of the same run (-o FILE, box format, --frames):
 *   lc_parse_fakelogd: the lines tests/logd/fakelogd wrote, one per datagram;
 *   lc_parse_threadtime: `logcat -v threadtime` text (--logcat-out): each line's prefix is
 *     checked ("MM-DD HH:MM:SS.mmm PPPPP TTTTT P TAG     : "), the lines of one entry are
 *     regrouped (a header that differs, or a line that starts an entry of animtrace's);
 *   lc_rejoin: "(part i/n)" messages back into their entry;
 *   lc_check: each entry's tag and priority for what it holds, and its text in the box output:
 *     boxes, Target and note lines in the same order; ViewPropTrace's node lines under the
 *     frame line of the same frame; ViewRefresh's Views and vsync requests in that frame's line;
 *     findings' lines inside the boxes.
 * Header-only: the e2e tests, the replay tests and tests/logd/logcheck_main.c (arm64) use it.
 */
#ifndef ANIMTRACE_TESTS_LOGCHECK_H
#define ANIMTRACE_TESTS_LOGCHECK_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lc_entry {
	char prio; /* 'D', 'I', 'W' */
	char tag[64];
	char *msg;
	unsigned int pid, tid;
	char time[20]; /* threadtime's "MM-DD HH:MM:SS.mmm"; "" from fakelogd */
};

struct lc_log {
	struct lc_entry *e;
	size_t n, cap;
	size_t bad; /* lines that were not what they must be */
	char why[256];
};

/* What lc_check matched, by kind. */
struct lc_counts {
	size_t boxes, targets, notes, batches, refresh, findings, limited, failed;
	char why[512];
};

static inline void lc_add(struct lc_log *l, char prio, const char *tag, const char *msg, size_t len)
{
	struct lc_entry *e;

	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->e = realloc(l->e, l->cap * sizeof(*l->e));
	}
	e = &l->e[l->n++];
	memset(e, 0, sizeof(*e));
	e->prio = prio;
	snprintf(e->tag, sizeof(e->tag), "%s", tag);
	e->msg = strndup(msg, len);
}

static inline void lc_free(struct lc_log *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->e[i].msg);
	free(l->e);
	memset(l, 0, sizeof(*l));
}

static inline void lc_bad(struct lc_log *l, const char *what, const char *line)
{
	if (!l->bad++)
		snprintf(l->why, sizeof(l->why), "%s: %.200s", what, line);
}

/* "<prio> <tid> <sec>.<nsec> <tag>\t<escaped message>" per line. */
static inline void lc_parse_fakelogd(struct lc_log *l, const char *text)
{
	static const char pri[] = "??VDIWEF";

	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n'), *tab = strchr(p, '\t');
		char tag[64], *msg, *q;
		unsigned int prio, tid, sec, nsec;

		nl = nl ? nl : p + strlen(p);
		if (!tab || tab > nl ||
		    sscanf(p, "%u %u %u.%u %63[^\t]", &prio, &tid, &sec, &nsec, tag) != 5 ||
		    prio > 7) {
			lc_bad(l, "fakelogd line", p);
			p = *nl ? nl + 1 : nl;
			continue;
		}
		msg = malloc((size_t)(nl - tab));
		q = msg;
		for (const char *s = tab + 1; s < nl; s++) {
			if (*s == '\\' && s + 1 < nl) {
				s++;
				*q++ = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s;
			} else {
				*q++ = *s;
			}
		}
		lc_add(l, pri[prio], tag, msg, (size_t)(q - msg));
		l->e[l->n - 1].tid = tid;
		free(msg);
		p = *nl ? nl + 1 : nl;
	}
}

/* A line that begins an entry of animtrace's, whatever the line before it. */
static inline bool lc_starts_entry(const char *s)
{
	static const char *const starts[] = {
		"┌", "(part ", "── ", "invalidate ", "scheduleVsync ", "note: ", "│ Target: #"
	};

	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
		if (!strncmp(s, starts[i], strlen(starts[i])))
			return true;
	return false;
}

/* One threadtime line: its prefix checked field by field; 0 or -1. */
static inline int lc_threadtime_line(const char *line, struct lc_entry *h, const char **text)
{
	int mo, d, hh, mm, ss, ms, n = 0;
	char prio, tag[64];

	if (sscanf(line, "%2d-%2d %2d:%2d:%2d.%3d %5u %5u %c %63s%n", &mo, &d, &hh, &mm, &ss, &ms,
		   &h->pid, &h->tid, &prio, tag, &n) != 10 ||
	    line[2] != '-' || line[5] != ' ' || line[18] != ' ' || mo < 1 || mo > 12 ||
	    !strchr("VDIWEF", prio))
		return -1;
	/* "%-8s: ": the tag padded to 8 columns, then ": " */
	if (strlen(tag) < 2 || tag[strlen(tag) - 1] != ':')
		return -1;
	tag[strlen(tag) - 1] = '\0';
	if (line[n] != ' ')
		return -1;
	h->prio = prio;
	snprintf(h->tag, sizeof(h->tag), "%s", tag);
	snprintf(h->time, sizeof(h->time), "%.18s", line);
	*text = line + n + 1;
	return 0;
}

/* A part's first line alone so far: its text follows, whatever it starts with. */
static inline bool lc_part_head(const char *cur)
{
	return !strncmp(cur, "(part ", 6) && !strchr(cur, '\n');
}

static inline void lc_parse_threadtime(struct lc_log *l, const char *text)
{
	struct lc_entry last = { 0 };
	char *cur = NULL;
	size_t len = 0;

	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n'), *body;
		char *line;
		struct lc_entry h = { 0 };

		nl = nl ? nl : p + strlen(p);
		line = strndup(p, (size_t)(nl - p));
		p = *nl ? nl + 1 : nl;
		if (lc_threadtime_line(line, &h, &body)) {
			lc_bad(l, "threadtime line", line);
			free(line);
			continue;
		}
		if (cur && (h.prio != last.prio || strcmp(h.tag, last.tag) || h.pid != last.pid ||
			    h.tid != last.tid || strcmp(h.time, last.time) ||
			    (lc_starts_entry(body) && !lc_part_head(cur)))) {
			lc_add(l, last.prio, last.tag, cur, len);
			l->e[l->n - 1].pid = last.pid, l->e[l->n - 1].tid = last.tid;
			memcpy(l->e[l->n - 1].time, last.time, sizeof(last.time));
			free(cur);
			cur = NULL;
		}
		if (!cur) {
			cur = strdup(body);
			len = strlen(cur);
			last = h;
		} else {
			cur = realloc(cur, len + strlen(body) + 2);
			len += (size_t)sprintf(cur + len, "\n%s", body);
		}
		free(line);
	}
	if (cur) {
		lc_add(l, last.prio, last.tag, cur, len);
		l->e[l->n - 1].pid = last.pid, l->e[l->n - 1].tid = last.tid;
		memcpy(l->e[l->n - 1].time, last.time, sizeof(last.time));
		free(cur);
	}
}

/* "(part i/n[, continued mid-line])\n<text>" messages of one entry back into one. */
static inline void lc_rejoin(struct lc_log *l)
{
	size_t w = 0;

	for (size_t i = 0; i < l->n;) {
		unsigned int k, n;

		if (sscanf(l->e[i].msg, "(part %u/%u", &k, &n) != 2 || k != 1 ||
		    !strchr(l->e[i].msg, '\n')) {
			if (!strncmp(l->e[i].msg, "(part ", 6))
				lc_bad(l, "part out of sequence", l->e[i].msg);
			l->e[w++] = l->e[i++];
			continue;
		}
		char *joined = strdup(strchr(l->e[i].msg, '\n') + 1);
		size_t j = 1;

		for (; j < n && i + j < l->n; j++) {
			const char *m = l->e[i + j].msg, *body = strchr(m, '\n');
			unsigned int kk, nn;

			if (sscanf(m, "(part %u/%u", &kk, &nn) != 2 || kk != j + 1 || nn != n ||
			    !body || strcmp(l->e[i + j].tag, l->e[i].tag)) {
				lc_bad(l, "part out of sequence", m);
				break;
			}
			joined = realloc(joined, strlen(joined) + strlen(body) + 2);
			if (!strstr(m, ", continued mid-line)"))
				strcat(joined, "\n");
			strcat(joined, body + 1);
			free(l->e[i + j].msg);
		}
		free(l->e[i].msg);
		l->e[i].msg = joined;
		l->e[w++] = l->e[i];
		i += j;
	}
	l->n = w;
}

static inline bool lc_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* The tag and priority an entry must have for what it holds; NULL when unknown. */
static inline const char *lc_expected_tag(const char *m, char *prio)
{
	*prio = 'I';
	if (lc_prefix(m, "┌── Begin ") || lc_prefix(m, "┌── End ") || lc_prefix(m, "│ Target: #"))
		return "AnimatorTracer";
	if (lc_prefix(m, "┌── Spring ") || lc_prefix(m, "┌── Fling ") ||
	    lc_prefix(m, "┌── Dynamic ") || lc_prefix(m, "┌── Animation "))
		return "DynAnimTracer";
	if (lc_prefix(m, "┌── Jank") || lc_prefix(m, "┌── CUJ ") || lc_prefix(m, "┌── Summary") ||
	    lc_prefix(m, "note: "))
		return "animtrace";
	if (lc_prefix(m, "── F:") || lc_prefix(m, "── outside any frame"))
		return "ViewPropTrace";
	if (lc_prefix(m, "│ Finding:"))
		return *prio = 'W', "AnimFinding";
	*prio = 'D';
	if (lc_prefix(m, "┌── Refresh storm") || lc_prefix(m, "invalidate ") ||
	    lc_prefix(m, "scheduleVsync "))
		return "ViewRefresh";
	return NULL;
}

/* The box output's line that starts with "│ frame <seq> ", or NULL. */
static inline const char *lc_frame_line(const char *box, unsigned long long seq)
{
	char key[48];
	const char *p = box;

	snprintf(key, sizeof(key), "│ frame %llu ", seq);
	while ((p = strstr(p, key)))
		if (p == box || p[-1] == '\n')
			return p;
		else
			p++;
	return NULL;
}

static inline void lc_fail(struct lc_counts *c, const char *what, const char *msg)
{
	if (!c->failed++)
		snprintf(c->why, sizeof(c->why), "%s: %.400s", what, msg);
}

/* ViewPropTrace: "── F:<ms> ── frame <seq>, ..." then node lines, as under the frame line. */
static inline void lc_check_batch(struct lc_counts *c, const char *box, const char *m)
{
	unsigned long long ms, seq;
	const char *f, *body = strchr(m, '\n'), *after;

	if (lc_prefix(m, "── outside") || strstr(m, "not logged in the second from")) {
		c->limited += !lc_prefix(m, "── outside");
		return;
	}
	if (sscanf(m, "── F:%llu ── frame %llu,", &ms, &seq) != 2 || !body)
		return lc_fail(c, "ViewPropTrace header", m);
	f = lc_frame_line(box, seq);
	after = f ? strchr(f, '\n') : NULL;
	if (!after || strncmp(after + 1, body + 1, strlen(body + 1)) ||
	    (after[1 + strlen(body + 1)] != '\n' && after[1 + strlen(body + 1)] != '\0'))
		return lc_fail(c, "ViewPropTrace lines not under their frame's line", m);
	c->batches++;
}

/* ViewRefresh: "invalidate <View> (frame <seq> of ..." / "scheduleVsync ... (<k> request(s)
 * in frame <seq> of ...": in that frame's line. */
static inline void lc_check_refresh(struct lc_counts *c, const char *box, const char *m)
{
	char view[128], want[160];
	unsigned long long seq;
	unsigned int k;
	const char *f, *end;

	if (strstr(m, "not logged in the second from")) {
		c->limited++;
		return;
	}
	if (sscanf(m, "invalidate %127s (frame %llu of", view, &seq) == 2)
		snprintf(want, sizeof(want), " %s", view);
	else if (sscanf(m, "scheduleVsync Choreographer (%u request%*[s] in frame %llu of", &k,
			&seq) == 2 ||
		 sscanf(m, "scheduleVsync Choreographer (%u request in frame %llu of", &k, &seq) ==
			 2)
		snprintf(want, sizeof(want), "vsync requests: %u", k);
	else
		return lc_fail(c, "ViewRefresh entry", m);
	f = lc_frame_line(box, seq);
	end = f ? strchr(f, '\n') : NULL;
	if (!f || !end || !memmem(f, (size_t)(end - f), want, strlen(want)))
		return lc_fail(c, "ViewRefresh entry not in its frame's line", m);
	c->refresh++;
}

/* Every entry of l against the box output box (see the top of this file). */
static inline void lc_check(const struct lc_log *l, const char *box, struct lc_counts *c)
{
	const char *pos = box;

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < l->n; i++) {
		const char *m = l->e[i].msg, *tag, *at;
		char prio;

		tag = lc_expected_tag(m, &prio);
		if (!tag || strcmp(tag, l->e[i].tag) || prio != l->e[i].prio) {
			if (!strstr(m, "not logged in the second from") || prio == 'W') {
				lc_fail(c, tag ? "wrong tag or priority" : "unknown entry", m);
				continue;
			}
		}
		if (!strcmp(l->e[i].tag, "ViewPropTrace")) {
			lc_check_batch(c, box, m);
			continue;
		}
		if (lc_prefix(m, "invalidate ") || lc_prefix(m, "scheduleVsync ") ||
		    strstr(m, "not logged in the second from")) {
			lc_check_refresh(c, box, m);
			continue;
		}
		if (!strcmp(l->e[i].tag, "AnimFinding")) {
			size_t n = strcspn(m, "\n");

			if (!memmem(box, strlen(box), m, n))
				lc_fail(c, "finding not in the boxes", m);
			c->findings++;
			continue;
		}
		/* boxes, Target and note lines: whole lines of the box output, in order */
		at = strstr(pos, m);
		while (at && at != box && at[-1] != '\n')
			at = strstr(at + 1, m);
		if (!at || (at[strlen(m)] != '\n' && at[strlen(m)] != '\0')) {
			lc_fail(c, "not in the box output (in order)", m);
			continue;
		}
		pos = at + strlen(m);
		c->boxes += m[0] == '\xe2' && lc_prefix(m, "┌");
		c->targets += lc_prefix(m, "│ Target: #");
		c->notes += lc_prefix(m, "note: ");
	}
}

/* Boxes of a box output: lines that start with "┌" outside a box, but the summary's boxes of
 * animators still running (one entry with the summary). */
static inline size_t lc_count_boxes(const char *box)
{
	size_t n = 0;
	bool in = false;

	for (const char *p = box; *p;) {
		if (lc_prefix(p, "┌") && !in && !lc_prefix(p, "┌── Still running"))
			n++, in = true;
		else if (lc_prefix(p, "└"))
			in = false;
		p = strchr(p, '\n');
		p = p ? p + 1 : "";
	}
	return n;
}

#endif
