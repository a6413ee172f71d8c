// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ftrace text, systrace .html and Perfetto protobuf captures, read with pread() into one
 * fixed buffer (never mapped: a file cut short while it is read just ends early), lines
 * handed out as slices of it; a protobuf trace is indexed once by pftrace.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/outfile.h"
#include "replay/capture.h"
#include "replay/pftrace.h"

#define CONST_STRLEN(s) (sizeof(s) - 1)

/* ---- one line --------------------------------------------------------------------- */
/*
 * One pass from left to right over the fields at their places, none searched for twice: the
 * indent, the task and its TGID column before the CPU column, the flags, the timestamp, the
 * event name compared with the few that matter, and their fields at the keys the kernel
 * prints (TP_printk of sched_switch, sched_wakeup, task_rename). What a line means is the
 * same as when each field was searched for (tests/replay/test_parse_equiv.c holds the two
 * parsers to it on every line of the corpus, and the capture_line fuzz target on any).
 */

static bool is_digit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

static const char *skip_spaces(const char *p, const char *end)
{
	while (p < end && *p == ' ')
		p++;
	return p;
}

/* The indent: task names are right-aligned in 16 columns, so most lines start with spaces,
 * counted eight at a time where the line allows (little-endian: byte 0 is p[0]). */
static const char *skip_indent(const char *p, const char *end)
{
	uint64_t w;

	while (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && end - p >= 8) {
		memcpy(&w, p, 8);
		w ^= 0x2020202020202020ull;
		if (w) {
			p += __builtin_ctzll(w) / 8;
			break;
		}
		p += 8;
	}
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static const char *trim_spaces_back(const char *b, const char *e)
{
	while (e > b && e[-1] == ' ')
		e--;
	return e;
}

#define ALWAYS_INLINE inline __attribute__((always_inline))

/* The byte-at-a-time run of digits for scan_digits, near the line's end or past 7 digits. */
static __attribute__((noinline)) const char *scan_digits_bytes(const char *p, const char *end,
							       uint64_t *v)
{
	uint64_t acc = 0;
	unsigned d;

	for (; p < end && (d = (unsigned char)*p - '0') < 10; p++)
		acc = acc * 10 + d;
	*v = acc;
	return p;
}

/*
 * The run of digits at p, up to the line's end: returns where it ends and its value in *v
 * (modulo 2^64: callers bound the length). When 8 bytes can be read, a run of up to 7 digits
 * is found and converted in a few word operations (SWAR).
 */
static ALWAYS_INLINE const char *scan_digits(const char *p, const char *end, uint64_t *v)
{
	uint64_t w, bad, d;
	unsigned n;

	if (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ || end - p < 8)
		return scan_digits_bytes(p, end, v);
	memcpy(&w, p, 8);
	/* a byte is a digit when it is 0x30-0x39: its high nibble is 3 before and after +6 (a
	 * carry out of a non-digit only reaches the bytes after it, which do not count) */
	bad = ((w & 0xf0f0f0f0f0f0f0f0ull) ^ 0x3030303030303030ull) |
	      (((w + 0x0606060606060606ull) & 0xf0f0f0f0f0f0f0f0ull) ^ 0x3030303030303030ull);
	if (!bad)
		return scan_digits_bytes(p, end, v);
	n = (unsigned)__builtin_ctzll(bad) / 8; /* little-endian: byte 0 is p[0] */
	if (!n) {
		*v = 0;
		return p;
	}
	/* the n digits to the top bytes (the zero bytes below are leading zeros), then pairs,
	 * quads and all eight combined by multiplication */
	d = (w - 0x3030303030303030ull) << (8 * (8 - n));
	d = d * 10 + (d >> 8);
	*v = (((d & 0x000000ff000000ffull) * (100 + (1000000ull << 32))) +
	      (((d >> 16) & 0x000000ff000000ffull) * (1 + (10000ull << 32)))) >>
	     32;
	return p + n;
}

/*
 * Parses all of [p, e) as a non-negative decimal that fits int32; the byte at e, before the
 * line's end lend, is not a digit (the run of digits must end at e).
 */
static ALWAYS_INLINE int parse_pid(const char *p, const char *e, const char *lend, int32_t *out)
{
	uint64_t v;

	if (p == e || e - p > 10 || scan_digits(p, lend, &v) != e || v > INT32_MAX)
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

/*
 * "comm-tid" optionally followed by " (tgid)"; [p, e) ends before the CPU column, lend is the
 * line's end.
 */
static int parse_task(const char *p, const char *e, const char *lend, struct capture_line *out)
{
	const char *open, *t, *d;
	uint64_t v, mul;
	unsigned digit;
	int err;

	e = trim_spaces_back(p, e);
	if (e > p && e[-1] == ')') {
		open = memrchr(p, '(', (size_t)(e - p));
		if (!open)
			return -EINVAL;
		t = skip_spaces(open + 1, e - 1);
		if ((size_t)(e - 1 - t) == CONST_STRLEN("-----") && memcmp(t, "-----", 5) == 0)
			out->tgid = -1;
		else if ((err = parse_pid(t, e - 1, lend, &out->tgid)) != 0)
			return err;
		e = trim_spaces_back(p, open);
	}
	/* Task names may hold '-' and spaces: the tid is the digits after the last '-', so
	 * a name is whatever precedes the '-' before the trailing digits (read backwards, with
	 * their value). */
	for (d = e, mul = 1, v = 0;
	     d > p && (digit = (unsigned char)d[-1] - '0') < 10 && e - d < 11; d--, mul *= 10)
		v += digit * mul;
	if (d == p || d[-1] != '-' || d == e || e - d > 10 || v > INT32_MAX)
		return -EINVAL;
	out->comm = (struct strv){ .p = p, .len = (size_t)(d - 1 - p) };
	out->tid = (int32_t)v;
	return 0;
}

/*
 * A whole "secs.frac:" token at p (it ends at a space or the end): 1 to 11 digits, '.', 1
 * to 9 decimals, exactly: no floating point. Returns the byte after the ':' or NULL.
 */
static ALWAYS_INLINE const char *parse_ts(struct capture_tasks *t, const char *p, const char *end,
					  uint64_t *ns)
{
	static const uint32_t scale[10] = { 0,	   100000000, 10000000, 1000000, 100000,
					    10000, 1000,      100,	10,	 1 };
	const char *s = p, *f;
	uint64_t secs, frac, w = 0;

	/* the same seconds and '.' as the last timestamp (t): the same run of digits */
	if (t && t->secs_mask && end - p >= 8 &&
	    (memcpy(&w, p, 8), !((w ^ t->secs_word) & t->secs_mask))) {
		secs = t->secs;
		p += t->secs_len;
	} else {
		p = scan_digits(p, end, &secs);
		if (p == s || p - s > 11 || p == end || *p != '.')
			return NULL;
		if (t && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && p - s <= 7 && end - s >= 8) {
			memcpy(&t->secs_word, s, 8);
			t->secs_mask = ~0ull >> (8 * (7 - (p - s))); /* the digits and the '.' */
			t->secs = secs;
			t->secs_len = (uint32_t)(p - s);
		}
	}
	f = ++p;
	p = scan_digits(p, end, &frac);
	if (p == f || p - f > 9 || p == end || *p != ':' || (p + 1 < end && p[1] != ' '))
		return NULL;
	frac *= scale[p - f];
	if (secs > (UINT64_MAX - frac) / 1000000000ull)
		return NULL;
	*ns = secs * 1000000000ull + frac;
	return p + 1;
}

/*
 * After the CPU column: an optional flags column ("d..3", "...1", absent on old
 * kernels), then "ts:". Returns the byte after the timestamp's ':' or NULL.
 */
static ALWAYS_INLINE const char *parse_flags_ts(struct capture_tasks *t, const char *p,
						const char *end, uint64_t *ns)
{
	const char *ts;
	int round = 0;

	/* The kernel's flags column ("d..3"): four bytes that are no space, the first no digit,
	 * then a space. No timestamp starts there, so the first round would only pass it. */
	if (end - p >= 5 && !is_digit(p[0]) && p[0] != ' ' && p[1] != ' ' && p[2] != ' ' &&
	    p[3] != ' ' && p[4] == ' ') {
		p += 4;
		round = 1;
	}
	for (; round < 2; round++) {
		p = skip_spaces(p, end);
		ts = parse_ts(t, p, end, ns);
		if (ts)
			return ts;
		while (p < end && *p != ' ')
			p++;
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
 * The first key in [p, end), or NULL (memmem's answer). The keys start with a byte that is
 * rare before them ('p', 'n', 'c', ' '), so memchr lands on the key itself in the
 * kernel's layout: no byte is looked at twice.
 */
static ALWAYS_INLINE const char *find_key(const char *p, const char *end, const char *key,
					  size_t kl)
{
	while ((size_t)(end - p) >= kl &&
	       (p = memchr(p, key[0], (size_t)(end - p) - kl + 1)) != NULL) {
		if (!memcmp(p, key, kl))
			return p;
		p++;
	}
	return NULL;
}

#define FIND_KEY(p, end, key) find_key(p, end, key, CONST_STRLEN(key))

/*
 * Learns one "<ckey>NAME<pkey>N" pair from [p, end). Names may hold spaces, so the
 * name runs up to the pid key. Returns where the scan stopped or NULL.
 */
static ALWAYS_INLINE const char *learn_name_n(const char *p, const char *end, const char *ckey,
					      size_t cl, const char *pkey, size_t pl,
					      struct capture_line *out)
{
	const char *c, *k, *d;
	int32_t tid;
	uint64_t v;

	/* the kernel's layout puts ckey first: no search then */
	c = (size_t)(end - p) >= cl && !memcmp(p, ckey, cl) ? p : find_key(p, end, ckey, cl);
	if (!c)
		return NULL;
	c += cl;
	k = find_key(c, end, pkey, pl);
	if (!k)
		return NULL;
	d = scan_digits(k + pl, end, &v);
	if (d == k + pl || d - (k + pl) > 10 || v > INT32_MAX)
		return NULL;
	tid = (int32_t)v;
	add_extra(out, tid, (struct strv){ .p = c, .len = (size_t)(k - c) });
	return d;
}

/* learn_name_n with the lengths of literal keys folded at compile time. */
#define learn_name(p, end, ckey, pkey, out) \
	learn_name_n(p, end, ckey, sizeof(ckey) - 1, pkey, sizeof(pkey) - 1, out)

/* task_rename: "pid=N oldcomm=X newcomm=Y oom_score_adj=A"; zygote children are renamed. */
static void learn_rename(const char *p, const char *end, struct capture_line *out)
{
	const char *d, *c, *k;
	int32_t tid;
	uint64_t v;

	if (!strv_starts_with((struct strv){ p, (size_t)(end - p) }, "pid="))
		return;
	p += CONST_STRLEN("pid=");
	d = scan_digits(p, end, &v);
	c = FIND_KEY(d, end, " newcomm=");
	if (!c || d == p || d - p > 10 || v > INT32_MAX)
		return;
	tid = (int32_t)v;
	c += CONST_STRLEN(" newcomm=");
	k = FIND_KEY(c, end, " oom_score_adj=");
	add_extra(out, tid, (struct strv){ c, (size_t)((k ? k : end) - c) });
}

/* The events whose fields name threads, and the markers. */
enum event_kind { EV_OTHER, EV_MARKER, EV_SWITCH, EV_WAKEUP, EV_RENAME };

/* "name:" at p, compared whole (its ':' included), so that it is the line's event name. */
#define EVENT_IS(p, n, lit) ((n) >= CONST_STRLEN(lit) && !memcmp(p, lit, CONST_STRLEN(lit)))

/* Which of those the event at p is; *len is its name's length when it is one of them. */
static enum event_kind known_event(const char *p, size_t n, size_t *len)
{
#define IS(lit, kind)                         \
	if (EVENT_IS(p, n, lit)) {            \
		*len = CONST_STRLEN(lit) - 1; \
		return kind;                  \
	}
	switch (n ? p[0] : 0) {
	case 's':
		IS("sched_switch:", EV_SWITCH);
		IS("sched_waking:", EV_WAKEUP);
		IS("sched_wakeup:", EV_WAKEUP);
		IS("sched_wakeup_new:", EV_WAKEUP);
		break;
	case 't':
		IS("tracing_mark_write:", EV_MARKER);
		IS("task_rename:", EV_RENAME);
		break;
	case 'p':
		IS("print:", EV_MARKER);
		break;
	}
#undef IS
	return EV_OTHER;
}

/* "event: fields" from p; fills payload or extras. */
static int parse_event(const char *p, const char *end, struct capture_line *out)
{
	const char *colon;
	enum event_kind kind;
	size_t len = 0;

	p = skip_spaces(p, end);
	kind = known_event(p, (size_t)(end - p), &len);
	if (kind != EV_OTHER) {
		colon = p + len;
	} else {
		colon = memchr(p, ':', (size_t)(end - p));
		if (!colon || colon == p || memchr(p, ' ', (size_t)(colon - p)))
			return -EINVAL;
	}
	p = colon + 1;
	if (p < end && *p++ != ' ')
		return -EINVAL;
	switch (kind) {
	case EV_MARKER:
		out->payload = (struct strv){ .p = p, .len = (size_t)(end - p) };
		return CAPTURE_MARKER;
	case EV_SWITCH:
		p = learn_name(p, end, "prev_comm=", " prev_pid=", out);
		if (p)
			learn_name(p, end, "next_comm=", " next_pid=", out);
		break;
	case EV_WAKEUP:
		learn_name(p, end, "comm=", " pid=", out);
		break;
	case EV_RENAME:
		learn_rename(p, end, out);
		break;
	case EV_OTHER:
		break;
	}
	return CAPTURE_SCHED;
}

static void clear_line(struct capture_line *out)
{
	out->ts_ns = 0;
	out->tgid = -1;
	out->tid = 0;
	out->comm = out->payload = (struct strv){ .p = "", .len = 0 };
	out->n_extra = 0;
}

/* memcmp(a, b, n) == 0 for 8 <= n, a word at a time (the last one overlapping): no call. */
static ALWAYS_INLINE bool same_bytes(const char *a, const char *b, size_t n)
{
	uint64_t x, y;
	size_t i;

	for (i = 0; i + 8 < n; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return false;
	}
	memcpy(&x, a + n - 8, 8);
	memcpy(&y, b + n - 8, 8);
	return x == y;
}

/*
 * The task of a line whose bytes up to its CPU column "[ddd] " are those of the line kept for
 * that CPU: everything before the CPU column (the indent, where the column is, the task) is
 * read from those bytes alone, so it reads as it did then. Returns the byte after "] " or NULL.
 */
static ALWAYS_INLINE const char *task_seen(struct capture_tasks *t, const char *line,
					   const char *end, struct capture_line *out)
{
	size_t o = t->cpu_off, cpu;
	const char *c = line + o;

	if (o < 2 || (size_t)(end - line) < o + 6 || c[0] != '[' || c[4] != ']')
		return NULL;
	cpu = (unsigned char)c[3] & (CAPTURE_TASK_CPUS - 1);
	const struct capture_task *s = &t->slot[2 * cpu + t->last[cpu]];

	if (s->plen != o + 6 || !same_bytes(s->pre, line, o + 6)) {
		s = &t->slot[2 * cpu + !t->last[cpu]]; /* the CPU's other task */
		if (s->plen != o + 6 || !same_bytes(s->pre, line, o + 6))
			return NULL;
		t->last[cpu] = !t->last[cpu];
	}
	out->comm = (struct strv){ .p = line + s->comm_off, .len = s->comm_len };
	out->tid = s->tid;
	out->tgid = s->tgid;
	return c + 6;
}

/* Keeps a task read in full for its CPU, over the one of its two it used longer ago (a 3-digit
 * CPU column within the kept bytes). */
static void task_keep(struct capture_tasks *t, const char *line, const char *cpu, const char *rest,
		      const struct capture_line *out)
{
	size_t plen = (size_t)(rest - line), n;
	struct capture_task *s;

	if (plen > CAPTURE_TASK_PREFIX_MAX || rest - cpu != 6)
		return;
	t->cpu_off = (uint32_t)(cpu - line);
	n = (unsigned char)cpu[3] & (CAPTURE_TASK_CPUS - 1);
	t->last[n] = !t->last[n]; /* over the slot used longer ago */
	s = &t->slot[2 * n + t->last[n]];
	memcpy(s->pre, line, plen);
	s->plen = (uint8_t)plen;
	s->comm_off = (uint8_t)(out->comm.p - line);
	s->comm_len = (uint8_t)out->comm.len;
	s->tid = out->tid;
	s->tgid = out->tgid;
}

/* capture_parse_line of a line known to hold no NUL byte; t may be NULL. */
static ALWAYS_INLINE int parse_line(struct capture_tasks *t, const char *line, size_t len,
				    struct capture_line *out)
{
	const char *p = line, *end = line + len, *cpu, *rest;
	int err;

	clear_line(out);
	while (end > p && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	rest = t ? task_seen(t, line, end, out) : NULL;
	if (!rest) {
		p = skip_indent(p, end);
		if (p == end || *p == '#')
			return CAPTURE_SKIP;
		cpu = find_cpu_column(p, end, &rest);
		if (!cpu)
			return -EINVAL;
		err = parse_task(p, cpu, end, out);
		if (err)
			return err;
		if (t)
			task_keep(t, line, cpu, rest, out);
	}
	p = parse_flags_ts(t, rest, end, &out->ts_ns);
	if (!p)
		return -EINVAL;
	return parse_event(p, end, out);
}

int capture_parse_line(const char *line, size_t len, struct capture_line *out)
{
	if (memchr(line, '\0', len)) { /* binary junk inside a capture: this line only */
		clear_line(out);
		return -EINVAL;
	}
	return parse_line(NULL, line, len, out);
}

int capture_parse_line_tasks(struct capture_tasks *t, const char *line, size_t len,
			     struct capture_line *out)
{
	if (memchr(line, '\0', len)) {
		clear_line(out);
		return -EINVAL;
	}
	return parse_line(t, line, len, out);
}

/* ---- the file --------------------------------------------------------------------- */

#define LINE_MAX_BYTES (64u << 10) /* longer lines are malformed, skipped, never buffered */
#define BUF_BYTES (256u << 10)	   /* the read buffer: a few lines of the longest kind */

struct text_range {
	uint64_t off, len;
};

struct capture {
	int fd;		      /* a regular file; other inputs are first copied to a temp file */
	struct file_id in_id; /* the input as opened (not its temp copy); set when a regular file */
	uint64_t size;	      /* of the file at open */
	struct text_range *ranges; /* where the ftrace text is inside the file */
	size_t n_ranges;
	size_t cur;	   /* index into ranges */
	uint64_t next_off; /* file offset of the next read, inside ranges[cur] */
	char *buf;	   /* read buffer: unread bytes are [start, end) */
	size_t start, end;
	bool skipping;	 /* inside an overlong line: drop bytes up to its newline */
	bool last_no_nl; /* the line just returned ended at the end of the text */
	bool html_cut;	 /* the last html block has no </script>: the file was cut */
	size_t clean;	 /* the bytes of buf before clean not yet parsed hold no NUL byte */
	uint64_t text_bytes;
	struct capture_damage dmg;
	struct pftrace *pf;	    /* protobuf capture: its index; NULL for text */
	size_t pf_thread;	    /* next thread name to hand out */
	size_t pf_print;	    /* next print event to hand out */
	struct capture_tasks tasks; /* the task columns read before, per CPU */
};

static const char trace_data_tag[] = "<script class=\"trace-data\" type=\"application/text\">";

/* n bytes at off (off < 0: from the current position), fewer only at the end; or -errno. */
static ssize_t io_full(int fd, void *buf, size_t n, int64_t off)
{
	size_t done = 0;
	ssize_t r;

	while (done < n) {
		r = off < 0 ? read(fd, (char *)buf + done, n - done) :
			      pread(fd, (char *)buf + done, n - done, (off_t)(off + (int64_t)done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		done += (size_t)r;
	}
	return (ssize_t)done;
}

static ssize_t pread_all(int fd, void *buf, size_t n, uint64_t off)
{
	return io_full(fd, buf, n, (int64_t)off);
}

static ssize_t read_full(int fd, char *buf, size_t n)
{
	return io_full(fd, buf, n, -1);
}

static ssize_t fd_read(void *ctx, void *buf, size_t n, uint64_t off)
{
	return pread_all(*(int *)ctx, buf, n, off);
}

static int add_range(struct capture *c, uint64_t b, uint64_t e)
{
	struct text_range *tmp;

	if (e <= b)
		return 0;
	tmp = realloc(c->ranges, (c->n_ranges + 1) * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	c->ranges = tmp;
	c->ranges[c->n_ranges++] = (struct text_range){ b, e - b };
	c->text_bytes += e - b;
	return 0;
}

/* The first offset in [from, to) where needle starts, or -1; read in bounded chunks. */
static int64_t find_in(struct capture *c, const char *needle, uint64_t from, uint64_t to)
{
	size_t nl = strlen(needle);
	const char *hit;
	ssize_t n;

	while (from + nl <= to) {
		n = pread_all(c->fd, c->buf,
			      (size_t)(to - from < BUF_BYTES ? to - from : BUF_BYTES), from);
		if (n < (ssize_t)nl)
			return -1;
		hit = memmem(c->buf, (size_t)n, needle, nl);
		if (hit)
			return (int64_t)(from + (uint64_t)(hit - c->buf));
		from += (uint64_t)n - (nl - 1); /* a match may straddle two chunks */
	}
	return -1;
}

/* A trace-data block holds ftrace text when one of its lines starts with "# tracer:". */
static bool has_ftrace_header(struct capture *c, uint64_t b, uint64_t e)
{
	char head[512];
	ssize_t n =
		pread_all(c->fd, head, e - b < sizeof(head) ? (size_t)(e - b) : sizeof(head), b);
	ssize_t i = 0;

	while (i < n && (head[i] == '\n' || head[i] == '\r' || head[i] == ' '))
		i++;
	if (n - i >= (ssize_t)CONST_STRLEN("# tracer:") && memcmp(head + i, "# tracer:", 9) == 0)
		return true;
	return find_in(c, "\n# tracer:", b, e) >= 0;
}

/* Adds the block's text without the newline after the tag and the indent before </script>. */
static int add_block(struct capture *c, uint64_t b, uint64_t e)
{
	char edge[256];
	size_t n = e - b < sizeof(edge) ? (size_t)(e - b) : sizeof(edge);
	ssize_t got = pread_all(c->fd, edge, n, b);
	size_t i = 0, t;

	if (got > 0 && edge[i] == '\r')
		i++;
	if ((ssize_t)i < got && edge[i] == '\n')
		i++;
	b += i;
	got = pread_all(c->fd, edge, n, e - n);
	for (t = got > 0 ? (size_t)got : 0; t > 0 && (edge[t - 1] == ' ' || edge[t - 1] == '\t');)
		t--;
	if (e - (n - t) <= b || (t > 0 && edge[t - 1] == '\n'))
		e -= n - t;
	return add_range(c, b, e);
}

/* Every trace-data block with ftrace text, found with bounded reads of the whole file. */
static int find_html_text(struct capture *c)
{
	int64_t tag = find_in(c, trace_data_tag, 0, c->size), e;
	uint64_t b;
	bool cut;
	int err;

	while (tag >= 0) {
		b = (uint64_t)tag + CONST_STRLEN(trace_data_tag);
		e = find_in(c, "</script>", b, c->size);
		cut = e < 0;
		if (cut) {
			c->dmg.truncated_at = c->size;
			e = (int64_t)c->size;
		}
		if (has_ftrace_header(c, b, (uint64_t)e)) {
			err = add_block(c, b, (uint64_t)e);
			if (err)
				return err;
			c->html_cut = cut;
		}
		tag = find_in(c, trace_data_tag, (uint64_t)e, c->size);
	}
	if (!c->n_ranges)
		c->dmg.truncated_at = 0;
	return c->n_ranges ? 0 : -EINVAL;
}

/*
 * A Perfetto trace starts with field 1, wire type 2 (0x0a) and a well-formed packet.
 * Text starting with a blank line could pass that by chance, but would also have to be
 * free of NUL bytes and parse to the end without damage. Returns 1 when c is now a
 * protobuf capture, 0 when the data is text after all, or a negative errno.
 */
static int open_protobuf(struct capture *c, bool has_nul)
{
	struct pf_src src = { fd_read, &c->fd, c->size };
	struct pf_damage d;

	c->pf = pftrace__read(&src);
	if (!c->pf)
		return errno == EINVAL ? 0 : -errno;
	if (!has_nul && pftrace__malformed(c->pf)) {
		pftrace__free(c->pf);
		c->pf = NULL;
		return 0;
	}
	pftrace__damage(c->pf, &d);
	c->dmg.skipped_bytes = d.skipped_bytes;
	c->dmg.skipped_packets = d.skipped_packets + d.skipped_events;
	c->dmg.bad_messages = d.bad_messages;
	c->dmg.bad_blocks = d.bad_blocks;
	c->dmg.packets = d.packets;
	c->dmg.truncated_at = d.truncated_at;
	c->dmg.dropped = d.dropped_prints;
	c->dmg.unread_events = d.unread_events;
	c->dmg.untrusted = d.untrusted;
	c->text_bytes = c->size;
	return 1;
}

/* Does head hold one line that reads as ftrace text (an event, or the "# tracer:" header)? */
static bool looks_like_ftrace(const char *head, size_t len)
{
	const char *p = head, *end = head + len, *nl;
	struct capture_line l;
	int kind;

	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (nl - p > LINE_MAX_BYTES)
			continue;
		if ((size_t)(nl - p) >= 9 && memcmp(p, "# tracer:", 9) == 0)
			return true;
		kind = capture_parse_line(p, (size_t)(nl - p), &l);
		if (kind == CAPTURE_MARKER || kind == CAPTURE_SCHED)
			return true;
	}
	return false;
}

static bool looks_like_html(const char *head, size_t len)
{
	size_t i = 0;

	if (memmem(head, len, trace_data_tag, CONST_STRLEN(trace_data_tag)))
		return true;
	while (i < len && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
		i++;
	return len - i >= 5 &&
	       (!strncasecmp(head + i, "<!doctype html", len - i < 14 ? len - i : 14) ||
		!strncasecmp(head + i, "<html", 5));
}

/* What the first CAPTURE_PROBE_BYTES say the file is: 0 when text was found; -errno. */
static int probe(const char *head, size_t len, struct capture_probe *why)
{
	why->probed = len;
	if (len == 0)
		return -ENODATA;
	if (len >= 2 && (uint8_t)head[0] == 0x1f && (uint8_t)head[1] == 0x8b)
		return -EPROTONOSUPPORT;
	if (pftrace_detect(head, len) || looks_like_html(head, len) || looks_like_ftrace(head, len))
		return 0;
	return -EINVAL;
}
static int write_full(int fd, const char *buf, size_t n)
{
	ssize_t r;

	for (; n; buf += r, n -= (size_t)r) {
		r = write(fd, buf, n);
		if (r < 0 && errno == EINTR)
			r = 0;
		else if (r < 0)
			return -errno;
	}
	return 0;
}

/* An unlinked temp file in $TMPDIR (Android's shell sets it), else /tmp. */
static int temp_fd(void)
{
	const char *dir = getenv("TMPDIR");
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/animtrace-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	unlink(path);
	return fd;
}

/*
 * A pipe, FIFO or device is read once into a temp file (a replay may read twice), after its
 * first bytes passed the probe: /dev/zero or a stream of junk is refused within them.
 */
static int spool(int in, char *head, struct capture_probe *why)
{
	ssize_t n = read_full(in, head, CAPTURE_PROBE_BYTES);
	int fd, err;

	if (n < 0)
		return (int)n;
	err = probe(head, (size_t)n, why);
	if (err)
		return err;
	fd = temp_fd();
	if (fd < 0)
		return fd;
	err = write_full(fd, head, (size_t)n);
	while (!err && (n = read_full(in, head, CAPTURE_PROBE_BYTES)) > 0)
		err = write_full(fd, head, (size_t)n);
	if (!err && n < 0)
		err = (int)n;
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

/* c->fd and c->size: the file itself, or the spooled copy of a stream. */
static int open_input(struct capture *c, const char *path, char *head, struct capture_probe *why)
{
	struct stat st;
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : dup(0);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		close(fd);
		return -errno;
	}
	c->in_id =
		(struct file_id){ (uint64_t)st.st_dev, (uint64_t)st.st_ino, S_ISREG(st.st_mode) };
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode)) {
		c->fd = spool(fd, head, why);
		close(fd);
		if (c->fd < 0)
			return c->fd;
		if (fstat(c->fd, &st))
			return -errno;
	} else {
		c->fd = fd;
	}
	c->size = (uint64_t)st.st_size;
	return 0;
}

/* Decides the format from the first bytes, then finds where the ftrace text is. */
static int find_text(struct capture *c, char *head, struct capture_probe *why)
{
	ssize_t n = pread_all(c->fd, head, CAPTURE_PROBE_BYTES, 0);
	size_t nul_span;
	int err;

	if (n < 0)
		return (int)n;
	err = probe(head, (size_t)n, why);
	if (err)
		return err;
	nul_span = n < 4096 ? (size_t)n : 4096;
	/* Checked first: protobuf can hold the html tag bytes in a print. */
	if (pftrace_detect(head, (size_t)n)) {
		err = open_protobuf(c, memchr(head, '\0', nul_span) != NULL);
		if (err)
			return err < 0 ? err : 0;
	}
	if (looks_like_html(head, (size_t)n))
		return find_html_text(c);
	if (!looks_like_ftrace(head, (size_t)n))
		return -EINVAL;
	return add_range(c, 0, c->size);
}

struct capture *capture__open_probe(const char *path, struct capture_probe *why)
{
	struct capture *c = calloc(1, sizeof(*c));
	char *head = malloc(CAPTURE_PROBE_BYTES);
	int err = -ENOMEM;

	*why = (struct capture_probe){ 0 };
	if (!c || !head)
		goto fail;
	c->fd = -1;
	c->buf = malloc(BUF_BYTES);
	if (!c->buf)
		goto fail;
	err = open_input(c, path, head, why);
	if (!err)
		err = find_text(c, head, why);
	if (err)
		goto fail;
	free(head);
	capture__rewind(c);
	return c;
fail:
	free(head);
	capture__free(c);
	errno = -err;
	return NULL;
}

struct capture *capture__open(const char *path)
{
	struct capture_probe why;

	return capture__open_probe(path, &why);
}

/* Reads more of ranges[cur] after the unread bytes. Returns bytes added (0: its end). */
static size_t fill(struct capture *c)
{
	const struct text_range *r = &c->ranges[c->cur];
	uint64_t left = r->off + r->len - c->next_off;
	size_t room;
	ssize_t n;

	if (c->start) {
		memmove(c->buf, c->buf + c->start, c->end - c->start);
		c->end -= c->start;
		c->clean = c->clean > c->start ? c->clean - c->start : 0;
		c->start = 0;
	}
	room = BUF_BYTES - c->end;
	n = pread_all(c->fd, c->buf + c->end, left < room ? (size_t)left : room, c->next_off);
	if (n <= 0) /* an error or a file cut short while read: the text ends here */
		return 0;
	c->end += (size_t)n;
	c->next_off += (uint64_t)n;
	return (size_t)n;
}

static bool next_range(struct capture *c)
{
	if (++c->cur >= c->n_ranges)
		return false;
	c->next_off = c->ranges[c->cur].off;
	c->start = c->end = c->clean = 0;
	c->skipping = false;
	return true;
}

/* Drops an overlong line's bytes up to its newline. Returns true once past it. */
static bool skip_overlong(struct capture *c)
{
	char *nl = memchr(c->buf + c->start, '\n', c->end - c->start);

	if (!nl) {
		c->start = c->end = c->clean = 0;
		return false;
	}
	c->start = (size_t)(nl + 1 - c->buf);
	c->skipping = false;
	return true;
}

/* 1: a line in (*line, *len); 2: an overlong line was skipped; 0: the end of the text. */
static int next_line(struct capture *c, const char **line, size_t *len)
{
	char *p, *nl;

	while (c->cur < c->n_ranges) {
		if (c->skipping) {
			if (skip_overlong(c))
				return 2;
		} else {
			p = c->buf + c->start;
			nl = memchr(p, '\n', c->end - c->start);
			if (nl || (c->end - c->start >= LINE_MAX_BYTES)) {
				if (!nl) {
					c->skipping = true;
					continue;
				}
				c->start = (size_t)(nl + 1 - c->buf);
				c->last_no_nl = false;
				*line = p;
				*len = (size_t)(nl - p);
				if (*len > LINE_MAX_BYTES)
					return 2;
				if (*len && p[*len - 1] == '\r')
					(*len)--;
				return 1;
			}
		}
		if (fill(c))
			continue;
		if (!c->skipping && c->end > c->start) { /* the last line, without newline */
			*line = c->buf + c->start;
			*len = c->end - c->start;
			c->start = c->end;
			c->last_no_nl = true;
			if (*len && (*line)[*len - 1] == '\r')
				(*len)--;
			return 1;
		}
		if (c->skipping) {
			c->skipping = false;
			next_range(c);
			return 2;
		}
		next_range(c);
	}
	return 0;
}

/* next_line when the buffer holds the next line whole, as it mostly does: inline, one memchr. */
static ALWAYS_INLINE int next_line_fast(struct capture *c, const char **line, size_t *len)
{
	char *p = c->buf + c->start, *nl;

	if (c->skipping || c->cur >= c->n_ranges || !(nl = memchr(p, '\n', c->end - c->start)) ||
	    nl - p > LINE_MAX_BYTES)
		return next_line(c, line, len);
	c->start = (size_t)(nl + 1 - c->buf);
	c->last_no_nl = false;
	*line = p;
	*len = (size_t)(nl - p);
	if (*len && p[*len - 1] == '\r')
		(*len)--;
	return 1;
}

int capture__next(struct capture *c, const char **line, size_t *len)
{
	int r;

	while ((r = next_line(c, line, len)) == 2)
		c->dmg.overlong++;
	return r;
}

static void fill_task(struct capture *c, int32_t tid, struct capture_line *out)
{
	const struct pf_thread *t = pftrace__thread(c->pf, tid);

	out->tid = tid;
	if (t) {
		out->tgid = t->tgid;
		out->comm = t->name;
	}
}

/* Names first (they apply to the whole trace), then print events in time order. */
static int next_pf_event(struct capture *c, struct capture_line *out)
{
	const struct pf_thread *t;
	struct pf_print p;

	clear_line(out);
	if (c->pf_thread < pftrace__n_threads(c->pf)) {
		t = pftrace__thread_at(c->pf, c->pf_thread++);
		fill_task(c, t->tid, out);
		return CAPTURE_SCHED;
	}
	if (pftrace__print(c->pf, c->pf_print, &p))
		return CAPTURE_END;
	c->pf_print++;
	fill_task(c, p.tid, out);
	out->ts_ns = p.ts_ns;
	/* Like a text line: no trailing newline (writers add one; some pad with NULs). */
	while (p.buf.len && (p.buf.p[p.buf.len - 1] == '\n' || p.buf.p[p.buf.len - 1] == '\0' ||
			     p.buf.p[p.buf.len - 1] == '\r'))
		p.buf.len--;
	out->payload = p.buf;
	return CAPTURE_MARKER;
}

/*
 * The line just read ended the text without a newline, where only a cut makes one: at the
 * end of a text file, or of the last block of an html file that has no </script>. The
 * blocks of a whole html file end without one (add_block trims it).
 */
static bool cut_last_line(const struct capture *c)
{
	if (!c->last_no_nl) /* every line but the last: nothing else to look at */
		return false;
	if (c->n_ranges == 1 && c->ranges[0].off == 0 && c->ranges[0].len == c->size)
		return true; /* plain text */
	return c->cur + 1 >= c->n_ranges && c->html_cut;
}

/*
 * Whether the line at buf[b, b + len) holds a NUL byte. The buffer is searched once past the
 * clean bytes, up to its end or the first NUL, not line by line: a capture holds none, or few.
 */
static bool line_has_nul(struct capture *c, size_t b, size_t len)
{
	const char *nul;

	if (b + len <= c->clean)
		return false;
	if (c->clean < b)
		c->clean = b;
	nul = memchr(c->buf + c->clean, '\0', c->end - c->clean);
	c->clean = nul ? (size_t)(nul - c->buf) : c->end;
	return b + len > c->clean;
}

int capture__next_event(struct capture *c, struct capture_line *out)
{
	const char *line;
	size_t len;
	int kind;

	if (c->pf)
		return next_pf_event(c, out);
	kind = next_line_fast(c, &line, &len);
	if (kind != 1) {
		clear_line(out);
		if (kind == 2)
			c->dmg.overlong++;
		return kind == 2 ? -EINVAL : CAPTURE_END;
	}
	if (line_has_nul(c, (size_t)(line - c->buf), len)) {
		clear_line(out);
		kind = -EINVAL;
	} else {
		kind = parse_line(&c->tasks, line, len, out);
	}
	if (kind != CAPTURE_SKIP && cut_last_line(c)) {
		c->dmg.truncated_at = c->next_off; /* < size when cut while read */
		clear_line(out);
		return CAPTURE_SKIP;
	}
	return kind;
}

void capture__input_id(const struct capture *c, struct file_id *out)
{
	*out = c->in_id;
}

bool capture__is_protobuf(const struct capture *c)
{
	return c->pf != NULL;
}

size_t capture__n_frames(const struct capture *c)
{
	return c->pf ? pftrace__n_frames(c->pf) : 0;
}

int capture__frame(const struct capture *c, size_t i, struct ft_frame *out)
{
	return c->pf ? pftrace__frame(c->pf, i, out) : -ERANGE;
}

void capture__rewind(struct capture *c)
{
	c->cur = 0;
	c->next_off = c->n_ranges ? c->ranges[0].off : 0;
	c->start = c->end = c->clean = 0;
	c->skipping = false;
	c->last_no_nl = false;
	c->pf_thread = 0;
	c->pf_print = 0;
	/* Counted again by the next pass; what the open found stays. */
	c->dmg.overlong = 0;
}

void capture__damage(const struct capture *c, struct capture_damage *out)
{
	*out = c->dmg;
}

size_t capture__size(const struct capture *c)
{
	return c->text_bytes;
}

void capture__free(struct capture *c)
{
	if (!c)
		return;
	if (c->fd >= 0)
		close(c->fd);
	free(c->buf);
	free(c->ranges);
	pftrace__free(c->pf);
	free(c);
}
