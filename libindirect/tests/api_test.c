// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * api_test - libindirect's installed copy on a kernel without indirect():
 * every function that makes a call returns -1 with errno ENOSYS and
 * changes nothing, indirect_available() says 0 and keeps errno, and the
 * context builders fill their structures as the kernel reads them.
 *
 * Built by tests/check.sh against the installed headers and library,
 * with the flags that pkg-config gives, once static and once dynamic.
 * Output: TAP, a line per check; a failure says what was expected and
 * what came. On a kernel that has indirect() the ENOSYS checks are
 * skipped: there they would make the calls.
 *
 * The calls reach syscall 387 (402 on 32-bit ARM), which upstream has
 * left unassigned and says it will never assign: on a kernel without
 * indirect() the kernel answers ENOSYS and does nothing else.
 */
#define _GNU_SOURCE		/* struct statx */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>
#include <indirect.h>

static unsigned int test_num;
static int failed;
static int skip_calls;

/* One TAP line; on failure, the expected and the actual value after it. */
static void result(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	test_num++;
	printf("%sok %u - %s\n", ok ? "" : "not ", test_num, name);
	if (!ok) {
		failed = 1;
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
}

/*
 * A call that must fail with ENOSYS, and @unchanged: whether it left
 * alone what it would have changed.
 */
static void check_enosys(const char *name, long ret, int err, int unchanged)
{
	if (skip_calls) {
		test_num++;
		printf("ok %u - %s # SKIP the kernel has indirect()\n",
		       test_num, name);
		return;
	}
	result(ret == -1 && err == ENOSYS && unchanged, name,
	       "# expected: -1, errno %d (%s), nothing changed\n"
	       "# actual: %ld, errno %d (%s), %s\n",
	       ENOSYS, strerror(ENOSYS), ret, err, strerror(err),
	       unchanged ? "nothing changed" : "something changed");
}

/* Run @call with errno cleared, then check it as check_enosys() does. */
#define CHECK_ENOSYS(name, call, unchanged)				\
	do {								\
		long ret_;						\
		int err_;						\
		errno = 0;						\
		ret_ = (call);						\
		err_ = errno;						\
		check_enosys(name, ret_, err_, (unchanged));		\
	} while (0)

static int exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

static long file_size(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? -1 : (long)st.st_size;
}

static void test_contexts(void)
{
	struct sysind_ctx_OPENFLAGS of;
	struct sysind_ctx_SIGMASK sm;
	struct sysind_ctx_RESOLVE rs;
	const struct indirect_ctx *ret;
	unsigned long long want;
	sigset_t mask;
	int sig;

	memset(&of, 0xa5, sizeof(of));
	ret = indirect_ctx_openflags(&of, O_CLOEXEC);
	result(ret == (const void *)&of && of.ctx == SYSIND_CTX_OPENFLAGS &&
	       of.flags == O_CLOEXEC, "indirect_ctx_openflags_fills",
	       "# expected: %p, ctx %d, flags %#x\n"
	       "# actual: %p, ctx %u, flags %#x\n",
	       (void *)&of, SYSIND_CTX_OPENFLAGS, (unsigned int)O_CLOEXEC,
	       (const void *)ret, of.ctx, of.flags);

	/* A mask with every bit set, glibc's signals 32 and 33 included. */
	memset(&mask, 0xff, sizeof(mask));
	want = 0;
	for (sig = 1; sig <= 64; sig++)
		if (sig < 32 || sig >= SIGRTMIN)
			want |= 1ULL << (sig - 1);
	memset(&sm, 0xa5, sizeof(sm));
	ret = indirect_ctx_sigmask(&sm, &mask);
	result(ret == (const void *)&sm && sm.ctx == SYSIND_CTX_SIGMASK &&
	       sm.sigsetsize == 8 && sm.sigset == want,
	       "indirect_ctx_sigmask_fills_without_libc_signals",
	       "# expected: %p, ctx %d, sigsetsize 8, sigset %#llx\n"
	       "# actual: %p, ctx %u, sigsetsize %u, sigset %#llx\n",
	       (void *)&sm, SYSIND_CTX_SIGMASK, want, (const void *)ret,
	       sm.ctx, sm.sigsetsize, (unsigned long long)sm.sigset);

	memset(&rs, 0xa5, sizeof(rs));
	ret = indirect_ctx_resolve(&rs, 0x123456789ULL);
	result(ret == (const void *)&rs && rs.ctx == SYSIND_CTX_RESOLVE &&
	       rs.flags == 0 && rs.resolve == 0x123456789ULL,
	       "indirect_ctx_resolve_fills",
	       "# expected: %p, ctx %d, flags 0, resolve 0x123456789\n"
	       "# actual: %p, ctx %u, flags %#x, resolve %#llx\n",
	       (void *)&rs, SYSIND_CTX_RESOLVE, (const void *)ret, rs.ctx,
	       rs.flags, (unsigned long long)rs.resolve);
}

/* The uapi definitions, the same for every ABI. */
static void test_uapi(void)
{
	result(INDIRECT_NR_PARAMS == 6 && INDIRECT_MAX_CTXS == 16 &&
	       sizeof(struct indirect_ctx) == 4 &&
	       sizeof(struct sysind_ctx_OPENFLAGS) == 8 &&
	       sizeof(struct sysind_ctx_SIGMASK) == 16 &&
	       sizeof(struct sysind_ctx_RESOLVE) == 16,
	       "uapi_definitions",
	       "# expected: INDIRECT_NR_PARAMS 6, INDIRECT_MAX_CTXS 16, sizes 4 8 16 16\n"
	       "# actual: INDIRECT_NR_PARAMS %d, INDIRECT_MAX_CTXS %d, sizes %zu %zu %zu %zu\n",
	       INDIRECT_NR_PARAMS, INDIRECT_MAX_CTXS,
	       sizeof(struct indirect_ctx),
	       sizeof(struct sysind_ctx_OPENFLAGS),
	       sizeof(struct sysind_ctx_SIGMASK),
	       sizeof(struct sysind_ctx_RESOLVE));
}

static void test_calls(const char *dir)
{
	unsigned long params[INDIRECT_NR_PARAMS] = { 0 };
	struct sysind_ctx_OPENFLAGS cloexec;
	const struct indirect_ctx *ctxs[] = {
		indirect_ctx_openflags(&cloexec, O_CLOEXEC),
	};
	char path[256], buf[4] = "abc";
	struct statx stx, stx_before;
	struct stat st;
	int fds[2] = { -2, -2 };
	sigset_t mask;
	int dirfd, fd;

	dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	snprintf(path, sizeof(path), "%s/file", dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (dirfd < 0 || fd < 0 || write(fd, "xyz", 3) != 3) {
		printf("Bail out! %s: %s\n", path, strerror(errno));
		exit(1);
	}
	sigemptyset(&mask);

	CHECK_ENOSYS("indirect_enosys",
		     indirect(__NR_getppid, NULL, 0, params), 1);
	CHECK_ENOSYS("indirect_callv_enosys",
		     indirect_callv(__NR_getppid, NULL, 0, params), 1);
	CHECK_ENOSYS("indirect_call_enosys",
		     indirect_call(__NR_dup, ctxs, 1, fd), 1);
	CHECK_ENOSYS("indirect_socket_cloexec_enosys",
		     indirect_socket_cloexec(AF_UNIX, SOCK_STREAM, 0), 1);
	CHECK_ENOSYS("indirect_accept_cloexec_enosys",
		     indirect_accept_cloexec(fd, NULL, NULL), 1);
	CHECK_ENOSYS("indirect_pipe_cloexec_enosys",
		     indirect_pipe_cloexec(fds),
		     fds[0] == -2 && fds[1] == -2);
	CHECK_ENOSYS("indirect_dup_cloexec_enosys",
		     indirect_dup_cloexec(fd), 1);
	CHECK_ENOSYS("indirect_paccept_enosys",
		     indirect_paccept(fd, NULL, NULL, &mask), 1);
	CHECK_ENOSYS("indirect_pread64_enosys",
		     indirect_pread64(NULL, 0, fd, buf, 3, 0),
		     !memcmp(buf, "abc", 3));
	CHECK_ENOSYS("indirect_pwrite64_enosys",
		     indirect_pwrite64(ctxs, 1, fd, "q", 1, 5LL << 30),
		     file_size(fd) == 3);
	CHECK_ENOSYS("indirect_fallocate_enosys",
		     indirect_fallocate(NULL, 0, fd, 0, 0, 5LL << 30),
		     file_size(fd) == 3);

	CHECK_ENOSYS("indirect_mkdirat_resolve_enosys",
		     indirect_mkdirat_resolve(dirfd, "newdir", 0755,
					      RESOLVE_BENEATH),
		     !exists("newdir"));
	CHECK_ENOSYS("indirect_mknodat_resolve_enosys",
		     indirect_mknodat_resolve(dirfd, "fifo", S_IFIFO | 0600,
					      0, RESOLVE_BENEATH),
		     !exists("fifo"));
	CHECK_ENOSYS("indirect_symlinkat_resolve_enosys",
		     indirect_symlinkat_resolve("file", dirfd, "link",
						RESOLVE_BENEATH),
		     !exists("link"));
	CHECK_ENOSYS("indirect_unlinkat_resolve_enosys",
		     indirect_unlinkat_resolve(dirfd, "file", 0,
					       RESOLVE_BENEATH),
		     exists("file"));
	CHECK_ENOSYS("indirect_renameat2_resolve_enosys",
		     indirect_renameat2_resolve(dirfd, "file", dirfd,
						"renamed", 0,
						RESOLVE_BENEATH),
		     exists("file") && !exists("renamed"));
	CHECK_ENOSYS("indirect_linkat_resolve_enosys",
		     indirect_linkat_resolve(dirfd, "file", dirfd, "hard", 0,
					     RESOLVE_BENEATH),
		     !exists("hard"));
	CHECK_ENOSYS("indirect_fchmodat_resolve_enosys",
		     indirect_fchmodat_resolve(dirfd, "file", 0644,
					       RESOLVE_BENEATH),
		     !stat("file", &st) && (st.st_mode & 07777) == 0600);
	CHECK_ENOSYS("indirect_fchownat_resolve_enosys",
		     indirect_fchownat_resolve(dirfd, "file", getuid(),
					       getgid(), 0, RESOLVE_BENEATH),
		     1);
	memset(&stx, 0xa5, sizeof(stx));
	stx_before = stx;
	CHECK_ENOSYS("indirect_statx_resolve_enosys",
		     indirect_statx_resolve(dirfd, "file", 0, STATX_BASIC_STATS,
					    &stx, RESOLVE_BENEATH),
		     !memcmp(&stx, &stx_before, sizeof(stx)));
	close(fd);
	close(dirfd);
}

int main(int argc, char **argv)
{
	int available, err;

	if (argc != 2) {
		fprintf(stderr, "usage: %s <empty folder>\n", argv[0]);
		return 2;
	}
	/* The names that test_calls() checks are relative to it. */
	if (chdir(argv[1])) {
		printf("Bail out! %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	printf("TAP version 13\n");

	errno = EDOM;
	available = indirect_available();
	err = errno;
	result(available == 0, "indirect_available_is_0",
	       "# expected: 0 (a kernel without indirect())\n"
	       "# actual: %d\n", available);
	result(err == EDOM, "indirect_available_keeps_errno",
	       "# expected: errno %d (%s)\n# actual: errno %d (%s)\n",
	       EDOM, strerror(EDOM), err, strerror(err));
	/* On a kernel with indirect() the calls would run: skip them. */
	skip_calls = available;

	test_uapi();
	test_contexts();
	test_calls(".");
	printf("1..%u\n", test_num);
	return failed;
}
