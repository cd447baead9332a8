/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The text format of an override entry, shared by every "add" and
 * "remove" file. Pure C with no sysfs in it.
 */
#ifndef _DRIVERS_PCI_IOHOOK_PARSE_H
#define _DRIVERS_PCI_IOHOOK_PARSE_H

#include <linux/iohook.h>

/* How the first token of an entry names a location. */
enum iohook_loc {
	IOHOOK_LOC_ADDR,	/* a hex number: offset, port or address */
	IOHOOK_LOC_BAR,		/* barN+OFFSET */
	IOHOOK_LOC_PCI,		/* DDDD:BB:DD.F+OFFSET */
};

struct iohook_location {
	enum iohook_loc kind;
	unsigned int bar;
	u32 domain;
	u8 bus;
	u8 devfn;
	u64 offset;		/* address, BAR offset or config offset */
};

/*
 * One parsed entry. The condition's selector is a location of the same
 * kind as the entry's own, resolved by the same "add" file.
 */
struct iohook_entry {
	struct iohook_location loc;
	u32 len;
	u64 value;
	u64 mask;
	enum iohook_attr attr;
	bool has_cond;
	struct iohook_location sel_loc;
	u64 sel_width;
	u64 sel_mask;		/* 0: the selector's whole width */
	u64 cond_value;
	struct iohook_policy policy;
};

/* Entries in one write are separated by newlines or ';'. */
#define IOHOOK_ENTRY_SEPARATORS	"\n;"

int iohook_parse_hex(const char *s, u64 *v);
int iohook_parse_dec(const char *s, unsigned int *v);
int iohook_parse_location(const char *tok, struct iohook_location *loc);
int iohook_parse_entry(char *line, struct iohook_entry *e);
int iohook_parse_name(char *tok, struct iohook_location *loc, bool *has_when,
		      u64 *when);
bool iohook_blank(const char *s);

/* The attributes' names, as the text format spells them. */
extern const char * const iohook_attr_names[IOHOOK_NR_ATTRS];

#endif
