/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Output files checked before they are written: opened without O_TRUNC, compared by device
 * and inode (symlinks, hard links, standard input and output all resolve to one identity)
 * with the files that must not be overwritten, and only then truncated.
 *
 * animtrace runs as root, often in a directory another user can write (/data/local/tmp is
 * shell:shell 0771, no sticky bit, so the kernel's protected_symlinks does not apply there):
 * whoever can write the directory can plant a symlink, a hard link or a FIFO at the name the
 * user gives, to make root overwrite a file of their choice or hang. So, unless the caller
 * allows anything (the user's --unsafe-output):
 *  - the final component is opened O_NOFOLLOW: a symbolic link is refused, in any directory;
 *    a directory on the way is followed through a symbolic link only when the link sits in a
 *    directory others cannot write (the kernel's protected_symlinks rule, for every component);
 *  - a file that exists but belongs to another user (not root, not this one) is refused;
 *  - in a directory that someone other than root and this user can write (sticky or not), an
 *    existing entry is taken only when it can only be this user's own doing: a regular file of
 *    this user with no other link. A file the open creates (O_EXCL) is always fine: the
 *    descriptor is ours, whatever happens to the name later.
 * Opens are O_NONBLOCK (a FIFO nobody reads does not hang the open; in a directory only root
 * and this user write, a FIFO is theirs and is waited for as before).
 */
#ifndef ANIMTRACE_OUTFILE_H
#define ANIMTRACE_OUTFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Which regular file a descriptor is. set is false for anything else: writing to a pipe, a
 * terminal or a device destroys no capture (and a terminal is both stdin and stdout).
 */
struct file_id {
	uint64_t dev, ino;
	bool set;
};

/* The identity of fd (fstat); unset unless a regular file. 0 or -errno. */
int file_id_of_fd(int fd, struct file_id *out);

/* True when both are known and name the same file. */
bool file_id_same(const struct file_id *a, const struct file_id *b);

/* Why outfile_open refused a path (it returned -EPERM); the caller says it and exits 2. */
enum outfile_refusal {
	OUTFILE_OK = 0,
	OUTFILE_SYMLINK,     /* the final component is a symbolic link */
	OUTFILE_SYMLINK_DIR, /* a directory on the way is a link in a directory others can write */
	OUTFILE_FOREIGN,     /* it exists and belongs to another user */
	OUTFILE_SHARED,	     /* it exists, in a directory others can write, and is not ours alone */
};

/* An output opened, not yet truncated; all zero is "not open". */
struct outfile {
	bool open;
	int fd;
	const char *path; /* as given to outfile_open, which keeps the pointer */
	struct file_id id;
	bool created;		      /* the open created it: outfile_abandon removes it again */
	bool regular;		      /* a regular file: outfile_commit truncates it */
	enum outfile_refusal refused; /* why -EPERM, when outfile_open refused path */
	unsigned int owner;	      /* OUTFILE_FOREIGN: the file's uid */
};

/*
 * Opens path for writing (created 0666 & ~umask when absent), content untouched. anywhere:
 * none of the refusals above (--unsafe-output). 0, -EPERM when refused (o->refused says
 * why), or another -errno.
 */
int outfile_open(struct outfile *o, const char *path, bool anywhere);

/* Why an output was refused, for "animtrace: FILE <this>" ("" for OUTFILE_OK). */
const char *outfile_refusal_str(const struct outfile *o, char *buf, size_t size);

/* Truncates a regular file and hands the descriptor to a FILE ("w"). NULL and errno on error;
 * the descriptor is closed either way. */
FILE *outfile_commit(struct outfile *o);

/* Closes an output that will not be written; removes it when outfile_open created it.
 * Accepts an outfile that is not open. */
void outfile_abandon(struct outfile *o);

#endif
