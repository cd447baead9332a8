// SPDX-License-Identifier: GPL-2.0
/*
 * The text format of an override entry:
 *
 *	LOCATION LENGTH VALUE MASK ATTR
 *
 * LOCATION is a hex offset or address, "barN+OFFSET", or
 * "DDDD:BB:DD.F+OFFSET"; LENGTH, VALUE and MASK are hex ("0x" optional);
 * ATTR is one of ro, rw, rc, wc. Any malformed field, a missing one or
 * trailing garbage is -EINVAL. Range checks belong to the caller, which
 * knows the space.
 */
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/pci.h>
#include <linux/string.h>

#include "internal.h"
#include "parse.h"

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

static int parse_hex64(const char *s, u64 *v)
{
	return *s ? kstrtou64(s, 16, v) : -EINVAL;
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
	unsigned int domain, bus, dev, fn;
	const char *plus;
	char tail;
	int ret;

	memset(loc, 0, sizeof(*loc));
	plus = strchr(tok, '+');
	if (!plus) {
		loc->kind = IOHOOK_LOC_ADDR;
		return parse_hex64(tok, &loc->offset) ? -EINVAL : 0;
	}
	if (!strncmp(tok, "bar", 3)) {
		if (plus != tok + 4 || tok[3] < '0' || tok[3] > '5')
			return -EINVAL;
		loc->kind = IOHOOK_LOC_BAR;
		loc->bar = tok[3] - '0';
	} else {
		/* DDDD:BB:DD.F, exactly as the device's sysfs name */
		if (plus - tok != 12 ||
		    sscanf(tok, "%4x:%2x:%2x.%1x%c", &domain, &bus, &dev, &fn,
			   &tail) != 5 || tail != '+' ||
		    dev > 0x1f || fn > 7 ||
		    !isxdigit(tok[0]) || !isxdigit(tok[5]) ||
		    !isxdigit(tok[8]) || !isxdigit(tok[11]))
			return -EINVAL;
		loc->kind = IOHOOK_LOC_PCI;
		loc->domain = domain;
		loc->bus = bus;
		loc->devfn = PCI_DEVFN(dev, fn);
	}
	ret = parse_hex64(plus + 1, &loc->offset);
	return ret ? -EINVAL : 0;
}

/**
 * iohook_parse_entry() - parse one "LOCATION LENGTH VALUE MASK ATTR" entry
 * @line: the entry; modified (split into tokens)
 * @e: the parsed entry
 *
 * Return: 0, or -EINVAL for a malformed, incomplete or overlong entry or
 * an unknown attribute.
 */
int iohook_parse_entry(char *line, struct iohook_entry *e)
{
	char *tok[6];
	int n = 0, attr;
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
	if (n != 5)
		return -EINVAL;
	if (iohook_parse_location(tok[0], &e->loc) ||
	    parse_hex64(tok[1], &len) || !len || len > U32_MAX ||
	    parse_hex64(tok[2], &e->value) || parse_hex64(tok[3], &e->mask))
		return -EINVAL;
	attr = match_string(iohook_attr_names, IOHOOK_NR_ATTRS, tok[4]);
	if (attr < 0)
		return -EINVAL;
	e->len = len;
	e->attr = attr;
	return 0;
}
