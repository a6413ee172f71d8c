// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "symbols/elfsym.h"
#include "live/unwind.h"

#define UW_FIXTURE BUILD_DIR "/sim/boot-framework.oat"
#define UW_STACK_BYTES 4096

/* What uw_capture saves at its own entry, as the ART probe does at a method's entry. */
struct uw_cap {
	uint64_t sp, fp, ra, pc;
	uint64_t saved[10]; /* x86_64: rbx, r12..r15; arm64: x19..x28 */
};

void uw_capture(struct uw_cap *c);

#if defined(__x86_64__)
__asm__(".text\n"
	".type uw_capture, @function\n"
	"uw_capture:\n"
	".cfi_startproc\n"
	"movq %rsp, 0(%rdi)\n"
	"movq %rbp, 8(%rdi)\n"
	"movq (%rsp), %rax\n"
	"movq %rax, 16(%rdi)\n"
	"leaq uw_capture(%rip), %rax\n"
	"movq %rax, 24(%rdi)\n"
	"movq %rbx, 32(%rdi)\n"
	"movq %r12, 40(%rdi)\n"
	"movq %r13, 48(%rdi)\n"
	"movq %r14, 56(%rdi)\n"
	"movq %r15, 64(%rdi)\n"
	"ret\n"
	".cfi_endproc\n"
	".size uw_capture, .-uw_capture\n");
#elif defined(__aarch64__)
__asm__(".text\n"
	".type uw_capture, %function\n"
	"uw_capture:\n"
	".cfi_startproc\n"
	"mov x9, sp\n"
	"str x9, [x0, #0]\n"
	"stp x29, x30, [x0, #8]\n"
	"adr x9, uw_capture\n"
	"str x9, [x0, #24]\n"
	"stp x19, x20, [x0, #32]\n"
	"stp x21, x22, [x0, #48]\n"
	"stp x23, x24, [x0, #64]\n"
	"stp x25, x26, [x0, #80]\n"
	"stp x27, x28, [x0, #96]\n"
	"ret\n"
	".cfi_endproc\n"
	".size uw_capture, .-uw_capture\n");
#endif

static struct uw_cap cap;
static uint8_t stack_copy[UW_STACK_BYTES];
static size_t stack_len;
static volatile int uw_sink[3];

/* Copies the stack above the capture point the way bpf_probe_read_user would. */
static __attribute__((noinline)) void uw_copy_stack(void)
{
	int fd = open("/proc/self/mem", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : pread(fd, stack_copy, sizeof(stack_copy), (off_t)cap.sp);

	if (fd >= 0)
		close(fd);
	stack_len = n > 0 ? (size_t)n : 0;
	/* The word at sp was uw_capture's return address; later calls reused that slot. */
	if (stack_len >= 8)
		memcpy(stack_copy, &cap.ra, 8);
}

static __attribute__((noinline)) void uw_inner(void) __asm__("com.example.test.Inner.call");
static void uw_inner(void)
{
	uw_capture(&cap);
	uw_copy_stack();
	uw_sink[0]++;
}

static __attribute__((noinline)) void uw_middle(void) __asm__("com.example.test.Middle.call");
static void uw_middle(void)
{
	uw_inner();
	uw_sink[1]++;
}

static __attribute__((noinline)) void uw_outer(void) __asm__("com.example.test.Outer.call");
static void uw_outer(void)
{
	uw_middle();
	uw_sink[2] += 2;
}

static void uw_regs(struct unwind_regs *r)
{
	memset(r, 0, sizeof(*r));
	r->pc = cap.pc;
	r->stack = stack_copy;
	r->stack_len = stack_len;
#if defined(__x86_64__)
	static const int saved[] = { 3, 12, 13, 14, 15 };

	r->machine = EM_X86_64;
	r->nregs = 16;
	r->regs[6] = cap.fp;
	r->regs[7] = cap.sp;
	for (int i = 0; i < 5; i++)
		r->regs[saved[i]] = cap.saved[i];
#else
	r->machine = EM_AARCH64;
	r->nregs = 32;
	r->regs[29] = cap.fp;
	r->regs[30] = cap.ra;
	r->regs[31] = cap.sp;
	for (int i = 0; i < 10; i++)
		r->regs[19 + i] = cap.saved[i];
#endif
}

Test(unwind, a_copied_stack_unwinds_to_the_exact_caller_chain)
{
	struct unwinder *u = unwinder__new("/proc");
	struct unwind_frame f[UNWIND_MAX_FRAMES];
	struct unwind_regs r;
	int n;

	uw_outer();
	uw_regs(&r);
	cr_assert_not_null(u);
	n = unwinder__unwind(u, (uint32_t)getpid(), (uint32_t)gettid(), &r, f, UNWIND_MAX_FRAMES);
	cr_assert_geq(n, 5, "only %d frames", n);
	cr_assert_eq(f[0].pc, cap.pc);
	cr_assert_str_eq(f[0].name, "uw_capture");
	cr_assert_str_eq(f[1].name, "com.example.test.Inner.call");
	cr_assert_str_eq(f[2].name, "com.example.test.Middle.call");
	cr_assert_str_eq(f[3].name, "com.example.test.Outer.call");
	cr_assert_eq(f[1].pc, cap.ra);
	unwinder__free(u);
}

/* libdw's standard debuginfo search ends in dlopen(libdebuginfod): libcurl, gnutls, 7 MB. */
static bool maps_hold(const char *sub)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, sub) != NULL;
	if (f)
		fclose(f);
	return found;
}

Test(unwind, an_unwind_loads_neither_libdebuginfod_nor_libcurl)
{
	struct unwinder *u = unwinder__new("/proc");
	struct unwind_frame f[UNWIND_MAX_FRAMES];
	struct unwind_regs r;

	cr_assert_not(maps_hold("libdebuginfod"));
	uw_outer();
	uw_regs(&r);
	cr_assert_geq(unwinder__unwind(u, (uint32_t)getpid(), (uint32_t)gettid(), &r, f,
				       UNWIND_MAX_FRAMES),
		      5);
	unwinder__free(u);
	cr_assert_not(maps_hold("libdebuginfod"));
	cr_assert_not(maps_hold("libcurl"));
}

Test(unwind, the_java_frames_of_a_copied_stack_are_its_callers_innermost_first)
{
	struct unwinder *u = unwinder__new(NULL);
	struct unwind_frame f[UNWIND_MAX_FRAMES];
	char java[8][UNWIND_NAME_MAX];
	struct unwind_regs r;
	int n;

	uw_outer();
	uw_regs(&r);
	n = unwinder__unwind(u, (uint32_t)getpid(), (uint32_t)gettid(), &r, f, UNWIND_MAX_FRAMES);
	cr_assert_eq(unwind_java_frames(f, n, java, 8), 3);
	cr_assert_str_eq(java[0], "com.example.test.Inner.call");
	cr_assert_str_eq(java[1], "com.example.test.Middle.call");
	cr_assert_str_eq(java[2], "com.example.test.Outer.call");
	/* A second record of the same process reuses the cached modules. */
	cr_assert_eq(unwinder__unwind(u, (uint32_t)getpid(), (uint32_t)gettid(), &r, f,
				      UNWIND_MAX_FRAMES),
		     n);
	unwinder__free(u);
}

Test(unwind, a_stack_copy_that_stops_early_gives_the_frames_it_holds)
{
	struct unwinder *u = unwinder__new("/nonexistent-proc");
	struct unwind_frame f[4];
	struct unwind_regs r;

	uw_outer();
	uw_regs(&r);
	/* No maps: the process is gone. */
	cr_assert_eq(unwinder__unwind(u, (uint32_t)getpid(), 1, &r, f, 4), -ESRCH);
	unwinder__free(u);
	u = unwinder__new("/proc");
	/* Only two frames fit in out. */
	cr_assert_eq(unwinder__unwind(u, (uint32_t)getpid(), (uint32_t)gettid(), &r, f, 2), 2);
	cr_assert_str_eq(f[1].name, "com.example.test.Inner.call");
	r.nregs = 3;
	cr_assert_eq(unwinder__unwind(u, (uint32_t)getpid(), 1, &r, f, 4), -EINVAL);
	unwinder__forget(u, (uint32_t)getpid());
	unwinder__forget(u, 424242);
	unwinder__free(u);
	unwinder__free(NULL);
}

/* Symbols of the stripped fixture exist only in its .gnu_debugdata: libdw must read it. */
Test(unwind, a_pc_in_the_stripped_art_fixture_is_named_from_its_minidebuginfo)
{
	void *h = dlopen(UW_FIXTURE, RTLD_NOW | RTLD_LOCAL);
	struct elfsym *s = elfsym__open(UW_FIXTURE);
	struct unwinder *u = unwinder__new("/proc");
	struct unwind_frame f[4];
	struct elfsym_hit hit;
	struct link_map *lm;
	uint64_t zeros[4] = { 0 };
	struct unwind_regs r = { 0 };
	int n;

	cr_assert_not_null(h, "%s", dlerror());
	cr_assert_not_null(s);
	cr_assert_eq(dlinfo(h, RTLD_DI_LINKMAP, &lm), 0);
	cr_assert_eq(elfsym__find(s, "android.animation.ValueAnimator.cancel", &hit), 0);
	cr_assert_eq(hit.table, ELFSYM_DEBUGDATA);
	r.machine = elfsym__machine(s);
	/* elfsym maps the file too: a second mapping would join the module's address range. */
	elfsym__free(s);
	r.nregs = r.machine == EM_X86_64 ? 16 : 32;
	r.pc = lm->l_addr + hit.vaddr;
	r.regs[unwind_sp_regno(r.machine)] = (uint64_t)(uintptr_t)zeros;
	r.stack = (const uint8_t *)zeros;
	r.stack_len = sizeof(zeros);
	n = unwinder__unwind(u, (uint32_t)getpid(), (uint32_t)gettid(), &r, f, 4);
	cr_assert_geq(n, 1);
	cr_assert_str_eq(f[0].name, "android.animation.ValueAnimator.cancel");
	unwinder__free(u);
	dlclose(h);
}

Test(unwind, java_names_are_told_from_c_names_and_compiler_clones)
{
	cr_assert(unwind_is_java_name("com.example.anim.PanelAnimator.play"));
	cr_assert(unwind_is_java_name("android.view.View$3.run"));
	cr_assert(unwind_is_java_name("java.lang.Object.<init>"));
	cr_assert(unwind_is_java_name("com.android.Foo.lambda$bar$0"));
	cr_assert_not(unwind_is_java_name("main"));
	cr_assert_not(unwind_is_java_name(""));
	cr_assert_not(unwind_is_java_name("art_quick_invoke_stub"));
	cr_assert_not(unwind_is_java_name("_ZN7android10RenderNode8setAlphaEf"));
	cr_assert_not(unwind_is_java_name("do_work.constprop.0"));
	cr_assert_not(unwind_is_java_name("do_work.part.1.cold"));
	cr_assert_not(unwind_is_java_name("a.b"));
	cr_assert_not(unwind_is_java_name("a..b.c"));
	cr_assert_not(unwind_is_java_name("a.b.c."));
	cr_assert_not(unwind_is_java_name("void a.b.c()"));
}

Test(unwind, java_frames_skip_android_animation_and_native_frames)
{
	static const struct unwind_frame f[] = {
		{ 1, "android.animation.ValueAnimator.start" },
		{ 2, "android.animation.ValueAnimator.startWithoutPulsing" },
		{ 3, "com.example.anim.PanelAnimator.play" },
		{ 4, "" },
		{ 5, "art_quick_invoke_stub" },
		{ 6, "com.example.anim.NotificationPanel.expand" },
		{ 7, "android.os.Handler.dispatchMessage" },
	};
	char out[2][UNWIND_NAME_MAX];

	cr_assert_eq(unwind_java_frames(f, 7, out, 2), 2);
	cr_assert_str_eq(out[0], "com.example.anim.PanelAnimator.play");
	cr_assert_str_eq(out[1], "com.example.anim.NotificationPanel.expand");
	cr_assert_eq(unwind_java_frames(f, 2, out, 2), 0);
	cr_assert_eq(unwind_sp_regno(EM_X86_64), 7);
	cr_assert_eq(unwind_sp_regno(EM_AARCH64), 31);
	cr_assert_eq(unwind_sp_regno(EM_386), -EINVAL);
}

Test(unwind, an_auto_cancel_keeps_its_android_animation_frames_as_evidence)
{
	static const struct unwind_frame f[] = {
		{ 1, "android.animation.ValueAnimator.cancel" },
		{ 2, "android.animation.AnimationHandler.autoCancelBasedOn" },
		{ 3, "android.animation.ObjectAnimator.start" },
		{ 4, "com.example.anim.Row.fadeIn" },
	};
	char out[4][UNWIND_NAME_MAX];

	cr_assert_eq(unwind_java_frames(f, 4, out, 4), 3);
	cr_assert_str_eq(out[0], "android.animation.AnimationHandler.autoCancelBasedOn");
	cr_assert_str_eq(out[1], "android.animation.ObjectAnimator.start");
	cr_assert_str_eq(out[2], "com.example.anim.Row.fadeIn");
	cr_assert_eq(unwind_java_frames(f + 2, 2, out, 4), 1, "no auto-cancel: skipped");
}

Test(unwind, animator_set_frames_are_kept_for_the_engine_to_read_who_started_it)
{
	static const struct unwind_frame f[] = {
		{ 1, "android.animation.ValueAnimator.start" },
		{ 2, "android.animation.ValueAnimator.startWithoutPulsing" },
		{ 3, "android.animation.AnimatorSet.handleAnimationEvents" },
		{ 4, "android.animation.AnimatorSet$DependencyListener.startIfReady" },
		{ 5, "android.animation.AnimatorSetX.start" }, /* another class */
		{ 6, "com.example.Shade.expand" },
	};
	char out[4][UNWIND_NAME_MAX];

	cr_assert_eq(unwind_java_frames(f, 6, out, 4), 3);
	cr_assert_str_eq(out[0], "android.animation.AnimatorSet.handleAnimationEvents");
	cr_assert_str_eq(out[1], "android.animation.AnimatorSet$DependencyListener.startIfReady");
	cr_assert_str_eq(out[2], "com.example.Shade.expand");
}

/* ---- the engine keeps the stacks of the calls that started and ended an animator ---- */

#include "engine/engine.h"
#include "common/marker.h"

static struct anim uw_started, uw_ended;

static int uw_on_start(void *ctx, const struct anim *a)
{
	uw_started = *a;
	return 0;
}

static int uw_on_end(void *ctx, const struct anim *a)
{
	uw_ended = *a;
	return 0;
}

static void uw_marker(struct engine *e, uint64_t ts, const char *text)
{
	struct marker m;

	cr_assert_eq(marker_parse(text, strlen(text), &m), 0, "%s", text);
	engine__marker(e, ts, 10, 10, "com.example.anim", &m);
}

Test(unwind, the_engine_gives_start_and_cancel_stacks_to_the_animator_they_explain)
{
	static const struct sink_ops ops = { .anim_start = uw_on_start, .anim_end = uw_on_end };
	char start[2][AT_FRAME_NAME] = { "com.example.anim.PanelAnimator.play",
					 "com.example.anim.NotificationPanel.expand" };
	char stop[1][AT_FRAME_NAME] = { "com.example.anim.PanelAnimator.stop" };
	struct engine *e = engine__new(NULL, (struct sink){ &ops, NULL });

	engine__art_active(e, 10, 0);
	engine__art_call_stack(e, 1000, 10, 10, ART_CALL_START, true, 7,
			       (const char(*)[AT_FRAME_NAME])start, 2);
	uw_marker(e, 2000, "S|10|animator|7");
	cr_assert_eq(uw_started.n_start_stack, 2);
	cr_assert_str_eq(uw_started.start_stack[0], "com.example.anim.PanelAnimator.play");
	cr_assert_str_eq(uw_started.start_stack[1], "com.example.anim.NotificationPanel.expand");
	/* A start of another cookie does not explain this S. */
	engine__art_call_stack(e, 3000, 10, 10, ART_CALL_START, true, 8,
			       (const char(*)[AT_FRAME_NAME])start, 2);
	uw_marker(e, 4000, "S|10|animator:alpha|9");
	cr_assert_eq(uw_started.n_start_stack, 0);
	engine__art_call_stack(e, 50000000, 10, 10, ART_CALL_CANCEL, true, 7,
			       (const char(*)[AT_FRAME_NAME])stop, 1);
	uw_marker(e, 50001000, "F|10|animator|7");
	cr_assert_eq(uw_ended.reason, END_CANCEL);
	cr_assert_eq(uw_ended.n_start_stack, 2);
	cr_assert_eq(uw_ended.n_end_stack, 1);
	cr_assert_str_eq(uw_ended.end_stack[0], "com.example.anim.PanelAnimator.stop");
	/* A natural completion has no end stack. */
	uw_marker(e, 90000000, "F|10|animator:alpha|9");
	cr_assert_eq(uw_ended.reason, END_COMPLETE);
	cr_assert_eq(uw_ended.n_end_stack, 0);
	engine__free(e);
}
