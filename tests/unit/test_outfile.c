// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Output files opened without truncation, compared by identity, truncated on commit. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/outfile.h"
#include "fake_proc.h"

static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/animtrace-outfile-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	temp_tree_remove(dir);
}

TestSuite(outfile, .init = setup, .fini = teardown);

static char *in_dir(char *buf, const char *name)
{
	snprintf(buf, 256, "%s/%s", dir, name);
	return buf;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
}

static off_t size_of(const char *path)
{
	struct stat st;

	cr_assert_eq(stat(path, &st), 0, "%s", path);
	return st.st_size;
}

Test(outfile, opening_keeps_the_content_until_commit_truncates_it)
{
	char path[256];
	struct outfile o;
	FILE *f;

	write_text(in_dir(path, "cap.txt"), "capture\n");
	cr_assert_eq(outfile_open(&o, path), 0);
	cr_assert(o.open && !o.created && o.regular);
	cr_assert_eq(size_of(path), 8);
	f = outfile_commit(&o);
	cr_assert_not_null(f);
	cr_assert_not(o.open);
	cr_assert_eq(size_of(path), 0);
	fputs("x", f);
	cr_assert_eq(fclose(f), 0);
	cr_assert_eq(size_of(path), 1);
}

Test(outfile, links_and_descriptors_of_one_file_have_one_identity)
{
	char cap[256], sym[256], hard[256], other[256];
	struct outfile a, b, c, d;
	struct file_id in;
	int fd;

	write_text(in_dir(cap, "cap.txt"), "capture\n");
	write_text(in_dir(other, "other.txt"), "other\n");
	cr_assert_eq(symlink(cap, in_dir(sym, "sym.txt")), 0);
	cr_assert_eq(link(cap, in_dir(hard, "hard.txt")), 0);
	fd = open(cap, O_RDONLY);
	cr_assert_eq(file_id_of_fd(fd, &in), 0);
	close(fd);
	cr_assert_eq(outfile_open(&a, sym), 0);
	cr_assert_eq(outfile_open(&b, hard), 0);
	cr_assert_eq(outfile_open(&c, cap), 0);
	cr_assert_eq(outfile_open(&d, other), 0);
	cr_assert(file_id_same(&a.id, &in) && file_id_same(&b.id, &in) && file_id_same(&c.id, &in));
	cr_assert_not(file_id_same(&d.id, &in));
	outfile_abandon(&a);
	outfile_abandon(&b);
	outfile_abandon(&c);
	outfile_abandon(&d);
	cr_assert_eq(size_of(cap), 8, "abandoning must not truncate");
	cr_assert_eq(size_of(other), 6);
}

Test(outfile, abandoning_removes_only_a_file_the_open_created)
{
	char path[256];
	struct outfile o;

	cr_assert_eq(outfile_open(&o, in_dir(path, "new.txt")), 0);
	cr_assert(o.created);
	outfile_abandon(&o);
	cr_assert_neq(access(path, F_OK), 0, "the created file is still there");
	outfile_abandon(&o); /* not open any more: nothing */
}

Test(outfile, devices_have_no_identity_to_clash_with)
{
	struct outfile o;
	struct file_id null_id;
	int fd = open("/dev/null", O_RDONLY);

	cr_assert_eq(file_id_of_fd(fd, &null_id), 0);
	close(fd);
	cr_assert_eq(outfile_open(&o, "/dev/null"), 0);
	cr_assert_not(o.regular);
	cr_assert_not(file_id_same(&o.id, &null_id), "a device never clashes");
	outfile_abandon(&o);
	cr_assert_eq(access("/dev/null", F_OK), 0);
}

Test(outfile, a_directory_cannot_be_opened)
{
	struct outfile o;

	cr_assert_eq(outfile_open(&o, dir), -EISDIR);
	cr_assert_not(o.open);
}
