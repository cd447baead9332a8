/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iohook(8): one command per hardware event, on top of the iohook sysfs
 * ABI (Documentation/ABI/testing/sysfs-bus-pci-iohook and
 * sysfs-kernel-iohook). Declarations shared by its source files.
 */
#ifndef IOHOOK_CLI_H
#define IOHOOK_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libiohook.h"	/* tools/lib/iohook: sysfs, uevents, IRQs, caps */

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Exit codes, documented in iohook.8. */
enum {
	EX_OK = 0,
	EX_FAIL = 1,		/* any other failure (errno shown) */
	EX_USAGE = 2,		/* bad command line */
	EX_NOIOHOOK = 3,	/* this kernel has no iohook */
	EX_PERM = 4,		/* not privileged */
	EX_NODEV = 5,		/* no such device, slot, IRQ or GPE */
	EX_NOCAP = 6,		/* the hardware does not offer it */
	EX_BUSY = 7,		/* an override is already in the way */
	EX_TIMEOUT = 8,		/* the driver did not react in time */
	EX_SYNTAX = 9,		/* malformed error file */
};

struct cli_opts {
	bool dry_run;		/* -n: print the sysfs writes, make none */
	bool verbose;		/* -v: print the sysfs writes as made */
	bool force;		/* -f: act even if the slot does not offer it */
	bool json;		/* --json (list, status) */
	int timeout_ms;		/* -t: how long to wait for the driver */
};

extern struct cli_opts opt;
extern const char *prog;

/* abi.c: the sysfs ABI, the dry run, and the undo journal */
int err_exit(const char *what, int err);
int abi_present(void);
int abi_write(const char *path, const char *text);
int abi_read(const char *path, char *buf, size_t len);
long long abi_read_hex(const char *path);
long long abi_read_num(const char *path);
bool abi_exists(const char *path);
int ovr_add(const char *dir, const char *name, const char *entry);
int ovr_remove(const char *dir, const char *name);
int ovr_set(const char *dir, const char *name, unsigned long long value);
void undo_all(void);
void undo_pop(void);
void undo_forget(void);
long long now_ms(void);
int wait_for(bool (*done)(const void *arg), const void *arg, long long deadline);
int wait_cleared(const char *dir, const char *name, unsigned long long bits,
		 long long deadline);

/* recovery.c: the end of a PCI error recovery, from its uevents */
int recovery_watch(void);
void recovery_unwatch(void);
int recovery_wait(long long deadline);
bool recovery_next(int fd, long long deadline, char *dev, char *ev);

/* pcie.c: devices, capabilities, ports and vectors, through libpci */
struct pci_dev;
int pcie_open(void);
void pcie_close(void);
int parse_bdf(const char *s, unsigned int *dom, unsigned int *bus,
	      unsigned int *dev, unsigned int *fn);
struct pci_dev *pcie_get(const char *bdf);
const char *pcie_name(struct pci_dev *d, char *buf, size_t len);
int pcie_cap(struct pci_dev *d);
int pcie_aer_cap(struct pci_dev *d);
int pcie_type(struct pci_dev *d);
struct pci_dev *pcie_root_port(struct pci_dev *d);
int pcie_vector(struct pci_dev *d, unsigned int msg_num);
struct pci_dev *pcie_slot_port(const char *slot, char *name, size_t len);
void ovr_dir(struct pci_dev *d, char *buf, size_t len);
int pcie_reenumerate(const char *bdf);

/* commands */
int cmd_list(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_add(int argc, char **argv);
int cmd_remove(int argc, char **argv);
int cmd_clear(int argc, char **argv);
int cmd_arm(int argc, char **argv);
int cmd_disarm(int argc, char **argv);
int cmd_fire(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_hotplug(int argc, char **argv);
int cmd_aer(int argc, char **argv);
int cmd_gpe(int argc, char **argv);
int cmd_cpu(int argc, char **argv);
int cmd_memory(int argc, char **argv);
int cmd_ioh(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_dpc(int argc, char **argv);
int cmd_recover(int argc, char **argv);

/* acpi_hotplug.c: the I/O register block of a firmware hotplug interface */
unsigned long acpi_io_block(const char *uid, unsigned long dflt);

/* gpe.c: raise a GPE through the SCI and wait until ACPI handled it */
int gpe_raise(long gpe, long long *elapsed_ms, char *desc, size_t len);

/* aer_spec.c: aer-inject's error-description language */
struct aer_error {
	bool has_id;
	unsigned int domain, bus, dev, fn;
	uint32_t cor_status, uncor_status;
	uint32_t header_log[4];
	int line;		/* where its AER keyword is */
};

int aer_spec_parse(const char *file, const char *text, struct aer_error **errs,
		   int *count);
const char *aer_bit_name(bool cor, int bit);

#endif /* IOHOOK_CLI_H */
