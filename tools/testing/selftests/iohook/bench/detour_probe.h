/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hand-written MMIO detours for "make bench-probe".
 *
 * The MMIO miss targets (Documentation/PCI/iohook-benchmarks.rst) are set
 * in emulated time, where a call and a return cost more than the work
 * between them. Before a site table, a detour generator and text
 * patching are built, iohook_detour_probe.ko measures the code such a
 * generator would emit, written here by hand, in the same boot as the
 * raw instruction and today's hooked accessor:
 *
 *   site:   jmp detour          (a 5-byte NOP while nothing is armed)
 *   detour: the filter test on the access's address
 *           jnz hit             (never taken here: the filter is empty)
 *           the original mov
 *           jmp back to the site
 *
 * The shapes differ in how the detour gets its scratch register, how it
 * tests the fixmap (which the virtual filter does not cover, see
 * drivers/pci/iohook/mappings.c), and where it lies. Every detour is
 * emitted into subsection 1 of PROBE_NEAR, a page-aligned section smaller
 * than a page: a loop placed in PROBE_NEAR jumps within its own page, a
 * loop in PROBE_FAR (page-aligned too) jumps to another page. That is
 * what matters under TCG, which chains a direct jump to the next
 * translation block only within a page (translator_use_goto_tb()); across
 * pages every jump is a lookup. A detour generated at arm time would lie
 * in module memory, far from every site.
 *
 * The filter is a zeroed table of the virtual filter's size
 * (probe_filter, in iohook_detour_probe.c). The hash is the one a detour
 * would use, with a 32-bit multiplier that fits an imul immediate,
 * except where a shape says otherwise.
 */
#ifndef _IOHOOK_DETOUR_PROBE_H
#define _IOHOOK_DETOUR_PROBE_H

#include <linux/linkage.h>
#include <linux/types.h>

#define PROBE_FILTER_BITS	12	/* IOHOOK_FILTER_BITS */

/* Both referenced by name from the detours' assembly. */
extern u32 probe_filter[1 << PROBE_FILTER_BITS];
extern const u64 probe_golden;

/* The operands every detour shares. */
#define DETOUR_CONSTS							\
	[fix] "i" ((long)FIXADDR_START), [ps] "i" (PAGE_SHIFT),	\
	[hs] "i" (64 - PROBE_FILTER_BITS)

#define PROBE_NEAR	".text.probe_near"
#define PROBE_FAR	".text.probe_far"

/* The site: jump to a detour that ends by jumping back to label 2. */
#define DETOUR_START	"jmp 3f\n2:\n.pushsection " PROBE_NEAR ", 1, \"ax\"\n3:\n"
/*
 * The bucket of the page of address operand %[a], into the destination
 * (%0): the hash a detour would use, its multiplier an imul immediate.
 */
#define DETOUR_HASH							\
	"lea (%[a]),%q0\n"						\
	"shr %[ps],%q0\n"						\
	"imul $0x61c88647,%q0,%q0\n"					\
	"shr %[hs],%q0\n"

/* Label 4 stands for the hit path, which the empty filter never takes. */
#define DETOUR_END	"jnz 4f\n"
#define DETOUR_BACK	"jmp 2b\n4: ud2\n.popsection\n"

/*
 * One pushed scratch register, hash_64()'s 64-bit multiplier from memory,
 * and the fixmap test folded into the count with sbb (as
 * iohook_mmio_maybe() folds it today). The count goes to the read's
 * destination, dead until the mov: the site's output is early-clobber,
 * so it is never part of the address.
 */
static __always_inline u32 push1_readl(const volatile void __iomem *addr)
{
	u32 ret;

	asm volatile(DETOUR_START
		     "push %%rcx\n"
		     "lea %1,%%rcx\n"
		     "cmp %[fix],%%rcx\n sbb %k0,%k0\n not %k0\n"
		     "shr %[ps],%%rcx\n"
		     "imul probe_golden(%%rip),%%rcx\n"
		     "shr %[hs],%%rcx\n"
		     "or probe_filter(,%%rcx,4),%k0\n"
		     "pop %%rcx\n"
		     DETOUR_END "movl %1,%0\n" DETOUR_BACK
		     : "=&r" (ret)
		     : "m" (*(volatile u32 __force *)addr), DETOUR_CONSTS
		     : "memory");
	return ret;
}

/*
 * The detours without a push: the read's destination (%0, *@val) is the
 * only scratch; @test leaves the flags "not zero" to take the hit path.
 */
#define DETOUR_READL(name, test)					\
static __always_inline void name(const volatile void __iomem *addr,	\
				 u32 *val)				\
{									\
	asm volatile(DETOUR_START test					\
		     DETOUR_END "movl (%[a]),%0\n" DETOUR_BACK		\
		     : "=&r" (*val) : [a] "r" (addr), DETOUR_CONSTS	\
		     : "memory");					\
}

/* The fixmap test added into the count with the carry. */
DETOUR_READL(carry_readl,
	     DETOUR_HASH
	     "mov probe_filter(,%q0,4),%k0\n"
	     "cmp %[fix],%[a]\n cmc\n adc $0,%k0\n")

/* The fixmap test as a branch of its own, before the filter. */
DETOUR_READL(branch_readl,
	     "cmp %[fix],%[a]\n jae 4f\n"
	     DETOUR_HASH
	     "cmpl $0,probe_filter(,%q0,4)\n")

/* No fixmap test: the floor of any detour. */
DETOUR_READL(nofix_readl,
	     DETOUR_HASH
	     "cmpl $0,probe_filter(,%q0,4)\n")

/* A write has no dead register: one push; the fixmap as a branch. */
static __always_inline void branch_writel(u32 val, volatile void __iomem *addr)
{
	asm volatile(DETOUR_START
		     "push %%rax\n"
		     "lea %1,%%rax\n"
		     "cmp %[fix],%%rax\n jae 5f\n"
		     "shr %[ps],%%rax\n"
		     "imul $0x61c88647,%%rax,%%rax\n"
		     "shr %[hs],%%rax\n"
		     "cmpl $0,probe_filter(,%%rax,4)\n"
		     "pop %%rax\n"
		     DETOUR_END "movl %0,%1\n"
		     "jmp 2b\n"
		     "5: pop %%rax\n"	/* the fixmap: to the hit path */
		     "4: ud2\n.popsection\n"
		     : : "r" (val), "m" (*(volatile u32 __force *)addr),
		       DETOUR_CONSTS
		     : "memory");
}

/*
 * A shared routine reached by call and left by ret, the filter test and
 * the access in it: what a call costs against a detour. It lies far from
 * its callers, as a shared routine does from most sites.
 */
asm(".pushsection " PROBE_FAR ", 1, \"ax\"\n"
	".type probe_readl_thunk, @function\n"
	"probe_readl_thunk:\n"
	"push %rcx\n"
	"mov %rdi,%rcx\n"
	"shr $12,%rcx\n"
	"imul probe_golden(%rip),%rcx\n"
	"shr $52,%rcx\n"
	"mov probe_filter(,%rcx,4),%eax\n"
	"pop %rcx\n"
	"test %eax,%eax\n"
	"jnz 1f\n"
	"movl (%rdi),%eax\n"
	ASM_RET
	"1: ud2\n"
	".size probe_readl_thunk, . - probe_readl_thunk\n"
	".popsection\n");

static __always_inline u32 thunk_readl(const volatile void __iomem *addr)
{
	u32 ret;

	asm volatile("call probe_readl_thunk" : "=a" (ret) : "D" (addr)
		     : "memory");
	return ret;
}

#endif
