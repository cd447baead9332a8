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

/* An override's files, in the order list prints them. */
enum field { F_LENGTH, F_MASK, F_VALUE, F_ATTR, F_HITS, F_CONDITION, F_RECORDED,
	     F_POLICY, F_SEEN, F_APPLIED, F_EXHAUSTED, NFIELDS };

static const struct {
	const char *file;
	bool number;		/* a JSON number, not a string */
} fields[NFIELDS] = {
	{ "length", false }, { "mask", false }, { "value", false }, { "attr", false },
	{ "hits", true },
	{ "condition", false }, { "recorded", false }, { "policy", false }, { "seen", true },
	{ "applied", true }, { "exhausted", true },
};

struct ovr_view {
	char space[8], name[80], device[16];
	char val[NFIELDS][96];
};

static void view_read(const char *space, const char *name, struct ovr_view *v)
{
	char path[400];
	int i;

	memset(v, 0, sizeof(*v));
	snprintf(v->space, sizeof(v->space), "%s", space);
	snprintf(v->name, sizeof(v->name), "%.79s", name);
	for (i = 0; i < NFIELDS; i++) {
		snprintf(path, sizeof(path), IOHOOK_SYS "/%s/%s/%s", space, name,
			 fields[i].file);
		if (abi_read(path, v->val[i], sizeof(v->val[i])) < 0)
			snprintf(v->val[i], sizeof(v->val[i]), fields[i].number ? "null" : "?");
	}
	if (!strcmp(space, "pciconf"))
		snprintf(v->device, sizeof(v->device), "%.*s",
			 (int)strcspn(name, "+"), name);
	else
		bar_owner(strtoull(name, NULL, 16), !strcmp(space, "io"),
			  v->device, sizeof(v->device));
}

static void view_json(const struct ovr_view *v, bool first)
{
	const char *q;
	int i;

	printf("%s\n  {\"space\": \"%s\", \"name\": \"%s\", \"device\": \"%s\"",
	       first ? "" : ",", v->space, v->name, v->device);
	for (i = 0; i < NFIELDS; i++) {
		q = fields[i].number ? "" : "\"";
		printf(", \"%s\": %s%s%s", fields[i].file, q, v->val[i], q);
	}
	printf("}");
}

static void view_print(const struct ovr_view *v, bool first)
{
	const char (*f)[96] = v->val;

	if (opt.json) {
		view_json(v, first);
		return;
	}
	printf("%-7s %-24s %-12s %3s %16s %16s %-2s %8s", v->space, v->name,
	       v->device, f[F_LENGTH], f[F_MASK], f[F_VALUE], f[F_ATTR], f[F_HITS]);
	if (strcmp(f[F_CONDITION], "none"))
		printf(" %s recorded=%s", f[F_CONDITION], f[F_RECORDED]);
	if (strcmp(f[F_POLICY], "none"))
		printf(" %s seen=%s applied=%s exhausted=%s", f[F_POLICY], f[F_SEEN],
		       f[F_APPLIED], f[F_EXHAUSTED]);
	printf("\n");
}

/* Count the overrides of @space, printing each when @v is given. */
static int count_overrides(const char *space, struct ovr_view *v, bool *first)
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
	for (i = 0; i < ARRAY_SIZE(spaces); i++)
		count_overrides(spaces[i], &v, &first);
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
	for (i = 0; i < ARRAY_SIZE(spaces); i++)
		n[i] = count_overrides(spaces[i], NULL, &first);
	/* The static keys, when debugfs is mounted and readable. */
	if (abi_read("/sys/kernel/debug/iohook/state", state, sizeof(state)) > 0) {
		char *k = strstr(state, "keys ");

		if (k)
			k[strcspn(k, "\n")] = 0;
		snprintf(state, sizeof(state), "%s", k ? k + 5 : "");
	}
	if (opt.json) {
		printf("{\"armed\": %lld, \"io\": %d, \"mem\": %d, \"pciconf\": %d, ",
		       armed, n[0], n[1], n[2]);
		printf("\"keys\": \"%s\"}\n", state);
		return EX_OK;
	}
	printf("armed %lld; overrides: io %d, mem %d, pciconf %d%s%s\n", armed,
	       n[0], n[1], n[2], state[0] ? "; keys " : "", state);
	return EX_OK;
}
