// SPDX-License-Identifier: GPL-2.0
/*
 * What a ptrace tracer that reads PTRACE_GET_SYSCALL_INFO (strace, gdb's
 * catch syscall) learns of an inner call of indirect(). Its syscall
 * stops are those of indirect() itself: the entry stop names
 * __NR_indirect, in the caller's AUDIT_ARCH_*, with the inner number as
 * the first argument; the exit stop gives the inner call's result, or
 * the error with which indirect() refused it.
 *
 * A seccomp filter that answers TRACE to the inner call stops the task
 * in between only if the tracer set PTRACE_O_INDIRECT. That stop is the
 * inner call's, as a direct call's stop is that call's: op
 * PTRACE_SYSCALL_INFO_SECCOMP with the inner number, arch and arguments
 * and the filter's data, and the flag PTRACE_SYSCALL_INFO_INDIRECT,
 * which a direct call's stop has not; the registers hold the inner call
 * too. At the exit stop they are indirect()'s again. A tracer without
 * the option gets no seccomp stop for the inner call, whose exit stop
 * gives ENOSYS, while a direct call still stops it.
 *
 * Tracers that must see every inner call read the tracepoints
 * (indirect_trace_test) or decode indirect()'s arguments.
 */
#include <signal.h>
#include <sys/ptrace.h>
#include "indirect_tracer.h"

/* The 16 bits of data the filter passes to the tracer. */
#define FILTER_DATA		0x1d1
/* Stops of the child that the tracer keeps: far more than it makes. */
#define STOPS_MAX		64
/* Seconds the child may take, far beyond what it needs under TCG. */
#define CHILD_TIME_LIMIT	60

/* The inner getppid()'s arguments, which it ignores. */
static const unsigned long marked[INDIRECT_NR_PARAMS] = {
	0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
};

/* Each stop: what PTRACE_GET_SYSCALL_INFO and the registers said. */
static struct __ptrace_syscall_info stops[STOPS_MAX];
static struct abi_regs regs[STOPS_MAX];
static unsigned int nstops;

/*
 * The traced child: indirect(getppid), a direct getppid() with the same
 * arguments, then indirect(indirect), which indirect() refuses.
 */
static void child_run(void)
{
	unsigned long self[INDIRECT_NR_PARAMS] = { __NR_getppid };
	struct seccomp_match m = { .nr = __NR_getppid };

	alarm(CHILD_TIME_LIMIT);
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
		_exit(2);
	if (seccomp_install_match(&m, SECCOMP_RET_TRACE | FILTER_DATA, 0) < 0)
		_exit(3);
	raise(SIGSTOP);
	indirect_result(__NR_getppid, NULL, 0, marked);
	direct_call(__NR_getppid, marked);
	indirect_result(__NR_indirect, NULL, 0, self);
	_exit(0);
}

/* Trace @pid to its end with @options, keeping what each stop reports. */
static void trace(pid_t pid, unsigned long options, long *indirect_set)
{
	int status, sig = 0;

	nstops = 0;
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		ksft_exit_fail_msg("the child did not stop: status %#x\n",
				   status);
	tracer_set_options(pid, options | PTRACE_O_TRACESYSGOOD |
			   PTRACE_O_TRACESECCOMP | PTRACE_O_EXITKILL,
			   indirect_set);
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, NULL, (void *)(long)sig))
			ksft_exit_fail_msg("PTRACE_SYSCALL: %s\n",
					   strerror(errno));
		if (waitpid(pid, &status, 0) != pid)
			ksft_exit_fail_msg("waitpid: %s\n", strerror(errno));
		if (WIFEXITED(status) || WIFSIGNALED(status))
			break;
		sig = 0;
		if (WSTOPSIG(status) != (SIGTRAP | 0x80) &&
		    !is_seccomp_stop(status)) {
			sig = WSTOPSIG(status);
			continue;
		}
		if (nstops == STOPS_MAX)
			ksft_exit_fail_msg("more than %d stops\n", STOPS_MAX);
		if (get_syscall_info(pid, &stops[nstops]) <= 0)
			ksft_exit_fail_msg("PTRACE_GET_SYSCALL_INFO: %s\n",
					   strerror(errno));
		if (abi_get_regs(pid, &regs[nstops]))
			ksft_exit_fail_msg("reading the registers: %s\n",
					   strerror(errno));
		nstops++;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		ksft_exit_fail_msg("the child ended with status %#x\n", status);
}

/* The index of the entry stop of syscall @nr with first argument @arg0. */
static unsigned int entry_of(long nr, unsigned long arg0)
{
	unsigned int i;

	for (i = 0; i < nstops; i++)
		if (stops[i].op == PTRACE_SYSCALL_INFO_ENTRY &&
		    stops[i].entry.nr == (unsigned long)nr &&
		    stops[i].entry.args[0] == arg0)
			break;
	return i;
}

/* The stop after @i, if it is of @op; else NULL. */
static const struct __ptrace_syscall_info *next_stop(unsigned int i, int op)
{
	return i + 1 < nstops && stops[i + 1].op == op ? &stops[i + 1] : NULL;
}

/* The arguments of a seccomp stop that differ from marked[], as bits. */
static long seccomp_args_differing(const struct __ptrace_syscall_info *info)
{
	long differing = 0;
	unsigned int i;

	for (i = 0; i < INDIRECT_NR_PARAMS; i++)
		if (info->seccomp.args[i] != marked[i])
			differing |= 1L << i;
	return differing;
}

/* The argument registers that differ from marked[], as bits. */
static long regs_args_differing(struct abi_regs *r)
{
	long differing = 0;
	unsigned int i;

	for (i = 0; i < INDIRECT_NR_PARAMS; i++)
		if ((unsigned long)*abi_reg_arg(r, i) != marked[i])
			differing |= 1L << i;
	return differing;
}

/* The tracer set PTRACE_O_INDIRECT: it is stopped for the inner call. */
static void check_aware(long indirect_set)
{
	const struct __ptrace_syscall_info *seccomp = NULL, *exit = NULL;
	unsigned int i = entry_of(__NR_indirect, __NR_getppid), s = 0, e = 0;

	check_long("aware_option_accepted", 1, indirect_set);
	check_long("aware_entry_stop_names_indirect_and_inner_nr", 1,
		   i < nstops);
	check_long("aware_entry_stop_arch", INDIRECT_AUDIT_ARCH,
		   i < nstops ? (long)stops[i].arch : -1);
	if (i < nstops) {
		seccomp = next_stop(i, PTRACE_SYSCALL_INFO_SECCOMP);
		s = i + 1;
	}
	check_long("aware_seccomp_stop_follows_entry", 1, seccomp != NULL);
	check_long("aware_seccomp_stop_nr_is_inner", __NR_getppid,
		   seccomp ? (long)seccomp->seccomp.nr : -1);
	check_long("aware_seccomp_stop_arch", INDIRECT_AUDIT_ARCH,
		   seccomp ? (long)seccomp->arch : -1);
	check_long("aware_seccomp_stop_args_are_inner", 0,
		   seccomp ? seccomp_args_differing(seccomp) : -1);
	check_long("aware_seccomp_stop_ret_data", FILTER_DATA,
		   seccomp ? (long)seccomp->seccomp.ret_data : -1);
	check_long("aware_seccomp_stop_flags_indirect",
		   PTRACE_SYSCALL_INFO_INDIRECT,
		   seccomp ? (long)syscall_info_flags(seccomp) : -1);
	check_long("aware_seccomp_stop_regs_nr_is_inner", __NR_getppid,
		   seccomp ? (long)ABI_REG_NR(&regs[s]) : -1);
	check_long("aware_seccomp_stop_regs_args_are_inner", 0,
		   seccomp ? regs_args_differing(&regs[s]) : -1);
	if (i < nstops) {
		e = seccomp ? i + 2 : i + 1;
		exit = next_stop(e - 1, PTRACE_SYSCALL_INFO_EXIT);
	}
	check_long("aware_exit_stop_rval_is_inner_result", getpid(),
		   exit ? exit->exit.rval : -1);
	/* The first argument register is the return register on ARM. */
	check_long("aware_exit_stop_regs_nr_is_indirect", __NR_indirect,
		   exit ? (long)ABI_REG_NR(&regs[e]) : -1);
	check_long("aware_exit_stop_regs_params_are_indirect",
		   (long)(unsigned long)marked,
		   exit ? (long)*abi_reg_arg(&regs[e], 3) : -1);
}

/*
 * Both tracers: a direct call's seccomp stop is as it was, without the
 * flag, and a refused inner call's exit stop gives EINVAL.
 */
static void check_direct_and_refused(const char *tracer)
{
	const struct __ptrace_syscall_info *seccomp = NULL, *exit;
	unsigned int i = entry_of(__NR_getppid, marked[0]);
	char what[96];

#define CHECK(suffix, expected, actual)					\
	do {								\
		snprintf(what, sizeof(what), "%s_%s", tracer, suffix);	\
		check_long(what, expected, actual);			\
	} while (0)

	if (i < nstops)
		seccomp = next_stop(i, PTRACE_SYSCALL_INFO_SECCOMP);
	CHECK("direct_seccomp_stop", 1, seccomp != NULL);
	CHECK("direct_seccomp_stop_nr", __NR_getppid,
	      seccomp ? (long)seccomp->seccomp.nr : -1);
	CHECK("direct_seccomp_stop_flags_zero", 0,
	      seccomp ? (long)syscall_info_flags(seccomp) : -1);

	i = entry_of(__NR_indirect, __NR_indirect);
	CHECK("refused_call_entry_stop", 1, i < nstops);
	exit = i < nstops ? next_stop(i, PTRACE_SYSCALL_INFO_EXIT) : NULL;
	CHECK("refused_call_exit_rval", -EINVAL, exit ? exit->exit.rval : 0);
	CHECK("refused_call_exit_is_error", 1, exit ? exit->exit.is_error : 0);
#undef CHECK
}

/* The tracer did not set PTRACE_O_INDIRECT: no stop for the inner call. */
static void check_legacy(void)
{
	const struct __ptrace_syscall_info *exit;
	unsigned int i = entry_of(__NR_indirect, __NR_getppid);

	check_long("legacy_entry_stop_names_indirect_and_inner_nr", 1,
		   i < nstops);
	exit = i < nstops ? next_stop(i, PTRACE_SYSCALL_INFO_EXIT) : NULL;
	check_long("legacy_no_seccomp_stop_for_inner_call", 1, exit != NULL);
	check_long("legacy_exit_stop_rval_enosys", -ENOSYS,
		   exit ? exit->exit.rval : 0);
}

/* Fork the child and trace it with @options. */
static void run(unsigned long options, long *indirect_set)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid)
		child_run();
	trace(pid, options, indirect_set);
}

int main(void)
{
	long indirect_set;

	ksft_print_header();
	indirect_require();
	ksft_set_plan(14 + 6 + 3 + 6);
	run(PTRACE_O_INDIRECT, &indirect_set);
	check_aware(indirect_set);
	check_direct_and_refused("aware");
	run(0, &indirect_set);
	check_legacy();
	check_direct_and_refused("legacy");
	ksft_finished();
}
