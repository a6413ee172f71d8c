// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * marker_flood: trace_marker writes at a paced rate, the way libcutils' ATRACE_BEGIN/END
 * write them (one write() per marker on one fd, no newline): "B|<pid>|<name>" of 40 bytes,
 * then "E|<pid>".
 *
 *   marker_flood      prints "ready <pid> fd <fd>" (its trace_marker fd), then obeys stdin,
 *                     one command a line:
 *   flood RATE SECS   RATE markers/s for SECS s, paced on 1 ms absolute deadlines (a late
 *                     tick catches up, so the average holds while the machine can keep up);
 *                     prints "wrote <n> secs <s> rate <achieved/s> bytes <mean> errors <n>"
 *   (EOF)             exit 0
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define B_LEN 40
#define TICK_NS 1000000LL

struct flood {
	int fd;
	char b[B_LEN + 1];
	char e[32];
	size_t b_len, e_len;
	unsigned long long written, bytes, errors;
};

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int open_marker(void)
{
	int fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		fd = open("/sys/kernel/debug/tracing/trace_marker", O_WRONLY | O_CLOEXEC);
	return fd;
}

static void write_one(struct flood *f)
{
	/* B and E alternate, so every slice is closed; errors (tracing off) still count. */
	int is_b = !(f->written & 1);
	size_t len = is_b ? f->b_len : f->e_len;

	if (write(f->fd, is_b ? f->b : f->e, len) != (ssize_t)len)
		f->errors++;
	f->written++;
	f->bytes += len;
}

static void flood(struct flood *f, double rate, double secs)
{
	long long t0 = now_ns(), end = t0 + (long long)(secs * 1e9), next = t0, now;
	struct timespec ts;

	f->written = f->bytes = f->errors = 0;
	while ((now = now_ns()) < end) {
		/* Markers due by now, from the start: a late tick is made up at once. */
		unsigned long long due = (unsigned long long)((double)(now - t0) * rate / 1e9) + 1;

		while (f->written < due && (f->written & 1023 || now_ns() < end))
			write_one(f);
		next += TICK_NS;
		if (next > now) {
			ts.tv_sec = next / 1000000000LL;
			ts.tv_nsec = next % 1000000000LL;
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		}
	}
	if (f->written & 1) /* close the last slice */
		write_one(f);
	now = now_ns();
	printf("wrote %llu secs %.3f rate %.0f bytes %.1f errors %llu\n", f->written,
	       (double)(now - t0) / 1e9, (double)f->written / ((double)(now - t0) / 1e9),
	       f->written ? (double)f->bytes / (double)f->written : 0.0, f->errors);
	fflush(stdout);
}

int main(void)
{
	struct flood f = { 0 };
	char line[128];
	double rate, secs;
	int n;

	f.fd = open_marker();
	if (f.fd < 0) {
		fprintf(stderr, "marker_flood: no trace_marker: %s\n", strerror(errno));
		return 1;
	}
	n = snprintf(f.b, sizeof(f.b), "B|%d|bench:marker_flood ", (int)getpid());
	memset(f.b + n, 'x', B_LEN - n); /* pad the name to exactly B_LEN bytes */
	f.b[B_LEN] = '\0';
	f.b_len = B_LEN;
	f.e_len = (size_t)snprintf(f.e, sizeof(f.e), "E|%d", (int)getpid());
	printf("ready %d fd %d\n", (int)getpid(), f.fd);
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin)) {
		if (sscanf(line, "flood %lf %lf", &rate, &secs) != 2 || rate <= 0 || secs <= 0) {
			fprintf(stderr, "marker_flood: bad command: %s", line);
			return 2;
		}
		flood(&f, rate, secs);
	}
	return 0;
}
