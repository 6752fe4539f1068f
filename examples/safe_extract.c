// SPDX-License-Identifier: GPL-2.0
/*
 * Extracting an untrusted archive safely, with indirect(2)'s RESOLVE
 * context.
 *
 * An archive names its members with paths that its author chose: "..",
 * absolute paths, and symlinks that an earlier member planted ("a/link"
 * -> "/", then "a/link/etc/cron.d/x") all lead an extractor out of its
 * destination. openat2(RESOLVE_BENEATH) keeps the files that it creates
 * inside, but an extractor also makes directories, symlinks and hard
 * links, and sets modes: mkdirat(), symlinkat(), linkat() and fchmodat()
 * have no resolve argument, and checking a path in user space before the
 * call leaves a window for a concurrent rename. Each of them through
 * indirect() with a RESOLVE context resolves as openat2() does, in the
 * kernel, in the same walk as the call.
 *
 * The program extracts the archive below twice into a fresh tmpfs of a
 * private mount namespace: once with the plain calls, which writes
 * outside the destination, then with the RESOLVE_BENEATH calls, which
 * refuse every member that would, and extract all the others.
 *
 * Usage: safe_extract		both extractions, KTAP (needs root, for the
 *				mount namespace)
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>
#include "kselftest.h"
#include "indirect.h"

#define SCRATCH		"/tmp/safe-extract"

enum member_type { DIR_MEMBER, FILE_MEMBER, SYMLINK_MEMBER, LINK_MEMBER };

struct member {
	enum member_type type;
	const char *path;
	const char *target;	/* of a symlink or a hard link */
	bool hostile;		/* leads out of the destination */
};

/* A tar file's members, as an attacker would order them. */
static const struct member archive[] = {
	{ DIR_MEMBER, "a", NULL, false },
	{ FILE_MEMBER, "a/hello", NULL, false },
	{ DIR_MEMBER, "a/b", NULL, false },
	{ SYMLINK_MEMBER, "a/up", "../..", false },
	{ SYMLINK_MEMBER, "a/root", "/", false },
	{ FILE_MEMBER, "../dotdot-file", NULL, true },
	{ DIR_MEMBER, "a/../../dotdot-dir", NULL, true },
	{ FILE_MEMBER, SCRATCH "/absolute-file", NULL, true },
	{ DIR_MEMBER, "a/up/through-symlink-dir", NULL, true },
	{ SYMLINK_MEMBER, "a/root" SCRATCH "/planted-link", "x", true },
	{ LINK_MEMBER, "a/hard", SCRATCH "/secret", true },
	{ LINK_MEMBER, "a/hard2", "a/hello", false },
	{ FILE_MEMBER, "a/b/last", NULL, false },
};

/* The names that a hostile member would make, outside the destination. */
static const char *const outside[] = {
	SCRATCH "/dotdot-file", SCRATCH "/dotdot-dir",
	SCRATCH "/absolute-file", SCRATCH "/through-symlink-dir",
	SCRATCH "/planted-link",
};

/* Make @m in the tree of @dest: -errno or 0. */
static int extract_member(int dest, const struct member *m, bool resolve)
{
	__u64 rules = resolve ? RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS : 0;
	struct open_how how = {
		.flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		.mode = 0644,
		.resolve = rules,
	};
	int ret = -1, fd;

	switch (m->type) {
	case DIR_MEMBER:
		ret = resolve ? indirect_mkdirat_resolve(dest, m->path, 0755,
							 rules) :
				mkdirat(dest, m->path, 0755);
		break;
	case FILE_MEMBER:
		/* Files were safe already: openat2() has the rules. */
		fd = syscall(__NR_openat2, dest, m->path, &how, sizeof(how));
		if (fd >= 0) {
			ret = write(fd, "data\n", 5) == 5 ? 0 : -1;
			close(fd);
		}
		break;
	case SYMLINK_MEMBER:
		/* The target is stored as given; the rules act when used. */
		ret = resolve ? indirect_symlinkat_resolve(m->target, dest,
							   m->path, rules) :
				symlinkat(m->target, dest, m->path);
		break;
	case LINK_MEMBER:
		ret = resolve ? indirect_linkat_resolve(dest, m->target, dest,
							m->path, 0, rules) :
				linkat(dest, m->target, dest, m->path, 0);
		break;
	}
	return ret < 0 ? -errno : 0;
}

/*
 * Extract the archive into SCRATCH/<name>: the number of members that
 * failed, and those that escaped, going by what exists outside after and
 * by what the hard link leads to.
 */
static void extract(const char *name, bool resolve, int *failed,
		    int *escaped)
{
	struct stat st, secret;
	char dir[64];
	unsigned int i;
	int dest;

	if (stat(SCRATCH "/secret", &secret))
		ksft_exit_fail_msg("stat secret: %s\n", strerror(errno));

	*failed = *escaped = 0;
	snprintf(dir, sizeof(dir), SCRATCH "/%s", name);
	if (mkdir(dir, 0755))
		ksft_exit_fail_msg("mkdir %s: %s\n", dir, strerror(errno));
	dest = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dest < 0)
		ksft_exit_fail_msg("open %s: %s\n", dir, strerror(errno));
	for (i = 0; i < ARRAY_SIZE(archive); i++) {
		const struct member *m = &archive[i];
		int ret = extract_member(dest, m, resolve);

		if (ret) {
			(*failed)++;
			ksft_print_msg("%s: %s: %s%s\n", name, m->path,
				       strerror(-ret),
				       m->hostile ? "" : " (a member inside!)");
		}
	}
	/* A hard link inside to a file outside exposes it. */
	if (!fstatat(dest, "a/hard", &st, AT_SYMLINK_NOFOLLOW) &&
	    st.st_ino == secret.st_ino && st.st_dev == secret.st_dev) {
		(*escaped)++;
		ksft_print_msg("%s: a/hard is %s/secret\n", name, SCRATCH);
	}
	for (i = 0; i < ARRAY_SIZE(outside); i++) {

		if (!lstat(outside[i], &st)) {
			(*escaped)++;
			ksft_print_msg("%s: made %s\n", name, outside[i]);
			if (unlink(outside[i]))
				rmdir(outside[i]);
		}
	}
	close(dest);
}

int main(void)
{
	int hostile = 0, failed, escaped, fd;
	unsigned int i;

	ksft_print_header();
	if (!indirect_available())
		ksft_exit_skip("indirect() is not available (ENOSYS)\n");
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		ksft_exit_skip("no mount namespace of our own: %s\n",
			       strerror(errno));
	mkdir(SCRATCH, 0755);
	if (mount("tmpfs", SCRATCH, "tmpfs", 0, NULL))
		ksft_exit_fail_msg("mount %s: %s\n", SCRATCH, strerror(errno));
	/* What a hard link out of the tree would expose. */
	fd = open(SCRATCH "/secret", O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		ksft_exit_fail_msg("create secret: %s\n", strerror(errno));
	close(fd);
	for (i = 0; i < ARRAY_SIZE(archive); i++)
		hostile += archive[i].hostile;
	ksft_set_plan(3);

	extract("plain", false, &failed, &escaped);
	ksft_print_msg("plain calls: %d of %d hostile members got out\n",
		       escaped, hostile);
	ksft_test_result(escaped > 0, "plain_calls_escape\n");

	extract("resolve", true, &failed, &escaped);
	ksft_print_msg("RESOLVE_BENEATH: %d members refused, %d got out\n",
		       failed, escaped);
	ksft_test_result(!escaped, "resolve_nothing_escapes\n");
	ksft_test_result(failed == hostile, "resolve_extracts_every_other_member\n");
	ksft_finished();
}
