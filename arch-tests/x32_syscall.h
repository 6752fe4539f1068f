/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64 system calls from an x32 task, for the tests built -mx32.
 *
 * indirect() has no x32 entry: an x32 task calls it as the native x86-64
 * syscall, 387 without __X32_SYSCALL_BIT, with 64-bit pointers and
 * words and an x86-64 number for the inner call. The calls are made with
 * the syscall instruction and 64-bit registers, not through glibc's
 * syscall(), whose arguments are 32-bit longs here. The numbers are the
 * x86-64 ones, from unistd_64.h of the patched kernel (asm/unistd.h would
 * give the x32 ones).
 */
#ifndef X32_SYSCALL_H
#define X32_SYSCALL_H

#include <stdint.h>
#include <asm/unistd_64.h>
#include <linux/indirect.h>

#if !defined(__x86_64__) || !defined(__ILP32__)
#error "x32_syscall.h is for tests built with -mx32 only"
#endif
#ifndef __NR_indirect
#error "__NR_indirect is missing: build against the patched kernel's headers"
#endif

/* The number the binary was built with, as in indirect_test.h. */
#define INDIRECT_STR(x)		#x
#define INDIRECT_XSTR(x)	INDIRECT_STR(x)
static const char indirect_nr_tag[] __attribute__((used)) =
	"indirect-nr=" INDIRECT_XSTR(__NR_indirect);

/* As in asm/unistd.h, which cannot be included beside unistd_64.h. */
#define X32_SYSCALL_BIT		0x40000000ULL

/* A syscall with 64-bit registers: the result, or -errno. */
static inline int64_t syscall64(uint64_t nr, uint64_t a0, uint64_t a1,
				uint64_t a2, uint64_t a3)
{
	register uint64_t r10 __asm__("r10") = a3;
	int64_t ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a0), "S"(a1), "d"(a2), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
}

/* indirect(@nr, @ctxs, @nctxs, @params), the x86-64 call. */
static inline int64_t indirect64(uint64_t nr, const uint64_t *ctxs,
				 uint64_t nctxs, const uint64_t *params)
{
	return syscall64(__NR_indirect, nr, (uintptr_t)ctxs, nctxs,
			 (uintptr_t)params);
}

static inline uint64_t ptr64(const void *p)
{
	return (uintptr_t)p;
}

#endif /* X32_SYSCALL_H */
