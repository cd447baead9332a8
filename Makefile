# SPDX-License-Identifier: GPL-2.0
#
# iohook: a kernel-tree overlay on Debian's linux-source-6.1.
#
#   make           install missing packages, build the patched kernel
#   make check     build, boot under QEMU, run KUnit + kselftests
#   make demo      build, boot, and narrate the hardware-event demo
#   make vm CMD=.. run a command in the VM (see scripts/vm-run --help)
#
# BUILD_DIR (default /var/tmp/iohook) holds the extracted tree, objects,
# ccache and logs, outside the repository so "git clean" keeps them and
# several checkouts can share one.

BUILD_DIR ?= /var/tmp/iohook
export BUILD_DIR

.PHONY: all deps kernel selftests check demo vm clean distclean

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

clean:
	rm -rf $(BUILD_DIR)/obj-hook $(BUILD_DIR)/obj-nohook $(BUILD_DIR)/selftests $(BUILD_DIR)/check

distclean:
	rm -rf $(BUILD_DIR)
