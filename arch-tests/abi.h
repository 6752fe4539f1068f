/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the arch-tests need to know of the ABI they are built for, from
 * the one header of abi/ that describes it. This is the only place that
 * tells ABIs apart by the compiler's macros; the tests use what the
 * header defines, and test for a syscall with #ifdef __NR_<name>.
 *
 * Every header defines ABI_NAME, the ABI as the harness names it
 * ("x86_64", "i386", "x32", "aarch64", "arm"). Those of the 32-bit ABIs
 * that a 64-bit kernel also runs, through its compat entry, define
 * ABI_COMPAT_MACHINE, that kernel's uname machine, and ABI_COMPAT_NAME,
 * the ABI's name there ("ia32-compat", "aarch32-compat"). All but x32,
 * whose tests are written for it alone, define:
 *
 *   ABI_AUDIT_ARCH	the AUDIT_ARCH_* of its calls, to seccomp and audit
 *   ABI_NR_BLACKLISTED	how many syscalls indirect() refuses on it
 *   ABI_AFTER_INDIRECT_RET, _WHAT	what __NR_indirect + 1 answers
 *   ABI_NR_HOLES	numbers that are no syscall on any kernel base
 *   ABI_BAD_ADDRS	addresses that a task of the ABI cannot read, which
 *			it may have mapped if ABI_BAD_ADDRS_MAY_BE_MAPPED
 *   ABI_UC_IP(), ABI_UC_RET(), abi_uc_arg(), abi_insn_before_ip(),
 *   abi_syscall_insn()	a SIGSYS handler's view of the call, and
 *			ABI_UC_NR() where the number has a register of its own
 *   ABI_ROLLBACK_RET(), _WHAT	what a seccomp TRAP leaves in the return
 *			register: the number (x86) or the first argument (arm)
 *   struct abi_regs, abi_reg_t, abi_get_regs(), abi_set_regs(),
 *   ABI_REG_NR(), ABI_REG_RET(), abi_reg_arg(), abi_set_reg_arg(),
 *   ABI_SET_REGS_HOW	a ptrace tracer's view of a syscall stop, and
 *			ABI_POKEUSER_NR where PTRACE_POKEUSER sets the
 *			syscall number
 *   ABI_SPARE_NAME, ABI_SPARE_MASK, ABI_SPARE_BEFORE, ABI_SPARE_FLIP,
 *   abi_reg_spare(), abi_syscall_spare()	a register of a tracer's view
 *			that is none of the syscall number, the arguments and
 *			the return register (bits of one, on i386), and a
 *			call made with the syscall instruction that reads it
 *			right after
 *   abi_clock(), abi_clock_units(), abi_clock_step(), ABI_CLOCK_NAME
 *			the benchmarks' clock, and the units of its step
 *
 * and some, what only they have: ABI_NR_URETPROBE (x86-64),
 * abi_port_in() (x86), ABI_STATFS64_SIZE (32-bit ABIs with statfs64()),
 * ABI_ARG64_EVEN_PAIRS (ARM EABI), ABI_RET_IS_ARG0 (ARM and AArch64,
 * whose return register is the first argument's too),
 * ABI_SINGLESTEP_FLAG and ABI_UC_FLAGS() (x86, whose single-step is a
 * flag of the task's saved frame).
 */
#ifndef ABI_H
#define ABI_H

#if defined(__x86_64__) && defined(__ILP32__)
#include "abi/x32.h"
#elif defined(__x86_64__)
#include "abi/x86_64.h"
#elif defined(__i386__)
#include "abi/i386.h"
#elif defined(__aarch64__)
#include "abi/aarch64.h"
#elif defined(__arm__) && defined(__ARM_EABI__) && defined(__ARMEL__)
#include "abi/arm.h"
#else
#error "arch-tests know x86-64, i386, x32, AArch64 and ARM EABI (LE) only"
#endif

#endif /* ABI_H */
