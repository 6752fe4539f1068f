// SPDX-License-Identifier: GPL-2.0
/*
 * An LSM judges an inner call of indirect() as it judges the call made
 * directly: the hooks sit in the code that the call runs, not at the
 * syscall boundary. The LSM here is Landlock, which an unprivileged task
 * can turn on for itself: the test restricts itself to reading files and
 * making directories beneath one directory, then makes the same calls
 * directly, through indirect() and through indirect() with an OPENFLAGS
 * context, inside that directory and outside it. Each must succeed
 * inside and fail with EACCES outside, whichever way it is made; an
 * access that the ruleset does not handle (a write) succeeds everywhere.
 */
#include <sys/stat.h>
#include <linux/landlock.h>
#include "indirect_test.h"

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset	444
#define __NR_landlock_add_rule		445
#define __NR_landlock_restrict_self	446
#endif

#define HANDLED_ACCESS	(LANDLOCK_ACCESS_FS_READ_FILE | \
			 LANDLOCK_ACCESS_FS_MAKE_DIR)

static char allowed_dir[64], denied_dir[64];

/* How a call is made. */
struct call_mode {
	const char *name;
	const void *ctxs;	/* NULL: directly */
	unsigned int nctxs;
	bool indirect;
};

static const struct call_mode modes[] = {
	{ "direct", NULL, 0, false },
	{ "indirect", NULL, 0, true },
	{ "indirect_openflags", cloexec_ctxs, 1, true },
};

static long call(const struct call_mode *mode, long nr,
		 const unsigned long *params)
{
	if (!mode->indirect)
		return direct_call(nr, params);
	return indirect_result(nr, mode->ctxs, mode->nctxs, params);
}

static void make_dir_with_file(char *dir, size_t size, const char *what)
{
	char path[96];
	int fd;

	snprintf(dir, size, "/tmp/indirect-lsm-%s-%d", what, getpid());
	snprintf(path, sizeof(path), "%s/file", dir);
	if (mkdir(dir, 0700))
		ksft_exit_fail_msg("mkdir %s: %s\n", dir, strerror(errno));
	fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0)
		ksft_exit_fail_msg("create %s: %s\n", path, strerror(errno));
	close(fd);
}

/* Allow HANDLED_ACCESS beneath allowed_dir alone; 0, or skip. */
static void restrict_self(void)
{
	struct landlock_ruleset_attr attr = {
		.handled_access_fs = HANDLED_ACCESS,
	};
	struct landlock_path_beneath_attr beneath = {
		.allowed_access = HANDLED_ACCESS,
	};
	int ruleset;

	ruleset = syscall(__NR_landlock_create_ruleset, &attr, sizeof(attr), 0);
	if (ruleset < 0)
		ksft_exit_skip("landlock_create_ruleset: %s (Landlock is not on)\n",
			       strerror(errno));
	beneath.parent_fd = open(allowed_dir, O_PATH | O_CLOEXEC);
	if (beneath.parent_fd < 0 ||
	    syscall(__NR_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH,
		    &beneath, 0))
		ksft_exit_fail_msg("landlock_add_rule: %s\n", strerror(errno));
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(__NR_landlock_restrict_self, ruleset, 0))
		ksft_exit_fail_msg("landlock_restrict_self: %s\n",
				   strerror(errno));
	close(beneath.parent_fd);
	close(ruleset);
}

/* openat(@dir/file, @flags) made as @mode: 0 or -errno. */
static long open_in(const struct call_mode *mode, const char *dir, int flags)
{
	char path[96];
	unsigned long params[INDIRECT_NR_PARAMS] = {
		(unsigned long)AT_FDCWD, (unsigned long)path, flags,
	};
	long fd;

	snprintf(path, sizeof(path), "%s/file", dir);
	fd = call(mode, __NR_openat, params);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* mkdirat(@dir/<mode name>) made as @mode: 0 or -errno. */
static long mkdir_in(const struct call_mode *mode, const char *dir)
{
	char path[96];
	unsigned long params[INDIRECT_NR_PARAMS] = {
		(unsigned long)AT_FDCWD, (unsigned long)path, 0700,
	};

	snprintf(path, sizeof(path), "%s/%s", dir, mode->name);
	return call(mode, __NR_mkdirat, params);
}

static void check_mode(const struct call_mode *mode)
{
	char name[96];

	snprintf(name, sizeof(name), "%s_read_inside_allowed", mode->name);
	check_long(name, 0, open_in(mode, allowed_dir, O_RDONLY));
	snprintf(name, sizeof(name), "%s_read_outside_eacces", mode->name);
	check_long(name, -EACCES, open_in(mode, denied_dir, O_RDONLY));
	snprintf(name, sizeof(name), "%s_mkdir_inside_allowed", mode->name);
	check_long(name, 0, mkdir_in(mode, allowed_dir));
	snprintf(name, sizeof(name), "%s_mkdir_outside_eacces", mode->name);
	check_long(name, -EACCES, mkdir_in(mode, denied_dir));
	snprintf(name, sizeof(name), "%s_unhandled_write_outside_allowed",
		 mode->name);
	check_long(name, 0, open_in(mode, denied_dir, O_WRONLY));
}

int main(void)
{
	unsigned int i;

	ksft_print_header();
	indirect_require();
	make_dir_with_file(allowed_dir, sizeof(allowed_dir), "allowed");
	make_dir_with_file(denied_dir, sizeof(denied_dir), "denied");
	restrict_self();
	ksft_set_plan(5 * ARRAY_SIZE(modes));
	for (i = 0; i < ARRAY_SIZE(modes); i++)
		check_mode(&modes[i]);
	ksft_finished();
}
