// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/diag.h"

/* Everything written to a fresh channel at max while fn runs. */
static char *captured(enum diag_level max, void (*fn)(void))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	diag_init(f, max);
	fn();
	diag_init(NULL, DIAG_INFO);
	fclose(f);
	return buf;
}

static void one_of_each(void)
{
	diag(DIAG_ERROR, "no trace_marker (%d)", 2);
	diag(DIAG_WARN, "alpha: setter %s not found", "x");
	diag(DIAG_INFO, "ready");
	diag(DIAG_DEBUG, "stack: %d frames", 3);
	diag_raw(DIAG_INFO, "stats: %d markers/s\n", 60);
	diag_raw(DIAG_DEBUG, "libbpf: loading\n");
}

Test(diag, the_default_level_shows_errors_warnings_and_status_lines_with_their_prefixes)
{
	char *text = captured(DIAG_INFO, one_of_each);

	cr_assert_str_eq(text, "animtrace: no trace_marker (2)\n"
			       "animtrace: warning: alpha: setter x not found\n"
			       "animtrace: ready\n"
			       "stats: 60 markers/s\n");
	free(text);
}

Test(diag, verbose_adds_the_debug_lines_in_order)
{
	char *text = captured(DIAG_DEBUG, one_of_each);

	cr_assert_str_eq(text, "animtrace: no trace_marker (2)\n"
			       "animtrace: warning: alpha: setter x not found\n"
			       "animtrace: ready\n"
			       "animtrace: stack: 3 frames\n"
			       "stats: 60 markers/s\n"
			       "libbpf: loading\n");
	free(text);
}

Test(diag, errors_only_hides_warnings_and_reports_which_levels_are_on)
{
	char *text = captured(DIAG_ERROR, one_of_each);

	cr_assert_str_eq(text, "animtrace: no trace_marker (2)\n");
	free(text);
	diag_init(NULL, DIAG_WARN);
	cr_assert(diag_on(DIAG_ERROR) && diag_on(DIAG_WARN));
	cr_assert(!diag_on(DIAG_INFO) && !diag_on(DIAG_DEBUG));
	diag_init(NULL, DIAG_INFO);
}

static void hostile(void)
{
	/* an argv[0] that tries to print a line of its own and retitle the terminal */
	diag(DIAG_INFO, "tracing %s (pid %d)",
	     "com.foo:x\nanimtrace: com.android.systemui (pid 1) exited\x1b]0;pwned\x07", 7);
	diag_raw(DIAG_INFO, "libbpf: failed to open '%s'\n", "/data/app/\x1b[2Jlib\n.so");
}

Test(diag, a_name_with_a_newline_and_escapes_cannot_forge_a_line_or_reach_the_terminal)
{
	char *text = captured(DIAG_INFO, hostile);

	cr_assert_str_eq(text, "animtrace: tracing com.foo:x\\nanimtrace: com.android.systemui "
			       "(pid 1) exited\\x1b]0;pwned\\x07 (pid 7)\n"
			       "libbpf: failed to open '/data/app/\\x1b[2Jlib\\n.so'\n");
	free(text);
}
