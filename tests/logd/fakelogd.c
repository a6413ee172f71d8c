// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A fake logd for the tests: binds a datagram socket at PATH (as logd's /dev/socket/logdw),
 * decodes every datagram as liblog writes it, on its own (AOSP system/logging
 * logd/README.protocol.md: android_log_header_t { uint8_t id; uint16_t tid; uint32_t sec,
 * nsec; } packed and little-endian, then a priority byte, the tag and its NUL, the message and
 * its NUL, at most LOGGER_ENTRY_MAX_PAYLOAD = 4068 bytes after the header), and writes one
 * line per datagram to OUT:
 *   <prio> <tid> <sec>.<nsec> <tag>\t<message, '\\' '\n' '\t' escaped as \\ \n \t>
 * or "bad <why>" for a datagram that is not liblog's (the tests fail on it).
 *
 *   fakelogd PATH OUT [--qlen N] [--rcvbuf BYTES] [--hold FILE]
 * --qlen: in a network namespace of its own, the socket's queue (net.unix.max_dgram_qlen,
 * which Android's init.rc raises: "write /proc/sys/net/unix/max_dgram_qlen 2400" in AOSP
 * system/core rootdir/init.rc, 600 in older releases; the kernel's default is 10).
 * --hold: read nothing until FILE exists (a logd that falls behind: its queue fills).
 * Prints "fakelogd: ready" on stdout once bound; on SIGTERM or SIGINT reads what is queued,
 * prints "fakelogd: N datagrams" and exits 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#define PAYLOAD_MAX 4068
#define HEADER 11

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static uint32_t le(const unsigned char *p, int n)
{
	uint32_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void put_escaped(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\')
			fputs("\\\\", out);
		else if (s[i] == '\n')
			fputs("\\n", out);
		else if (s[i] == '\t')
			fputs("\\t", out);
		else
			fputc(s[i], out);
	}
}

/* One datagram of len bytes, checked field by field. */
static void decode(FILE *out, const unsigned char *d, size_t len)
{
	const char *tag, *msg, *end;

	if (len < HEADER + 3)
		return (void)fprintf(out, "bad short datagram of %zu bytes\n", len);
	if (len - HEADER > PAYLOAD_MAX)
		return (void)fprintf(out, "bad payload of %zu bytes\n", len - HEADER);
	if (d[0] != 0) /* version 0, LOG_ID_MAIN */
		return (void)fprintf(out, "bad log id %u\n", d[0]);
	if (d[HEADER] < 2 || d[HEADER] > 7)
		return (void)fprintf(out, "bad priority %u\n", d[HEADER]);
	tag = (const char *)d + HEADER + 1;
	end = (const char *)d + len;
	msg = memchr(tag, '\0', (size_t)(end - tag));
	if (!msg || msg == tag)
		return (void)fprintf(out, "bad tag\n");
	msg++;
	if (msg >= end || end[-1] != '\0' || memchr(msg, '\0', (size_t)(end - msg)) != end - 1)
		return (void)fprintf(out, "bad message: not one NUL-terminated string\n");
	fprintf(out, "%u %u %u.%09u %s\t", d[HEADER], le(d + 1, 2), le(d + 3, 4), le(d + 7, 4),
		tag);
	put_escaped(out, msg, (size_t)(end - 1 - msg));
	fputc('\n', out);
}

static int set_qlen(const char *qlen)
{
	int fd;

	if (unshare(CLONE_NEWNET))
		return -1;
	fd = open("/proc/sys/net/unix/max_dgram_qlen", O_WRONLY);
	if (fd < 0 || write(fd, qlen, strlen(qlen)) < 0)
		return -1;
	return close(fd);
}

int main(int argc, char **argv)
{
	static unsigned char buf[65536];
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	const char *hold = NULL;
	struct sigaction sa = { .sa_handler = on_signal };
	unsigned long n = 0;
	FILE *out;
	struct timeval tick = { .tv_usec = 50000 };
	int fd, rcvbuf = 0;

	if (argc < 3 || strlen(argv[1]) >= sizeof(un.sun_path)) {
		fprintf(stderr, "usage: fakelogd PATH OUT [--qlen N] [--rcvbuf B] [--hold FILE]\n");
		return 2;
	}
	for (int i = 3; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--qlen") && set_qlen(argv[i + 1]))
			return perror("fakelogd: --qlen"), 1;
		if (!strcmp(argv[i], "--rcvbuf"))
			rcvbuf = atoi(argv[i + 1]);
		if (!strcmp(argv[i], "--hold"))
			hold = argv[i + 1];
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	strcpy(un.sun_path, argv[1]);
	unlink(argv[1]);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&un, sizeof(un)) || chmod(argv[1], 0666))
		return perror("fakelogd: socket"), 1;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tick, sizeof(tick)))
		return perror("fakelogd: SO_RCVTIMEO"), 1;
	if (rcvbuf && setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf)))
		return perror("fakelogd: SO_RCVBUF"), 1;
	out = fopen(argv[2], "w");
	if (!out)
		return perror("fakelogd: OUT"), 1;
	printf("fakelogd: ready\n");
	fflush(stdout);
	while (hold && !stop && access(hold, F_OK))
		usleep(5000);
	for (;;) { /* after a stop, what is still queued, then out */
		ssize_t len = recv(fd, buf, sizeof(buf), stop ? MSG_DONTWAIT : 0);

		if (len < 0 && (errno == EINTR || (errno == EAGAIN && !stop)))
			continue; /* a signal, or the receive timeout: look at stop again */
		if (len < 0)
			break;
		decode(out, buf, (size_t)len);
		n++;
	}
	fclose(out);
	printf("fakelogd: %lu datagrams\n", n);
	return 0;
}
