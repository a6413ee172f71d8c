// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * One probe per setter call (issue 23), live (root): the setter's stored value is read at its
 * thread's next event, so a call that no later event of its thread follows is still pending
 * in BPF when animtrace stops, and must be read then, not lost. A child of the test dlopens
 * the simulator's stripped libhwui.so, makes two setter calls and then spins without a
 * system call until animtrace has exited.
 */
#include <dlfcn.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "e2e.h"
#include "expect.h"
#include "sim/hwui_fixture.h"

#define FIXTURE BUILD_DIR "/sim/libhwui.so"

enum { CHILD_READY = 1, CHILD_CALLED, CHILD_GO_ON };

TestSuite(onetrap, .init = e2e_setup, .fini = e2e_teardown, .timeout = 120);

/* setAlpha 0.25, then setScaleX 1.5 (read at no later event: the child spins until told). */
static void __attribute__((noreturn)) child(int go_fd, int *stage)
{
	const struct hwui_fixture_methods *(*methods)(void);
	const struct hwui_fixture_methods *m;
	void *lib = dlopen(FIXTURE, RTLD_NOW | RTLD_LOCAL);
	int64_t node;
	char c;

	if (!lib)
		_exit(2);
	*(void **)&methods = dlsym(lib, "hwui_fixture_methods");
	if (!methods)
		_exit(3);
	m = methods();
	node = m->create_node("android.widget.ImageView");
	__atomic_store_n(stage, CHILD_READY, __ATOMIC_SEQ_CST);
	if (read(go_fd, &c, 1) != 1)
		_exit(4);
	m->set[HWUI_ALPHA](node, 0.25f);  /* read at the next call's entry */
	m->set[HWUI_SCALE_X](node, 1.5f); /* read by nothing of this thread: it makes no call */
	__atomic_store_n(stage, CHILD_CALLED, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(stage, __ATOMIC_SEQ_CST) != CHILD_GO_ON)
		;
	_exit(0);
}

/*
 * A burst of setter calls with no system call between them: BURST_CHANGES calls that change
 * a value (three nodes, three setters, no two alike) and, after every fourth, a call that sets
 * the value just set again (no change: RP_SET stores nothing). Their records go out in full
 * batches of AT_SETTER_BATCH, and the rest (batched, then the last call pending) is read
 * from the map when animtrace stops.
 */
#define BURST_CHANGES 19 /* two full batches, two records batched and one call pending */

static void __attribute__((noreturn)) burst_child(int go_fd, int *stage)
{
	static const int props[3] = { HWUI_ALPHA, HWUI_TRANSLATION_X, HWUI_SCALE_X };
	const struct hwui_fixture_methods *(*methods)(void);
	const struct hwui_fixture_methods *m;
	void *lib = dlopen(FIXTURE, RTLD_NOW | RTLD_LOCAL);
	int64_t nodes[3];
	char c;

	if (!lib)
		_exit(2);
	*(void **)&methods = dlsym(lib, "hwui_fixture_methods");
	if (!methods)
		_exit(3);
	m = methods();
	for (int i = 0; i < 3; i++)
		nodes[i] = m->create_node("android.widget.ImageView");
	__atomic_store_n(stage, CHILD_READY, __ATOMIC_SEQ_CST);
	if (read(go_fd, &c, 1) != 1)
		_exit(4);
	for (int i = 0; i < BURST_CHANGES; i++) {
		float v = 0.01f * (float)(i + 1); /* inside alpha's [0, 1]: a change each time */

		m->set[props[i % 3]](nodes[i / 3 % 3], v);
		if (i % 4 == 3 && i + 1 < BURST_CHANGES)
			m->set[props[i % 3]](nodes[i / 3 % 3], v); /* the same value: no change */
	}
	__atomic_store_n(stage, CHILD_CALLED, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(stage, __ATOMIC_SEQ_CST) != CHILD_GO_ON)
		;
	_exit(0);
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Waits (yielding, at most E2E_WAIT_MS) until the child reached stage. */
static void await_stage(int *stage, int want)
{
	uint64_t end = mono_ms() + E2E_WAIT_MS;

	while (__atomic_load_n(stage, __ATOMIC_SEQ_CST) != want) {
		cr_assert_lt(mono_ms(), end, "the child never reached stage %d", want);
		sched_yield();
	}
}

/* Runs body (child or burst_child) under animtrace --stats until it made its calls, stops
 * animtrace, and awaits its stats line for changes property changes, none lost. */
static void run_until_stop(void (*body)(int, int *), int changes)
{
	char pid[16], err[PATH_MAX], out[PATH_MAX], want[64];
	const char *args[] = {
		"--pid",    pid,    "--no-art", "--no-atrace-setup",	    "--stats",
		"--format", "json", "-o",	e2e_path(out, "out.jsonl"), NULL
	};
	int *stage =
		mmap(NULL, sizeof(int), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int go[2], status;
	pid_t kid, at;

	cr_assert_neq(stage, MAP_FAILED);
	cr_assert_eq(pipe(go), 0);
	kid = fork();
	cr_assert_geq(kid, 0);
	if (!kid) {
		close(go[1]);
		body(go[0], stage);
		_exit(5);
	}
	close(go[0]);
	await_stage(stage, CHILD_READY);
	snprintf(pid, sizeof(pid), "%d", (int)kid);
	at = e2e_animtrace(args, e2e_path(err, "at.err"), NULL);
	e2e_release(err, at, kid, E2E_PROPS, NULL);
	e2e_await(err, at,
		  "one probe a call for 10, entry and return probes for 0 (10 of 10 "
		  "setters)",
		  NULL);
	cr_assert_eq(write(go[1], "g", 1), 1);
	await_stage(stage, CHILD_CALLED);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	__atomic_store_n(stage, CHILD_GO_ON, __ATOMIC_SEQ_CST);
	cr_assert_eq(waitpid(kid, &status, 0), kid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %#x", status);
	snprintf(want, sizeof(want), " markers, %d property changes, 0 truncated, 0 lost", changes);
	e2e_await(err, 0, "stats: ", want, NULL);
	close(go[1]);
}

/* Every change of a burst is counted once: full batches from BPF, the rest at the stop. */
Test(onetrap, a_burst_of_setter_calls_goes_out_in_batches_and_none_is_lost_at_the_stop)
{
	run_until_stop(burst_child, BURST_CHANGES);
}

/* Both changes: alpha read at scaleX's entry, scaleX read when animtrace stopped. */
Test(onetrap, a_setter_call_no_later_event_reads_is_read_when_animtrace_stops)
{
	run_until_stop(child, 2);
}

/*
 * Setters the decoder cannot clear (libhwui-calls.so: each calls out after its store) keep
 * the entry and return pair, animtrace says which and why, and the values stay the
 * simulator's, exactly.
 */
Test(onetrap, setters_that_call_out_keep_the_return_probe_and_their_values_stay_exact)
{
	char name[E2E_NAME_MAX], go[PATH_MAX], out[PATH_MAX], err[PATH_MAX], ex[PATH_MAX];
	char pidpat[32];
	const char *lib = BUILD_DIR "/sim/libhwui-calls.so";
	const char *args[] = { "--proc",
			       name,
			       "--format",
			       "json",
			       "-o",
			       e2e_path(out, "out.jsonl"),
			       "--no-atrace-setup",
			       "--hwui",
			       lib,
			       NULL };
	const char *sim[] = { E2E_ANIMSIM, "--name",   name,
			      "--go",	   go,	       "--hwui",
			      lib,	   "--expect", e2e_path(ex, "ex.jsonl"),
			      NULL };
	struct exp_proc procs[2];
	struct e2e_jsonl j;
	pid_t at, sm, app;

	e2e_name(name, "com.example.calls");
	e2e_path(go, "go");
	at = e2e_animtrace(args, e2e_path(err, "err.txt"), NULL);
	sm = e2e_spawn(sim, NULL);
	app = e2e_find_child(sm, name);
	e2e_release(err, at, app, E2E_PROPS | E2E_ART, go);
	e2e_await(err, at,
		  "one probe a call for 0, entry and return probes for 10 (10 of 10 "
		  "setters)",
		  NULL);
	e2e_await(err, at, "animtrace: warning: alpha: setter 0x",
		  ": calls or branches out (not a leaf): entry and return probes", NULL);
	snprintf(pidpat, sizeof(pidpat), "\"pid\":%d,", app);
	e2e_await(out, at, "{\"type\":\"frame\"", pidpat, "\"seq\":24,", NULL);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	cr_assert_eq(e2e_exit_code(sm, "animsim"), 0);
	cr_assert_eq(exp_load(ex, procs, 2), 1);
	e2e_jsonl_load(&j, out);
	exp_check_props(&j, &procs[0]);
	e2e_jsonl_free(&j);
}
