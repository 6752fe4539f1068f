// SPDX-License-Identifier: GPL-2.0
/*
 * The attack on a tracer written for direct calls. A sandbox's filter
 * answers SECCOMP_RET_TRACE to openat(), and its tracer approves the call
 * by the path that it reads from the registers at the seccomp stop, as it
 * would for a direct openat(): the second argument register. The task
 * calls indirect(openat) with no context (nctxs 0) and, as indirect()'s
 * own second argument, ctxs, which the kernel then never reads, a pointer
 * to the approved path; the inner call's own path, in params[1], is
 * another file. Had the tracer been stopped with indirect()'s registers,
 * it would approve the approved path and the other file would open.
 *
 * So the kernel stops only a tracer that says it understands inner calls
 * (PTRACE_O_INDIRECT), and shows that one the inner call in the
 * registers; for any other tracer the inner call fails with ENOSYS, as
 * seccomp fails TRACE when no tracer is there. Under a RESOLVE context
 * no tracer is stopped at all (ENOSYS): a tracer approves what it reads,
 * and RESOLVE's rules, which decide where the path leads, are not in the
 * registers.
 *
 * Each case runs a tracee that the test process traces; the tracer denies
 * a call (syscall number -1, EACCES) unless the path that it reads is
 * the approved one. The approved file exists; the other one is created
 * by the call (O_CREAT | O_EXCL), so whether it opened shows in the file
 * system. A direct openat() of each path under the same tracer shows that
 * the tracer does what it should with what it is shown.
 */
#include <linux/openat2.h>
#include <sys/stat.h>
#include "indirect_tracer.h"

/* The 16 bits of data the filter passes to the tracer. */
#define FILTER_DATA		0x0a7
/* Seconds a tracee may take, far beyond what a call takes under TCG. */
#define CHILD_TIME_LIMIT	60

/* How the task makes its openat(). */
enum call {
	DIRECT_APPROVED,	/* openat(approved) */
	DIRECT_OTHER,		/* openat(other) */
	INNER_DISGUISED,	/* indirect(openat(other)), ctxs approved */
	INNER_RESOLVE,		/* indirect(openat(dirfd, "other")), RESOLVE */
};

struct attack_case {
	const char *name;
	enum call call;
	/* The tracer sets PTRACE_O_INDIRECT. */
	bool aware;
	/* Seccomp stops, and the path the tracer read at the stop. */
	long stops;
	const char *seen;
	/* The call's result: a descriptor (1), or this -errno. */
	long ret;
	/* The other file exists afterwards. */
	long other_created;
};

/* What the paths of the table stand for. */
#define APPROVED	"approved"
#define OTHER		"other"

static const struct attack_case cases[] = {
	{ "direct_approved_opens", DIRECT_APPROVED, false, 1, APPROVED, 1, 0 },
	{ "direct_other_denied", DIRECT_OTHER, false, 1, OTHER, -EACCES, 0 },
	{ "legacy_tracer_inner_no_stop_enosys", INNER_DISGUISED, false, 0,
	  NULL, -ENOSYS, 0 },
	{ "aware_tracer_inner_sees_real_path", INNER_DISGUISED, true, 1,
	  OTHER, -EACCES, 0 },
	{ "legacy_tracer_resolve_no_stop_enosys", INNER_RESOLVE, false, 0,
	  NULL, -ENOSYS, 0 },
	{ "aware_tracer_resolve_no_stop_enosys", INNER_RESOLVE, true, 0,
	  NULL, -ENOSYS, 0 },
};

/* The files, under a directory of the test's own, set before the fork. */
static char dir[64], approved_path[96], other_path[96];

/* What tracer and tracee found, in memory shared between them. */
struct attack_result {
	long ret;
	long stops;
	long event_msg;
	char seen[96];
};

static struct attack_result *r;

static void tracee(const struct attack_case *c)
{
	struct seccomp_match m = { .nr = __NR_openat };
	struct sysind_ctx_RESOLVE beneath;
	const struct indirect_ctx *ctxs[1] = {
		indirect_ctx_resolve(&beneath, RESOLVE_BENEATH),
	};
	unsigned long params[INDIRECT_NR_PARAMS] = {
		(unsigned long)AT_FDCWD, 0, O_RDWR | O_CREAT | O_EXCL, 0600,
	};
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);

	alarm(CHILD_TIME_LIMIT);
	if (dfd < 0 || ptrace(PTRACE_TRACEME, 0, NULL, NULL))
		_exit(98);
	raise(SIGSTOP);
	if (seccomp_install_match(&m, SECCOMP_RET_TRACE | FILTER_DATA, 0) < 0)
		_exit(99);
	switch (c->call) {
	case DIRECT_APPROVED:
		params[1] = (unsigned long)approved_path;
		params[2] = O_RDONLY;
		r->ret = direct_call(__NR_openat, params);
		break;
	case DIRECT_OTHER:
		params[1] = (unsigned long)other_path;
		r->ret = direct_call(__NR_openat, params);
		break;
	case INNER_DISGUISED:
		params[1] = (unsigned long)other_path;
		r->ret = indirect_result(__NR_openat, approved_path, 0, params);
		break;
	case INNER_RESOLVE:
		params[0] = dfd;
		params[1] = (unsigned long)OTHER;
		r->ret = indirect_result(__NR_openat, ctxs, 1, params);
		break;
	}
	_exit(0);
}

/*
 * Copy the string @src to @dst, of @size bytes, with '?' for each byte
 * that is not printable: what a tracer read may be no text at all.
 */
static void printable(char *dst, const char *src, size_t size)
{
	size_t i;

	for (i = 0; i + 1 < size && src[i]; i++)
		dst[i] = src[i] >= 0x20 && src[i] < 0x7f ? src[i] : '?';
	dst[i] = '\0';
}

/*
 * The sandbox's tracer, at a seccomp stop: read the path from the
 * second argument register, where openat() has it, and deny the call
 * unless it is the approved path.
 */
static void approve_by_path(pid_t pid, void *arg __attribute__((unused)))
{
	struct abi_regs regs;
	unsigned long msg;
	char path[sizeof(r->seen)];

	r->stops++;
	if (!ptrace(PTRACE_GETEVENTMSG, pid, NULL, &msg))
		r->event_msg = msg;
	if (abi_get_regs(pid, &regs))
		ksft_exit_fail_msg("reading the registers: %s\n",
				   strerror(errno));
	tracer_read_string(pid, (unsigned long)*abi_reg_arg(&regs, 1), path,
			   sizeof(path));
	/* Name what it read by the table's names, or keep it as read. */
	if (!strcmp(path, approved_path))
		strcpy(r->seen, APPROVED);
	else if (!strcmp(path, other_path) || !strcmp(path, OTHER))
		strcpy(r->seen, OTHER);
	else
		printable(r->seen, path, sizeof(r->seen));
	if (!strcmp(path, approved_path))
		return;
	ABI_REG_NR(&regs) = -1;
	ABI_REG_RET(&regs) = -EACCES;
	if (abi_set_regs(pid, &regs))
		ksft_exit_fail_msg("%s: %s\n", ABI_SET_REGS_HOW,
				   strerror(errno));
}

static void run_case(const struct attack_case *c)
{
	struct stat st;
	long fate, indirect_set, created;
	char what[128];
	pid_t pid;

	memset(r, 0, sizeof(*r));
	r->ret = r->event_msg = -1;
	unlink(other_path);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid)
		tracee(c);
	fate = tracer_run(pid, PTRACE_O_TRACESECCOMP |
			  (c->aware ? PTRACE_O_INDIRECT : 0), &indirect_set,
			  approve_by_path, NULL);
	created = !stat(other_path, &st);

#define CHECK(suffix, expected, actual)					\
	do {								\
		snprintf(what, sizeof(what), "attack_%s_%s", c->name, suffix); \
		check_long(what, expected, actual);			\
	} while (0)

	if (c->aware)
		CHECK("option_accepted", 1, indirect_set);
	CHECK("tracee_exits", 0, fate);
	CHECK("stops", c->stops, r->stops);
	if (c->stops)
		CHECK("event_msg_is_filter_data", FILTER_DATA, r->event_msg);
	snprintf(what, sizeof(what), "attack_%s_tracer_read", c->name);
	check_str(what, c->seen ? c->seen : "", r->seen);
	if (c->ret > 0)
		CHECK("opened", 1, r->ret >= 0);
	else
		CHECK("result", c->ret, r->ret);
	CHECK("other_file_created", c->other_created, created);
#undef CHECK
}

int main(void)
{
	unsigned int i, n = 0;
	int fd;

	ksft_print_header();
	indirect_require();
	r = shared_alloc(sizeof(*r));
	snprintf(dir, sizeof(dir), "/tmp/trace-attack-%d", getpid());
	snprintf(approved_path, sizeof(approved_path), "%s/" APPROVED, dir);
	snprintf(other_path, sizeof(other_path), "%s/" OTHER, dir);
	if (mkdir(dir, 0755) && errno != EEXIST)
		ksft_exit_fail_msg("mkdir %s: %s\n", dir, strerror(errno));
	fd = open(approved_path, O_WRONLY | O_CREAT, 0600);
	if (fd < 0)
		ksft_exit_fail_msg("creating %s: %s\n", approved_path,
				   strerror(errno));
	close(fd);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		n += 5 + cases[i].aware + !!cases[i].stops;
	ksft_set_plan(n);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		run_case(&cases[i]);
	unlink(other_path);
	unlink(approved_path);
	rmdir(dir);
	ksft_finished();
}
