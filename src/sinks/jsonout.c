// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* JSON values for the sinks that write JSON (sink_json, sink_trace). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "sinks/jsonout.h"

/* Length of the valid UTF-8 sequence at s (n bytes left), or 0 when it is invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t cp;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0; /* continuation byte, overlong lead, or beyond U+10FFFF */
	len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (n < len)
		return 0;
	cp = s[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* Writes s as a JSON string: RFC 8259 escapes, invalid UTF-8 bytes become U+FFFD. */
void json_put_str(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str);

	fputc('"', out);
	for (size_t i = 0; i < n;) {
		size_t len;

		if (s[i] == '"' || s[i] == '\\') {
			fputc('\\', out);
			fputc(s[i++], out);
		} else if (s[i] < 0x20) {
			fprintf(out, "\\u%04x", s[i++]);
		} else if (s[i] < 0x80) {
			fputc(s[i++], out);
		} else if ((len = utf8_len(s + i, n - i))) {
			fwrite(s + i, 1, len, out);
			i += len;
		} else {
			fputs("\\ufffd", out);
			i++;
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
