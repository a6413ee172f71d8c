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
 * On Android it also shows a state file left by a run that was killed before it restored the
 * tracing properties (atrace_state.h): the next run restores them.
 *
 * Doctor only reads: it never mounts tracefs nor sets a property. Everything it asks the host
 * goes through a struct doctor_probes, so tests can describe any device.
 */
#ifndef ANIMTRACE_DOCTOR_H
#define ANIMTRACE_DOCTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct procfilter;

/* What doctor asks the host; each returns 0 or -errno unless it says otherwise. */
struct doctor_probes {
	unsigned int (*euid)(void);				   /* effective uid */
	int (*release)(char *buf, size_t cap);			   /* uname -r */
	int (*exists)(const char *path);			   /* stat */
	int (*readable)(const char *path);			   /* access R_OK */
	int (*writable)(const char *path);			   /* opens for writing */
	int (*read_line)(const char *path, char *buf, size_t cap); /* first line, no newline */
	/* Calls fn for each line (without newline) of a file, gzipped or not. */
	int (*each_line)(const char *path, void (*fn)(void *ctx, const char *line), void *ctx);
	int (*parse_btf)(const char *path); /* the file is kernel BTF */
	int (*ringbuf)(void); /* 1 when BPF_MAP_TYPE_RINGBUF loads, 0 when unknown, or -errno */
	bool (*has_getprop)(void);				 /* getprop on PATH */
	int (*getprop)(const char *name, char *val, size_t cap); /* "" when unset */
};

/* The real system: syscalls, libbpf, zlib and androidprop. */
extern const struct doctor_probes doctor_system_probes;

/* Every path may be NULL for its default; the overrides exist for tests. */
struct doctor_opts {
	const struct procfilter *filter;    /* --proc/--pid; NULL or empty: process checks skip */
	const char *btf;		    /* /sys/kernel/btf/vmlinux */
	const char *config;		    /* /proc/config.gz, else /boot/config-$(uname -r) */
	const char *proc_root;		    /* /proc */
	const char *tracefs;		    /* /sys/kernel/tracing */
	const char *selinux;		    /* /sys/fs/selinux/enforce */
	const char *uprobe_type;	    /* /sys/bus/event_source/devices/uprobe/type */
	const char *release;		    /* kernel release; uname -r */
	const char *state_dir;		    /* atrace state files: atrace_state_dir() */
	const struct doctor_probes *probes; /* NULL: doctor_system_probes */
};

/*
 * Runs every check and writes its lines, then a verdict line, to out. Returns 0 when live
 * tracing of the selected process would work, 1 when a blocking check failed.
 */
int doctor_run(const struct doctor_opts *o, FILE *out);

/* `animtrace doctor [OPTION...]` with argv[0] == "doctor": exit status 0, 1, or 2 (usage). */
int doctor_main(int argc, char **argv);

#endif /* ANIMTRACE_DOCTOR_H */
