# SPDX-License-Identifier: GPL-2.0
#
# iohook: a kernel-tree overlay on Debian's linux-source-6.1.
#
#   make           install missing packages, build the patched kernel
#   make check     build, boot under QEMU, run KUnit + kselftests
#   make demo      build, boot, and narrate the hardware-event demo
#   make vm CMD=.. run a command in the VM (see scripts/vm-run --help)
#   make bench     benchmarks: iohook kernel vs the same without, side by side
#
# BUILD_DIR (default /var/tmp/iohook) holds the extracted tree, objects,
# ccache and logs, outside the repository so "git clean" keeps them and
# several checkouts can share one.

BUILD_DIR ?= /var/tmp/iohook
export BUILD_DIR

.PHONY: all deps kernel selftests check demo vm bench clean distclean

all: kernel

deps:
	@scripts/deps

kernel: deps
	@scripts/build-kernel

selftests: kernel
	@scripts/build-selftests

check: kernel selftests
	@scripts/check

demo: kernel selftests
	@scripts/demo

vm: kernel
	@scripts/vm-run -- $(CMD)

bench: deps
	@scripts/bench

clean:
	rm -rf $(BUILD_DIR)/obj-* $(BUILD_DIR)/selftests $(BUILD_DIR)/check $(BUILD_DIR)/bench

distclean:
	rm -rf $(BUILD_DIR)

# Style and static checks on everything we add: checkpatch --strict on our
# files and patches, sparse (C=2) on drivers/pci/iohook and access.c.
KSRC := $(BUILD_DIR)/linux-source-6.1
OURS := $(wildcard drivers/pci/iohook/*.[ch] include/linux/iohook*.h \
	  tools/testing/selftests/iohook/*.[ch])

.PHONY: lint
lint: kernel
	@for f in $(OURS); do $(KSRC)/scripts/checkpatch.pl --strict --no-tree --terse -f $$f | grep -v '^total' || true; done
	@cd patches && for p in *.patch; do $(KSRC)/scripts/checkpatch.pl --strict --no-tree --terse $$p | grep -v '^total' || true; done
	@$(MAKE) -s -C $(KSRC) O=$(BUILD_DIR)/obj-hook C=2 drivers/pci/iohook/ drivers/pci/access.o
