/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tests that read the kernel's trace events share: writing a
 * tracefs file, reading the trace, and keeping a test's tasks on one CPU,
 * so that their events are in one buffer, in the order they fired.
 */
#ifndef INDIRECT_TRACEFS_H
#define INDIRECT_TRACEFS_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "kselftest.h"

#define TRACEFS			"/sys/kernel/tracing"

/* Write @value to the tracefs file @name: 0, or -errno. */
static inline int tracefs_write(const char *name, const char *value)
{
	char path[256];
	int fd, ret = 0;

	snprintf(path, sizeof(path), TRACEFS "/%s", name);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) != (ssize_t)strlen(value))
		ret = -errno;
	close(fd);
	return ret;
}

/* The trace buffer, NUL-terminated, in a static buffer. */
static inline char *tracefs_read_trace(void)
{
	static char buf[1 << 18];
	ssize_t n, len = 0;
	int fd = open(TRACEFS "/trace", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		ksft_exit_fail_msg("open " TRACEFS "/trace: %s\n",
				   strerror(errno));
	while (len < (ssize_t)sizeof(buf) - 1 &&
	       (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return buf;
}

/* Keep every event of the test's tasks on one CPU's buffer, in order. */
static inline void stay_on_this_cpu(void)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		ksft_print_msg("sched_setaffinity: %s\n", strerror(errno));
}

#endif /* INDIRECT_TRACEFS_H */
