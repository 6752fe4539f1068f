// SPDX-License-Identifier: GPL-2.0
/*
 * A bounded fuzzer of indirect(): for a fixed wall time (8 s unless
 * --seconds says otherwise) it makes random calls through the raw syscall
 * and checks every one against a model of what the kernel must answer.
 *
 * The other tests each try one hand-picked bad input. Here the inputs are
 * combined at random, for the bugs that hide in combinations: a context
 * that straddles a guard page after a valid one, an array that ends in
 * the middle of a pointer, nr and nctxs with garbage in the upper half
 * of the register, a chain of 16 contexts of which the 13th is bad, a thread
 * switched out by sched_yield() with its contexts set. Each call gets:
 *
 *  - a ctxs array that is valid, misaligned, NULL, in or straddling a
 *    guard page, at a low or a kernel address; its elements point to
 *    OPENFLAGS, SIGMASK and RESOLVE contexts with random flags,
 *    sigsetsize, mask and resolve flags, to contexts with unknown ids, to
 *    one another, or to all of the above kinds of bad address;
 *  - nctxs from 0 to INDIRECT_MAX_CTXS + 1, or huge;
 *  - params that are valid, misaligned, end exactly at a guard page, or
 *    straddle it, NULL or a kernel address;
 *  - an inner call that is harmless (getppid, getpid, sched_yield, close
 *    of a bad descriptor, dup of a probe descriptor, read and write on
 *    /dev/null, poll of nothing (ppoll on AArch64), uname, rt_sigprocmask
 *    that only reads the mask, sigaltstack that changes nothing, and on
 *    x86 iopl of the level there is); one that the blacklist refuses and
 *    that would be harmless, and visible, had it run (indirect itself,
 *    restart_syscall, and clone3, execve and execveat of NULL, which fail
 *    with EFAULT); or a number that is no syscall (past the table, in its
 *    holes, with the x32 bit).
 *
 * All the memory a call can reach is in pages that the fuzzer owns, each
 * followed by a PROT_NONE page, so the model knows exactly which bytes
 * the kernel can read. It walks the checks in the kernel's order (E2BIG,
 * params, the array and the context ids, each context in turn, and only
 * then the blacklist) and says what the call must return. After every
 * call:
 *
 *  - the result is the model's: the inner call's value, or EINVAL (under
 *    a RESOLVE context, for every inner call here, none of which resolves
 *    a path name, but ENOSYS for a number past the end of the table),
 *    EFAULT, E2BIG, ENOSYS, EBADF as the case may be, and nothing else;
 *  - a descriptor the inner dup() made is close-on-exec exactly when the
 *    last OPENFLAGS context asked for it, and the mask the inner
 *    rt_sigprocmask() saw is the last SIGMASK context's, or the thread's;
 *  - the thread's signal mask and the probe descriptors' flags are as
 *    before, and a descriptor made plainly (dup, socket, pipe) is not
 *    close-on-exec: no context outlived the call;
 *  - in the single-threaded phase, no descriptor leaked: the next
 *    descriptor number is the same after every call.
 *
 * A single-threaded phase takes the first quarter of the time; then
 * --threads threads (4) fuzz at once, each with its own pages, mask and
 * random stream, and the next descriptor number is checked again once
 * they are done. On the guests' single CPU the threads interleave at
 * ticks and wherever an inner sched_yield() gives the CPU away with the
 * contexts set. The seed is printed, and --seed repeats each fuzzer's
 * sequence of calls (not the threads' interleaving). A call that hangs
 * ends the run with SIGALRM a minute after the time is up. Kernel splats
 * on the console are the host parser's business.
 *
 * Usage: indirect_fuzz_test [--seconds N] [--seed S] [--threads T]
 */
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <sys/utsname.h>
#include <linux/openat2.h>
#include "indirect_test.h"

#define DEFAULT_SECONDS		8
#define DEFAULT_THREADS		4
#define MAX_THREADS		16
/* The single-threaded phase takes this share of the time, in percent. */
#define SINGLE_PCT		25
/* Failures each fuzzer describes on the console; the rest are counted. */
#define MAX_REPORTS		5
#define THREAD_STACK		(256 * 1024)

#define WORD			sizeof(unsigned long)
#define PARAMS_SIZE		(INDIRECT_NR_PARAMS * WORD)
/* The largest context, SIGMASK. */
#define CTX_SIZE		sizeof(struct sysind_ctx_SIGMASK)
#define KERNEL_SIGSET_SIZE	8
#define KILL_STOP_BITS		((1ULL << (SIGKILL - 1)) | (1ULL << (SIGSTOP - 1)))
/* A model's result that stands for "a new descriptor". */
#define NEW_FD			0x7fffffffL

/*
 * Each fuzzer owns six pages: three regions, each followed by a PROT_NONE
 * guard page. The ctxs array, the contexts and the params each have a
 * region of their own; whatever lies outside the three regions faults.
 */
enum region { R_ARRAY, R_CTX, R_PARAMS, R_COUNT };
#define ARENA_PAGES		(2 * R_COUNT)

/* Where a pointer points. */
enum ptr_kind {
	P_VALID,	/* an aligned spot well inside its region */
	P_MISALIGNED,	/* the same, 1 to 7 bytes on */
	P_END,		/* ending at, or straddling, the region's guard page */
	P_GUARD,	/* inside the guard page */
	P_AFTER_GUARD,	/* starting in the guard page, ending past it */
	P_NULL,
	P_LOW,		/* in the first page */
	P_KERNEL,	/* kernel space, or past the user address limit */
	P_SAME,		/* the same pointer as an earlier element */
	P_KIND_COUNT
};

static const char *const ptr_kind_names[P_KIND_COUNT] = {
	"valid", "misaligned", "end", "guard", "after-guard", "null", "low",
	"kernel", "same",
};

struct ptr {
	unsigned long addr;
	enum ptr_kind kind;
};

/*
 * The inner calls. The harmless ones first, then those the blacklist
 * refuses, then the numbers that are no syscall.
 */
enum inner {
	IN_GETPPID,
	IN_GETPID,
	IN_SCHED_YIELD,
	IN_CLOSE_BAD,
	IN_DUP,
	IN_READ,
	IN_WRITE,
	IN_POLL,
	IN_UNAME,
	IN_SIGMASK_QUERY,
	IN_SIGALTSTACK,
#ifdef __NR_iopl
	IN_IOPL,
#endif
	IN_HARMLESS_COUNT,
	IN_BL_INDIRECT = IN_HARMLESS_COUNT,
	IN_BL_RESTART,
	IN_BL_CLONE3,
	IN_BL_EXECVE,
	IN_BL_EXECVEAT,
	IN_NOSYS,
	IN_COUNT
};
#define IN_BLACKLIST_COUNT	(IN_NOSYS - IN_BL_INDIRECT)

/*
 * poll() of nothing returns 0 at once; AArch64 has ppoll() only, which
 * does the same with a zero timeout (p[2], set by gen_inner()).
 */
#ifdef __NR_poll
#define NR_POLL			__NR_poll
#else
#define NR_POLL			__NR_ppoll
static const struct timespec zero_timeout;
#endif

static const struct {
	const char *name;
	long nr;		/* -1: chosen at random */
} inner_calls[IN_COUNT] = {
	[IN_GETPPID]		= { "getppid", __NR_getppid },
	[IN_GETPID]		= { "getpid", __NR_getpid },
	[IN_SCHED_YIELD]	= { "sched_yield", __NR_sched_yield },
	[IN_CLOSE_BAD]		= { "close(bad fd)", __NR_close },
	[IN_DUP]		= { "dup(probe)", __NR_dup },
	[IN_READ]		= { "read(/dev/null)", __NR_read },
	[IN_WRITE]		= { "write(/dev/null)", __NR_write },
	[IN_POLL]		= { "poll(none, 0)", NR_POLL },
	[IN_UNAME]		= { "uname", __NR_uname },
	[IN_SIGMASK_QUERY]	= { "rt_sigprocmask(query)", __NR_rt_sigprocmask },
	[IN_SIGALTSTACK]	= { "sigaltstack(NULL, NULL)", __NR_sigaltstack },
#ifdef __NR_iopl
	[IN_IOPL]		= { "iopl(0)", __NR_iopl },
#endif
	[IN_BL_INDIRECT]	= { "indirect (blacklisted)", __NR_indirect },
	[IN_BL_RESTART]		= { "restart_syscall (blacklisted)",
				    __NR_restart_syscall },
	[IN_BL_CLONE3]		= { "clone3 (blacklisted)", __NR_clone3 },
	[IN_BL_EXECVE]		= { "execve (blacklisted)", __NR_execve },
	[IN_BL_EXECVEAT]	= { "execveat (blacklisted)", __NR_execveat },
	[IN_NOSYS]		= { "no syscall", -1 },
};

/*
 * Numbers in the holes of this ABI's table, on every kernel base and in
 * every later upstream table (scripts/numbering/data/upstream-allocations.tsv),
 * so that the binaries of one base judge another base's kernel alike: no
 * syscall either (abi.h).
 */
static const unsigned int holes[] = ABI_NR_HOLES;
/*
 * Past the table of every kernel: upstream's highest number is 471 (7.0),
 * x86-64's x32-only numbers, 512 to 547, are no native syscall, and the
 * ARM private calls (0x0f0000 on) are above every table.
 */
#define PAST_TABLES_FIRST	1024

/* The results counted, for the coverage test. */
enum outcome {
	O_OK, O_EINVAL, O_EFAULT, O_E2BIG, O_ENOSYS, O_EBADF, O_OTHER,
	O_COUNT
};
static const char *const outcome_names[O_COUNT] = {
	"ok", "EINVAL", "EFAULT", "E2BIG", "ENOSYS", "EBADF", "other",
};

/* One call, as generated, so that a failure can say what it was. */
struct call {
	unsigned long nr;	/* as passed: the upper half may be set */
	unsigned long nctxs;	/* as passed */
	enum inner inner;
	unsigned long p[INDIRECT_NR_PARAMS];	/* the params meant */
	struct ptr array;
	struct ptr params;
	struct ptr ctx[INDIRECT_MAX_CTXS + 1];
	unsigned int nptrs;	/* elements generated */
	unsigned int bad_pct;	/* how hostile this call was */
};

/* What the contexts of a call do to its inner call, in the model. */
struct effect {
	bool cloexec;		/* the last OPENFLAGS asked for O_CLOEXEC */
	bool has_mask;		/* some SIGMASK context was set */
	uint64_t mask;		/* the last one's mask, less SIGKILL, SIGSTOP */
	bool resolve;		/* a RESOLVE context was set */
};

/* A context as the model reads it back from memory. */
struct raw_ctx {
	uint32_t ctx;
	uint32_t word;		/* flags, or sigsetsize */
	uint64_t sigset;	/* or RESOLVE's resolve */
};

/* The RESOLVE_* flags that a RESOLVE context takes. */
#define RESOLVE_OK_FLAGS	(RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS | \
				 RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH | \
				 RESOLVE_IN_ROOT)

static bool resolve_valid(uint64_t resolve)
{
	return resolve && !(resolve & ~RESOLVE_OK_FLAGS) &&
	       (resolve & (RESOLVE_BENEATH | RESOLVE_IN_ROOT)) !=
	       (RESOLVE_BENEATH | RESOLVE_IN_ROOT);
}

/* A valid resolve: some of the flags, never both scopes. */
static uint64_t valid_resolve(uint64_t r)
{
	r &= RESOLVE_OK_FLAGS;
	if ((r & (RESOLVE_BENEATH | RESOLVE_IN_ROOT)) ==
	    (RESOLVE_BENEATH | RESOLVE_IN_ROOT))
		r &= ~RESOLVE_IN_ROOT;
	return r ? r : RESOLVE_BENEATH;
}

/* What the kernel reads of every context before it looks at the id. */
#define CTX_HEAD_SIZE	(2 * sizeof(uint32_t))

struct fuzzer {
	int id;			/* 0: the single-threaded phase */
	bool exact_fds;		/* alone: descriptor numbers are known */
	uint64_t rng;
	char *arena;
	double deadline;
	pthread_t thread;
	void *stack;
	/* The state that no call may change. */
	sigset_t mask;
	uint64_t kmask;		/* the same, as the kernel's 64 bits */
	int next_fd;
	unsigned int fresh;	/* which plain descriptor to make next */
	/* What the inner calls write to. */
	char buf[64];
	struct utsname uts;
	uint64_t oset;
	unsigned long nested[INDIRECT_NR_PARAMS];
	/* Results. */
	struct call c;
	unsigned long calls;
	unsigned long failures;
	unsigned long reports;	/* failures described */
	unsigned long fd_failures;
	unsigned long outcomes[O_COUNT];
};

static long page_size;
static pid_t my_pid, my_ppid;
#ifdef __NR_iopl
/* What iopl(0) returns when called directly: 0, or ENOSYS without it. */
static long iopl_ref;
#endif
static struct utsname uts_ref;
/* /dev/null twice: close-on-exec, and not. Read, written and dup'ed. */
static int probe_cloexec, probe_plain;
static int probe_cloexec_fd, probe_cloexec_fl, probe_plain_fd, probe_plain_fl;

/* Kernel addresses and others that the task cannot read (abi.h). */
static unsigned long bad_addrs[] = ABI_BAD_ADDRS;
static unsigned int nr_bad_addrs = ARRAY_SIZE(bad_addrs);

static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t start_barrier;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* splitmix64, to seed each fuzzer's xorshift64* stream. */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static uint64_t rnd(struct fuzzer *f)
{
	f->rng ^= f->rng >> 12;
	f->rng ^= f->rng << 25;
	f->rng ^= f->rng >> 27;
	return f->rng * 0x2545f4914f6cdd1dULL;
}

static unsigned int below(struct fuzzer *f, unsigned int n)
{
	return (rnd(f) >> 16) % n;
}

static bool chance(struct fuzzer *f, unsigned int pct)
{
	return below(f, 100) < pct;
}

static char *region(const struct fuzzer *f, enum region r)
{
	return f->arena + 2 * r * page_size;
}

/* Can the kernel read all of [@addr, @addr + @len)? */
static bool readable(const struct fuzzer *f, unsigned long addr,
		     unsigned long len)
{
	int r;

	/* No sums: near the top of the address space they would wrap. */
	for (r = 0; r < R_COUNT; r++) {
		unsigned long lo = (unsigned long)region(f, r);

		if (addr >= lo && addr - lo < (unsigned long)page_size &&
		    len <= page_size - (addr - lo))
			return true;
	}
	return false;
}

/* Write the bytes of [@addr, @addr + @len) that are in a region. */
static void put(const struct fuzzer *f, unsigned long addr, const void *src,
		unsigned long len)
{
	unsigned long i;

	for (i = 0; i < len; i++)
		if (readable(f, addr + i, 1))
			*(char *)(addr + i) = ((const char *)src)[i];
}

/*
 * A pointer to an object of @size bytes that belongs in region @r at
 * @valid, or with @bad, somewhere else.
 */
static struct ptr pick_ptr(struct fuzzer *f, enum region r,
			   unsigned long valid, unsigned long size, bool bad)
{
	unsigned long guard = (unsigned long)region(f, r) + page_size;
	struct ptr p = { valid, P_VALID };

	if (!bad)
		return p;
	p.kind = below(f, P_SAME);
	switch (p.kind) {
	case P_VALID:
		break;
	case P_MISALIGNED:
		p.addr = valid + 1 + below(f, 7);
		break;
	case P_END:
		/* Within a word of the guard page, on either side of fitting. */
		p.addr = guard - 1 - below(f, size + WORD);
		break;
	case P_GUARD:
		p.addr = guard + below(f, page_size);
		break;
	case P_AFTER_GUARD:
		p.addr = guard + page_size - 1 - below(f, size ? size : 1);
		break;
	case P_NULL:
		p.addr = 0;
		break;
	case P_LOW:
		p.addr = 1 + below(f, page_size - 1);
		break;
	case P_KERNEL:
		if (!nr_bad_addrs) {
			p.kind = P_NULL;
			p.addr = 0;
			break;
		}
		p.addr = bad_addrs[below(f, nr_bad_addrs)];
		if (chance(f, 25))
			p.addr += below(f, 8);
		break;
	default:
		break;
	}
	return p;
}

/* A context at @addr: a valid one, or with @bad, quite possibly not. */
static void gen_ctx(struct fuzzer *f, unsigned long addr, bool bad)
{
	static const uint32_t bad_ids[] = { 3, 4, 99, 0x80000000, 0xffffffff };
	static const uint64_t bad_resolves[] = {
		0, RESOLVE_CACHED, RESOLVE_BENEATH | RESOLVE_IN_ROOT, 0x40,
		1ULL << 63,
	};
	static const uint32_t bad_sizes[] = { 0, 4, 7, 9, 16, 128, 0xffffffff };
	struct raw_ctx ctx = { .sigset = rnd(f) };

	if (!bad) {
		if (chance(f, 45)) {
			ctx.ctx = SYSIND_CTX_OPENFLAGS;
			ctx.word = chance(f, 50) ? O_CLOEXEC : 0;
		} else if (chance(f, 75)) {
			ctx.ctx = SYSIND_CTX_SIGMASK;
			ctx.word = KERNEL_SIGSET_SIZE;
		} else {
			ctx.ctx = SYSIND_CTX_RESOLVE;
			ctx.word = 0;
			ctx.sigset = valid_resolve(ctx.sigset);
		}
		put(f, addr, &ctx, sizeof(ctx));
		return;
	}
	switch (below(f, 5)) {
	case 0:
		ctx.ctx = chance(f, 50) ? bad_ids[below(f, ARRAY_SIZE(bad_ids))] :
					  (uint32_t)rnd(f);
		ctx.word = rnd(f);
		break;
	case 1:
		ctx.ctx = SYSIND_CTX_OPENFLAGS;
		ctx.word = chance(f, 50) ? 1u << below(f, 32) : (uint32_t)rnd(f);
		break;
	case 2:
		ctx.ctx = SYSIND_CTX_SIGMASK;
		ctx.word = chance(f, 75) ?
			   bad_sizes[below(f, ARRAY_SIZE(bad_sizes))] :
			   (uint32_t)rnd(f);
		break;
	case 3:
		ctx.ctx = SYSIND_CTX_RESOLVE;
		if (chance(f, 50)) {
			ctx.word = 0;
			ctx.sigset = bad_resolves[below(f,
						ARRAY_SIZE(bad_resolves))];
		} else {
			ctx.word = chance(f, 50) ? 1u << below(f, 32) :
						   (uint32_t)rnd(f);
		}
		break;
	default:
		/* A valid context, placed wherever the pointer went. */
		ctx.ctx = below(f, 3);
		ctx.word = ctx.ctx == SYSIND_CTX_SIGMASK ? KERNEL_SIGSET_SIZE :
			   ctx.ctx == SYSIND_CTX_RESOLVE ? 0 :
			   chance(f, 50) ? O_CLOEXEC : 0;
		if (ctx.ctx == SYSIND_CTX_RESOLVE)
			ctx.sigset = valid_resolve(ctx.sigset);
		break;
	}
	put(f, addr, &ctx, sizeof(ctx));
}

/* The inner call, its number and the params it is meant to get. */
static void gen_inner(struct fuzzer *f, struct call *c)
{
	static const unsigned long bad_fds[] = {
		(unsigned long)-1, 100000, 0x7fffffff, 1 << 20, 0x80000000UL,
	};
	unsigned int r = below(f, 100);
	unsigned long *p = c->p;

	if (r < 82)
		c->inner = below(f, IN_HARMLESS_COUNT);
	else if (r < 90)
		c->inner = IN_BL_INDIRECT + below(f, IN_BLACKLIST_COUNT);
	else
		c->inner = IN_NOSYS;
	c->nr = inner_calls[c->inner].nr;
	switch (c->inner) {
	case IN_CLOSE_BAD:
		p[0] = bad_fds[below(f, ARRAY_SIZE(bad_fds))];
		break;
	case IN_DUP:
		p[0] = chance(f, 50) ? probe_cloexec : probe_plain;
		break;
	case IN_READ:
		p[0] = probe_plain;
		p[1] = (unsigned long)f->buf;
		p[2] = below(f, sizeof(f->buf) + 1);
		break;
	case IN_WRITE:
		p[0] = probe_plain;
		p[1] = (unsigned long)f->buf;
		p[2] = below(f, sizeof(f->buf) + 1);
		break;
	case IN_POLL:
		/* No descriptors, no timeout: returns 0 at once. */
#ifndef __NR_poll
		p[2] = (unsigned long)&zero_timeout;
#endif
		break;
	case IN_UNAME:
		p[0] = (unsigned long)&f->uts;
		break;
	case IN_SIGMASK_QUERY:
		/* No new set: only reads the mask, whatever @how says. */
		p[0] = SIG_BLOCK;
		p[1] = 0;
		p[2] = (unsigned long)&f->oset;
		p[3] = KERNEL_SIGSET_SIZE;
		break;
	case IN_BL_INDIRECT:
		p[0] = __NR_getppid;
		p[3] = (unsigned long)f->nested;
		break;
	case IN_BL_CLONE3:
		/* NULL args of the first size: EFAULT, had it run. */
		p[1] = 64;
		break;
	case IN_BL_EXECVEAT:
		p[0] = (unsigned long)-1;
		break;
	case IN_NOSYS:
		switch (below(f, 6)) {
		case 0:
		case 1:
			c->nr = PAST_TABLES_FIRST + below(f, 1000);
			break;
		case 2:
			c->nr = holes[below(f, ARRAY_SIZE(holes))];
			break;
		case 3:
			/* The x32 bit means nothing to indirect(). */
			c->nr = 0x40000000 | __NR_getppid;
			break;
		case 4:
			c->nr = 0x80000000UL + below(f, 1000);
			break;
		default:
			c->nr = 0xffffffffUL - below(f, 4);
			break;
		}
		break;
	default:
		break;
	}
#if __SIZEOF_LONG__ == 8
	/* The kernel takes nr as an unsigned int: the upper half is noise. */
	if (chance(f, 5))
		c->nr |= rnd(f) << 32;
#endif
}

static void gen_nctxs(struct fuzzer *f, struct call *c)
{
	static const unsigned long huge[] = {
		INDIRECT_MAX_CTXS + 1, 32, 1000, 0x10000, 0x80000000UL,
		0xffffffffUL,
	};
	unsigned int r = below(f, 100);

	if (r < 88)
		c->nctxs = below(f, INDIRECT_MAX_CTXS + 1);
	else if (r < 92)
		c->nctxs = INDIRECT_MAX_CTXS + 1;
	else if (r < 97)
		c->nctxs = huge[below(f, ARRAY_SIZE(huge))];
	else
		c->nctxs = (uint32_t)rnd(f) | 0x100;
#if __SIZEOF_LONG__ == 8
	if (chance(f, 5))
		c->nctxs |= rnd(f) << 32;
#endif
}

static unsigned long slot_addr(const struct fuzzer *f, enum region r,
			       unsigned int i)
{
	return (unsigned long)region(f, r) + 256 + 32 * i;
}

/* A whole call: the memory it points to is written before it is made. */
static void gen_call(struct fuzzer *f, struct call *c)
{
	static const unsigned int bad_pcts[] = { 0, 0, 3, 10, 30, 60 };
	unsigned int i, n;

	memset(c, 0, sizeof(*c));
	c->bad_pct = bad_pcts[below(f, ARRAY_SIZE(bad_pcts))];
	gen_inner(f, c);
	gen_nctxs(f, c);
	n = (unsigned int)c->nctxs;
	if (n > INDIRECT_MAX_CTXS + 1)
		n = INDIRECT_MAX_CTXS + 1;
	c->nptrs = n;
	c->array = pick_ptr(f, R_ARRAY, slot_addr(f, R_ARRAY, 0), n * WORD,
			    chance(f, c->bad_pct));
	for (i = 0; i < n; i++) {
		if (i && chance(f, 10)) {
			c->ctx[i].addr = c->ctx[below(f, i)].addr;
			c->ctx[i].kind = P_SAME;
			continue;
		}
		c->ctx[i] = pick_ptr(f, R_CTX, slot_addr(f, R_CTX, i), CTX_SIZE,
				     chance(f, c->bad_pct));
		gen_ctx(f, c->ctx[i].addr, chance(f, c->bad_pct));
	}
	for (i = 0; i < n; i++)
		put(f, c->array.addr + i * WORD, &c->ctx[i].addr, WORD);
	c->params = pick_ptr(f, R_PARAMS, slot_addr(f, R_PARAMS, 0),
			     PARAMS_SIZE, chance(f, c->bad_pct));
	put(f, c->params.addr, c->p, PARAMS_SIZE);
}

/*
 * The model of the contexts: read back from memory what the kernel will
 * read, in its order: the whole pointer array first, then for each
 * context in turn its head (the id and the 32-bit field after it, 8
 * bytes whatever the id) and the rest of it, the first that cannot be
 * read or set ending the chain.
 */
static long model_ctxs(const struct fuzzer *f, const struct call *c,
		       unsigned int n, struct effect *e)
{
	unsigned long ptr;
	struct raw_ctx ctx;
	unsigned int i;

	if (n && !readable(f, c->array.addr, n * WORD))
		return -EFAULT;
	for (i = 0; i < n; i++) {
		unsigned long slot = c->array.addr + i * WORD;

		ptr = 0;
		memcpy(&ptr, (void *)slot, WORD);
		if (!readable(f, ptr, CTX_HEAD_SIZE))
			return -EFAULT;
		memcpy(&ctx.ctx, (void *)ptr, sizeof(ctx.ctx));
		switch (ctx.ctx) {
		case SYSIND_CTX_OPENFLAGS:
			if (!readable(f, ptr,
				      sizeof(struct sysind_ctx_OPENFLAGS)))
				return -EFAULT;
			memcpy(&ctx, (void *)ptr,
			       sizeof(struct sysind_ctx_OPENFLAGS));
			if (ctx.word & ~O_CLOEXEC)
				return -EINVAL;
			e->cloexec = ctx.word & O_CLOEXEC;
			break;
		case SYSIND_CTX_SIGMASK:
			if (!readable(f, ptr, sizeof(ctx)))
				return -EFAULT;
			memcpy(&ctx, (void *)ptr, sizeof(ctx));
			if (ctx.word != KERNEL_SIGSET_SIZE)
				return -EINVAL;
			e->has_mask = true;
			e->mask = ctx.sigset & ~KILL_STOP_BITS;
			break;
		case SYSIND_CTX_RESOLVE:
			if (!readable(f, ptr, sizeof(ctx)))
				return -EFAULT;
			memcpy(&ctx, (void *)ptr, sizeof(ctx));
			if (ctx.word || !resolve_valid(ctx.sigset))
				return -EINVAL;
			e->resolve = true;
			break;
		default:
			return -EINVAL;
		}
	}
	return 0;
}

/* Is the inner call a number past the end of the table (no hole in it)? */
static bool past_table_end(const struct call *c)
{
	unsigned int i;

	if (c->inner != IN_NOSYS)
		return false;
	for (i = 0; i < ARRAY_SIZE(holes); i++)
		if ((unsigned int)c->nr == holes[i])
			return false;
	return true;
}

/*
 * What the call must return: a value, -errno, or NEW_FD. The blacklist
 * comes last: a blacklisted number with a bad outer argument gets that
 * argument's error, and EINVAL only once its contexts were all set.
 */
static long model(const struct fuzzer *f, const struct call *c,
		  struct effect *e)
{
	unsigned int n = (unsigned int)c->nctxs;
	long ret;

	memset(e, 0, sizeof(*e));
	if (n > INDIRECT_MAX_CTXS)
		return -E2BIG;
	if (!readable(f, c->params.addr, PARAMS_SIZE))
		return -EFAULT;
	ret = model_ctxs(f, c, n, e);
	if (ret)
		return ret;
	if (c->inner >= IN_BL_INDIRECT && c->inner < IN_NOSYS)
		return -EINVAL;
	/*
	 * No inner call here resolves a path name: none runs under RESOLVE
	 * but a number past the end of the table, which is no syscall and
	 * gets ENOSYS as the direct call does. A hole in it gets EINVAL.
	 */
	if (e->resolve && !past_table_end(c))
		return -EINVAL;
	switch (c->inner) {
	case IN_GETPPID:
		return my_ppid;
	case IN_GETPID:
		return my_pid;
	case IN_CLOSE_BAD:
		return -EBADF;
	case IN_DUP:
		return NEW_FD;
	case IN_WRITE:
		return c->p[2];
#ifdef __NR_iopl
	case IN_IOPL:
		return iopl_ref;
#endif
	case IN_NOSYS:
		return -ENOSYS;
	default:
		/*
		 * sched_yield, read at EOF, poll, uname, rt_sigprocmask,
		 * sigaltstack.
		 */
		return 0;
	}
}

static const char *errno_name(long err)
{
	switch (err) {
	case EINVAL: return "EINVAL";
	case EFAULT: return "EFAULT";
	case E2BIG: return "E2BIG";
	case ENOSYS: return "ENOSYS";
	case EBADF: return "EBADF";
	case EINTR: return "EINTR";
	case ENOMEM: return "ENOMEM";
	case EPERM: return "EPERM";
	default: return NULL;
	}
}

static const char *result_str(long v, char *buf, size_t size)
{
	const char *name = v < 0 ? errno_name(-v) : NULL;

	if (v == NEW_FD)
		snprintf(buf, size, "a new descriptor");
	else if (name)
		snprintf(buf, size, "-%s", name);
	else
		snprintf(buf, size, "%ld", v);
	return buf;
}

static int describe_ptr(const struct fuzzer *f, char *buf, size_t size,
			const struct ptr *p, enum region r)
{
	long off = (long)(p->addr - (unsigned long)region(f, r));

	if (p->kind == P_END || p->kind == P_GUARD ||
	    p->kind == P_AFTER_GUARD)
		return snprintf(buf, size, "%s(%#lx = region%+ld)",
				ptr_kind_names[p->kind], p->addr, off);
	return snprintf(buf, size, "%s(%#lx)", ptr_kind_names[p->kind],
			p->addr);
}

/* Count a failure of check @what, and describe the call, within bounds. */
static void fail(struct fuzzer *f, const char *what, const char *expected,
		 const char *actual)
{
	const struct call *c = &f->c;
	char line[2048], ptr[96];
	struct raw_ctx ctx;
	size_t len = 0;
	unsigned int i;

	f->failures++;
	if (f->reports >= MAX_REPORTS)
		return;
	f->reports++;
#define APPEND(...)							\
	do {								\
		if (len < sizeof(line))					\
			len += snprintf(line + len, sizeof(line) - len,	\
					__VA_ARGS__);			\
	} while (0)
	APPEND("fuzz %d call %lu: %s: expected %s, got %s\n", f->id,
	       f->calls, what, expected, actual);
	describe_ptr(f, ptr, sizeof(ptr), &c->array, R_ARRAY);
	APPEND("#   nr %#lx (%s) nctxs %#lx ctxs %s", c->nr,
	       inner_calls[c->inner].name, c->nctxs, ptr);
	describe_ptr(f, ptr, sizeof(ptr), &c->params, R_PARAMS);
	APPEND(" params %s [%#lx %#lx %#lx %#lx %#lx %#lx] hostility %u%%\n",
	       ptr, c->p[0], c->p[1], c->p[2], c->p[3], c->p[4], c->p[5],
	       c->bad_pct);
	for (i = 0; i < c->nptrs && i < INDIRECT_MAX_CTXS; i++) {
		describe_ptr(f, ptr, sizeof(ptr), &c->ctx[i], R_CTX);
		APPEND("#   ctx[%u] %s", i, ptr);
		if (readable(f, c->ctx[i].addr, 8)) {
			memcpy(&ctx, (void *)c->ctx[i].addr, 8);
			APPEND(" id %u word %#x", ctx.ctx, ctx.word);
		}
		if (readable(f, c->ctx[i].addr, sizeof(ctx))) {
			memcpy(&ctx, (void *)c->ctx[i].addr, sizeof(ctx));
			APPEND(" sigset %#llx", (unsigned long long)ctx.sigset);
		}
		APPEND("\n");
	}
#undef APPEND
	if (len >= sizeof(line))
		len = sizeof(line) - 1;
	if (len && line[len - 1] == '\n')
		line[len - 1] = '\0';
	pthread_mutex_lock(&report_lock);
	ksft_print_msg("%s\n", line);
	pthread_mutex_unlock(&report_lock);
}

static void fail_long(struct fuzzer *f, const char *what, long expected,
		      long actual)
{
	char e[48], a[48];

	fail(f, what, result_str(expected, e, sizeof(e)),
	     result_str(actual, a, sizeof(a)));
}

/* The kernel's signal mask of the calling thread, as 64 bits. */
static uint64_t kernel_mask(void)
{
	uint64_t mask = 0;

	syscall(__NR_rt_sigprocmask, SIG_BLOCK, NULL, &mask, KERNEL_SIGSET_SIZE);
	return mask;
}

static void query_mask(sigset_t *set)
{
	memset(set, 0, sizeof(*set));
	pthread_sigmask(SIG_BLOCK, NULL, set);
}

/*
 * A random mask for a thread to run with. It leaves alone the signals a
 * fault raises and SIGALRM, the run's backstop against a hang.
 */
static void set_random_mask(struct fuzzer *f)
{
	static const int sigs[] = {
		SIGHUP, SIGUSR1, SIGUSR2, SIGPIPE, SIGCHLD, SIGWINCH, SIGURG,
		SIGTTIN, SIGTTOU, SIGXCPU, SIGPROF,
	};
	sigset_t set;
	unsigned int i;

	sigemptyset(&set);
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		if (chance(f, 50))
			sigaddset(&set, sigs[i]);
	for (i = 2; i < 20; i++)
		if (SIGRTMIN + (int)i <= SIGRTMAX && chance(f, 50))
			sigaddset(&set, SIGRTMIN + i);
	pthread_sigmask(SIG_SETMASK, &set, NULL);
	query_mask(&f->mask);
	f->kmask = kernel_mask();
}

/* The lowest free descriptor. */
static int next_fd(void)
{
	int fd = dup(probe_plain);

	if (fd >= 0)
		close(fd);
	return fd;
}

static enum outcome classify(long ret)
{
	switch (ret) {
	case -EINVAL: return O_EINVAL;
	case -EFAULT: return O_EFAULT;
	case -E2BIG: return O_E2BIG;
	case -ENOSYS: return O_ENOSYS;
	case -EBADF: return O_EBADF;
	}
	return ret >= 0 ? O_OK : O_OTHER;
}

/* The call's own result, and what its inner call left behind. */
static void check_result(struct fuzzer *f, long expected,
			 const struct effect *e, long ret)
{
	const struct call *c = &f->c;
	long want = expected;

	f->outcomes[classify(ret)]++;
	if (expected == NEW_FD) {
		if (f->exact_fds)
			want = f->next_fd;
		else if (ret >= 0)
			want = ret;
	}
	if (ret != want) {
		fail_long(f, "result", want, ret);
		/* A descriptor that should not exist goes away. */
		if (c->inner == IN_DUP && ret >= 0)
			close(ret);
		return;
	}
	/* The inner call did not run, or failed as it should. */
	if (ret < 0)
		return;
	switch (c->inner) {
	case IN_DUP:
		if (fd_cloexec(ret) != e->cloexec)
			fail_long(f, "FD_CLOEXEC of the inner dup's descriptor",
				  e->cloexec, fd_cloexec(ret));
		close(ret);
		break;
	case IN_UNAME:
		if (memcmp(&f->uts, &uts_ref, sizeof(uts_ref)))
			fail(f, "the inner uname's buffer", uts_ref.release,
			     f->uts.release);
		break;
	case IN_SIGMASK_QUERY:
		if (f->oset != (e->has_mask ? e->mask : f->kmask)) {
			char w[32], g[32];

			snprintf(w, sizeof(w), "%#llx", (unsigned long long)
				 (e->has_mask ? e->mask : f->kmask));
			snprintf(g, sizeof(g), "%#llx",
				 (unsigned long long)f->oset);
			fail(f, "the mask the inner call ran with", w, g);
		}
		break;
	default:
		break;
	}
}

/* A descriptor made plainly, by one of three creators in turn. */
static int plain_fd(struct fuzzer *f, int *other)
{
	int fds[2] = { -1, -1 };

	*other = -1;
	switch (f->fresh++ % 3) {
	case 0:
		return dup(probe_cloexec);
	case 1:
		return socket(AF_UNIX, SOCK_STREAM, 0);
	default:
		if (pipe(fds))
			return -errno;
		*other = fds[1];
		return fds[0];
	}
}

/* The task state that no call may leave changed. */
static void check_state(struct fuzzer *f)
{
	sigset_t mask;
	int fd, other;

	query_mask(&mask);
	if (memcmp(&mask, &f->mask, sizeof(mask))) {
		char w[32], g[32];

		snprintf(w, sizeof(w), "%#llx", (unsigned long long)f->kmask);
		snprintf(g, sizeof(g), "%#llx",
			 (unsigned long long)kernel_mask());
		fail(f, "the thread's signal mask", w, g);
		/* Count each change once: the next call starts from here. */
		f->mask = mask;
		f->kmask = kernel_mask();
	}
	if (fcntl(probe_cloexec, F_GETFD) != probe_cloexec_fd)
		fail_long(f, "F_GETFD of the close-on-exec probe",
			  probe_cloexec_fd, fcntl(probe_cloexec, F_GETFD));
	if (fcntl(probe_cloexec, F_GETFL) != probe_cloexec_fl)
		fail_long(f, "F_GETFL of the close-on-exec probe",
			  probe_cloexec_fl, fcntl(probe_cloexec, F_GETFL));
	if (fcntl(probe_plain, F_GETFD) != probe_plain_fd)
		fail_long(f, "F_GETFD of the plain probe", probe_plain_fd,
			  fcntl(probe_plain, F_GETFD));
	if (fcntl(probe_plain, F_GETFL) != probe_plain_fl)
		fail_long(f, "F_GETFL of the plain probe", probe_plain_fl,
			  fcntl(probe_plain, F_GETFL));
	fd = plain_fd(f, &other);
	if (fd < 0) {
		fail_long(f, "a plain descriptor after the call", 0, -errno);
		return;
	}
	if (fd_cloexec(fd) != 0)
		fail_long(f, "FD_CLOEXEC of a plain descriptor after the call",
			  0, fd_cloexec(fd));
	if (other >= 0 && fd_cloexec(other) != 0)
		fail_long(f, "FD_CLOEXEC of a plain pipe's write end", 0,
			  fd_cloexec(other));
	if (f->exact_fds && fd != f->next_fd) {
		f->fd_failures++;
		fail_long(f, "the next descriptor after the call", f->next_fd,
			  fd);
		f->next_fd = fd;
	}
	close(fd);
	if (other >= 0)
		close(other);
}

static long raw_indirect(const struct call *c)
{
	long ret = syscall(__NR_indirect, c->nr, c->array.addr, c->nctxs,
			   c->params.addr);

	return ret == -1 ? -errno : ret;
}

/* Fuzz until the deadline. */
static void fuzz(struct fuzzer *f)
{
	struct effect e;
	long expected, ret;

	while (now() < f->deadline) {
		gen_call(f, &f->c);
		expected = model(f, &f->c, &e);
		memset(&f->uts, 0, sizeof(f->uts));
		f->oset = 0x5a5a5a5a5a5a5a5aULL;
		ret = raw_indirect(&f->c);
		f->calls++;
		check_result(f, expected, &e, ret);
		check_state(f);
	}
}

static void *fuzz_thread(void *arg)
{
	struct fuzzer *f = arg;

	set_random_mask(f);
	pthread_barrier_wait(&start_barrier);
	fuzz(f);
	return NULL;
}

static char *map_arena(void)
{
	char *p = mmap(NULL, ARENA_PAGES * page_size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int r;

	if (p == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	/* PROT_NONE, not unmapped: no later mmap() can fill a guard page. */
	for (r = 0; r < R_COUNT; r++)
		if (mprotect(p + (2 * r + 1) * page_size, page_size, PROT_NONE))
			ksft_exit_fail_msg("mprotect: %s\n", strerror(errno));
	return p;
}

#ifdef ABI_BAD_ADDRS_MAY_BE_MAPPED
/*
 * A 32-bit task on a 64-bit kernel may map memory up to 0xffffe000
 * (ia32) or 0xfffff000 (AArch32, whose vectors page is at 0xffff0000),
 * so a 32-bit "kernel" address is only sure to fault if nothing is
 * mapped there. Everything this program maps is mapped by now.
 */
static void drop_mapped_bad_addrs(void)
{
	unsigned int i, j = 0;
	unsigned char vec;

	for (i = 0; i < nr_bad_addrs; i++) {
		unsigned long a = bad_addrs[i] & ~(page_size - 1);
		bool mapped = false;
		uint64_t end = (uint64_t)bad_addrs[i] + PARAMS_SIZE + 8;

		for (; a && a < end; a += page_size)
			if (!mincore((void *)a, page_size, &vec))
				mapped = true;
		if (mapped)
			ksft_print_msg("fuzz: %#lx is mapped, not used\n",
				       bad_addrs[i]);
		else
			bad_addrs[j++] = bad_addrs[i];
	}
	nr_bad_addrs = j;
}
#endif

static void add(unsigned long *sum, const unsigned long *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		sum[i] += v[i];
}

static void usage(const char *prog)
{
	fprintf(stderr, "usage: %s [--seconds N] [--seed S] [--threads T]\n",
		prog);
	exit(KSFT_FAIL);
}

static struct fuzzer fuzzers[MAX_THREADS + 1];

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "seed", required_argument, NULL, 'r' },
		{ "threads", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long seed;
	unsigned long outcomes[O_COUNT] = { 0 };
	unsigned long thread_calls = 0, thread_failures = 0, undescribed = 0;
	double seconds = DEFAULT_SECONDS, start, single_end, end;
	int nthreads = DEFAULT_THREADS, base_fd, after_fd, opt, i;
	struct fuzzer *f0 = &fuzzers[0];
	bool covered = true;
	struct timespec ts;
	pthread_attr_t attr;

	clock_gettime(CLOCK_REALTIME, &ts);
	seed = mix(ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32) ^ getpid());
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 's':
			seconds = atof(optarg);
			break;
		case 'r':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 't':
			nthreads = atoi(optarg);
			break;
		default:
			usage(argv[0]);
		}
	}
	if (seconds <= 0 || nthreads < 1 || nthreads > MAX_THREADS)
		usage(argv[0]);

	ksft_print_header();
	indirect_require();
	ksft_print_msg("seed: %llu (repeat with --seed %llu)\n", seed, seed);
	ksft_set_plan(4);
	/* The backstop: a call that hangs ends the run with SIGALRM. */
	alarm((unsigned int)seconds + 60);

	page_size = sysconf(_SC_PAGESIZE);
	my_pid = getpid();
	my_ppid = getppid();
#ifdef __NR_iopl
	iopl_ref = direct_call(__NR_iopl,
			       (const unsigned long[INDIRECT_NR_PARAMS]){ 0 });
#endif
	memset(&uts_ref, 0, sizeof(uts_ref));
	if (uname(&uts_ref))
		ksft_exit_fail_msg("uname: %s\n", strerror(errno));
	probe_cloexec = open("/dev/null", O_RDWR | O_CLOEXEC);
	probe_plain = open("/dev/null", O_RDWR);
	if (probe_cloexec < 0 || probe_plain < 0)
		ksft_exit_fail_msg("open /dev/null: %s\n", strerror(errno));
	probe_cloexec_fd = fcntl(probe_cloexec, F_GETFD);
	probe_cloexec_fl = fcntl(probe_cloexec, F_GETFL);
	probe_plain_fd = fcntl(probe_plain, F_GETFD);
	probe_plain_fl = fcntl(probe_plain, F_GETFL);

	/* Every mapping the run needs, before the bad addresses are chosen. */
	for (i = 0; i <= nthreads; i++) {
		fuzzers[i].id = i;
		fuzzers[i].rng = mix(seed + i) | 1;
		fuzzers[i].arena = map_arena();
		if (i) {
			fuzzers[i].stack = mmap(NULL, THREAD_STACK,
						PROT_READ | PROT_WRITE,
						MAP_PRIVATE | MAP_ANONYMOUS |
						MAP_STACK, -1, 0);
			if (fuzzers[i].stack == MAP_FAILED)
				ksft_exit_fail_msg("mmap: %s\n",
						   strerror(errno));
		}
	}
#ifdef ABI_BAD_ADDRS_MAY_BE_MAPPED
	drop_mapped_bad_addrs();
#endif

	/* Alone: every descriptor number is known. */
	start = now();
	set_random_mask(f0);
	base_fd = next_fd();
	f0->exact_fds = true;
	f0->next_fd = base_fd;
	f0->deadline = start + seconds * SINGLE_PCT / 100;
	fuzz(f0);
	single_end = now();
	ksft_print_msg("fuzz: single thread: %lu calls in %.1f s, %lu failures\n",
		       f0->calls, single_end - start, f0->failures);
	add(outcomes, f0->outcomes, O_COUNT);

	/* Then all at once. */
	if (pthread_barrier_init(&start_barrier, NULL, nthreads + 1))
		ksft_exit_fail_msg("pthread_barrier_init failed\n");
	for (i = 1; i <= nthreads; i++) {
		struct fuzzer *f = &fuzzers[i];

		f->deadline = start + seconds;
		pthread_attr_init(&attr);
		pthread_attr_setstack(&attr, f->stack, THREAD_STACK);
		errno = pthread_create(&f->thread, &attr, fuzz_thread, f);
		pthread_attr_destroy(&attr);
		if (errno)
			ksft_exit_fail_msg("pthread_create: %s\n",
					   strerror(errno));
	}
	pthread_barrier_wait(&start_barrier);
	for (i = 1; i <= nthreads; i++) {
		pthread_join(fuzzers[i].thread, NULL);
		thread_calls += fuzzers[i].calls;
		thread_failures += fuzzers[i].failures;
		add(outcomes, fuzzers[i].outcomes, O_COUNT);
		ksft_print_msg("fuzz: thread %d: %lu calls, %lu failures\n", i,
			       fuzzers[i].calls, fuzzers[i].failures);
	}
	end = now();
	after_fd = next_fd();

	ksft_print_msg("fuzz: %lu calls in %.1f s, %d threads\n",
		       f0->calls + thread_calls, end - start, nthreads);
	for (i = 0; i < O_COUNT; i++) {
		ksft_print_msg("fuzz: outcome %s: %lu\n", outcome_names[i],
			       outcomes[i]);
		if (i != O_OTHER && !outcomes[i])
			covered = false;
	}
	for (i = 0; i <= nthreads; i++)
		undescribed += fuzzers[i].failures - fuzzers[i].reports;
	if (undescribed)
		ksft_print_msg("fuzz: %lu more failures not described\n",
			       undescribed);

	check_long("fuzz_single_thread_invariants", 0, f0->failures);
	check_long("fuzz_threads_invariants", 0, thread_failures);
	if (f0->fd_failures)
		ksft_print_msg("fuzz_no_fd_leak: %lu calls moved the next descriptor\n",
			       f0->fd_failures);
	if (after_fd != base_fd)
		ksft_print_msg("fuzz_no_fd_leak: next descriptor after the threads: expected %d, got %d\n",
			       base_fd, after_fd);
	check_long("fuzz_no_fd_leak", 1, !f0->fd_failures && after_fd == base_fd);
	if (!covered)
		ksft_print_msg("fuzz_outcomes_covered: some expected outcome never came up\n");
	check_long("fuzz_outcomes_covered", 1, covered);
	ksft_finished();
}
