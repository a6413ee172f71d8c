// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The tracing properties' previous values, on disk until restored. See atrace_state.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "live/atrace_state.h"

#define FILE_PREFIX "animtrace-atrace."
#define FILE_SUFFIX ".state"
#define MAGIC "animtrace-atrace-state 1"
#define PROP_PREFIX "debug.atrace."
#define FILE_MAX (512u << 10) /* far more than ATRACE_STATE_PROPS_MAX lines */

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

static void file_path(char *buf, size_t cap, const char *dir, int pid, const char *suffix)
{
	snprintf(buf, cap, "%s/" FILE_PREFIX "%d%s", dir, pid, suffix);
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

int atrace_state_save(const char *dir, const struct atrace_state_prop *props, size_t n)
{
	char path[PATH_MAX], tmp[PATH_MAX], boot[64];
	unsigned long long start;
	int pid = getpid(), fd, err;
	FILE *f;

	err = start_time("/proc", pid, &start);
	if (err)
		return err;
	boot_id("/proc", boot, sizeof(boot));
	file_path(path, sizeof(path), dir, pid, FILE_SUFFIX);
	file_path(tmp, sizeof(tmp), dir, pid, ".tmp");
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		goto fail;
	}
	err = write_all(f, pid, start, boot, props, n);
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (!err)
		return 0;
fail:
	unlink(tmp);
	return err;
}

int atrace_state_remove(const char *dir)
{
	char path[PATH_MAX];

	file_path(path, sizeof(path), dir, getpid(), FILE_SUFFIX);
	return unlink(path) && errno != ENOENT ? -errno : 0;
}

int atrace_state_discard(const struct atrace_state *st)
{
	return unlink(st->path) && errno != ENOENT ? -errno : 0;
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

/* The state file dir/name, when it is this user's and parses; NULL otherwise. */
static struct atrace_state *read_state(const char *dir, const char *name, char *boot,
				       size_t boot_cap)
{
	char path[PATH_MAX], *text;
	struct atrace_state *st = NULL;
	struct stat sb;
	ssize_t n;
	int fd;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
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
	if (st)
		snprintf(st->path, sizeof(st->path), "%s", path);
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
	DIR *d = opendir(dir);
	struct atrace_state *st;
	struct dirent *e;
	char boot[64];
	int n = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((e = readdir(d))) {
		if (!is_state_name(e->d_name) ||
		    !(st = read_state(dir, e->d_name, boot, sizeof(boot))))
			continue;
		if (stale(st, boot, proc_root)) {
			fn(ctx, st);
			n++;
		}
		free(st);
	}
	closedir(d);
	return n;
}
