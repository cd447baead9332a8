# SPDX-License-Identifier: GPL-2.0
#
# kver.sh - sourced by the build, VM and test scripts: which kernel, and
# where its tree and objects live.
#
#   KVER       6.12 (default) or 6.1: Debian's linux-source-$KVER
#   BUILD_DIR  default /var/tmp/iohook, outside the repository
#
# Each version has its own extracted tree and object directories, so
# switching does not rebuild the other; ccache is shared.
#
#   $BUILD_DIR/linux-source-$KVER/   the overlaid, patched tree
#   $BUILD_DIR/$KVER/obj-$VARIANT/   objects (hook, bench-hook, bench-nohook)
#   $BUILD_DIR/$KVER/{state,selftests,check,bench}/
#   $BUILD_DIR/ccache/

KVERS_SUPPORTED="6.12 6.1"
KVER=${KVER:-6.12}
case " $KVERS_SUPPORTED " in
*" $KVER "*) ;;
*) echo "KVER=$KVER: supported kernels are $KVERS_SUPPORTED" >&2; exit 2 ;;
esac
BUILD_DIR=${BUILD_DIR:-/var/tmp/iohook}
KSRC=$BUILD_DIR/linux-source-$KVER
KDIR=$BUILD_DIR/$KVER
TARBALL=/usr/src/linux-source-$KVER.tar.xz
export KVER BUILD_DIR

# The upstream files this version's patch series changes.
series_touched() {
	sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$1/patches/$KVER"/*.patch | sort -u
}
