// SPDX-License-Identifier: GPL-2.0
/*
 * The access path: the slow paths the hooked accessors (readl(), inb(),
 * pci_read_config_dword(), ...) branch to while a space's key is on.
 *
 * One read path and one write path serve the three spaces: each looks
 * the access up in the store (RCU), touches the hardware only for the
 * bits no override covers, through the plain accessors of its space
 * (this file opts out of the hooks, so it never recurses into itself),
 * and only then changes override state. So a failed hardware access
 * (config space can fail) leaves every rc and wc bit as it was.
 *
 * These run in any context, including hard interrupts, under the raw
 * pci_lock where the architecture takes it, and from the idle loop: they
 * never sleep, allocate or print.
 *
 * Three gates decide whether an access is emulated, in this order:
 * - the space's static key (in the inline accessor): off means a NOP;
 * - whether RCU watches this CPU and the CPU is online: the idle loop
 *   (ACPI C-state port reads, the PM timer, HPET under the tick
 *   broadcast) and a dying CPU run accessors where RCU does not wait for
 *   them, so they get the hardware view and never touch the store;
 * - iohook_armed, read inside the RCU read section: one flag for every
 *   site and space, so arming and disarming switch all of them at once,
 *   and disarming waits for a grace period before it returns.
 *
 * Writes: the override state changes (rw, wc) for the bits it covers. A
 * write whose every bit is overridden never reaches the hardware. In a
 * partly overridden write the hardware gets the caller's bits where no
 * override stands and 0 in every overridden bit, and it is never read
 * first: a read-modify-write would send a pending write-1-to-clear bit
 * back as 1 and clear a real event the override hides, re-trigger a
 * self-clearing command bit, or lose a read-to-clear register's state.
 * So overridden bits are cut off from the hardware in both directions.
 */
#define __IOHOOK_DISABLE__

#include <linux/context_tracking.h>
#include <linux/cpumask.h>
#include <linux/instrumentation.h>
#include <linux/io.h>
#include <linux/pci.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>
#include <linux/stacktrace.h>

#include "arm.h"
#include "emulate.h"
#include "hw.h"
#include "mmio.h"
#include "model.h"
#include "override.h"
#include "select.h"
#include "space.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

/* Every override covers at least one byte: at most 8 meet one access. */
#define IOHOOK_MAX_PER_ACCESS	8

/* The overrides one access touches, found before anything changes. */
struct iohook_found {
	unsigned int n;
	unsigned int declined;	/* overrides whose policy passed it through */
	u64 cover;		/* bits of the access they decide */
	struct iohook_override *ov[IOHOOK_MAX_PER_ACCESS];
	const struct iohook_override *policy;	/* last one with a policy */
	/* The overrides whose policy counted the access, for iohook_unfind(). */
	unsigned int npolled;
	u8 polled_applied;	/* bit i: polled[i] applied */
	struct iohook_override *polled[IOHOOK_MAX_PER_ACCESS];
};

/* Of the overrides on one tree entry's bytes, the one whose condition holds. */
static struct iohook_override *iohook_pick(struct iohook_override *ov)
{
	for (; ov; ov = rcu_dereference(ov->next))
		if (iohook_cond_holds(ov))
			return ov;
	return NULL;
}

/*
 * Collect the overrides that apply to an access: per tree entry the one
 * whose condition holds, if its policy takes the access. The caller
 * holds rcu_read_lock(), has seen iohook armed, and has asked the filter
 * (iohook_store_may_cover()) first, outside the read section: a miss
 * costs no more than that.
 * Return: true if at least one override applies or a policy declined
 * the access (which the tracepoint reports).
 */
static bool iohook_find(enum iohook_space space, u64 addr,
			unsigned int width, struct iohook_found *f)
{
	MA_STATE(mas, &iohook_spaces[space].overrides, addr, addr);
	struct iohook_override *ov;

	f->n = 0;
	f->declined = 0;
	f->cover = 0;
	f->policy = NULL;
	f->npolled = 0;
	f->polled_applied = 0;
	mas_for_each(&mas, ov, addr + width - 1) {
		bool take;

		if (f->n + f->declined == IOHOOK_MAX_PER_ACCESS)
			break;
		ov = iohook_pick(ov);
		if (!ov)
			continue;
		take = iohook_policy_take(&ov->policy);
		if (ov->policy.active) {
			f->policy = ov;
			f->polled_applied |= take << f->npolled;
			f->polled[f->npolled++] = ov;
		}
		if (!take) {
			f->declined++;
			continue;
		}
		f->ov[f->n++] = ov;
		f->cover |= iohook_emul_read(ov->start, ov->len, ov->mask, 0,
					     addr, width).mask;
	}
	return f->n || f->declined;
}

/*
 * The hardware failed the access iohook_find() counted: give the
 * policies their counts back, since the access never happened.
 */
static void iohook_unfind(const struct iohook_found *f)
{
	unsigned int i;

	for (i = 0; i < f->npolled; i++)
		iohook_policy_untake(&f->polled[i]->policy,
				     f->polled_applied & BIT(i));
}

/* Apply a read to the found overrides: rc bits clear, hits count. */
static u64 iohook_commit_read(const struct iohook_found *f, u64 addr,
			      unsigned int width)
{
	u64 value = 0;
	unsigned int i;

	for (i = 0; i < f->n; i++) {
		struct iohook_override *ov = f->ov[i];
		u64 clear, cur;

		clear = iohook_emul_read_clears(ov->start, ov->len, ov->mask,
						ov->attr, addr, width);
		if (clear)
			cur = atomic64_fetch_andnot(clear, &ov->value);
		else
			cur = atomic64_read(&ov->value);
		value |= iohook_emul_read(ov->start, ov->len, ov->mask, cur,
					  addr, width).value;
		atomic64_inc(&ov->hits);
	}
	return value;
}

/* Apply a write to the found overrides: rw bits take it, wc bits clear. */
static void iohook_commit_write(const struct iohook_found *f, u64 addr,
				unsigned int width, u64 data)
{
	unsigned int i;

	for (i = 0; i < f->n; i++) {
		struct iohook_override *ov = f->ov[i];
		s64 old = atomic64_read(&ov->value);
		s64 new;

		do {
			new = iohook_emul_write(ov->start, ov->len, ov->mask,
						ov->attr, old, addr, width,
						data);
		} while (new != old &&
			 !atomic64_try_cmpxchg(&ov->value, &old, new));
		atomic64_inc(&ov->hits);
	}
}

/*
 * The plain accessors, always inlined: the entry points below are
 * noinstr, so they must not call out of line before they know RCU
 * watches.
 */
static __always_inline u64 iohook_raw_mem_read(uintptr_t at,
					       unsigned int width)
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

static __always_inline void iohook_raw_mem_write(u64 val, uintptr_t at,
						 unsigned int width)
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

static __always_inline u64 iohook_raw_io_read(uintptr_t port,
					      unsigned int width)
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

static __always_inline void iohook_raw_io_write(u64 val, uintptr_t port,
						unsigned int width)
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

static int iohook_hw_mem_read(const struct iohook_hw *hw, unsigned int width,
			      u64 *val)
{
	*val = iohook_raw_mem_read(hw->at, width);
	return 0;
}

static int iohook_hw_mem_write(const struct iohook_hw *hw,
			       unsigned int width, u64 val)
{
	iohook_raw_mem_write(val, hw->at, width);
	return 0;
}

static int iohook_hw_io_read(const struct iohook_hw *hw, unsigned int width,
			     u64 *val)
{
	*val = iohook_raw_io_read(hw->at, width);
	return 0;
}

static int iohook_hw_io_write(const struct iohook_hw *hw, unsigned int width,
			      u64 val)
{
	iohook_raw_io_write(val, hw->at, width);
	return 0;
}

static int iohook_hw_cfg_read(const struct iohook_hw *hw, unsigned int width,
			      u64 *val)
{
	u32 v = 0;
	int ret;

	ret = hw->cfg.bus->ops->read(hw->cfg.bus, hw->cfg.devfn, hw->cfg.pos,
				     width, &v);
	*val = v;
	return ret;
}

static int iohook_hw_cfg_write(const struct iohook_hw *hw,
			       unsigned int width, u64 val)
{
	return hw->cfg.bus->ops->write(hw->cfg.bus, hw->cfg.devfn,
				       hw->cfg.pos, width, val);
}

/*
 * May this CPU use the store? Not where RCU does not watch it (the idle
 * loop after ct_idle_enter()) nor once it is offline (a dying CPU's
 * play_dead): grace periods do not wait for those.
 *
 * Decided before instrumentation_begin() in the noinstr entry points, so
 * nothing here may be traced or instrumented: rcu_is_watching() is only
 * notrace, and cpu_online()'s test_bit() is instrumented under KASAN, so
 * this reads the same state raw. objtool's noinstr validation (build
 * check 3) holds it to that. The CPU cannot change under a caller that
 * could be preempted: such a caller is never in an extended quiescent
 * state and never runs on an offline CPU, so any CPU's answer is true.
 */
static __always_inline bool iohook_cpu_usable(void)
{
	int ct = arch_atomic_read(raw_cpu_ptr(&context_tracking.state));

#ifdef CT_RCU_WATCHING
	if (!(ct & CT_RCU_WATCHING))		/* 6.12 */
		return false;
#else
	if (!(ct & RCU_DYNTICKS_IDX))		/* 6.1 */
		return false;
#endif
	return arch_test_bit(raw_smp_processor_id(),
			     cpumask_bits(cpu_online_mask));
}

/*
 * The call chain for the tracepoint: @caller, the return address into
 * the code that called the accessor (for config space, the PCI core's
 * accessor), then the next frames up, so that the driver behind
 * pci_read_config_word() or pcie_capability_read_word() shows too. Only
 * computed while the tracepoint is on.
 */
static void iohook_call_chain(unsigned long caller, unsigned long *chain)
{
	unsigned long st[16];
	unsigned int n, i, j;

	memset(chain, 0, IOHOOK_TRACE_DEPTH * sizeof(*chain));
	chain[0] = caller;
	n = stack_trace_save(st, ARRAY_SIZE(st), 0);
	for (i = 0; i < n && st[i] != caller; i++)
		;
	for (j = 1; j < IOHOOK_TRACE_DEPTH && i + j < n; j++)
		chain[j] = st[i + j];
}

static void iohook_trace(bool write, enum iohook_space space, u64 key,
			 unsigned int width, u64 hw, u64 val, bool touch,
			 const struct iohook_found *f, unsigned long caller)
{
	unsigned long chain[IOHOOK_TRACE_DEPTH];
	u64 seen = 0, applied = 0;

	if (write ? !trace_iohook_write_enabled() : !trace_iohook_read_enabled())
		return;
	iohook_call_chain(caller, chain);
	if (f->policy) {
		seen = atomic64_read(&f->policy->policy.seen);
		applied = atomic64_read(&f->policy->policy.applied);
	}
	if (write)
		trace_iohook_write(space, key, width, hw, val, touch, f->n,
				   f->declined, seen, applied, chain);
	else
		trace_iohook_read(space, key, width, hw, val, touch, f->n,
				  f->declined, seen, applied, chain);
}

/*
 * A read of @width bytes at @key in @space, the hardware behind @hw.
 * The entry points below have asked the filter already, before they set
 * anything up: a miss costs one hash and one load, then the plain
 * accessor, without a call into here (see "make bench", config miss).
 */
static int iohook_read(enum iohook_space space, u64 key, unsigned int width,
		       const struct iohook_hw *hw, u64 *val,
		       unsigned long caller)
{
	struct iohook_model_hw mhw;
	struct iohook_found f;
	u64 raw = 0;
	bool touch;
	int ret = 0;

	rcu_read_lock();
	if (!READ_ONCE(iohook_armed)) {
		rcu_read_unlock();
		return hw->read(hw, width, val);
	}
	/* A model bound here answers for the hardware, inside the section. */
	hw = iohook_model_wrap(space, key, hw, &mhw);
	if (!iohook_find(space, key, width, &f)) {
		ret = hw->read(hw, width, val);
		rcu_read_unlock();
		return ret;
	}
	touch = f.cover != iohook_width_mask(width);
	if (touch)
		ret = hw->read(hw, width, &raw);
	if (!ret) {
		*val = iohook_merge(raw, f.cover,
				    iohook_commit_read(&f, key, width));
		iohook_trace(false, space, key, width, raw, *val, touch, &f,
			     caller);
	} else {
		iohook_unfind(&f);
	}
	rcu_read_unlock();
	return ret;
}

static int iohook_write(enum iohook_space space, u64 key, unsigned int width,
			const struct iohook_hw *hw, u64 val,
			unsigned long caller)
{
	struct iohook_record_undo undo;
	struct iohook_model_hw mhw;
	struct iohook_found f;
	u64 out = 0;
	bool touch;
	int ret = 0;

	rcu_read_lock();
	if (!READ_ONCE(iohook_armed)) {
		rcu_read_unlock();
		return hw->write(hw, width, val);
	}
	hw = iohook_model_wrap(space, key, hw, &mhw);
	/* Before the overrides judge this write: see select.c. */
	iohook_record(space, key, width, val, &undo);
	if (!iohook_find(space, key, width, &f)) {
		/*
		 * Still in the read section: a model's lifetime, and a
		 * refused write's record is taken back.
		 */
		ret = hw->write(hw, width, val);
		if (ret)
			iohook_record_undo(&undo);
		rcu_read_unlock();
		return ret;
	}
	touch = f.cover != iohook_width_mask(width);
	if (touch) {
		out = iohook_hw_write_value(val, f.cover);
		ret = hw->write(hw, width, out);
	}
	if (!ret) {
		iohook_commit_write(&f, key, width, val);
		iohook_trace(true, space, key, width, out, val, touch, &f,
			     caller);
	} else {
		iohook_unfind(&f);
		iohook_record_undo(&undo);
	}
	rcu_read_unlock();
	return ret;
}

/*
 * The slow halves of the entry points below, out of line so that a
 * filter miss sets nothing up: the hardware description and the
 * lookup's state exist only here.
 */
/*
 * Past the inline filter: translate (a page-table walk for the fixmap,
 * or for an ioremap() page that maps something overridden), ask the
 * physical filter, and emulate. noinstr like the entry points, with the
 * instrumentable part inside.
 */
static noinline noinstr u64 iohook_mem_read_full(const void __iomem *addr,
						 unsigned int width,
						 unsigned long caller)
{
	struct iohook_hw hw = {
		.read = iohook_hw_mem_read, .write = iohook_hw_mem_write,
		.at = (uintptr_t)addr,
	};
	u64 phys, val;

	if (!iohook_cpu_usable())
		return iohook_raw_mem_read(hw.at, width);
	instrumentation_begin();
	phys = iohook_mmio_phys(addr, width);
	if (phys == IOHOOK_NO_PHYS ||
	    !iohook_store_may_cover(IOHOOK_SPACE_MEM, phys, width) ||
	    iohook_read(IOHOOK_SPACE_MEM, phys, width, &hw, &val, caller))
		val = iohook_raw_mem_read(hw.at, width);
	instrumentation_end();
	return val;
}

static noinline noinstr void iohook_mem_write_full(u64 val,
						   void __iomem *addr,
						   unsigned int width,
						   unsigned long caller)
{
	struct iohook_hw hw = {
		.read = iohook_hw_mem_read, .write = iohook_hw_mem_write,
		.at = (uintptr_t)addr,
	};
	u64 phys;

	if (!iohook_cpu_usable()) {
		iohook_raw_mem_write(val, hw.at, width);
		return;
	}
	instrumentation_begin();
	phys = iohook_mmio_phys(addr, width);
	if (phys == IOHOOK_NO_PHYS ||
	    !iohook_store_may_cover(IOHOOK_SPACE_MEM, phys, width))
		iohook_raw_mem_write(val, hw.at, width);
	else
		iohook_write(IOHOOK_SPACE_MEM, phys, width, &hw, val, caller);
	instrumentation_end();
}

static noinline u64 iohook_io_read_slow(u16 port, unsigned int width,
					unsigned long caller)
{
	struct iohook_hw hw = {
		.read = iohook_hw_io_read, .write = iohook_hw_io_write,
		.at = port,
	};
	u64 val;

	iohook_read(IOHOOK_SPACE_IO, port, width, &hw, &val, caller);
	return val;
}

static noinline void iohook_io_write_slow(u32 val, u16 port,
					  unsigned int width,
					  unsigned long caller)
{
	struct iohook_hw hw = {
		.read = iohook_hw_io_read, .write = iohook_hw_io_write,
		.at = port,
	};

	iohook_write(IOHOOK_SPACE_IO, port, width, &hw, val, caller);
}

static noinline int iohook_pci_read_slow(struct pci_bus *bus,
					 unsigned int devfn, int pos, int len,
					 u64 key, u32 *val,
					 unsigned long caller)
{
	struct iohook_hw hw = {
		.read = iohook_hw_cfg_read, .write = iohook_hw_cfg_write,
		.cfg = { .bus = bus, .devfn = devfn, .pos = pos },
	};
	u64 v = 0;
	int ret;

	ret = iohook_read(IOHOOK_SPACE_PCI, key, len, &hw, &v, caller);
	*val = v;
	return ret;
}

static noinline int iohook_pci_write_slow(struct pci_bus *bus,
					  unsigned int devfn, int pos,
					  int len, u64 key, u32 val,
					  unsigned long caller)
{
	struct iohook_hw hw = {
		.read = iohook_hw_cfg_read, .write = iohook_hw_cfg_write,
		.cfg = { .bus = bus, .devfn = devfn, .pos = pos },
	};

	return iohook_write(IOHOOK_SPACE_PCI, key, len, &hw, val, caller);
}

/*
 * The entry points <linux/iohook_access.h> declares, one per width, so
 * that an accessor site passes no width. Each is noinstr, because the
 * idle loop reaches them from its own noinstr code (the HPET under the
 * tick broadcast, the ACPI C-state port and the PM timer): nothing here
 * may be traced before the RCU check. Only called while the space's key
 * is on.
 */

/**
 * IOHOOK_MEM_READ() - define iohook_<name>(), the slow path of <name>()
 * @name: the accessor: readb, readw, readl or readq
 * @val_t: what it reads, u8 to u64
 *
 * iohook_readl(addr) returns what readl(addr) reads, and so on. A miss
 * in the virtual filter (mmio.h) goes straight to the hardware with one
 * conditional branch: that is the cost every MMIO access in the kernel
 * pays while a memory override is armed.
 */
#define IOHOOK_MEM_READ(name, val_t)					\
noinstr val_t iohook_##name(const void __iomem *addr)			\
{									\
	if (likely(iohook_mmio_miss(addr)))				\
		return name(addr);					\
	return iohook_mem_read_full(addr, sizeof(val_t), _RET_IP_);	\
}

/**
 * IOHOOK_MEM_WRITE() - define iohook_<name>(), the slow path of <name>()
 * @name: the accessor: writeb, writew, writel or writeq
 * @val_t: what it writes, u8 to u64
 *
 * iohook_writel(val, addr) does what writel(val, addr) does, and so on;
 * a miss costs what it costs IOHOOK_MEM_READ()'s functions.
 */
#define IOHOOK_MEM_WRITE(name, val_t)					\
noinstr void iohook_##name(val_t val, void __iomem *addr)		\
{									\
	if (likely(iohook_mmio_miss(addr)))				\
		name(val, addr);					\
	else								\
		iohook_mem_write_full(val, addr, sizeof(val_t), _RET_IP_); \
}

/*
 * The body of iohook_inb() to iohook_outl(): a port no override can
 * cover (the physical filter) goes straight to the hardware. @width is a
 * constant in each, so iohook_raw_io_*() folds to the one instruction.
 */
static __always_inline u32 iohook_io_read_entry(u16 port, unsigned int width,
						unsigned long caller)
{
	u64 val;

	if (!iohook_store_may_cover(IOHOOK_SPACE_IO, port, width) ||
	    !iohook_cpu_usable())
		return iohook_raw_io_read(port, width);
	instrumentation_begin();
	val = iohook_io_read_slow(port, width, caller);
	instrumentation_end();
	return val;
}

static __always_inline void iohook_io_write_entry(u32 val, u16 port,
						  unsigned int width,
						  unsigned long caller)
{
	if (!iohook_store_may_cover(IOHOOK_SPACE_IO, port, width) ||
	    !iohook_cpu_usable()) {
		iohook_raw_io_write(val, port, width);
		return;
	}
	instrumentation_begin();
	iohook_io_write_slow(val, port, width, caller);
	instrumentation_end();
}

/**
 * IOHOOK_IO_READ() - define iohook_<name>(), the slow path of <name>()
 * @name: the accessor: inb, inw or inl
 * @val_t: what it reads, u8 to u32
 *
 * iohook_inb(port) returns what inb(port) reads, and so on.
 */
#define IOHOOK_IO_READ(name, val_t)					\
noinstr val_t iohook_##name(u16 port)					\
{									\
	return iohook_io_read_entry(port, sizeof(val_t), _RET_IP_);	\
}

/**
 * IOHOOK_IO_WRITE() - define iohook_<name>(), the slow path of <name>()
 * @name: the accessor: outb, outw or outl
 * @val_t: what it writes, u8 to u32
 *
 * iohook_outb(val, port) does what outb(val, port) does, and so on.
 */
#define IOHOOK_IO_WRITE(name, val_t)					\
noinstr void iohook_##name(val_t val, u16 port)				\
{									\
	iohook_io_write_entry(val, port, sizeof(val_t), _RET_IP_);	\
}

IOHOOK_MEM_READ(readb, u8);
EXPORT_SYMBOL(iohook_readb);
IOHOOK_MEM_READ(readw, u16);
EXPORT_SYMBOL(iohook_readw);
IOHOOK_MEM_READ(readl, u32);
EXPORT_SYMBOL(iohook_readl);
IOHOOK_MEM_READ(readq, u64);
EXPORT_SYMBOL(iohook_readq);
IOHOOK_MEM_WRITE(writeb, u8);
EXPORT_SYMBOL(iohook_writeb);
IOHOOK_MEM_WRITE(writew, u16);
EXPORT_SYMBOL(iohook_writew);
IOHOOK_MEM_WRITE(writel, u32);
EXPORT_SYMBOL(iohook_writel);
IOHOOK_MEM_WRITE(writeq, u64);
EXPORT_SYMBOL(iohook_writeq);
IOHOOK_IO_READ(inb, u8);
EXPORT_SYMBOL(iohook_inb);
IOHOOK_IO_READ(inw, u16);
EXPORT_SYMBOL(iohook_inw);
IOHOOK_IO_READ(inl, u32);
EXPORT_SYMBOL(iohook_inl);
IOHOOK_IO_WRITE(outb, u8);
EXPORT_SYMBOL(iohook_outb);
IOHOOK_IO_WRITE(outw, u16);
EXPORT_SYMBOL(iohook_outw);
IOHOOK_IO_WRITE(outl, u32);
EXPORT_SYMBOL(iohook_outl);

/* Offsets a function's config space does not have never alias into it. */
static bool iohook_pci_in_range(int pos, int len)
{
	return pos >= 0 && pos + len <= IOHOOK_PCI_CFG_MAX + 1;
}

/**
 * iohook_pci_read() - slow path of the PCI config read accessors
 * @bus: the bus
 * @devfn: device and function
 * @pos: offset in config space
 * @len: 1, 2 or 4
 * @val: where to store the value read
 *
 * Called from drivers/pci/access.c only while the config key is on, in
 * any context: pci_user_*() hold pci_lock with interrupts off, and so do
 * pci_bus_*_config_*() except on x86, whose PCI_LOCKLESS_CONFIG calls
 * them without any lock. An offset outside 0 to 0xfff goes to the
 * hardware as it would without iohook.
 *
 * Return: a PCIBIOS_* code, as from bus->ops->read().
 */
int iohook_pci_read(struct pci_bus *bus, unsigned int devfn, int pos,
		    int len, u32 *val)
{
	u64 key;

	if (!iohook_pci_in_range(pos, len))
		return bus->ops->read(bus, devfn, pos, len, val);
	key = iohook_pci_addr(pci_domain_nr(bus), bus->number, devfn, pos);
	if (!iohook_store_may_cover(IOHOOK_SPACE_PCI, key, len) ||
	    !iohook_cpu_usable())
		return bus->ops->read(bus, devfn, pos, len, val);
	return iohook_pci_read_slow(bus, devfn, pos, len, key, val, _RET_IP_);
}

/**
 * iohook_pci_write() - slow path of the PCI config write accessors
 * @bus: the bus
 * @devfn: device and function
 * @pos: offset in config space
 * @len: 1, 2 or 4
 * @val: the value written
 *
 * As iohook_pci_read(). If the hardware write fails, no override changes.
 *
 * Return: a PCIBIOS_* code, as from bus->ops->write().
 */
int iohook_pci_write(struct pci_bus *bus, unsigned int devfn, int pos,
		     int len, u32 val)
{
	u64 key;

	if (!iohook_pci_in_range(pos, len))
		return bus->ops->write(bus, devfn, pos, len, val);
	key = iohook_pci_addr(pci_domain_nr(bus), bus->number, devfn, pos);
	if (!iohook_store_may_cover(IOHOOK_SPACE_PCI, key, len) ||
	    !iohook_cpu_usable())
		return bus->ops->write(bus, devfn, pos, len, val);
	return iohook_pci_write_slow(bus, devfn, pos, len, key, val, _RET_IP_);
}
