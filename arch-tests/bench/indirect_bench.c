// SPDX-License-Identifier: GPL-2.0
/*
 * What indirect() costs, against the calls a program would otherwise make.
 *
 * Usage: indirect_bench [rounds [iterations]]
 *        (or BENCH_SIZE=smoke|full in the environment, as the guest sets)
 *        BENCH_PROFILE=<variant>:<calls> indirect_bench
 *        (calls of one variant, untimed, for make profile)
 *
 * With HARNESS_ABI=<abi>+audit in the environment (the guest's suite of
 * that name), it measures only the dispatch with auditing on and no rule,
 * which leaves every task that the boot forks afterwards with an audit
 * context: the guest runs that suite after all the others.
 *
 * Each comparison runs its variants interleaved (A, B, A, B, ...) for
 * <rounds> rounds of <iterations> samples, after a warm-up. A sample is
 * one call, timed on its own, where the clock resolves single units (the
 * TSC); where it steps by several (arm's counter, by 16 ns), a sample
 * times that many calls together, and counts as their mean, so that the
 * figures still resolve one instruction. Each variant reports the median
 * of all its samples
 * and the spread (the range of the middle half of them) in the ABI's
 * clock units (abi.h: TSC ticks on x86, nanoseconds of the virtual counter
 * on arm64), less the median cost of timing an empty call. Under QEMU's
 * "-icount shift=0" either unit is one guest instruction, so the figures
 * repeat from boot to boot.
 * The median of single calls (or of short batches) is what a typical call
 * costs; a mean over a round would mix in the rare slow paths of the allocators (a new slab
 * page, say), which land on one variant or another by chance.
 * Each result is a KTAP diagnostic line:
 *
 *   # bench<TAB>name<TAB>median<TAB>spread<TAB>baseline
 *
 * and each comparison a KTAP test that passes when it was measured.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <stddef.h>
#include "../indirect_test.h"
#include "../audit_daemon.h"

#define MAX_ROUNDS	101
#define MAX_ITERATIONS	10000

static unsigned int rounds = 31, iterations = 200;

/* One variant of a comparison: a name, one call of it, and its timings. */
struct variant {
	const char *name;
	void (*call)(void);
	uint64_t *samples;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Calls timed together in a sample: the units of one step of the clock. */
static unsigned int batch = 1;

/* Time @n samples of @batch calls of @call into @samples. */
static void time_calls(void (*call)(void), uint64_t *samples, unsigned int n)
{
	unsigned int i, j;
	uint64_t t;

	for (i = 0; i < n; i++) {
		t = abi_clock();
		for (j = 0; j < batch; j++)
			call();
		samples[i] = abi_clock_units(abi_clock() - t);
	}
}

static void call_nothing(void)
{
	/* Keeps the compiler from dropping the call. */
	asm volatile("" ::: "memory");
}

/* What timing one call costs by itself; subtracted from every median. */
static double timing_cost;

static uint64_t *alloc_samples(void)
{
	uint64_t *s = calloc((size_t)rounds * iterations, sizeof(*s));

	if (!s)
		ksft_exit_fail_msg("out of memory for %u samples\n",
				   rounds * iterations);
	return s;
}

static void measure_timing_cost(void)
{
	unsigned int n = rounds * iterations;
	uint64_t *s = alloc_samples();

	time_calls(call_nothing, s, iterations);
	time_calls(call_nothing, s, n);
	qsort(s, n, sizeof(*s), cmp_u64);
	timing_cost = (double)s[n / 2] / batch;
	free(s);
	ksft_print_msg("timing one call costs %.1f %s by itself (%u call%s a sample)\n",
		       timing_cost, ABI_CLOCK_NAME, batch, batch > 1 ? "s" : "");
}

/* Run @n variants interleaved and report each against variant 0. */
static void compare(const char *what, struct variant *v, int n)
{
	unsigned int r, total = rounds * iterations;
	int k;

	for (k = 0; k < n; k++) {
		v[k].samples = alloc_samples();
		/* Warm-up: caches, slab pages and descriptor tables. */
		time_calls(v[k].call, v[k].samples, iterations);
	}
	for (r = 0; r < rounds; r++)
		for (k = 0; k < n; k++)
			time_calls(v[k].call, v[k].samples + r * iterations,
				   iterations);
	for (k = 0; k < n; k++) {
		uint64_t *s = v[k].samples;

		qsort(s, total, sizeof(*s), cmp_u64);
		printf("# bench\t%s\t%.1f\t%.1f\t%s\n", v[k].name,
		       (double)s[total / 2] / batch - timing_cost,
		       (double)(s[total * 3 / 4] - s[total / 4]) / batch,
		       k ? v[0].name : "-");
		free(s);
		v[k].samples = NULL;
	}
	ksft_test_result_pass("%s\n", what);
}

static unsigned long getppid_params[INDIRECT_NR_PARAMS];
static const struct indirect_ctx *ctxs[INDIRECT_MAX_CTXS];

static void call_getppid(void)
{
	syscall(__NR_getppid);
}

#define INDIRECT_GETPPID(n)						\
static void call_indirect_getppid_##n(void)				\
{									\
	syscall(__NR_indirect, __NR_getppid, ctxs, n, getppid_params);	\
}
INDIRECT_GETPPID(0)
INDIRECT_GETPPID(1)
INDIRECT_GETPPID(2)
INDIRECT_GETPPID(4)
INDIRECT_GETPPID(8)
INDIRECT_GETPPID(16)

/*
 * Calls that indirect() refuses, each against a direct call that returns
 * ENOSYS (a number in a hole of the table): a number on the blacklist
 * (execve, which with zero arguments could do no harm if it ran), more
 * contexts than INDIRECT_MAX_CTXS, and a context of no known kind. None
 * may cost more than the successful call of the same shape.
 */
static const unsigned int nosys_holes[] = ABI_NR_HOLES;
static unsigned long refused_params[INDIRECT_NR_PARAMS];
static const struct sysind_ctx_OPENFLAGS unknown_ctx = { .ctx = 0x7fff };
static const struct indirect_ctx *unknown_ctxs[] = {
	(const struct indirect_ctx *)&unknown_ctx,
};

static void call_nosys(void)
{
	syscall(nosys_holes[0]);
}

static void call_indirect_blacklisted(void)
{
	syscall(__NR_indirect, __NR_execve, NULL, 0, refused_params);
}

static void call_indirect_too_many(void)
{
	syscall(__NR_indirect, __NR_getppid, ctxs, INDIRECT_MAX_CTXS + 1,
		getppid_params);
}

static void call_indirect_unknown_ctx(void)
{
	syscall(__NR_indirect, __NR_getppid, unknown_ctxs, 1, getppid_params);
}

/*
 * The dispatch comparison again with auditing on and no rule: a task
 * forked from then on has an audit context, which is dummy. Both calls
 * go through the audit entry and exit paths; indirect() adds the test
 * for a dummy context to name its inner call, and nothing else. It runs
 * in a child, whose result the parent counts. Without CONFIG_AUDIT, or
 * with an audit daemon running, it is skipped.
 */
static void compare_audit_dummy(struct variant *variants, unsigned int n)
{
	int ret = audit_daemon_start(), status;
	pid_t pid;

	if (ret) {
		ksft_test_result_skip("audit_dummy_dispatch: no audit (%s)\n",
				      strerror(-ret));
		return;
	}
	fflush(stdout);
	pid = fork();
	if (!pid) {
		compare("audit_dummy_dispatch", variants, n);
		fflush(stdout);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		ksft_test_result_fail("audit_dummy_dispatch: the child failed\n");
	else
		ksft_inc_pass_cnt();	/* the child printed its result */
	audit_daemon_stop();
}

static unsigned long socket_params[INDIRECT_NR_PARAMS] = { AF_UNIX, SOCK_STREAM };

static void call_socket_fcntl(void)
{
	int fd = syscall(__NR_socket, AF_UNIX, SOCK_STREAM, 0);

	syscall(__NR_fcntl, fd, F_SETFD, FD_CLOEXEC);
	syscall(__NR_close, fd);
}

static void call_socket_cloexec(void)
{
	syscall(__NR_close, syscall(__NR_socket, AF_UNIX,
				    SOCK_STREAM | SOCK_CLOEXEC, 0));
}

static void call_indirect_socket(void)
{
	syscall(__NR_close, syscall(__NR_indirect, __NR_socket, cloexec_ctxs, 1,
				    socket_params));
}

static int listen_fd;
static struct sockaddr_un addr;
static socklen_t addr_len;
static unsigned long accept_params[INDIRECT_NR_PARAMS];

/* A connection to accept, made before each accept variant's call. */
static int connect_one(void)
{
	int c = syscall(__NR_socket, AF_UNIX, SOCK_STREAM, 0);

	syscall(__NR_connect, c, (unsigned long)&addr, addr_len);
	return c;
}

static void call_accept_fcntl(void)
{
	int c = connect_one();
	int fd = syscall(__NR_accept4, listen_fd, 0, 0, 0);

	syscall(__NR_fcntl, fd, F_SETFD, FD_CLOEXEC);
	syscall(__NR_close, fd);
	syscall(__NR_close, c);
}

static void call_accept4_cloexec(void)
{
	int c = connect_one();

	syscall(__NR_close, syscall(__NR_accept4, listen_fd, 0, 0, SOCK_CLOEXEC));
	syscall(__NR_close, c);
}

static void call_indirect_accept(void)
{
	int c = connect_one();

	syscall(__NR_close, syscall(__NR_indirect, __NR_accept4, cloexec_ctxs, 1,
				    accept_params));
	syscall(__NR_close, c);
}

/*
 * Direct path lookups, which a RESOLVE context's hook in path_init() must
 * leave as they were: each one resolves d/f or d/n from a directory in a
 * tmpfs. They run twice: before any RESOLVE context was set on this boot,
 * when the hook is a no-op, and after one was, when it is a test.
 */
static int tree_fd;
static char stat_buf[256];

#ifdef __NR_newfstatat
#define NR_FSTATAT	__NR_newfstatat
#else
#define NR_FSTATAT	__NR_fstatat64
#endif

static void call_openat(void)
{
	syscall(__NR_close, syscall(__NR_openat, tree_fd, "d/f", O_RDONLY));
}

static void call_mkdirat(void)
{
	syscall(__NR_mkdirat, tree_fd, "d/n", 0755);
	syscall(__NR_unlinkat, tree_fd, "d/n", AT_REMOVEDIR);
}

static void call_fstatat(void)
{
	syscall(NR_FSTATAT, tree_fd, "d/f", stat_buf, 0);
}

/* The same calls confined beneath tree_fd: openat2(), and indirect(). */
static struct sysind_ctx_RESOLVE beneath_ctx = {
	.ctx = SYSIND_CTX_RESOLVE,
	.resolve = 0x08,	/* RESOLVE_BENEATH */
};
static const struct indirect_ctx *beneath_ctxs[] = {
	(const struct indirect_ctx *)&beneath_ctx,
};
static struct {
	uint64_t flags, mode, resolve;
} beneath_how = { .flags = O_RDONLY, .resolve = 0x08 };
static unsigned long openat_params[INDIRECT_NR_PARAMS];
static unsigned long mkdirat_params[INDIRECT_NR_PARAMS];

static void call_openat2_beneath(void)
{
	syscall(__NR_close, syscall(__NR_openat2, tree_fd, "d/f", &beneath_how,
				    sizeof(beneath_how)));
}

static void call_indirect_openat_beneath(void)
{
	syscall(__NR_close, syscall(__NR_indirect, __NR_openat, beneath_ctxs, 1,
				    openat_params));
}

static void call_indirect_mkdirat_beneath(void)
{
	syscall(__NR_indirect, __NR_mkdirat, beneath_ctxs, 1, mkdirat_params);
	syscall(__NR_unlinkat, tree_fd, "d/n", AT_REMOVEDIR);
}

static void setup_tree(void)
{
	int fd;

	mkdir("/tmp/indirect-bench", 0755);
	tree_fd = open("/tmp/indirect-bench", O_PATH | O_DIRECTORY);
	if (tree_fd < 0 || (mkdirat(tree_fd, "d", 0755) && errno != EEXIST))
		ksft_exit_fail_msg("bench tree: %s\n", strerror(errno));
	fd = openat(tree_fd, "d/f", O_WRONLY | O_CREAT, 0644);
	if (fd < 0)
		ksft_exit_fail_msg("bench tree: %s\n", strerror(errno));
	close(fd);
	openat_params[0] = tree_fd;
	openat_params[1] = (unsigned long)"d/f";
	openat_params[2] = O_RDONLY;
	mkdirat_params[0] = tree_fd;
	mkdirat_params[1] = (unsigned long)"d/n";
	mkdirat_params[2] = 0755;
}

/* The variants of one comparison. */
struct variant_set {
	struct variant *v;
	unsigned int n;
};

/*
 * BENCH_PROFILE=<variant>:<calls>: make <calls> calls of one variant and
 * time none, for make profile, whose QEMU logs every block of the
 * kernel's syscall path that runs.
 */
static void run_profile(const char *spec, const struct variant_set *sets,
			unsigned int n)
{
	const char *colon = strchr(spec, ':');
	unsigned long calls, i;
	unsigned int s, k;
	char *end;

	ksft_set_plan(1);
	if (!colon || colon == spec)
		ksft_exit_fail_msg("BENCH_PROFILE=%s: want <variant>:<calls>\n",
				   spec);
	errno = 0;
	calls = strtoul(colon + 1, &end, 10);
	if (errno || *end || !calls)
		ksft_exit_fail_msg("BENCH_PROFILE=%s: <calls> is no positive number\n",
				   spec);
	for (s = 0; s < n; s++)
		for (k = 0; k < sets[s].n; k++) {
			const struct variant *v = &sets[s].v[k];

			if (strlen(v->name) != (size_t)(colon - spec) ||
			    strncmp(v->name, spec, colon - spec))
				continue;
			ksft_print_msg("profile: %lu calls of %s\n", calls,
				       v->name);
			for (i = 0; i < calls; i++)
				v->call();
			ksft_test_result_pass("profile %s\n", v->name);
			ksft_finished();
		}
	ksft_exit_fail_msg("BENCH_PROFILE=%s: no variant of that name\n", spec);
	/* Not reached: ksft_exit_fail_msg() exits, though 6.1's says not. */
	exit(KSFT_FAIL);
}

static void setup(void)
{
	unsigned int i;

	for (i = 0; i < INDIRECT_MAX_CTXS; i++)
		ctxs[i] = cloexec_ctxs[0];
	listen_fd = unix_listener("indirect-bench", &addr, &addr_len);
	accept_params[0] = listen_fd;
	setup_tree();
}

int main(int argc, char **argv)
{
	struct variant dispatch[] = {
		{ .name = "getppid", .call = call_getppid },
		{ .name = "indirect_getppid_0", .call = call_indirect_getppid_0 },
	};
	struct variant audit_dispatch[] = {
		{ .name = "getppid_audit_dummy", .call = call_getppid },
		{ .name = "indirect_getppid_0_audit_dummy",
		  .call = call_indirect_getppid_0 },
	};
	struct variant contexts[] = {
		{ .name = "indirect_getppid_0", .call = call_indirect_getppid_0 },
		{ .name = "indirect_getppid_1", .call = call_indirect_getppid_1 },
		{ .name = "indirect_getppid_2", .call = call_indirect_getppid_2 },
		{ .name = "indirect_getppid_4", .call = call_indirect_getppid_4 },
		{ .name = "indirect_getppid_8", .call = call_indirect_getppid_8 },
		{ .name = "indirect_getppid_16", .call = call_indirect_getppid_16 },
	};
	struct variant sockets[] = {
		{ .name = "socket_cloexec", .call = call_socket_cloexec },
		{ .name = "socket_fcntl", .call = call_socket_fcntl },
		{ .name = "indirect_socket", .call = call_indirect_socket },
	};
	struct variant accepts[] = {
		{ .name = "accept4_cloexec", .call = call_accept4_cloexec },
		{ .name = "accept_fcntl", .call = call_accept_fcntl },
		{ .name = "indirect_accept", .call = call_indirect_accept },
	};

	struct variant refusals[] = {
		{ .name = "nosys", .call = call_nosys },
		{ .name = "indirect_blacklisted", .call = call_indirect_blacklisted },
		{ .name = "indirect_too_many", .call = call_indirect_too_many },
		{ .name = "indirect_unknown_ctx", .call = call_indirect_unknown_ctx },
	};
	struct variant lookups[] = {
		{ .name = "openat", .call = call_openat },
		{ .name = "mkdirat", .call = call_mkdirat },
		{ .name = "fstatat", .call = call_fstatat },
	};
	struct variant lookups_armed[] = {
		{ .name = "openat_armed", .call = call_openat },
		{ .name = "mkdirat_armed", .call = call_mkdirat },
		{ .name = "fstatat_armed", .call = call_fstatat },
	};
	struct variant beneath[] = {
		{ .name = "openat2_beneath", .call = call_openat2_beneath },
		{ .name = "indirect_openat_beneath",
		  .call = call_indirect_openat_beneath },
		{ .name = "mkdirat_armed", .call = call_mkdirat },
		{ .name = "indirect_mkdirat_beneath",
		  .call = call_indirect_mkdirat_beneath },
	};

	struct variant_set all[] = {
		{ dispatch, ARRAY_SIZE(dispatch) },
		{ contexts, ARRAY_SIZE(contexts) },
		{ refusals, ARRAY_SIZE(refusals) },
		{ sockets, ARRAY_SIZE(sockets) },
		{ accepts, ARRAY_SIZE(accepts) },
		{ lookups, ARRAY_SIZE(lookups) },
		{ beneath, ARRAY_SIZE(beneath) },
	};
	const char *size = getenv("BENCH_SIZE"), *abi;
	const char *profile = getenv("BENCH_PROFILE");
	bool audit_part;

	/* smoke: enough for CI to check the goals; full: for people. */
	if (size && !strcmp(size, "smoke")) {
		rounds = 7;
		iterations = 50;
	}
	if (argc > 1)
		rounds = strtoul(argv[1], NULL, 0);
	if (argc > 2)
		iterations = strtoul(argv[2], NULL, 0);
	if (rounds < 3 || rounds > MAX_ROUNDS || !iterations ||
	    iterations > MAX_ITERATIONS)
		ksft_exit_fail_msg("usage: %s [rounds 3..%d [iterations 1..%d]]\n",
				   argv[0], MAX_ROUNDS, MAX_ITERATIONS);

	abi = getenv("HARNESS_ABI");
	audit_part = abi && strstr(abi, "+audit");

	ksft_print_header();
	indirect_require();
	/* As many calls in all as with one call a sample. */
	batch = abi_clock_step();
	iterations = (iterations + batch - 1) / batch;
	if (audit_part) {
		ksft_set_plan(1);
		compare_audit_dummy(audit_dispatch, ARRAY_SIZE(audit_dispatch));
		ksft_finished();
	}
	setup();
	if (profile)
		run_profile(profile, all, ARRAY_SIZE(all));
	ksft_set_plan(8);
	ksft_print_msg("%u rounds of %u samples of %u call%s; ABI %s\n", rounds,
		       iterations, batch, batch > 1 ? "s" : "", HARNESS_BUILD_ABI);
	measure_timing_cost();
	compare("bare_dispatch", dispatch, ARRAY_SIZE(dispatch));
	compare("context_cost", contexts, ARRAY_SIZE(contexts));
	compare("refused_calls", refusals, ARRAY_SIZE(refusals));
	compare("cloexec_socket", sockets, ARRAY_SIZE(sockets));
	compare("cloexec_accept", accepts, ARRAY_SIZE(accepts));
	/* Before the first RESOLVE context of the boot, then after it. */
	compare("direct_lookups", lookups, ARRAY_SIZE(lookups));
	call_indirect_openat_beneath();
	compare("direct_lookups_hook_armed", lookups_armed,
		ARRAY_SIZE(lookups_armed));
	compare("resolve_beneath", beneath, ARRAY_SIZE(beneath));
	ksft_finished();
}
