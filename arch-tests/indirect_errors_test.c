// SPDX-License-Identifier: GPL-2.0
/*
 * indirect() on bad input: each pointer argument that cannot be read
 * gives EFAULT, unknown context ids and flag bits give EINVAL, nctxs above
 * INDIRECT_MAX_CTXS gives E2BIG before the array is read, and a number
 * that is no syscall gives ENOSYS. A call that fails after some contexts
 * were set leaves none of them behind, and neither does one that succeeds.
 * No call, failing or not, leaks a descriptor (the next descriptor number
 * stays the same) or changes the signal mask or a descriptor's flags, and
 * thousands of failing calls with the most contexts leak no memory.
 *
 * The checks come in this order: nctxs (E2BIG), then params (EFAULT),
 * then the contexts (EFAULT, EINVAL), and only then the blacklist
 * (EINVAL): a blacklisted number with a bad outer argument gets that
 * argument's error. The blacklisted number used is indirect() itself,
 * with params for a nested indirect(getppid), so that one that got
 * through shows as the parent's pid rather than doing harm.
 */
#include <signal.h>
#include <sys/socket.h>
#include "indirect_test.h"

struct errno_case {
	const char *name;
	long nr;
	const void *ctxs;
	unsigned long nctxs;
	const unsigned long *params;
	long expected;		/* the result, or -errno */
};

static unsigned long getppid_params[INDIRECT_NR_PARAMS];
static const unsigned long socket_params[INDIRECT_NR_PARAMS] = {
	AF_UNIX, SOCK_STREAM,
};
/* indirect(getppid, NULL, 0, getppid_params), for a blacklisted call. */
static const unsigned long nested_params[INDIRECT_NR_PARAMS] = {
	__NR_getppid, 0, 0, (unsigned long)getppid_params,
};

/*
 * Contexts whose id no kind has. The kernel reads the first 8 bytes of
 * every context, its id and the 32-bit field that every kind has after
 * it, before it looks at the id: these have both, so that what the id
 * alone earns is EINVAL.
 */
struct unknown_ctx {
	__u32 ctx;
	__u32 word;
};
static struct unknown_ctx unknown_next = { .ctx = SYSIND_CTX_RESOLVE + 1 };
static struct unknown_ctx unknown_99 = { .ctx = 99 };
static struct unknown_ctx unknown_max = { .ctx = 0xffffffff };
static struct sysind_ctx_OPENFLAGS nonblock = {
	SYSIND_CTX_OPENFLAGS, O_NONBLOCK,
};
static struct sysind_ctx_OPENFLAGS cloexec_nonblock = {
	SYSIND_CTX_OPENFLAGS, O_CLOEXEC | O_NONBLOCK,
};
static struct sysind_ctx_OPENFLAGS append = { SYSIND_CTX_OPENFLAGS, O_APPEND };
static struct sysind_ctx_OPENFLAGS high_bit = {
	SYSIND_CTX_OPENFLAGS, 0x80000000u,
};

#define ONE(ctx)	((const struct indirect_ctx *[]){ \
				(const struct indirect_ctx *)(ctx) })
/* The valid cloexec context first, then @ctx, which fails. */
#define AFTER_CLOEXEC(ctx) ((const struct indirect_ctx *[]){ \
				cloexec_ctxs[0], (const struct indirect_ctx *)(ctx) })

/* The task state that no call may change, or leave changed. */
struct task_state {
	int next_fd;
	int probe_fd_flags;
	sigset_t mask;
};

/* A descriptor that is close-on-exec, whose flags no call may change. */
static int probe_fd;

static void task_state(struct task_state *st)
{
	/* glibc's sigset_t is wider than the kernel's: clear the rest. */
	memset(st, 0, sizeof(*st));
	st->next_fd = dup(0);
	if (st->next_fd >= 0)
		close(st->next_fd);
	st->probe_fd_flags = fcntl(probe_fd, F_GETFD);
	sigprocmask(SIG_SETMASK, NULL, &st->mask);
}

/* Report @name as passed if the state is as in @before, else say what. */
static void check_state(const char *name, const struct task_state *before)
{
	struct task_state after;

	task_state(&after);
	if (after.next_fd != before->next_fd)
		ksft_print_msg("%s: next descriptor: expected %d, got %d\n",
			       name, before->next_fd, after.next_fd);
	if (after.probe_fd_flags != before->probe_fd_flags)
		ksft_print_msg("%s: descriptor flags: expected %#x, got %#x\n",
			       name, before->probe_fd_flags,
			       after.probe_fd_flags);
	if (memcmp(&after.mask, &before->mask, sizeof(after.mask)))
		ksft_print_msg("%s: signal mask changed\n", name);
	check_long(name, 1, after.next_fd == before->next_fd &&
		   after.probe_fd_flags == before->probe_fd_flags &&
		   !memcmp(&after.mask, &before->mask, sizeof(after.mask)));
}

static void run_case(const struct errno_case *c)
{
	struct task_state before;
	char name[96];
	long ret;

	task_state(&before);
	ret = indirect_result(c->nr, c->ctxs, c->nctxs, c->params);
	/* A descriptor made by a case that wrongly succeeded goes away. */
	if (c->params == socket_params && ret >= 0)
		close(ret);
	check_long(c->name, c->expected, ret);
	snprintf(name, sizeof(name), "%s_task_state_unchanged", c->name);
	check_state(name, &before);
}

/* MemFree from /proc/meminfo, in kB. */
static long mem_free_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		ksft_exit_fail_msg("/proc/meminfo: %s\n", strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemFree: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/*
 * Calls with the most contexts that fail at the last one: had a call
 * leaked its records' memory, even a page per thousand calls, MemFree
 * would drop by far more than the slack allowed for the rest of the
 * system. The first round warms the caches up.
 */
#define LEAK_CALLS	4000
#define LEAK_SLACK_KB	1024

static void check_no_memory_leak(const struct indirect_ctx **ctxs)
{
	long before = 0, drop, ret = 0;
	int round, i;

	for (round = 0; round < 2; round++) {
		before = mem_free_kb();
		for (i = 0; i < LEAK_CALLS; i++)
			ret |= indirect_result(__NR_getppid, ctxs,
					       INDIRECT_MAX_CTXS,
					       getppid_params) != -EINVAL;
	}
	drop = before - mem_free_kb();
	check_long("leak_calls_all_einval", 0, ret);
	if (drop >= LEAK_SLACK_KB)
		ksft_print_msg("MemFree dropped by %ld kB over %d failing calls\n",
			       drop, LEAK_CALLS);
	check_long("no_memory_leak_over_failing_calls", 1,
		   drop < LEAK_SLACK_KB);
}

/* After a case that set a context, a plain call must see none of it. */
static void check_no_state(const char *after)
{
	char name[96];

	snprintf(name, sizeof(name), "no_context_left_after_%s", after);
	check_long(name, 0, plain_socket_cloexec());
}

/*
 * The kernel reads a context's id and the 32-bit field after it as one
 * 8-byte head, which may start at 4 mod 8: a context needs only 4-byte
 * alignment. A context whose head ends where the guard page starts is
 * read whole, and gets what its id earns; one whose id is the last
 * mapped word faults, whatever the id, for the field after it is not
 * mapped.
 */
static void check_head_at_guard(char *end)
{
	struct sysind_ctx_OPENFLAGS *at_4_mod_8 = (void *)(end - 12);
	struct sysind_ctx_OPENFLAGS *at_end = (void *)(end - 8);
	struct unknown_ctx *unknown_at_end = (void *)(end - 8);
	struct indirect_ctx *id_last = (void *)(end - 4);
	const struct errno_case head_at_4_mod_8 = {
		"ctx_head_at_4_mod_8_ok", __NR_getppid, ONE(at_4_mod_8), 1,
		getppid_params, getppid()
	};
	const struct errno_case head_ends_at_guard = {
		"ctx_head_ends_at_guard_ok", __NR_getppid, ONE(at_end), 1,
		getppid_params, getppid()
	};
	const struct errno_case unknown_head_ends_at_guard = {
		"ctx_unknown_id_head_ends_at_guard_einval", __NR_getppid,
		ONE(unknown_at_end), 1, getppid_params, -EINVAL
	};
	const struct errno_case id_is_last_word = {
		"ctx_unknown_id_last_word_before_guard_efault", __NR_getppid,
		ONE(id_last), 1, getppid_params, -EFAULT
	};

	at_4_mod_8->ctx = SYSIND_CTX_OPENFLAGS;
	at_4_mod_8->flags = O_CLOEXEC;
	run_case(&head_at_4_mod_8);
	at_end->ctx = SYSIND_CTX_OPENFLAGS;
	at_end->flags = O_CLOEXEC;
	run_case(&head_ends_at_guard);
	unknown_at_end->ctx = 99;
	unknown_at_end->word = 0;
	run_case(&unknown_head_ends_at_guard);
	id_last->ctx = 99;
	run_case(&id_is_last_word);
}

int main(void)
{
	char *end = guard_page_end();
	const struct indirect_ctx *max_ctxs[INDIRECT_MAX_CTXS];
	const struct indirect_ctx *max_then_bad[INDIRECT_MAX_CTXS];
	struct sysind_ctx_SIGMASK block_usr1;
	sigset_t usr1;
	/* Six parameters of which only the last is unmapped. */
	unsigned long *params_straddle = (unsigned long *)end - 5;
	/* Six parameters that end exactly at the guard page. */
	unsigned long *params_at_end = (unsigned long *)end - INDIRECT_NR_PARAMS;
	/* A ctxs array whose second pointer is not mapped. */
	const void **ctxs_straddle = (const void **)end - 1;
	/* An OPENFLAGS context whose id is mapped and flags are not. */
	struct sysind_ctx_OPENFLAGS *ctx_straddle = (void *)(end - 4);
	unsigned int i;

	ksft_print_header();
	indirect_require();

	memset(params_at_end, 0, INDIRECT_NR_PARAMS * sizeof(long));
	*ctxs_straddle = cloexec_ctxs[0];
	ctx_straddle->ctx = SYSIND_CTX_OPENFLAGS;
	for (i = 0; i < INDIRECT_MAX_CTXS; i++)
		max_ctxs[i] = cloexec_ctxs[0];
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	/* SIGMASK first, then cloexec ones, then one that fails. */
	max_then_bad[0] = indirect_ctx_sigmask(&block_usr1, &usr1);
	for (i = 1; i < INDIRECT_MAX_CTXS - 1; i++)
		max_then_bad[i] = cloexec_ctxs[0];
	max_then_bad[INDIRECT_MAX_CTXS - 1] =
		(const struct indirect_ctx *)&unknown_99;
	probe_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (probe_fd < 0)
		ksft_exit_fail_msg("open /dev/null: %s\n", strerror(errno));

	const struct errno_case cases[] = {
		{ "nctxs_0_ctxs_null_ok", __NR_getppid, NULL, 0,
		  getppid_params, getppid() },
		{ "params_null_efault", __NR_getppid, NULL, 0, NULL, -EFAULT },
		{ "params_straddle_guard_efault", __NR_getppid, NULL, 0,
		  params_straddle, -EFAULT },
		{ "params_end_at_guard_ok", __NR_getppid, NULL, 0,
		  params_at_end, getppid() },
		{ "ctxs_null_efault", __NR_getppid, NULL, 1,
		  getppid_params, -EFAULT },
		{ "ctxs_unmapped_efault", __NR_getppid, end, 1,
		  getppid_params, -EFAULT },
		{ "ctx_pointer_unmapped_efault", __NR_getppid, ONE(end), 1,
		  getppid_params, -EFAULT },
		{ "ctx_flags_unmapped_efault", __NR_socket, ONE(ctx_straddle), 1,
		  socket_params, -EFAULT },
		{ "ctx_id_after_last_kind_einval", __NR_getppid,
		  ONE(&unknown_next), 1, getppid_params, -EINVAL },
		{ "ctx_id_99_einval", __NR_getppid, ONE(&unknown_99), 1,
		  getppid_params, -EINVAL },
		{ "ctx_id_u32_max_einval", __NR_getppid, ONE(&unknown_max), 1,
		  getppid_params, -EINVAL },
		{ "openflags_nonblock_einval", __NR_socket, ONE(&nonblock), 1,
		  socket_params, -EINVAL },
		{ "openflags_cloexec_nonblock_einval", __NR_socket,
		  ONE(&cloexec_nonblock), 1, socket_params, -EINVAL },
		{ "openflags_append_einval", __NR_socket, ONE(&append), 1,
		  socket_params, -EINVAL },
		{ "openflags_high_bit_einval", __NR_socket, ONE(&high_bit), 1,
		  socket_params, -EINVAL },
		{ "nctxs_max_plus_1_e2big_unread", __NR_getppid, NULL,
		  INDIRECT_MAX_CTXS + 1, getppid_params, -E2BIG },
		{ "nctxs_u32_max_e2big_unread", __NR_getppid, NULL, 0xffffffffUL,
		  getppid_params, -E2BIG },
		{ "nctxs_max_ok", __NR_getppid, max_ctxs, INDIRECT_MAX_CTXS,
		  getppid_params, getppid() },
		{ "nr_100000_enosys", 100000, NULL, 0, getppid_params, -ENOSYS },
		{ "nr_u32_max_enosys", 0xffffffffL, NULL, 0, getppid_params,
		  -ENOSYS },
		/* No syscall, but on ARM clock_gettime64(0, NULL) (abi.h). */
		{ "nr_after_indirect_" ABI_AFTER_INDIRECT_WHAT,
		  __NR_indirect + 1, NULL, 0, getppid_params,
		  ABI_AFTER_INDIRECT_RET },
#ifdef __ARM_NR_BASE
		/*
		 * ARM's private calls, above the table: indirect() does not
		 * dispatch them. Both harmless had they run.
		 */
		{ "arm_private_cacheflush_enosys", __ARM_NR_cacheflush, NULL, 0,
		  getppid_params, -ENOSYS },
		{ "arm_private_get_tls_enosys", __ARM_NR_get_tls, NULL, 0,
		  getppid_params, -ENOSYS },
#endif
		/* The order of the checks. */
		{ "e2big_before_params_efault", __NR_getppid, NULL,
		  INDIRECT_MAX_CTXS + 1, NULL, -E2BIG },
		{ "params_efault_before_ctx_id_einval", __NR_getppid,
		  ONE(&unknown_99), 1, params_straddle, -EFAULT },
		{ "ctx_efault_before_enosys", 100000, ONE(end), 1,
		  getppid_params, -EFAULT },
		{ "blacklisted_einval", __NR_indirect, NULL, 0, nested_params,
		  -EINVAL },
		{ "blacklisted_valid_ctx_einval", __NR_indirect, cloexec_ctxs, 1,
		  nested_params, -EINVAL },
		{ "blacklisted_nctxs_max_plus_1_e2big", __NR_indirect, NULL,
		  INDIRECT_MAX_CTXS + 1, nested_params, -E2BIG },
		{ "blacklisted_nctxs_u32_max_e2big", __NR_indirect, NULL,
		  0xffffffffUL, nested_params, -E2BIG },
		{ "blacklisted_params_null_efault", __NR_indirect, NULL, 0, NULL,
		  -EFAULT },
		{ "blacklisted_params_straddle_guard_efault", __NR_indirect, NULL,
		  0, params_straddle, -EFAULT },
		{ "blacklisted_ctxs_null_efault", __NR_indirect, NULL, 1,
		  nested_params, -EFAULT },
		{ "blacklisted_ctx_pointer_unmapped_efault", __NR_indirect,
		  ONE(end), 1, nested_params, -EFAULT },
		{ "blacklisted_ctx_flags_unmapped_efault", __NR_indirect,
		  ONE(ctx_straddle), 1, nested_params, -EFAULT },
		{ "blacklisted_ctx_id_99_einval", __NR_indirect,
		  ONE(&unknown_99), 1, nested_params, -EINVAL },
	};
	/* Cases that set a context before failing, or succeed with one. */
	const struct errno_case stateful[] = {
		{ "bad_id", __NR_socket, AFTER_CLOEXEC(&unknown_99), 2,
		  socket_params, -EINVAL },
		{ "bad_flags", __NR_socket, AFTER_CLOEXEC(&nonblock), 2,
		  socket_params, -EINVAL },
		{ "unmapped_ctx", __NR_socket, AFTER_CLOEXEC(end), 2,
		  socket_params, -EFAULT },
		{ "straddling_ctx", __NR_socket, AFTER_CLOEXEC(ctx_straddle), 2,
		  socket_params, -EFAULT },
		{ "straddling_ctxs_array", __NR_socket, ctxs_straddle, 2,
		  socket_params, -EFAULT },
		{ "enosys", 100000, cloexec_ctxs, 1, getppid_params, -ENOSYS },
		{ "failing_inner_call", __NR_close, cloexec_ctxs, 1,
		  (const unsigned long[INDIRECT_NR_PARAMS]){ 100000 }, -EBADF },
		{ "max_contexts", __NR_getppid, max_ctxs, INDIRECT_MAX_CTXS,
		  getppid_params, getppid() },
		{ "sigmask_then_bad_id", __NR_getppid, max_then_bad,
		  INDIRECT_MAX_CTXS, getppid_params, -EINVAL },
		/* Blacklisted: refused with the contexts set, then undone. */
		{ "blacklisted", __NR_indirect, cloexec_ctxs, 1, nested_params,
		  -EINVAL },
		{ "blacklisted_max_contexts", __NR_indirect, max_ctxs,
		  INDIRECT_MAX_CTXS, nested_params, -EINVAL },
		{ "blacklisted_unmapped_ctx", __NR_indirect, AFTER_CLOEXEC(end), 2,
		  nested_params, -EFAULT },
		{ "blacklisted_straddling_ctxs_array", __NR_indirect,
		  ctxs_straddle, 2, nested_params, -EFAULT },
	};

	ksft_set_plan(2 * ARRAY_SIZE(cases) + 3 * ARRAY_SIZE(stateful) + 8 + 2);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		run_case(&cases[i]);
	for (i = 0; i < ARRAY_SIZE(stateful); i++) {
		char name[96];
		struct errno_case c = stateful[i];

		snprintf(name, sizeof(name), "%s_after_cloexec", c.name);
		c.name = name;
		run_case(&c);
		check_no_state(stateful[i].name);
	}
	/* Last: it writes over the contexts at the end of the page. */
	check_head_at_guard(end);
	check_no_memory_leak(max_then_bad);
	ksft_finished();
}
