// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <string.h>

#include "common/diag.h"
#include "common/termesc.h"

/* A line as formatted, and as printed: every byte of it may come from another process (a
 * name, a path), so all of it is escaped; an escape takes at most 4 bytes per input byte. */
#define LINE_MAX_RAW 1024
#define LINE_MAX_OUT (4 * LINE_MAX_RAW)

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

/* fmt escaped, but for the newline it ends with (libbpf's lines, the stats pieces). */
void diag_vraw(enum diag_level level, const char *fmt, va_list ap)
{
	char raw[LINE_MAX_RAW], line[LINE_MAX_OUT];
	size_t len, flen = strlen(fmt);
	bool nl = flen && fmt[flen - 1] == '\n';

	if (!diag_on(level))
		return;
	vsnprintf(raw, sizeof(raw), fmt, ap);
	len = strlen(raw);
	if (nl && len && raw[len - 1] == '\n')
		len--;
	termesc(line, sizeof(line), raw, len);
	fprintf(out(), "%s%s", line, nl ? "\n" : "");
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
	char raw[LINE_MAX_RAW], line[LINE_MAX_OUT];
	va_list ap;

	if (!diag_on(level))
		return;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	termesc(line, sizeof(line), raw, strlen(raw));
	/* One fprintf per line, on an unbuffered stderr: the line is never split. */
	fprintf(out(), "animtrace: %s%s\n", level == DIAG_WARN ? "warning: " : "", line);
}
