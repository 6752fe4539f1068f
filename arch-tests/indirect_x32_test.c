// SPDX-License-Identifier: GPL-2.0
/*
 * indirect() from an x32 task (built -mx32, run on the x86-64 kernel).
 *
 * indirect() has no x32 entry: 387 with __X32_SYSCALL_BIT gives ENOSYS.
 * 387 without the bit is the native x86-64 call, whatever the caller's
 * ABI: ctxs is an array of 64-bit pointers, params six 64-bit words and
 * nr an x86-64 number. Each check below would come out differently had
 * the kernel read the arrays with 32-bit elements or the number from the
 * x32 table:
 *  - two OPENFLAGS contexts: read as 32-bit pointers, the second would
 *    be the upper half of the first, NULL, and give EFAULT;
 *  - socket(AF_UNIX, SOCK_STREAM): read as 32-bit words, its type would
 *    be the upper half of AF_UNIX, 0, and fail;
 *  - a context pointer with bits above 4 GiB set faults, where its lower
 *    half alone is a valid context;
 *  - 512 is rt_sigaction on x32 and no syscall on x86-64: ENOSYS.
 * Under a RESOLVE context, an x32 task gets the x86-64 list of the calls
 * that resolve path names: mkdirat() is confined to its dirfd's tree,
 * getppid() is refused, and so is an x32 number.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/openat2.h>
#include "harness_test.h"
#include "x32_syscall.h"

/* rt_sigaction on x32; past the end of the x86-64 table. */
#define X32_NR_RT_SIGACTION	512

/* 1 if @fd is close-on-exec, 0 if not, -errno if it is no descriptor. */
static long fd_cloexec(int64_t fd)
{
	int flags;

	if (fd < 0)
		return fd;
	flags = fcntl((int)fd, F_GETFD);
	if (flags < 0)
		return -errno;
	return !!(flags & FD_CLOEXEC);
}

static struct sysind_ctx_OPENFLAGS cloexec = {
	.ctx = SYSIND_CTX_OPENFLAGS,
	.flags = O_CLOEXEC,
};

static struct sysind_ctx_RESOLVE beneath = {
	.ctx = SYSIND_CTX_RESOLVE,
	.resolve = RESOLVE_BENEATH,
};

/* mkdirat(@dfd, @path, 0755) under RESOLVE_BENEATH: 0 or -errno. */
static int64_t mkdirat_beneath(int dfd, const char *path)
{
	uint64_t ctxs[1] = { ptr64(&beneath) };
	uint64_t params[INDIRECT_NR_PARAMS] = { dfd, ptr64(path), 0755 };

	return indirect64(__NR_mkdirat, ctxs, 1, params);
}

static void check_resolve(const uint64_t *getppid_params)
{
	uint64_t ctxs[1] = { ptr64(&beneath) };
	int dfd;

	mkdir("/tmp/x32-resolve", 0755);
	dfd = open("/tmp/x32-resolve", O_PATH | O_DIRECTORY);
	check_long("resolve_mkdirat_inside", 0, mkdirat_beneath(dfd, "in"));
	check_long("resolve_mkdirat_dotdot_exdev", -EXDEV,
		   mkdirat_beneath(dfd, "../x32-resolve-escape"));
	check_long("resolve_getppid_refused", -EINVAL,
		   indirect64(__NR_getppid, ctxs, 1, getppid_params));
	/* No x86-64 syscall: ENOSYS, as without a context (9/12). */
	check_long("resolve_x32_number_enosys", -ENOSYS,
		   indirect64(X32_SYSCALL_BIT | __NR_mkdirat, ctxs, 1,
			      getppid_params));
	rmdir("/tmp/x32-resolve/in");
	close(dfd);
}

int main(void)
{
	uint64_t getppid_params[INDIRECT_NR_PARAMS] = { 0 };
	uint64_t socket_params[INDIRECT_NR_PARAMS] = { AF_UNIX, SOCK_STREAM };
	/* rt_sigaction(SIGUSR1, NULL, &old, 8): only reads, had it run. */
	uint64_t old_action[4];
	uint64_t sigaction_params[INDIRECT_NR_PARAMS] = {
		SIGUSR1, 0, ptr64(old_action), 8,
	};
	uint64_t ctxs[2] = { ptr64(&cloexec), ptr64(&cloexec) };
	uint64_t high_ctx[1] = { ptr64(&cloexec) | (1ULL << 40) };
	int64_t ret, fd;

	ksft_print_header();
	ret = indirect64(__NR_getppid, NULL, 0, getppid_params);
	if (ret == -ENOSYS)
		ksft_exit_skip("indirect() is not available (ENOSYS)\n");
	ksft_set_plan(13);

	check_long("x32_bit_indirect_enosys", -ENOSYS,
		   syscall64(X32_SYSCALL_BIT | __NR_indirect, __NR_getppid, 0, 0,
			     ptr64(getppid_params)));
	check_long("native_getppid", getppid(), ret);
	check_long("native_getppid_two_contexts", getppid(),
		   indirect64(__NR_getppid, ctxs, 2, getppid_params));

	fd = indirect64(__NR_socket, ctxs, 2, socket_params);
	check_long("native_socket_openflags_cloexec", 1, fd_cloexec(fd));
	if (fd >= 0)
		close((int)fd);
	fd = indirect64(__NR_socket, NULL, 0, socket_params);
	check_long("native_socket_no_context_not_cloexec", 0, fd_cloexec(fd));
	if (fd >= 0)
		close((int)fd);

	check_long("ctx_pointer_above_4g_efault", -EFAULT,
		   indirect64(__NR_getppid, high_ctx, 1, getppid_params));
	check_long("inner_nr_512_is_x86_64_enosys", -ENOSYS,
		   indirect64(X32_NR_RT_SIGACTION, NULL, 0, sigaction_params));
	check_long("inner_nr_x32_bit_enosys", -ENOSYS,
		   indirect64(X32_SYSCALL_BIT | __NR_getppid, NULL, 0,
			      getppid_params));
	/* The same rt_sigaction as a plain x32 call works: a sound probe. */
	check_long("x32_rt_sigaction_direct_ok", 0,
		   syscall64(X32_SYSCALL_BIT | X32_NR_RT_SIGACTION, SIGUSR1, 0,
			     ptr64(old_action), 8));
	check_resolve(getppid_params);
	ksft_finished();
}
