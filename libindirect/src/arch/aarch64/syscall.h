/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AArch64: 387 in the generic table, include/uapi/asm-generic/unistd.h
 * (and, in 6.12, scripts/syscall.tbl and arch/arm64/tools/syscall_64.tbl),
 * where upstream says "295 through 402 are unassigned to sync up with
 * generic numbers, don't use".
 */
#define LIBINDIRECT_NR_INDIRECT		387
