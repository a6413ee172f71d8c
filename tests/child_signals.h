/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * For the test harnesses' children (tests/e2e, the arm64 guest's init): a run under nohup or
 * in a background job inherits SIGINT and SIGQUIT ignored, and a child must still get the
 * signals the tests send it (and be able to trap them). Call between fork and exec.
 */
#ifndef ANIMTRACE_TESTS_CHILD_SIGNALS_H
#define ANIMTRACE_TESTS_CHILD_SIGNALS_H

#include <signal.h>
#include <stddef.h>

static inline void default_signals(void)
{
	static const int sigs[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE };
	sigset_t none;

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

#endif
