/* yamldoc: see yamldoc.h. */
#include "yamldoc.h"
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

#define NUM_TEXT_MAX 64        /* the longest number text read, in bytes */

/* libyaml's own allocations failed: the allocation policy of util.h (end with a message). */
static void yd_oom(void)
{
	fprintf(stderr, "cudaclimb: out of memory (reading YAML)\n");
	abort();
}

__attribute__((format(printf, 3, 0)))
static int yd_vfail(yd *c, yaml_mark_t m, const char *fmt, va_list ap)
{
	if (c->failed) return -1;
	c->failed = 1;
	if (!c->err || !c->errlen) return -1;
	char msg[400];
	vsnprintf(msg, sizeof msg, fmt, ap);
	strfmt(c->err, c->errlen, "%s:%zu:%zu: %s", c->file, m.line + 1, m.column + 1, msg);
	return -1;
}

int yd_fail_at(yd *c, yaml_mark_t m, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	yd_vfail(c, m, fmt, ap);
	va_end(ap);
	return -1;
}

int yd_fail(yd *c, const yaml_node_t *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	yd_vfail(c, n->start_mark, fmt, ap);
	va_end(ap);
	return -1;
}

/* A reader error (bad UTF-8, a control character) carries a byte offset, not a mark. */
static yaml_mark_t yd_mark_of_offset(const char *buf, size_t len, size_t off)
{
	yaml_mark_t m = { off, 0, 0 };
	if (off > len) off = len;
	for (size_t i = 0; i < off; i++) {
		if (buf[i] == '\n') { m.line++; m.column = 0; }
		else m.column++;
	}
	return m;
}

/* The parser's error as "file:line:col: problem[ context (line N)]". */
static int yd_parser_fail(yd *c)
{
	yaml_parser_t *p = &c->parser;
	if (p->error == YAML_MEMORY_ERROR) yd_oom();
	const char *problem = p->problem ? p->problem : "syntax error";
	yaml_mark_t m = p->error == YAML_READER_ERROR ? yd_mark_of_offset(c->text, c->len, p->problem_offset) : p->problem_mark;
	if (p->context) return yd_fail_at(c, m, "%s %s (line %zu)", problem, p->context, p->context_mark.line + 1);
	return yd_fail_at(c, m, "%s", problem);
}

int yd_load(yd *c, const char *buf, size_t len)
{
	c->text = buf ? buf : "";
	c->len = buf ? len : 0;
	if (!yaml_parser_initialize(&c->parser)) yd_oom();
	yaml_parser_set_input_string(&c->parser, (const unsigned char *)c->text, c->len);
	yaml_parser_set_encoding(&c->parser, YAML_UTF8_ENCODING);
	if (!yaml_parser_load(&c->parser, &c->doc)) {
		yd_parser_fail(c);
		yaml_parser_delete(&c->parser);
		return -1;
	}
	c->live = 1;
	c->end = c->parser.mark;
	return 0;
}

int yd_end(yd *c, const char *msg)
{
	if (!c->live || !yd_root(c)) return c->failed ? -1 : 0;
	yaml_document_t more;
	if (!yaml_parser_load(&c->parser, &more)) return yd_parser_fail(c);
	yaml_node_t *extra = yaml_document_get_root_node(&more);
	int r = extra ? yd_fail(c, extra, "%s", msg) : 0;
	yaml_document_delete(&more);
	return r;
}

void yd_done(yd *c)
{
	if (!c->live) return;
	yaml_document_delete(&c->doc);
	yaml_parser_delete(&c->parser);
	c->live = 0;
}

yaml_node_t *yd_root(yd *c) { return c->live ? yaml_document_get_root_node(&c->doc) : NULL; }

yaml_node_t *yd_node(yd *c, int id) { return yaml_document_get_node(&c->doc, id); }

const char *yd_scalar(yd *c, yaml_node_t *n, const char *what)
{
	if (n->type != YAML_SCALAR_NODE) { yd_fail(c, n, "%s must be a single value", what); return NULL; }
	return (const char *)n->data.scalar.value;
}

yaml_node_t *yd_get(yd *c, yaml_node_t *map, const char *key)
{
	if (map->type != YAML_MAPPING_NODE) return NULL;   /* the caller's yd_check_keys reports it */
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yd_node(c, p->key);
		if (k->type == YAML_SCALAR_NODE && !strcmp((const char *)k->data.scalar.value, key)) return yd_node(c, p->value);
	}
	return NULL;
}

int yd_check_keys(yd *c, yaml_node_t *map, const char *what, const char *const *allowed)
{
	if (map->type != YAML_MAPPING_NODE) return yd_fail(c, map, "%s must be a mapping (key: value)", what);
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yd_node(c, p->key);
		const char *ks = yd_scalar(c, k, "a key");
		if (!ks) return -1;
		int ok = 0;
		for (const char *const *a = allowed; *a && !ok; a++) ok = !strcmp(ks, *a + (**a == '!'));
		if (!ok) {
			sb b = {0};
			for (const char *const *a = allowed; *a; a++) sb_addf(&b, "%s%s", a == allowed ? "" : ", ", *a + (**a == '!'));
			yd_fail(c, k, "unknown key '%s' in %s (expected one of: %s)", ks, what, b.s);
			sb_free(&b);
			return -1;
		}
	}
	for (const char *const *a = allowed; *a; a++)
		if (**a == '!' && !yd_get(c, map, *a + 1)) return yd_fail(c, map, "%s needs '%s'", what, *a + 1);
	return 0;
}

int yd_get_str(yd *c, yaml_node_t *map, const char *key, char **out)
{
	yaml_node_t *n = yd_get(c, map, key);
	if (!n) return 0;
	const char *s = yd_scalar(c, n, key);
	if (!s) return -1;
	*out = xstrdup(s);
	return 0;
}

int yd_strings(yd *c, yaml_node_t *n, const char *what, char ***out, int *count)
{
	if (n->type == YAML_SCALAR_NODE) {
		*out = xcalloc(1, sizeof(char *));
		(*out)[0] = xstrdup((const char *)n->data.scalar.value);
		*count = 1;
		return 0;
	}
	if (n->type != YAML_SEQUENCE_NODE) return yd_fail(c, n, "%s must be a list", what);
	int k = yd_seq_len(n);
	*out = xcalloc((size_t)k, sizeof(char *));
	for (int i = 0; i < k; i++) {
		const char *s = yd_scalar(c, yd_seq_at(c, n, i), what);
		if (!s) return -1;
		(*out)[i] = xstrdup(s);
		(*count)++;
	}
	return 0;
}

int yd_seq_len(const yaml_node_t *n)
{
	return n->type == YAML_SEQUENCE_NODE ? (int)(n->data.sequence.items.top - n->data.sequence.items.start) : 0;
}

yaml_node_t *yd_seq_at(yd *c, yaml_node_t *n, int i) { return yd_node(c, n->data.sequence.items.start[i]); }

int yd_map_len(const yaml_node_t *n)
{
	return n->type == YAML_MAPPING_NODE ? (int)(n->data.mapping.pairs.top - n->data.mapping.pairs.start) : 0;
}

void yd_pair(yd *c, yaml_node_t *map, int i, yaml_node_t **key, yaml_node_t **value)
{
	*key = yd_node(c, map->data.mapping.pairs.start[i].key);
	*value = yd_node(c, map->data.mapping.pairs.start[i].value);
}

/* ---- numbers ---- */

int yd_text_int(const char *s, size_t len, long long *out)
{
	size_t i = 0;
	int neg = 0;
	unsigned long long v = 0, lim = (unsigned long long)LLONG_MAX;
	if (i < len && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
	if (i == len) return -1;
	int over = 0;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9') return -1;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (lim + (unsigned)neg - d) / 10) over = 1;   /* keep scanning: "1e99" is no number at all */
		else v = v * 10 + d;
	}
	if (over) return -2;
	*out = neg ? (long long)(0 - v) : (long long)v;
	return 0;
}

/* Read with '.' whatever the locale says (strtod wants the locale's decimal point). */
int yd_text_double(const char *s, size_t len, double *out)
{
	char tmp[NUM_TEXT_MAX + 16];
	size_t i = 0, o = 0, digits = 0;
	const char *dp = localeconv()->decimal_point;
	if (!dp || !*dp || strlen(dp) > 8) dp = ".";
	if (len > NUM_TEXT_MAX) return -1;
	/* tmp holds at most len - 1 + strlen(dp) + 1 bytes */
	if (i < len && (s[i] == '+' || s[i] == '-')) tmp[o++] = s[i++];
	while (i < len && s[i] >= '0' && s[i] <= '9') tmp[o++] = s[i++], digits++;
	if (i < len && s[i] == '.') {
		i++;
		for (const char *d = dp; *d; d++) tmp[o++] = *d;
		while (i < len && s[i] >= '0' && s[i] <= '9') tmp[o++] = s[i++], digits++;
	}
	if (!digits) return -1;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t ed = 0;
		tmp[o++] = s[i++];
		if (i < len && (s[i] == '+' || s[i] == '-')) tmp[o++] = s[i++];
		while (i < len && s[i] >= '0' && s[i] <= '9') tmp[o++] = s[i++], ed++;
		if (!ed) return -1;
	}
	if (i != len) return -1;
	tmp[o] = 0;
	errno = 0;
	*out = strtod(tmp, NULL);
	return errno == ERANGE ? -2 : 0;
}

int yd_double(yd *c, yaml_node_t *n, const char *what, double lo, double hi, double *out)
{
	const char *s = yd_scalar(c, n, what);
	if (!s) return -1;
	double v;
	if (yd_text_double(s, n->data.scalar.length, &v)) return yd_fail(c, n, "%s must be a number, not '%s'", what, s);
	if (v < lo || v > hi) return yd_fail(c, n, "%s must be from %g to %g, not '%s'", what, lo, hi, s);
	*out = v;
	return 0;
}

int yd_int(yd *c, yaml_node_t *n, const char *what, int64_t lo, int64_t hi, int64_t *out)
{
	const char *s = yd_scalar(c, n, what);
	if (!s) return -1;
	long long v;
	if (yd_text_int(s, n->data.scalar.length, &v)) return yd_fail(c, n, "%s must be a whole number, not '%s'", what, s);
	if (v < lo || v > hi) return yd_fail(c, n, "%s must be from %lld to %lld, not '%s'", what, (long long)lo, (long long)hi, s);
	*out = v;
	return 0;
}

int yd_bool(yd *c, yaml_node_t *n, const char *what, int *out)
{
	const char *s = yd_scalar(c, n, what);
	if (!s) return -1;
	if (!strcmp(s, "true") || !strcmp(s, "yes")) *out = 1;
	else if (!strcmp(s, "false") || !strcmp(s, "no")) *out = 0;
	else return yd_fail(c, n, "%s must be true or false, not '%s'", what, s);
	return 0;
}
