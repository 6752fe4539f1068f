/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * libindirect's own copy of the uapi header of indirect(2), for the
 * systems whose <linux/indirect.h> does not exist: a stock distribution,
 * whose kernel headers come from an unpatched kernel. <indirect.h>
 * includes <linux/indirect.h> first when the compiler finds one, then
 * this file.
 *
 * Between the two marks below is the patched kernel's
 * include/uapi/linux/indirect.h (the same in the 6.1 and the 6.12
 * series) without its first line, the SPDX tag that opens this file:
 * "make -C libindirect check" compares them when a patched tree is at
 * hand. It keeps its own guard, _UAPI_LINUX_INDIRECT_H; the outer one is
 * the guard that headers_install gives the installed <linux/indirect.h>,
 * so that whichever of the two a program includes first wins, and the
 * other is empty.
 */
#ifndef _LINUX_INDIRECT_H
#define _LINUX_INDIRECT_H

/* --- begin: include/uapi/linux/indirect.h --- */
/*
 * indirect(2): call a syscall with a chain of per-task contexts set.
 *
 *	long indirect(unsigned int nr, const struct indirect_ctx **ctxs,
 *		      unsigned int nctxs, const unsigned long *params);
 *
 * Every context structure starts with struct indirect_ctx and is laid out
 * the same for 32-bit and 64-bit tasks, so that no compat conversion is
 * needed.
 */
#ifndef _UAPI_LINUX_INDIRECT_H
#define _UAPI_LINUX_INDIRECT_H

#include <linux/types.h>

/* params always holds this many words, used or not. */
#define INDIRECT_NR_PARAMS	6
/* The most contexts one call takes; more give E2BIG. */
#define INDIRECT_MAX_CTXS	16

/**
 * struct indirect_ctx - the header every context starts with
 * @ctx: which context follows: one of the SYSIND_CTX_* ids
 *
 * Every kind of context has a 32-bit field after @ctx, and the kernel
 * reads the two as one: the first 8 bytes of a context must be readable,
 * whatever its id, or the call fails with EFAULT.
 */
struct indirect_ctx {
	__u32 ctx;
};

/* SYSIND_CTX_OPENFLAGS: the descriptor flags of every descriptor created */
#define SYSIND_CTX_OPENFLAGS	0

/**
 * struct sysind_ctx_OPENFLAGS - flags for every descriptor the call creates
 * @ctx:   SYSIND_CTX_OPENFLAGS
 * @flags: O_CLOEXEC, or 0; any other bit gives EINVAL
 *
 * Every file descriptor that the inner call installs (socket, accept,
 * pipe, dup, open, eventfd, ...), or that a seccomp supervisor installs
 * while the call waits for its verdict, is close-on-exec from birth, with
 * no window in which another thread's execve() could leak it. When the
 * same call has several OPENFLAGS contexts, the last one in the array
 * wins.
 */
struct sysind_ctx_OPENFLAGS {
	__u32 ctx;
	__u32 flags;
};

/* SYSIND_CTX_SIGMASK: the signal mask of the inner call */
#define SYSIND_CTX_SIGMASK	1

/**
 * struct sysind_ctx_SIGMASK - the signal mask of the inner call
 * @ctx:        SYSIND_CTX_SIGMASK
 * @sigsetsize: size of the kernel's sigset_t, 8; anything else gives EINVAL
 * @sigset:     the mask: bit n - 1 stands for signal n
 *
 * The inner call runs with @sigset as its signal mask, as ppoll(),
 * pselect6() and epoll_pwait() run with theirs, and the old mask is back
 * afterwards. A signal that the mask unblocks and that is pending, or
 * arrives while the call runs, is delivered with @sigset in force, and
 * interrupts the call if it sleeps; the old mask comes back when its
 * handler returns. SIGKILL and SIGSTOP cannot be blocked. When the same
 * call has several SIGMASK contexts, the last one in the array is in
 * force.
 */
struct sysind_ctx_SIGMASK {
	__u32 ctx;
	__u32 sigsetsize;
	__aligned_u64 sigset;
};

/* SYSIND_CTX_RESOLVE: openat2()'s rules for every path name the call resolves */
#define SYSIND_CTX_RESOLVE	2

/**
 * struct sysind_ctx_RESOLVE - how the inner call resolves path names
 * @ctx:     SYSIND_CTX_RESOLVE
 * @flags:   no flag is defined yet: must be 0, or the call fails with EINVAL
 * @resolve: RESOLVE_* flags of <linux/openat2.h>, as openat2() takes them;
 *           at least one. RESOLVE_CACHED, RESOLVE_BENEATH with
 *           RESOLVE_IN_ROOT, and unknown bits give EINVAL.
 *
 * Every path name that the inner call takes from its caller is resolved
 * under the @resolve rules, as openat2() resolves its own: relative to the
 * directory that the lookup starts from (the call's dirfd, or the working
 * directory), failing with EXDEV or ELOOP where openat2() would, or with
 * EAGAIN where a concurrent rename might have let ".." escape. A call that
 * takes two names (rename, link) resolves each one from its own directory
 * under the same rules; symlinkat() resolves the directory of the new
 * link, and stores its target as given. An empty name with AT_EMPTY_PATH,
 * or a NULL one where a call takes that, resolves nothing: the call acts
 * on the descriptor. Only calls that resolve path names may be made under
 * this context; any other gives EINVAL, and a number past the end of the
 * syscall table ENOSYS. When the same call has several RESOLVE contexts,
 * the last one in the array is in force. A seccomp USER_NOTIF or TRACE
 * verdict on a call made under it gives ENOSYS, without asking the
 * supervisor or tracer, which would resolve the names without the rules.
 */
struct sysind_ctx_RESOLVE {
	__u32 ctx;
	__u32 flags;
	__aligned_u64 resolve;
};

#endif /* _UAPI_LINUX_INDIRECT_H */
/* --- end: include/uapi/linux/indirect.h --- */

#endif /* _LINUX_INDIRECT_H */
