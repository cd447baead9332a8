// SPDX-License-Identifier: GPL-2.0
/*
 * iohook_fuzz - random and near-valid input to every writable iohook
 * file, while another process keeps accessing hooked registers.
 *
 * Each write either succeeds, and then every entry it added is listed
 * exactly (its directory exists, with the length, mask, attribute and
 * value written), or fails with an errno from the documented set, and
 * then every listing is as it was. Valid entries only ever name places
 * nothing uses: the POST port, a physical range no device decodes, a PCI
 * domain with no device, and the vendor-specific config bytes of the
 * empty root port 00:1d.0; a mutated location is malformed or out of
 * range, never another real register.
 *
 * The accesses are made between the writes, by this process (a read of
 * 00:1d.0's config space through sysfs, which goes through the hooked
 * config accessors, after every write), not by a second process spinning
 * on them: the writes flip the static keys all the time, and under QEMU
 * TCG a CPU executing a static-branch site while another CPU patches it
 * can take a stale int3 ("Oops: int3", an emulator bug with
 * cross-modifying code; see the user guide). The kernel's own accesses
 * (port 0x80 delays, timers) do run concurrently.
 *
 * IOHOOK_FUZZ_WRITES sets the number of writes (default 20000; the
 * debug profile's 200 000 take over an hour under KASAN and TCG, hence
 * the 4-hour limit) and
 * IOHOOK_FUZZ_SEED the seed (default: the time; printed either way).
 * At the end, removing everything must leave the store empty, every
 * filter count at 0 and both static keys off (debugfs iohook/state).
 */
#include "iohook_util.h"
#include "kselftest_harness.h"

#define RP2		"0000:00:1d.0"
#define RP2_OVR		PCI_DEVS "/" RP2 "/overrides"
#define ARMED		IOHOOK_SYS "/armed"
#define STATE		IOHOOK_STATE
#define MEM_SAFE	0x000d000000000000ULL

static unsigned long long rng;

static unsigned int rnd(unsigned int n)
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

static void safe_loc(const struct target *t, char *buf, size_t len)
{
	unsigned int n = rnd(8);

	if (t == &targets[0])
		snprintf(buf, len, "%x", 0x80 + (n & 1));
	else if (t == &targets[1])
		snprintf(buf, len, "%llx", MEM_SAFE + n * 8);
	else if (t == &targets[2])
		snprintf(buf, len, t->fmt, 0x100 + n * 8);
	else
		snprintf(buf, len, "%x", 0xf0 + (n & 3) * 4);
}

static const char * const bad_locs[] = {
	"", "+", "zz", "-1", "0x", "bar9+0", "bar0++8", "ffffffffffffffffff",
	"10000", "1000", "abcd:00:00.0", "abcd:00:00.0+1000", "0000:0x:00.0+0",
	"10000000000000", "bar0+", "@", "80@", "80@zz",
};

static const char * const attrs[] = { "ro", "rw", "rc", "wc", "RO", "xx", "" };

static const char * const options[] = {
	"", "", "", "count=1", "skip=2 count=3", "prob=1/3 seed=7", "count=0",
	"prob=2/1", "prob=1/0", "seed=1", "skip=1 skip=1", "sel=%s:4=1",
	"sel=%s:1&f=3", "sel=%s:3=1", "sel=%s:10=1", "sel=%s:4&f=10",
	"count=99999999999999999999", "bogus=1", "sel=", "count=",
};

/* A near-valid entry: valid, then (usually) one field mutated. */
static void near_valid(const struct target *t, char *buf, size_t len)
{
	char loc[64], sel[64], opt[96], f[5][64];
	unsigned int l = 1 + rnd(t->max_len), field = rnd(7);
	unsigned long long mask = l >= 8 ? ~0ULL : (1ULL << (l * 8)) - 1;

	safe_loc(t, loc, sizeof(loc));
	safe_loc(t, sel, sizeof(sel));
	snprintf(f[0], sizeof(f[0]), "%s", loc);
	snprintf(f[1], sizeof(f[1]), "%x", l);
	snprintf(f[2], sizeof(f[2]), "%llx", 0ULL);
	snprintf(f[3], sizeof(f[3]), "%llx", mask & (rng | 1));
	snprintf(f[4], sizeof(f[4]), "%s", attrs[rnd(4)]);
	snprintf(opt, sizeof(opt), options[rnd(ARRAY_SIZE(options))], sel);
	switch (field) {
	case 0:
		snprintf(f[0], sizeof(f[0]), "%s", bad_locs[rnd(ARRAY_SIZE(bad_locs))]);
		break;
	case 1:
		snprintf(f[1], sizeof(f[1]), "%x", rnd(3) ? 0 : 9 + rnd(100));
		break;
	case 2:
		snprintf(f[2], sizeof(f[2]), "%llx", rng);	/* outside mask, often */
		break;
	case 3:
		snprintf(f[3], sizeof(f[3]), "%s", rnd(2) ? "0" : "fffffffffffffffffff");
		break;
	case 4:
		snprintf(f[4], sizeof(f[4]), "%s", attrs[4 + rnd(3)]);
		break;
	default:
		break;		/* valid, apart from the options */
	}
	snprintf(buf, len, "%s %s %s %s %s %s", f[0], f[1], f[2], f[3], f[4], opt);
}

/* Random bytes, long lines, NULs, separators, huge numbers. */
static size_t garbage(char *buf, size_t len)
{
	static const char seps[] = " \t\n;\r";
	size_t n, i;

	switch (rnd(5)) {
	case 0:
		n = rnd(64);
		for (i = 0; i < n; i++)
			buf[i] = rnd(256);
		return n;
	case 1:
		n = 4096 + rnd(4096);
		if (n > len)
			n = len;
		for (i = 0; i < n; i++)
			buf[i] = "0123456789abcdef x;"[rnd(19)];
		return n;
	case 2:
		n = snprintf(buf, len, "80 1 0 1 ro");
		buf[rnd(n)] = 0;
		return n;
	case 3:
		n = 1 + rnd(32);
		for (i = 0; i < n; i++)
			buf[i] = seps[rnd(sizeof(seps) - 1)];
		return n;
	default:
		return snprintf(buf, len, "%s %s %s %s ro",
				rnd(2) ? "80" : "99999999999999999999999999",
				rnd(2) ? "1" : "ffffffffffffffffffffff",
				"18446744073709551616", "1");
	}
}

static const char * const armed_texts[] = { "0", "1", "1", "2", "", "x" };

static bool errno_documented(int err)
{
	return err == -EINVAL || err == -ERANGE || err == -EEXIST ||
	       err == -E2BIG || err == -EXDEV || err == -ENOENT;
}

static void listings(char *out, size_t len)
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

/* A read of 00:1d.0's config space, through the hooked accessors. */
static void access_registers(void)
{
	static int cfg = -1;
	unsigned char b[256];

	if (cfg < 0)
		cfg = open(PCI_DEVS "/" RP2 "/config", O_RDONLY);
	if (cfg >= 0 && pread(cfg, b, sizeof(b), 0) < 0)
		return;
}

static void remove_everything(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(targets); i++)
		sysfs_write(targets[i].remove, "all");
}

FIXTURE(fz) {
};

FIXTURE_SETUP(fz)
{
	const char *s = getenv("IOHOOK_FUZZ_SEED");

	if (!path_exists(STATE))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	remove_everything();
	sysfs_write(ARMED, "1");
	rng = s ? strtoull(s, NULL, 0) : (unsigned long long)time(NULL);
	rng |= 1;
}

FIXTURE_TEARDOWN(fz)
{
	remove_everything();
	sysfs_write(ARMED, "0");
}

/* An unsigned number from a sysfs file (masks may have bit 63 set). */
static unsigned long long read_u64(const char *dir, const char *loc,
				   const char *file)
{
	char path[256], buf[64];

	snprintf(path, sizeof(path), "%s/%s/%s", dir, loc, file);
	if (sysfs_read(path, buf, sizeof(buf)) <= 0)
		return ~0ULL;
	return strtoull(buf, NULL, 0);
}

/* Whether "@name"'s directory in @dir holds @len, @mask and @attr. */
static bool listed_exactly(const char *dir, const char *entry)
{
	char loc[64], len[32], val[32], mask[32], attr[16], path[256], got[64];
	unsigned long long l, v, m;
	const char *sel = strstr(entry, "sel=");

	if (sscanf(entry, "%63s %31s %31s %31s %15s", loc, len, val, mask, attr) != 5)
		return false;
	l = strtoull(len, NULL, 16);
	v = strtoull(val, NULL, 16);
	m = strtoull(mask, NULL, 16);
	/* A conditional override's directory is LOCATION@VALUE. */
	if (sel)
		snprintf(loc + strlen(loc), sizeof(loc) - strlen(loc), "@%llx",
			 strtoull(strrchr(sel, '=') + 1, NULL, 16));
	snprintf(path, sizeof(path), "%s/%s/attr", dir, loc);
	if (sysfs_read(path, got, sizeof(got)) <= 0 || strcmp(got, attr))
		return false;
	/* rw values follow writes and rc values clear on the reads made since. */
	return read_u64(dir, loc, "length") == l &&
	       read_u64(dir, loc, "mask") == m &&
	       (!strcmp(attr, "rw") || !strcmp(attr, "rc") ||
		(read_u64(dir, loc, "value") & m) == (v & m));
}

TEST_F_TIMEOUT(fz, abi, 14400)
{
	static char buf[8192], before[65536], after[65536];
	const char *w = getenv("IOHOOK_FUZZ_WRITES");
	long writes = w ? atol(w) : 20000, i, ok = 0, bad = 0, counts[8] = {};
	static char vpath[512], names[8192];
	char state[512], *name, *save;
	long failures = 0;
	/* Listings change only when a write succeeds: read them again then. */
	bool stale = true;

	TH_LOG("seed %llu, %ld writes", rng, writes);
	for (i = 0; i < writes; i++) {
		const struct target *t = &targets[rnd(ARRAY_SIZE(targets))];
		unsigned int kind = rnd(8);
		const char *path = t->add;
		bool to_armed = false;
		size_t n;
		int err;

		if (i % 500 == 0) {
			remove_everything();
			stale = true;
		}
		/* Progress, so that a run the harness times out still tells. */
		if (i && i % 10000 == 0)
			TH_LOG("%ld writes, %ld failures so far", i, failures);
		switch (kind) {
		case 0: case 1: case 2:
			near_valid(t, buf, sizeof(buf));
			n = strlen(buf);
			break;
		case 3:
			n = garbage(buf, sizeof(buf));
			break;
		case 4:		/* two entries, all or nothing */
			near_valid(t, buf, sizeof(buf) / 2);
			strcat(buf, rnd(2) ? ";" : "\n");
			near_valid(t, buf + strlen(buf), sizeof(buf) / 2);
			n = strlen(buf);
			break;
		case 5:
			path = t->remove;
			if (rnd(2))
				safe_loc(t, buf, sizeof(buf));
			else
				snprintf(buf, sizeof(buf), "%s",
					 bad_locs[rnd(ARRAY_SIZE(bad_locs))]);
			n = strlen(buf);
			break;
		case 6:
			path = ARMED;
			to_armed = true;
			n = snprintf(buf, sizeof(buf), "%s", armed_texts[rnd(6)]);
			break;
		default:
			/* The value file of an existing override, if any. */
			dir_listing(t->dir, names, sizeof(names));
			name = strtok_r(names, " ", &save);
			while (name && (!strcmp(name, "add") || !strcmp(name, "remove") ||
					!strcmp(name, ".") || !strcmp(name, "..")))
				name = strtok_r(NULL, " ", &save);
			if (!name) {
				path = t->remove;
				n = snprintf(buf, sizeof(buf), "all");
				break;
			}
			snprintf(vpath, sizeof(vpath), "%s/%s/value", t->dir, name);
			path = vpath;
			n = rnd(2) ? garbage(buf, sizeof(buf)) :
				     (size_t)snprintf(buf, sizeof(buf), "%x", rnd(512));
			break;
		}
		if (stale)
			listings(before, sizeof(before));
		stale = false;
		err = sysfs_write_bytes(path, buf, n);
		access_registers();
		counts[kind]++;
		if (!err) {
			ok++;
			stale = true;
			if (path == t->add && kind <= 2 && !listed_exactly(t->dir, buf)) {
				failures++;
				TH_LOG("'%s' accepted but not listed exactly", buf);
			}
			continue;
		}
		bad++;
		if (!errno_documented(err)) {
			failures++;
			TH_LOG("write %ld to %s: errno %d for '%.*s'", i, path, -err,
			       (int)(n > 80 ? 80 : n), buf);
		}
		if (to_armed)
			continue;
		listings(after, sizeof(after));
		if (strcmp(before, after)) {
			failures++;
			stale = true;
			TH_LOG("write %ld to %s failed (%d) but changed a listing: '%.*s'",
			       i, path, -err, (int)(n > 80 ? 80 : n), buf);
		}
		if (failures > 10)
			break;
	}
	EXPECT_EQ(0, failures);
	TH_LOG("%ld writes: %ld accepted, %ld refused; by kind %ld %ld %ld %ld %ld %ld %ld %ld",
	       i, ok, bad, counts[0], counts[1], counts[2], counts[3], counts[4],
	       counts[5], counts[6], counts[7]);
	EXPECT_GT(ok, 0);
	EXPECT_GT(bad, 0);

	/* Everything removed: an empty store, clean filters, keys off. */
	remove_everything();
	sysfs_write(ARMED, "1");
	ASSERT_GT(sysfs_read(STATE, state, sizeof(state)), 0);
	EXPECT_NE(NULL, strstr(state, "keys pciconf=0 mem=0 io=0")) TH_LOG("%s", state);
	EXPECT_NE(NULL, strstr(state, "overrides pciconf=0 mem=0 io=0"));
	EXPECT_NE(NULL, strstr(state, "selectors pciconf=0 mem=0 io=0"));
	EXPECT_NE(NULL, strstr(state, "filter_sum pciconf=0 mem=0 io=0"));
	EXPECT_NE(NULL, strstr(state, "vfilter_sum 0")) TH_LOG("%s", state);
}

/* The override directories in @dir (everything but add and remove). */
static int dir_entries(const char *dir)
{
	struct dirent **names;
	int n, i, count = 0;

	n = scandir(dir, &names, NULL, NULL);
	for (i = 0; i < n; i++) {
		const char *s = names[i]->d_name;

		count += strcmp(s, ".") && strcmp(s, "..") && strcmp(s, "add") &&
			 strcmp(s, "remove");
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return count;
}

/* What a failed add must leave as it was: listings, store, static keys. */
struct snapshot {
	char listing[16384];
	char overrides[256];
	char keys[256];
};

static void snapshot(struct snapshot *s)
{
	listings(s->listing, sizeof(s->listing));
	state_line("overrides", s->overrides, sizeof(s->overrides));
	state_line("keys", s->keys, sizeof(s->keys));
}

/* Whether the state is still @before; says what changed if not. */
static bool unchanged_since(struct __test_metadata *_metadata,
			    const struct snapshot *before)
{
	static struct snapshot now;

	snapshot(&now);
	if (!strcmp(before->listing, now.listing) &&
	    !strcmp(before->overrides, now.overrides) &&
	    !strcmp(before->keys, now.keys))
		return true;
	TH_LOG("  %s -> %s; %s -> %s", before->overrides, now.overrides,
	       before->keys, now.keys);
	TH_LOG("  listing before: %.200s", before->listing);
	TH_LOG("  listing after:  %.200s", now.listing);
	return false;
}

/*
 * Adds of 1 to 50 entries, each with one slab allocation of this task
 * made to fail: the first one after a random number of bytes allocated
 * (failslab's "space", times=1), so that over the run every allocation
 * site fails in turn: in the write path, the sysfs layer (directories of
 * the global space and of the device's view), the store, the selectors
 * and the maple tree. Each add either succeeds whole (the failure fell
 * after it) or fails with ENOMEM leaving the listings, the store, the
 * filters and the static keys as they were.
 */
TEST_F_TIMEOUT(fz, add_all_or_nothing_under_failslab, 3600)
{
	const char *e = getenv("IOHOOK_FAULT_ADDS");
	long adds = e ? atol(e) : 1000, i, ok = 0, nomem = 0, failures = 0;
	static struct snapshot before;
	static char buf[8192];
	char sa[256];

	if (!fault_setup("failslab"))
		SKIP(return, "no failslab in this kernel");
	for (i = 0; i < adds && failures < 10; i++) {
		bool dev = rnd(3) == 0;
		unsigned int n = dev ? 1 + rnd(16) : 1 + rnd(50), k;
		const char *add = dev ? RP2_OVR "/add" : IOHOOK_SYS "/mem/add";
		size_t len = 0;
		int err;

		for (k = 0; k < n; k++) {
			char opt[64] = "";

			if (rnd(4) == 0)
				snprintf(opt, sizeof(opt), " count=%u", 1 + rnd(5));
			if (dev)
				len += snprintf(buf + len, sizeof(buf) - len,
						"%x 1 0 ff %s%s;", 0xf0 + k,
						rnd(2) ? "ro" : "wc", opt);
			else if (k % 5 == 4)	/* shares bytes with the entry before */
				len += snprintf(buf + len, sizeof(buf) - len,
						"%llx 4 1 ff ro sel=%llx:4=%u%s;",
						MEM_SAFE + (k - 1) * 16, MEM_SAFE + 8,
						1000 + k, opt);
			else
				len += snprintf(buf + len, sizeof(buf) - len,
						"%llx 4 1 ff %s sel=%llx:4=%u%s;",
						MEM_SAFE + k * 16, rnd(2) ? "ro" : "rc",
						MEM_SAFE + 8, k + 1, opt);
		}
		snapshot(&before);
		sysfs_writef("/sys/kernel/debug/failslab/space", "%u", rnd(n * 2000 + 2000));
		sysfs_write("/sys/kernel/debug/failslab/times", "1");
		fault_this_task(true);
		err = sysfs_write_bytes(add, buf, len);
		fault_this_task(false);
		if (!err) {
			ok++;
			/* Whole: every entry has its directories, here and globally. */
			if (dir_entries(dev ? RP2_OVR : IOHOOK_SYS "/mem") != n ||
			    (dev && dir_entries(IOHOOK_SYS "/pciconf") != n)) {
				failures++;
				TH_LOG("add %ld of %u entries succeeded with %d and %d directories",
				       i, n, dir_entries(dev ? RP2_OVR : IOHOOK_SYS "/mem"),
				       dir_entries(IOHOOK_SYS "/pciconf"));
			}
			remove_everything();
			continue;
		}
		if (err != -ENOMEM) {
			failures++;
			TH_LOG("add %ld: errno %d for '%.60s...'", i, -err, buf);
			continue;
		}
		nomem++;
		if (!unchanged_since(_metadata, &before)) {
			failures++;
			TH_LOG("add %ld of %u entries failed with ENOMEM but changed state", i, n);
		}
	}
	fault_teardown("failslab");
	TH_LOG("%ld adds: %ld succeeded, %ld failed with ENOMEM", i, ok, nomem);
	EXPECT_EQ(0, failures);
	EXPECT_GT(ok, 0);
	EXPECT_GT(nomem, 0);
	remove_everything();
	state_line("filter_sum", sa, sizeof(sa));
	EXPECT_STREQ("filter_sum pciconf=0 mem=0 io=0", sa);
	state_line("vfilter_sum", sa, sizeof(sa));
	EXPECT_STREQ("vfilter_sum 0", sa);
}

/*
 * An add whose @nth fault-injection point fails (the kernel's per-task
 * fail-nth: Documentation/fault-injection/fault-injection.rst), counting
 * every slab and page allocation the write makes from its open() on:
 * kernfs, the parser's entry array, the store, the selectors, the maple
 * trees and the sysfs directories. @fail_nth is open already: opening it
 * would be a fault point too. Returns the add's 0 or -errno, and in
 * @injected whether the nth point was reached.
 */
static int add_failing_nth(int fail_nth, const char *add, const char *buf,
			   size_t len, unsigned int nth, bool *injected)
{
	char v[16];
	int err, n;

	n = snprintf(v, sizeof(v), "%u", nth);
	if (pwrite(fail_nth, v, n, 0) != n)
		return -EBADF;
	err = sysfs_write_bytes(add, buf, len);
	n = pread(fail_nth, v, sizeof(v) - 1, 0);
	v[n > 0 ? n : 0] = 0;
	*injected = n > 0 && atoi(v) == 0;
	/* Not reached: take the rest back before anything else counts. */
	if (pwrite(fail_nth, "0", 1, 0) != 1)
		return -EBADF;
	return err;
}

/*
 * Every allocation site, one after the other: for each size, the same
 * add is made with its 1st, 2nd, 3rd... fault point failing, until an
 * add runs out of points (and must then succeed). Each injected add
 * either succeeds whole or fails with ENOMEM leaving the listings, the
 * store and the static keys as they were. Sizes go up to
 * IOHOOK_FAULT_MAX_ENTRIES (default 21, about 1900 injected adds; 50
 * makes about 4100).
 */
TEST_F_TIMEOUT(fz, add_all_or_nothing_every_site, 14400)
{
	static const unsigned int sizes[] = { 1, 2, 3, 5, 8, 13, 21, 34, 50 };
	const char *e = getenv("IOHOOK_FAULT_MAX_ENTRIES");
	unsigned int max = e ? atoi(e) : 21;
	static struct snapshot before;
	static char buf[8192];
	char sa[256];
	long injected_adds = 0, failures = 0, nomem = 0;
	unsigned int s, nth, k;
	int fail_nth;

	fail_nth = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fail_nth < 0)
		SKIP(return, "no fail-nth (CONFIG_FAULT_INJECTION) in this kernel");
	if (!fault_setup("failslab") || !fault_setup("fail_page_alloc"))
		SKIP(return, "no failslab or fail_page_alloc in this kernel");
	/* fail-nth counts only the points these filters let through. */
	sysfs_write("/sys/kernel/debug/failslab/cache-filter", "N");
	sysfs_write("/sys/kernel/debug/fail_page_alloc/min-order", "0");
	sysfs_write("/sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem", "N");
	for (s = 0; s < 2 * ARRAY_SIZE(sizes) && failures < 10; s++) {
		bool dev = s >= ARRAY_SIZE(sizes);
		unsigned int n = sizes[s % ARRAY_SIZE(sizes)];
		const char *add = dev ? RP2_OVR "/add" : IOHOOK_SYS "/mem/add";
		size_t len = 0;

		if (n > max || (dev && n > 16))
			continue;	/* 0xf0-0xff: 16 bytes of the root port */
		for (k = 0; k < n; k++)
			len += dev ? snprintf(buf + len, sizeof(buf) - len,
					      "%x 1 0 ff wc count=2;", 0xf0 + k) :
				     snprintf(buf + len, sizeof(buf) - len,
					      "%llx 4 1 ff rc sel=%llx:4=%u;",
					      MEM_SAFE + k * 16, MEM_SAFE + 8, k + 1);
		for (nth = 1; nth < 5000; nth++) {
			bool injected;
			int err;

			snapshot(&before);
			err = add_failing_nth(fail_nth, add, buf, len, nth, &injected);
			ASSERT_NE(-EBADF, err);
			if (!injected) {
				/* Past the last point: an add like any other. */
				EXPECT_EQ(0, err);
				EXPECT_EQ((int)n,
					  dir_entries(dev ? RP2_OVR : IOHOOK_SYS "/mem"));
				remove_everything();
				TH_LOG("%u entries (%s): %u allocation points", n,
				       dev ? "device config" : "memory, conditional", nth - 1);
				break;
			}
			injected_adds++;
			if (!err) {
				if (dir_entries(dev ? RP2_OVR : IOHOOK_SYS "/mem") != (int)n) {
					failures++;
					TH_LOG("%u entries, point %u failed: partial add",
					       n, nth);
				}
				remove_everything();
				continue;
			}
			if (err != -ENOMEM) {
				failures++;
				TH_LOG("%u entries, point %u failed: errno %d", n, nth, -err);
				remove_everything();
				continue;
			}
			nomem++;
			if (!unchanged_since(_metadata, &before)) {
				failures++;
				TH_LOG("%u entries, point %u failed: ENOMEM, state changed",
				       n, nth);
				remove_everything();
			}
		}
	}
	close(fail_nth);
	sysfs_write("/sys/kernel/debug/failslab/cache-filter", "N");
	fault_teardown("failslab");
	fault_teardown("fail_page_alloc");
	TH_LOG("%ld injected adds: %ld failed with ENOMEM, %ld succeeded whole",
	       injected_adds, nomem, injected_adds - nomem);
	EXPECT_EQ(0, failures);
	EXPECT_GE(injected_adds, 1000);
	remove_everything();
	state_line("filter_sum", sa, sizeof(sa));
	EXPECT_STREQ("filter_sum pciconf=0 mem=0 io=0", sa);
	state_line("vfilter_sum", sa, sizeof(sa));
	EXPECT_STREQ("vfilter_sum 0", sa);
}

TEST_HARNESS_MAIN
