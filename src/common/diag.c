// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "common/diag.h"

static FILE *diag_file;
static enum diag_level diag_max = DIAG_INFO;

void diag_init(FILE *f, enum diag_level max)
{
	diag_file = f;
	diag_max = max;
}

bool diag_on(enum diag_level level)
{
	return level <= diag_max;
}

static FILE *out(void)
{
	return diag_file ? diag_file : stderr;
}

void diag_vraw(enum diag_level level, const char *fmt, va_list ap)
{
	if (diag_on(level))
		vfprintf(out(), fmt, ap);
}

void diag_raw(enum diag_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vraw(level, fmt, ap);
	va_end(ap);
}

void diag(enum diag_level level, const char *fmt, ...)
{
	va_list ap;

	if (!diag_on(level))
		return;
	/* One fprintf per piece, on an unbuffered stderr: keep the line in one buffer. */
	char line[1024];
	int n = snprintf(line, sizeof(line), "animtrace: %s",
			 level == DIAG_WARN ? "warning: " : "");

	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	va_end(ap);
	fprintf(out(), "%s\n", line);
}
