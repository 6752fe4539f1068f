// SPDX-License-Identifier: GPL-2.0
/*
 * The workload of the guest's perf suite (scripts/boot/guest/suites/perf/):
 * a program that opens a file N times, each time with openat(), made
 * either directly or as the inner call of indirect(), and makes no other
 * openat() from start to end (a static binary: no dynamic loader opens
 * anything). Run under Debian's perf,
 *
 *	perf stat -e syscalls:sys_enter_openat -x, -- perf_openat_probe direct 5
 *	perf stat -e syscalls:sys_enter_openat -x, -- perf_openat_probe indirect 5
 *
 * both must count 5: a tool that counts syscalls sees an openat() made
 * through indirect() exactly as a direct one. It is no test itself and
 * prints no KTAP; arch-tests/Makefile builds it into tools-<set>, not
 * among the set's tests.
 *
 * Usage: perf_openat_probe direct|indirect|indirect-cloexec [<n> [<path>]]
 *	  perf_openat_probe --nr
 *
 *   direct		openat(AT_FDCWD, path, O_RDONLY), <n> times
 *   indirect		the same call through indirect() with no context
 *   indirect-cloexec	through indirect() with an OPENFLAGS context
 *			(O_CLOEXEC); each descriptor must be close-on-exec
 *   --nr		print this ABI's openat() number (257 on x86-64),
 *			for a raw_syscalls filter "id == <nr>"
 *
 * <n> is 1 by default, <path> /dev/null. Each descriptor is closed
 * before the next call. Exit status: 0 when every call succeeded, 1 when
 * one failed (the reason on stderr), 2 on bad usage, 4 when the kernel
 * has no indirect() (ENOSYS), the harness's skip.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "indirect.h"

#define EXIT_SKIP	4

static int usage(void)
{
	fprintf(stderr, "usage: perf_openat_probe direct|indirect|indirect-cloexec [<n> [<path>]]\n"
		"       perf_openat_probe --nr\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct sysind_ctx_OPENFLAGS cloexec;
	const struct indirect_ctx *ctxs[1];
	const char *mode, *path = "/dev/null";
	unsigned int nctxs = 0;
	long n = 1, i, fd;
	char *end;
	int direct;

	if (argc == 2 && !strcmp(argv[1], "--nr")) {
		printf("%d\n", __NR_openat);
		return 0;
	}
	if (argc < 2 || argc > 4)
		return usage();
	mode = argv[1];
	if (!strcmp(mode, "direct")) {
		direct = 1;
	} else if (!strcmp(mode, "indirect")) {
		direct = 0;
	} else if (!strcmp(mode, "indirect-cloexec")) {
		direct = 0;
		ctxs[0] = indirect_ctx_openflags(&cloexec, O_CLOEXEC);
		nctxs = 1;
	} else {
		return usage();
	}
	if (argc > 2) {
		errno = 0;
		n = strtol(argv[2], &end, 10);
		if (errno || end == argv[2] || *end || n < 0)
			return usage();
	}
	if (argc > 3)
		path = argv[3];

	for (i = 0; i < n; i++) {
		/*
		 * syscall(), not open(): the C library may pick another call
		 * (open on some ABIs, openat2 one day).
		 */
		if (direct)
			fd = syscall(__NR_openat, AT_FDCWD, path, O_RDONLY, 0);
		else
			fd = indirect_call(__NR_openat, nctxs ? ctxs : NULL,
					   nctxs, AT_FDCWD, path, O_RDONLY, 0);
		if (fd < 0) {
			if (!direct && errno == ENOSYS) {
				fprintf(stderr, "perf_openat_probe: indirect() is not available (ENOSYS)\n");
				return EXIT_SKIP;
			}
			fprintf(stderr, "perf_openat_probe: %s openat(%s) %ld of %ld: %s\n",
				mode, path, i + 1, n, strerror(errno));
			return 1;
		}
		if (nctxs && !(fcntl(fd, F_GETFD) & FD_CLOEXEC)) {
			fprintf(stderr, "perf_openat_probe: %s openat(%s) %ld of %ld: descriptor %ld is not close-on-exec\n",
				mode, path, i + 1, n, fd);
			return 1;
		}
		close(fd);
	}
	return 0;
}
