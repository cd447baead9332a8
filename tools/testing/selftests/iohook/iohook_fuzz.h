/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the ABI fuzzer (iohook_fuzz) and the
 * allocation-failure tests (iohook_faults) share: the iohook files they
 * write, the places that are safe to add overrides at, a seeded PRNG, the
 * listings a refused write must leave as they were, and a fixture that
 * starts and ends with an empty, armed store.
 *
 * Safe places are ones nothing uses: the POST port, a physical range no
 * device decodes, a PCI domain with no device, and the vendor-specific
 * config bytes of the empty root port 00:1d.0. The last exists only on
 * vm-run's q35 machine: elsewhere (real hardware) the tests use the
 * three global spaces alone, which makes them safe to run anywhere.
 */
#ifndef IOHOOK_FUZZ_H
#define IOHOOK_FUZZ_H

#include "iohook_q35.h"
#include "iohook_harness.h"
#include <sys/syscall.h>

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
	const char *fmt;	/* a safe location, as its directory is named */
	unsigned int max_len;
};

static const struct target targets[] = {
	{ IOHOOK_SYS "/io/add", IOHOOK_SYS "/io/remove", IOHOOK_SYS "/io",
	  "0x%x", 1 },				/* 0x80 + n: see safe_loc() */
	{ IOHOOK_SYS "/mem/add", IOHOOK_SYS "/mem/remove", IOHOOK_SYS "/mem",
	  "0x%llx", 8 },
	{ IOHOOK_SYS "/pciconf/add", IOHOOK_SYS "/pciconf/remove",
	  IOHOOK_SYS "/pciconf", "abcd:00:00.0+%x", 8 },
	{ RP2_OVR "/add", RP2_OVR "/remove", RP2_OVR, "0x%x", 4 },
};

/* How many of targets[] this machine has: the last is q35's 00:1d.0. */
static unsigned int n_targets = ARRAY_SIZE(targets);

static inline bool have_rp2(void)
{
	return n_targets == ARRAY_SIZE(targets);
}

/*
 * Under KASAN and kmemleak an open() and close() of a sysfs file or
 * directory cost more than the write or the read itself, and the fuzzer
 * makes 200 000 writes in the debug profile: the files and directories
 * it uses all the time stay open, and are written with pwrite() at 0 and
 * read again from 0 (a sysfs store ignores the offset). iohook_fuzz still
 * opens a file anew for one write in eight.
 */
static inline int kept_open(const char *path, int flags)
{
	static struct { const char *path; int fd; } open_files[16];
	unsigned int i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(open_files) && open_files[i].path; i++)
		if (open_files[i].path == path)
			return open_files[i].fd;
	if (i == ARRAY_SIZE(open_files)) {
		errno = EMFILE;		/* more constant paths than slots */
		return -1;
	}
	/* Only an open that worked is kept: a failure sets errno each time. */
	fd = open(path, flags);
	if (fd >= 0) {
		open_files[i].path = path;
		open_files[i].fd = fd;
	}
	return fd;
}

/* sysfs_write_bytes() on a file that stays open; @path must be a constant. */
static inline int write_kept_open(const char *path, const char *buf, size_t len)
{
	int fd = kept_open(path, O_WRONLY);

	if (fd < 0)
		return -errno;
	return pwrite(fd, buf, len, 0) < 0 ? -errno : 0;
}

/* What getdents64() returns (glibc's struct dirent64 needs _GNU_SOURCE). */
struct linux_dirent64 {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/*
 * Every override directory of every target, '|' between targets, in the
 * order kernfs returns them (the same for the same set of names).
 */
static inline void listings(char *out, size_t len)
{
	char dents[8192];
	unsigned int i;
	long n, off;

	out[0] = 0;
	for (i = 0; i < n_targets; i++) {
		int fd = kept_open(targets[i].dir, O_RDONLY | O_DIRECTORY);

		if (fd >= 0 && lseek(fd, 0, SEEK_SET) == 0) {
			while ((n = syscall(SYS_getdents64, fd, dents, sizeof(dents))) > 0) {
				for (off = 0; off < n;) {
					struct linux_dirent64 *d = (void *)(dents + off);

					strncat(out, d->d_name, len - strlen(out) - 2);
					strncat(out, " ", len - strlen(out) - 1);
					off += d->d_reclen;
				}
			}
		}
		strncat(out, "|", len - strlen(out) - 1);
	}
}

static inline void remove_everything(void)
{
	unsigned int i;

	for (i = 0; i < n_targets; i++)
		iohook_sysfs_write(targets[i].remove, "all");
}

FIXTURE(fz) {
};

/* Any machine will do (see above), but not a kernel without iohook. */
static void __attribute__((constructor)) need_iohook(void)
{
	iohook_gate(false);
}

/* IOHOOK_FUZZ_SEED seeds the PRNG (default: the time; printed either way). */
FIXTURE_SETUP(fz)
{
	const char *s = getenv("IOHOOK_FUZZ_SEED");
	const char *why = q35_missing();

	if (why && q35_required())
		ASSERT_EQ(NULL, why) TH_LOG("IOHOOK_MACHINE=q35: %s", why);
	if (why) {
		n_targets = ARRAY_SIZE(targets) - 1;
		TH_LOG("%s: 00:1d.0's config space is left out", why);
	}
	if (!path_exists(STATE))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	remove_everything();
	iohook_sysfs_write(ARMED, "1");
	rng = s ? strtoull(s, NULL, 0) : (unsigned long long)time(NULL);
	rng |= 1;
	TH_LOG("seed %llu", rng);
}

FIXTURE_TEARDOWN(fz)
{
	remove_everything();
	iohook_sysfs_write(ARMED, "0");
}

#endif /* IOHOOK_FUZZ_H */
