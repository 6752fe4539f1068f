// SPDX-License-Identifier: GPL-2.0
/*
 * What a tracer sees at the seccomp stop of an inner call is the call
 * that runs, whatever another thread does to the task's memory
 * meanwhile. indirect() reads its params from user memory, which a
 * sibling thread may change at any time; a tracer that read them there
 * itself could approve one call and see another run. The kernel reads
 * them once, shows that copy in the registers at the stop
 * (PTRACE_O_INDIRECT), and runs what the registers then hold.
 *
 * The task opens a file CALLS times with indirect(openat(dirfd, "file",
 * params[2])) while a sibling thread flips params[2] between O_RDONLY
 * and O_RDWR as fast as it can. A filter answers TRACE to those calls;
 * the tracer records at each stop the flags that it finds in the third
 * argument register, in memory shared with the task, and lets the call
 * run. After each call the task compares the descriptor's access mode
 * (F_GETFL & O_ACCMODE) with what the tracer saw for that call: they
 * must be the same for every call.
 *
 * The guest may have one CPU, where the flipping thread runs only when
 * the scheduler lets it, and may not run between two given calls at
 * all. So the task starts the calls only once the thread has flipped,
 * and stores the mode of its own before each call, O_RDONLY and O_RDWR
 * in turn: both modes are opened however the two threads happen to be
 * scheduled, and the thread's flips land wherever they land: above all
 * while the task is stopped for the tracer, after the kernel read the
 * params. How many calls saw params[2] change in flight is printed.
 */
#include <pthread.h>
#include <sched.h>
#include <sys/stat.h>
#include "indirect_tracer.h"

/* The 16 bits of data the filter passes to the tracer. */
#define FILTER_DATA		0x2ace
/* Calls made, and flips between two yields of the flipping thread. */
#define CALLS			200
#define FLIPS_PER_YIELD		1001
/* Seconds the tracee may take, far beyond what it takes under TCG. */
#define CHILD_TIME_LIMIT	120

/* What tracer and tracee found, in memory shared between them. */
struct race_result {
	/* Tracer: stops, and the number and flags in the registers at each. */
	long stops;
	long nr[CALLS];
	long flags[CALLS];
	/* Tracee: 0 or what failed before the calls, and the calls' fate. */
	long setup;
	long failed_calls;
	long mismatches;
	long read_only;
	long read_write;
	long unrecorded;
	long raced;
};

static struct race_result *r;
static char dir[64];

/* The inner call's parameters, which the flipping thread changes. */
static unsigned long params[INDIRECT_NR_PARAMS];
static volatile int stop_flipping;
static unsigned long flips;

static void *flipper(void *unused __attribute__((unused)))
{
	unsigned long n = 0;

	while (!stop_flipping) {
		__atomic_store_n(&params[2], n & 1 ? O_RDWR : O_RDONLY,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&flips, ++n, __ATOMIC_RELAXED);
		/* An odd number of flips, so that a yield leaves either. */
		if (n % FLIPS_PER_YIELD == 0)
			sched_yield();
	}
	return NULL;
}

static void tracee(void)
{
	struct seccomp_match m = { .nr = __NR_openat, .args = 1 << 0 };
	pthread_t thread;
	int dfd, i;

	alarm(CHILD_TIME_LIMIT);
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (dfd < 0 || ptrace(PTRACE_TRACEME, 0, NULL, NULL))
		_exit(98);
	raise(SIGSTOP);
	params[0] = dfd;
	params[1] = (unsigned long)"file";
	params[2] = O_RDONLY;
	m.arg[0] = dfd;
	/* The filter is the calling thread's: the flipper has none. */
	if (pthread_create(&thread, NULL, flipper, NULL)) {
		r->setup = -EAGAIN;
		_exit(0);
	}
	if (seccomp_install_match(&m, SECCOMP_RET_TRACE | FILTER_DATA, 0) < 0) {
		r->setup = -EPERM;
		_exit(0);
	}
	/* The race is on once the thread has flipped. */
	while (!__atomic_load_n(&flips, __ATOMIC_RELAXED))
		sched_yield();
	for (i = 0; i < CALLS; i++) {
		long fd;
		int mode;

		__atomic_store_n(&params[2], i & 1 ? O_RDWR : O_RDONLY,
				 __ATOMIC_RELAXED);
		fd = indirect_result(__NR_openat, NULL, 0, params);

		if (fd < 0) {
			r->failed_calls++;
			continue;
		}
		/* The tracer wrote before it let the call go on. */
		if (__atomic_load_n(&r->stops, __ATOMIC_ACQUIRE) != i + 1)
			r->unrecorded++;
		/* The thread changed the memory while the call was in flight. */
		if (__atomic_load_n(&params[2], __ATOMIC_RELAXED) !=
		    (unsigned long)(i & 1 ? O_RDWR : O_RDONLY))
			r->raced++;
		mode = fcntl(fd, F_GETFL) & O_ACCMODE;
		if (mode == O_RDWR)
			r->read_write++;
		else if (mode == O_RDONLY)
			r->read_only++;
		if (mode != (r->flags[i] & O_ACCMODE))
			r->mismatches++;
		close(fd);
	}
	stop_flipping = 1;
	pthread_join(thread, NULL);
	_exit(0);
}

/* At each stop: the number and the flags that the registers hold. */
static void record(pid_t pid, void *arg __attribute__((unused)))
{
	struct abi_regs regs;
	long i = r->stops;

	if (abi_get_regs(pid, &regs))
		ksft_exit_fail_msg("reading the registers: %s\n",
				   strerror(errno));
	if (i < CALLS) {
		r->nr[i] = (long)ABI_REG_NR(&regs);
		r->flags[i] = (long)*abi_reg_arg(&regs, 2);
	}
	__atomic_store_n(&r->stops, i + 1, __ATOMIC_RELEASE);
}

int main(void)
{
	long fate, indirect_set, other_nr = 0;
	char path[96];
	pid_t pid;
	int fd, i;

	ksft_print_header();
	indirect_require();
	r = shared_alloc(sizeof(*r));
	snprintf(dir, sizeof(dir), "/tmp/trace-race-%d", getpid());
	snprintf(path, sizeof(path), "%s/file", dir);
	if (mkdir(dir, 0755) && errno != EEXIST)
		ksft_exit_fail_msg("mkdir %s: %s\n", dir, strerror(errno));
	fd = open(path, O_WRONLY | O_CREAT, 0600);
	if (fd < 0)
		ksft_exit_fail_msg("creating %s: %s\n", path, strerror(errno));
	close(fd);
	ksft_set_plan(9);

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid)
		tracee();
	fate = tracer_run(pid, PTRACE_O_TRACESECCOMP | PTRACE_O_INDIRECT,
			  &indirect_set, record, NULL);
	for (i = 0; i < CALLS && i < r->stops; i++)
		if (r->nr[i] != __NR_openat)
			other_nr++;
	if (r->setup)
		ksft_print_msg("setup failed: %s\n", strerror(-r->setup));

	check_long("race_option_accepted", 1, indirect_set);
	check_long("race_tracee_exits", 0, fate);
	check_long("race_one_stop_per_call", CALLS, r->stops);
	check_long("race_tracer_saw_openat_at_every_stop", 0, other_nr);
	check_long("race_every_call_opened", 0, r->failed_calls);
	check_long("race_every_stop_recorded_before_the_call_ran", 0,
		   r->unrecorded);
	check_long("race_access_mode_is_what_tracer_saw", 0, r->mismatches);
	check_long("race_read_only_opened", 1, r->read_only > 0);
	check_long("race_read_write_opened", 1, r->read_write > 0);
	ksft_print_msg("%ld read-only, %ld read-write of %d calls, %ld with params[2] changed in flight\n",
		       r->read_only, r->read_write, CALLS, r->raced);
	unlink(path);
	rmdir(dir);
	ksft_finished();
}
