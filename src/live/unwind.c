// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <elf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "live/unwind.h"

/* Processes whose module list is kept; the oldest is dropped beyond this. */
#define UNWIND_CACHE 16

/* One traced process: its modules (from maps) and the record being unwound. */
struct upid {
	uint32_t pid;
	Dwfl *dwfl;
	int mem_fd; /* <proc_root>/<pid>/mem, opened on the first read outside the copy */
	uint64_t age;
	/* Set for the duration of one unwinder__unwind. */
	uint32_t tid;
	const struct unwind_regs *r;
	uint64_t sp;
};

struct unwinder {
	char proc_root[256];
	struct upid pids[UNWIND_CACHE];
	uint64_t clock;
};

struct walk {
	Dwfl *dwfl;
	struct unwind_frame *out;
	int n, max;
};

/*
 * No separate debug file is ever looked for: Android ships none, and what unwinding needs is
 * in each module itself (.eh_frame, .dynsym, .symtab, .gnu_debugdata). The standard search
 * (dwfl_standard_find_debuginfo) ends, when it finds nothing, in a debuginfod query: a
 * dlopen of libdebuginfod (libcurl, gnutls...: 7 MB resident), DEBUGINFOD_URLS set or not.
 */
static int own_sections_only(Dwfl_Module *mod, void **userdata, const char *modname,
			     Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			     GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	return -1;
}

static const Dwfl_Callbacks proc_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = own_sections_only,
};

int unwind_sp_regno(uint16_t machine)
{
	if (machine == EM_X86_64)
		return 7;
	if (machine == EM_AARCH64)
		return 31;
	return -EINVAL;
}

/* ---- Dwfl_Thread_Callbacks: one thread, registers and stack from the record ---------- */

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct upid *p = arg;

	if (*thread_argp)
		return 0;
	*thread_argp = p;
	return (pid_t)p->tid;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	struct upid *p = arg;

	if ((uint32_t)tid != p->tid)
		return false;
	*thread_argp = p;
	return true;
}

/* The stack copy first: the live stack has moved on since the probe fired. */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct upid *p = arg;
	const struct unwind_regs *r = p->r;
	uint64_t v;

	if (addr >= p->sp && addr - p->sp <= r->stack_len && r->stack_len - (addr - p->sp) >= 8) {
		memcpy(&v, r->stack + (addr - p->sp), sizeof(v));
		*result = v;
		return true;
	}
	if (p->mem_fd < 0)
		return false;
	if (pread(p->mem_fd, &v, sizeof(v), (off_t)addr) != (ssize_t)sizeof(v))
		return false;
	*result = v;
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *thread_arg)
{
	struct upid *p = thread_arg;
	Dwarf_Word regs[UNWIND_NREGS];

	for (int i = 0; i < p->r->nregs; i++)
		regs[i] = p->r->regs[i];
	if (!dwfl_thread_state_registers(thread, 0, p->r->nregs, regs))
		return false;
	dwfl_thread_state_register_pc(thread, p->r->pc);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* ---- per-process module cache ------------------------------------------------------- */

static void upid_clear(struct upid *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	if (p->mem_fd >= 0)
		close(p->mem_fd);
	memset(p, 0, sizeof(*p));
	p->mem_fd = -1;
}

/* Reports the modules of p->pid from its maps and attaches the thread callbacks. */
static int upid_load(struct unwinder *u, struct upid *p)
{
	char path[300];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/%u/maps", u->proc_root, p->pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	p->dwfl = dwfl_begin(&proc_callbacks);
	if (!p->dwfl) {
		fclose(f);
		return -ENOMEM;
	}
	dwfl_report_begin(p->dwfl);
	ret = dwfl_linux_proc_maps_report(p->dwfl, f);
	fclose(f);
	if (ret || dwfl_report_end(p->dwfl, NULL, NULL))
		return ret > 0 ? -ret : -EIO;
	/* The fd outlives the record: reads outside the copy see the still-running process. */
	snprintf(path, sizeof(path), "%s/%u/mem", u->proc_root, p->pid);
	p->mem_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (!dwfl_attach_state(p->dwfl, NULL, (pid_t)p->pid, &thread_callbacks, p))
		return -ENOEXEC;
	return 0;
}

/* The cached entry of pid, loaded when missing (or when reload asks for fresh maps). */
static struct upid *upid_get(struct unwinder *u, uint32_t pid, bool reload, int *err)
{
	struct upid *p = NULL, *oldest = &u->pids[0];

	for (int i = 0; i < UNWIND_CACHE; i++) {
		if (u->pids[i].dwfl && u->pids[i].pid == pid)
			p = &u->pids[i];
		if (u->pids[i].age < oldest->age)
			oldest = &u->pids[i];
	}
	if (p && !reload) {
		p->age = ++u->clock;
		return p;
	}
	p = p ? p : oldest;
	upid_clear(p);
	p->pid = pid;
	p->age = ++u->clock;
	*err = upid_load(u, p);
	if (*err) {
		upid_clear(p);
		return NULL;
	}
	return p;
}

/* ---- unwinding ----------------------------------------------------------------------- */

static void frame_name(Dwfl *dwfl, Dwarf_Addr pc, char *buf, size_t cap)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, pc);
	const char *name = NULL;
	GElf_Off off;
	GElf_Sym sym;

	if (mod)
		name = dwfl_module_addrinfo(mod, pc, &off, &sym, NULL, NULL, NULL);
	snprintf(buf, cap, "%s", name ? name : "");
}

static int on_frame(Dwfl_Frame *state, void *arg)
{
	struct walk *w = arg;
	Dwarf_Addr pc;
	bool activation;

	if (w->n >= w->max || !dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	w->out[w->n].pc = pc;
	/* A return address points after the call: name the call itself. */
	frame_name(w->dwfl, activation ? pc : pc - 1, w->out[w->n].name, UNWIND_NAME_MAX);
	w->n++;
	return DWARF_CB_OK;
}

static int regs_ok(const struct unwind_regs *r)
{
	int sp = unwind_sp_regno(r->machine);

	if (sp < 0 || r->nregs <= sp || r->nregs > UNWIND_NREGS || !r->pc)
		return -EINVAL;
	return sp;
}

int unwinder__unwind(struct unwinder *u, uint32_t pid, uint32_t tid, const struct unwind_regs *r,
		     struct unwind_frame *out, int max)
{
	struct walk w = { NULL, out, 0, max };
	int sp = regs_ok(r), err = 0;
	struct upid *p;

	if (sp < 0)
		return sp;
	p = upid_get(u, pid, false, &err);
	/* A library mapped after the first record: read the maps again once. */
	if (p && !dwfl_addrmodule(p->dwfl, r->pc))
		p = upid_get(u, pid, true, &err);
	if (!p)
		return err;
	p->tid = tid;
	p->r = r;
	p->sp = r->regs[sp];
	w.dwfl = p->dwfl;
	/* Ends with an error when a frame has no CFI or its memory is unreadable: normal. */
	dwfl_getthread_frames(p->dwfl, (pid_t)tid, on_frame, &w);
	p->r = NULL;
	return w.n;
}

struct unwinder *unwinder__new(const char *proc_root)
{
	struct unwinder *u = calloc(1, sizeof(*u));

	if (!u) {
		errno = ENOMEM;
		return NULL;
	}
	snprintf(u->proc_root, sizeof(u->proc_root), "%s", proc_root ? proc_root : "/proc");
	for (int i = 0; i < UNWIND_CACHE; i++)
		u->pids[i].mem_fd = -1;
	return u;
}

void unwinder__forget(struct unwinder *u, uint32_t pid)
{
	for (int i = 0; u && i < UNWIND_CACHE; i++)
		if (u->pids[i].dwfl && u->pids[i].pid == pid)
			upid_clear(&u->pids[i]);
}

void unwinder__free(struct unwinder *u)
{
	if (!u)
		return;
	for (int i = 0; i < UNWIND_CACHE; i++)
		upid_clear(&u->pids[i]);
	free(u);
}

/* ---- Java frames --------------------------------------------------------------------- */

/* Suffixes GCC and LLVM give clones of C functions ("f.cold", "f.constprop.0"). */
static bool clone_part(const char *s, size_t len)
{
	static const char *const parts[] = { "cold",	   "part",  "constprop", "isra", "lto_priv",
					     "localalias", "clone", "llvm",	 "hot" };
	size_t digits = strspn(s, "0123456789");

	if (digits >= len)
		return true;
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (strlen(parts[i]) == len && !memcmp(s, parts[i], len))
			return true;
	return false;
}

#define AUTO_CANCEL "android.animation.AnimationHandler.autoCancelBasedOn"

int unwind_is_java_name(const char *name)
{
	static const char ident[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789_$<>-";
	int parts = 0;
	const char *s = name;

	/* pkg.Class.method at least: every part an identifier, none a clone suffix. */
	for (;;) {
		size_t len = strspn(s, ident);

		if (!len || clone_part(s, len))
			return 0;
		parts++;
		s += len;
		if (!*s)
			break;
		if (*s++ != '.')
			return 0;
	}
	return parts >= 3 && !(name[0] >= '0' && name[0] <= '9');
}

/* A cancel by ObjectAnimator.start's auto-cancel: its android.animation frames are the
 * evidence of a replacement (engine/findings.h), so they are kept. */
static bool auto_cancel(const struct unwind_frame *frames, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(frames[i].name, AUTO_CANCEL))
			return true;
	return false;
}

/* AnimatorSet's own frames (AnimatorSet.start, $Node, ...): the engine reads who started the
 * animator from them (engine/starter.h) and leaves them out. */
static bool set_frame(const char *name)
{
	static const char set[] = "android.animation.AnimatorSet";

	return !strncmp(name, set, sizeof(set) - 1) &&
	       (name[sizeof(set) - 1] == '.' || name[sizeof(set) - 1] == '$');
}

int unwind_java_frames(const struct unwind_frame *frames, int n, char (*out)[UNWIND_NAME_MAX],
		       int max)
{
	static const char skip[] = "android.animation.";
	bool keep_auto = auto_cancel(frames, n);
	int k = 0;

	for (int i = 0; i < n && k < max; i++) {
		const char *name = frames[i].name;
		bool replacement = !strcmp(name, AUTO_CANCEL) ||
				   !strcmp(name, "android.animation.ObjectAnimator.start");
		bool evidence = set_frame(name) || (keep_auto && replacement);

		if (!unwind_is_java_name(name) ||
		    (!evidence && !strncmp(name, skip, sizeof(skip) - 1)))
			continue;
		snprintf(out[k++], UNWIND_NAME_MAX, "%s", name);
	}
	return k;
}
