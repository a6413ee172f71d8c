/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Who a traced process is (ANDROID.md section 8). On Android any app can give its process
 * another package's name (rewrite its argv area, or declare android:process), so the name
 * `--proc` matches is a claim; the uid the kernel keeps is not. A package's processes run as
 * its uid (user * 100000 + appid), which /data/system/packages.list lists ("name appid
 * debuggable data_dir seinfo gids ...": system/core libpackagelistparser/packagelistparser.cpp
 * parse_line), and SurfaceFlinger runs as AID_SYSTEM, 1000 (frameworks/native
 * services/surfaceflinger/surfaceflinger.rc `user system`).
 *
 * identity__check compares a process's real uid (the first field of Uid: in
 * /proc/PID/status) with the one its name stands for:
 *  - `surfaceflinger`, `/system/bin/surfaceflinger`: 1000;
 *  - a package listed in packages.list (the name up to its first ':', so `com.foo:remote` is
 *    com.foo's): its appid, in any user;
 *  - any other name, or no packages.list: the uid of the first process checked under the
 *    same package name in this session.
 * A uid in 90000..99999 (AID_APP_ZYGOTE_START..AID_ISOLATED_END: app zygotes and isolated
 * services, system/core libcutils/include/private/android_filesystem_config.h) belongs to no
 * package: said, not judged. Checks run only on Android: when packages.list was read, or the
 * caller says it is Android (getprop on PATH); elsewhere every process is IDENTITY_UNCHECKED.
 * packages.list is read once, O_NOFOLLOW | O_NONBLOCK, a regular file of at most 8 MiB.
 */
#ifndef ANIMTRACE_LIVE_IDENTITY_H
#define ANIMTRACE_LIVE_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

#define IDENTITY_LIST_ENV "ANIMTRACE_PACKAGES_LIST"
#define IDENTITY_LIST_DEFAULT "/data/system/packages.list"
#define IDENTITY_AID_SYSTEM 1000u

enum identity_verdict {
	IDENTITY_UNCHECKED, /* not Android, or the process is gone */
	IDENTITY_OK,	    /* its uid is its name's */
	IDENTITY_ISOLATED,  /* an isolated or app zygote uid: no package to compare with */
	IDENTITY_IMPOSTOR,  /* another uid than its name's */
};

struct identity_result {
	enum identity_verdict verdict;
	/* IMPOSTOR: "uid 10234, not 10123 (com.foo in packages.list)"; ISOLATED: "isolated uid
	 * 99012: no package to check it against" */
	char why[AT_IDENTITY_MAX];
};

struct identity;

/*
 * The checker for processes under proc_root ("/proc" but in tests); list: packages.list's path
 * (NULL: $ANIMTRACE_PACKAGES_LIST, else IDENTITY_LIST_DEFAULT); android: the caller knows it
 * is on Android even when the list cannot be read. NULL and errno when out of memory.
 */
struct identity *identity__new(const char *proc_root, const char *list, bool android);
void identity__free(struct identity *id);

/* Whether processes are checked at all, and whether packages.list was read. */
bool identity__active(const struct identity *id);
bool identity__has_list(const struct identity *id);

/* pid, named name (its argv[0]), judged into out. */
void identity__check(struct identity *id, uint32_t pid, const char *name,
		     struct identity_result *out);

/* The real uid of pid under proc_root: 0 or -errno. */
int identity_uid(const char *proc_root, uint32_t pid, uint32_t *uid);

#endif
