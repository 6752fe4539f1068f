/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the indirect() tests.
 *
 * The syscall number and the ABI come from the uapi headers that
 * headers_install wrote for the patched kernel; nothing is hard-coded.
 */
#ifndef INDIRECT_TEST_H
#define INDIRECT_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/indirect.h>
#include <linux/seccomp.h>
#include "harness_test.h"
#include "indirect.h"

#ifndef __NR_indirect
#error "__NR_indirect is missing: build against the patched kernel's headers"
#endif

/*
 * The number this binary was built with, for make check-numbering to
 * compare with the headers and the frozen ABI: "indirect-nr=387". Its
 * three digits are computed, not the macro's text, which on ARM is
 * "(__NR_SYSCALL_BASE + 402)".
 */
_Static_assert(__NR_indirect >= 100 && __NR_indirect <= 999,
	       "indirect-nr= has three digits");
static const char indirect_nr_tag[] __attribute__((used)) = {
	'i', 'n', 'd', 'i', 'r', 'e', 'c', 't', '-', 'n', 'r', '=',
	'0' + __NR_indirect / 100, '0' + __NR_indirect / 10 % 10,
	'0' + __NR_indirect % 10, '\0',
};

/*
 * indirect() through libindirect, as the kernel returned it: the result,
 * or -errno. @ctxs is untyped, for the tests also hand it hostile arrays.
 */
static inline long indirect_result(long nr, const void *ctxs, unsigned long nctxs,
				   const unsigned long *params)
{
	long ret = indirect(nr, (const struct indirect_ctx **)ctxs, nctxs, params);

	return ret == -1 ? -errno : ret;
}

/* A direct syscall, with the same convention. */
static inline long direct_call(long nr, const unsigned long *p)
{
	long ret = syscall(nr, p[0], p[1], p[2], p[3], p[4], p[5]);

	return ret == -1 ? -errno : ret;
}

/* Skip, as kselftests do, when the running kernel lacks indirect(). */
static inline void indirect_require(void)
{
	unsigned long params[INDIRECT_NR_PARAMS] = { 0 };
	long ret = indirect_result(__NR_getppid, NULL, 0, params);

	if (ret == -ENOSYS)
		ksft_exit_skip("indirect() is not available (ENOSYS)\n");
	if (ret != getppid())
		ksft_exit_fail_msg("indirect(getppid): expected %d, got %ld\n",
				   getppid(), ret);
}

/* 1 if @fd is close-on-exec, 0 if not, -errno if it is no descriptor. */
static inline long fd_cloexec(long fd)
{
	int flags;

	if (fd < 0)
		return fd;
	flags = fcntl(fd, F_GETFD);
	if (flags < 0)
		return -errno;
	return !!(flags & FD_CLOEXEC);
}

/* An OPENFLAGS context asking for close-on-exec, and a chain of one. */
static struct sysind_ctx_OPENFLAGS cloexec_ctx __attribute__((unused)) = {
	.ctx = SYSIND_CTX_OPENFLAGS,
	.flags = O_CLOEXEC,
};
static const struct indirect_ctx *cloexec_ctxs[] __attribute__((unused)) = {
	(const struct indirect_ctx *)&cloexec_ctx,
};

/*
 * The end of a mapped page that is followed by one that faults, so that
 * an object placed just below it straddles into memory that faults. The
 * second page is PROT_NONE rather than unmapped: user copies fault on both
 * alike, and a one-page hole is where the next one-page mmap() would go.
 */
static inline char *guard_page_end(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	if (mprotect(p + page, page, PROT_NONE))
		ksft_exit_fail_msg("mprotect: %s\n", strerror(errno));
	return p + page;
}

/*
 * An AF_UNIX stream listener on an abstract address named after @tag and
 * the pid, so that there is nothing to clean up afterwards. Its address
 * goes to @addr and @len, for connect().
 */
static inline int unix_listener(const char *tag, struct sockaddr_un *addr,
				socklen_t *len)
{
	int fd;

	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	snprintf(addr->sun_path + 1, sizeof(addr->sun_path) - 1, "%s-%d", tag,
		 getpid());
	*len = offsetof(struct sockaddr_un, sun_path) + 1 +
	       strlen(addr->sun_path + 1);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)addr, *len) || listen(fd, 16))
		ksft_exit_fail_msg("listen on %s: %s\n", tag, strerror(errno));
	return fd;
}

/* A plain socket() must not be close-on-exec: no context outlived a call. */
static inline long plain_socket_cloexec(void)
{
	unsigned long p[INDIRECT_NR_PARAMS] = { AF_UNIX, SOCK_STREAM };
	long fd = direct_call(__NR_socket, p);
	long ret = fd_cloexec(fd);

	if (fd >= 0)
		close(fd);
	return ret;
}

/*
 * Seccomp helpers for the tests of what filters make of inner calls.
 *
 * The AUDIT_ARCH_* that filters see for this binary's calls: x86-64
 * natively, i386 for native i386 and ia32 compat alike, and so on
 * (abi.h).
 */
#define INDIRECT_AUDIT_ARCH	ABI_AUDIT_ARCH

/* si_code of a seccomp SIGSYS, from asm-generic/siginfo.h. */
#ifndef SYS_SECCOMP
#define SYS_SECCOMP		1
#endif

/*
 * A call that a filter picks out: syscall @nr on this binary's arch, and
 * each argument i whose bit is set in @args equal to @arg[i].
 */
struct seccomp_match {
	long nr;
	unsigned int args;
	unsigned long arg[INDIRECT_NR_PARAMS];
};

/*
 * Install a filter that answers @verdict to the calls that @m picks out
 * and ALLOW to every other call, indirect() included. Return what
 * seccomp() returned (a listener with SECCOMP_FILTER_FLAG_NEW_LISTENER),
 * or -errno.
 */
static inline int seccomp_install_match(const struct seccomp_match *m,
					unsigned int verdict,
					unsigned int flags)
{
	struct sock_filter insns[4 + 4 * INDIRECT_NR_PARAMS + 2];
	struct sock_fprog prog = { .filter = insns };
	unsigned int n = 0, i, allow;
	long ret;

	insns[n++] = (struct sock_filter)
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr));
	insns[n++] = (struct sock_filter)
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)m->nr, 0, 0);
	insns[n++] = (struct sock_filter)
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch));
	insns[n++] = (struct sock_filter)
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, INDIRECT_AUDIT_ARCH, 0, 0);
	for (i = 0; i < INDIRECT_NR_PARAMS; i++) {
		unsigned long long v = m->arg[i];

		if (!(m->args & (1u << i)))
			continue;
		/* Each argument is 64 bits, the low half first. */
		insns[n++] = (struct sock_filter)
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				 offsetof(struct seccomp_data, args[i]));
		insns[n++] = (struct sock_filter)
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)v,
				 0, 0);
		insns[n++] = (struct sock_filter)
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				 offsetof(struct seccomp_data, args[i]) + 4);
		insns[n++] = (struct sock_filter)
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
				 (unsigned int)(v >> 32), 0, 0);
	}
	insns[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, verdict);
	allow = n;
	insns[n++] = (struct sock_filter)
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	/* Every comparison goes on when it holds, and to ALLOW when not. */
	for (i = 0; i < allow; i++)
		if (BPF_CLASS(insns[i].code) == BPF_JMP)
			insns[i].jf = allow - i - 1;
	prog.len = n;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	ret = syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
	return ret < 0 ? -errno : ret;
}

/* Memory that a forked child writes and its parent reads. */
static inline void *shared_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	return p;
}

/* A child's fate: its exit status, or minus the signal that killed it. */
static inline long child_fate(int status)
{
	if (WIFSIGNALED(status))
		return -WTERMSIG(status);
	return WEXITSTATUS(status);
}

/*
 * Run @fn(@arg) in a child that SIGALRM kills after @seconds, so that a
 * call that never returns fails its case instead of hanging the test, and
 * return the child's fate: 0 once @fn returned.
 */
static inline long run_in_child(void (*fn)(const void *), const void *arg,
				unsigned int seconds)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		alarm(seconds);
		fn(arg);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		ksft_exit_fail_msg("waitpid: %s\n", strerror(errno));
	return child_fate(status);
}

#endif /* INDIRECT_TEST_H */
