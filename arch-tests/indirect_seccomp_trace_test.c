// SPDX-License-Identifier: GPL-2.0
/*
 * SECCOMP_RET_TRACE for an inner call, with a real tracer. The tracer
 * stops in the outer indirect(): it sees __NR_indirect as the syscall
 * number and indirect()'s four arguments, the inner number first, and
 * PTRACE_GETEVENTMSG gives the filter's data. What it does then decides
 * the inner call's fate:
 *  - nothing, or the registers written back as they were: the call runs;
 *  - the syscall number set to -1: the call is skipped, and indirect()
 *    returns what the tracer put in the return register;
 *  - the syscall number, or any of the six argument registers, changed:
 *    the call does not run and indirect() fails with EPERM. The kernel
 *    copied the inner call before the stop and cannot follow the change;
 *    running the copy would let the tracer believe it had rewritten it.
 *
 * The inner call is write() of one byte to a pipe, under an OPENFLAGS
 * context, so whether it ran shows in the pipe; a filter on this binary's
 * arch answers TRACE to it and ALLOW to the rest. The test process is
 * the tracer of a forked child, which SIGALRM kills if it hangs. A tracer
 * built -m32 on x86-64 sees the ia32 register layout through compat
 * ptrace, as its tracee is ia32 too, and an ARM one on arm64 the AArch32
 * layout.
 *
 * Each ABI has its own ways to change the syscall number (abi.h): x86
 * the orig_ax of PTRACE_SETREGS and of PTRACE_POKEUSER; AArch64 the
 * NT_ARM_SYSTEM_CALL regset, not x8; AArch32 PTRACE_SET_SYSCALL, not r7
 * (whose PTRACE_POKEUSER the kernel takes for r7 alone). The arguments
 * are x0 to x5 or r0 to r5 on arm64, x0 or r0 the return register too.
 */
#include <signal.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include "indirect_test.h"

/* The 16 bits of data the filter passes to the tracer. */
#define FILTER_DATA		0x5a5
/* What a tracer that skips the call makes it return. */
#define TRACER_ERRNO		1234
#define TRACER_VALUE		4242
/* Seconds the tracee may take, far beyond what a call takes under TCG. */
#define CHILD_TIME_LIMIT	60

/*
 * The inner call and stand-ins for its arguments, set before the fork so
 * that tracer and tracee have them at the same addresses. Each stand-in
 * is as valid as what it replaces: only the change itself can make the
 * kernel refuse the call.
 */
static int pipe_fds[2];
static const char payload = 'x';
static unsigned long write_params[INDIRECT_NR_PARAMS];
static unsigned long params_copy[INDIRECT_NR_PARAMS];
static const struct indirect_ctx *ctxs_copy[1];

/* What the tracee's indirect() returned, in memory shared with it. */
static long *tracee_ret;

/* What the tracer does at the seccomp stop. */
enum change {
	KEEP,		/* nothing */
	WRITE_BACK,	/* the registers it read, written back */
	SKIP,		/* syscall number -1, @value as the result */
	SET_NR,		/* syscall number @value, with the registers */
	POKE_NR,	/* syscall number @value, with PTRACE_POKEUSER */
	SET_ARG,	/* argument register @arg replaced by its stand-in */
};

struct trace_case {
	const char *name;
	enum change change;
	unsigned int arg;
	long value;
	/* What indirect() returns, and the bytes the write left. */
	long ret;
	long queued;
};

static const struct trace_case cases[] = {
	{ "keep_runs", KEEP, 0, 0, 1, 1 },
	{ "write_back_unchanged_runs", WRITE_BACK, 0, 0, 1, 1 },
	{ "skip_returns_tracer_errno", SKIP, 0, -TRACER_ERRNO,
	  -TRACER_ERRNO, 0 },
	{ "skip_returns_tracer_value", SKIP, 0, TRACER_VALUE,
	  TRACER_VALUE, 0 },
	{ "nr_changed_eperm", SET_NR, 0, __NR_getpid, -EPERM, 0 },
#ifdef ABI_POKEUSER_NR
	{ "nr_poked_eperm", POKE_NR, 0, __NR_getpid, -EPERM, 0 },
#endif
	{ "arg0_inner_nr_changed_eperm", SET_ARG, 0, 0, -EPERM, 0 },
	{ "arg1_ctxs_changed_eperm", SET_ARG, 1, 0, -EPERM, 0 },
	{ "arg2_nctxs_changed_eperm", SET_ARG, 2, 0, -EPERM, 0 },
	{ "arg3_params_changed_eperm", SET_ARG, 3, 0, -EPERM, 0 },
	{ "arg4_unused_changed_eperm", SET_ARG, 4, 0, -EPERM, 0 },
	{ "arg5_unused_changed_eperm", SET_ARG, 5, 0, -EPERM, 0 },
};

/*
 * The stand-in for argument @i of indirect(__NR_write, cloexec_ctxs, 1,
 * write_params): another valid number, an equal copy of the context
 * array, no context, an equal copy of the parameters; indirect() ignores
 * the last two registers, so any other value does.
 */
static abi_reg_t stand_in(unsigned int i, abi_reg_t old)
{
	switch (i) {
	case 0:
		return __NR_getpid;
	case 1:
		return (abi_reg_t)(unsigned long)ctxs_copy;
	case 2:
		return 0;
	case 3:
		return (abi_reg_t)(unsigned long)params_copy;
	default:
		return old ^ 1;
	}
}

static void tracee(void)
{
	struct seccomp_match m = {
		.nr = __NR_write,
		.args = 1 << 0,
		.arg = { pipe_fds[1] },
	};

	alarm(CHILD_TIME_LIMIT);
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
		_exit(98);
	raise(SIGSTOP);
	if (seccomp_install_match(&m, SECCOMP_RET_TRACE | FILTER_DATA, 0) < 0)
		_exit(99);
	*tracee_ret = indirect_result(__NR_write, cloexec_ctxs, 1,
				      write_params);
	_exit(0);
}

/* What the tracer saw, for the checks. */
struct seen {
	long stops;
	long event_msg;
	long nr;
	long arg0;
	long fate;
};

/* Apply @c's change to the tracee @pid, stopped with registers @regs. */
static void change_regs(pid_t pid, const struct trace_case *c,
			const struct abi_regs *regs)
{
	struct abi_regs r = *regs;

	switch (c->change) {
	case KEEP:
		return;
	case WRITE_BACK:
		break;
	case SKIP:
		ABI_REG_NR(&r) = -1;
		ABI_REG_RET(&r) = c->value;
		break;
	case SET_NR:
		ABI_REG_NR(&r) = c->value;
		break;
	case POKE_NR:
#ifdef ABI_POKEUSER_NR
		if (ptrace(PTRACE_POKEUSER, pid, (void *)ABI_POKEUSER_NR,
			   (void *)c->value))
			ksft_print_msg("%s: PTRACE_POKEUSER: %s\n", c->name,
				       strerror(errno));
#endif
		return;
	case SET_ARG:
		abi_set_reg_arg(&r, c->arg,
				stand_in(c->arg, *abi_reg_arg(&r, c->arg)));
		break;
	}
	if (abi_set_regs(pid, &r))
		ksft_print_msg("%s: %s: %s\n", c->name, ABI_SET_REGS_HOW,
			       strerror(errno));
}

/* Run the tracee of case @c to its end and fill @s. */
static void trace_case(const struct trace_case *c, struct seen *s)
{
	struct abi_regs regs;
	unsigned long msg;
	int status;
	pid_t pid;

	memset(s, 0, sizeof(*s));
	s->event_msg = s->nr = s->arg0 = -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid)
		tracee();
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		ksft_exit_fail_msg("%s: tracee did not stop\n", c->name);
	if (ptrace(PTRACE_SETOPTIONS, pid, NULL,
		   (void *)(PTRACE_O_TRACESECCOMP | PTRACE_O_EXITKILL)))
		ksft_exit_fail_msg("PTRACE_SETOPTIONS: %s\n", strerror(errno));
	ptrace(PTRACE_CONT, pid, NULL, NULL);
	for (;;) {
		if (waitpid(pid, &status, 0) != pid)
			ksft_exit_fail_msg("waitpid: %s\n", strerror(errno));
		if (!WIFSTOPPED(status))
			break;
		if (status >> 8 != (SIGTRAP | (PTRACE_EVENT_SECCOMP << 8))) {
			/* A signal for the tracee (SIGALRM): deliver it. */
			ptrace(PTRACE_CONT, pid, NULL,
			       (void *)(long)WSTOPSIG(status));
			continue;
		}
		s->stops++;
		if (!ptrace(PTRACE_GETEVENTMSG, pid, NULL, &msg))
			s->event_msg = msg;
		if (abi_get_regs(pid, &regs))
			ksft_exit_fail_msg("reading the registers: %s\n",
					   strerror(errno));
		s->nr = (long)ABI_REG_NR(&regs);
		s->arg0 = (long)*abi_reg_arg(&regs, 0);
		if (s->stops == 1)
			change_regs(pid, c, &regs);
		ptrace(PTRACE_CONT, pid, NULL, NULL);
	}
	s->fate = child_fate(status);
}

static void run_case(const struct trace_case *c)
{
	unsigned int i;
	struct seen s;
	char what[96];
	int queued = -1;

	if (pipe(pipe_fds))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	write_params[0] = pipe_fds[1];
	write_params[1] = (unsigned long)&payload;
	write_params[2] = 1;
	for (i = 0; i < INDIRECT_NR_PARAMS; i++)
		params_copy[i] = write_params[i];
	ctxs_copy[0] = cloexec_ctxs[0];
	*tracee_ret = -1;

	trace_case(c, &s);
	if (ioctl(pipe_fds[0], FIONREAD, &queued))
		ksft_exit_fail_msg("FIONREAD: %s\n", strerror(errno));
	close(pipe_fds[0]);
	close(pipe_fds[1]);

	snprintf(what, sizeof(what), "trace_%s_tracee_exits", c->name);
	check_long(what, 0, s.fate);
	snprintf(what, sizeof(what), "trace_%s_one_stop", c->name);
	check_long(what, 1, s.stops);
	snprintf(what, sizeof(what), "trace_%s_event_msg_is_filter_data",
		 c->name);
	check_long(what, FILTER_DATA, s.event_msg);
	snprintf(what, sizeof(what), "trace_%s_tracer_sees_outer_nr", c->name);
	check_long(what, __NR_indirect, s.nr);
	snprintf(what, sizeof(what), "trace_%s_tracer_sees_inner_nr_in_arg0",
		 c->name);
	check_long(what, __NR_write, s.arg0);
	snprintf(what, sizeof(what), "trace_%s_result", c->name);
	check_long(what, c->ret, *tracee_ret);
	snprintf(what, sizeof(what), "trace_%s_bytes_written", c->name);
	check_long(what, c->queued, queued);
}

int main(void)
{
	unsigned int i;

	ksft_print_header();
	indirect_require();
	tracee_ret = shared_alloc(sizeof(*tracee_ret));
	ksft_set_plan(7 * ARRAY_SIZE(cases));
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		run_case(&cases[i]);
	ksft_finished();
}
