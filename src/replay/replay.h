/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Offline driver: a text capture through the same marker parser and engine as live
 * tracing. Selection by pid, or by the main thread's name as the capture printed it.
 */
#ifndef ANIMTRACE_REPLAY_H
#define ANIMTRACE_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "model/input.h"

struct engine;
struct file_id;
struct procfilter;

struct replay_stats {
	struct input_stats input; /* what was read and what could not be (the caller says it) */
	uint64_t markers;	  /* marker payloads of selected processes */
	uint64_t rejected;	  /* of those, payloads marker_parse rejected */
	uint32_t named;		  /* processes whose main-thread name the capture shows */
	uint64_t last_ns;	  /* the last marker fed on */
};

struct replay;

/*
 * Opens and recognises the capture at path ("-": standard input) and checks that filter
 * (may be NULL) selects a process in it, before anything is written. Returns NULL with
 * errno and msg set: the capture cannot be read or is not one (EINVAL, ENODATA,
 * EPROTONOSUPPORT: see capture.h), or -ESRCH when --proc or --pid matched nothing (msg
 * lists what the capture holds and suggests --pid when it has no names).
 */
struct replay *replay__open(const char *path, const struct procfilter *filter, char *msg,
			    size_t msglen);

/*
 * Replays the capture into e (engine__finish is left to the caller); stops early when e's
 * sink fails (engine__sink_error). Marker events whose timestamp is damage (tsguard.h) are
 * dropped and counted. st->input says what could not be read. Returns 0, or -ENOMEM (nothing
 * replayed). With --pid alone the capture is read once: replay__open's check read up to a
 * listed process's first marker, and the run goes on from there.
 */
int replay__run(struct replay *r, struct engine *e, struct replay_stats *st);

/* Which file the capture is (device and inode), for the caller's output checks. */
void replay__input_id(const struct replay *r, struct file_id *out);

void replay__free(struct replay *r);

/* replay__open, replay__run and replay__free: 0, or replay__open's -errno with msg set. */
int replay_run(const char *path, const struct procfilter *filter, struct engine *e,
	       struct replay_stats *st, char *msg, size_t msglen);

#endif
