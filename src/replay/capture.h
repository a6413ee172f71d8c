/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Captures -> (ts, tgid, tid, comm, payload). Reads ftrace text as atrace and
 * systrace write it (with or without the TGID column, "<...>" task names, the
 * "tracing_mark_write:" and "print:" event forms), systrace .html files (the
 * trace-data block that holds the ftrace text) and Perfetto protobuf traces (ftrace
 * print events, names from process trees; see pftrace.h). Knows nothing about animators.
 */
#ifndef ANIMTRACE_CAPTURE_H
#define ANIMTRACE_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/frametimeline.h"
#include "common/marker.h"

enum capture_line_kind {
	CAPTURE_MARKER = 0, /* a tracing_mark_write:/print: event: payload is set */
	CAPTURE_SCHED = 1,  /* any other event line: only task info is set */
	CAPTURE_SKIP = 2,   /* comment, header, blank line */
	CAPTURE_END = 3,    /* capture__next_event: no more events */
};

struct capture_line {
	uint64_t ts_ns;
	int32_t tgid; /* from the TGID column; -1 when absent or "-----" */
	int32_t tid;
	struct strv comm;    /* task name as printed; "<...>" when unknown */
	struct strv payload; /* CAPTURE_MARKER: the marker text after the event name */
	/* Names learnt from sched_switch/sched_wakeup fields on this line (tid -> comm). */
	int32_t extra_tid[2];
	struct strv extra_comm[2];
	int n_extra;
};

/*
 * Parses one ftrace text line (without its newline). Returns a capture_line_kind, or
 * -EINVAL for a malformed line (which the caller counts). Pure.
 */
int capture_parse_line(const char *line, size_t len, struct capture_line *out);

/* The task columns read before, the last two per CPU (a CPU runs one task for many lines in
 * a row, or goes back and forth between two). */
#define CAPTURE_TASK_CPUS 16
#define CAPTURE_TASK_SLOTS (2 * CAPTURE_TASK_CPUS)
#define CAPTURE_TASK_PREFIX_MAX 64

/* A line's bytes up to its CPU column's "] ", and the task they name. */
struct capture_task {
	uint8_t plen; /* how many bytes (0: an empty slot) */
	uint8_t comm_off, comm_len;
	int32_t tid, tgid;
	char pre[CAPTURE_TASK_PREFIX_MAX];
};

struct capture_tasks {
	uint32_t cpu_off; /* where the CPU column's '[' was in the last line read in full */
	uint8_t last[CAPTURE_TASK_CPUS]; /* which of its two slots a CPU used last */
	/* The last timestamp's seconds with their '.', as its first bytes (mask 0: none): the
	 * next line's are mostly the same. */
	uint64_t secs_word, secs_mask, secs;
	uint32_t secs_len;
	struct capture_task slot[CAPTURE_TASK_SLOTS];
};

/*
 * capture_parse_line, with t (zeroed before the first line) holding what lines read before
 * showed: a line whose bytes up to its CPU column are those of an earlier line on that CPU
 * reads its task from there, not again. Reads every line as capture_parse_line does.
 */
int capture_parse_line_tasks(struct capture_tasks *t, const char *line, size_t len,
			     struct capture_line *out);

struct capture;
struct file_id;

/* The format is decided from this many first bytes (or fewer, in a shorter file). */
#define CAPTURE_PROBE_BYTES (1u << 20)

/* What capture__open_probe looked at before it decided. */
struct capture_probe {
	uint64_t probed; /* bytes of the file it read to decide */
};

/* What reading the capture skipped or found cut off (all 0 for an intact capture). */
struct capture_damage {
	uint64_t truncated_at;	  /* the size, when the capture ends inside a line, html block
				  * or protobuf packet; else 0 */
	uint64_t overlong;	  /* text lines over 64 KiB skipped (also counted as malformed) */
	uint64_t skipped_bytes;	  /* protobuf: bytes skipped to resynchronise */
	uint64_t skipped_packets; /* protobuf: damaged packets and events skipped */
	uint64_t bad_messages;	  /* protobuf: messages in packets that did not decode */
	uint64_t bad_blocks;	  /* protobuf: compressed_packets that did not inflate whole */
	uint64_t packets;	  /* protobuf: packets read */
	uint64_t dropped;	  /* protobuf: print events beyond the index caps */
	uint64_t unread_events;	  /* protobuf: TrackEvent CUJ events not restated */
	uint64_t untrusted;	  /* protobuf: FrameTimeline events not SurfaceFlinger's */
};

/*
 * Opens a capture ("-" is standard input) and decides its format from the content:
 * ftrace text, systrace .html or Perfetto protobuf. Pipes and devices are copied to an
 * unlinked temp file ($TMPDIR or /tmp) once their first bytes passed. Returns NULL and
 * sets errno: ENOENT, EISDIR, ..., ENODATA (empty), EPROTONOSUPPORT (gzip), EINVAL (no
 * ftrace line, html trace-data block or Perfetto packet in the first why->probed bytes).
 */
struct capture *capture__open_probe(const char *path, struct capture_probe *why);

/* capture__open_probe without the probe details. */
struct capture *capture__open(const char *path);

/*
 * Next line of the ftrace text. Returns 1 with *line and *len set (no newline; valid until
 * the next call), 0 at the end. Lines over 64 KiB are skipped (and counted). A protobuf capture has no text lines: use
 * capture__next_event, which works for every format.
 */
int capture__next(struct capture *c, const char **line, size_t *len);

/*
 * Next event of any capture format, parsed. Returns a capture_line_kind (CAPTURE_END at
 * the end), or -EINVAL for a malformed text line (a NUL byte, over 64 KiB, ...: the caller
 * counts it); a last line cut off (no newline) at the end of a text file or of a cut html
 * block is CAPTURE_SKIP, even when it parses, as a marker cut short could (see
 * capture__damage). Strings in *out stay valid until the next call. For a protobuf capture: first one CAPTURE_SCHED
 * per thread the trace names (tid, tgid or -1, comm), then every print event as
 * CAPTURE_MARKER in timestamp order, with tgid and comm from those names (-1 and ""
 * when unknown) and the payload without its trailing newline.
 */
int capture__next_event(struct capture *c, struct capture_line *out);

/* Which file was opened (standard input's file for "-"; not a pipe's temp copy): outputs
 * are compared with it so that none overwrites the capture. */
void capture__input_id(const struct capture *c, struct file_id *out);

/* True when the capture is a Perfetto protobuf trace. */
bool capture__is_protobuf(const struct capture *c);

/*
 * SurfaceFlinger's FrameTimeline frames of a Perfetto capture, in start order (see
 * pftrace.h); a text capture has none. Independent of capture__next_event and rewind.
 */
size_t capture__n_frames(const struct capture *c);
/* Frame i; its layer name stays valid while c lives. 0, or -ERANGE. */
int capture__frame(const struct capture *c, size_t i, struct ft_frame *out);

/* Restarts from the first line or event (a replay with --proc reads twice: names first). */
void capture__rewind(struct capture *c);

/* What was cut off or skipped so far (the caller warns once, at the end). */
void capture__damage(const struct capture *c, struct capture_damage *out);

/* Bytes of ftrace text in the capture, or of the protobuf file (for throughput figures). */
size_t capture__size(const struct capture *c);

void capture__free(struct capture *c);

#endif
