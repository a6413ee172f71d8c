/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Output files checked before they are written: opened without O_TRUNC, compared by device
 * and inode (symlinks, hard links, standard input and output all resolve to one identity)
 * with the files that must not be overwritten, and only then truncated.
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

/* An output opened, not yet truncated; all zero is "not open". */
struct outfile {
	bool open;
	int fd;
	const char *path; /* as given to outfile_open, which keeps the pointer */
	struct file_id id;
	bool created; /* the open created it: outfile_abandon removes it again */
	bool regular; /* a regular file: outfile_commit truncates it */
};

/* Opens path for writing (created 0666 & ~umask when absent), content untouched. 0 or -errno. */
int outfile_open(struct outfile *o, const char *path);

/* Truncates a regular file and hands the descriptor to a FILE ("w"). NULL and errno on error;
 * the descriptor is closed either way. */
FILE *outfile_commit(struct outfile *o);

/* Closes an output that will not be written; removes it when outfile_open created it.
 * Accepts an outfile that is not open. */
void outfile_abandon(struct outfile *o);

#endif
