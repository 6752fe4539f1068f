/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AArch64 ABI, native on the arm64 target. See abi.h.
 */
#ifndef ABI_AARCH64_H
#define ABI_AARCH64_H

#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/ucontext.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <linux/audit.h>

#define ABI_NAME		"aarch64"
#define ABI_AUDIT_ARCH		AUDIT_ARCH_AARCH64

/*
 * The blacklist (arch/arm64/kernel/indirect.c): clone, clone3, execve,
 * execveat, rt_sigreturn, restart_syscall, exit, exit_group, reboot and
 * indirect. The generic table has no fork or vfork.
 */
#define ABI_NR_BLACKLISTED	10

/* What __NR_indirect + 1 is: no syscall (388). */
#define ABI_AFTER_INDIRECT_RET		-ENOSYS
#define ABI_AFTER_INDIRECT_WHAT		"enosys"

/*
 * Numbers in the holes of the generic table on every kernel base and in
 * every later one: 388 to 402, which include/uapi/asm-generic/unistd.h
 * keeps unassigned for good ("295 through 402 are unassigned to sync up
 * with generic numbers, don't use"), and 403 to 423, the time64 calls of
 * 32-bit ABIs only. Not 387, indirect() itself.
 */
#define ABI_NR_HOLES { \
	388, 389, 390, 391, 392, 393, 394, 395, 396, 397, 398, 399, \
	400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, \
	412, 413, 414, 415, 416, 417, 418, 419, 420, 421, 422, 423, \
}

/* Addresses that no AArch64 task can read. */
#define ABI_BAD_ADDRS { \
	0xffff800080000000UL,	/* the kernel image (48-bit VA) */ \
	0xffff000000000000UL,	/* the linear map */ \
	0xfffffffffffffffcUL,	/* the very top */ \
	0x8000000000000000UL,	/* in neither half */ \
	0x0001000000000000UL,	/* past 48-bit user space */ \
	0x0000fffffffffffeUL,	/* straddling it */ \
	0x5a00000000001000UL,	/* tagged, which access_ok() refuses */ \
}

/*
 * A SIGSYS handler's ucontext: the instruction pointer, the return
 * register, argument register @i, the syscall number register, and the
 * syscall instruction that ends at the instruction pointer.
 */
#define ABI_UC_IP(uc)		((uc)->uc_mcontext.pc)
#define ABI_UC_RET(uc)		((uc)->uc_mcontext.regs[0])
#define ABI_UC_NR(uc)		((uc)->uc_mcontext.regs[8])

static inline unsigned long abi_uc_arg(const ucontext_t *uc, unsigned int i)
{
	return uc->uc_mcontext.regs[i];
}

static inline unsigned long abi_insn_before_ip(const ucontext_t *uc)
{
	return *((const uint32_t *)ABI_UC_IP(uc) - 1);
}

/* svc #0 */
static inline unsigned long abi_syscall_insn(const ucontext_t *uc)
{
	(void)uc;
	return 0xd4000001;
}

/*
 * What a seccomp TRAP leaves in the return register of a call @nr whose
 * first argument is @arg0, as syscall_rollback() restores it: x0 is
 * both, and gets back the first argument, from orig_x0.
 */
#define ABI_ROLLBACK_RET(nr, arg0)	(arg0)
#define ABI_ROLLBACK_WHAT		"arg0"

/*
 * The return register is also the first argument's (x0). At the seccomp
 * stop of an inner call (PTRACE_O_INDIRECT) it holds the inner call's
 * first argument, as a direct call's does, and a tracer that changes it
 * without skipping the call has changed the return register, which
 * fails the call with EPERM: the first argument of an inner call cannot
 * be changed there.
 */
#define ABI_RET_IS_ARG0		1

/*
 * A ptrace tracer's view of a syscall stop: the general registers
 * (PTRACE_GETREGSET of NT_PRSTATUS), x0 the return register and x0 to
 * x5 the arguments, and the syscall number, which is not x8 but the
 * kernel's copy of it (NT_ARM_SYSTEM_CALL; -1 skips the call).
 */
typedef unsigned long long abi_reg_t;

struct abi_regs {
	struct user_regs_struct gp;
	int nr;
};

#define ABI_REG_NR(r)		((r)->nr)
#define ABI_REG_RET(r)		((r)->gp.regs[0])
#define ABI_SET_REGS_HOW	"PTRACE_SETREGSET"

static inline abi_reg_t *abi_reg_arg(struct abi_regs *r, unsigned int i)
{
	return &r->gp.regs[i];
}

/*
 * Set argument register @i to @v. At a syscall stop the kernel takes a
 * new x0 for orig_x0 too, which it reports as the syscall's first
 * argument.
 */
static inline void abi_set_reg_arg(struct abi_regs *r, unsigned int i,
				   abi_reg_t v)
{
	*abi_reg_arg(r, i) = v;
}

static inline long abi_get_regs(pid_t pid, struct abi_regs *r)
{
	struct iovec gp = { &r->gp, sizeof(r->gp) };
	struct iovec nr = { &r->nr, sizeof(r->nr) };

	if (ptrace(PTRACE_GETREGSET, pid, (void *)NT_PRSTATUS, &gp))
		return -1;
	return ptrace(PTRACE_GETREGSET, pid, (void *)NT_ARM_SYSTEM_CALL, &nr);
}

static inline long abi_set_regs(pid_t pid, const struct abi_regs *r)
{
	struct iovec gp = { (void *)&r->gp, sizeof(r->gp) };
	struct iovec nr = { (void *)&r->nr, sizeof(r->nr) };

	if (ptrace(PTRACE_SETREGSET, pid, (void *)NT_PRSTATUS, &gp))
		return -1;
	return ptrace(PTRACE_SETREGSET, pid, (void *)NT_ARM_SYSTEM_CALL, &nr);
}

/*
 * A register of a tracer's view that is neither the syscall number, an
 * argument nor the return register: x19 (not x7, which a syscall stop's
 * report borrows). abi_syscall_spare() makes syscall @sysnr of four
 * arguments with svc, ABI_SPARE_BEFORE in that register, and stores in
 * *@spare what the register holds right after it, of the bits of
 * ABI_SPARE_MASK; a tracer flips ABI_SPARE_FLIP in it (abi_reg_spare()).
 * Return the result, or -errno.
 */
#define ABI_SPARE_NAME		"x19"
#define ABI_SPARE_MASK		0xffffffffffffffffUL
#define ABI_SPARE_BEFORE	0x5a5a5a5a12345678UL
#define ABI_SPARE_FLIP		0x0ff0000000ff0000UL

static inline abi_reg_t *abi_reg_spare(struct abi_regs *r)
{
	return &r->gp.regs[19];
}

static inline long abi_syscall_spare(long sysnr, unsigned long a0,
				     unsigned long a1, unsigned long a2,
				     unsigned long a3, unsigned long *spare)
{
	register unsigned long x8 __asm__("x8") = sysnr;
	register unsigned long x0 __asm__("x0") = a0;
	register unsigned long x1 __asm__("x1") = a1;
	register unsigned long x2 __asm__("x2") = a2;
	register unsigned long x3 __asm__("x3") = a3;
	register unsigned long x19 __asm__("x19") = ABI_SPARE_BEFORE;

	__asm__ volatile("svc #0"
			 : "+r"(x0), "+r"(x19)
			 : "r"(x8), "r"(x1), "r"(x2), "r"(x3)
			 : "memory");
	*spare = x19 & ABI_SPARE_MASK;
	return x0;
}

/*
 * The benchmarks' clock: the virtual counter, CNTVCT_EL0, in
 * nanoseconds. QEMU's generic timer ticks in virtual nanoseconds, which
 * under "-icount shift=0" are guest instructions, so that the figures
 * count instructions, as the TSC does on x86 (in steps of the counter's
 * period, 16 ns at QEMU's 62.5 MHz).
 */
#define ABI_CLOCK_NAME		"ns"

static inline uint64_t abi_clock(void)
{
	uint64_t v;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
}

/* A difference of abi_clock() readings, in nanoseconds. */
static inline uint64_t abi_clock_units(uint64_t ticks)
{
	static uint64_t freq;

	if (!freq)
		__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(freq));
	return freq ? ticks * 1000000000ULL / freq : ticks;
}

/*
 * The nanoseconds of one step of the counter, 16 at QEMU's 62.5 MHz: the
 * benchmarks time that many calls together, to resolve one instruction.
 */
static inline uint64_t abi_clock_step(void)
{
	return abi_clock_units(1) ? abi_clock_units(1) : 1;
}

#endif /* ABI_AARCH64_H */
