/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The 32-bit ARM ABI (EABI, hard float: the armhf set), run by the arm64
 * target through its AArch32 compat ABI. See abi.h.
 */
#ifndef ABI_ARM_H
#define ABI_ARM_H

#include <errno.h>
#include <stdint.h>
#include <sys/ptrace.h>		/* before <asm/ptrace.h>, whose macros */
#include <sys/types.h>		/* would rename its enumerators */
#include <sys/ucontext.h>
#include <sys/user.h>
#include <asm/ptrace.h>
#include <linux/audit.h>

#define ABI_NAME		"arm"
#define ABI_COMPAT_MACHINE	"aarch64"
#define ABI_COMPAT_NAME		"aarch32-compat"
/* Native ARM and AArch32 compat alike (little-endian). */
#define ABI_AUDIT_ARCH		AUDIT_ARCH_ARM

/*
 * The blacklist (arch/arm64/kernel/indirect32.c): fork, vfork, clone,
 * clone3, execve, execveat, sigreturn, rt_sigreturn, restart_syscall,
 * exit, exit_group, reboot and indirect.
 */
#define ABI_NR_BLACKLISTED	13

/*
 * What __NR_indirect + 1 is, without arguments: clock_gettime64 (403),
 * of a NULL timespec.
 */
#define ABI_AFTER_INDIRECT_RET		-EFAULT
#define ABI_AFTER_INDIRECT_WHAT		"clock_gettime64_efault"

/*
 * Numbers that are no syscall of the EABI table, native or compat, on
 * every kernel base: OABI calls that EABI never had, and holes that ARM
 * keeps (222, 223 and 415 as in the generic table).
 */
#define ABI_NR_HOLES { 7, 17, 31, 35, 44, 53, 98, 166, 222, 223, 254, 415 }

/*
 * Addresses that an AArch32 task cannot read: those of a native ARM
 * kernel (3G/1G split), and the top page. On arm64 an AArch32 task may
 * map memory up to 0xfffff000, and the vectors page (kuser helpers) is
 * at 0xffff0000, so the test drops those that it finds mapped.
 */
#define ABI_BAD_ADDRS { \
	0xc0000000UL,		/* a native ARM kernel's PAGE_OFFSET */ \
	0xc1000000UL, \
	0xbffffffeUL,		/* straddling it */ \
	0xffff0000UL,		/* the vectors page, if not mapped */ \
	0xfffff000UL,		/* AArch32 compat's TASK_SIZE */ \
	0xfffffffcUL, \
	0xffffffffUL, \
}
#define ABI_BAD_ADDRS_MAY_BE_MAPPED	1

/*
 * A 64-bit argument takes an even/odd pair of registers, low half first:
 * one that would start at an odd one (pread64's offset, the fourth) comes
 * after a word of padding (INDIRECT_PAD64 of libindirect).
 */
#define ABI_ARG64_EVEN_PAIRS	1

/*
 * struct statfs64 as statfs64() takes its size: EABI pads it to 88
 * bytes, which the kernel takes for its packed 84.
 */
#define ABI_STATFS64_SIZE	88

/*
 * A SIGSYS handler's ucontext: the instruction pointer, the return
 * register, argument register @i, the syscall number register (r7), and
 * the syscall instruction that ends at the instruction pointer, in the
 * ARM or Thumb encoding that the T bit of the CPSR says.
 */
#define ABI_UC_IP(uc)		((uc)->uc_mcontext.arm_pc)
#define ABI_UC_RET(uc)		((uc)->uc_mcontext.arm_r0)
#define ABI_UC_NR(uc)		((uc)->uc_mcontext.arm_r7)
#define ABI_PSR_T		0x20

static inline unsigned long abi_uc_arg(const ucontext_t *uc, unsigned int i)
{
	const mcontext_t *m = &uc->uc_mcontext;

	switch (i) {
	case 0: return m->arm_r0;
	case 1: return m->arm_r1;
	case 2: return m->arm_r2;
	case 3: return m->arm_r3;
	case 4: return m->arm_r4;
	default: return m->arm_r5;
	}
}

static inline unsigned long abi_insn_before_ip(const ucontext_t *uc)
{
	if (uc->uc_mcontext.arm_cpsr & ABI_PSR_T)
		return *((const uint16_t *)ABI_UC_IP(uc) - 1);
	return *((const uint32_t *)ABI_UC_IP(uc) - 1);
}

/* svc #0: 0xdf00 in Thumb, 0xef000000 in ARM. */
static inline unsigned long abi_syscall_insn(const ucontext_t *uc)
{
	return uc->uc_mcontext.arm_cpsr & ABI_PSR_T ? 0xdf00 : 0xef000000;
}

/*
 * What a seccomp TRAP leaves in the return register of a call @nr whose
 * first argument is @arg0, as syscall_rollback() restores it: r0 is
 * both, and gets back the first argument, from orig_r0.
 */
#define ABI_ROLLBACK_RET(nr, arg0)	(arg0)
#define ABI_ROLLBACK_WHAT		"arg0"

/*
 * The return register is also the first argument's (r0). At the seccomp
 * stop of an inner call (PTRACE_O_INDIRECT) it holds the inner call's
 * first argument, as a direct call's does, and a tracer that changes it
 * without skipping the call has changed the return register, which
 * fails the call with EPERM: the first argument of an inner call cannot
 * be changed there.
 */
#define ABI_RET_IS_ARG0		1

/*
 * A ptrace tracer's view of a syscall stop: struct pt_regs (PTRACE_GETREGS
 * and PTRACE_SETREGS), r0 the return register and r0 to r5 the
 * arguments, and the syscall number, which the task passed in r7 and
 * which only PTRACE_SET_SYSCALL changes (-1 skips the call). A tracer of
 * this ABI sees its AArch32 tracee so through compat ptrace on arm64.
 */
typedef long abi_reg_t;

struct abi_regs {
	struct pt_regs gp;
	long nr;
};

#define ABI_REG_NR(r)		((r)->nr)
#define ABI_REG_RET(r)		((r)->gp.ARM_r0)
#define ABI_SET_REGS_HOW	"PTRACE_SETREGS"

static inline abi_reg_t *abi_reg_arg(struct abi_regs *r, unsigned int i)
{
	return &r->gp.uregs[i];
}

/*
 * Set argument register @i to @v. The first argument is also orig_r0,
 * which the kernel reports as the syscall's first argument (to seccomp,
 * audit, PTRACE_GET_SYSCALL_INFO), and which on arm64 only a compat
 * tracer's write of orig_r0 itself changes: a tracer changes both.
 */
static inline void abi_set_reg_arg(struct abi_regs *r, unsigned int i,
				   abi_reg_t v)
{
	r->gp.uregs[i] = v;
	if (!i)
		r->gp.ARM_ORIG_r0 = v;
}

static inline long abi_get_regs(pid_t pid, struct abi_regs *r)
{
	if (ptrace(PTRACE_GETREGS, pid, NULL, &r->gp))
		return -1;
	r->nr = r->gp.ARM_r7;
	return 0;
}

static inline long abi_set_regs(pid_t pid, const struct abi_regs *r)
{
	if (ptrace(PTRACE_SETREGS, pid, NULL, &r->gp))
		return -1;
	return ptrace(PTRACE_SET_SYSCALL, pid, NULL, (void *)r->nr);
}

/*
 * A register of a tracer's view that is neither the syscall number, an
 * argument nor the return register: r8 (not r12, which a syscall stop's
 * report borrows on arm64). abi_syscall_spare() makes syscall @sysnr of
 * four arguments with svc, ABI_SPARE_BEFORE in that register, and stores
 * in *@spare what the register holds right after it, of the bits of
 * ABI_SPARE_MASK; a tracer flips ABI_SPARE_FLIP in it (abi_reg_spare()).
 * r7, the number's, is Thumb's frame pointer: the call saves it around
 * the svc. Return the result, or -errno.
 */
#define ABI_SPARE_NAME		"r8"
#define ABI_SPARE_MASK		0xffffffffUL
#define ABI_SPARE_BEFORE	0x5a5a1234UL
#define ABI_SPARE_FLIP		0x0ff000ffUL

static inline abi_reg_t *abi_reg_spare(struct abi_regs *r)
{
	return &r->gp.uregs[8];
}

static inline long abi_syscall_spare(long sysnr, unsigned long a0,
				     unsigned long a1, unsigned long a2,
				     unsigned long a3, unsigned long *spare)
{
	register unsigned long r0 __asm__("r0") = a0;
	register unsigned long r1 __asm__("r1") = a1;
	register unsigned long r2 __asm__("r2") = a2;
	register unsigned long r3 __asm__("r3") = a3;
	register unsigned long r8 __asm__("r8") = ABI_SPARE_BEFORE;

	__asm__ volatile("push {r7}\n\t"
			 "mov r7, %[nr]\n\t"
			 "svc #0\n\t"
			 "pop {r7}"
			 : "+r"(r0), "+r"(r8)
			 : [nr] "r"(sysnr), "r"(r1), "r"(r2), "r"(r3)
			 : "memory");
	*spare = r8 & ABI_SPARE_MASK;
	return r0;
}

/*
 * The benchmarks' clock: the virtual counter, CNTVCT, in nanoseconds.
 * QEMU's generic timer ticks in virtual nanoseconds, which under
 * "-icount shift=0" are guest instructions, so that the figures count
 * instructions, as the TSC does on x86 (in steps of the counter's
 * period, 16 ns at QEMU's 62.5 MHz). arm64 lets EL0 read it, in
 * AArch32 as in AArch64.
 */
#define ABI_CLOCK_NAME		"ns"

static inline uint64_t abi_clock(void)
{
	uint64_t v;

	__asm__ volatile("isb; mrrc p15, 1, %Q0, %R0, c14"
			 : "=r"(v) :: "memory");
	return v;
}

/* A difference of abi_clock() readings, in nanoseconds. */
static inline uint64_t abi_clock_units(uint64_t ticks)
{
	static uint32_t freq;

	if (!freq)
		__asm__ volatile("mrc p15, 0, %0, c14, c0, 0" : "=r"(freq));
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

#endif /* ABI_ARM_H */
