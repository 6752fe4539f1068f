// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp judges every inner call, blacklisted numbers and numbers that
 * are no syscall included, before indirect() refuses a blacklisted one.
 * A filter's verdict on such a call acts as on a direct one: ERRNO(x)
 * gives x, KILL_PROCESS kills with SIGSYS, TRAP raises SIGSYS naming
 * indirect() itself (as for every inner call: indirect_seccomp_test),
 * and USER_NOTIF tells the supervisor of it. Only a call
 * that the filters let through (ALLOW, or CONTINUE from the supervisor)
 * meets the blacklist: EINVAL, or ENOSYS for a number that is no
 * syscall.
 *
 * The blacklisted calls are execve() of a path that does not exist, and
 * on ia32 also vm86(VM86_PLUS_INSTALL_CHECK): each would fail harmlessly
 * with another error (ENOENT, or 0 / ENOSYS) if the blacklist let it
 * through. The filter matches the number on this binary's arch and
 * answers ALLOW to every other call. Each case runs in a child, for a
 * filter cannot be removed and KILL_PROCESS kills it.
 */
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include "indirect_test.h"

/* The errno of the ERRNO verdict, and the data of TRAP. */
#define FILTER_ERRNO		1234
#define FILTER_DATA		0x42
/* A number past the end of every ABI's syscall table. */
#define NOT_A_SYSCALL		1000
/* How long a supervisor waits for a notification. */
#define SUPERVISOR_WAIT_MS	5000
/* Seconds a child may take, far beyond what a case takes under TCG. */
#define CHILD_TIME_LIMIT	60

static char *exec_argv[] = { "indirect-seccomp-blacklist", NULL };
static char *exec_envp[] = { NULL };

struct inner_call {
	const char *name;
	long nr;
	unsigned long params[INDIRECT_NR_PARAMS];
	/* What indirect() returns once the filters let the call through. */
	long passed;
};

static const struct inner_call calls[] = {
	{ "execve", __NR_execve,
	  { (unsigned long)"/nonexistent/indirect-seccomp-blacklist",
	    (unsigned long)exec_argv, (unsigned long)exec_envp },
	  -EINVAL },
#ifdef __NR_vm86
	/* VM86_PLUS_INSTALL_CHECK (0): a question, no vm86 mode entered. */
	{ "vm86", __NR_vm86, { 0 }, -EINVAL },
#endif
	{ "not_a_syscall", NOT_A_SYSCALL, { 0 }, -ENOSYS },
};

enum verdict { ERRNO, KILL_PROCESS, TRAP, USER_NOTIF, ALLOW };

static const char *const verdict_names[] = {
	[ERRNO] = "errno",
	[KILL_PROCESS] = "kill_process",
	[TRAP] = "trap",
	[USER_NOTIF] = "user_notif",
	[ALLOW] = "allow",
};

static const unsigned int verdict_actions[] = {
	[ERRNO] = SECCOMP_RET_ERRNO | FILTER_ERRNO,
	[KILL_PROCESS] = SECCOMP_RET_KILL_PROCESS,
	[TRAP] = SECCOMP_RET_TRAP | FILTER_DATA,
	[USER_NOTIF] = SECCOMP_RET_USER_NOTIF,
	[ALLOW] = SECCOMP_RET_ALLOW,
};

/* What a child found, in memory shared with the parent. */
struct result {
	long setup;
	long ret;
	long sigsys;
	long sig_syscall;
	long sig_arch;
	long notified;
	long notif_nr;
	long notif_arch;
};

static struct result *r;

struct job {
	const struct inner_call *call;
	enum verdict verdict;
};

static int listener;
static int done_fds[2];

static void sigsys_handler(int sig __attribute__((unused)), siginfo_t *info,
			   void *uc __attribute__((unused)))
{
	r->sigsys++;
	r->sig_syscall = info->si_syscall;
	r->sig_arch = info->si_arch;
}

/* Answer CONTINUE to a notification, if one comes before the task is done. */
static void *supervisor(void *unused __attribute__((unused)))
{
	struct pollfd pfd[2] = {
		{ .fd = listener, .events = POLLIN },
		{ .fd = done_fds[0], .events = POLLIN },
	};
	struct seccomp_notif_resp resp = { 0 };
	struct seccomp_notif req = { 0 };

	if (poll(pfd, 2, SUPERVISOR_WAIT_MS) <= 0 || !(pfd[0].revents & POLLIN))
		return NULL;
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req))
		return NULL;
	r->notified = 1;
	r->notif_nr = req.data.nr;
	r->notif_arch = req.data.arch;
	resp.id = req.id;
	resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	return NULL;
}

static void child(const void *arg)
{
	const struct job *j = arg;
	struct seccomp_match m = { .nr = j->call->nr };
	struct sigaction sa = {
		.sa_sigaction = sigsys_handler,
		.sa_flags = SA_SIGINFO,
	};
	unsigned int flags = 0;
	pthread_t thread;

	if (sigaction(SIGSYS, &sa, NULL) || pipe(done_fds)) {
		r->setup = -errno;
		return;
	}
	if (j->verdict == USER_NOTIF)
		flags = SECCOMP_FILTER_FLAG_NEW_LISTENER;
	listener = seccomp_install_match(&m, verdict_actions[j->verdict],
					 flags);
	if (listener < 0) {
		r->setup = listener;
		return;
	}
	if (j->verdict == USER_NOTIF &&
	    pthread_create(&thread, NULL, supervisor, NULL)) {
		r->setup = -EAGAIN;
		return;
	}
	r->ret = indirect_result(j->call->nr, NULL, 0, j->call->params);
	if (j->verdict == USER_NOTIF) {
		if (write(done_fds[1], "", 1) != 1)
			r->setup = -errno;
		pthread_join(thread, NULL);
	}
}

/* A result no call returns: the call never returned. */
#define NEVER_RETURNED		(-99999)

static void run_case(const struct inner_call *call, enum verdict v)
{
	struct job j = { call, v };
	char what[96];
	long fate;

	memset(r, 0, sizeof(*r));
	r->ret = NEVER_RETURNED;
	fate = run_in_child(child, &j, CHILD_TIME_LIMIT);
	if (r->setup)
		ksft_print_msg("%s %s: setup failed: %s\n", call->name,
			       verdict_names[v], strerror(-r->setup));

#define CHECK(suffix, expected, actual)					\
	do {								\
		snprintf(what, sizeof(what), "blacklist_%s_%s_%s",	\
			 call->name, verdict_names[v], suffix);		\
		check_long(what, expected, actual);			\
	} while (0)

	switch (v) {
	case ERRNO:
		CHECK("child_exits", 0, fate);
		CHECK("result", -FILTER_ERRNO, r->ret);
		break;
	case KILL_PROCESS:
		CHECK("killed_by_sigsys", -SIGSYS, fate);
		CHECK("never_returned", NEVER_RETURNED, r->ret);
		break;
	case TRAP:
		CHECK("child_exits", 0, fate);
		CHECK("sigsys_count", 1, r->sigsys);
		CHECK("si_syscall_is_indirect", __NR_indirect, r->sig_syscall);
		CHECK("si_arch", INDIRECT_AUDIT_ARCH, r->sig_arch);
		/*
		 * Rolled back, as a direct call: the outer call's number on
		 * x86, its first argument, the inner number, on arm64.
		 */
		CHECK("result", ABI_ROLLBACK_RET(__NR_indirect, call->nr),
		      r->ret);
		break;
	case USER_NOTIF:
		CHECK("child_exits", 0, fate);
		CHECK("notified", 1, r->notified);
		CHECK("data_nr", call->nr, r->notif_nr);
		CHECK("data_arch", INDIRECT_AUDIT_ARCH, r->notif_arch);
		CHECK("continue_result", call->passed, r->ret);
		break;
	case ALLOW:
		CHECK("child_exits", 0, fate);
		CHECK("result", call->passed, r->ret);
		break;
	}
#undef CHECK
}

int main(void)
{
	unsigned int i;

	ksft_print_header();
	indirect_require();
	r = shared_alloc(sizeof(*r));
	/* Checks per call: ERRNO 2, KILL 2, TRAP 5, USER_NOTIF 5, ALLOW 2. */
	ksft_set_plan(16 * ARRAY_SIZE(calls));
	for (i = 0; i < ARRAY_SIZE(calls); i++) {
		run_case(&calls[i], ERRNO);
		run_case(&calls[i], KILL_PROCESS);
		run_case(&calls[i], TRAP);
		run_case(&calls[i], USER_NOTIF);
		run_case(&calls[i], ALLOW);
	}
	ksft_finished();
}
