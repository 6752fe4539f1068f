/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The x86-64 ABI (gcc -m64), native on the x86_64 target. See abi.h.
 */
#ifndef ABI_X86_64_H
#define ABI_X86_64_H

#include <stddef.h>
#include <errno.h>
#include <stdint.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/ucontext.h>
#include <sys/user.h>
#include <linux/audit.h>

#define ABI_NAME		"x86_64"
#define ABI_AUDIT_ARCH		AUDIT_ARCH_X86_64

/*
 * The blacklist (arch/x86/kernel/indirect.c): fork, vfork, clone,
 * clone3, execve, execveat, rt_sigreturn, restart_syscall, exit,
 * exit_group, reboot, indirect and uretprobe.
 */
#define ABI_NR_BLACKLISTED	13
/*
 * uretprobe(), 6.11, x86-64 only: 335 on every kernel base. The binaries
 * of one base also run on the other base's kernel, so the running kernel
 * says whether the number is a syscall that must be refused (EINVAL) or
 * none yet (ENOSYS).
 */
#define ABI_NR_URETPROBE	335
#define ABI_URETPROBE_SINCE	611

/* What __NR_indirect + 1 is: no syscall (388). */
#define ABI_AFTER_INDIRECT_RET		-ENOSYS
#define ABI_AFTER_INDIRECT_WHAT		"enosys"

/*
 * Numbers in the holes of the table on every kernel base and in every
 * later upstream table (scripts/numbering/data/reserved-bands.tsv): 388 to
 * 423. Not 335 and 336 (uretprobe and uprobe, 6.11 and 6.18), nor 387,
 * indirect() itself.
 */
#define ABI_NR_HOLES { \
	388, 389, 390, 391, 392, 393, 394, 395, 396, 397, 398, 399, \
	400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, \
	412, 413, 414, 415, 416, 417, 418, 419, 420, 421, 422, 423, \
}

/* Addresses that no x86-64 task can read. */
#define ABI_BAD_ADDRS { \
	0xffffffff80000000UL,	/* the kernel image */ \
	0xffffffff81000000UL, \
	0xffff888000000000UL,	/* the direct map */ \
	0xfffffffffffffffcUL,	/* the very top */ \
	0x8000000000000000UL,	/* not canonical */ \
	0x0000800000000000UL,	/* the first address past user space */ \
	0x00007fffffffeffeUL,	/* straddling TASK_SIZE_MAX */ \
}

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
#define ABI_UC_IP(uc)		((uc)->uc_mcontext.gregs[REG_RIP])
#define ABI_UC_RET(uc)		((uc)->uc_mcontext.gregs[REG_RAX])

static inline unsigned long abi_uc_arg(const ucontext_t *uc, unsigned int i)
{
	static const int regs[] = {
		REG_RDI, REG_RSI, REG_RDX, REG_R10, REG_R8, REG_R9,
	};

	return uc->uc_mcontext.gregs[regs[i]];
}

static inline unsigned long abi_insn_before_ip(const ucontext_t *uc)
{
	const unsigned char *ip = (const unsigned char *)ABI_UC_IP(uc);

	return ip[-2] << 8 | ip[-1];
}

/* syscall */
static inline unsigned long abi_syscall_insn(const ucontext_t *uc)
{
	(void)uc;
	return 0x0f05;
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
 * (orig_rax), the return register and the six argument registers,
 * read and written with PTRACE_GETREGS and PTRACE_SETREGS.
 */
typedef unsigned long long abi_reg_t;

struct abi_regs {
	struct user_regs_struct gp;
};

#define ABI_REG_NR(r)		((r)->gp.orig_rax)
#define ABI_REG_RET(r)		((r)->gp.rax)
#define ABI_SET_REGS_HOW	"PTRACE_SETREGS"
/* PTRACE_POKEUSER's offset of the syscall number. */
#define ABI_POKEUSER_NR		offsetof(struct user, regs.orig_rax)

static inline abi_reg_t *abi_reg_arg(struct abi_regs *r, unsigned int i)
{
	abi_reg_t *regs[] = {
		&r->gp.rdi, &r->gp.rsi, &r->gp.rdx, &r->gp.r10, &r->gp.r8,
		&r->gp.r9,
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
 * argument nor the return register: r12. abi_syscall_spare() makes syscall
 * @sysnr of four arguments with the syscall instruction, ABI_SPARE_BEFORE
 * in that register, and stores in *@spare what the register holds right
 * after it, of the bits of ABI_SPARE_MASK; a tracer flips ABI_SPARE_FLIP
 * in it (abi_reg_spare()). Return the result, or -errno.
 */
#define ABI_SPARE_NAME		"r12"
#define ABI_SPARE_MASK		0xffffffffffffffffUL
#define ABI_SPARE_BEFORE	0x5a5a5a5a12345678UL
#define ABI_SPARE_FLIP		0x0ff0000000ff0000UL

static inline abi_reg_t *abi_reg_spare(struct abi_regs *r)
{
	return &r->gp.r12;
}

static inline long abi_syscall_spare(long sysnr, unsigned long a0,
				     unsigned long a1, unsigned long a2,
				     unsigned long a3, unsigned long *spare)
{
	register unsigned long r12 __asm__("r12") = ABI_SPARE_BEFORE;
	register unsigned long r10 __asm__("r10") = a3;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret), "+r"(r12)
			 : "0"(sysnr), "D"(a0), "S"(a1), "d"(a2), "r"(r10)
			 : "rcx", "r11", "memory");
	*spare = r12 & ABI_SPARE_MASK;
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

#endif /* ABI_X86_64_H */
