// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * capture_parse_line as it was before it read fields at their positions (commit 62d7d41): the
 * reference the faster parser must agree with on every line (test_parse_equiv.c, and the
 * capture_line fuzz target). Never used by animtrace itself.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "capture_line_ref.h"

#define CONST_STRLEN(s) (sizeof(s) - 1)

/* ---- one line --------------------------------------------------------------------- */

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static const char *skip_spaces(const char *p, const char *end)
{
	while (p < end && *p == ' ')
		p++;
	return p;
}

static const char *trim_spaces_back(const char *b, const char *e)
{
	while (e > b && e[-1] == ' ')
		e--;
	return e;
}

/* Parses all of [p, e) as a non-negative decimal that fits int32. */
static int parse_pid(const char *p, const char *e, int32_t *out)
{
	int64_t v = 0;

	if (p == e || e - p > 10)
		return -EINVAL;
	for (; p < e; p++) {
		if (!is_digit(*p))
			return -EINVAL;
		v = v * 10 + (*p - '0');
	}
	if (v > INT32_MAX)
		return -EINVAL;
	*out = (int32_t)v;
	return 0;
}

/*
 * The CPU column "[ddd]" preceded and followed by a space: returns its '[' and sets
 * *after to the byte after "] ". Searching for the whole pattern (not the first '[')
 * keeps task names like "pool[3]" working.
 */
static const char *find_cpu_column(const char *p, const char *end, const char **after)
{
	const char *q = p, *d;

	while ((q = memchr(q, '[', (size_t)(end - q))) != NULL) {
		d = q + 1;
		while (d < end && is_digit(*d))
			d++;
		if (q > p && q[-1] == ' ' && d > q + 1 && end - d >= 2 && d[0] == ']' &&
		    d[1] == ' ') {
			*after = d + 2;
			return q;
		}
		q++;
	}
	return NULL;
}

/* "comm-tid" optionally followed by " (tgid)"; [p, e) ends before the CPU column. */
static int parse_task(const char *p, const char *e, struct capture_line *out)
{
	const char *open, *dash, *t;
	int err;

	e = trim_spaces_back(p, e);
	if (e > p && e[-1] == ')') {
		open = memrchr(p, '(', (size_t)(e - p));
		if (!open)
			return -EINVAL;
		t = skip_spaces(open + 1, e - 1);
		if ((size_t)(e - 1 - t) == CONST_STRLEN("-----") && memcmp(t, "-----", 5) == 0)
			out->tgid = -1;
		else if ((err = parse_pid(t, e - 1, &out->tgid)) != 0)
			return err;
		e = trim_spaces_back(p, open);
	}
	/* Task names may hold '-' and spaces: the tid follows the last '-'. */
	dash = memrchr(p, '-', (size_t)(e - p));
	if (!dash)
		return -EINVAL;
	out->comm = (struct strv){ .p = p, .len = (size_t)(dash - p) };
	return parse_pid(dash + 1, e, &out->tid);
}

/* "secs.frac" with 1 to 9 decimals, exactly: no floating point. */
static int parse_ts(const char *p, const char *e, uint64_t *ns)
{
	uint64_t secs = 0, frac = 0;
	const char *dot = memchr(p, '.', (size_t)(e - p));
	int digits;

	if (!dot || dot == p || dot - p > 11 || e - dot < 2 || e - dot > 10)
		return -EINVAL;
	for (; p < dot; p++) {
		if (!is_digit(*p))
			return -EINVAL;
		secs = secs * 10 + (uint64_t)(*p - '0');
	}
	for (p = dot + 1, digits = 0; p < e; p++, digits++) {
		if (!is_digit(*p))
			return -EINVAL;
		frac = frac * 10 + (uint64_t)(*p - '0');
	}
	for (; digits < 9; digits++)
		frac *= 10;
	if (secs > (UINT64_MAX - frac) / 1000000000ull)
		return -EINVAL;
	*ns = secs * 1000000000ull + frac;
	return 0;
}

/*
 * After the CPU column: an optional flags column ("d..3", "...1", absent on old
 * kernels), then "ts:". Returns the byte after the timestamp's ':' or NULL.
 */
static const char *parse_flags_ts(const char *p, const char *end, uint64_t *ns)
{
	const char *tok_end;
	int round;

	for (round = 0; round < 2; round++) {
		p = skip_spaces(p, end);
		for (tok_end = p; tok_end < end && *tok_end != ' ';)
			tok_end++;
		if (tok_end > p && tok_end[-1] == ':' && parse_ts(p, tok_end - 1, ns) == 0)
			return tok_end;
		p = tok_end;
	}
	return NULL;
}

static void add_extra(struct capture_line *out, int32_t tid, struct strv comm)
{
	if (out->n_extra >= 2)
		return;
	out->extra_tid[out->n_extra] = tid;
	out->extra_comm[out->n_extra] = comm;
	out->n_extra++;
}

/*
 * Learns one "<ckey>NAME<pkey>N" pair from [p, end). Names may hold spaces, so the
 * name runs up to the pid key. Returns where the scan stopped or NULL.
 */
static const char *learn_name_n(const char *p, const char *end, const char *ckey, size_t cl,
				const char *pkey, size_t pl, struct capture_line *out)
{
	const char *c, *k, *d;
	int32_t tid;

	c = memmem(p, (size_t)(end - p), ckey, cl);
	if (!c)
		return NULL;
	c += cl;
	k = memmem(c, (size_t)(end - c), pkey, pl);
	if (!k)
		return NULL;
	for (d = k + pl; d < end && is_digit(*d);)
		d++;
	if (parse_pid(k + pl, d, &tid))
		return NULL;
	add_extra(out, tid, (struct strv){ .p = c, .len = (size_t)(k - c) });
	return d;
}

/* task_rename: "pid=N oldcomm=X newcomm=Y oom_score_adj=A"; zygote children are renamed. */
/* learn_name_n with the lengths of literal keys folded at compile time. */
#define learn_name(p, end, ckey, pkey, out) \
	learn_name_n(p, end, ckey, sizeof(ckey) - 1, pkey, sizeof(pkey) - 1, out)

static void learn_rename(const char *p, const char *end, struct capture_line *out)
{
	const char *d, *c, *k;
	int32_t tid;

	if (!strv_starts_with((struct strv){ p, (size_t)(end - p) }, "pid="))
		return;
	p += CONST_STRLEN("pid=");
	for (d = p; d < end && is_digit(*d);)
		d++;
	c = memmem(d, (size_t)(end - d), " newcomm=", CONST_STRLEN(" newcomm="));
	if (!c || parse_pid(p, d, &tid))
		return;
	c += CONST_STRLEN(" newcomm=");
	k = memmem(c, (size_t)(end - c), " oom_score_adj=", CONST_STRLEN(" oom_score_adj="));
	add_extra(out, tid, (struct strv){ c, (size_t)((k ? k : end) - c) });
}

static void learn_names(struct strv event, const char *p, const char *end, struct capture_line *out)
{
	if (strv_eq(event, "sched_switch")) {
		p = learn_name(p, end, "prev_comm=", " prev_pid=", out);
		if (p)
			learn_name(p, end, "next_comm=", " next_pid=", out);
	} else if (strv_eq(event, "sched_wakeup") || strv_eq(event, "sched_waking") ||
		   strv_eq(event, "sched_wakeup_new")) {
		learn_name(p, end, "comm=", " pid=", out);
	} else if (strv_eq(event, "task_rename")) {
		learn_rename(p, end, out);
	}
}

/* "event: fields" from p; fills payload or extras. */
static int parse_event(const char *p, const char *end, struct capture_line *out)
{
	const char *colon;
	struct strv event;

	p = skip_spaces(p, end);
	colon = memchr(p, ':', (size_t)(end - p));
	if (!colon || colon == p || memchr(p, ' ', (size_t)(colon - p)))
		return -EINVAL;
	event = (struct strv){ .p = p, .len = (size_t)(colon - p) };
	p = colon + 1;
	if (p < end && *p++ != ' ')
		return -EINVAL;
	if (strv_eq(event, "tracing_mark_write") || strv_eq(event, "print")) {
		out->payload = (struct strv){ .p = p, .len = (size_t)(end - p) };
		return CAPTURE_MARKER;
	}
	learn_names(event, p, end, out);
	return CAPTURE_SCHED;
}

int capture_parse_line_ref(const char *line, size_t len, struct capture_line *out)
{
	const char *p = line, *end = line + len, *cpu, *rest;
	int err;

	memset(out, 0, sizeof(*out));
	out->tgid = -1;
	out->comm = out->payload = (struct strv){ .p = "", .len = 0 };
	if (memchr(line, '\0', len)) /* binary junk inside a capture: this line only */
		return -EINVAL;
	while (end > p && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p == '#')
		return CAPTURE_SKIP;
	cpu = find_cpu_column(p, end, &rest);
	if (!cpu)
		return -EINVAL;
	err = parse_task(p, cpu, out);
	if (err)
		return err;
	p = parse_flags_ts(rest, end, &out->ts_ns);
	if (!p)
		return -EINVAL;
	return parse_event(p, end, out);
}
