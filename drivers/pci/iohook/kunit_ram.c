// SPDX-License-Identifier: GPL-2.0
/*
 * The RAM stand-in of the KUnit suites (kunit_ram.h says what it is).
 * Out of line, so that each width's accessor is called as a driver calls
 * it, with a value known only at run time.
 */
#include <kunit/test.h>
#include <linux/io.h>
#include <linux/string.h>

#include "kunit_ram.h"

/* Two pages of stand-in, filled with IOHOOK_RAM_FILL, freed with @test. */
void iohook_ram_init(struct kunit *test, struct iohook_ram *ram)
{
	ram->virt = kunit_kmalloc(test, 2 * PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ram->virt);
	memset(ram->virt, IOHOOK_RAM_FILL, 2 * PAGE_SIZE);
	ram->phys = virt_to_phys(ram->virt);
}

/*
 * Add memory overrides on the stand-in, all or none: each of @specs
 * gives its address as an offset into it, which this makes physical.
 */
int iohook_ram_add(const struct iohook_ram *ram, struct iohook_spec *specs,
		   unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		specs[i].addr = iohook_ram_phys(ram, specs[i].addr);
	return iohook_add_many(specs, n);
}

/*
 * A read or write of @width bytes at @off through the MMIO access path:
 * <linux/iohook_access.h>'s width switch to the entry points, as the
 * accessors take it.
 */
u64 iohook_ram_read(const struct iohook_ram *ram, u64 off, unsigned int width)
{
	return iohook_mem_read((const void __iomem __force *)(ram->virt + off),
			       width);
}

void iohook_ram_write(const struct iohook_ram *ram, u64 off, unsigned int width,
		      u64 val)
{
	iohook_mem_write(val, (void __iomem __force *)(ram->virt + off), width);
}

/* What the stand-in itself holds at @off, as the device would: no hook. */
u64 iohook_ram_peek(const struct iohook_ram *ram, u64 off, unsigned int width)
{
	u64 v = 0;

	memcpy(&v, ram->virt + off, width);
	return v;
}

/* Set what the stand-in holds at @off, as the device would. */
void iohook_ram_poke(const struct iohook_ram *ram, u64 off, unsigned int width,
		     u64 val)
{
	memcpy(ram->virt + off, &val, width);
}

#define to_ram_bus(b) container_of(b, struct iohook_ram_bus, bus)

static int iohook_ram_cfg_read(struct pci_bus *bus, unsigned int devfn,
			       int where, int size, u32 *val)
{
	struct iohook_ram_bus *rb = to_ram_bus(bus);

	*val = 0;
	if (rb->fail || devfn >= ARRAY_SIZE(rb->cfg))
		return PCIBIOS_DEVICE_NOT_FOUND;
	memcpy(val, &rb->cfg[devfn][where], size);
	return PCIBIOS_SUCCESSFUL;
}

static int iohook_ram_cfg_write(struct pci_bus *bus, unsigned int devfn,
				int where, int size, u32 val)
{
	struct iohook_ram_bus *rb = to_ram_bus(bus);

	if (rb->fail || devfn >= ARRAY_SIZE(rb->cfg))
		return PCIBIOS_DEVICE_NOT_FOUND;
	memcpy(&rb->cfg[devfn][where], &val, size);
	return PCIBIOS_SUCCESSFUL;
}

/* A bus of RAM config space, filled with IOHOOK_RAM_FILL, freed with @test. */
struct iohook_ram_bus *iohook_ram_bus_new(struct kunit *test)
{
	struct iohook_ram_bus *rb = kunit_kzalloc(test, sizeof(*rb), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, rb);
	memset(rb->cfg, IOHOOK_RAM_FILL, sizeof(rb->cfg));
	rb->ops.read = iohook_ram_cfg_read;
	rb->ops.write = iohook_ram_cfg_write;
	rb->sd.domain = IOHOOK_RAM_DOMAIN;
	rb->bus.ops = &rb->ops;
	rb->bus.sysdata = &rb->sd;
	return rb;
}
