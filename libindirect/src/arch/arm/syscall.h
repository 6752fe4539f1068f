/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * 32-bit ARM, EABI (and AArch32 tasks on arm64): 402 in
 * arch/arm/tools/syscall.tbl (and, in 6.12, arch/arm64/tools/
 * syscall_32.tbl), the last number of arm's own table that upstream left
 * free: 387 is execveat there. The old ABI numbers from
 * __NR_OABI_SYSCALL_BASE; no number for it.
 */
#ifdef __ARM_EABI__
#define LIBINDIRECT_NR_INDIRECT		402
#endif
