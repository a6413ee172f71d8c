/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Offline driver: a text capture through the same marker parser and engine as live
 * tracing. Selection by pid, or by the main thread's name as the capture printed it.
 */
#ifndef ANIMTRACE_REPLAY_H
#define ANIMTRACE_REPLAY_H

#include <stddef.h>
#include <stdint.h>

struct engine;
struct procfilter;

struct replay_stats {
	uint64_t bytes;      /* ftrace text bytes read */
	uint64_t lines;
	uint64_t malformed;  /* lines capture_parse_line rejected */
	uint64_t markers;    /* marker payloads of selected processes */
	uint64_t rejected;   /* of those, payloads marker_parse rejected */
	uint32_t named;      /* processes whose main-thread name the capture shows */
	uint64_t last_ns;
};

/*
 * Replays the capture at path into e (engine__finish is left to the caller).
 * filter may be NULL (every process). Returns 0, or a negative errno with msg set:
 * -ENOENT/-EINVAL for the file, -ESRCH when --proc names matched nothing (msg lists
 * what the capture holds and suggests --pid when it has no names).
 */
int replay_run(const char *path, const struct procfilter *filter, struct engine *e,
	       struct replay_stats *st, char *msg, size_t msglen);

#endif
