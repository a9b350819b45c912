/* lesson_yaml: the lesson-specific helpers the lesson loader is built from (see lesson_yaml.h). */
#include "lesson_yaml.h"
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "plan.h"
#include "util.h"

const char *const lesson_yaml_baseline_libs[LESSON_YAML_NLIBS][LESSON_YAML_MAX_LIB_ARGS + 1] = {
	{ "memcpy", "dst", "src", "bytes", NULL },
	{ "cub_reduce_sum", "in", "out", "count", NULL },
	{ "cub_histogram_even", "in", "out", "count", "bins", "lower", "upper", NULL },
	{ "cublas_sgemm", "A", "B", "C", "m", "n", "k", NULL },
	{ "cublas_gemm_bf16", "A", "B", "C", "m", "n", "k", NULL },
	{ "cudnn_conv_bias_relu", "x", "filter", "bias", "y", "n", "c", "k", "h", "w", NULL },
	{ "cudnn_conv_bias_relu_fused", "x", "filter", "bias", "y", "n", "c", "k", "h", "w", NULL },
	{ "cudnn_softmax", "x", "y", "rows", "cols", NULL },
	{ "cudnn_sdpa", "q", "k", "v", "o", "batch", "heads", "seq", "dim", NULL },
	{ "npp_gauss", "src", "dst", "width", "height", "weights", "taps", NULL },
	{ "cublas_gemm_batched", "A", "B", "C", "m", "n", "k", "batch", "transb", "alpha", NULL },
	{ "cub_exclusive_sum", "in", "out", "count", NULL },
	{ "cusparse_spmv_csr", "row_ptr", "col_idx", "values", "x", "y", "rows", "cols", "nnz", NULL },
	{ "cudnn_conv2d", "x", "filter", "y", "n", "c", "k", "h", "w", NULL },
	{ "cublas_gemm_ex", "A", "B", "C", "m", "n", "k", "transb", NULL },
	{ "cublaslt_fp8", "A", "B", "C", "sa", "sb", "m", "n", "k", NULL },
	{ "cublaslt_fp8_tensor", "A", "B", "C", "sa", "sb", "m", "n", "k", NULL },
	{ "cublaslt_fp8_tensor_fast", "A", "B", "C", "sa", "sb", "m", "n", "k", NULL },
	{ "cublaslt_int8", "A", "B", "C", "sa", "sb", "acc", "m", "n", "k", NULL },
	{ "cublaslt_gemm", "A", "B", "C", "m", "n", "k", "transb", NULL },
	{ "cublas_sgemv", "A", "x", "y", "m", "n", NULL },
};
const char *const lesson_yaml_dtype_names[DT_COUNT] = { "f32", "f64", "f16", "bf16", "i32", "u32", "i64", "u64", "i8", "u8" };
const size_t lesson_yaml_dtype_sizes[DT_COUNT] = { 4, 8, 2, 2, 4, 4, 8, 8, 1, 1 };

int lesson_yaml_check_length(ld *c, yaml_node_t *n, const char *what, const char *name)
{
	size_t len = strlen(name);
	if (len <= LESSON_NAME_MAX) return 0;
	return yd_fail(&c->y, n, "%s '%.24s...' is %zu characters long (at most %d)", what, name, len, LESSON_NAME_MAX);
}

/* ---- names in scope ---- */

int lesson_yaml_stage_name(const lesson_stage *s, const char *name)
{
	for (int i = 0; i < s->ntunables; i++) if (!strcmp(s->tunables[i].name, name)) return 1;
	for (int i = 0; i < s->nderived; i++) if (s->derived[i].name && !strcmp(s->derived[i].name, name)) return 1;
	return 0;
}

int lesson_yaml_name_known(ld *c, const char *name, size_t len)
{
	char buf[128];
	if (len >= sizeof buf) return 0;
	memcpy(buf, name, len);
	buf[len] = 0;
	if (plan_device_var(NULL, buf, len, NULL)) return 1;   /* the device values: plan.h's one list */
	lesson *l = c->l;
	for (int i = 0; i < l->nparams; i++) if (!strcmp(l->params[i].name, buf)) return 1;
	for (int i = 0; i < l->nderived; i++) if (l->derived[i].name && !strcmp(l->derived[i].name, buf)) return 1;
	if (c->stage) {
		for (int i = 0; i < c->stage->ntunables; i++) if (!strcmp(c->stage->tunables[i].name, buf)) return 1;
		for (int i = 0; i < c->stage->nderived; i++) if (c->stage->derived[i].name && !strcmp(c->stage->derived[i].name, buf)) return 1;
	}
	/* The lesson's model, read after the stages: a name every stage that uses it has (checked then). */
	if (c->model_scope)
		for (int k = 0; k < l->nstages; k++)
			if (lesson_yaml_stage_name(&l->stages[k], buf)) return 1;
	/* The occupancy API's answer for the stage's kernel (plan.h): a stage's expressions only. */
	if (c->stage && (!strcmp(buf, "occ_block") || !strcmp(buf, "occ_min_grid"))) return 1;
	for (int i = 0; i < c->nbound; i++) if (!strcmp(c->bound[i], buf)) return 1;
	return 0;
}

typedef struct { ld *c; yaml_node_t *n; int off; } name_ctx;
static int name_visit(void *ctx, const char *name, size_t len, int col)
{
	name_ctx *nc = ctx;
	if (lesson_yaml_name_known(nc->c, name, len)) return 0;
	yaml_mark_t m = nc->n->start_mark;
	m.column += (size_t)(col - 1 + nc->off);
	return yd_fail_at(&nc->c->y, m, "unknown name '%.*s' in '%s'%s", (int)len, name,
	                  (const char *)nc->n->data.scalar.value,
	                  nc->c->stage ? "" : nc->c->model_scope ? " (not a parameter, derived or device value, nor any stage's tunable)"
	                  : " (tunables are not visible here: a stage's own derived: sees them)");
}

/* Parses the scalar n as an expression and checks that every name in it is in scope. */
int lesson_yaml_parse_expr(ld *c, yaml_node_t *n, const char *what, lesson_expr *out)
{
	const char *s = yd_scalar(&c->y, n, what);
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
		return yd_fail_at(&c->y, m, "bad expression '%s' in %s: %s", s, what, e.msg);
	}
	name_ctx nc = { c, n, off };
	if (!expr_names(out->e, name_visit, &nc)) return 0;
	lesson_yaml_free_expr(out);   /* callers keep only what parsed and checked */
	return -1;
}

int lesson_yaml_get_expr(ld *c, yaml_node_t *map, const char *key, lesson_expr *out)
{
	yaml_node_t *n = yd_get(&c->y, map, key);
	return n ? lesson_yaml_parse_expr(c, n, key, out) : 0;
}

int lesson_yaml_parse_expr_with(ld *c, yaml_node_t *n, const char *what, const char *name, lesson_expr *out)
{
	if (c->nbound == LESSON_YAML_MAX_BOUND) return yd_fail(&c->y, n, "more than %d names bound here (repeat blocks nested too deep)", LESSON_YAML_MAX_BOUND);
	c->bound[c->nbound++] = name;
	int r = lesson_yaml_parse_expr(c, n, what, out);
	c->nbound--;
	return r;
}

int lesson_yaml_parse_memory(ld *c, yaml_node_t *n, const char *what, lesson_memory *m)
{
	const char *s = yd_scalar(&c->y, n, what);
	if (!s) return -1;
	if (!strcmp(s, "pageable")) *m = MEM_PAGEABLE;
	else if (!strcmp(s, "pinned")) *m = MEM_PINNED;
	else return yd_fail(&c->y, n, "%s is pageable or pinned, not '%s'", what, s);
	return 0;
}

int lesson_yaml_parse_dtype(ld *c, yaml_node_t *n, lesson_dtype *t)
{
	const char *s = yd_scalar(&c->y, n, "type");
	if (!s) return -1;
	for (int i = 0; i < DT_COUNT; i++) if (!strcmp(s, lesson_yaml_dtype_names[i])) { *t = (lesson_dtype)i; return 0; }
	return yd_fail(&c->y, n, "unknown type '%s' (expected f32, f64, f16, bf16, i32, u32, i64, u64, i8 or u8)", s);
}

static int parse_init(ld *c, yaml_node_t *n, lesson_buffer *b)
{
	if (n->type == YAML_SCALAR_NODE) {
		const char *s = (const char *)n->data.scalar.value;
		if (!strcmp(s, "iota")) b->init = INIT_IOTA;
		else if (!strcmp(s, "zero")) b->init = INIT_ZERO;
		else if (!strcmp(s, "cycle")) b->init = INIT_CYCLE;
		else if (!strcmp(s, "csr_cols")) b->init = INIT_CSR_COLS;
		else return yd_fail(&c->y, n, "init must be iota, zero, cycle, csr_cols, { random: [lo, hi] }, { constant: v }, { expr: E }, "
		                    "{ copy: BUFFER } or { csr_rows: {...} }, not '%s'", s);
		return 0;
	}
	static const char *const keys[] = { "random", "constant", "expr", "hot", "csr_rows", "copy", NULL };
	if (yd_check_keys(&c->y, n, "init", keys)) return -1;
	yaml_node_t *cp = yd_get(&c->y, n, "copy");
	if (cp) {   /* another buffer's values (lesson_yaml_parse_buffers checks the pair) */
		static const char *const ckeys[] = { "!copy", NULL };
		if (yd_check_keys(&c->y, n, "init: { copy: BUFFER }", ckeys)) return -1;
		b->init = INIT_COPY;
		return yd_get_str(&c->y, n, "copy", &b->copy_of);
	}
	yaml_node_t *r = yd_get(&c->y, n, "random"), *k = yd_get(&c->y, n, "constant"), *x = yd_get(&c->y, n, "expr");
	yaml_node_t *h = yd_get(&c->y, n, "hot"), *csr = yd_get(&c->y, n, "csr_rows");
	if (!!r + !!k + !!x + !!csr > 1) return yd_fail(&c->y, n, "init takes one of random, constant, expr and csr_rows");
	if (csr) {   /* a CSR row pointer: { nnz: E, cols: E, skew: E }, each evaluated by plan_make */
		static const char *const ckeys[] = { "!nnz", "!cols", "skew", NULL };
		if (yd_check_keys(&c->y, csr, "csr_rows", ckeys)) return -1;
		b->init = INIT_CSR_ROWS;
		if (lesson_yaml_get_expr(c, csr, "nnz", &b->init_csr[0]) || lesson_yaml_get_expr(c, csr, "cols", &b->init_csr[1])) return -1;
		yaml_node_t *sk = yd_get(&c->y, csr, "skew");
		return sk ? lesson_yaml_parse_expr(c, sk, "csr_rows skew", &b->init_csr[2]) : 0;
	}
	if (h && !r) return yd_fail(&c->y, h, "hot goes with random: { random: [lo, hi], hot: SHARE }");
	if (h && lesson_yaml_parse_expr(c, h, "init hot", &b->init_hot)) return -1;   /* the share of elements that are lo */
	if (x) {   /* element i's value; plan_make evaluates it for every i */
		b->init = INIT_EXPR;
		return lesson_yaml_parse_expr_with(c, x, "init expr", "i", &b->init_expr);
	}
	if (k) {
		b->init = INIT_CONSTANT;
		return yd_double(&c->y, k, "constant", -DBL_MAX, DBL_MAX, &b->init_a);
	}
	if (!r) return yd_fail(&c->y, n, "init needs random, constant or expr");
	if (yd_seq_len(r) != 2) return yd_fail(&c->y, r, "random takes [lo, hi]");
	b->init = INIT_RANDOM;
	if (yd_double(&c->y, yd_seq_at(&c->y, r, 0), "lo", -DBL_MAX, DBL_MAX, &b->init_a) ||
	    yd_double(&c->y, yd_seq_at(&c->y, r, 1), "hi", -DBL_MAX, DBL_MAX, &b->init_b)) return -1;
	if (b->init_a > b->init_b) return yd_fail(&c->y, r, "random: lo (%g) is above hi (%g)", b->init_a, b->init_b);
	return 0;
}

/* pitch: { rows: EXPR, cols: EXPR }: a 2-D allocation (cudaMallocPitch); count is then rows * cols. */
static int parse_pitch(ld *c, yaml_node_t *pn, lesson_buffer *b)
{
	static const char *const keys[] = { "!rows", "!cols", NULL };
	if (pn->type != YAML_MAPPING_NODE) return yd_fail(&c->y, pn, "pitch takes { rows: EXPR, cols: EXPR }");
	if (yd_check_keys(&c->y, pn, "pitch", keys)) return -1;
	if (b->count.e)
		return yd_fail(&c->y, pn, "buffer '%s': a pitched buffer's count is rows x cols; leave count out", b->name);
	return lesson_yaml_get_expr(c, pn, "rows", &b->pitch_rows) || lesson_yaml_get_expr(c, pn, "cols", &b->pitch_cols) ? -1 : 0;
}

/* What a pitched buffer may be: a lesson's device input, filled from a packed buffer declared before it
 * (bs[0..i)) or zeroed. */
static int check_pitched(ld *c, yaml_node_t *v, lesson_buffer *b)
{
	yaml_node_t *pn = yd_get(&c->y, v, "pitch");
	if (c->stage) return yd_fail(&c->y, pn, "pitch: stage buffer '%s' is scratch space; a pitched buffer is the lesson's", b->name);
	if (b->memory != MEM_DEVICE) return yd_fail(&c->y, pn, "pitch: '%s' is a host buffer; cudaMallocPitch allocates device memory", b->name);
	if (b->output) return yd_fail(&c->y, pn, "pitch: '%s' is an output; outputs are packed (compare a packed buffer)", b->name);
	if (b->init != INIT_NONE && b->init != INIT_ZERO && b->init != INIT_COPY)
		return yd_fail(&c->y, yd_get(&c->y, v, "init"), "a pitched buffer is filled with init: { copy: BUFFER } (its rows from a packed buffer) or zero");
	return 0;
}

/* init: { copy: SRC } of b (buffer i of bs): SRC a packed lesson buffer declared before it, of its type,
 * not an output; b a lesson buffer (the plan checks that SRC has enough elements). */
static int check_copy(ld *c, yaml_node_t *v, lesson_buffer *b, const lesson_buffer *bs, int i)
{
	yaml_node_t *cn = yd_get(&c->y, yd_get(&c->y, v, "init"), "copy");
	if (c->stage) return yd_fail(&c->y, cn, "init: copy: stage buffer '%s' is scratch space; copy fills the lesson's buffers only", b->name);
	const lesson_buffer *src = NULL;
	for (int k = 0; k < i; k++) if (!strcmp(bs[k].name, b->copy_of)) src = &bs[k];
	if (!src) return yd_fail(&c->y, cn, "init: copy: '%s' is not a buffer declared before '%s'", b->copy_of, b->name);
	if (src->pitch_rows.e) return yd_fail(&c->y, cn, "init: copy: '%s' is pitched; the values come from a packed buffer", b->copy_of);
	if (src->output) return yd_fail(&c->y, cn, "init: copy: '%s' is an output, poisoned before every run", b->copy_of);
	if (src->type != b->type)
		return yd_fail(&c->y, cn, "init: copy: '%s' holds %s and '%s' holds %s; the copy moves elements of one type", b->copy_of,
		               lesson_dtype_name(src->type), b->name, lesson_dtype_name(b->type));
	return 0;
}

int lesson_yaml_parse_buffers(ld *c, yaml_node_t *map, lesson_buffer **out, int *count)
{
	if (map->type != YAML_MAPPING_NODE) return yd_fail(&c->y, map, "buffers must be a mapping of name: {type, count, ...}");
	int k = (int)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
	*out = xcalloc((size_t)k, sizeof **out);
	static const char *const keys[] = { "!type", "count", "init", "output", "host", "pitch", NULL };
	for (int i = 0; i < k; i++) {
		yaml_node_pair_t *p = &map->data.mapping.pairs.start[i];
		yaml_node_t *kn = yd_node(&c->y, p->key), *v = yd_node(&c->y, p->value);
		lesson_buffer *b = &(*out)[i];
		const char *name = yd_scalar(&c->y, kn, "a buffer name");
		if (!name) return -1;
		(*count)++;
		b->name = xstrdup(name);
		b->at.line = (int)kn->start_mark.line + 1;
		b->at.col = (int)kn->start_mark.column + 1;
		if (lesson_yaml_check_length(c, kn, "buffer name", name)) return -1;
		if (!lesson_is_ident(name)) return yd_fail(&c->y, kn, "buffer name '%s' is not an identifier", name);
		if (yd_check_keys(&c->y, v, "a buffer", keys)) return -1;
		if (lesson_yaml_parse_dtype(c, yd_get(&c->y, v, "type"), &b->type)) return -1;
		if (lesson_yaml_get_expr(c, v, "count", &b->count)) return -1;
		yaml_node_t *init = yd_get(&c->y, v, "init"), *o = yd_get(&c->y, v, "output"), *h = yd_get(&c->y, v, "host");
		yaml_node_t *pn = yd_get(&c->y, v, "pitch");
		if (pn && parse_pitch(c, pn, b)) return -1;
		if (!pn && !b->count.e) return yd_fail(&c->y, v, "buffer '%s' needs count (elements) or pitch: { rows, cols }", name);
		if (init && parse_init(c, init, b)) return -1;
		if (o && yd_bool(&c->y, o, "output", &b->output)) return -1;
		if (h && lesson_yaml_parse_memory(c, h, "host", &b->memory)) return -1;
		if (h && c->stage) return yd_fail(&c->y, h, "stage buffer '%s' is device scratch space: host buffers are the lesson's", name);
		if (b->output && b->init != INIT_NONE) return yd_fail(&c->y, init, "an output buffer has no init: it is poisoned before every run");
		if ((b->init == INIT_CSR_ROWS || b->init == INIT_CSR_COLS) && c->stage)
			return yd_fail(&c->y, init, "stage buffer '%s': csr_rows and csr_cols fill the lesson's buffers only", name);
		if (b->init == INIT_CYCLE && c->stage) return yd_fail(&c->y, init, "stage buffer '%s': cycle fills the lesson's buffers only", name);
		if (b->init == INIT_CYCLE && b->type != DT_I32 && b->type != DT_U32 && b->type != DT_I64 && b->type != DT_U64)
			return yd_fail(&c->y, init, "buffer '%s': a cycle holds indices: i32, u32, i64 or u64, not %s", name, lesson_dtype_name(b->type));
		if ((b->init == INIT_CSR_ROWS || b->init == INIT_CSR_COLS) && b->type != DT_I32)
			return yd_fail(&c->y, init, "buffer '%s': a CSR %s buffer is i32, not %s", name, b->init == INIT_CSR_ROWS ? "row pointer" : "column",
			               lesson_dtype_name(b->type));
		if (pn && check_pitched(c, v, b)) return -1;
		if (b->init == INIT_COPY && check_copy(c, v, b, *out, i)) return -1;
	}
	int rows = 0, cols = 0;
	for (int i = 0; i < *count; i++) { rows += (*out)[i].init == INIT_CSR_ROWS; cols += (*out)[i].init == INIT_CSR_COLS; }
	if (rows > 1) return yd_fail(&c->y, map, "%d buffers with init csr_rows: a lesson has one CSR matrix", rows);
	if (cols && !rows) return yd_fail(&c->y, map, "init csr_cols needs a buffer with init { csr_rows: {...} } (its row pointer)");
	return 0;
}

/* One tolerance value at n: a number not below 0 into *v, or (with e) an expression into *e. */
static int tolerance_value(ld *c, yaml_node_t *n, const char *what, double *v, lesson_expr *e)
{
	const char *s = yd_scalar(&c->y, n, what);
	if (!s) return -1;
	char *end;
	double x = strtod(s, &end);
	while (*end == ' ') end++;
	if (end == s || *end) {
		if (!e) return yd_fail(&c->y, n, "%s: '%s' is not a number (an exercise's tolerance is numbers only)", what, s);
		*v = 0;
		return lesson_yaml_parse_expr(c, n, what, e);
	}
	if (!isfinite(x)) return yd_fail(&c->y, n, "%s: '%s' is not a finite number", what, s);
	if (x < 0) return yd_fail(&c->y, n, "tolerances cannot be negative");
	*v = x;
	return 0;
}

int lesson_yaml_parse_tolerance(ld *c, yaml_node_t *t, int *exact, double *rel, double *abs, double *norm, lesson_expr *exprs)
{
	*norm = 0;
	if (t->type == YAML_SCALAR_NODE) {
		if (strcmp((const char *)t->data.scalar.value, "exact")) return yd_fail(&c->y, t, "tolerance is 'exact' or { rel: r, abs: a, norm: n }");
		*exact = 1;
		return 0;
	}
	static const char *const tkeys[] = { "rel", "abs", "norm", NULL };
	if (yd_check_keys(&c->y, t, "tolerance", tkeys)) return -1;
	yaml_node_t *r = yd_get(&c->y, t, "rel"), *a = yd_get(&c->y, t, "abs"), *nm = yd_get(&c->y, t, "norm");
	*exact = 0;
	*rel = *abs = 0;
	if ((r && tolerance_value(c, r, "rel", rel, exprs ? &exprs[0] : NULL)) || (a && tolerance_value(c, a, "abs", abs, exprs ? &exprs[1] : NULL)) ||
	    (nm && tolerance_value(c, nm, "norm", norm, exprs ? &exprs[2] : NULL))) return -1;
	if (nm && *norm == 0 && !(exprs && exprs[2].e)) return yd_fail(&c->y, nm, "norm must be above 0 (leave it out for no norm-wise check)");
	/* norm alone: only the norm-wise error decides (NaN and unwritten elements still fail) */
	if (nm && !r && !a) *abs = INFINITY;
	return 0;
}

/* ---- library runs (a baseline, or a library step of a stage) ---- */

int lesson_yaml_parse_library(ld *c, lesson_stage *s, yaml_node_t *n, lesson_baseline *b)
{
	if (yd_get_str(&c->y, n, "library", &b->library)) return -1;
	int lib = -1;
	for (int i = 0; i < LESSON_YAML_NLIBS; i++) if (!strcmp(lesson_yaml_baseline_libs[i][0], b->library)) lib = i;
	if (lib < 0) {
		char known[400] = "";
		for (int i = 0; i < LESSON_YAML_NLIBS; i++) strfmt(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "", lesson_yaml_baseline_libs[i][0]);
		return yd_fail(&c->y, yd_get(&c->y, n, "library"), "unknown library '%s' (known: %s)", b->library, known);
	}
	yaml_node_t *a = yd_get(&c->y, n, "args");
	if (!a) return yd_fail(&c->y, n, "library %s needs its args (a mapping of name: buffer or expression)", b->library);
	if (a->type != YAML_MAPPING_NODE) return yd_fail(&c->y, a, "library args must be a mapping of name: buffer or expression");
	int k = (int)(a->data.mapping.pairs.top - a->data.mapping.pairs.start);
	b->arg_names = xcalloc((size_t)k, sizeof(char *));
	b->arg_strings = xcalloc((size_t)k, sizeof(char *));
	b->arg_values = xcalloc((size_t)k, sizeof(lesson_expr));
	for (int i = 0; i < k; i++) {
		yaml_node_t *kn = yd_node(&c->y, a->data.mapping.pairs.start[i].key), *v = yd_node(&c->y, a->data.mapping.pairs.start[i].value);
		const char *name = yd_scalar(&c->y, kn, "an argument name"), *val = yd_scalar(&c->y, v, "an argument");
		if (!name || !val) return -1;
		int known = 0;
		for (int r = 1; r <= LESSON_YAML_MAX_LIB_ARGS && lesson_yaml_baseline_libs[lib][r]; r++) known |= !strcmp(lesson_yaml_baseline_libs[lib][r], name);
		if (!known) return yd_fail(&c->y, kn, "library %s takes no argument '%s'", b->library, name);
		for (int j = 0; j < b->nargs; j++)
			if (!strcmp(b->arg_names[j], name)) return yd_fail(&c->y, kn, "library %s: argument '%s' twice", b->library, name);
		b->arg_names[b->nargs] = xstrdup(name);
		b->arg_strings[b->nargs] = xstrdup(val);
		b->nargs++;
		const lesson_buffer *lb = lesson_find_buffer(c->l, s, val);
		if (lb && lb->pitch_rows.e) return yd_fail(&c->y, v, "library %s: %s: '%s' is pitched; a library takes packed buffers", b->library, name, val);
		if (!lb && lesson_yaml_parse_expr(c, v, name, &b->arg_values[i])) return -1;
	}
	for (int r = 1; r <= LESSON_YAML_MAX_LIB_ARGS && lesson_yaml_baseline_libs[lib][r]; r++) {
		int found = 0;
		for (int i = 0; i < b->nargs; i++) found |= !strcmp(b->arg_names[i], lesson_yaml_baseline_libs[lib][r]);
		if (!found) return yd_fail(&c->y, a, "library %s needs the argument '%s'", b->library, lesson_yaml_baseline_libs[lib][r]);
	}
	return 0;
}

void lesson_yaml_free_library(lesson_baseline *b)
{
	if (!b) return;
	for (int i = 0; i < b->nargs; i++) { free(b->arg_names[i]); free(b->arg_strings[i]); lesson_yaml_free_expr(&b->arg_values[i]); }
	free(b->arg_names); free(b->arg_strings); free(b->arg_values);
	free(b->id); free(b->title); free(b->library); free(b->peak); lesson_yaml_free_expr(&b->bytes); lesson_yaml_free_expr(&b->flops);
	for (int i = 0; i < 3; i++) lesson_yaml_free_expr(&b->tol_expr[i]);
	free(b);
}

void lesson_yaml_free_expr(lesson_expr *e)
{
	expr_free(e->e);
	e->e = NULL;
}

void lesson_yaml_free_buffers(lesson_buffer *b, int n)
{
	for (int i = 0; i < n; i++) { free(b[i].name); lesson_yaml_free_expr(&b[i].count); lesson_yaml_free_expr(&b[i].init_expr); lesson_yaml_free_expr(&b[i].init_hot);
		for (int k = 0; k < 3; k++) lesson_yaml_free_expr(&b[i].init_csr[k]);
		lesson_yaml_free_expr(&b[i].pitch_rows); lesson_yaml_free_expr(&b[i].pitch_cols); free(b[i].copy_of); }
	free(b);
}
