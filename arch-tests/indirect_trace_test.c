// SPDX-License-Identifier: GPL-2.0
/*
 * What a tracer sees of indirect(). The syscall tracepoints see the outer
 * call only: raw_syscalls:sys_enter gives __NR_indirect and its four
 * arguments. The indirect:indirect_enter and indirect:indirect_exit
 * events name the inner call: its arch, number, arguments and number of
 * contexts, then its result. A call refused before it runs (a blacklisted
 * one, or one that seccomp answers) has no indirect_enter.
 */
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "indirect_test.h"

#define TRACEFS			"/sys/kernel/tracing"

#define TEST_ARCH		ABI_AUDIT_ARCH

/* What the events record; the last argument tells the calls apart. */
static const unsigned long plain_args[INDIRECT_NR_PARAMS] = {
	0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
};
static const unsigned long ctx_args[INDIRECT_NR_PARAMS] = {
	0x11, 0x22, 0x33, 0x44, 0x55, 0x77,
};
static const unsigned long denied_args[INDIRECT_NR_PARAMS] = {
	0x11, 0x22, 0x33, 0x44, 0x55, 0x88,
};

/* Write @value to the tracefs file @name; 0 or -errno. */
static int tracefs_write(const char *name, const char *value)
{
	char path[256];
	int fd, ret = 0;

	snprintf(path, sizeof(path), TRACEFS "/%s", name);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) != (ssize_t)strlen(value))
		ret = -errno;
	close(fd);
	return ret;
}

/* The trace buffer, NUL-terminated, in a static buffer. */
static const char *tracefs_read_trace(void)
{
	static char buf[1 << 16];
	ssize_t n, len = 0;
	int fd = open(TRACEFS "/trace", O_RDONLY);

	if (fd < 0)
		ksft_exit_fail_msg("open " TRACEFS "/trace: %s\n",
				   strerror(errno));
	while (len < (ssize_t)sizeof(buf) - 1 &&
	       (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return buf;
}

/*
 * Does @trace have a line of process @pid with @event and @text? 1 or 0.
 * Each line reads "<comm>-<pid> [cpu] <flags> <time>: <event>: <text>".
 */
static long trace_has(const char *trace, pid_t pid, const char *event,
		      const char *text)
{
	char owner[32], what[256];
	const char *line = trace, *end;

	snprintf(owner, sizeof(owner), "-%d ", pid);
	snprintf(what, sizeof(what), " %s: %s", event, text);
	while (*line) {
		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		if (memmem(line, end - line, owner, strlen(owner)) &&
		    memmem(line, end - line, what, strlen(what)))
			return 1;
		line = *end ? end + 1 : end;
	}
	return 0;
}

/* The text that indirect_enter prints for getppid() with @args. */
static const char *enter_text(const unsigned long *args, unsigned int nctxs)
{
	static char text[160];

	snprintf(text, sizeof(text),
		 "arch %#x NR %d (%lx, %lx, %lx, %lx, %lx, %lx) nctxs %u",
		 TEST_ARCH, __NR_getppid, args[0], args[1], args[2], args[3],
		 args[4], args[5], nctxs);
	return text;
}

/*
 * Call getppid(denied_args) in a child, @pid, under a filter that answers
 * EPERM to it. Return the errno the child saw, or -1.
 */
static long seccomp_denied_call(pid_t *pid)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, args[5])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x88, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = 4, .filter = insns };
	int status;

	fflush(stdout);
	*pid = fork();
	if (*pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (*pid == 0) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
			_exit(99);
		_exit(-indirect_result(__NR_getppid, NULL, 0, denied_args));
	}
	if (waitpid(*pid, &status, 0) != *pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int main(void)
{
	unsigned long blacklisted[INDIRECT_NR_PARAMS] = { 0 };
	char filter[64], exit_text[64], outer_text[64];
	long plain, with_ctx, refused, denied;
	const char *trace;
	pid_t child;

	ksft_print_header();
	indirect_require();
	ksft_set_plan(9);

	mkdir(TRACEFS, 0755);
	if (access(TRACEFS "/events", F_OK) &&
	    mount("tracefs", TRACEFS, "tracefs", 0, NULL))
		ksft_exit_fail_msg("mount tracefs: %s\n", strerror(errno));
	if (access(TRACEFS "/events/indirect/indirect_enter", F_OK))
		ksft_exit_fail_msg("no indirect:indirect_enter event: %s\n",
				   strerror(errno));

	/* indirect() only, for raw_syscalls traces every syscall. */
	snprintf(filter, sizeof(filter), "id == %d", __NR_indirect);
	if (tracefs_write("events/raw_syscalls/sys_enter/filter", filter) ||
	    tracefs_write("trace", "") ||
	    tracefs_write("events/indirect/enable", "1") ||
	    tracefs_write("events/raw_syscalls/sys_enter/enable", "1"))
		ksft_exit_fail_msg("cannot enable the events: %s\n",
				   strerror(errno));

	plain = indirect_result(__NR_getppid, NULL, 0, plain_args);
	with_ctx = indirect_result(__NR_getppid, cloexec_ctxs, 1, ctx_args);
	refused = indirect_result(__NR_indirect, NULL, 0, blacklisted);
	denied = seccomp_denied_call(&child);

	tracefs_write("events/raw_syscalls/sys_enter/enable", "0");
	tracefs_write("events/indirect/enable", "0");
	tracefs_write("events/raw_syscalls/sys_enter/filter", "0");
	trace = tracefs_read_trace();
	tracefs_write("trace", "");

	check_long("calls_return_getppid", getppid(), plain);
	check_long("call_with_context_returns_getppid", getppid(), with_ctx);
	check_long("blacklisted_call_refused", -EINVAL, refused);
	check_long("seccomp_denied_call_refused", EPERM, denied);

	snprintf(outer_text, sizeof(outer_text), "NR %d (", __NR_indirect);
	check_long("sys_enter_sees_outer_call", 1,
		   trace_has(trace, getpid(), "sys_enter", outer_text));
	check_long("indirect_enter_names_inner_call", 1,
		   trace_has(trace, getpid(), "indirect_enter",
			     enter_text(plain_args, 0)));
	check_long("indirect_enter_counts_contexts", 1,
		   trace_has(trace, getpid(), "indirect_enter",
			     enter_text(ctx_args, 1)));
	snprintf(exit_text, sizeof(exit_text), "NR %d = %d", __NR_getppid,
		 getppid());
	check_long("indirect_exit_gives_result", 1,
		   trace_has(trace, getpid(), "indirect_exit", exit_text));
	/* Neither the blacklisted nor the denied call ran, so neither shows. */
	snprintf(outer_text, sizeof(outer_text), "arch %#x NR %d ", TEST_ARCH,
		 __NR_indirect);
	check_long("refused_calls_not_traced", 0,
		   trace_has(trace, getpid(), "indirect_enter", outer_text) +
		   trace_has(trace, child, "indirect_enter",
			     enter_text(denied_args, 0)));
	if (ksft_get_fail_cnt())
		ksft_print_msg("trace was:\n%s", trace);
	ksft_finished();
}
