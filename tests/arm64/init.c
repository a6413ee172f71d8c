// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the arm64 end-to-end initramfs (built static with aarch64-linux-gnu-gcc).
 *
 * There is no shell in the guest, so this init also interprets the test script
 * /e2e/commands: one directive per line, words split on blanks (no quoting), '#' comments.
 *
 *   timeout SECS                  limit for each later run / wait / wait-for (default 60)
 *   run ARGV...                   run in the foreground, output to the console
 *   bg NAME OUT ERR ARGV...       start in the background, stdout to OUT, stderr to ERR
 *   wait-for FILE TEXT...         wait until FILE contains TEXT (the rest of the line)
 *   signal NAME INT|TERM|KILL     send a signal to background process NAME
 *   wait NAME                     wait for background process NAME to exit
 *   cat FILE                      print FILE to the console between marker lines
 *   touch FILE                    create FILE (e.g. the simulator's --go file)
 *   mkdir DIR                     create DIR (e.g. the simulator's --late-gate directory)
 *   write FILE TEXT...            FILE (made 0600, or truncated) holds TEXT and a newline
 *   symlink TARGET LINK           a symbolic link LINK to TARGET (an output planted by
 *                                 another user: tests/arm64/scenario)
 *   sleep MS                      sleep
 *   expect-rc N                   the next run / wait passes on exit status N instead of 0
 *
 * Every directive is echoed as "e2e: ..." before it runs. A directive that fails (non-zero
 * or unexpected exit status, 124 on timeout, 127 when exec fails) sets the result if none
 * is set yet; later directives still run so that the outputs get printed. Last, init prints
 * "ANIMTRACE-E2E-RC=<n>" and powers the machine off.
 *
 * Not PID 1 (`init SCRIPT` on the host), it only interprets SCRIPT and exits with the
 * result: tests/arm64/init-test.sh checks the interpreter that way.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../child_signals.h"

#define MAX_ARGS 64
#define MAX_BG 16
#define POLL_MS 10
#define RC_TIMEOUT 124
#define RC_NOEXEC 127

struct bg_proc {
	char name[32];
	pid_t pid;
};

static struct bg_proc bg[MAX_BG];
static int timeout_s = 60;
static int expect_rc;
static int result;

static void fail(int rc)
{
	if (rc && !result)
		result = rc;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void mount_one(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL) && errno != EBUSY)
		printf("init: mount %s on %s: %s\n", type, dir, strerror(errno));
}

/* The kernel gives init the console only if the initramfs has /dev/console: make sure. */
static void setup_console(void)
{
	int fd;

	mount_one("devtmpfs", "/dev", "devtmpfs");
	if (fcntl(1, F_GETFD) < 0) {
		fd = open("/dev/console", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
			if (fd > 2)
				close(fd);
		}
	}
	setvbuf(stdout, NULL, _IONBF, 0);
}

static void setup_system(void)
{
	struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };

	mount_one("proc", "/proc", "proc");
	mount_one("sysfs", "/sys", "sysfs");
	mount_one("tracefs", "/sys/kernel/tracing", "tracefs");
	mount_one("debugfs", "/sys/kernel/debug", "debugfs");
	mount_one("tmpfs", "/tmp", "tmpfs");
	/* Kernels before 5.11 charge BPF maps to RLIMIT_MEMLOCK. */
	if (setrlimit(RLIMIT_MEMLOCK, &unlimited))
		printf("init: RLIMIT_MEMLOCK: %s\n", strerror(errno));
	setenv("PATH", "/e2e:/bin:/sbin:/usr/bin", 1);
	/* UTF-8 boxes, as on a UTF-8 terminal: --logcat's check compares them with its entries
	 * (glibc 2.35+ has C.UTF-8 built in, no locale files needed) */
	setenv("LC_ALL", "C.UTF-8", 1);
}

/* Forks argv with stdout/stderr redirected to files (NULL: the console). */
static pid_t spawn(char **argv, const char *out, const char *err)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	default_signals();
	if (out && !freopen(out, "w", stdout))
		_exit(RC_NOEXEC);
	if (err && !freopen(err, "w", stderr))
		_exit(RC_NOEXEC);
	execvp(argv[0], argv);
	fprintf(stderr, "init: exec %s: %s\n", argv[0], strerror(errno));
	_exit(RC_NOEXEC);
}

/* Waits up to timeout_s for pid; kills it on timeout. Returns its shell-style exit status. */
static int wait_timeout(pid_t pid)
{
	long waited = 0;
	int status;
	pid_t r;

	while ((r = waitpid(pid, &status, WNOHANG)) == 0 && waited < timeout_s * 1000L) {
		sleep_ms(POLL_MS);
		waited += POLL_MS;
	}
	if (r == 0) {
		printf("init: pid %d timed out after %d s, killing it\n", pid, timeout_s);
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return RC_TIMEOUT;
	}
	if (r < 0)
		return RC_NOEXEC;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Checks a finished command's status against the expected one (expect-rc), then resets it. */
static void check_rc(const char *what, int rc)
{
	int want = expect_rc;

	expect_rc = 0;
	printf("e2e: %s exited %d\n", what, rc);
	if (rc != want)
		fail(rc ? rc : 1);
}

static struct bg_proc *find_bg(const char *name)
{
	for (int i = 0; i < MAX_BG; i++) {
		if (bg[i].pid && !strcmp(bg[i].name, name))
			return &bg[i];
	}
	printf("init: no background process %s\n", name);
	fail(1);
	return NULL;
}

static void do_bg(char **argv)
{
	for (int i = 0; i < MAX_BG; i++) {
		if (bg[i].pid)
			continue;
		snprintf(bg[i].name, sizeof(bg[i].name), "%s", argv[1]);
		bg[i].pid = spawn(argv + 4, argv[2], argv[3]);
		return;
	}
	printf("init: more than %d background processes\n", MAX_BG);
	fail(1);
}

static void do_wait(const char *name)
{
	struct bg_proc *p = find_bg(name);

	if (!p)
		return;
	check_rc(name, wait_timeout(p->pid));
	p->pid = 0;
}

static void do_signal(const char *name, const char *sig)
{
	struct bg_proc *p = find_bg(name);
	int signo = !strcmp(sig, "INT") ? SIGINT : !strcmp(sig, "TERM") ? SIGTERM : SIGKILL;

	if (p && kill(p->pid, signo))
		fail(1);
}

/*
 * Reads the whole file, not its first buffer: animtrace -v's stderr holds some 60 KB of
 * libbpf messages before the lines a script waits for.
 */
static int file_contains(const char *path, const char *text)
{
	char buf[65536];
	size_t len = strlen(text), have = 0, keep;
	ssize_t n;
	int found = 0, fd = open(path, O_RDONLY);

	if (fd < 0)
		return 0;
	while (!found && len && (n = read(fd, buf + have, sizeof(buf) - 1 - have)) > 0) {
		have += n;
		buf[have] = '\0';
		found = strstr(buf, text) != NULL;
		/* A match may straddle two reads: keep the last len - 1 bytes. */
		keep = have < len ? have : len - 1;
		memmove(buf, buf + have - keep, keep);
		have = keep;
	}
	close(fd);
	return found;
}

static void do_wait_for(const char *path, const char *text)
{
	for (long waited = 0; waited < timeout_s * 1000L; waited += POLL_MS) {
		if (file_contains(path, text))
			return;
		sleep_ms(POLL_MS);
	}
	printf("init: %s did not contain \"%s\" within %d s\n", path, text, timeout_s);
	fail(RC_TIMEOUT);
}

static void do_touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0) {
		printf("init: touch %s: %s\n", path, strerror(errno));
		fail(1);
		return;
	}
	close(fd);
}

static void do_mkdir(const char *path)
{
	if (mkdir(path, 0755)) {
		printf("init: mkdir %s: %s\n", path, strerror(errno));
		fail(1);
	}
}

static void do_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	size_t len = strlen(text);

	if (fd < 0 || write(fd, text, len) != (ssize_t)len || write(fd, "\n", 1) != 1) {
		printf("init: write %s: %s\n", path, strerror(errno));
		fail(1);
	}
	if (fd >= 0)
		close(fd);
}

static void do_symlink(const char *target, const char *link)
{
	if (symlink(target, link)) {
		printf("init: symlink %s %s: %s\n", target, link, strerror(errno));
		fail(1);
	}
}

static void do_cat(const char *path)
{
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		printf("init: cat %s: %s\n", path, strerror(errno));
		fail(1);
		return;
	}
	printf("----- begin %s -----\n", path);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, n, stdout);
	printf("----- end %s -----\n", path);
	close(fd);
}

/* Splits line in place; returns the word count. */
static int split(char *line, char **argv)
{
	int argc = 0;
	char *save = NULL;

	for (char *w = strtok_r(line, " \t\r\n", &save); w && argc < MAX_ARGS;
	     w = strtok_r(NULL, " \t\r\n", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	return argc;
}

/* Returns the text after the first n words of the original line. */
static const char *rest_after(const char *line, int n)
{
	while (n-- > 0) {
		line += strspn(line, " \t");
		line += strcspn(line, " \t");
	}
	return line + strspn(line, " \t");
}

static int bad_usage(const char *line)
{
	printf("init: bad directive: %s\n", line);
	fail(2);
	return 0;
}

static int run_directive(const char *line, int argc, char **argv)
{
	const char *op = argv[0];

	if (!strcmp(op, "timeout") && argc == 2)
		timeout_s = atoi(argv[1]);
	else if (!strcmp(op, "expect-rc") && argc == 2)
		expect_rc = atoi(argv[1]);
	else if (!strcmp(op, "sleep") && argc == 2)
		sleep_ms(atol(argv[1]));
	else if (!strcmp(op, "run") && argc >= 2)
		check_rc(argv[1], wait_timeout(spawn(argv + 1, NULL, NULL)));
	else if (!strcmp(op, "bg") && argc >= 5)
		do_bg(argv);
	else if (!strcmp(op, "wait") && argc == 2)
		do_wait(argv[1]);
	else if (!strcmp(op, "signal") && argc == 3)
		do_signal(argv[1], argv[2]);
	else if (!strcmp(op, "wait-for") && argc >= 3)
		do_wait_for(argv[1], rest_after(line, 2));
	else if (!strcmp(op, "cat") && argc == 2)
		do_cat(argv[1]);
	else if (!strcmp(op, "touch") && argc == 2)
		do_touch(argv[1]);
	else if (!strcmp(op, "mkdir") && argc == 2)
		do_mkdir(argv[1]);
	else if (!strcmp(op, "write") && argc >= 3)
		do_write(argv[1], rest_after(line, 2));
	else if (!strcmp(op, "symlink") && argc == 3)
		do_symlink(argv[1], argv[2]);
	else
		return bad_usage(line);
	return 0;
}

static void run_script(const char *path)
{
	char line[4096], copy[4096];
	char *argv[MAX_ARGS + 1];
	FILE *f = fopen(path, "r");
	int argc;

	if (!f) {
		printf("init: %s: %s\n", path, strerror(errno));
		fail(1);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		snprintf(copy, sizeof(copy), "%s", line);
		argc = split(copy, argv);
		if (argc == 0 || argv[0][0] == '#')
			continue;
		printf("e2e: %s\n", line);
		run_directive(line, argc, argv);
	}
	fclose(f);
}

/* Stops whatever is still running in the background so nothing outlives the verdict. */
static void kill_leftovers(void)
{
	for (int i = 0; i < MAX_BG; i++) {
		if (!bg[i].pid)
			continue;
		printf("init: %s still running, killing it\n", bg[i].name);
		kill(bg[i].pid, SIGKILL);
		waitpid(bg[i].pid, NULL, 0);
		fail(1);
	}
}

int main(int argc, char **argv)
{
	int pid1 = getpid() == 1;

	if (pid1) {
		setup_console();
		setup_system();
	} else {
		setvbuf(stdout, NULL, _IONBF, 0);
	}
	run_script(pid1 || argc < 2 ? "/e2e/commands" : argv[1]);
	kill_leftovers();
	printf("ANIMTRACE-E2E-RC=%d\n", result);
	if (!pid1)
		return result;
	sync();
	reboot(RB_POWER_OFF);
	/* Only reached if power-off failed: returning from init panics, panic=-1 reboots. */
	return result;
}
