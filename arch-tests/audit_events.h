/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test side of an audit daemon, for the tests that read what audit
 * records: exit rules, the records of a child's events, and checks on
 * them. The includer defines INDIRECT_AUDIT_ARCH, the AUDIT_ARCH_* of its
 * calls of indirect(), and child_run(), what a child does under the
 * rules; the child ends with a getppid() of that arch, the sentinel.
 */
#ifndef AUDIT_EVENTS_H
#define AUDIT_EVENTS_H

#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/wait.h>
#include "audit_daemon.h"
#include "harness_test.h"

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
/* A file of the test's own, which the children open. */
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

static void rule_change(int type, struct rule *r, const char *what)
{
	int ret = audit_request(type, &r->data,
				sizeof(r->data) + r->data.buflen);

	if (ret)
		ksft_exit_fail_msg("%s rule: %s\n", what, strerror(-ret));
}

/*
 * Read records until one of @type whose text has @last and @also (if not
 * NULL); keep them all, for the events are told apart by serial
 * afterwards.
 */
static int collect_until(int type, const char *last, const char *also)
{
	char buf[RECORD_MAX + NLMSG_HDRLEN];
	struct pollfd pfd = { .fd = audit_fd, .events = POLLIN };
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct record *r;
	ssize_t n;
	int off;

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
		if (r->type == type && strstr(r->text, last) &&
		    (!also || strstr(r->text, also)))
			return 0;
	}
}

/* Read records until the SYSCALL record of @pid keyed "sentinel". */
static int collect(pid_t pid)
{
	char pid_field[32];

	snprintf(pid_field, sizeof(pid_field), " pid=%d ", pid);
	return collect_until(AUDIT_SYSCALL, pid_field, " key=\"sentinel\"");
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

/* What a child does with @calls, then the sentinel; it does not return. */
static void child_run(unsigned int calls);

/* Fork a child that makes @calls; wait for it to end. Its pid. */
static pid_t child_wait(unsigned int calls)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid)
		child_run(calls);
	if (waitpid(pid, &status, 0) != pid)
		ksft_exit_fail_msg("waitpid: %s\n", strerror(errno));
	return pid;
}

/* Run a child with @calls under @nrules rules and the sentinel's. */
static pid_t run_case(const char *name, unsigned int calls,
		      struct rule *rules, unsigned int nrules)
{
	struct rule sentinel;
	unsigned int i;
	pid_t pid;

	rule_init(&sentinel, __NR_getppid, "sentinel");
	rule_change(AUDIT_ADD_RULE, &sentinel, "add");
	for (i = 0; i < nrules; i++)
		rule_change(AUDIT_ADD_RULE, &rules[i], "add");
	pid = child_wait(calls);
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
		       unsigned int calls, unsigned int *serials,
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

/*
 * Become the audit daemon, or skip the test on a kernel without audit or
 * where a daemon runs; then create the probe.
 */
static void audit_events_start(void)
{
	int ret = audit_daemon_start();
	int fd;

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
}

static void audit_events_stop(void)
{
	unlink(probe_path);
	audit_daemon_stop();
}

#endif /* AUDIT_EVENTS_H */
