// SPDX-License-Identifier: GPL-2.0
/*
 * The raw ABI without echo: add, remove, clear, arm, disarm, fire. Each
 * is one sysfs write (clear: one per space); the kernel validates, and its
 * errno becomes a one-line message and a documented exit code.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iohook.h"

static const char *const spaces[] = { "io", "mem", "pciconf" };

/* The override directory of TARGET: a space name or a device's BDF. */
static int target_dir(const char *target, char *dir, size_t len)
{
	unsigned int dom, bus, dev, fn;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(spaces); i++)
		if (!strcmp(target, spaces[i])) {
			snprintf(dir, len, IOHOOK_SYS "/%s", target);
			return 0;
		}
	if (parse_bdf(target, &dom, &bus, &dev, &fn)) {
		fprintf(stderr, "%s: %s: not a space (io, mem, pciconf) or a PCI device\n",
			prog, target);
		return EX_USAGE;
	}
	snprintf(dir, len, PCI_DEVS "/%04x:%02x:%02x.%x/overrides", dom, bus, dev, fn);
	if (!abi_exists(dir)) {
		fprintf(stderr, "%s: %s: no such PCI device\n", prog, target);
		return EX_NODEV;
	}
	return 0;
}

/* iohook add TARGET ENTRY... (entries as the add file takes them) */
int cmd_add(int argc, char **argv)
{
	char dir[256], path[300], entries[4096];
	size_t n = 0;
	int i, ret;

	if (argc < 3)
		return EX_USAGE;
	ret = target_dir(argv[1], dir, sizeof(dir));
	if (ret)
		return ret;
	entries[0] = 0;
	for (i = 2; i < argc; i++) {
		n += snprintf(entries + n, n < sizeof(entries) ? sizeof(entries) - n : 0,
			      "%s%s", i > 2 ? "; " : "", argv[i]);
		if (n >= sizeof(entries)) {
			fprintf(stderr, "%s: add: entries too long\n", prog);
			return EX_USAGE;
		}
	}
	snprintf(path, sizeof(path), "%s/add", dir);
	ret = abi_write(path, entries);
	return ret ? err_exit("add", ret) : EX_OK;
}

/* iohook remove TARGET NAME|all */
int cmd_remove(int argc, char **argv)
{
	char dir[256], path[300];
	int ret;

	if (argc != 3)
		return EX_USAGE;
	ret = target_dir(argv[1], dir, sizeof(dir));
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/remove", dir);
	ret = abi_write(path, argv[2]);
	return ret ? err_exit("remove", ret) : EX_OK;
}

/* Every override is listed in one space, whoever added it. */
int cmd_clear(int argc, char **argv)
{
	char path[128];
	size_t i;
	int ret;

	(void)argv;
	if (argc != 1)
		return EX_USAGE;
	for (i = 0; i < ARRAY_SIZE(spaces); i++) {
		snprintf(path, sizeof(path), IOHOOK_SYS "/%s/remove", spaces[i]);
		ret = abi_write(path, "all");
		if (ret && ret != -ENOENT)
			return err_exit("clear", ret);
	}
	return EX_OK;
}

static int set_armed(int argc, const char *v)
{
	int ret;

	if (argc != 1)
		return EX_USAGE;
	ret = abi_write(IOHOOK_SYS "/armed", v);
	return ret ? err_exit("armed", ret) : EX_OK;
}

int cmd_arm(int argc, char **argv)
{
	(void)argv;
	return set_armed(argc, "1");
}

int cmd_disarm(int argc, char **argv)
{
	(void)argv;
	return set_armed(argc, "0");
}

/* iohook fire BDF [VECTOR] | iohook fire irq N */
int cmd_fire(int argc, char **argv)
{
	unsigned int dom, bus, dev, fn;
	char path[256];
	int ret;

	if (argc == 3 && !strcmp(argv[1], "irq")) {
		ret = abi_write(IOHOOK_SYS "/fire_irq", argv[2]);
		return ret ? err_exit("fire irq", ret) : EX_OK;
	}
	if (argc < 2 || argc > 3)
		return EX_USAGE;
	if (parse_bdf(argv[1], &dom, &bus, &dev, &fn)) {
		fprintf(stderr, "%s: %s: not a PCI device\n", prog, argv[1]);
		return EX_USAGE;
	}
	snprintf(path, sizeof(path), PCI_DEVS "/%04x:%02x:%02x.%x/fire_irq",
		 dom, bus, dev, fn);
	if (!abi_exists(path)) {
		fprintf(stderr, "%s: %s: no such PCI device\n", prog, argv[1]);
		return EX_NODEV;
	}
	ret = abi_write(path, argc == 3 ? argv[2] : "0");
	return ret ? err_exit("fire", ret) : EX_OK;
}
