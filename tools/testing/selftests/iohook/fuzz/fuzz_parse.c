// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_parse - libFuzzer target for drivers/pci/iohook/parse.c, built
 * unchanged for userspace (see shim/kernel.h).
 *
 * The input is what a user writes to an "add" or "remove" file. It is
 * split into entries the way the sysfs layer splits it, and each entry
 * is parsed as an override and as a name. Checked, besides ASan and
 * UBSan:
 * - the only errors are -EINVAL and -ERANGE (-EINVAL only for names);
 * - an accepted entry is well formed: a length of at least 1 that fits
 *   in 32 bits, a known attribute, BAR 0-5, device 0-31 and function
 *   0-7, a non-zero selector width and mask, a probability with a
 *   non-zero denominator, a seed only with a probability;
 * - no sign anywhere: an accepted entry holds no '-', and '+' only
 *   right after "barN" or a PCI function;
 * - printed back in canonical form, an accepted entry parses to exactly
 *   the same fields (so the parser has one meaning per text).
 */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "parse.h"

static int print_location(char *buf, size_t len,
			  const struct iohook_location *l)
{
	switch (l->kind) {
	case IOHOOK_LOC_BAR:
		return snprintf(buf, len, "bar%u+%llx", l->bar,
				(unsigned long long)l->offset);
	case IOHOOK_LOC_PCI:
		return snprintf(buf, len, "%04x:%02x:%02x.%x+%llx", l->domain,
				l->bus, l->devfn >> 3, l->devfn & 7,
				(unsigned long long)l->offset);
	default:
		return snprintf(buf, len, "%llx", (unsigned long long)l->offset);
	}
}

static void check_location(const struct iohook_location *l)
{
	CHECK(l->kind <= IOHOOK_LOC_PCI);
	CHECK(l->bar <= 5);
	CHECK(l->kind == IOHOOK_LOC_BAR || l->bar == 0);
}

/* No '-' at all; '+' only after "barN" or the function of a PCI name. */
static void check_no_sign(const char *s)
{
	const char *p;

	CHECK(!strchr(s, '-'));
	for (p = strchr(s, '+'); p; p = strchr(p + 1, '+')) {
		bool bar = p - s >= 4 && !strncmp(p - 4, "bar", 3);
		bool pci = p - s >= 2 && p[-2] == '.';

		CHECK(bar || pci);
	}
}

static void canonical(char *buf, size_t len, const struct iohook_entry *e)
{
	size_t n = print_location(buf, len, &e->loc);

	n += snprintf(buf + n, len - n, " %x %llx %llx %s", e->len,
		      (unsigned long long)e->value,
		      (unsigned long long)e->mask, iohook_attr_names[e->attr]);
	if (e->has_cond) {
		n += snprintf(buf + n, len - n, " sel=");
		n += print_location(buf + n, len - n, &e->sel_loc);
		n += snprintf(buf + n, len - n, ":%llx",
			      (unsigned long long)e->sel_width);
		if (e->sel_mask)
			n += snprintf(buf + n, len - n, "&%llx",
				      (unsigned long long)e->sel_mask);
		n += snprintf(buf + n, len - n, "=%llx",
			      (unsigned long long)e->cond_value);
	}
	if (e->policy.skip)
		n += snprintf(buf + n, len - n, " skip=%llu",
			      (unsigned long long)e->policy.skip);
	if (e->policy.count)
		n += snprintf(buf + n, len - n, " count=%llu",
			      (unsigned long long)e->policy.count);
	if (e->policy.prob_den)
		n += snprintf(buf + n, len - n, " prob=%u/%u seed=0x%llx",
			      e->policy.prob_num, e->policy.prob_den,
			      (unsigned long long)e->policy.seed);
}

static void one_entry(const char *text)
{
	char *copy = strdup(text), again[512];
	struct iohook_entry e, e2;
	struct iohook_location loc, loc2;
	bool has_when;
	u64 when;
	int ret;

	ret = iohook_parse_entry(copy, &e);
	CHECK(ret == 0 || ret == -EINVAL || ret == -ERANGE);
	if (!ret) {
		check_no_sign(text);
		check_location(&e.loc);
		CHECK(e.len >= 1);
		CHECK(e.attr < IOHOOK_NR_ATTRS);
		CHECK(!e.has_cond || (e.sel_width && e.sel_loc.kind == e.sel_loc.kind));
		if (e.has_cond)
			check_location(&e.sel_loc);
		CHECK(!e.policy.prob_num || e.policy.prob_den);
		CHECK(!e.policy.seed || e.policy.prob_den);
		canonical(again, sizeof(again), &e);
		CHECK(!iohook_parse_entry(again, &e2));
		CHECK(!memcmp(&e, &e2, sizeof(e)));
	}
	free(copy);

	copy = strdup(text);
	ret = iohook_parse_name(copy, &loc, &has_when, &when);
	CHECK(ret == 0 || ret == -EINVAL);
	if (!ret) {
		check_no_sign(text);
		check_location(&loc);
		print_location(again, sizeof(again), &loc);
		CHECK(!iohook_parse_location(again, &loc2));
		CHECK(!memcmp(&loc, &loc2, sizeof(loc)));
	}
	free(copy);
}

/*
 * The integer files (armed, fire_irq): a number has one spelling, so an
 * accepted text is exactly the number's decimal form, with or without
 * one newline.
 */
static void one_integer(const char *text)
{
	char again[16];
	unsigned int v;

	if (iohook_parse_dec(text, &v))
		return;
	snprintf(again, sizeof(again), "%u", v);
	CHECK(!strcmp(text, again) ||
	      (!strncmp(text, again, strlen(again)) &&
	       !strcmp(text + strlen(again), "\n")));
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	char *buf = malloc(size + 1), *rest = buf, *line;

	memcpy(buf, data, size);
	buf[size] = '\0';
	one_integer(buf);
	/* As the "add" file splits a write (a NUL ends it early here). */
	while ((line = strsep(&rest, IOHOOK_ENTRY_SEPARATORS)))
		if (!iohook_blank(line))
			one_entry(line);
	free(buf);
	return 0;
}
