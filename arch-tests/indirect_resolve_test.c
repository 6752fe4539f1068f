// SPDX-License-Identifier: GPL-2.0
/*
 * indirect() with a RESOLVE context: openat2()'s RESOLVE_* rules for every
 * syscall of this ABI that resolves a path name.
 *
 * The tree, in a tmpfs of a private mount namespace:
 *
 *	T/outside/		what an escape would reach
 *	T/root/			where every lookup starts (dirfd, or cwd)
 *	T/root/d/  f		a directory and a file
 *	T/root/mnt/		another tmpfs, for RESOLVE_NO_XDEV
 *	T/root/rel -> d		symlinks: inside,
 *	T/root/abs -> /		absolute,
 *	T/root/up -> ..		up and out,
 *	T/root/out -> ../outside
 *	T/root/procroot -> /proc/self/root	and to a magic link
 *
 * Each row of paths_rows[] is a path and the RESOLVE_* flags to resolve it
 * under; openat2() on the same path, with the same flags, is the oracle.
 * Every path call in path_calls[] is made on every row, through indirect()
 * with a RESOLVE context holding the row's flags: where openat2() fails
 * with EXDEV or ELOOP, the call must fail with the same error; where it
 * does not, the call must not fail with either. The *at calls run once
 * from a dirfd and once from the working directory (AT_FDCWD); the
 * others from the working directory. Each call is also made on a path
 * inside the tree, where it must succeed, and nothing may ever appear
 * outside the tree.
 *
 * The calls are those of the ABI's list in the kernel (x86-64 and ia32
 * in arch/x86/kernel/indirect.c, AArch64 and AArch32 in
 * arch/arm64/kernel/indirect*.c), each where its ABI has it: AArch64 has
 * only the *at() forms, and no chown(), utimes() or futimesat() at all.
 */
#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/inotify.h>
#include <sys/xattr.h>
#include <linux/fanotify.h>
#include <linux/openat2.h>
#include "indirect_test.h"

#define TREE		"/tmp/indirect-resolve"
/* The name that a call creates or removes, in the directory of a row. */
#define NEW_NAME	"n"

/* What a call does with its path, which says how openat2() judges it. */
enum path_kind {
	FOLLOW,		/* resolves it and follows a last symlink */
	NOFOLLOW,	/* resolves it, but not through a last symlink */
	PARENT,		/* resolves its directory, then creates or removes */
	TWO_PATHS,	/* two names, each resolved from its own directory */
};

/* What a call's arguments are: constants, or one of these. */
enum {
	A_PATH = -100,	/* the path under test */
	A_PATH2,	/* a path inside the tree, for two-path calls */
	A_DFD,		/* the directory the lookup starts from */
	A_BUF,		/* a buffer of BUF_SIZE bytes */
	A_BUF_SIZE,
	A_XATTR,	/* the name of an extended attribute */
	A_INOTIFY,	/* an inotify descriptor */
	A_FANOTIFY,	/* a fanotify descriptor */
	A_HOW,		/* a struct open_how that opens O_RDONLY */
	A_TARGET,	/* a symlink's target string */
	A_HANDLE,	/* a struct file_handle of MAX_HANDLE_SZ bytes */
	A_MOUNT_ID,	/* where name_to_handle_at() puts the mount id */
	A_NEG1,		/* -1, as a uid or gid that is left alone */
	A_NEG1_16,	/* the same for the 16-bit chown calls */
};

#define BUF_SIZE	4096

/* What the tree must hold before the call's check inside the tree. */
enum prep { P_NONE, P_DIR, P_FILE, P_XATTR };

struct path_call {
	const char *name;
	long nr;
	enum path_kind kind;
	bool at;		/* takes a dirfd */
	long args[INDIRECT_NR_PARAMS];
	/* A path inside the tree where the call succeeds, and what it needs. */
	const char *good;
	enum prep prep;
};

#define CALL(sys, k, at_, g, p, ...)					\
	{ .name = #sys, .nr = __NR_##sys, .kind = k, .at = at_,	\
	  .args = { __VA_ARGS__ }, .good = g, .prep = p }

static const struct path_call path_calls[] = {
#ifdef __NR_open
	CALL(open, FOLLOW, false, "d", P_NONE, A_PATH, O_RDONLY),
	CALL(creat, FOLLOW, false, "d/" NEW_NAME, P_NONE, A_PATH, 0644),
#endif
	CALL(openat, FOLLOW, true, "d", P_NONE, A_DFD, A_PATH, O_RDONLY),
	CALL(openat2, FOLLOW, true, "d", P_NONE, A_DFD, A_PATH, A_HOW,
	     sizeof(struct open_how)),
#ifdef __NR_oldstat
	CALL(oldstat, FOLLOW, false, "d", P_NONE, A_PATH, A_BUF),
	CALL(oldlstat, NOFOLLOW, false, "d", P_NONE, A_PATH, A_BUF),
#endif
#ifdef __NR_stat
	CALL(stat, FOLLOW, false, "d", P_NONE, A_PATH, A_BUF),
	CALL(lstat, NOFOLLOW, false, "d", P_NONE, A_PATH, A_BUF),
#endif
#ifdef __NR_stat64
	CALL(stat64, FOLLOW, false, "d", P_NONE, A_PATH, A_BUF),
	CALL(lstat64, NOFOLLOW, false, "d", P_NONE, A_PATH, A_BUF),
	CALL(fstatat64, FOLLOW, true, "d", P_NONE, A_DFD, A_PATH, A_BUF, 0),
#endif
#ifdef __NR_newfstatat
	CALL(newfstatat, FOLLOW, true, "d", P_NONE, A_DFD, A_PATH, A_BUF, 0),
#endif
	CALL(statx, FOLLOW, true, "d", P_NONE, A_DFD, A_PATH, 0, 0x7ff, A_BUF),
	CALL(statfs, FOLLOW, false, "d", P_NONE, A_PATH, A_BUF),
#ifdef __NR_statfs64
	CALL(statfs64, FOLLOW, false, "d", P_NONE, A_PATH, ABI_STATFS64_SIZE,
	     A_BUF),
#endif
#ifdef __NR_access
	CALL(access, FOLLOW, false, "d", P_NONE, A_PATH, F_OK),
#endif
	CALL(faccessat, FOLLOW, true, "d", P_NONE, A_DFD, A_PATH, F_OK),
	CALL(faccessat2, FOLLOW, true, "d", P_NONE, A_DFD, A_PATH, F_OK, 0),
#ifdef __NR_readlink
	CALL(readlink, NOFOLLOW, false, "rel", P_NONE, A_PATH, A_BUF,
	     A_BUF_SIZE),
#endif
	CALL(readlinkat, NOFOLLOW, true, "rel", P_NONE, A_DFD, A_PATH, A_BUF,
	     A_BUF_SIZE),
	CALL(getxattr, FOLLOW, false, "d", P_XATTR, A_PATH, A_XATTR, A_BUF,
	     A_BUF_SIZE),
	CALL(lgetxattr, NOFOLLOW, false, "d", P_XATTR, A_PATH, A_XATTR, A_BUF,
	     A_BUF_SIZE),
	CALL(listxattr, FOLLOW, false, "d", P_NONE, A_PATH, A_BUF, A_BUF_SIZE),
	CALL(llistxattr, NOFOLLOW, false, "d", P_NONE, A_PATH, A_BUF,
	     A_BUF_SIZE),
	CALL(name_to_handle_at, NOFOLLOW, true, "d", P_NONE, A_DFD, A_PATH,
	     A_HANDLE, A_MOUNT_ID, 0),
	CALL(inotify_add_watch, FOLLOW, false, "d", P_NONE, A_INOTIFY, A_PATH,
	     IN_ALL_EVENTS),
	/* The 64-bit mask: on 32-bit ABIs two words, the low one first. */
	CALL(fanotify_mark, FOLLOW, true, "d", P_NONE, A_FANOTIFY,
	     FAN_MARK_ADD, INDIRECT_ARG64(FAN_OPEN), A_DFD, A_PATH),
	CALL(chdir, FOLLOW, false, "d", P_NONE, A_PATH),
	CALL(truncate, FOLLOW, false, "f", P_NONE, A_PATH, 0),
#ifdef __NR_truncate64
	CALL(truncate64, FOLLOW, false, "f", P_NONE, A_PATH, 0, 0),
#endif
#ifdef __NR_chmod
	CALL(chmod, FOLLOW, false, "d", P_NONE, A_PATH, 0755),
#endif
	CALL(fchmodat, FOLLOW, true, "d", P_NONE, A_DFD, A_PATH, 0755),
#ifdef __NR_fchmodat2
	CALL(fchmodat2, FOLLOW, true, "d", P_NONE, A_DFD, A_PATH, 0755, 0),
#endif
#ifdef __NR_chown32
	CALL(chown, FOLLOW, false, "d", P_NONE, A_PATH, A_NEG1_16, A_NEG1_16),
	CALL(lchown, NOFOLLOW, false, "d", P_NONE, A_PATH, A_NEG1_16,
	     A_NEG1_16),
	CALL(chown32, FOLLOW, false, "d", P_NONE, A_PATH, A_NEG1, A_NEG1),
	CALL(lchown32, NOFOLLOW, false, "d", P_NONE, A_PATH, A_NEG1, A_NEG1),
#elif defined(__NR_chown)
	CALL(chown, FOLLOW, false, "d", P_NONE, A_PATH, A_NEG1, A_NEG1),
	CALL(lchown, NOFOLLOW, false, "d", P_NONE, A_PATH, A_NEG1, A_NEG1),
#endif
	CALL(fchownat, FOLLOW, true, "d", P_NONE, A_DFD, A_PATH, A_NEG1, A_NEG1,
	     0),
#ifdef __NR_utime
	CALL(utime, FOLLOW, false, "d", P_NONE, A_PATH, 0),
#endif
#ifdef __NR_utimes
	CALL(utimes, FOLLOW, false, "d", P_NONE, A_PATH, 0),
	CALL(futimesat, FOLLOW, true, "d", P_NONE, A_DFD, A_PATH, 0),
#endif
	CALL(utimensat, FOLLOW, true, "d", P_NONE, A_DFD, A_PATH, 0, 0),
#ifdef __NR_utimensat_time64
	CALL(utimensat_time64, FOLLOW, true, "d", P_NONE, A_DFD, A_PATH, 0, 0),
#endif
	CALL(setxattr, FOLLOW, false, "d", P_NONE, A_PATH, A_XATTR, A_TARGET,
	     1, 0),
	CALL(lsetxattr, NOFOLLOW, false, "d", P_NONE, A_PATH, A_XATTR, A_TARGET,
	     1, 0),
	CALL(removexattr, FOLLOW, false, "d", P_XATTR, A_PATH, A_XATTR),
	CALL(lremovexattr, NOFOLLOW, false, "d", P_XATTR, A_PATH, A_XATTR),
#ifdef __NR_mkdir
	CALL(mkdir, PARENT, false, "d/" NEW_NAME, P_NONE, A_PATH, 0755),
	CALL(mknod, PARENT, false, "d/" NEW_NAME, P_NONE, A_PATH,
	     S_IFREG | 0644, 0),
	CALL(symlink, PARENT, false, "d/" NEW_NAME, P_NONE, A_TARGET, A_PATH),
	CALL(rmdir, PARENT, false, "d/" NEW_NAME, P_DIR, A_PATH),
	CALL(unlink, PARENT, false, "d/" NEW_NAME, P_FILE, A_PATH),
	CALL(link, TWO_PATHS, false, "d/" NEW_NAME, P_NONE, A_PATH, A_PATH2),
	CALL(rename, TWO_PATHS, false, "d/" NEW_NAME, P_NONE, A_PATH, A_PATH2),
#endif
	CALL(mkdirat, PARENT, true, "d/" NEW_NAME, P_NONE, A_DFD, A_PATH, 0755),
	CALL(mknodat, PARENT, true, "d/" NEW_NAME, P_NONE, A_DFD, A_PATH,
	     S_IFREG | 0644, 0),
	CALL(symlinkat, PARENT, true, "d/" NEW_NAME, P_NONE, A_TARGET, A_DFD,
	     A_PATH),
	CALL(unlinkat, PARENT, true, "d/" NEW_NAME, P_FILE, A_DFD, A_PATH, 0),
	CALL(linkat, TWO_PATHS, true, "d/" NEW_NAME, P_NONE, A_DFD, A_PATH,
	     A_DFD, A_PATH2, 0),
	CALL(renameat, TWO_PATHS, true, "d/" NEW_NAME, P_NONE, A_DFD, A_PATH,
	     A_DFD, A_PATH2),
	CALL(renameat2, TWO_PATHS, true, "d/" NEW_NAME, P_NONE, A_DFD, A_PATH,
	     A_DFD, A_PATH2, 0),
};

/*
 * The rows: a path, its rules, and what openat2() answers for it when it
 * follows a last symlink (0 for success), which the test checks first,
 * so that a row that stopped testing an escape shows. "@fd" is
 * /proc/self/fd/<a descriptor of T/outside>.
 */
struct path_row {
	const char *path;
	__u64 resolve;
	int openat2_errno;
	bool other_mount;	/* leads to another mount than the tree's */
};

#define ROW(p, r, e)	{ .path = p, .resolve = r, .openat2_errno = e }
#define ROW_MNT(p, r, e) \
	{ .path = p, .resolve = r, .openat2_errno = e, .other_mount = true }

static const struct path_row paths_rows[] = {
	ROW("d", RESOLVE_BENEATH, 0),
	ROW("d", RESOLVE_IN_ROOT, 0),
	ROW("d", RESOLVE_NO_XDEV | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS, 0),
	ROW("rel", RESOLVE_BENEATH, 0),
	ROW_MNT("mnt", RESOLVE_BENEATH, 0),
	/* "..": out with BENEATH, stays at the root with IN_ROOT */
	ROW("..", RESOLVE_BENEATH, EXDEV),
	ROW("d/../..", RESOLVE_BENEATH, EXDEV),
	ROW("../outside", RESOLVE_BENEATH, EXDEV),
	ROW("..", RESOLVE_IN_ROOT, 0),
	ROW("../d", RESOLVE_IN_ROOT, 0),
	/* absolute paths */
	ROW("/", RESOLVE_BENEATH, EXDEV),
	ROW(TREE "/outside", RESOLVE_BENEATH, EXDEV),
	ROW("/", RESOLVE_IN_ROOT, 0),
	ROW("/d", RESOLVE_IN_ROOT, 0),
	ROW(TREE "/outside", RESOLVE_IN_ROOT, ENOENT),
	/* symlinks out of the tree */
	ROW("abs", RESOLVE_BENEATH, EXDEV),
	ROW("abs", RESOLVE_IN_ROOT, 0),
	ROW("up", RESOLVE_BENEATH, EXDEV),
	ROW("out", RESOLVE_BENEATH, EXDEV),
	ROW("out", RESOLVE_IN_ROOT, ENOENT),
	ROW("abs", RESOLVE_NO_SYMLINKS, ELOOP),
	ROW("rel", RESOLVE_NO_SYMLINKS, ELOOP),
	/* magic links */
	ROW("procroot", RESOLVE_NO_MAGICLINKS, ELOOP),
	ROW("procroot", RESOLVE_BENEATH, EXDEV),
	ROW("@fd", RESOLVE_NO_MAGICLINKS, ELOOP),
	ROW("@fd", RESOLVE_BENEATH, EXDEV),
	ROW("/proc/self/cwd", RESOLVE_NO_MAGICLINKS, ELOOP),
	/* a mount crossing, into and out of it */
	ROW_MNT("mnt", RESOLVE_NO_XDEV, EXDEV),
	ROW_MNT("mnt/..", RESOLVE_NO_XDEV, EXDEV),
	ROW("/tmp", RESOLVE_NO_XDEV, EXDEV),
};

static int root_fd, outside_fd, inotify_fd = -1, fanotify_fd = -1;
static char magic_fd_path[64];
static char buf[BUF_SIZE];
static struct open_how read_how = { .flags = O_RDONLY };
static int mount_id;
/* struct file_handle with room for the largest handle, MAX_HANDLE_SZ. */
static struct {
	unsigned int handle_bytes;
	int handle_type;
	unsigned char f_handle[128];
} handle;

static long raw_openat2(int dfd, const char *path, __u64 flags, __u64 resolve)
{
	struct open_how how = { .flags = flags, .resolve = resolve };
	long fd = syscall(__NR_openat2, dfd, path, &how, sizeof(how));

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static const char *row_path(const struct path_row *row)
{
	return strcmp(row->path, "@fd") ? row->path : magic_fd_path;
}

static void must(int ret, const char *what)
{
	if (ret < 0)
		ksft_exit_fail_msg("setup: %s: %s\n", what, strerror(errno));
}

/* Build the tree in a tmpfs of a mount namespace of our own. */
static void setup_tree(void)
{
	must(unshare(CLONE_NEWNS), "unshare(CLONE_NEWNS)");
	must(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL),
	     "make / private");
	mkdir(TREE, 0755);
	must(mount("tmpfs", TREE, "tmpfs", 0, NULL), "mount tmpfs on " TREE);
	must(mkdir(TREE "/outside", 0755), "mkdir outside");
	must(mkdir(TREE "/root", 0755), "mkdir root");
	root_fd = open(TREE "/root", O_PATH | O_DIRECTORY);
	outside_fd = open(TREE "/outside", O_PATH | O_DIRECTORY);
	must(root_fd, "open root");
	must(outside_fd, "open outside");
	must(mkdirat(root_fd, "d", 0755), "mkdir d");
	must(mkdirat(root_fd, "mnt", 0755), "mkdir mnt");
	must(mount("tmpfs", TREE "/root/mnt", "tmpfs", 0, NULL), "mount mnt");
	must(mknodat(root_fd, "f", S_IFREG | 0644, 0), "create f");
	must(symlinkat("d", root_fd, "rel"), "symlink rel");
	must(symlinkat("/", root_fd, "abs"), "symlink abs");
	must(symlinkat("..", root_fd, "up"), "symlink up");
	must(symlinkat("../outside", root_fd, "out"), "symlink out");
	must(symlinkat("/proc/self/root", root_fd, "procroot"),
	     "symlink procroot");
	snprintf(magic_fd_path, sizeof(magic_fd_path), "/proc/self/fd/%d",
		 outside_fd);
	/*
	 * A kernel without inotify or fanotify has no inotify_add_watch()
	 * or fanotify_mark() either: main() skips them (ENOSYS).
	 */
	inotify_fd = inotify_init1(IN_CLOEXEC);
	if (inotify_fd < 0 && errno != ENOSYS)
		must(inotify_fd, "inotify_init1");
	fanotify_fd = syscall(__NR_fanotify_init, FAN_CLASS_NOTIF, O_RDONLY);
	if (fanotify_fd < 0 && errno != ENOSYS)
		must(fanotify_fd, "fanotify_init");
}

/* Remove what a call may have made: NEW_NAME in each directory of the tree. */
static void clean_tree(void)
{
	static const char *const dirs[] = { "", "d/", "mnt/" };
	char path[64];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(path, sizeof(path), "%s" NEW_NAME, dirs[i]);
		if (unlinkat(root_fd, path, 0))
			unlinkat(root_fd, path, AT_REMOVEDIR);
	}
	lremovexattr(TREE "/root/d", "trusted.indirect");
	/* What two-path calls take from, and take away. */
	mknodat(root_fd, "d/src", S_IFREG | 0644, 0);
}

/* Where lookups start: the tree's root as dirfd, or as working directory. */
struct start {
	const char *name;
	int dfd;
	bool cwd_is_root;
};

static const struct start starts[] = {
	{ "dirfd", 0, false },
	{ "cwd", AT_FDCWD, true },
};

static void enter_start(const struct start *s)
{
	must(s->cwd_is_root ? fchdir(root_fd) : chdir("/"), "chdir");
}

static unsigned long arg_value(long arg, const char *path, int dfd)
{
	switch (arg) {
	case A_PATH:		return (unsigned long)path;
	case A_PATH2:		return (unsigned long)"d/src";
	case A_DFD:		return dfd;
	case A_BUF:		return (unsigned long)buf;
	case A_BUF_SIZE:	return sizeof(buf);
	case A_XATTR:		return (unsigned long)"trusted.indirect";
	case A_INOTIFY:		return inotify_fd;
	case A_FANOTIFY:	return fanotify_fd;
	case A_HOW:		return (unsigned long)&read_how;
	case A_TARGET:		return (unsigned long)"t";
	case A_HANDLE:
		handle.handle_bytes = sizeof(handle.f_handle);
		return (unsigned long)&handle;
	case A_MOUNT_ID:	return (unsigned long)&mount_id;
	case A_NEG1:		return -1UL;
	case A_NEG1_16:		return 0xffff;
	default:		return arg;
	}
}

static struct sysind_ctx_RESOLVE resolve_ctx = { .ctx = SYSIND_CTX_RESOLVE };
static const struct indirect_ctx *resolve_ctxs[] = {
	(const struct indirect_ctx *)&resolve_ctx,
};

/*
 * Make @c through indirect() on @path from @dfd, under @resolve; -errno
 * or the result. Two-path calls put @path on one side (@swap: the second)
 * and d/src on the other. A descriptor the call returns is closed.
 */
static long make_call(const struct path_call *c, const char *path, int dfd,
		      __u64 resolve, bool swap)
{
	unsigned long p[INDIRECT_NR_PARAMS];
	unsigned int i;
	long ret;

	if (c->prep == P_XATTR)
		setxattr(TREE "/root/d", "trusted.indirect", "t", 1, 0);
	for (i = 0; i < INDIRECT_NR_PARAMS; i++) {
		long a = c->args[i];

		if (swap && a == A_PATH)
			a = A_PATH2;
		else if (swap && a == A_PATH2)
			a = A_PATH;
		p[i] = arg_value(a, path, dfd);
	}
	resolve_ctx.resolve = resolve;
	ret = indirect_result(c->nr, resolve_ctxs, 1, p);
	if (ret >= 0 && (c->nr == __NR_openat || c->nr == __NR_openat2 ||
#ifdef __NR_open
			 c->nr == __NR_open || c->nr == __NR_creat ||
#endif
			 0))
		close(ret);
	if (c->nr == __NR_inotify_add_watch && ret >= 0)
		inotify_rm_watch(inotify_fd, ret);
	return ret;
}

/* The path a call gets for a row: the row's, or a name in it. */
static void call_path(const struct path_call *c, const struct path_row *row,
		      char *path, size_t size)
{
	if (c->kind == PARENT || c->kind == TWO_PATHS)
		snprintf(path, size, "%s/" NEW_NAME, row_path(row));
	else
		snprintf(path, size, "%s", row_path(row));
}

/* What openat2() answers for the lookup that @c makes of @row. */
static long oracle(const struct path_call *c, const struct path_row *row,
		   int dfd)
{
	switch (c->kind) {
	case FOLLOW:
		return raw_openat2(dfd, row_path(row), O_PATH, row->resolve);
	case NOFOLLOW:
		return raw_openat2(dfd, row_path(row), O_PATH | O_NOFOLLOW,
				   row->resolve);
	default:
		return raw_openat2(dfd, row_path(row), O_PATH | O_DIRECTORY,
				   row->resolve);
	}
}

static bool rule_error(long ret)
{
	return ret == -EXDEV || ret == -ELOOP || ret == -EAGAIN;
}

/*
 * One call on every row, from every start it has: the number of rows
 * where it does not answer as openat2() does, each printed.
 */
static int check_call_rows(const struct path_call *c)
{
	char path[128];
	int bad = 0, dfd;
	unsigned int r, s, swap;

	for (s = 0; s < ARRAY_SIZE(starts); s++) {
		if (!c->at && !starts[s].cwd_is_root)
			continue;
		dfd = starts[s].cwd_is_root ? AT_FDCWD : root_fd;
		for (r = 0; r < ARRAY_SIZE(paths_rows); r++) {
			const struct path_row *row = &paths_rows[r];

			for (swap = 0; swap <= (c->kind == TWO_PATHS); swap++) {
				long want, got;

				clean_tree();
				enter_start(&starts[s]);
				call_path(c, row, path, sizeof(path));
				want = oracle(c, row, dfd);
				got = make_call(c, path, dfd, row->resolve, swap);
				enter_start(&starts[s]);
				if (rule_error(want) ? got == want :
				    !rule_error(got) ||
				    (c->kind == TWO_PATHS && row->other_mount &&
				     got == -EXDEV))
					continue;
				bad++;
				ksft_print_msg("%s(%s%s) from %s, resolve %#llx: openat2 gives %ld, expected %s%s, got %ld\n",
					       c->name, path,
					       swap ? ", second" : "",
					       starts[s].name,
					       (unsigned long long)row->resolve,
					       want,
					       rule_error(want) ? "the same" :
					       "no EXDEV, ELOOP or EAGAIN",
					       "", got);
			}
		}
	}
	return bad;
}

/* The call on a path inside the tree, from every start: it must succeed. */
static int check_call_inside(const struct path_call *c)
{
	int bad = 0, dfd;
	unsigned int s;

	for (s = 0; s < ARRAY_SIZE(starts); s++) {
		long got;

		if (!c->at && !starts[s].cwd_is_root)
			continue;
		dfd = starts[s].cwd_is_root ? AT_FDCWD : root_fd;
		clean_tree();
		if (c->prep == P_DIR)
			mkdirat(root_fd, "d/" NEW_NAME, 0755);
		if (c->prep == P_FILE)
			mknodat(root_fd, "d/" NEW_NAME, S_IFREG | 0644, 0);
		enter_start(&starts[s]);
		/* Two-path calls: from d/src to the good path. */
		got = make_call(c, c->good, dfd,
				RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
				c->kind == TWO_PATHS);
		enter_start(&starts[s]);
		if (got >= 0)
			continue;
		bad++;
		ksft_print_msg("%s(%s) from %s inside the tree: expected success, got %ld\n",
			       c->name, c->good, starts[s].name, got);
	}
	return bad;
}

/* Each row's path is what it says: openat2() answers as the row expects. */
static void check_rows(void)
{
	unsigned int r, s;
	int bad = 0;

	for (s = 0; s < ARRAY_SIZE(starts); s++) {
		int dfd = starts[s].cwd_is_root ? AT_FDCWD : root_fd;

		enter_start(&starts[s]);
		for (r = 0; r < ARRAY_SIZE(paths_rows); r++) {
			const struct path_row *row = &paths_rows[r];
			long got = raw_openat2(dfd, row_path(row), O_PATH,
					       row->resolve);

			if (got == -row->openat2_errno)
				continue;
			bad++;
			ksft_print_msg("openat2(%s) from %s, resolve %#llx: expected %d, got %ld\n",
				       row_path(row), starts[s].name,
				       (unsigned long long)row->resolve,
				       -row->openat2_errno, got);
		}
	}
	check_long("openat2_answers_each_row_as_listed", 0, bad);
}

/* Nothing that a call made may be outside the tree. */
static void check_nothing_escaped(void)
{
	static const char *const places[] = {
		"/" NEW_NAME, "/tmp/" NEW_NAME, TREE "/" NEW_NAME,
		TREE "/outside/" NEW_NAME, "/proc/" NEW_NAME,
	};
	unsigned int i;
	int found = 0;

	for (i = 0; i < ARRAY_SIZE(places); i++) {
		struct stat st;

		if (!lstat(places[i], &st)) {
			ksft_print_msg("%s exists\n", places[i]);
			found++;
		}
	}
	check_long("nothing_made_outside_the_tree", 0, found);
}

/* Calls that resolve no name of the caller's, or where the rules fail. */
static void check_refused(void)
{
	static const struct {
		const char *name;
		long nr;
		unsigned long a0;
	} refused[] = {
		{ "getppid", __NR_getppid, 0 },
#ifdef __NR_fstat64
		{ "fstat64", __NR_fstat64, 0 },
#else
		{ "fstat", __NR_fstat, 0 },
#endif
		{ "fchdir", __NR_fchdir, 0 },
		{ "chroot", __NR_chroot, (unsigned long)"d" },
		{ "mount", __NR_mount, (unsigned long)"none" },
		{ "umount2", __NR_umount2, (unsigned long)"mnt" },
		{ "open_tree", __NR_open_tree, AT_FDCWD },
		{ "pivot_root", __NR_pivot_root, (unsigned long)"d" },
		{ "open_by_handle_at", __NR_open_by_handle_at, AT_FDCWD },
		{ "acct", __NR_acct, (unsigned long)"f" },
		{ "swapon", __NR_swapon, (unsigned long)"f" },
		{ "quotactl", __NR_quotactl, 0 },
#ifdef __NR_socketcall
		{ "socketcall", __NR_socketcall, 2 },
#endif
#ifdef __NR_bind
		{ "bind", __NR_bind, 0 },
		{ "connect", __NR_connect, 0 },
#endif
		{ "io_uring_enter", __NR_io_uring_enter, 0 },
		{ "bpf", __NR_bpf, 0 },
		{ "execve", __NR_execve, (unsigned long)"f" },
	};
	unsigned int i;
	int bad = 0;

	must(fchdir(root_fd), "chdir");
	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		unsigned long p[INDIRECT_NR_PARAMS] = { refused[i].a0 };
		long got;

		resolve_ctx.resolve = RESOLVE_BENEATH;
		got = indirect_result(refused[i].nr, resolve_ctxs, 1, p);
		if (got == -EINVAL)
			continue;
		bad++;
		ksft_print_msg("%s under RESOLVE: expected %d, got %ld\n",
			       refused[i].name, -EINVAL, got);
	}
	check_long("calls_without_a_path_of_the_callers_are_refused", 0, bad);
	/* The same getppid() runs without the context. */
	{
		unsigned long p[INDIRECT_NR_PARAMS] = { 0 };

		check_long("refused_call_runs_without_the_context", getppid(),
			   indirect_result(__NR_getppid, NULL, 0, p));
	}
}

/*
 * Numbers that the running kernel does not implement, past the end of its
 * table: under a RESOLVE context they get ENOSYS, as without one and as
 * the direct call, not the EINVAL of a call that resolves no path name.
 * Each row is a number, so far past the table's end, and whether an
 * OPENFLAGS context and the RESOLVE one are set.
 */
static const struct {
	const char *name;
	long past_end;
	bool openflags, resolve;
} past_end_rows[] = {
	{ "past_table_end_without_context_is_enosys", 0, false, false },
	{ "past_table_end_is_enosys", 0, false, true },
	{ "past_table_end_with_openflags_is_enosys", 0, true, true },
	{ "far_past_table_end_is_enosys", 100, false, true },
};

/*
 * A number past the end of every ABI's table, on every base: x86-64's
 * ends below 548 (x32's numbers included), the others below 470. A number
 * inside a table that the running kernel leaves out (a hole, or a call
 * that its configuration lacks) is no number past its end: under a
 * RESOLVE context it gets EINVAL, as every number off the path lists.
 */
#define PAST_EVERY_TABLE	1000

static void check_past_table_end(void)
{
	long end = PAST_EVERY_TABLE;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(past_end_rows); i++) {
		const struct indirect_ctx *ctxs[2];
		unsigned long p[INDIRECT_NR_PARAMS] = {
			AT_FDCWD, (unsigned long)"d", O_RDONLY,
		};
		long nr = end + past_end_rows[i].past_end;
		unsigned int n = 0;

		if (past_end_rows[i].openflags)
			ctxs[n++] = cloexec_ctxs[0];
		if (past_end_rows[i].resolve) {
			resolve_ctx.resolve = RESOLVE_BENEATH;
			ctxs[n++] = resolve_ctxs[0];
		}
		if (direct_call(nr, p) != -ENOSYS)
			ksft_print_msg("%s: the direct call of %ld is no ENOSYS\n",
				       past_end_rows[i].name, nr);
		check_long(past_end_rows[i].name, -ENOSYS,
			   indirect_result(nr, n ? ctxs : NULL, n, p));
	}
}

/* The context's own checks, and what the call leaves behind. */
static void check_context(void)
{
	static const struct {
		const char *name;
		__u32 flags;
		__u64 resolve;
		long expected;
	} bad_ctxs[] = {
		{ "no_rule_is_einval", 0, 0, -EINVAL },
		{ "flags_is_einval", 1, RESOLVE_BENEATH, -EINVAL },
		{ "cached_is_einval", 0, RESOLVE_BENEATH | RESOLVE_CACHED,
		  -EINVAL },
		{ "unknown_bit_is_einval", 0, RESOLVE_BENEATH | 0x40, -EINVAL },
		{ "high_bit_is_einval", 0, RESOLVE_BENEATH | (1ULL << 63),
		  -EINVAL },
		{ "beneath_and_in_root_is_einval", 0,
		  RESOLVE_BENEATH | RESOLVE_IN_ROOT, -EINVAL },
	};
	unsigned long p[INDIRECT_NR_PARAMS] = { 0, (unsigned long)"..",
						O_PATH };
	struct sysind_ctx_RESOLVE first = { .ctx = SYSIND_CTX_RESOLVE };
	struct sysind_ctx_RESOLVE second = { .ctx = SYSIND_CTX_RESOLVE };
	const struct indirect_ctx *two[] = {
		(const struct indirect_ctx *)&first,
		(const struct indirect_ctx *)&second,
	};
	struct open_how how = { .flags = O_PATH };
	unsigned int i;
	char *end;
	long fd;

	p[0] = root_fd;
	for (i = 0; i < ARRAY_SIZE(bad_ctxs); i++) {
		struct sysind_ctx_RESOLVE ctx = {
			.ctx = SYSIND_CTX_RESOLVE,
			.flags = bad_ctxs[i].flags,
			.resolve = bad_ctxs[i].resolve,
		};
		const struct indirect_ctx *one[] = {
			(const struct indirect_ctx *)&ctx,
		};

		check_long(bad_ctxs[i].name, bad_ctxs[i].expected,
			   indirect_result(__NR_openat, one, 1, p));
	}

	/* A context whose head is readable and whose flags are not. */
	end = guard_page_end();
	memcpy(end - 8, &resolve_ctx, 8);
	{
		const void *one[] = { end - 8 };

		check_long("unreadable_resolve_is_efault", -EFAULT,
			   indirect_result(__NR_openat, one, 1, p));
	}

	/* Of several contexts, the last one is in force. */
	first.resolve = RESOLVE_BENEATH;
	second.resolve = RESOLVE_IN_ROOT;
	fd = indirect_result(__NR_openat, two, 2, p);
	check_long("last_context_wins_in_root", 1, fd >= 0);
	if (fd >= 0)
		close(fd);
	first.resolve = RESOLVE_IN_ROOT;
	second.resolve = RESOLVE_BENEATH;
	check_long("last_context_wins_beneath", -EXDEV,
		   indirect_result(__NR_openat, two, 2, p));

	/* Nothing outlives the call: ".." leaves the tree again. */
	fd = openat(root_fd, "..", O_PATH);
	check_long("direct_lookup_unrestricted_after", 1, fd >= 0);
	if (fd >= 0)
		close(fd);
	/* ... nor a call whose second context was refused. */
	first.resolve = RESOLVE_BENEATH;
	second.resolve = RESOLVE_CACHED;
	check_long("refused_second_context_einval", -EINVAL,
		   indirect_result(__NR_openat, two, 2, p));
	fd = openat(root_fd, "..", O_PATH);
	check_long("direct_lookup_unrestricted_after_refusal", 1, fd >= 0);
	if (fd >= 0)
		close(fd);

	/* openat2() gets its own rules and the context's. */
	{
		unsigned long q[INDIRECT_NR_PARAMS] = {
			root_fd, (unsigned long)"rel", (unsigned long)&how,
			sizeof(how),
		};

		resolve_ctx.resolve = RESOLVE_BENEATH;
		how.resolve = RESOLVE_NO_SYMLINKS;
		check_long("openat2_own_and_context_rules", -ELOOP,
			   indirect_result(__NR_openat2, resolve_ctxs, 1, q));
		how.resolve = RESOLVE_IN_ROOT;
		check_long("openat2_in_root_under_beneath_is_einval", -EINVAL,
			   indirect_result(__NR_openat2, resolve_ctxs, 1, q));
	}

	/* AT_EMPTY_PATH resolves no name: the dirfd itself, outside or not. */
	{
		unsigned long q[INDIRECT_NR_PARAMS] = {
			outside_fd, (unsigned long)"", (unsigned long)buf,
			AT_EMPTY_PATH,
		};
#ifdef __NR_newfstatat
		long nr = __NR_newfstatat;
#else
		long nr = __NR_fstatat64;
#endif

		resolve_ctx.resolve = RESOLVE_BENEATH;
		check_long("empty_path_names_the_dirfd", 0,
			   indirect_result(nr, resolve_ctxs, 1, q));
	}

	/* Each name from its own dirfd: a rename out of one tree into another. */
	{
		unsigned long q[INDIRECT_NR_PARAMS] = {
			root_fd, (unsigned long)"d/src", outside_fd,
			(unsigned long)"moved",
		};
		struct stat st;

		clean_tree();
		resolve_ctx.resolve = RESOLVE_BENEATH;
		check_long("rename_resolves_each_name_from_its_dirfd", 0,
			   indirect_result(__NR_renameat, resolve_ctxs, 1, q));
		check_long("rename_landed_beneath_second_dirfd", 0,
			   fstatat(outside_fd, "moved", &st, 0));
		unlinkat(outside_fd, "moved", 0);
	}

	/* With OPENFLAGS: both contexts apply. */
	{
		const struct indirect_ctx *both[] = {
			(const struct indirect_ctx *)&cloexec_ctx,
			(const struct indirect_ctx *)&resolve_ctx,
		};
		unsigned long q[INDIRECT_NR_PARAMS] = {
			root_fd, (unsigned long)"d", O_RDONLY,
		};

		resolve_ctx.resolve = RESOLVE_BENEATH;
		fd = indirect_result(__NR_openat, both, 2, q);
		check_long("with_openflags_fd_is_cloexec", 1, fd_cloexec(fd));
		if (fd >= 0)
			close(fd);
	}
}

/*
 * The kernel's rename attack (tools/testing/selftests/openat2/
 * rename_attack_test.c) on indirect(fstatat) under RESOLVE: a child swaps
 * a/c and b while the walk goes down and up through c from a. A walk
 * that got out of a would find no "c" where it ends (ENOENT), or another
 * directory than a; EXDEV and EAGAIN are the rules at work.
 */
#define RACE_ROUNDS	20000

static void check_rename_race(__u64 resolve, const char *dir,
			      const char *name)
{
	static const char victim[] = "c/../../c/../../c/../../c/../../c/../..";
	int dfd, afd, escapes = 0, refused = 0, ok = 0, other = 0, i;
	struct stat a_st;
	/*
	 * What the raw call writes: the kernel's struct stat64 for
	 * fstatat64(), which is larger than the C library's struct stat of
	 * a 32-bit ABI, and would run past it on the stack.
	 */
#ifdef __NR_newfstatat
	struct stat st;
#else
	struct stat64 st;
#endif
	pid_t child;

	must(mkdirat(root_fd, dir, 0755), "mkdir race");
	dfd = openat(root_fd, dir, O_PATH | O_DIRECTORY);
	must(dfd, "open race");
	must(mkdirat(dfd, "a", 0755), "mkdir a");
	must(mkdirat(dfd, "b", 0755), "mkdir b");
	must(mkdirat(dfd, "a/c", 0755), "mkdir a/c");
	afd = openat(dfd, "a", O_PATH | O_DIRECTORY);
	must(afd, "open a");
	must(fstat(afd, &a_st), "fstat a");

	child = fork();
	must(child, "fork");
	if (!child) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			syscall(__NR_renameat2, dfd, "a/c", dfd, "b",
				RENAME_EXCHANGE);
	}
	for (i = 0; i < RACE_ROUNDS; i++) {
		unsigned long p[INDIRECT_NR_PARAMS] = {
			afd, (unsigned long)victim, (unsigned long)&st, 0,
		};
#ifdef __NR_newfstatat
		long nr = __NR_newfstatat;
#else
		long nr = __NR_fstatat64;
#endif
		long ret;

		resolve_ctx.resolve = resolve;
		ret = indirect_result(nr, resolve_ctxs, 1, p);
		if (ret == -EXDEV || ret == -EAGAIN)
			refused++;
		else if (ret == 0 && st.st_ino == a_st.st_ino &&
			 st.st_dev == a_st.st_dev)
			ok++;
		else if (ret == 0 || ret == -ENOENT)
			escapes++;
		else
			other++;
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	ksft_print_msg("%s: %d rounds: %d resolved to a, %d EXDEV or EAGAIN, %d other errors, %d escapes\n",
		       name, RACE_ROUNDS, ok, refused, other, escapes);
	check_long(name, 0, escapes);
	close(afd);
	close(dfd);
}

int main(void)
{
	unsigned int i;

	ksft_print_header();
	indirect_require();
	if (getuid())
		ksft_exit_skip("needs root, for a mount namespace\n");
	setup_tree();
	ksft_print_msg("%zu calls that resolve path names on ABI %s\n",
		       ARRAY_SIZE(path_calls), HARNESS_BUILD_ABI);
	/* rows, two per call, refused, past the end, context, races, escapes */
	ksft_set_plan(1 + 2 * ARRAY_SIZE(path_calls) + 2 +
		      ARRAY_SIZE(past_end_rows) + 18 + 2 + 1);

	check_rows();
	for (i = 0; i < ARRAY_SIZE(path_calls); i++) {
		const struct path_call *c = &path_calls[i];
		char name[96];

		/*
		 * A call that this kernel lacks (fchmodat2 before 6.6, for a
		 * binary built for a later base): ENOSYS for bad arguments
		 * that any syscall of these refuses otherwise.
		 */
		if (syscall(c->nr, -1L, -1L, -1L, -1L, -1L, -1L) == -1 &&
		    errno == ENOSYS) {
			ksft_test_result_skip("%s: not in this kernel\n",
					      c->name);
			ksft_test_result_skip("%s: not in this kernel\n",
					      c->name);
			continue;
		}
		snprintf(name, sizeof(name), "%s_answers_as_openat2_on_every_row",
			 c->name);
		check_long(name, 0, check_call_rows(c));
		snprintf(name, sizeof(name), "%s_works_inside_the_tree",
			 c->name);
		check_long(name, 0, check_call_inside(c));
	}
	check_refused();
	check_past_table_end();
	check_context();
	check_rename_race(RESOLVE_BENEATH, "race-beneath",
			  "rename_race_beneath_no_escape");
	check_rename_race(RESOLVE_IN_ROOT, "race-in-root",
			  "rename_race_in_root_no_escape");
	check_nothing_escaped();
	ksft_finished();
}
