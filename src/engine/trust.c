// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Who speaks for whom: the display's vsync writer, impostors. See trust.h. */
#include <stdio.h>
#include <string.h>

#include "engine/state.h"
#include "engine/trust.h"

bool trust__is_vsync_app(const struct marker *m)
{
	return m->type == MARKER_COUNTER && strv_eq(m->name, "VSYNC-app");
}

bool trust__is_surfaceflinger(const char *process)
{
	return process && (!strcmp(process, "surfaceflinger") ||
			   !strcmp(process, "/system/bin/surfaceflinger"));
}

static void say_foreign(struct trust *t, struct emit *out, uint32_t pid, const char *process,
			const char *why)
{
	char msg[AT_PROC_MAX + 256];

	t->vsync_foreign++;
	if (t->vsync_said)
		return;
	t->vsync_said = true;
	snprintf(msg, sizeof(msg),
		 "pid %u (%s) wrote SurfaceFlinger's VSYNC-app counter but %s: its vsyncs are "
		 "not used (said once; the summary counts them all)",
		 pid, process && *process ? process : "unnamed", why);
	SINK_CALL(out, note, msg);
}

bool trust__vsync(struct trust *t, struct emit *out, uint32_t pid, const char *process,
		  const struct trust_proc *tp)
{
	bool named = process && *process;

	if (tp && tp->impostor[0]) {
		say_foreign(t, out, pid, process, "is an impostor");
		return false;
	}
	if (named && !trust__is_surfaceflinger(process)) {
		say_foreign(t, out, pid, process, "is not SurfaceFlinger");
		return false;
	}
	if (!named && t->vsync_pid && t->vsync_pid != pid) {
		say_foreign(t, out, pid, process, "is not the process that wrote it first");
		return false;
	}
	if (named || !t->vsync_pid) /* SurfaceFlinger by name replaces a first unnamed one */
		t->vsync_pid = pid;
	return true;
}

void trust__impostor(struct trust_proc *tp, struct emit *out, uint32_t pid, const char *name,
		     const char *why)
{
	char msg[AT_PROC_MAX + AT_IDENTITY_MAX + 64];

	if (tp->impostor[0])
		return;
	snprintf(tp->impostor, sizeof(tp->impostor), "%s", why);
	snprintf(msg, sizeof(msg), "pid %u calls itself %s but is an impostor: %s", pid,
		 name && *name ? name : "?", why);
	SINK_CALL(out, note, msg);
}
