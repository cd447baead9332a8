// SPDX-License-Identifier: GPL-2.0
/*
 * iohook_fuzz - random and near-valid input to every writable iohook
 * file, with accesses to hooked registers between the writes.
 *
 * Each write either succeeds, and then every entry it added is listed
 * exactly (its directory exists, with the length, mask, attribute and
 * value written), or fails with an errno from the documented set, and
 * then every listing is as it was. Valid entries only ever name the safe
 * places of iohook_fuzz.h; a mutated location is malformed or out of
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
 * the 4-hour limit; scripts/check gives them a boot of their own).
 * At the end, removing everything must leave the store empty, every
 * filter count at 0 and both static keys off (debugfs iohook/state).
 */
#include "iohook_fuzz.h"

static void safe_loc(const struct target *t, char *buf, size_t len)
{
	unsigned int n = rnd(8);

	if (t == &targets[0])
		snprintf(buf, len, "0x%x", 0x80 + (n & 1));
	else if (t == &targets[1])
		snprintf(buf, len, "0x%llx", MEM_SAFE + n * 8);
	else if (t == &targets[2])
		snprintf(buf, len, t->fmt, 0x100 + n * 8);
	else
		snprintf(buf, len, "0x%x", 0xf0 + (n & 3) * 4);
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
	       err == -E2BIG || err == -EXDEV || err == -ENOENT ||
	       err == -EMSGSIZE;
}

/* A read of 00:1d.0's config space, through the hooked accessors. */
static void access_registers(void)
{
	static int cfg = -1;
	unsigned char b[256];

	if (cfg < 0 && have_rp2())
		cfg = open(PCI_DEVS "/" RP2 "/config", O_RDONLY);
	if (cfg >= 0 && pread(cfg, b, sizeof(b), 0) < 0)
		return;
}

/* An unsigned number from a sysfs file (masks may have bit 63 set). */
static unsigned long long read_u64(const char *dir, const char *loc,
				   const char *file)
{
	char path[256], buf[64];

	snprintf(path, sizeof(path), "%s/%s/%s", dir, loc, file);
	if (iohook_sysfs_read(path, buf, sizeof(buf)) <= 0)
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
	/* An address's directory is 0xADDR, however the entry spelled it. */
	if (!strchr(loc, '+'))
		snprintf(loc, sizeof(loc), "0x%llx", strtoull(loc, NULL, 16));
	/* A conditional override's directory is LOCATION@VALUE. */
	if (sel)
		snprintf(loc + strlen(loc), sizeof(loc) - strlen(loc), "@%llx",
			 strtoull(strrchr(sel, '=') + 1, NULL, 16));
	snprintf(path, sizeof(path), "%s/%s/attr", dir, loc);
	if (iohook_sysfs_read(path, got, sizeof(got)) <= 0 || strcmp(got, attr))
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
	long long_writes = 0;
	static char vpath[512], names[8192];
	char state[512], *name, *save;
	long failures = 0;
	/* Listings change only when a write succeeds: read them again then. */
	bool stale = true;

	TH_LOG("%ld writes", writes);
	for (i = 0; i < writes; i++) {
		const struct target *t = &targets[rnd(n_targets)];
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
					!strcmp(name, "models") ||
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
		/*
		 * Now and then, an add's entries behind separators that
		 * push the write across the end of the first page: kernfs
		 * would hand it over in pieces, so it must be refused whole
		 * (EMSGSIZE), wherever the page boundary cuts it.
		 */
		if (path == t->add && !rnd(32)) {
			size_t pad = 4096 - n / 2 + rnd(n + 64);

			if (pad + n < sizeof(buf)) {
				memmove(buf + pad, buf, n + 1);
				memset(buf, rnd(2) ? ';' : '\n', pad);
				n += pad;
				long_writes++;
			}
		}
		if (stale)
			listings(before, sizeof(before));
		stale = false;
		err = path != vpath && rnd(8) ? write_kept_open(path, buf, n) :
						   sysfs_write_bytes(path, buf, n);
		access_registers();
		counts[kind]++;
		if (n >= 4096 && err != -EMSGSIZE) {
			failures++;
			TH_LOG("write %ld to %s: %zu bytes, errno %d, not EMSGSIZE",
			       i, path, n, -err);
		}
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
	TH_LOG("%ld writes across a page, all refused whole", long_writes);
	TH_LOG("%ld writes: %ld accepted, %ld refused; by kind %ld %ld %ld %ld %ld %ld %ld %ld",
	       i, ok, bad, counts[0], counts[1], counts[2], counts[3], counts[4],
	       counts[5], counts[6], counts[7]);
	EXPECT_GT(ok, 0);
	EXPECT_GT(bad, 0);

	/* Everything removed: an empty store, clean filters, keys off. */
	remove_everything();
	iohook_sysfs_write(ARMED, "1");
	ASSERT_GT(iohook_sysfs_read(STATE, state, sizeof(state)), 0);
	EXPECT_NE(NULL, strstr(state, "keys pciconf=0 mem=0 io=0")) TH_LOG("%s", state);
	EXPECT_NE(NULL, strstr(state, "overrides pciconf=0 mem=0 io=0"));
	EXPECT_NE(NULL, strstr(state, "selectors pciconf=0 mem=0 io=0"));
	EXPECT_NE(NULL, strstr(state, "filter_sum pciconf=0 mem=0 io=0"));
	EXPECT_NE(NULL, strstr(state, "vfilter_sum 0")) TH_LOG("%s", state);
}

TEST_HARNESS_MAIN
