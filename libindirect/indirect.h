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
#include <sys/socket.h>
#include <linux/indirect.h>

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

/* Fill @ctx as a SIGMASK context holding signals 1 to 64 of @mask. */
const struct indirect_ctx *
indirect_ctx_sigmask(struct sysind_ctx_SIGMASK *ctx, const sigset_t *mask);

/*
 * Call syscall @nr with the @nctxs contexts of @ctxs and up to six
 * arguments; those not given are 0. Each argument is converted to
 * unsigned long, as the kernel sees it (pointers included).
 */
long indirect_callv(long nr, const struct indirect_ctx *const *ctxs,
		    unsigned int nctxs, const unsigned long *params);
#define indirect_call(nr, ctxs, nctxs, ...)				\
	indirect_callv((nr), (ctxs), (nctxs),				\
		       (const unsigned long[INDIRECT_NR_PARAMS]){	\
			       __VA_OPT__(INDIRECT_ARGS_(__VA_ARGS__)) })

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

/* Internal: each argument of indirect_call() as an unsigned long. */
#define INDIRECT_ARG_(x)	((unsigned long)(x))
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
