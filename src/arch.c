/* arch: the architecture table, read from assets/arch.yaml with libyaml's event API.
 *
 * The file is one YAML document holding a sequence of mappings, one per architecture, whose keys are
 * the field names of arch_info. Every field is required, unknown or repeated keys are errors, and every
 * error names the place as "file:line:col:" (1-based; libyaml's marks are 0-based). */
#include "arch.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "util.h"

#define ARCH_MAX 64            /* more entries than this is a broken file, not a bigger GPU zoo */
#define NUM_TEXT_MAX 64        /* longest number we read, in characters */

typedef enum { T_STR, T_INT, T_SIZE, T_DBL } ftype;

typedef struct {
	const char *key;
	ftype type;
	size_t off, size;
	double min, max;           /* inclusive bounds for numbers; strings: max is the buffer size */
} field;

#define F(name, type, lo, hi) { #name, type, offsetof(arch_info, name), sizeof(((arch_info *)0)->name), lo, hi }
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
	F(bf16_tensor_flops_per_clk_per_sm, T_DBL, 0, 1e9),
	F(fp16_tensor_flops_per_clk_per_sm, T_DBL, 0, 1e9),
	F(tf32_tensor_flops_per_clk_per_sm, T_DBL, 0, 1e9),
	F(typical_sm_count, T_INT, 1, 1000000),
	F(typical_l2_bytes, T_SIZE, 0, 1024 * GIB),
	F(typical_clock_mhz, T_INT, 1, 1000000),
	F(typical_part, T_STR, 0, 0),
};
#undef F
#define NFIELDS ((int)(sizeof fields / sizeof fields[0]))

static arch_info *table;
static int table_n;

typedef struct {
	yaml_parser_t parser;
	const char *name;
	const char *buf;
	size_t len;
	char *err;
	size_t errlen;
} ctx;

static void say(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* "name:line:col: message" at a libyaml mark (0-based line and column). */
static int fail_at(ctx *c, yaml_mark_t m, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	say(c->err, c->errlen, "%s:%zu:%zu: %s", c->name, m.line + 1, m.column + 1, msg);
	return -1;
}

/* A reader error (bad encoding, control character) carries a byte offset, not a mark. */
static yaml_mark_t mark_of_offset(const ctx *c, size_t off)
{
	yaml_mark_t m = {0, 0, 0};
	if (off > c->len)
		off = c->len;
	for (size_t i = 0; i < off; i++) {
		if (c->buf[i] == '\n') {
			m.line++;
			m.column = 0;
		} else {
			m.column++;
		}
	}
	m.index = off;
	return m;
}

static int parser_fail(ctx *c)
{
	yaml_parser_t *p = &c->parser;
	const char *problem = p->problem ? p->problem : "cannot parse the YAML";
	switch (p->error) {
	case YAML_MEMORY_ERROR:
		say(c->err, c->errlen, "%s: out of memory while reading", c->name);
		return -1;
	case YAML_READER_ERROR:
		return fail_at(c, mark_of_offset(c, p->problem_offset), "%s", problem);
	default:
		if (p->context)
			return fail_at(c, p->problem_mark, "%s (%s at line %zu, column %zu)", problem, p->context,
				       p->context_mark.line + 1, p->context_mark.column + 1);
		return fail_at(c, p->problem_mark, "%s", problem);
	}
}

/* Next event, or -1 with the parser's message. */
static int next(ctx *c, yaml_event_t *ev)
{
	if (!yaml_parser_parse(&c->parser, ev))
		return parser_fail(c);
	return 0;
}

static const char *event_what(yaml_event_type_t t)
{
	switch (t) {
	case YAML_SCALAR_EVENT: return "a single value";
	case YAML_SEQUENCE_START_EVENT: return "a list";
	case YAML_MAPPING_START_EVENT: return "a mapping";
	case YAML_ALIAS_EVENT: return "an alias";
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT: return "the end of a block";
	case YAML_DOCUMENT_START_EVENT: return "a second document";
	default: return "the end of the file";
	}
}

static const field *find_field(const char *key, size_t len)
{
	for (int i = 0; i < NFIELDS; i++)
		if (strlen(fields[i].key) == len && memcmp(fields[i].key, key, len) == 0)
			return &fields[i];
	return NULL;
}

/* Whole number: [+-]digits, nothing else. */
static int parse_int(const char *s, size_t len, long long *out)
{
	size_t i = 0;
	int neg = 0;
	long long v = 0;
	if (i < len && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	if (i == len)
		return -1;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (v > (LLONG_MAX - 9) / 10)
			return -2;
		v = v * 10 + (s[i] - '0');
	}
	*out = neg ? -v : v;
	return 0;
}

/* Decimal number: [+-]digits[.digits][(e|E)[+-]digits], read with '.' whatever the locale says
 * (the TUI may call setlocale, and strtod then wants the locale's decimal point). */
static int parse_dbl(const char *s, size_t len, double *out)
{
	char tmp[NUM_TEXT_MAX + 16];
	size_t i = 0, o = 0, digits = 0;
	const char *dp = localeconv()->decimal_point;
	if (!dp || !*dp || strlen(dp) > 8)
		dp = ".";
	if (len > NUM_TEXT_MAX)
		return -1;
	/* tmp holds at most len - 1 + strlen(dp) + 1 bytes */
	if (i < len && (s[i] == '+' || s[i] == '-'))
		tmp[o++] = s[i++];
	while (i < len && s[i] >= '0' && s[i] <= '9')
		tmp[o++] = s[i++], digits++;
	if (i < len && s[i] == '.') {
		i++;
		for (const char *d = dp; *d; d++)
			tmp[o++] = *d;
		while (i < len && s[i] >= '0' && s[i] <= '9')
			tmp[o++] = s[i++], digits++;
	}
	if (!digits)
		return -1;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t ed = 0;
		tmp[o++] = s[i++];
		if (i < len && (s[i] == '+' || s[i] == '-'))
			tmp[o++] = s[i++];
		while (i < len && s[i] >= '0' && s[i] <= '9')
			tmp[o++] = s[i++], ed++;
		if (!ed)
			return -1;
	}
	if (i != len)
		return -1;
	tmp[o] = 0;
	errno = 0;
	*out = strtod(tmp, NULL);
	if (errno == ERANGE)
		return -2;
	return 0;
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
static int set_field(ctx *c, arch_info *e, const field *f, const yaml_event_t *ev)
{
	const char *s = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length;
	char *dst = (char *)e + f->off;
	char lo[32], hi[32], sv[48];
	fmt_bound(lo, sizeof lo, f->min);
	fmt_bound(hi, sizeof hi, f->max);

	if (f->type == T_STR) {
		if (len == 0)
			return fail_at(c, ev->start_mark, "%s is empty", f->key);
		if (len >= f->size)
			return fail_at(c, ev->start_mark, "%s is too long (at most %zu characters)", f->key,
				       f->size - 1);
		for (size_t i = 0; i < len; i++)
			if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
				return fail_at(c, ev->start_mark, "%s contains a control character", f->key);
		memcpy(dst, s, len);
		dst[len] = 0;
		return 0;
	}

	if (len == 0)
		return fail_at(c, ev->start_mark, "%s needs a number", f->key);
	if (len > NUM_TEXT_MAX)
		return fail_at(c, ev->start_mark, "%s: the number is too long", f->key);
	if (f->type == T_DBL) {
		double v;
		int r = parse_dbl(s, len, &v);
		if (r == -1)
			return fail_at(c, ev->start_mark, "%s: '%s' is not a number", f->key, shown(s, len, sv, sizeof sv));
		if (r == -2 || v < f->min || v > f->max)
			return fail_at(c, ev->start_mark, "%s: %s is out of range (%s to %s)", f->key,
				       shown(s, len, sv, sizeof sv), lo, hi);
		memcpy(dst, &v, sizeof v);
		return 0;
	}
	long long v;
	int r = parse_int(s, len, &v);
	if (r == -1)
		return fail_at(c, ev->start_mark, "%s: '%s' is not a whole number", f->key, shown(s, len, sv, sizeof sv));
	if (r == -2 || (double)v < f->min || (double)v > f->max)
		return fail_at(c, ev->start_mark, "%s: %s is out of range (%s to %s)", f->key,
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
static int check_entry(ctx *c, const arch_info *e, yaml_mark_t m)
{
	int ncc = name_cc(e->name);
	if (ncc < 0)
		return fail_at(c, m, "name '%s' is not of the form sm_90", e->name);
	if (ncc != e->cc)
		return fail_at(c, m, "%s: name says compute capability %d but cc is %d", e->name, ncc, e->cc);
	if (e->max_threads_per_sm % e->warp_size)
		return fail_at(c, m, "%s: max_threads_per_sm (%d) is not a whole number of warps of %d", e->name,
			       e->max_threads_per_sm, e->warp_size);
	if (e->max_threads_per_block > e->max_threads_per_sm)
		return fail_at(c, m, "%s: max_threads_per_block (%d) is larger than max_threads_per_sm (%d)",
			       e->name, e->max_threads_per_block, e->max_threads_per_sm);
	if (e->regs_per_block > e->regs_per_sm)
		return fail_at(c, m, "%s: regs_per_block (%d) is larger than regs_per_sm (%d)", e->name,
			       e->regs_per_block, e->regs_per_sm);
	if (e->smem_per_block > e->smem_per_block_optin)
		return fail_at(c, m, "%s: smem_per_block (%zu) is larger than smem_per_block_optin (%zu)", e->name,
			       e->smem_per_block, e->smem_per_block_optin);
	if (e->smem_per_block_optin > e->smem_per_sm)
		return fail_at(c, m, "%s: smem_per_block_optin (%zu) is larger than smem_per_sm (%zu)", e->name,
			       e->smem_per_block_optin, e->smem_per_sm);
	return 0;
}

/* One mapping, its MAPPING_START already read (start). */
static int parse_entry(ctx *c, arch_info *e, yaml_mark_t start)
{
	unsigned long seen = 0;
	yaml_event_t ev;
	memset(e, 0, sizeof *e);
	for (;;) {
		if (next(c, &ev))
			return -1;
		if (ev.type == YAML_MAPPING_END_EVENT) {
			yaml_event_delete(&ev);
			break;
		}
		if (ev.type != YAML_SCALAR_EVENT) {
			int r = fail_at(c, ev.start_mark, "expected a field name, found %s", event_what(ev.type));
			yaml_event_delete(&ev);
			return r;
		}
		const field *f = find_field((const char *)ev.data.scalar.value, ev.data.scalar.length);
		if (!f) {
			char kv[48];
			int r = fail_at(c, ev.start_mark, "unknown field '%s'",
					shown((const char *)ev.data.scalar.value, ev.data.scalar.length, kv, sizeof kv));
			yaml_event_delete(&ev);
			return r;
		}
		unsigned long bit = 1UL << (f - fields);
		if (seen & bit) {
			int r = fail_at(c, ev.start_mark, "field '%s' is given twice", f->key);
			yaml_event_delete(&ev);
			return r;
		}
		seen |= bit;
		yaml_event_delete(&ev);

		if (next(c, &ev))
			return -1;
		if (ev.type != YAML_SCALAR_EVENT) {
			int r = fail_at(c, ev.start_mark, "%s: expected a single value, found %s", f->key,
					event_what(ev.type));
			yaml_event_delete(&ev);
			return r;
		}
		int r = set_field(c, e, f, &ev);
		yaml_event_delete(&ev);
		if (r)
			return r;
	}
	for (int i = 0; i < NFIELDS; i++)
		if (!(seen & (1UL << i))) {
			if (seen & 1UL)
				return fail_at(c, start, "%s: missing field '%s'", e->name, fields[i].key);
			return fail_at(c, start, "missing field '%s'", fields[i].key);
		}
	return check_entry(c, e, start);
}

/* Expects an event of type t; anything else is an error "expected <what>". */
static int expect(ctx *c, yaml_event_type_t t, const char *what, yaml_mark_t *mark)
{
	yaml_event_t ev;
	if (next(c, &ev))
		return -1;
	if (ev.type != t) {
		int r = fail_at(c, ev.start_mark, "expected %s, found %s", what, event_what(ev.type));
		yaml_event_delete(&ev);
		return r;
	}
	if (mark)
		*mark = ev.start_mark;
	yaml_event_delete(&ev);
	return 0;
}

static int parse_all(ctx *c, arch_info *out, int *n)
{
	yaml_event_t ev;
	*n = 0;
	if (expect(c, YAML_STREAM_START_EVENT, "the start of the file", NULL))
		return -1;
	if (next(c, &ev))
		return -1;
	if (ev.type == YAML_STREAM_END_EVENT) {
		yaml_mark_t m = ev.start_mark;
		yaml_event_delete(&ev);
		return fail_at(c, m, "no architectures in the file");
	}
	if (ev.type != YAML_DOCUMENT_START_EVENT) { /* cannot happen with libyaml; kept for safety */
		int r = fail_at(c, ev.start_mark, "expected a document, found %s", event_what(ev.type));
		yaml_event_delete(&ev);
		return r;
	}
	yaml_event_delete(&ev);
	if (next(c, &ev))
		return -1;
	if (ev.type != YAML_SEQUENCE_START_EVENT) {
		int r = fail_at(c, ev.start_mark, "expected a list of architectures (- name: sm_90 ...), found %s",
				event_what(ev.type));
		yaml_event_delete(&ev);
		return r;
	}
	yaml_event_delete(&ev);
	for (;;) {
		if (next(c, &ev))
			return -1;
		if (ev.type == YAML_SEQUENCE_END_EVENT) {
			yaml_mark_t m = ev.start_mark;
			yaml_event_delete(&ev);
			if (*n == 0)
				return fail_at(c, m, "no architectures in the list");
			break;
		}
		if (ev.type != YAML_MAPPING_START_EVENT) {
			int r = fail_at(c, ev.start_mark, "expected the mapping of one architecture, found %s",
					event_what(ev.type));
			yaml_event_delete(&ev);
			return r;
		}
		yaml_mark_t start = ev.start_mark;
		yaml_event_delete(&ev);
		if (*n == ARCH_MAX)
			return fail_at(c, start, "more than %d architectures", ARCH_MAX);
		arch_info *e = &out[*n];
		if (parse_entry(c, e, start))
			return -1;
		for (int i = 0; i < *n; i++)
			if (out[i].cc == e->cc)
				return fail_at(c, start, "%s is listed twice", e->name);
		(*n)++;
	}
	if (expect(c, YAML_DOCUMENT_END_EVENT, "the end of the document", NULL))
		return -1;
	if (expect(c, YAML_STREAM_END_EVENT, "the end of the file (one document only)", NULL))
		return -1;
	return 0;
}

int arch_load_buffer(const char *name, const char *buf, size_t len, char *err, size_t errlen)
{
	ctx c;
	memset(&c, 0, sizeof c);
	c.name = name ? name : "arch.yaml";
	c.buf = buf ? buf : "";
	c.len = buf ? len : 0;
	c.err = err;
	c.errlen = errlen;
	if (err && errlen)
		err[0] = 0;

	arch_info *tmp = xcalloc(ARCH_MAX, sizeof *tmp);
	if (!yaml_parser_initialize(&c.parser)) {
		free(tmp);
		say(err, errlen, "%s: cannot start the YAML parser", c.name);
		return -1;
	}
	yaml_parser_set_input_string(&c.parser, (const unsigned char *)c.buf, c.len);
	yaml_parser_set_encoding(&c.parser, YAML_UTF8_ENCODING);
	int n = 0;
	int r = parse_all(&c, tmp, &n);
	yaml_parser_delete(&c.parser);
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
