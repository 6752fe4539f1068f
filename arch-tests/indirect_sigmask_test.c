// SPDX-License-Identifier: GPL-2.0
/*
 * The SIGMASK context, side by side with ppoll(), pselect6() and
 * epoll_pwait(), whose masks it must match exactly.
 *
 * Outside the calls SIGALRM and SIGUSR2 are blocked; every call runs with
 * an empty mask. Two scenarios for each blocking call:
 *  - signal_during_call: SIGALRM arrives while the call sleeps;
 *  - signal_pending_before: SIGALRM was raised (and stayed pending) just
 *    before the call, the classic pselect race; it must not be lost.
 * Either way the call must fail with EINTR, the SIGALRM handler must run
 * once and with the call's mask (SIGUSR2 unblocked), and the mask after
 * the call must be the one before. A watchdog process sends SIGUSR1,
 * which nothing blocks, if a call sleeps on for seconds.
 *
 * Then what the mask is during a call, the masks that cannot be set, the
 * errors that leave the mask alone, and SIGMASK combined with OPENFLAGS:
 * accept() as paccept() would have been.
 */
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include "indirect_test.h"

/*
 * i386 and ARM have select() only as the old one-argument call, or none;
 * _newselect is it. AArch64 has no poll(), select() or epoll_wait(): it
 * has their p-variants only, which with no mask of their own (NULL) are
 * the same calls, and are made so under the context.
 */
#ifdef __NR__newselect
#define NR_SELECT	__NR__newselect
#elif defined(__NR_select)
#define NR_SELECT	__NR_select
#endif

static volatile int alarm_count, handler_saw_usr2_blocked, watchdog_fired;
static int pipefd[2], epfd, listen_fd;
static struct sockaddr_un listen_addr;
static socklen_t listen_len;

static void on_alarm(int sig)
{
	sigset_t now;

	(void)sig;
	alarm_count++;
	sigprocmask(SIG_BLOCK, NULL, &now);
	handler_saw_usr2_blocked = sigismember(&now, SIGUSR2);
}

static void on_watchdog(int sig)
{
	(void)sig;
	watchdog_fired = 1;
}

/* Signals 1 to 64 of @set, bit n - 1 for signal n, as the kernel has them. */
static uint64_t mask_bits(const sigset_t *set)
{
	uint64_t bits = 0;
	int sig;

	for (sig = 1; sig <= 64; sig++)
		if (sigismember(set, sig) == 1)
			bits |= 1ULL << (sig - 1);
	return bits;
}

static uint64_t current_mask(void)
{
	sigset_t now;

	sigprocmask(SIG_BLOCK, NULL, &now);
	return mask_bits(&now);
}

/* A child that sends SIGUSR1 after a few seconds, unless killed first. */
static pid_t watchdog_start(void)
{
	pid_t parent = getpid(), pid = fork();

	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		sleep(5);
		kill(parent, SIGUSR1);
		_exit(0);
	}
	return pid;
}

static void watchdog_stop(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* The result of a libc or indirect() call, or -errno. */
static long result(long ret)
{
	return ret == -1 ? -errno : ret;
}

/* Call syscall @nr through indirect() with @mask as its only context. */
#define indirect_masked(mask, nr, ...) ({				\
	struct sysind_ctx_SIGMASK ctx_;					\
	const struct indirect_ctx *ctxs_[] = {				\
		indirect_ctx_sigmask(&ctx_, (mask)),			\
	};								\
	result(indirect_call((nr), ctxs_, 1, __VA_ARGS__));		\
})

static long do_ppoll(const sigset_t *m)
{
	struct pollfd pfd = { .fd = pipefd[0], .events = POLLIN };

	return result(ppoll(&pfd, 1, NULL, m));
}

static long do_indirect_poll(const sigset_t *m)
{
	struct pollfd pfd = { .fd = pipefd[0], .events = POLLIN };

#ifdef __NR_poll
	return indirect_masked(m, __NR_poll, &pfd, 1, -1);
#else
	return indirect_masked(m, __NR_ppoll, &pfd, 1, NULL, NULL, 8);
#endif
}

static long do_pselect6(const sigset_t *m)
{
	fd_set rset;

	FD_ZERO(&rset);
	FD_SET(pipefd[0], &rset);
	return result(pselect(pipefd[0] + 1, &rset, NULL, NULL, NULL, m));
}

static long do_indirect_select(const sigset_t *m)
{
	fd_set rset;

	FD_ZERO(&rset);
	FD_SET(pipefd[0], &rset);
#ifdef NR_SELECT
	return indirect_masked(m, NR_SELECT, pipefd[0] + 1, &rset, 0, 0, 0);
#else
	return indirect_masked(m, __NR_pselect6, pipefd[0] + 1, &rset, 0, 0, 0,
			       NULL);
#endif
}

static long do_epoll_pwait(const sigset_t *m)
{
	struct epoll_event ev;

	return result(epoll_pwait(epfd, &ev, 1, -1, m));
}

static long do_indirect_epoll_wait(const sigset_t *m)
{
	struct epoll_event ev;

#ifdef __NR_epoll_wait
	return indirect_masked(m, __NR_epoll_wait, epfd, &ev, 1, -1);
#else
	return indirect_masked(m, __NR_epoll_pwait, epfd, &ev, 1, -1, NULL, 8);
#endif
}

static long do_indirect_read(const sigset_t *m)
{
	char c;

	return indirect_masked(m, __NR_read, pipefd[0], &c, 1);
}

static long do_indirect_nanosleep(const sigset_t *m)
{
	struct timespec ts = { .tv_sec = 30 };

	return indirect_masked(m, __NR_nanosleep, &ts, 0);
}

static long do_indirect_accept(const sigset_t *m)
{
	return indirect_masked(m, __NR_accept4, listen_fd, 0, 0, 0);
}

/* paccept(): OPENFLAGS and SIGMASK, in the order @mask_first says. */
static long do_paccept(const sigset_t *m, int mask_first)
{
	struct sysind_ctx_OPENFLAGS cloexec;
	struct sysind_ctx_SIGMASK mask;
	const struct indirect_ctx *of = indirect_ctx_openflags(&cloexec, O_CLOEXEC);
	const struct indirect_ctx *sm = indirect_ctx_sigmask(&mask, m);
	const struct indirect_ctx *ctxs[] = {
		mask_first ? sm : of,
		mask_first ? of : sm,
	};

	return result(indirect_call(__NR_accept4, ctxs, 2, listen_fd, 0, 0, 0));
}

static long do_paccept_openflags_first(const sigset_t *m)
{
	return do_paccept(m, 0);
}

static long do_paccept_sigmask_first(const sigset_t *m)
{
	return do_paccept(m, 1);
}

static long do_libindirect_paccept(const sigset_t *m)
{
	return result(indirect_paccept(listen_fd, NULL, NULL, m));
}

struct blocking_call {
	const char *name;
	long (*call)(const sigset_t *mask);
};

static const struct blocking_call calls[] = {
	{ "ppoll", do_ppoll },
	{ "indirect_poll", do_indirect_poll },
	{ "pselect6", do_pselect6 },
	{ "indirect_select", do_indirect_select },
	{ "epoll_pwait", do_epoll_pwait },
	{ "indirect_epoll_wait", do_indirect_epoll_wait },
	{ "indirect_read_pipe", do_indirect_read },
	{ "indirect_nanosleep", do_indirect_nanosleep },
	{ "indirect_accept", do_indirect_accept },
	{ "paccept_openflags_first", do_paccept_openflags_first },
	{ "paccept_sigmask_first", do_paccept_sigmask_first },
	{ "libindirect_paccept", do_libindirect_paccept },
};

/* Drop a SIGALRM that a broken call left pending, so it cannot leak on. */
static void drain_alarm(void)
{
	struct timespec zero = { 0 };
	sigset_t alrm;

	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	while (sigtimedwait(&alrm, NULL, &zero) == SIGALRM)
		;
}

/* Report @name: @ret must be EINTR, the handler must have run as it should. */
static void judge(const char *name, long ret, uint64_t before, uint64_t after)
{
	char what[96];

	snprintf(what, sizeof(what), "%s", name);
	if (watchdog_fired) {
		ksft_print_msg("%s: still sleeping after 5 s, the signal was lost\n",
			       name);
		ksft_test_result_fail("%s\n", what);
	} else if (ret != -EINTR) {
		check_long(what, -EINTR, ret);
	} else if (alarm_count != 1) {
		ksft_print_msg("%s: SIGALRM handler runs: expected 1, got %d\n",
			       name, alarm_count);
		ksft_test_result_fail("%s\n", what);
	} else if (handler_saw_usr2_blocked) {
		ksft_print_msg("%s: the handler ran with the old mask, not the call's\n",
			       name);
		ksft_test_result_fail("%s\n", what);
	} else if (before != after) {
		ksft_print_msg("%s: mask after the call: expected %#llx, got %#llx\n",
			       name, (unsigned long long)before,
			       (unsigned long long)after);
		ksft_test_result_fail("%s\n", what);
	} else {
		ksft_test_result_pass("%s\n", what);
	}
}

static void run_scenario(const struct blocking_call *c, int pending_before)
{
	struct itimerval in_50ms = { .it_value = { .tv_usec = 50000 } };
	struct itimerval off = { 0 };
	sigset_t empty;
	uint64_t before;
	char name[96];
	pid_t dog;
	long ret;

	snprintf(name, sizeof(name), "%s_%s", c->name,
		 pending_before ? "signal_pending_before" : "signal_during_call");
	sigemptyset(&empty);
	alarm_count = 0;
	handler_saw_usr2_blocked = -1;
	watchdog_fired = 0;
	before = current_mask();
	dog = watchdog_start();
	if (pending_before)
		raise(SIGALRM);
	else
		setitimer(ITIMER_REAL, &in_50ms, NULL);
	ret = c->call(&empty);
	setitimer(ITIMER_REAL, &off, NULL);
	watchdog_stop(dog);
	judge(name, ret, before, current_mask());
	if (ret >= 0)
		close(ret);
	drain_alarm();
}

/* The mask in force during a call: read it with rt_sigprocmask inside. */
static long mask_during(const struct indirect_ctx **ctxs, unsigned int n,
			uint64_t *during)
{
	unsigned long p[INDIRECT_NR_PARAMS] = {
		SIG_BLOCK, 0, (unsigned long)during, 8,
	};

	*during = ~0ULL;
	return indirect_result(__NR_rt_sigprocmask, ctxs, n, p);
}

static void sigset_of(sigset_t *set, int a, int b)
{
	sigemptyset(set);
	if (a)
		sigaddset(set, a);
	if (b)
		sigaddset(set, b);
}

static void test_mask_during_call(void)
{
	struct sysind_ctx_SIGMASK m1, m2;
	const struct indirect_ctx *ctxs[2];
	uint64_t before = current_mask(), during;
	sigset_t s1, s2, all;
	long ret;

	sigset_of(&s1, SIGUSR1, 0);
	sigset_of(&s2, SIGUSR2, SIGHUP);
	ctxs[0] = indirect_ctx_sigmask(&m1, &s1);
	ctxs[1] = indirect_ctx_sigmask(&m2, &s2);

	ret = mask_during(ctxs, 1, &during);
	check_long("mask_in_force_during_call", (long)mask_bits(&s1),
		   ret ? ret : (long)during);
	check_long("mask_back_after_call", 1, current_mask() == before);

	ret = mask_during(ctxs, 2, &during);
	check_long("last_sigmask_wins", (long)mask_bits(&s2),
		   ret ? ret : (long)during);
	check_long("mask_back_after_two_sigmasks", 1, current_mask() == before);

	sigfillset(&all);
	ctxs[0] = indirect_ctx_sigmask(&m1, &all);
	ret = mask_during(ctxs, 1, &during);
	check_long("sigkill_never_blocked", 0,
		   ret ? ret : (long)((during >> (SIGKILL - 1)) & 1));
	check_long("sigstop_never_blocked", 0,
		   ret ? ret : (long)((during >> (SIGSTOP - 1)) & 1));

	/* An inner rt_sigprocmask() that changes the mask is undone too. */
	{
		sigset_t usr1;
		unsigned long p[INDIRECT_NR_PARAMS] = {
			SIG_SETMASK, (unsigned long)&m1.sigset, 0, 8,
		};

		sigset_of(&usr1, SIGUSR1, 0);
		ctxs[0] = indirect_ctx_sigmask(&m1, &usr1);
		ret = indirect_result(__NR_rt_sigprocmask, ctxs, 1, p);
		check_long("inner_sigprocmask_undone", 1,
			   !ret && current_mask() == before);
	}
}

static void test_errors_leave_mask(void)
{
	struct sysind_ctx_SIGMASK m;
	struct sysind_ctx_OPENFLAGS bad = {
		.ctx = SYSIND_CTX_OPENFLAGS, .flags = O_NONBLOCK,
	};
	const struct indirect_ctx *ctxs[2];
	uint64_t before = current_mask(), during;
	static const unsigned int sizes[] = { 0, 4, 16, 128 };
	char name[64];
	sigset_t all;
	unsigned int i;
	char *end;

	sigfillset(&all);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		ctxs[0] = indirect_ctx_sigmask(&m, &all);
		m.sigsetsize = sizes[i];
		snprintf(name, sizeof(name), "sigsetsize_%u_einval", sizes[i]);
		check_long(name, -EINVAL, mask_during(ctxs, 1, &during));
	}
	check_long("mask_unchanged_after_bad_sizes", 1, current_mask() == before);

	/* The mask is undone when a later context fails. */
	ctxs[0] = indirect_ctx_sigmask(&m, &all);
	ctxs[1] = (const struct indirect_ctx *)&bad;
	check_long("later_context_fails_einval", -EINVAL,
		   mask_during(ctxs, 2, &during));
	check_long("mask_unchanged_after_later_failure", 1,
		   current_mask() == before);

	/* A SIGMASK context whose sigset lies in a page that faults. */
	end = guard_page_end();
	memcpy(end - 8, &m, 8);
	ctxs[0] = (const struct indirect_ctx *)(end - 8);
	check_long("sigset_unmapped_efault", -EFAULT,
		   mask_during(ctxs, 1, &during));
	check_long("mask_unchanged_after_efault", 1, current_mask() == before);
}

/*
 * A nanosleep() that a stop and a continue interrupt resumes through
 * restart_syscall(), with its mask set again, and sleeps on to the end,
 * as the direct call does (indirect_restart_test checks the deadline and
 * the mask).
 */
static void test_stop_cont_resumes(void)
{
	struct timespec ts = { .tv_sec = 1 };
	pid_t parent = getpid(), pid;
	sigset_t empty;
	long ret;

	sigemptyset(&empty);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		usleep(100000);
		kill(parent, SIGSTOP);
		usleep(100000);
		kill(parent, SIGCONT);
		_exit(0);
	}
	ret = indirect_masked(&empty, __NR_nanosleep, &ts, 0);
	waitpid(pid, NULL, 0);
	check_long("nanosleep_stopped_and_continued_resumes", 0, ret);
}

/* paccept: with a connection waiting, the descriptor is close-on-exec. */
static void test_paccept_cloexec(void)
{
	sigset_t empty;
	int order;

	sigemptyset(&empty);
	for (order = 0; order < 2; order++) {
		uint64_t before = current_mask();
		int c = socket(AF_UNIX, SOCK_STREAM, 0);
		long fd;

		if (c < 0 || connect(c, (struct sockaddr *)&listen_addr, listen_len))
			ksft_exit_fail_msg("connect: %s\n", strerror(errno));
		fd = do_paccept(&empty, order);
		check_long(order ? "paccept_sigmask_first_cloexec" :
				   "paccept_openflags_first_cloexec",
			   1, fd_cloexec(fd));
		check_long(order ? "paccept_sigmask_first_mask_back" :
				   "paccept_openflags_first_mask_back",
			   1, current_mask() == before);
		if (fd >= 0)
			close(fd);
		close(c);
	}
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct sigaction wd = { .sa_handler = on_watchdog };
	unsigned int i, n = sizeof(calls) / sizeof(calls[0]);
	sigset_t outside;

	ksft_print_header();
	indirect_require();
	ksft_set_plan(2 * n + 21);

	sigemptyset(&sa.sa_mask);
	sigemptyset(&wd.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) || sigaction(SIGUSR1, &wd, NULL))
		ksft_exit_fail_msg("sigaction: %s\n", strerror(errno));
	sigset_of(&outside, SIGALRM, SIGUSR2);
	if (sigprocmask(SIG_SETMASK, &outside, NULL))
		ksft_exit_fail_msg("sigprocmask: %s\n", strerror(errno));
	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (pipe(pipefd) || epfd < 0)
		ksft_exit_fail_msg("pipe/epoll: %s\n", strerror(errno));
	listen_fd = unix_listener("sigmask", &listen_addr, &listen_len);

	for (i = 0; i < n; i++) {
		run_scenario(&calls[i], 0);
		run_scenario(&calls[i], 1);
	}
	test_mask_during_call();
	test_errors_leave_mask();
	test_paccept_cloexec();
	test_stop_cont_resumes();
	ksft_finished();
}
