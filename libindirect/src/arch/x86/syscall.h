/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * x86: 387 in arch/x86/entry/syscalls/syscall_32.tbl (i386, and ia32
 * tasks on x86-64) and syscall_64.tbl (x86-64). Upstream leaves 387-392
 * unassigned in the first and says "don't use numbers 387 through 423"
 * in the second.
 *
 * x32 has no indirect(): 387 is a "64" entry only, and an x32 task that
 * called it without __X32_SYSCALL_BIT would run the x86-64 call, which
 * reads six 64-bit words of params where x32 passes 32-bit ones. With the
 * bit, the x32 number, the kernel answers ENOSYS, as on a kernel without
 * indirect().
 */
#if defined(__x86_64__) && defined(__ILP32__)
#define LIBINDIRECT_NR_INDIRECT		(0x40000000 | 387)	/* __X32_SYSCALL_BIT */
#else
#define LIBINDIRECT_NR_INDIRECT		387
#endif
