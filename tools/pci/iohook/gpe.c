// SPDX-License-Identifier: GPL-2.0
/*
 * gpe N: raise ACPI General Purpose Event N as the chipset would. The GPE
 * blocks and the SCI come from the FADT (/sys/firmware/acpi/tables/FACP),
 * or from /proc/ioports when the table is not readable. GPE N's status
 * bit (write-1-to-clear, as in hardware) is set in its block's status
 * half, then the SCI fires; ACPICA runs the GPE's method and clears it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iohook.h"

struct gpe_blk {
	unsigned long long addr;	/* status half; enable half follows */
	unsigned int len;		/* bytes, both halves */
	unsigned int base;		/* first GPE number */
	bool mem;			/* system memory, else system I/O */
};

static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* GPE0 and GPE1 blocks and the SCI's GSI from the FADT. 0 or -1. */
static int fadt_blocks(struct gpe_blk *b, unsigned int *sci)
{
	unsigned char t[512];
	int fd = open("/sys/firmware/acpi/tables/FACP", O_RDONLY);
	ssize_t n;
	int i;

	if (fd < 0)
		return -1;
	n = read(fd, t, sizeof(t));
	close(fd);
	if (n < 116)
		return -1;
	*sci = le(t + 46, 2);
	for (i = 0; i < 2; i++) {
		int gas = 220 + 12 * i;

		b[i].addr = le(t + 80 + 4 * i, 4);
		b[i].len = t[92 + i];
		b[i].base = i ? t[94] : 0;
		b[i].mem = false;
		/* The 64-bit GAS wins when the table has it and it is set. */
		if (n >= gas + 12 && le(t + gas + 4, 8)) {
			b[i].addr = le(t + gas + 4, 8);
			b[i].mem = t[gas] == 0;
		}
	}
	return 0;
}

static int ioports_block(struct gpe_blk *b)
{
	unsigned long long start, end;
	char line[256];
	FILE *f = fopen("/proc/ioports", "r");

	memset(b, 0, 2 * sizeof(*b));
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "ACPI GPE0_BLK") &&
		    sscanf(line, " %llx-%llx", &start, &end) == 2) {
			b[0].addr = start;
			b[0].len = end - start + 1;
		}
	if (f)
		fclose(f);
	return b[0].len ? 0 : -1;
}

/* The Linux IRQ of the SCI ("acpi" in /proc/interrupts), or @gsi. */
static int sci_irq(unsigned int gsi)
{
	int irq = iohook_sci_irq();

	return irq < 0 ? (int)gsi : irq;
}

static long long gpe_count(unsigned int gpe, char *state, size_t len)
{
	char path[96], buf[128];

	snprintf(path, sizeof(path), "/sys/firmware/acpi/interrupts/gpe%02X", gpe);
	if (abi_read(path, buf, sizeof(buf)) < 0)
		return -1;
	if (state)
		snprintf(state, len, "%s", buf);
	return strtoll(buf, NULL, 10);
}

struct gpe_counted {
	long gpe;
	long long before;
};

static bool gpe_counted(const void *arg)
{
	const struct gpe_counted *c = arg;

	return gpe_count(c->gpe, NULL, 0) > c->before;
}

/*
 * Raise GPE @gpe and wait until ACPI has handled it: its status bit
 * cleared by ACPICA and the GPE counted. On success its override is gone
 * and *@elapsed_ms says how long that took; on failure every journalled
 * change is taken back. @desc says where the bit and the SCI are.
 */
int gpe_raise(long gpe, long long *elapsed_ms, char *desc, size_t len)
{
	struct gpe_blk blk[2];
	char dir[64], name[32], entry[64], irq[16], state[128];
	unsigned int sci = 9, bit;
	unsigned long long port = 0;
	long long before, t0, deadline;
	bool mem = false;
	int i, err;

	if (fadt_blocks(blk, &sci) && ioports_block(blk)) {
		fprintf(stderr, "%s: gpe: no FADT and no GPE0_BLK in /proc/ioports\n", prog);
		undo_all();
		return EX_NODEV;
	}
	for (i = 0; i < 2 && !port; i++)
		if (blk[i].addr && gpe >= blk[i].base &&
		    gpe < blk[i].base + blk[i].len / 2 * 8) {
			port = blk[i].addr + (gpe - blk[i].base) / 8;
			mem = blk[i].mem;
		}
	if (!port) {
		fprintf(stderr, "%s: gpe: GPE %ld is in no GPE block of this machine\n", prog, gpe);
		undo_all();
		return EX_NODEV;
	}
	before = gpe_count(gpe, state, sizeof(state));
	/* "  N  EN  enabled  unmasked"; else disabled, or invalid (no handler). */
	if (!opt.force && (before < 0 || !strstr(state, " enabled"))) {
		fprintf(stderr, "%s: gpe: GPE %ld is not enabled (%s; -f forces)\n", prog, gpe,
			before < 0 ? "no counter" : state);
		undo_all();
		return EX_NOCAP;
	}
	bit = 1u << (gpe % 8);
	snprintf(dir, sizeof(dir), IOHOOK_SYS "/%s", mem ? "mem" : "io");
	snprintf(name, sizeof(name), "0x%llx", port);
	snprintf(entry, sizeof(entry), "%s 1 %x %x wc", name, bit, bit);
	snprintf(irq, sizeof(irq), "%d", sci_irq(sci));
	snprintf(desc, len, "status bit %ld of %s port %llx, SCI IRQ %s", gpe % 8,
		 mem ? "memory" : "I/O", port, irq);
	err = ovr_add(dir, name, entry);
	t0 = now_ms();
	if (!err)
		err = abi_write(IOHOOK_SYS "/fire_irq", irq);
	if (err) {
		undo_all();
		return err_exit("gpe", err);
	}
	deadline = t0 + opt.timeout_ms;
	err = wait_cleared(dir, name, bit, deadline);
	if (!err)
		err = wait_for(gpe_counted, &(struct gpe_counted){ gpe, before }, deadline);
	if (err) {
		undo_all();
		fprintf(stderr,
			"%s: gpe: the driver did not react in %d ms (GPE %ld status still set)\n",
			prog, opt.timeout_ms, gpe);
		return EX_TIMEOUT;
	}
	*elapsed_ms = now_ms() - t0;
	undo_pop();	/* the status bit's override: the event is over */
	return EX_OK;
}

int cmd_gpe(int argc, char **argv)
{
	char desc[96], *end;
	long long ms;
	long gpe;
	int ret;

	if (argc != 2)
		return EX_USAGE;
	gpe = strtol(argv[1], &end, 0);
	if (*end || gpe < 0 || gpe > 255) {
		fprintf(stderr, "%s: gpe: '%s' is not a GPE number (0-255)\n", prog, argv[1]);
		return EX_USAGE;
	}
	ret = gpe_raise(gpe, &ms, desc, sizeof(desc));
	if (ret)
		return ret;
	if (opt.dry_run)
		printf("gpe %ld: %s; (dry run)\n", gpe, desc);
	else
		printf("gpe %ld: %s; ACPI handled it in %lld ms\n", gpe, desc, ms);
	return EX_OK;
}
