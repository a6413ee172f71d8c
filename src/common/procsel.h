/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Process selection, live and replay: which processes `--proc` / `--pid` select, what they
 * are called, and what the BPF allow map must hold. Two objects:
 *
 *  - struct procfilter: what was asked (the `--proc` names, the `--pid` ids), parsed by
 *    procfilter__parse_opt for every command line, and the rules that match argv[0] or a
 *    comm against it.
 *  - struct procsel: the selection made from a filter as events arrive. Live, it is told of
 *    forks, execs, renames and exits (zygote forks a child that names itself later, without
 *    exec), reads /proc, and asks its caller to add to or remove from the BPF allow map: it
 *    never calls BPF itself. Replay, it is told what capture lines show of threads (tid,
 *    tgid, comm) and selects processes by their main thread's name.
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
#ifndef ANIMTRACE_PROCSEL_H
#define ANIMTRACE_PROCSEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animtrace/wire.h"

#define PROCFILTER_MAX_NAMES 32
#define PROCFILTER_MAX_PIDS 64
#define PROCFILTER_NAME_MAX 255
#define PROCFILTER_COMM_MAX (AT_COMM_LEN - 1) /* characters of a comm, without the NUL */
/* The argp keys of --proc and --pid, in every command's option table. */
#define PROCFILTER_KEY_PROC 'p'
#define PROCFILTER_KEY_PID 'P'

struct argp_state;
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

/*
 * The one parser of --proc (PROCFILTER_KEY_PROC) and --pid (PROCFILTER_KEY_PID), for every
 * command's argp parser: adds arg to f, or stops the parse through argp_error with
 * procfilter__error's reason and returns EINVAL. ARGP_ERR_UNKNOWN for any other key.
 */
int procfilter__parse_opt(struct procfilter *f, int key, char *arg, struct argp_state *state);

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

/* How a process is selected: say it, since two processes may claim one name. */
enum procfilter_how {
	PROCFILTER_NOT,	       /* not selected */
	PROCFILTER_EVERY,      /* the filter is empty */
	PROCFILTER_BY_PID,     /* its pid is listed (--pid) */
	PROCFILTER_EXACT,      /* its argv[0] is a name (NAME, or NAME of NAME:*) */
	PROCFILTER_SUBPROCESS, /* its argv[0] is NAME:<sub> of a NAME:* */
};

/* How process pid, whose argv[0] is argv0 (whole), is selected by f; the name it matched (the
 * --proc entry as given) in *name when by name. */
enum procfilter_how procfilter__how(const struct procfilter *f, int pid, const char *argv0,
				    const char **name);

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

/* ---- the selection -------------------------------------------------------------------- */

struct procsel;

/* What live tracing does as the selection changes. Replay has none. */
struct procsel_ops {
	/* Adds tgid to the BPF allow map (allow) or takes it out: 0 or a negative errno (the
	 * process is then not selected; saying why is the callee's). Never called when
	 * procsel__all. */
	int (*allow)(void *ctx, uint32_t tgid, bool allow);
	/* tgid is selected and allowed: start tracing it. argv0 is whole; procsel__name keeps
	 * the first PROCTAB_NAME_MAX - 1 bytes of it. */
	void (*selected)(void *ctx, uint32_t tgid, const char *argv0);
	/* A named process exited at ts_ns: forget it. Then it leaves the allow map. */
	void (*exited)(void *ctx, uint32_t tgid, const char *name, uint64_t ts_ns);
	/* A --pid process that does not exist when tracing starts. */
	void (*missing)(void *ctx, int pid);
};

struct procsel_opts {
	const struct procfilter *filter; /* NULL or empty: every process */
	const char *proc_root;		 /* live: where argv[0] is read; NULL: replay */
	const struct procsel_ops *ops;	 /* live: all four; NULL: replay */
	void *ctx;			 /* for ops */
};

/* A selection of nothing yet (of everything when the filter is empty); NULL and errno. */
struct procsel *procsel__new(const struct procsel_opts *o);
void procsel__free(struct procsel *s);

/* True when the filter is empty: every process is traced and the allow map is not used. */
bool procsel__all(const struct procsel *s);

/* True when processes can be selected after the start (by name): live needs fork, exec and
 * rename events then. */
bool procsel__watches(const struct procsel *s);

/* True when tgid's events are wanted: every process, a listed pid, or a process selected. */
bool procsel__wants(const struct procsel *s, uint32_t tgid);

/*
 * The name of process (or, replay, thread) id: its argv[0] live, its comm in a capture; NULL
 * when unknown. Live with every process traced, argv[0] is read the first time it is asked
 * for. Valid until the next change to s.
 */
const char *procsel__name(struct procsel *s, uint32_t id);

/* ---- live: /proc and process events, once the caller's probes are attached ---- */

/* How long a forked, renamed or exec'ed process is re-checked: zygote sets its cmdline
 * within tens of ms, but give a loaded device some slack. */
#define PROCSEL_WATCH_NS (5ULL * 1000000000ULL)
/* Processes watched at once; in a fork storm the oldest is let go. */
#define PROCSEL_WATCH_MAX 1024

/*
 * Selects the processes running now (ops->selected for each, ops->missing for each absent
 * --pid). Returns -ESRCH when only pids were given and none runs (none can come later),
 * else 0. Does nothing when procsel__all.
 */
int procsel__start(struct procsel *s);

/* A new process: watched until now_ns + PROCSEL_WATCH_NS for a name that selects it. */
void procsel__fork(struct procsel *s, uint32_t child, uint64_t now_ns);

/* tgid exec'ed or renamed itself (zygote's child taking its package name): checked now,
 * and watched as after a fork when it does not match (yet). */
void procsel__exec(struct procsel *s, uint32_t tgid, uint64_t now_ns);

/* tgid exited at ts_ns: ops->exited, then out of the allow map, when it had a name. */
void procsel__exit(struct procsel *s, uint32_t tgid, uint64_t ts_ns);

/* Checks the watched processes again; those past their time are let go. */
void procsel__tick(struct procsel *s, uint64_t now_ns);

/* ---- replay: what the capture shows ---- */

/*
 * A capture line about thread tid: its comm (len 0: not shown) and its process (tgid 0: not
 * shown). A task column's name does not replace an earlier one (replace false); sched_*
 * fields name the thread as it is now (replace true). Ignored once procsel__decide chose by
 * name: the names are then those it chose from.
 */
void procsel__thread(struct procsel *s, uint32_t tid, uint32_t tgid, const char *comm, size_t len,
		     bool replace);

/* The process of thread tid, or 0 when unknown. */
uint32_t procsel__tgid(const struct procsel *s, uint32_t tid);

/* Process tgid wrote a marker: what --pid is checked against. */
void procsel__wrote(struct procsel *s, uint32_t tgid);

/*
 * After every line was seen: selects the processes whose main thread's name matches. 0 when
 * the filter selects some process (or is empty); else -ESRCH and msg says what the capture
 * holds (and suggests --pid when it names no process).
 */
int procsel__decide(struct procsel *s, char *msg, size_t msglen);

/* How many processes procsel__decide found a main-thread name for (0 without --proc). */
uint32_t procsel__named(const struct procsel *s);

/* Ids its tables forgot (common/caps.h CAP_PROC_IDS): threads with their names and
 * processes, and processes of its sets (selected, wrote markers). */
void procsel__evicted(const struct procsel *s, uint64_t *thread_names, uint64_t *pids);

/* The thread names forgot so far (procsel__evicted's first count), in one look. */
uint64_t procsel__names_evicted(const struct procsel *s);

#endif /* ANIMTRACE_PROCSEL_H */
