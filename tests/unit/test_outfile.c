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
	cr_assert_eq(outfile_open(&o, path, false), 0);
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
	cr_assert_eq(outfile_open(&a, sym, true), 0);
	cr_assert_eq(outfile_open(&b, hard, false), 0);
	cr_assert_eq(outfile_open(&c, cap, false), 0);
	cr_assert_eq(outfile_open(&d, other, false), 0);
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

	cr_assert_eq(outfile_open(&o, in_dir(path, "new.txt"), false), 0);
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
	cr_assert_eq(outfile_open(&o, "/dev/null", false), 0);
	cr_assert_not(o.regular);
	cr_assert_not(file_id_same(&o.id, &null_id), "a device never clashes");
	outfile_abandon(&o);
	cr_assert_eq(access("/dev/null", F_OK), 0);
}

Test(outfile, a_directory_cannot_be_opened)
{
	struct outfile o;

	cr_assert_eq(outfile_open(&o, dir, false), -EISDIR);
	cr_assert_not(o.open);
}

/* ---- where another user can plant a name: refused unless the caller allows anything ---- */

/* The root-only file a planted link points at (outside the output's directory). */
static char *victim(char *buf)
{
	write_text(in_dir(buf, "victim"), "root only\n");
	return buf;
}

Test(outfile, a_symbolic_link_is_refused_in_any_directory_and_its_target_left_intact)
{
	char path[256], target[256];
	struct outfile o;

	cr_assert_eq(symlink(victim(target), in_dir(path, "out.json")), 0);
	cr_assert_eq(outfile_open(&o, path, false), -EPERM);
	cr_assert_eq(o.refused, OUTFILE_SYMLINK);
	cr_assert_not(o.open);
	cr_assert_eq(size_of(target), 10);
	cr_assert_eq(outfile_open(&o, path, true), 0, "allowed: the link is followed");
	outfile_abandon(&o);
	cr_assert_eq(unlink(target), 0); /* the link now dangles */
	cr_assert_eq(outfile_open(&o, path, false), -EPERM, "a dangling link is no better");
	cr_assert_eq(o.refused, OUTFILE_SYMLINK);
	cr_assert_eq(access(target, F_OK), -1, "nothing created at its target");
}

/* dir, made writable by everyone (0777, no sticky bit): the /data/local/tmp case. */
static void share_dir(void)
{
	cr_assert_eq(chmod(dir, 0777), 0);
}

Test(outfile, in_a_directory_others_can_write_a_new_file_or_one_of_ours_alone_is_written)
{
	char path[256], mine[256];
	struct outfile o;

	share_dir();
	cr_assert_eq(outfile_open(&o, in_dir(path, "new.json"), false), 0);
	cr_assert(o.created);
	outfile_abandon(&o);
	write_text(in_dir(mine, "mine.json"), "an earlier run\n");
	cr_assert_eq(outfile_open(&o, mine, false), 0);
	cr_assert_not(o.created);
	outfile_abandon(&o);
	cr_assert_eq(size_of(mine), 15, "kept until commit");
}

Test(outfile, in_a_directory_others_can_write_a_hard_link_or_a_fifo_is_refused_at_once)
{
	char path[256], target[256], fifo[256];
	struct outfile o;

	share_dir();
	cr_assert_eq(link(victim(target), in_dir(path, "out.json")), 0);
	cr_assert_eq(outfile_open(&o, path, false), -EPERM);
	cr_assert_eq(o.refused, OUTFILE_SHARED);
	cr_assert_eq(size_of(target), 10);
	/* nobody reads it: without O_NONBLOCK this open would wait for ever */
	cr_assert_eq(mkfifo(in_dir(fifo, "fifo.json"), 0666), 0);
	cr_assert_eq(outfile_open(&o, fifo, false), -EPERM);
	cr_assert_eq(o.refused, OUTFILE_SHARED);
	cr_assert_eq(access(fifo, F_OK), 0, "a refused name is left as it was");
}

Test(outfile, a_directory_reached_through_a_link_in_a_shared_directory_is_refused)
{
	char link_dir[256], path[300], real[256];
	struct outfile o;

	cr_assert_eq(mkdir(in_dir(real, "real"), 0700), 0);
	cr_assert_eq(symlink(real, in_dir(link_dir, "via")), 0);
	snprintf(path, sizeof(path), "%s/out.json", link_dir);
	cr_assert_eq(outfile_open(&o, path, false), 0, "a link in a private directory is ours");
	outfile_abandon(&o);
	share_dir();
	cr_assert_eq(outfile_open(&o, path, false), -EPERM);
	cr_assert_eq(o.refused, OUTFILE_SYMLINK_DIR);
	cr_assert_eq(outfile_open(&o, path, true), 0);
	outfile_abandon(&o);
}

Test(outfile, another_users_file_is_refused_with_its_uid)
{
	char path[256], why[64];
	struct outfile o;

	if (geteuid() != 0)
		cr_skip_test("needs root to give a file to another user");
	write_text(in_dir(path, "theirs.json"), "theirs\n");
	cr_assert_eq(chown(path, 12345, 12345), 0);
	cr_assert_eq(outfile_open(&o, path, false), -EPERM);
	cr_assert_eq(o.refused, OUTFILE_FOREIGN);
	cr_assert_str_eq(outfile_refusal_str(&o, why, sizeof(why)),
			 "belongs to uid 12345: refusing to overwrite it");
	cr_assert_eq(size_of(path), 7);
}

Test(outfile, a_directory_whose_owner_is_another_user_is_shared)
{
	char path[256], second[256];
	struct outfile o;

	if (geteuid() != 0)
		cr_skip_test("needs root to give the directory to another user");
	cr_assert_eq(chown(dir, 2000, 2000), 0); /* shell:shell 0700 */
	write_text(in_dir(path, "old.json"), "old\n");
	cr_assert_eq(chown(path, 2000, 2000), 0);
	cr_assert_eq(outfile_open(&o, path, false), -EPERM);
	cr_assert_eq(o.refused, OUTFILE_FOREIGN);
	cr_assert_eq(chown(path, 0, 0), 0);
	cr_assert_eq(link(path, in_dir(second, "second.json")), 0);
	cr_assert_eq(outfile_open(&o, path, false), -EPERM, "two names: someone linked it");
	cr_assert_eq(o.refused, OUTFILE_SHARED);
}
