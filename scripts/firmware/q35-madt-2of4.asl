/*
 * SPDX-License-Identifier: GPL-2.0
 *
 * QEMU 7.2 q35's MADT for "-smp 2,maxcpus=4", as current firmware would
 * write it: revision 5, and the two absent CPUs marked Online Capable.
 *
 * QEMU writes a revision-1 MADT whose absent CPUs are simply disabled.
 * Linux 6.12 counts such entries as hot-pluggable only under a hypervisor
 * it recognises (not TCG); from MADT revision 5 on it counts exactly the
 * entries marked Online Capable, as on real machines with CPU hotplug.
 * vm-run hands this table to the kernel through the initrd table upgrade
 * (Documentation/admin-guide/acpi/initrd_table_override.rst): same OEM
 * and table IDs as QEMU's, a higher OEM revision. Everything else is
 * QEMU's table byte for byte (hw/i386/acpi-common.c, build_madt()).
 *
 * Compiled by iasl (acpica-tools) as a data table.
 */
[0004]                          Signature : "APIC"    [Multiple APIC Description Table (MADT)]
[0004]                       Table Length : 00000000
[0001]                           Revision : 05
[0001]                           Checksum : 00
[0006]                             Oem ID : "BOCHS "
[0008]                       Oem Table ID : "BXPC    "
[0004]                       Oem Revision : 00000002
[0004]                    Asl Compiler ID : "BXPC"
[0004]              Asl Compiler Revision : 00000001

[0004]                 Local Apic Address : FEE00000
[0004]              Flags (decoded below) : 00000001
                      PC-AT Compatibility : 1

[0001]                      Subtable Type : 00 [Processor Local APIC]
[0001]                             Length : 08
[0001]                       Processor ID : 00
[0001]                      Local Apic ID : 00
[0004]              Flags (decoded below) : 00000001
                        Processor Enabled : 1
                   Runtime Online Capable : 0

[0001]                      Subtable Type : 00 [Processor Local APIC]
[0001]                             Length : 08
[0001]                       Processor ID : 01
[0001]                      Local Apic ID : 01
[0004]              Flags (decoded below) : 00000001
                        Processor Enabled : 1
                   Runtime Online Capable : 0

[0001]                      Subtable Type : 00 [Processor Local APIC]
[0001]                             Length : 08
[0001]                       Processor ID : 02
[0001]                      Local Apic ID : 02
[0004]              Flags (decoded below) : 00000002
                        Processor Enabled : 0
                   Runtime Online Capable : 1

[0001]                      Subtable Type : 00 [Processor Local APIC]
[0001]                             Length : 08
[0001]                       Processor ID : 03
[0001]                      Local Apic ID : 03
[0004]              Flags (decoded below) : 00000002
                        Processor Enabled : 0
                   Runtime Online Capable : 1

[0001]                      Subtable Type : 01 [I/O APIC]
[0001]                             Length : 0C
[0001]                        I/O Apic ID : 00
[0001]                           Reserved : 00
[0004]                            Address : FEC00000
[0004]                          Interrupt : 00000000

[0001]                      Subtable Type : 02 [Interrupt Source Override]
[0001]                             Length : 0A
[0001]                                Bus : 00
[0001]                             Source : 00
[0004]                          Interrupt : 00000002
[0002]              Flags (decoded below) : 0000
                                 Polarity : 0
                             Trigger Mode : 0

[0001]                      Subtable Type : 02 [Interrupt Source Override]
[0001]                             Length : 0A
[0001]                                Bus : 00
[0001]                             Source : 05
[0004]                          Interrupt : 00000005
[0002]              Flags (decoded below) : 000D
                                 Polarity : 1
                             Trigger Mode : 3

[0001]                      Subtable Type : 02 [Interrupt Source Override]
[0001]                             Length : 0A
[0001]                                Bus : 00
[0001]                             Source : 09
[0004]                          Interrupt : 00000009
[0002]              Flags (decoded below) : 000D
                                 Polarity : 1
                             Trigger Mode : 3

[0001]                      Subtable Type : 02 [Interrupt Source Override]
[0001]                             Length : 0A
[0001]                                Bus : 00
[0001]                             Source : 0A
[0004]                          Interrupt : 0000000A
[0002]              Flags (decoded below) : 000D
                                 Polarity : 1
                             Trigger Mode : 3

[0001]                      Subtable Type : 02 [Interrupt Source Override]
[0001]                             Length : 0A
[0001]                                Bus : 00
[0001]                             Source : 0B
[0004]                          Interrupt : 0000000B
[0002]              Flags (decoded below) : 000D
                                 Polarity : 1
                             Trigger Mode : 3

[0001]                      Subtable Type : 04 [Local APIC NMI]
[0001]                             Length : 06
[0001]                       Processor ID : FF
[0002]              Flags (decoded below) : 0000
                                 Polarity : 0
                             Trigger Mode : 0
[0001]               Interrupt Input LINT : 01
