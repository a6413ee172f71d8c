// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ELF symbols on real Android binaries (values checked by hand with readelf -lW/-sW on the
 * files and on their `xz -d`'d .gnu_debugdata, and aarch64-linux-gnu-objdump -d), on a
 * library built here the way Android strips, and on damaged copies of the real files.
 */
#include <criterion/criterion.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/elfsym.h"
#include "fake_proc.h"
#include "symbols/insn.h"

#define ANDROID_DIR TESTDATA "/android/"
#define RUNTIME9 ANDROID_DIR "android9-arm64-libandroid_runtime.so"
#define CUTILS9 ANDROID_DIR "android9-arm64-libcutils.so"
#define FRAMEWORK_OAT ANDROID_DIR "android12L-arm64-boot-framework.oat"

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	cr_assert_not_null(f, "%s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n);
	cr_assert_not_null(buf);
	cr_assert_eq(fread(buf, 1, n, f), (size_t)n);
	fclose(f);
	*len = n;
	return buf;
}

static struct elfsym *open_ok(const char *path)
{
	struct elfsym *s = elfsym__open(path);

	cr_assert_not_null(s, "%s: %s", path, strerror(errno));
	return s;
}

/* JNI names are _ZN7androidL<len>android_view_RenderNode_<what>El[f]. */
static void rn_name(char *buf, size_t size, const char *what, int setter)
{
	char tail[64];

	snprintf(tail, sizeof(tail), "android_view_RenderNode_%s%.15s", setter ? "set" : "get",
		 what);
	snprintf(buf, size, "_ZN7androidL%zu%sEl%s", strlen(tail), tail, setter ? "f" : "");
}

struct rn_prop {
	char what[16];
	uint64_t get_vaddr;
	uint64_t set_vaddr;
	uint32_t field;
};

static const struct rn_prop android9_props[] = {
	{ "Alpha", 0x103c94, 0x1036e0, 500 },	     { "TranslationX", 0x103cbc, 0x103790, 504 },
	{ "TranslationY", 0x103cc4, 0x1037cc, 508 }, { "TranslationZ", 0x103ccc, 0x103808, 512 },
	{ "Elevation", 0x103cb4, 0x103764, 516 },    { "Rotation", 0x103cd4, 0x103838, 520 },
	{ "RotationX", 0x103cdc, 0x103870, 524 },    { "RotationY", 0x103ce4, 0x1038a8, 528 },
	{ "ScaleX", 0x103ca4, 0x1038e0, 532 },	     { "ScaleY", 0x103cac, 0x103918, 536 },
};

Test(elfsym, android9_runtime_set_alpha_comes_from_minidebuginfo_with_its_file_offset)
{
	struct elfsym *s = open_ok(RUNTIME9);
	struct elfsym_hit h;

	cr_assert_eq(elfsym__machine(s), EM_AARCH64);
	cr_assert_eq(elfsym__debugdata_err(s), 0);
	cr_assert_eq(elfsym__find(s, "_ZN7androidL32android_view_RenderNode_setAlphaElf", &h), 0);
	cr_assert_str_eq(h.name, "_ZN7androidL32android_view_RenderNode_setAlphaElf");
	cr_assert_eq(h.vaddr, 0x1036e0);
	cr_assert_eq(h.size, 84);
	cr_assert_eq(h.table, ELFSYM_DEBUGDATA);
	cr_assert_eq(h.type, STT_FUNC);
	/* First PT_LOAD: offset 0, vaddr 0x35000 (prelinked). */
	cr_assert_eq(h.offset, 0x1036e0 - 0x35000);
	cr_assert_eq(elfsym__find(s, "_ZN7androidL32android_view_RenderNode_getAlphaEl", &h), 0);
	cr_assert_eq(h.vaddr, 0x103c94);
	cr_assert_eq(h.offset, 0xcec94);
	cr_assert_eq(h.table, ELFSYM_DEBUGDATA);
	elfsym__free(s);
}

Test(elfsym, android9_runtime_table_sizes_match_readelf)
{
	struct elfsym *s = open_ok(RUNTIME9);

	cr_assert_eq(elfsym__count(s, ELFSYM_DYNSYM), 1711);
	cr_assert_eq(elfsym__count(s, ELFSYM_SYMTAB), 0);
	cr_assert_eq(elfsym__count(s, ELFSYM_DEBUGDATA), 3806);
	cr_assert_eq(elfsym__count(s, ELFSYM_NR_TABLES), 0);
	elfsym__free(s);
}

Test(elfsym, android9_runtime_getters_decode_to_every_render_node_field_offset)
{
	struct elfsym *s = open_ok(RUNTIME9);
	size_t i;

	for (i = 0; i < sizeof(android9_props) / sizeof(android9_props[0]); i++) {
		const struct rn_prop *p = &android9_props[i];
		char name[96];
		struct elfsym_hit h;
		uint8_t code[8];
		uint32_t off = 0;

		rn_name(name, sizeof(name), p->what, 0);
		cr_assert_eq(elfsym__find(s, name, &h), 0, "%s", name);
		cr_assert_eq(h.vaddr, p->get_vaddr, "%s", name);
		cr_assert_eq(h.size, 8, "%s", name);
		cr_assert_eq(elfsym__read(s, h.vaddr, code, h.size), 0);
		cr_assert_eq(insn_getter_offset(EM_AARCH64, code, h.size, &off), 0, "%s", name);
		cr_assert_eq(off, p->field, "%s", name);
	}
	elfsym__free(s);
}

Test(elfsym, android9_runtime_setters_have_file_offsets_and_store_the_getter_field)
{
	struct elfsym *s = open_ok(RUNTIME9);
	size_t i;

	for (i = 0; i < sizeof(android9_props) / sizeof(android9_props[0]); i++) {
		const struct rn_prop *p = &android9_props[i];
		char name[96];
		struct elfsym_hit h;
		uint8_t code[128];
		uint32_t off = 0;

		rn_name(name, sizeof(name), p->what, 1);
		cr_assert_eq(elfsym__find(s, name, &h), 0, "%s", name);
		cr_assert_eq(h.vaddr, p->set_vaddr, "%s", name);
		cr_assert_eq(h.offset, p->set_vaddr - 0x35000, "%s", name);
		cr_assert_leq(h.size, sizeof(code));
		cr_assert_eq(elfsym__read(s, h.vaddr, code, h.size), 0);
		cr_assert_eq(insn_setter_offset(EM_AARCH64, code, h.size, &off), 0, "%s", name);
		cr_assert_eq(off, p->field, "%s", name);
	}
	elfsym__free(s);
}

Test(elfsym, android9_runtime_reads_the_exact_get_alpha_bytes)
{
	static const uint8_t want[] = { 0x00, 0xf4, 0x41, 0xbd, 0xc0, 0x03, 0x5f, 0xd6 };
	struct elfsym *s = open_ok(RUNTIME9);
	uint8_t code[8];

	cr_assert_eq(elfsym__read(s, 0x103c94, code, sizeof(code)), 0);
	cr_assert_arr_eq(code, want, sizeof(want));
	elfsym__free(s);
}

Test(elfsym, android9_runtime_vaddr_maps_through_pt_load_and_not_outside_file_bytes)
{
	struct elfsym *s = open_ok(RUNTIME9);
	uint64_t off = 0;
	uint8_t b[4];

	/* LOAD 0x000000 -> 0x35000 filesz 0x202c9c; LOAD 0x211e60 -> 0x251e60 filesz 0x1ef58. */
	cr_assert_eq(elfsym__vaddr_to_offset(s, 0x35000, &off), 0);
	cr_assert_eq(off, 0);
	cr_assert_eq(elfsym__vaddr_to_offset(s, 0x237c9b, &off), 0);
	cr_assert_eq(off, 0x202c9b);
	cr_assert_eq(elfsym__vaddr_to_offset(s, 0x251e60, &off), 0);
	cr_assert_eq(off, 0x211e60);
	cr_assert_eq(elfsym__vaddr_to_offset(s, 0x34fff, &off), -ENOENT);
	cr_assert_eq(elfsym__vaddr_to_offset(s, 0x237c9c, &off), -ENOENT);
	cr_assert_eq(elfsym__vaddr_to_offset(s, 0x270db8, &off), -ENOENT); /* .bss */
	cr_assert_eq(elfsym__read(s, 0x237c9a, b, 2), 0);
	cr_assert_eq(elfsym__read(s, 0x237c9a, b, 3), -ENOENT);
	cr_assert_eq(elfsym__read(s, 0, b, 1), -ENOENT);
	cr_assert_eq(elfsym__read(s, UINT64_MAX, b, 4), -ENOENT);
	elfsym__free(s);
}

Test(elfsym, android9_runtime_unknown_and_imported_names_are_not_found)
{
	struct elfsym *s = open_ok(RUNTIME9);
	struct elfsym_hit h;

	cr_assert_eq(elfsym__find(s, "_ZN7androidL32android_view_RenderNode_setAlph", &h), -ENOENT);
	cr_assert_eq(elfsym__find(s, "", &h), -ENOENT);
	/* Imported from libcutils: undefined here, so no address to probe. */
	cr_assert_eq(elfsym__find(s, "atrace_async_begin_body", &h), -ENOENT);
	cr_assert_eq(elfsym__find_all(s, "atrace_async_begin_body", &h, 1), 0);
	elfsym__free(s);
}

Test(elfsym, android12l_framework_oat_resolves_get_duration_scale_through_minidebuginfo)
{
	struct elfsym *s = open_ok(FRAMEWORK_OAT);
	struct elfsym_hit h;

	cr_assert_eq(elfsym__machine(s), EM_AARCH64);
	cr_assert_eq(elfsym__find(s, "android.animation.ValueAnimator.getDurationScale", &h), 0);
	cr_assert_eq(h.vaddr, 0x9d7f0);
	cr_assert_eq(h.size, 52);
	cr_assert_eq(h.table, ELFSYM_DEBUGDATA);
	/* In the R E PT_LOAD: offset 0x4c000, vaddr 0x4c000. */
	cr_assert_eq(h.offset, 0x9d7f0);
	cr_assert_eq(elfsym__count(s, ELFSYM_DEBUGDATA), 2232);
	cr_assert_eq(elfsym__count(s, ELFSYM_DYNSYM), 11);
	cr_assert_eq(elfsym__count(s, ELFSYM_SYMTAB), 0);
	elfsym__free(s);
}

Test(elfsym, android12l_framework_oat_did_not_compile_value_animator_start_cancel_end)
{
	struct elfsym *s = open_ok(FRAMEWORK_OAT);
	struct elfsym_hit h;

	cr_assert_eq(elfsym__find(s, "android.animation.ValueAnimator.start", &h), -ENOENT);
	cr_assert_eq(elfsym__find(s, "android.animation.ValueAnimator.cancel", &h), -ENOENT);
	cr_assert_eq(elfsym__find(s, "android.animation.ValueAnimator.end", &h), -ENOENT);
	cr_assert_eq(elfsym__find(s, "android.os.Trace.traceBegin", &h), 0);
	cr_assert_eq(h.vaddr, 0xd3f30);
	elfsym__free(s);
}

Test(elfsym, android12l_framework_oat_overloads_are_all_listed_in_vaddr_order)
{
	struct elfsym *s = open_ok(FRAMEWORK_OAT);
	struct elfsym_hit h[4];

	cr_assert_eq(elfsym__find_all(s, "android.app.ActivityThread.sendMessage", h, 4), 2);
	cr_assert_eq(h[0].vaddr, 0xa16a0);
	cr_assert_eq(h[0].size, 208);
	cr_assert_eq(h[1].vaddr, 0xa1e60);
	cr_assert_eq(h[1].size, 164);
	/* More than fit: the total is still returned. */
	cr_assert_eq(elfsym__find_all(s, "art_jni_trampoline", h, 4), 806);
	cr_assert_eq(h[0].table, ELFSYM_DEBUGDATA);
	cr_assert_lt(h[0].vaddr, h[1].vaddr);
	elfsym__free(s);
}

Test(elfsym, android12l_framework_oat_bss_symbols_have_no_file_offset)
{
	struct elfsym *s = open_ok(FRAMEWORK_OAT);
	struct elfsym_hit h;

	cr_assert_eq(elfsym__find(s, "oatexec", &h), 0);
	cr_assert_eq(h.table, ELFSYM_DYNSYM);
	cr_assert_eq(h.type, STT_OBJECT);
	cr_assert_eq(h.offset, 0x4c000);
	/* oatbss is in a PT_LOAD with filesz 0 and p_offset 0: that must not map to 0. */
	cr_assert_eq(elfsym__find(s, "oatbss", &h), 0);
	cr_assert_eq(h.vaddr, 0xf5000);
	cr_assert_eq(h.offset, ELFSYM_NO_OFFSET);
	elfsym__free(s);
}

Test(elfsym, android9_libcutils_dynsym_has_atrace_async_begin_body)
{
	struct elfsym *s = open_ok(CUTILS9);
	struct elfsym_hit h;

	cr_assert_eq(elfsym__find(s, "atrace_async_begin_body", &h), 0);
	cr_assert_eq(h.table, ELFSYM_DYNSYM);
	cr_assert_eq(h.vaddr, 0xced0);
	cr_assert_eq(h.size, 288);
	cr_assert_eq(h.offset, 0xced0);
	cr_assert_eq(elfsym__count(s, ELFSYM_DYNSYM), 148);
	cr_assert_eq(elfsym__count(s, ELFSYM_DEBUGDATA), 72);
	elfsym__free(s);
}

Test(elfsym, missing_files_and_non_elf_files_fail_with_errno)
{
	static const char junk[] = "not an ELF file at all";

	errno = 0;
	cr_assert_null(elfsym__open(ANDROID_DIR "no-such-file.so"));
	cr_assert_eq(errno, ENOENT);
	errno = 0;
	cr_assert_null(elfsym__open(TESTDATA "/PROVENANCE.md"));
	cr_assert_eq(errno, EINVAL);
	errno = 0;
	cr_assert_null(elfsym__open(ANDROID_DIR));
	cr_assert_eq(errno, EINVAL);
	errno = 0;
	cr_assert_null(elfsym__open_mem(junk, sizeof(junk)));
	cr_assert_eq(errno, EINVAL);
	errno = 0;
	cr_assert_null(elfsym__open_mem(junk, 0));
	cr_assert_eq(errno, EINVAL);
	elfsym__free(NULL);
}

/* ---- a library built here and stripped the way Android strips (RECIPES.md) ---------- */

static const char fixture_src[] =
	"struct node { char pad[500]; float alpha; float tx; };\n"
	"static float get_alpha(long p)\n"
	"	__asm__(\"_ZN7androidL32android_view_RenderNode_getAlphaEl\");\n"
	"static float get_alpha(long p) { return ((struct node *)p)->alpha; }\n"
	"static float get_tx(long p)\n"
	"	__asm__(\"_ZN7androidL39android_view_RenderNode_getTranslationXEl\"\n"
	"		\".llvm.1234567\");\n"
	"static float get_tx(long p) { return ((struct node *)p)->tx; }\n"
	"float (*const fixture_getters[])(long) = { get_alpha, get_tx };\n"
	"int fixture_exported(int x) { return x + 1; }\n";

static const char fixture_sh[] =
	"set -e; cd '%s'; cc -O2 -fPIC -shared -g0 -o lib.so lib.c\n"
	"nm -D --format=posix --defined-only lib.so | awk '{print $1}' | sort > dynsyms\n"
	"nm --format=posix --defined-only lib.so | awk '$2 ~ /[Tt]/ {print $1}' | sort > funcsyms\n"
	"comm -13 dynsyms funcsyms > keep\n"
	"objcopy --only-keep-debug lib.so dbg\n"
	"objcopy -S --remove-section .gdb_index --remove-section .comment \\\n"
	"	--keep-symbols=keep dbg mini\n"
	"xz mini\n"
	"objcopy --strip-all lib.so stripped.so\n"
	"objcopy --add-section .gnu_debugdata=mini.xz stripped.so out.so\n";

/* Builds lib.so (plain) and out.so (symbols only in .gnu_debugdata) in a fresh dir. */
static void build_fixture(char *dir)
{
	char path[256], cmd[2048];
	FILE *f;

	strcpy(dir, "/tmp/animtrace-elfsym-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/lib.c", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(fixture_src, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), fixture_sh, dir);
	cr_assert_eq(system(cmd), 0, "building the fixture in %s failed", dir);
}

static void remove_fixture(const char *dir)
{
	temp_tree_remove(dir);
}

static struct elfsym *open_in(const char *dir, const char *file)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return open_ok(path);
}

Test(elfsym, built_library_finds_statics_in_symtab_and_exports_once_from_dynsym)
{
	struct elfsym_hit h[2];
	struct elfsym *s;
	char dir[64];

	build_fixture(dir);
	s = open_in(dir, "lib.so");
	cr_assert_eq(elfsym__debugdata_err(s), 0);
	cr_assert_eq(elfsym__count(s, ELFSYM_DEBUGDATA), 0);
	cr_assert_eq(elfsym__find(s, "_ZN7androidL32android_view_RenderNode_getAlphaEl", h), 0);
	cr_assert_eq(h[0].table, ELFSYM_SYMTAB);
	/* In both .dynsym and .symtab at one address: reported once, from .dynsym. */
	cr_assert_eq(elfsym__find_all(s, "fixture_exported", h, 2), 1);
	cr_assert_eq(h[0].table, ELFSYM_DYNSYM);
	cr_assert_eq(h[0].type, STT_FUNC);
	elfsym__free(s);
	remove_fixture(dir);
}

Test(elfsym, built_library_stripped_to_minidebuginfo_keeps_addresses_and_getter_code)
{
	static const char alpha[] = "_ZN7androidL32android_view_RenderNode_getAlphaEl";
	static const char tx[] = "_ZN7androidL39android_view_RenderNode_getTranslationXEl";
	static const char tx_lto[] =
		"_ZN7androidL39android_view_RenderNode_getTranslationXEl.llvm.1234567";
	static const char tx_other[] =
		"_ZN7androidL39android_view_RenderNode_getTranslationXEl.llvm.9";
	struct elfsym *plain, *mini;
	struct elfsym_hit hp, hm;
	uint8_t code[32];
	uint32_t off = 0;
	char dir[64];

	build_fixture(dir);
	plain = open_in(dir, "lib.so");
	mini = open_in(dir, "out.so");
	cr_assert_eq(elfsym__debugdata_err(mini), 0);
	cr_assert_eq(elfsym__count(mini, ELFSYM_SYMTAB), 0);
	/* The toolchain's own statics (frame_dummy, ...) vary; ours must be there. */
	cr_assert_geq(elfsym__count(mini, ELFSYM_DEBUGDATA), 2);
	cr_assert_eq(elfsym__find(plain, alpha, &hp), 0);
	cr_assert_eq(elfsym__find(mini, alpha, &hm), 0);
	cr_assert_eq(hm.table, ELFSYM_DEBUGDATA);
	cr_assert_eq(hm.vaddr, hp.vaddr);
	cr_assert_eq(hm.offset, hp.offset);
	cr_assert_leq(hm.size, sizeof(code));
	cr_assert_eq(elfsym__read(mini, hm.vaddr, code, hm.size), 0);
	cr_assert_eq(insn_getter_offset(elfsym__machine(mini), code, hm.size, &off), 0);
	cr_assert_eq(off, 500);
	/* ThinLTO suffix: found by its plain name, reported with its full one. */
	cr_assert_eq(elfsym__find(mini, tx, &hm), 0);
	cr_assert_str_eq(hm.name, tx_lto);
	cr_assert_eq(elfsym__find(mini, tx_other, &hm), 0);
	cr_assert_str_eq(hm.name, tx_lto);
	cr_assert_eq(elfsym__find_all(mini, tx, &hm, 1), 1);
	cr_assert_eq(elfsym__read(mini, hm.vaddr, code, hm.size), 0);
	cr_assert_eq(insn_getter_offset(elfsym__machine(mini), code, hm.size, &off), 0);
	cr_assert_eq(off, 504);
	elfsym__free(plain);
	elfsym__free(mini);
	remove_fixture(dir);
}

/* ---- hostile input ------------------------------------------------------------------ */

static uint32_t xorshift32(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

/* Whatever opened must answer every query without reading out of bounds. */
static void poke(const void *buf, size_t len)
{
	struct elfsym *s = elfsym__open_mem(buf, len);
	struct elfsym_hit h[4];
	const char *name;
	uint64_t off;
	uint8_t code[16];

	if (!s)
		return;
	elfsym__find(s, "_ZN7androidL32android_view_RenderNode_getAlphaEl", h);
	elfsym__find(s, "atrace_async_begin_body", h);
	elfsym__find_all(s, "android.animation.ValueAnimator.getDurationScale", h, 4);
	if (elfsym__find_all(s, "art_jni_trampoline", h, 4) > 0)
		elfsym__read(s, h[0].vaddr, code, sizeof(code));
	elfsym__vaddr_to_offset(s, 0x103c94, &off);
	elfsym__read(s, 0x103c94, code, sizeof(code));
	elfsym__find_addr(s, 0x102eb4, h);
	if (elfsym__got_symbol(s, 0x269f30, &name) == 0)
		(void)strlen(name);
	if (elfsym__got_symbol(s, 0x268f08, &name) == 0)
		(void)strlen(name);
	elfsym__free(s);
}

static void fuzz_file(const char *path, uint32_t seed)
{
	size_t len, i;
	uint8_t *orig = slurp(path, &len), *buf = malloc(len);

	cr_assert_not_null(buf);
	for (i = 0; i < 50; i++) {
		size_t cut = i < 10 ? i * 7 : (len / 41) * (i - 9) - i;

		memcpy(buf, orig, len);
		poke(buf, cut < len ? cut : len - 1);
	}
	for (i = 0; i < 200; i++) {
		uint32_t r = xorshift32(&seed);
		/* A third each in the whole file, the ELF/program headers, the section headers. */
		size_t zone = i % 3 == 0 ? len : (i % 3 == 1 ? 1024 : 4096);
		size_t pos = (i % 3 == 2 ? len - zone : 0) + r % zone;

		memcpy(buf, orig, len);
		buf[pos] ^= (uint8_t)((r >> 24) | 1);
		poke(buf, len);
	}
	free(buf);
	free(orig);
}

Test(elfsym, truncated_and_bit_flipped_android9_runtime_never_crashes)
{
	fuzz_file(RUNTIME9, 0x1234567u);
}

Test(elfsym, truncated_and_bit_flipped_framework_oat_never_crashes)
{
	fuzz_file(FRAMEWORK_OAT, 0x89abcdefu);
}

Test(elfsym, truncated_and_bit_flipped_libcutils_never_crashes)
{
	fuzz_file(CUTILS9, 0x2468aceu);
}

Test(elfsym, bit_flips_in_the_android9_packed_relocations_never_crash)
{
	size_t len, i;
	uint8_t *orig = slurp(RUNTIME9, &len), *buf = malloc(len);
	uint32_t seed = 0x5eed;

	cr_assert_not_null(buf);
	for (i = 0; i < 60; i++) {
		uint32_t r = xorshift32(&seed);

		memcpy(buf, orig, len);
		/* .rela.dyn: APS2 at file offset 0x4c408, 0xc658 bytes; the first ones most */
		buf[0x4c408 + 4 + r % (i < 30 ? 64 : 0xc650)] ^= (uint8_t)((r >> 24) | 1);
		poke(buf, len);
	}
	free(buf);
	free(orig);
}

Test(elfsym, files_cut_inside_the_elf_header_are_rejected)
{
	size_t len, cut;
	uint8_t *buf = slurp(CUTILS9, &len);

	for (cut = 1; cut < sizeof(Elf64_Ehdr); cut++) {
		errno = 0;
		cr_assert_null(elfsym__open_mem(buf, cut), "cut at %zu", cut);
		cr_assert_eq(errno, EINVAL);
	}
	free(buf);
}

Test(elfsym, corrupt_minidebuginfo_is_reported_and_the_dynsym_still_works)
{
	/* .gnu_debugdata of this file: offset 0x20088, size 0x710 (readelf -SW). */
	size_t len;
	uint8_t *buf = slurp(CUTILS9, &len);
	struct elfsym *s;
	struct elfsym_hit h;

	buf[0x20088 + 0x300] ^= 0x55;
	s = elfsym__open_mem(buf, len);
	cr_assert_not_null(s);
	cr_assert_eq(elfsym__debugdata_err(s), -EBADMSG);
	cr_assert_eq(elfsym__count(s, ELFSYM_DEBUGDATA), 0);
	cr_assert_eq(elfsym__count(s, ELFSYM_DYNSYM), 148);
	cr_assert_eq(elfsym__find(s, "atrace_async_begin_body", &h), 0);
	cr_assert_eq(h.vaddr, 0xced0);
	elfsym__free(s);
	free(buf);
}

Test(elfsym, section_headers_past_the_end_leave_no_symbols)
{
	size_t len;
	uint8_t *buf = slurp(CUTILS9, &len);
	Elf64_Ehdr eh;
	struct elfsym *s;

	memcpy(&eh, buf, sizeof(eh));
	eh.e_shoff = 0xffffffff00ull;
	memcpy(buf, &eh, sizeof(eh));
	s = elfsym__open_mem(buf, len);
	cr_assert_not_null(s);
	cr_assert_eq(elfsym__count(s, ELFSYM_DYNSYM), 0);
	cr_assert_eq(elfsym__count(s, ELFSYM_DEBUGDATA), 0);
	elfsym__free(s);
	free(buf);
}

Test(elfsym, a_pt_load_pointing_past_the_end_maps_nothing)
{
	size_t len, i;
	uint8_t *buf = slurp(CUTILS9, &len);
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	struct elfsym *s;
	struct elfsym_hit h;
	uint8_t code[4];

	memcpy(&eh, buf, sizeof(eh));
	for (i = 0; i < eh.e_phnum; i++) {
		memcpy(&ph, buf + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type == PT_LOAD && ph.p_flags & PF_X)
			break;
	}
	cr_assert_lt(i, eh.e_phnum);
	ph.p_offset = 0x7ffffffffffff000ull;
	memcpy(buf + eh.e_phoff + i * sizeof(ph), &ph, sizeof(ph));
	s = elfsym__open_mem(buf, len);
	cr_assert_not_null(s);
	cr_assert_eq(elfsym__find(s, "atrace_async_begin_body", &h), 0);
	cr_assert_eq(h.offset, ELFSYM_NO_OFFSET);
	cr_assert_eq(elfsym__read(s, 0xced0, code, sizeof(code)), -ENOENT);
	elfsym__free(s);
	free(buf);
}

/* ---- call targets: symbols by address, GOT slots, packed relocations ------------------- */

Test(elfsym, android9_runtime_names_the_function_at_an_address_from_minidebuginfo)
{
	struct elfsym *s = open_ok(RUNTIME9);
	struct elfsym_hit h;

	cr_assert_eq(elfsym__find_addr(s, 0x102eb4, &h), 0);
	cr_assert_str_eq(
		h.name,
		"_ZN7androidL30android_view_RenderNode_createEP7_JNIEnvP8_jobjectP8_jstring");
	cr_assert_eq(h.table, ELFSYM_DEBUGDATA);
	cr_assert_eq(elfsym__find_addr(s, 0x102eb8, &h), -ENOENT); /* inside it */
	cr_assert_eq(elfsym__find_addr(s, 0xa4d18, &h), -ENOENT);  /* a PLT stub */
	elfsym__free(s);
}

static void assert_got(const struct elfsym *s, uint64_t slot, const char *want)
{
	const char *name = NULL;

	cr_assert_eq(elfsym__got_symbol(s, slot, &name), 0, "slot %#lx", (unsigned long)slot);
	cr_assert_str_eq(name, want);
}

Test(elfsym, android9_runtime_got_slots_name_their_imports_from_rela_plt_and_packed_rela_dyn)
{
	/* create's bl targets 0xa4d18 (String8::setTo@plt) and 0xa2f48 (_Znwm@plt) jump through
	 * 0x269f30 and 0x269048 (adrp/ldr/add/br, decoded by hand): JUMP_SLOTs of the plain
	 * .rela.plt. .rela.dyn is typed SHT_RELA but holds APS2; readelf --dyn-syms: index 5 is
	 * android_set_abort_message, whose GLOB_DAT the packed table puts at 0x268f08. */
	struct elfsym *s = open_ok(RUNTIME9);
	const char *name = NULL;

	assert_got(s, 0x269f30, "_ZN7android7String85setToEPKc");
	assert_got(s, 0x269048, "_Znwm");
	assert_got(s, 0x268f08, "android_set_abort_message");
	cr_assert_eq(elfsym__got_symbol(s, 0x269f34, &name), -ENOENT);
	cr_assert_eq(elfsym__got_symbol(s, 0, &name), -ENOENT);
	elfsym__free(s);
}

struct rel_stats {
	size_t n, relative, glob_dat, abs64;
	uint64_t lo, hi;
	int stop_after;
	struct elfsym_rel last;
};

static int count_rel(void *ctx, const struct elfsym_rel *r)
{
	struct rel_stats *st = ctx;
	uint32_t type = ELF64_R_TYPE(r->info);

	st->n++;
	st->relative += type == R_AARCH64_RELATIVE;
	st->glob_dat += type == R_AARCH64_GLOB_DAT;
	st->abs64 += type == R_AARCH64_ABS64;
	if (!st->lo || r->offset < st->lo)
		st->lo = r->offset;
	if (r->offset > st->hi)
		st->hi = r->offset;
	st->last = *r;
	return st->stop_after && (int)st->n == st->stop_after ? 7 : 0;
}

Test(elfsym, android9_rela_dyn_unpacks_to_dt_relacount_relative_relocations_in_the_rw_load)
{
	size_t len;
	uint8_t *buf = slurp(RUNTIME9, &len);
	struct rel_stats st = { 0 };

	/* readelf -SW: .rela.dyn at 0x4c408, 0xc658 bytes; -d: RELACOUNT 9582; -lW: the RW
	 * PT_LOAD spans 0x251e60..0x274f38. */
	cr_assert_eq(elfsym_aps2_decode(buf + 0x4c408, 0xc658, true, count_rel, &st), 0);
	cr_assert_eq(st.n, 11161);
	cr_assert_eq(st.relative, 9582);
	cr_assert_eq(st.glob_dat, 324);
	cr_assert_eq(st.abs64, 1255);
	cr_assert_geq(st.lo, 0x251e60);
	cr_assert_lt(st.hi, 0x274f38);
	st = (struct rel_stats){ .stop_after = 3 };
	cr_assert_eq(elfsym_aps2_decode(buf + 0x4c408, 0xc658, true, count_rel, &st), 7);
	cr_assert_eq(st.n, 3);
	/* The stream ends at 0xbf23; relocation_packer zero-padded the section after it. */
	cr_assert_eq(elfsym_aps2_decode(buf + 0x4c408, 0xbf23, true, count_rel, &st), 0);
	for (size_t cut = 0; cut < 0xbf23; cut += 0xbf23 / 97) {
		st = (struct rel_stats){ 0 };
		cr_assert_eq(elfsym_aps2_decode(buf + 0x4c408, cut, true, count_rel, &st), -EBADMSG,
			     "cut at %zu", cut);
	}
	cr_assert_eq(elfsym_aps2_decode(buf + 0x4c408, 0xbf22, true, count_rel, &st), -EBADMSG);
	free(buf);
}

Test(elfsym, aps2_groups_by_info_offset_delta_and_addend_decode_like_bionic)
{
	/* 5 relocations from 0x1000: a group of 3 sharing info 0x403 and delta 8 with addends
	 * +16 each, then 2 with their own deltas, infos and no addend. */
	static const uint8_t t[] = {
		'A',  'P',  'S', '2',  5,    0x80, 0x20, /* count 5, offset 0x1000 */
		3,    0x0b, 8,	 0x83, 0x08, /* size 3, info|delta|has addend, info 0x403 */
		16,   16,   16,		     /* addends */
		2,    0,    4,	 0x81, 0x08, 0x7c, 0x82,
		0x08, /* deltas 4 and -4, infos 0x401, 0x402 */
	};
	struct rel_stats st = { 0 };

	cr_assert_eq(elfsym_aps2_decode(t, sizeof(t), true, count_rel, &st), 0);
	cr_assert_eq(st.n, 5);
	cr_assert_eq(st.lo, 0x1008);
	cr_assert_eq(st.hi, 0x101c);
	cr_assert_eq(st.last.offset, 0x1018);
	cr_assert_eq(st.last.info, 0x402);
	cr_assert_eq(st.last.addend, 0);
	st = (struct rel_stats){ .stop_after = 3 };
	cr_assert_eq(elfsym_aps2_decode(t, sizeof(t), true, count_rel, &st), 7);
	cr_assert_eq(st.last.offset, 0x1018);
	cr_assert_eq(st.last.addend, 48);
	cr_assert_eq(elfsym_aps2_decode(t, sizeof(t), false, count_rel, &st), -EBADMSG,
		     "an addend in a REL table");
}

Test(elfsym, aps2_rejects_bad_magic_truncation_empty_or_oversized_groups_and_huge_counts)
{
	static const uint8_t magic[] = { 'A', 'P', 'S', '1', 0, 0 };
	static const uint8_t empty_group[] = { 'A', 'P', 'S', '2', 1, 0, 0, 0 };
	static const uint8_t big_group[] = { 'A', 'P', 'S', '2', 2, 0, 3, 3, 8, 1 };
	static const uint8_t huge[] = { 'A', 'P', 'S', '2', 0x80, 0x80, 0x80, 0x10, 0, 1, 3, 8, 1 };
	static const uint8_t long_num[] = { 'A',  'P',	'S',  '2',  0xff, 0xff, 0xff, 0xff,
					    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0 };
	static const uint8_t none[] = { 'A', 'P', 'S', '2', 0, 0 };
	struct rel_stats st = { 0 };

	cr_assert_eq(elfsym_aps2_decode(magic, sizeof(magic), true, count_rel, &st), -EBADMSG);
	cr_assert_eq(elfsym_aps2_decode(empty_group, sizeof(empty_group), true, count_rel, &st),
		     -EBADMSG);
	cr_assert_eq(elfsym_aps2_decode(big_group, sizeof(big_group), true, count_rel, &st),
		     -EBADMSG);
	cr_assert_eq(elfsym_aps2_decode(huge, sizeof(huge), true, count_rel, &st), -EBADMSG);
	cr_assert_eq(elfsym_aps2_decode(long_num, sizeof(long_num), true, count_rel, &st),
		     -EBADMSG);
	cr_assert_eq(elfsym_aps2_decode(none, 3, true, count_rel, &st), -EBADMSG);
	cr_assert_eq(elfsym_aps2_decode(NULL, 0, true, count_rel, &st), -EBADMSG);
	cr_assert_eq(st.n, 0);
	cr_assert_eq(elfsym_aps2_decode(none, sizeof(none), true, count_rel, &st), 0);
	cr_assert_eq(st.n, 0);
}
