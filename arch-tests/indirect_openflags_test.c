// SPDX-License-Identifier: GPL-2.0
/*
 * The OPENFLAGS context: every descriptor that a call made under it
 * creates is close-on-exec from birth, whatever syscall creates it, and
 * the same call made directly afterwards gets no FD_CLOEXEC: nothing of
 * the context outlives indirect().
 */
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <linux/net.h>
#include <sys/un.h>
#include "indirect_test.h"

/* How a creator makes its syscall: directly, or under some contexts. */
struct call_mode {
	const void *ctxs;
	unsigned int nctxs;
};

static const struct call_mode plain = { NULL, 0 };
static const struct call_mode with_cloexec = { cloexec_ctxs, 1 };

static long call(const struct call_mode *mode, long nr, const unsigned long *p)
{
	if (!mode->ctxs)
		return direct_call(nr, p);
	return indirect_result(nr, mode->ctxs, mode->nctxs, p);
}

static int base_fd;		/* an open file to dup */
static int listen_fd;		/* an AF_UNIX listener to accept from */
static struct sockaddr_un listen_addr;
static socklen_t listen_len;
static char scratch_path[64];

/*
 * Each creator makes descriptors with its syscall, in @mode, and returns
 * how many it put in fds[], or -errno.
 */
struct creator {
	const char *name;
	int (*create)(const struct call_mode *mode, int fds[2]);
};

/* Creators whose result is the one new descriptor. */
static int one_fd(long ret, int fds[2])
{
	if (ret < 0)
		return ret;
	fds[0] = ret;
	return 1;
}

static int make_socket(const struct call_mode *m, int fds[2])
{
	unsigned long p[INDIRECT_NR_PARAMS] = { AF_UNIX, SOCK_STREAM };

	return one_fd(call(m, __NR_socket, p), fds);
}

static int make_socketpair(const struct call_mode *m, int fds[2])
{
	unsigned long p[INDIRECT_NR_PARAMS] = {
		AF_UNIX, SOCK_STREAM, 0, (unsigned long)fds,
	};
	long ret = call(m, __NR_socketpair, p);

	return ret < 0 ? ret : 2;
}

/* Connect a client, so that there is a connection to accept. */
static int connect_client(void)
{
	int c = socket(AF_UNIX, SOCK_STREAM, 0);

	if (c < 0 || connect(c, (struct sockaddr *)&listen_addr, listen_len))
		ksft_exit_fail_msg("connect: %s\n", strerror(errno));
	return c;
}

static int accept_with(const struct call_mode *m, long nr,
		       const unsigned long *p, int fds[2])
{
	int client = connect_client();
	int ret = one_fd(call(m, nr, p), fds);

	close(client);
	return ret;
}

#ifdef __NR_accept
static int make_accept(const struct call_mode *m, int fds[2])
{
	unsigned long p[INDIRECT_NR_PARAMS] = { listen_fd };

	return accept_with(m, __NR_accept, p, fds);
}
#endif

static int make_accept4(const struct call_mode *m, int fds[2])
{
	unsigned long p[INDIRECT_NR_PARAMS] = { listen_fd, 0, 0, 0 };

	return accept_with(m, __NR_accept4, p, fds);
}

#ifdef __NR_socketcall
/* i386 programs of old reach accept() only through socketcall(). */
static int make_socketcall_accept(const struct call_mode *m, int fds[2])
{
	unsigned long args[3] = { listen_fd, 0, 0 };
	unsigned long p[INDIRECT_NR_PARAMS] = { SYS_ACCEPT, (unsigned long)args };

	return accept_with(m, __NR_socketcall, p, fds);
}
#endif

#ifdef __NR_pipe
static int make_pipe(const struct call_mode *m, int fds[2])
{
	unsigned long p[INDIRECT_NR_PARAMS] = { (unsigned long)fds };
	long ret = call(m, __NR_pipe, p);

	return ret < 0 ? ret : 2;
}
#endif

static int make_pipe2(const struct call_mode *m, int fds[2])
{
	unsigned long p[INDIRECT_NR_PARAMS] = { (unsigned long)fds, 0 };
	long ret = call(m, __NR_pipe2, p);

	return ret < 0 ? ret : 2;
}

static int make_dup(const struct call_mode *m, int fds[2])
{
	unsigned long p[INDIRECT_NR_PARAMS] = { base_fd };

	return one_fd(call(m, __NR_dup, p), fds);
}

/* dup2() and dup3() to a descriptor number that is free. */
#define DUP_TARGET	200

#ifdef __NR_dup2
static int make_dup2(const struct call_mode *m, int fds[2])
{
	unsigned long p[INDIRECT_NR_PARAMS] = { base_fd, DUP_TARGET };

	return one_fd(call(m, __NR_dup2, p), fds);
}
#endif

static int make_dup3(const struct call_mode *m, int fds[2])
{
	unsigned long p[INDIRECT_NR_PARAMS] = { base_fd, DUP_TARGET, 0 };

	return one_fd(call(m, __NR_dup3, p), fds);
}

static int make_fcntl_dupfd(const struct call_mode *m, int fds[2])
{
	unsigned long p[INDIRECT_NR_PARAMS] = { base_fd, F_DUPFD, 0 };

	return one_fd(call(m, __NR_fcntl, p), fds);
}

#ifdef __NR_open
static int make_open(const struct call_mode *m, int fds[2])
{
	unsigned long p[INDIRECT_NR_PARAMS] = {
		(unsigned long)scratch_path, O_RDWR | O_CREAT, 0600,
	};

	return one_fd(call(m, __NR_open, p), fds);
}
#endif

static int make_openat(const struct call_mode *m, int fds[2])
{
	unsigned long p[INDIRECT_NR_PARAMS] = {
		(unsigned long)AT_FDCWD, (unsigned long)scratch_path,
		O_RDWR | O_CREAT, 0600,
	};

	return one_fd(call(m, __NR_openat, p), fds);
}

#ifdef __NR_eventfd
static int make_eventfd(const struct call_mode *m, int fds[2])
{
	unsigned long p[INDIRECT_NR_PARAMS] = { 0 };

	return one_fd(call(m, __NR_eventfd, p), fds);
}
#endif

static int make_eventfd2(const struct call_mode *m, int fds[2])
{
	unsigned long p[INDIRECT_NR_PARAMS] = { 0, 0 };

	return one_fd(call(m, __NR_eventfd2, p), fds);
}

#ifdef __NR_epoll_create
static int make_epoll_create(const struct call_mode *m, int fds[2])
{
	unsigned long p[INDIRECT_NR_PARAMS] = { 1 };

	return one_fd(call(m, __NR_epoll_create, p), fds);
}
#endif

static int make_epoll_create1(const struct call_mode *m, int fds[2])
{
	unsigned long p[INDIRECT_NR_PARAMS] = { 0 };

	return one_fd(call(m, __NR_epoll_create1, p), fds);
}

/* The kernel's sigset_t is 64 bits on every x86 ABI. */
static uint64_t signal_mask = 1ULL << (SIGUSR1 - 1);

#ifdef __NR_signalfd
static int make_signalfd(const struct call_mode *m, int fds[2])
{
	unsigned long p[INDIRECT_NR_PARAMS] = {
		(unsigned long)-1, (unsigned long)&signal_mask,
		sizeof(signal_mask),
	};

	return one_fd(call(m, __NR_signalfd, p), fds);
}
#endif

static int make_signalfd4(const struct call_mode *m, int fds[2])
{
	unsigned long p[INDIRECT_NR_PARAMS] = {
		(unsigned long)-1, (unsigned long)&signal_mask,
		sizeof(signal_mask), 0,
	};

	return one_fd(call(m, __NR_signalfd4, p), fds);
}

static int make_timerfd_create(const struct call_mode *m, int fds[2])
{
	unsigned long p[INDIRECT_NR_PARAMS] = { CLOCK_MONOTONIC, 0 };

	return one_fd(call(m, __NR_timerfd_create, p), fds);
}

static const struct creator creators[] = {
	{ "socket", make_socket },
	{ "socketpair", make_socketpair },
#ifdef __NR_accept
	{ "accept", make_accept },
#endif
	{ "accept4", make_accept4 },
#ifdef __NR_socketcall
	{ "socketcall_accept", make_socketcall_accept },
#endif
#ifdef __NR_pipe
	{ "pipe", make_pipe },
#endif
	{ "pipe2", make_pipe2 },
	{ "dup", make_dup },
#ifdef __NR_dup2
	{ "dup2", make_dup2 },
#endif
	{ "dup3", make_dup3 },
	{ "fcntl_dupfd", make_fcntl_dupfd },
#ifdef __NR_open
	{ "open", make_open },
#endif
	{ "openat", make_openat },
#ifdef __NR_eventfd
	{ "eventfd", make_eventfd },
#endif
	{ "eventfd2", make_eventfd2 },
#ifdef __NR_epoll_create
	{ "epoll_create", make_epoll_create },
#endif
	{ "epoll_create1", make_epoll_create1 },
#ifdef __NR_signalfd
	{ "signalfd", make_signalfd },
#endif
	{ "signalfd4", make_signalfd4 },
	{ "timerfd_create", make_timerfd_create },
};

/*
 * 1 if every descriptor the creator made in @mode is close-on-exec, 0 if
 * none is, 2 if only some are, or -errno if it made none.
 */
static long created_cloexec(const struct creator *c,
			    const struct call_mode *mode)
{
	int fds[2] = { -1, -1 };
	int n = c->create(mode, fds);
	long first, ret;
	int i;

	if (n < 0)
		return n;
	ret = first = fd_cloexec(fds[0]);
	for (i = 0; i < n; i++) {
		if (fd_cloexec(fds[i]) != first)
			ret = 2;
		close(fds[i]);
	}
	return ret;
}

static void test_creator(const struct creator *c)
{
	char name[64];

	snprintf(name, sizeof(name), "openflags_%s_cloexec", c->name);
	check_long(name, 1, created_cloexec(c, &with_cloexec));
	snprintf(name, sizeof(name), "then_plain_%s_not_cloexec", c->name);
	check_long(name, 0, created_cloexec(c, &plain));
}

static struct sysind_ctx_OPENFLAGS no_flags_ctx = {
	.ctx = SYSIND_CTX_OPENFLAGS,
	.flags = 0,
};

/* Several contexts in one call; the last OPENFLAGS one wins. */
static void test_chains(void)
{
	const struct indirect_ctx *three[] = {
		cloexec_ctxs[0], cloexec_ctxs[0], cloexec_ctxs[0],
	};
	const struct indirect_ctx *cloexec_last[] = {
		(const struct indirect_ctx *)&no_flags_ctx, cloexec_ctxs[0],
	};
	const struct indirect_ctx *cloexec_first[] = {
		cloexec_ctxs[0], (const struct indirect_ctx *)&no_flags_ctx,
	};
	const struct call_mode modes[] = {
		{ three, 3 }, { cloexec_last, 2 }, { cloexec_first, 2 },
		{ (const struct indirect_ctx *[]){
			(const struct indirect_ctx *)&no_flags_ctx }, 1 },
	};

	check_long("three_openflags_contexts_cloexec", 1,
		   created_cloexec(&creators[0], &modes[0]));
	check_long("last_context_wins_cloexec", 1,
		   created_cloexec(&creators[0], &modes[1]));
	check_long("last_context_wins_no_flags", 0,
		   created_cloexec(&creators[0], &modes[2]));
	check_long("openflags_zero_flags_not_cloexec", 0,
		   created_cloexec(&creators[0], &modes[3]));
	check_long("after_chains_plain_socket_not_cloexec", 0,
		   plain_socket_cloexec());
}

static void setup(void)
{
	snprintf(scratch_path, sizeof(scratch_path), "/tmp/indirect-openflags-%d",
		 getpid());
	base_fd = open(scratch_path, O_RDWR | O_CREAT, 0600);
	if (base_fd < 0)
		ksft_exit_fail_msg("open %s: %s\n", scratch_path, strerror(errno));
	close(DUP_TARGET);

	listen_fd = unix_listener("indirect-openflags", &listen_addr,
				  &listen_len);
}

int main(void)
{
	size_t i;

	ksft_print_header();
	indirect_require();
	setup();
	ksft_set_plan(2 * ARRAY_SIZE(creators) + 5);
	for (i = 0; i < ARRAY_SIZE(creators); i++)
		test_creator(&creators[i]);
	test_chains();
	unlink(scratch_path);
	ksft_finished();
}
