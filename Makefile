# SPDX-License-Identifier: GPL-2.0
#
# iohook: a kernel-tree overlay on Debian's linux-source-6.12 and 6.1.
#
# KVER picks the kernel: 6.12 (default) or 6.1. Each has its own tree and
# objects under BUILD_DIR, so switching rebuilds neither.
#
#   make           install missing packages, build the patched kernel
#   make check     for every kernel (or only KVER, if given): build, boot
#                  under QEMU, run the build checks, KUnit and kselftests
#   make demo      build, boot, and narrate the hardware-event demo
#   make vm CMD=.. run a command in the VM (see scripts/host/vm-run --help)
#   make bench     benchmarks: iohook kernel vs the same without, side by side
#   make bench-probe  what an armed MMIO miss would cost through per-site
#                  detours, against today's (one boot of the bench kernel)
#   make fuzz      libFuzzer (ASan, UBSan) on the parser and the bit
#                  semantics, built unchanged for userspace: RUNS
#                  executions per target (default 10 million)
#   make kselftest-runner  the suite under the kernel's own kselftest
#                  runner (run_kselftest.sh -c iohook) in the VM, per kernel
#   make kunit-py  the KUnit suites under tools/testing/kunit/kunit.py run,
#                  per kernel, on kunit.py's own machine and on q35
#   make lava      the suite as a LAVA job (lava-run, a Debian root file
#                  system from debootstrap), every test case by name
#   make series    a git-am-able patch series for your own Linux KVER tree
#                  (in BUILD_DIR/KVER/series, or SERIES_OUT)
#
# BUILD_DIR (default /var/tmp/iohook) holds the extracted tree, objects,
# ccache and logs, outside the repository so "git clean" keeps them and
# several checkouts can share one.

BUILD_DIR ?= /var/tmp/iohook
export BUILD_DIR
# Exported only when given, so that "make check" without it checks all.
ifneq ($(KVER),)
export KVER
endif
KVER_OR_DEFAULT := $(or $(KVER),6.12)

.PHONY: all deps kernel selftests check kselftest-runner kunit-py lava demo vm bench bench-probe series fuzz clean distclean

all: kernel

deps:
	@scripts/host/deps

kernel: deps
	@scripts/host/build-kernel

selftests: kernel
	@scripts/host/build-selftests

check: deps
	@scripts/check

kselftest-runner: deps
	@scripts/kselftest-runner

kunit-py: deps
	@scripts/kunit-py

lava:
	@scripts/host/deps lava
	@scripts/lava-job

demo: kernel selftests
	@scripts/demo

vm: kernel
	@scripts/host/vm-run -- $(CMD)

bench: deps
	@scripts/bench

bench-probe: deps
	@scripts/bench-probe

series: deps
	@scripts/host/series $(SERIES_OUT)

fuzz: deps
	@$(MAKE) -s -C tools/testing/selftests/iohook/fuzz run OUT=$(BUILD_DIR)/fuzz \
		$(if $(RUNS),RUNS=$(RUNS))

clean:
	rm -rf $(BUILD_DIR)/6.*/obj-* $(BUILD_DIR)/6.*/selftests $(BUILD_DIR)/6.*/check $(BUILD_DIR)/6.*/bench \
		$(BUILD_DIR)/6.*/bench-probe

distclean:
	rm -rf $(BUILD_DIR)

# Style and static checks on everything we add: checkpatch --strict on our
# files and patches, sparse (C=2) on drivers/pci/iohook and access.c.
KSRC := $(BUILD_DIR)/linux-source-$(KVER_OR_DEFAULT)
OURS := $(wildcard drivers/pci/iohook/*.[ch] include/linux/iohook*.h \
	  tools/testing/selftests/iohook/*.[ch] tools/pci/iohook/*.[ch])

.PHONY: lint
lint: kernel
	@for f in $(OURS); do $(KSRC)/scripts/checkpatch.pl --strict --no-tree --terse -f $$f | grep -v '^total' || true; done
	@cd patches/$(KVER_OR_DEFAULT) && for p in *.patch; do $(KSRC)/scripts/checkpatch.pl --strict --no-tree --terse $$p | grep -v '^total' || true; done
	@$(MAKE) -s -C $(KSRC) O=$(BUILD_DIR)/$(KVER_OR_DEFAULT)/obj-hook C=2 drivers/pci/iohook/ drivers/pci/access.o
