/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iohook_access.h - the part of iohook that the x86 MMIO and port
 * accessors inline: one static-key test per address space, and the
 * out-of-line slow paths it branches to.
 *
 * This header is included from <asm/io.h>, so it is kept minimal and
 * stable: editing it rebuilds most of the kernel. The in-kernel API lives
 * in <linux/iohook.h>.
 *
 * While a space is not armed (or holds no override) its key is false and
 * static_branch_unlikely() compiles to a NOP: the accessor runs no call
 * and loads no global.
 *
 * Code that must never be hooked defines __IOHOOK_DISABLE__ before its
 * first #include. Code built outside the kernel proper (real-mode setup,
 * the decompressor and EFI stub, the vDSO) always gets the plain
 * instruction sequences.
 */
#ifndef _LINUX_IOHOOK_ACCESS_H
#define _LINUX_IOHOOK_ACCESS_H

#include <linux/types.h>

#if IS_ENABLED(CONFIG_IOHOOK) && !defined(__DISABLE_EXPORTS) && \
	!defined(BUILD_VDSO) && !defined(_SETUP)

#include <linux/jump_label.h>

#define IOHOOK_DECLARED 1

DECLARE_STATIC_KEY_FALSE(iohook_mem_key);
DECLARE_STATIC_KEY_FALSE(iohook_io_key);

/*
 * The slow paths, one per width: a call site passes only the address
 * (and the value), not the width as well, which saves an instruction at
 * each of the two thousand or so accessor sites of a kernel.
 *
 * Not __cold: the static branch already puts the call after the
 * function's straight line; __cold let gcc move it to .text.unlikely, far
 * away, and under TCG each armed miss then paid two more jumps across
 * pages.
 */
u8 iohook_readb(const void __iomem *addr);
u16 iohook_readw(const void __iomem *addr);
u32 iohook_readl(const void __iomem *addr);
u64 iohook_readq(const void __iomem *addr);
void iohook_writeb(u8 val, void __iomem *addr);
void iohook_writew(u16 val, void __iomem *addr);
void iohook_writel(u32 val, void __iomem *addr);
void iohook_writeq(u64 val, void __iomem *addr);
u8 iohook_inb(u16 port);
u16 iohook_inw(u16 port);
u32 iohook_inl(u16 port);
void iohook_outb(u8 val, u16 port);
void iohook_outw(u16 val, u16 port);
void iohook_outl(u32 val, u16 port);

/*
 * What <asm/io.h>'s MMIO accessors call: their build macros name the
 * width only as a mov suffix string ("l") and a type, so they pass
 * sizeof(type), a constant at every site, and each of these compiles to
 * one call of the entry point for that width. The port accessors have
 * the width as a token (inb/inw/inl) and call iohook_in##bwl() directly.
 */
static __always_inline u64 iohook_mem_read(const void __iomem *addr,
					   unsigned int width)
{
	switch (width) {
	case 1:
		return iohook_readb(addr);
	case 2:
		return iohook_readw(addr);
	case 4:
		return iohook_readl(addr);
	default:
		return iohook_readq(addr);
	}
}

static __always_inline void iohook_mem_write(u64 val, void __iomem *addr,
					     unsigned int width)
{
	switch (width) {
	case 1:
		iohook_writeb(val, addr);
		break;
	case 2:
		iohook_writew(val, addr);
		break;
	case 4:
		iohook_writel(val, addr);
		break;
	default:
		iohook_writeq(val, addr);
		break;
	}
}

#ifndef __IOHOOK_DISABLE__
#define IOHOOK_HOOKED_ACCESSORS 1
#define iohook_mem_active()	static_branch_unlikely(&iohook_mem_key)
#define iohook_io_active()	static_branch_unlikely(&iohook_io_key)
#endif

#endif

#ifndef IOHOOK_HOOKED_ACCESSORS
#define iohook_mem_active()	false
#define iohook_io_active()	false
#endif

#ifndef IOHOOK_DECLARED
/* Never called: the accessors test iohook_*_active() first. */
static inline u64 iohook_mem_read(const void __iomem *addr,
				  unsigned int width)
{
	return 0;
}

static inline void iohook_mem_write(u64 val, void __iomem *addr,
				    unsigned int width)
{
}
#endif

#endif /* _LINUX_IOHOOK_ACCESS_H */
