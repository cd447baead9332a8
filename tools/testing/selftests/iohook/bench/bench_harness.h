/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What both benchmark modules, iohook_bench.c and iohook_detour_probe.c,
 * measure with: the timed loop, the raw readl(), the timing and the
 * report, so that their figures come from the same code. Each includer
 * defines its own struct target, with an addr member.
 *
 * Results are printed as "MODULE: RESULT name median min max" lines, in
 * nanoseconds per operation, over IOHOOK_BENCH_REPS repetitions.
 */
#ifndef _IOHOOK_BENCH_HARNESS_H
#define _IOHOOK_BENCH_HARNESS_H

#include <linux/compiler.h>
#include <linux/irqflags.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/printk.h>
#include <linux/sort.h>
#include <linux/types.h>

/*
 * 15, not 7: on a shared host, bursts of slowdown last several
 * repetitions; the median of 15 survives up to 7 disturbed ones.
 */
#define IOHOOK_BENCH_REPS	15

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

struct target;
typedef u64 (*bench_loop_fn)(const struct target *t, unsigned long iters);

/* Keeps each loop's result, so that the compiler keeps the loop. */
static volatile u64 bench_sink;

/* Time @iters operations with interrupts off; ns * 1000 per op. */
static inline u64 bench_time(bench_loop_fn loop, const struct target *t,
			     unsigned long iters)
{
	unsigned long flags;
	u64 start, end;

	local_irq_save(flags);
	start = ktime_get_ns();
	bench_sink = loop(t, iters);
	end = ktime_get_ns();
	local_irq_restore(flags);
	return div64_u64((end - start) * 1000, iters);
}

/* Enough iterations of @loop for about 10 ms per repetition. */
static inline unsigned long bench_iters(bench_loop_fn loop,
					const struct target *t)
{
	u64 ps = max_t(u64, bench_time(loop, t, 200), 1);

	return clamp_t(u64, 10000000000ULL / ps, 200, 2000000);
}

static inline int bench_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Sort the repetitions @v of @name and print their median, min and max. */
static inline void bench_report(const char *name, u64 *v)
{
	sort(v, IOHOOK_BENCH_REPS, sizeof(*v), bench_cmp_u64, NULL);
	pr_info(KBUILD_MODNAME ": RESULT %s %llu.%03llu %llu.%03llu %llu.%03llu\n",
		name, v[IOHOOK_BENCH_REPS / 2] / 1000,
		v[IOHOOK_BENCH_REPS / 2] % 1000, v[0] / 1000, v[0] % 1000,
		v[IOHOOK_BENCH_REPS - 1] / 1000, v[IOHOOK_BENCH_REPS - 1] % 1000);
}

#endif
