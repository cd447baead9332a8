// SPDX-License-Identifier: GPL-2.0
/*
 * iohook model: load, list, trace and unload register models (BPF
 * struct_ops objects of type iohook_model_ops, see models/).
 *
 * load attaches the object's struct_ops map (the kernel registers the
 * model), pins its maps under /sys/fs/bpf/iohook/NAME/ so that the model
 * outlives this process and "unload" and "trace" find it, then binds it
 * through the target's "models" file.
 *
 * Where the kernel has struct_ops links (Linux 6.4 and later, so 6.12),
 * the model is held by a link, pinned there as "link": when the last
 * reference to it goes (the pin removed, no process holding it open),
 * the kernel detaches the model. Linux 6.1 has no such links: there the
 * attached map itself holds the model until its element is deleted.
 * unload detaches the link, or deletes the element (the kernel unbinds
 * and unregisters the model, waiting until no access is in it), and
 * removes the pins.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/magic.h>

#include "iohook.h"

#define BPFFS		"/sys/fs/bpf"
#define MODEL_PINS	BPFFS "/iohook"
#define MODELS_FILE	IOHOOK_SYS "/models"
#define MODEL_NAME_LEN	32
/* A bound model's line in the models files. */
#define MODEL_LINE	"%63s %15s 0x%llx 0x%llx reads=%llu writes=%llu errors=%llu " \
			"nmi=%llu irqs=%llu at=%63s"

/* From Linux 6.4's uapi, which Debian 12's headers predate. */
#define STRUCT_OPS_F_LINK	(1U << 13)	/* BPF_F_LINK */
#define STRUCT_OPS_ATTACH	44		/* BPF_STRUCT_OPS */

/* Whether this kernel has struct_ops links: 6.4 and later. */
static bool struct_ops_links(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return false;
	return major > 6 || (major == 6 && minor >= 4);
}

/* The record trace.bpf.c writes (struct iohook_trace_rec). */
struct trace_rec {
	uint64_t ns, offset, val;
	uint32_t cpu;
	uint8_t width, write;
	uint16_t context;	/* IOHOOK_MODEL_CTX_*: hardirq 1, softirq 2, irqs off 4 */
};

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	/* The verifier's log is what a refused model needs shown. */
	if (level == LIBBPF_DEBUG && !opt.verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static int ensure_bpffs(void)
{
	struct statfs st;

	if (!statfs(BPFFS, &st) && st.f_type == BPF_FS_MAGIC)
		return 0;
	if (mount("bpf", BPFFS, "bpf", 0, NULL))
		return -errno;
	return 0;
}

/* The target's directory: a device's overrides/ or a global space's. */
static int target_dir(const char *target, char *dir, size_t len)
{
	if (!strcmp(target, "io") || !strcmp(target, "mem") ||
	    !strcmp(target, "pciconf"))
		snprintf(dir, len, IOHOOK_SYS "/%s", target);
	else if (strchr(target, ':') == strrchr(target, ':'))
		snprintf(dir, len, PCI_DEVS "/0000:%s/overrides", target);
	else
		snprintf(dir, len, PCI_DEVS "/%s/overrides", target);
	return abi_exists(dir) ? 0 : -ENODEV;
}

/*
 * The model's name as the kernel registered it: the "name" member of
 * the struct_ops map's value, found through vmlinux BTF, so that a
 * model need not be named after its variable.
 */
static int model_name(struct bpf_map *map, char *name)
{
	const struct btf_member *m;
	const struct btf_type *t;
	struct btf *vmlinux;
	int id, i, ret = -ENOENT;
	__u32 key = 0, data_off = 0, name_off = 0;
	char *value;

	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux)
		return -errno;
	id = btf__find_by_name_kind(vmlinux, "bpf_struct_ops_iohook_model_ops",
				    BTF_KIND_STRUCT);
	if (id < 0)
		goto out;
	t = btf__type_by_id(vmlinux, id);
	for (i = 0, m = btf_members(t); i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(vmlinux, m->name_off), "data"))
			data_off = btf_member_bit_offset(t, i) / 8;
	id = btf__find_by_name_kind(vmlinux, "iohook_model_ops", BTF_KIND_STRUCT);
	if (id < 0 || !data_off)
		goto out;
	t = btf__type_by_id(vmlinux, id);
	for (i = 0, m = btf_members(t); i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(vmlinux, m->name_off), "name"))
			name_off = btf_member_bit_offset(t, i) / 8;
	value = calloc(1, bpf_map__value_size(map));
	if (!value) {
		ret = -ENOMEM;
		goto out;
	}
	ret = bpf_map_lookup_elem(bpf_map__fd(map), &key, value) ? -errno : 0;
	if (!ret)
		snprintf(name, MODEL_NAME_LEN, "%s", value + data_off + name_off);
	free(value);
out:
	btf__free(vmlinux);
	return ret;
}

static void unpin_all(const char *dir)
{
	char path[512];
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
	closedir(d);
	rmdir(dir);
}

static int model_load(int argc, char **argv)
{
	char dir[256], pins[256], name[MODEL_NAME_LEN] = "", text[256];
	struct bpf_map *map, *ops = NULL;
	struct bpf_link *link = NULL;
	bool use_link = struct_ops_links();
	struct bpf_object *obj;
	int ret, lfd = -1;

	if (argc != 5 && argc != 2)
		return EX_USAGE;
	if (argc == 5 && target_dir(argv[2], dir, sizeof(dir)))
		return err_exit(argv[2], -ENODEV);
	if (!abi_exists(MODELS_FILE)) {
		fprintf(stderr, "%s: this kernel has no register models (CONFIG_IOHOOK_MODEL=y)\n",
			prog);
		return EX_NOIOHOOK;
	}
	if (opt.dry_run) {
		printf("would load %s, pin its maps in %s/NAME\n", argv[1], MODEL_PINS);
		if (argc == 2)
			return EX_OK;
		snprintf(text, sizeof(text), "attach NAME %s %s", argv[3], argv[4]);
		strcat(dir, "/models");
		return abi_write(dir, text);
	}
	libbpf_set_print(libbpf_quiet);
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj)
		return err_exit(argv[1], -errno);
	bpf_object__for_each_map(map, obj)
		if (bpf_map__type(map) == BPF_MAP_TYPE_STRUCT_OPS)
			ops = map;
	ret = -ENOENT;
	if (!ops) {
		fprintf(stderr, "%s: %s: no iohook_model_ops in it\n", prog, argv[1]);
		goto out;
	}
	if (use_link)
		bpf_map__set_map_flags(ops, bpf_map__map_flags(ops) | STRUCT_OPS_F_LINK);
	/* The verifier refuses a bad model here; its log went to stderr. */
	ret = bpf_object__load(obj);
	if (ret) {
		fprintf(stderr, "%s: %s: refused by the verifier or the kernel\n",
			prog, argv[1]);
		goto out;
	}
	/* With a link map this only stores the programs; the link registers. */
	link = bpf_map__attach_struct_ops(ops);
	if (link && use_link) {
		lfd = bpf_link_create(bpf_map__fd(ops), 0, STRUCT_OPS_ATTACH, NULL);
		if (lfd < 0) {
			bpf_link__destroy(link);
			link = NULL;
			errno = -lfd;
		}
	}
	if (!link) {
		ret = -errno;
		fprintf(stderr, "%s: %s: not registered: %s%s\n", prog, argv[1],
			strerror(-ret), ret == -EEXIST ? " (a model of that name is loaded)" : "");
		goto out;
	}
	ret = model_name(ops, name);
	if (!ret)
		ret = ensure_bpffs();
	if (!ret && mkdir(MODEL_PINS, 0700) && errno != EEXIST)
		ret = -errno;
	snprintf(pins, sizeof(pins), MODEL_PINS "/%s", name);
	if (!ret)
		ret = bpf_object__pin_maps(obj, pins);
	if (!ret && lfd >= 0) {
		char lpath[300];

		snprintf(lpath, sizeof(lpath), "%s/link", pins);
		ret = bpf_obj_pin(lfd, lpath) ? -errno : 0;
	}
	if (ret) {
		fprintf(stderr, "%s: %s: cannot pin its maps in %s: %s\n", prog,
			argv[1], pins, strerror(-ret));
		goto out;
	}
	if (argc == 2) {
		/* Registered only: bound later through a models file. */
		printf("%s: loaded from %s, unbound\n", name, argv[1]);
		link = NULL;
		goto out;
	}
	snprintf(text, sizeof(text), "attach %s %s %s", name, argv[3], argv[4]);
	strcat(dir, "/models");
	ret = abi_write(dir, text);
	if (ret) {
		fprintf(stderr, "%s: %s: cannot bind it: %s\n", prog, dir, strerror(-ret));
		unpin_all(pins);
		goto out;
	}
	/* The model works only while iohook is armed, as overrides do. */
	if (abi_read_num(IOHOOK_SYS "/armed") == 0) {
		ret = abi_write(IOHOOK_SYS "/armed", "1");
		if (!ret)
			fprintf(stderr, "%s: iohook was disarmed: armed it\n", prog);
	}
	printf("%s: loaded from %s, bound to %s %s+%s\n", name, argv[1], argv[2],
	       argv[3], argv[4]);
	/* Keep the registration: the pinned map holds it, not this link. */
	link = NULL;
out:
	/*
	 * Loaded, the pin holds the link; failed, nothing else does, and
	 * dropping it unregisters the model.
	 */
	if (lfd >= 0)
		close(lfd);
	if (link && !use_link)
		bpf_link__destroy(link);
	bpf_object__close(obj);
	return ret ? err_exit("model load", ret) : EX_OK;
}

/* Unregister the model pinned in @pins: the kernel unbinds it first. */
static int model_unload(int argc, char **argv)
{
	char pins[256], path[512];
	struct dirent *de;
	int ret = -ENOENT;
	__u32 key = 0;
	DIR *d;

	if (argc != 2 || strchr(argv[1], '/'))
		return EX_USAGE;
	snprintf(pins, sizeof(pins), MODEL_PINS "/%s", argv[1]);
	if (opt.dry_run) {
		printf("would unregister the model pinned in %s and remove the pins\n", pins);
		return EX_OK;
	}
	/* A link: detach it, which unbinds and unregisters the model now. */
	snprintf(path, sizeof(path), "%s/link", pins);
	if (!access(path, F_OK)) {
		int fd = bpf_obj_get(path);

		ret = fd < 0 ? -errno : (bpf_link_detach(fd) ? -errno : 0);
		if (fd >= 0)
			close(fd);
		if (ret)
			return err_exit("model unload", ret);
		unpin_all(pins);
		printf("%s: unloaded\n", argv[1]);
		return EX_OK;
	}
	d = opendir(pins);
	if (!d)
		return err_exit(argv[1], -ENOENT);
	while ((de = readdir(d))) {
		struct bpf_map_info info = {};
		__u32 len = sizeof(info);
		int fd;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", pins, de->d_name);
		fd = bpf_obj_get(path);
		if (fd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) &&
		    info.type == BPF_MAP_TYPE_STRUCT_OPS) {
			if (opt.verbose)
				printf("delete the element of %s: unregister\n", path);
			ret = bpf_map_delete_elem(fd, &key) ? -errno : 0;
		}
		close(fd);
	}
	closedir(d);
	if (ret)
		return err_exit("model unload", ret);
	unpin_all(pins);
	printf("%s: unloaded\n", argv[1]);
	return EX_OK;
}

/* /sys/kernel/iohook/models, as it is or as JSON. */
static int model_list(int argc, char **argv)
{
	char buf[8192], *line, *save;
	bool first = true;
	int n;

	if (argc != 1)
		return EX_USAGE;
	n = abi_read(MODELS_FILE, buf, sizeof(buf));
	if (n < 0)
		return err_exit(MODELS_FILE, n);
	if (!opt.json) {
		if (n)
			printf("%s\n", buf);
		return EX_OK;
	}
	printf("[");
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[64], space[16], at[64];
		unsigned long long first_a, last_a, r, w, e, nmi, irqs;

		printf("%s\n  ", first ? "" : ",");
		first = false;
		if (sscanf(line, MODEL_LINE, name, space, &first_a, &last_a,
			   &r, &w, &e, &nmi, &irqs, at) == 10) {
			printf("{\"name\": \"%s\", \"bound\": true, \"space\": \"%s\", ",
			       name, space);
			printf("\"first\": %llu, \"last\": %llu, \"at\": \"%s\", ",
			       first_a, last_a, at);
			printf("\"reads\": %llu, \"writes\": %llu, \"errors\": %llu, ", r, w, e);
			printf("\"nmi\": %llu, \"irqs\": %llu}", nmi, irqs);
		} else if (sscanf(line, "%63s", name) == 1) {
			printf("{\"name\": \"%s\", \"bound\": false}", name);
		}
	}
	printf("\n]\n");
	return EX_OK;
}

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

static int print_rec(void *ctx, void *data, size_t len)
{
	const struct trace_rec *r = data;

	if (len < sizeof(*r))
		return 0;
	printf("%llu.%09llu cpu%u %c %#llx/%u %#llx%s%s%s\n",
	       (unsigned long long)r->ns / 1000000000,
	       (unsigned long long)r->ns % 1000000000, r->cpu,
	       r->write ? 'W' : 'R', (unsigned long long)r->offset, r->width,
	       (unsigned long long)r->val, r->context & 1 ? " hardirq" : "",
	       r->context & 2 ? " softirq" : "", r->context & 4 ? " irqs-off" : "");
	(*(unsigned long long *)ctx)++;
	return 0;
}

/* Stream a model's "events" ring buffer (trace.bpf.c's records). */
static int model_trace(int argc, char **argv)
{
	unsigned long long count = 0;
	struct ring_buffer *rb;
	char path[256];
	long long end = 0;
	int fd;

	if (argc != 2 && argc != 3)
		return EX_USAGE;
	if (strchr(argv[1], '/'))
		return EX_USAGE;
	snprintf(path, sizeof(path), MODEL_PINS "/%s/events", argv[1]);
	if (argc == 3)
		end = now_ms() + atoll(argv[2]) * 1000;
	fd = bpf_obj_get(path);
	if (fd < 0)
		return err_exit(path, -errno);
	rb = ring_buffer__new(fd, print_rec, &count, NULL);
	if (!rb)
		return err_exit(path, -errno);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	while (!stop && (!end || now_ms() < end))
		if (ring_buffer__poll(rb, 100) < 0 && errno != EINTR)
			break;
	ring_buffer__consume(rb);
	ring_buffer__free(rb);
	close(fd);
	fprintf(stderr, "%s: %llu accesses\n", argv[1], count);
	return EX_OK;
}

int cmd_model(int argc, char **argv)
{
	if (argc < 2)
		return EX_USAGE;
	if (!strcmp(argv[1], "load"))
		return model_load(argc - 1, argv + 1);
	if (!strcmp(argv[1], "unload"))
		return model_unload(argc - 1, argv + 1);
	if (!strcmp(argv[1], "list"))
		return model_list(argc - 1, argv + 1);
	if (!strcmp(argv[1], "trace"))
		return model_trace(argc - 1, argv + 1);
	return EX_USAGE;
}
