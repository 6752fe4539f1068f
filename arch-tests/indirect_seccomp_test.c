// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp filters judge the inner call of indirect() as if it were made
 * directly: the same number, the same AUDIT_ARCH_* (x86-64 natively,
 * i386 for ia32 compat and native i386, AArch64, ARM for AArch32 compat)
 * and the same arguments, after the outer indirect() itself was allowed.
 * Each verdict is checked against a direct call under the same filter:
 * ERRNO, KILL_PROCESS, KILL_THREAD, TRAP, LOG, ALLOW, USER_NOTIF and
 * TRACE (without a tracer, with one that does not set PTRACE_O_INDIRECT
 * and with one that does).
 * TRAP's SIGSYS describes the outer call, indirect() itself, whose
 * registers its handler finds in its ucontext, as a direct call's
 * handler finds that call's: a siginfo that named the inner call would
 * not match the registers (indirect_seccomp_trap_emulation_test).
 *
 * Every filter matches one call only: getppid() with six marked
 * arguments, on this binary's arch. getppid() ignores its arguments, so
 * the call is harmless when it runs, and only a filter that sees the
 * arguments can tell it apart from getppid() with other ones. A filter
 * runs in a child, for a filter cannot be removed.
 */
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/ucontext.h>
#include <sys/user.h>
#include <sys/wait.h>
#include "indirect_tracer.h"

#define TEST_ARCH		ABI_AUDIT_ARCH

/* What the filters match, and the errno that says "wrong arch". */
#define TARGET_NR		__NR_getppid
#define WRONG_ARCH_ERRNO	EXDEV
/* The errno of the ERRNO verdict, and the value a supervisor returns. */
#define FILTER_ERRNO		1234
#define NOTIF_VALUE		4242
/*
 * The errno of getpgrp(), which a tracer rewrites the call into; AArch64
 * has getpgid() only.
 */
#ifdef __NR_getpgrp
#define REWRITE_NR		__NR_getpgrp
#else
#define REWRITE_NR		__NR_getpgid
#endif
#define REWRITE_ERRNO		1235
/* The 16 bits of data that TRAP and TRACE pass on. */
#define FILTER_DATA		0x77
/* Seconds a child may take, far beyond what a call takes under TCG. */
#define CHILD_TIME_LIMIT	60
/* si_code of a seccomp SIGSYS, from asm-generic/siginfo.h, which glibc hides. */
#ifndef SYS_SECCOMP
#define SYS_SECCOMP		1
#endif

static const unsigned long marked[INDIRECT_NR_PARAMS] = {
	0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
};
static const unsigned long unmarked[INDIRECT_NR_PARAMS] = {
	0x11, 0x22, 0x33, 0x44, 0x55, 0x67,
};

/*
 * Results that a child writes and its parent checks, in memory that fork()
 * shares. The parent's own pid is what getppid() returns in the child.
 */
struct child_results {
	long direct;
	long inner;
	long inner_with_ctx;
	long inner_unmarked;
	long returned;
	long notif_nr;
	long notif_arch;
	long notif_last_arg;
	siginfo_t info;
	/*
	 * The SIGSYS handler's ucontext: ip, return, argument and (on ARM)
	 * syscall number registers.
	 */
	unsigned long uc_ip;
	unsigned long uc_ret;
	unsigned long uc_arg[INDIRECT_NR_PARAMS];
	unsigned long uc_nr;
	/* What ends at uc_ip, and the ABI's syscall instruction. */
	unsigned long insn_before_ip;
	unsigned long syscall_insn;
};

static struct child_results *res;

/* The offset in struct seccomp_data of the low or high half of an arg. */
#define ARG_LO(i)	offsetof(struct seccomp_data, args[i])
#define ARG_HI(i)	(offsetof(struct seccomp_data, args[i]) + 4)

/* Append to @insns at *@n: load the word at @offset, go on if it is @k. */
static void match_word(struct sock_filter *insns, unsigned int *n,
		       unsigned int offset, unsigned int k)
{
	insns[(*n)++] = (struct sock_filter)
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offset);
	/* The jump offset to the final ALLOW is filled in afterwards. */
	insns[(*n)++] = (struct sock_filter)
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, k, 0, 0);
}

/*
 * Install a filter that answers @verdict to getppid(marked...) on this
 * binary's arch, ERRNO(WRONG_ARCH_ERRNO) to getppid() on another arch,
 * ERRNO(REWRITE_ERRNO) to getpgrp() and ALLOW to the rest, indirect()
 * included. Return what seccomp() returned:
 * a listener descriptor with SECCOMP_FILTER_FLAG_NEW_LISTENER.
 */
static int install_filter(unsigned int verdict, unsigned int flags)
{
	struct sock_filter insns[64];
	struct sock_fprog prog = { .filter = insns };
	unsigned int n = 0, i, allow;
	long ret;

	insns[n++] = (struct sock_filter)
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr));
	insns[n++] = (struct sock_filter)
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, REWRITE_NR, 0, 1);
	insns[n++] = (struct sock_filter)
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | REWRITE_ERRNO);
	match_word(insns, &n, offsetof(struct seccomp_data, nr), TARGET_NR);
	insns[n++] = (struct sock_filter)
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch));
	insns[n++] = (struct sock_filter)
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TEST_ARCH, 1, 0);
	insns[n++] = (struct sock_filter)
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | WRONG_ARCH_ERRNO);
	for (i = 0; i < INDIRECT_NR_PARAMS; i++) {
		match_word(insns, &n, ARG_LO(i), marked[i]);
		match_word(insns, &n, ARG_HI(i), 0);
	}
	insns[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, verdict);
	allow = n;
	insns[n++] = (struct sock_filter)
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	/* Every failed match (a jump with no offsets yet) goes to ALLOW. */
	for (i = 0; i < allow; i++)
		if (BPF_CLASS(insns[i].code) == BPF_JMP && !insns[i].jt &&
		    !insns[i].jf)
			insns[i].jf = allow - i - 1;
	prog.len = n;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		ksft_exit_fail_msg("PR_SET_NO_NEW_PRIVS: %s\n", strerror(errno));
	ret = syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
	if (ret < 0) {
		printf("# seccomp(SET_MODE_FILTER): %s\n", strerror(errno));
		_exit(99);
	}
	return ret;
}

static long inner_call(const unsigned long *params)
{
	return indirect_result(TARGET_NR, NULL, 0, params);
}

/* Through do_indirect(), the path with contexts. */
static long inner_call_with_ctx(const unsigned long *params)
{
	return indirect_result(TARGET_NR, cloexec_ctxs, 1, params);
}

/* Fork a child that runs @child(@arg) on fresh results, and exits 0. */
static pid_t start_child(void (*child)(unsigned int), unsigned int arg)
{
	pid_t pid;

	memset(res, 0, sizeof(*res));
	res->returned = -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (pid == 0) {
		/* A call that never returns fails the test instead of hanging. */
		alarm(CHILD_TIME_LIMIT);
		child(arg);
		_exit(0);
	}
	return pid;
}

/* Run @child(@arg) in a child and return its wait status. */
static int run_child(void (*child)(unsigned int), unsigned int arg)
{
	pid_t pid = start_child(child, arg);
	int status;

	if (waitpid(pid, &status, 0) != pid)
		ksft_exit_fail_msg("waitpid: %s\n", strerror(errno));
	return status;
}

/* A child's fate: its exit status, or minus the signal that killed it. */
static long fate(int status)
{
	if (WIFSIGNALED(status))
		return -WTERMSIG(status);
	return WEXITSTATUS(status);
}

static void errno_child(unsigned int verdict)
{
	install_filter(verdict, 0);
	res->direct = direct_call(TARGET_NR, marked);
	res->inner = inner_call(marked);
	res->inner_with_ctx = inner_call_with_ctx(marked);
	res->inner_unmarked = inner_call(unmarked);
}

/*
 * ERRNO, LOG and ALLOW: the call returns what it returns directly, and
 * getppid() with other arguments is left alone.
 */
static void test_returning_verdict(const char *name, unsigned int verdict,
				   long expected)
{
	char what[64];
	int status = run_child(errno_child, verdict);

	snprintf(what, sizeof(what), "seccomp_%s_child_exits", name);
	check_long(what, 0, fate(status));
	snprintf(what, sizeof(what), "seccomp_%s_direct", name);
	check_long(what, expected, res->direct);
	snprintf(what, sizeof(what), "seccomp_%s_inner", name);
	check_long(what, expected, res->inner);
	snprintf(what, sizeof(what), "seccomp_%s_inner_with_context", name);
	check_long(what, expected, res->inner_with_ctx);
	snprintf(what, sizeof(what), "seccomp_%s_other_arguments_run", name);
	check_long(what, getpid(), res->inner_unmarked);
}

static void kill_child(unsigned int direct)
{
	install_filter(SECCOMP_RET_KILL_PROCESS, 0);
	res->returned = direct ? direct_call(TARGET_NR, marked) :
				 inner_call(marked);
}

static void test_kill_process(void)
{
	int status = run_child(kill_child, 1);

	check_long("seccomp_kill_process_direct_sigsys", -SIGSYS, fate(status));
	status = run_child(kill_child, 0);
	check_long("seccomp_kill_process_inner_sigsys", -SIGSYS, fate(status));
	check_long("seccomp_kill_process_inner_never_returned", -1,
		   res->returned);
}

static void *kill_thread_body(void *unused __attribute__((unused)))
{
	res->returned = inner_call(marked);
	return NULL;
}

/* The calling thread dies; the process lives on. */
static void kill_thread_child(unsigned int unused __attribute__((unused)))
{
	pthread_t thread;

	install_filter(SECCOMP_RET_KILL_THREAD, 0);
	if (pthread_create(&thread, NULL, kill_thread_body, NULL))
		_exit(98);
	pthread_join(thread, NULL);
	res->inner_unmarked = inner_call(unmarked);
}

static void test_kill_thread(void)
{
	int status = run_child(kill_thread_child, 0);

	check_long("seccomp_kill_thread_process_survives", 0, fate(status));
	check_long("seccomp_kill_thread_inner_never_returned", -1,
		   res->returned);
	check_long("seccomp_kill_thread_others_go_on", getpid(),
		   res->inner_unmarked);
}

/* The registers of the call at the SIGSYS, from the ABI's ucontext. */
static void sigsys_handler(int sig __attribute__((unused)), siginfo_t *info,
			   void *ucontext)
{
	const ucontext_t *uc = ucontext;
	unsigned int i;

	res->info = *info;
	res->uc_ip = ABI_UC_IP(uc);
	res->uc_ret = ABI_UC_RET(uc);
	for (i = 0; i < INDIRECT_NR_PARAMS; i++)
		res->uc_arg[i] = abi_uc_arg(uc, i);
#ifdef ABI_UC_NR
	res->uc_nr = ABI_UC_NR(uc);
#endif
	res->insn_before_ip = abi_insn_before_ip(uc);
	res->syscall_insn = abi_syscall_insn(uc);
}

static void trap_child(unsigned int direct)
{
	struct sigaction sa = {
		.sa_sigaction = sigsys_handler,
		.sa_flags = SA_SIGINFO,
	};

	if (sigaction(SIGSYS, &sa, NULL))
		_exit(98);
	install_filter(SECCOMP_RET_TRAP | FILTER_DATA, 0);
	res->returned = direct ? direct_call(TARGET_NR, marked) :
				 inner_call(marked);
}

/*
 * TRAP: SIGSYS's siginfo names the outer call, __NR_indirect in the
 * caller's arch, with the filter's data. As for a direct call, the call
 * returns with the registers rolled back: on x86 the return register
 * gets back its own syscall number, which for the inner call is
 * indirect()'s; on arm64, whose return register is also the first
 * argument's, it gets back the first argument, which for the inner call
 * is the inner number (ABI_ROLLBACK_RET). The handler's ucontext holds
 * the outer call's registers, as a direct call's holds that call's: that
 * value in the return register, indirect()'s arguments in the argument
 * registers and, on ARM, __NR_indirect in the syscall number register
 * (x8, r7). The call address is the instruction pointer, just after the
 * syscall instruction of the stub that makes direct calls too (the C
 * library's, or on ia32 the vDSO's).
 */
static void test_trap(void)
{
	int status = run_child(trap_child, 1);
	unsigned long direct_call_addr;

	check_long("seccomp_trap_direct_child_exits", 0, fate(status));
	check_long("seccomp_trap_direct_si_syscall", TARGET_NR,
		   res->info.si_syscall);
	check_long("seccomp_trap_direct_returns_its_" ABI_ROLLBACK_WHAT,
		   ABI_ROLLBACK_RET(TARGET_NR, (long)marked[0]), res->returned);
	direct_call_addr = (unsigned long)res->info.si_call_addr;

	status = run_child(trap_child, 0);
	check_long("seccomp_trap_inner_child_exits", 0, fate(status));
	check_long("seccomp_trap_inner_si_signo", SIGSYS, res->info.si_signo);
	check_long("seccomp_trap_inner_si_code", SYS_SECCOMP,
		   res->info.si_code);
	check_long("seccomp_trap_inner_si_syscall_is_indirect", __NR_indirect,
		   res->info.si_syscall);
	check_long("seccomp_trap_inner_si_arch", TEST_ARCH,
		   res->info.si_arch);
	check_long("seccomp_trap_inner_si_errno", FILTER_DATA,
		   res->info.si_errno);
	check_long("seccomp_trap_inner_returns_outer_" ABI_ROLLBACK_WHAT,
		   ABI_ROLLBACK_RET(__NR_indirect, TARGET_NR), res->returned);
	check_long("seccomp_trap_inner_si_call_addr_set", 1,
		   res->info.si_call_addr != NULL);
	check_long("seccomp_trap_inner_si_call_addr_is_uc_ip",
		   (long)res->uc_ip, (long)res->info.si_call_addr);
	check_long("seccomp_trap_inner_si_call_addr_as_direct",
		   (long)direct_call_addr, (long)res->info.si_call_addr);
	check_long("seccomp_trap_inner_syscall_insn_before_ip",
		   res->syscall_insn, res->insn_before_ip);
	check_long("seccomp_trap_inner_uc_ret_is_outer_" ABI_ROLLBACK_WHAT,
		   ABI_ROLLBACK_RET(__NR_indirect, TARGET_NR),
		   (long)res->uc_ret);
#ifdef ABI_UC_NR
	check_long("seccomp_trap_inner_uc_nr_is_outer_nr", __NR_indirect,
		   (long)res->uc_nr);
#endif
	check_long("seccomp_trap_inner_uc_arg0_is_inner_nr", TARGET_NR,
		   (long)res->uc_arg[0]);
	check_long("seccomp_trap_inner_uc_arg1_is_ctxs", 0,
		   (long)res->uc_arg[1]);
	check_long("seccomp_trap_inner_uc_arg2_is_nctxs", 0,
		   (long)res->uc_arg[2]);
	check_long("seccomp_trap_inner_uc_arg3_is_params", (long)marked,
		   (long)res->uc_arg[3]);
}

/* A supervisor that answers the first call itself and lets the next run. */
static void *supervisor(void *arg)
{
	int listener = (int)(long)arg;
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;
	int round;

	for (round = 0; round < 2; round++) {
		memset(&req, 0, sizeof(req));
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req))
			return NULL;
		if (round == 0) {
			res->notif_nr = req.data.nr;
			res->notif_arch = req.data.arch;
			res->notif_last_arg = req.data.args[5];
		}
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		if (round == 0)
			resp.val = NOTIF_VALUE;
		else
			resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp))
			return NULL;
	}
	return NULL;
}

static void notif_child(unsigned int unused __attribute__((unused)))
{
	pthread_t thread;
	int listener;

	listener = install_filter(SECCOMP_RET_USER_NOTIF,
				  SECCOMP_FILTER_FLAG_NEW_LISTENER);
	if (pthread_create(&thread, NULL, supervisor, (void *)(long)listener))
		_exit(98);
	res->inner = inner_call(marked);
	res->inner_with_ctx = inner_call_with_ctx(marked);
	pthread_join(thread, NULL);
}

/*
 * USER_NOTIF: the supervisor is told of the inner call, with its number,
 * arch and arguments; its answer is the call's result, and CONTINUE runs
 * the call.
 */
static void test_user_notif(void)
{
	int status = run_child(notif_child, 0);

	check_long("seccomp_user_notif_child_exits", 0, fate(status));
	check_long("seccomp_user_notif_data_nr", TARGET_NR, res->notif_nr);
	check_long("seccomp_user_notif_data_arch", TEST_ARCH, res->notif_arch);
	check_long("seccomp_user_notif_data_args", 0x66, res->notif_last_arg);
	check_long("seccomp_user_notif_answer_returned", NOTIF_VALUE,
		   res->inner);
	check_long("seccomp_user_notif_continue_runs", getpid(),
		   res->inner_with_ctx);
}

/* The tracer, and what it does when told of the TRACE verdict. */
enum trace_mode {
	TRACE_NO_TRACER,	/* none */
	TRACE_LEGACY,		/* no PTRACE_O_INDIRECT; lets calls run */
	TRACE_CONTINUE,		/* PTRACE_O_INDIRECT; lets the call run */
	TRACE_SKIP,		/* and syscall number -1, a value */
	TRACE_REWRITE,		/* and syscall number REWRITE_NR */
};

/*
 * Without a tracer, and with one that does not set PTRACE_O_INDIRECT,
 * the child makes the direct call too: the one stop that such a tracer
 * gets is the direct call's.
 */
static void trace_child(unsigned int mode)
{
	if (mode != TRACE_NO_TRACER) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(98);
		raise(SIGSTOP);
	}
	install_filter(SECCOMP_RET_TRACE | FILTER_DATA, 0);
	res->direct = mode == TRACE_NO_TRACER || mode == TRACE_LEGACY ?
		      direct_call(TARGET_NR, marked) : 0;
	res->inner = inner_call(marked);
}

/* What the tracer saw: its stops, and the last stop's message and regs. */
struct trace_seen {
	enum trace_mode mode;
	long indirect_set;
	long stops;
	long msg;
	struct abi_regs regs;
	long fate;
};

static void trace_stop(pid_t pid, void *arg)
{
	struct trace_seen *s = arg;
	struct abi_regs changed;
	unsigned long evmsg;

	s->stops++;
	if (!ptrace(PTRACE_GETEVENTMSG, pid, NULL, &evmsg))
		s->msg = evmsg;
	if (abi_get_regs(pid, &s->regs))
		ksft_exit_fail_msg("reading the registers: %s\n",
				   strerror(errno));
	changed = s->regs;
	if (s->mode == TRACE_SKIP) {
		ABI_REG_NR(&changed) = -1;
		ABI_REG_RET(&changed) = -FILTER_ERRNO;
	} else if (s->mode == TRACE_REWRITE) {
		ABI_REG_NR(&changed) = REWRITE_NR;
	} else {
		return;
	}
	if (abi_set_regs(pid, &changed))
		ksft_print_msg("%s: %s\n", ABI_SET_REGS_HOW, strerror(errno));
}

/* Trace a child through its calls, as @mode says, into @s. */
static void trace_one(enum trace_mode mode, struct trace_seen *s)
{
	unsigned long options = PTRACE_O_TRACESECCOMP;
	pid_t pid;

	memset(s, 0, sizeof(*s));
	s->mode = mode;
	s->msg = -1;
	if (mode != TRACE_LEGACY)
		options |= PTRACE_O_INDIRECT;
	pid = start_child(trace_child, mode);
	s->fate = tracer_run(pid, options, &s->indirect_set, trace_stop, s);
}

/* The argument registers that differ from the inner call's arguments. */
static long args_differing(struct abi_regs *regs)
{
	long differing = 0;
	unsigned int i;

	for (i = 0; i < INDIRECT_NR_PARAMS; i++)
		if ((unsigned long)*abi_reg_arg(regs, i) != marked[i])
			differing |= 1L << i;
	return differing;
}

/*
 * TRACE: without a tracer the call fails with ENOSYS, as a direct one
 * does, and so it does with a tracer that does not understand inner
 * calls (no PTRACE_O_INDIRECT), which is never stopped for one: it
 * would take indirect()'s registers for the call. A tracer that sets
 * PTRACE_O_INDIRECT stops with the inner call in the registers, its
 * number and its six arguments, as a direct call's tracer does; the
 * call runs if it lets it, setting the syscall number to -1 skips it
 * with the tracer's value, and another number is the call that the
 * filters judge again and that runs if they let it: here they answer it
 * ERRNO(REWRITE_ERRNO). indirect_seccomp_trace_test changes every
 * register in turn.
 */
static void test_trace(void)
{
	struct trace_seen s;
	int status;

	status = run_child(trace_child, TRACE_NO_TRACER);
	check_long("seccomp_trace_no_tracer_child_exits", 0, fate(status));
	check_long("seccomp_trace_no_tracer_direct", -ENOSYS, res->direct);
	check_long("seccomp_trace_no_tracer_inner", -ENOSYS, res->inner);

	trace_one(TRACE_LEGACY, &s);
	check_long("seccomp_trace_legacy_tracer_child_exits", 0, s.fate);
	check_long("seccomp_trace_legacy_tracer_direct_runs", getpid(),
		   res->direct);
	check_long("seccomp_trace_legacy_tracer_stops_for_direct_only", 1,
		   s.stops);
	check_long("seccomp_trace_legacy_tracer_inner_enosys", -ENOSYS,
		   res->inner);

	trace_one(TRACE_CONTINUE, &s);
	check_long("seccomp_trace_option_accepted", 1, s.indirect_set);
	check_long("seccomp_trace_child_exits", 0, s.fate);
	check_long("seccomp_trace_one_stop", 1, s.stops);
	check_long("seccomp_trace_event_data", FILTER_DATA, s.msg);
	check_long("seccomp_trace_tracer_sees_inner_nr", TARGET_NR,
		   (long)ABI_REG_NR(&s.regs));
	check_long("seccomp_trace_tracer_sees_inner_args", 0,
		   args_differing(&s.regs));
	check_long("seccomp_trace_continue_runs", getpid(), res->inner);

	trace_one(TRACE_SKIP, &s);
	check_long("seccomp_trace_skip_child_exits", 0, s.fate);
	check_long("seccomp_trace_skip_event_data", FILTER_DATA, s.msg);
	check_long("seccomp_trace_skip_returns_tracer_value", -FILTER_ERRNO,
		   res->inner);

	trace_one(TRACE_REWRITE, &s);
	check_long("seccomp_trace_rewrite_child_exits", 0, s.fate);
	check_long("seccomp_trace_rewrite_judged_again", -REWRITE_ERRNO,
		   res->inner);
}

int main(void)
{
	ksft_print_header();
	indirect_require();
	res = mmap(NULL, sizeof(*res), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
#ifdef ABI_UC_NR
	ksft_set_plan(3 * 5 + 3 + 3 + 20 + 6 + 19);
#else
	ksft_set_plan(3 * 5 + 3 + 3 + 19 + 6 + 19);
#endif

	test_returning_verdict("errno", SECCOMP_RET_ERRNO | FILTER_ERRNO,
			       -FILTER_ERRNO);
	test_returning_verdict("log", SECCOMP_RET_LOG, getpid());
	test_returning_verdict("allow", SECCOMP_RET_ALLOW, getpid());
	test_kill_process();
	test_kill_thread();
	test_trap();
	test_user_notif();
	test_trace();
	ksft_finished();
}
