// SPDX-License-Identifier: GPL-2.0
/*
 * The syscall tracepoints of indirect()'s inner call: it fires them as the
 * same call made directly on the same ABI fires them, nested inside the
 * events of indirect() itself.
 *
 * The direct call is the oracle, always on the same ABI: the per-syscall
 * events (syscalls:sys_enter_openat, sys_exit_openat) fire for native
 * tasks only, not for compat ones (ia32 on x86-64, AArch32 on arm64), so
 * the test counts what the direct call fires and requires the same of the
 * indirect one.
 *
 *  - perf: a counter of each event, bound to this task (perf_event_open()
 *    of PERF_TYPE_TRACEPOINT with the event's tracefs id; pid 0, any CPU,
 *    nothing excluded), counts a direct openat() and then indirect(openat):
 *    the same counts. The raw_syscalls counters have the filter
 *    "id == <openat>", which leaves out indirect()'s own events and those
 *    of the ioctl()s that start and stop the counter.
 *  - tracefs: the raw_syscalls and openat events of one child, each call
 *    made in a child of its own, read back from the trace as text. Each
 *    row of text_rows[] is a call made directly and through indirect():
 *    indirect()'s sys_enter (id __NR_indirect) comes first and its sys_exit
 *    last; between them are the inner call's events, the lines that the
 *    direct call printed, its sys_enter with its number and six
 *    arguments and its sys_exit with its result. An inner call that a
 *    seccomp filter answers with SECCOMP_RET_ERRNO has a sys_exit only,
 *    with the errno, as the direct call that seccomp skips; one that
 *    indirect()'s blacklist refuses has neither.
 *
 * Without tracefs, or without the raw_syscalls events, the test is
 * skipped; without CONFIG_PERF_EVENTS its perf cases are, and without the
 * per-syscall events (CONFIG_FTRACE_SYSCALLS), their cases.
 */
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <linux/perf_event.h>
#include "indirect_test.h"
#include "indirect_tracefs.h"


#define RAW_ENTER		"raw_syscalls/sys_enter"
#define RAW_EXIT		"raw_syscalls/sys_exit"
#define OPENAT_ENTER		"syscalls/sys_enter_openat"
#define OPENAT_EXIT		"syscalls/sys_exit_openat"

/*
 * openat(AT_FDCWD, "/", O_RDONLY | O_DIRECTORY), and three more words,
 * which openat() ignores (no O_CREAT: no mode) and which the raw events
 * must still show as the inner call's, not as indirect()'s.
 */
static const char open_path[] = "/";
static unsigned long open_params[INDIRECT_NR_PARAMS] = {
	(unsigned long)AT_FDCWD, 0, O_RDONLY | O_DIRECTORY, 0x44, 0x55, 0x66,
};
/* reboot() with no magic: EINVAL, were the blacklist not to refuse it. */
static const unsigned long reboot_params[INDIRECT_NR_PARAMS] = {
	0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
};

/* Is this binary a compat task of a 64-bit kernel? */
static bool compat_task(void)
{
#ifdef ABI_COMPAT_MACHINE
	struct utsname uts;

	return !uname(&uts) && !strcmp(uts.machine, ABI_COMPAT_MACHINE);
#else
	return false;
#endif
}

/* Does tracefs have event @event ("<system>/<name>")? */
static bool event_exists(const char *event)
{
	char path[256];

	snprintf(path, sizeof(path), TRACEFS "/events/%s/id", event);
	return !access(path, R_OK);
}

/* The id of @event, for perf_event_open(), or -errno. */
static long event_id(const char *event)
{
	char path[256], buf[32];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), TRACEFS "/events/%s/id", event);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

/* Set the filter of @event to @filter; 0 or -errno. */
static int event_filter(const char *event, const char *filter)
{
	char name[128];

	snprintf(name, sizeof(name), "events/%s/filter", event);
	return tracefs_write(name, filter);
}

/* Turn @event on (1) or off (0); 0 or -errno. */
static int event_enable(const char *event, int on)
{
	char name[128];

	snprintf(name, sizeof(name), "events/%s/enable", event);
	return tracefs_write(name, on ? "1" : "0");
}

/* openat() made directly or through indirect(): the result, or -errno. */
static long call_openat(bool via_indirect)
{
	return via_indirect ?
	       indirect_result(__NR_openat, NULL, 0, open_params) :
	       direct_call(__NR_openat, open_params);
}

/*
 * The perf cases: one counter per event. by_id: count only openat's
 * events (the raw_syscalls ones have every syscall's).
 */
struct counted_event {
	const char *name;
	const char *event;
	bool by_id;
	bool native_only;	/* the per-syscall events: not for compat */
};

static const struct counted_event counted_events[] = {
	{ "raw_sys_enter", RAW_ENTER, true, false },
	{ "raw_sys_exit", RAW_EXIT, true, false },
	{ "sys_enter_openat", OPENAT_ENTER, false, true },
	{ "sys_exit_openat", OPENAT_EXIT, false, true },
};

/*
 * A counter of @e for this task, stopped; or -1 and why in @why, with
 * *@skip set when the kernel lacks what it needs rather than failing.
 */
static int open_counter(const struct counted_event *e, char *why, size_t size,
			bool *skip)
{
	struct perf_event_attr attr;
	char filter[64];
	long id = event_id(e->event);
	int fd;

	*skip = true;
	if (id < 0) {
		snprintf(why, size, "no event %s: %s", e->event,
			 strerror(-id));
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = id;
	attr.disabled = 1;
	fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1,
		     PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		snprintf(why, size, "perf_event_open(%s): %s", e->event,
			 strerror(errno));
		/* No CONFIG_PERF_EVENTS, or no perf for tracepoints. */
		*skip = errno == ENOSYS || errno == ENOENT ||
			errno == EOPNOTSUPP || errno == ENODEV;
		return -1;
	}
	if (e->by_id) {
		snprintf(filter, sizeof(filter), "id == %d", __NR_openat);
		if (ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter)) {
			snprintf(why, size, "PERF_EVENT_IOC_SET_FILTER(%s): %s",
				 filter, strerror(errno));
			*skip = false;
			close(fd);
			return -1;
		}
	}
	return fd;
}

/* How many events counter @fd counts for one openat(); -1 on error. */
static long count_openat(int fd, bool via_indirect)
{
	uint64_t count = 0;
	long ret;

	if (ioctl(fd, PERF_EVENT_IOC_RESET, 0) ||
	    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		return -1;
	ret = call_openat(via_indirect);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (ret >= 0)
		close(ret);
	else
		ksft_print_msg("%s openat: %s\n",
			       via_indirect ? "indirect" : "direct",
			       strerror(-ret));
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		return -1;
	return count;
}

static void check_perf(void)
{
	bool compat = compat_task();
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(counted_events); i++) {
		const struct counted_event *e = &counted_events[i];
		char direct_name[96], name[96], why[160];
		long direct, via_indirect;
		bool skip;
		int fd;

		snprintf(direct_name, sizeof(direct_name),
			 "perf_%s_direct_openat_counted", e->name);
		snprintf(name, sizeof(name),
			 "perf_%s_indirect_openat_counted_as_direct", e->name);
		fd = open_counter(e, why, sizeof(why), &skip);
		if (fd < 0) {
			if (skip) {
				ksft_test_result_skip("%s: %s\n", direct_name, why);
				ksft_test_result_skip("%s: %s\n", name, why);
			} else {
				ksft_print_msg("%s\n", why);
				ksft_test_result_fail("%s\n", direct_name);
				ksft_test_result_fail("%s\n", name);
			}
			continue;
		}
		direct = count_openat(fd, false);
		via_indirect = count_openat(fd, true);
		close(fd);
		ksft_print_msg("%s: direct openat %ld, indirect(openat) %ld\n",
			       e->event, direct, via_indirect);
		/*
		 * That the counter counts: once, or for the per-syscall
		 * events, never in a compat task.
		 */
		check_long(direct_name, e->native_only && compat ? 0 : 1,
			   direct);
		check_long(name, direct, via_indirect);
	}
}

/*
 * The tracefs cases. Each row is a call, made directly and through
 * indirect() (a blacklisted one through indirect() only), in a child with
 * the raw_syscalls events filtered on its pid and on the call's and
 * indirect()'s numbers, and the openat events on its pid.
 */
struct text_row {
	const char *name;
	long nr;
	const unsigned long *params;
	bool seccomp_errno;	/* a filter answers EPERM to the call */
	bool blacklisted;	/* indirect() refuses it: no direct oracle */
	bool enters;		/* the inner call has a sys_enter */
	bool exits;		/* ... and a sys_exit */
};

static const struct text_row text_rows[] = {
	{ "openat", __NR_openat, open_params, false, false, true, true },
	{ "openat_seccomp_errno", __NR_openat, open_params, true, false,
	  false, true },
	{ "reboot_blacklisted", __NR_reboot, reboot_params, false, true,
	  false, false },
};

#define MAX_LINES		16
#define LINE_SIZE		224

/* What one run printed: its lines, after the timestamp, in order. */
struct run {
	long ret;
	int status;		/* of the child, from waitpid() */
	int n;
	bool truncated;
	char lines[MAX_LINES][LINE_SIZE];
};

static bool have_openat_events;

/*
 * The lines of process @pid in @trace, each from what follows its
 * timestamp: "sys_enter: NR 257 (...)", "sys_openat(dfd: ...)". A line
 * reads "<comm>-<pid> [<cpu>] <flags> <timestamp>: <event>: <text>".
 */
static void collect_lines(char *trace, pid_t pid, struct run *run)
{
	char owner[32], *line = trace, *end, *cpu, *text;
	size_t olen;

	snprintf(owner, sizeof(owner), "-%d", pid);
	olen = strlen(owner);
	run->n = 0;
	run->truncated = false;
	for (; *line; line = end + 1) {
		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		if (*end)
			*end = '\0';
		else
			end--;		/* the loop's end + 1 is the NUL */
		if (line[0] == '#')
			continue;
		cpu = strstr(line, " [");
		if (!cpu)
			continue;
		while (cpu > line && cpu[-1] == ' ')
			cpu--;
		if ((size_t)(cpu - line) < olen ||
		    memcmp(cpu - olen, owner, olen))
			continue;
		text = strchr(cpu, ']');
		text = text ? strstr(text, ": ") : NULL;
		if (!text)
			continue;
		if (run->n == MAX_LINES) {
			run->truncated = true;
			break;
		}
		snprintf(run->lines[run->n++], LINE_SIZE, "%s", text + 2);
	}
}

/* A raw sys_enter line: 1 and its number and arguments, or 0. */
static int parse_enter(const char *line, long long *nr,
		       unsigned long long *args)
{
	return sscanf(line, "sys_enter: NR %lld (%llx, %llx, %llx, %llx, %llx, %llx)",
		      nr, &args[0], &args[1], &args[2], &args[3], &args[4],
		      &args[5]) == 7;
}

/* A raw sys_exit line: 1 and its number and result, or 0. */
static int parse_exit(const char *line, long long *nr, long long *ret)
{
	return sscanf(line, "sys_exit: NR %lld = %lld", nr, ret) == 2;
}

static bool is_outer(const char *line)
{
	unsigned long long args[INDIRECT_NR_PARAMS];
	long long nr, ret;

	return (parse_enter(line, &nr, args) || parse_exit(line, &nr, &ret)) &&
	       nr == __NR_indirect;
}

/* Point the filters at @pid, with @nr the call's number. */
static void filter_on(pid_t pid, long nr)
{
	char raw[128], own[64];

	snprintf(raw, sizeof(raw), "common_pid == %d && (id == %ld || id == %d)",
		 pid, nr, __NR_indirect);
	snprintf(own, sizeof(own), "common_pid == %d", pid);
	if (event_filter(RAW_ENTER, raw) || event_filter(RAW_EXIT, raw) ||
	    (have_openat_events &&
	     (event_filter(OPENAT_ENTER, own) || event_filter(OPENAT_EXIT, own))))
		ksft_exit_fail_msg("cannot set the filters \"%s\": %s\n", raw,
				   strerror(errno));
}

/*
 * Make @row's call directly or through indirect() in a child, and note
 * what the child printed and what the call returned.
 */
static void traced_run(const struct text_row *row, bool via_indirect,
		       struct run *run)
{
	static long *result;
	struct seccomp_match m = { .nr = row->nr };
	int go[2];
	pid_t pid;
	char c;

	if (!result)
		result = shared_alloc(sizeof(*result));
	*result = -ECHILD;
	if (pipe(go))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		close(go[1]);
		alarm(20);
		if (row->seccomp_errno &&
		    seccomp_install_match(&m, SECCOMP_RET_ERRNO | EPERM, 0) < 0)
			_exit(2);
		if (read(go[0], &c, 1) != 1)
			_exit(3);
		*result = via_indirect ?
			  indirect_result(row->nr, NULL, 0, row->params) :
			  direct_call(row->nr, row->params);
		_exit(0);
	}
	close(go[0]);
	filter_on(pid, row->nr);
	if (tracefs_write("trace", ""))
		ksft_exit_fail_msg("cannot clear the trace: %s\n",
				   strerror(errno));
	if (write(go[1], "g", 1) != 1)
		ksft_exit_fail_msg("write: %s\n", strerror(errno));
	close(go[1]);
	if (waitpid(pid, &run->status, 0) != pid)
		ksft_exit_fail_msg("waitpid: %s\n", strerror(errno));
	run->ret = *result;
	collect_lines(tracefs_read_trace(), pid, run);
	if (run->status)
		ksft_print_msg("%s: the %s child ended with status %#x\n",
			       row->name, via_indirect ? "indirect" : "direct",
			       run->status);
}

static void print_run(const char *what, const struct run *run)
{
	int i;

	ksft_print_msg("%s: result %ld, %d lines%s\n", what, run->ret, run->n,
		       run->truncated ? " (and more)" : "");
	for (i = 0; i < run->n; i++)
		ksft_print_msg("  %s\n", run->lines[i]);
}

/*
 * Outer sys_enter first, outer sys_exit last with the call's result, no
 * other line of indirect()'s, and the inner sys_enter, if any, before the
 * inner sys_exit. 1 if so.
 */
static long nested(const struct run *run)
{
	unsigned long long args[INDIRECT_NR_PARAMS];
	long long nr, ret;
	int i, outer = 0, enter_at = -1, exit_at = -1;

	if (run->n < 2 || run->truncated ||
	    !parse_enter(run->lines[0], &nr, args) || nr != __NR_indirect ||
	    !parse_exit(run->lines[run->n - 1], &nr, &ret) ||
	    nr != __NR_indirect || (long)ret != run->ret)
		return 0;
	for (i = 0; i < run->n; i++) {
		if (is_outer(run->lines[i]))
			outer++;
		else if (parse_enter(run->lines[i], &nr, args) && enter_at < 0)
			enter_at = i;
		else if (parse_exit(run->lines[i], &nr, &ret) && exit_at < 0)
			exit_at = i;
	}
	return outer == 2 && (enter_at < 0 || exit_at < 0 || enter_at < exit_at);
}

/*
 * How many inner raw sys_enter lines name @row's call with its six
 * arguments, less 1 for each other inner sys_enter line: the expected
 * count when there is one such line and nothing else.
 */
static long inner_enters(const struct text_row *row, const struct run *run)
{
	unsigned long long args[INDIRECT_NR_PARAMS];
	long long nr;
	long good = 0, bad = 0;
	int i, j;

	for (i = 0; i < run->n; i++) {
		if (is_outer(run->lines[i]) ||
		    !parse_enter(run->lines[i], &nr, args))
			continue;
		/* As the ABI's unsigned long: compat args are zero-extended. */
		for (j = 0; j < INDIRECT_NR_PARAMS; j++)
			if ((unsigned long)args[j] != row->params[j])
				break;
		if (nr == row->nr && j == INDIRECT_NR_PARAMS)
			good++;
		else
			bad++;
	}
	return bad ? -bad : good;
}

/* The same for inner raw sys_exit lines, which must give @ret. */
static long inner_exits(const struct text_row *row, const struct run *run,
			long ret_expected)
{
	long long nr, ret;
	long good = 0, bad = 0;
	int i;

	for (i = 0; i < run->n; i++) {
		if (is_outer(run->lines[i]) ||
		    !parse_exit(run->lines[i], &nr, &ret))
			continue;
		if (nr == row->nr && (long)ret == ret_expected)
			good++;
		else
			bad++;
	}
	return bad ? -bad : good;
}

/*
 * Are the inner lines of @via_indirect, those that are not indirect()'s,
 * the lines of @direct (none for NULL), in the same order? 1 if so.
 */
static long inner_as_direct(const struct run *via_indirect,
			    const struct run *direct)
{
	int i, k = 0, n = direct ? direct->n : 0;

	if (via_indirect->truncated || (direct && direct->truncated))
		return 0;
	for (i = 0; i < via_indirect->n; i++) {
		if (is_outer(via_indirect->lines[i]))
			continue;
		if (k == n || strcmp(via_indirect->lines[i], direct->lines[k]))
			return 0;
		k++;
	}
	return k == n;
}

static void check_text(void)
{
	static struct run direct, via_indirect;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(text_rows); i++) {
		const struct text_row *row = &text_rows[i];
		long expected;
		char name[96];
		int fails = ksft_get_fail_cnt();

		memset(&direct, 0, sizeof(direct));
		if (!row->blacklisted)
			traced_run(row, false, &direct);
		traced_run(row, true, &via_indirect);

		if (row->blacklisted)
			expected = -EINVAL;
		else if (row->seccomp_errno)
			expected = -EPERM;
		else
			expected = direct.ret;
		snprintf(name, sizeof(name), "%s_result", row->name);
		check_long(name, expected, via_indirect.ret);
		snprintf(name, sizeof(name), "%s_nested_in_indirect_events",
			 row->name);
		check_long(name, 1, nested(&via_indirect));
		snprintf(name, sizeof(name), "%s_inner_sys_enter_%s", row->name,
			 row->enters ? "names_the_call_and_its_args" : "absent");
		check_long(name, row->enters, inner_enters(row, &via_indirect));
		snprintf(name, sizeof(name), "%s_inner_sys_exit_%s", row->name,
			 row->exits ? "gives_its_result" : "absent");
		check_long(name, row->exits,
			   inner_exits(row, &via_indirect, expected));
		snprintf(name, sizeof(name), "%s_inner_events_%s", row->name,
			 row->blacklisted ? "none" : "as_direct");
		check_long(name, 1, inner_as_direct(&via_indirect,
						    row->blacklisted ? NULL :
						    &direct));
		if (ksft_get_fail_cnt() != fails) {
			if (!row->blacklisted)
				print_run("direct", &direct);
			print_run("indirect", &via_indirect);
		}
	}
}

static void events_off(void)
{
	event_enable(RAW_ENTER, 0);
	event_enable(RAW_EXIT, 0);
	event_filter(RAW_ENTER, "0");
	event_filter(RAW_EXIT, "0");
	if (have_openat_events) {
		event_enable(OPENAT_ENTER, 0);
		event_enable(OPENAT_EXIT, 0);
		event_filter(OPENAT_ENTER, "0");
		event_filter(OPENAT_EXIT, "0");
	}
	tracefs_write("trace", "");
}

int main(void)
{
	ksft_print_header();
	indirect_require();
	if (getuid())
		ksft_exit_skip("needs root, for tracefs and tracepoint counters\n");

	mkdir(TRACEFS, 0755);
	if (access(TRACEFS "/events", F_OK) &&
	    mount("tracefs", TRACEFS, "tracefs", 0, NULL))
		ksft_exit_skip("no tracefs at " TRACEFS ": %s\n",
			       strerror(errno));
	if (!event_exists(RAW_ENTER) || !event_exists(RAW_EXIT))
		ksft_exit_skip("no raw_syscalls events (CONFIG_FTRACE_SYSCALLS)\n");
	have_openat_events = event_exists(OPENAT_ENTER) &&
			     event_exists(OPENAT_EXIT);
	if (!have_openat_events)
		ksft_print_msg("no syscalls:sys_enter_openat events: raw_syscalls only\n");
	open_params[1] = (unsigned long)open_path;
	stay_on_this_cpu();

	ksft_set_plan(2 * ARRAY_SIZE(counted_events) + 5 * ARRAY_SIZE(text_rows));
	ksft_print_msg("openat is %d, indirect %d on ABI %s%s\n", __NR_openat,
		       __NR_indirect, HARNESS_BUILD_ABI,
		       compat_task() ? " (compat)" : "");

	check_perf();

	/* Every event on, filtered on no task until a run points it at one. */
	if (tracefs_write("tracing_on", "1"))
		ksft_exit_fail_msg("cannot turn tracing on: %s\n",
				   strerror(errno));
	filter_on(0, __NR_openat);
	if (event_enable(RAW_ENTER, 1) || event_enable(RAW_EXIT, 1) ||
	    (have_openat_events &&
	     (event_enable(OPENAT_ENTER, 1) || event_enable(OPENAT_EXIT, 1)))) {
		events_off();
		ksft_exit_fail_msg("cannot enable the events: %s\n",
				   strerror(errno));
	}
	check_text();
	events_off();
	ksft_finished();
}
