// SPDX-License-Identifier: GPL-2.0
/*
 * Every syscall on the blacklist of the running ABI gets EINVAL from
 * indirect(), and nothing else happens. Each call runs in a child, with
 * arguments that would make the syscall's effect visible had it run: a
 * fork leaves a second writer of the result pipe, an execve or exit
 * writes no result at all, a sigsuspend hangs, a sigreturn crashes.
 * A missing entry thus fails its test instead of killing the test binary.
 * The 2007 code checked ia32 numbers against the x86-64 list, where for
 * example ia32 fork (2) is open; on ia32 compat these tests catch that.
 */
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <linux/sched.h>
#include "indirect_test.h"

/* How long a child may take before it counts as hung. */
#define CHILD_TIMEOUT_MS	5000
/* The status an exit or exit_group that got through would leave. */
#define LEAKED_EXIT_STATUS	77

struct report {
	long ret;
};

/* Every 32-bit entry of the list must be tested, not skipped unnoticed. */
#if defined(__i386__) && !(defined(__NR_sigreturn) && \
	defined(__NR_sigsuspend) && defined(__NR_vm86old) && defined(__NR_vm86))
#error "the i386 headers lack a blacklisted syscall number"
#endif

static char *exec_argv[] = { "/bin/busybox", "true", NULL };
/* indirect(getppid) from indirect(): would return the ppid if it ran. */
static unsigned long inner_params[INDIRECT_NR_PARAMS];
static char *exec_envp[] = { NULL };
static uint64_t empty_mask;
static struct clone_args clone3_args = { .exit_signal = SIGCHLD };

struct blocked {
	const char *name;
	long nr;
	unsigned long params[INDIRECT_NR_PARAMS];
};

static const struct blocked blocked[] = {
	{ "fork", __NR_fork, { 0 } },
	{ "vfork", __NR_vfork, { 0 } },
	{ "clone", __NR_clone, { SIGCHLD } },
	{ "clone3", __NR_clone3,
	  { (unsigned long)&clone3_args, sizeof(clone3_args) } },
	{ "execve", __NR_execve,
	  { (unsigned long)"/bin/busybox", (unsigned long)exec_argv,
	    (unsigned long)exec_envp } },
	{ "execveat", __NR_execveat,
	  { (unsigned long)AT_FDCWD, (unsigned long)"/bin/busybox",
	    (unsigned long)exec_argv, (unsigned long)exec_envp } },
	{ "rt_sigreturn", __NR_rt_sigreturn, { 0 } },
	{ "rt_sigsuspend", __NR_rt_sigsuspend,
	  { (unsigned long)&empty_mask, sizeof(empty_mask) } },
	{ "sigaltstack", __NR_sigaltstack, { 0 } },
	{ "iopl", __NR_iopl, { 0 } },
	{ "restart_syscall", __NR_restart_syscall, { 0 } },
	{ "exit", __NR_exit, { LEAKED_EXIT_STATUS } },
	{ "exit_group", __NR_exit_group, { LEAKED_EXIT_STATUS } },
	{ "indirect", __NR_indirect,
	  { __NR_getppid, 0, 0, (unsigned long)inner_params } },
#ifdef __NR_sigreturn
	{ "sigreturn", __NR_sigreturn, { 0 } },
#endif
#ifdef __NR_sigsuspend
	{ "sigsuspend", __NR_sigsuspend, { 0, 0, 0 } },
#endif
#ifdef __NR_vm86old
	{ "vm86old", __NR_vm86old, { 0 } },
#endif
#ifdef __NR_vm86
	{ "vm86", __NR_vm86, { 0 } },
#endif
};

/*
 * Run @b through indirect() in a child and describe what happened in
 * @what. Return 0 if the child reported EINVAL exactly once and exited
 * normally, else -1.
 */
static int run_blocked(const struct blocked *b, char *what, size_t len)
{
	struct report reports[4];
	size_t got = 0;
	struct pollfd pfd;
	int pipefd[2];
	int status = 0;
	ssize_t n;
	pid_t pid;

	if (pipe(pipefd))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		struct report r;

		close(pipefd[0]);
		r.ret = indirect_result(b->nr, NULL, 0, b->params);
		/* Every process that returns from indirect() reports. */
		if (write(pipefd[1], &r, sizeof(r)) != sizeof(r))
			_exit(2);
		_exit(0);
	}
	close(pipefd[1]);
	pfd.fd = pipefd[0];
	pfd.events = POLLIN;
	/* Read until every writer is gone: the child, and any it forked. */
	for (;;) {
		if (poll(&pfd, 1, CHILD_TIMEOUT_MS) <= 0) {
			kill(pid, SIGKILL);
			snprintf(what, len, "child hung for %d ms",
				 CHILD_TIMEOUT_MS);
			waitpid(pid, NULL, 0);
			close(pipefd[0]);
			return -1;
		}
		n = read(pipefd[0], (char *)reports + got,
			 sizeof(reports) - got);
		if (n <= 0)
			break;
		got += n;
	}
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	got /= sizeof(struct report);

	if (got == 1 && reports[0].ret == -EINVAL && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0) {
		snprintf(what, len, "EINVAL");
		return 0;
	}
	if (WIFSIGNALED(status))
		snprintf(what, len, "child killed by signal %d, %zu reports",
			 WTERMSIG(status), got);
	else if (got == 0)
		snprintf(what, len, "no report: the call ran (exit status %d)",
			 WEXITSTATUS(status));
	else
		snprintf(what, len, "%zu reports, first %ld, exit status %d",
			 got, reports[0].ret, WEXITSTATUS(status));
	return -1;
}

int main(void)
{
	char name[64], what[128];
	size_t i;

	ksft_print_header();
	indirect_require();
	ksft_print_msg("%zu blacklisted syscalls on ABI %s\n",
		       ARRAY_SIZE(blocked), HARNESS_BUILD_ABI);
	ksft_set_plan(ARRAY_SIZE(blocked));
	for (i = 0; i < ARRAY_SIZE(blocked); i++) {
		snprintf(name, sizeof(name), "blocked_%s", blocked[i].name);
		if (run_blocked(&blocked[i], what, sizeof(what))) {
			ksft_print_msg("%s: expected EINVAL, got %s\n", name, what);
			ksft_test_result_fail("%s\n", name);
		} else {
			ksft_test_result_pass("%s\n", name);
		}
	}
	ksft_finished();
}
