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
#include <sys/io.h>

#define DEBUG_EXIT_PORT 0xf4

int main(int argc, char **argv)
{
	unsigned long value;
	char *end;

	if (argc != 2) {
		fprintf(stderr, "usage: debug-exit <value>\n");
		return 2;
	}
	value = strtoul(argv[1], &end, 0);
	if (*argv[1] == '\0' || *end != '\0' || value > 0x7f) {
		fprintf(stderr, "debug-exit: bad value '%s' (0..127)\n", argv[1]);
		return 2;
	}
	if (ioperm(DEBUG_EXIT_PORT, 4, 1)) {
		perror("debug-exit: ioperm");
		return 1;
	}
	outl(value, DEBUG_EXIT_PORT);
	/* Only reached when QEMU has no isa-debug-exit device. */
	fprintf(stderr, "debug-exit: QEMU did not exit; no isa-debug-exit device?\n");
	return 1;
}
