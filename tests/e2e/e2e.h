/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Helpers of the end-to-end tests: they drive the real binaries (animtrace, animsim) as a
 * user would, from the repository root. Waits are bounded polls on files or processes that
 * fail the test with a clear message after E2E_WAIT_MS; nothing asserts on timing.
 */
#ifndef ANIMTRACE_TESTS_E2E_H
#define ANIMTRACE_TESTS_E2E_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <json-c/json.h>

#ifndef BUILD_DIR
#define BUILD_DIR "build/x86"
#endif
#ifndef TESTDATA
#define TESTDATA "../shared/testdata"
#endif

#define E2E_ANIMTRACE BUILD_DIR "/animtrace"
#define E2E_ANIMSIM BUILD_DIR "/sim/animsim"
#define E2E_WAIT_MS 20000

struct e2e_spawn {
	const char *out; /* stdout to this file (NULL: /dev/null, unless out_fd > 0) */
	const char *err; /* stderr to this file (NULL: /dev/null) */
	int out_fd;	 /* > 0: stdout is this descriptor */
	char **env;	 /* NULL: inherit */
	uid_t uid;	 /* != 0: drop to this uid and gid before exec */
	int in_fd;	 /* > 0: stdin is this descriptor (else /dev/null) */
};

/* Criterion .init / .fini: a fresh temp dir; leftover children killed, dir removed. */
void e2e_setup(void);
void e2e_teardown(void);
/* dst (PATH_MAX) = tempdir/name. */
char *e2e_path(char *dst, const char *name);

pid_t e2e_spawn(const char *const argv[], const struct e2e_spawn *o);
/* Wait status of a spawned pid; fails the test if it is still running after E2E_WAIT_MS. */
int e2e_wait(pid_t pid, const char *what);
/* e2e_wait, then asserts a normal exit and returns its code. */
int e2e_exit_code(pid_t pid, const char *what);
/* True while the spawned pid has not exited. */
bool e2e_running(pid_t pid);
/* Drops the children whose exit was seen (e2e_wait, e2e_running) from the table of at most
 * MAX_CHILDREN: a long run (bench/) starts more children than that over time. */
void e2e_forget_exited(void);

/* Malloc'd file contents ("" when missing). */
char *e2e_slurp(const char *path);
/* Polls path until one line holds every one of the NULL-terminated substrings; fails the
 * test when watch (if > 0) exits first or after E2E_WAIT_MS. */
void e2e_await(const char *path, pid_t watch, ...) __attribute__((sentinel));
/* Polls /proc for the child of ppid whose argv[0] is name. */
pid_t e2e_find_child(pid_t ppid, const char *name);

/* Process names: base.<this test's temp dir suffix>, so two runs never see each other. */
#define E2E_NAME_MAX 128
char *e2e_name(char *dst, const char *base);

/* What e2e_release waits for: markers only, or also the setter / ART uprobes attached. */
#define E2E_MARKERS 0u
#define E2E_PROPS 1u
#define E2E_ART 2u
/* Creates go: simulators started with --go go play their first frame. */
void e2e_go(const char *go);
/* Creates dir/name: the gate a simulator run with --late-gate dir waits at (its "load",
 * "go", "realloc-<frame>", "exit"). */
void e2e_gate(const char *dir, const char *name);
/* Waits until animtrace (at)'s stderr err says pid is traced (and, per what, its uprobes
 * attached), then e2e_go(go) unless go is NULL. Fails the test when animtrace exits or after E2E_WAIT_MS. */
void e2e_release(const char *err, pid_t at, pid_t pid, unsigned int what, const char *go);

/* animtrace with args (NULL-terminated), stderr to err; returns once it printed "ready". */
pid_t e2e_animtrace(const char *const args[], const char *err, const struct e2e_spawn *o);

struct e2e_jsonl {
	json_object **v;
	size_t n;
};

/* Every line of path parsed strictly (fails the test on a bad line). */
void e2e_jsonl_load(struct e2e_jsonl *j, const char *path);
void e2e_jsonl_free(struct e2e_jsonl *j);
/* Field access; absent fields fail the test. */
const char *e2e_str(json_object *o, const char *key);
int64_t e2e_int(json_object *o, const char *key);
bool e2e_is_null(json_object *o, const char *key);
json_object *e2e_get(json_object *o, const char *key);
bool e2e_type_is(json_object *o, const char *type);

/* A copy of environ with the NAME=value entries of add (NULL-terminated) replacing or
 * adding to it. */
char **e2e_env(const char *const add[]);

#endif
