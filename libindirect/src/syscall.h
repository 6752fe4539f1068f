/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The number of indirect() when the C library's <sys/syscall.h> has no
 * __NR_indirect, as on a stock distribution, whose kernel headers come
 * from an unpatched kernel: LIBINDIRECT_NR_INDIRECT, one file per
 * architecture, as liburing's src/arch/<arch>/syscall.h. Each number is
 * the patched kernel's (both series, 6.1 and 6.12), and one that upstream
 * has left unassigned and says it will not assign: calling it on a kernel
 * without indirect() gives ENOSYS and nothing else. An architecture not
 * listed gets no number: there, 387 may be a real system call (rseq on
 * powerpc, fgetxattr on alpha), so indirect() fails with ENOSYS without
 * entering the kernel, unless the system headers give __NR_indirect.
 *
 * Not installed: applications call indirect() and do not need the number.
 */
#ifndef LIBINDIRECT_SYSCALL_H
#define LIBINDIRECT_SYSCALL_H

#if defined(__x86_64__) || defined(__i386__)
#include "arch/x86/syscall.h"
#elif defined(__aarch64__)
#include "arch/aarch64/syscall.h"
#elif defined(__arm__)
#include "arch/arm/syscall.h"
#else
#include "arch/generic/syscall.h"
#endif

#endif /* LIBINDIRECT_SYSCALL_H */
