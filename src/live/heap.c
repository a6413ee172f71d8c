// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Java heap reader. Offsets of the fields of java.lang.Object, Class, String, DexCache,
 * ref.Reference and util.ArrayList come from the layout (core-oj's dex by ART's rules), never
 * from constants; only the array header (runtime/mirror/array.h: length_ at 8, data at
 * RoundUp(12, component size)) is fixed, as arrays have no Java fields.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "common/coll.h"
#include "live/heap.h"

#define ARRAY_LENGTH_OFF 8u
#define ARRAY_DATA_OFF 12u
#define OBJECT_ALIGN 8u	   /* kObjectAlignment */
#define MAX_CLASS_DEPTH 16 /* array dimensions followed through componentType */
#define LOCATION_MAX 4096
/* Strings longer than this are decoded without checking their stored hash. */
#define HASH_CHECK_MAX (1u << 16)

/* ---- readers -------------------------------------------------------------------------------- */

struct proc_mem {
	int pid, fd;
	bool proc_mem_only;
};

static int proc_mem_read(struct proc_mem *p, uint64_t addr, void *buf, size_t len)
{
	ssize_t n;

	if (p->fd < 0) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/mem", p->pid);
		p->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (p->fd < 0)
			return -errno;
	}
	if (addr > (uint64_t)INT64_MAX - len)
		return -EFAULT;
	n = pread(p->fd, buf, len, (off_t)addr);
	if (n == (ssize_t)len)
		return 0;
	return n < 0 && errno != EIO ? -errno : -EFAULT;
}

static int proc_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct proc_mem *p = ctx;

	if (!p->proc_mem_only) {
		struct iovec local = { buf, len }, remote = { (void *)(uintptr_t)addr, len };
		ssize_t n = process_vm_readv(p->pid, &local, 1, &remote, 1, 0);
		if (n == (ssize_t)len)
			return 0;
		if (n >= 0)
			return -EFAULT;
		if (errno != ENOSYS && errno != EPERM)
			return -errno;
		p->proc_mem_only = true;
	}
	return proc_mem_read(p, addr, buf, len);
}

int heap_mem_process(struct heap_mem *m, int pid, unsigned flags)
{
	struct proc_mem *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	p->pid = pid;
	p->fd = -1;
	p->proc_mem_only = flags & HEAP_MEM_PROC_MEM;
	m->read = proc_read;
	m->ctx = p;
	return 0;
}

static int buffer_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	const struct heap_buffer *b = ctx;

	if (addr < b->base || addr - b->base > b->len || len > b->len - (addr - b->base))
		return -EFAULT;
	memcpy(buf, (const uint8_t *)b->data + (addr - b->base), len);
	return 0;
}

void heap_mem_buffer(struct heap_mem *m, struct heap_buffer *b)
{
	m->read = buffer_read;
	m->ctx = b;
}

void heap_mem_release(struct heap_mem *m)
{
	if (m->read == proc_read) {
		struct proc_mem *p = m->ctx;
		if (p->fd >= 0)
			close(p->fd);
		free(p);
	}
	m->ctx = NULL;
}

/* ---- the decoder ---------------------------------------------------------------------------- */

struct range {
	uint64_t lo, hi;
};

struct class_entry {
	uint32_t klass;
	char descriptor[];
};

/* Offsets of the fields the decoder itself follows. */
struct core_offsets {
	uint32_t klass, class_dex_cache, class_type_idx, class_component, class_name;
	uint32_t dex_cache_location, string_count, string_hash, string_data;
	uint32_t list_data, list_size, referent;
};

struct heap {
	struct heap_mem mem;
	struct artlayout *layout;
	bool compression;
	struct range *ranges;
	size_t n_ranges, cap_ranges;
	struct htab classes; /* struct class_entry by klass */
	struct core_offsets o;
};

static int field_off(struct artlayout *l, const char *cls, const char *name, uint32_t *out)
{
	const struct art_field *f = artlayout__field(l, cls, name);

	if (!f)
		return -errno;
	*out = f->offset;
	return 0;
}

static int resolve_core(struct heap *h)
{
	struct artlayout *l = h->layout;
	struct core_offsets *o = &h->o;
	const struct art_class *string = artlayout__class(l, "Ljava/lang/String;");
	int err = string ? 0 : -errno;

	err = err ?: field_off(l, "Ljava/lang/Object;", "shadow$_klass_", &o->klass);
	err = err ?: field_off(l, "Ljava/lang/Class;", "dexCache", &o->class_dex_cache);
	err = err ?: field_off(l, "Ljava/lang/Class;", "dexTypeIndex", &o->class_type_idx);
	err = err ?: field_off(l, "Ljava/lang/Class;", "componentType", &o->class_component);
	err = err ?: field_off(l, "Ljava/lang/Class;", "name", &o->class_name);
	err = err ?: field_off(l, "Ljava/lang/DexCache;", "location", &o->dex_cache_location);
	err = err ?: field_off(l, "Ljava/lang/String;", "count", &o->string_count);
	err = err ?: field_off(l, "Ljava/lang/String;", "hash", &o->string_hash);
	err = err ?: field_off(l, "Ljava/util/ArrayList;", "elementData", &o->list_data);
	err = err ?: field_off(l, "Ljava/util/ArrayList;", "size", &o->list_size);
	err = err ?: field_off(l, "Ljava/lang/ref/Reference;", "referent", &o->referent);
	if (!err) /* mirror::String's value_ follows the fields */
		o->string_data = string->object_size;
	return err;
}

struct heap *heap__new(const struct heap_mem *mem, struct artlayout *layout, int sdk)
{
	struct heap *h = calloc(1, sizeof(*h));
	int err;

	if (!h)
		return NULL;
	h->mem = *mem;
	h->layout = layout;
	h->compression = sdk >= 26;
	err = resolve_core(h);
	if (err) {
		free(h);
		errno = -err;
		return NULL;
	}
	return h;
}

void heap__free(struct heap *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->classes.cap; i++)
		free(h->classes.s[i].v);
	free(h->classes.s);
	free(h->ranges);
	free(h);
}

int heap__add_range(struct heap *h, uint64_t lo, uint64_t hi)
{
	struct range *r = vec_push((void **)&h->ranges, &h->n_ranges, &h->cap_ranges, sizeof(*r));

	if (!r)
		return -ENOMEM;
	r->lo = lo;
	r->hi = hi;
	return 0;
}

bool heap__plausible(const struct heap *h, uint64_t addr)
{
	if (!addr || addr % OBJECT_ALIGN || addr > UINT32_MAX)
		return false;
	if (!h->n_ranges)
		return true;
	for (size_t i = 0; i < h->n_ranges; i++)
		if (addr >= h->ranges[i].lo && addr < h->ranges[i].hi)
			return true;
	return false;
}

static int rd(struct heap *h, uint64_t addr, void *buf, size_t len)
{
	return h->mem.read(h->mem.ctx, addr, buf, len);
}

/* A 4-byte field of a plausible object. */
static int rd_u32(struct heap *h, uint64_t obj, uint32_t off, uint32_t *out)
{
	if (!heap__plausible(h, obj))
		return -EINVAL;
	return rd(h, obj + off, out, sizeof(*out));
}

static size_t type_size(char c)
{
	switch (c) {
	case 'J':
	case 'D':
		return 8;
	case 'I':
	case 'F':
	case 'L':
	case '[':
		return 4;
	case 'C':
	case 'S':
		return 2;
	default:
		return 1;
	}
}

int heap__get(struct heap *h, uint64_t obj, const char *cls, const char *name, void *out,
	      size_t size)
{
	const struct art_field *f = artlayout__field(h->layout, cls, name);

	if (!f)
		return -errno;
	if (type_size(f->type[0]) != size || !heap__plausible(h, obj))
		return -EINVAL;
	return rd(h, obj + f->offset, out, size);
}

/* heap__get of a field whose descriptor must start with one of kinds. */
static int get_kind(struct heap *h, uint64_t obj, const char *cls, const char *name,
		    const char *kinds, void *out, size_t size)
{
	const struct art_field *f = artlayout__field(h->layout, cls, name);

	if (!f)
		return -errno;
	if (!strchr(kinds, f->type[0]))
		return -EINVAL;
	return heap__get(h, obj, cls, name, out, size);
}

int heap__get_ref(struct heap *h, uint64_t obj, const char *cls, const char *name, uint32_t *out)
{
	return get_kind(h, obj, cls, name, "L[", out, sizeof(*out));
}

int heap__get_int(struct heap *h, uint64_t obj, const char *cls, const char *name, int32_t *out)
{
	return get_kind(h, obj, cls, name, "I", out, sizeof(*out));
}

int heap__get_long(struct heap *h, uint64_t obj, const char *cls, const char *name, int64_t *out)
{
	return get_kind(h, obj, cls, name, "J", out, sizeof(*out));
}

int heap__get_float(struct heap *h, uint64_t obj, const char *cls, const char *name, float *out)
{
	return get_kind(h, obj, cls, name, "F", out, sizeof(*out));
}

int heap__get_bool(struct heap *h, uint64_t obj, const char *cls, const char *name, bool *out)
{
	uint8_t b;
	int err = get_kind(h, obj, cls, name, "Z", &b, sizeof(b));

	if (!err)
		*out = b != 0;
	return err;
}

/* ---- strings -------------------------------------------------------------------------------- */

struct utf8_out {
	char *p;
	size_t cap, n;
	uint16_t high; /* a high surrogate waiting for its pair */
	bool full;
};

static void put_cp(struct utf8_out *o, uint32_t cp)
{
	char b[4];
	size_t k;

	if (cp < 0x80) {
		b[0] = (char)cp;
		k = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		k = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		k = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		k = 4;
	}
	if (o->full || o->n + k >= o->cap) {
		o->full = true;
		return;
	}
	memcpy(o->p + o->n, b, k);
	o->n += k;
	o->p[o->n] = '\0';
}

/* One UTF-16 unit: pairs surrogates; a lone one becomes U+FFFD. */
static void put_unit(struct utf8_out *o, uint16_t u)
{
	if (o->high) {
		uint16_t hi = o->high;
		o->high = 0;
		if (u >= 0xdc00 && u < 0xe000) {
			put_cp(o, 0x10000 + ((uint32_t)(hi - 0xd800) << 10) + (u - 0xdc00));
			return;
		}
		put_cp(o, 0xfffd);
	}
	if (u >= 0xd800 && u < 0xdc00)
		o->high = u;
	else
		put_cp(o, u >= 0xdc00 && u < 0xe000 ? 0xfffd : u);
}

/* Reads the len characters at data in chunks into o, hashing them as String.hashCode(). */
static int read_chars(struct heap *h, uint64_t data, uint32_t len, bool compressed,
		      struct utf8_out *o, uint32_t *hash)
{
	uint8_t buf[512];
	size_t unit = compressed ? 1 : 2;
	uint32_t done = 0, hv = 0;

	while (done < len && !(o->full && len > HASH_CHECK_MAX)) {
		uint32_t n = (uint32_t)(sizeof(buf) / unit);
		if (n > len - done)
			n = len - done;
		int err = rd(h, data + (uint64_t)done * unit, buf, n * unit);
		if (err)
			return err;
		for (uint32_t i = 0; i < n; i++) {
			uint16_t u = compressed ? buf[i] :
						  (uint16_t)(buf[2 * i] | buf[2 * i + 1] << 8);
			hv = hv * 31 + u;
			put_unit(o, u);
		}
		done += n;
	}
	if (o->high)
		put_cp(o, 0xfffd);
	*hash = done == len ? hv : 0;
	return 0;
}

int heap__string(struct heap *h, uint64_t addr, char *utf8, size_t cap, struct heap_string *info)
{
	struct utf8_out o = { .p = utf8, .cap = cap };
	struct heap_string s;
	int32_t count;
	uint32_t hash;
	int err;

	if (!cap)
		return -EINVAL;
	utf8[0] = '\0';
	err = rd_u32(h, addr, h->o.string_count, (uint32_t *)&count);
	err = err ?: rd_u32(h, addr, h->o.string_hash, (uint32_t *)&s.hash);
	if (err)
		return err;
	/* string.h: count_ = length << 1 | flag, flag 0 = compressed (kUseStringCompression). */
	s.compressed = h->compression && !((uint32_t)count & 1u);
	s.length = h->compression ? (uint32_t)count >> 1 : (uint32_t)count;
	if (count < 0 || s.length > HEAP_MAX_LENGTH)
		return -EINVAL;
	err = read_chars(h, addr + h->o.string_data, s.length, s.compressed, &o, &hash);
	if (err)
		return err;
	if (s.hash != 0 && s.length <= HASH_CHECK_MAX && (uint32_t)s.hash != hash)
		return -EINVAL;
	if (info)
		*info = s;
	return (int)o.n;
}

/* ---- arrays, lists, references -------------------------------------------------------------- */

int heap__array_length(struct heap *h, uint64_t addr, uint32_t *len)
{
	int32_t n;
	int err = rd_u32(h, addr, ARRAY_LENGTH_OFF, (uint32_t *)&n);

	if (err)
		return err;
	if (n < 0 || (uint32_t)n > HEAP_MAX_LENGTH)
		return -EINVAL;
	*len = (uint32_t)n;
	return 0;
}

int heap__array_read(struct heap *h, uint64_t addr, uint32_t elem_size, uint32_t first, uint32_t n,
		     void *out)
{
	uint32_t len, data = ARRAY_DATA_OFF;
	int err;

	if (elem_size != 1 && elem_size != 2 && elem_size != 4 && elem_size != 8)
		return -EINVAL;
	err = heap__array_length(h, addr, &len);
	if (err)
		return err;
	if (first > len || n > len - first)
		return -ERANGE;
	if (!n)
		return 0;
	data = (data + elem_size - 1) & ~(elem_size - 1); /* 16 for 64-bit elements */
	return rd(h, addr + data + (uint64_t)first * elem_size, out, (size_t)n * elem_size);
}

int heap__arraylist(struct heap *h, uint64_t addr, uint32_t *out, uint32_t max)
{
	uint32_t data, len = 0;
	int32_t size;
	int err = rd_u32(h, addr, h->o.list_data, &data);

	err = err ?: rd_u32(h, addr, h->o.list_size, (uint32_t *)&size);
	if (err)
		return err;
	if (size < 0 || (uint32_t)size > HEAP_MAX_LENGTH || (size > 0 && !data))
		return -EINVAL;
	if (data && (err = heap__array_length(h, data, &len)))
		return err;
	if ((uint32_t)size > len)
		return -EINVAL;
	if (!size)
		return 0;
	err = heap__array_read(h, data, 4, 0, (uint32_t)size < max ? (uint32_t)size : max, out);
	return err ? err : size;
}

int heap__referent(struct heap *h, uint64_t addr, uint32_t *out)
{
	return rd_u32(h, addr, h->o.referent, out);
}

/* ---- classes -------------------------------------------------------------------------------- */

static bool class_eq(const void *v, const void *key)
{
	return ((const struct class_entry *)v)->klass == *(const uint32_t *)key;
}

/* Class.getName() form ("java.lang.String", "[I", "int") to a descriptor, in out. */
static int binary_name_to_descriptor(const char *name, char *out, size_t cap)
{
	static const char *const prim[][2] = { { "boolean", "Z" }, { "byte", "B" },
					       { "char", "C" },	   { "short", "S" },
					       { "int", "I" },	   { "long", "J" },
					       { "float", "F" },   { "double", "D" } };
	size_t n = strlen(name);

	for (size_t i = 0; i < sizeof(prim) / sizeof(prim[0]); i++)
		if (strcmp(name, prim[i][0]) == 0)
			return snprintf(out, cap, "%s", prim[i][1]) < (int)cap ? 0 : -EINVAL;
	if (n + 3 > cap)
		return -EINVAL;
	if (name[0] == '[')
		snprintf(out, cap, "%s", name);
	else
		snprintf(out, cap, "L%s;", name);
	for (char *p = out; *p; p++)
		if (*p == '.')
			*p = '/';
	return 0;
}

/* The dex DexCache.location names: added under that name, else opened and added. */
static const struct dex *dex_at(struct heap *h, const char *location)
{
	const struct dex *d = artlayout__dex(h->layout, location);
	struct dex *nd;

	if (d)
		return d;
	nd = dex__open_location(location, 0);
	if (!nd || artlayout__add_dex(h->layout, nd, location))
		return NULL;
	return artlayout__dex(h->layout, location);
}

static int class_descriptor(struct heap *h, uint32_t klass, int depth, const char **out);

/* The descriptor of an array class (from its component) or of a class whose name_ is set:
 * always for proxies, whose dexCache is Proxy's and whose type index means nothing, and for
 * primitives; once Class.getName() ran for the rest. -ENOENT when neither. */
static int named_class(struct heap *h, uint32_t klass, int depth, char *buf, size_t cap)
{
	uint32_t component, name;
	const char *sub;
	char bin[512];
	int err = rd_u32(h, klass, h->o.class_component, &component);

	if (err)
		return err;
	if (component) {
		if (depth >= MAX_CLASS_DEPTH)
			return -EINVAL;
		err = class_descriptor(h, component, depth + 1, &sub);
		if (err)
			return err;
		return snprintf(buf, cap, "[%s", sub) < (int)cap ? 0 : -EINVAL;
	}
	err = rd_u32(h, klass, h->o.class_name, &name);
	if (err)
		return err;
	if (!name)
		return -ENOENT;
	err = heap__string(h, name, bin, sizeof(bin), NULL);
	return err < 0 ? err : binary_name_to_descriptor(bin, buf, cap);
}

/* The descriptor of a class from its dex: DexCache.location, then Class.dexTypeIndex. */
static int dex_class(struct heap *h, uint32_t klass, uint32_t dex_cache, char *buf, size_t cap)
{
	char location[LOCATION_MAX];
	uint32_t loc, type_idx;
	const struct dex *d;
	const char *desc;
	int err = rd_u32(h, klass, h->o.class_type_idx, &type_idx);

	err = err ?: rd_u32(h, dex_cache, h->o.dex_cache_location, &loc);
	if (err)
		return err;
	err = heap__string(h, loc, location, sizeof(location), NULL);
	if (err < 0)
		return err;
	if ((size_t)err + 1 >= sizeof(location) || !(d = dex_at(h, location)))
		return -ENOENT;
	desc = dex__type(d, type_idx);
	if (!desc)
		return -EINVAL;
	return snprintf(buf, cap, "%s", desc) < (int)cap ? 0 : -EINVAL;
}

/* A class object has java.lang.Class as its class, whose class is itself. */
static int check_class_object(struct heap *h, uint32_t klass)
{
	uint32_t cc, ccc;
	int err = rd_u32(h, klass, h->o.klass, &cc);

	err = err ?: rd_u32(h, cc, h->o.klass, &ccc);
	if (err)
		return err;
	return cc == ccc ? 0 : -EINVAL;
}

static int class_descriptor(struct heap *h, uint32_t klass, int depth, const char **out)
{
	uint64_t hv = hash_mix64(klass);
	struct class_entry *e = htab_find(&h->classes, hv, class_eq, &klass);
	char desc[1024];
	uint32_t dex_cache;
	int err;

	if (e) {
		*out = e->descriptor;
		return 0;
	}
	err = check_class_object(h, klass);
	err = err ?: named_class(h, klass, depth, desc, sizeof(desc));
	if (err == -ENOENT) {
		err = rd_u32(h, klass, h->o.class_dex_cache, &dex_cache);
		if (!err && !dex_cache)
			err = -ENOENT;
		if (!err)
			err = dex_class(h, klass, dex_cache, desc, sizeof(desc));
	}
	if (err)
		return err;
	if (!dex_descriptor_valid(desc))
		return -EINVAL;
	e = malloc(sizeof(*e) + strlen(desc) + 1);
	if (!e)
		return -ENOMEM;
	e->klass = klass;
	strcpy(e->descriptor, desc);
	err = htab_add(&h->classes, hv, e);
	if (err) {
		free(e);
		return err;
	}
	*out = e->descriptor;
	return 0;
}

int heap__class_of(struct heap *h, uint64_t obj, const char **descriptor)
{
	uint32_t klass;
	int err = rd_u32(h, obj, h->o.klass, &klass);

	if (err)
		return err;
	if (!heap__plausible(h, klass))
		return -EINVAL;
	return class_descriptor(h, klass, 0, descriptor);
}

int heap__is_a(struct heap *h, uint64_t obj, const char *cls)
{
	const struct art_class *c;
	const char *desc;
	int err = heap__class_of(h, obj, &desc);

	if (err)
		return err;
	if (strcmp(desc, cls) == 0)
		return 1;
	if (desc[0] == '[')
		return strcmp(cls, "Ljava/lang/Object;") == 0;
	c = artlayout__class(h->layout, desc);
	if (!c)
		return -errno;
	for (; c; c = c->super)
		if (strcmp(c->descriptor, cls) == 0)
			return 1;
	return 0;
}
