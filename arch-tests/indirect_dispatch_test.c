// SPDX-License-Identifier: GPL-2.0
/*
 * indirect() passes the six parameters to the inner syscall where its ABI
 * expects them: each test calls a syscall taking 0 to 6 arguments through
 * indirect() and checks the result against the call's known effect. On
 * 32-bit ABIs one 64-bit argument takes two parameters (two registers;
 * on ARM EABI an even pair of them).
 */
#define _FILE_OFFSET_BITS 64
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include "indirect_test.h"

#define PAGE	4096UL
/* A descriptor number that nothing else in this test uses. */
#define DUP2_TARGET	201

static void test_args0_getppid(void)
{
	unsigned long p[INDIRECT_NR_PARAMS] = { 0 };

	check_long("args0_getppid", getppid(),
		   indirect_result(__NR_getppid, NULL, 0, p));
}

static void test_args1_umask(void)
{
	unsigned long p[INDIRECT_NR_PARAMS] = { 077 };
	mode_t old = umask(022);
	long ret = indirect_result(__NR_umask, NULL, 0, p);
	mode_t now = umask(old);

	/* The old mask comes back, and the new one took effect. */
	check_long("args1_umask", 022 | (077 << 12), ret | ((long)now << 12));
}

static void test_args2_kill(void)
{
	unsigned long p[INDIRECT_NR_PARAMS] = { getpid(), 0 };
	unsigned long bad[INDIRECT_NR_PARAMS] = { getpid(), 1000 };

	long ret;

	/* Signal 0 checks the pid; signal 1000 must reach the kernel as 1000. */
	ret = indirect_result(__NR_kill, NULL, 0, p);
	if (!ret)
		ret = indirect_result(__NR_kill, NULL, 0, bad) == -EINVAL ? 0 : -EIO;
	check_long("args2_kill", 0, ret);
}

static void test_args2_dup2(void)
{
	unsigned long p[INDIRECT_NR_PARAMS] = { 0 };
	const char *name;
	struct stat a, b;
	int pfd[2];
	long ret, nr;

	if (pipe(pfd))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	close(DUP2_TARGET);
	p[0] = pfd[1];
	p[1] = DUP2_TARGET;
#ifdef __NR_dup2
	nr = __NR_dup2;
	name = "args2_dup2";
#else
	/* AArch64 has dup3() only: the same, with no flags. */
	nr = __NR_dup3;
	name = "args3_dup3";
#endif
	ret = indirect_result(nr, NULL, 0, p);
	/* The new descriptor is the one asked for, and refers to oldfd's pipe. */
	if (ret == DUP2_TARGET && (fstat(pfd[1], &a) || fstat(DUP2_TARGET, &b) ||
				   a.st_ino != b.st_ino))
		ret = -EIO;
	close(DUP2_TARGET);
	close(pfd[0]);
	close(pfd[1]);
	check_long(name, DUP2_TARGET, ret);
}

static void test_args3_write(void)
{
	char buf[8] = "";
	int pfd[2];
	unsigned long p[INDIRECT_NR_PARAMS];
	long ret;

	if (pipe(pfd))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	p[0] = pfd[1];
	p[1] = (unsigned long)"hello";
	p[2] = 5;
	ret = indirect_result(__NR_write, NULL, 0, p);
	if (ret == 5 && (read(pfd[0], buf, sizeof(buf)) != 5 ||
			 memcmp(buf, "hello", 5)))
		ret = -EIO;
	close(pfd[0]);
	close(pfd[1]);
	check_long("args3_write", 5, ret);
}

static void test_args3_read(void)
{
	char buf[8] = "";
	int pfd[2];
	unsigned long p[INDIRECT_NR_PARAMS];
	long ret;

	if (pipe(pfd))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	if (write(pfd[1], "world", 5) != 5)
		ksft_exit_fail_msg("write: %s\n", strerror(errno));
	p[0] = pfd[0];
	p[1] = (unsigned long)buf;
	p[2] = sizeof(buf);
	ret = indirect_result(__NR_read, NULL, 0, p);
	if (ret == 5 && memcmp(buf, "world", 5))
		ret = -EIO;
	close(pfd[0]);
	close(pfd[1]);
	check_long("args3_read", 5, ret);
}

static int scratch_file(const char *name, size_t size, int fill)
{
	char path[64];
	char page[PAGE];
	size_t done;
	int fd;

	snprintf(path, sizeof(path), "/tmp/indirect-%s-%d", name, getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		ksft_exit_fail_msg("open %s: %s\n", path, strerror(errno));
	unlink(path);
	for (done = 0; done < size; done += PAGE) {
		/* Page n is filled with fill + n. */
		memset(page, fill + done / PAGE, PAGE);
		if (write(fd, page, PAGE) != (ssize_t)PAGE)
			ksft_exit_fail_msg("write %s: %s\n", path, strerror(errno));
	}
	return fd;
}

static void test_args3_lseek(void)
{
	int fd = scratch_file("lseek", PAGE, 'a');
	unsigned long p[INDIRECT_NR_PARAMS] = { fd, 42, SEEK_SET };
	long ret = indirect_result(__NR_lseek, NULL, 0, p);

	if (ret == 42 && lseek(fd, 0, SEEK_CUR) != 42)
		ret = -EIO;
	close(fd);
	check_long("args3_lseek", 42, ret);
}

static void test_args3_lseek_end(void)
{
	int fd = scratch_file("lseek-end", PAGE, 'a');
	unsigned long p[INDIRECT_NR_PARAMS] = { fd, (unsigned long)-5L, SEEK_END };
	long ret = indirect_result(__NR_lseek, NULL, 0, p);

	close(fd);
	check_long("args3_lseek_end_negative", PAGE - 5, ret);
}

/*
 * openat(dirfd, relative name, flags, mode): the file appears under
 * dirfd, and with umask 0 its mode is exactly the fourth argument.
 */
static void test_args4_openat(void)
{
	char dir[] = "/tmp/indirect-openat-XXXXXX";
	unsigned long p[INDIRECT_NR_PARAMS];
	struct stat opened, named;
	mode_t old_umask;
	int dirfd;
	long ret;

	if (!mkdtemp(dir))
		ksft_exit_fail_msg("mkdtemp: %s\n", strerror(errno));
	dirfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (dirfd < 0)
		ksft_exit_fail_msg("open %s: %s\n", dir, strerror(errno));
	p[0] = dirfd;
	p[1] = (unsigned long)"file";
	p[2] = O_RDWR | O_CREAT | O_EXCL;
	p[3] = 0604;
	old_umask = umask(0);
	ret = indirect_result(__NR_openat, NULL, 0, p);
	umask(old_umask);
	if (ret >= 0) {
		if (fstat(ret, &opened) ||
		    fstatat(dirfd, "file", &named, 0) ||
		    opened.st_ino != named.st_ino)
			ret = -ENOENT;
		else if ((opened.st_mode & 07777) != 0604)
			ret = -EPERM;
		else
			ret = close(ret);
	}
	unlinkat(dirfd, "file", 0);
	close(dirfd);
	rmdir(dir);
	/* 0, or -ENOENT: not created under dirfd, -EPERM: another mode. */
	check_long("args4_openat_dirfd_mode", 0, ret);
}

/* A length above 4 GiB, so that its high half matters. */
#define SPLIT_LENGTH	0x100000005ULL

static void test_arg64_ftruncate(void)
{
	int fd = scratch_file("ftruncate", 0, 0);
	unsigned long p[INDIRECT_NR_PARAMS] = { fd };
	struct stat st;
	long ret;
	long nr;

#ifdef __NR_ftruncate64
	/*
	 * 32-bit ABIs: the length in two registers, low half first; on ARM
	 * EABI in an even pair, after a word of padding.
	 */
	const unsigned long len[] = {
		INDIRECT_PAD64 INDIRECT_ARG64(SPLIT_LENGTH)
	};

	nr = __NR_ftruncate64;
	memcpy(&p[1], len, sizeof(len));
#else
	nr = __NR_ftruncate;
	p[1] = SPLIT_LENGTH;
#endif
	ret = indirect_result(nr, NULL, 0, p);
	if (!ret && fstat(fd, &st))
		ret = -errno;
	/* Compared in 64 bits: on -m32 a long would drop the high half. */
	if (!ret && (unsigned long long)st.st_size != SPLIT_LENGTH) {
		ksft_print_msg("arg64_split_ftruncate: size %#llx, expected %#llx\n",
			       (unsigned long long)st.st_size, SPLIT_LENGTH);
		ret = -EIO;
	}
	close(fd);
	/* 0, or -EIO for another size, or -errno. */
	check_long("arg64_split_ftruncate", 0, ret);
}

/* An address with nothing mapped at it, for MAP_FIXED and MREMAP_FIXED. */
static void *free_address(size_t len)
{
	void *p = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	munmap(p, len);
	return p;
}

static void test_args5_mremap(void)
{
	char *old = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *new = free_address(PAGE);
	unsigned long p[INDIRECT_NR_PARAMS] = {
		(unsigned long)old, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED,
		(unsigned long)new,
	};
	long ret;

	if (old == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	old[0] = 'm';
	ret = indirect_result(__NR_mremap, NULL, 0, p);
	if (ret == (long)new && new[0] != 'm')
		ret = -EIO;
	check_long("args5_mremap_fixed", (long)new, ret);
	munmap(new, PAGE);
}

static void test_args6_mmap(void)
{
	int fd = scratch_file("mmap", 2 * PAGE, 'a');
	char *want = free_address(PAGE);
	unsigned long p[INDIRECT_NR_PARAMS] = {
		(unsigned long)want, PAGE, PROT_READ, MAP_SHARED | MAP_FIXED, fd,
	};
	long ret;
	long nr;

#ifdef __NR_mmap2
	/* 32-bit ABIs: the offset in 4096-byte units. */
	nr = __NR_mmap2;
	p[5] = 1;
#else
	nr = __NR_mmap;
	p[5] = PAGE;
#endif
	ret = indirect_result(nr, NULL, 0, p);
	/* The second page of the file, which is filled with 'b'. */
	if (ret == (long)want && want[0] != 'b')
		ret = -EIO;
	check_long("args6_mmap_fixed_offset", (long)want, ret);
	munmap(want, PAGE);
	close(fd);
}

int main(void)
{
	ksft_print_header();
	indirect_require();
	ksft_set_plan(12);
	test_args0_getppid();
	test_args1_umask();
	test_args2_kill();
	test_args2_dup2();
	test_args3_write();
	test_args3_read();
	test_args3_lseek();
	test_args3_lseek_end();
	test_args4_openat();
	test_arg64_ftruncate();
	test_args5_mremap();
	test_args6_mmap();
	ksft_finished();
}
