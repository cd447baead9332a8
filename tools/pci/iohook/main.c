// SPDX-License-Identifier: GPL-2.0
/*
 * iohook(8) - one command per hardware event, on the iohook sysfs ABI.
 *
 * Global options may come before or after the command; -n prints every
 * sysfs write instead of making it, -v prints them as they are made.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iohook.h"

struct cli_opts opt = { .timeout_ms = 10000 };
const char *prog = "iohook";

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	bool changes;		/* needs iohook and privilege */
	bool pci;		/* needs libpci */
	bool event;		/* raises an event: iohook must be armed */
	const char *args, *help;
};

static const struct command commands[] = {
	{ "list", cmd_list, false, false, false, "",
	  "Every override in every space: its device, length, mask, value,\n"
	  "attribute and hits, its condition and policy state. --json for scripts." },
	{ "status", cmd_status, false, false, false, "",
	  "Armed or not, overrides per space, and the static keys (with debugfs)." },
	{ "add", cmd_add, true, false, false, "TARGET ENTRY...",
	  "Add overrides. TARGET is a device (BDF) or a space (io, mem, pciconf);\n"
	  "each ENTRY is \"LOCATION LENGTH VALUE MASK ATTR [OPTIONS]\" (hex) as\n"
	  "the add files take it. All entries are added, or none." },
	{ "remove", cmd_remove, true, false, false, "TARGET NAME|all",
	  "Remove the override(s) starting at NAME (\"6e\", \"bar0+8\", \"LOC@VAL\")." },
	{ "clear", cmd_clear, true, false, false, "",
	  "Remove every override in every space." },
	{ "arm", cmd_arm, true, false, false, "", "Make the overrides take effect." },
	{ "disarm", cmd_disarm, true, false, false, "",
	  "Show the hardware again; the overrides stay staged." },
	{ "fire", cmd_fire, true, false, false, "BDF [VECTOR] | irq N",
	  "Fire a device's interrupt vector (default 0), or Linux IRQ N." },
	{ "trace", cmd_trace, true, false, false, "[SECONDS]",
	  "Turn the iohook tracepoints on and stream them until interrupted\n"
	  "(or for SECONDS); the tracing state found is restored." },
	{ "hotplug", cmd_hotplug, true, true, true, "SLOT|PORT ACTION",
	  "A PCI Express hotplug event on a slot (its name in /sys/bus/pci/slots)\n"
	  "or port (BDF). ACTION: button, present, surprise-removal, link-down,\n"
	  "link-up, power-fault, mrl-open, mrl-close. Refused when the slot's\n"
	  "capabilities do not offer it, unless -f. The slot's new state stays\n"
	  "in overrides; the reverse action or clear restores it." },
	{ "aer", cmd_aer, true, true, true, "[-s BDF] [FILE]",
	  "Inject the errors of an aer-inject error file (stdin without FILE)\n"
	  "as hardware reports them, one after the other, each through its\n"
	  "Root Port's AER interrupt. -s gives the device for every error." },
	{ "gpe", cmd_gpe, true, false, true, "N",
	  "Raise ACPI GPE N through the SCI; the GPE block comes from the FADT." },
	{ "cpu", cmd_cpu, true, false, true, "SLOT add|remove",
	  "ACPI CPU hotplug on QEMU's firmware interface: the CPU in firmware\n"
	  "slot SLOT (QEMU's selector and _UID, not a logical CPU number; one\n"
	  "QEMU has not plugged) appears, or an eject request takes it away; the\n"
	  "logical CPU the kernel made of it is reported. The CPU's presence\n"
	  "stays in an override until it is removed." },
	{ "memory", cmd_memory, true, false, true, "SLOT add [BASE SIZE] | SLOT remove",
	  "ACPI memory hotplug on QEMU's firmware interface: a DIMM that does not\n"
	  "exist appears in SLOT (default at 4 GiB + SLOT GiB, 256 MiB), or an\n"
	  "eject request takes it away. Keep it offline: nothing is behind it." },
	{ "model", cmd_model, true, false, false,
	  "load OBJ [TARGET LOCATION LENGTH] | list | trace NAME [SECONDS] | unload NAME",
	  "Register models (BPF struct_ops objects, models/*.bpf.o):\n"
	  "load registers the object's model and binds it to LENGTH bytes (hex)\n"
	  "from LOCATION of TARGET (a device, BDF, or io, mem, pciconf), arming\n"
	  "iohook (without a target it stays unbound, for a models file or the\n"
	  "kernel to bind) and keeps working after this command exits; list\n"
	  "shows every model with its counters (--json too); trace prints a\n"
	  "tracing model's accesses; unload unbinds and unregisters it." },
	{ "dpc", cmd_dpc, true, true, true,
	  "[list] | PORT add [--rp-ext] | PORT remove |\n"
	  "             PORT trigger REASON [-s BDF] [--busy MS]",
	  "Downstream Port Containment on a port whose hardware has none:\n"
	  "add gives PORT a DPC capability (--rp-ext: with RP Extensions) and\n"
	  "enumerates PORT again (remove, rescan) so that the kernel's DPC\n"
	  "service binds; trigger contains PORT (REASON: fatal, nonfatal,\n"
	  "uncor, software, rp-pio; -s: the source device; --busy: RP Busy\n"
	  "held MS ms) and waits until the kernel recovered what is below it,\n"
	  "printing each device's verdict; remove puts PORT back as it was." },
	{ "recover", cmd_recover, true, true, true,
	  "[DEVICE|PORT|all] [--errors LIST] [--json]",
	  "Which drivers recover from which errors: each class of LIST\n"
	  "(default all: aer-cor, aer-nonfatal, aer-fatal, dpc-fatal,\n"
	  "dpc-software) is raised in turn against each PCIe endpoint below\n"
	  "a root port (or the device, or those below the port named); a row\n"
	  "says the driver, whether it has error handlers, the kernel's\n"
	  "verdict, the time, whether the device works afterwards (its own\n"
	  "probe) and whether the kernel splatted. DPC classes make up the\n"
	  "port's DPC for the run when it has none. Progress on stderr." },
	{ "ioh", cmd_ioh, true, false, true, "N add|remove",
	  "ACPI I/O hub hotplug: host bridge N of the firmware (\\_SB.IOHN, from\n"
	  "scripts/firmware/q35-ioh-ssdt.asl) appears with a test device on its\n"
	  "root bus, or an eject request removes the bridge and all below it." },
};

#define NCMDS ARRAY_SIZE(commands)

static void print_usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: %s [-n] [-v] [-f] [-t MS] [--json] COMMAND [ARGS]\n\n", prog);
	for (i = 0; i < NCMDS; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].args);
	fprintf(f, "\n  -n, --dry-run  print the sysfs writes, make none\n"
		"  -v, --verbose  print the sysfs writes as they are made\n"
		"  -f, --force    act even where the hardware does not offer it\n"
		"  -t, --timeout MS  wait this long for the driver (default 10000)\n"
		"  --json         machine-readable list and status\n"
		"\n%s COMMAND --help, and iohook(8), say more.\n", prog);
}

static void command_help(const struct command *c)
{
	printf("usage: %s [OPTIONS] %s %s\n\n%s\n", prog, c->name, c->args, c->help);
	printf("\nExit status: 0 done, 1 failed, 2 usage, 3 no iohook, 4 not privileged,\n"
	       "5 no such device, 6 not offered by the hardware, 7 an override in the way,\n"
	       "8 the driver did not react in time, 9 malformed error file.\n");
}

/* Take the global options out of argv, wherever they are. */
static int global_options(int *argc, char **argv, bool *help)
{
	int i, n = 0;

	for (i = 0; i < *argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-n") || !strcmp(a, "--dry-run")) {
			opt.dry_run = true;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			opt.verbose = true;
		} else if (!strcmp(a, "-f") || !strcmp(a, "--force")) {
			opt.force = true;
		} else if (!strcmp(a, "--json")) {
			opt.json = true;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			*help = true;
		} else if (!strcmp(a, "-t") || !strcmp(a, "--timeout")) {
			char *end;

			if (i + 1 == *argc)
				return -1;
			opt.timeout_ms = strtol(argv[++i], &end, 10);
			if (*end || opt.timeout_ms <= 0)
				return -1;
		} else {
			argv[n++] = argv[i];
		}
	}
	*argc = n;
	return 0;
}

int main(int argc, char **argv)
{
	const struct command *c = NULL;
	bool help = false, armed_here = false;
	size_t i;
	int ret;

	argc--, argv++;
	if (global_options(&argc, argv, &help)) {
		print_usage(stderr);
		return EX_USAGE;
	}
	if (!argc) {
		print_usage(help ? stdout : stderr);
		return help ? EX_OK : EX_USAGE;
	}
	for (i = 0; i < NCMDS; i++)
		if (!strcmp(argv[0], commands[i].name))
			c = &commands[i];
	if (!c) {
		fprintf(stderr, "%s: unknown command '%s'\n", prog, argv[0]);
		print_usage(stderr);
		return EX_USAGE;
	}
	if (help) {
		command_help(c);
		return EX_OK;
	}
	ret = abi_present();
	if (ret == EX_NOIOHOOK || (ret && c->changes))
		return ret;
	if (c->pci && pcie_open()) {
		fprintf(stderr, "%s: cannot open libpci\n", prog);
		return EX_FAIL;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	/*
	 * An event needs the overrides in force. Arm if disarmed, and put
	 * that back too if the command fails.
	 */
	if (c->event && abi_read_num(IOHOOK_SYS "/armed") == 0) {
		ret = abi_write(IOHOOK_SYS "/armed", "1");
		if (ret)
			return err_exit("armed", ret);
		armed_here = true;
		fprintf(stderr, "%s: iohook was disarmed: armed it\n", prog);
	}
	ret = c->fn(argc, argv);
	if (ret && armed_here)
		abi_write(IOHOOK_SYS "/armed", "0");
	if (ret == EX_USAGE)
		fprintf(stderr, "usage: %s %s %s\n", prog, c->name, c->args);
	pcie_close();
	return ret;
}
