/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A whole replay of one input, as `animtrace --replay FILE --trace-out X` runs it: the input
 * in a memfd read by path, the replay driver, the engine, and the box (frames, UTF-8), JSON
 * and trace sinks behind one fan-out, each writing to /dev/null. Inputs up to 1 MiB
 * (-max_len) reach the caps (common/caps.h); the driver's contracts are checked on the way.
 */
#ifndef ANIMTRACE_FUZZ_REPLAY_H
#define ANIMTRACE_FUZZ_REPLAY_H

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "engine/engine.h"
#include "replay/replay.h"
#include "sinks/box.h"
#include "sinks/fanout.h"
#include "sinks/json.h"
#include "sinks/trace.h"

static FILE *fuzz_null(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	FUZZ_CHECK(f != NULL);
	return f;
}

static void fuzz_replay(const uint8_t *data, size_t size)
{
	static const struct sink_box_opts bo = { .frames = true, .utf8 = true };
	struct sink_box *box = sink_box__new(fuzz_null(), &bo);
	struct sink_json *json = sink_json__new(fuzz_null());
	struct sink_trace *trace = sink_trace__new(fuzz_null());
	struct sink_fanout *fan = sink_fanout__new();
	struct replay_stats st;
	struct replay *r;
	struct engine *e;
	char path[64], msg[1024];
	int fd = memfd_create("fuzz-replay", 0);

	FUZZ_CHECK(fd >= 0 && box && json && trace && fan);
	FUZZ_CHECK(!size || write(fd, data, size) == (ssize_t)size);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	FUZZ_CHECK(!sink_fanout__add(fan, sink_trace__sink(trace)) &&
		   !sink_fanout__add(fan, sink_box__sink(box)) &&
		   !sink_fanout__add(fan, sink_json__sink(json)));
	e = engine__new(&(struct engine_opts){ 0 }, sink_fanout__sink(fan));
	FUZZ_CHECK(e != NULL);
	r = replay__open(path, NULL, msg, sizeof(msg));
	if (r) {
		FUZZ_CHECK(replay__run(r, e, &st) == 0);
		engine__finish(e, st.last_ns, 0, 0);
		FUZZ_CHECK(engine__sink_error(e) == 0);
		replay__free(r);
	} else {
		FUZZ_CHECK(errno == EINVAL || errno == ENODATA || errno == EPROTONOSUPPORT ||
			   errno == ENOMEM);
	}
	engine__free(e);
	(void)sink_trace__free(trace);
	sink_fanout__free(fan);
	sink_box__free(box);
	sink_json__free(json);
	close(fd);
}

#endif
