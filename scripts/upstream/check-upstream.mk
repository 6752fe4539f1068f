# make check-upstream, included by the Makefile: the kernel's own selftests
# (seccomp_bpf and tools/testing/selftests/x86), built unmodified from the
# extracted tree, booted on the patched kernels and on unpatched kernels
# built from the tree's "upstream" tag with the same config; a test that
# passes unpatched and not patched fails the check. docs/checks.md's "make
# check-upstream" section says more. Outputs: build/<base>/upstream,
# build/<base>/linux-unpatched (the unpatched tree) and
# build/<base>/<target>-unpatched.

UPSTREAM := $(BUILD)/upstream
UNPATCHED_TREE := $(BUILD)/linux-unpatched
# The time limit of each test binary in the guest, in seconds.
UPSTREAM_TIMEOUT ?= 300

ifneq ($(KVARIANT),)
ifneq ($(filter check-upstream,$(MAKECMDGOALS)),)
$(error check-upstream with DEBUG=1: it compares the normal kernels; drop DEBUG=1)
endif
endif

# The targets with a guest /init for the selftests: the x86 ones.
UPSTREAM_TARGETS := $(patsubst scripts/boot/guest/upstream-%.init,%,$(wildcard scripts/boot/guest/upstream-*.init))
ifneq ($(filter check-upstream,$(MAKECMDGOALS)),)
ifneq ($(filter-out $(UPSTREAM_TARGETS),$(ARCH)),)
$(error check-upstream: no selftest guest for $(filter-out $(UPSTREAM_TARGETS),$(ARCH)); use ARCH='$(UPSTREAM_TARGETS)')
endif
endif

## check-upstream: the kernel's seccomp and x86 selftests on patched and unpatched i386 and x86_64; non-zero on a regression
check-upstream: $(foreach t,$(ARCH),$(UPSTREAM)/$(t)-unpatched.tsv $(UPSTREAM)/$(t)-patched.tsv)
	scripts/upstream/compare_results.py --known scripts/upstream/known-failures.tsv \
		$(addprefix --known ,$(wildcard scripts/upstream/$(BASE)/known-failures.tsv)) \
		--dir $(UPSTREAM) $(ARCH)
.PHONY: check-upstream

# Re-exported only when prepare-tree.sh extracted the tree again.
$(UNPATCHED_TREE)/.harness-commit: $(TREE)/.git/harness-package-version
	scripts/upstream/export-unpatched.sh $(TREE) $(UNPATCHED_TREE)

# The test binaries of one bitness; <bits>.list changes only when a binary did.
$(UPSTREAM)/bin/m32.list: $(BUILD)/headers/i386/include/asm/unistd.h FORCE
	scripts/upstream/build-selftests.sh 32 $(KSFT_DIR) $(BUILD)/headers/i386 \
		$(UPSTREAM)/obj/m32 $(UPSTREAM)/bin/m32
$(UPSTREAM)/bin/m64.list: $(BUILD)/headers/x86_64/include/asm/unistd.h FORCE
	scripts/upstream/build-selftests.sh 64 $(KSFT_DIR) $(BUILD)/headers/x86_64 \
		$(UPSTREAM)/obj/m64 $(UPSTREAM)/bin/m64

# A boot of target $(1) on kernel $(2) (patched or unpatched) built in $(3),
# then its per-test results.
define upstream_boot_rules
$(UPSTREAM)/$(1)/$(2)/console.log: $(3)/$(call target_var,$(1),KIMAGE) \
		$(UPSTREAM)/$(1)/initramfs.cpio.gz
	@mkdir -p $$(@D)
	KERNEL_APPEND="harness.timeout=$(UPSTREAM_TIMEOUT) $(KERNEL_APPEND)" \
		scripts/boot/run-qemu.sh test $(1) $$< $(UPSTREAM)/$(1)/initramfs.cpio.gz $$@

$(UPSTREAM)/$(1)-$(2).tsv: $(UPSTREAM)/$(1)/$(2)/console.log \
		scripts/upstream/collect_results.py scripts/boot/guest/upstream-$(1).init \
		scripts/boot/harness_ktap.py scripts/boot/console_badness.py scripts/boot/console-badness.txt
	scripts/upstream/collect_results.py --target $(1) \
		--init scripts/boot/guest/upstream-$(1).init --log $$< --out $$@ \
		--kunit-dir $(TREE)/tools/testing/kunit
endef

define upstream_rules
# The unpatched kernel: the patched one's fragments, less the options that
# only the series has, checked against the patched .config.
$(STAMPS)/$(1)-unpatched-config: $(UNPATCHED_TREE)/.harness-commit $(STAMPS)/$(1)-config \
		scripts/upstream/configure-unpatched.sh scripts/build/configure-kernel.sh
	scripts/upstream/configure-unpatched.sh $(1) $(UNPATCHED_TREE) \
		$(BUILD)/$(1)-unpatched/kernel $(BUILD)/$(1)/kernel/.config
	@touch $$@

# configure-kernel.sh replaces .config only when it changed, and the
# unpatched tree does not change: kbuild runs only when the .config did.
$(BUILD)/$(1)-unpatched/kernel/.config: $(STAMPS)/$(1)-unpatched-config
	@:
$(BUILD)/$(1)-unpatched/kernel/$(call target_var,$(1),KIMAGE): $(BUILD)/$(1)-unpatched/kernel/.config
	scripts/build/build-kernel.sh $(1) $(UNPATCHED_TREE) $(BUILD)/$(1)-unpatched/kernel
	@touch $$@

# One initramfs for both kernels, with its own /init.
$(UPSTREAM)/$(1)/initramfs.cpio.gz: scripts/boot/guest/upstream-$(1).init \
		scripts/boot/guest/harness.sh scripts/build/make-initramfs.sh $(BUILD)/$(1)/debug-exit \
		$$(call busybox,$(1)) $$(foreach s,$$(call test_sets,$(1)),$(UPSTREAM)/bin/$$(s).list)
	INITRAMFS_INIT=scripts/boot/guest/upstream-$(1).init scripts/build/make-initramfs.sh $(1) \
		$$(call busybox,$(1)) $(BUILD)/$(1)/debug-exit $$@ \
		$$(foreach s,$$(call test_sets,$(1)),$(UPSTREAM)/bin/$$(s))

$(call upstream_boot_rules,$(1),patched,$(BUILD)/$(1)/kernel)
$(call upstream_boot_rules,$(1),unpatched,$(BUILD)/$(1)-unpatched/kernel)
endef

$(foreach t,$(TARGETS),$(eval $(call upstream_rules,$(t))))
