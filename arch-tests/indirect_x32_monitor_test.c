// SPDX-License-Identifier: GPL-2.0
/*
 * What seccomp's monitors are told of an inner call of an x32 task
 * (built -mx32, run on the x86-64 kernel), whose indirect() is the
 * x86-64 call (387 without __X32_SYSCALL_BIT) and whose inner call is an
 * x86-64 call, arch AUDIT_ARCH_X86_64, as indirect_x32_test shows:
 *  - SECCOMP_RET_TRACE: a tracer that does not set PTRACE_O_INDIRECT is
 *    not stopped, and the call fails with ENOSYS; one that sets it stops
 *    with the inner x86-64 call in the registers (orig_rax its number,
 *    rdi to r9 its arguments, as the x32 tracer reads them: the x86-64
 *    layout). The attack of indirect_seccomp_trace_attack_test: the
 *    tracer approves openat() by the path it reads from rsi, and the task
 *    passes the approved path as indirect()'s own second argument, ctxs,
 *    with nctxs 0. Under a RESOLVE context no tracer is stopped (ENOSYS).
 *  - SECCOMP_RET_TRAP: the SIGSYS describes indirect() itself, si_syscall
 *    387 (no x32 bit: the task called the x86-64 indirect()) and si_arch
 *    AUDIT_ARCH_X86_64. The emulator of indirect_seccomp_trap_emulation_test,
 *    which emulates dup() from the ucontext's rdi and answers ENOSYS to
 *    anything else, answers ENOSYS to indirect(dup, A) and duplicates no
 *    descriptor, while a descriptor numbered __NR_dup waits for a wrong
 *    dup().
 * The filters match the x86-64 numbers on AUDIT_ARCH_X86_64; they are
 * installed with prctl(), whose x32 call takes the x32 sock_fprog.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/ucontext.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include "harness_test.h"
#include "x32_syscall.h"

#ifndef PTRACE_O_INDIRECT
#define PTRACE_O_INDIRECT	(1 << 22)
#endif
#ifndef SYS_SECCOMP
#define SYS_SECCOMP		1
#endif

#define TRACE_DATA		0x32a
#define TRAP_DATA		0x32d
/* Seconds a child may take, far beyond what a call takes under TCG. */
#define CHILD_TIME_LIMIT	60
#define ARRAY_LEN(a)		(sizeof(a) / sizeof((a)[0]))

/* What tracer, tracee and handler found, in memory shared among them. */
struct x32_result {
	int64_t ret;
	long stops;
	long indirect_set;
	long nr;
	char seen[96];
	/* TRAP */
	long signals;
	long named_nr;
	long named_arch;
	long data;
	long emulated;
	long emulated_fd;
	long a;
	int64_t direct;
	long direct_is_a;
	long free_before;
	long free_after;
};

static struct x32_result *r;
static char dir[64], approved_path[96], other_path[96];

/*
 * Install a filter: @verdict for the x86-64 syscall @nr on
 * AUDIT_ARCH_X86_64, ALLOW for the rest. 0, or -errno.
 */
static int install(unsigned int nr, unsigned int verdict)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, verdict),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { ARRAY_LEN(insns), insns };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0))
		return -errno;
	return 0;
}

static void *shared(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	return p;
}

static long fate_of(int status)
{
	if (WIFSIGNALED(status))
		return -WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* The attack's calls. */
enum call { INNER_DISGUISED, INNER_RESOLVE };

struct attack_case {
	const char *name;
	enum call call;
	bool aware;
	long stops;
	const char *seen;
	int64_t ret;
};

static const struct attack_case cases[] = {
	{ "x32_legacy_tracer_inner_no_stop_enosys", INNER_DISGUISED, false, 0,
	  "", -ENOSYS },
	{ "x32_aware_tracer_inner_sees_real_path", INNER_DISGUISED, true, 1,
	  "other", -EACCES },
	{ "x32_aware_tracer_resolve_no_stop_enosys", INNER_RESOLVE, true, 0,
	  "", -ENOSYS },
};

static struct sysind_ctx_RESOLVE beneath = {
	.ctx = SYSIND_CTX_RESOLVE,
	.resolve = RESOLVE_BENEATH,
};

static void tracee(const struct attack_case *c)
{
	uint64_t params[INDIRECT_NR_PARAMS] = {
		(uint64_t)(int64_t)AT_FDCWD, ptr64(other_path),
		O_RDWR | O_CREAT | O_EXCL, 0600,
	};
	uint64_t ctxs[1] = { ptr64(&beneath) };
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);

	alarm(CHILD_TIME_LIMIT);
	if (dfd < 0 || ptrace(PTRACE_TRACEME, 0, NULL, NULL))
		_exit(98);
	raise(SIGSTOP);
	if (install(__NR_openat, SECCOMP_RET_TRACE | TRACE_DATA))
		_exit(99);
	if (c->call == INNER_DISGUISED) {
		/* ctxs: the approved path, which nctxs 0 leaves unread. */
		r->ret = syscall64(__NR_indirect, __NR_openat,
				   ptr64(approved_path), 0, ptr64(params));
	} else {
		params[0] = dfd;
		params[1] = ptr64("other");
		r->ret = indirect64(__NR_openat, ctxs, 1, params);
	}
	_exit(0);
}

/* The tracer: approve openat() only of the approved path, read from rsi. */
static void approve_by_path(pid_t pid)
{
	struct user_regs_struct regs;
	char path[sizeof(r->seen)], mem[64];
	unsigned int i;
	int fd;

	r->stops++;
	if (ptrace(PTRACE_GETREGS, pid, NULL, &regs))
		ksft_exit_fail_msg("PTRACE_GETREGS: %s\n", strerror(errno));
	r->nr = (long)regs.orig_rax;
	/* The path, from its memory: the kernel has no process_vm_readv(). */
	memset(path, 0, sizeof(path));
	snprintf(mem, sizeof(mem), "/proc/%d/mem", pid);
	fd = open(mem, O_RDONLY);
	if (fd >= 0) {
		if (pread64(fd, path, sizeof(path) - 1, (off64_t)regs.rsi) < 0)
			path[0] = '\0';
		close(fd);
	}
	if (!strcmp(path, approved_path))
		strcpy(r->seen, "approved");
	else if (!strcmp(path, other_path) || !strcmp(path, "other"))
		strcpy(r->seen, "other");
	else
		for (i = 0; path[i]; i++)
			r->seen[i] = path[i] >= 0x20 && path[i] < 0x7f ?
				     path[i] : '?';
	if (!strcmp(path, approved_path))
		return;
	regs.orig_rax = -1;
	regs.rax = -EACCES;
	if (ptrace(PTRACE_SETREGS, pid, NULL, &regs))
		ksft_exit_fail_msg("PTRACE_SETREGS: %s\n", strerror(errno));
}

static void run_attack(const struct attack_case *c)
{
	unsigned long options = PTRACE_O_TRACESECCOMP | PTRACE_O_EXITKILL;
	int status, sig = 0;
	struct stat st;
	char what[128];
	pid_t pid;

	memset(r, 0, sizeof(*r));
	r->ret = -1;
	unlink(other_path);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid)
		tracee(c);
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		ksft_exit_fail_msg("the tracee did not stop\n");
	if (c->aware) {
		r->indirect_set = !ptrace(PTRACE_SETOPTIONS, pid, NULL,
					  (void *)(options | PTRACE_O_INDIRECT));
		if (!r->indirect_set)
			ksft_print_msg("PTRACE_SETOPTIONS refuses %s\n",
				       "PTRACE_O_INDIRECT; going on without it");
	}
	if (!r->indirect_set &&
	    ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)options))
		ksft_exit_fail_msg("PTRACE_SETOPTIONS: %s\n", strerror(errno));
	for (;;) {
		if (ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig))
			ksft_exit_fail_msg("PTRACE_CONT: %s\n",
					   strerror(errno));
		if (waitpid(pid, &status, 0) != pid)
			ksft_exit_fail_msg("waitpid: %s\n", strerror(errno));
		if (!WIFSTOPPED(status))
			break;
		sig = 0;
		if (status >> 8 == (SIGTRAP | (PTRACE_EVENT_SECCOMP << 8)))
			approve_by_path(pid);
		else
			sig = WSTOPSIG(status);
	}

#define CHECK(suffix, expected, actual)					\
	do {								\
		snprintf(what, sizeof(what), "%s_%s", c->name, suffix); \
		check_long(what, expected, actual);			\
	} while (0)

	if (c->aware)
		CHECK("option_accepted", 1, r->indirect_set);
	CHECK("tracee_exits", 0, fate_of(status));
	CHECK("stops", c->stops, r->stops);
	if (c->stops)
		CHECK("tracer_sees_x86_64_openat", __NR_openat, r->nr);
	snprintf(what, sizeof(what), "%s_tracer_read", c->name);
	check_str(what, c->seen, r->seen);
	CHECK("result", (long)c->ret, (long)r->ret);
	CHECK("other_file_created", 0, !stat(other_path, &st));
#undef CHECK
}

/* The emulator: dup() of rdi when told of dup(), else ENOSYS. */
static void emulator(int sig __attribute__((unused)), siginfo_t *info,
		     void *ucontext)
{
	ucontext_t *uc = ucontext;
	long long ret = -ENOSYS;

	r->signals++;
	r->named_nr = info->si_syscall;
	r->named_arch = info->si_arch;
	r->data = info->si_errno;
	if ((info->si_syscall & ~X32_SYSCALL_BIT) == __NR_dup) {
		r->emulated++;
		r->emulated_fd = uc->uc_mcontext.gregs[REG_RDI];
		ret = fcntl((int)r->emulated_fd, F_DUPFD, 0);
		if (ret < 0)
			ret = -errno;
	}
	uc->uc_mcontext.gregs[REG_RAX] = ret;
}

static long same_file(int64_t a, int b)
{
	struct stat sa, sb;

	if (a < 0 || fstat((int)a, &sa) || fstat(b, &sb))
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static long lowest_free(int fd_open)
{
	long fd = fcntl(fd_open, F_DUPFD, 0);

	if (fd >= 0)
		close((int)fd);
	return fd;
}

static void trap_child(void)
{
	struct sigaction sa = { .sa_sigaction = emulator,
				.sa_flags = SA_SIGINFO };
	uint64_t p[INDIRECT_NR_PARAMS] = { 0 };
	int a, decoy[2];

	alarm(CHILD_TIME_LIMIT);
	a = open("/dev/null", O_RDONLY);
	if (a < 0 || a == __NR_dup || pipe(decoy) ||
	    dup2(decoy[0], __NR_dup) != __NR_dup ||
	    sigaction(SIGSYS, &sa, NULL) ||
	    install(__NR_dup, SECCOMP_RET_TRAP | TRAP_DATA))
		_exit(98);
	r->a = a;
	p[0] = a;
	r->direct = syscall64(__NR_dup, a, 0, 0, 0);
	r->direct_is_a = same_file(r->direct, a);
	r->free_before = lowest_free(a);
	r->ret = indirect64(__NR_dup, NULL, 0, p);
	r->free_after = lowest_free(a);
	_exit(0);
}

static void run_trap(void)
{
	int status;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	r->ret = r->direct = r->a = r->emulated_fd = -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid)
		trap_child();
	if (waitpid(pid, &status, 0) != pid)
		ksft_exit_fail_msg("waitpid: %s\n", strerror(errno));
	check_long("x32_trap_child_exits", 0, fate_of(status));
	check_long("x32_trap_two_sigsys", 2, r->signals);
	check_long("x32_trap_direct_dup_emulated", 1, r->direct_is_a);
	check_long("x32_trap_inner_si_syscall_is_indirect", __NR_indirect,
		   r->named_nr);
	check_long("x32_trap_inner_si_arch", AUDIT_ARCH_X86_64, r->named_arch);
	check_long("x32_trap_inner_si_errno_is_filter_data", TRAP_DATA,
		   r->data);
	check_long("x32_trap_only_the_direct_call_emulated", 1, r->emulated);
	check_long("x32_trap_inner_enosys", -ENOSYS, (long)r->ret);
	check_long("x32_trap_inner_no_descriptor_made", r->free_before,
		   r->free_after);
	check_long("x32_trap_handler_duplicated_a_only", r->a,
		   r->emulated_fd);
}

int main(void)
{
	uint64_t getppid_params[INDIRECT_NR_PARAMS] = { 0 };
	unsigned int i, n = 10;
	int fd;

	ksft_print_header();
	if (indirect64(__NR_getppid, NULL, 0, getppid_params) == -ENOSYS)
		ksft_exit_skip("indirect() is not available (ENOSYS)\n");
	r = shared(sizeof(*r));
	snprintf(dir, sizeof(dir), "/tmp/x32-monitor-%d", getpid());
	snprintf(approved_path, sizeof(approved_path), "%s/approved", dir);
	snprintf(other_path, sizeof(other_path), "%s/other", dir);
	if (mkdir(dir, 0755) && errno != EEXIST)
		ksft_exit_fail_msg("mkdir %s: %s\n", dir, strerror(errno));
	fd = open(approved_path, O_WRONLY | O_CREAT, 0600);
	if (fd < 0)
		ksft_exit_fail_msg("creating %s: %s\n", approved_path,
				   strerror(errno));
	close(fd);
	for (i = 0; i < ARRAY_LEN(cases); i++)
		n += 5 + cases[i].aware + !!cases[i].stops;
	ksft_set_plan(n);
	for (i = 0; i < ARRAY_LEN(cases); i++)
		run_attack(&cases[i]);
	run_trap();
	unlink(other_path);
	unlink(approved_path);
	rmdir(dir);
	ksft_finished();
}
