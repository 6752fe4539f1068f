/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the arch-tests, on top of the kernel's kselftest.h.
 *
 * Every check prints the test's name with the expected and the actual
 * value, so that a failure on the console says what went wrong.
 */
#ifndef HARNESS_TEST_H
#define HARNESS_TEST_H

#include <stdio.h>
#include <string.h>
#include "kselftest.h"
#include "abi.h"

/*
 * The guest runner pipes a test's output through an indenting filter, so
 * stdout is not a terminal; line buffering keeps the output of a test that
 * crashes.
 */
static void __attribute__((constructor)) harness_line_buffered(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}

/* The ABI this binary was compiled for, as the harness names them. */
#define HARNESS_BUILD_ABI ABI_NAME

/* Report test @name as passed when @expected == @actual. */
static inline int check_long(const char *name, long expected, long actual)
{
	if (expected == actual) {
		ksft_test_result_pass("%s\n", name);
		return 1;
	}
	ksft_print_msg("%s: expected %ld, got %ld\n", name, expected, actual);
	ksft_test_result_fail("%s\n", name);
	return 0;
}

/* Report test @name as passed when the strings are equal. */
static inline int check_str(const char *name, const char *expected,
			    const char *actual)
{
	if (expected && actual && !strcmp(expected, actual)) {
		ksft_test_result_pass("%s\n", name);
		return 1;
	}
	ksft_print_msg("%s: expected \"%s\", got \"%s\"\n", name,
		       expected ? expected : "(null)",
		       actual ? actual : "(null)");
	ksft_test_result_fail("%s\n", name);
	return 0;
}

#endif /* HARNESS_TEST_H */
