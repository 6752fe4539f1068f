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
#include <poll.h>
#include <linux/io_uring.h>
#include <linux/netlink.h>
#include "indirect_test.h"
#include "audit_daemon.h"

#define RECORD_MAX	AUDIT_DAEMON_RECORD_MAX
#define RECORDS_MAX	64
/* Under TCG, kauditd may take a while; a missing sentinel fails after. */
#define RECORD_WAIT_MS	20000

struct record {
	int type;
	unsigned int serial;
	char text[RECORD_MAX];	/* what follows "audit(...): " */
};

static struct record records[RECORDS_MAX];
static unsigned int nrecords;
static char probe_path[64];

/* An audit rule, with room for its strings. */
struct rule {
	struct audit_rule_data data;
	char strings[128];	/* data.buf: a watch's path, then the key */
};

/*
 * A further field: @field (AUDIT_EXIT, AUDIT_ARG2, ...) equal to @value;
 * for a string field, @str, which goes into the rule's buffer, and
 * @value is its length.
 */
static void rule_field(struct rule *r, unsigned int field, unsigned int value,
		       const char *str)
{
	unsigned int i = r->data.field_count++;

	r->data.fields[i] = field;
	r->data.fieldflags[i] = AUDIT_EQUAL;
	r->data.values[i] = value;
	if (!str)
		return;
	if (r->data.buflen + value > sizeof(r->strings))
		ksft_exit_fail_msg("rule string %s too long\n", str);
	memcpy(r->data.buf + r->data.buflen, str, value);
	r->data.buflen += value;
}

static void rule_where(struct rule *r, unsigned int field, unsigned int value)
{
	rule_field(r, field, value, NULL);
}

/* An exit rule "always" on syscall @nr, or on every one if @nr < 0. */
static void rule_begin(struct rule *r, long nr)
{
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->data.flags = AUDIT_FILTER_EXIT;
	r->data.action = AUDIT_ALWAYS;
	for (i = 0; i < AUDIT_BITMASK_SIZE; i++)
		r->data.mask[i] = nr < 0 ? ~0U : 0;
	if (nr >= 0)
		r->data.mask[AUDIT_WORD(nr)] |= AUDIT_BIT(nr);
}

/* An exit rule "always" on syscall @nr of this ABI, with @key. */
static void rule_init(struct rule *r, long nr, const char *key)
{
	rule_begin(r, nr);
	rule_where(r, AUDIT_ARCH, INDIRECT_AUDIT_ARCH);
	rule_field(r, AUDIT_FILTERKEY, strlen(key), key);
}

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

static void rule_change(int type, struct rule *r, const char *what)
{
	int ret = audit_request(type, &r->data,
				sizeof(r->data) + r->data.buflen);

	if (ret)
		ksft_exit_fail_msg("%s rule: %s\n", what, strerror(-ret));
}

/*
 * Read records until the SYSCALL record of @pid keyed "sentinel"; keep
 * them all, for the events are told apart by serial afterwards.
 */
static int collect(pid_t pid)
{
	char sentinel[64], buf[RECORD_MAX + NLMSG_HDRLEN];
	struct pollfd pfd = { .fd = audit_fd, .events = POLLIN };
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct record *r;
	ssize_t n;
	int off;

	snprintf(sentinel, sizeof(sentinel), " pid=%d ", pid);
	nrecords = 0;
	for (;;) {
		if (poll(&pfd, 1, RECORD_WAIT_MS) != 1) {
			ksft_print_msg("no sentinel record within %d ms\n",
				       RECORD_WAIT_MS);
			return -1;
		}
		n = recv(audit_fd, buf, sizeof(buf) - 1, 0);
		if (n < NLMSG_HDRLEN)
			continue;
		/* A record's nlmsg_len is that of its text alone. */
		buf[n] = '\0';
		if (nrecords == RECORDS_MAX)
			ksft_exit_fail_msg("more than %d records\n", RECORDS_MAX);
		r = &records[nrecords];
		off = 0;
		if (sscanf(NLMSG_DATA(nlh), "audit(%*u.%*u:%u): %n",
			   &r->serial, &off) != 1 || !off)
			continue;
		r->type = nlh->nlmsg_type;
		snprintf(r->text, sizeof(r->text), "%s",
			 (char *)NLMSG_DATA(nlh) + off);
		nrecords++;
		if (r->type == AUDIT_SYSCALL && strstr(r->text, sentinel) &&
		    strstr(r->text, " key=\"sentinel\""))
			return 0;
	}
}

/* The serials of @pid's SYSCALL records keyed @key, in order. */
static unsigned int events(pid_t pid, const char *key, unsigned int *serials,
			   unsigned int max)
{
	char pid_field[32], key_field[48];
	unsigned int i, n = 0;

	snprintf(pid_field, sizeof(pid_field), " pid=%d ", pid);
	snprintf(key_field, sizeof(key_field), " key=\"%s\"", key);
	for (i = 0; i < nrecords; i++)
		if (records[i].type == AUDIT_SYSCALL &&
		    strstr(records[i].text, pid_field) &&
		    strstr(records[i].text, key_field) && n < max)
			serials[n++] = records[i].serial;
	return n;
}

/* The record of @type in event @serial, or NULL. */
static const struct record *record_of(unsigned int serial, int type)
{
	unsigned int i;

	for (i = 0; i < nrecords; i++)
		if (records[i].serial == serial && records[i].type == type)
			return &records[i];
	return NULL;
}

/* The value of field @name in @text, as a string, into @out. */
static const char *field(const char *text, const char *name, char *out,
			 size_t size)
{
	char pattern[32];
	const char *p;
	size_t len;

	snprintf(pattern, sizeof(pattern), " %s=", name);
	p = strstr(text, pattern);
	if (!p && !strncmp(text, pattern + 1, strlen(pattern) - 1))
		p = text - 1;
	if (!p) {
		snprintf(out, size, "(none)");
		return out;
	}
	p += strlen(pattern);
	len = strcspn(p, " ");
	snprintf(out, size, "%.*s", (int)len, p);
	return out;
}

/*
 * The records of event @indirect, less its AUDIT_INDIRECT one, are those
 * of event @direct, one for one in order and field for field.
 */
static void check_same_records(const char *name, unsigned int direct,
			       unsigned int indirect)
{
	const struct record *d[RECORDS_MAX], *in[RECORDS_MAX];
	unsigned int i, nd = 0, nin = 0;
	char what[96];
	bool same;

	for (i = 0; i < nrecords; i++) {
		if (records[i].serial == direct)
			d[nd++] = &records[i];
		else if (records[i].serial == indirect &&
			 records[i].type != AUDIT_INDIRECT)
			in[nin++] = &records[i];
	}
	snprintf(what, sizeof(what), "%s_record_count", name);
	check_long(what, nd, nin);
	same = nd == nin;
	for (i = 0; same && i < nd; i++) {
		same = d[i]->type == in[i]->type &&
		       !strcmp(d[i]->text, in[i]->text);
		if (!same)
			ksft_print_msg("%s: record %u: expected type %d \"%s\", got type %d \"%s\"\n",
				       name, i, d[i]->type, d[i]->text,
				       in[i]->type, in[i]->text);
	}
	snprintf(what, sizeof(what), "%s_records_match_direct", name);
	check_long(what, 1, same);
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

static void child_run(enum child_calls calls)
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

/* Run a child with @calls under @nrules rules and the sentinel's. */
static pid_t run_case(const char *name, enum child_calls calls,
		      struct rule *rules, unsigned int nrules)
{
	struct rule sentinel;
	unsigned int i;
	int status;
	pid_t pid;

	rule_init(&sentinel, __NR_getppid, "sentinel");
	rule_change(AUDIT_ADD_RULE, &sentinel, "add");
	for (i = 0; i < nrules; i++)
		rule_change(AUDIT_ADD_RULE, &rules[i], "add");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid)
		child_run(calls);
	if (waitpid(pid, &status, 0) != pid)
		ksft_exit_fail_msg("waitpid: %s\n", strerror(errno));
	if (collect(pid))
		ksft_print_msg("%s: the records are incomplete\n", name);
	for (i = 0; i < nrules; i++)
		rule_change(AUDIT_DEL_RULE, &rules[i], "delete");
	rule_change(AUDIT_DEL_RULE, &sentinel, "delete");
	return pid;
}

/* @n results that depend on what did not come. */
static void skip_results(const char *name, unsigned int n)
{
	while (n--)
		ksft_test_result_skip("%s: the events were not as expected\n",
				      name);
}

static void check_field(const char *name, const struct record *r,
			const char *field_name, const char *expected)
{
	char value[64], what[96];

	snprintf(what, sizeof(what), "%s_%s", name, field_name);
	check_str(what, expected,
		  r ? field(r->text, field_name, value, sizeof(value)) :
		      "(no record)");
}

/*
 * Run @calls under one rule on syscall @nr keyed @key, and check that it
 * fires twice, as @check; the @dependents results that need the two
 * events, into @serials, are skipped if it does not.
 */
static bool two_events(const char *check, long nr, const char *key,
		       enum child_calls calls, unsigned int *serials,
		       unsigned int dependents)
{
	unsigned int n;
	struct rule r;
	pid_t pid;

	rule_init(&r, nr, key);
	pid = run_case(key, calls, &r, 1);
	n = events(pid, key, serials, 4);
	check_long(check, 2, n);
	if (n != 2)
		skip_results(key, dependents);
	return n == 2;
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
	int ret, fd;

	ksft_print_header();
	indirect_require();
	ret = audit_daemon_start();
	if (ret == -EPROTONOSUPPORT)
		ksft_exit_skip("no NETLINK_AUDIT: a kernel without CONFIG_AUDIT\n");
	if (ret == -EEXIST)
		ksft_exit_skip("an audit daemon runs already\n");
	if (ret)
		ksft_exit_fail_msg("becoming the audit daemon: %s\n",
				   strerror(-ret));
	snprintf(probe_path, sizeof(probe_path), "/tmp/indirect-audit-%d",
		 getpid());
	fd = open(probe_path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0)
		ksft_exit_fail_msg("create %s: %s\n", probe_path,
				   strerror(errno));
	close(fd);

	ksft_set_plan(30);
	check_inner_rule();
	check_other_rule();
	check_field_filters();
	check_outer_rule();
	check_never_inner_rule();
	check_watch_rule();
	check_uring();

	unlink(probe_path);
	audit_daemon_stop();
	ksft_finished();
}
