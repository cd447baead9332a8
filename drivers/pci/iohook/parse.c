// SPDX-License-Identifier: GPL-2.0
/*
 * The text format of an override entry:
 *
 *	LOCATION LENGTH VALUE MASK ATTR [OPTION...]
 *
 * LOCATION is a hex offset or address, "barN+OFFSET", or
 * "DDDD:BB:DD.F+OFFSET"; LENGTH, VALUE and MASK are hex ("0x" optional);
 * ATTR is one of ro, rw, rc, wc. The options, each at most once:
 *
 *	sel=LOCATION:WIDTH[&MASK]=VALUE	a condition on a selector register
 *	skip=N count=N prob=N/D seed=S	fault policies
 *
 * The condition's numbers are hex like the register fields; the
 * policies' numbers are counts, decimal unless "0x". Any malformed field,
 * a missing one, an unknown or repeated option, count=0, seed without
 * prob, or trailing garbage is -EINVAL; prob=N/D with D = 0 is -ERANGE.
 * Other range checks belong to the caller, which knows the space.
 *
 * Every character is checked: a number is an optional "0x" and then hex
 * digits only (no sign, no blank), and a PCI address is exactly what the
 * kernel prints for a device (pci_name()): a domain of four or more hex
 * digits (VMD domains have five), two for the bus, two for the device,
 * one for the function. So a typo never names another location.
 */
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/pci.h>
#include <linux/string.h>

#include "parse.h"

const char * const iohook_attr_names[IOHOOK_NR_ATTRS] = {
	[IOHOOK_RO] = "ro",
	[IOHOOK_RW] = "rw",
	[IOHOOK_RC] = "rc",
	[IOHOOK_WC] = "wc",
};

/**
 * iohook_blank() - whether a string holds only white space
 * @s: the string
 *
 * Return: true for an empty or all-blank string.
 */
bool iohook_blank(const char *s)
{
	while (*s && isspace(*s))
		s++;
	return !*s;
}

/**
 * iohook_parse_hex() - parse a hex number, strictly
 * @s: the text: an optional "0x", hex digits, and at most a final newline
 * @v: the number
 *
 * Unlike kstrtou64(), no sign is accepted.
 *
 * Return: 0, or -EINVAL.
 */
int iohook_parse_hex(const char *s, u64 *v)
{
	const char *d = s;

	if (d[0] == '0' && (d[1] == 'x' || d[1] == 'X'))
		d += 2;
	if (!isxdigit(*d))
		return -EINVAL;
	return kstrtou64(s, 16, v) ? -EINVAL : 0;
}

/**
 * iohook_parse_dec() - parse a decimal number as the integer files take it
 * @s: the text: decimal digits, without a sign or a leading zero (but
 *     "0" itself), and at most a final newline
 * @v: the number
 *
 * Stricter than kstrtouint(), which takes "+1", "01" and, in base 0,
 * "010" as eight: a number has one spelling, so a typo is an error.
 *
 * Return: 0, or -EINVAL (also for a number above UINT_MAX).
 */
int iohook_parse_dec(const char *s, unsigned int *v)
{
	if (!isdigit(*s) || (s[0] == '0' && isdigit(s[1])))
		return -EINVAL;
	return kstrtouint(s, 10, v) ? -EINVAL : 0;
}

/*
 * Exactly @min to @max hex digits from *@s, then @sep; advances *@s past
 * @sep.
 */
static int parse_field(const char **s, unsigned int min, unsigned int max,
		       char sep, u32 *v)
{
	const char *p = *s;
	unsigned int n = 0;

	*v = 0;
	while (isxdigit(p[n])) {
		if (++n > max)
			return -EINVAL;
		*v = *v << 4 | hex_to_bin(p[n - 1]);
	}
	if (n < min || p[n] != sep)
		return -EINVAL;
	*s = p + n + 1;
	return 0;
}

/* DDDD:BB:DD.F+ as pci_name() prints it; *@s is left after the '+'. */
static int parse_pci_name(const char **s, struct iohook_location *loc)
{
	u32 domain, bus, dev, fn;

	if (parse_field(s, 4, 8, ':', &domain) ||
	    parse_field(s, 2, 2, ':', &bus) ||
	    parse_field(s, 2, 2, '.', &dev) ||
	    parse_field(s, 1, 1, '+', &fn) ||
	    dev > 0x1f || fn > 7)
		return -EINVAL;
	loc->domain = domain;
	loc->bus = bus;
	loc->devfn = PCI_DEVFN(dev, fn);
	return 0;
}

/**
 * iohook_parse_location() - parse the first token of an entry
 * @tok: the token, without white space
 * @loc: the parsed location
 *
 * Return: 0, or -EINVAL if @tok is malformed (including a BAR number
 * other than 0 to 5).
 */
int iohook_parse_location(const char *tok, struct iohook_location *loc)
{
	const char *off;

	memset(loc, 0, sizeof(*loc));
	if (!strchr(tok, '+')) {
		loc->kind = IOHOOK_LOC_ADDR;
		return iohook_parse_hex(tok, &loc->offset);
	}
	if (!strncmp(tok, "bar", 3)) {
		if (tok[3] < '0' || tok[3] > '5' || tok[4] != '+')
			return -EINVAL;
		loc->kind = IOHOOK_LOC_BAR;
		loc->bar = tok[3] - '0';
		off = tok + 5;
	} else {
		off = tok;
		if (parse_pci_name(&off, loc))
			return -EINVAL;
		loc->kind = IOHOOK_LOC_PCI;
	}
	return iohook_parse_hex(off, &loc->offset);
}

/* A count: decimal, or hex after "0x"; digits only. */
static int parse_count(const char *s, u64 *v)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return iohook_parse_hex(s, v);
	if (!isdigit(*s))
		return -EINVAL;
	return kstrtou64(s, 10, v) ? -EINVAL : 0;
}

/* "LOCATION:WIDTH[&MASK]=VALUE", parsed from the right. */
static int parse_cond(char *s, struct iohook_entry *e)
{
	char *eq = strrchr(s, '='), *amp, *colon;

	if (!eq)
		return -EINVAL;
	*eq = '\0';
	amp = strrchr(s, '&');
	if (amp) {
		*amp = '\0';
		if (iohook_parse_hex(amp + 1, &e->sel_mask) || !e->sel_mask)
			return -EINVAL;
	}
	colon = strrchr(s, ':');
	if (!colon)
		return -EINVAL;
	*colon = '\0';
	if (iohook_parse_hex(colon + 1, &e->sel_width) || !e->sel_width ||
	    iohook_parse_hex(eq + 1, &e->cond_value) ||
	    iohook_parse_location(s, &e->sel_loc))
		return -EINVAL;
	e->has_cond = true;
	return 0;
}

static int parse_prob(char *s, struct iohook_policy *p)
{
	char *slash = strchr(s, '/');
	u64 num, den;

	if (!slash)
		return -EINVAL;
	*slash = '\0';
	if (parse_count(s, &num) || parse_count(slash + 1, &den) ||
	    num > U32_MAX || den > U32_MAX)
		return -EINVAL;
	if (!den)
		return -ERANGE;
	p->prob_num = num;
	p->prob_den = den;
	return 0;
}

enum { OPT_SEL, OPT_SKIP, OPT_COUNT, OPT_PROB, OPT_SEED, NR_OPTS };
static const char * const iohook_opt_names[NR_OPTS] = {
	[OPT_SEL] = "sel", [OPT_SKIP] = "skip", [OPT_COUNT] = "count",
	[OPT_PROB] = "prob", [OPT_SEED] = "seed",
};

/* One "key=value" option; @seen holds the keys given so far. */
static int parse_option(char *tok, struct iohook_entry *e, unsigned int *seen)
{
	char *val = strchr(tok, '=');
	int opt;

	if (!val)
		return -EINVAL;
	*val++ = '\0';
	opt = match_string(iohook_opt_names, NR_OPTS, tok);
	if (opt < 0 || *seen & BIT(opt))
		return -EINVAL;
	*seen |= BIT(opt);
	switch (opt) {
	case OPT_SEL:
		return parse_cond(val, e);
	case OPT_SKIP:
		return parse_count(val, &e->policy.skip);
	case OPT_COUNT:
		if (parse_count(val, &e->policy.count) || !e->policy.count)
			return -EINVAL;
		return 0;
	case OPT_PROB:
		return parse_prob(val, &e->policy);
	default:
		return parse_count(val, &e->policy.seed);
	}
}

/* Room for the five fields, every option, and one token too many. */
#define IOHOOK_MAX_TOKENS	(5 + NR_OPTS + 1)

/**
 * iohook_parse_entry() - parse one "LOCATION LENGTH VALUE MASK ATTR
 *			  [OPTION...]" entry
 * @line: the entry; modified (split into tokens)
 * @e: the parsed entry
 *
 * Return: 0; -EINVAL for a malformed, incomplete or overlong entry, an
 * unknown attribute or option, or an option given twice; -ERANGE for a
 * probability with a zero denominator.
 */
int iohook_parse_entry(char *line, struct iohook_entry *e)
{
	char *tok[IOHOOK_MAX_TOKENS];
	unsigned int seen = 0;
	int n = 0, i, attr, ret;
	u64 len;

	memset(e, 0, sizeof(*e));
	while (n < ARRAY_SIZE(tok)) {
		char *t;

		do {
			t = strsep(&line, " \t\r");
		} while (t && !*t);
		if (!t)
			break;
		tok[n++] = t;
	}
	if (n < 5 || n == ARRAY_SIZE(tok))
		return -EINVAL;
	if (iohook_parse_location(tok[0], &e->loc) ||
	    iohook_parse_hex(tok[1], &len) || !len || len > U32_MAX ||
	    iohook_parse_hex(tok[2], &e->value) || iohook_parse_hex(tok[3], &e->mask))
		return -EINVAL;
	attr = match_string(iohook_attr_names, IOHOOK_NR_ATTRS, tok[4]);
	if (attr < 0)
		return -EINVAL;
	e->len = len;
	e->attr = attr;
	for (i = 5; i < n; i++) {
		ret = parse_option(tok[i], e, &seen);
		if (ret)
			return ret;
	}
	if (seen & BIT(OPT_SEED) && !(seen & BIT(OPT_PROB)))
		return -EINVAL;
	return 0;
}

/**
 * iohook_parse_name() - parse what a "remove" file takes
 * @tok: "LOCATION" or "LOCATION@VALUE" (one conditional override);
 *       modified
 * @loc: the location
 * @has_when: whether a condition value was given
 * @when: the condition value
 *
 * Return: 0, or -EINVAL.
 */
int iohook_parse_name(char *tok, struct iohook_location *loc, bool *has_when,
		      u64 *when)
{
	char *at = strchr(tok, '@');

	*has_when = at;
	if (at) {
		*at = '\0';
		if (iohook_parse_hex(at + 1, when))
			return -EINVAL;
	}
	return iohook_parse_location(tok, loc);
}
