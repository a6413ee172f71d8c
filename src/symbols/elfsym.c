// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ELF symbol index: one sorted array of every defined, named symbol of .dynsym, .symtab
 * and the .symtab inside .gnu_debugdata. Names point into libelf's data, so both Elf
 * handles and their images live as long as the index.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <lzma.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/elfsym.h"

/* liblzma's decoder memory for MiniDebugInfo's small dictionaries, with a wide margin. */
#define XZ_MEMLIMIT (128u << 20)

struct elfsym_entry {
	const char *name;
	size_t base_len; /* length without a ".llvm.<digits>" suffix */
	uint64_t vaddr;
	uint64_t size;
	uint8_t table;
	uint8_t type;
};

struct elfsym_load {
	uint64_t vaddr;
	uint64_t offset;
	uint64_t filesz;
};

struct elfsym {
	uint8_t *image;
	size_t len;
	bool mapped;
	Elf *elf;
	uint8_t *dbg_image;
	Elf *dbg_elf;
	int dbg_err;
	uint16_t machine;
	struct elfsym_load *loads;
	size_t nr_loads;
	struct elfsym_entry *syms;
	size_t nr_syms;
	size_t cap_syms;
	size_t count[ELFSYM_NR_TABLES];
};

/* Length of @name without a trailing ".llvm.<digits>" (ThinLTO promotes statics so). */
static size_t base_len(const char *name)
{
	static const char sfx[] = ".llvm.";
	const size_t k = sizeof(sfx) - 1;
	size_t n = strlen(name), i = n;

	while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
		i--;
	if (i == n || i <= k || memcmp(name + i - k, sfx, k) != 0)
		return n;
	return i - k;
}

static int cmp_base(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c)
		return c;
	return (alen > blen) - (alen < blen);
}

static int cmp_entry(const void *pa, const void *pb)
{
	const struct elfsym_entry *a = pa, *b = pb;
	int c = cmp_base(a->name, a->base_len, b->name, b->base_len);

	if (c)
		return c;
	c = strcmp(a->name, b->name);
	if (c)
		return c;
	if (a->vaddr != b->vaddr)
		return a->vaddr < b->vaddr ? -1 : 1;
	return (int)a->table - (int)b->table;
}

static int add_entry(struct elfsym *s, const char *name, const GElf_Sym *sym, int table)
{
	struct elfsym_entry *e;

	if (s->nr_syms == s->cap_syms) {
		size_t cap = s->cap_syms ? s->cap_syms * 2 : 256;

		e = realloc(s->syms, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		s->syms = e;
		s->cap_syms = cap;
	}
	e = &s->syms[s->nr_syms++];
	e->name = name;
	e->base_len = base_len(name);
	e->vaddr = sym->st_value;
	e->size = sym->st_size;
	e->table = table;
	e->type = GELF_ST_TYPE(sym->st_info);
	return 0;
}

/* Imports, section/file/TLS symbols and mapping symbols ($x, $d) cannot be probed. */
static bool sym_wanted(const GElf_Sym *sym, const char *name)
{
	int type = GELF_ST_TYPE(sym->st_info);

	if (!name || !name[0] || name[0] == '$' || sym->st_shndx == SHN_UNDEF)
		return false;
	return type != STT_SECTION && type != STT_FILE && type != STT_TLS;
}

static int index_table(struct elfsym *s, Elf *elf, Elf_Scn *scn, const GElf_Shdr *shdr, int table)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t entsz = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	size_t i, n;

	if (!data || !data->d_buf || !entsz)
		return 0;
	n = data->d_size / entsz;
	for (i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		int err;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		name = elf_strptr(elf, shdr->sh_link, sym.st_name);
		if (!sym_wanted(&sym, name))
			continue;
		err = add_entry(s, name, &sym, table);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Indexes the first SHT_DYNSYM (as @dyn_table) and first SHT_SYMTAB (as @sym_table) of
 * @elf; an ELF file has at most one of each, and ignoring repeats bounds hostile input.
 * A table < 0 is skipped.
 */
static int index_elf(struct elfsym *s, Elf *elf, int dyn_table, int sym_table)
{
	bool seen_dyn = dyn_table < 0, seen_sym = sym_table < 0;
	Elf_Scn *scn = NULL;
	int err = 0;

	while (!err && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr shdr;

		if (!gelf_getshdr(scn, &shdr))
			continue;
		if (shdr.sh_type == SHT_DYNSYM && !seen_dyn) {
			seen_dyn = true;
			err = index_table(s, elf, scn, &shdr, dyn_table);
		} else if (shdr.sh_type == SHT_SYMTAB && !seen_sym) {
			seen_sym = true;
			err = index_table(s, elf, scn, &shdr, sym_table);
		}
	}
	return err;
}

/* PT_LOADs whose file bytes lie inside the image; others cannot back a probe or a read. */
static int load_phdrs(struct elfsym *s)
{
	size_t i, n;

	if (elf_getphdrnum(s->elf, &n) != 0 || n == 0)
		return 0;
	s->loads = calloc(n, sizeof(*s->loads));
	if (!s->loads)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(s->elf, (int)i, &ph) || ph.p_type != PT_LOAD || !ph.p_filesz)
			continue;
		if (ph.p_offset > s->len || ph.p_filesz > s->len - ph.p_offset)
			continue;
		s->loads[s->nr_loads++] = (struct elfsym_load){
			.vaddr = ph.p_vaddr,
			.offset = ph.p_offset,
			.filesz = ph.p_filesz,
		};
	}
	return 0;
}

static int lzma_to_errno(lzma_ret ret)
{
	switch (ret) {
	case LZMA_MEM_ERROR:
		return -ENOMEM;
	case LZMA_MEMLIMIT_ERROR:
		return -EFBIG;
	default:
		return -EBADMSG;
	}
}

/* Inflates a whole .xz stream into a malloc'd buffer of at most ELFSYM_DEBUGDATA_MAX. */
static int xz_inflate(const uint8_t *in, size_t in_len, uint8_t **out, size_t *out_len)
{
	lzma_stream strm = LZMA_STREAM_INIT;
	size_t cap = in_len < 4096 ? 16384 : in_len * 4;
	uint8_t *buf = NULL, *grown;
	lzma_ret ret;
	int err = 0;

	if (cap > ELFSYM_DEBUGDATA_MAX)
		cap = ELFSYM_DEBUGDATA_MAX;
	ret = lzma_stream_decoder(&strm, XZ_MEMLIMIT, 0);
	if (ret != LZMA_OK)
		return lzma_to_errno(ret);
	buf = malloc(cap);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	strm.next_in = in;
	strm.avail_in = in_len;
	strm.next_out = buf;
	strm.avail_out = cap;
	while ((ret = lzma_code(&strm, LZMA_FINISH)) == LZMA_OK) {
		if (strm.avail_out)
			continue;
		if (cap >= ELFSYM_DEBUGDATA_MAX) {
			err = -EFBIG;
			goto out;
		}
		cap = cap * 2 > ELFSYM_DEBUGDATA_MAX ? ELFSYM_DEBUGDATA_MAX : cap * 2;
		grown = realloc(buf, cap);
		if (!grown) {
			err = -ENOMEM;
			goto out;
		}
		buf = grown;
		strm.next_out = buf + strm.total_out;
		strm.avail_out = cap - strm.total_out;
	}
	if (ret != LZMA_STREAM_END)
		err = lzma_to_errno(ret);
out:
	lzma_end(&strm);
	if (err) {
		free(buf);
		return err;
	}
	*out = buf;
	*out_len = strm.total_out;
	return 0;
}

static Elf_Scn *find_section(Elf *elf, const char *want, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *name;

		if (!gelf_getshdr(scn, shdr))
			continue;
		name = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (name && strcmp(name, want) == 0)
			return scn;
	}
	return NULL;
}

/* MiniDebugInfo: an xz-compressed ELF whose .symtab holds the static functions. */
static int load_debugdata(struct elfsym *s)
{
	GElf_Shdr shdr;
	size_t len;
	int err;

	if (!find_section(s->elf, ".gnu_debugdata", &shdr) || shdr.sh_type == SHT_NOBITS)
		return 0;
	if (shdr.sh_offset > s->len || shdr.sh_size > s->len - shdr.sh_offset)
		return -EBADMSG;
	err = xz_inflate(s->image + shdr.sh_offset, shdr.sh_size, &s->dbg_image, &len);
	if (err)
		return err;
	s->dbg_elf = elf_memory((char *)s->dbg_image, len);
	if (!s->dbg_elf || elf_kind(s->dbg_elf) != ELF_K_ELF)
		return -EBADMSG;
	return index_elf(s, s->dbg_elf, -1, ELFSYM_DEBUGDATA);
}

/* Sorts by name and drops a name+vaddr seen again in a later table. */
static void finish_index(struct elfsym *s)
{
	size_t i, n = 0;

	if (s->nr_syms)
		qsort(s->syms, s->nr_syms, sizeof(*s->syms), cmp_entry);
	for (i = 0; i < s->nr_syms; i++) {
		const struct elfsym_entry *e = &s->syms[i];

		if (n && s->syms[n - 1].vaddr == e->vaddr && !strcmp(s->syms[n - 1].name, e->name))
			continue;
		s->syms[n++] = *e;
		s->count[e->table]++;
	}
	s->nr_syms = n;
}

static void release_image(uint8_t *image, size_t len, bool mapped)
{
	if (mapped)
		munmap(image, len);
	else
		free(image);
}

/* Takes ownership of @image (mapped or malloc'd) whatever happens. */
static struct elfsym *open_image(uint8_t *image, size_t len, bool mapped)
{
	struct elfsym *s = calloc(1, sizeof(*s));
	size_t nr_main;
	GElf_Ehdr ehdr;
	int err;

	if (!s) {
		release_image(image, len, mapped);
		errno = ENOMEM;
		return NULL;
	}
	s->image = image;
	s->len = len;
	s->mapped = mapped;
	elf_version(EV_CURRENT);
	s->elf = elf_memory((char *)image, len);
	if (!s->elf || elf_kind(s->elf) != ELF_K_ELF || !gelf_getehdr(s->elf, &ehdr)) {
		err = -EINVAL;
		goto fail;
	}
	s->machine = ehdr.e_machine;
	err = load_phdrs(s);
	if (!err)
		err = index_elf(s, s->elf, ELFSYM_DYNSYM, ELFSYM_SYMTAB);
	if (err)
		goto fail;
	nr_main = s->nr_syms;
	s->dbg_err = load_debugdata(s);
	if (s->dbg_err)
		s->nr_syms = nr_main; /* keep the main tables, drop a partial debugdata index */
	finish_index(s);
	return s;
fail:
	elfsym__free(s);
	errno = -err;
	return NULL;
}

struct elfsym *elfsym__open(const char *path)
{
	struct stat st;
	void *image;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0) {
		err = errno;
		goto fail;
	}
	if (!S_ISREG(st.st_mode) || st.st_size <= 0 || (uint64_t)st.st_size > SIZE_MAX) {
		err = EINVAL;
		goto fail;
	}
	/* Private and writable: libelf may convert headers in place in its own image. */
	image = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (image == MAP_FAILED) {
		err = errno;
		goto fail;
	}
	close(fd);
	return open_image(image, st.st_size, true);
fail:
	close(fd);
	errno = err;
	return NULL;
}

struct elfsym *elfsym__open_mem(const void *buf, size_t len)
{
	uint8_t *image;

	if (!buf || !len) {
		errno = EINVAL;
		return NULL;
	}
	image = malloc(len);
	if (!image) {
		errno = ENOMEM;
		return NULL;
	}
	memcpy(image, buf, len);
	return open_image(image, len, false);
}

void elfsym__free(struct elfsym *s)
{
	if (!s)
		return;
	elf_end(s->dbg_elf);
	free(s->dbg_image);
	elf_end(s->elf);
	if (s->image)
		release_image(s->image, s->len, s->mapped);
	free(s->loads);
	free(s->syms);
	free(s);
}

uint16_t elfsym__machine(const struct elfsym *s)
{
	return s->machine;
}

int elfsym__debugdata_err(const struct elfsym *s)
{
	return s->dbg_err;
}

size_t elfsym__count(const struct elfsym *s, enum elfsym_table table)
{
	if ((unsigned int)table >= ELFSYM_NR_TABLES)
		return 0;
	return s->count[table];
}

int elfsym__vaddr_to_offset(const struct elfsym *s, uint64_t vaddr, uint64_t *off)
{
	size_t i;

	for (i = 0; i < s->nr_loads; i++) {
		const struct elfsym_load *l = &s->loads[i];

		if (vaddr >= l->vaddr && vaddr - l->vaddr < l->filesz) {
			*off = l->offset + (vaddr - l->vaddr);
			return 0;
		}
	}
	return -ENOENT;
}

int elfsym__read(const struct elfsym *s, uint64_t vaddr, void *buf, size_t len)
{
	size_t i;

	for (i = 0; i < s->nr_loads; i++) {
		const struct elfsym_load *l = &s->loads[i];
		uint64_t delta = vaddr - l->vaddr;

		if (vaddr < l->vaddr || delta >= l->filesz || len > l->filesz - delta)
			continue;
		memcpy(buf, s->image + l->offset + delta, len);
		return 0;
	}
	return -ENOENT;
}

static void fill_hit(const struct elfsym *s, const struct elfsym_entry *e, struct elfsym_hit *h)
{
	h->name = e->name;
	h->vaddr = e->vaddr;
	h->size = e->size;
	h->table = e->table;
	h->type = e->type;
	if (elfsym__vaddr_to_offset(s, e->vaddr, &h->offset) != 0)
		h->offset = ELFSYM_NO_OFFSET;
}

/* First entry whose base name equals @name's base name; sets *n to how many do. */
static const struct elfsym_entry *lookup(const struct elfsym *s, const char *name, size_t *n)
{
	size_t qlen = base_len(name), lo = 0, hi = s->nr_syms, end;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct elfsym_entry *e = &s->syms[mid];

		if (cmp_base(e->name, e->base_len, name, qlen) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < s->nr_syms; end++) {
		const struct elfsym_entry *e = &s->syms[end];

		if (cmp_base(e->name, e->base_len, name, qlen) != 0)
			break;
	}
	*n = end - lo;
	return *n ? &s->syms[lo] : NULL;
}

int elfsym__find(const struct elfsym *s, const char *name, struct elfsym_hit *out)
{
	const struct elfsym_entry *first;
	size_t i, n;

	first = lookup(s, name, &n);
	if (!first)
		return -ENOENT;
	for (i = 0; i < n; i++) {
		if (strcmp(first[i].name, name) == 0) {
			fill_hit(s, &first[i], out);
			return 0;
		}
	}
	fill_hit(s, first, out);
	return 0;
}

int elfsym__find_all(const struct elfsym *s, const char *name, struct elfsym_hit *out, int max)
{
	const struct elfsym_entry *first;
	size_t i, n;

	first = lookup(s, name, &n);
	for (i = 0; first && i < n && (int)i < max; i++)
		fill_hit(s, &first[i], &out[i]);
	return n > INT32_MAX ? INT32_MAX : (int)n;
}

int elfsym__find_addr(const struct elfsym *s, uint64_t vaddr, struct elfsym_hit *out)
{
	for (size_t i = 0; i < s->nr_syms; i++) {
		const struct elfsym_entry *e = &s->syms[i];

		if (e->vaddr == vaddr && (e->type == STT_FUNC || e->type == STT_GNU_IFUNC)) {
			fill_hit(s, e, out);
			return 0;
		}
	}
	return -ENOENT;
}

/* ---- relocations ------------------------------------------------------------------------ */

#define SHT_ANDROID_REL 0x60000001u
#define SHT_ANDROID_RELA 0x60000002u
/* RELOCATION_* group flags of linker_reloc_iterators.h */
#define APS2_BY_INFO 1u
#define APS2_BY_OFFSET_DELTA 2u
#define APS2_BY_ADDEND 4u
#define APS2_HAS_ADDEND 8u

struct sleb {
	const uint8_t *p, *end;
	bool bad;
};

static uint64_t sleb_next(struct sleb *d)
{
	uint64_t v = 0;
	unsigned int shift = 0;
	uint8_t b;

	do {
		if (d->p >= d->end || shift >= 64) {
			d->bad = true;
			return 0;
		}
		b = *d->p++;
		v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (shift < 64 && (b & 0x40))
		v |= ~0ull << shift;
	return v;
}

struct aps2_group {
	uint64_t size, flags, delta;
};

/* A group header; updates @r's info and addend as the group fixes them. */
static int aps2_group(struct sleb *d, bool rela, uint64_t left, struct aps2_group *g,
		      struct elfsym_rel *r)
{
	uint64_t addend_flags;

	g->size = sleb_next(d);
	g->flags = sleb_next(d);
	g->delta = g->flags & APS2_BY_OFFSET_DELTA ? sleb_next(d) : 0;
	if (g->flags & APS2_BY_INFO)
		r->info = sleb_next(d);
	addend_flags = g->flags & (APS2_HAS_ADDEND | APS2_BY_ADDEND);
	if ((g->flags & APS2_HAS_ADDEND) && !rela)
		return -EBADMSG;
	if (addend_flags == (APS2_HAS_ADDEND | APS2_BY_ADDEND))
		r->addend += (int64_t)sleb_next(d);
	else if (addend_flags != APS2_HAS_ADDEND)
		r->addend = 0;
	if (d->bad || g->size == 0 || g->size > left)
		return -EBADMSG;
	return 0;
}

int elfsym_aps2_decode(const uint8_t *buf, size_t len, bool rela,
		       int (*fn)(void *ctx, const struct elfsym_rel *rel), void *ctx)
{
	struct sleb d = { buf + 4, buf + len, false };
	struct elfsym_rel r = { 0 };
	uint64_t count, done = 0;

	if (!buf || len < 4 || memcmp(buf, "APS2", 4) != 0)
		return -EBADMSG;
	count = sleb_next(&d);
	r.offset = sleb_next(&d);
	if (d.bad || count > ELFSYM_APS2_MAX)
		return -EBADMSG;
	while (done < count) {
		struct aps2_group g;
		int ret = aps2_group(&d, rela, count - done, &g, &r);

		for (uint64_t i = 0; !ret && i < g.size; i++) {
			r.offset += g.flags & APS2_BY_OFFSET_DELTA ? g.delta : sleb_next(&d);
			if (!(g.flags & APS2_BY_INFO))
				r.info = sleb_next(&d);
			if ((g.flags & (APS2_HAS_ADDEND | APS2_BY_ADDEND)) == APS2_HAS_ADDEND)
				r.addend += (int64_t)sleb_next(&d);
			ret = d.bad ? -EBADMSG : fn(ctx, &r);
		}
		if (ret)
			return ret;
		done += g.size;
	}
	return 0;
}

struct got_query {
	uint64_t slot;
	bool elf64;
	uint32_t jump_slot, glob_dat;
	uint64_t info; /* of the match */
	bool found;
};

static int got_match(void *ctx, const struct elfsym_rel *r)
{
	struct got_query *q = ctx;
	uint32_t type = q->elf64 ? ELF64_R_TYPE(r->info) : ELF32_R_TYPE(r->info);
	uint32_t sym = q->elf64 ? ELF64_R_SYM(r->info) : ELF32_R_SYM(r->info);

	if (r->offset != q->slot || (type != q->jump_slot && type != q->glob_dat) || !sym)
		return 0;
	q->info = r->info;
	q->found = true;
	return 1;
}

/* One REL/RELA section, plain or APS2; 1 when @q matched, 0 when not, or -EBADMSG. */
static int scan_reloc_section(const struct elfsym *s, Elf_Scn *scn, const GElf_Shdr *sh,
			      struct got_query *q)
{
	bool rela = sh->sh_type == SHT_RELA || sh->sh_type == SHT_ANDROID_RELA;
	Elf_Data *data;

	if (sh->sh_type != SHT_RELA && sh->sh_type != SHT_REL && sh->sh_type != SHT_ANDROID_RELA &&
	    sh->sh_type != SHT_ANDROID_REL)
		return 0;
	if (sh->sh_offset > s->len || sh->sh_size > s->len - sh->sh_offset)
		return 0;
	if (sh->sh_size >= 4 && !memcmp(s->image + sh->sh_offset, "APS2", 4))
		return elfsym_aps2_decode(s->image + sh->sh_offset, sh->sh_size, rela, got_match,
					  q);
	if (sh->sh_type != SHT_RELA && sh->sh_type != SHT_REL)
		return 0;
	data = elf_getdata(scn, NULL);
	for (int i = 0; data; i++) {
		struct elfsym_rel r = { 0 };
		GElf_Rela ra;
		GElf_Rel rl;

		if (rela ? !gelf_getrela(data, i, &ra) : !gelf_getrel(data, i, &rl))
			break;
		r.offset = rela ? ra.r_offset : rl.r_offset;
		r.info = rela ? ra.r_info : rl.r_info;
		if (got_match(q, &r))
			return 1;
	}
	return 0;
}

/* The name of symbol @index in the symbol table section @link. */
static const char *symbol_name(const struct elfsym *s, size_t link, uint64_t index)
{
	Elf_Scn *scn = elf_getscn(s->elf, link);
	GElf_Shdr sh;
	Elf_Data *data;
	GElf_Sym sym;

	if (!scn || !gelf_getshdr(scn, &sh) ||
	    (sh.sh_type != SHT_DYNSYM && sh.sh_type != SHT_SYMTAB))
		return NULL;
	data = elf_getdata(scn, NULL);
	if (!data || index > INT32_MAX || !gelf_getsym(data, (int)index, &sym))
		return NULL;
	return elf_strptr(s->elf, sh.sh_link, sym.st_name);
}

int elfsym__got_symbol(const struct elfsym *s, uint64_t slot, const char **name)
{
	struct got_query q = { .slot = slot, .elf64 = gelf_getclass(s->elf) == ELFCLASS64 };
	Elf_Scn *scn = NULL;
	int err = 0;

	q.jump_slot = s->machine == EM_AARCH64 ? R_AARCH64_JUMP_SLOT : R_X86_64_JUMP_SLOT;
	q.glob_dat = s->machine == EM_AARCH64 ? R_AARCH64_GLOB_DAT : R_X86_64_GLOB_DAT;
	if (s->machine != EM_AARCH64 && s->machine != EM_X86_64)
		return -ENOENT;
	while ((scn = elf_nextscn(s->elf, scn)) != NULL) {
		GElf_Shdr sh;
		int ret;

		if (!gelf_getshdr(scn, &sh))
			continue;
		ret = scan_reloc_section(s, scn, &sh, &q);
		if (ret < 0) {
			err = ret;
			continue;
		}
		if (!q.found)
			continue;
		*name = symbol_name(s, sh.sh_link,
				    q.elf64 ? ELF64_R_SYM(q.info) : ELF32_R_SYM(q.info));
		if (*name && **name)
			return 0;
		q.found = false;
	}
	return err ? err : -ENOENT;
}
