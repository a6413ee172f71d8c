/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ELF symbols for probe attachment: .dynsym, .symtab and the xz-compressed MiniDebugInfo
 * section .gnu_debugdata (where Android keeps static functions such as the RenderNode JNI
 * setters and ART's compiled methods). Symbol values are virtual addresses; uprobes want
 * file offsets, which come from the main file's PT_LOAD headers. Hostile or truncated
 * files give errors, never out-of-bounds reads.
 */
#ifndef ANIMTRACE_ELFSYM_H
#define ANIMTRACE_ELFSYM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Largest .gnu_debugdata we inflate: bounds an xz bomb. */
#define ELFSYM_DEBUGDATA_MAX (256u << 20)
/* elfsym_hit.offset when no PT_LOAD holds file bytes for the symbol's vaddr. */
#define ELFSYM_NO_OFFSET UINT64_MAX

enum elfsym_table {
	ELFSYM_DYNSYM = 0,
	ELFSYM_SYMTAB = 1,
	ELFSYM_DEBUGDATA = 2, /* .symtab of the ELF inside .gnu_debugdata */
	ELFSYM_NR_TABLES,
};

struct elfsym_hit {
	const char *name; /* full name, e.g. with its ".llvm.<digits>"; valid until free */
	uint64_t vaddr;
	uint64_t size;
	uint64_t offset; /* file offset of vaddr in the main file, or ELFSYM_NO_OFFSET */
	enum elfsym_table table;
	uint8_t type; /* STT_FUNC, STT_OBJECT, ... */
};

struct elfsym;

/*
 * Loads the symbols of an ELF file. Returns NULL and sets errno: ENOENT etc. from open,
 * EINVAL for something that is not a readable ELF file. A corrupt .gnu_debugdata does not
 * fail the open (the other tables still work); see elfsym__debugdata_err().
 */
struct elfsym *elfsym__open(const char *path);

/* Same from memory; the buffer is copied, the caller keeps ownership of it. */
struct elfsym *elfsym__open_mem(const void *buf, size_t len);

void elfsym__free(struct elfsym *s);

/* e_machine of the main file (EM_AARCH64, EM_X86_64, ...). */
uint16_t elfsym__machine(const struct elfsym *s);

/*
 * 0 when .gnu_debugdata is absent or was loaded; else why it was skipped: -EBADMSG
 * (corrupt xz or inner ELF), -EFBIG (inflates past ELFSYM_DEBUGDATA_MAX), -ENOMEM.
 */
int elfsym__debugdata_err(const struct elfsym *s);

/* Number of distinct defined, named symbols indexed from one table. */
size_t elfsym__count(const struct elfsym *s, enum elfsym_table table);

/*
 * Finds a defined symbol by name: an exact match first, else one whose name differs only
 * by a ThinLTO ".llvm.<digits>" suffix (on either side). 0 or -ENOENT.
 */
int elfsym__find(const struct elfsym *s, const char *name, struct elfsym_hit *out);

/*
 * Every symbol whose name equals @name ignoring ".llvm.<digits>" suffixes (ART overloads
 * share one name), ordered by name then vaddr; the same name at the same vaddr in two
 * tables is reported once (the first of dynsym, symtab, debugdata). Fills up to @max hits
 * and returns the total number found (may exceed @max), 0 when none.
 */
int elfsym__find_all(const struct elfsym *s, const char *name, struct elfsym_hit *out, int max);

/* vaddr -> file offset through the main file's PT_LOAD headers. 0 or -ENOENT. */
int elfsym__vaddr_to_offset(const struct elfsym *s, uint64_t vaddr, uint64_t *off);

/*
 * Copies @len bytes at @vaddr from the main file (e.g. a getter's code). -ENOENT unless
 * one PT_LOAD holds all of them in the file.
 */
int elfsym__read(const struct elfsym *s, uint64_t vaddr, void *buf, size_t len);

/* The defined function symbol at @vaddr (any table; the first by name). 0 or -ENOENT. */
int elfsym__find_addr(const struct elfsym *s, uint64_t vaddr, struct elfsym_hit *out);

/*
 * The symbol the dynamic linker writes into the GOT slot at @slot: the .dynsym name of the
 * R_*_JUMP_SLOT or R_*_GLOB_DAT relocation there, read from every REL/RELA section, plain or
 * packed the Android way (APS2, whether typed SHT_RELA or SHT_ANDROID_RELA). *name is valid
 * until free. 0, -ENOENT when no such relocation names a symbol, -EBADMSG when a packed
 * table is malformed and none was found before.
 */
int elfsym__got_symbol(const struct elfsym *s, uint64_t slot, const char **name);

/* One relocation decoded from an APS2 table (r_info as the ELF class encodes it). */
struct elfsym_rel {
	uint64_t offset;
	uint64_t info;
	int64_t addend;
};

/* Largest relocation count an APS2 table may claim: groups can cost zero bytes each. */
#define ELFSYM_APS2_MAX (1u << 24)

/*
 * Decodes Android's packed relocations (bionic linker/linker_reloc_iterators.h): "APS2",
 * then sleb128 numbers. Calls @fn for each; its non-zero value stops and is returned.
 * @rela says whether addends are allowed. -EBADMSG for a bad magic, a truncated or
 * over-long number, an empty group or one past the count, more than ELFSYM_APS2_MAX
 * relocations, or an addend in a REL table. Pure: no ELF handle needed.
 */
int elfsym_aps2_decode(const uint8_t *buf, size_t len, bool rela,
		       int (*fn)(void *ctx, const struct elfsym_rel *rel), void *ctx);

#endif
