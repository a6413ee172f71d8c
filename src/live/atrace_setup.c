// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Android tracing properties: set, re-assert, restore. See atrace_setup.h. */
#include "live/androidprop.h"
#include "live/atrace_setup.h"
#include "live/atrace_state.h"
#include "common/procsel.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROP_FLAGS ATRACE_SETUP_PROP_FLAGS
#define PROP_PREFER ATRACE_SETUP_PROP_PREFER_SDK
#define PROP_APP_NUMBER "debug.atrace.app_number"
#define PROP_APP_FMT "debug.atrace.app_%d"

enum prop_kind {
	PROP_VALUE,    /* want is fixed */
	PROP_VIEW_ON,  /* the tag flags: the current value with the view and app bits set */
	PROP_VIEW_OFF, /* prefer_sdk: the current value with the view bit clear */
};

struct prop {
	char name[40];
	char old[ATRACE_SETUP_VALUE_MAX + 1];  /* before us; "" = unset */
	char want[ATRACE_SETUP_VALUE_MAX + 1]; /* what we keep there */
	enum prop_kind kind;
	bool touched; /* written at least once: restore it */
	bool pending; /* to be written now (sync_all) */
};

struct atrace_setup {
	enum atrace_setup_state status;
	char **apps;
	size_t n_apps;
	struct prop *props; /* in write order: app entries, app_number, prefer_sdk, flags */
	size_t n_props;
	size_t n_added;
	bool poke_failed;
	int state_err; /* saving the previous values failed: a kill leaves ours */
	char state_dir[PATH_MAX];
	char desc[320];
	char recovered[1024]; /* what killed runs had left and was restored first; "" none */
};

/* ---- state -------------------------------------------------------------------------- */

static int add_app(struct atrace_setup *s, const char *app, size_t len)
{
	if (len == 0 || len > ATRACE_SETUP_VALUE_MAX)
		return 0;
	for (size_t i = 0; i < s->n_apps; i++)
		if (strlen(s->apps[i]) == len && !strncmp(s->apps[i], app, len))
			return 0;
	s->apps[s->n_apps] = strndup(app, len);
	if (!s->apps[s->n_apps])
		return -ENOMEM;
	s->n_apps++;
	return 0;
}

static int copy_apps(struct atrace_setup *s, const char *const *apps, size_t n)
{
	int err = 0;

	s->apps = calloc(2 * n + 1, sizeof(*s->apps));
	if (!s->apps)
		return -ENOMEM;
	for (size_t i = 0; i < n && !err; i++) {
		size_t len = strlen(apps[i]);

		if (len > 2 && !strcmp(apps[i] + len - 2, ":*"))
			err = add_app(s, apps[i], len - 2);
		if (!err)
			err = add_app(s, apps[i], len);
	}
	return err;
}

__attribute__((format(printf, 2, 3))) static void set_desc(struct atrace_setup *s, const char *fmt,
							   ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->desc, sizeof(s->desc), fmt, ap);
	va_end(ap);
}

static struct prop *new_prop(struct atrace_setup *s, const char *name, const char *old)
{
	struct prop *p = &s->props[s->n_props++];

	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->old, sizeof(p->old), "%s", old);
	return p;
}

/* Mark the apps some existing entry already matches the way libcutils does (fnmatch). */
static int mark_listed(long n, bool *listed, char *const *apps, size_t n_apps)
{
	char name[40], val[ATRACE_SETUP_VALUE_MAX + 1];
	int err;

	for (long i = 0; i < n; i++) {
		snprintf(name, sizeof(name), PROP_APP_FMT, (int)i);
		err = androidprop_get(name, val, sizeof(val));
		if (err)
			return err;
		for (size_t j = 0; j < n_apps; j++)
			listed[j] |= val[0] && !fnmatch(val, apps[j], FNM_NOESCAPE);
	}
	return 0;
}

static int plan_apps(struct atrace_setup *s)
{
	char name[40], val[ATRACE_SETUP_VALUE_MAX + 1], num[16];
	bool *listed;
	long n;
	int err;

	if (!s->n_apps)
		return 0;
	err = androidprop_get(PROP_APP_NUMBER, val, sizeof(val));
	if (err)
		return err;
	n = strtol(val, NULL, 0);
	if (n > ATRACE_SETUP_APPS_MAX)
		return -E2BIG;
	n = n < 0 ? 0 : n;
	listed = calloc(s->n_apps, sizeof(*listed));
	if (!listed)
		return -ENOMEM;
	err = mark_listed(n, listed, s->apps, s->n_apps);
	for (size_t j = 0; !err && j < s->n_apps; j++) {
		char old[ATRACE_SETUP_VALUE_MAX + 1];

		if (listed[j])
			continue;
		snprintf(name, sizeof(name), PROP_APP_FMT, (int)(n + s->n_added));
		err = androidprop_get(name, old, sizeof(old)); /* a stale entry past app_number */
		if (!err)
			snprintf(new_prop(s, name, old)->want, ATRACE_SETUP_VALUE_MAX + 1, "%s",
				 s->apps[j]);
		s->n_added += !err;
	}
	free(listed);
	if (err || !s->n_added)
		return err;
	snprintf(num, sizeof(num), "%ld", n + (long)s->n_added);
	snprintf(new_prop(s, PROP_APP_NUMBER, val)->want, ATRACE_SETUP_VALUE_MAX + 1, "%s", num);
	return 0;
}

/* A property whose view bit animtrace keeps on (the tag flags) or off (prefer_sdk). */
static int plan_view_bit(struct atrace_setup *s, const char *name, enum prop_kind kind)
{
	char val[ATRACE_SETUP_VALUE_MAX + 1];
	int err = androidprop_get(name, val, sizeof(val));

	if (!err)
		new_prop(s, name, val)->kind = kind;
	return err;
}

bool atrace_setup_has_view(const char *value)
{
	return strtoull(value, NULL, 0) & ATRACE_SETUP_TAG_VIEW;
}

/* Whether the flags value has every tag animtrace keeps on (ATRACE_SETUP_TAGS). */
static bool has_tags(const char *value)
{
	return (strtoull(value, NULL, 0) & ATRACE_SETUP_TAGS) == ATRACE_SETUP_TAGS;
}

/*
 * want: cur itself when its bits already are as p wants them, else cur with the view and app
 * bits set (the tag flags) or the view bit cleared (prefer_sdk).
 */
static void want_view_bit(struct prop *p, const char *cur)
{
	unsigned long long v = strtoull(cur, NULL, 0);

	if (p->kind == PROP_VIEW_ON ? has_tags(cur) : !atrace_setup_has_view(cur))
		snprintf(p->want, sizeof(p->want), "%s", cur);
	else
		snprintf(p->want, sizeof(p->want), "0x%llx",
			 p->kind == PROP_VIEW_ON ? v | ATRACE_SETUP_TAGS :
						   v & ~ATRACE_SETUP_TAG_VIEW);
}

/* What the property must hold given its current value; pending when it does not yet. */
static void plan_prop(struct prop *p, const char *cur)
{
	if (p->kind != PROP_VALUE)
		want_view_bit(p, cur);
	p->pending = strcmp(cur, p->want) != 0;
}

/*
 * The state file lists every property written so far or about to be, with its previous
 * value, in restore order, and is saved before the first write of each: a run killed at any point leaves
 * what the next one needs to undo it. A failure is kept (and said), not fatal.
 */
static void save_state(struct atrace_setup *s)
{
	struct atrace_state_prop *list = calloc(s->n_props ? s->n_props : 1, sizeof(*list));
	size_t n = 0;

	if (!list) {
		s->state_err = -ENOMEM;
		return;
	}
	for (size_t i = s->n_props; i-- > 0;) {
		if (!s->props[i].touched && !s->props[i].pending)
			continue;
		snprintf(list[n].name, sizeof(list[n].name), "%s", s->props[i].name);
		snprintf(list[n].old, sizeof(list[n].old), "%s", s->props[i].old);
		n++;
	}
	s->state_err = atrace_state_save(s->state_dir, list, n);
	free(list);
}

/* Writes every pending property (after saving the state when one is written the first
 * time); counts writes. */
static int write_pending(struct atrace_setup *s, int *written)
{
	bool first = false;
	int err = 0;

	for (size_t i = 0; i < s->n_props; i++)
		first |= s->props[i].pending && !s->props[i].touched;
	if (first)
		save_state(s);
	for (size_t i = 0; !err && i < s->n_props; i++) {
		struct prop *p = &s->props[i];

		if (!p->pending)
			continue;
		p->pending = false;
		p->touched = true; /* even if setprop fails half way: restoring is harmless */
		(*written)++;
		err = androidprop_set(p->name, p->want);
	}
	return err;
}

/* Reverse write order: the tag flags go off before the app list shrinks. */
static int restore_touched(struct atrace_setup *s)
{
	int err = 0, e, written = 0;

	for (size_t i = s->n_props; i-- > 0;) {
		struct prop *p = &s->props[i];

		if (!p->touched)
			continue;
		p->touched = false;
		e = androidprop_set(p->name, p->old);
		written++;
		if (e && !err)
			err = e;
	}
	if (written)
		androidprop_poke();
	if (!err) /* else it stays: the next run tries again */
		atrace_state_remove(s->state_dir);
	return err;
}

static void describe_active(struct atrace_setup *s)
{
	const struct prop *f = &s->props[s->n_props - 1], *pref = &s->props[s->n_props - 2];
	char extra[320] = ""; /* what else was written: apps added, prefer_sdk */
	int n = 0;

	if (s->n_added)
		n = snprintf(extra, sizeof(extra), "; %zu app%s added to debug.atrace.app_*",
			     s->n_added, s->n_added == 1 ? "" : "s");
	if (pref->touched)
		snprintf(extra + n, sizeof(extra) - n,
			 "; prefer_sdk %s -> %s (view stays on "
			 "trace_marker)",
			 pref->old, pref->want);
	if (s->state_err)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 "; previous values "
			 "not saved in %.160s (%s): a killed run leaves them changed",
			 s->state_dir, atrace_state_strerror(s->state_err));
	if (f->touched)
		set_desc(s, "atrace: enableflags %s -> %s%s%s", f->old[0] ? f->old : "(unset)",
			 f->want, extra, s->poke_failed ? "; sysprops poke failed" : "");
	else
		set_desc(s, "atrace: enableflags %s already has the view and app tags%s%s", f->old,
			 extra, s->poke_failed ? "; sysprops poke failed" : "");
}

static int start(struct atrace_setup *s)
{
	int err, written = 0;

	s->props = calloc(s->n_apps + 3, sizeof(*s->props));
	err = s->props ? plan_apps(s) : -ENOMEM;
	if (!err)
		err = plan_view_bit(s, PROP_PREFER, PROP_VIEW_OFF);
	if (!err)
		err = plan_view_bit(s, PROP_FLAGS, PROP_VIEW_ON);
	for (size_t i = 0; !err && i < s->n_props; i++)
		plan_prop(&s->props[i], s->props[i].old);
	if (!err)
		err = write_pending(s, &written);
	if (err) {
		if (s->props)
			restore_touched(s);
		s->status = ATRACE_SETUP_FAILED;
		set_desc(s, "atrace: could not set tracing properties (%s); changes undone",
			 strerror(-err));
		return err;
	}
	s->status = ATRACE_SETUP_ACTIVE;
	if (written)
		s->poke_failed = androidprop_poke() != 0;
	describe_active(s);
	return 0;
}

int atrace_setup__reassert(struct atrace_setup *s)
{
	char cur[ATRACE_SETUP_VALUE_MAX + 1];
	int err = 0, written = 0;

	if (s->status != ATRACE_SETUP_ACTIVE)
		return 0;
	for (size_t i = 0; !err && i < s->n_props; i++) {
		err = androidprop_get(s->props[i].name, cur, sizeof(cur));
		if (!err)
			plan_prop(&s->props[i], cur);
	}
	if (!err)
		err = write_pending(s, &written);
	for (size_t i = 0; i < s->n_props; i++)
		s->props[i].pending = false; /* not written after an error: planned again */
	if (written) {
		s->poke_failed = androidprop_poke() != 0;
		describe_active(s);
	}
	return err ? err : written;
}

int atrace_setup__restore(struct atrace_setup *s)
{
	int err;

	if (!s || s->status != ATRACE_SETUP_ACTIVE)
		return 0;
	s->status = ATRACE_SETUP_RESTORED; /* first: a second call must not write again */
	err = restore_touched(s);
	if (err)
		set_desc(s, "atrace: restoring tracing properties failed (%s)", strerror(-err));
	else
		set_desc(s, "atrace: previous tracing properties restored");
	return err;
}

/* Appends to s->recovered, keeping it one line. */
__attribute__((format(printf, 2, 3))) static void add_recovered(struct atrace_setup *s,
								const char *fmt, ...)
{
	size_t n = strlen(s->recovered);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->recovered + n, sizeof(s->recovered) - n, fmt, ap);
	va_end(ap);
}

/* A state file whose run is gone: its previous values written back (or, from before a
 * reboot, which reset them, only removed). */
static void recover_one(void *ctx, const struct atrace_state *st)
{
	struct atrace_setup *s = ctx;
	int err = 0, e;

	add_recovered(s, "%s", s->recovered[0] ? "; " : "atrace: ");
	if (st->owner == ATRACE_STATE_REBOOTED) {
		atrace_state_discard(st);
		add_recovered(s, "removed %s, left by run %d before the last reboot", st->path,
			      st->pid);
		return;
	}
	for (size_t i = 0; i < st->n; i++)
		if ((e = androidprop_set(st->props[i].name, st->props[i].old)) && !err)
			err = e;
	if (st->n)
		androidprop_poke();
	if (!err)
		atrace_state_discard(st);
	add_recovered(s, "run %d ended without restoring the tracing properties: ", st->pid);
	for (size_t i = 0; i < st->n; i++)
		add_recovered(s, "%s%s=%s", i ? ", " : "", st->props[i].name, st->props[i].old);
	if (err)
		add_recovered(s, ": could not all be restored (%s; %s kept for the next run)",
			      strerror(-err), st->path);
	else
		add_recovered(s, ": restored first");
}

struct atrace_setup *atrace_setup__new_apps(const char *const *apps, size_t n_apps)
{
	struct atrace_setup *s = calloc(1, sizeof(*s));

	if (!s || copy_apps(s, apps, n_apps)) {
		atrace_setup__free(s);
		errno = ENOMEM;
		return NULL;
	}
	snprintf(s->state_dir, sizeof(s->state_dir), "%s", atrace_state_dir());
	if (!androidprop_available()) {
		s->status = ATRACE_SETUP_NOT_ANDROID;
		set_desc(s, "not Android (no getprop on PATH): tracing properties left alone");
	} else {
		/* First: what a killed run left is the baseline no longer. */
		int n = atrace_state_each_stale(s->state_dir, "/proc", recover_one, s);

		if (n < 0)
			add_recovered(s,
				      "atrace: state directory %.160s: %s (what a killed run "
				      "left cannot be restored)",
				      s->state_dir, atrace_state_strerror(n));
		start(s);
	}
	return s;
}

struct atrace_setup *atrace_setup__new(const struct procfilter *filter)
{
	size_t n = filter ? procfilter__name_count(filter) : 0;
	const char *names[PROCFILTER_MAX_NAMES];

	for (size_t i = 0; i < n && i < PROCFILTER_MAX_NAMES; i++)
		names[i] = procfilter__name(filter, i);
	return atrace_setup__new_apps(names, n < PROCFILTER_MAX_NAMES ? n : PROCFILTER_MAX_NAMES);
}

enum atrace_setup_state atrace_setup__state(const struct atrace_setup *s)
{
	return s->status;
}

bool atrace_setup__active(const struct atrace_setup *s)
{
	return s->status == ATRACE_SETUP_ACTIVE;
}

const char *atrace_setup__status(const struct atrace_setup *s)
{
	return s->desc;
}

bool atrace_setup__unsaved(const struct atrace_setup *s)
{
	return s->state_err != 0;
}

const char *atrace_setup__recovered(const struct atrace_setup *s)
{
	return s->recovered[0] ? s->recovered : NULL;
}

void atrace_setup__free(struct atrace_setup *s)
{
	if (!s)
		return;
	atrace_setup__restore(s);
	for (size_t i = 0; s->apps && i < s->n_apps; i++)
		free(s->apps[i]);
	free(s->apps);
	free(s->props);
	free(s);
}
