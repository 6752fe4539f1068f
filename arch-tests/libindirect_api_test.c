// SPDX-License-Identifier: GPL-2.0
/*
 * libindirect, the C-library face of indirect(): the typed helpers make
 * close-on-exec descriptors, set errno the libc way, and fail cleanly
 * with ENOSYS where the kernel has no indirect(). That kernel is played
 * by a seccomp filter that answers ENOSYS to __NR_indirect, in a child.
 *
 * A SIGMASK built by the library never blocks the C library's own
 * signals, 32 and 33 (glibc's SIGCANCEL and SIGSETXID), as
 * pthread_sigmask() never does: while one thread waits in indirect()
 * with every other signal blocked, setresuid() in another thread, which
 * sends SIGSETXID to every thread and waits for each to answer, returns.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <linux/openat2.h>
#include "indirect_test.h"

/* Signals 32 and 33, the C library's own, as bits of a kernel mask. */
#define LIBC_SIGNALS	(3ULL << 31)
/* Bit n - 1 for signal n. */
#define SIGBIT(sig)	(1ULL << ((sig) - 1))
/* How long setresuid() may take before the test counts it as hung. */
#define SETXID_SECONDS	10

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
	EXPECT_ENOSYS(indirect_pread64(NULL, 0, 0, &failures, 1, 0));
	EXPECT_ENOSYS(indirect_pwrite64(NULL, 0, 1, "", 1, 0));
	EXPECT_ENOSYS(indirect_fallocate(NULL, 0, 1, 0, 0, 1));
	EXPECT_ENOSYS(indirect_mkdirat_resolve(AT_FDCWD, "x", 0755,
					       RESOLVE_BENEATH));
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

/*
 * The RESOLVE helpers, in a directory of /tmp: each one works on names
 * inside it, and fails with EXDEV, doing nothing, on a name that leads
 * out through "..", the same call that succeeds directly.
 */
static void test_resolve_helpers(void)
{
	const uint64_t b = RESOLVE_BENEATH;
	struct statx stx;
	int dfd, bad = 0;

#define EXPECT_RESOLVE(expr, want)					\
	do {								\
		errno = 0;						\
		long r_ = (expr);					\
		long got_ = r_ < 0 ? -errno : r_;			\
		if (got_ != (want)) {					\
			ksft_print_msg("%s: expected %ld, got %ld\n",	\
				       #expr, (long)(want), got_);	\
			bad++;						\
		}							\
	} while (0)

	mkdir("/tmp/libindirect-resolve", 0755);
	dfd = open("/tmp/libindirect-resolve", O_PATH | O_DIRECTORY);
	if (dfd < 0)
		ksft_exit_fail_msg("open: %s\n", strerror(errno));
	EXPECT_RESOLVE(indirect_mkdirat_resolve(dfd, "d", 0755, b), 0);
	EXPECT_RESOLVE(indirect_mkdirat_resolve(dfd, "../out", 0755, b), -EXDEV);
	EXPECT_RESOLVE(indirect_mknodat_resolve(dfd, "d/f", S_IFREG | 0600, 0,
						b), 0);
	EXPECT_RESOLVE(indirect_mknodat_resolve(dfd, "../f", S_IFREG | 0600, 0,
						b), -EXDEV);
	EXPECT_RESOLVE(indirect_symlinkat_resolve("/", dfd, "d/l", b), 0);
	EXPECT_RESOLVE(indirect_symlinkat_resolve("x", dfd, "d/l/x", b), -EXDEV);
	EXPECT_RESOLVE(indirect_linkat_resolve(dfd, "d/f", dfd, "d/g", 0, b), 0);
	EXPECT_RESOLVE(indirect_linkat_resolve(dfd, "d/f", dfd, "../g", 0, b),
		       -EXDEV);
	EXPECT_RESOLVE(indirect_renameat2_resolve(dfd, "d/g", dfd, "d/h", 0, b),
		       0);
	EXPECT_RESOLVE(indirect_renameat2_resolve(dfd, "d/h", dfd, "d/l/h", 0,
						  b), -EXDEV);
	EXPECT_RESOLVE(indirect_fchmodat_resolve(dfd, "d/f", 0644, b), 0);
	EXPECT_RESOLVE(indirect_fchmodat_resolve(dfd, "d/l", 0644, b), -EXDEV);
	EXPECT_RESOLVE(indirect_fchownat_resolve(dfd, "d/f", -1, -1, 0, b), 0);
	EXPECT_RESOLVE(indirect_fchownat_resolve(dfd, "d/l/tmp", -1, -1, 0, b),
		       -EXDEV);
	EXPECT_RESOLVE(indirect_statx_resolve(dfd, "d/f", 0, STATX_MODE, &stx,
					      b), 0);
	if (!bad && (stx.stx_mode & 07777) != 0644) {
		ksft_print_msg("statx: mode %o, expected 644\n",
			       stx.stx_mode & 07777);
		bad++;
	}
	EXPECT_RESOLVE(indirect_statx_resolve(dfd, "d/l", 0, STATX_MODE, &stx,
					      b), -EXDEV);
	EXPECT_RESOLVE(indirect_unlinkat_resolve(dfd, "d/l/tmp", AT_REMOVEDIR,
						 b), -EXDEV);
	EXPECT_RESOLVE(indirect_unlinkat_resolve(dfd, "d/h", 0, b), 0);
	unlinkat(dfd, "d/f", 0);
	unlinkat(dfd, "d/l", 0);
	unlinkat(dfd, "d", AT_REMOVEDIR);
	close(dfd);
	check_long("resolve_helpers", 0, bad);
#undef EXPECT_RESOLVE
}

/* Report test @name as passed when the two 64-bit masks are equal. */
static void check_mask(const char *name, uint64_t expected, uint64_t actual)
{
	if (expected == actual) {
		ksft_test_result_pass("%s\n", name);
		return;
	}
	ksft_print_msg("%s: expected %#018llx, got %#018llx\n", name,
		       (unsigned long long)expected, (unsigned long long)actual);
	ksft_test_result_fail("%s\n", name);
}

/*
 * Every bit set, as a memset() or a mask copied from the kernel has it;
 * glibc's sigfillset() already leaves 32 and 33 out, and sigaddset()
 * refuses them, so only such a mask shows what the library does.
 */
static void raw_full_set(sigset_t *set)
{
	memset(set, 0xff, sizeof(*set));
}

static void test_sigmask_builder_libc_signals(void)
{
	struct sysind_ctx_SIGMASK sm;
	sigset_t full;

	raw_full_set(&full);
	indirect_ctx_sigmask(&sm, &full);
	check_mask("sigmask_builder_drops_signals_32_33", ~LIBC_SIGNALS,
		   sm.sigset);
}

/*
 * One thread waits in indirect() with a full mask while another calls
 * setresuid(); @wait is the call, @release ends it.
 */
struct setxid_case {
	const char *name;
	long (*wait)(void);
	void (*release)(void);
};

static int waiter_pipe[2];
static int waiter_tid;

static long wait_read_with_ctx_sigmask(void)
{
	struct sysind_ctx_SIGMASK sm;
	const struct indirect_ctx *ctxs[1];
	sigset_t full;
	char c;

	raw_full_set(&full);
	ctxs[0] = indirect_ctx_sigmask(&sm, &full);
	return indirect_call(__NR_read, ctxs, 1, waiter_pipe[0], &c, 1);
}

static void release_read(void)
{
	if (write(waiter_pipe[1], "x", 1) != 1)
		ksft_print_msg("write to the waiter's pipe: %s\n",
			       strerror(errno));
}

static long wait_paccept(void)
{
	sigset_t full;

	raw_full_set(&full);
	return indirect_paccept(listen_fd, NULL, NULL, &full);
}

static void release_paccept(void)
{
	int c = socket(AF_UNIX, SOCK_STREAM, 0);

	if (c < 0 || connect(c, (struct sockaddr *)&listen_addr, listen_len))
		ksft_print_msg("connect to the waiter: %s\n", strerror(errno));
}

static const struct setxid_case setxid_cases[] = {
	{ "read_ctx_sigmask", wait_read_with_ctx_sigmask, release_read },
	{ "paccept", wait_paccept, release_paccept },
};

static void *waiter(void *arg)
{
	const struct setxid_case *c = arg;

	__atomic_store_n(&waiter_tid, gettid(), __ATOMIC_SEQ_CST);
	return (void *)c->wait();
}

/* The SigBlk line of thread @tid of this process, or 0 when unreadable. */
static uint64_t thread_sigblk(int tid)
{
	char path[64], line[128];
	uint64_t blk = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "SigBlk:", 7))
			blk = strtoull(line + 7, NULL, 16);
	fclose(f);
	return blk;
}

/*
 * In a child, with SIGALRM after SETXID_SECONDS to end a hang: start the
 * waiter, wait until its mask shows it inside the call, send that mask
 * to @report, call setresuid() and end the wait. The exit status is 0,
 * or says which step failed.
 */
static int setxid_child(const struct setxid_case *c, int report)
{
	pthread_t thread;
	uint64_t blk = 0;
	sigset_t none;
	void *ret;
	int i, tid;

	signal(SIGALRM, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	alarm(SETXID_SECONDS);
	listen_fd = unix_listener("libindirect-setxid", &listen_addr,
				  &listen_len);
	if (pipe(waiter_pipe) || pthread_create(&thread, NULL, waiter,
						(void *)c))
		return 10;
	/* Outside the call nothing is blocked; inside, SIGUSR1 is. */
	for (i = 0; i < 500 && !(blk & SIGBIT(SIGUSR1)); i++) {
		usleep(10000);
		tid = __atomic_load_n(&waiter_tid, __ATOMIC_SEQ_CST);
		if (tid)
			blk = thread_sigblk(tid);
	}
	if (!(blk & SIGBIT(SIGUSR1)))
		return 11;
	if (write(report, &blk, sizeof(blk)) != sizeof(blk))
		return 12;
	/* glibc sends SIGSETXID to the waiter and waits for its answer. */
	if (setresuid(-1, -1, -1))
		return 13;
	c->release();
	pthread_join(thread, &ret);
	return 0;
}

static void test_setxid_during_call(const struct setxid_case *c)
{
	char name[96];
	uint64_t blk;
	int report[2], status;
	ssize_t n;
	pid_t pid;

	if (pipe(report))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		close(report[0]);
		_exit(setxid_child(c, report[1]));
	}
	close(report[1]);
	n = read(report[0], &blk, sizeof(blk));
	close(report[0]);
	if (waitpid(pid, &status, 0) != pid)
		ksft_exit_fail_msg("waitpid: %s\n", strerror(errno));

	/* All but SIGKILL and SIGSTOP, which the kernel never blocks. */
	snprintf(name, sizeof(name), "%s_full_mask_in_call_lacks_32_33",
		 c->name);
	if (n == sizeof(blk)) {
		check_mask(name, ~(LIBC_SIGNALS | SIGBIT(SIGKILL) |
				   SIGBIT(SIGSTOP)), blk);
	} else {
		ksft_print_msg("%s: the waiter never showed the call's mask\n",
			       name);
		ksft_test_result_fail("%s\n", name);
	}

	snprintf(name, sizeof(name), "%s_setresuid_in_other_thread_returns",
		 c->name);
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
		ksft_print_msg("%s: setresuid() still waiting after %d s: "
			       "the waiter blocks SIGSETXID (33)\n", name,
			       SETXID_SECONDS);
		ksft_test_result_fail("%s\n", name);
	} else if (WIFSIGNALED(status)) {
		ksft_print_msg("%s: child killed by signal %d\n", name,
			       WTERMSIG(status));
		ksft_test_result_fail("%s\n", name);
	} else {
		/* 10 setup, 11 never in the call, 12 report, 13 setresuid */
		check_long(name, 0, WEXITSTATUS(status));
	}
}

int main(void)
{
	unsigned int i;

	ksft_print_header();
	indirect_require();
	ksft_set_plan(16 + 2 * ARRAY_SIZE(setxid_cases));
	listen_fd = unix_listener("libindirect", &listen_addr, &listen_len);
	test_helpers();
	test_generic_call();
	test_enosys();
	test_resolve_helpers();
	test_sigmask_builder_libc_signals();
	for (i = 0; i < ARRAY_SIZE(setxid_cases); i++)
		test_setxid_during_call(&setxid_cases[i]);
	ksft_finished();
}
