// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libindirect: indirect(2) and typed helpers around it. See indirect.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "indirect.h"
#include "syscall.h"

/*
 * The number of indirect(): the system headers' when they have one (a
 * patched kernel's headers_install), which must be the number this
 * library knows for the architecture; else that number; else none, and
 * every call fails with ENOSYS.
 */
#ifdef __NR_indirect
#ifdef LIBINDIRECT_NR_INDIRECT
_Static_assert(__NR_indirect == LIBINDIRECT_NR_INDIRECT,
	       "<sys/syscall.h>'s __NR_indirect is not the patched kernel's");
#endif
#define NR_INDIRECT	__NR_indirect
#elif defined(LIBINDIRECT_NR_INDIRECT)
#define NR_INDIRECT	LIBINDIRECT_NR_INDIRECT
#endif

/*
 * The number the library was built with, for make check-numbering:
 * "indirect-nr=387". Its three digits are computed, not the macro's
 * text, which on ARM is "(__NR_SYSCALL_BASE + 402)". None on x32, whose
 * number carries __X32_SYSCALL_BIT, and none without a number.
 */
#if defined(NR_INDIRECT) && NR_INDIRECT >= 100 && NR_INDIRECT <= 999
static const char indirect_nr_tag[] __attribute__((used)) = {
	'i', 'n', 'd', 'i', 'r', 'e', 'c', 't', '-', 'n', 'r', '=',
	'0' + NR_INDIRECT / 100, '0' + NR_INDIRECT / 10 % 10,
	'0' + NR_INDIRECT % 10, '\0',
};
#endif

/* The kernel's sigset_t, which SIGMASK holds: signals 1 to 64. */
#define KERNEL_SIGSET_SIZE	8

long indirect(unsigned int nr, const struct indirect_ctx **ctxs,
	      unsigned int nctxs, const unsigned long *params)
{
#ifdef NR_INDIRECT
	/* syscall() sets errno and returns -1 on failure, ENOSYS included. */
	return syscall(NR_INDIRECT, nr, ctxs, nctxs, params);
#else
	(void)nr, (void)ctxs, (void)nctxs, (void)params;
	errno = ENOSYS;
	return -1;
#endif
}

int indirect_available(void)
{
	unsigned long params[INDIRECT_NR_PARAMS] = { 0 };
	int saved = errno;
	long ret = indirect(__NR_getppid, NULL, 0, params);

	errno = saved;
	return ret >= 0;
}

const struct indirect_ctx *
indirect_ctx_openflags(struct sysind_ctx_OPENFLAGS *ctx, unsigned int flags)
{
	ctx->ctx = SYSIND_CTX_OPENFLAGS;
	ctx->flags = flags;
	/* Every context starts with the id that struct indirect_ctx holds. */
	return (const struct indirect_ctx *)ctx;
}

/*
 * The signals from 32 to SIGRTMIN - 1 belong to the C library: glibc's
 * SIGCANCEL (32) and SIGSETXID (33). setuid() and its kin send SIGSETXID
 * to every other thread and wait until each has run its handler, so a
 * thread that waits in indirect() with it blocked hangs them. As
 * pthread_sigmask() does, drop them from a mask however it was built:
 * glibc's sigfillset() and sigaddset() leave them out, but a memset() or
 * a mask copied from the kernel has them.
 */
static int libc_internal_signal(int sig)
{
	return sig >= 32 && sig < SIGRTMIN;
}

const struct indirect_ctx *
indirect_ctx_sigmask(struct sysind_ctx_SIGMASK *ctx, const sigset_t *mask)
{
	unsigned long long bits = 0;
	int sig;

	/* glibc's sigset_t is wider than the kernel's; take signals 1-64. */
	for (sig = 1; sig <= 64; sig++)
		if (!libc_internal_signal(sig) && sigismember(mask, sig) == 1)
			bits |= 1ULL << (sig - 1);
	ctx->ctx = SYSIND_CTX_SIGMASK;
	ctx->sigsetsize = KERNEL_SIGSET_SIZE;
	ctx->sigset = bits;
	return (const struct indirect_ctx *)ctx;
}

long indirect_callv(long nr, const struct indirect_ctx *const *ctxs,
		    unsigned int nctxs, const unsigned long *params)
{
	/* The kernel only reads the array; the prototype matches the RFC's. */
	return indirect(nr, (const struct indirect_ctx **)ctxs, nctxs, params);
}

/* Call @nr with one OPENFLAGS context asking for close-on-exec. */
static long call_cloexec(long nr, const unsigned long *params)
{
	struct sysind_ctx_OPENFLAGS cloexec;
	const struct indirect_ctx *ctxs[] = {
		indirect_ctx_openflags(&cloexec, O_CLOEXEC),
	};

	return indirect_callv(nr, ctxs, 1, params);
}

int indirect_socket_cloexec(int domain, int type, int protocol)
{
	return call_cloexec(__NR_socket, (const unsigned long[INDIRECT_NR_PARAMS]){
		domain, type, protocol });
}

int indirect_accept_cloexec(int fd, struct sockaddr *addr, socklen_t *len)
{
	/* accept4(), for i386 has no accept() of its own outside socketcall. */
	return call_cloexec(__NR_accept4, (const unsigned long[INDIRECT_NR_PARAMS]){
		fd, (unsigned long)addr, (unsigned long)len, 0 });
}

/* pipe(); AArch64 has only pipe2(), here with no flags of its own. */
#ifdef __NR_pipe
#define NR_PIPE		__NR_pipe
#else
#define NR_PIPE		__NR_pipe2
#endif

int indirect_pipe_cloexec(int fds[2])
{
	return call_cloexec(NR_PIPE, (const unsigned long[INDIRECT_NR_PARAMS]){
		(unsigned long)fds });
}

int indirect_dup_cloexec(int fd)
{
	return call_cloexec(__NR_dup, (const unsigned long[INDIRECT_NR_PARAMS]){
		fd });
}

int indirect_paccept(int fd, struct sockaddr *addr, socklen_t *len,
		     const sigset_t *mask)
{
	struct sysind_ctx_OPENFLAGS cloexec;
	struct sysind_ctx_SIGMASK sigmask;
	const struct indirect_ctx *ctxs[] = {
		indirect_ctx_openflags(&cloexec, O_CLOEXEC),
		indirect_ctx_sigmask(&sigmask, mask),
	};

	return indirect_call(__NR_accept4, ctxs, 2, fd, addr, len, 0);
}

/*
 * The 64-bit offsets and lengths go through INDIRECT_ARG64(): two words,
 * low half first, to the 32-bit entry points (sys_ia32_pread64(),
 * compat_sys_aarch32_pread64(), sys_ia32_fallocate(), ...), one to the
 * 64-bit ones. On ARM EABI, pread64's and pwrite64's offset starts at
 * the fifth word, after a word of padding (INDIRECT_PAD64); fallocate's
 * two are in place.
 */
ssize_t indirect_pread64(const struct indirect_ctx *const *ctxs,
			 unsigned int nctxs, int fd, void *buf, size_t count,
			 int64_t offset)
{
	return indirect_call(__NR_pread64, ctxs, nctxs, fd, buf, count,
			     INDIRECT_PAD64 INDIRECT_ARG64(offset));
}

ssize_t indirect_pwrite64(const struct indirect_ctx *const *ctxs,
			  unsigned int nctxs, int fd, const void *buf,
			  size_t count, int64_t offset)
{
	return indirect_call(__NR_pwrite64, ctxs, nctxs, fd, buf, count,
			     INDIRECT_PAD64 INDIRECT_ARG64(offset));
}

int indirect_fallocate(const struct indirect_ctx *const *ctxs,
		       unsigned int nctxs, int fd, int mode, int64_t offset,
		       int64_t len)
{
	return indirect_call(__NR_fallocate, ctxs, nctxs, fd, mode,
			     INDIRECT_ARG64(offset), INDIRECT_ARG64(len));
}

const struct indirect_ctx *
indirect_ctx_resolve(struct sysind_ctx_RESOLVE *ctx, uint64_t resolve)
{
	ctx->ctx = SYSIND_CTX_RESOLVE;
	ctx->flags = 0;
	ctx->resolve = resolve;
	return (const struct indirect_ctx *)ctx;
}

/* Call *at() syscall @nr with one RESOLVE context of @resolve. */
#define call_resolve(nr, resolve, ...)					\
	({								\
		struct sysind_ctx_RESOLVE ctx_;				\
		const struct indirect_ctx *ctxs_[] = {			\
			indirect_ctx_resolve(&ctx_, (resolve)),		\
		};							\
		indirect_call((nr), ctxs_, 1, __VA_ARGS__);		\
	})

int indirect_mkdirat_resolve(int dirfd, const char *path, mode_t mode,
			     uint64_t resolve)
{
	return call_resolve(__NR_mkdirat, resolve, dirfd, path, mode);
}

int indirect_mknodat_resolve(int dirfd, const char *path, mode_t mode,
			     dev_t dev, uint64_t resolve)
{
	/* The kernel's dev_t is 32 bits wide, in both ABIs. */
	return call_resolve(__NR_mknodat, resolve, dirfd, path, mode,
			    (unsigned int)dev);
}

int indirect_symlinkat_resolve(const char *target, int dirfd,
			       const char *path, uint64_t resolve)
{
	return call_resolve(__NR_symlinkat, resolve, target, dirfd, path);
}

int indirect_unlinkat_resolve(int dirfd, const char *path, int flags,
			      uint64_t resolve)
{
	return call_resolve(__NR_unlinkat, resolve, dirfd, path, flags);
}

int indirect_renameat2_resolve(int olddirfd, const char *oldpath,
			       int newdirfd, const char *newpath,
			       unsigned int flags, uint64_t resolve)
{
	return call_resolve(__NR_renameat2, resolve, olddirfd, oldpath,
			    newdirfd, newpath, flags);
}

int indirect_linkat_resolve(int olddirfd, const char *oldpath, int newdirfd,
			    const char *newpath, int flags, uint64_t resolve)
{
	return call_resolve(__NR_linkat, resolve, olddirfd, oldpath, newdirfd,
			    newpath, flags);
}

int indirect_fchmodat_resolve(int dirfd, const char *path, mode_t mode,
			      uint64_t resolve)
{
	return call_resolve(__NR_fchmodat, resolve, dirfd, path, mode);
}

int indirect_fchownat_resolve(int dirfd, const char *path, uid_t owner,
			      gid_t group, int flags, uint64_t resolve)
{
	return call_resolve(__NR_fchownat, resolve, dirfd, path, owner, group,
			    flags);
}

int indirect_statx_resolve(int dirfd, const char *path, int flags,
			   unsigned int mask, struct statx *stx,
			   uint64_t resolve)
{
	return call_resolve(__NR_statx, resolve, dirfd, path, flags, mask,
			    stx);
}
