// SPDX-License-Identifier: GPL-2.0
/*
 * cpu SLOT add|remove, memory SLOT add|remove: ACPI CPU and memory hotplug
 * on QEMU's firmware interface (docs/specs/acpi_cpu_hotplug.rst and
 * acpi_mem_hotplug.rst in QEMU), for a CPU or DIMM that does not exist.
 * The firmware's AML is satisfied as written; no table is replaced.
 *
 * Memory (block "Memory hotplug resources", 0xa00 on QEMU 7.2; GPE 3 runs
 * MSCN): MSEL at +0 selects a slot; for the selected slot +0/+4 read the
 * base, +8/+c the length, +0x14 the flags MES (present), MINS (insert
 * event), MRMV (remove event), MEJ (eject, written). MSCN writes MSEL = each
 * slot and reads MINS, then MRMV; it clears the event it found by writing
 * it as 1. Every register of the slot is a conditional override on MSEL.
 *
 * CPUs (block "CPU Hotplug resources", 0xcd8; GPE 2 runs CSCN): CSEL at
 * +0 selects a CPU, +4 holds CPEN (enabled), CINS, CRMV, CEJ0 (written),
 * +5 is a command, +8 its data. CSCN writes CSEL = 0 and command 0 ("next
 * CPU with an event"), after which QEMU itself moves its selector: CDAT
 * and the flags then describe that CPU while the last CSEL the OS wrote
 * is still 0. So the event is two overrides conditional on CSEL == 0 and
 * limited by count to the reads the scan makes (CDAT twice, the flags
 * once for an insert, twice for a removal), and the CPU's state is CPEN
 * conditional on CSEL == N.
 *
 * State after an add: present, read-write, so that the eject (_EJ0
 * writes CEJ0 or MEJ, bit 0 clear) makes the device absent, as QEMU's
 * model does, before the kernel checks _STA. An insert event is
 * read-only or write-1-to-clear instead: the scan's clearing write of the
 * event bit would otherwise clear the presence bit before the kernel's
 * hotplug work reads _STA.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iohook.h"

#define IODIR	IOHOOK_SYS "/io"

/*
 * The I/O range of the ACPI device whose _UID is @uid, or @dflt: QEMU's
 * hotplug register blocks (PNP0A06) and the IOH's (PNP0C02, our SSDT)
 * are named by a string _UID.
 */
unsigned long acpi_io_block(const char *uid, unsigned long dflt)
{
	char path[320], buf[512], *io;
	unsigned long base = dflt;
	struct dirent *e;
	DIR *d = opendir("/sys/bus/acpi/devices");

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/acpi/devices/%.32s/uid", e->d_name);
		if (abi_read(path, buf, sizeof(buf)) <= 0 || strcmp(buf, uid))
			continue;
		snprintf(path, sizeof(path), "/sys/bus/acpi/devices/%.32s/physical_node/resources",
			 e->d_name);
		if (abi_read(path, buf, sizeof(buf)) > 0) {
			io = strstr(buf, "io 0x");
			if (io)
				base = strtoul(io + 3, NULL, 16);
		}
	}
	if (d)
		closedir(d);
	return base;
}

/* Wait until @done(@arg) holds, within the command's timeout. */
static int wait_until(bool (*done)(const void *arg), const void *arg)
{
	return wait_for(done, arg, now_ms() + opt.timeout_ms);
}

/* The directory of the override at @port conditional on the selector = @selval. */
static void io_name(char *name, size_t len, unsigned long port, unsigned long selval)
{
	snprintf(name, len, "0x%lx@%lx", port, selval);
}

static int add_io(unsigned long port, int len, unsigned long long value,
		  unsigned long long mask, const char *attr, const char *options,
		  unsigned long sel, unsigned long selval)
{
	char name[32], entry[160];

	io_name(name, sizeof(name), port, selval);
	snprintf(entry, sizeof(entry), "%lx %d %llx %llx %s sel=%lx:4=%lx%s%s", port, len,
		 value, mask, attr, sel, selval, options[0] ? " " : "", options);
	return ovr_add(IODIR, name, entry);
}

static bool io_exists(unsigned long port, unsigned long selval)
{
	char name[32], path[96];

	io_name(name, sizeof(name), port, selval);
	snprintf(path, sizeof(path), IODIR "/%s", name);
	return abi_exists(path);
}

/* The value of that override, or -1 if there is none. */
static long long io_value(unsigned long port, unsigned long selval)
{
	char name[32], path[96];

	io_name(name, sizeof(name), port, selval);
	snprintf(path, sizeof(path), IODIR "/%s/value", name);
	return abi_read_hex(path);
}

static int remove_io(unsigned long port, unsigned long selval)
{
	char name[32];

	if (!io_exists(port, selval))
		return 0;
	io_name(name, sizeof(name), port, selval);
	return ovr_remove(IODIR, name);
}

/* --- CPUs ------------------------------------------------------------- */

#define CPU_GPE		2
#define CPU_FLAGS	4
#define CPU_DATA	8
#define CPEN		0x01
#define CINS		0x02
#define CRMV		0x04

/*
 * The firmware slot of logical CPU @cpu, or -1: QEMU's CPU selector,
 * which is also the processor's ACPI ID. A processor device with a _UID
 * shows it as firmware_node/uid; QEMU 7.2 declares Processor objects
 * instead, which have none, and names each after its slot
 * ("\_SB_.CPUS.C002", "C%03X" in hw/acpi/cpu.c), which firmware_node/path
 * shows.
 */
static long cpu_slot(long cpu)
{
	char path[96], buf[64], *name, *end;
	long long uid;
	long slot;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%ld/firmware_node/uid", cpu);
	uid = abi_read_num(path);
	if (uid >= 0)
		return uid;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%ld/firmware_node/path", cpu);
	if (abi_read(path, buf, sizeof(buf)) <= 0)
		return -1;
	name = strrchr(buf, '.');
	if (!name || name[1] != 'C' || !isxdigit((unsigned char)name[2]))
		return -1;
	slot = strtol(name + 2, &end, 16);
	return *end ? -1 : slot;
}

/*
 * The logical CPU the kernel made for firmware slot @slot, or -1. The
 * two differ: 6.1 numbers a hot-added CPU with its next free logical
 * number, 6.12 with the one it set aside for the slot at boot.
 */
static long slot_cpu(long slot)
{
	DIR *d = opendir("/sys/devices/system/cpu");
	long cpu = -1, n;
	struct dirent *e;
	char *end;

	while (d && cpu < 0 && (e = readdir(d))) {
		if (strncmp(e->d_name, "cpu", 3))
			continue;
		n = strtol(e->d_name + 3, &end, 10);
		if (end == e->d_name + 3 || *end)
			continue;
		if (cpu_slot(n) == slot)
			cpu = n;
	}
	if (d)
		closedir(d);
	return cpu;
}

static bool slot_present(const void *arg)
{
	return slot_cpu(*(const long *)arg) >= 0;
}

static bool slot_absent(const void *arg)
{
	return !slot_present(arg);
}

/*
 * N is the firmware's CPU slot, as QEMU and the ACPI tables number it
 * (device_add's slot, _UID), for add and remove alike: the event names
 * a slot, and only the kernel knows which logical CPU it will make of
 * it, so that is reported ("added as cpu2"), never assumed.
 */
int cmd_cpu(int argc, char **argv)
{
	unsigned long b = acpi_io_block("CPU Hotplug resources", 0xcd8);
	long slot, cpu;
	char desc[96];
	bool add, present;
	long long ms;
	char *end;
	int err, ret;

	if (argc != 3 || (strcmp(argv[2], "add") && strcmp(argv[2], "remove")))
		return EX_USAGE;
	add = !strcmp(argv[2], "add");
	slot = strtol(argv[1], &end, 0);
	if (*end || slot <= 0 || slot > 255) {
		fprintf(stderr, "%s: cpu: '%s' is not a CPU slot (1-255)\n", prog, argv[1]);
		return EX_USAGE;
	}
	cpu = slot_cpu(slot);
	present = cpu >= 0;
	if (add == present && !opt.force) {
		if (add)
			fprintf(stderr, "%s: cpu: slot %ld is present, as cpu%ld (-f forces)\n",
				prog, slot, cpu);
		else
			fprintf(stderr, "%s: cpu: slot %ld is not present (-f forces)\n",
				prog, slot);
		return EX_BUSY;
	}
	/* The event: what CSCN reads after its command, with CSEL still 0. */
	err = add_io(b + CPU_DATA, 4, slot, 0xffffffff, "ro", "count=2", b, 0);
	if (!err)
		err = add_io(b + CPU_FLAGS, 1, add ? CINS : CRMV, add ? CINS : CRMV, "ro",
			     add ? "count=1" : "count=2", b, 0);
	/* The state: present (read-only until the add is done), or ejectable. */
	if (!err && add)
		err = add_io(b + CPU_FLAGS, 1, CPEN, CPEN, "ro", "", b, slot);
	if (err) {
		undo_all();
		return err_exit("cpu", err);
	}
	ret = gpe_raise(CPU_GPE, &ms, desc, sizeof(desc));
	if (ret)
		return ret;
	err = wait_until(add ? slot_present : slot_absent, &slot);
	if (err) {
		undo_all();
		fprintf(stderr,
			"%s: cpu: the kernel did not %s CPU slot %ld in %d ms (see dmesg)\n",
			prog, add ? "add" : "remove", slot, opt.timeout_ms);
		return EX_TIMEOUT;
	}
	if (add)
		cpu = slot_cpu(slot);
	/* The scan is over: its overrides go. */
	err = remove_io(b + CPU_DATA, 0);
	if (!err)
		err = remove_io(b + CPU_FLAGS, 0);
	if (!err && add) {
		err = remove_io(b + CPU_FLAGS, slot);
		if (!err)
			err = add_io(b + CPU_FLAGS, 1, CPEN, CPEN, "rw", "", b, slot);
	}
	if (!err && !add)
		err = remove_io(b + CPU_FLAGS, slot);
	if (err) {
		undo_all();
		return err_exit("cpu", err);
	}
	undo_forget();
	printf("cpu slot %ld: %s through GPE %d (I/O block %lx); "
	       "the kernel %s cpu%ld in %lld ms\n",
	       slot, add ? "hot-add" : "eject request", CPU_GPE, b,
	       add ? "added it as" : "removed", cpu, ms);
	return EX_OK;
}

/* --- memory ----------------------------------------------------------- */

#define MEM_GPE		3
#define MEM_FLAGS	0x14
#define MES		0x01
#define MINS		0x02
#define MRMV		0x04

/* QEMU q35 puts device memory at 4 GiB, a GiB-aligned window per slot. */
#define MEM_BASE	0x100000000ULL
#define MEM_SLOT_STRIDE	0x40000000ULL
#define MEM_SIZE	0x10000000ULL

/* The memory blocks a DIMM's range covers. */
struct mem_range {
	unsigned long long first, blocks;
};

static bool mem_block_exists(unsigned long long block)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/devices/system/memory/memory%llu", block);
	return abi_exists(path);
}

static bool mem_added(const void *arg)
{
	const struct mem_range *r = arg;
	unsigned long long i;

	for (i = 0; i < r->blocks; i++)
		if (!mem_block_exists(r->first + i))
			return false;
	return true;
}

static bool mem_removed(const void *arg)
{
	const struct mem_range *r = arg;
	unsigned long long i;

	for (i = 0; i < r->blocks; i++)
		if (mem_block_exists(r->first + i))
			return false;
	return true;
}

/* iohook memory SLOT add [BASE SIZE] | iohook memory SLOT remove */
int cmd_memory(int argc, char **argv)
{
	unsigned long b = acpi_io_block("Memory hotplug resources", 0xa00);
	char desc[96];
	unsigned long long base, size, bs;
	struct mem_range r;
	unsigned long slot;
	bool add;
	long long ms;
	char *end;
	int err, ret, i;

	if (argc < 3 || (strcmp(argv[2], "add") && strcmp(argv[2], "remove")))
		return EX_USAGE;
	add = !strcmp(argv[2], "add");
	if ((add && argc != 3 && argc != 5) || (!add && argc != 3))
		return EX_USAGE;
	slot = strtoul(argv[1], &end, 0);
	if (*end || slot > 255) {
		fprintf(stderr, "%s: memory: '%s' is not a slot number\n", prog, argv[1]);
		return EX_USAGE;
	}
	bs = abi_read_hex("/sys/devices/system/memory/block_size_bytes");
	if ((long long)bs <= 0) {
		fprintf(stderr,
			"%s: memory: no memory hotplug in this kernel (CONFIG_MEMORY_HOTPLUG)\n",
			prog);
		return EX_NOCAP;
	}
	base = MEM_BASE + slot * MEM_SLOT_STRIDE;
	size = MEM_SIZE;
	if (argc == 5) {
		base = strtoull(argv[3], &end, 0);
		size = *end ? 0 : strtoull(argv[4], &end, 0);
		if (*end || !size || base % bs || size % bs) {
			fprintf(stderr,
				"%s: memory: BASE and SIZE must be multiples of the block size %llx\n",
				prog, bs);
			return EX_USAGE;
		}
	}
	if (!add) {
		/* The slot's base as our override says. */
		long long lo = io_value(b, slot), hi = io_value(b + 4, slot);
		long long ll = io_value(b + 8, slot), lh = io_value(b + 12, slot);

		if (lo < 0 || hi < 0 || ll < 0 || lh < 0 || !io_exists(b + MEM_FLAGS, slot)) {
			fprintf(stderr, "%s: memory: slot %lu holds no emulated DIMM\n", prog,
				slot);
			return EX_NODEV;
		}
		base = (unsigned long long)hi << 32 | lo;
		size = (unsigned long long)lh << 32 | ll;
	}
	r.first = base / bs;
	r.blocks = size / bs;
	if (add && !opt.force && !mem_removed(&r)) {
		fprintf(stderr, "%s: memory: %llx-%llx already has memory blocks\n", prog,
			base, base + size - 1);
		return EX_BUSY;
	}

	if (add) {
		/* The DIMM: its range, then present with an insert event. */
		unsigned long long v[4] = { base & 0xffffffff, base >> 32,
					    size & 0xffffffff, size >> 32 };

		for (i = 0, err = 0; i < 4 && !err; i++)
			err = add_io(b + 4 * i, 4, v[i], 0xffffffff, "ro", "", b, slot);
		if (!err)
			err = add_io(b + MEM_FLAGS, 1, MES | MINS, MES | MINS, "wc", "", b, slot);
	} else {
		/* Present, ejectable, with a remove event: the scan clears it. */
		err = remove_io(b + MEM_FLAGS, slot);
		if (!err)
			err = add_io(b + MEM_FLAGS, 1, MES | MRMV, MES | MRMV, "rw", "", b, slot);
	}
	if (err) {
		undo_all();
		return err_exit("memory", err);
	}
	ret = gpe_raise(MEM_GPE, &ms, desc, sizeof(desc));
	if (ret)
		return ret;
	err = wait_until(add ? mem_added : mem_removed, &r);
	if (err) {
		undo_all();
		fprintf(stderr,
			"%s: memory: the kernel did not %s %llx-%llx in %d ms (see dmesg)\n",
			prog, add ? "add" : "remove", base, base + size - 1, opt.timeout_ms);
		return EX_TIMEOUT;
	}
	for (i = 0; !add && i <= 4 && !err; i++)	/* the DIMM is gone */
		err = remove_io(b + (i < 4 ? 4 * i : MEM_FLAGS), slot);
	if (err) {
		undo_all();
		return err_exit("memory", err);
	}
	undo_forget();
	printf("memory slot %lu: %s %llx-%llx through GPE %d (I/O block %lx); ", slot,
	       add ? "DIMM inserted at" : "eject request for", base, base + size - 1, MEM_GPE, b);
	printf("the kernel %s %llu blocks in %lld ms\n", add ? "added" : "removed", r.blocks, ms);
	return EX_OK;
}
