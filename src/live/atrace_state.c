// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The tracing properties' previous values, on disk until restored. See atrace_state.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "live/atrace_state.h"

#define FILE_PREFIX "animtrace-atrace."
#define FILE_SUFFIX ".state"
#define MAGIC "animtrace-atrace-state 1"
#define PROP_PREFIX "debug.atrace."
#define FILE_MAX (512u << 10) /* far more than ATRACE_STATE_PROPS_MAX lines */
#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#define TMP_TRIES 16

const char *atrace_state_dir(void)
{
	const char *dir = getenv(ATRACE_STATE_DIR_ENV);

	return dir && *dir ? dir : ATRACE_STATE_DIR_DEFAULT;
}

/* Field 22 of proc_root/<pid>/stat: when the process started, in clock ticks since boot. */
static int start_time(const char *proc_root, int pid, unsigned long long *out)
{
	char path[PATH_MAX], buf[1024], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%d/stat", proc_root, pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')'); /* the name may hold spaces and parentheses */
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p, " %llu", out) != 1)
		return -EINVAL;
	return 0;
}

/* The kernel's boot id ("" when unreadable: then reboots cannot be told apart). */
static void boot_id(const char *proc_root, char *buf, size_t cap)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/kernel/random/boot_id", proc_root);
	buf[0] = '\0';
	f = fopen(path, "re");
	if (!f)
		return;
	if (!fgets(buf, (int)cap, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/*
 * dir opened, when only this user can write it: not a symbolic link, owned by this user,
 * writable by no group and no one else; made 0700 first when create and it is missing.
 * A descriptor, or -errno: -ELOOP (a symbolic link), -EPERM (another owner, or a mode that
 * lets others write), -ENOENT.
 */
static int dir_open(const char *dir, bool create)
{
	struct stat st;
	int fd;

	if (create && mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	fd = open(dir, DIR_FLAGS);
	if (fd < 0)
		return errno == ENOTDIR && !lstat(dir, &st) && S_ISLNK(st.st_mode) ? -ELOOP :
										     -errno;
	if (fstat(fd, &st) || st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

const char *atrace_state_strerror(int err)
{
	if (err == -ELOOP)
		return "a symbolic link: refused";
	if (err == -EPERM)
		return "another user's, or writable by others: refused";
	return strerror(-err);
}

static void file_name(char *buf, size_t cap, int pid)
{
	snprintf(buf, cap, FILE_PREFIX "%d" FILE_SUFFIX, pid);
}

/* A new file in dir under a name nobody can guess (name: its name), opened for writing. */
static int tmp_create(int dir, char *name, size_t cap)
{
	uint64_t r;
	int fd = -1;

	for (int i = 0; i < TMP_TRIES && fd < 0; i++) {
		if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
			r ^= (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull + (uint64_t)getpid() + i;
		snprintf(name, cap, FILE_PREFIX "%016llx.tmp", (unsigned long long)r);
		fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			return -errno;
	}
	return fd >= 0 ? fd : -EEXIST;
}

static int write_all(FILE *f, int pid, unsigned long long start, const char *boot,
		     const struct atrace_state_prop *props, size_t n)
{
	fprintf(f, MAGIC "\npid %d\nstart %llu\nboot %s\n", pid, start, boot);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "prop %s %s\n", props[i].name, props[i].old);
	if (fflush(f) || ferror(f) || fsync(fileno(f)))
		return -errno ? -errno : -EIO;
	return 0;
}

/* The state written whole into a new file of dir, renamed over this process's. */
static int save_in(int dir, const char *boot, unsigned long long start,
		   const struct atrace_state_prop *props, size_t n)
{
	char name[NAME_MAX + 1], tmp[NAME_MAX + 1];
	int pid = getpid(), fd, err;
	FILE *f;

	file_name(name, sizeof(name), pid);
	fd = tmp_create(dir, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		goto fail;
	}
	err = write_all(f, pid, start, boot, props, n);
	if (fclose(f) && !err)
		err = -errno;
	if (!err && renameat(dir, tmp, dir, name))
		err = -errno;
	if (!err)
		return 0;
fail:
	unlinkat(dir, tmp, 0);
	return err;
}

int atrace_state_save(const char *dir, const struct atrace_state_prop *props, size_t n)
{
	unsigned long long start;
	char boot[64];
	int fd, err;

	err = start_time("/proc", getpid(), &start);
	if (err)
		return err;
	boot_id("/proc", boot, sizeof(boot));
	fd = dir_open(dir, true);
	if (fd < 0)
		return fd;
	err = save_in(fd, boot, start, props, n);
	close(fd);
	return err;
}

/* Removes name from dir, a directory dir_open accepts. 0 (also when absent) or -errno. */
static int remove_in(const char *dir, const char *name)
{
	int fd = dir_open(dir, false), err = 0;

	if (fd < 0)
		return fd == -ENOENT ? 0 : fd;
	if (unlinkat(fd, name, 0) && errno != ENOENT)
		err = -errno;
	close(fd);
	return err;
}

int atrace_state_remove(const char *dir)
{
	char name[NAME_MAX + 1];

	file_name(name, sizeof(name), getpid());
	return remove_in(dir, name);
}

int atrace_state_discard(const struct atrace_state *st)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%.*s", (int)st->dir_len, st->path);
	return remove_in(dir, st->path + st->dir_len + 1);
}

/* A property line that animtrace could have written: "prop debug.atrace.X value". */
static bool parse_prop(const char *line, struct atrace_state_prop *out)
{
	const char *name = line + 5, *sp = strchr(name, ' '), *v;
	size_t len;

	if (strncmp(line, "prop " PROP_PREFIX, 5 + strlen(PROP_PREFIX)) || !sp ||
	    (size_t)(sp - name) >= sizeof(out->name))
		return false;
	for (const char *c = name; c < sp; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '.' ||
		      *c == '_'))
			return false;
	v = sp + 1;
	len = strlen(v);
	if (len >= sizeof(out->old))
		return false;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)v[i] < 0x20)
			return false;
	snprintf(out->name, sizeof(out->name), "%.*s", (int)(sp - name), name);
	memcpy(out->old, v, len + 1);
	return true;
}

/* One "key value" header line into st; false when it is not the expected one. */
static bool parse_header(const char *line, int i, struct atrace_state *st, char *boot, size_t cap)
{
	switch (i) {
	case 0:
		return !strcmp(line, MAGIC);
	case 1:
		return sscanf(line, "pid %d", &st->pid) == 1 && st->pid > 0;
	case 2:
		return sscanf(line, "start %llu", &st->start) == 1;
	default:
		if (strncmp(line, "boot ", 5))
			return false;
		snprintf(boot, cap, "%s", line + 5);
		return true;
	}
}

/* Parses the text of a state file; NULL when it is not one. */
static struct atrace_state *parse(char *text, char *boot, size_t boot_cap)
{
	struct atrace_state *st =
		calloc(1, sizeof(*st) + ATRACE_STATE_PROPS_MAX * sizeof(st->props[0]));
	char *line, *save = NULL;
	int i = 0;

	if (!st)
		return NULL;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save), i++) {
		if (i < 4 ? !parse_header(line, i, st, boot, boot_cap) :
			    st->n >= ATRACE_STATE_PROPS_MAX ||
				    !parse_prop(line, &st->props[st->n++]))
			goto bad;
	}
	if (i >= 4)
		return st;
bad:
	free(st);
	return NULL;
}

/* The state file name of dir (a descriptor), when it is a regular file of this user's and
 * parses; NULL otherwise. Never follows a link, never waits on a FIFO. */
static struct atrace_state *read_state(int dir, const char *name, char *boot, size_t boot_cap)
{
	struct atrace_state *st = NULL;
	struct stat sb;
	char *text;
	ssize_t n;
	int fd = openat(dir, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) || sb.st_uid != geteuid() ||
	    (size_t)sb.st_size >= FILE_MAX || !(text = malloc((size_t)sb.st_size + 1))) {
		close(fd);
		return NULL;
	}
	n = read(fd, text, (size_t)sb.st_size);
	close(fd);
	if (n == sb.st_size) {
		text[n] = '\0';
		st = parse(text, boot, boot_cap);
	}
	free(text);
	return st;
}

static bool is_state_name(const char *name)
{
	size_t len = strlen(name), pl = strlen(FILE_PREFIX), sl = strlen(FILE_SUFFIX);

	return len > pl + sl && !strncmp(name, FILE_PREFIX, pl) &&
	       !strcmp(name + len - sl, FILE_SUFFIX);
}

/* Whose file it is: a running writer (false), or a gone or rebooted one (st->owner). */
static bool stale(struct atrace_state *st, const char *file_boot, const char *proc_root)
{
	unsigned long long start;
	char boot[64];

	boot_id(proc_root, boot, sizeof(boot));
	if (boot[0] && file_boot[0] && strcmp(boot, file_boot)) {
		st->owner = ATRACE_STATE_REBOOTED;
		return true;
	}
	st->owner = ATRACE_STATE_GONE;
	return start_time(proc_root, st->pid, &start) || start != st->start;
}

int atrace_state_each_stale(const char *dir, const char *proc_root,
			    void (*fn)(void *ctx, const struct atrace_state *st), void *ctx)
{
	int fd = dir_open(dir, false), n = 0;
	struct atrace_state *st;
	struct dirent *e;
	char boot[64];
	DIR *d;

	if (fd < 0)
		return fd == -ENOENT ? 0 : fd;
	d = fdopendir(dup(fd));
	if (!d) {
		n = -errno;
		close(fd);
		return n;
	}
	while ((e = readdir(d))) {
		if (!is_state_name(e->d_name) ||
		    !(st = read_state(fd, e->d_name, boot, sizeof(boot))))
			continue;
		st->dir_len = strlen(dir);
		if (snprintf(st->path, sizeof(st->path), "%s/%s", dir, e->d_name) <
			    (int)sizeof(st->path) &&
		    stale(st, boot, proc_root)) {
			fn(ctx, st);
			n++;
		}
		free(st);
	}
	closedir(d);
	close(fd);
	return n;
}
