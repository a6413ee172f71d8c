// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Output files checked before they are written. See outfile.h. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/outfile.h"

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

int outfile_open(struct outfile *o, const char *path)
{
	const int flags = O_WRONLY | O_CLOEXEC | O_NOCTTY;
	struct stat st;

	*o = (struct outfile){ .path = path };
	/* O_EXCL first: only a file this call created may be removed again on refusal. */
	o->fd = open(path, flags | O_CREAT | O_EXCL, 0666);
	o->created = o->fd >= 0;
	if (o->fd < 0 && errno == EEXIST)
		o->fd = open(path, flags);
	if (o->fd < 0)
		return -errno;
	o->open = true;
	if (fstat(o->fd, &st)) {
		int err = -errno;

		outfile_abandon(o);
		return err;
	}
	id_of(&st, &o->id);
	o->regular = S_ISREG(st.st_mode);
	return 0;
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
	if (!o->open)
		return;
	close(o->fd);
	o->open = false;
	if (o->created)
		unlink(o->path);
}
