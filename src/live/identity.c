// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Who a traced process is: its uid against its name's. See identity.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/trust.h"
#include "live/identity.h"

#define LIST_MAX (8u << 20)   /* a phone's list is some 100 KiB */
#define USER_OFFSET 100000u   /* AID_USER_OFFSET */
#define ISOLATED_FIRST 90000u /* AID_APP_ZYGOTE_START */
#define ISOLATED_LAST 99999u  /* AID_ISOLATED_END */
#define FIRST_SEEN_MAX 64     /* package names remembered without packages.list */
#define PACKAGE_MAX 256

struct first_seen {
	char name[PACKAGE_MAX];
	uint32_t uid, pid;
};

struct identity {
	char proc_root[PATH_MAX];
	bool android;
	char *list; /* packages.list, NUL-terminated; NULL: not read */
	struct first_seen seen[FIRST_SEEN_MAX];
	int n_seen;
};

/* path read whole, when it is a regular file of at most LIST_MAX bytes; NULL otherwise. */
static char *read_list(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	char *text = NULL;
	struct stat st;
	ssize_t n;

	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && (size_t)st.st_size <= LIST_MAX &&
	    (text = malloc((size_t)st.st_size + 1))) {
		n = read(fd, text, (size_t)st.st_size);
		text[n > 0 ? n : 0] = '\0';
	}
	close(fd);
	return text;
}

struct identity *identity__new(const char *proc_root, const char *list, bool android)
{
	struct identity *id = calloc(1, sizeof(*id));
	const char *env = getenv(IDENTITY_LIST_ENV);

	if (!id) {
		errno = ENOMEM;
		return NULL;
	}
	snprintf(id->proc_root, sizeof(id->proc_root), "%s", proc_root);
	if (!list)
		list = env && *env ? env : IDENTITY_LIST_DEFAULT;
	id->list = read_list(list);
	id->android = android || id->list;
	return id;
}

void identity__free(struct identity *id)
{
	if (!id)
		return;
	free(id->list);
	free(id);
}

bool identity__active(const struct identity *id)
{
	return id->android;
}

bool identity__has_list(const struct identity *id)
{
	return id->list != NULL;
}

int identity_uid(const char *proc_root, uint32_t pid, uint32_t *uid)
{
	char path[PATH_MAX], line[256];
	unsigned int v;
	int err = -EINVAL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%u/status", proc_root, pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Uid: %u", &v) == 1) {
			*uid = v;
			err = 0;
			break;
		}
	fclose(f);
	return err;
}

/* The appid packages.list gives the package pkg (len bytes); false when not listed. */
static bool listed_appid(const char *list, const char *pkg, size_t len, uint32_t *appid)
{
	unsigned long v;
	char *end;

	for (const char *l = list; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, pkg, len) || l[len] != ' ')
			continue;
		v = strtoul(l + len + 1, &end, 10);
		if (end == l + len + 1 || (*end != ' ' && *end != '\n' && *end) || v > UINT32_MAX)
			return false;
		*appid = (uint32_t)v;
		return true;
	}
	return false;
}

/* The first process of pkg this session (remembered now when it is pid's); NULL when full. */
static const struct first_seen *first_of(struct identity *id, const char *pkg, size_t len,
					 uint32_t pid, uint32_t uid)
{
	struct first_seen *s;

	for (int i = 0; i < id->n_seen; i++)
		if (strlen(id->seen[i].name) == len && !strncmp(id->seen[i].name, pkg, len))
			return &id->seen[i];
	if (id->n_seen == FIRST_SEEN_MAX || len >= PACKAGE_MAX)
		return NULL;
	s = &id->seen[id->n_seen++];
	snprintf(s->name, sizeof(s->name), "%.*s", (int)len, pkg);
	s->uid = uid;
	s->pid = pid;
	return s;
}

/*
 * The uid name stands for into want (any_user: in any user, so compared modulo USER_OFFSET),
 * and where that comes from; false when nothing says.
 */
static bool wanted_uid(struct identity *id, uint32_t pid, const char *name, uint32_t uid,
		       uint32_t *want, bool *any_user, char *from, size_t cap)
{
	size_t len = strcspn(name, ":");
	const struct first_seen *s;

	*any_user = false;
	if (trust__is_surfaceflinger(name)) {
		*want = IDENTITY_AID_SYSTEM;
		snprintf(from, cap, "SurfaceFlinger runs as system");
		return true;
	}
	if (id->list && listed_appid(id->list, name, len, want)) {
		*any_user = true;
		snprintf(from, cap, "%.*s in packages.list", (int)(len < 120 ? len : 120), name);
		return true;
	}
	s = first_of(id, name, len, pid, uid);
	if (!s || s->pid == pid)
		return false;
	*want = s->uid;
	snprintf(from, cap, "pid %u, the first %.*s", s->pid, (int)(len < 100 ? len : 100), name);
	return true;
}

void identity__check(struct identity *id, uint32_t pid, const char *name,
		     struct identity_result *out)
{
	uint32_t uid, want;
	bool any_user;
	char from[AT_IDENTITY_MAX - 32];

	*out = (struct identity_result){ IDENTITY_UNCHECKED, "" };
	if (!id->android || !name || identity_uid(id->proc_root, pid, &uid))
		return;
	if (uid % USER_OFFSET >= ISOLATED_FIRST && uid % USER_OFFSET <= ISOLATED_LAST) {
		out->verdict = IDENTITY_ISOLATED;
		snprintf(out->why, sizeof(out->why),
			 "isolated uid %u: no package to check it against", uid);
		return;
	}
	if (!wanted_uid(id, pid, name, uid, &want, &any_user, from, sizeof(from)))
		return;
	if (any_user ? uid % USER_OFFSET == want % USER_OFFSET : uid == want) {
		out->verdict = IDENTITY_OK;
		return;
	}
	out->verdict = IDENTITY_IMPOSTOR;
	snprintf(out->why, sizeof(out->why), "uid %u, not %u (%s)", uid, want, from);
}
