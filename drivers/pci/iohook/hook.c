// SPDX-License-Identifier: GPL-2.0
/*
 * The slow paths the accessors branch to while a space is armed.
 *
 * Each one looks the access up in the store (RCU), lets emulate.c decide
 * the overridden bits, and touches the hardware only for the bits that no
 * override covers, with the plain accessors: this file opts out of the
 * hooks, so it never recurses into itself.
 *
 * These run in any context, including hard interrupts and under the raw
 * pci_lock: they never sleep, allocate or print.
 *
 * Writes: the override state changes (rw, wc) for the bits it covers. A
 * write whose every bit is overridden never reaches the hardware. In a
 * partly overridden write the hardware gets the caller's value in the
 * bits no override covers; in the covered bits it keeps its own value
 * where an ro or rw override stands (read-modify-write: the hardware is
 * read only then), and gets 0 where an rc or wc override stands (the
 * neutral value for status bits). So overridden bits are cut off from the
 * hardware in both directions: an emulated power-off in a Slot Control
 * register never powers the real slot off.
 */
#define __IOHOOK_DISABLE__

#include <linux/io.h>
#include <linux/pci.h>

#include "internal.h"
#include "mmio.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

/**
 * iohook_access_read() - the overridden bits of a read
 * @space: address space
 * @addr: first address of the access
 * @width: access width in bytes, 1 to 8
 * @mask: the bits of the access that overrides decide
 * @value: their values
 *
 * Read-to-clear overrides are cleared atomically with the read of their
 * value, and every override the access touches counts a hit.
 *
 * Return: true if at least one override overlaps the access.
 */
bool iohook_access_read(enum iohook_space space, u64 addr,
			unsigned int width, u64 *mask, u64 *value)
{
	MA_STATE(mas, &iohook_trees[space], addr, addr);
	struct iohook_override *ov;
	bool hit = false;

	*mask = 0;
	*value = 0;
	if (!iohook_store_may_cover(space, addr, width))
		return false;
	rcu_read_lock();
	mas_for_each(&mas, ov, addr + width - 1) {
		struct iohook_contrib c;
		u64 clear, cur;

		clear = iohook_emul_read_clears(ov->start, ov->len, ov->mask,
						ov->attr, addr, width);
		if (clear)
			cur = atomic64_fetch_andnot(clear, &ov->value);
		else
			cur = atomic64_read(&ov->value);
		c = iohook_emul_read(ov->start, ov->len, ov->mask, cur, addr,
				     width);
		*mask |= c.mask;
		*value |= c.value;
		atomic64_inc(&ov->hits);
		hit = true;
	}
	rcu_read_unlock();
	return hit;
}

/**
 * iohook_access_write() - apply a write to the overrides it touches
 * @space: address space
 * @addr: first address of the access
 * @width: access width in bytes, 1 to 8
 * @data: the value written
 * @mask: the bits of the access that overrides cover
 * @keep: the covered bits the hardware must keep (ro and rw overrides)
 *
 * Return: true if at least one override overlaps the access.
 */
bool iohook_access_write(enum iohook_space space, u64 addr,
			 unsigned int width, u64 data, u64 *mask, u64 *keep)
{
	MA_STATE(mas, &iohook_trees[space], addr, addr);
	struct iohook_override *ov;
	bool hit = false;

	*mask = 0;
	*keep = 0;
	if (!iohook_store_may_cover(space, addr, width))
		return false;
	rcu_read_lock();
	mas_for_each(&mas, ov, addr + width - 1) {
		s64 old = atomic64_read(&ov->value);
		struct iohook_contrib c;
		s64 new;

		do {
			new = iohook_emul_write(ov->start, ov->len, ov->mask,
						ov->attr, old, addr, width,
						data);
		} while (new != old &&
			 !atomic64_try_cmpxchg(&ov->value, &old, new));
		c = iohook_emul_read(ov->start, ov->len, ov->mask, 0, addr,
				     width);
		*mask |= c.mask;
		*keep |= iohook_emul_write_keeps(ov->attr, c.mask);
		atomic64_inc(&ov->hits);
		hit = true;
	}
	rcu_read_unlock();
	return hit;
}

/*
 * The plain accessors of one space, on an untyped location (an ioremapped
 * address or a port), so that one read and one write path serve MMIO and
 * ports alike.
 */
struct iohook_raw {
	u64 (*read)(uintptr_t at, unsigned int width);
	void (*write)(u64 val, uintptr_t at, unsigned int width);
};

static u64 iohook_raw_mem_read(uintptr_t at, unsigned int width)
{
	const void __iomem *addr = (const void __iomem __force *)at;

	switch (width) {
	case 1:
		return readb(addr);
	case 2:
		return readw(addr);
	case 4:
		return readl(addr);
	default:
		return readq(addr);
	}
}

static void iohook_raw_mem_write(u64 val, uintptr_t at, unsigned int width)
{
	void __iomem *addr = (void __iomem __force *)at;

	switch (width) {
	case 1:
		writeb(val, addr);
		break;
	case 2:
		writew(val, addr);
		break;
	case 4:
		writel(val, addr);
		break;
	default:
		writeq(val, addr);
		break;
	}
}

static u64 iohook_raw_io_read(uintptr_t port, unsigned int width)
{
	switch (width) {
	case 1:
		return inb(port);
	case 2:
		return inw(port);
	default:
		return inl(port);
	}
}

static void iohook_raw_io_write(u64 val, uintptr_t port, unsigned int width)
{
	switch (width) {
	case 1:
		outb(val, port);
		break;
	case 2:
		outw(val, port);
		break;
	default:
		outl(val, port);
		break;
	}
}

static const struct iohook_raw iohook_raw_mem = {
	.read = iohook_raw_mem_read,
	.write = iohook_raw_mem_write,
};

static const struct iohook_raw iohook_raw_io = {
	.read = iohook_raw_io_read,
	.write = iohook_raw_io_write,
};

/* An access at @key of @space, touching the hardware at @at through @raw. */
static u64 iohook_read(enum iohook_space space, u64 key, uintptr_t at,
		       unsigned int width, const struct iohook_raw *raw,
		       unsigned long caller)
{
	u64 mask, value, hw = 0, ret;
	bool touch;

	if (!iohook_access_read(space, key, width, &mask, &value))
		return raw->read(at, width);
	touch = mask != iohook_width_mask(width);
	if (touch)
		hw = raw->read(at, width);
	ret = iohook_merge(hw, mask, value);
	trace_iohook_read(space, key, width, hw, ret, touch, caller);
	return ret;
}

static void iohook_write(enum iohook_space space, u64 key, uintptr_t at,
			 unsigned int width, u64 val,
			 const struct iohook_raw *raw, unsigned long caller)
{
	u64 mask, keep, hw = 0;
	bool touch;

	if (!iohook_access_write(space, key, width, val, &mask, &keep)) {
		raw->write(val, at, width);
		return;
	}
	touch = mask != iohook_width_mask(width);
	if (touch) {
		if (keep)
			hw = raw->read(at, width);
		hw = iohook_hw_write_value(val, mask, keep, hw);
		raw->write(hw, at, width);
	}
	trace_iohook_write(space, key, width, hw, val, touch, caller);
}

/**
 * iohook_mem_read() - slow path of the MMIO read accessors
 * @addr: ioremapped address
 * @width: 1, 2, 4 or 8
 *
 * Only called while a memory override is armed.
 *
 * Return: the value the caller reads.
 */
u64 iohook_mem_read(const void __iomem *addr, unsigned int width)
{
	uintptr_t at = (uintptr_t)addr;
	u64 phys;

	if (!iohook_virt_to_phys(addr, &phys))
		return iohook_raw_mem_read(at, width);
	return iohook_read(IOHOOK_SPACE_MEM, phys, at, width, &iohook_raw_mem,
			   _RET_IP_);
}
EXPORT_SYMBOL(iohook_mem_read);

/**
 * iohook_mem_write() - slow path of the MMIO write accessors
 * @val: value written
 * @addr: ioremapped address
 * @width: 1, 2, 4 or 8
 *
 * Only called while a memory override is armed.
 */
void iohook_mem_write(u64 val, void __iomem *addr, unsigned int width)
{
	uintptr_t at = (uintptr_t)addr;
	u64 phys;

	if (!iohook_virt_to_phys(addr, &phys))
		iohook_raw_mem_write(val, at, width);
	else
		iohook_write(IOHOOK_SPACE_MEM, phys, at, width, val,
			     &iohook_raw_mem, _RET_IP_);
}
EXPORT_SYMBOL(iohook_mem_write);

/**
 * iohook_io_read() - slow path of inb(), inw() and inl()
 * @port: I/O port
 * @width: 1, 2 or 4
 *
 * Only called while an I/O-port override is armed.
 *
 * Return: the value the caller reads.
 */
u32 iohook_io_read(u16 port, unsigned int width)
{
	return iohook_read(IOHOOK_SPACE_IO, port, port, width, &iohook_raw_io,
			   _RET_IP_);
}
EXPORT_SYMBOL(iohook_io_read);

/**
 * iohook_io_write() - slow path of outb(), outw() and outl()
 * @val: value written
 * @port: I/O port
 * @width: 1, 2 or 4
 *
 * Only called while an I/O-port override is armed.
 */
void iohook_io_write(u32 val, u16 port, unsigned int width)
{
	iohook_write(IOHOOK_SPACE_IO, port, port, width, val, &iohook_raw_io,
		     _RET_IP_);
}
EXPORT_SYMBOL(iohook_io_write);

/**
 * iohook_pci_read() - slow path of the PCI config read accessors
 * @bus: the bus
 * @devfn: device and function
 * @pos: offset in config space
 * @len: 1, 2 or 4
 * @val: where to store the value read
 *
 * Called with pci_lock held, only while a config override is armed.
 *
 * Return: a PCIBIOS_* code, as from bus->ops->read().
 */
int iohook_pci_read(struct pci_bus *bus, unsigned int devfn, int pos,
		    int len, u32 *val)
{
	u64 addr = iohook_pci_addr(pci_domain_nr(bus), bus->number, devfn,
				   pos);
	u64 mask, value;
	int ret = PCIBIOS_SUCCESSFUL;
	u32 hw = 0;
	bool touch;

	if (!iohook_access_read(IOHOOK_SPACE_PCI, addr, len, &mask, &value))
		return bus->ops->read(bus, devfn, pos, len, val);
	touch = mask != iohook_width_mask(len);
	if (touch)
		ret = bus->ops->read(bus, devfn, pos, len, &hw);
	*val = iohook_merge(hw, mask, value);
	trace_iohook_read(IOHOOK_SPACE_PCI, addr, len, hw, *val, touch,
			  _RET_IP_);
	return ret;
}

/**
 * iohook_pci_write() - slow path of the PCI config write accessors
 * @bus: the bus
 * @devfn: device and function
 * @pos: offset in config space
 * @len: 1, 2 or 4
 * @val: the value written
 *
 * Called with pci_lock held, only while a config override is armed.
 *
 * Return: a PCIBIOS_* code, as from bus->ops->write().
 */
int iohook_pci_write(struct pci_bus *bus, unsigned int devfn, int pos,
		     int len, u32 val)
{
	u64 addr = iohook_pci_addr(pci_domain_nr(bus), bus->number, devfn,
				   pos);
	int ret = PCIBIOS_SUCCESSFUL;
	u64 mask, keep;
	u32 hw = 0;
	bool touch;

	if (!iohook_access_write(IOHOOK_SPACE_PCI, addr, len, val, &mask,
				 &keep))
		return bus->ops->write(bus, devfn, pos, len, val);
	touch = mask != iohook_width_mask(len);
	if (touch) {
		if (keep)
			ret = bus->ops->read(bus, devfn, pos, len, &hw);
		hw = iohook_hw_write_value(val, mask, keep, hw);
		if (ret == PCIBIOS_SUCCESSFUL)
			ret = bus->ops->write(bus, devfn, pos, len, hw);
	}
	trace_iohook_write(IOHOOK_SPACE_PCI, addr, len, hw, val, touch,
			   _RET_IP_);
	return ret;
}
