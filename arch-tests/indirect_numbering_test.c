// SPDX-License-Identifier: GPL-2.0
/*
 * The number the headers give __NR_indirect reaches sys_indirect() and
 * nothing else. Three probes only indirect() answers as it does: it calls
 * getppid() for us, it refuses to call itself, and it refuses 17
 * contexts with E2BIG before reading them. A number that reaches no
 * syscall, or another one (the 2007 RFC's x86-64 number was eventfd's),
 * fails with a message that says which.
 */
#include "indirect_test.h"

/* Name what the number reached, from the first probe's result. */
static const char *diagnose(long ret)
{
	if (ret == -ENOSYS)
		return "reaches no syscall (ENOSYS)";
	if (ret >= 0 && fd_cloexec(ret) >= 0)
		return "reaches another syscall: it returned a descriptor, as eventfd would";
	if (ret == getppid())
		return "reaches sys_indirect()";
	return "reaches another syscall";
}

int main(void)
{
	unsigned long getppid_params[INDIRECT_NR_PARAMS] = { 0 };
	unsigned long self_params[INDIRECT_NR_PARAMS] = { __NR_getppid };
	long ret;

	ksft_print_header();
	ksft_set_plan(3);
	ksft_print_msg("__NR_indirect is %d on ABI %s\n", __NR_indirect,
		       HARNESS_BUILD_ABI);

	ret = syscall(__NR_indirect, __NR_getppid, NULL, 0, getppid_params);
	ret = ret == -1 ? -errno : ret;
	ksft_print_msg("number %d %s\n", __NR_indirect, diagnose(ret));
	check_long("number_calls_getppid_for_us", getppid(), ret);
	check_long("number_refuses_itself_einval", -EINVAL,
		   indirect_result(__NR_indirect, NULL, 0, self_params));
	check_long("number_bounds_nctxs_e2big", -E2BIG,
		   indirect_result(__NR_getppid, NULL, INDIRECT_MAX_CTXS + 1,
				 getppid_params));
	ksft_finished();
}
