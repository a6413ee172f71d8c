/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The kernel types the BPF programs' CO-RE relocations need, without the kernel's whole BTF.
 * libbpf reads all of /sys/kernel/btf/vmlinux (5.5 MB, held twice while it parses) to
 * relocate a few dozen fields. The build cuts those types out of one kernel's BTF
 * (bpftool gen min_core_btf: under 1 KB) and embeds them with that BTF's size and CRC-32;
 * they are handed to libbpf (btf_custom_path) only when the running kernel's BTF is that
 * very one. Any other kernel, or a build that embedded none, gets libbpf's full read.
 */
#ifndef ANIMTRACE_COREBTF_H
#define ANIMTRACE_COREBTF_H

#include <stddef.h>
#include <stdint.h>

#define COREBTF_KERNEL "/sys/kernel/btf/vmlinux"

/* What the build embedded: the cut types and the identity of the BTF they came from. */
struct corebtf_blob {
	const void *data;
	size_t len;	      /* 0: the build embedded none */
	uint64_t kernel_size; /* bytes of the kernel BTF they were cut from */
	uint32_t kernel_crc;  /* its CRC-32 (zlib's, as in a gzip trailer) */
};

/* The types this binary embeds. */
const struct corebtf_blob *corebtf_embedded(void);

/*
 * 0 when the file kernel_btf has b's size and CRC-32 (read through a small buffer), -ESTALE
 * when it is another kernel's, -ENOENT when b holds nothing, -errno when unreadable.
 */
int corebtf_match(const struct corebtf_blob *b, const char *kernel_btf);

/*
 * b's types in a memory file for btf_custom_path: returns its fd (the caller closes it once
 * the object is loaded) with path set to its /proc/self/fd name, or -errno.
 */
int corebtf_memfd(const struct corebtf_blob *b, char *path, size_t cap);

#endif
