/* lesson_yaml: the ly_node helpers the lesson loader is built from (see lesson_yaml.h). */
#include "lesson_yaml.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "plan.h"
#include "util.h"

const char *const ly_baseline_libs[LY_NLIBS][LY_MAX_LIB_ARGS + 1] = {
	{ "memcpy", "dst", "src", "bytes", NULL },
	{ "cub_reduce_sum", "in", "out", "count", NULL },
	{ "cublas_sgemm", "A", "B", "C", "m", "n", "k", NULL },
	{ "cublas_gemm_bf16", "A", "B", "C", "m", "n", "k", NULL },
	{ "cudnn_conv_bias_relu", "x", "filter", "bias", "y", "n", "c", "k", "h", "w", NULL },
	{ "cudnn_conv_bias_relu_fused", "x", "filter", "bias", "y", "n", "c", "k", "h", "w", NULL },
	{ "cudnn_softmax", "x", "y", "rows", "cols", NULL },
};
const char *const ly_dtype_names[DT_COUNT] = { "f32", "f64", "f16", "bf16", "i32", "u32", "i64", "u64", "i8", "u8" };
const size_t ly_dtype_sizes[DT_COUNT] = { 4, 8, 2, 2, 4, 4, 8, 8, 1, 1 };

int ly_fail_at(ld *c, yaml_mark_t m, const char *fmt, ...)
{
	if (c->failed) return -1;
	c->failed = 1;
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	strfmt(c->err, c->errlen, "%s:%zu:%zu: %s", c->file, m.line + 1, m.column + 1, msg);
	return -1;
}

int ly_load(ld *c, const char *buf, size_t len)
{
	yaml_parser_t p;
	if (!yaml_parser_initialize(&p)) { strfmt(c->err, c->errlen, "%s: cannot start the YAML parser", c->file); return -1; }
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
	if (!yaml_parser_load(&p, &c->doc)) {
		yaml_mark_t m = p.problem_mark;
		if (p.context)
			strfmt(c->err, c->errlen, "%s:%zu:%zu: %s %s (line %zu)", c->file, m.line + 1, m.column + 1, p.problem ? p.problem : "syntax error",
			       p.context, p.context_mark.line + 1);
		else
			strfmt(c->err, c->errlen, "%s:%zu:%zu: %s", c->file, m.line + 1, m.column + 1, p.problem ? p.problem : "syntax error");
		yaml_parser_delete(&p);
		return -1;
	}
	yaml_parser_delete(&p);
	return 0;
}

yaml_node_t *ly_node(ld *c, int id) { return yaml_document_get_node(&c->doc, id); }

const char *ly_scalar(ld *c, yaml_node_t *n, const char *what)
{
	if (n->type != YAML_SCALAR_NODE) { FAIL(c, n, "%s must be a single value", what); return NULL; }
	return (const char *)n->data.scalar.value;
}

yaml_node_t *ly_get(ld *c, yaml_node_t *map, const char *key)
{
	if (map->type != YAML_MAPPING_NODE) return NULL;   /* the caller's ly_check_keys reports it */
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = ly_node(c, p->key);
		if (k->type == YAML_SCALAR_NODE && !strcmp((const char *)k->data.scalar.value, key)) return ly_node(c, p->value);
	}
	return NULL;
}

/* Every key of map must be in allowed; required keys are those starting with '!'. */
int ly_check_keys(ld *c, yaml_node_t *map, const char *what, const char *const *allowed)
{
	if (map->type != YAML_MAPPING_NODE) return FAIL(c, map, "%s must be a mapping (key: value)", what);
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = ly_node(c, p->key);
		const char *ks = ly_scalar(c, k, "a key");
		if (!ks) return -1;
		int ok = 0;
		for (const char *const *a = allowed; *a && !ok; a++) ok = !strcmp(ks, *a + (**a == '!'));
		if (!ok) {
			sb b = {0};
			for (const char *const *a = allowed; *a; a++) sb_addf(&b, "%s%s", a == allowed ? "" : ", ", *a + (**a == '!'));
			ly_fail_at(c, k->start_mark, "unknown key '%s' in %s (expected one of: %s)", ks, what, b.s);
			sb_free(&b);
			return -1;
		}
	}
	for (const char *const *a = allowed; *a; a++)
		if (**a == '!' && !ly_get(c, map, *a + 1)) return FAIL(c, map, "%s needs '%s'", what, *a + 1);
	return 0;
}

int ly_get_str(ld *c, yaml_node_t *map, const char *key, char **out)
{
	yaml_node_t *n = ly_get(c, map, key);
	if (!n) return 0;
	const char *s = ly_scalar(c, n, key);
	if (!s) return -1;
	*out = xstrdup(s);
	return 0;
}

int ly_is_ident(const char *s)
{
	if (!*s || !(isalpha((unsigned char)*s) || *s == '_')) return 0;
	for (; *s; s++) if (!(isalnum((unsigned char)*s) || *s == '_')) return 0;
	return 1;
}

/* ---- names in scope ---- */

int ly_name_known(ld *c, const char *name, size_t len)
{
	char buf[128];
	if (len >= sizeof buf) return 0;
	memcpy(buf, name, len);
	buf[len] = 0;
	if (plan_device_var(NULL, buf, len, NULL)) return 1;   /* the device values: plan.h's one list */
	lesson *l = c->l;
	for (int i = 0; i < l->nparams; i++) if (!strcmp(l->params[i].name, buf)) return 1;
	for (int i = 0; i < l->nderived; i++) if (l->derived[i].name && !strcmp(l->derived[i].name, buf)) return 1;
	if (c->stage)
		for (int i = 0; i < c->stage->ntunables; i++) if (!strcmp(c->stage->tunables[i].name, buf)) return 1;
	/* The occupancy API's answer for the stage's kernel (plan.h): a stage's expressions only. */
	if (c->stage && (!strcmp(buf, "occ_block") || !strcmp(buf, "occ_min_grid"))) return 1;
	return 0;
}

typedef struct { ld *c; yaml_node_t *n; int off; } name_ctx;
static int name_visit(void *ctx, const char *name, size_t len, int col)
{
	name_ctx *nc = ctx;
	if (ly_name_known(nc->c, name, len)) return 0;
	yaml_mark_t m = nc->n->start_mark;
	m.column += (size_t)(col - 1 + nc->off);
	return ly_fail_at(nc->c, m, "unknown name '%.*s' in '%s'%s", (int)len, name,
	               (const char *)nc->n->data.scalar.value,
	               nc->c->stage ? "" : " (tunables are not visible here)");
}

/* Parses the ly_scalar n as an expression and checks that every name in it is in scope. */
int ly_parse_expr(ld *c, yaml_node_t *n, const char *what, lesson_expr *out)
{
	const char *s = ly_scalar(c, n, what);
	if (!s) return -1;
	int off = n->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
	          n->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
	expr_error e;
	out->e = expr_parse(s, &e);
	out->at.line = (int)n->start_mark.line + 1;
	out->at.col = (int)n->start_mark.column + 1 + off;   /* the expression's first character */
	if (!out->e) {
		yaml_mark_t m = n->start_mark;
		m.column += (size_t)(e.col - 1 + off);
		return ly_fail_at(c, m, "bad expression '%s' in %s: %s", s, what, e.msg);
	}
	name_ctx nc = { c, n, off };
	if (!expr_names(out->e, name_visit, &nc)) return 0;
	ly_free_expr(out);   /* callers keep only what parsed and checked */
	return -1;
}

int ly_get_expr(ld *c, yaml_node_t *map, const char *key, lesson_expr *out)
{
	yaml_node_t *n = ly_get(c, map, key);
	return n ? ly_parse_expr(c, n, key, out) : 0;
}

int ly_parse_dtype(ld *c, yaml_node_t *n, lesson_dtype *t)
{
	const char *s = ly_scalar(c, n, "type");
	if (!s) return -1;
	for (int i = 0; i < DT_COUNT; i++) if (!strcmp(s, ly_dtype_names[i])) { *t = (lesson_dtype)i; return 0; }
	return FAIL(c, n, "unknown type '%s' (expected f32, f64, f16, bf16, i32, u32, i64, u64, i8 or u8)", s);
}

int ly_parse_double(ld *c, yaml_node_t *n, const char *what, double *out)
{
	const char *s = ly_scalar(c, n, what);
	if (!s) return -1;
	char *end;
	errno = 0;
	*out = strtod(s, &end);
	if (end == s || *end || errno) return FAIL(c, n, "%s must be a number, not '%s'", what, s);
	return 0;
}

int ly_parse_int(ld *c, yaml_node_t *n, const char *what, int64_t *out)
{
	const char *s = ly_scalar(c, n, what);
	if (!s) return -1;
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 0);
	if (end == s || *end || errno) return FAIL(c, n, "%s must be a whole number, not '%s'", what, s);
	*out = v;
	return 0;
}

int ly_parse_bool(ld *c, yaml_node_t *n, const char *what, int *out)
{
	const char *s = ly_scalar(c, n, what);
	if (!s) return -1;
	if (!strcmp(s, "true") || !strcmp(s, "yes")) *out = 1;
	else if (!strcmp(s, "false") || !strcmp(s, "no")) *out = 0;
	else return FAIL(c, n, "%s must be true or false, not '%s'", what, s);
	return 0;
}

/* A string list (sequence of scalars); a lone ly_scalar is a list of one. */
int ly_parse_strings(ld *c, yaml_node_t *n, const char *what, char ***out, int *count)
{
	if (n->type == YAML_SCALAR_NODE) {
		*out = xcalloc(1, sizeof(char *));
		(*out)[0] = xstrdup((const char *)n->data.scalar.value);
		*count = 1;
		return 0;
	}
	if (n->type != YAML_SEQUENCE_NODE) return FAIL(c, n, "%s must be a list", what);
	int k = (int)(n->data.sequence.items.top - n->data.sequence.items.start);
	*out = xcalloc((size_t)k, sizeof(char *));
	for (int i = 0; i < k; i++) {
		const char *s = ly_scalar(c, ly_node(c, n->data.sequence.items.start[i]), what);
		if (!s) return -1;
		(*out)[i] = xstrdup(s);
		(*count)++;
	}
	return 0;
}


int ly_seq_len(yaml_node_t *n)
{
	return n->type == YAML_SEQUENCE_NODE ? (int)(n->data.sequence.items.top - n->data.sequence.items.start) : 0;
}

yaml_node_t *ly_seq_at(ld *c, yaml_node_t *n, int i)
{
	return ly_node(c, n->data.sequence.items.start[i]);
}

static int parse_init(ld *c, yaml_node_t *n, lesson_buffer *b)
{
	if (n->type == YAML_SCALAR_NODE) {
		const char *s = (const char *)n->data.scalar.value;
		if (!strcmp(s, "iota")) b->init = INIT_IOTA;
		else if (!strcmp(s, "zero")) b->init = INIT_ZERO;
		else return FAIL(c, n, "init must be iota, zero, { random: [lo, hi] } or { constant: v }, not '%s'", s);
		return 0;
	}
	static const char *const keys[] = { "random", "constant", NULL };
	if (ly_check_keys(c, n, "init", keys)) return -1;
	yaml_node_t *r = ly_get(c, n, "random"), *k = ly_get(c, n, "constant");
	if (r && k) return FAIL(c, n, "init takes random or constant, not both");
	if (k) {
		b->init = INIT_CONSTANT;
		return ly_parse_double(c, k, "constant", &b->init_a);
	}
	if (!r) return FAIL(c, n, "init needs random or constant");
	if (ly_seq_len(r) != 2) return FAIL(c, r, "random takes [lo, hi]");
	b->init = INIT_RANDOM;
	if (ly_parse_double(c, ly_seq_at(c, r, 0), "lo", &b->init_a) ||
	    ly_parse_double(c, ly_seq_at(c, r, 1), "hi", &b->init_b)) return -1;
	if (b->init_a > b->init_b) return FAIL(c, r, "random: lo (%g) is above hi (%g)", b->init_a, b->init_b);
	return 0;
}

int ly_parse_buffers(ld *c, yaml_node_t *map, lesson_buffer **out, int *count)
{
	if (map->type != YAML_MAPPING_NODE) return FAIL(c, map, "buffers must be a mapping of name: {type, count, ...}");
	int k = (int)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
	*out = xcalloc((size_t)k, sizeof **out);
	static const char *const keys[] = { "!type", "!count", "init", "output", NULL };
	for (int i = 0; i < k; i++) {
		yaml_node_pair_t *p = &map->data.mapping.pairs.start[i];
		yaml_node_t *kn = ly_node(c, p->key), *v = ly_node(c, p->value);
		lesson_buffer *b = &(*out)[i];
		const char *name = ly_scalar(c, kn, "a buffer name");
		if (!name) return -1;
		(*count)++;
		b->name = xstrdup(name);
		b->at.line = (int)kn->start_mark.line + 1;
		b->at.col = (int)kn->start_mark.column + 1;
		if (!ly_is_ident(name)) return FAIL(c, kn, "buffer name '%s' is not an identifier", name);
		if (ly_check_keys(c, v, "a buffer", keys)) return -1;
		if (ly_parse_dtype(c, ly_get(c, v, "type"), &b->type)) return -1;
		if (ly_get_expr(c, v, "count", &b->count)) return -1;
		yaml_node_t *init = ly_get(c, v, "init"), *o = ly_get(c, v, "output");
		if (init && parse_init(c, init, b)) return -1;
		if (o && ly_parse_bool(c, o, "output", &b->output)) return -1;
		if (b->output && b->init != INIT_NONE) return FAIL(c, init, "an output buffer has no init: it is poisoned before every run");
	}
	return 0;
}

int ly_parse_tolerance(ld *c, yaml_node_t *t, int *exact, double *rel, double *abs)
{
	if (t->type == YAML_SCALAR_NODE) {
		if (strcmp((const char *)t->data.scalar.value, "exact")) return FAIL(c, t, "tolerance is 'exact' or { rel: r, abs: a }");
		*exact = 1;
		return 0;
	}
	static const char *const tkeys[] = { "rel", "abs", NULL };
	if (ly_check_keys(c, t, "tolerance", tkeys)) return -1;
	yaml_node_t *r = ly_get(c, t, "rel"), *a = ly_get(c, t, "abs");
	*exact = 0;
	*rel = *abs = 0;
	if ((r && ly_parse_double(c, r, "rel", rel)) || (a && ly_parse_double(c, a, "abs", abs))) return -1;
	if (*rel < 0 || *abs < 0) return FAIL(c, t, "tolerances cannot be negative");
	return 0;
}
