/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Text from other parties made safe for a terminal, once, where it becomes output (the box
 * sink, the summary, stderr status lines, doctor, the annotations animtrace writes back).
 * Process and thread names, paths, marker text, View and class names and stack frames come
 * from processes and captures animtrace does not trust: a newline or an escape sequence in
 * them must not forge a line, move the cursor or retitle the terminal.
 *
 * Escapes: newline `\n`, carriage return `\r`, tab `\t`, every other C0 control byte and DEL
 * `\xHH` (ESC is `\x1b`), a byte that is not part of valid UTF-8 `\xHH`, and the code points a
 * terminal acts on or that reorder what it shows, `\uHHHH`: the C1 controls U+0080..U+009F
 * (U+009B is CSI), the line and paragraph separators and the bidirectional controls (U+061C,
 * U+200E, U+200F, U+2028..U+202E, U+2066..U+2069: "Trojan Source", CVE-2021-42574). Valid
 * UTF-8 is kept. A backslash is kept as it is. Pure: no allocation, no locale.
 */
#ifndef ANIMTRACE_TERMESC_H
#define ANIMTRACE_TERMESC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The longest escape of one input character ("\u202e"), without a NUL. */
#define TERMESC_MAX_SEQ 6

/*
 * The length of the valid UTF-8 sequence at s (n > 0 bytes left) and its code point in *cp,
 * or 0 when it is not one (a continuation byte, an overlong form, a surrogate, beyond
 * U+10FFFF, or cut short). ASCII is a sequence of 1.
 */
size_t utf8_seq(const unsigned char *s, size_t n, uint32_t *cp);

/*
 * The len bytes of src (NUL bytes included, shown `\x00`) escaped into dst, NUL-terminated.
 * What does not fit in cap bytes is left out whole: never half an escape or half a character.
 * Returns the length written (without the NUL); cap 0 writes nothing.
 */
size_t termesc(char *dst, size_t cap, const char *src, size_t len);

/* termesc of the string src; returns dst, for printf arguments. */
const char *termesc_str(char *dst, size_t cap, const char *src);

/* The len bytes of src escaped onto f, all of them. */
void termesc_put(FILE *f, const char *src, size_t len);

#endif
