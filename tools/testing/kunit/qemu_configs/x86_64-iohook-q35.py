# SPDX-License-Identifier: GPL-2.0
#
# kunit.py's machine for the iohook KUnit suites (drivers/pci/iohook):
# QEMU q35 with two CPUs and a PCIe root port with an e1000e behind it,
# which the suites that read and override real registers use (a PCIe
# root port's config space, the e1000e's MMIO BAR and its ICR, a second
# CPU to race and to take offline). On kunit.py's default x86_64 machine
# (i440fx, one CPU, no e1000e) those tests skip and say why.
#
#   ./tools/testing/kunit/kunit.py run --kunitconfig=drivers/pci/iohook \
#	--qemu_config=tools/testing/kunit/qemu_configs/x86_64-iohook-q35.py
#
# TCG, as kunit.py's own configs; SeaBIOS (q35 is not qboot's machine).
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='x86_64',
			   kconfig='''
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_SMP=y
CONFIG_HOTPLUG_CPU=y
CONFIG_PCIEPORTBUS=y''',
			   qemu_arch='x86_64',
			   kernel_path='arch/x86/boot/bzImage',
			   kernel_command_line='console=ttyS0',
			   extra_qemu_params=['-machine', 'q35', '-smp', '2',
					      '-device', 'pcie-root-port,id=rp1,chassis=1,slot=1,bus=pcie.0,addr=0x1c',
					      '-device', 'e1000e,bus=rp1,netdev=n0',
					      '-netdev', 'user,id=n0'])
