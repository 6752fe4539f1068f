// SPDX-License-Identifier: GPL-2.0
/*
 * No context survives a signal. A read() under OPENFLAGS blocks on an
 * empty pipe until a timer signal arrives; its handler runs while the
 * call is interrupted, creates a socket (which must not be close-on-exec:
 * the contexts were undone when the call returned to be restarted) and
 * writes a byte, so that the restarted indirect() read completes. Without
 * SA_RESTART the call fails with EINTR and leaves nothing behind either.
 */
#include <signal.h>
#include <sys/time.h>
#include "indirect_test.h"

static int pipefd[2];
static volatile long handler_cloexec = -1;

static void on_alarm(int sig)
{
	(void)sig;
	handler_cloexec = plain_socket_cloexec();
	if (write(pipefd[1], "x", 1) != 1)
		handler_cloexec = -EIO;
}

/* Read one byte from the empty pipe through indirect(), with a timer. */
static long interrupted_read(int sa_flags)
{
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = sa_flags };
	struct itimerval it = { .it_value = { .tv_usec = 50000 } };
	char c;
	unsigned long p[INDIRECT_NR_PARAMS] = {
		0, (unsigned long)&c, 1,
	};
	long ret;

	if (pipe(pipefd))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	p[0] = pipefd[0];
	handler_cloexec = -1;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) || setitimer(ITIMER_REAL, &it, NULL))
		ksft_exit_fail_msg("timer: %s\n", strerror(errno));
	ret = indirect_result(__NR_read, cloexec_ctxs, 1, p);
	close(pipefd[0]);
	close(pipefd[1]);
	return ret;
}

int main(void)
{
	long ret;

	ksft_print_header();
	indirect_require();
	ksft_set_plan(5);

	ret = interrupted_read(SA_RESTART);
	check_long("sa_restart_read_completes", 1, ret);
	check_long("sa_restart_handler_sees_no_context", 0, handler_cloexec);

	ret = interrupted_read(0);
	check_long("no_restart_read_eintr", -EINTR, ret);
	check_long("no_restart_handler_sees_no_context", 0, handler_cloexec);
	check_long("after_signals_no_context_left", 0, plain_socket_cloexec());
	ksft_finished();
}
