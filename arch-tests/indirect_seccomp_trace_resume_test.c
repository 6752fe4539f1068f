// SPDX-License-Identifier: GPL-2.0
/*
 * What the task gets when the TRACE stop of an inner call ends.
 *
 * The call runs only if a tracer of inner calls still watches the task
 * when the stop ends: a tracer that cleared PTRACE_O_INDIRECT during the
 * stop (PTRACE_SETOPTIONS, then PTRACE_CONT), or detached there, lets go
 * of a call that it may not have understood, which then fails with
 * ENOSYS, as the TRACE verdict of an inner call does without such a
 * tracer. The task goes on normally.
 *
 * When the stop ends, the syscall number, the six argument registers and
 * the return register are indirect()'s again, and only they: the rest of
 * the frame keeps what the tracer or ptrace left there, as after a direct
 * call's stop. A tracer's change of another register (abi.h's spare
 * register: r12, eflags' DF, x19, r8) is still there when indirect()
 * returns, whether the call ran or the tracer skipped it. On x86 a
 * tracer that single-stepped the task to the call and detaches at the
 * stop has the trap flag cleared (ptrace_disable()), and the task gets no
 * SIGTRAP after indirect() returns: that flag is the task's now.
 *
 * The inner call is write() of one byte, "x", to a pipe, which a filter
 * answers TRACE; the call is made with the syscall instruction
 * (abi_syscall_spare()), which reads the spare register right after it.
 * After indirect() the task writes "d" to the pipe directly, through
 * another descriptor that the filter lets pass, and exits. The test
 * process is the tracer of a forked child, which SIGALRM kills if it
 * hangs.
 */
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/ucontext.h>
#include <sys/user.h>
#include "indirect_tracer.h"

/* The 16 bits of data the filter passes to the tracer. */
#define FILTER_DATA		0x7e5
/* What a tracer that skips the call makes it return. */
#define TRACER_VALUE		4243
/* Seconds the tracee may take, far beyond what a call takes under TCG. */
#define CHILD_TIME_LIMIT	60
/* Single-steps from the task's SIGSTOP to its call, at most. */
#define MAX_STEPS		100000

/* How the tracer ends the stop. */
enum end {
	CONT,			/* PTRACE_CONT */
	OPTION_CLEARED,		/* PTRACE_O_INDIRECT cleared, PTRACE_CONT */
	DETACH,			/* PTRACE_DETACH */
	SPARE_CHANGED,		/* the spare register flipped, PTRACE_CONT */
	SPARE_CHANGED_SKIP,	/* the same, and the call skipped */
	STEP_DETACH,		/* single-stepped to the call, PTRACE_DETACH */
};

struct resume_case {
	const char *name;
	enum end end;
	/* What indirect() returns, and what the pipe holds afterwards. */
	long ret;
	const char *pipe;
	/* The spare register holds what the tracer flipped it to. */
	bool spare_flipped;
};

static const struct resume_case cases[] = {
	{ "cont_runs", CONT, 1, "xd", false },
	{ "option_cleared_enosys", OPTION_CLEARED, -ENOSYS, "d", false },
	{ "detach_enosys", DETACH, -ENOSYS, "d", false },
	{ "spare_reg_changed_kept", SPARE_CHANGED, 1, "xd", true },
	{ "spare_reg_changed_skip_kept", SPARE_CHANGED_SKIP, TRACER_VALUE,
	  "d", true },
	{ "singlestep_detach_no_sigtrap", STEP_DETACH, -ENOSYS, "d", false },
};

/* The pipe and the inner call, set before the fork. */
static int pipe_fds[2];
static const char payload[] = "x";
static unsigned long write_params[INDIRECT_NR_PARAMS];

/* What tracer and tracee found, in memory shared between them. */
struct resume_result {
	/* Tracee: indirect()'s result, the spare register, SIGTRAPs. */
	long ret;
	unsigned long spare;
	long sigtraps;
	/* Tracer: seccomp stops, what it saw at the first, single-steps. */
	long stops;
	long event_msg;
	long nr;
	unsigned long spare_seen;
	long steps;
};

static struct resume_result *r;

static void on_sigtrap(int sig __attribute__((unused)),
		       siginfo_t *info __attribute__((unused)), void *ucv)
{
	ucontext_t *uc __attribute__((unused)) = ucv;

	r->sigtraps++;
#ifdef ABI_SINGLESTEP_FLAG
	/* A trap flag left set would trap again after each instruction. */
	ABI_UC_FLAGS(uc) &= ~ABI_SINGLESTEP_FLAG;
#endif
}

static void tracee(void)
{
	struct seccomp_match traced = {
		.nr = __NR_write,
		.args = 1 << 0,
		.arg = { pipe_fds[1] },
	};
	struct sigaction sa = {
		.sa_sigaction = on_sigtrap,
		.sa_flags = SA_SIGINFO,
	};
	int after_fd = dup(pipe_fds[1]);
	unsigned long spare = 0;

	alarm(CHILD_TIME_LIMIT);
	if (after_fd < 0 || sigaction(SIGTRAP, &sa, NULL) ||
	    ptrace(PTRACE_TRACEME, 0, NULL, NULL))
		_exit(98);
	if (seccomp_install_match(&traced, SECCOMP_RET_TRACE | FILTER_DATA,
				  0) < 0)
		_exit(99);
	/* Close to the call, for a tracer that single-steps to it. */
	raise(SIGSTOP);
	r->ret = abi_syscall_spare(__NR_indirect, __NR_write, 0, 0,
				   (unsigned long)write_params, &spare);
	r->spare = spare;
	if (write(after_fd, "d", 1) != 1)
		_exit(97);
	_exit(0);
}

/*
 * At the seccomp stop: what the registers hold, then @c's end of it.
 * Return true if the tracer detached.
 */
static bool at_stop(pid_t pid, const struct resume_case *c)
{
	struct abi_regs regs;
	unsigned long msg;

	if (++r->stops > 1)
		return false;
	if (!ptrace(PTRACE_GETEVENTMSG, pid, NULL, &msg))
		r->event_msg = msg;
	if (abi_get_regs(pid, &regs))
		ksft_exit_fail_msg("reading the registers: %s\n",
				   strerror(errno));
	r->nr = (long)ABI_REG_NR(&regs);
	r->spare_seen = (unsigned long)*abi_reg_spare(&regs) & ABI_SPARE_MASK;
	switch (c->end) {
	case CONT:
		break;
	case OPTION_CLEARED:
		if (ptrace(PTRACE_SETOPTIONS, pid, NULL,
			   (void *)(PTRACE_O_TRACESECCOMP | PTRACE_O_EXITKILL)))
			ksft_exit_fail_msg("PTRACE_SETOPTIONS: %s\n",
					   strerror(errno));
		break;
	case SPARE_CHANGED_SKIP:
		ABI_REG_NR(&regs) = -1;
		ABI_REG_RET(&regs) = TRACER_VALUE;
		/* fall through */
	case SPARE_CHANGED:
		*abi_reg_spare(&regs) ^= (abi_reg_t)ABI_SPARE_FLIP;
		if (abi_set_regs(pid, &regs))
			ksft_exit_fail_msg("%s: %s\n", ABI_SET_REGS_HOW,
					   strerror(errno));
		break;
	case DETACH:
	case STEP_DETACH:
		if (ptrace(PTRACE_DETACH, pid, NULL, NULL))
			ksft_exit_fail_msg("PTRACE_DETACH: %s\n",
					   strerror(errno));
		return true;
	}
	return false;
}

/*
 * Trace @pid, stopped after PTRACE_TRACEME, to its end: from its SIGSTOP
 * on, single-step it to the seccomp stop (STEP_DETACH) or let it run,
 * end the stop as @c says, and pass every other signal on. Return its
 * fate (child_fate()).
 */
static long trace(pid_t pid, const struct resume_case *c, long *indirect_set)
{
	int req = c->end == STEP_DETACH ? PTRACE_SINGLESTEP : PTRACE_CONT;
	int status, sig = 0;

	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		ksft_exit_fail_msg("the tracee did not stop: status %#x\n",
				   status);
	tracer_set_options(pid, PTRACE_O_TRACESECCOMP | PTRACE_O_INDIRECT |
			   PTRACE_O_EXITKILL, indirect_set);
	for (;;) {
		if (ptrace(req, pid, NULL, (void *)(long)sig))
			ksft_exit_fail_msg("ptrace(%d): %s\n", req,
					   strerror(errno));
		if (waitpid(pid, &status, 0) != pid)
			ksft_exit_fail_msg("waitpid: %s\n", strerror(errno));
		if (!WIFSTOPPED(status))
			return child_fate(status);
		sig = 0;
		if (is_seccomp_stop(status)) {
			if (at_stop(pid, c))
				break;
			req = PTRACE_CONT;
		} else if (req == PTRACE_SINGLESTEP &&
			   WSTOPSIG(status) == SIGTRAP) {
			if (++r->steps > MAX_STEPS)
				ksft_exit_fail_msg("no seccomp stop in %d single-steps\n",
						   MAX_STEPS);
		} else {
			sig = WSTOPSIG(status);
		}
	}
	/* Detached: the task goes on alone, to its end. */
	if (waitpid(pid, &status, 0) != pid)
		ksft_exit_fail_msg("waitpid: %s\n", strerror(errno));
	return child_fate(status);
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

/* The checks of one case, which main() counts. */
static unsigned int checks(const struct resume_case *c)
{
#ifndef ABI_SINGLESTEP_FLAG
	if (c->end == STEP_DETACH)
		return 1;
#endif
	return 10 + (c->end == STEP_DETACH);
}

static void run_case(const struct resume_case *c)
{
	unsigned long spare_after = ABI_SPARE_BEFORE;
	char what[96], in_pipe[8];
	long fate, indirect_set;
	pid_t pid;

#ifndef ABI_SINGLESTEP_FLAG
	if (c->end == STEP_DETACH) {
		ksft_test_result_skip("resume_%s: no trap flag in %s's saved frame (x86 only)\n",
				      c->name, ABI_NAME);
		return;
	}
#endif
	if (pipe(pipe_fds))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	write_params[0] = pipe_fds[1];
	write_params[1] = (unsigned long)payload;
	write_params[2] = 1;
	memset(r, 0, sizeof(*r));
	r->ret = r->event_msg = r->nr = -1;
	r->spare = r->spare_seen = ~ABI_SPARE_BEFORE & ABI_SPARE_MASK;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid)
		tracee();
	fate = trace(pid, c, &indirect_set);
	drain(pipe_fds[0], in_pipe, sizeof(in_pipe));
	close(pipe_fds[0]);
	close(pipe_fds[1]);
	if (c->spare_flipped)
		spare_after ^= ABI_SPARE_FLIP;

#define CHECK(suffix, expected, actual)					\
	do {								\
		snprintf(what, sizeof(what), "resume_%s_%s", c->name, suffix); \
		check_long(what, expected, actual);			\
	} while (0)

	CHECK("option_accepted", 1, indirect_set);
	if (c->end == STEP_DETACH) {
		ksft_print_msg("resume_%s: %ld single-steps to the call\n",
			       c->name, r->steps);
		CHECK("single_stepped", 1, r->steps > 0);
	}
	CHECK("tracee_exits", 0, fate);
	CHECK("stops", 1, r->stops);
	CHECK("event_msg_is_filter_data", FILTER_DATA, r->event_msg);
	CHECK("tracer_sees_inner_nr", __NR_write, r->nr);
	if (r->spare_seen != ABI_SPARE_BEFORE)
		ksft_print_msg("resume_%s: the tracer saw %s %#lx, not %#lx\n",
			       c->name, ABI_SPARE_NAME, r->spare_seen,
			       ABI_SPARE_BEFORE);
	CHECK("tracer_sees_spare_reg", 1, r->spare_seen == ABI_SPARE_BEFORE);
	CHECK("result", c->ret, r->ret);
	snprintf(what, sizeof(what), "resume_%s_pipe_holds", c->name);
	check_str(what, c->pipe, in_pipe);
	if (r->spare != spare_after)
		ksft_print_msg("resume_%s: %s is %#lx after indirect(), not %#lx\n",
			       c->name, ABI_SPARE_NAME, r->spare, spare_after);
	CHECK("spare_reg_after", 1, r->spare == spare_after);
	CHECK("no_sigtrap", 0, r->sigtraps);
#undef CHECK
}

int main(void)
{
	unsigned int i, n = 0;

	ksft_print_header();
	indirect_require();
	r = shared_alloc(sizeof(*r));
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		n += checks(&cases[i]);
	ksft_set_plan(n);
	ksft_print_msg("spare register: %s\n", ABI_SPARE_NAME);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		run_case(&cases[i]);
	ksft_finished();
}
