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
#include <linux/indirect.h>
#include "harness_test.h"
#include "indirect.h"

#ifndef __NR_indirect
#error "__NR_indirect is missing: build against the patched kernel's headers"
#endif

/*
 * The number this binary was built with, for make check-numbering to
 * compare with the headers and the frozen ABI.
 */
#define INDIRECT_STR(x)		#x
#define INDIRECT_XSTR(x)	INDIRECT_STR(x)
static const char indirect_nr_tag[] __attribute__((used)) =
	"indirect-nr=" INDIRECT_XSTR(__NR_indirect);

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

#endif /* INDIRECT_TEST_H */
