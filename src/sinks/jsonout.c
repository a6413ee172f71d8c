// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* JSON values for the sinks that write JSON (sink_json, sink_trace). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "common/termesc.h"
#include "sinks/jsonout.h"

/* Writes s as a JSON string: RFC 8259 escapes, no raw control, invalid UTF-8 as U+FFFD. */
void json_put_str(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str);

	fputc('"', out);
	for (size_t i = 0; i < n;) {
		size_t len;
		uint32_t cp;

		if (s[i] == '"' || s[i] == '\\') {
			fputc('\\', out);
			fputc(s[i++], out);
		} else if (s[i] >= 0x20 && s[i] < 0x7f) { /* most of it: printable ASCII */
			fputc(s[i++], out);
		} else if (!(len = utf8_seq(s + i, n - i, &cp))) {
			fputs("\\ufffd", out);
			i++;
		} else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
			fprintf(out, "\\u%04x", (unsigned int)cp); /* C0, DEL, C1: no raw control */
			i += len;
		} else {
			fwrite(s + i, 1, len, out);
			i += len;
		}
	}
	fputc('"', out);
}

/* A float that parses back bit-exactly; JSON has no NaN or infinity, those become null. */
void json_put_float(FILE *out, float v)
{
	if (isfinite(v))
		fprintf(out, "%.9g", (double)v);
	else
		fputs("null", out);
}

int out_status(FILE *out)
{
	if (!ferror(out))
		return 0;
	return errno ? -errno : -EIO;
}
