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
 *
 * It needs libindirect only, installed, and builds anywhere with the
 * flags that pkg-config gives:
 *
 *	cc $(pkg-config --cflags libindirect) -o safe_extract safe_extract.c \
 *		$(pkg-config --libs libindirect)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* unshare(), mkdirat() and the others */
#endif
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>
#include <indirect.h>

/*
 * Its report, in KTAP as the kernel's selftests print theirs (the lines
 * of kselftest.h, which a program outside the kernel's tree does not
 * have): exit status 0 when every test passed, 1 when one failed or the
 * program gave up, 4 when it could not run them.
 */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define KSFT_PASS	0
#define KSFT_FAIL	1
#define KSFT_SKIP	4

static unsigned int ktap_plan, ktap_run, ktap_passed;

static void ktap_print_header(void)
{
	/* Line-buffered, so that nothing is printed twice after a fork(). */
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
}

static void ktap_set_plan(unsigned int plan)
{
	ktap_plan = plan;
	printf("1..%u\n", plan);
}

static void ktap_test_result(bool ok, const char *name)
{
	ktap_run++;
	ktap_passed += ok;
	printf("%sok %u %s\n", ok ? "" : "not ", ktap_run, name);
}

static __attribute__((format(printf, 1, 2))) void
ktap_print_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("# ");
	vprintf(fmt, ap);
	va_end(ap);
}

static void ktap_print_totals(void)
{
	printf("# Totals: pass:%u fail:%u xfail:0 xpass:0 skip:0 error:0\n",
	       ktap_passed, ktap_run - ktap_passed);
}

/* Give up: a test could not be set up. */
static __attribute__((noreturn, format(printf, 1, 2))) void
ktap_exit_fail_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("Bail out! ");
	vprintf(fmt, ap);
	va_end(ap);
	ktap_print_totals();
	exit(KSFT_FAIL);
}

/* Skip every test, before the plan. */
static __attribute__((noreturn, format(printf, 1, 2))) void
ktap_exit_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("1..0 # SKIP ");
	vprintf(fmt, ap);
	va_end(ap);
	exit(KSFT_SKIP);
}

static __attribute__((noreturn)) void ktap_finished(void)
{
	ktap_print_totals();
	exit(ktap_passed == ktap_plan && ktap_run == ktap_plan ?
	     KSFT_PASS : KSFT_FAIL);
}

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
		ktap_exit_fail_msg("stat secret: %s\n", strerror(errno));

	*failed = *escaped = 0;
	snprintf(dir, sizeof(dir), SCRATCH "/%s", name);
	if (mkdir(dir, 0755))
		ktap_exit_fail_msg("mkdir %s: %s\n", dir, strerror(errno));
	dest = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dest < 0)
		ktap_exit_fail_msg("open %s: %s\n", dir, strerror(errno));
	for (i = 0; i < ARRAY_SIZE(archive); i++) {
		const struct member *m = &archive[i];
		int ret = extract_member(dest, m, resolve);

		if (ret) {
			(*failed)++;
			ktap_print_msg("%s: %s: %s%s\n", name, m->path,
				       strerror(-ret),
				       m->hostile ? "" : " (a member inside!)");
		}
	}
	/* A hard link inside to a file outside exposes it. */
	if (!fstatat(dest, "a/hard", &st, AT_SYMLINK_NOFOLLOW) &&
	    st.st_ino == secret.st_ino && st.st_dev == secret.st_dev) {
		(*escaped)++;
		ktap_print_msg("%s: a/hard is %s/secret\n", name, SCRATCH);
	}
	for (i = 0; i < ARRAY_SIZE(outside); i++) {

		if (!lstat(outside[i], &st)) {
			(*escaped)++;
			ktap_print_msg("%s: made %s\n", name, outside[i]);
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

	ktap_print_header();
	if (!indirect_available())
		ktap_exit_skip("indirect() is not available (ENOSYS)\n");
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		ktap_exit_skip("no mount namespace of our own: %s\n",
			       strerror(errno));
	mkdir(SCRATCH, 0755);
	if (mount("tmpfs", SCRATCH, "tmpfs", 0, NULL))
		ktap_exit_fail_msg("mount %s: %s\n", SCRATCH, strerror(errno));
	/* What a hard link out of the tree would expose. */
	fd = open(SCRATCH "/secret", O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		ktap_exit_fail_msg("create secret: %s\n", strerror(errno));
	close(fd);
	for (i = 0; i < ARRAY_SIZE(archive); i++)
		hostile += archive[i].hostile;
	ktap_set_plan(3);

	extract("plain", false, &failed, &escaped);
	ktap_print_msg("plain calls: %d of %d hostile members got out\n",
		       escaped, hostile);
	ktap_test_result(escaped > 0, "plain_calls_escape");

	extract("resolve", true, &failed, &escaped);
	ktap_print_msg("RESOLVE_BENEATH: %d members refused, %d got out\n",
		       failed, escaped);
	ktap_test_result(!escaped, "resolve_nothing_escapes");
	ktap_test_result(failed == hostile, "resolve_extracts_every_other_member");
	ktap_finished();
}
