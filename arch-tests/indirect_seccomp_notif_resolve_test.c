// SPDX-License-Identifier: GPL-2.0
/*
 * SECCOMP_RET_USER_NOTIF for an inner call made under a RESOLVE context.
 * A supervisor that makes the call for the task (emulates it) resolves
 * its path names itself, from what the notification tells it: the
 * number, the arch and the six arguments. The RESOLVE rules are not in
 * it, and no supervisor can be told them, so the kernel treats the
 * supervisor as absent, as seccomp treats a USER_NOTIF filter whose
 * listener is gone: the supervisor is never notified, and the call fails
 * with ENOSYS. Otherwise a task under RESOLVE_BENEATH would have the
 * supervisor create its file wherever "../.." leads.
 *
 * The supervisor is a thread that emulates mknodat() of regular files,
 * as container managers do, with openat(O_CREAT | O_EXCL) relative to
 * /proc/<pid>/fd/<dirfd>, and answers 0. The task calls
 * indirect(mknodat(dirfd, path, S_IFREG | 0600, 0)), dirfd being a tree
 * two levels below a directory of the test's own:
 *  - under RESOLVE_BENEATH, "../../x", which would land in that
 *    directory, and a name inside the tree: no notification, ENOSYS, no
 *    file anywhere;
 *  - plainly and under an OPENFLAGS context, a name inside the tree, and
 *    a direct mknodat(): the supervisor is notified as for a direct call
 *    and creates the file (the OPENFLAGS and ADDFD cases are
 *    indirect_seccomp_notif_test's).
 * The supervisor waits on the listener and on a pipe that the task
 * writes once its call returned: a notification for the call would have
 * come before that, for the call waits for its answer.
 */
#include <linux/openat2.h>
#include <poll.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include "indirect_test.h"

/* How long the supervisor waits for anything at all. */
#define SUPERVISOR_WAIT_MS	10000
/* Seconds a child may take, far beyond what a case takes under TCG. */
#define CHILD_TIME_LIMIT	60

enum how {
	DIRECT,		/* mknodat() */
	PLAIN,		/* indirect(mknodat), no context */
	OPENFLAGS,	/* indirect(mknodat), OPENFLAGS(O_CLOEXEC) */
	BENEATH,	/* indirect(mknodat), RESOLVE(RESOLVE_BENEATH) */
};

struct resolve_case {
	const char *name;
	enum how how;
	/* The name given, relative to the tree; where the file would land. */
	const char *path;
	const char *lands;
	/* Notifications, the call's result, and the file afterwards. */
	long notified;
	long ret;
	long created;
};

static const struct resolve_case cases[] = {
	{ "resolve_beneath_escape", BENEATH, "../../x", "x", 0, -ENOSYS, 0 },
	{ "resolve_beneath_inside", BENEATH, "in-beneath", "a/tree/in-beneath",
	  0, -ENOSYS, 0 },
	{ "plain_inside", PLAIN, "in-plain", "a/tree/in-plain", 1, 0, 1 },
	{ "openflags_inside", OPENFLAGS, "in-openflags",
	  "a/tree/in-openflags", 1, 0, 1 },
	{ "direct_inside", DIRECT, "in-direct", "a/tree/in-direct", 1, 0, 1 },
};

/* What the child found, in memory shared with the parent. */
struct resolve_result {
	long setup;
	long ret;
	long notified;
	long nr;
	long arch;
	char path[64];
	/* What the supervisor's openat() gave: 0 or -errno. */
	long emulated;
};

static struct resolve_result *r;
/* The test's directory; the tree is its a/tree. */
static char base[64];

/* Shared by the task and its supervisor thread. */
static int listener, done_pipe[2];

/*
 * Make mknodat(dirfd, path, mode, dev) of the task @req names, for it:
 * a regular file, with openat() relative to its dirfd as /proc shows it,
 * the path read from its memory (/proc/<pid>/mem: the test kernels have
 * no process_vm_readv()).
 */
static long emulate_mknodat(const struct seccomp_notif *req)
{
	char proc[64], path[sizeof(r->path)];
	mode_t mode = req->data.args[2];
	ssize_t n;
	int dfd, fd;

	snprintf(proc, sizeof(proc), "/proc/%d/mem", req->pid);
	fd = open(proc, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	memset(path, 0, sizeof(path));
	n = pread64(fd, path, sizeof(path) - 1,
		    (off64_t)(unsigned long)req->data.args[1]);
	close(fd);
	if (n <= 0)
		return n ? -errno : -EFAULT;
	snprintf(r->path, sizeof(r->path), "%s", path);
	if ((mode & S_IFMT) != S_IFREG && (mode & S_IFMT))
		return -EPERM;
	snprintf(proc, sizeof(proc), "/proc/%d/fd/%d", req->pid,
		 (int)req->data.args[0]);
	dfd = open(proc, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	fd = openat(dfd, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		    mode & 07777);
	close(dfd);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* Answer each notification until the task's call returned. */
static void *supervisor(void *unused __attribute__((unused)))
{
	struct pollfd pfd[2] = {
		{ .fd = listener, .events = POLLIN },
		{ .fd = done_pipe[0], .events = POLLIN },
	};
	struct seccomp_notif_resp resp;
	struct seccomp_notif req;
	bool done = false;

	for (;;) {
		if (poll(pfd, 2, done ? 0 : SUPERVISOR_WAIT_MS) <= 0)
			return NULL;
		if (pfd[1].revents)
			done = true;
		if (!(pfd[0].revents & POLLIN)) {
			if (done)
				return NULL;
			continue;
		}
		memset(&req, 0, sizeof(req));
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req))
			continue;
		r->notified++;
		r->nr = req.data.nr;
		r->arch = req.data.arch;
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		r->emulated = emulate_mknodat(&req);
		if (r->emulated)
			resp.error = r->emulated;
		ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
}

static void resolve_child(const void *arg)
{
	const struct resolve_case *c = arg;
	struct seccomp_match m = { .nr = __NR_mknodat };
	struct sysind_ctx_OPENFLAGS cloexec;
	struct sysind_ctx_RESOLVE beneath;
	const struct indirect_ctx *ctxs[1];
	unsigned long p[INDIRECT_NR_PARAMS] = { 0 };
	char tree[96];
	pthread_t thread;
	int dfd;

	snprintf(tree, sizeof(tree), "%s/a/tree", base);
	dfd = open(tree, O_RDONLY | O_DIRECTORY);
	if (dfd < 0 || pipe(done_pipe)) {
		r->setup = -errno;
		return;
	}
	listener = seccomp_install_match(&m, SECCOMP_RET_USER_NOTIF,
					 SECCOMP_FILTER_FLAG_NEW_LISTENER);
	if (listener < 0) {
		r->setup = listener;
		return;
	}
	if (pthread_create(&thread, NULL, supervisor, NULL)) {
		r->setup = -EAGAIN;
		return;
	}
	p[0] = dfd;
	p[1] = (unsigned long)c->path;
	p[2] = S_IFREG | 0600;
	switch (c->how) {
	case DIRECT:
		r->ret = direct_call(__NR_mknodat, p);
		break;
	case PLAIN:
		r->ret = indirect_result(__NR_mknodat, NULL, 0, p);
		break;
	case OPENFLAGS:
		ctxs[0] = indirect_ctx_openflags(&cloexec, O_CLOEXEC);
		r->ret = indirect_result(__NR_mknodat, ctxs, 1, p);
		break;
	case BENEATH:
		ctxs[0] = indirect_ctx_resolve(&beneath, RESOLVE_BENEATH);
		r->ret = indirect_result(__NR_mknodat, ctxs, 1, p);
		break;
	}
	if (write(done_pipe[1], "", 1) != 1)
		r->setup = -errno;
	pthread_join(thread, NULL);
}

static void run_case(const struct resolve_case *c)
{
	char what[96], lands[160];
	struct stat st;
	long fate, created;

	memset(r, 0, sizeof(*r));
	r->ret = r->nr = r->arch = -1;
	snprintf(lands, sizeof(lands), "%s/%s", base, c->lands);
	unlink(lands);
	fate = run_in_child(resolve_child, c, CHILD_TIME_LIMIT);
	created = !stat(lands, &st);
	unlink(lands);
	if (r->setup)
		ksft_print_msg("%s: setup failed: %s\n", c->name,
			       strerror(-r->setup));

#define CHECK(suffix, expected, actual)					\
	do {								\
		snprintf(what, sizeof(what), "notif_%s_%s", c->name, suffix); \
		check_long(what, expected, actual);			\
	} while (0)

	CHECK("child_exits", 0, fate);
	CHECK("notified", c->notified, r->notified);
	if (c->notified) {
		CHECK("data_nr", __NR_mknodat, r->nr);
		CHECK("data_arch", INDIRECT_AUDIT_ARCH, r->arch);
		CHECK("emulated", 0, r->emulated);
	}
	CHECK("result", c->ret, r->ret);
	CHECK("file_created", c->created, created);
#undef CHECK
	if (r->notified)
		ksft_print_msg("%s: the supervisor made \"%s\": %s\n", c->name,
			       r->path, r->emulated ?
			       strerror(-r->emulated) : "done");
}

int main(void)
{
	static const char *const dirs[] = { "", "/a", "/a/tree" };
	char path[96];
	unsigned int i, n = 0;

	ksft_print_header();
	indirect_require();
	r = shared_alloc(sizeof(*r));
	snprintf(base, sizeof(base), "/tmp/notif-resolve-%d", getpid());
	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(path, sizeof(path), "%s%s", base, dirs[i]);
		if (mkdir(path, 0755) && errno != EEXIST)
			ksft_exit_fail_msg("mkdir %s: %s\n", path,
					   strerror(errno));
	}
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		n += 4 + 3 * !!cases[i].notified;
	ksft_set_plan(n);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		run_case(&cases[i]);
	for (i = ARRAY_SIZE(dirs); i--;) {
		snprintf(path, sizeof(path), "%s%s", base, dirs[i]);
		rmdir(path);
	}
	ksft_finished();
}
