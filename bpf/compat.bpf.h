/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Architecture and kernel-version differences, in one place. */
#ifndef ANIMTRACE_COMPAT_BPF_H
#define ANIMTRACE_COMPAT_BPF_H

/* write(2) numbers: arch/x86/entry/syscalls/syscall_64.tbl, include/uapi/asm-generic/unistd.h */
/* getppid(2) is the self-test: animtrace calls it to see its sys_enter program run. */
#if defined(__TARGET_ARCH_x86)
#define AT_NR_WRITE 1
#define AT_NR_GETPPID 110
#elif defined(__TARGET_ARCH_arm64)
#define AT_NR_WRITE 64
#define AT_NR_GETPPID 173
#else
#error "animtrace: unsupported __TARGET_ARCH"
#endif

#ifndef offsetof
#define offsetof(t, m) __builtin_offsetof(t, m)
#endif

#endif
