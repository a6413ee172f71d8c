/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `animtrace doctor`: whether live tracing can work on this device, one line per check
 * (`ok`, `missing`, `warn` or `skip`) with what to do for every line that is not ok.
 *
 * Blocking checks (a `missing` among them makes live tracing impossible): root, kernel >= 5.8,
 * BTF, BPF ring buffer, raw_syscalls:sys_enter, tracefs, and the target process when one was
 * asked for. Everything else (SELinux, kernel config, uprobes, debug.atrace properties, the
 * RenderNode setters, ART methods) only degrades what animtrace can show.
 *
 * Doctor only reads: it never mounts tracefs nor sets a property.
 */
#ifndef ANIMTRACE_DOCTOR_H
#define ANIMTRACE_DOCTOR_H

#include <stdio.h>

struct procfilter;

/* Every path may be NULL for its default; the overrides exist for tests. */
struct doctor_opts {
	const struct procfilter *filter; /* --proc/--pid; NULL or empty: process checks skip */
	const char *btf;		 /* /sys/kernel/btf/vmlinux */
	const char *config;		 /* /proc/config.gz, else /boot/config-$(uname -r) */
	const char *proc_root;		 /* /proc */
	const char *tracefs;		 /* /sys/kernel/tracing */
	const char *selinux;		 /* /sys/fs/selinux/enforce */
	const char *uprobe_type;	 /* /sys/bus/event_source/devices/uprobe/type */
	const char *release;		 /* kernel release; uname -r */
};

/*
 * Runs every check and writes its lines, then a verdict line, to out. Returns 0 when live
 * tracing of the selected process would work, 1 when a blocking check failed.
 */
int doctor_run(const struct doctor_opts *o, FILE *out);

/* `animtrace doctor [OPTION...]` with argv[0] == "doctor": exit status 0, 1, or 2 (usage). */
int doctor_main(int argc, char **argv);

#endif /* ANIMTRACE_DOCTOR_H */
