/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ia32 ABI (gcc -m32): native on the i386 target, and ia32 compat on
 * the x86_64 one. See abi.h.
 */
#ifndef ABI_I386_H
#define ABI_I386_H

#include <stddef.h>
#include <errno.h>
#include <stdint.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/ucontext.h>
#include <sys/user.h>
#include <linux/audit.h>

#define ABI_NAME		"i386"
#define ABI_COMPAT_MACHINE	"x86_64"
#define ABI_COMPAT_NAME		"ia32-compat"
/* Native i386 and ia32 compat alike. */
#define ABI_AUDIT_ARCH		AUDIT_ARCH_I386

/*
 * The blacklist (arch/x86/kernel/indirect.c): fork, vfork, clone,
 * clone3, execve, execveat, sigreturn, rt_sigreturn, vm86old, vm86,
 * restart_syscall, exit, exit_group, reboot and indirect.
 */
#define ABI_NR_BLACKLISTED	15

/* What __NR_indirect + 1 is: no syscall (388). */
#define ABI_AFTER_INDIRECT_RET		-ENOSYS
#define ABI_AFTER_INDIRECT_WHAT		"enosys"

/*
 * Numbers in the holes of the table on every kernel base and in every
 * later upstream table (scripts/numbering/data/reserved-bands.tsv).
 */
#define ABI_NR_HOLES { 222, 223, 251, 285, 388, 389, 390, 391, 392, 415 }

/*
 * Addresses that an ia32 task cannot read: those of the i386 kernel.
 * On a 64-bit kernel an ia32 task may map memory up to 0xffffe000, so
 * the test drops those that it finds mapped.
 */
#define ABI_BAD_ADDRS { \
	0xc0000000UL,		/* the i386 kernel's PAGE_OFFSET */ \
	0xc1000000UL, \
	0xbffffffeUL,		/* straddling it */ \
	0xffffe000UL,		/* ia32 compat's TASK_SIZE */ \
	0xfffff000UL, \
	0xfffffffcUL, \
	0xffffffffUL, \
}
#define ABI_BAD_ADDRS_MAY_BE_MAPPED	1

/* struct statfs64 as statfs64() takes its size: packed to 4 bytes. */
#define ABI_STATFS64_SIZE	84

/* An IN from an I/O port, which faults without iopl(3). */
static inline unsigned char abi_port_in(unsigned short port)
{
	unsigned char v;

	__asm__ volatile("inb %w1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

/*
 * A SIGSYS handler's ucontext: the instruction pointer, the return
 * register, argument register @i, and the syscall instruction that ends
 * at the instruction pointer.
 */
#define ABI_UC_IP(uc)		((uc)->uc_mcontext.gregs[REG_EIP])
#define ABI_UC_RET(uc)		((uc)->uc_mcontext.gregs[REG_EAX])

static inline unsigned long abi_uc_arg(const ucontext_t *uc, unsigned int i)
{
	static const int regs[] = {
		REG_EBX, REG_ECX, REG_EDX, REG_ESI, REG_EDI, REG_EBP,
	};

	return uc->uc_mcontext.gregs[regs[i]];
}

static inline unsigned long abi_insn_before_ip(const ucontext_t *uc)
{
	const unsigned char *ip = (const unsigned char *)ABI_UC_IP(uc);

	return ip[-2] << 8 | ip[-1];
}

/*
 * int $0x80: glibc's own, or the vDSO's, after which the kernel returns
 * from a SYSENTER or SYSCALL made there.
 */
static inline unsigned long abi_syscall_insn(const ucontext_t *uc)
{
	(void)uc;
	return 0xcd80;
}

/*
 * What a seccomp TRAP leaves in the return register of a call @nr whose
 * first argument is @arg0, as syscall_rollback() restores it: the
 * syscall number, from orig_ax.
 */
#define ABI_ROLLBACK_RET(nr, arg0)	(nr)
#define ABI_ROLLBACK_WHAT		"nr"

/*
 * A ptrace tracer's view of a syscall stop: the syscall number
 * (orig_eax), the return register and the six argument registers, read
 * and written with PTRACE_GETREGS and PTRACE_SETREGS. A tracer built
 * -m32 on x86-64 sees this layout through compat ptrace, as its tracee
 * is ia32 too.
 */
typedef long abi_reg_t;

struct abi_regs {
	struct user_regs_struct gp;
};

#define ABI_REG_NR(r)		((r)->gp.orig_eax)
#define ABI_REG_RET(r)		((r)->gp.eax)
#define ABI_SET_REGS_HOW	"PTRACE_SETREGS"
/* PTRACE_POKEUSER's offset of the syscall number. */
#define ABI_POKEUSER_NR		offsetof(struct user, regs.orig_eax)

static inline abi_reg_t *abi_reg_arg(struct abi_regs *r, unsigned int i)
{
	abi_reg_t *regs[] = {
		&r->gp.ebx, &r->gp.ecx, &r->gp.edx, &r->gp.esi, &r->gp.edi,
		&r->gp.ebp,
	};

	return regs[i];
}

/* Set argument register @i to @v. */
static inline void abi_set_reg_arg(struct abi_regs *r, unsigned int i,
				   abi_reg_t v)
{
	*abi_reg_arg(r, i) = v;
}

static inline long abi_get_regs(pid_t pid, struct abi_regs *r)
{
	return ptrace(PTRACE_GETREGS, pid, NULL, &r->gp);
}

static inline long abi_set_regs(pid_t pid, const struct abi_regs *r)
{
	return ptrace(PTRACE_SETREGS, pid, NULL, &r->gp);
}

/*
 * A register of a tracer's view that is neither the syscall number, an
 * argument nor the return register. ebx to ebp are all arguments, eax the
 * return register and orig_eax the number: what is left is esp, eip, the
 * segments and the flags, of which the direction flag is one that user
 * code may set and the kernel gives back as the frame holds it.
 * abi_syscall_spare() makes syscall @sysnr of four arguments with int
 * $0x80, DF clear as the ABI has it (ABI_SPARE_BEFORE), and stores in
 * *@spare the DF bit (ABI_SPARE_MASK) of the flags right after it, which
 * it then clears again; a tracer flips ABI_SPARE_FLIP, DF, in the flags
 * (abi_reg_spare()). Return the result, or -errno.
 */
#define ABI_SPARE_NAME		"eflags.DF"
#define ABI_SPARE_MASK		0x400UL		/* X86_EFLAGS_DF */
#define ABI_SPARE_BEFORE	0UL
#define ABI_SPARE_FLIP		0x400UL

static inline abi_reg_t *abi_reg_spare(struct abi_regs *r)
{
	return &r->gp.eflags;
}

static inline long abi_syscall_spare(long sysnr, unsigned long a0,
				     unsigned long a1, unsigned long a2,
				     unsigned long a3, unsigned long *spare)
{
	unsigned long flags;
	long ret;

	__asm__ volatile("int $0x80\n\t"
			 "pushfl\n\t"
			 "popl %1\n\t"
			 "cld"
			 : "=a"(ret), "=r"(flags)
			 : "0"(sysnr), "b"(a0), "c"(a1), "d"(a2), "S"(a3)
			 : "memory", "cc");
	*spare = flags & ABI_SPARE_MASK;
	return ret;
}

/*
 * Single-stepping sets the trap flag in the task's saved flags, which a
 * detach clears again; a SIGTRAP handler clears it in its ucontext.
 */
#define ABI_SINGLESTEP_FLAG	0x100UL		/* X86_EFLAGS_TF */
#define ABI_UC_FLAGS(uc)	((uc)->uc_mcontext.gregs[REG_EFL])

/*
 * The benchmarks' clock: the TSC, which under QEMU's "-icount shift=0"
 * counts guest instructions.
 */
#define ABI_CLOCK_NAME		"ticks"

static inline uint64_t abi_clock(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc; lfence"
			 : "=a"(lo), "=d"(hi) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* A difference of abi_clock() readings, in the units reported. */
static inline uint64_t abi_clock_units(uint64_t ticks)
{
	return ticks;
}

/* The units of one step of the clock: the TSC resolves single ticks. */
static inline uint64_t abi_clock_step(void)
{
	return 1;
}

#endif /* ABI_I386_H */
