// SPDX-License-Identifier: GPL-2.0
/*
 * debug-exit - end the guest with an exit status that QEMU passes on.
 *
 * Usage: debug-exit <value>
 *
 * Writes <value> to QEMU's isa-debug-exit port (0xf4), and QEMU exits with
 * status (value << 1) | 1. A crashed or panicked guest cannot produce that
 * status by accident, so the host can trust it as the guest's verdict.
 */
#include <stdio.h>
#include <stdlib.h>
#include "debug-exit.h"
#include <sys/io.h>

#define DEBUG_EXIT_PORT 0xf4

int main(int argc, char **argv)
{
	long value;

	value = debug_exit_value(argc, argv);
	if (value < 0)
		return 2;
	if (ioperm(DEBUG_EXIT_PORT, 4, 1)) {
		perror("debug-exit: ioperm");
		return 1;
	}
	outl(value, DEBUG_EXIT_PORT);
	/* Only reached when QEMU has no isa-debug-exit device. */
	fprintf(stderr, "debug-exit: QEMU did not exit; no isa-debug-exit device?\n");
	return 1;
}
