/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timed loop and the raw readl() of both benchmark modules,
 * iohook_bench.c and iohook_detour_probe.c, so that their raw figures are
 * the same code's.
 * Each includer defines its own struct target with an addr member.
 */
#ifndef _IOHOOK_BENCH_LOOP_H
#define _IOHOOK_BENCH_LOOP_H

#include <linux/compiler.h>
#include <linux/types.h>

/*
 * One loop function per operation, so that every variant gets the same
 * loop and the same code layout (a shared switch would let one variant
 * run on into the loop's tail while the other jumps to it). The
 * address is loaded from @t each time, as a driver loads it from its
 * private data. @where may place the function in a section of its own.
 */
#define BENCH_LOOP_IN(name, where, expr)				\
static noinline where u64 loop_##name(const struct target *t,		\
				      unsigned long iters)		\
{									\
	unsigned long i;						\
	u64 acc = 0;							\
	u32 v = 0;							\
									\
	for (i = 0; i < iters; i++) {					\
		expr;							\
		acc += v;						\
	}								\
	return acc;							\
}

#define BENCH_ANYWHERE
#define BENCH_LOOP(name, expr)	BENCH_LOOP_IN(name, BENCH_ANYWHERE, expr)

/* The access instruction alone, as <asm/io.h> emits it without iohook. */
static __always_inline u32 raw_readl(const volatile void __iomem *addr)
{
	u32 ret;

	asm volatile("movl %1,%0" : "=r"(ret)
		     : "m" (*(volatile u32 __force *)addr) : "memory");
	return ret;
}

#endif
