// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The heap reader wired to live processes (live/heaplive.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "live/androidprop.h"
#include "live/animconfig.h"
#include "live/dynconfig.h"
#include "live/heap.h"
#include "live/heaplive.h"
#include "symbols/artlayout.h"
#include "symbols/dex.h"

#define ENV_MAX (256u << 10) /* /proc/PID/environ read at most */
#define MULTIDEX_MAX 100     /* classes.dex .. classes100.dex: ART's own bound is 100 too */

/* The process's memory, with the probe's copy of the animator's head over its bytes. */
struct overlay {
	struct heap_mem proc;
	uint64_t obj;
	const uint8_t *head;
	size_t len;
};

/*
 * A boot class path's layouts, shared by the processes that have the same one (every app of a
 * device: zygote's), under the same root and SDK level: its dex files are tens of MB.
 */
struct shared_layout {
	char *key; /* "<sdk> <root dev>:<root ino> <BOOTCLASSPATH>" */
	struct artlayout *l;
	int refs;
};

struct reader {
	uint32_t pid;
	bool used, off;
	struct shared_layout *lay;
	struct artlayout *l; /* lay's */
	struct heap *h;
	struct overlay ov;
	struct heap_mem mem;
};

struct heaplive {
	char proc[64];
	struct reader r[HEAPLIVE_PROCS];
	struct shared_layout lays[HEAPLIVE_PROCS];
	char why[256];
	uint64_t read, failed, unread;
};

static int overlay_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct overlay *o = ctx;

	if (o->head && addr >= o->obj && addr - o->obj + len <= o->len) {
		memcpy(buf, o->head + (addr - o->obj), len);
		return 0;
	}
	return o->proc.read(o->proc.ctx, addr, buf, len);
}

struct heaplive *heaplive__new(const char *proc_root)
{
	struct heaplive *hl = calloc(1, sizeof(*hl));

	if (hl)
		snprintf(hl->proc, sizeof(hl->proc), "%s", proc_root ? proc_root : "/proc");
	return hl;
}

static void reader_release(struct reader *r)
{
	heap__free(r->h);
	if (r->lay && !--r->lay->refs) {
		artlayout__free(r->lay->l);
		free(r->lay->key);
		memset(r->lay, 0, sizeof(*r->lay));
	}
	if (r->ov.proc.ctx)
		heap_mem_release(&r->ov.proc);
	memset(r, 0, sizeof(*r));
}

void heaplive__free(struct heaplive *hl)
{
	if (!hl)
		return;
	for (int i = 0; i < HEAPLIVE_PROCS; i++)
		reader_release(&hl->r[i]);
	free(hl);
}

void heaplive__forget(struct heaplive *hl, uint32_t pid)
{
	for (int i = 0; hl && i < HEAPLIVE_PROCS; i++)
		if (hl->r[i].used && hl->r[i].pid == pid)
			reader_release(&hl->r[i]);
}

void heaplive__counts(const struct heaplive *hl, uint64_t *read, uint64_t *failed, uint64_t *unread)
{
	*read = hl->read;
	*failed = hl->failed;
	*unread = hl->unread;
}

/* path inside pid's root: "/proc/<pid>/root<path>". */
static void rooted(const struct heaplive *hl, uint32_t pid, const char *path, char *out, size_t n)
{
	snprintf(out, n, "%s/%u/root%s", hl->proc, pid, path);
}

/* The value of name in pid's environment (its initial one), into out; "" when unset. */
static int environ_get(const struct heaplive *hl, uint32_t pid, const char *name, char *out,
		       size_t n)
{
	char path[128], *buf = malloc(ENV_MAX);
	size_t len, nl = strlen(name);
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/%u/environ", hl->proc, pid);
	if (!buf || !(f = fopen(path, "r"))) {
		free(buf);
		return buf ? -errno : -ENOMEM;
	}
	len = fread(buf, 1, ENV_MAX - 1, f);
	fclose(f);
	buf[len] = '\0';
	for (size_t at = 0; at < len; at += strlen(buf + at) + 1) {
		if (!strncmp(buf + at, name, nl) && buf[at + nl] == '=') {
			snprintf(out, n, "%s", buf + at + nl + 1);
			break;
		}
	}
	free(buf);
	return 0;
}

/* ro.build.version.sdk from $ANDROID_ROOT/build.prop under pid's root, else getprop. */
static int sdk_level(struct heaplive *hl, uint32_t pid)
{
	char root[512], path[600], full[700], line[256];
	int sdk = -1;
	FILE *f;

	environ_get(hl, pid, "ANDROID_ROOT", root, sizeof(root));
	snprintf(path, sizeof(path), "%s/build.prop", *root ? root : "/system");
	rooted(hl, pid, path, full, sizeof(full));
	f = fopen(full, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "ro.build.version.sdk=%d", &sdk) == 1)
			break;
	if (f)
		fclose(f);
	if (sdk < 0 && androidprop_available() &&
	    !androidprop_get("ro.build.version.sdk", line, sizeof(line)))
		sdk = atoi(line);
	return sdk;
}

/* Each classes<N>.dex of the jar at location (seen through pid's root), in order. */
static int add_jar(struct heaplive *hl, struct reader *r, const char *location, int sdk)
{
	char path[1024], entry[32], loc[1100];
	int n = 0;

	rooted(hl, r->pid, location, path, sizeof(path));
	for (int i = 1; i <= MULTIDEX_MAX; i++) {
		struct dex *d;

		snprintf(entry, sizeof(entry), i == 1 ? "classes.dex" : "classes%d.dex", i);
		d = dex__open_zip(path, entry, 0);
		if (!d)
			break;
		if (i == 1)
			snprintf(loc, sizeof(loc), "%s", location);
		else
			snprintf(loc, sizeof(loc), "%s%c%s", location, sdk >= 26 ? '!' : ':',
				 entry);
		if (artlayout__add_dex(r->l, d, loc))
			return -ENOMEM;
		n++;
	}
	return n;
}

/* The dex files of the boot class path bcp (modified), in its order (first definition wins,
 * as in ART). */
static int boot_class_path(struct heaplive *hl, struct reader *r, char *bcp, int sdk)
{
	char *save = NULL;
	int n = 0;

	for (char *jar = strtok_r(bcp, ":", &save); jar && n >= 0;
	     jar = strtok_r(NULL, ":", &save)) {
		int k = add_jar(hl, r, jar, sdk);

		n = k < 0 ? k : n + k;
	}
	return n;
}

/* r's layouts: those of another process with the same key, else made from its jars. */
static int layout_get(struct heaplive *hl, struct reader *r, int sdk, enum art_rules rules)
{
	char *bcp = malloc(ENV_MAX), *key = NULL, root[160];
	struct shared_layout *free_slot = NULL;
	struct stat st = { 0 };
	int n;

	snprintf(root, sizeof(root), "%s/%u/root/", hl->proc, r->pid);
	if (!bcp || environ_get(hl, r->pid, "BOOTCLASSPATH", bcp, ENV_MAX) || stat(root, &st) ||
	    asprintf(&key, "%d %llx:%llx %s", sdk, (unsigned long long)st.st_dev,
		     (unsigned long long)st.st_ino, bcp) < 0) {
		free(bcp);
		return -ENOENT;
	}
	for (int i = 0; i < HEAPLIVE_PROCS; i++) {
		struct shared_layout *s = &hl->lays[i];

		if (s->key && !strcmp(s->key, key)) {
			s->refs++;
			r->lay = s;
			r->l = s->l;
			free(key);
			free(bcp);
			return 1;
		}
		if (!s->key && !free_slot)
			free_slot = s;
	}
	r->l = free_slot ? artlayout__new(rules) : NULL; /* a slot per reader: never NULL */
	n = r->l ? boot_class_path(hl, r, bcp, sdk) : -ENOMEM;
	free(bcp);
	if (n <= 0) { /* 0: no dex at all */
		artlayout__free(r->l);
		r->l = NULL;
		free(key);
		return n;
	}
	*free_slot = (struct shared_layout){ key, r->l, 1 };
	r->lay = free_slot;
	return n;
}

/* The Java heap's mappings below 4 GiB (32-bit references): dalvik-* spaces, *.art images. */
static int heap_ranges(const struct heaplive *hl, struct reader *r)
{
	char path[128], line[1024];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%u/maps", hl->proc, r->pid);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		uint64_t lo, hi;
		int name = 0;
		size_t len;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %*s %*s %*s %n", &lo, &hi, &name) <
			    2 ||
		    !name || hi > 1ull << 32)
			continue;
		len = strcspn(line + name, "\n");
		line[name + len] = '\0';
		if (!strstr(line + name, "dalvik-") &&
		    !(len > 4 && !strcmp(line + name + len - 4, ".art")))
			continue;
		if (heap__add_range(r->h, lo, hi)) {
			fclose(f);
			return -ENOMEM;
		}
		n++;
	}
	fclose(f);
	return n;
}

/* Everything the reader of r->pid needs, or why not. */
static int reader_open(struct heaplive *hl, struct reader *r)
{
	int sdk = sdk_level(hl, r->pid), rules = art_rules_for_sdk(sdk), n, err;

	if (sdk < 0) {
		snprintf(hl->why, sizeof(hl->why), "no SDK level (no build.prop, no getprop)");
		return -ENOENT;
	}
	if (rules < 0) {
		snprintf(hl->why, sizeof(hl->why),
			 "SDK %d: ART's field layout is not known below 24", sdk);
		return rules;
	}
	n = layout_get(hl, r, sdk, (enum art_rules)rules);
	if (n <= 0) {
		snprintf(hl->why, sizeof(hl->why), "no dex file on its BOOTCLASSPATH (%s)",
			 n ? strerror(-n) : "unset or empty");
		return n ? n : -ENOENT;
	}
	err = heap_mem_process(&r->ov.proc, (int)r->pid, 0);
	if (err)
		return err;
	r->mem = (struct heap_mem){ overlay_read, &r->ov };
	r->h = heap__new(&r->mem, r->l, sdk);
	if (!r->h) {
		snprintf(hl->why, sizeof(hl->why),
			 "the boot class path lacks java.lang's classes (%s)", strerror(errno));
		return -errno;
	}
	n = heap_ranges(hl, r);
	if (n <= 0) {
		snprintf(hl->why, sizeof(hl->why), "no Java heap (dalvik-*) mapping below 4 GiB");
		return n ? n : -ENOENT;
	}
	return 0;
}

static struct reader *reader_get(struct heaplive *hl, uint32_t pid)
{
	struct reader *free_slot = NULL;

	for (int i = 0; i < HEAPLIVE_PROCS; i++) {
		if (hl->r[i].used && hl->r[i].pid == pid)
			return &hl->r[i];
		if (!hl->r[i].used && !free_slot)
			free_slot = &hl->r[i];
	}
	if (!free_slot)
		return NULL;
	free_slot->used = true;
	free_slot->pid = pid;
	return free_slot;
}

/* What one read decodes: an animator's configuration or a DynamicAnimation's. */
struct decode {
	struct anim_config *anim;
	struct dyn_config *dyn;
};

static int decode(struct heaplive *hl, struct reader *r, uint64_t obj, const struct decode *d)
{
	if (d->anim)
		return animconfig_read(r->h, obj, d->anim, hl->why, sizeof(hl->why));
	return dynconfig_read(r->h, obj, d->dyn, hl->why, sizeof(hl->why));
}

static int read_obj(struct heaplive *hl, uint32_t pid, uint64_t obj, const void *head, size_t len,
		    const struct decode *d, const char **why)
{
	struct reader *r = reader_get(hl, pid);
	int err;

	*why = hl->why;
	hl->why[0] = '\0';
	if (!r) {
		hl->unread++;
		return -EAGAIN;
	}
	if (r->off)
		return -EAGAIN;
	err = r->h ? 0 : reader_open(hl, r);
	if (!err) {
		r->ov.obj = obj;
		r->ov.head = head;
		r->ov.len = len;
		err = decode(hl, r, obj, d);
		r->ov.head = NULL;
	}
	if (!err) {
		hl->read++;
		return 0;
	}
	if (!hl->why[0])
		snprintf(hl->why, sizeof(hl->why), "%s", strerror(-err));
	hl->failed++;
	reader_release(r); /* its memory goes; the slot stays, off */
	r->used = r->off = true;
	r->pid = pid;
	return err == -EAGAIN ? -EIO : err;
}

int heaplive__read(struct heaplive *hl, uint32_t pid, uint64_t obj, const void *head, size_t len,
		   struct anim_config *c, const char **why)
{
	struct decode d = { .anim = c };

	return read_obj(hl, pid, obj, head, len, &d, why);
}

int heaplive__read_dyn(struct heaplive *hl, uint32_t pid, uint64_t obj, const void *head,
		       size_t len, struct dyn_config *c, const char **why)
{
	struct decode d = { .dyn = c };

	return read_obj(hl, pid, obj, head, len, &d, why);
}
