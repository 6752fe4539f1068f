// SPDX-License-Identifier: GPL-2.0
/*
 * SECCOMP_RET_TRACE for an inner call, with a real tracer. A tracer that
 * sets PTRACE_O_INDIRECT, saying that it understands inner calls, stops
 * with the inner call in the task's registers, as a direct call's would
 * be: the syscall number register holds the inner number and the six
 * argument registers the inner arguments (the kernel's copy of params),
 * and PTRACE_GETEVENTMSG gives the filter's data. What it does there
 * decides the call, as for a direct call:
 *  - nothing, or the registers written back as they were: the call runs;
 *  - the syscall number set to -1: the call is skipped, and indirect()
 *    returns what the tracer put in the return register;
 *  - the syscall number or an argument register changed: the changed
 *    call is the one that runs, after the filters judged it again, as
 *    they judge a direct call after a TRACE stop;
 *  - the return register changed without skipping: the call fails with
 *    EPERM. On arm64 that register is also the first argument's (x0,
 *    r0), which such a tracer therefore cannot change (ABI_RET_IS_ARG0).
 * A tracer that does not set PTRACE_O_INDIRECT is not stopped for an
 * inner call, which fails with ENOSYS, as seccomp fails TRACE when no
 * tracer is there: it would take indirect()'s registers for the call
 * (indirect_seccomp_trace_attack_test).
 *
 * The inner call is write() of one byte to a pipe, under an OPENFLAGS
 * context and without one, so whether it ran, and what it wrote where,
 * shows in the pipes. One filter answers TRACE to write() on that pipe;
 * another, ERRNO(REJUDGED_ERRNO) to a write() of REJUDGED_COUNT bytes on
 * it, which only a tracer's change makes; everything else is allowed. The
 * test process is the tracer of a forked child, which SIGALRM kills if it
 * hangs. A tracer built -m32 on x86-64 sees the ia32 register layout
 * through compat ptrace, as its tracee is ia32 too, and an ARM one on
 * arm64 the AArch32 layout.
 *
 * Each ABI has its own ways to change the syscall number (abi.h): x86
 * the orig_ax of PTRACE_SETREGS and of PTRACE_POKEUSER; AArch64 the
 * NT_ARM_SYSTEM_CALL regset, not x8; AArch32 PTRACE_SET_SYSCALL, not r7
 * (whose PTRACE_POKEUSER the kernel takes for r7 alone).
 */
#include <signal.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include "indirect_tracer.h"

/* The 16 bits of data the filter passes to the tracer. */
#define FILTER_DATA		0x5a5
/* What a tracer that skips the call makes it return. */
#define TRACER_ERRNO		1234
#define TRACER_VALUE		4242
/* The write() that the second filter refuses, and with what. */
#define REJUDGED_COUNT		3
#define REJUDGED_ERRNO		1236
/* Seconds the tracee may take, far beyond what a call takes under TCG. */
#define CHILD_TIME_LIMIT	60

/*
 * The inner call and what a tracer puts in its place, set before the
 * fork so that tracer and tracee have them at the same addresses.
 */
static int pipe_fds[2], other_fds[2];
static const char payload[] = "xy";
static const char other_payload[] = "z";
static unsigned long write_params[INDIRECT_NR_PARAMS];

/* What the tracee's indirect() returned, in memory shared with it. */
static long *tracee_ret;

/* What the tracer does at the seccomp stop. */
enum change {
	KEEP,		/* nothing */
	WRITE_BACK,	/* the registers it read, written back */
	SKIP,		/* syscall number -1, @value as the result */
	SET_NR,		/* syscall number @value, with the registers */
	POKE_NR,	/* syscall number @value, with PTRACE_POKEUSER */
	SET_ARG,	/* argument register @arg set to @value */
	SET_RET,	/* the return register set to @value */
};

/* The values of SET_ARG that stand for addresses and descriptors. */
enum {
	OTHER_PIPE = -1000,	/* the other pipe's write end */
	OTHER_BYTE = -1001,	/* other_payload */
};

/* What indirect() returns: RET_PID, or a value. */
#define RET_PID			(-9999)

struct trace_case {
	const char *name;
	/* The tracer sets PTRACE_O_INDIRECT. */
	bool aware;
	/* The inner call has an OPENFLAGS context. */
	bool context;
	enum change change;
	unsigned int arg;
	long value;
	/* What indirect() returns, and what each pipe holds afterwards. */
	long ret;
	const char *pipe;
	const char *other_pipe;
};

static const struct trace_case cases[] = {
	{ "keep_runs", true, true, KEEP, 0, 0, 1, "x", "" },
	{ "keep_runs_no_context", true, false, KEEP, 0, 0, 1, "x", "" },
	{ "write_back_unchanged_runs", true, true, WRITE_BACK, 0, 0, 1, "x",
	  "" },
	{ "skip_returns_tracer_errno", true, true, SKIP, 0, -TRACER_ERRNO,
	  -TRACER_ERRNO, "", "" },
	{ "skip_returns_tracer_value", true, true, SKIP, 0, TRACER_VALUE,
	  TRACER_VALUE, "", "" },
	{ "nr_changed_to_getpid_runs_it", true, true, SET_NR, 0, __NR_getpid,
	  RET_PID, "", "" },
#ifdef ABI_POKEUSER_NR
	{ "nr_poked_to_getpid_runs_it", true, true, POKE_NR, 0, __NR_getpid,
	  RET_PID, "", "" },
#endif
#ifndef ABI_RET_IS_ARG0
	{ "arg0_fd_changed_writes_other_pipe", true, true, SET_ARG, 0,
	  OTHER_PIPE, 1, "", "x" },
#endif
	{ "arg1_buf_changed_writes_other_byte", true, true, SET_ARG, 1,
	  OTHER_BYTE, 1, "z", "" },
	{ "arg1_buf_changed_no_context", true, false, SET_ARG, 1, OTHER_BYTE,
	  1, "z", "" },
	{ "arg2_count_changed_writes_two", true, true, SET_ARG, 2, 2, 2, "xy",
	  "" },
	{ "arg2_count_changed_judged_again", true, true, SET_ARG, 2,
	  REJUDGED_COUNT, -REJUDGED_ERRNO, "", "" },
	{ "arg3_unused_changed_runs", true, true, SET_ARG, 3, 0x33, 1, "x",
	  "" },
	{ "arg4_unused_changed_runs", true, true, SET_ARG, 4, 0x44, 1, "x",
	  "" },
	{ "arg5_unused_changed_runs", true, true, SET_ARG, 5, 0x55, 1, "x",
	  "" },
	{ "ret_changed_eperm", true, true, SET_RET, 0, TRACER_VALUE, -EPERM,
	  "", "" },
	{ "no_option_no_stop_enosys", false, true, KEEP, 0, 0, -ENOSYS, "",
	  "" },
	{ "no_option_no_stop_enosys_no_context", false, false, KEEP, 0, 0,
	  -ENOSYS, "", "" },
};

static void tracee(const struct trace_case *c)
{
	struct seccomp_match traced = {
		.nr = __NR_write,
		.args = 1 << 0,
		.arg = { pipe_fds[1] },
	};
	struct seccomp_match refused = {
		.nr = __NR_write,
		.args = 1 << 0 | 1 << 2,
		.arg = { pipe_fds[1], 0, REJUDGED_COUNT },
	};

	alarm(CHILD_TIME_LIMIT);
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
		_exit(98);
	raise(SIGSTOP);
	if (seccomp_install_match(&refused,
				  SECCOMP_RET_ERRNO | REJUDGED_ERRNO, 0) < 0 ||
	    seccomp_install_match(&traced, SECCOMP_RET_TRACE | FILTER_DATA,
				  0) < 0)
		_exit(99);
	*tracee_ret = indirect_result(__NR_write,
				      c->context ? cloexec_ctxs : NULL,
				      c->context, write_params);
	_exit(0);
}

/* What the tracer saw, for the checks. */
struct seen {
	const struct trace_case *c;
	long indirect_set;
	long stops;
	long event_msg;
	long nr;
	long args_differing;
	long fate;
};

/* The value that @c puts in its argument register. */
static abi_reg_t new_arg(const struct trace_case *c)
{
	switch (c->value) {
	case OTHER_PIPE:
		return other_fds[1];
	case OTHER_BYTE:
		return (abi_reg_t)(unsigned long)other_payload;
	default:
		return c->value;
	}
}

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
		abi_set_reg_arg(&r, c->arg, new_arg(c));
		break;
	case SET_RET:
		ABI_REG_RET(&r) = c->value;
		break;
	}
	if (abi_set_regs(pid, &r))
		ksft_print_msg("%s: %s: %s\n", c->name, ABI_SET_REGS_HOW,
			       strerror(errno));
}

/* At the seccomp stop: what the registers hold, then @c's change. */
static void at_stop(pid_t pid, void *arg)
{
	struct seen *s = arg;
	struct abi_regs regs;
	unsigned long msg;
	unsigned int i;

	s->stops++;
	if (!ptrace(PTRACE_GETEVENTMSG, pid, NULL, &msg))
		s->event_msg = msg;
	if (abi_get_regs(pid, &regs))
		ksft_exit_fail_msg("reading the registers: %s\n",
				   strerror(errno));
	s->nr = (long)ABI_REG_NR(&regs);
	s->args_differing = 0;
	for (i = 0; i < INDIRECT_NR_PARAMS; i++)
		if ((unsigned long)*abi_reg_arg(&regs, i) != write_params[i])
			s->args_differing |= 1L << i;
	if (s->stops == 1)
		change_regs(pid, s->c, &regs);
}

/* What is queued in the pipe that @fd reads, as a string. */
static void drain(int fd, char *buf, size_t size)
{
	int queued = 0;
	ssize_t n = 0;

	if (ioctl(fd, FIONREAD, &queued))
		ksft_exit_fail_msg("FIONREAD: %s\n", strerror(errno));
	if (queued > 0)
		n = read(fd, buf, size - 1);
	buf[n > 0 ? n : 0] = '\0';
}

static void run_case(const struct trace_case *c)
{
	char what[96], in_pipe[8], in_other[8];
	struct seen s = { .c = c, .event_msg = -1, .nr = -1,
			  .args_differing = -1 };
	long expected;
	pid_t pid;

	if (pipe(pipe_fds) || pipe(other_fds))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	write_params[0] = pipe_fds[1];
	write_params[1] = (unsigned long)payload;
	write_params[2] = 1;
	write_params[3] = write_params[4] = write_params[5] = 0;
	*tracee_ret = -1;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid)
		tracee(c);
	s.fate = tracer_run(pid, PTRACE_O_TRACESECCOMP |
			    (c->aware ? PTRACE_O_INDIRECT : 0),
			    &s.indirect_set, at_stop, &s);
	drain(pipe_fds[0], in_pipe, sizeof(in_pipe));
	drain(other_fds[0], in_other, sizeof(in_other));
	close(pipe_fds[0]);
	close(pipe_fds[1]);
	close(other_fds[0]);
	close(other_fds[1]);

#define CHECK(suffix, expected, actual)					\
	do {								\
		snprintf(what, sizeof(what), "trace_%s_%s", c->name, suffix); \
		check_long(what, expected, actual);			\
	} while (0)

	if (c->aware)
		CHECK("option_accepted", 1, s.indirect_set);
	CHECK("tracee_exits", 0, s.fate);
	CHECK("stops", c->aware, s.stops);
	if (c->aware) {
		CHECK("event_msg_is_filter_data", FILTER_DATA, s.event_msg);
		CHECK("tracer_sees_inner_nr", __NR_write, s.nr);
		CHECK("tracer_sees_inner_args", 0, s.args_differing);
	}
	expected = c->ret == RET_PID ? pid : c->ret;
	CHECK("result", expected, *tracee_ret);
	snprintf(what, sizeof(what), "trace_%s_pipe_holds", c->name);
	check_str(what, c->pipe, in_pipe);
	snprintf(what, sizeof(what), "trace_%s_other_pipe_holds", c->name);
	check_str(what, c->other_pipe, in_other);
#undef CHECK
}

int main(void)
{
	unsigned int i, n = 0;

	ksft_print_header();
	indirect_require();
	tracee_ret = shared_alloc(sizeof(*tracee_ret));
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		n += 5 + 4 * cases[i].aware;
	ksft_set_plan(n);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		run_case(&cases[i]);
	ksft_finished();
}
