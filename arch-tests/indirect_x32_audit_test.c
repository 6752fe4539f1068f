// SPDX-License-Identifier: GPL-2.0
/*
 * Audit sees the inner call of indirect() from an x32 task (built -mx32,
 * run on the x86-64 kernel).
 *
 * An x32 task calls indirect() as the x86-64 syscall, so the inner call
 * is an x86-64 call: audit must judge it with the rules of arch b64 and
 * its x86-64 number, and read its arguments as 64-bit registers, exactly
 * as it judges the same x86-64 call made directly by this task. The
 * child opens the probe with a direct x86-64 openat and with
 * indirect(openat); then:
 *  - a rule "-F arch=b64 -S openat" fires once for each, and the two
 *    events have the same records, field for field, but the
 *    AUDIT_INDIRECT record of the second, which names x86-64's indirect();
 *  - a0 of the inner openat is AT_FDCWD as a 64-bit word: read as an ia32
 *    compat call, it would be ffffff9c;
 *  - a rule on indirect() (b64, 387) fires for the indirect call alone,
 *    whose event names openat.
 * A direct x32 call carries __X32_SYSCALL_BIT in its number, and audit
 * matches no exit rule to a number above its bitmask: the rule on openat
 * does not fire for an x32 openat, which indirect() makes visible.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include "harness_test.h"
#include "x32_syscall.h"

/* What audit's filters see for the calls of indirect() of an x32 task. */
#define INDIRECT_AUDIT_ARCH	AUDIT_ARCH_X86_64
#include "audit_events.h"

/* AT_FDCWD in a 64-bit register, as audit prints it. */
#define AT_FDCWD_64	"ffffffffffffff9c"

enum child_calls {
	OPEN_BOTH,	/* x86-64 openat, then indirect(openat) */
	OPEN_X32,	/* x32 openat */
};

static void child_run(unsigned int calls)
{
	uint64_t params[INDIRECT_NR_PARAMS] = {
		(uint64_t)(int64_t)AT_FDCWD, ptr64(probe_path), O_RDONLY,
	};
	int64_t fd;

	switch (calls) {
	case OPEN_BOTH:
		fd = syscall64(__NR_openat, params[0], params[1], params[2],
			       0);
		if (fd >= 0)
			close((int)fd);
		fd = indirect64(__NR_openat, NULL, 0, params);
		if (fd >= 0)
			close((int)fd);
		break;
	case OPEN_X32:
		fd = syscall64(X32_SYSCALL_BIT | __NR_openat, params[0],
			       params[1], params[2], 0);
		if (fd >= 0)
			close((int)fd);
		break;
	}
	syscall64(__NR_getppid, 0, 0, 0, 0);
	_exit(0);
}

static void check_inner_rule(void)
{
	const struct record *marker;
	unsigned int serials[4];
	char num[32];

	if (!two_events("x32_inner_rule_fires_once_per_call", __NR_openat,
			"x32_inner", OPEN_BOTH, serials, 6))
		return;
	check_long("x32_inner_rule_direct_has_no_marker", 0,
		   record_of(serials[0], AUDIT_INDIRECT) != NULL);
	marker = record_of(serials[1], AUDIT_INDIRECT);
	snprintf(num, sizeof(num), "%x", AUDIT_ARCH_X86_64);
	check_field("x32_inner_rule_marker", marker, "arch", num);
	snprintf(num, sizeof(num), "%d", __NR_indirect);
	check_field("x32_inner_rule_marker", marker, "syscall", num);
	check_field("x32_inner_rule_inner_call",
		    record_of(serials[1], AUDIT_SYSCALL), "a0", AT_FDCWD_64);
	check_same_records("x32_inner_rule", serials[0], serials[1]);
}

static void check_x32_direct_call(void)
{
	unsigned int serials[4];
	struct rule r;
	pid_t pid;

	rule_init(&r, __NR_openat, "x32_direct");
	pid = run_case("x32_direct_call", OPEN_X32, &r, 1);
	check_long("x32_direct_openat_matches_no_rule", 0,
		   events(pid, "x32_direct", serials, 4));
}

static void check_outer_rule(void)
{
	unsigned int serials[4], n;
	struct rule r;
	char num[32];
	pid_t pid;

	rule_init(&r, __NR_indirect, "x32_outer");
	pid = run_case("x32_outer_rule", OPEN_BOTH, &r, 1);
	n = events(pid, "x32_outer", serials, 4);
	check_long("x32_outer_rule_fires_for_indirect_only", 1, n);
	snprintf(num, sizeof(num), "%d", __NR_openat);
	check_field("x32_outer_rule_inner_call",
		    n == 1 ? record_of(serials[0], AUDIT_SYSCALL) : NULL,
		    "syscall", num);
}

int main(void)
{
	uint64_t getppid_params[INDIRECT_NR_PARAMS] = { 0 };

	ksft_print_header();
	if (indirect64(__NR_getppid, NULL, 0, getppid_params) == -ENOSYS)
		ksft_exit_skip("indirect() is not available (ENOSYS)\n");
	audit_events_start();

	ksft_set_plan(10);
	check_inner_rule();
	check_x32_direct_call();
	check_outer_rule();

	audit_events_stop();
	ksft_finished();
}
