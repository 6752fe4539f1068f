/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tests of ptrace tracers of inner calls share.
 *
 * A tracer that sets PTRACE_O_INDIRECT says that it understands inner
 * calls of indirect(): at the PTRACE_EVENT_SECCOMP stop of an inner call
 * that a filter answered TRACE, the task's registers hold the inner call
 * as a direct call's would (its number and six arguments, in the
 * caller's ABI), PTRACE_GET_SYSCALL_INFO names it with the flag
 * PTRACE_SYSCALL_INFO_INDIRECT, and what the tracer changes there is the
 * call that runs. A tracer that does not set it is never stopped for an
 * inner call, which fails with ENOSYS, as seccomp fails a TRACE verdict
 * without a tracer: it would read indirect()'s registers and take them
 * for the call.
 *
 * The C library's <sys/ptrace.h> has neither PTRACE_O_INDIRECT nor the
 * flags of struct __ptrace_syscall_info (its op is followed by three
 * bytes of padding, which the kernel's struct now names __u8 reserved
 * and __u16 flags, the layout of Linux 6.16), so they are defined here,
 * with their uapi values.
 */
#ifndef INDIRECT_TRACER_H
#define INDIRECT_TRACER_H

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include "indirect_test.h"

#ifndef PTRACE_O_INDIRECT
#define PTRACE_O_INDIRECT		(1 << 22)
#endif
#ifndef PTRACE_SYSCALL_INFO_INDIRECT
#define PTRACE_SYSCALL_INFO_INDIRECT	0x1
#endif

/* op, reserved and flags: the four bytes before arch. */
_Static_assert(offsetof(struct __ptrace_syscall_info, arch) == 4,
	       "struct ptrace_syscall_info has arch at byte 4");

/* The flags of a PTRACE_GET_SYSCALL_INFO answer: its bytes 2 and 3. */
static inline unsigned int
syscall_info_flags(const struct __ptrace_syscall_info *info)
{
	uint16_t flags;

	memcpy(&flags, (const char *)info + 2, sizeof(flags));
	return flags;
}

/*
 * PTRACE_GET_SYSCALL_INFO of the stopped @pid into @info, which is
 * filled with 0xff first, so that every byte the answer has is the
 * kernel's. Return what ptrace() returned.
 */
static inline long get_syscall_info(pid_t pid,
				    struct __ptrace_syscall_info *info)
{
	memset(info, 0xff, sizeof(*info));
	return ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(*info),
		      info);
}

/* Is wait status @status the stop of PTRACE_EVENT_SECCOMP? */
static inline bool is_seccomp_stop(int status)
{
	return WIFSTOPPED(status) &&
	       status >> 8 == (SIGTRAP | (PTRACE_EVENT_SECCOMP << 8));
}

/*
 * PTRACE_SETOPTIONS of @options on @pid. A kernel that does not know
 * PTRACE_O_INDIRECT refuses the whole set with EINVAL; the options are
 * then set without it, so that the test goes on and shows what that
 * kernel does to a tracer that relies on it. *@indirect_set says whether
 * the kernel took PTRACE_O_INDIRECT (1) or not (0); a case checks it.
 */
static inline void tracer_set_options(pid_t pid, unsigned long options,
				      long *indirect_set)
{
	*indirect_set = 0;
	if (!ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)options)) {
		*indirect_set = !!(options & PTRACE_O_INDIRECT);
		return;
	}
	if (errno == EINVAL && (options & PTRACE_O_INDIRECT)) {
		ksft_print_msg("PTRACE_SETOPTIONS refuses PTRACE_O_INDIRECT; going on without it\n");
		if (!ptrace(PTRACE_SETOPTIONS, pid, NULL,
			    (void *)(options & ~PTRACE_O_INDIRECT)))
			return;
	}
	ksft_exit_fail_msg("PTRACE_SETOPTIONS: %s\n", strerror(errno));
}

/*
 * Read the string at @addr in the tracee @pid into @buf, of @size bytes,
 * as a tracer does: a word at a time, with PTRACE_PEEKDATA. Return 0, or
 * -1 with @buf empty if a word cannot be read.
 */
static inline int tracer_read_string(pid_t pid, unsigned long addr,
				     char *buf, size_t size)
{
	size_t done = 0;

	while (done + 1 < size) {
		size_t n = sizeof(long);
		long word;

		errno = 0;
		word = ptrace(PTRACE_PEEKDATA, pid, (void *)(addr + done),
			      NULL);
		if (errno) {
			buf[0] = '\0';
			return -1;
		}
		if (n > size - 1 - done)
			n = size - 1 - done;
		memcpy(buf + done, &word, n);
		done += n;
		if (memchr(&word, '\0', n))
			return 0;
	}
	buf[size - 1] = '\0';
	return 0;
}

/*
 * Trace @pid, which stopped itself after PTRACE_TRACEME, to its end: set
 * @options, let it run, call @on_stop(@pid, @arg) at each seccomp stop
 * and let it go on from there, and pass every other signal on (SIGALRM,
 * if it hangs). Return its fate (child_fate()).
 */
static inline long tracer_run(pid_t pid, unsigned long options,
			      long *indirect_set,
			      void (*on_stop)(pid_t pid, void *arg), void *arg)
{
	int status, sig = 0;

	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		ksft_exit_fail_msg("the tracee did not stop: status %#x\n",
				   status);
	tracer_set_options(pid, options | PTRACE_O_EXITKILL, indirect_set);
	for (;;) {
		if (ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig))
			ksft_exit_fail_msg("PTRACE_CONT: %s\n",
					   strerror(errno));
		if (waitpid(pid, &status, 0) != pid)
			ksft_exit_fail_msg("waitpid: %s\n", strerror(errno));
		if (!WIFSTOPPED(status))
			return child_fate(status);
		sig = 0;
		if (is_seccomp_stop(status))
			on_stop(pid, arg);
		else
			sig = WSTOPSIG(status);
	}
}

#endif /* INDIRECT_TRACER_H */
