/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The x32 ABI (gcc -mx32), on the x86_64 target. Its tests make the
 * x86-64 calls themselves (x32_syscall.h): only the name is shared.
 */
#ifndef ABI_X32_H
#define ABI_X32_H

#define ABI_NAME		"x32"

#endif /* ABI_X32_H */
