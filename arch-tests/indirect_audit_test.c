// SPDX-License-Identifier: GPL-2.0
/*
 * Audit sees the inner call of indirect(). The test is the audit daemon:
 * over NETLINK_AUDIT it enables auditing, registers itself for the
 * records and adds exit rules; a child makes the calls, directly and
 * through indirect(), and the test reads the records of its events.
 *
 *  - a rule on the inner call's number and ABI fires once for each call,
 *    and the event of indirect(openat) has the records of the direct
 *    openat, field for field, and one AUDIT_INDIRECT record more, which
 *    names indirect() and its arguments;
 *  - a rule on a call that the child does not make does not fire;
 *  - -F exit= and -F a2= match the inner call's result and arguments;
 *  - a rule on indirect() itself fires for an inner call and for a call
 *    that indirect() refuses, whose event is indirect()'s own, and still
 *    does under a "never" rule on the inner call;
 *  - a watch with a permission filter (auditctl -w path -p r), which
 *    classifies a call by its number and flags, sees the inner openat;
 *  - the operation of an io_uring_enter() made through indirect() is
 *    recorded under a rule on io_uring_enter, as a direct one is, and
 *    under a rule on indirect().
 *
 * kauditd sends the records after the calls. Each child ends with a call
 * that a rule keyed "sentinel" records: an event that has not come when
 * the sentinel's has did not happen.
 */
#include <linux/io_uring.h>
#include "indirect_test.h"
#include "audit_events.h"

/*
 * What auditctl -w @path -p @perm -k @key adds: an exit rule on every
 * syscall of every ABI, for the inode of @path and the calls that
 * access it as @perm says.
 */
static void rule_init_watch(struct rule *r, const char *path,
			    unsigned int perm, const char *key)
{
	rule_begin(r, -1);
	rule_field(r, AUDIT_WATCH, strlen(path), path);
	rule_where(r, AUDIT_PERM, perm);
	rule_field(r, AUDIT_FILTERKEY, strlen(key), key);
}

static long indirect_openat(const char *path, int flags)
{
	unsigned long params[INDIRECT_NR_PARAMS] = {
		(unsigned long)AT_FDCWD, (unsigned long)path, flags,
	};

	return indirect_result(__NR_openat, NULL, 0, params);
}

static long direct_openat(const char *path, int flags)
{
	/*
	 * The very words that indirect_openat() passes, mode 0 included:
	 * an int AT_FDCWD would leave the upper half of a 64-bit register
	 * clear, and audit prints a0 whole.
	 */
	long ret = syscall(__NR_openat, (unsigned long)AT_FDCWD,
			   (unsigned long)path, (unsigned long)flags, 0UL);

	return ret == -1 ? -errno : ret;
}

/* What a child does; then it calls getppid(), the sentinel. */
enum child_calls {
	OPEN_BOTH,		/* openat, then indirect(openat), same fd */
	OPEN_MISSING_BOTH,	/* both, on a path that does not exist */
	INDIRECT_ONLY,		/* openat, indirect(openat, O_NOCTTY), and
				 * indirect(indirect), which is refused */
	URING_BOTH,		/* io_uring_enter(), then indirect() of it,
				 * each to close a descriptor */
};

/* The submission side of an io_uring, set up without liburing. */
struct ring {
	int fd;
	unsigned int *tail, *mask, *array;
	struct io_uring_sqe *sqes;
};

static void child_fail(const char *what)
{
	ksft_print_msg("child: %s: %s\n", what, strerror(errno));
	_exit(1);
}

static void ring_setup(struct ring *ring)
{
	struct io_uring_params p;
	char *sq;

	memset(&p, 0, sizeof(p));
	ring->fd = syscall(__NR_io_uring_setup, 4, &p);
	if (ring->fd < 0)
		child_fail("io_uring_setup");
	sq = mmap(NULL, p.sq_off.array + p.sq_entries * sizeof(unsigned int),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring->fd,
		  IORING_OFF_SQ_RING);
	ring->sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe),
			  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
			  ring->fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || ring->sqes == MAP_FAILED)
		child_fail("mmap of the io_uring");
	ring->tail = (unsigned int *)(sq + p.sq_off.tail);
	ring->mask = (unsigned int *)(sq + p.sq_off.ring_mask);
	ring->array = (unsigned int *)(sq + p.sq_off.array);
}

/*
 * Queue an IORING_OP_CLOSE of a new descriptor of the probe: it runs
 * inline in io_uring_enter(), and audit names it (unlike a NOP).
 */
static void ring_queue_close(struct ring *ring)
{
	unsigned int tail = *ring->tail, i = tail & *ring->mask;
	int fd = open(probe_path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		child_fail("open of the probe");
	memset(&ring->sqes[i], 0, sizeof(ring->sqes[i]));
	ring->sqes[i].opcode = IORING_OP_CLOSE;
	ring->sqes[i].fd = fd;
	ring->array[i] = i;
	__atomic_store_n(ring->tail, tail + 1, __ATOMIC_RELEASE);
}

/* Submit what is queued, directly and through indirect(). */
static void ring_submit_both(struct ring *ring)
{
	unsigned long params[INDIRECT_NR_PARAMS] = { ring->fd, 1 };

	ring_queue_close(ring);
	if (syscall(__NR_io_uring_enter, (unsigned long)ring->fd, 1UL, 0UL,
		    0UL, 0UL, 0UL) != 1)
		child_fail("io_uring_enter");
	ring_queue_close(ring);
	if (indirect_result(__NR_io_uring_enter, NULL, 0, params) != 1)
		child_fail("indirect(io_uring_enter)");
}

static void child_run(unsigned int calls)
{
	unsigned long self[INDIRECT_NR_PARAMS] = { __NR_getppid };
	struct ring ring;
	char missing[80];
	long fd;

	snprintf(missing, sizeof(missing), "%s-missing", probe_path);
	switch (calls) {
	case OPEN_BOTH:
		fd = direct_openat(probe_path, O_RDONLY);
		close(fd);
		fd = indirect_openat(probe_path, O_RDONLY);
		close(fd);
		break;
	case OPEN_MISSING_BOTH:
		direct_openat(missing, O_RDONLY);
		indirect_openat(missing, O_RDONLY);
		break;
	case INDIRECT_ONLY:
		fd = direct_openat(probe_path, O_RDONLY);
		close(fd);
		fd = indirect_openat(probe_path, O_RDONLY | O_NOCTTY);
		close(fd);
		indirect_result(__NR_indirect, NULL, 0, self);
		break;
	case URING_BOTH:
		ring_setup(&ring);
		ring_submit_both(&ring);
		break;
	}
	syscall(__NR_getppid);
	_exit(0);
}

/* A rule on openat fires for the direct and the indirect call alike. */
static void check_inner_rule(void)
{
	unsigned int serials[4];
	char hex[32];

	if (!two_events("inner_rule_fires_once_per_call", __NR_openat, "inner",
			OPEN_BOTH, serials, 5))
		return;
	check_long("inner_rule_direct_has_no_marker", 0,
		   record_of(serials[0], AUDIT_INDIRECT) != NULL);
	snprintf(hex, sizeof(hex), "%d", __NR_indirect);
	check_field("inner_rule_indirect_marker",
		    record_of(serials[1], AUDIT_INDIRECT), "syscall", hex);
	snprintf(hex, sizeof(hex), "%x", __NR_openat);
	check_field("inner_rule_indirect_marker",
		    record_of(serials[1], AUDIT_INDIRECT), "a0", hex);
	check_same_records("inner_rule", serials[0], serials[1]);
}

/* A rule on a call that the child does not make stays silent. */
static void check_other_rule(void)
{
	unsigned int serials[4];
	struct rule r;
	pid_t pid;

	rule_init(&r, __NR_mknodat, "other");
	pid = run_case("other_rule", OPEN_BOTH, &r, 1);
	check_long("other_rule_silent", 0, events(pid, "other", serials, 4));
}

/* -F exit= and -F a2= see the inner call's result and arguments. */
static void check_field_filters(void)
{
	unsigned int serials[4], n;
	struct rule r[2];
	char hex[32];
	pid_t pid;

	rule_init(&r[0], __NR_openat, "enoent");
	rule_where(&r[0], AUDIT_EXIT, (unsigned int)-ENOENT);
	pid = run_case("exit_filter", OPEN_MISSING_BOTH, r, 1);
	n = events(pid, "enoent", serials, 4);
	check_long("exit_filter_fires_for_both", 2, n);
	if (n == 2)
		check_same_records("exit_filter", serials[0], serials[1]);
	else
		skip_results("exit_filter_records", 2);

	rule_init(&r[1], __NR_openat, "noctty");
	rule_where(&r[1], AUDIT_ARG2, O_RDONLY | O_NOCTTY);
	pid = run_case("a2_filter", INDIRECT_ONLY, &r[1], 1);
	n = events(pid, "noctty", serials, 4);
	/* Only the indirect openat had O_NOCTTY. */
	check_long("a2_filter_fires_for_its_flags_only", 1, n);
	snprintf(hex, sizeof(hex), "%x", O_RDONLY | O_NOCTTY);
	check_field("a2_filter", n ? record_of(serials[0], AUDIT_SYSCALL) : NULL,
		    "a2", hex);
	check_long("a2_filter_event_marked", 1,
		   n && record_of(serials[0], AUDIT_INDIRECT));
}

/* A rule on indirect() fires for its calls, inner or refused. */
static void check_outer_rule(void)
{
	unsigned int serials[4];
	const struct record *sys;
	char num[32];

	if (!two_events("outer_rule_fires_for_both_calls", __NR_indirect,
			"outer", INDIRECT_ONLY, serials, 5))
		return;
	/* indirect(openat): the event names openat, the marker indirect(). */
	sys = record_of(serials[0], AUDIT_SYSCALL);
	snprintf(num, sizeof(num), "%d", __NR_openat);
	check_field("outer_rule_inner_call", sys, "syscall", num);
	snprintf(num, sizeof(num), "%d", __NR_indirect);
	check_field("outer_rule_inner_call_marker",
		    record_of(serials[0], AUDIT_INDIRECT), "syscall", num);
	/* indirect(indirect), refused: indirect()'s own event, unmarked. */
	sys = record_of(serials[1], AUDIT_SYSCALL);
	check_field("outer_rule_refused_call", sys, "syscall", num);
	check_field("outer_rule_refused_call", sys, "exit", "-22");
	check_long("outer_rule_refused_call_unmarked", 0,
		   record_of(serials[1], AUDIT_INDIRECT) != NULL);
}

/*
 * A "never" rule on the inner call above an "always" rule on indirect():
 * the direct openat is not recorded, but every call of indirect() is,
 * whatever its inner call.
 */
static void check_never_inner_rule(void)
{
	unsigned int serials[4];
	struct rule r[2];
	pid_t pid;

	rule_init(&r[0], __NR_openat, "quiet");
	r[0].data.action = AUDIT_NEVER;
	rule_init(&r[1], __NR_indirect, "every_indirect");
	pid = run_case("never_inner_rule", INDIRECT_ONLY, r, 2);
	check_long("never_inner_rule_hides_openat", 0,
		   events(pid, "quiet", serials, 4));
	check_long("never_inner_rule_keeps_indirect_rule", 2,
		   events(pid, "every_indirect", serials, 4));
}

/*
 * auditctl -w probe -p r: the watch sees the inode in both events, and
 * the permission filter, which classifies a call by its number, a read
 * open in both.
 */
static void check_watch_rule(void)
{
	unsigned int serials[4], n;
	struct rule r;
	pid_t pid;

	rule_init_watch(&r, probe_path, AUDIT_PERM_READ, "watch_read");
	pid = run_case("watch_rule", OPEN_BOTH, &r, 1);
	n = events(pid, "watch_read", serials, 4);
	check_long("watch_rule_fires_for_both_reads", 2, n);
	if (n == 2)
		check_same_records("watch_rule", serials[0], serials[1]);
	else
		skip_results("watch_rule_records", 2);
}

/*
 * The operation that an io_uring_enter() runs inline is recorded in the
 * syscall's event (AUDIT_URINGOP) when a rule records the syscall: a rule
 * on io_uring_enter sees it in both events, and one on indirect() in the
 * event of the indirect call.
 */
static void check_uring(void)
{
	unsigned int serials[4], n;
	struct rule r;
	pid_t pid;

	if (two_events("uring_inner_rule_fires_once_per_call",
		       __NR_io_uring_enter, "uring_inner", URING_BOTH, serials,
		       3)) {
		check_long("uring_inner_rule_indirect_has_op", 1,
			   record_of(serials[1], AUDIT_URINGOP) != NULL);
		check_same_records("uring_inner_rule", serials[0], serials[1]);
	}

	rule_init(&r, __NR_indirect, "uring_outer");
	pid = run_case("uring_outer_rule", URING_BOTH, &r, 1);
	n = events(pid, "uring_outer", serials, 4);
	check_long("uring_outer_rule_fires_for_indirect_only", 1, n);
	check_long("uring_outer_rule_has_op", 1,
		   n == 1 && record_of(serials[0], AUDIT_URINGOP));
}

int main(void)
{
	ksft_print_header();
	indirect_require();
	audit_events_start();

	ksft_set_plan(30);
	check_inner_rule();
	check_other_rule();
	check_field_filters();
	check_outer_rule();
	check_never_inner_rule();
	check_watch_rule();
	check_uring();

	audit_events_stop();
	ksft_finished();
}
