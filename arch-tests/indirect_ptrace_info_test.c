// SPDX-License-Identifier: GPL-2.0
/*
 * What a ptrace tracer that reads PTRACE_GET_SYSCALL_INFO (strace, gdb's
 * catch syscall) learns of an inner call of indirect(). Its syscall
 * stops are those of indirect() itself: the entry stop names
 * __NR_indirect, in the caller's AUDIT_ARCH_*, with the inner number as
 * the first argument; the exit stop gives the inner call's result, or
 * the error with which indirect() refused it. A seccomp filter that
 * answers TRACE to the inner call stops the task in between, and that
 * stop too names indirect() and its arguments, with the filter's data:
 * the registers, which is what the stop reports, are indirect()'s.
 * Tracers that must see the inner call read the tracepoints
 * (indirect_trace_test) or decode indirect()'s arguments.
 */
#include <signal.h>
#include <sys/ptrace.h>
#include "indirect_test.h"

/* The 16 bits of data the filter passes to the tracer. */
#define FILTER_DATA		0x1d1
/* Stops of the child that the tracer keeps: far more than it makes. */
#define STOPS_MAX		64
/* Seconds the child may take, far beyond what it needs under TCG. */
#define CHILD_TIME_LIMIT	60

static struct __ptrace_syscall_info stops[STOPS_MAX];
static unsigned int nstops;

/* The traced child: indirect(getppid), then indirect(indirect). */
static void child_run(void)
{
	unsigned long getppid_params[INDIRECT_NR_PARAMS] = { 0 };
	unsigned long self[INDIRECT_NR_PARAMS] = { __NR_getppid };
	struct seccomp_match m = { .nr = __NR_getppid };

	alarm(CHILD_TIME_LIMIT);
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
		_exit(2);
	if (seccomp_install_match(&m, SECCOMP_RET_TRACE | FILTER_DATA, 0) < 0)
		_exit(3);
	raise(SIGSTOP);
	indirect_result(__NR_getppid, NULL, 0, getppid_params);
	indirect_result(__NR_indirect, NULL, 0, self);
	_exit(0);
}

/* Trace @pid to its end, keeping what each stop reports. */
static void trace(pid_t pid)
{
	int status, sig = 0;

	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		ksft_exit_fail_msg("the child did not stop: status %#x\n",
				   status);
	if (ptrace(PTRACE_SETOPTIONS, pid, NULL,
		   (void *)(PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACESECCOMP |
			    PTRACE_O_EXITKILL)))
		ksft_exit_fail_msg("PTRACE_SETOPTIONS: %s\n", strerror(errno));
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
		    status >> 8 != (SIGTRAP | (PTRACE_EVENT_SECCOMP << 8))) {
			sig = WSTOPSIG(status);
			continue;
		}
		if (nstops == STOPS_MAX)
			ksft_exit_fail_msg("more than %d stops\n", STOPS_MAX);
		if (ptrace(PTRACE_GET_SYSCALL_INFO, pid,
			   (void *)sizeof(stops[0]), &stops[nstops]) <= 0)
			ksft_exit_fail_msg("PTRACE_GET_SYSCALL_INFO: %s\n",
					   strerror(errno));
		nstops++;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		ksft_exit_fail_msg("the child ended with status %#x\n", status);
}

/* The index of the entry stop of indirect(@inner, ...), or nstops. */
static unsigned int entry_of(long inner)
{
	unsigned int i;

	for (i = 0; i < nstops; i++)
		if (stops[i].op == PTRACE_SYSCALL_INFO_ENTRY &&
		    stops[i].entry.nr == __NR_indirect &&
		    stops[i].entry.args[0] == (unsigned long)inner)
			break;
	return i;
}

/* The stop after @i, if it is of @op; else NULL. */
static const struct __ptrace_syscall_info *next_stop(unsigned int i, int op)
{
	return i + 1 < nstops && stops[i + 1].op == op ? &stops[i + 1] : NULL;
}

static void check_traced_call(void)
{
	const struct __ptrace_syscall_info *seccomp, *exit;
	unsigned int i = entry_of(__NR_getppid), n;

	check_long("entry_stop_names_indirect_and_inner_nr", 1, i < nstops);
	if (i == nstops) {
		/* The five checks below need that stop. */
		for (n = 0; n < 5; n++)
			ksft_test_result_skip("no entry stop to check\n");
		return;
	}
	check_long("entry_stop_arch", INDIRECT_AUDIT_ARCH, stops[i].arch);
	seccomp = next_stop(i, PTRACE_SYSCALL_INFO_SECCOMP);
	check_long("seccomp_stop_follows_entry", 1, seccomp != NULL);
	check_long("seccomp_stop_nr_is_indirect", __NR_indirect,
		   seccomp ? (long)seccomp->seccomp.nr : -1);
	check_long("seccomp_stop_ret_data", FILTER_DATA,
		   seccomp ? (long)seccomp->seccomp.ret_data : -1);
	exit = next_stop(seccomp ? i + 1 : i, PTRACE_SYSCALL_INFO_EXIT);
	check_long("exit_stop_rval_is_inner_result", getpid(),
		   exit ? exit->exit.rval : -1);
}

static void check_refused_call(void)
{
	const struct __ptrace_syscall_info *exit;
	unsigned int i = entry_of(__NR_indirect);

	check_long("refused_call_entry_stop", 1, i < nstops);
	exit = i < nstops ? next_stop(i, PTRACE_SYSCALL_INFO_EXIT) : NULL;
	check_long("refused_call_exit_rval", -EINVAL,
		   exit ? exit->exit.rval : 0);
	check_long("refused_call_exit_is_error", 1,
		   exit ? exit->exit.is_error : 0);
}

int main(void)
{
	pid_t pid;

	ksft_print_header();
	indirect_require();
	ksft_set_plan(9);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid)
		child_run();
	trace(pid);
	check_traced_call();
	check_refused_call();
	ksft_finished();
}
