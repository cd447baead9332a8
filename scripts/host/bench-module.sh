# SPDX-License-Identifier: GPL-2.0
#
# bench-module.sh - sourced by scripts/bench and scripts/bench-probe, after
# scripts/host/kver.sh: build the bench kernel with iohook ("modules" gives
# Module.symvers and the linker script for ours), then build every
# module of tools/testing/selftests/iohook/bench/ against it in
# $1/module, a fresh copy. Sets HOOK to the kernel's object directory.
bench_build_modules() {
	local out=$1

	"$REPO/scripts/host/deps"
	TARGETS="bzImage modules" VARIANT=bench-hook "$REPO/scripts/host/build-kernel"
	HOOK=$KDIR/obj-bench-hook
	rm -rf "$out"
	mkdir -p "$out/module"
	cp "$REPO"/tools/testing/selftests/iohook/bench/* "$out/module/"
	make -s -C "$KSRC" O="$HOOK" M="$out/module" modules
}
