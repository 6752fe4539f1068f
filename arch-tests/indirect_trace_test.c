// SPDX-License-Identifier: GPL-2.0
/*
 * indirect()'s own events. indirect:indirect_enter names the inner call:
 * the caller's arch, the call's number and six arguments, the number of
 * contexts and their kinds (BIT() of each SYSIND_CTX_* id set), and
 * whether restart_syscall() resumes the call. It fires once the contexts
 * are set, before seccomp and the blacklist judge the call, so that a call
 * that either refuses has one too. indirect:indirect_exit fires once for
 * every indirect_enter, with the call's final result (the blacklist's
 * EINVAL, seccomp's errno). raw_syscalls:sys_enter sees indirect() itself
 * (its inner call's syscall events are indirect_tracepoint_test's).
 *
 * Each row of trace_rows[] is a call, traced: its indirect_enter must
 * read as the row says, and the next event of indirect()'s in the same
 * task must be its indirect_exit, with the row's result. Then a call
 * resumed by restart_syscall(): an inner nanosleep() with contexts,
 * stopped by SIGSTOP and continued by SIGCONT, has a second
 * indirect_enter, with restart 1, the inner number, no arguments and the
 * number and kinds of the contexts in force again, and its indirect_exit
 * gives the sleep's result.
 */
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <linux/openat2.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include "indirect_test.h"
#include "indirect_tracefs.h"


#define TEST_ARCH		ABI_AUDIT_ARCH

/* The result of getppid(), which the rows cannot hold as a constant. */
#define RET_PPID		LONG_MIN

/* The contexts of a row. */
enum ctx_set {
	CTX_NONE,
	CTX_OPENFLAGS,
	CTX_OPENFLAGS_SIGMASK,
	CTX_TWO_OPENFLAGS,
	CTX_RESOLVE,
	CTX_TWO_OPENFLAGS_SIGMASK,
};

struct trace_row {
	const char *name;
	long nr;
	/* The last argument tells the rows apart in the trace. */
	unsigned long args[INDIRECT_NR_PARAMS];
	enum ctx_set ctxs;
	unsigned int nctxs, kinds;
	/* Made in a child whose seccomp filter answers EPERM to it. */
	bool seccomp_errno;
	long ret;
};

#define K(id)			(1u << (id))
#define K_OPENFLAGS		K(SYSIND_CTX_OPENFLAGS)
#define K_SIGMASK		K(SYSIND_CTX_SIGMASK)
#define K_RESOLVE		K(SYSIND_CTX_RESOLVE)

/* faccessat(AT_FDCWD, ".", F_OK): args[1] is set in main(). */
#define ARG_DOT			0

static struct trace_row trace_rows[] = {
	{ "no_context", __NR_getppid, { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66 },
	  CTX_NONE, 0, 0, false, RET_PPID },
	{ "openflags", __NR_getppid, { 0x11, 0x22, 0x33, 0x44, 0x55, 0x77 },
	  CTX_OPENFLAGS, 1, K_OPENFLAGS, false, RET_PPID },
	{ "openflags_sigmask", __NR_getppid,
	  { 0x11, 0x22, 0x33, 0x44, 0x55, 0x99 },
	  CTX_OPENFLAGS_SIGMASK, 2, K_OPENFLAGS | K_SIGMASK, false, RET_PPID },
	/* kinds is a set: two contexts of one kind give one bit. */
	{ "two_openflags", __NR_getppid, { 0x11, 0x22, 0x33, 0x44, 0x55, 0xaa },
	  CTX_TWO_OPENFLAGS, 2, K_OPENFLAGS, false, RET_PPID },
	{ "resolve", __NR_faccessat,
	  { (unsigned long)AT_FDCWD, ARG_DOT, F_OK, 0x44, 0x55, 0xbb },
	  CTX_RESOLVE, 1, K_RESOLVE, false, 0 },
	/*
	 * indirect() itself, blacklisted on every ABI; had it run, its
	 * nctxs of 0x33 would have given E2BIG.
	 */
	{ "blacklisted", __NR_indirect, { 0x11, 0x22, 0x33, 0x44, 0x55, 0xcc },
	  CTX_NONE, 0, 0, false, -EINVAL },
	{ "blacklisted_openflags", __NR_indirect,
	  { 0x11, 0x22, 0x33, 0x44, 0x55, 0xdd },
	  CTX_OPENFLAGS, 1, K_OPENFLAGS, false, -EINVAL },
	{ "seccomp_errno", __NR_getppid, { 0x11, 0x22, 0x33, 0x44, 0x55, 0x88 },
	  CTX_OPENFLAGS, 1, K_OPENFLAGS, true, -EPERM },
};

static struct sysind_ctx_SIGMASK sigmask_ctx;
static struct sysind_ctx_RESOLVE beneath_ctx = {
	.ctx = SYSIND_CTX_RESOLVE,
	.resolve = RESOLVE_BENEATH,
};

/* The array of contexts of @set; their number is the row's nctxs. */
static const struct indirect_ctx **ctx_array(enum ctx_set set)
{
	static const struct indirect_ctx *ctxs[3];
	const struct indirect_ctx *openflags = cloexec_ctxs[0];
	const struct indirect_ctx *sigmask =
		(const struct indirect_ctx *)&sigmask_ctx;

	switch (set) {
	case CTX_NONE:
		return NULL;
	case CTX_OPENFLAGS:
		ctxs[0] = openflags;
		break;
	case CTX_OPENFLAGS_SIGMASK:
		ctxs[0] = openflags;
		ctxs[1] = sigmask;
		break;
	case CTX_TWO_OPENFLAGS:
		ctxs[0] = ctxs[1] = openflags;
		break;
	case CTX_RESOLVE:
		ctxs[0] = (const struct indirect_ctx *)&beneath_ctx;
		break;
	case CTX_TWO_OPENFLAGS_SIGMASK:
		ctxs[0] = ctxs[1] = openflags;
		ctxs[2] = sigmask;
		break;
	}
	return ctxs;
}

#define MAX_EVENTS		64
#define EVENT_SIZE		192

/* The events of one task, in order: "<event>: <text>". */
struct task_events {
	int n;
	char lines[MAX_EVENTS][EVENT_SIZE];
};

/*
 * The lines of process @pid in @trace whose event is one of @events
 * (a NULL-terminated list), from the event's name on. A line reads
 * "<comm>-<pid> [<cpu>] <flags> <timestamp>: <event>: <text>".
 */
static void task_events(const char *trace, pid_t pid,
			const char *const *events, struct task_events *te)
{
	const char *line = trace, *end, *cpu, *text;
	char owner[32];
	size_t olen;
	unsigned int i;

	snprintf(owner, sizeof(owner), "-%d", pid);
	olen = strlen(owner);
	te->n = 0;
	for (; *line; line = *end ? end + 1 : end) {
		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		if (line[0] == '#')
			continue;
		cpu = memmem(line, end - line, " [", 2);
		if (!cpu)
			continue;
		while (cpu > line && cpu[-1] == ' ')
			cpu--;
		if ((size_t)(cpu - line) < olen ||
		    memcmp(cpu - olen, owner, olen))
			continue;
		text = memchr(cpu, ']', end - cpu);
		text = text ? memmem(text, end - text, ": ", 2) : NULL;
		if (!text)
			continue;
		text += 2;
		for (i = 0; events[i]; i++)
			if (!strncmp(text, events[i], strlen(events[i])))
				break;
		if (!events[i] || te->n == MAX_EVENTS)
			continue;
		snprintf(te->lines[te->n++], EVENT_SIZE, "%.*s",
			 (int)(end - text), text);
	}
}

static const char *const indirect_events[] = {
	"indirect_enter: ", "indirect_exit: ", NULL,
};
static const char *const sys_enter_events[] = { "sys_enter: ", NULL };

/* What indirect_enter prints for call @nr. */
static const char *enter_text(long nr, const unsigned long *args,
			      unsigned int nctxs, unsigned int kinds,
			      unsigned int restart)
{
	static char text[EVENT_SIZE];

	/* The kernel's %#x prints 0 as 0x0, where the C library's prints 0. */
	snprintf(text, sizeof(text),
		 "indirect_enter: arch %#x NR %u (%lx, %lx, %lx, %lx, %lx, %lx) nctxs %u kinds 0x%x restart %u",
		 TEST_ARCH, (unsigned int)nr, args[0], args[1], args[2],
		 args[3], args[4], args[5], nctxs, kinds, restart);
	return text;
}

/* What indirect_exit prints for call @nr that returned @ret. */
static const char *exit_text(long nr, long ret)
{
	static char text[EVENT_SIZE];

	snprintf(text, sizeof(text), "indirect_exit: NR %u = %ld",
		 (unsigned int)nr, ret);
	return text;
}

/* The index of the first of @te's lines from @from on that is @text, or -1. */
static int find_event(const struct task_events *te, int from, const char *text)
{
	int i;

	for (i = from; i < te->n; i++)
		if (!strcmp(te->lines[i], text))
			return i;
	return -1;
}

/*
 * Does @te have the indirect_enter @enter, the next event after it being
 * the indirect_exit @exit? 2 if so, 1 if only the enter, 0 if not even.
 */
static long enter_then_exit(const struct task_events *te, const char *enter,
			    const char *exit)
{
	int i = find_event(te, 0, enter);

	if (i < 0)
		return 0;
	return i + 1 < te->n && !strcmp(te->lines[i + 1], exit) ? 2 : 1;
}

/*
 * Do @te's events pair up, each indirect_enter followed by one
 * indirect_exit of the same number? The number of lines that do not.
 */
static long unpaired(const struct task_events *te)
{
	unsigned int enter_nr, exit_nr;
	long bad = 0;
	int i;

	for (i = 0; i < te->n; i++) {
		if (sscanf(te->lines[i], "indirect_enter: arch %*x NR %u",
			   &enter_nr) != 1) {
			bad++;		/* an exit without its enter */
			continue;
		}
		if (i + 1 < te->n &&
		    sscanf(te->lines[i + 1], "indirect_exit: NR %u",
			   &exit_nr) == 1 && exit_nr == enter_nr)
			i++;
		else
			bad++;
	}
	return bad;
}

static long row_ret(const struct trace_row *row)
{
	return row->ret == RET_PPID ? getppid() : row->ret;
}

/* Make @row's call; in a child under seccomp, whose pid goes to @pid. */
static long make_call(const struct trace_row *row, pid_t *pid)
{
	struct seccomp_match m = {
		.nr = row->nr,
		.args = 1u << 5,
		.arg = { [5] = row->args[5] },
	};
	static long *result;
	int status;

	*pid = getpid();
	if (!row->seccomp_errno)
		return indirect_result(row->nr, ctx_array(row->ctxs),
				       row->nctxs, row->args);
	if (!result)
		result = shared_alloc(sizeof(*result));
	*result = -ECHILD;
	fflush(stdout);
	*pid = fork();
	if (*pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!*pid) {
		if (seccomp_install_match(&m, SECCOMP_RET_ERRNO | EPERM, 0) < 0)
			_exit(1);
		*result = indirect_result(row->nr, ctx_array(row->ctxs),
					  row->nctxs, row->args);
		_exit(0);
	}
	if (waitpid(*pid, &status, 0) != *pid || status)
		ksft_print_msg("%s: child ended with status %#x\n", row->name,
			       status);
	return *result;
}

/*
 * The restart: nanosleep() through indirect() with two OPENFLAGS contexts
 * and a SIGMASK one, stopped and continued while it sleeps.
 */
#define RESTART_SLEEP_MS	1000
#define RESTART_WAIT_MS		5000

/* The syscalls' own timespec: two longs, on i386 and ARM too (time32). */
struct ktimespec {
	long tv_sec;
	long tv_nsec;
};

static struct ktimespec restart_ts = {
	RESTART_SLEEP_MS / 1000, (RESTART_SLEEP_MS % 1000) * 1000000L,
};
static unsigned long restart_args[INDIRECT_NR_PARAMS];

/* Is @pid asleep in indirect()? From /proc: state S, syscall 387. */
static bool asleep_in_indirect(pid_t pid)
{
	char path[64], buf[512], *p;
	bool have_syscall;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/syscall", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	have_syscall = fd >= 0;
	if (have_syscall) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			return false;
		buf[n] = '\0';
		if (strtol(buf, &p, 10) != __NR_indirect || p == buf)
			return false;
	}
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

/*
 * Run the sleeper, stop and continue it; its result, or a positive
 * number when it could not be done (the sleeper's pid goes to @pid).
 */
static long restarted_call(pid_t *pid)
{
	static long *result;
	struct timespec ms = { 0, 1000000L };
	int status, waited = 0;

	if (!result)
		result = shared_alloc(sizeof(*result));
	*result = -ECHILD;
	restart_args[0] = (unsigned long)&restart_ts;
	fflush(stdout);
	*pid = fork();
	if (*pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!*pid) {
		alarm(20);
		*result = indirect_result(__NR_nanosleep,
					  ctx_array(CTX_TWO_OPENFLAGS_SIGMASK),
					  3, restart_args);
		_exit(0);
	}
	while (!asleep_in_indirect(*pid) && waited++ < RESTART_WAIT_MS)
		nanosleep(&ms, NULL);
	if (waited >= RESTART_WAIT_MS) {
		ksft_print_msg("restart: the sleeper was never seen asleep\n");
		kill(*pid, SIGKILL);
		waitpid(*pid, &status, 0);
		return 1;
	}
	kill(*pid, SIGSTOP);
	if (waitpid(*pid, &status, WUNTRACED) != *pid || !WIFSTOPPED(status)) {
		ksft_print_msg("restart: SIGSTOP did not stop the sleeper: %#x\n",
			       status);
		kill(*pid, SIGKILL);
		waitpid(*pid, &status, 0);
		return 2;
	}
	kill(*pid, SIGCONT);
	if (waitpid(*pid, &status, 0) != *pid || status)
		ksft_print_msg("restart: the sleeper ended with status %#x\n",
			       status);
	return *result;
}

/*
 * The checks, on @trace: the rows' calls gave @results in the tasks
 * @pids, and the restarted call @restart_ret in the task @sleeper; the
 * test itself is @self.
 */
static void check_trace(const char *trace, const long *results,
			const pid_t *pids, long restart_ret, pid_t sleeper,
			pid_t self)
{
	static const unsigned long no_args[INDIRECT_NR_PARAMS];
	static struct task_events te, outer;
	char name[96], outer_text[64];
	unsigned int i;
	long bad;

	for (i = 0; i < ARRAY_SIZE(trace_rows); i++) {
		const struct trace_row *row = &trace_rows[i];
		long ret = row_ret(row), seen;

		task_events(trace, pids[i], indirect_events, &te);
		snprintf(name, sizeof(name), "%s_result", row->name);
		check_long(name, ret, results[i]);
		seen = enter_then_exit(&te, enter_text(row->nr, row->args,
						       row->nctxs, row->kinds, 0),
				       exit_text(row->nr, ret));
		snprintf(name, sizeof(name), "%s_indirect_enter", row->name);
		check_long(name, 1, seen > 0);
		snprintf(name, sizeof(name), "%s_indirect_exit_follows",
			 row->name);
		check_long(name, 2, seen);
	}

	/* The outer call, as the syscall tracepoint sees it. */
	task_events(trace, self, sys_enter_events, &outer);
	snprintf(outer_text, sizeof(outer_text), "sys_enter: NR %d (",
		 __NR_indirect);
	for (i = 0; i < (unsigned int)outer.n; i++)
		if (!strncmp(outer.lines[i], outer_text, strlen(outer_text)))
			break;
	check_long("sys_enter_sees_outer_call", 1, i < (unsigned int)outer.n);

	/*
	 * The restart: the call as made (restart 0), then as resumed
	 * (restart 1: no arguments, and the kinds in force, one context of
	 * each), which ends the sleep.
	 */
	task_events(trace, sleeper, indirect_events, &te);
	check_long("restart_call_result", 0, restart_ret);
	check_long("restart_first_indirect_enter", 1,
		   find_event(&te, 0, enter_text(__NR_nanosleep, restart_args,
						 3, K_OPENFLAGS | K_SIGMASK,
						 0)) >= 0);
	check_long("restart_resumed_indirect_enter", 1,
		   enter_then_exit(&te, enter_text(__NR_nanosleep, no_args, 2,
						   K_OPENFLAGS | K_SIGMASK, 1),
				   exit_text(__NR_nanosleep, 0)) > 0);
	check_long("restart_resumed_indirect_exit_follows", 2,
		   enter_then_exit(&te, enter_text(__NR_nanosleep, no_args, 2,
						   K_OPENFLAGS | K_SIGMASK, 1),
				   exit_text(__NR_nanosleep, 0)));

	/* One indirect_exit after every indirect_enter, in every task. */
	bad = unpaired(&te);
	task_events(trace, self, indirect_events, &te);
	bad += unpaired(&te);
	for (i = 0; i < ARRAY_SIZE(trace_rows); i++) {
		if (pids[i] == self)
			continue;
		task_events(trace, pids[i], indirect_events, &te);
		bad += unpaired(&te);
	}
	check_long("every_indirect_enter_has_one_indirect_exit", 0, bad);
}

int main(void)
{
	long results[ARRAY_SIZE(trace_rows)], restart_ret;
	pid_t pids[ARRAY_SIZE(trace_rows)], sleeper;
	const char *trace;
	char filter[64];
	sigset_t now;
	unsigned int i;

	ksft_print_header();
	indirect_require();
	ksft_set_plan(3 * ARRAY_SIZE(trace_rows) + 2 + 4);

	mkdir(TRACEFS, 0755);
	if (access(TRACEFS "/events", F_OK) &&
	    mount("tracefs", TRACEFS, "tracefs", 0, NULL))
		ksft_exit_fail_msg("mount tracefs: %s\n", strerror(errno));
	if (access(TRACEFS "/events/indirect/indirect_enter", F_OK))
		ksft_exit_fail_msg("no indirect:indirect_enter event: %s\n",
				   strerror(errno));

	for (i = 0; i < ARRAY_SIZE(trace_rows); i++)
		if (trace_rows[i].nr == __NR_faccessat)
			trace_rows[i].args[1] = (unsigned long)".";
	/* A SIGMASK context that keeps the mask as it is. */
	sigprocmask(SIG_SETMASK, NULL, &now);
	indirect_ctx_sigmask(&sigmask_ctx, &now);
	stay_on_this_cpu();

	/* indirect() only, for raw_syscalls traces every syscall. */
	snprintf(filter, sizeof(filter), "id == %d", __NR_indirect);
	if (tracefs_write("events/raw_syscalls/sys_enter/filter", filter) ||
	    tracefs_write("trace", "") ||
	    tracefs_write("tracing_on", "1") ||
	    tracefs_write("events/indirect/enable", "1") ||
	    tracefs_write("events/raw_syscalls/sys_enter/enable", "1"))
		ksft_exit_fail_msg("cannot enable the events: %s\n",
				   strerror(errno));

	for (i = 0; i < ARRAY_SIZE(trace_rows); i++)
		results[i] = make_call(&trace_rows[i], &pids[i]);
	restart_ret = restarted_call(&sleeper);

	tracefs_write("events/raw_syscalls/sys_enter/enable", "0");
	tracefs_write("events/indirect/enable", "0");
	tracefs_write("events/raw_syscalls/sys_enter/filter", "0");
	trace = tracefs_read_trace();
	tracefs_write("trace", "");

	check_trace(trace, results, pids, restart_ret, sleeper, getpid());
	if (ksft_get_fail_cnt())
		ksft_print_msg("trace was:\n%s", trace);
	ksft_finished();
}
