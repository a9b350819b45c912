/* arch: the architecture table, read from assets/arch.yaml as a YAML document (yamldoc.h).
 *
 * The file is one YAML document holding a sequence of mappings, one per architecture, whose keys are
 * the field names of arch_info. Every field is required, unknown or repeated keys are errors, and every
 * error names the place as "file:line:col:" (1-based; libyaml's marks are 0-based). */
#include "arch.h"

#include <errno.h>
#include <nvrtc.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"
#include "yamldoc.h"

#define ARCH_MAX 64            /* more entries than this is a broken file, not a bigger GPU zoo */
#define NUM_TEXT_MAX 64        /* longest number we read, in characters (yd_text_double's limit too) */

typedef enum { T_STR, T_INT, T_SIZE, T_DBL } ftype;

typedef struct {
	const char *key;
	ftype type;
	size_t off, size;
	double min, max;           /* inclusive bounds for numbers; strings: max is the buffer size */
	int may_be_unknown;        /* the value "unknown" is taken, kept as ARCH_UNKNOWN */
} field;

#define F(name, type, lo, hi) { #name, type, offsetof(arch_info, name), sizeof(((arch_info *)0)->name), lo, hi, 0 }
#define U(name, type, lo, hi) { #name, type, offsetof(arch_info, name), sizeof(((arch_info *)0)->name), lo, hi, 1 }
#define KIB 1024.0
#define GIB (1024.0 * 1024.0 * 1024.0)
/* Bounds are sanity limits, wide enough for any real GPU, narrow enough that the occupancy
 * arithmetic (int, in cuda_occupancy.h) cannot overflow. */
static const field fields[] = {
	F(name, T_STR, 0, 0),
	F(cc, T_INT, 10, 999),
	F(max_threads_per_block, T_INT, 1, 65536),
	F(max_threads_per_sm, T_INT, 1, 65536),
	F(max_blocks_per_sm, T_INT, 1, 4096),
	F(regs_per_sm, T_INT, 1, 16777216),
	F(regs_per_block, T_INT, 1, 16777216),
	F(max_regs_per_thread, T_INT, 1, 65536),
	F(warp_size, T_INT, 1, 1024),
	F(smem_per_sm, T_SIZE, 1, GIB),
	F(smem_per_block, T_SIZE, 1, GIB),
	F(smem_per_block_optin, T_SIZE, 1, GIB),
	F(smem_reserved_per_block, T_SIZE, 0, 64 * KIB),
	F(fp32_lanes_per_sm, T_INT, 1, 65536),
	U(bf16_tensor_flops_per_clk_per_sm, T_DBL, 0, 1e9),
	U(fp16_tensor_flops_per_clk_per_sm, T_DBL, 0, 1e9),
	U(tf32_tensor_flops_per_clk_per_sm, T_DBL, 0, 1e9),
	U(fp8_tensor_flops_per_clk_per_sm, T_DBL, 0, 1e9),
	U(fp64_flops_per_clk_per_sm, T_DBL, 0, 1e9),
	U(int8_tensor_ops_per_clk_per_sm, T_DBL, 0, 1e9),
	F(typical_sm_count, T_INT, 1, 1000000),
	F(typical_l2_bytes, T_SIZE, 0, 1024 * GIB),
	U(typical_clock_mhz, T_INT, 1, 1000000),
	F(typical_part, T_STR, 0, 0),
};
#undef F
#undef U
#define NFIELDS ((int)(sizeof fields / sizeof fields[0]))

static arch_info *table;
static int table_n;

static void say(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static const char *node_what(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_SCALAR_NODE: return "a single value";
	case YAML_SEQUENCE_NODE: return "a list";
	case YAML_MAPPING_NODE: return "a mapping";
	default: return "nothing";
	}
}

static const field *find_field(const char *key, size_t len)
{
	for (int i = 0; i < NFIELDS; i++)
		if (strlen(fields[i].key) == len && memcmp(fields[i].key, key, len) == 0)
			return &fields[i];
	return NULL;
}

/* A scalar as it may be shown in a message: at most 40 bytes, control bytes as '?'. */
static const char *shown(const char *s, size_t len, char *b, size_t n)
{
	size_t o = 0;
	for (size_t i = 0; i < len && o + 4 < n && i < 40; i++)
		b[o++] = ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) ? '?' : s[i];
	if (len > 40 && o + 4 < n)
		b[o++] = '.', b[o++] = '.', b[o++] = '.';
	b[o] = 0;
	return b;
}

static void fmt_bound(char *b, size_t n, double v)
{
	snprintf(b, n, "%.0f", v);
}

/* Stores one scalar into the field of e. */
static int set_field(yd *c, arch_info *e, const field *f, const yaml_node_t *n)
{
	const char *s = (const char *)n->data.scalar.value;
	size_t len = n->data.scalar.length;
	char *dst = (char *)e + f->off;
	char lo[32], hi[32], sv[48];
	fmt_bound(lo, sizeof lo, f->min);
	fmt_bound(hi, sizeof hi, f->max);

	if (f->type == T_STR) {
		if (len == 0)
			return yd_fail(c, n, "%s is empty", f->key);
		if (len >= f->size)
			return yd_fail(c, n, "%s is too long (at most %zu characters)", f->key,
				       f->size - 1);
		for (size_t i = 0; i < len; i++)
			if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
				return yd_fail(c, n, "%s contains a control character", f->key);
		memcpy(dst, s, len);
		dst[len] = 0;
		return 0;
	}

	if (len == 0)
		return yd_fail(c, n, "%s needs a number", f->key);
	if (f->may_be_unknown && len == 7 && !memcmp(s, "unknown", 7)) {
		if (f->type == T_DBL) {
			double v = ARCH_UNKNOWN;
			memcpy(dst, &v, sizeof v);
		} else {
			int iv = ARCH_UNKNOWN;
			memcpy(dst, &iv, sizeof iv);
		}
		return 0;
	}
	if (len > NUM_TEXT_MAX)
		return yd_fail(c, n, "%s: the number is too long", f->key);
	if (f->type == T_DBL) {
		double v;
		int r = yd_text_double(s, len, &v);
		if (r == -1)
			return yd_fail(c, n, "%s: '%s' is not a number%s", f->key, shown(s, len, sv, sizeof sv),
				       f->may_be_unknown ? " (or unknown)" : "");
		if (r == -2 || v < f->min || v > f->max)
			return yd_fail(c, n, "%s: %s is out of range (%s to %s)", f->key,
				       shown(s, len, sv, sizeof sv), lo, hi);
		memcpy(dst, &v, sizeof v);
		return 0;
	}
	long long v;
	int r = yd_text_int(s, len, &v);
	if (r == -1)
		return yd_fail(c, n, "%s: '%s' is not a whole number%s", f->key, shown(s, len, sv, sizeof sv),
			       f->may_be_unknown ? " (or unknown)" : "");
	if (r == -2 || (double)v < f->min || (double)v > f->max)
		return yd_fail(c, n, "%s: %s is out of range (%s to %s)", f->key,
			       shown(s, len, sv, sizeof sv), lo, hi);
	if (f->type == T_INT) {
		int iv = (int)v;
		memcpy(dst, &iv, sizeof iv);
	} else {
		size_t zv = (size_t)v;
		memcpy(dst, &zv, sizeof zv);
	}
	return 0;
}

/* "sm_" followed by 2 or 3 digits; returns the number or -1. */
static int name_cc(const char *name)
{
	if (strncmp(name, "sm_", 3) != 0)
		return -1;
	const char *d = name + 3;
	size_t n = strlen(d);
	if (n < 2 || n > 3)
		return -1;
	int v = 0;
	for (size_t i = 0; i < n; i++) {
		if (d[i] < '0' || d[i] > '9')
			return -1;
		v = v * 10 + (d[i] - '0');
	}
	return v;
}

/* Checks that hold between the fields of one entry. */
static int check_entry(yd *c, const arch_info *e, const yaml_node_t *m)
{
	int ncc = name_cc(e->name);
	if (ncc < 0)
		return yd_fail(c, m, "name '%s' is not of the form sm_90", e->name);
	if (ncc != e->cc)
		return yd_fail(c, m, "%s: name says compute capability %d but cc is %d", e->name, ncc, e->cc);
	if (e->max_threads_per_sm % e->warp_size)
		return yd_fail(c, m, "%s: max_threads_per_sm (%d) is not a whole number of warps of %d", e->name,
			       e->max_threads_per_sm, e->warp_size);
	if (e->max_threads_per_block > e->max_threads_per_sm)
		return yd_fail(c, m, "%s: max_threads_per_block (%d) is larger than max_threads_per_sm (%d)",
			       e->name, e->max_threads_per_block, e->max_threads_per_sm);
	if (e->regs_per_block > e->regs_per_sm)
		return yd_fail(c, m, "%s: regs_per_block (%d) is larger than regs_per_sm (%d)", e->name,
			       e->regs_per_block, e->regs_per_sm);
	if (e->smem_per_block > e->smem_per_block_optin)
		return yd_fail(c, m, "%s: smem_per_block (%zu) is larger than smem_per_block_optin (%zu)", e->name,
			       e->smem_per_block, e->smem_per_block_optin);
	if (e->smem_per_block_optin > e->smem_per_sm)
		return yd_fail(c, m, "%s: smem_per_block_optin (%zu) is larger than smem_per_sm (%zu)", e->name,
			       e->smem_per_block_optin, e->smem_per_sm);
	return 0;
}

/* One architecture's mapping m. */
static int parse_entry(yd *c, arch_info *e, yaml_node_t *m)
{
	unsigned long seen = 0;
	memset(e, 0, sizeof *e);
	for (int i = 0; i < yd_map_len(m); i++) {
		yaml_node_t *k, *v;
		yd_pair(c, m, i, &k, &v);
		if (k->type != YAML_SCALAR_NODE)
			return yd_fail(c, k, "expected a field name, found %s", node_what(k));
		const field *f = find_field((const char *)k->data.scalar.value, k->data.scalar.length);
		if (!f) {
			char kv[48];
			return yd_fail(c, k, "unknown field '%s'",
				       shown((const char *)k->data.scalar.value, k->data.scalar.length, kv, sizeof kv));
		}
		unsigned long bit = 1UL << (f - fields);
		if (seen & bit)
			return yd_fail(c, k, "field '%s' is given twice", f->key);
		seen |= bit;
		if (v->type != YAML_SCALAR_NODE)
			return yd_fail(c, v, "%s: expected a single value, found %s", f->key, node_what(v));
		if (set_field(c, e, f, v))
			return -1;
	}
	for (int i = 0; i < NFIELDS; i++)
		if (!(seen & (1UL << i))) {
			if (seen & 1UL)
				return yd_fail(c, m, "%s: missing field '%s'", e->name, fields[i].key);
			return yd_fail(c, m, "missing field '%s'", fields[i].key);
		}
	return check_entry(c, e, m);
}

static int parse_all(yd *c, arch_info *out, int *n)
{
	*n = 0;
	yaml_node_t *root = yd_root(c);
	if (!root)
		return yd_fail_at(c, c->end, "no architectures in the file");
	if (root->type != YAML_SEQUENCE_NODE)
		return yd_fail(c, root, "expected a list of architectures (- name: sm_90 ...), found %s", node_what(root));
	if (yd_seq_len(root) == 0)
		return yd_fail(c, root, "no architectures in the list");
	for (int i = 0; i < yd_seq_len(root); i++) {
		yaml_node_t *m = yd_seq_at(c, root, i);
		if (m->type != YAML_MAPPING_NODE)
			return yd_fail(c, m, "expected the mapping of one architecture, found %s", node_what(m));
		if (*n == ARCH_MAX)
			return yd_fail(c, m, "more than %d architectures", ARCH_MAX);
		arch_info *e = &out[*n];
		if (parse_entry(c, e, m))
			return -1;
		for (int j = 0; j < *n; j++)
			if (out[j].cc == e->cc)
				return yd_fail(c, m, "%s is listed twice", e->name);
		(*n)++;
	}
	return yd_end(c, "expected the end of the file (one document only), found a second document");
}

int arch_load_buffer(const char *name, const char *buf, size_t len, char *err, size_t errlen)
{
	yd c = { .file = name ? name : "arch.yaml", .err = err, .errlen = errlen };
	if (err && errlen)
		err[0] = 0;
	arch_info *tmp = xcalloc(ARCH_MAX, sizeof *tmp);
	int n = 0;
	int r = yd_load(&c, buf, buf ? len : 0) || parse_all(&c, tmp, &n);
	yd_done(&c);
	if (r) {
		free(tmp);
		return -1;
	}
	if (n > 0)
		tmp = xrealloc(tmp, (size_t)n * sizeof *tmp);
	free(table);
	table = tmp;
	table_n = n;
	return 0;
}

int arch_load(const char *path, char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = 0;
	if (!path) {
		say(err, errlen, "(no path): cannot read: no file given");
		return -1;
	}
	FILE *f = fopen(path, "rb");
	if (!f) {
		say(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	size_t cap = 16384, len = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (len < cap)
			break;
		if (cap >= (size_t)16 << 20) { /* the table is a few KiB; 16 MiB is not it */
			free(buf);
			fclose(f);
			say(err, errlen, "%s: cannot read: the file is too large", path);
			return -1;
		}
		buf = xrealloc(buf, cap * 2);
		cap *= 2;
	}
	int bad = ferror(f);
	int saved = errno;
	fclose(f);
	if (bad) {
		free(buf);
		say(err, errlen, "%s: cannot read: %s", path, buf ? strerror(saved) : "out of memory");
		return -1;
	}
	int r = arch_load_buffer(path, buf, len, err, errlen);
	free(buf);
	return r;
}

/* "sm_90", "sm_90a", "sm_100f", "compute_90", "90", "90a", "9.0", "10.0": compute capability x10, or -1. */
static int parse_cc(const char *s)
{
	int v = 0, nd = 0;
	if (strncmp(s, "sm_", 3) == 0 || strncmp(s, "SM_", 3) == 0)
		s += 3;
	else if (strncmp(s, "compute_", 8) == 0)
		s += 8;
	while (*s >= '0' && *s <= '9' && nd < 4)
		v = v * 10 + (*s++ - '0'), nd++;
	if (!nd)
		return -1;
	if (*s == '.') { /* major.minor */
		s++;
		if (nd > 2 || *s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s++ - '0');
	} else if (nd < 2 || nd > 3) {
		return -1;
	}
	if (*s == 'a' || *s == 'f')
		s++;
	return *s ? -1 : v;
}

int arch_parse_cc(const char *name)
{
	return name ? parse_cc(name) : -1;
}

const arch_info *arch_find(const char *name)
{
	if (!name || !table)
		return NULL;
	int cc = parse_cc(name);
	if (cc < 0)
		return NULL;
	for (int i = 0; i < table_n; i++)
		if (table[i].cc == cc)
			return &table[i];
	return NULL;
}

int arch_count(void)
{
	return table_n;
}

const arch_info *arch_at(int i)
{
	return (i >= 0 && i < table_n) ? &table[i] : NULL;
}

void arch_unload(void)
{
	free(table);
	table = NULL;
	table_n = 0;
}

int arch_unknown_forced(void)
{
	const char *v = getenv("CUDACLIMB_UNKNOWN_ARCH");
	return v && *v && strcmp(v, "0") != 0;
}

const arch_info *arch_find_device(int cc)
{
	if (arch_unknown_forced())
		return NULL;
	char name[16];
	snprintf(name, sizeof name, "sm_%d", cc);
	return arch_find(name);
}

int arch_nvrtc_supported(int *out, int max)
{
	int n = 0;
	if (nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS || n <= 0)
		return 0;
	int *all = xcalloc((size_t)n, sizeof *all);
	if (nvrtcGetSupportedArchs(all) != NVRTC_SUCCESS)
		n = 0;
	int k = 0;
	for (int i = 0; i < n && k < max; i++)
		out[k++] = all[i];
	free(all);
	return k;
}

static int has(const int *list, int n, int cc)
{
	for (int i = 0; i < n; i++)
		if (list[i] == cc)
			return 1;
	return 0;
}

int arch_fallback_target(int dev_cc, int req_cc, const int *nvrtc, int nn, char *out, size_t outlen, char *why, size_t whylen)
{
	int best = -1;
	for (int i = 0; i < table_n; i++) {
		int cc = table[i].cc;
		if (cc > dev_cc || cc <= best || !has(nvrtc, nn, cc))
			continue;
		if (cc == dev_cc && arch_unknown_forced())   /* the device's own entry is ignored */
			continue;
		best = cc;
	}
	/* A stage that needs a newer feature level than that is built for it, when the GPU has it. */
	if (req_cc > best && req_cc <= dev_cc && has(nvrtc, nn, req_cc))
		best = req_cc;
	if (best < 0) {
		say(why, whylen, "no architecture both in assets/arch.yaml and known to NVRTC is at or below compute "
		    "capability %d.%d", dev_cc / 10, dev_cc % 10);
		return -1;
	}
	snprintf(out, outlen, "compute_%d", best);
	return 0;
}

void arch_from_device(arch_info *out, int cc, const arch_device_limits *d)
{
	memset(out, 0, sizeof *out);
	snprintf(out->name, sizeof out->name, "sm_%d", cc);
	out->cc = cc;
	out->max_threads_per_block = d->max_threads_per_block;
	out->max_threads_per_sm = d->max_threads_per_sm;
	out->max_blocks_per_sm = d->max_blocks_per_sm;
	out->regs_per_sm = d->regs_per_sm;
	out->regs_per_block = d->regs_per_block;
	out->max_regs_per_thread = 255;   /* every GPU since compute capability 3.5; no device attribute has it */
	out->warp_size = d->warp_size;
	out->smem_per_sm = d->smem_per_sm;
	/* 48 KiB is the default per-block limit on every GPU since Volta; a worker too old to send it */
	out->smem_per_block = d->smem_per_block ? d->smem_per_block : d->smem_per_block_optin < 49152 ? d->smem_per_block_optin : 49152;
	out->smem_per_block_optin = d->smem_per_block_optin;
	out->smem_reserved_per_block = d->smem_reserved_per_block;
	out->fp32_lanes_per_sm = ARCH_UNKNOWN;
	out->bf16_tensor_flops_per_clk_per_sm = out->fp16_tensor_flops_per_clk_per_sm = ARCH_UNKNOWN;
	out->tf32_tensor_flops_per_clk_per_sm = out->fp8_tensor_flops_per_clk_per_sm = ARCH_UNKNOWN;
	out->fp64_flops_per_clk_per_sm = out->int8_tensor_ops_per_clk_per_sm = ARCH_UNKNOWN;
	out->typical_sm_count = d->sm_count;
	out->typical_l2_bytes = d->l2_bytes;
	out->typical_clock_mhz = ARCH_UNKNOWN;
	snprintf(out->typical_part, sizeof out->typical_part, "this GPU (device attributes)");
}

int arch_stage_needs(int req_cc, const char *req_arch, int cc, char *buf, size_t n)
{
	int want = req_arch ? parse_cc(req_arch) : -1;
	if (req_arch && want >= 0 && (cc < 0 || cc != want)) {
		snprintf(buf, n, "needs %s", req_arch);
		return 1;
	}
	if (req_cc > 0 && (cc < 0 || cc < req_cc)) {
		snprintf(buf, n, "needs sm_%d", req_cc);
		return 1;
	}
	if (n) buf[0] = 0;
	return 0;
}
