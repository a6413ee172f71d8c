// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Text from other parties made safe for a terminal. See termesc.h. */
#include <stdbool.h>
#include <string.h>

#include "common/termesc.h"

size_t utf8_seq(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len;
	uint32_t c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0; /* continuation byte, overlong lead, or beyond U+10FFFF */
	len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (n < len)
		return 0;
	c = s[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/* Code points above ASCII a terminal acts on, or that reorder the text it shows. */
static bool unsafe_cp(uint32_t c)
{
	return (c >= 0x80 && c <= 0x9f) || c == 0x61c || c == 0x200e || c == 0x200f ||
	       (c >= 0x2028 && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

/*
 * The escape of the character at s (n > 0 bytes left) into seq (TERMESC_MAX_SEQ + 1); returns
 * its length and the input bytes it stands for in *used (a kept character is copied).
 */
static size_t escape_one(const unsigned char *s, size_t n, char *seq, size_t *used)
{
	static const char hex[] = "0123456789abcdef";
	uint32_t cp;
	size_t len = utf8_seq(s, n, &cp);

	*used = len ? len : 1;
	if (len && cp >= 0x20 && cp != 0x7f && !unsafe_cp(cp)) {
		memcpy(seq, s, len);
		return len;
	}
	seq[0] = '\\';
	if (len && cp > 0x7f) {
		seq[1] = 'u';
		for (int i = 0; i < 4; i++)
			seq[2 + i] = hex[(cp >> (12 - 4 * i)) & 0xf];
		return 6;
	}
	if (len && (cp == '\n' || cp == '\r' || cp == '\t')) {
		seq[1] = cp == '\n' ? 'n' : cp == '\r' ? 'r' : 't';
		return 2;
	}
	seq[1] = 'x'; /* a control byte, or a byte of no valid sequence */
	seq[2] = hex[s[0] >> 4];
	seq[3] = hex[s[0] & 0xf];
	return 4;
}

size_t termesc(char *dst, size_t cap, const char *src, size_t len)
{
	const unsigned char *s = (const unsigned char *)src;
	char seq[TERMESC_MAX_SEQ + 1];
	size_t out = 0, used, n;

	if (!cap)
		return 0;
	for (size_t i = 0; i < len; i += used) {
		if (s[i] >= 0x20 && s[i] < 0x7f) { /* most of it: printable ASCII */
			if (out + 1 >= cap)
				break;
			dst[out++] = (char)s[i];
			used = 1;
			continue;
		}
		n = escape_one(s + i, len - i, seq, &used);
		if (out + n >= cap)
			break;
		memcpy(dst + out, seq, n);
		out += n;
	}
	dst[out] = '\0';
	return out;
}

const char *termesc_str(char *dst, size_t cap, const char *src)
{
	termesc(dst, cap, src, strlen(src));
	return dst;
}

void termesc_put(FILE *f, const char *src, size_t len)
{
	const unsigned char *s = (const unsigned char *)src;
	char seq[TERMESC_MAX_SEQ + 1];
	size_t used;

	for (size_t i = 0; i < len; i += used)
		fwrite(seq, 1, escape_one(s + i, len - i, seq, &used), f);
}
