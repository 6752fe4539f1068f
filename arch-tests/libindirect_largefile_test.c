// SPDX-License-Identifier: GPL-2.0
/*
 * libindirect's 64-bit file offsets: indirect_pread64(), indirect_pwrite64()
 * and indirect_fallocate() must hand the kernel the whole offset. On i386
 * and ia32 compat it takes two registers, the low half first, as
 * sys_ia32_pread64() and sys_ia32_fallocate() read them; on 32-bit ARM
 * and AArch32 compat the same, in an even pair of registers (pread64's
 * after a word of padding), as compat_sys_aarch32_pread64() reads them;
 * on x86-64 and AArch64, one.
 *
 * The files are sparse, on a tmpfs mounted for the test, so offsets past
 * 4 GiB cost a page each. The offsets are chosen so that a call that
 * loses or misplaces the high half lands elsewhere: a decoy lies where
 * the low half alone points, and the same checks are run on raw
 * indirect() calls with the offset put right, which must pass them, and
 * with its halves swapped or its high half dropped, which must not.
 *
 * Built without _FILE_OFFSET_BITS=64 on purpose: off_t is then 32 bits on
 * i386, and the helpers must not depend on it.
 */
#include <stdint.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include "indirect_test.h"

#define GiB		(1ULL << 30)
/* Past 4 GiB, with both halves non-zero: 0x1_4000007b. */
#define MARKER_OFFSET	(5 * GiB + 123)
/* A second marker, one page further, for indirect_pwrite64(). */
#define MARKER2_OFFSET	(MARKER_OFFSET + 4096)
/* 0x1_80000000; its low half alone is 2 GiB. */
#define FALLOC_OFFSET	(6 * GiB)
#define FALLOC_LEN	4096ULL

static const char marker[] = "marker at 5 GiB + 123";
static const char marker2[] = "second marker, one page on";
/* What a call that dropped the high half reads instead of the marker. */
static const char decoy[] = "decoy: the high half was lost";

/* How the offset goes into the parameters of a raw indirect() call. */
enum split { SPLIT_RIGHT, SPLIT_SWAPPED, SPLIT_HIGH_DROPPED };

static const char *const split_name[] = {
	[SPLIT_RIGHT] = "right",
	[SPLIT_SWAPPED] = "swapped_halves",
	[SPLIT_HIGH_DROPPED] = "high_half_dropped",
};

/*
 * pread64(fd, buf, count, offset): on ARM EABI the offset goes to an
 * even register pair, after a word of padding (abi.h).
 */
#ifdef ABI_ARG64_EVEN_PAIRS
#define PREAD64_OFFSET_WORD	4
#else
#define PREAD64_OFFSET_WORD	3
#endif

/*
 * Put @off into @p as the ABI passes it, or wrongly as @how says; return
 * the number of words used. On 64-bit ABIs "swapped" rotates the one
 * word.
 */
static unsigned int put_offset(unsigned long *p, uint64_t off, enum split how)
{
	if (how == SPLIT_SWAPPED)
		off = off << 32 | off >> 32;
	else if (how == SPLIT_HIGH_DROPPED)
		off = (uint32_t)off;
#if __SIZEOF_LONG__ >= 8
	p[0] = off;
	return 1;
#else
	p[0] = (uint32_t)off;
	p[1] = (uint32_t)(off >> 32);
	return 2;
#endif
}

/*
 * The root of a tmpfs of our own, already detached from the tree: each
 * file goes away when closed, and nothing is left mounted. Its size bound
 * turns a call that asks for terabytes (a length put wrongly) into ENOSPC
 * rather than an OOM kill, as an unbounded memfd would.
 */
static int tmpfs_root(void)
{
	char dir[] = "/tmp/libindirect-largefile-XXXXXX";
	int fd;

	if (!mkdtemp(dir))
		ksft_exit_skip("mkdtemp: %s\n", strerror(errno));
	if (mount("tmpfs", dir, "tmpfs", 0, "size=16m,mode=0700")) {
		rmdir(dir);
		ksft_exit_skip("cannot mount a tmpfs: %s\n", strerror(errno));
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	umount2(dir, MNT_DETACH);
	rmdir(dir);
	if (fd < 0)
		ksft_exit_fail_msg("open the tmpfs: %s\n", strerror(errno));
	return fd;
}

static int tmpfs_dir;

/*
 * A fresh, empty, unnamed file on that tmpfs. O_LARGEFILE, which a 32-bit
 * task must ask for, lets writes go past 2 GiB.
 */
static int tmpfs_file(void)
{
	int fd = openat(tmpfs_dir, ".", O_TMPFILE | O_RDWR | O_LARGEFILE, 0600);

	if (fd < 0)
		ksft_exit_fail_msg("O_TMPFILE on tmpfs: %s\n", strerror(errno));
	return fd;
}

static void write_at(int fd, const char *what, size_t len, uint64_t off)
{
	if (pwrite64(fd, what, len, off) != (ssize_t)len)
		ksft_exit_fail_msg("pwrite64 at %#llx: %s\n",
				   (unsigned long long)off, strerror(errno));
}

/*
 * 0 if the read @ret bytes in @buf are @want, else -EIO (or the error),
 * saying what came back instead.
 */
static long got_marker(const char *name, long ret, const char *buf,
		       const char *want, size_t len)
{
	if (ret == (long)len && !memcmp(buf, want, len))
		return 0;
	if (ret < 0)
		ksft_print_msg("%s: %s\n", name, strerror(-ret));
	else if (ret == (long)len && !memcmp(buf, decoy, len))
		ksft_print_msg("%s: read the decoy at the low half's offset\n",
			       name);
	else
		ksft_print_msg("%s: read %ld bytes, not \"%s\"\n", name, ret,
			       want);
	return ret < 0 ? ret : -EIO;
}

static long result(long ret)
{
	return ret == -1 ? -errno : ret;
}

static void test_pread64(int fd)
{
	struct sysind_ctx_SIGMASK ctx;
	const struct indirect_ctx *ctxs[1];
	char buf[sizeof(decoy)] = "";
	sigset_t now;
	long ret;

	ret = result(indirect_pread64(NULL, 0, fd, buf, sizeof(marker),
				      MARKER_OFFSET));
	check_long("pread64_at_5GiB_plus_123", 0,
		   got_marker("pread64_at_5GiB_plus_123", ret, buf, marker,
			      sizeof(marker)));

	/* With a context: the offset's words follow the same array. */
	sigprocmask(SIG_BLOCK, NULL, &now);
	ctxs[0] = indirect_ctx_sigmask(&ctx, &now);
	memset(buf, 0, sizeof(buf));
	ret = result(indirect_pread64(ctxs, 1, fd, buf, sizeof(marker),
				      MARKER_OFFSET));
	check_long("pread64_with_sigmask_context", 0,
		   got_marker("pread64_with_sigmask_context", ret, buf, marker,
			      sizeof(marker)));
}

static void test_pwrite64(int fd)
{
	char buf[sizeof(marker2)] = "";
	long ret;

	ret = result(indirect_pwrite64(NULL, 0, fd, marker2, sizeof(marker2),
				       MARKER2_OFFSET));
	if (ret == (long)sizeof(marker2))
		ret = result(pread64(fd, buf, sizeof(marker2), MARKER2_OFFSET));
	check_long("pwrite64_at_5GiB_plus_page", 0,
		   got_marker("pwrite64_at_5GiB_plus_page", ret, buf, marker2,
			      sizeof(marker2)));
}

/*
 * The same read as a raw indirect() call with the offset put as @how
 * says: it must find the marker when put right, and not otherwise.
 */
static void test_pread64_raw(int fd, enum split how)
{
	unsigned long p[INDIRECT_NR_PARAMS] = { fd, 0, sizeof(marker) };
	char buf[sizeof(decoy)] = "", name[64];
	long ret;

	p[1] = (unsigned long)buf;
	put_offset(&p[PREAD64_OFFSET_WORD], MARKER_OFFSET, how);
	ret = indirect_result(__NR_pread64, NULL, 0, p);
	snprintf(name, sizeof(name), "pread64_raw_%s_%s", split_name[how],
		 how == SPLIT_RIGHT ? "finds_marker" : "misses");
	/* got_marker() says what was read instead, for the record. */
	ret = got_marker(name, ret, buf, marker, sizeof(marker));
	if (!ret && how != SPLIT_RIGHT)
		ksft_print_msg("%s: found the marker all the same\n", name);
	check_long(name, how == SPLIT_RIGHT, ret == 0);
}

/*
 * 0 if the fallocate() that returned @ret left @fd, a fresh file, with
 * one page at FALLOC_OFFSET: its size ends there and it holds one page.
 * Otherwise -EIO or the error, saying why.
 */
static long fallocated_at_6GiB(const char *name, int fd, long ret)
{
	struct stat64 st;

	if (ret) {
		ksft_print_msg("%s: %s\n", name, strerror(-ret));
		return ret;
	}
	if (fstat64(fd, &st))
		ksft_exit_fail_msg("fstat64: %s\n", strerror(errno));
	if ((uint64_t)st.st_size == FALLOC_OFFSET + FALLOC_LEN &&
	    (uint64_t)st.st_blocks * 512 == FALLOC_LEN)
		return 0;
	ksft_print_msg("%s: st_size %#llx, st_blocks %llu; "
		       "expected %#llx, %llu\n", name,
		       (unsigned long long)st.st_size,
		       (unsigned long long)st.st_blocks,
		       FALLOC_OFFSET + FALLOC_LEN, FALLOC_LEN / 512);
	return -EIO;
}

static void test_fallocate(void)
{
	int fd = tmpfs_file();
	long ret = result(indirect_fallocate(NULL, 0, fd, 0, FALLOC_OFFSET,
					     FALLOC_LEN));

	check_long("fallocate_at_6GiB", 0,
		   fallocated_at_6GiB("fallocate_at_6GiB", fd, ret));
	close(fd);
}

/* The same as a raw indirect() call, the offset put as @how says. */
static void test_fallocate_raw(enum split how)
{
	int fd = tmpfs_file();
	unsigned long p[INDIRECT_NR_PARAMS] = { fd, 0 };
	unsigned int n = put_offset(&p[2], FALLOC_OFFSET, how);
	char name[64];
	long ret;

	put_offset(&p[2 + n], FALLOC_LEN, SPLIT_RIGHT);
	ret = indirect_result(__NR_fallocate, NULL, 0, p);
	snprintf(name, sizeof(name), "fallocate_raw_%s_%s", split_name[how],
		 how == SPLIT_RIGHT ? "at_6GiB" : "misses");
	ret = fallocated_at_6GiB(name, fd, ret);
	if (!ret && how != SPLIT_RIGHT)
		ksft_print_msg("%s: the page is at 6 GiB all the same\n", name);
	check_long(name, how == SPLIT_RIGHT, ret == 0);
	close(fd);
}

int main(void)
{
	enum split how;
	int fd;

	ksft_print_header();
	indirect_require();
	tmpfs_dir = tmpfs_root();
	fd = tmpfs_file();
	ksft_set_plan(10);
	write_at(fd, marker, sizeof(marker), MARKER_OFFSET);
	write_at(fd, decoy, sizeof(decoy), (uint32_t)MARKER_OFFSET);

	test_pread64(fd);
	test_pwrite64(fd);
	for (how = SPLIT_RIGHT; how <= SPLIT_HIGH_DROPPED; how++)
		test_pread64_raw(fd, how);
	test_fallocate();
	for (how = SPLIT_RIGHT; how <= SPLIT_HIGH_DROPPED; how++)
		test_fallocate_raw(how);
	close(fd);
	close(tmpfs_dir);
	ksft_finished();
}
