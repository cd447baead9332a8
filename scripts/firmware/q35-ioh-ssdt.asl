/*
 * SPDX-License-Identifier: GPL-2.0
 *
 * A hot-pluggable I/O hub (a PCI host bridge, PNP0A08) for QEMU q35, as
 * the firmware of a machine with IOH hotplug describes it. QEMU has no
 * such firmware code; this table is the platform AML that iohook needs,
 * so that "iohook ioh 1 add|remove" can play the chipset, as on the
 * Intel machines of the 2013 RFC (there, the IOH's presence was a GPIO
 * level and its hotplug event a GPIO routed to a GPE).
 *
 * The chipset side is two byte registers at I/O port 0xee0, which
 * nothing on q35 decodes (a read returns 0xff: "no register here"):
 *
 *   0xee0  IOHS  status, bit 0: IOH 1 is present (the eject writes it 0)
 *   0xee1  IOHE  events, write 1 to clear: bit 0 insert, bit 1 remove
 *
 * (A second IOH would use bit 1 of IOHS, bits 2 and 3 of IOHE, and buses
 * 0xf8-0xff: the layout "iohook ioh N" follows.)
 *
 * GPE 0x10 (GPIO 0's event on ICH9) runs _E10, which reads IOHE, clears
 * what it found and Notify()s the IOH: 1 (device check) on an insert,
 * 3 (eject request) on a removal. Linux's ACPI hotplug then evaluates
 * _STA, and its PCI root driver (drivers/acpi/pci_root.c) adds the root
 * bridge and scans its bus, or removes both and calls _EJ0.
 *
 * Resources, chosen not to collide with q35's:
 * - Segment 0, buses 0xf0-0xf7: config access through q35's MMCONFIG,
 *   which covers all 256 buses of segment 0. q35's root bus (PCI0)
 *   claims buses 0-0xff in its _CRS, so this range lies inside it, which
 *   the kernel reports ("busn_res: can not insert") and tolerates; the
 *   boot-time bridges use the lowest numbers. A new segment would need
 *   its own MMCONFIG area (_CBA) with something decoding it.
 * - Memory 0xa0000000-0xa00fffff: inside PCI0's window
 *   0x40000000-0xafffffff, which nothing on this machine uses; the
 *   kernel inserts it as a child of that window, so PCI0 never hands it
 *   out while the IOH is there.
 * - The register block is reserved as a motherboard resource (IOHR).
 *
 * On a real platform: replace the OperationRegion with the register
 * the platform's own GPE method reads (a GPIO level, a CPLD register),
 * the GPE with the one its hotplug signal is routed to, and the bus and
 * memory ranges with ones the platform leaves free.
 *
 * Loaded by the initrd table upgrade (scripts/host/vm-run), or at run
 * time through ACPI configfs (Documentation/PCI/iohook.rst).
 */
DefinitionBlock ("", "SSDT", 2, "IOHOOK", "Q35IOH", 0x00000001)
{
    Scope (\_SB)
    {
        Device (IOHR)
        {
            Name (_HID, EisaId ("PNP0C02"))
            Name (_UID, "IOH hotplug resources")
            Name (_CRS, ResourceTemplate ()
            {
                IO (Decode16, 0x0EE0, 0x0EE0, 0x01, 0x02)
            })
        }

        OperationRegion (IOHP, SystemIO, 0x0EE0, 0x02)
        Field (IOHP, ByteAcc, NoLock, Preserve)
        {
            IOHS,   8,
            IOHE,   8
        }

        Device (IOH1)
        {
            Name (_HID, EisaId ("PNP0A08"))
            Name (_CID, EisaId ("PNP0A03"))
            Name (_UID, One)
            Name (_SEG, Zero)
            Name (_BBN, 0xF0)

            Method (_STA, 0, Serialized)
            {
                Local0 = IOHS
                If (Local0 == 0xFF)
                {
                    Return (Zero)
                }
                If (Local0 & One)
                {
                    Return (0x0F)
                }
                Return (Zero)
            }

            Name (_CRS, ResourceTemplate ()
            {
                WordBusNumber (ResourceProducer, MinFixed, MaxFixed, PosDecode,
                    0x0000, 0x00F0, 0x00F7, 0x0000, 0x0008,,,)
                DWordMemory (ResourceProducer, PosDecode, MinFixed, MaxFixed,
                    NonCacheable, ReadWrite,
                    0x00000000, 0xA0000000, 0xA00FFFFF, 0x00000000, 0x00100000,,,,
                    AddressRangeMemory, TypeStatic)
            })

            /* As q35's PCI0: grant what the OS asks of the first five. */
            Method (_OSC, 4, NotSerialized)
            {
                CreateDWordField (Arg3, Zero, CDW1)
                If (Arg0 == ToUUID ("33db4d5b-1ff7-401c-9657-7441c03dd766"))
                {
                    CreateDWordField (Arg3, 0x08, CDW3)
                    Local0 = CDW3 & 0x1F
                    If (Arg1 != One)
                    {
                        CDW1 |= 0x08
                    }
                    If (CDW3 != Local0)
                    {
                        CDW1 |= 0x10
                    }
                    CDW3 = Local0
                }
                Else
                {
                    CDW1 |= 0x04
                }
                Return (Arg3)
            }

            /* Power the IOH off: it reads absent from now on. */
            Method (_EJ0, 1, NotSerialized)
            {
                IOHS = Zero
            }
        }
    }

    Scope (\_GPE)
    {
        Method (_E10, 0, NotSerialized)
        {
            Local0 = \_SB.IOHE
            If (Local0 == 0xFF)
            {
                Return (Zero)
            }
            If (Local0 & One)
            {
                \_SB.IOHE = One
                Notify (\_SB.IOH1, One)
            }
            If (Local0 & 0x02)
            {
                \_SB.IOHE = 0x02
                Notify (\_SB.IOH1, 0x03)
            }
            Return (Zero)
        }
    }
}
