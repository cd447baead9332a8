/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iohook_fuzz.h - what the ABI fuzzer (iohook_fuzz) and the
 * allocation-failure tests (iohook_faults) share: the iohook files they
 * write, the places that are safe to add overrides at, a seeded PRNG, the
 * listings a refused write must leave as they were, and a fixture that
 * starts and ends with an empty, armed store.
 *
 * Safe places are ones nothing uses: the POST port, a physical range no
 * device decodes, a PCI domain with no device, and the vendor-specific
 * config bytes of the empty root port 00:1d.0.
 */
#ifndef IOHOOK_FUZZ_H
#define IOHOOK_FUZZ_H

#include "iohook_util.h"
#include "kselftest_harness.h"

#define RP2		"0000:00:1d.0"
#define RP2_OVR		PCI_DEVS "/" RP2 "/overrides"
#define ARMED		IOHOOK_SYS "/armed"
#define STATE		IOHOOK_STATE
#define MEM_SAFE	0x000d000000000000ULL

static unsigned long long rng;

static inline unsigned int rnd(unsigned int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? rng % n : 0;
}

/* Where a write goes, and the locations that are safe to add there. */
struct target {
	const char *add, *remove, *dir;
	const char *fmt;	/* a safe location from a small number */
	unsigned int max_len;
};

static const struct target targets[] = {
	{ IOHOOK_SYS "/io/add", IOHOOK_SYS "/io/remove", IOHOOK_SYS "/io",
	  "%x", 1 },				/* 0x80 + n: see safe_loc() */
	{ IOHOOK_SYS "/mem/add", IOHOOK_SYS "/mem/remove", IOHOOK_SYS "/mem",
	  "%llx", 8 },
	{ IOHOOK_SYS "/pciconf/add", IOHOOK_SYS "/pciconf/remove",
	  IOHOOK_SYS "/pciconf", "abcd:00:00.0+%x", 8 },
	{ RP2_OVR "/add", RP2_OVR "/remove", RP2_OVR, "%x", 4 },
};

/* Every override directory of every target, '|' between targets. */
static inline void listings(char *out, size_t len)
{
	char one[8192];
	unsigned int i;

	out[0] = 0;
	for (i = 0; i < ARRAY_SIZE(targets); i++) {
		dir_listing(targets[i].dir, one, sizeof(one));
		strncat(out, one, len - strlen(out) - 1);
		strncat(out, "|", len - strlen(out) - 1);
	}
}

static inline void remove_everything(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(targets); i++)
		sysfs_write(targets[i].remove, "all");
}

FIXTURE(fz) {
};

/* IOHOOK_FUZZ_SEED seeds the PRNG (default: the time; printed either way). */
FIXTURE_SETUP(fz)
{
	const char *s = getenv("IOHOOK_FUZZ_SEED");

	if (!path_exists(STATE))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	remove_everything();
	sysfs_write(ARMED, "1");
	rng = s ? strtoull(s, NULL, 0) : (unsigned long long)time(NULL);
	rng |= 1;
	TH_LOG("seed %llu", rng);
}

FIXTURE_TEARDOWN(fz)
{
	remove_everything();
	sysfs_write(ARMED, "0");
}

#endif /* IOHOOK_FUZZ_H */
