/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Userspace unwinding of a stack the ART entry probes copied (--stacks): the registers at
 * the probe and the top bytes of the user stack, unwound with elfutils libdw (CFI from
 * .eh_frame/.debug_frame, symbols from .dynsym/.symtab/.gnu_debugdata) against the modules
 * of the live process (<proc_root>/<pid>/maps, cached per pid). Then the Java frames:
 * ART-named methods, innermost first, without android.animation.* (as AnimatorTracer).
 */
#ifndef ANIMTRACE_UNWIND_H
#define ANIMTRACE_UNWIND_H

#include <stddef.h>
#include <stdint.h>

#include "animtrace/wire.h"
#include "model/model.h"

#define UNWIND_NREGS AT_ART_NREGS     /* the registers an ART or vsync record carries */
#define UNWIND_NAME_MAX AT_FRAME_NAME /* the engine's stack frame name size */
#define UNWIND_MAX_FRAMES 64

/* What a probe captured at a function's entry. */
struct unwind_regs {
	uint16_t machine; /* EM_X86_64 or EM_AARCH64 */
	uint64_t pc;
	uint64_t regs[UNWIND_NREGS]; /* by DWARF number; the stack pointer included */
	int nregs;		     /* 16 (x86_64) or 32 (arm64) */
	const uint8_t *stack;	     /* a copy of the stack from sp upwards */
	size_t stack_len;
};

struct unwind_frame {
	uint64_t pc;		    /* the return address (exact pc for frame 0) */
	char name[UNWIND_NAME_MAX]; /* "" when no symbol covers pc */
};

/* The DWARF number of the stack pointer of machine, or -EINVAL when unsupported. */
int unwind_sp_regno(uint16_t machine);

struct unwinder;

/* proc_root: "/proc" unless testing. Returns NULL and sets errno. */
struct unwinder *unwinder__new(const char *proc_root);

/*
 * Unwinds thread tid of process pid from r, innermost first, into out (up to max frames).
 * Returns how many frames, or -errno (-ESRCH: the process is gone, -EINVAL: bad regs).
 * Reads outside the stack copy go to <proc_root>/<pid>/mem (the process is alive).
 */
int unwinder__unwind(struct unwinder *u, uint32_t pid, uint32_t tid, const struct unwind_regs *r,
		     struct unwind_frame *out, int max);

/* Drops what is cached for pid (it exited or exec'ed). */
void unwinder__forget(struct unwinder *u, uint32_t pid);

void unwinder__free(struct unwinder *u);

/* True for an ART method name ("pkg.Class.method"), false for C names and clones. */
int unwind_is_java_name(const char *name);

/*
 * The Java callers in frames: Java-named frames minus android.animation.*, innermost
 * first, copied into out (up to max); a stack through AnimationHandler.autoCancelBasedOn
 * keeps it and ObjectAnimator.start (the evidence of a replacement), and AnimatorSet's frames
 * are kept (who started the animator, engine/starter.h, which leaves them out of start
 * stacks; in an end stack they say a set's cancel() or end() ended it). Returns how many.
 */
int unwind_java_frames(const struct unwind_frame *frames, int n, char (*out)[UNWIND_NAME_MAX],
		       int max);

#endif
