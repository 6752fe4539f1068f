// SPDX-License-Identifier: GPL-2.0
/*
 * The close-on-exec race that indirect(2)'s OPENFLAGS context closes.
 *
 * A thread that wants a private socket without a flags argument writes
 *
 *	fd = socket(AF_UNIX, SOCK_STREAM, 0);
 *	fcntl(fd, F_SETFD, FD_CLOEXEC);
 *
 * Between the two calls the descriptor is open and inheritable. If
 * another thread fork()s then, the child's copy of the descriptor table
 * holds it without FD_CLOEXEC, execve() keeps it, and the new program
 * owns a descriptor it should never have seen. Only a lock that every
 * fork() in the process took would help, and library code forks freely.
 * indirect(socket, OPENFLAGS = O_CLOEXEC) creates the descriptor
 * close-on-exec from birth: there is no window at all.
 *
 * Each round runs worker threads making sockets one way while the main
 * thread forks children that execve() this program with --child; each
 * child counts the descriptors above 2 it was given and returns the
 * count as its exit status. On one CPU the window is hit when a worker
 * is switched out between the two calls; without kernel preemption a
 * tick during socket() switches it out right on the way back from it.
 *
 * Usage: cloexec_race			both rounds, KTAP
 *	  cloexec_race --mode socket_fcntl|indirect [forks]	one, plain
 *	  cloexec_race --child		(what the children run)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <kselftest.h>
#include "indirect.h"

#define NR_WORKERS	4
#define NR_FORKS	200
#define ROUND_SECONDS	8
/* Exit status of a child that could not exec or count; counts stop below. */
#define CHILD_ERROR	255

struct round {
	const char *mode;
	int use_indirect;
	atomic_int stop;
	atomic_int worker_errno;	/* first failure of any worker */
	int forks;			/* children forked and reaped */
	int leaked;			/* descriptors they found */
	int leaky;			/* children that found at least one */
	int errors;			/* children that could not run */
	char err[128];			/* why the round stopped early */
};

static void *worker(void *arg)
{
	struct round *r = arg;
	int fd, zero = 0;

	while (!atomic_load_explicit(&r->stop, memory_order_relaxed)) {
		if (r->use_indirect) {
			fd = indirect_socket_cloexec(AF_UNIX, SOCK_STREAM, 0);
		} else {
			fd = socket(AF_UNIX, SOCK_STREAM, 0);
			/* The window: open here, not yet close-on-exec. */
			if (fd >= 0 && fcntl(fd, F_SETFD, FD_CLOEXEC)) {
				close(fd);
				fd = -1;
			}
		}
		if (fd < 0) {
			atomic_compare_exchange_strong(&r->worker_errno,
						       &zero, errno);
			break;
		}
		close(fd);
	}
	return NULL;
}

/*
 * Count the descriptors above 2 in /proc/self/fd, but the one reading
 * it, and make them close-on-exec if @mark; -1 with errno set on error.
 */
static int count_fds(int mark)
{
	struct dirent *de;
	int n = 0, fd;
	DIR *d;

	d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		fd = atoi(de->d_name);
		if (fd <= 2 || fd == dirfd(d))
			continue;
		if (mark && fcntl(fd, F_SETFD, FD_CLOEXEC)) {
			closedir(d);
			return -1;
		}
		n++;
	}
	closedir(d);
	return n;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Fork one child, let it exec and count, add up what it found. */
static int fork_one(struct round *r)
{
	static char *const child_argv[] = { "cloexec_race", "--child", NULL };
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0) {
		snprintf(r->err, sizeof(r->err), "fork: %s", strerror(errno));
		return -1;
	}
	if (!pid) {
		/* Only async-signal-safe calls here: the parent has threads. */
		execve("/proc/self/exe", child_argv, environ);
		_exit(CHILD_ERROR);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			snprintf(r->err, sizeof(r->err), "waitpid: %s",
				 strerror(errno));
			return -1;
		}
	}
	r->forks++;
	if (!WIFEXITED(status) || WEXITSTATUS(status) == CHILD_ERROR) {
		r->errors++;
	} else if (WEXITSTATUS(status)) {
		r->leaked += WEXITSTATUS(status);
		r->leaky++;
	}
	return 0;
}

/* One round of @nforks children; 0, or -1 with r->err saying why. */
static int run_round(struct round *r, int nforks)
{
	pthread_t threads[NR_WORKERS];
	int i, err, started = 0, ret = 0;
	double deadline = now() + ROUND_SECONDS;

	/* Only 0-2 may reach the children, or they would count them too. */
	if (count_fds(1) < 0) {
		snprintf(r->err, sizeof(r->err), "/proc/self/fd: %s",
			 strerror(errno));
		return -1;
	}
	/* Show what is printed so far before seconds of forking. */
	fflush(stdout);
	fflush(stderr);
	for (; started < NR_WORKERS; started++) {
		err = pthread_create(&threads[started], NULL, worker, r);
		if (err) {
			snprintf(r->err, sizeof(r->err),
				 "pthread_create: %s", strerror(err));
			ret = -1;
			break;
		}
	}
	for (i = 0; !ret && i < nforks && (!i || now() < deadline); i++)
		ret = fork_one(r);
	atomic_store(&r->stop, 1);
	for (i = 0; i < started; i++) {
		err = pthread_join(threads[i], NULL);
		if (err && !ret) {
			snprintf(r->err, sizeof(r->err), "pthread_join: %s",
				 strerror(err));
			ret = -1;
		}
	}
	err = atomic_load(&r->worker_errno);
	if (err && !ret) {
		snprintf(r->err, sizeof(r->err), "worker: %s: %s", r->mode,
			 strerror(err));
		ret = -1;
	}
	if (!ret && r->errors) {
		snprintf(r->err, sizeof(r->err),
			 "%d of %d children failed to execve or to count",
			 r->errors, r->forks);
		ret = -1;
	}
	return ret;
}

/* The child: how many descriptors above 2 did execve() leave open? */
static int child_main(void)
{
	int n = count_fds(0);

	if (n < 0)
		return CHILD_ERROR;
	return n < CHILD_ERROR ? n : CHILD_ERROR - 1;
}

/* The result line, "# "-prefixed as a KTAP diagnostic, or plain. */
static void print_round(const struct round *r, const char *prefix)
{
	printf("%s%s: %d descriptors leaked into %d of %d children\n", prefix,
	       r->mode, r->leaked, r->leaky, r->forks);
	if (r->err[0])
		printf("%s%s: %s\n", prefix, r->mode, r->err);
}

int main(int argc, char **argv)
{
	struct round fcntl_round = { .mode = "socket_fcntl" };
	struct round ind_round = { .mode = "indirect", .use_indirect = 1 };
	struct round *r;
	int fcntl_ret, ind_ret, nforks;

	if (argc == 2 && !strcmp(argv[1], "--child"))
		return child_main();

	if (argc >= 3 && argc <= 4 && !strcmp(argv[1], "--mode")) {
		r = !strcmp(argv[2], "indirect") ? &ind_round :
		    !strcmp(argv[2], "socket_fcntl") ? &fcntl_round : NULL;
		nforks = argc == 4 ? atoi(argv[3]) : NR_FORKS;
		if (!r || nforks <= 0)
			goto usage;
		if (r->use_indirect && !indirect_available()) {
			fprintf(stderr, "indirect() is not available (ENOSYS)\n");
			return 1;
		}
		ind_ret = run_round(r, nforks);
		print_round(r, "");
		return ind_ret ? 1 : 0;
	}
	if (argc != 1)
		goto usage;

	ksft_print_header();
	if (!indirect_available())
		ksft_exit_skip("indirect() is not available (ENOSYS)\n");
	ksft_set_plan(2);

	fcntl_ret = run_round(&fcntl_round, NR_FORKS);
	print_round(&fcntl_round, "# ");
	ind_ret = run_round(&ind_round, NR_FORKS);
	print_round(&ind_round, "# ");

	if (!ind_ret && ind_round.leaked)
		ksft_print_msg("indirect_no_leak: expected 0 leaked descriptors, got %d\n",
			       ind_round.leaked);
	ksft_test_result(!ind_ret && !ind_round.leaked, "indirect_no_leak\n");

	/* The race is probabilistic: missing it is no failure of anything. */
	if (fcntl_ret)
		ksft_test_result_fail("socket_fcntl_leaks\n");
	else if (fcntl_round.leaked)
		ksft_test_result_pass("socket_fcntl_leaks\n");
	else
		ksft_test_result_skip("socket_fcntl_leaks: the race was not hit in %d forks\n",
				      fcntl_round.forks);
	ksft_finished();

usage:
	fprintf(stderr, "usage: %s [--mode socket_fcntl|indirect [forks]]\n",
		argv[0]);
	return 2;
}
