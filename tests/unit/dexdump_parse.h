/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Reads the fixtures' tool outputs for the dex and layout tests: dexdump's plain listing
 * (classes with their static and instance fields) and baksmali's "list fieldoffsets" (every
 * instance field of each class, inherited ones included, with its offset).
 */
#ifndef ANIMTRACE_TEST_DEXDUMP_PARSE_H
#define ANIMTRACE_TEST_DEXDUMP_PARSE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DD_MAX_CLASSES 64
#define DD_MAX_FIELDS 400

struct dd_field {
	char name[64], type[128];
	uint32_t flags; /* dexdump: access flags; baksmali: offset */
	bool is_static;
};

struct dd_class {
	char descriptor[128], super[128];
	int n_fields;
	struct dd_field f[DD_MAX_FIELDS];
};

struct dd_file {
	int n;
	struct dd_class c[DD_MAX_CLASSES];
};

/* 'text' in line after key, into out. */
static inline bool dd_quoted(const char *line, const char *key, char *out, size_t cap)
{
	const char *p = strstr(line, key), *q;

	if (!p || !(p = strchr(p, '\'')) || !(q = strchr(p + 1, '\'')))
		return false;
	if ((size_t)(q - p - 1) >= cap)
		return false;
	memcpy(out, p + 1, (size_t)(q - p - 1));
	out[q - p - 1] = '\0';
	return true;
}

/* dexdump's listing at path into *out (heap-allocated: free it). NULL when unreadable. */
static inline struct dd_file *dd_read_dexdump(const char *path)
{
	FILE *f = fopen(path, "r");
	struct dd_file *out = calloc(1, sizeof(*out));
	struct dd_class *c = NULL;
	struct dd_field *fl = NULL;
	char line[512];
	int section = 0; /* 1 static, 2 instance */

	if (!f || !out) {
		if (f)
			fclose(f);
		free(out);
		return NULL;
	}
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "Class #", 7) == 0 && out->n < DD_MAX_CLASSES) {
			c = &out->c[out->n++];
			section = 0;
		} else if (!c) {
			continue;
		} else if (strstr(line, "  Class descriptor  :")) {
			dd_quoted(line, ":", c->descriptor, sizeof(c->descriptor));
		} else if (strstr(line, "  Superclass        :")) {
			dd_quoted(line, ":", c->super, sizeof(c->super));
		} else if (strncmp(line, "  Static fields", 15) == 0) {
			section = 1;
		} else if (strncmp(line, "  Instance fields", 17) == 0) {
			section = 2;
		} else if (strncmp(line, "  Direct methods", 16) == 0) {
			section = 0;
		} else if (section && strstr(line, "      name          :") &&
			   c->n_fields < DD_MAX_FIELDS) {
			fl = &c->f[c->n_fields++];
			fl->is_static = section == 1;
			dd_quoted(line, ":", fl->name, sizeof(fl->name));
		} else if (section && fl && strstr(line, "      type          :")) {
			dd_quoted(line, ":", fl->type, sizeof(fl->type));
		} else if (section && fl && strstr(line, "      access        :")) {
			fl->flags = (uint32_t)strtoul(strstr(line, "0x"), NULL, 16);
		}
	}
	fclose(f);
	return out;
}

/* baksmali's "list fieldoffsets" output at path. NULL when unreadable. */
static inline struct dd_file *dd_read_offsets(const char *path)
{
	FILE *f = fopen(path, "r");
	struct dd_file *out = calloc(1, sizeof(*out));
	struct dd_class *c = NULL;
	char line[512];

	if (!f || !out) {
		if (f)
			fclose(f);
		free(out);
		return NULL;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned off;
		char type[128], name[64];
		if (sscanf(line, "Class %127s :", type) == 1 && out->n < DD_MAX_CLASSES) {
			c = &out->c[out->n++];
			snprintf(c->descriptor, sizeof(c->descriptor), "%s", type);
		} else if (c && sscanf(line, "%u:%127s %63s", &off, type, name) == 3 &&
			   c->n_fields < DD_MAX_FIELDS) {
			struct dd_field *fl = &c->f[c->n_fields++];
			snprintf(fl->name, sizeof(fl->name), "%s", name);
			snprintf(fl->type, sizeof(fl->type), "%s", type);
			fl->flags = off;
		}
	}
	fclose(f);
	return out;
}

static inline const struct dd_class *dd_find(const struct dd_file *d, const char *descriptor)
{
	for (int i = 0; i < d->n; i++)
		if (strcmp(d->c[i].descriptor, descriptor) == 0)
			return &d->c[i];
	return NULL;
}

#endif
