// SPDX-License-Identifier: GPL-2.0
/*
 * list and status: read back every override from the three global
 * spaces (each override is listed in exactly one of them, whoever added
 * it), with the device it lies in, its behaviour and policy state.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iohook.h"

static const char *const spaces[] = { "io", "mem", "pciconf" };

/* The PCI device whose BAR of kind @io holds @addr ("-" if none). */
static void bar_owner(unsigned long long addr, bool io, char *buf, size_t len)
{
	unsigned long long start, end, flags;
	char path[300], line[128];
	struct dirent *e;
	DIR *dir;
	FILE *f;

	snprintf(buf, len, "-");
	dir = opendir(PCI_DEVS);
	while (dir && (e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), PCI_DEVS "/%s/resource", e->d_name);
		f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f)) {
			if (sscanf(line, "%llx %llx %llx", &start, &end, &flags) != 3 ||
			    !end || !!(flags & 0x100) != io || addr < start || addr > end)
				continue;
			snprintf(buf, len, "%.15s", e->d_name);
		}
		if (f)
			fclose(f);
	}
	if (dir)
		closedir(dir);
}

struct ovr_view {
	char space[8], name[80], device[16];
	char length[16], mask[24], value[24], attr[4], hits[24];
	char condition[96], recorded[24], policy[96];
	char seen[24], applied[24], exhausted[4];
};

static void read_field(const char *dir, const char *name, const char *file,
		       char *buf, size_t len)
{
	char path[400];

	snprintf(path, sizeof(path), "%s/%s/%s", dir, name, file);
	if (abi_read(path, buf, len) < 0)
		snprintf(buf, len, "?");
}

static void view_read(const char *space, const char *name, struct ovr_view *v)
{
	char dir[128];

	memset(v, 0, sizeof(*v));
	snprintf(v->space, sizeof(v->space), "%s", space);
	snprintf(v->name, sizeof(v->name), "%.79s", name);
	snprintf(dir, sizeof(dir), IOHOOK_SYS "/%s", space);
#define F(field) read_field(dir, name, #field, v->field, sizeof(v->field))
	F(length); F(mask); F(value); F(attr); F(hits); F(condition);
	F(recorded); F(policy); F(seen); F(applied); F(exhausted);
#undef F
	if (!strcmp(space, "pciconf"))
		snprintf(v->device, sizeof(v->device), "%.*s",
			 (int)strcspn(name, "+"), name);
	else
		bar_owner(strtoull(name, NULL, 16), !strcmp(space, "io"),
			  v->device, sizeof(v->device));
}

static void view_print(const struct ovr_view *v, bool first)
{
	if (opt.json) {
		printf("%s\n  {\"space\": \"%s\", \"name\": \"%s\", \"device\": \"%s\", "
		       "\"length\": \"%s\", \"mask\": \"%s\", \"value\": \"%s\", "
		       "\"attr\": \"%s\", \"hits\": %s, \"condition\": \"%s\", "
		       "\"recorded\": \"%s\", \"policy\": \"%s\", \"seen\": %s, "
		       "\"applied\": %s, \"exhausted\": %s}",
		       first ? "" : ",", v->space, v->name, v->device, v->length,
		       v->mask, v->value, v->attr, v->hits, v->condition,
		       v->recorded, v->policy, v->seen, v->applied, v->exhausted);
		return;
	}
	printf("%-7s %-24s %-12s %3s %16s %16s %-2s %8s", v->space, v->name,
	       v->device, v->length, v->mask, v->value, v->attr, v->hits);
	if (strcmp(v->condition, "none"))
		printf(" %s recorded=%s", v->condition, v->recorded);
	if (strcmp(v->policy, "none"))
		printf(" %s seen=%s applied=%s exhausted=%s", v->policy, v->seen,
		       v->applied, v->exhausted);
	printf("\n");
}

/* Count the overrides of @space, printing each when @v is given. */
static int for_each_override(const char *space, struct ovr_view *v, bool *first)
{
	char dir[128];
	struct dirent *e;
	int n = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), IOHOOK_SYS "/%s", space);
	d = opendir(dir);
	while (d && (e = readdir(d))) {
		if (e->d_type != DT_DIR || e->d_name[0] == '.')
			continue;
		n++;
		if (!v)
			continue;
		view_read(space, e->d_name, v);
		view_print(v, *first);
		*first = false;
	}
	if (d)
		closedir(d);
	return n;
}

int cmd_list(int argc, char **argv)
{
	struct ovr_view v;
	bool first = true;
	size_t i;

	(void)argv;
	if (argc != 1)
		return EX_USAGE;
	if (opt.json)
		printf("[");
	else
		printf("%-7s %-24s %-12s %3s %16s %16s %-2s %8s\n", "SPACE", "OVERRIDE",
		       "DEVICE", "LEN", "MASK", "VALUE", "AT", "HITS");
	for (i = 0; i < sizeof(spaces) / sizeof(spaces[0]); i++)
		for_each_override(spaces[i], &v, &first);
	if (opt.json)
		printf("%s]\n", first ? "" : "\n");
	return EX_OK;
}

int cmd_status(int argc, char **argv)
{
	char state[512] = "";
	long long armed = abi_read_num(IOHOOK_SYS "/armed");
	bool first = true;
	int n[3];
	size_t i;

	(void)argv;
	if (argc != 1)
		return EX_USAGE;
	for (i = 0; i < 3; i++)
		n[i] = for_each_override(spaces[i], NULL, &first);
	/* The static keys, when debugfs is mounted and readable. */
	if (abi_read("/sys/kernel/debug/iohook/state", state, sizeof(state)) > 0) {
		char *k = strstr(state, "keys ");

		if (k)
			k[strcspn(k, "\n")] = 0;
		snprintf(state, sizeof(state), "%s", k ? k + 5 : "");
	}
	if (opt.json) {
		printf("{\"armed\": %lld, \"io\": %d, \"mem\": %d, \"pciconf\": %d, "
		       "\"keys\": \"%s\"}\n", armed, n[0], n[1], n[2], state);
		return EX_OK;
	}
	printf("armed %lld; overrides: io %d, mem %d, pciconf %d%s%s\n", armed,
	       n[0], n[1], n[2], state[0] ? "; keys " : "", state);
	return EX_OK;
}
