// SPDX-License-Identifier: GPL-2.0
/*
 * aer [-s BDF] [FILE]: inject aer-inject's error files the way hardware
 * reports them. For each error, in order:
 *   - the device's Correctable/Uncorrectable Error Status bits
 *     (write-1-to-clear), its Header Log and First Error Pointer;
 *   - severity from the device's own Uncorrectable Error Severity;
 *   - the Root Port that receives its messages, found by walking up from
 *     the device (it may be the device itself): its Root Error Status,
 *     with the "multiple" and "first fatal" bits when they apply, and its
 *     Error Source Identification for each kind;
 *   - then the port's AER interrupt (the vector its Advanced Error
 *     Interrupt Message Number names).
 * It waits until the AER driver has counted the messages and cleared what
 * it clears, says how long that took, and removes the overrides: an error
 * leaves no state behind.
 */
#include <errno.h>
#include <pci/pci.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iohook.h"

#define ROOT_STA_MASK	0x7f

/* One kind of message the Root Port counts (6.x sysfs), and its count before. */
struct kind {
	const char *file;
	char path[256];
	long long before;
};

static bool counted(const void *arg)
{
	const struct kind *k = arg;

	return abi_read_num(k->path) > k->before;
}

/* "correctable BAD_TLP, non-fatal COMP_TIME" */
static void describe(const struct aer_error *e, uint32_t sever, char *buf, size_t len)
{
	size_t n = 0;
	int bit, pass;

	buf[0] = 0;
	for (pass = 0; pass < 2; pass++) {
		uint32_t st = pass ? e->uncor_status : e->cor_status;

		for (bit = 0; bit < 32 && n < len; bit++) {
			const char *kind = !pass ? "correctable" :
					   sever >> bit & 1 ? "fatal" : "non-fatal";
			const char *name = aer_bit_name(!pass, bit);

			if (!(st >> bit & 1))
				continue;
			n += snprintf(buf + n, len - n, "%s%s ", n ? ", " : "", kind);
			if (n >= len)
				break;
			if (name)
				n += snprintf(buf + n, len - n, "%s", name);
			else
				n += snprintf(buf + n, len - n, "bit %d", bit);
		}
	}
}

static int inject(const struct aer_error *e)
{
	char bdf[16], rp_bdf[16], dir[128], rp_dir[128], name[16], entry[96];
	char what[256], fire[256], vec[8];
	struct pci_dev *dev, *rp;
	uint32_t sever, cmask, umask, rs, src, cmd, devid;
	struct kind kinds[3] = {
		{ .file = "aer_rootport_total_err_cor", .before = -1 },
		{ .file = "aer_rootport_total_err_nonfatal", .before = -1 },
		{ .file = "aer_rootport_total_err_fatal", .before = -1 },
	};
	bool want[3];
	int aer, rp_aer, err, i, fep;
	long long t0, deadline;

	snprintf(bdf, sizeof(bdf), "%04x:%02x:%02x.%x", e->domain, e->bus, e->dev, e->fn);
	dev = pcie_get(bdf);
	if (!dev) {
		fprintf(stderr, "%s: aer: no such PCI device: %s\n", prog, bdf);
		return EX_NODEV;
	}
	aer = pcie_aer_cap(dev);
	rp = pcie_root_port(dev);
	rp_aer = rp ? pcie_aer_cap(rp) : 0;
	if (!aer || !rp || !rp_aer) {
		fprintf(stderr, "%s: aer: %s %s\n", prog, bdf, !aer ? "has no AER capability" :
			!rp ? "has no Root Port above it" : "reports to a Root Port without AER");
		return EX_NOCAP;
	}
	pcie_name(rp, rp_bdf, sizeof(rp_bdf));
	sever = pci_read_long(dev, aer + PCI_ERR_UNCOR_SEVER);
	cmask = pci_read_long(dev, aer + PCI_ERR_COR_MASK);
	umask = pci_read_long(dev, aer + PCI_ERR_UNCOR_MASK);
	if (!e->cor_status && !e->uncor_status) {
		fprintf(stderr, "%s: aer: line %d: no error bits for %s\n", prog, e->line, bdf);
		return EX_SYNTAX;
	}
	if (!opt.force && ((e->cor_status && !(e->cor_status & ~cmask)) ||
			   (e->uncor_status && !(e->uncor_status & ~umask)))) {
		fprintf(stderr,
			"%s: aer: %s masks these errors (Error Mask registers %08x/%08x; -f forces)\n",
			prog, bdf, cmask, umask);
		return EX_NOCAP;
	}
	want[0] = e->cor_status;
	want[1] = e->uncor_status & ~sever;
	want[2] = e->uncor_status & sever;
	cmd = pci_read_long(rp, rp_aer + PCI_ERR_ROOT_COMMAND);
	if (!opt.force && ((want[0] && !(cmd & PCI_ERR_ROOT_CMD_COR_EN)) ||
			   (want[1] && !(cmd & PCI_ERR_ROOT_CMD_NONFATAL_EN)) ||
			   (want[2] && !(cmd & PCI_ERR_ROOT_CMD_FATAL_EN)))) {
		fprintf(stderr,
			"%s: aer: %s does not report these errors (Root Error Command %08x; -f forces)\n",
			prog, rp_bdf, cmd);
		return EX_NOCAP;
	}
	for (i = 0; i < 3; i++) {
		snprintf(kinds[i].path, sizeof(kinds[i].path), PCI_DEVS "/%s/%s", rp_bdf,
			 kinds[i].file);
		if (want[i])
			kinds[i].before = abi_read_num(kinds[i].path);
	}

	/* The Root Port's view: as the messages arrive on what is latched. */
	rs = pci_read_long(rp, rp_aer + PCI_ERR_ROOT_STATUS);
	src = pci_read_long(rp, rp_aer + PCI_ERR_ROOT_COR_SRC);
	devid = e->bus << 8 | e->dev << 3 | e->fn;
	if (e->cor_status) {
		rs |= rs & PCI_ERR_ROOT_COR_RCV ? PCI_ERR_ROOT_MULTI_COR_RCV : PCI_ERR_ROOT_COR_RCV;
		src = (src & 0xffff0000) | devid;
	}
	if (e->uncor_status) {
		if (rs & PCI_ERR_ROOT_UNCOR_RCV)
			rs |= PCI_ERR_ROOT_MULTI_UNCOR_RCV;
		else if (want[2])
			rs |= PCI_ERR_ROOT_FIRST_FATAL;
		rs |= PCI_ERR_ROOT_UNCOR_RCV;
		rs |= want[1] ? PCI_ERR_ROOT_NONFATAL_RCV : 0;
		rs |= want[2] ? PCI_ERR_ROOT_FATAL_RCV : 0;
		src = (src & 0xffff) | devid << 16;
	}

	ovr_dir(dev, dir, sizeof(dir));
	ovr_dir(rp, rp_dir, sizeof(rp_dir));
	err = 0;
	if (e->cor_status) {
		snprintf(name, sizeof(name), "0x%x", aer + PCI_ERR_COR_STATUS);
		snprintf(entry, sizeof(entry), "%s 4 %x %x wc", name, e->cor_status, e->cor_status);
		err = ovr_add(dir, name, entry);
	}
	if (!err && e->uncor_status) {
		for (fep = 0; !(e->uncor_status >> fep & 1); fep++)
			;
		snprintf(name, sizeof(name), "0x%x", aer + PCI_ERR_UNCOR_STATUS);
		snprintf(entry, sizeof(entry), "%s 4 %x %x wc", name, e->uncor_status,
			 e->uncor_status);
		err = ovr_add(dir, name, entry);
		for (i = 0; !err && i < 2; i++) {
			snprintf(name, sizeof(name), "0x%x", aer + PCI_ERR_HEADER_LOG + 8 * i);
			snprintf(entry, sizeof(entry), "%s 8 %llx ffffffffffffffff ro", name,
				 (unsigned long long)e->header_log[2 * i + 1] << 32 |
				 e->header_log[2 * i]);
			err = ovr_add(dir, name, entry);
		}
		if (!err) {
			snprintf(name, sizeof(name), "0x%x", aer + PCI_ERR_CAP);
			snprintf(entry, sizeof(entry), "%s 1 %x 1f ro", name, fep);
			err = ovr_add(dir, name, entry);
		}
	}
	if (!err) {
		snprintf(name, sizeof(name), "0x%x", rp_aer + PCI_ERR_ROOT_COR_SRC);
		snprintf(entry, sizeof(entry), "%s 4 %x ffffffff ro", name, src);
		err = ovr_add(rp_dir, name, entry);
	}
	if (!err) {
		snprintf(name, sizeof(name), "0x%x", rp_aer + PCI_ERR_ROOT_STATUS);
		snprintf(entry, sizeof(entry), "%s 4 %x %x wc", name, rs & ROOT_STA_MASK,
			 ROOT_STA_MASK);
		err = ovr_add(rp_dir, name, entry);
	}
	snprintf(fire, sizeof(fire), PCI_DEVS "/%s/fire_irq", rp_bdf);
	snprintf(vec, sizeof(vec), "%d", pcie_vector(rp, PCI_ERR_MSG_NUM(rs)));
	t0 = now_ms();
	if (!err && (want[1] || want[2]))
		err = recovery_watch();
	if (!err)
		err = abi_write(fire, vec);
	if (err) {
		recovery_unwatch();
		undo_all();
		return err_exit("aer", err);
	}

	/*
	 * Handled: the port's status read and cleared, each kind of message
	 * counted by the port, the device's status cleared where Linux clears
	 * it (correctable at once, non-fatal during or after the recovery),
	 * and every recovery that has begun by then ended (recovery.c): the
	 * next error then finds the device's registers as hardware would.
	 * Linux does not read or clear an endpoint's status for a fatal
	 * error; its recovery, a link reset, may begin after this.
	 */
	deadline = t0 + opt.timeout_ms;
	snprintf(name, sizeof(name), "0x%x", rp_aer + PCI_ERR_ROOT_STATUS);
	err = wait_cleared(rp_dir, name, rs & ROOT_STA_MASK, deadline);
	for (i = 0; !err && i < 3; i++)
		if (kinds[i].before >= 0)
			err = wait_for(counted, &kinds[i], deadline);
	if (!err && e->cor_status) {
		snprintf(name, sizeof(name), "0x%x", aer + PCI_ERR_COR_STATUS);
		err = wait_cleared(dir, name, e->cor_status, deadline);
	}
	if (!err && want[1] && !want[2]) {
		snprintf(name, sizeof(name), "0x%x", aer + PCI_ERR_UNCOR_STATUS);
		err = wait_cleared(dir, name, e->uncor_status, deadline);
	}
	if (!err)
		err = recovery_wait(deadline);
	recovery_unwatch();
	describe(e, sever, what, sizeof(what));
	undo_all();	/* the error is gone: no override stays */
	if (err && err != -ETIME)
		return err_exit("aer", err);	/* -ENOBUFS: uevents lost */
	if (err) {
		fprintf(stderr, "%s: aer: the driver did not react in %d ms (%s on %s)\n",
			prog, opt.timeout_ms, what, bdf);
		return EX_TIMEOUT;
	}
	if (opt.dry_run)
		printf("aer %s: %s, reported by %s (dry run)\n", bdf, what, rp_bdf);
	else
		printf("aer %s: %s, reported by %s; the driver handled it in %lld ms\n",
		       bdf, what, rp_bdf, now_ms() - t0);
	return EX_OK;
}

static char *slurp(FILE *f)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap), *p;
	size_t n;

	while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len < 2) {
			p = realloc(buf, cap * 2);
			if (!p) {
				free(buf);
				return NULL;
			}
			buf = p;
			cap *= 2;
		}
	}
	if (buf)
		buf[len] = 0;
	return buf;
}

/* iohook aer [-s BDF] [FILE] */
int cmd_aer(int argc, char **argv)
{
	const char *file = NULL, *id = NULL;
	struct aer_error *errs = NULL;
	unsigned int dom, bus, dev, fn;
	int i, n = 0, ret = EX_OK;
	char *text;
	FILE *f;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-s") || !strcmp(argv[i], "--id")) {
			if (++i == argc)
				return EX_USAGE;
			id = argv[i];
		} else if (!strncmp(argv[i], "--id=", 5)) {
			id = argv[i] + 5;
		} else if (!file) {
			file = argv[i];
		} else {
			return EX_USAGE;
		}
	}
	if (id && parse_bdf(id, &dom, &bus, &dev, &fn)) {
		fprintf(stderr, "%s: aer: cannot parse PCI id '%s'\n", prog, id);
		return EX_USAGE;
	}
	f = !file || !strcmp(file, "-") ? stdin : fopen(file, "r");
	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, file, strerror(errno));
		return EX_FAIL;
	}
	text = slurp(f);
	if (f != stdin)
		fclose(f);
	if (!text)
		return err_exit("aer", -ENOMEM);
	if (aer_spec_parse(file ? file : "<stdin>", text, &errs, &n)) {
		free(text);
		return EX_SYNTAX;
	}
	free(text);
	for (i = 0; i < n; i++) {
		if (id) {
			errs[i].domain = dom;
			errs[i].bus = bus;
			errs[i].dev = dev;
			errs[i].fn = fn;
		} else if (!errs[i].has_id) {
			fprintf(stderr, "%s:%d: this error names no device (PCI_ID, or -s)\n",
				file ? file : "<stdin>", errs[i].line);
			free(errs);
			return EX_SYNTAX;
		}
	}
	for (i = 0; i < n && ret == EX_OK; i++)
		ret = inject(&errs[i]);
	if (!n)
		printf("aer: no error in %s\n", file ? file : "<stdin>");
	free(errs);
	return ret;
}
