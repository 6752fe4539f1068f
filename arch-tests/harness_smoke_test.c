// SPDX-License-Identifier: GPL-2.0
/*
 * Smoke test of the harness itself: the guest runs the kernel this tree
 * built, the binary runs under the ABI the guest says it does, and the
 * syscall numbers it was compiled with (from the installed uapi headers)
 * are the running ABI's own.
 */
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/version.h>
#include "harness_test.h"

static struct utsname uts;

static void test_uname_sysname(void)
{
	check_str("uname_sysname", "Linux", uts.sysname);
}

/*
 * The kernel must be the one whose headers the test was built against,
 * but in a run of one base's binaries on another base's kernel.
 */
static void test_uname_release_matches_headers(void)
{
	const char *cross = getenv("HARNESS_CROSS_BASE");
	char want[32];

	snprintf(want, sizeof(want), "%d.%d.%d", LINUX_VERSION_MAJOR,
		 LINUX_VERSION_PATCHLEVEL, LINUX_VERSION_SUBLEVEL);
	if (cross && *cross) {
		ksft_test_result_skip("uname_release_matches_headers: built for %s (base %s), running %s\n",
				      want, cross, uts.release);
		return;
	}
	/* Compare only the x.y.z part: a local version may follow. */
	uts.release[strspn(uts.release, "0123456789.")] = '\0';
	check_str("uname_release_matches_headers", want, uts.release);
}

/*
 * A 32-bit binary on a 64-bit kernel runs through its compat ABI (ia32
 * compat on x86-64, AArch32 on arm64); uname() reports the kernel's
 * machine, not the binary's.
 */
static const char *running_abi(void)
{
#ifdef ABI_COMPAT_MACHINE
	if (!strcmp(uts.machine, ABI_COMPAT_MACHINE))
		return ABI_COMPAT_NAME;
#endif
	return HARNESS_BUILD_ABI;
}

static void test_running_abi(void)
{
	const char *expected = getenv("HARNESS_ABI");

	ksft_print_msg("binary built for %s, kernel machine %s: ABI %s\n",
		       HARNESS_BUILD_ABI, uts.machine, running_abi());
	if (!expected) {
		ksft_test_result_skip("running_abi: HARNESS_ABI not set\n");
		return;
	}
	check_str("running_abi", expected, running_abi());
}

/*
 * A number from the wrong ABI's table would call another syscall: 39 is
 * getpid on x86-64 but mkdir on i386, 172 getpid on AArch64 but
 * prctl on AArch32.
 */
static void test_syscall_numbers_from_headers(void)
{
	long pid_from_proc = -1;
	FILE *f = fopen("/proc/self/stat", "r");

	if (f) {
		if (fscanf(f, "%ld", &pid_from_proc) != 1)
			pid_from_proc = -1;
		fclose(f);
	}
	check_long("syscall_getpid_from_headers", pid_from_proc,
		   syscall(__NR_getpid));
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(4);
	if (uname(&uts))
		ksft_exit_fail_msg("uname: %s\n", strerror(errno));
	ksft_print_msg("uname: %s %s %s\n", uts.sysname, uts.release,
		       uts.machine);
	test_uname_sysname();
	test_running_abi();
	test_syscall_numbers_from_headers();
	test_uname_release_matches_headers();
	ksft_finished();
}
