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
 *    that indirect() refuses or that seccomp answers, whose event is
 *    indirect()'s own and unmarked, unseen by a rule on the inner call;
 *    the marker gives the number of contexts and their kinds;
 *  - the first rule that matches the inner call or indirect() decides,
 *    with its action ("never" too) and its key, whichever comes first;
 *  - with no rule at all, a record written during the inner call (the
 *    CONFIG_CHANGE of an audit setting sent through indirect(sendto))
 *    makes an event that names the inner call, as the direct call's
 *    names it, and the next event is not marked;
 *  - a watch with a permission filter (auditctl -w path -p r), which
 *    classifies a call by its number and flags, sees the inner openat;
 *  - the operation of an io_uring_enter() made through indirect() is
 *    recorded under a rule on io_uring_enter, as a direct one is, and
 *    under a rule on indirect().
 *
 * kauditd sends the records after the calls. Each child ends with a call
 * that a rule keyed "sentinel" records (or, with no rule, a last
 * message): an event that has not come when the sentinel's has did not
 * happen.
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

/* An empty signal mask, the second context of a call with two. */
static struct sysind_ctx_SIGMASK no_mask_ctx = {
	.ctx = SYSIND_CTX_SIGMASK,
	.sigsetsize = 8,
};

/* indirect(openat), with @nctxs of OPENFLAGS and SIGMASK, in that order. */
static long indirect_openat(const char *path, int flags, unsigned int nctxs)
{
	const struct indirect_ctx *ctxs[] = {
		(const struct indirect_ctx *)&cloexec_ctx,
		(const struct indirect_ctx *)&no_mask_ctx,
	};
	unsigned long params[INDIRECT_NR_PARAMS] = {
		(unsigned long)AT_FDCWD, (unsigned long)path, flags,
	};

	return indirect_result(__NR_openat, nctxs ? ctxs : NULL, nctxs,
			       params);
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
	INDIRECT_ONLY,		/* openat, indirect(openat, O_NOCTTY) with
				 * OPENFLAGS and SIGMASK contexts, and
				 * indirect(indirect), which is refused */
	SECCOMP_SKIPS,		/* indirect(mknodat), which a filter answers
				 * with EPERM */
	CONFIG_BOTH,		/* an audit setting sent directly, then
				 * through indirect(), then directly; the
				 * sentinel is an AUDIT_USER message */
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

/*
 * Send a netlink message of @type with @len bytes of @payload to audit,
 * on @fd; through indirect() if @indirect. No answer is asked for.
 */
static void audit_send(int fd, int type, const void *payload, size_t len,
		       bool indirect)
{
	char buf[NLMSG_SPACE(sizeof(struct audit_status))] = { 0 };
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	unsigned long params[INDIRECT_NR_PARAMS] = { fd, (unsigned long)buf };
	long ret;

	nlh->nlmsg_len = NLMSG_LENGTH(len);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	memcpy(NLMSG_DATA(nlh), payload, len);
	params[2] = nlh->nlmsg_len;
	ret = indirect ? indirect_result(__NR_sendto, NULL, 0, params) :
			 direct_call(__NR_sendto, params);
	if (ret != (long)nlh->nlmsg_len)
		child_fail("sendto of an audit message");
}

/* The text of the AUDIT_USER message that ends the events of @pid. */
static void user_sentinel(char *buf, size_t size, pid_t pid)
{
	snprintf(buf, size, "indirect-audit-sentinel-%d", pid);
}

/*
 * Set the rate limit to what it is, 0, directly, through indirect(), and
 * directly again: audit writes a CONFIG_CHANGE record in the context of
 * each sendto(), which makes even a dummy context write its event. Then
 * the sentinel, an AUDIT_USER message, whose record has no syscall.
 */
static void config_send_all(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	struct audit_status same = { .mask = AUDIT_STATUS_RATE_LIMIT };
	char text[64];

	if (fd < 0)
		child_fail("socket(NETLINK_AUDIT)");
	audit_send(fd, AUDIT_SET, &same, sizeof(same), false);
	audit_send(fd, AUDIT_SET, &same, sizeof(same), true);
	audit_send(fd, AUDIT_SET, &same, sizeof(same), false);
	user_sentinel(text, sizeof(text), getpid());
	audit_send(fd, AUDIT_USER, text, strlen(text) + 1, false);
	close(fd);
}

/* indirect(mknodat(@path)) under a filter that answers it EPERM. */
static void seccomp_skipped_call(const char *path)
{
	struct seccomp_match m = { .nr = __NR_mknodat };
	unsigned long params[INDIRECT_NR_PARAMS] = {
		(unsigned long)AT_FDCWD, (unsigned long)path, S_IFIFO | 0600,
	};

	if (seccomp_install_match(&m, SECCOMP_RET_ERRNO | EPERM, 0) < 0)
		child_fail("seccomp");
	if (indirect_result(__NR_mknodat, NULL, 0, params) != -EPERM)
		child_fail("indirect(mknodat) under SECCOMP_RET_ERRNO");
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
		fd = indirect_openat(probe_path, O_RDONLY, 0);
		close(fd);
		break;
	case OPEN_MISSING_BOTH:
		direct_openat(missing, O_RDONLY);
		indirect_openat(missing, O_RDONLY, 0);
		break;
	case INDIRECT_ONLY:
		fd = direct_openat(probe_path, O_RDONLY);
		close(fd);
		fd = indirect_openat(probe_path, O_RDONLY | O_NOCTTY, 2);
		close(fd);
		indirect_result(__NR_indirect, NULL, 0, self);
		break;
	case SECCOMP_SKIPS:
		seccomp_skipped_call(missing);
		break;
	case CONFIG_BOTH:
		config_send_all();
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
			"outer", INDIRECT_ONLY, serials, 7))
		return;
	/* indirect(openat): the event names openat, the marker indirect(). */
	sys = record_of(serials[0], AUDIT_SYSCALL);
	snprintf(num, sizeof(num), "%d", __NR_openat);
	check_field("outer_rule_inner_call", sys, "syscall", num);
	snprintf(num, sizeof(num), "%d", __NR_indirect);
	check_field("outer_rule_inner_call_marker",
		    record_of(serials[0], AUDIT_INDIRECT), "syscall", num);
	/* OPENFLAGS and SIGMASK: a2 and the kinds, BIT(SYSIND_CTX_*). */
	check_field("outer_rule_inner_call_marker",
		    record_of(serials[0], AUDIT_INDIRECT), "a2", "2");
	snprintf(num, sizeof(num), "%x",
		 1U << SYSIND_CTX_OPENFLAGS | 1U << SYSIND_CTX_SIGMASK);
	check_field("outer_rule_inner_call_marker",
		    record_of(serials[0], AUDIT_INDIRECT), "kinds", num);
	snprintf(num, sizeof(num), "%d", __NR_indirect);
	/* indirect(indirect), refused: indirect()'s own event, unmarked. */
	sys = record_of(serials[1], AUDIT_SYSCALL);
	check_field("outer_rule_refused_call", sys, "syscall", num);
	check_field("outer_rule_refused_call", sys, "exit", "-22");
	check_long("outer_rule_refused_call_unmarked", 0,
		   record_of(serials[1], AUDIT_INDIRECT) != NULL);
}

/* How many of @pid's events keyed @key name openat. */
static unsigned int openat_events(pid_t pid, const char *key)
{
	unsigned int serials[RECORDS_MAX], i, n, openats = 0;
	char num[32], value[32];
	const struct record *sys;

	snprintf(num, sizeof(num), "%d", __NR_openat);
	n = events(pid, key, serials, RECORDS_MAX);
	for (i = 0; i < n; i++) {
		sys = record_of(serials[i], AUDIT_SYSCALL);
		if (sys && !strcmp(field(sys->text, "syscall", value,
					 sizeof(value)), num))
			openats++;
	}
	return openats;
}

/*
 * Rules @first and @second, in that order, on syscalls @nr_first and
 * @nr_second, whose actions are AUDIT_ALWAYS but where @never says; a
 * child makes @calls. How many events each rule's key has.
 */
static void run_two_rules(long nr_first, const char *first, long nr_second,
			  const char *second, int never, unsigned int calls,
			  unsigned int *n_first, unsigned int *n_second)
{
	unsigned int serials[4];
	struct rule r[2];
	pid_t pid;

	rule_init(&r[0], nr_first, first);
	rule_init(&r[1], nr_second, second);
	if (never >= 0)
		r[never].data.action = AUDIT_NEVER;
	pid = run_case(first, calls, r, 2);
	*n_first = events(pid, first, serials, 4);
	*n_second = events(pid, second, serials, 4);
}

/*
 * The event of an inner call is judged by the first rule that matches the
 * inner call or indirect() itself, with its action and key, as audit
 * judges any syscall by its first matching rule.
 */
static void check_rule_order(void)
{
	unsigned int serials[4], n1, n2;
	struct rule r;
	pid_t pid;

	/* indirect()'s rule first: it keys the indirect openat. */
	run_two_rules(__NR_indirect, "outer_first", __NR_openat, "inner_second",
		      -1, OPEN_BOTH, &n1, &n2);
	check_long("outer_rule_first_keys_indirect_call", 1, n1);
	check_long("outer_rule_first_inner_rule_keys_direct_call", 1, n2);
	/* The inner call's rule first: it keys both. */
	run_two_rules(__NR_openat, "inner_first", __NR_indirect, "outer_second",
		      -1, OPEN_BOTH, &n1, &n2);
	check_long("inner_rule_first_keys_both_calls", 2, n1);
	check_long("inner_rule_first_outer_rule_silent", 0, n2);
	/*
	 * "never" on openat above a rule on indirect(): neither openat is
	 * recorded; indirect(indirect), which is refused, is.
	 */
	run_two_rules(__NR_openat, "never_inner", __NR_indirect, "every_indirect",
		      0, INDIRECT_ONLY, &n1, &n2);
	check_long("never_inner_rule_first_hides_openat", 0, n1);
	check_long("never_inner_rule_first_leaves_refused_call", 1, n2);
	/* A rule on indirect() above "never" on openat: both its calls. */
	run_two_rules(__NR_indirect, "every_indirect", __NR_openat, "never_after",
		      1, INDIRECT_ONLY, &n1, &n2);
	check_long("indirect_rule_first_records_every_call", 2, n1);
	/* "never" on indirect() above a rule on openat: the direct one. */
	run_two_rules(__NR_indirect, "never_outer", __NR_openat, "open_after",
		      0, OPEN_BOTH, &n1, &n2);
	check_long("never_outer_rule_first_leaves_direct_openat", 1, n2);

	/* -F a0= on indirect() sees its own a0, the inner call's number. */
	rule_init(&r, __NR_indirect, "outer_a0");
	rule_where(&r, AUDIT_ARG0, __NR_openat);
	pid = run_case("outer_a0", INDIRECT_ONLY, &r, 1);
	check_long("outer_a0_filter_fires_for_openat_only", 1,
		   events(pid, "outer_a0", serials, 4));

	/*
	 * A rule on every syscall names openat: it judges the inner openat
	 * alone, whose a0 is AT_FDCWD, as it judges the direct one, and
	 * not indirect()'s a0, the number of openat.
	 */
	rule_init(&r, -1, "all_syscalls_a0");
	rule_where(&r, AUDIT_ARG0, __NR_openat);
	pid = run_case("all_syscalls_a0", OPEN_BOTH, &r, 1);
	check_long("all_syscalls_rule_judges_inner_call_only", 0,
		   openat_events(pid, "all_syscalls_a0"));

	/* A watch on indirect() alone: the inode list judges indirect(). */
	rule_begin(&r, __NR_indirect);
	rule_where(&r, AUDIT_ARCH, INDIRECT_AUDIT_ARCH);
	rule_field(&r, AUDIT_WATCH, strlen(probe_path), probe_path);
	rule_field(&r, AUDIT_FILTERKEY, strlen("outer_watch"), "outer_watch");
	pid = run_case("outer_watch", OPEN_BOTH, &r, 1);
	check_long("outer_watch_rule_fires_for_indirect_only", 1,
		   openat_events(pid, "outer_watch"));
}

/*
 * A call that seccomp answers does not run: its event is indirect()'s,
 * unmarked, and a rule on the inner call does not see it.
 */
static void check_seccomp_skipped(void)
{
	unsigned int serials[4], n;
	const struct record *sys;
	struct rule r[2];
	char num[32];
	pid_t pid;

	rule_init(&r[0], __NR_mknodat, "skipped_inner");
	rule_init(&r[1], __NR_indirect, "skipped_outer");
	pid = run_case("seccomp_skipped", SECCOMP_SKIPS, r, 2);
	check_long("seccomp_skipped_inner_rule_silent", 0,
		   events(pid, "skipped_inner", serials, 4));
	n = events(pid, "skipped_outer", serials, 4);
	check_long("seccomp_skipped_outer_rule_fires", 1, n);
	sys = n == 1 ? record_of(serials[0], AUDIT_SYSCALL) : NULL;
	snprintf(num, sizeof(num), "%d", __NR_indirect);
	check_field("seccomp_skipped_call", sys, "syscall", num);
	check_field("seccomp_skipped_call", sys, "exit", "-1");
	check_long("seccomp_skipped_call_unmarked", 0,
		   n != 1 || record_of(serials[0], AUDIT_INDIRECT) != NULL);
}

/*
 * With no rule at all, a task's context is dummy and writes no event,
 * unless a record is written in it during the syscall: then the SYSCALL
 * record follows. An audit setting sent through indirect(sendto) makes
 * such an event, which must name the inner sendto() as the direct one's
 * does; the next event must not be marked.
 */
static void check_no_rule_event(void)
{
	unsigned int serials[3], i, n = 0;
	char sentinel[64], num[32];
	pid_t pid;

	pid = child_wait(CONFIG_BOTH);
	user_sentinel(sentinel, sizeof(sentinel), pid);
	if (collect_until(AUDIT_USER, sentinel, NULL))
		ksft_print_msg("no_rule: the records are incomplete\n");
	/* Only the child changes settings while it runs. */
	for (i = 0; i < nrecords; i++)
		if (records[i].type == AUDIT_CONFIG_CHANGE &&
		    strstr(records[i].text, "op=set audit_rate_limit=0 ") &&
		    n < 3)
			serials[n++] = records[i].serial;
	check_long("no_rule_config_events", 3, n);
	if (n != 3) {
		skip_results("no_rule", 5);
		return;
	}
	snprintf(num, sizeof(num), "%d", __NR_sendto);
	check_field("no_rule_indirect_event",
		    record_of(serials[1], AUDIT_SYSCALL), "syscall", num);
	check_long("no_rule_indirect_event_marked", 1,
		   record_of(serials[1], AUDIT_INDIRECT) != NULL);
	check_same_records("no_rule", serials[0], serials[1]);
	check_field("no_rule_next_event",
		    record_of(serials[2], AUDIT_SYSCALL), "syscall", num);
	check_long("no_rule_next_event_unmarked", 0,
		   record_of(serials[2], AUDIT_INDIRECT) != NULL);
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

	ksft_set_plan(53);
	check_inner_rule();
	check_other_rule();
	check_field_filters();
	check_outer_rule();
	check_rule_order();
	check_seccomp_skipped();
	check_no_rule_event();
	check_watch_rule();
	check_uring();

	audit_events_stop();
	ksft_finished();
}
