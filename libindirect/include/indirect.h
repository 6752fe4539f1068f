/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libindirect: the C-library face of indirect(2).
 *
 * indirect() calls a syscall with a chain of per-task contexts set around
 * it: OPENFLAGS makes every descriptor the call creates close-on-exec from
 * birth, SIGMASK gives the call its own signal mask, as ppoll() and
 * pselect() have one. Every function here returns what the syscall
 * returns, or -1 with errno set, the libc way. On a kernel without
 * indirect() they fail with ENOSYS and change nothing.
 *
 * File offsets and lengths are int64_t whatever _FILE_OFFSET_BITS is, so
 * that no caller can truncate one to a 32-bit off_t on i386.
 *
 * Build with pkg-config: cc $(pkg-config --cflags libindirect) -c app.c;
 * cc app.o $(pkg-config --libs libindirect). The manual pages are
 * indirect(2), and one in section 3 for each function: indirect_call(3),
 * indirect_available(3), ...
 *
 * Contexts are built without casts:
 *
 *	struct sysind_ctx_OPENFLAGS cloexec;
 *	struct sysind_ctx_SIGMASK mask;
 *	const struct indirect_ctx *ctxs[] = {
 *		indirect_ctx_openflags(&cloexec, O_CLOEXEC),
 *		indirect_ctx_sigmask(&mask, &sigset),
 *	};
 *	fd = indirect_call(__NR_accept4, ctxs, 2, listen_fd, 0, 0, 0);
 */
#ifndef LIBINDIRECT_INDIRECT_H
#define LIBINDIRECT_INDIRECT_H

#include <signal.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

/*
 * struct indirect_ctx, the SYSIND_CTX_* ids and their structures: the
 * system's <linux/indirect.h> when it has one (the headers of a patched
 * kernel), else libindirect's copy of it, <indirect/uapi.h>. The two
 * share a guard: whichever comes first wins.
 */
#ifdef __has_include
#if __has_include(<linux/indirect.h>)
#include <linux/indirect.h>
#endif
#endif
#include "indirect/uapi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The syscall itself: @params always holds INDIRECT_NR_PARAMS words. */
long indirect(unsigned int nr, const struct indirect_ctx **ctxs,
	      unsigned int nctxs, const unsigned long *params);

/* 1 if the running kernel has indirect(), 0 if not. */
int indirect_available(void);

/* Fill @ctx as an OPENFLAGS context (O_CLOEXEC or 0) and return it. */
const struct indirect_ctx *
indirect_ctx_openflags(struct sysind_ctx_OPENFLAGS *ctx, unsigned int flags);

/*
 * Fill @ctx as a SIGMASK context holding signals 1 to 64 of @mask, less
 * the ones the C library keeps for itself, 32 to SIGRTMIN - 1 (glibc's
 * SIGCANCEL and SIGSETXID), which pthread_sigmask() never blocks either:
 * setuid() in one thread signals every other thread and waits for each
 * to answer, so a thread sleeping in indirect() with them blocked would
 * hang it.
 */
const struct indirect_ctx *
indirect_ctx_sigmask(struct sysind_ctx_SIGMASK *ctx, const sigset_t *mask);

/*
 * Call syscall @nr with the @nctxs contexts of @ctxs and up to six
 * arguments; those not given are 0. Each argument is converted to
 * unsigned long, as the kernel sees it (pointers included). An argument
 * wider than unsigned long (a 64-bit offset on i386) does not compile:
 * pass it as INDIRECT_ARG64(x).
 */
long indirect_callv(long nr, const struct indirect_ctx *const *ctxs,
		    unsigned int nctxs, const unsigned long *params);
#define indirect_call(nr, ctxs, nctxs, ...)				\
	indirect_callv((nr), (ctxs), (nctxs),				\
		       (const unsigned long[INDIRECT_NR_PARAMS]){	\
			       __VA_OPT__(INDIRECT_ARGS_(__VA_ARGS__)) })

/*
 * A 64-bit argument of indirect_call(), as the syscall ABI passes it: one
 * word on x86-64 and AArch64; on i386, ia32 compat and 32-bit ARM (EABI,
 * little-endian) two words, the low half first, as the kernel's 32-bit
 * entry points of pread64, pwrite64, fallocate, truncate64, ftruncate64,
 * readahead, fadvise64, fadvise64_64, sync_file_range (ARM has
 * arm_fadvise64_64 and sync_file_range2 in their place), preadv and
 * pwritev read them. Not for _llseek, which takes the high half first.
 * @x is evaluated twice on 32-bit ABIs.
 *
 *	indirect_call(__NR_pread64, ctxs, 1, fd, buf, n,
 *		      INDIRECT_PAD64 INDIRECT_ARG64(pos));
 */
#if __SIZEOF_LONG__ >= 8
#define INDIRECT_ARG64(x)	((unsigned long)(uint64_t)(x))
#else
#define INDIRECT_ARG64(x)						\
	((unsigned long)(uint64_t)(x)),					\
	((unsigned long)((uint64_t)(x) >> 32))
#endif

/*
 * Put before an INDIRECT_ARG64() that would start at an odd word (the
 * second or the fourth argument): ARM EABI passes a 64-bit argument in an
 * even/odd register pair, and the register skipped before it is a word of
 * padding (pread64(fd, buf, count, pad, lo, hi), ftruncate64(fd, pad, lo,
 * hi)). Nothing on the other ABIs.
 */
#ifdef __ARM_EABI__
#define INDIRECT_PAD64		0,
#else
#define INDIRECT_PAD64
#endif

/* Close-on-exec from birth, for the calls that have no flags argument. */
int indirect_socket_cloexec(int domain, int type, int protocol);
int indirect_accept_cloexec(int fd, struct sockaddr *addr, socklen_t *len);
int indirect_pipe_cloexec(int fds[2]);
int indirect_dup_cloexec(int fd);

/*
 * accept() that paccept() would have been: a close-on-exec descriptor,
 * and @mask as the signal mask while it waits.
 */
int indirect_paccept(int fd, struct sockaddr *addr, socklen_t *len,
		     const sigset_t *mask);

/*
 * pread64() and pwrite64() at a 64-bit @offset, with the @nctxs contexts
 * of @ctxs (none: NULL, 0), e.g. a SIGMASK for a read from a file system
 * that may sleep. The offset reaches the kernel whole on every ABI.
 */
ssize_t indirect_pread64(const struct indirect_ctx *const *ctxs,
			 unsigned int nctxs, int fd, void *buf, size_t count,
			 int64_t offset);
ssize_t indirect_pwrite64(const struct indirect_ctx *const *ctxs,
			  unsigned int nctxs, int fd, const void *buf,
			  size_t count, int64_t offset);

/*
 * fallocate() of @len bytes at @offset, both 64-bit on every ABI, with
 * the @nctxs contexts of @ctxs (none: NULL, 0).
 */
int indirect_fallocate(const struct indirect_ctx *const *ctxs,
		       unsigned int nctxs, int fd, int mode, int64_t offset,
		       int64_t len);

/*
 * Fill @ctx as a RESOLVE context with the RESOLVE_* flags of
 * <linux/openat2.h> in @resolve, and return it.
 */
const struct indirect_ctx *
indirect_ctx_resolve(struct sysind_ctx_RESOLVE *ctx, uint64_t resolve);

/*
 * The *at() calls, resolving every name they are given under openat2()'s
 * RESOLVE_* rules @resolve: RESOLVE_BENEATH or RESOLVE_IN_ROOT keep each
 * name inside the tree of its dirfd, whatever "..", absolute paths or
 * symlinks it holds; RESOLVE_NO_SYMLINKS, RESOLVE_NO_MAGICLINKS and
 * RESOLVE_NO_XDEV forbid what they name. Where a name breaks the rules,
 * the call fails as openat2() would, with EXDEV or ELOOP (EAGAIN: a
 * concurrent rename; try again), and changes nothing. Calls with two
 * names resolve each one from its own dirfd: pass the same dirfd to keep
 * both in one tree.
 *
 *	int root = open("/srv/untrusted", O_PATH | O_DIRECTORY);
 *	indirect_mkdirat_resolve(root, "a/b", 0755, RESOLVE_IN_ROOT);
 */
int indirect_mkdirat_resolve(int dirfd, const char *path, mode_t mode,
			     uint64_t resolve);
int indirect_mknodat_resolve(int dirfd, const char *path, mode_t mode,
			     dev_t dev, uint64_t resolve);
int indirect_symlinkat_resolve(const char *target, int dirfd,
			       const char *path, uint64_t resolve);
int indirect_unlinkat_resolve(int dirfd, const char *path, int flags,
			      uint64_t resolve);
int indirect_renameat2_resolve(int olddirfd, const char *oldpath,
			       int newdirfd, const char *newpath,
			       unsigned int flags, uint64_t resolve);
int indirect_linkat_resolve(int olddirfd, const char *oldpath, int newdirfd,
			    const char *newpath, int flags, uint64_t resolve);
int indirect_fchmodat_resolve(int dirfd, const char *path, mode_t mode,
			      uint64_t resolve);
int indirect_fchownat_resolve(int dirfd, const char *path, uid_t owner,
			      gid_t group, int flags, uint64_t resolve);
struct statx;
int indirect_statx_resolve(int dirfd, const char *path, int flags,
			   unsigned int mask, struct statx *stx,
			   uint64_t resolve);

/*
 * Internal: each argument of indirect_call() as an unsigned long. In C,
 * one wider than that fails to compile (the bit-field's width is then
 * negative) instead of losing its high half; "1 ? x : x" turns an array
 * into a pointer first, as the cast does.
 */
#ifdef __cplusplus
#define INDIRECT_ARG_(x)	((unsigned long)(x))
#else
#define INDIRECT_ARG_(x)						\
	((unsigned long)(x) + 0 * sizeof(struct {			\
		int indirect_arg_wider_than_unsigned_long :		\
			INDIRECT_FITS_(x) ? 1 : -1;			\
	}))
#define INDIRECT_FITS_(x)						\
	(sizeof(1 ? (x) : (x)) <= sizeof(unsigned long))
#endif
#define INDIRECT_ARGS_(...)						\
	INDIRECT_PICK_(__VA_ARGS__, INDIRECT_A6_, INDIRECT_A5_,		\
		       INDIRECT_A4_, INDIRECT_A3_, INDIRECT_A2_,	\
		       INDIRECT_A1_)(__VA_ARGS__)
#define INDIRECT_PICK_(a, b, c, d, e, f, name, ...)	name
#define INDIRECT_A1_(a)	INDIRECT_ARG_(a)
#define INDIRECT_A2_(a, ...)	INDIRECT_ARG_(a), INDIRECT_A1_(__VA_ARGS__)
#define INDIRECT_A3_(a, ...)	INDIRECT_ARG_(a), INDIRECT_A2_(__VA_ARGS__)
#define INDIRECT_A4_(a, ...)	INDIRECT_ARG_(a), INDIRECT_A3_(__VA_ARGS__)
#define INDIRECT_A5_(a, ...)	INDIRECT_ARG_(a), INDIRECT_A4_(__VA_ARGS__)
#define INDIRECT_A6_(a, ...)	INDIRECT_ARG_(a), INDIRECT_A5_(__VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif /* LIBINDIRECT_INDIRECT_H */
