// SPDX-License-Identifier: GPL-2.0
/*
 * The blacklist of the running ABI, both ways.
 *
 * blocked_*: every syscall on the blacklist gets EINVAL from indirect(),
 * and nothing else happens. Each call runs in a child, with arguments
 * that would make the syscall's effect visible had it run: a fork leaves
 * a second writer of the result pipe, an execve or exit writes no result
 * at all, a sigreturn crashes, a vm86 call fails otherwise. A missing
 * entry thus fails its test instead of killing the test binary. The 2007
 * code checked ia32 numbers against the x86-64 list, where for example
 * ia32 fork (2) is open; on ia32 compat these tests catch that, and on
 * AArch32 compat, where fork (2) is write on AArch64.
 *
 * callable_*: the syscalls that an earlier blacklist refused although
 * they work on the inner call's own registers or read of the frame only
 * what a direct call would read (scripts/blacklist/data/exceptions.tsv): iopl
 * (x86 only), sigaltstack, rt_sigsuspend and, on ia32 and ARM,
 * sigsuspend. Each must do through indirect() what it does when called
 * directly. They also run in a child, which a hang or a fault fails
 * visibly.
 */
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/reboot.h>
#include <linux/sched.h>
#include "indirect_test.h"

/* How long a child may take before it counts as hung. */
#define CHILD_TIMEOUT_MS	5000
/* The status an exit or exit_group that got through would leave. */
#define LEAKED_EXIT_STATUS	77

struct report {
	long ret;
};

static char *exec_argv[] = { "/bin/busybox", "true", NULL };
/* indirect(getppid) from indirect(): would return the ppid if it ran. */
static unsigned long inner_params[INDIRECT_NR_PARAMS];
static char *exec_envp[] = { NULL };
static struct clone_args clone3_args = { .exit_signal = SIGCHLD };

struct blocked {
	const char *name;
	long nr;
	unsigned long params[INDIRECT_NR_PARAMS];
};

/*
 * The blacklist of the ABI: the entries of every ABI, and those of some
 * (the generic table of AArch64 has no fork, vfork or sigreturn; vm86
 * and vm86old are i386's, uretprobe x86-64's). ABI_NR_BLACKLISTED says
 * how many there are, so that none is skipped unnoticed.
 *
 * uretprobe(), 6.11: the binaries of one base also run on the other
 * base's kernel, so the running kernel says whether the number is a
 * syscall that must be refused (EINVAL) or none yet (ENOSYS). Called
 * with no uretprobe pending it only raises SIGILL, had it got through.
 */
static const struct blocked blocked[] = {
#ifdef __NR_fork
	{ "fork", __NR_fork, { 0 } },
	{ "vfork", __NR_vfork, { 0 } },
#endif
	/* Flags first on every ABI, whatever order the others come in. */
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
	{ "restart_syscall", __NR_restart_syscall, { 0 } },
	{ "exit", __NR_exit, { LEAKED_EXIT_STATUS } },
	{ "exit_group", __NR_exit_group, { LEAKED_EXIT_STATUS } },
	/* Got through, it would only turn Ctrl-Alt-Del off. */
	{ "reboot", __NR_reboot,
	  { LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2, LINUX_REBOOT_CMD_CAD_OFF } },
	{ "indirect", __NR_indirect,
	  { __NR_getppid, 0, 0, (unsigned long)inner_params } },
#ifdef ABI_NR_URETPROBE
	{ "uretprobe", ABI_NR_URETPROBE, { 0 } },
#endif
#ifdef __NR_sigreturn
	{ "sigreturn", __NR_sigreturn, { 0 } },
#endif
#ifdef __NR_vm86old
	{ "vm86old", __NR_vm86old, { 0 } },
#endif
#ifdef __NR_vm86
	{ "vm86", __NR_vm86, { 0 } },
#endif
};

_Static_assert(ARRAY_SIZE(blocked) == ABI_NR_BLACKLISTED,
	       "a syscall of the ABI's blacklist is not tested");

/* The first kernel with syscall @nr, major * 100 + minor; 0: every one. */
static int first_kernel_with(long nr)
{
#ifdef ABI_NR_URETPROBE
	if (nr == ABI_NR_URETPROBE)
		return ABI_URETPROBE_SINCE;
#else
	(void)nr;
#endif
	return 0;
}

/* The running kernel's version, major * 100 + minor. */
static int running_kernel(void)
{
	struct utsname uts;
	int major, minor;

	if (uname(&uts) || sscanf(uts.release, "%d.%d", &major, &minor) != 2)
		ksft_exit_fail_msg("uname: cannot read the kernel version\n");
	return major * 100 + minor;
}

/*
 * Run @b through indirect() in a child and describe what happened in
 * @what. Return 0 if the child reported EINVAL (ENOSYS when the running
 * kernel predates the syscall) exactly once and exited normally, else -1.
 */
static int run_blocked(const struct blocked *b, char *what, size_t len)
{
	long want = running_kernel() >= first_kernel_with(b->nr) ? -EINVAL : -ENOSYS;
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

	if (got == 1 && reports[0].ret == want && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0) {
		snprintf(what, len, want == -EINVAL ? "EINVAL" :
			 "ENOSYS: no such syscall before this kernel");
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

/* ------------------------------------------------------------ callable */

/*
 * Each case runs in a child and returns 0 when the call did through
 * indirect() what it does directly; otherwise it prints what differed,
 * with the test's name, and returns -1.
 */
struct callable {
	const char *name;
	int (*run)(const char *name);
};

static long via_indirect(long nr, unsigned long a0, unsigned long a1,
			 unsigned long a2)
{
	unsigned long p[INDIRECT_NR_PARAMS] = { a0, a1, a2 };

	return indirect_result(nr, NULL, 0, p);
}

static long direct3(long nr, unsigned long a0, unsigned long a1,
		    unsigned long a2)
{
	unsigned long p[INDIRECT_NR_PARAMS] = { a0, a1, a2 };

	return direct_call(nr, p);
}

static int expect_long(const char *name, const char *what, long expected,
		       long actual)
{
	if (expected == actual)
		return 0;
	ksft_print_msg("%s: %s: expected %ld, got %ld\n", name, what,
		       expected, actual);
	return -1;
}

/* The signal mask, as the kernel keeps it: 64 bits on every ABI. */
static uint64_t kernel_mask(void)
{
	uint64_t mask = 0;
	unsigned long p[INDIRECT_NR_PARAMS] = {
		SIG_BLOCK, 0, (unsigned long)&mask, sizeof(mask),
	};
	long ret = direct_call(__NR_rt_sigprocmask, p);

	if (ret)
		ksft_exit_fail_msg("rt_sigprocmask: %s\n", strerror(-ret));
	return mask;
}

#ifdef __NR_iopl
/* iopl() to the level the task has (0) changes nothing and returns 0. */
static int iopl_same_level(const char *name)
{
	int bad = 0;

	bad |= expect_long(name, "direct iopl(0)", 0,
			   direct3(__NR_iopl, 0, 0, 0));
	bad |= expect_long(name, "indirect(iopl, 0)", 0,
			   via_indirect(__NR_iopl, 0, 0, 0));
	return bad;
}

/*
 * iopl(3) through indirect() gives the task its I/O ports, as a direct
 * call does: an IN from port 0x80 (the POST port, harmless to read) then
 * runs instead of faulting. Needs CAP_SYS_RAWIO, which the guest's root
 * has; without it both calls must give EPERM.
 */
static int iopl_raise(const char *name)
{
	long ret = via_indirect(__NR_iopl, 3, 0, 0);

	if (ret == -EPERM && geteuid() != 0)
		return expect_long(name, "direct iopl(3) without privilege",
				   -EPERM, direct3(__NR_iopl, 3, 0, 0));
	if (expect_long(name, "indirect(iopl, 3)", 0, ret))
		return -1;
	/* A fault here kills the child: the test names the signal. */
	(void)abi_port_in(0x80);
	return 0;
}
#endif

static char altstack[64 * 1024] __attribute__((aligned(16)));
static volatile sig_atomic_t handler_bad, handler_runs;
static const char *handler_name;

static void set_altstack(void)
{
	stack_t ss = {
		.ss_sp = altstack,
		.ss_size = sizeof(altstack),
	};

	if (direct3(__NR_sigaltstack, (unsigned long)&ss, 0, 0))
		ksft_exit_fail_msg("sigaltstack: %s\n", strerror(errno));
}

static int same_stack(const char *name, const char *what, const stack_t *want,
		      const stack_t *got)
{
	if (want->ss_sp == got->ss_sp && want->ss_size == got->ss_size &&
	    want->ss_flags == got->ss_flags)
		return 0;
	ksft_print_msg("%s: %s: expected {%p, %zu, flags %d}, got {%p, %zu, flags %d}\n",
		       name, what, want->ss_sp, want->ss_size, want->ss_flags,
		       got->ss_sp, got->ss_size, got->ss_flags);
	return -1;
}

/* sigaltstack(NULL, &old) answers as the direct call does: not on it. */
static int sigaltstack_query(const char *name)
{
	stack_t direct, via;
	int bad = 0;

	set_altstack();
	memset(&direct, 0x5a, sizeof(direct));
	memset(&via, 0xa5, sizeof(via));
	bad |= expect_long(name, "direct sigaltstack(NULL, &old)", 0,
			   direct3(__NR_sigaltstack, 0, (unsigned long)&direct, 0));
	bad |= expect_long(name, "indirect(sigaltstack, NULL, &old)", 0,
			   via_indirect(__NR_sigaltstack, 0,
					(unsigned long)&via, 0));
	if (bad)
		return bad;
	bad |= expect_long(name, "ss_flags of the direct call", 0,
			   direct.ss_flags);
	return bad | same_stack(name, "indirect's answer", &direct, &via);
}

/*
 * In a handler that runs on the alternate stack, the frame's stack
 * pointer is on it: indirect() must see SS_ONSTACK as the direct call
 * does, and refuse a change of the stack with EPERM as it does.
 */
static void on_altstack_handler(int sig)
{
	stack_t direct, via, other = {
		.ss_sp = altstack,
		.ss_size = sizeof(altstack) / 2,
	};

	(void)sig;
	handler_runs++;
	memset(&direct, 0x5a, sizeof(direct));
	memset(&via, 0xa5, sizeof(via));
	if (expect_long(handler_name, "direct query on the stack", 0,
			direct3(__NR_sigaltstack, 0, (unsigned long)&direct, 0)) ||
	    expect_long(handler_name, "indirect query on the stack", 0,
			via_indirect(__NR_sigaltstack, 0, (unsigned long)&via,
				     0)) ||
	    expect_long(handler_name, "ss_flags of the direct call",
			SS_ONSTACK, direct.ss_flags) ||
	    same_stack(handler_name, "indirect's answer on the stack",
		       &direct, &via) ||
	    expect_long(handler_name, "direct change on the stack", -EPERM,
			direct3(__NR_sigaltstack, (unsigned long)&other, 0, 0)) ||
	    expect_long(handler_name, "indirect change on the stack", -EPERM,
			via_indirect(__NR_sigaltstack, (unsigned long)&other,
				     0, 0)))
		handler_bad = 1;
}

static int sigaltstack_on_stack(const char *name)
{
	struct sigaction sa = {
		.sa_handler = on_altstack_handler,
		.sa_flags = SA_ONSTACK,
	};

	set_altstack();
	handler_name = name;
	if (sigaction(SIGUSR2, &sa, NULL))
		ksft_exit_fail_msg("sigaction: %s\n", strerror(errno));
	raise(SIGUSR2);
	if (expect_long(name, "handler runs", 1, handler_runs))
		return -1;
	return handler_bad ? -1 : 0;
}

static void count_handler(int sig)
{
	(void)sig;
	handler_runs++;
}

/*
 * SIGUSR1 is blocked and pending; a suspend whose mask lets it through
 * returns at once: EINTR after its handler ran once, and the old mask,
 * SIGUSR1 blocked, is back.
 */
static int suspend_case(const char *name, long nr, unsigned long a0,
			unsigned long a1, unsigned long a2)
{
	struct sigaction sa = { .sa_handler = count_handler };
	sigset_t usr1;
	uint64_t before;
	int bad = 0;

	if (sigaction(SIGUSR1, &sa, NULL))
		ksft_exit_fail_msg("sigaction: %s\n", strerror(errno));
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	raise(SIGUSR1);
	before = kernel_mask();
	handler_runs = 0;
	bad |= expect_long(name, "result", -EINTR, via_indirect(nr, a0, a1, a2));
	bad |= expect_long(name, "handler runs", 1, handler_runs);
	if (kernel_mask() != before) {
		ksft_print_msg("%s: mask after: expected %#llx, got %#llx\n",
			       name, (unsigned long long)before,
			       (unsigned long long)kernel_mask());
		bad = -1;
	}
	return bad;
}

static uint64_t empty_mask;

static int rt_sigsuspend_pending(const char *name)
{
	return suspend_case(name, __NR_rt_sigsuspend,
			    (unsigned long)&empty_mask, sizeof(empty_mask), 0);
}

#ifdef __NR_sigsuspend
/* i386 and ARM sigsuspend(unused, unused, old_sigset_t mask). */
static int sigsuspend_pending(const char *name)
{
	return suspend_case(name, __NR_sigsuspend, 0, 0, 0);
}
#endif

static const struct callable callable[] = {
#ifdef __NR_iopl
	{ "callable_iopl_same_level", iopl_same_level },
	{ "callable_iopl_raise", iopl_raise },
#endif
	{ "callable_sigaltstack_query", sigaltstack_query },
	{ "callable_sigaltstack_on_stack", sigaltstack_on_stack },
	{ "callable_rt_sigsuspend_pending", rt_sigsuspend_pending },
#ifdef __NR_sigsuspend
	{ "callable_sigsuspend_pending", sigsuspend_pending },
#endif
};

/* Run @c in a child; 0 if it passed, else -1 with the reason printed. */
static int run_callable(const struct callable *c)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		int bad;

		alarm(CHILD_TIMEOUT_MS / 1000);
		bad = c->run(c->name);
		fflush(stdout);
		_exit(bad ? 1 : 0);
	}
	if (waitpid(pid, &status, 0) != pid)
		ksft_exit_fail_msg("waitpid: %s\n", strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFSIGNALED(status))
		ksft_print_msg("%s: child killed by signal %d (%s)\n", c->name,
			       WTERMSIG(status),
			       WTERMSIG(status) == SIGALRM ? "hung" :
			       strsignal(WTERMSIG(status)));
	return -1;
}

int main(void)
{
	char name[64], what[128];
	size_t i;

	ksft_print_header();
	indirect_require();
	ksft_print_msg("%zu blacklisted and %zu callable syscall cases on ABI %s\n",
		       ARRAY_SIZE(blocked), ARRAY_SIZE(callable),
		       HARNESS_BUILD_ABI);
	ksft_set_plan(ARRAY_SIZE(blocked) + ARRAY_SIZE(callable));
	for (i = 0; i < ARRAY_SIZE(blocked); i++) {
		snprintf(name, sizeof(name), "blocked_%s", blocked[i].name);
		if (run_blocked(&blocked[i], what, sizeof(what))) {
			ksft_print_msg("%s: expected EINVAL, got %s\n", name, what);
			ksft_test_result_fail("%s\n", name);
		} else {
			ksft_test_result_pass("%s\n", name);
		}
	}
	for (i = 0; i < ARRAY_SIZE(callable); i++) {
		if (run_callable(&callable[i]))
			ksft_test_result_fail("%s\n", callable[i].name);
		else
			ksft_test_result_pass("%s\n", callable[i].name);
	}
	ksft_finished();
}
