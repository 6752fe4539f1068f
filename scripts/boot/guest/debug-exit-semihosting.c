// SPDX-License-Identifier: GPL-2.0
/*
 * debug-exit - end an arm64 guest with an exit status that QEMU passes on.
 *
 * Usage: debug-exit <value>
 *
 * Makes the semihosting call SYS_EXIT from user space (QEMU's
 * "-semihosting-config enable=on,userspace=on"), which ends QEMU with the
 * status it names. That status is (value << 1) | 1, what the x86 targets'
 * isa-debug-exit device gives for the same value (debug-exit-isa.c), so
 * that the host reads every target's verdict alike. A crashed or panicked
 * guest cannot produce it by accident.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "debug-exit.h"

/* The semihosting operation and the reason of an ordinary exit. */
#define SYS_EXIT			0x18
#define ADP_STOPPED_APPLICATION_EXIT	0x20026

int main(int argc, char **argv)
{
	long value;
	uint64_t block[2];

	value = debug_exit_value(argc, argv);
	if (value < 0)
		return 2;
	block[0] = ADP_STOPPED_APPLICATION_EXIT;
	block[1] = (value << 1) | 1;
	/* AArch64 semihosting: operation in w0, parameter block in x1. */
	register uint64_t op asm("x0") = SYS_EXIT;
	register uint64_t arg asm("x1") = (uint64_t)(uintptr_t)block;

	asm volatile("hlt #0xf000" : "+r"(op) : "r"(arg) : "memory");
	/*
	 * Only reached when QEMU has semihosting off for user space, if the
	 * kernel does not kill the tool for the instruction first.
	 */
	fprintf(stderr, "debug-exit: QEMU did not exit; no semihosting from user space?\n");
	return 1;
}
