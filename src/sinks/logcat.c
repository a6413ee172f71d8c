// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The logcat sink (see logcat.h). The wire format is liblog's, read in AOSP system/logging
 * (liblog/logd_writer.cpp LogdWrite, liblog/logger_write.cpp, logd/README.protocol.md,
 * liblog/include/private/android_logger.h):
 *   android_log_header_t { uint8_t id; uint16_t tid; log_time realtime { uint32_t tv_sec,
 *   tv_nsec; } } __packed, the id's top 3 bits a version, 0; then the "string" payload: a
 *   priority byte, the tag and its NUL, the message and its NUL (__android_log_logd_logger:
 *   iovecs of 1, strlen(tag) + 1 and strlen(msg) + 1 bytes), sent with one writev on a
 *   SOCK_DGRAM | SOCK_NONBLOCK AF_UNIX socket connected to /dev/socket/logdw; the time is
 *   clock_gettime(CLOCK_REALTIME) (write_to_log), the tid gettid(). logd takes the pid and uid
 *   from the socket's credentials. liblog counts an EAGAIN as dropped; so does this sink.
 * logcat -v threadtime: logprint.cpp android_log_formatLogLine, FORMAT_THREADTIME:
 *   "%s %5d %5d %c %-8s: " with the time as "%m-%d %H:%M:%S" and ".%03ld" milliseconds, the
 *   prefix repeated before every line of the message.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "sinks/box.h"
#include "sinks/jsonout.h"
#include "sinks/logcat.h"

#define TAG_ANIM "AnimatorTracer"
#define TAG_DYN "DynAnimTracer"
#define TAG_PROPS "ViewPropTrace"
#define TAG_REFRESH "ViewRefresh"
#define TAG_FINDING "AnimFinding"
#define TAG_SELF "animtrace"

#define PART_HEAD_MAX 48 /* "(part 65535/65535, continued mid-line)\n" */
#define PARTS_MAX 4096	 /* 16 MB of one entry: no record comes near */

/* Who an entry is from and when, for the text (live, the header is animtrace's). */
struct meta {
	const char *tag;
	enum logcat_prio prio;
	uint32_t pid, tid;
	uint64_t ts_ns;
};

/* Per-frame entries of one tag in the current second of record time. */
struct limit {
	bool open;
	uint64_t start_ns;
	unsigned int n; /* entries passed in this second */
	uint64_t left;	/* entries left out in this second */
};

struct sink_logcat {
	struct sink_logcat_opts o;
	int fd;		      /* logd's socket; -1 when not connected */
	struct sink_box *box; /* the box formatter, into memory */
	struct sink box_sink;
	FILE *msg; /* messages this sink assembles around the box's text */
	char *msg_buf;
	size_t msg_len;
	size_t *cut; /* logcat_split's parts */
	bool *mid;
	uint8_t dgram[LOGCAT_HEADER_SIZE + LOGCAT_PAYLOAD_MAX];
	struct limit props, refresh;
	struct logcat_stats st;
};

/* The one escape of strings from traced processes in this sink's own text: the boxes'. */
static const char *esc(char *dst, size_t size, const char *s)
{
	return box_escape(dst, size, s);
}

/* ---- formats ---- */

static size_t put_le(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
	return (size_t)bytes;
}

size_t logcat_encode(uint8_t *buf, size_t cap, uint16_t tid, uint32_t sec, uint32_t nsec,
		     enum logcat_prio prio, const char *tag, const char *msg, size_t len)
{
	size_t tag_len = strlen(tag), n = 0;
	size_t payload = 1 + tag_len + 1 + len + 1;

	if (payload > LOGCAT_PAYLOAD_MAX || LOGCAT_HEADER_SIZE + payload > cap)
		return 0;
	buf[n++] = 0; /* LOG_ID_MAIN, version 0 */
	n += put_le(buf + n, tid, 2);
	n += put_le(buf + n, sec, 4);
	n += put_le(buf + n, nsec, 4);
	buf[n++] = (uint8_t)prio;
	memcpy(buf + n, tag, tag_len + 1);
	n += tag_len + 1;
	memcpy(buf + n, msg, len);
	n += len;
	buf[n++] = '\0';
	return n;
}

size_t logcat_threadtime(char *buf, size_t cap, uint64_t ts_ns, uint32_t pid, uint32_t tid,
			 enum logcat_prio prio, const char *tag)
{
	static const char prio_char[] = "??VDIWEF"; /* logprint.cpp filterPriToChar */
	time_t sec = (time_t)(ts_ns / 1000000000ull);
	struct tm tm;
	int n;

	if (!gmtime_r(&sec, &tm))
		memset(&tm, 0, sizeof(tm));
	n = snprintf(buf, cap, "%02d-%02d %02d:%02d:%02d.%03u %5u %5u %c %-8s: ", tm.tm_mon + 1,
		     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		     (unsigned int)(ts_ns % 1000000000ull / 1000000), pid, tid, prio_char[prio & 7],
		     tag);
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

/* Where a part of at most room bytes from start ends: after its last whole line, else inside
 * the line at a UTF-8 character's start (*mid). */
static size_t part_end(const char *msg, size_t start, size_t room, bool *mid)
{
	size_t end = start + room;

	*mid = false;
	for (size_t p = end; p > start; p--)
		if (msg[p] == '\n')
			return p;
	*mid = true;
	while (end > start + 1 && ((unsigned char)msg[end] & 0xc0) == 0x80)
		end--;
	return end;
}

size_t logcat_split(const char *msg, size_t len, size_t room, size_t *cut, bool *mid, size_t max)
{
	size_t n = 0, start = 0;

	if (!room || !max)
		return 0;
	while (len - start > room) {
		if (n + 1 >= max)
			return 0;
		cut[n] = part_end(msg, start, room, &mid[n]);
		start = mid[n] ? cut[n] : cut[n] + 1;
		n++;
	}
	cut[n] = len;
	mid[n] = false;
	return n + 1;
}

/* ---- output ---- */

static void count_send_error(struct sink_logcat *l, int err)
{
	if (err == EAGAIN || err == EWOULDBLOCK || err == ENOBUFS) {
		l->st.refused++;
		return;
	}
	l->st.failed++;
	l->st.last_errno = err;
}

/* One message to logd: the writer's tid and time (liblog's), the record's own is in it. */
static void send_dgram(struct sink_logcat *l, const struct meta *m, const char *text, size_t len)
{
	struct timespec now;
	size_t n;

	clock_gettime(CLOCK_REALTIME, &now);
	n = logcat_encode(l->dgram, sizeof(l->dgram), (uint16_t)syscall(SYS_gettid),
			  (uint32_t)now.tv_sec, (uint32_t)now.tv_nsec, m->prio, m->tag, text, len);
	if (!n) { /* logcat_split keeps every message within the limit */
		count_send_error(l, EMSGSIZE);
		return;
	}
	if (send(l->fd, l->dgram, n, MSG_DONTWAIT | MSG_NOSIGNAL) == (ssize_t)n)
		l->st.sent++;
	else
		count_send_error(l, errno);
}

/* One message as logcat -v threadtime prints it: the prefix before each of its lines. */
static void put_text(struct sink_logcat *l, const struct meta *m, const char *text, size_t len)
{
	char prefix[96];
	size_t start = 0;

	logcat_threadtime(prefix, sizeof(prefix), m->ts_ns, m->pid, m->tid, m->prio, m->tag);
	while (start <= len) {
		const char *nl = memchr(text + start, '\n', len - start);
		size_t end = nl ? (size_t)(nl - text) : len;

		fprintf(l->o.text, "%s%.*s\n", prefix, (int)(end - start), text + start);
		start = end + 1;
	}
	if (l->fd < 0)
		l->st.sent++;
}

static void put_message(struct sink_logcat *l, const struct meta *m, const char *text, size_t len)
{
	if (l->fd >= 0)
		send_dgram(l, m, text, len);
	if (l->o.text)
		put_text(l, m, text, len);
}

/* An entry: one message, or numbered parts when it is over the payload limit. */
static int put_entry(struct sink_logcat *l, const struct meta *m, const char *text, size_t len)
{
	size_t whole = LOGCAT_PAYLOAD_MAX - 3 - strlen(m->tag), n;
	char part[LOGCAT_PAYLOAD_MAX];

	while (len && text[len - 1] == '\n')
		len--;
	if (len <= whole) {
		put_message(l, m, text, len);
		return l->o.text ? out_status(l->o.text) : 0;
	}
	n = logcat_split(text, len, whole - PART_HEAD_MAX, l->cut, l->mid, PARTS_MAX);
	if (!n)
		return -EMSGSIZE;
	l->st.split++;
	for (size_t i = 0, start = 0; i < n; i++) {
		int h = snprintf(part, sizeof(part), "(part %zu/%zu%s)\n", i + 1, n,
				 i && l->mid[i - 1] ? ", continued mid-line" : "");

		memcpy(part + h, text + start, l->cut[i] - start);
		put_message(l, m, part, (size_t)h + l->cut[i] - start);
		start = l->mid[i] ? l->cut[i] : l->cut[i] + 1;
	}
	return l->o.text ? out_status(l->o.text) : 0;
}

/* The entry assembled in l->msg since the last one. */
static int put_assembled(struct sink_logcat *l, const struct meta *m)
{
	int err;

	if (fflush(l->msg) || ferror(l->msg))
		return -ENOMEM;
	err = put_entry(l, m, l->msg_buf, l->msg_len);
	rewind(l->msg);
	return err;
}

/* What the box formatter rendered for one record: one entry. */
static int put_box(struct sink_logcat *l, int err, const struct meta *m)
{
	size_t len;
	const char *text = sink_box__take(l->box, &len);

	if (err || !text)
		return err ? err : -ENOMEM;
	return len ? put_entry(l, m, text, len) : 0;
}

/* ---- the per-frame rate limit ---- */

static void fmt_sec(char *buf, size_t size, uint64_t ns)
{
	snprintf(buf, size, "%llu.%06llu s", (unsigned long long)(ns / 1000000000ull),
		 (unsigned long long)(ns % 1000000000ull / 1000));
}

/* The count of the second that ended, in place of its entries left out. */
static int limit_close(struct sink_logcat *l, struct limit *lim, const char *tag,
		       enum logcat_prio prio)
{
	struct meta m = { .tag = tag, .prio = prio, .ts_ns = lim->start_ns };
	char t[32];

	if (!lim->left)
		return 0;
	fmt_sec(t, sizeof(t), lim->start_ns);
	fprintf(l->msg,
		"── %llu frame%s not logged in the second from %s (rate limit: %u a second, "
		"--logcat-rate) ──",
		(unsigned long long)lim->left, lim->left == 1 ? "" : "s", t, l->o.rate);
	lim->left = 0;
	return put_assembled(l, &m);
}

/* Whether a per-frame entry at ts_ns goes out; a new second first says the last one's count. */
static bool limit_pass(struct sink_logcat *l, struct limit *lim, const struct meta *m, int *err)
{
	if (!l->o.rate)
		return true;
	if (!lim->open || m->ts_ns < lim->start_ns || m->ts_ns - lim->start_ns >= 1000000000ull) {
		*err = limit_close(l, lim, m->tag, m->prio);
		*lim = (struct limit){ .open = true, .start_ns = m->ts_ns };
	}
	if (lim->n < l->o.rate) {
		lim->n++;
		return true;
	}
	lim->left++;
	l->st.rate_limited++;
	return false;
}

/* ---- records ---- */

/* Box records: the box sink's callback renders, the entry goes out under its tag. */
#define LOGCAT_BOX(cb, type, tag_, prio_, pid_, tid_)                           \
	static int on_##cb(void *ctx, type r)                                   \
	{                                                                       \
		struct sink_logcat *l = ctx;                                    \
		struct meta m = { tag_, prio_, pid_, tid_, r->src_ts_ns };      \
                                                                                \
		return put_box(l, l->box_sink.ops->cb(l->box_sink.ctx, r), &m); \
	}
LOGCAT_BOX(anim_start, const struct anim *, TAG_ANIM, LOGCAT_INFO, r->pid, r->start_tid)
LOGCAT_BOX(anim_end, const struct anim *, TAG_ANIM, LOGCAT_INFO, r->pid, r->end_tid)
LOGCAT_BOX(anim_target, const struct anim *, TAG_ANIM, LOGCAT_INFO, r->pid, r->start_tid)
LOGCAT_BOX(dyn_start, const struct dyn_anim *, TAG_DYN, LOGCAT_INFO, r->pid, r->tid)
LOGCAT_BOX(dyn_end, const struct dyn_anim *, TAG_DYN, LOGCAT_INFO, r->pid, r->tid)
LOGCAT_BOX(animation_start, const struct animation *, TAG_DYN, LOGCAT_INFO, r->pid, r->tid)
LOGCAT_BOX(animation_end, const struct animation *, TAG_DYN, LOGCAT_INFO, r->pid, r->tid)
LOGCAT_BOX(jank, const struct jank *, TAG_SELF, LOGCAT_INFO, r->pid, r->tid)
LOGCAT_BOX(cuj, const struct cuj *, TAG_SELF, LOGCAT_INFO, r->pid, r->tid)
LOGCAT_BOX(refresh_storm, const struct refresh_storm *, TAG_REFRESH, LOGCAT_DEBUG, r->pid, 0)
#undef LOGCAT_BOX

static int on_note(void *ctx, const char *msg)
{
	struct sink_logcat *l = ctx;
	struct meta m = { TAG_SELF, LOGCAT_INFO, 0, 0, 0 };

	return put_box(l, l->box_sink.ops->note(l->box_sink.ctx, msg), &m);
}

/* Held by the box formatter for the box it concerns, and an entry of its own at W. */
static int on_finding(void *ctx, const struct finding *f)
{
	struct sink_logcat *l = ctx;
	struct meta m = { TAG_FINDING, LOGCAT_WARN, f->pid, 0, f->src_ts_ns };

	l->box_sink.ops->finding(l->box_sink.ctx, f);
	sink_box__finding(l->box, f);
	return put_box(l, 0, &m);
}

/* ViewPropertyTracer's batch: "── F:<frame ms> ──" then the box's node lines. */
static int on_frame_props(void *ctx, const struct frame_props *fp)
{
	struct sink_logcat *l = ctx;
	struct meta m = { TAG_PROPS, LOGCAT_INFO, fp->pid, fp->tid, fp->src_ts_ns };
	char proc[AT_PROC_MAX], t[32];
	size_t len;
	const char *nodes;
	int err = 0;

	if (!fp->n_nodes || !limit_pass(l, &l->props, &m, &err))
		return err;
	esc(proc, sizeof(proc), fp->process);
	fmt_sec(t, sizeof(t), fp->ts_ns);
	if (fp->in_frame) /* the seed's F: is the frame's time in ms (uptimeMillis) */
		fprintf(l->msg, "── F:%llu ── frame %llu, %s%s(pid %u)\n",
			(unsigned long long)(fp->ts_ns / 1000000),
			(unsigned long long)fp->frame_seq, proc, *proc ? " " : "", fp->pid);
	else
		fprintf(l->msg, "── outside any frame at %s ── %s%s(pid %u, tid %u)\n", t, proc,
			*proc ? " " : "", fp->pid, fp->tid);
	sink_box__frame_values(l->box, fp);
	nodes = sink_box__take(l->box, &len);
	if (!nodes)
		return -ENOMEM;
	fwrite(nodes, 1, len, l->msg);
	return put_assembled(l, &m);
}

/*
 * A ViewRefreshTracer entry: "<what> <view> (<detail>)", then the stack as Log.d(TAG, msg, e)
 * prints one, "\tat <frame>" innermost first. Every refresh entry goes through here: the
 * redraws and vsync requests of a frame today, the invalidate/requestLayout probes' calls
 * when they come (what: "invalidate", "requestLayout", "scheduleVsync").
 */
static int refresh_entry(struct sink_logcat *l, const struct meta *m, const char *what,
			 const char *view, const char *detail, const char (*stack)[AT_FRAME_NAME],
			 int n_stack)
{
	char name[AT_FRAME_NAME];

	fprintf(l->msg, "%s %s (%s)", what, view, detail);
	for (int i = 0; i < n_stack && i < AT_STACK_FRAMES; i++)
		fprintf(l->msg, "\n\tat %s", esc(name, sizeof(name), stack[i]));
	return put_assembled(l, m);
}

/* --refresh: each View the frame re-recorded (its invalidate), then its vsync requests. */
static int on_frame(void *ctx, const struct frame *f)
{
	struct sink_logcat *l = ctx;
	struct meta m = { TAG_REFRESH, LOGCAT_DEBUG, f->pid, f->tid, f->src_ts_ns };
	char label[AT_NODE_LABEL_MAX], view[AT_NODE_LABEL_MAX], proc[AT_PROC_MAX], detail[192];
	int err = 0;

	if (!f->refresh || (!f->n_redraws && !f->vsync_requests) ||
	    !limit_pass(l, &l->refresh, &m, &err))
		return err;
	esc(proc, sizeof(proc), f->process);
	for (int i = 0; i < f->n_redraws && !err; i++) {
		node_label(label, sizeof(label), f->redraws[i].node_name, f->redraws[i].node);
		snprintf(detail, sizeof(detail),
			 "frame %llu of %s, pid %u: display list re-recorded",
			 (unsigned long long)f->seq, proc, f->pid);
		err = refresh_entry(l, &m, "invalidate", esc(view, sizeof(view), label), detail,
				    NULL, 0);
	}
	if (f->redraws_dropped && !err) {
		snprintf(detail, sizeof(detail), "frame %llu of %s, pid %u: more Views, not kept",
			 (unsigned long long)f->seq, proc, f->pid);
		snprintf(view, sizeof(view), "+%u", f->redraws_dropped);
		err = refresh_entry(l, &m, "invalidate", view, detail, NULL, 0);
	}
	if (f->vsync_requests && !err) {
		snprintf(detail, sizeof(detail), "%u request%s in frame %llu of %s, pid %u",
			 f->vsync_requests, f->vsync_requests == 1 ? "" : "s",
			 (unsigned long long)f->seq, proc, f->pid);
		err = refresh_entry(l, &m, "scheduleVsync", "Choreographer", detail, NULL, 0);
	}
	return err;
}

/* The last second's counts go out before the summary, which then counts them too. */
static int on_summary_fill(void *ctx, struct summary *s)
{
	struct sink_logcat *l = ctx;
	int err = limit_close(l, &l->props, TAG_PROPS, LOGCAT_INFO);

	s->logcat = &l->st;
	return err ? err : limit_close(l, &l->refresh, TAG_REFRESH, LOGCAT_DEBUG);
}

static int on_summary(void *ctx, const struct summary *s)
{
	struct sink_logcat *l = ctx;
	struct meta m = { TAG_SELF, LOGCAT_INFO, 0, 0, s->last_ns };

	return put_box(l, l->box_sink.ops->summary(l->box_sink.ctx, s), &m);
}

static const struct sink_ops logcat_ops = {
	.anim_start = on_anim_start,
	.anim_end = on_anim_end,
	.anim_target = on_anim_target,
	.frame = on_frame,
	.frame_props = on_frame_props,
	.summary_fill = on_summary_fill,
	.summary = on_summary,
	.note = on_note,
	.jank = on_jank,
	.refresh_storm = on_refresh_storm,
	.animation_start = on_animation_start,
	.animation_end = on_animation_end,
	.cuj = on_cuj,
	.finding = on_finding,
	.dyn_start = on_dyn_start,
	.dyn_end = on_dyn_end,
};

struct sink_logcat *sink_logcat__new(const struct sink_logcat_opts *o)
{
	struct sink_logcat *l = calloc(1, sizeof(*l));

	if (!l)
		goto nomem;
	l->fd = -1;
	if (o)
		l->o = *o;
	l->box = sink_box__new_mem(true);
	l->msg = open_memstream(&l->msg_buf, &l->msg_len);
	l->cut = calloc(PARTS_MAX, sizeof(*l->cut));
	l->mid = calloc(PARTS_MAX, sizeof(*l->mid));
	if (!l->box || !l->msg || !l->cut || !l->mid)
		goto nomem;
	l->box_sink = sink_box__sink(l->box);
	return l;
nomem:
	sink_logcat__free(l);
	errno = ENOMEM;
	return NULL;
}

int sink_logcat__connect(struct sink_logcat *l, const char *path)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(un.sun_path))
		return -ENAMETOOLONG;
	strcpy(un.sun_path, path);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&un, sizeof(un))) {
		int err = -errno;

		close(fd);
		return err;
	}
	if (l->fd >= 0)
		close(l->fd);
	l->fd = fd;
	return 0;
}

struct sink sink_logcat__sink(struct sink_logcat *l)
{
	return (struct sink){ .ops = &logcat_ops, .ctx = l };
}

void sink_logcat__stats(const struct sink_logcat *l, struct logcat_stats *out)
{
	*out = l->st;
}

void sink_logcat__free(struct sink_logcat *l)
{
	if (!l)
		return;
	if (l->fd >= 0)
		close(l->fd);
	if (l->msg)
		fclose(l->msg);
	free(l->msg_buf);
	free(l->cut);
	free(l->mid);
	sink_box__free(l->box);
	free(l);
}
