/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every target's debug-exit tool shares: its command line. Each
 * target's GUEST_EXIT_SOURCE includes this and ends QEMU its own way.
 */
#ifndef DEBUG_EXIT_H
#define DEBUG_EXIT_H

#include <stdio.h>
#include <stdlib.h>

/* The value of "debug-exit <value>", 0..127, or -1 after a message. */
static long debug_exit_value(int argc, char **argv)
{
	unsigned long value;
	char *end;

	if (argc != 2) {
		fprintf(stderr, "usage: debug-exit <value>\n");
		return -1;
	}
	value = strtoul(argv[1], &end, 0);
	if (*argv[1] == '\0' || *end != '\0' || value > 0x7f) {
		fprintf(stderr, "debug-exit: bad value '%s' (0..127)\n", argv[1]);
		return -1;
	}
	return (long)value;
}

#endif /* DEBUG_EXIT_H */
