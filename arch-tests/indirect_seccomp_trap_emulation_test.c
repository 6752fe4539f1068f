// SPDX-License-Identifier: GPL-2.0
/*
 * SECCOMP_RET_TRAP for an inner call, as a sandbox that emulates system
 * calls in a SIGSYS handler sees it (gVisor's systrap, or any emulator
 * built on TRAP): the handler takes the syscall from si_syscall and its
 * arguments from the registers in its ucontext, does the work, and
 * writes the result into the return register. For an inner call the
 * SIGSYS describes indirect() itself: si_syscall is the ABI's
 * __NR_indirect, si_arch the caller's AUDIT_ARCH_*, si_errno the
 * filter's data, si_call_addr the outer call's address, and the ucontext
 * holds indirect()'s registers, rolled back as for a direct trapped call
 * (indirect_seccomp_test). A siginfo that named the inner call would
 * match registers of another call: the handler would emulate the inner
 * syscall with indirect()'s arguments.
 *
 * The filter traps dup(). The handler emulates dup(first argument
 * register) with F_DUPFD, which the filter lets through, when si_syscall
 * is dup, and answers ENOSYS to any other call, as an emulator does to a
 * call it does not know. A direct dup(A) is emulated right. For
 * indirect(dup, A) the handler must see indirect() and answer ENOSYS: had
 * it been told dup, it would have duplicated the descriptor in
 * indirect()'s first argument register, the inner number __NR_dup, which
 * the test makes a descriptor of another file beforehand so that that
 * wrong dup would succeed.
 */
#include <signal.h>
#include <sys/stat.h>
#include <sys/ucontext.h>
#include "indirect_test.h"

/* The 16 bits of data that TRAP passes on. */
#define FILTER_DATA		0x3d
/* Seconds a child may take, far beyond what a call takes under TCG. */
#define CHILD_TIME_LIMIT	60

/* What the child found, in memory shared with the parent. */
struct emulation_result {
	long setup;
	/* The descriptor that the calls duplicate. */
	long a;
	/* Of the last SIGSYS: what it named, and what the handler did. */
	long signals;
	long named_nr;
	long named_arch;
	long data;
	long si_call_addr_is_uc_ip;
	long emulated;
	long emulated_fd;
	/* The calls' results, and whether they refer to A or to the decoy. */
	long direct;
	long direct_is_a;
	long inner;
	long inner_is_a;
	long inner_is_decoy;
	/* The lowest free descriptor before and after the inner call. */
	long free_before;
	long free_after;
	/* The direct call's address, for the inner call's to match. */
	unsigned long direct_call_addr;
	unsigned long inner_call_addr;
};

static struct emulation_result *r;

/* The emulator: dup() of the first argument register, else ENOSYS. */
static void emulator(int sig __attribute__((unused)), siginfo_t *info,
		     void *ucontext)
{
	ucontext_t *uc = ucontext;
	long ret;

	r->signals++;
	r->named_nr = info->si_syscall;
	r->named_arch = info->si_arch;
	r->data = info->si_errno;
	r->si_call_addr_is_uc_ip = (unsigned long)info->si_call_addr ==
				   (unsigned long)ABI_UC_IP(uc);
	if (info->si_syscall == __NR_dup) {
		long fd = (long)abi_uc_arg(uc, 0);

		r->emulated++;
		r->emulated_fd = fd;
		ret = fcntl((int)fd, F_DUPFD, 0);
		if (ret < 0)
			ret = -errno;
	} else {
		ret = -ENOSYS;
	}
	ABI_UC_RET(uc) = ret;
	if (r->signals == 1)
		r->direct_call_addr = (unsigned long)info->si_call_addr;
	else
		r->inner_call_addr = (unsigned long)info->si_call_addr;
}

/* 1 if descriptors @a and @b refer to the same file, else 0. */
static long same_file(long a, int b)
{
	struct stat sa, sb;

	if (a < 0 || fstat((int)a, &sa) || fstat(b, &sb))
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The lowest descriptor number that is free, found through open @fd. */
static long lowest_free(int fd_open)
{
	long fd = fcntl(fd_open, F_DUPFD, 0);

	if (fd >= 0)
		close((int)fd);
	return fd;
}

static void emulation_child(const void *unused __attribute__((unused)))
{
	struct sigaction sa = { .sa_sigaction = emulator,
				.sa_flags = SA_SIGINFO };
	struct seccomp_match m = { .nr = __NR_dup };
	unsigned long p[INDIRECT_NR_PARAMS] = { 0 };
	int a, decoy_pipe[2];

	/* A, the descriptor the calls duplicate; the decoy at __NR_dup. */
	a = open("/dev/null", O_RDONLY);
	if (a < 0 || a == __NR_dup || pipe(decoy_pipe) ||
	    dup2(decoy_pipe[0], __NR_dup) != __NR_dup ||
	    sigaction(SIGSYS, &sa, NULL)) {
		r->setup = -errno;
		return;
	}
	if (seccomp_install_match(&m, SECCOMP_RET_TRAP | FILTER_DATA, 0) < 0) {
		r->setup = -EPERM;
		return;
	}
	r->a = p[0] = a;
	r->direct = direct_call(__NR_dup, p);
	r->direct_is_a = same_file(r->direct, a);
	if (r->direct >= 0)
		close((int)r->direct);

	r->free_before = lowest_free(a);
	r->inner = indirect_result(__NR_dup, NULL, 0, p);
	r->free_after = lowest_free(a);
	r->inner_is_a = same_file(r->inner, a);
	r->inner_is_decoy = same_file(r->inner, decoy_pipe[0]);
}

int main(void)
{
	long fate;

	ksft_print_header();
	indirect_require();
	r = shared_alloc(sizeof(*r));
	ksft_set_plan(14);
	r->direct = r->inner = r->a = r->emulated_fd = -1;
	fate = run_in_child(emulation_child, NULL, CHILD_TIME_LIMIT);
	if (r->setup)
		ksft_print_msg("setup failed: %s\n", strerror(-r->setup));
	check_long("emulation_child_exits", 0, fate);
	check_long("emulation_two_sigsys", 2, r->signals);
	check_long("emulation_direct_dup_emulated", 1, r->direct_is_a);
	check_long("emulation_inner_si_syscall_is_indirect", __NR_indirect,
		   r->named_nr);
	check_long("emulation_inner_si_arch", INDIRECT_AUDIT_ARCH,
		   r->named_arch);
	check_long("emulation_inner_si_errno_is_filter_data", FILTER_DATA,
		   r->data);
	check_long("emulation_inner_si_call_addr_is_uc_ip", 1,
		   r->si_call_addr_is_uc_ip);
	check_long("emulation_inner_si_call_addr_as_direct",
		   (long)r->direct_call_addr, (long)r->inner_call_addr);
	check_long("emulation_only_the_direct_call_emulated", 1, r->emulated);
	check_long("emulation_inner_enosys", -ENOSYS, r->inner);
	check_long("emulation_inner_no_descriptor_made", r->free_before,
		   r->free_after);
	check_long("emulation_inner_not_the_decoy", 0, r->inner_is_decoy);
	check_long("emulation_inner_not_a", 0, r->inner_is_a);
	check_long("emulation_handler_duplicated_a_only", r->a, r->emulated_fd);
	ksft_finished();
}
