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
 * Where the kernel has struct_ops links (Linux 6.4 and later, so 6.12;
 * probed, not read off the version), the model is held by a link, pinned
 * there as "link": when the last reference to it goes (the pin removed,
 * no process holding it open), the kernel detaches the model. Linux 6.1
 * has no such links: there the attached map itself holds the model until
 * its element is deleted. unload detaches the link, or deletes the
 * element (the kernel unbinds and unregisters the model, waiting until
 * no access is in it), and removes the pins.
 *
 * Two libbpf generations: up to 1.1 (Debian 12), attaching a link map
 * only stores its programs and this tool creates the link; from 1.2 on,
 * bpf_map__attach_struct_ops() creates the link itself (and objects may
 * say so with a ".struct_ops.link" section), and that link is the one
 * kept. A load that fails at any step leaves nothing registered, bound
 * or pinned.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
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
			"nmi=%llu irqs=%llu at=%63s nested=%llu"

/* From Linux 6.4's uapi, which Debian 12's headers predate. */
#define STRUCT_OPS_F_LINK	(1U << 13)	/* BPF_F_LINK */
#define STRUCT_OPS_ATTACH	44		/* BPF_STRUCT_OPS */

/*
 * A model's name as the kernel takes it, and as a directory under
 * MODEL_PINS: letters, digits, '_' and '.', not starting with a dot
 * (so neither "." nor ".." reaches outside MODEL_PINS).
 */
static bool model_name_ok(const char *name)
{
	size_t i, n = strlen(name);

	if (!n || n >= MODEL_NAME_LEN || name[0] == '.')
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_' && name[i] != '.')
			return false;
	return true;
}

static int bad_name(const char *name)
{
	fprintf(stderr, "%s: '%s' is not a model's name %s\n", prog, name,
		"(letters, digits, '_' and '.', not first)");
	return EX_USAGE;
}

/*
 * Whether this kernel has struct_ops links (Linux 6.4 and later): a
 * struct_ops map of our type can be created with BPF_F_LINK. Older
 * kernels refuse any map flag on a struct_ops map. The map needs a BTF
 * object (libbpf gives the object file's): a one-type BTF does.
 */
static bool struct_ops_links(void)
{
	LIBBPF_OPTS(bpf_map_create_opts, o, .map_flags = STRUCT_OPS_F_LINK);
	struct btf *vmlinux = btf__load_vmlinux_btf(), *any = btf__new_empty();
	int id, size = -1, fd = -1;

	if (!vmlinux || !any)
		goto out;
	id = btf__find_by_name_kind(vmlinux, "bpf_struct_ops_iohook_model_ops",
				    BTF_KIND_STRUCT);
	if (id > 0 && btf__add_int(any, "int", 4, BTF_INT_SIGNED) > 0 &&
	    !btf__load_into_kernel(any))
		size = btf__resolve_size(vmlinux, id);
	if (size > 0) {
		o.btf_fd = btf__fd(any);
		o.btf_vmlinux_value_type_id = id;
		fd = bpf_map_create(BPF_MAP_TYPE_STRUCT_OPS, "iohook_probe",
				    sizeof(__u32), size, 1, &o);
	}
	if (opt.verbose)
		printf("struct_ops links: %s\n", fd >= 0 ? "yes" : strerror(errno));
	if (fd >= 0)
		close(fd);
out:
	btf__free(any);
	btf__free(vmlinux);
	return fd >= 0;
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

/* Bind the registered model @name through @dir's models file. */
static int model_bind(const char *dir, const char *name, char **argv)
{
	char path[300], text[256];
	int ret;

	snprintf(text, sizeof(text), "attach %s %s %s", name, argv[3], argv[4]);
	snprintf(path, sizeof(path), "%s/models", dir);
	ret = abi_write(path, text);
	if (ret) {
		fprintf(stderr, "%s: %s: cannot bind it: %s\n", prog, path, strerror(-ret));
		return ret;
	}
	/* The model works only while iohook is armed, as overrides do. */
	if (abi_read_num(IOHOOK_SYS "/armed") == 0 && !abi_write(IOHOOK_SYS "/armed", "1"))
		fprintf(stderr, "%s: iohook was disarmed: armed it\n", prog);
	return 0;
}

/*
 * Pin @obj's maps, and the link @lfd if any, in @pins. Pins a failed
 * earlier load left there go first: the kernel registered the model
 * under this name just now, so no live model owns them.
 */
static int model_pin(struct bpf_object *obj, const char *pins, int lfd)
{
	char lpath[300];
	int ret;

	ret = ensure_bpffs();
	if (!ret && mkdir(MODEL_PINS, 0700) && errno != EEXIST)
		ret = -errno;
	if (ret)
		return ret;
	if (!access(pins, F_OK)) {
		fprintf(stderr, "%s: removing stale pins in %s\n", prog, pins);
		unpin_all(pins);
	}
	ret = bpf_object__pin_maps(obj, pins);
	if (!ret && lfd >= 0) {
		snprintf(lpath, sizeof(lpath), "%s/link", pins);
		ret = bpf_obj_pin(lfd, lpath) ? -errno : 0;
	}
	if (ret)
		unpin_all(pins);
	return ret;
}

static int model_load(int argc, char **argv)
{
	char dir[256], pins[256], name[MODEL_NAME_LEN] = "", text[256];
	struct bpf_map *map, *ops = NULL;
	struct bpf_link *link = NULL;
	bool use_link = struct_ops_links();
	struct bpf_object *obj;
	int ret, lfd = -1, own_lfd = -1;
	__u32 flags;

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
		fprintf(stderr, "%s: %s: no iohook_model_ops in it%s\n", prog, argv[1],
			libbpf_major_version() == 1 && libbpf_minor_version() < 2 ?
			" (a .struct_ops.link section needs libbpf 1.2 or later)" : "");
		goto out;
	}
	/* Held by a link where the kernel has them, whatever the section. */
	flags = bpf_map__map_flags(ops) & ~STRUCT_OPS_F_LINK;
	bpf_map__set_map_flags(ops, flags | (use_link ? STRUCT_OPS_F_LINK : 0));
	/* The verifier refuses a bad model here; its log went to stderr. */
	ret = bpf_object__load(obj);
	if (ret) {
		fprintf(stderr, "%s: %s: refused by the verifier or the kernel\n",
			prog, argv[1]);
		goto out;
	}
	/*
	 * libbpf 1.2 and later register here, through a link of their own
	 * (its fd is not the map's); 1.1 only stores the programs of a link
	 * map, and the link that registers is made here.
	 */
	link = bpf_map__attach_struct_ops(ops);
	if (link && use_link) {
		lfd = bpf_link__fd(link);
		if (lfd == bpf_map__fd(ops)) {
			own_lfd = bpf_link_create(bpf_map__fd(ops), 0,
						  STRUCT_OPS_ATTACH, NULL);
			lfd = own_lfd;
			if (lfd < 0) {
				errno = -lfd;
				bpf_link__disconnect(link);
				bpf_link__destroy(link);
				link = NULL;
			}
		}
	}
	if (!link) {
		ret = -errno;
		fprintf(stderr, "%s: %s: not registered: %s%s\n", prog, argv[1],
			strerror(-ret), ret == -EEXIST ? " (a model of that name is loaded)" :
			ret == -EINVAL ? " (its name is not one a model can have)" : "");
		goto out;
	}
	ret = model_name(ops, name);
	if (!ret && !model_name_ok(name))
		ret = -EINVAL;
	if (ret) {
		fprintf(stderr, "%s: %s: no usable model name: %s\n", prog, argv[1],
			strerror(-ret));
		goto out;
	}
	snprintf(pins, sizeof(pins), MODEL_PINS "/%s", name);
	ret = model_pin(obj, pins, lfd);
	if (ret) {
		fprintf(stderr, "%s: %s: cannot pin it in %s: %s\n", prog, argv[1], pins,
			strerror(-ret));
		goto out;
	}
	if (argc == 5) {
		ret = model_bind(dir, name, argv);
		if (ret) {
			unpin_all(pins);
			goto out;
		}
		printf("%s: loaded from %s, bound to %s %s+%s\n", name, argv[1], argv[2],
		       argv[3], argv[4]);
	} else {
		/* Registered only: bound later through a models file. */
		printf("%s: loaded from %s, unbound\n", name, argv[1]);
	}
	/* The pins hold the model now, not this process. */
	if (link)
		bpf_link__disconnect(link);
out:
	/*
	 * Failed, nothing else holds the registration: closing the link,
	 * or deleting the map's element, unregisters the model.
	 */
	if (own_lfd >= 0)
		close(own_lfd);
	if (link && !(use_link && own_lfd >= 0))
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

	if (argc != 2)
		return EX_USAGE;
	if (!model_name_ok(argv[1]))
		return bad_name(argv[1]);
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
		unsigned long long first_a, last_a, r, w, e, nmi, irqs, nested = 0;

		printf("%s\n  ", first ? "" : ",");
		first = false;
		/* Kernels before the nested counter end the line at "at=". */
		if (sscanf(line, MODEL_LINE, name, space, &first_a, &last_a,
			   &r, &w, &e, &nmi, &irqs, at, &nested) >= 10) {
			printf("{\"name\": \"%s\", \"bound\": true, \"space\": \"%s\", ",
			       name, space);
			printf("\"first\": %llu, \"last\": %llu, \"at\": \"%s\", ",
			       first_a, last_a, at);
			printf("\"reads\": %llu, \"writes\": %llu, \"errors\": %llu, ", r, w, e);
			printf("\"nmi\": %llu, \"nested\": %llu, \"irqs\": %llu}", nmi, nested,
			       irqs);
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
	if (!model_name_ok(argv[1]))
		return bad_name(argv[1]);
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
