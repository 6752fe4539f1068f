/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The audit daemon's side of NETLINK_AUDIT, for indirect_audit_test and
 * the benchmark: become the daemon with auditing on, send requests and
 * read their answers, stop. The kernel's uapi <linux/audit.h> is all it
 * needs.
 */
#ifndef AUDIT_DAEMON_H
#define AUDIT_DAEMON_H

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/audit.h>
#include <linux/netlink.h>

/* Room for a record: the tests' are far shorter than the kernel's limit. */
#define AUDIT_DAEMON_RECORD_MAX	2048

static int audit_fd = -1;

/* Send a request of @type with @len bytes of @payload; 0 or -errno. */
static int audit_request(int type, const void *payload, size_t len)
{
	static unsigned int seq;
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	char buf[NLMSG_SPACE(sizeof(struct audit_rule_data) + 256)];
	char reply[AUDIT_DAEMON_RECORD_MAX + NLMSG_HDRLEN];
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct nlmsgerr *err;
	ssize_t n;

	memset(buf, 0, sizeof(buf));
	nlh->nlmsg_len = NLMSG_LENGTH(len);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = ++seq;
	memcpy(NLMSG_DATA(nlh), payload, len);
	if (sendto(audit_fd, buf, nlh->nlmsg_len, 0,
		   (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		return -errno;
	/* Records that come before the answer are of no case: skip them. */
	for (;;) {
		n = recv(audit_fd, reply, sizeof(reply), 0);
		if (n < 0)
			return -errno;
		nlh = (struct nlmsghdr *)reply;
		if (nlh->nlmsg_type != NLMSG_ERROR || nlh->nlmsg_seq != seq)
			continue;
		err = NLMSG_DATA(nlh);
		return err->error;
	}
}

static int audit_set(unsigned int mask, unsigned int enabled, unsigned int pid)
{
	struct audit_status s = { .mask = mask, .enabled = enabled, .pid = pid };

	return audit_request(AUDIT_SET, &s, sizeof(s));
}

/*
 * Become the audit daemon and turn auditing on: 0, -EPROTONOSUPPORT on a
 * kernel without CONFIG_AUDIT, -EEXIST if a daemon runs, or -errno.
 * Registered first, the daemon gets the record of enabling, which would
 * go to the console otherwise.
 */
static int audit_daemon_start(void)
{
	int ret;

	audit_fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_AUDIT);
	if (audit_fd < 0)
		return -errno;
	ret = audit_set(AUDIT_STATUS_PID, 0, getpid());
	if (!ret)
		ret = audit_set(AUDIT_STATUS_ENABLED, 1, 0);
	return ret;
}

/* Auditing off first, so that its record too comes here; then leave. */
static void audit_daemon_stop(void)
{
	audit_set(AUDIT_STATUS_ENABLED, 0, 0);
	audit_set(AUDIT_STATUS_PID, 0, 0);
	close(audit_fd);
	audit_fd = -1;
}

#endif /* AUDIT_DAEMON_H */
