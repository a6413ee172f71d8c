/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Included by animtrace.bpf.c after art.bpf.h (issue 15: who redraws). --refresh only.
 *
 * Entry-only uprobes, attached per traced pid by userspace:
 * - the function that hands a RenderNode its new display list. Verified against AOSP:
 *   Android 12+ libs/hwui/jni/android_graphics_DisplayListCanvas.cpp
 *   `android_view_DisplayListCanvas_finishRecording(CRITICAL_JNI_PARAMS_COMMA jlong canvasPtr,
 *   jlong renderNodePtr)` (CRITICAL_JNI_PARAMS_COMMA is empty on device builds): the node is
 *   the second argument (x1 / rsi). Android 11 (libhwui) and 10 and earlier
 *   (core/jni, libandroid_runtime): finishRecording(jlong canvasPtr) only returns the list,
 *   then `android_view_RenderNode_setDisplayList(JNIEnv*, jobject, jlong renderNodePtr,
 *   jlong displayListPtr)` gets the node in the third argument (x2 / rdx);
 * - `nativeScheduleVsync(JNIEnv*, jclass, jlong receiverPtr)` (core/jni/
 *   android_view_DisplayEventReceiver.cpp) or libgui's DisplayEventDispatcher::scheduleVsync():
 *   a request for the next frame, with the registers and stack when --stacks asks for them.
 */
#ifndef ANIMTRACE_REFRESH_BPF_H
#define ANIMTRACE_REFRESH_BPF_H

#define AT_VSYNC_REC_SIZE                \
	(sizeof(struct at_refresh_rec) + \
	 (art_stack_bytes ? sizeof(struct at_art_stack) + art_stack_bytes : 0))

static __always_inline void refresh_full(void)
{
	struct at_drops *d = drops_slot();

	if (d)
		d->refresh_ringbuf_full++;
}

static __always_inline int redraw_entry(__u64 node)
{
	struct at_refresh_rec *r;

	setter_flush(); /* a setter the thread called before: its record comes first */
	if (!node || !allowed(bpf_get_current_pid_tgid() >> 32))
		return 0;
	r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
	if (!r) {
		refresh_full();
		return 0;
	}
	fill_hdr(&r->hdr, AT_REC_REFRESH, sizeof(*r));
	r->node = node;
	r->what = AT_REFRESH_REDRAW;
	r->pad = 0;
	bpf_ringbuf_submit(r, rb_flags());
	return 0;
}

/* Android 12+: finishRecording(canvasPtr, renderNodePtr). */
SEC("uprobe")
int BPF_KPROBE(at_redraw_arg2, __u64 canvas, __u64 node)
{
	return redraw_entry(node);
}

/* Android 11 and earlier: setDisplayList(env, clazz, renderNodePtr, displayListPtr). */
SEC("uprobe")
int BPF_KPROBE(at_redraw_arg3, void *env, void *clazz, __u64 node)
{
	return redraw_entry(node);
}

SEC("uprobe")
int BPF_KPROBE(at_vsync)
{
	struct at_refresh_rec *r;

	setter_flush(); /* a setter the thread called before: its record comes first */
	if (!allowed(bpf_get_current_pid_tgid() >> 32))
		return 0;
	r = bpf_ringbuf_reserve(&events, AT_VSYNC_REC_SIZE, 0);
	if (!r) {
		refresh_full();
		return 0;
	}
	fill_hdr(&r->hdr, AT_REC_REFRESH, AT_VSYNC_REC_SIZE);
	if (art_stack_bytes)
		art_stack(ctx, (struct at_art_stack *)(r + 1));
	r->node = 0;
	r->what = AT_REFRESH_VSYNC;
	r->pad = 0;
	bpf_ringbuf_submit(r, rb_flags());
	return 0;
}

#endif
