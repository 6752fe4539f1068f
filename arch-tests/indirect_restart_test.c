// SPDX-License-Identifier: GPL-2.0
/*
 * Calls that the kernel resumes through restart_syscall() (nanosleep,
 * relative clock_nanosleep, futex wait with a timeout, poll with a
 * timeout), made through indirect() with a context, side by side with the
 * same call made directly. AArch64 has no poll(): ppoll() with a timeout
 * stands in for it, which the kernel resumes by making the call again
 * (ERESTARTNOHAND) with the time that is left, so that indirect() is
 * made again, its contexts set again.
 *
 *  - stop_cont: a SIGSTOP and a SIGCONT during the sleep. The call must
 *    end as the direct one does (0, or ETIMEDOUT for futex), not with
 *    EINTR; not before its duration, and by its original deadline: had
 *    it started afresh at the continue, it would end a whole duration
 *    after it.
 *  - ptrace: the same stop made by a tracer that seizes the sleeper,
 *    interrupts it and detaches.
 *  - usr1_after_cont: with a SIGMASK context that unblocks SIGUSR1 and
 *    SIGUSR2 (both blocked outside), a stop and a continue, then a
 *    SIGUSR1 in the resumed sleep: EINTR, its handler ran once and with
 *    SIGUSR2 unblocked. So the resumed call runs with its context again.
 *  - usr1: a SIGUSR1 whose handler runs ends the call with EINTR.
 *
 * Each case runs in a process of its own: a controller forks the sleeper,
 * waits until /proc says it sleeps in the call, and stops, continues or
 * signals it; all the cases of a scenario run at once. Times are
 * CLOCK_MONOTONIC and every margin is hundreds of milliseconds: under
 * TCG the clock moves in 4 ms ticks and signals may be late.
 */
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <linux/futex.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include "indirect_test.h"

/* How long a call sleeps when it is stopped and continued. */
#define SLEEP_MS		1200
/* How long one that a SIGUSR1 must end sleeps: it never gets there. */
#define LONG_SLEEP_MS		6000
/* In the call for this long, the sleeper is stopped or signalled. */
#define STOP_AFTER_MS		100
/* Stopped for this long. */
#define STOPPED_MS		400
/* Asleep again after the continue for this long, it gets SIGUSR1. */
#define USR1_AFTER_MS		100
/* A sleep may end this much early, for a clock read at a tick's end. */
#define CLOCK_SLACK_MS		10
/* The longest wait for the sleeper to be asleep in the call. */
#define SEEN_WAIT_MS		5000
/* A sleeper or controller alive after this long is stuck: SIGALRM. */
#define CASE_LIMIT_S		30

#define MS			1000000LL

enum call_id { C_NANOSLEEP, C_CLOCK_NANOSLEEP, C_FUTEX, C_POLL, C_COUNT };
enum variant { V_DIRECT, V_OPENFLAGS, V_SIGMASK, V_COUNT };
enum scenario { S_STOP_CONT, S_PTRACE, S_USR1_AFTER_CONT, S_USR1, S_COUNT };

#ifdef __NR_poll
#define NR_POLL			__NR_poll
#define POLL_NAME		"poll"
#else
#define NR_POLL			__NR_ppoll
#define POLL_NAME		"ppoll"
#endif

static const char *const call_names[C_COUNT] = {
	"nanosleep", "clock_nanosleep", "futex_wait", POLL_NAME,
};
static const char *const variant_names[V_COUNT] = {
	"direct", "openflags", "sigmask",
};
static const char *const scenario_names[S_COUNT] = {
	"stop_cont", "ptrace", "usr1_after_cont", "usr1",
};
static const long call_nrs[C_COUNT] = {
	__NR_nanosleep, __NR_clock_nanosleep, __NR_futex, NR_POLL,
};
/* What each call returns when it sleeps to the end. */
static const long call_timeout_results[C_COUNT] = { 0, 0, -ETIMEDOUT, 0 };

/* The syscalls' own timespec: two longs, on i386 and ARM too (time32). */
struct ktimespec {
	long tv_sec;
	long tv_nsec;
};

/* One case, in memory shared by the test, the controller and the sleeper. */
struct restart_case {
	enum scenario scenario;
	enum call_id call;
	enum variant variant;
	char name[64];
	/* Written by the sleeper. */
	volatile int64_t start, end;	/* around the call, ns */
	volatile long ret;		/* the result, or -errno */
	volatile int done;
	volatile int handler_runs;
	volatile int handler_saw_usr2_blocked;
	/* Written by the controller. */
	int64_t t_stop, t_cont, t_usr1;	/* when it acted, ns; 0: not */
	int sleeper_status;		/* from waitpid() */
	int reaped;
	int skip;			/* no verdict: @note says why */
	char note[160];			/* what went wrong in setting up */
};

static struct restart_case *cases;
static unsigned int ncases;
/* The sleeper's own case, for its SIGUSR1 handler. */
static struct restart_case *me;
static uint32_t futex_word;

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void on_usr1(int sig)
{
	sigset_t now;

	(void)sig;
	me->handler_runs++;
	sigprocmask(SIG_BLOCK, NULL, &now);
	me->handler_saw_usr2_blocked = sigismember(&now, SIGUSR2);
}

/* The sleeper: make the call, note when it started and ended, and exit. */
static void __attribute__((noreturn)) sleeper(struct restart_case *c)
{
	long ms = c->scenario == S_USR1 || c->scenario == S_USR1_AFTER_CONT ?
		  LONG_SLEEP_MS : SLEEP_MS;
	struct ktimespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	unsigned long p[INDIRECT_NR_PARAMS] = { 0 };
	struct sysind_ctx_SIGMASK mask_ctx;
	const struct indirect_ctx *ctxs[1];
	sigset_t empty;
	long ret;

	me = c;
	alarm(CASE_LIMIT_S);
	sigemptyset(&empty);
	/*
	 * SIGUSR1 and SIGUSR2 are blocked outside. A SIGMASK context unblocks
	 * them for the call; the others must unblock them themselves to see
	 * a SIGUSR1, and it does not matter when nothing sends one.
	 */
	if (c->variant != V_SIGMASK)
		sigprocmask(SIG_SETMASK, &empty, NULL);
	switch (c->call) {
	case C_NANOSLEEP:
		p[0] = (unsigned long)&ts;
		break;
	case C_CLOCK_NANOSLEEP:
		p[0] = CLOCK_MONOTONIC;
		p[2] = (unsigned long)&ts;
		break;
	case C_FUTEX:
		/* The word is 0 and nothing wakes it: the timeout ends it. */
		p[0] = (unsigned long)&futex_word;
		p[1] = FUTEX_WAIT_PRIVATE;
		p[3] = (unsigned long)&ts;
		break;
	default:
#ifdef __NR_poll
		p[2] = ms;
#else
		/* ppoll(NULL, 0, &ts, NULL, 8): no mask of its own. */
		p[2] = (unsigned long)&ts;
		p[4] = 8;
#endif
		break;
	}
	ctxs[0] = c->variant == V_SIGMASK ?
		  indirect_ctx_sigmask(&mask_ctx, &empty) : cloexec_ctxs[0];
	c->start = now_ns();
	if (c->variant == V_DIRECT)
		ret = direct_call(call_nrs[c->call], p);
	else
		ret = indirect_result(call_nrs[c->call], ctxs, 1, p);
	c->end = now_ns();
	c->ret = ret;
	c->done = 1;
	_exit(0);
}

/*
 * The syscall number the sleeper is blocked in, from /proc/<pid>/syscall:
 * 1 and *nr if it is blocked in one, 0 if not (running, or not in a
 * syscall), -1 if the file cannot be read.
 */
static int blocked_syscall(pid_t pid, long *nr)
{
	char path[64], buf[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/syscall", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (!strncmp(buf, "running", 7))
		return 0;
	*nr = strtol(buf, NULL, 10);
	return *nr >= 0;
}

/* The state letter of /proc/<pid>/stat: S sleeping, T stopped, ... */
static char proc_state(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return '?';
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return '?';
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

/*
 * Wait until the sleeper sleeps (state S) in a syscall: number @want, or
 * any when @want is -1. 0 when it does, -1 when it ended or never did.
 */
static int wait_asleep(struct restart_case *c, pid_t pid, long want)
{
	int64_t deadline = now_ns() + SEEN_WAIT_MS * MS;
	long nr = -1;
	int in;

	while (now_ns() < deadline && !c->done) {
		in = blocked_syscall(pid, &nr);
		/* Without /proc/<pid>/syscall, the state alone must do. */
		if (proc_state(pid) == 'S' &&
		    (in < 0 || (in > 0 && (want < 0 || nr == want))))
			return 0;
		usleep(2000);
	}
	return -1;
}

static void note(struct restart_case *c, const char *what)
{
	if (!c->note[0])
		snprintf(c->note, sizeof(c->note), "%s", what);
}

/* Stop the sleeper with SIGSTOP, or as a tracer; then let it go on. */
static int stop_and_continue(struct restart_case *c, pid_t pid)
{
	int status;

	sleep_ms(STOP_AFTER_MS);
	c->t_stop = now_ns();
	if (c->scenario == S_PTRACE) {
		if (ptrace(PTRACE_SEIZE, pid, NULL, NULL)) {
			snprintf(c->note, sizeof(c->note),
				 "PTRACE_SEIZE: %s", strerror(errno));
			c->skip = errno == EPERM;
			return -1;
		}
		if (ptrace(PTRACE_INTERRUPT, pid, NULL, NULL)) {
			snprintf(c->note, sizeof(c->note),
				 "PTRACE_INTERRUPT: %s", strerror(errno));
			return -1;
		}
		if (waitpid(pid, &status, __WALL) != pid ||
		    !WIFSTOPPED(status) || status >> 16 != PTRACE_EVENT_STOP) {
			snprintf(c->note, sizeof(c->note),
				 "no PTRACE_EVENT_STOP: wait status %#x",
				 status);
			return -1;
		}
		sleep_ms(STOPPED_MS);
		c->t_cont = now_ns();
		if (ptrace(PTRACE_DETACH, pid, NULL, NULL)) {
			snprintf(c->note, sizeof(c->note),
				 "PTRACE_DETACH: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	kill(pid, SIGSTOP);
	if (waitpid(pid, &status, WUNTRACED) != pid || !WIFSTOPPED(status)) {
		snprintf(c->note, sizeof(c->note),
			 "SIGSTOP did not stop it: wait status %#x", status);
		return -1;
	}
	sleep_ms(STOPPED_MS);
	c->t_cont = now_ns();
	kill(pid, SIGCONT);
	return 0;
}

/* The controller of a case: run its sleeper and act on it. */
static void __attribute__((noreturn)) controller(struct restart_case *c)
{
	long want = c->variant == V_DIRECT ? call_nrs[c->call] : __NR_indirect;
	pid_t pid;

	alarm(CASE_LIMIT_S + 5);
	pid = fork();
	if (pid < 0) {
		note(c, "fork failed");
		_exit(1);
	}
	if (!pid)
		sleeper(c);
	if (wait_asleep(c, pid, want)) {
		note(c, "never seen asleep in the call");
		goto reap;
	}
	switch (c->scenario) {
	case S_STOP_CONT:
	case S_PTRACE:
		stop_and_continue(c, pid);
		break;
	case S_USR1_AFTER_CONT:
		if (stop_and_continue(c, pid))
			break;
		/* Resumed and asleep again, in whatever syscall resumes it. */
		if (wait_asleep(c, pid, -1)) {
			note(c, "not asleep again after the continue");
			break;
		}
		sleep_ms(USR1_AFTER_MS);
		c->t_usr1 = now_ns();
		kill(pid, SIGUSR1);
		break;
	case S_USR1:
		sleep_ms(STOP_AFTER_MS);
		c->t_usr1 = now_ns();
		kill(pid, SIGUSR1);
		break;
	default:
		break;
	}
reap:
	if (waitpid(pid, &c->sleeper_status, 0) == pid)
		c->reaped = 1;
	_exit(0);
}

static long ms_since(int64_t t, int64_t since)
{
	return t ? (long)((t - since) / MS) : -1;
}

static const char *result_str(long ret, char *buf, size_t size)
{
	if (ret >= 0)
		snprintf(buf, size, "%ld", ret);
	else
		snprintf(buf, size, "-%s", strerrorname_np(-ret) ?
			 strerrorname_np(-ret) : "?");
	return buf;
}

/* The verdict on a case, and on failure what happened when. */
static void judge(struct restart_case *c)
{
	bool stopped = c->scenario == S_STOP_CONT || c->scenario == S_PTRACE;
	long want = stopped ? call_timeout_results[c->call] : -EINTR;
	int64_t elapsed = c->end - c->start;
	char w[32], g[32], why[256] = "";

	if (c->skip) {
		ksft_test_result_skip("%s: %s\n", c->name, c->note);
		return;
	}
	if (!c->reaped || !WIFEXITED(c->sleeper_status) ||
	    WEXITSTATUS(c->sleeper_status) || !c->done)
		snprintf(why, sizeof(why),
			 "the sleeper did not return from the call (wait status %#x)",
			 c->sleeper_status);
	else if (c->note[0])
		snprintf(why, sizeof(why), "%s", c->note);
	else if (c->ret != want)
		snprintf(why, sizeof(why), "result: expected %s, got %s",
			 result_str(want, w, sizeof(w)),
			 result_str(c->ret, g, sizeof(g)));
	else if (stopped && c->t_stop >= c->start + SLEEP_MS * MS)
		snprintf(why, sizeof(why),
			 "stopped only after the call's deadline: no verdict");
	else if (stopped && elapsed < (SLEEP_MS - CLOCK_SLACK_MS) * MS)
		snprintf(why, sizeof(why), "ended early: expected at least %d ms",
			 SLEEP_MS);
	else if (stopped && c->end >= c->t_cont + SLEEP_MS * MS)
		/* From scratch at the continue, it would end no sooner. */
		snprintf(why, sizeof(why),
			 "not by its original deadline: %d ms after the continue or later",
			 SLEEP_MS);
	else if (!stopped && c->handler_runs != 1)
		snprintf(why, sizeof(why), "SIGUSR1 handler runs: expected 1, got %d",
			 c->handler_runs);
	else if (!stopped && c->handler_saw_usr2_blocked)
		snprintf(why, sizeof(why),
			 "the handler ran with the mask of outside, not the call's");
	else if (!stopped && (c->end < c->t_usr1 ||
			      elapsed >= (LONG_SLEEP_MS - CLOCK_SLACK_MS) * MS))
		snprintf(why, sizeof(why), "not ended by the SIGUSR1");
	if (!why[0]) {
		ksft_test_result_pass("%s\n", c->name);
		return;
	}
	ksft_print_msg("%s: %s; result %s, elapsed %ld ms, stopped at %ld, "
		       "continued at %ld, SIGUSR1 at %ld (ms from the start, "
		       "-1: not done)\n",
		       c->name, why,
		       c->done ? result_str(c->ret, g, sizeof(g)) : "none",
		       c->done ? ms_since(c->end, c->start) : -1,
		       ms_since(c->t_stop, c->start),
		       ms_since(c->t_cont, c->start),
		       ms_since(c->t_usr1, c->start));
	ksft_test_result_fail("%s\n", c->name);
}

/* Run every case of @s at once, then judge them in order. */
static void run_scenario(enum scenario s)
{
	unsigned int i;
	pid_t pid;

	for (i = 0; i < ncases; i++) {
		if (cases[i].scenario != s)
			continue;
		pid = fork();
		if (pid < 0)
			ksft_exit_fail_msg("fork: %s\n", strerror(errno));
		if (!pid)
			controller(&cases[i]);
	}
	while (wait(NULL) > 0)
		;
	for (i = 0; i < ncases; i++)
		if (cases[i].scenario == s)
			judge(&cases[i]);
}

static void add_case(enum scenario s, enum call_id call, enum variant v)
{
	struct restart_case *c = &cases[ncases++];

	c->scenario = s;
	c->call = call;
	c->variant = v;
	snprintf(c->name, sizeof(c->name), "%s_%s_%s", scenario_names[s],
		 call_names[call], variant_names[v]);
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	unsigned int max = S_COUNT * C_COUNT * V_COUNT;
	enum scenario s;
	enum call_id call;
	enum variant v;
	sigset_t outside;

	ksft_print_header();
	indirect_require();

	cases = mmap(NULL, max * sizeof(*cases), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cases == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	for (s = 0; s < S_COUNT; s++)
		for (call = 0; call < C_COUNT; call++)
			for (v = 0; v < V_COUNT; v++)
				/* Only SIGMASK can unblock it for the call. */
				if (s != S_USR1_AFTER_CONT || v != V_OPENFLAGS)
					add_case(s, call, v);
	ksft_set_plan(ncases);

	/* No SA_RESTART: a handler that runs ends the call with EINTR. */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL))
		ksft_exit_fail_msg("sigaction: %s\n", strerror(errno));
	sigemptyset(&outside);
	sigaddset(&outside, SIGUSR1);
	sigaddset(&outside, SIGUSR2);
	if (sigprocmask(SIG_SETMASK, &outside, NULL))
		ksft_exit_fail_msg("sigprocmask: %s\n", strerror(errno));

	for (s = 0; s < S_COUNT; s++)
		run_scenario(s);
	ksft_finished();
}
