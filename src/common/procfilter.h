/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Process filter: which processes `--proc` / `--pid` select. Pure selection logic plus
 * reading /proc; the live driver owns the BPF allow map and feeds it from here.
 *
 * Selection: a process is selected when its name matches one of the names OR its pid is
 * listed. A filter with neither names nor pids selects every process, so every
 * predicate below returns true for an empty filter.
 *
 * Name rules:
 *  - `NAME` matches a process whose argv[0] is exactly NAME (not `NAME:sub`).
 *  - `NAME:*` matches NAME itself and every `NAME:<anything>` (Android processes declared
 *    with android:process=":remote" have cmdline `com.foo:remote`).
 *  - No other wildcard exists; a `*` anywhere else is rejected.
 *  - Entries are comma separated; blanks around an entry are ignored.
 */
#ifndef ANIMTRACE_PROCFILTER_H
#define ANIMTRACE_PROCFILTER_H

#include <stdbool.h>
#include <stddef.h>

#define PROCFILTER_MAX_NAMES 32
#define PROCFILTER_MAX_PIDS 64
#define PROCFILTER_NAME_MAX 255
/* Linux TASK_COMM_LEN is 16 including the NUL: a comm holds at most 15 characters. */
#define PROCFILTER_COMM_MAX 15

struct procfilter;

/* An empty filter (selects everything); NULL and errno on allocation failure. */
struct procfilter *procfilter__new(void);
void procfilter__free(struct procfilter *f);

/*
 * Add the comma-separated names of a `--proc` argument. All or nothing: on bad input the
 * filter is unchanged, -EINVAL is returned and procfilter__error() says why.
 */
int procfilter__add_names(struct procfilter *f, const char *list);

/* Same for `--pid`: decimal pids > 0. Duplicates are kept once. */
int procfilter__add_pids(struct procfilter *f, const char *list);

/* Why the last add failed, for the caller to print ("" when nothing failed). */
const char *procfilter__error(const struct procfilter *f);

bool procfilter__empty(const struct procfilter *f);
bool procfilter__has_names(const struct procfilter *f);
bool procfilter__has_pids(const struct procfilter *f);

/* The names as given (`com.foo:*` included), for atrace app lists and messages. */
size_t procfilter__name_count(const struct procfilter *f);
const char *procfilter__name(const struct procfilter *f, size_t i);

/* The listed pids, to seed the BPF allow map; returns the count. */
size_t procfilter__pids(const struct procfilter *f, const int **pids);

/* True when pid is listed, or the filter is empty. */
bool procfilter__wants_pid(const struct procfilter *f, int pid);

/*
 * True when argv[0] of a raw /proc/<pid>/cmdline matches a name, or the filter is empty.
 * argv[0] ends at the first NUL or at len (setproctitle-style renames leave no NUL).
 */
bool procfilter__match_cmdline(const struct procfilter *f, const char *cmdline, size_t len);

/*
 * True when a main-thread name (comm, as in replayed captures) can belong to a selected
 * process, or the filter is empty. The kernel keeps 15 characters and Android keeps the
 * LAST 15 of the process name, so com.android.systemui has comm "ndroid.systemui":
 *  - `NAME` matches comm == NAME, or comm == the last 15 characters of NAME.
 *  - `NAME:*` also matches comm `NAME:sub` when that fits in 15 characters, and a 15
 *    character comm `<tail of NAME>:<sub>` whose part before its ':' is a non-empty
 *    tail of NAME (the comm of a long `NAME:sub`). When the sub-name alone fills the 15
 *    characters nothing of NAME is left to compare and the comm does not match: use
 *    --pid or a live capture for those.
 */
bool procfilter__match_comm(const struct procfilter *f, const char *comm);
bool procfilter__match_comm_len(const struct procfilter *f, const char *comm, size_t len);

/*
 * Read /proc/<pid>/cmdline under proc_root (normally "/proc") into buf, NUL-terminated.
 * Returns the number of raw bytes stored (at most cap - 1; longer cmdlines are cut, which
 * keeps argv[0] when cap exceeds PROCFILTER_NAME_MAX) or a negative errno (-ENOENT or
 * -ESRCH when the process is gone).
 */
int procfilter__read_cmdline(const char *proc_root, int pid, char *buf, size_t cap);

/* Read /proc/<pid>/comm without its newline; length or a negative errno. */
int procfilter__read_comm(const char *proc_root, int pid, char *buf, size_t cap);

/*
 * Call cb(ctx, pid, argv0) for every selected process under proc_root. argv0 is the
 * process's comm in brackets when its cmdline is empty (kernel threads, zombies).
 * Processes that vanish mid-scan are skipped. cb returns 0 to go on, non-zero to stop;
 * a negative value (an errno) is then what the scan returns. Otherwise returns the number
 * of processes reported, or a negative errno when proc_root cannot be read.
 */
int procfilter__scan(const struct procfilter *f, const char *proc_root,
		     int (*cb)(void *ctx, int pid, const char *argv0), void *ctx);

#endif /* ANIMTRACE_PROCFILTER_H */
