// SPDX-License-Identifier: GPL-2.0
/*
 * SECCOMP_RET_USER_NOTIF for an inner call. The supervisor is told of the
 * inner call (its number, arch and six arguments), and the task waits for
 * the answer with its contexts in force:
 *  - a descriptor that the supervisor installs with
 *    SECCOMP_IOCTL_NOTIF_ADDFD while the task waits in a call made under
 *    OPENFLAGS(O_CLOEXEC) is close-on-exec from birth, as one the call
 *    itself creates would be: whether the supervisor picks its number
 *    (SECCOMP_ADDFD_FLAG_SETFD) or not, answers with it
 *    (SECCOMP_ADDFD_FLAG_SEND) or lets the call run (CONTINUE). Without
 *    the context it is not, unless newfd_flags asks for it;
 *  - a SIGMASK context that unblocks a signal which the task blocks
 *    outside lets that signal interrupt the wait: EINTR, after its
 *    handler ran.
 *
 * The inner call is socket(AF_UNIX, SOCK_STREAM, 0) with three marked
 * extra arguments, which socket() ignores; the filter matches all six on
 * this binary's arch. Each case runs in a child with a supervisor thread,
 * for a filter cannot be removed; SIGALRM ends a child that hangs.
 *
 * Under a RESOLVE context no supervisor is notified, for none can be told
 * its rules: the call fails with ENOSYS
 * (indirect_seccomp_notif_resolve_test).
 */
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include "indirect_test.h"

/* The descriptor number that a supervisor using SETFD picks. */
#define SETFD_NR		77
/* How long a supervisor waits for a notification or an interruption. */
#define SUPERVISOR_WAIT_MS	5000
/* Seconds a child may take, far beyond what a case takes under TCG. */
#define CHILD_TIME_LIMIT	60

static const unsigned long inner_args[INDIRECT_NR_PARAMS] = {
	AF_UNIX, SOCK_STREAM, 0, 0x44, 0x55, 0x66,
};

static const struct seccomp_match inner_match = {
	.nr = __NR_socket,
	.args = (1 << INDIRECT_NR_PARAMS) - 1,
	.arg = { AF_UNIX, SOCK_STREAM, 0, 0x44, 0x55, 0x66 },
};

struct notif_case {
	const char *name;
	/* The inner call has an OPENFLAGS(O_CLOEXEC) context. */
	bool openflags;
	/* SECCOMP_ADDFD_FLAG_* and newfd_flags of the ADDFD request. */
	unsigned int addfd_flags;
	unsigned int newfd_flags;
	/* Answer CONTINUE, so that socket() runs too. */
	bool cont;
	/* FD_CLOEXEC of the installed descriptor. */
	long cloexec;
};

static const struct notif_case cases[] = {
	{ "openflags_addfd", true, 0, 0, false, 1 },
	{ "openflags_addfd_setfd", true, SECCOMP_ADDFD_FLAG_SETFD, 0, false,
	  1 },
	{ "openflags_addfd_send", true, SECCOMP_ADDFD_FLAG_SEND, 0, false, 1 },
	{ "openflags_addfd_setfd_send", true,
	  SECCOMP_ADDFD_FLAG_SETFD | SECCOMP_ADDFD_FLAG_SEND, 0, false, 1 },
	{ "openflags_addfd_continue", true, 0, 0, true, 1 },
	{ "plain_addfd", false, 0, 0, false, 0 },
	{ "plain_addfd_setfd", false, SECCOMP_ADDFD_FLAG_SETFD, 0, false, 0 },
	{ "plain_addfd_continue", false, 0, 0, true, 0 },
	{ "plain_addfd_newfd_cloexec", false, 0, O_CLOEXEC, false, 1 },
};

/* What a child found, in memory shared with the parent. */
struct notif_result {
	/* 0, or -errno of what failed before the call. */
	long setup;
	/* indirect()'s result. */
	long ret;
	/* The notification: 1 once it came, and its data. */
	long notified;
	long nr;
	long arch;
	/* Bit i set: args[i] is not the inner call's. */
	long args_differing;
	/* What ADDFD returned, or -errno. */
	long installed;
	/* 1 if that descriptor refers to the supervisor's file. */
	long same_file;
	/* FD_CLOEXEC of that descriptor, and of the socket with CONTINUE. */
	long cloexec;
	long ret_cloexec;
	/*
	 * SIGMASK case: the notification went away, the handler ran so many
	 * times, SIGUSR1 is blocked again after the call.
	 */
	long interrupted;
	long handled;
	long blocked_after;
};

static struct notif_result *r;

/* Shared by the task and its supervisor thread. */
static int listener;
static int src_fds[2];
static pid_t task_tid;
static volatile sig_atomic_t handled;

/*
 * Wait for the inner call's notification and record its data; 0, or -1
 * if none came.
 */
static int receive(struct seccomp_notif *req)
{
	struct pollfd pfd = { .fd = listener, .events = POLLIN };
	unsigned int i;

	if (poll(&pfd, 1, SUPERVISOR_WAIT_MS) != 1)
		return -1;
	memset(req, 0, sizeof(*req));
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, req))
		return -1;
	r->notified = 1;
	r->nr = req->data.nr;
	r->arch = req->data.arch;
	for (i = 0; i < INDIRECT_NR_PARAMS; i++)
		if (req->data.args[i] != inner_args[i])
			r->args_differing |= 1L << i;
	return 0;
}

/* Install a descriptor in the waiting task, then answer as @c says. */
static void *addfd_supervisor(void *arg)
{
	const struct notif_case *c = arg;
	struct seccomp_notif_addfd addfd = { 0 };
	struct seccomp_notif_resp resp = { 0 };
	struct seccomp_notif req;
	int fd;

	if (receive(&req))
		return NULL;
	addfd.id = req.id;
	addfd.flags = c->addfd_flags;
	addfd.srcfd = src_fds[0];
	if (c->addfd_flags & SECCOMP_ADDFD_FLAG_SETFD)
		addfd.newfd = SETFD_NR;
	addfd.newfd_flags = c->newfd_flags;
	fd = ioctl(listener, SECCOMP_IOCTL_NOTIF_ADDFD, &addfd);
	r->installed = fd < 0 ? -errno : fd;
	/* With SEND the ADDFD was the answer, unless it failed. */
	if (fd >= 0 && (c->addfd_flags & SECCOMP_ADDFD_FLAG_SEND))
		return NULL;
	resp.id = req.id;
	if (fd < 0)
		resp.error = -EBADF;
	else if (c->cont)
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	else
		resp.val = fd;
	ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	return NULL;
}

/* 1 if descriptors @a and @b refer to the same file, else 0. */
static long same_file(long a, int b)
{
	struct stat sa, sb;

	if (a < 0 || fstat(a, &sa) || fstat(b, &sb))
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static void addfd_child(const void *arg)
{
	const struct notif_case *c = arg;
	pthread_t thread;

	if (pipe(src_fds)) {
		r->setup = -errno;
		return;
	}
	/* SETFD must create the descriptor, not replace one. */
	close(SETFD_NR);
	listener = seccomp_install_match(&inner_match, SECCOMP_RET_USER_NOTIF,
					 SECCOMP_FILTER_FLAG_NEW_LISTENER);
	if (listener < 0) {
		r->setup = listener;
		return;
	}
	if (pthread_create(&thread, NULL, addfd_supervisor, (void *)c)) {
		r->setup = -EAGAIN;
		return;
	}
	r->ret = indirect_result(__NR_socket,
				 c->openflags ? cloexec_ctxs : NULL,
				 c->openflags, inner_args);
	pthread_join(thread, NULL);
	r->same_file = same_file(r->installed, src_fds[0]);
	r->cloexec = fd_cloexec(r->installed);
	if (c->cont)
		r->ret_cloexec = fd_cloexec(r->ret);
}

static void run_addfd_case(const struct notif_case *c)
{
	long fate;
	char what[96];

	memset(r, 0, sizeof(*r));
	r->ret = r->installed = r->cloexec = r->ret_cloexec = -1;
	fate = run_in_child(addfd_child, c, CHILD_TIME_LIMIT);
	if (r->setup)
		ksft_print_msg("%s: setup failed: %s\n", c->name,
			       strerror(-r->setup));

#define CHECK(suffix, expected, actual)					\
	do {								\
		snprintf(what, sizeof(what), "notif_%s_%s", c->name, suffix); \
		check_long(what, expected, actual);			\
	} while (0)

	CHECK("child_exits", 0, fate);
	CHECK("notified", 1, r->notified);
	CHECK("data_nr", __NR_socket, r->nr);
	CHECK("data_arch", INDIRECT_AUDIT_ARCH, r->arch);
	CHECK("data_args_differing", 0, r->args_differing);
	if (c->addfd_flags & SECCOMP_ADDFD_FLAG_SETFD)
		CHECK("installed_at_setfd", SETFD_NR, r->installed);
	else
		CHECK("installed_is_supervisor_file", 1, r->same_file);
	if (c->cont)
		CHECK("continue_socket_cloexec", c->openflags, r->ret_cloexec);
	else
		CHECK("result_is_installed_fd", r->installed, r->ret);
	CHECK("installed_cloexec", c->cloexec, r->cloexec);
#undef CHECK
}

static void sigusr1_handler(int sig __attribute__((unused)))
{
	handled++;
}

/*
 * Signal the task while it waits, then wait for the notification to go
 * away, which it does when the wait is interrupted. If it stays, answer
 * ETIME, so that the task returns.
 */
static void *signal_supervisor(void *unused __attribute__((unused)))
{
	struct seccomp_notif_resp resp = { 0 };
	struct seccomp_notif req;
	int ms;

	if (receive(&req))
		return NULL;
	syscall(__NR_tgkill, getpid(), task_tid, SIGUSR1);
	for (ms = 0; ms < SUPERVISOR_WAIT_MS; ms += 10) {
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &req.id)) {
			r->interrupted = 1;
			return NULL;
		}
		usleep(10 * 1000);
	}
	resp.id = req.id;
	resp.error = -ETIME;
	ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	return NULL;
}

static void sigmask_child(const void *unused __attribute__((unused)))
{
	struct sigaction sa = { .sa_handler = sigusr1_handler };
	struct sysind_ctx_SIGMASK mask_ctx;
	const struct indirect_ctx *ctxs[1];
	sigset_t usr1, none, now;
	pthread_t thread;

	sigemptyset(&none);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	/* No SA_RESTART: an interrupted call fails with EINTR. */
	if (sigaction(SIGUSR1, &sa, NULL) ||
	    sigprocmask(SIG_BLOCK, &usr1, NULL)) {
		r->setup = -errno;
		return;
	}
	listener = seccomp_install_match(&inner_match, SECCOMP_RET_USER_NOTIF,
					 SECCOMP_FILTER_FLAG_NEW_LISTENER);
	if (listener < 0) {
		r->setup = listener;
		return;
	}
	task_tid = gettid();
	/* The supervisor inherits the mask: SIGUSR1 is the task's alone. */
	if (pthread_create(&thread, NULL, signal_supervisor, NULL)) {
		r->setup = -EAGAIN;
		return;
	}
	ctxs[0] = indirect_ctx_sigmask(&mask_ctx, &none);
	r->ret = indirect_result(__NR_socket, ctxs, 1, inner_args);
	r->handled = handled;
	pthread_join(thread, NULL);
	sigprocmask(SIG_BLOCK, NULL, &now);
	r->blocked_after = sigismember(&now, SIGUSR1);
}

static void run_sigmask_case(void)
{
	long fate;

	memset(r, 0, sizeof(*r));
	r->ret = -1;
	fate = run_in_child(sigmask_child, NULL, CHILD_TIME_LIMIT);
	if (r->setup)
		ksft_print_msg("sigmask: setup failed: %s\n",
			       strerror(-r->setup));
	check_long("notif_sigmask_child_exits", 0, fate);
	check_long("notif_sigmask_notified", 1, r->notified);
	check_long("notif_sigmask_wait_interrupted", 1, r->interrupted);
	check_long("notif_sigmask_result_eintr", -EINTR, r->ret);
	check_long("notif_sigmask_handler_ran", 1, r->handled);
	check_long("notif_sigmask_blocked_again", 1, r->blocked_after);
}

int main(void)
{
	unsigned int i;

	ksft_print_header();
	indirect_require();
	r = shared_alloc(sizeof(*r));
	ksft_set_plan(8 * ARRAY_SIZE(cases) + 6);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		run_addfd_case(&cases[i]);
	run_sigmask_case();
	ksft_finished();
}
