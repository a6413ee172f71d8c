// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Output files checked before they are written. See outfile.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/outfile.h"

#define WRITE_FLAGS (O_WRONLY | O_CLOEXEC | O_NOCTTY)
#define DIR_FLAGS (O_PATH | O_DIRECTORY | O_CLOEXEC)

static void id_of(const struct stat *st, struct file_id *out)
{
	*out = (struct file_id){ (uint64_t)st->st_dev, (uint64_t)st->st_ino, S_ISREG(st->st_mode) };
}

int file_id_of_fd(int fd, struct file_id *out)
{
	struct stat st;

	*out = (struct file_id){ 0 };
	if (fstat(fd, &st))
		return -errno;
	id_of(&st, out);
	return 0;
}

bool file_id_same(const struct file_id *a, const struct file_id *b)
{
	return a->set && b->set && a->dev == b->dev && a->ino == b->ino;
}

/* Someone other than root and this user can write the directory (its owner or a group). */
static bool dir_shared(const struct stat *d)
{
	uid_t me = geteuid();

	return ((d->st_mode & S_IWUSR) && d->st_uid != 0 && d->st_uid != me) ||
	       ((d->st_mode & S_IWGRP) && d->st_gid != 0) || (d->st_mode & S_IWOTH);
}

static int refuse(struct outfile *o, enum outfile_refusal why)
{
	o->refused = why;
	return -EPERM;
}

/* Component name of dir (an O_PATH descriptor) opened as a directory: through a symlink only
 * when dir is not shared. The new descriptor, or -errno (-EPERM: refused, o->refused). */
static int step(struct outfile *o, int dir, const char *name)
{
	struct stat d, l;
	int fd = openat(dir, name, DIR_FLAGS | O_NOFOLLOW);

	if (fd >= 0 || (errno != ELOOP && errno != ENOTDIR))
		return fd >= 0 ? fd : -errno;
	if (fstat(dir, &d) || fstatat(dir, name, &l, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (!S_ISLNK(l.st_mode))
		return -ENOTDIR;
	if (dir_shared(&d))
		return refuse(o, OUTFILE_SYMLINK_DIR);
	fd = openat(dir, name, DIR_FLAGS);
	return fd >= 0 ? fd : -errno;
}

/* The directory of o->path, walked one component at a time; its last component in *base. */
static int open_dir(struct outfile *o, const char **base)
{
	const char *slash = strrchr(o->path, '/');
	char dir[PATH_MAX], *save = NULL, *c;
	int fd, next;

	*base = slash ? (slash[1] ? slash + 1 : ".") : o->path;
	if (snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - o->path) : 0, o->path) >=
	    (int)sizeof(dir))
		return -ENAMETOOLONG;
	fd = open(o->path[0] == '/' ? "/" : ".", DIR_FLAGS);
	if (fd < 0)
		return -errno;
	for (c = strtok_r(dir, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		next = step(o, fd, c);
		close(fd);
		if (next < 0)
			return next;
		fd = next;
	}
	return fd;
}

/*
 * What may be written, of a file that existed (created: it did not): not someone else's, and
 * in a shared directory only a regular file of this user's with no other name. Character
 * devices are exempt from the owner rule (a tty belongs to its user; nobody but root makes
 * device nodes).
 */
static int judge(struct outfile *o, const struct stat *st, const struct stat *dir)
{
	uid_t me = geteuid();

	if (o->created)
		return 0;
	o->owner = st->st_uid;
	if (st->st_uid != 0 && st->st_uid != me && !S_ISCHR(st->st_mode))
		return refuse(o, OUTFILE_FOREIGN);
	if (dir_shared(dir) && !(S_ISREG(st->st_mode) && st->st_uid == me && st->st_nlink == 1))
		return refuse(o, OUTFILE_SHARED);
	return 0;
}

/* base in dir: created (O_EXCL), else the existing entry, never through a symlink and never
 * waiting on a FIFO nobody reads, unless dir is this user's own (then as before). */
static int open_in(struct outfile *o, int dir, const char *base, const struct stat *ds)
{
	const int flags = WRITE_FLAGS | O_NOFOLLOW;
	struct stat l;
	int fd = openat(dir, base, flags | O_NONBLOCK | O_CREAT | O_EXCL, 0666);

	o->created = fd >= 0;
	if (fd < 0 && errno == EEXIST)
		fd = openat(dir, base, flags | O_NONBLOCK);
	if (fd < 0 && errno == ENXIO) { /* a FIFO nobody reads */
		if (dir_shared(ds))
			return refuse(o, OUTFILE_SHARED);
		fd = openat(dir, base, flags);
	}
	if (fd < 0 && errno == ELOOP && !fstatat(dir, base, &l, AT_SYMLINK_NOFOLLOW) &&
	    S_ISLNK(l.st_mode))
		return refuse(o, OUTFILE_SYMLINK);
	return fd >= 0 ? fd : -errno;
}

/* The checked open: the directory walked, the file judged. */
static int open_checked(struct outfile *o)
{
	const char *base;
	struct stat ds, st;
	int dir = open_dir(o, &base), err;

	if (dir < 0)
		return dir;
	if (fstat(dir, &ds)) {
		err = -errno;
		close(dir);
		return err;
	}
	o->fd = open_in(o, dir, base, &ds);
	close(dir);
	if (o->fd < 0)
		return o->fd;
	o->open = true;
	if (fstat(o->fd, &st) || fcntl(o->fd, F_SETFL, fcntl(o->fd, F_GETFL) & ~O_NONBLOCK))
		return -errno;
	id_of(&st, &o->id);
	o->regular = S_ISREG(st.st_mode);
	return judge(o, &st, &ds);
}

/* --unsafe-output: the path as the kernel resolves it, symlinks and all. */
static int open_anywhere(struct outfile *o)
{
	struct stat st;

	/* O_EXCL first: only a file this call created may be removed again on refusal. */
	o->fd = open(o->path, WRITE_FLAGS | O_CREAT | O_EXCL, 0666);
	o->created = o->fd >= 0;
	if (o->fd < 0 && errno == EEXIST)
		o->fd = open(o->path, WRITE_FLAGS);
	if (o->fd < 0)
		return -errno;
	o->open = true;
	if (fstat(o->fd, &st))
		return -errno;
	id_of(&st, &o->id);
	o->regular = S_ISREG(st.st_mode);
	return 0;
}

int outfile_open(struct outfile *o, const char *path, bool anywhere)
{
	int err;

	*o = (struct outfile){ .path = path, .fd = -1 };
	err = anywhere ? open_anywhere(o) : open_checked(o);
	if (err) {
		enum outfile_refusal why = o->refused;

		outfile_abandon(o);
		o->refused = why;
	}
	return err;
}

const char *outfile_refusal_str(const struct outfile *o, char *buf, size_t size)
{
	switch (o->refused) {
	case OUTFILE_SYMLINK:
		return "is a symbolic link: refusing to write through it";
	case OUTFILE_SYMLINK_DIR:
		return "is reached through a symbolic link in a directory others can write: "
		       "refusing to follow it";
	case OUTFILE_FOREIGN:
		snprintf(buf, size, "belongs to uid %u: refusing to overwrite it", o->owner);
		return buf;
	case OUTFILE_SHARED:
		return "already exists in a directory others can write, and not as a file of "
		       "yours alone: refusing to overwrite it (remove it first)";
	default:
		return "";
	}
}

FILE *outfile_commit(struct outfile *o)
{
	int fd = o->fd, err;
	FILE *f;

	if (!o->open) {
		errno = EBADF;
		return NULL;
	}
	o->open = false;
	if (o->regular && ftruncate(fd, 0))
		goto fail;
	f = fdopen(fd, "w");
	if (f)
		return f;
fail:
	err = errno;
	close(fd);
	errno = err;
	return NULL;
}

void outfile_abandon(struct outfile *o)
{
	struct stat st;

	if (!o->open)
		return;
	close(o->fd);
	o->open = false;
	/* only the file this open made: in a shared directory the name may lead elsewhere now */
	if (o->created && !lstat(o->path, &st) && (uint64_t)st.st_dev == o->id.dev &&
	    (uint64_t)st.st_ino == o->id.ino)
		unlink(o->path);
}
