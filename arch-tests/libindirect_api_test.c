// SPDX-License-Identifier: GPL-2.0
/*
 * libindirect, the C-library face of indirect(): the typed helpers make
 * close-on-exec descriptors, set errno the libc way, and fail cleanly
 * with ENOSYS where the kernel has no indirect(). That kernel is played
 * by a seccomp filter that answers ENOSYS to __NR_indirect, in a child.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "indirect_test.h"

static int listen_fd;
static struct sockaddr_un listen_addr;
static socklen_t listen_len;

/* Close @fd, report whether it was close-on-exec: 1, 0 or -errno. */
static long cloexec_and_close(long fd)
{
	long ret = fd_cloexec(fd);

	if (fd >= 0)
		close(fd);
	return ret;
}

static void test_helpers(void)
{
	int fds[2] = { -1, -1 }, c;
	long ret;

	check_long("socket_cloexec", 1,
		   cloexec_and_close(indirect_socket_cloexec(AF_UNIX, SOCK_STREAM, 0)));

	c = socket(AF_UNIX, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&listen_addr, listen_len))
		ksft_exit_fail_msg("connect: %s\n", strerror(errno));
	check_long("accept_cloexec", 1,
		   cloexec_and_close(indirect_accept_cloexec(listen_fd, NULL, NULL)));
	close(c);

	ret = indirect_pipe_cloexec(fds);
	check_long("pipe_cloexec_returns_0", 0, ret == -1 ? -errno : ret);
	check_long("pipe_cloexec_read_end", 1, cloexec_and_close(fds[0]));
	check_long("pipe_cloexec_write_end", 1, cloexec_and_close(fds[1]));

	/* dup() itself always clears close-on-exec on the copy. */
	check_long("dup_cloexec", 1, cloexec_and_close(indirect_dup_cloexec(1)));

	errno = 0;
	ret = indirect_dup_cloexec(-1);
	check_long("error_returns_minus_1", -1, ret);
	check_long("error_sets_errno", EBADF, errno);
}

static void test_generic_call(void)
{
	struct sysind_ctx_OPENFLAGS of;
	struct sysind_ctx_SIGMASK sm;
	const struct indirect_ctx *ctxs[1];
	sigset_t usr1;
	int fd;

	check_long("indirect_available", 1, indirect_available());
	check_long("call_without_args", getppid(),
		   indirect_call(__NR_getppid, NULL, 0));

	ctxs[0] = indirect_ctx_openflags(&of, O_CLOEXEC);
	check_long("openflags_builder", 1,
		   of.ctx == SYSIND_CTX_OPENFLAGS && of.flags == O_CLOEXEC &&
		   ctxs[0] == (const struct indirect_ctx *)&of);
	fd = indirect_call(__NR_socket, ctxs, 1, AF_UNIX, SOCK_STREAM, 0);
	check_long("call_with_context", 1, cloexec_and_close(fd));

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	indirect_ctx_sigmask(&sm, &usr1);
	check_long("sigmask_builder", 1,
		   sm.ctx == SYSIND_CTX_SIGMASK && sm.sigsetsize == 8 &&
		   sm.sigset == 1ULL << (SIGUSR1 - 1));
}

/* In a child: refuse __NR_indirect with ENOSYS, then try every helper. */
static int child_without_indirect(void)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_indirect, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(insns) / sizeof(insns[0]), .filter = insns,
	};
	int fds[2] = { -1, -1 }, next = dup(0), failures = 0;

	close(next);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return 100;
	failures += indirect_available() != 0;
#define EXPECT_ENOSYS(call) do {			\
		errno = 0;				\
		failures += (call) != -1 || errno != ENOSYS;	\
	} while (0)
	EXPECT_ENOSYS(indirect_socket_cloexec(AF_UNIX, SOCK_STREAM, 0));
	EXPECT_ENOSYS(indirect_accept_cloexec(listen_fd, NULL, NULL));
	EXPECT_ENOSYS(indirect_pipe_cloexec(fds));
	EXPECT_ENOSYS(indirect_dup_cloexec(1));
	EXPECT_ENOSYS(indirect_call(__NR_getppid, NULL, 0));
	/* Nothing was created: the next descriptor is still the same. */
	failures += dup(0) != next;
	return failures;
}

static void test_enosys(void)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid)
		_exit(child_without_indirect());
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		ksft_exit_fail_msg("the ENOSYS child did not exit\n");
	if (WEXITSTATUS(status) == 100)
		ksft_test_result_skip("enosys_without_indirect: no seccomp filter\n");
	else
		check_long("enosys_without_indirect", 0,
			   WEXITSTATUS(status));
}

int main(void)
{
	ksft_print_header();
	indirect_require();
	ksft_set_plan(14);
	listen_fd = unix_listener("libindirect", &listen_addr, &listen_len);
	test_helpers();
	test_generic_call();
	test_enosys();
	ksft_finished();
}
