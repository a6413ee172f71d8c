/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Android tracing properties (ANDROID.md section 2): turn on ATRACE_TAG_VIEW and list the
 * traced apps for ATRACE_TAG_APP, keep them on while other tracing sessions come and go,
 * and put every previous value back on exit.
 *
 * The property programs `getprop`, `setprop` and `service` are found on PATH and run with
 * fork+execvp (no shell), stdin/stderr on /dev/null, in their own process group so a
 * second ^C on the terminal cannot kill a restore half way, and killed after 5 s. No
 * `getprop` on PATH means "not Android": nothing is ever run.
 *
 * Before the first write of each property, its previous value is saved in a state file
 * (atrace_state.h), removed once everything is restored; a state file left by a run that is
 * no longer running is restored first, so a SIGKILL never makes our values the baseline.
 *
 * Properties are written apps first, then debug.atrace.app_number, then the view bit
 * cleared in debug.atrace.prefer_sdk (when it is set), then the tag flags, and restored in
 * the reverse order, each time followed by one sysprops poke
 * (`service call activity 1599295570`) when anything was written. A failed poke is not
 * an error (libcutils 11+ also re-reads on its own); atrace_setup__describe() mentions it.
 */
#ifndef ANIMTRACE_ATRACE_SETUP_H
#define ANIMTRACE_ATRACE_SETUP_H

#include <stdbool.h>
#include <stddef.h>

#define ATRACE_SETUP_TAG_VIEW 0x8ULL /* ATRACE_TAG_VIEW, 1 << 3 */
/* ATRACE_TAG_APP, 1 << 12 (system/core/libcutils/include/cutils/trace.h): what
 * android.os.Trace.TRACE_TAG_APP writes under, e.g. the CUJ tracks (J<CUJ>) of
 * InteractionJankMonitor's FrameTracker; honoured only for the apps listed in
 * debug.atrace.app_* (ANDROID.md section 2) */
#define ATRACE_SETUP_TAG_APP 0x1000ULL
/* The tags animtrace keeps on in debug.atrace.tags.enableflags */
#define ATRACE_SETUP_TAGS (ATRACE_SETUP_TAG_VIEW | ATRACE_SETUP_TAG_APP)
#define ATRACE_SETUP_PROP_FLAGS "debug.atrace.tags.enableflags"
/* 15+: a category bit set here sends its events to the Perfetto SDK, not to trace_marker,
 * while a Perfetto session enables that category (tracing_perfetto.cpp shouldPreferAtrace) */
#define ATRACE_SETUP_PROP_PREFER_SDK "debug.atrace.prefer_sdk"
#define ATRACE_SETUP_VALUE_MAX 91  /* PROP_VALUE_MAX - 1 */
#define ATRACE_SETUP_APPS_MAX 1024 /* larger debug.atrace.app_number values are refused */

enum atrace_setup_state {
	ATRACE_SETUP_NOT_ANDROID, /* no getprop on PATH: nothing run, nothing to restore */
	ATRACE_SETUP_ACTIVE,	  /* our values are in place; a restore is pending */
	ATRACE_SETUP_RESTORED,	  /* previous values written back */
	ATRACE_SETUP_FAILED,	  /* setting failed; what had been written was put back */
};

struct atrace_setup;
struct procfilter;

/*
 * On Android (getprop on PATH): read debug.atrace.tags.enableflags, OR in the view and app
 * tags (ATRACE_SETUP_TAGS),
 * clear the view bit of debug.atrace.prefer_sdk so View markers stay on trace_marker,
 * append the --proc names of filter (NULL: none) that no existing debug.atrace.app_<i>
 * entry already matches, and poke. Each `NAME:*` is listed as NAME and as `NAME:*`
 * because libcutils fnmatch()es the entries against the whole cmdline; names longer than
 * ATRACE_SETUP_VALUE_MAX cannot be stored in a property and are left out.
 * Anywhere else nothing is run. Either way the result says what happened
 * (atrace_setup__state/__status); a caller that is told not to touch the properties
 * simply does not call this. NULL and errno only when out of memory.
 */
struct atrace_setup *atrace_setup__new(const struct procfilter *filter);

/* Same, with the app names given directly. */
struct atrace_setup *atrace_setup__new_apps(const char *const *apps, size_t n_apps);

/*
 * When another tracing session has rewritten the properties, set ours again and poke.
 * The flags are re-asserted by OR-ing the view tag into whatever is there now, so a
 * session that also has view on is left alone instead of being fought every few seconds.
 * Returns the number of properties rewritten (0 when all were fine) or a negative errno
 * (-ENOENT: a program vanished from PATH, -EIO: it failed, -ETIMEDOUT: it hung).
 * Does nothing unless ACTIVE.
 */
int atrace_setup__reassert(struct atrace_setup *s);

/*
 * Write back the previous value of every property we wrote (an empty string for those
 * that were unset) and poke. Idempotent: later calls, and calls in any state but ACTIVE,
 * return 0 and run nothing; accepts NULL. Meant for the normal exit path, also after a
 * signal handler only set a flag; it forks and waits, so it must NOT be called from a
 * signal handler itself. Keeps going past a failing property and returns the first error.
 */
int atrace_setup__restore(struct atrace_setup *s);

/* Whether a flags value (enableflags, prefer_sdk) has the view bit, parsed as libcutils does
 * (strtoull base 0: hex or decimal; unset or junk reads as 0). */
bool atrace_setup_has_view(const char *value);

enum atrace_setup_state atrace_setup__state(const struct atrace_setup *s);
bool atrace_setup__active(const struct atrace_setup *s);

/*
 * One human-readable line for the caller to print (no newline), e.g. "not Android (no
 * getprop on PATH): tracing properties left alone" or "atrace: enableflags 0x1002 ->
 * 0x100a; 1 app added to debug.atrace.app_*". Valid until the next call on s.
 */
const char *atrace_setup__status(const struct atrace_setup *s);

/*
 * One line (no newline) saying what runs that were killed had left changed and was restored
 * before this one started (from their state files: atrace_state.h), or NULL when nothing was.
 */
const char *atrace_setup__recovered(const struct atrace_setup *s);

/* True when the state file could not be saved: a kill would leave our values (the status
 * says where and why). */
bool atrace_setup__unsaved(const struct atrace_setup *s);

/* Restores first when still ACTIVE. Accepts NULL. */
void atrace_setup__free(struct atrace_setup *s);

#endif /* ANIMTRACE_ATRACE_SETUP_H */
