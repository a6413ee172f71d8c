// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ftrace text, systrace .html and Perfetto protobuf captures. The whole file is mapped
 * (or read once) and lines are handed out as slices of it, so replay allocates nothing
 * per line; a protobuf trace is indexed once by pftrace and its events are slices too.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "pftrace.h"

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
static const char *learn_name(const char *p, const char *end, const char *ckey,
			      const char *pkey, struct capture_line *out)
{
	size_t cl = strlen(ckey), pl = strlen(pkey);
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

static void learn_names(struct strv event, const char *p, const char *end,
			struct capture_line *out)
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

int capture_parse_line(const char *line, size_t len, struct capture_line *out)
{
	const char *p = line, *end = line + len, *cpu, *rest;
	int err;

	memset(out, 0, sizeof(*out));
	out->tgid = -1;
	out->comm = out->payload = (struct strv){ .p = "", .len = 0 };
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

/* ---- the file --------------------------------------------------------------------- */

struct text_range {
	size_t off, len;
};

struct capture {
	char *data;
	size_t data_len;
	bool mapped;
	struct text_range *ranges; /* where the ftrace text is inside data */
	size_t n_ranges;
	size_t cur; /* index into ranges */
	size_t pos; /* offset into data of the next line */
	size_t text_bytes;
	struct pftrace *pf;  /* protobuf capture: its index; NULL for text */
	size_t pf_thread;    /* next thread name to hand out */
	size_t pf_print;     /* next print event to hand out */
};

static const char trace_data_tag[] = "<script class=\"trace-data\" type=\"application/text\">";

static int read_all(struct capture *c, int fd)
{
	size_t cap = 0;
	ssize_t n;
	char *tmp;

	for (;;) {
		if (c->data_len == cap) {
			cap = cap ? cap * 2 : 1 << 20;
			tmp = realloc(c->data, cap);
			if (!tmp)
				return -ENOMEM;
			c->data = tmp;
		}
		n = read(fd, c->data + c->data_len, cap - c->data_len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		c->data_len += (size_t)n;
	}
}

static int load(struct capture *c, int fd)
{
	struct stat st;
	void *m;

	if (fstat(fd, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode) || st.st_size == 0)
		return read_all(c, fd); /* pipes, /dev/stdin, procfs */
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		return read_all(c, fd);
	madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
	c->data = m;
	c->data_len = (size_t)st.st_size;
	c->mapped = true;
	return 0;
}

static int add_range(struct capture *c, const char *b, const char *e)
{
	struct text_range *tmp;

	if (e <= b)
		return 0;
	tmp = realloc(c->ranges, (c->n_ranges + 1) * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	c->ranges = tmp;
	c->ranges[c->n_ranges++] = (struct text_range){ (size_t)(b - c->data), (size_t)(e - b) };
	c->text_bytes += (size_t)(e - b);
	return 0;
}

/* A trace-data block holds ftrace text when one of its lines starts with "# tracer:". */
static bool has_ftrace_header(const char *b, const char *e)
{
	while (b < e && (*b == '\n' || *b == '\r' || *b == ' '))
		b++;
	if ((size_t)(e - b) >= CONST_STRLEN("# tracer:") && memcmp(b, "# tracer:", 9) == 0)
		return true;
	return memmem(b, (size_t)(e - b), "\n# tracer:", CONST_STRLEN("\n# tracer:")) != NULL;
}

/* Adds the block's text without the newline after the tag and the indent before </script>. */
static int add_block(struct capture *c, const char *b, const char *e)
{
	const char *t = e;

	if (b < e && *b == '\r')
		b++;
	if (b < e && *b == '\n')
		b++;
	while (t > b && (t[-1] == ' ' || t[-1] == '\t'))
		t--;
	if (t == b || t[-1] == '\n')
		e = t;
	return add_range(c, b, e);
}

static int find_html_text(struct capture *c, const char *tag)
{
	const char *end = c->data + c->data_len, *b, *e;
	int err;

	while (tag) {
		b = tag + CONST_STRLEN(trace_data_tag);
		e = memmem(b, (size_t)(end - b), "</script>", CONST_STRLEN("</script>"));
		if (!e)
			e = end;
		if (has_ftrace_header(b, e)) {
			err = add_block(c, b, e);
			if (err)
				return err;
		}
		tag = memmem(e, (size_t)(end - e), trace_data_tag, CONST_STRLEN(trace_data_tag));
	}
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
	c->pf = pftrace__new(c->data, c->data_len);
	if (!c->pf)
		return -errno;
	if (!has_nul && pftrace__malformed(c->pf)) {
		pftrace__free(c->pf);
		c->pf = NULL;
		return 0;
	}
	c->text_bytes = c->data_len;
	return 1;
}

static int find_text(struct capture *c)
{
	const char *tag;
	size_t head = c->data_len < 4096 ? c->data_len : 4096;
	int err;

	if (c->data_len == 0)
		return 0;
	/* Checked first: protobuf can hold the html tag bytes in a print. */
	if (pftrace_detect(c->data, c->data_len)) {
		err = open_protobuf(c, memchr(c->data, '\0', head) != NULL);
		if (err)
			return err < 0 ? err : 0;
	}
	tag = memmem(c->data, c->data_len, trace_data_tag, CONST_STRLEN(trace_data_tag));
	if (tag)
		return find_html_text(c, tag);
	/* Other binary captures (gzip, a damaged trace) are not text: say so up front. */
	if (memchr(c->data, '\0', head))
		return -EINVAL;
	return add_range(c, c->data, c->data + c->data_len);
}

struct capture *capture__open(const char *path)
{
	struct capture *c = calloc(1, sizeof(*c));
	int fd, err;

	if (!c)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		goto fail;
	}
	err = load(c, fd);
	close(fd);
	if (!err)
		err = find_text(c);
	if (err)
		goto fail;
	capture__rewind(c);
	return c;
fail:
	capture__free(c);
	errno = -err;
	return NULL;
}

int capture__next(struct capture *c, const char **line, size_t *len)
{
	const struct text_range *r;
	const char *p, *end, *nl, *e;

	for (; c->cur < c->n_ranges; c->cur++) {
		r = &c->ranges[c->cur];
		if (c->pos < r->off)
			c->pos = r->off;
		if (c->pos >= r->off + r->len)
			continue;
		p = c->data + c->pos;
		end = c->data + r->off + r->len;
		nl = memchr(p, '\n', (size_t)(end - p));
		e = nl ? nl : end;
		c->pos = (size_t)((nl ? nl + 1 : end) - c->data);
		if (e > p && e[-1] == '\r')
			e--;
		*line = p;
		*len = (size_t)(e - p);
		return 1;
	}
	return 0;
}

static void clear_line(struct capture_line *out)
{
	memset(out, 0, sizeof(*out));
	out->tgid = -1;
	out->comm = out->payload = (struct strv){ .p = "", .len = 0 };
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

int capture__next_event(struct capture *c, struct capture_line *out)
{
	const char *line;
	size_t len;

	if (c->pf)
		return next_pf_event(c, out);
	if (capture__next(c, &line, &len) != 1) {
		clear_line(out);
		return CAPTURE_END;
	}
	return capture_parse_line(line, len, out);
}

bool capture__is_protobuf(const struct capture *c)
{
	return c->pf != NULL;
}

void capture__rewind(struct capture *c)
{
	c->cur = 0;
	c->pos = 0;
	c->pf_thread = 0;
	c->pf_print = 0;
}

size_t capture__size(const struct capture *c)
{
	return c->text_bytes;
}

void capture__free(struct capture *c)
{
	if (!c)
		return;
	if (c->mapped)
		munmap(c->data, c->data_len);
	else
		free(c->data);
	free(c->ranges);
	pftrace__free(c->pf);
	free(c);
}
