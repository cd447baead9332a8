/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What drivers/pci/iohook/{parse,emulate}.c and the headers they include
 * need from the kernel, for a userspace build of those files, unchanged,
 * under libFuzzer. Every <linux/...> and <asm/...> header they include is
 * a one-line file in this directory that includes this one. The number
 * parsing follows lib/kstrtox.c exactly: the parser's strictness is
 * part of what is fuzzed.
 */
#ifndef IOHOOK_FUZZ_SHIM_KERNEL_H
#define IOHOOK_FUZZ_SHIM_KERNEL_H

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/cdefs.h>	/* __always_inline */

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;

/* include/linux/kconfig.h: no CONFIG_ option is set here. */
#define __ARG_PLACEHOLDER_1	0,
#define __take_second_arg(__ignored, val, ...)	val
#define ____is_defined(arg1_or_junk)	__take_second_arg(arg1_or_junk 1, 0)
#define ___is_defined(val)	____is_defined(__ARG_PLACEHOLDER_##val)
#define IS_ENABLED(option)	___is_defined(option)
#define __iomem
#define __cold
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define U32_MAX			UINT32_MAX
#define BIT(n)			(1UL << (n))
#define GENMASK_ULL(high, low)	((~0ULL >> (63 - (high))) & (~0ULL << (low)))
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define min(a, b)		({ typeof(a) _a = (a); typeof(b) _b = (b); _a < _b ? _a : _b; })
#define max(a, b)		({ typeof(a) _a = (a); typeof(b) _b = (b); _a > _b ? _a : _b; })
#define PCI_DEVFN(slot, func)	((((slot) & 0x1f) << 3) | ((func) & 0x07))
#define DECLARE_STATIC_KEY_FALSE(name)	extern int name

static inline int hex_to_bin(unsigned char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch |= 0x20;	/* a letter's lower case; digits keep their value */
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

/*
 * lib/ctype.c classifies Latin-1: below 128 as the C locale, and 0xa0 (no-break
 * space) is a space; no byte above 127 is a digit.
 */
static inline int kshim_isspace(unsigned char c)
{
	return c < 128 ? isspace(c) : c == 0xa0;
}

static inline int kshim_isdigit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static inline int kshim_isxdigit(unsigned char c)
{
	return c < 128 && isxdigit(c);
}

#undef isspace
#undef isdigit
#undef isxdigit
#define isspace(c)	kshim_isspace((unsigned char)(c))
#define isdigit(c)	kshim_isdigit((unsigned char)(c))
#define isxdigit(c)	kshim_isxdigit((unsigned char)(c))

/* lib/string_helpers.c */
static inline int match_string(const char * const *array, size_t n,
			       const char *string)
{
	size_t index;

	for (index = 0; index < n; index++) {
		if (!array[index])
			break;
		if (!strcmp(array[index], string))
			return index;
	}
	return -EINVAL;
}

/* lib/kstrtox.c: _parse_integer_fixup_radix(), _parse_integer_limit(). */
static inline int kstrtoull(const char *s, unsigned int base,
			    unsigned long long *res)
{
	unsigned long long rv = 0;
	bool overflow = false;
	unsigned int n = 0;

	if (s[0] == '+')
		s++;
	if (base == 16 && s[0] == '0' && (s[1] | 0x20) == 'x')
		s += 2;
	for (;; s++, n++) {
		int val = hex_to_bin(*s);

		if (val < 0 || (unsigned int)val >= base)
			break;
		if (rv > (ULLONG_MAX - val) / base)
			overflow = true;
		rv = rv * base + val;
	}
	if (!n)
		return -EINVAL;
	if (overflow)
		return -ERANGE;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = rv;
	return 0;
}

static inline int kstrtou64(const char *s, unsigned int base, u64 *res)
{
	unsigned long long v;
	int ret = kstrtoull(s, base, &v);

	if (!ret)
		*res = v;
	return ret;
}

static inline int kstrtouint(const char *s, unsigned int base, unsigned int *res)
{
	unsigned long long v;
	int ret = kstrtoull(s, base, &v);

	if (ret)
		return ret;
	if (v > UINT_MAX)
		return -ERANGE;
	*res = v;
	return 0;
}

#endif
