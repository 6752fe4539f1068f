/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Any other architecture: 387 if it numbers its calls as the generic
 * table does (RISC-V, LoongArch, ...), which the patched
 * include/uapi/asm-generic/unistd.h gives indirect(), in the band of
 * numbers that upstream never assigns there; io_setup is 0 in that table
 * only. No number otherwise: the architecture's own table may have a
 * real call at 387.
 */
#include <sys/syscall.h>

#if defined(__NR_io_setup) && __NR_io_setup == 0
#define LIBINDIRECT_NR_INDIRECT		387
#endif
