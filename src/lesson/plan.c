/* plan: evaluates a stage's expressions for given settings and device; see plan.h. */
#include "plan.h"
#include "csrgen.h"
#include "fmt.h"
#include <cuda.h>   /* CUtensorMapDataType's values only: nothing here calls the driver */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

typedef struct {
	plan *p; const lesson *l; char *err; size_t errlen;
	const plan_device *dev;   /* NULL when not known */
	int64_t device_bytes;     /* the device buffers' bytes so far */
	int in_repeat;            /* inside a repeat block: an empty copy or launch is dropped, not refused */
	unsigned recorded;        /* bit k: a step so far records event k */
	int64_t visited;          /* steps and repeat blocks unroll has looked at, those it left out too */
} pctx;

/* What unroll looks at in one plan at most: a step left out (an empty chunk) or a block of 0 times
 * adds nothing to the plan, so LESSON_MAX_STEPS alone does not bound nested blocks of them (three
 * blocks of 1024 around an empty launch were 2^30 steps: show still planning after 60 s). */
#define PLAN_MAX_VISITED ((int64_t)LESSON_MAX_STEPS * 64)

/* The device values expressions may name: the one list (plan.h). */
static const struct { const char *name; size_t at; int wide; } dev_vars[] = {
	{ "sm_count", offsetof(plan_device, sm_count), 0 },
	{ "l2_bytes", offsetof(plan_device, l2_bytes), 1 },
	{ "warp_size", offsetof(plan_device, warp_size), 0 },
	{ "max_threads_per_block", offsetof(plan_device, max_threads_per_block), 0 },
	{ "max_shared_per_block", offsetof(plan_device, max_shared_per_block), 1 },
	{ "cc", offsetof(plan_device, cc), 0 },
};
#define NDEV_VARS ((int)(sizeof dev_vars / sizeof dev_vars[0]))

const char *plan_device_var_name(int i) { return i >= 0 && i < NDEV_VARS ? dev_vars[i].name : NULL; }

int plan_device_var(const plan_device *dev, const char *name, size_t len, int64_t *v)
{
	for (int i = 0; i < NDEV_VARS; i++) {
		if (strlen(dev_vars[i].name) != len || memcmp(dev_vars[i].name, name, len)) continue;
		if (dev) {
			const char *at = (const char *)dev + dev_vars[i].at;
			*v = dev_vars[i].wide ? *(const int64_t *)at : *(const int *)at;
		}
		return 1;
	}
	return 0;
}

static int lookup(void *ctx, const char *name, size_t len, expr_value *out)
{
	plan *p = ctx;
	for (int i = p->nvars - 1; i >= 0; i--)
		if (strlen(p->vars[i].name) == len && !memcmp(p->vars[i].name, name, len)) {
			if ((len == 9 && !memcmp(name, "occ_block", 9)) || (len == 12 && !memcmp(name, "occ_min_grid", 12))) p->uses_occ = 1;
			*out = p->vars[i].v;
			return 0;
		}
	return -1;
}

static void add_var(plan *p, const char *name, expr_value v)
{
	p->vars = xrealloc(p->vars, (size_t)(p->nvars + 1) * sizeof *p->vars);
	strfmt(p->vars[p->nvars].name, sizeof p->vars[0].name, "%s", name);
	p->vars[p->nvars++].v = v;
}

static expr_value ival(int64_t i) { return (expr_value){ .kind = EXPR_INT, .i = i }; }

static int eval(pctx *c, const lesson_expr *e, expr_value *out)
{
	expr_error err;
	if (!expr_eval(e->e, lookup, c->p, out, &err)) return 0;
	strfmt(c->err, c->errlen, "%s:%d:%d: in '%s': %s", c->l->path, e->at.line, e->at.col + err.col - 1,
	       expr_source(e->e), err.msg);
	return -1;
}

static int eval_int(pctx *c, const lesson_expr *e, int64_t def, int64_t *out)
{
	if (!e->e) { *out = def; return 0; }
	expr_value v;
	if (eval(c, e, &v)) return -1;
	*out = expr_as_int(v);
	return 0;
}

static const plan_setting *find_setting(const plan_setting *sets, int n, const char *name, int *used)
{
	for (int i = 0; i < n; i++) if (!strcmp(sets[i].name, name)) { used[i] = 1; return &sets[i]; }
	return NULL;
}

static int eval_setting(pctx *c, const plan_setting *s, expr_value *out)
{
	expr_error err;
	expr *e = expr_parse(s->value, &err);
	int r = e ? expr_eval(e, lookup, c->p, out, &err) : -1;
	expr_free(e);
	if (r) strfmt(c->err, c->errlen, "%s=%s: %s", s->name, s->value, err.msg);
	return r;
}

/* A value for an integer setting must be whole: 32.5 is refused, never truncated. */
static int not_whole(pctx *c, const char *name, expr_value v)
{
	if (v.kind != EXPR_FLOAT || v.f == floor(v.f)) return 0;
	char x[32];
	strfmt(c->err, c->errlen, "%s takes whole numbers, not %s", name, expr_format(v, x, sizeof x));
	return -1;
}

/* Parameter pa's value: the setting s when there is one, else its default; then its range. Returns 0
 * with the value in *out, or -1 with c's message. */
static int param_value(pctx *c, const lesson_param *pa, const plan_setting *s, expr_value *out)
{
	expr_value v, lo = {0}, hi = {0};
	if (s ? eval_setting(c, s, &v) : eval(c, &pa->def, &v)) return -1;
	if (pa->type == DT_I64) {
		if (not_whole(c, pa->name, v)) return -1;
		v = ival(expr_as_int(v));
	} else {
		v = (expr_value){ .kind = EXPR_FLOAT, .f = expr_as_double(v) };
	}
	if ((pa->min.e && eval(c, &pa->min, &lo)) || (pa->max.e && eval(c, &pa->max, &hi))) return -1;
	char a[32], b[32], x[32];
	if ((pa->min.e && expr_as_double(v) < expr_as_double(lo)) || (pa->max.e && expr_as_double(v) > expr_as_double(hi))) {
		c->p->refused_setting = 1;
		char where[600] = "";   /* the lesson's own default: an error in its file, at the parameter */
		if (!s) strfmt(where, sizeof where, "%s:%d:%d: the default ", c->l->path, pa->at.line, pa->at.col);
		strfmt(c->err, c->errlen, "%s%s = %s is outside its range [%s, %s]", where, pa->name, expr_format(v, x, sizeof x),
		       pa->min.e ? expr_format(lo, a, sizeof a) : "-", pa->max.e ? expr_format(hi, b, sizeof b) : "-");
		return -1;
	}
	*out = v;
	return 0;
}

static int set_params(pctx *c, const plan_setting *sets, int nsets, int *used)
{
	const lesson *l = c->l;
	c->p->first_param = c->p->nvars;
	for (int i = 0; i < l->nparams; i++) {
		const lesson_param *pa = &l->params[i];
		expr_value v;
		if (param_value(c, pa, find_setting(sets, nsets, pa->name, used), &v)) return -1;
		add_var(c->p, pa->name, v);
		c->p->nparams++;
	}
	for (int i = 0; i < l->nderived; i++) {
		expr_value v;
		if (eval(c, &l->derived[i].value, &v)) return -1;
		add_var(c->p, l->derived[i].name, v);
	}
	return 0;
}

/* "4, 8, 16" (the first 12 of t's values, then the last). */
static void allowed_list(sb *b, const lesson_tunable *t)
{
	for (int k = 0; k < t->nvalues && k < 12; k++) sb_addf(b, "%s%lld", k ? ", " : "", (long long)t->values[k]);
	if (t->nvalues > 12) sb_addf(b, ", ... %lld", (long long)t->values[t->nvalues - 1]);
}

/* Tunable t's default on the device whose values c's plan holds. Returns 0, or -1 with c's message. */
static int tunable_default(pctx *c, const lesson_stage *s, const lesson_tunable *t, int64_t *out)
{
	if (!t->def_expr.e) { *out = t->def_num; return 0; }
	expr_value v;
	if (eval(c, &t->def_expr, &v)) return -1;
	char x[32];
	if (v.kind != EXPR_INT) {
		strfmt(c->err, c->errlen, "%s:%d:%d: the default of tunable %s ('%s') is %s on this GPU, not a whole number", c->l->path,
		       t->def_expr.at.line, t->def_expr.at.col, t->name, expr_source(t->def_expr.e), expr_format(v, x, sizeof x));
		return -1;
	}
	for (int k = 0; k < t->nvalues; k++) if (t->values[k] == v.i) { *out = v.i; return 0; }
	sb b = {0};
	allowed_list(&b, t);
	strfmt(c->err, c->errlen, "%s:%d:%d: the default of tunable %s of stage %s ('%s') is %lld on this GPU, not one of its values (%s)",
	       c->l->path, t->def_expr.at.line, t->def_expr.at.col, t->name, s->id, expr_source(t->def_expr.e), (long long)v.i, b.s);
	sb_free(&b);
	return -1;
}

/* Tunable t's value: the setting st when there is one (evaluated, and one of its values), else its
 * default on the plan's device. Returns 0, or -1 with c's message. */
static int tunable_value(pctx *c, const lesson_stage *s, const lesson_tunable *t, const plan_setting *st, int64_t *out)
{
	if (!st) return tunable_default(c, s, t, out);
	expr_value ev;
	if (eval_setting(c, st, &ev) || not_whole(c, t->name, ev)) return -1;
	int64_t v = expr_as_int(ev);
	for (int k = 0; k < t->nvalues; k++) if (t->values[k] == v) { *out = v; return 0; }
	sb b = {0};
	allowed_list(&b, t);
	strfmt(c->err, c->errlen, "%s = %lld is not allowed for stage %s (allowed: %s)", t->name, (long long)v, s->id, b.s);
	sb_free(&b);
	return -1;
}

static int set_tunables(pctx *c, const lesson_stage *s, const plan_setting *sets, int nsets, int *used)
{
	for (int i = 0; i < s->ntunables; i++) {
		const lesson_tunable *t = &s->tunables[i];
		int64_t v;
		if (tunable_value(c, s, t, find_setting(sets, nsets, t->name, used), &v)) return -1;
		add_var(c->p, t->name, ival(v));
		char *d = xasprintf("-D%s=%lld", t->name, (long long)v);
		c->p->defines = xrealloc(c->p->defines, (size_t)(c->p->ndefines + 1) * sizeof(char *));
		c->p->defines[c->p->ndefines++] = d;
	}
	return 0;
}

/* Evaluates e for i = 0..n-1 into out[i], with i bound (an integer) after the plan's variables. */
static int eval_each(pctx *c, const lesson_expr *e, int64_t n, double *out)
{
	add_var(c->p, "i", ival(0));
	int at = c->p->nvars - 1, rc = 0;
	for (int64_t i = 0; i < n && !rc; i++) {
		expr_value v;
		c->p->vars[at].v.i = i;
		rc = eval(c, e, &v);
		if (!rc) out[i] = expr_as_double(v);
	}
	c->p->nvars--;
	return rc;
}

/* Where stage s keeps buffer b: its memory: choice, else the buffer's own. */
static lesson_memory memory_of(const lesson_stage *s, const lesson_buffer *b)
{
	for (int i = 0; s && i < s->nmemory; i++) if (!strcmp(s->memory_buffers[i], b->name)) return s->memory_kinds[i];
	return b->memory;
}


/* Buffer b's bytes, count elements, into *bytes; and the device buffers' sum into *device_total. -1
 * with the error (file:line:col, the buffer and its count's expression) when 64 bits cannot count
 * them, or when the GPU's memory is known and smaller. */
static int buffer_bytes(pctx *c, const lesson_buffer *b, int64_t count, int on_device, int64_t *bytes, int64_t *device_total)
{
	char need[32], has[32];
	int64_t es = (int64_t)lesson_dtype_size(b->type);
	if (__builtin_mul_overflow(count, es, bytes)) {
		strfmt(c->err, c->errlen, "%s:%d:%d: buffer %s: %lld elements of %s (count: %s) are more than 2^63 bytes", c->l->path,
		       b->at.line, b->at.col, b->name, (long long)count, lesson_dtype_name(b->type), expr_source(b->count.e));
		return -1;
	}
	if (!on_device) return 0;
	if (c->dev && c->dev->global_mem > 0 && *bytes > c->dev->global_mem) {
		strfmt(c->err, c->errlen, "%s:%d:%d: buffer %s needs %s (%lld elements of %s, count: %s), the GPU has %s", c->l->path,
		       b->at.line, b->at.col, b->name, fmt_bytes(need, sizeof need, (double)*bytes), (long long)count,
		       lesson_dtype_name(b->type), expr_source(b->count.e), fmt_bytes(has, sizeof has, (double)c->dev->global_mem));
		return -1;
	}
	if (__builtin_add_overflow(*device_total, *bytes, device_total)) {
		strfmt(c->err, c->errlen, "%s:%d:%d: the buffers up to %s are more than 2^63 bytes", c->l->path, b->at.line, b->at.col, b->name);
		return -1;
	}
	if (c->dev && c->dev->global_mem > 0 && *device_total > c->dev->global_mem) {
		strfmt(c->err, c->errlen, "%s:%d:%d: the buffers up to %s need %s of GPU memory in all, the GPU has %s", c->l->path,
		       b->at.line, b->at.col, b->name, fmt_bytes(need, sizeof need, (double)*device_total),
		       fmt_bytes(has, sizeof has, (double)c->dev->global_mem));
		return -1;
	}
	return 0;
}

/* A csr_rows buffer's nnz, cols and skew into pb (a, b, skew), each within what csrgen makes. */
static int csr_rows(pctx *c, const lesson_buffer *b, plan_buffer *pb)
{
	int64_t nnz, cols, rows = pb->count - 1;
	expr_value sk = { .kind = EXPR_FLOAT, .f = 0 };
	if (eval_int(c, &b->init_csr[0], 0, &nnz) || eval_int(c, &b->init_csr[1], 0, &cols) || (b->init_csr[2].e && eval(c, &b->init_csr[2], &sk)))
		return -1;
	pb->skew = expr_as_double(sk);
	const char *why = rows < 1 || rows > CSRGEN_MAX ? "rows (count - 1)" : nnz < 0 || nnz > CSRGEN_MAX ? "nnz" : cols < 1 || cols > CSRGEN_MAX ? "cols" : NULL;
	if (why) {
		strfmt(c->err, c->errlen, "%s:%d:%d: buffer %s: csr_rows with %lld rows, %lld columns and nnz %lld: %s must be from %d to %d", c->l->path,
		       b->at.line, b->at.col, b->name, (long long)rows, (long long)cols, (long long)nnz, why, strcmp(why, "nnz") ? 1 : 0, CSRGEN_MAX);
		return -1;
	}
	if (nnz > rows * cols) {
		strfmt(c->err, c->errlen, "%s:%d:%d: buffer %s: nnz %lld does not fit %lld rows of %lld columns", c->l->path, b->at.line, b->at.col,
		       b->name, (long long)nnz, (long long)rows, (long long)cols);
		return -1;
	}
	if (!(pb->skew >= 0 && pb->skew < 1)) {
		strfmt(c->err, c->errlen, "%s:%d:%d: buffer %s: skew is %g; it is from 0 (rows of about one length) up to, not including, 1", c->l->path,
		       b->at.line, b->at.col, b->name, pb->skew);
		return -1;
	}
	pb->a = (double)nnz;
	pb->b = (double)cols;
	return 0;
}

/* Each csr_cols buffer among the lesson's n buffers (the last n of the plan) holds the csr_rows buffer's nnz. */
static int csr_cols(pctx *c, const lesson_buffer *bs, int n)
{
	const plan_buffer *pb = c->p->buffers + c->p->nbuffers - n, *rows = NULL;
	for (int i = 0; i < n; i++) if (pb[i].init == INIT_CSR_ROWS) rows = &pb[i];
	for (int i = 0; i < n; i++) {
		if (pb[i].init != INIT_CSR_COLS || (rows && pb[i].count == (int64_t)rows->a)) continue;
		strfmt(c->err, c->errlen, "%s:%d:%d: buffer %s: csr_cols has %lld elements, the matrix has nnz %lld (buffer %s)", c->l->path,
		       bs[i].at.line, bs[i].at.col, bs[i].name, (long long)pb[i].count, rows ? (long long)rows->a : 0LL, rows ? rows->name : "?");
		return -1;
	}
	return 0;
}

/* A cycle buffer's count: a power of two whose indices its type holds (2^31 for i32, 2^32 else). */
static int cycle_count(pctx *c, const lesson_buffer *b, int64_t count)
{
	int most = b->type == DT_I32 ? 31 : LESSON_CYCLE_MAX_LOG2;
	if (!(count & (count - 1)) && count <= (int64_t)1 << most) return 0;
	strfmt(c->err, c->errlen, "%s:%d:%d: buffer %s: init cycle needs a power of two elements, at most 2^%d (%s), not %lld (count: %s)", c->l->path,
	       b->at.line, b->at.col, b->name, most, lesson_dtype_name(b->type), (long long)count, b->count.e ? expr_source(b->count.e) : "?");
	return -1;
}

static int add_buffers(pctx *c, const lesson_stage *s, const lesson_buffer *bs, int n, int scratch)
{
	plan *p = c->p;
	for (int i = 0; i < n; i++) {
		const lesson_buffer *b = &bs[i];
		int64_t count, rows = 0, cols = 0;
		if (b->pitch_rows.e) {
			if (eval_int(c, &b->pitch_rows, 0, &rows) || eval_int(c, &b->pitch_cols, 0, &cols)) return -1;
			if (rows < 1 || cols < 1 || __builtin_mul_overflow(rows, cols, &count)) {
				strfmt(c->err, c->errlen, "%s:%d:%d: buffer %s: pitch of %lld rows of %lld elements", c->l->path, b->at.line, b->at.col,
				       b->name, (long long)rows, (long long)cols);
				return -1;
			}
		} else if (eval_int(c, &b->count, 0, &count)) return -1;
		if (count < 1) {
			strfmt(c->err, c->errlen, "%s:%d:%d: buffer %s would have %lld elements", c->l->path, b->at.line, b->at.col,
			       b->name, (long long)count);
			return -1;
		}
		lesson_init_kind init = b->init == INIT_EXPR ? INIT_EXPR : scratch ? INIT_ZERO : b->init;
		if (init == INIT_EXPR && count > LESSON_INIT_EXPR_MAX) {
			strfmt(c->err, c->errlen, "%s:%d:%d: buffer %s has %lld elements; init: { expr } fills at most %d", c->l->path, b->at.line,
			       b->at.col, b->name, (long long)count, LESSON_INIT_EXPR_MAX);
			return -1;
		}
		p->buffers = xrealloc(p->buffers, (size_t)(p->nbuffers + 1) * sizeof *p->buffers);
		plan_buffer *pb = &p->buffers[p->nbuffers++];
		*pb = (plan_buffer){ b->name, b->type, count, b->output, scratch, init, b->init_a, b->init_b, NULL, memory_of(s, b), 0, 0, 0, 0, NULL };
		int64_t bytes;
		if (buffer_bytes(c, b, count, pb->memory == MEM_DEVICE, &bytes, &c->device_bytes)) return -1;
		if (__builtin_add_overflow(p->working_set, bytes, &p->working_set)) {
			strfmt(c->err, c->errlen, "%s:%d:%d: the buffers up to %s are more than 2^63 bytes", c->l->path, b->at.line, b->at.col, b->name);
			return -1;
		}
		if (init == INIT_RANDOM && b->init_hot.e) {
			expr_value h;
			if (eval(c, &b->init_hot, &h)) return -1;
			pb->hot = expr_as_double(h);
			if (!(pb->hot >= 0 && pb->hot <= 1)) {
				strfmt(c->err, c->errlen, "%s:%d:%d: buffer %s: hot is %g; it is a share of the elements, from 0 to 1", c->l->path,
				       b->init_hot.at.line, b->init_hot.at.col, b->name, pb->hot);
				return -1;
			}
		}
		if (init == INIT_CSR_ROWS && csr_rows(c, b, pb)) return -1;
		if (init == INIT_CYCLE && cycle_count(c, b, count)) return -1;
		pb->rows = rows;
		pb->cols = cols;
		if (init == INIT_COPY) {
			const plan_buffer *src = plan_buffer_get(p, b->copy_of);
			pb = &p->buffers[p->nbuffers - 1];
			if (!src || src->count < count) {
				strfmt(c->err, c->errlen, "%s:%d:%d: buffer %s: init copy from %s needs %s%lld elements, %s has %lld", c->l->path,
				       b->at.line, b->at.col, b->name, b->copy_of, rows ? "rows x cols = " : "", (long long)count, b->copy_of,
				       src ? (long long)src->count : 0LL);
				return -1;
			}
			pb->copy_of = src->name;
		}
		if (init != INIT_EXPR) continue;
		pb->values = xcalloc((size_t)count, sizeof *pb->values);
		if (eval_each(c, &b->init_expr, count, pb->values)) return -1;
	}
	return scratch ? 0 : csr_cols(c, bs, n);
}

static int convert_arg(pctx *c, const lesson_arg *a, plan_arg *out)
{
	out->type = a->type;
	expr_value v;
	if (eval(c, &a->value, &v)) return -1;
	switch (a->type) {
	case AT_I32: out->v.i32 = (int32_t)expr_as_int(v); break;
	case AT_U32: out->v.u32 = (uint32_t)expr_as_int(v); break;
	case AT_I64: out->v.i64 = expr_as_int(v); break;
	case AT_U64: out->v.u64 = (uint64_t)expr_as_int(v); break;
	case AT_F32: out->v.f32 = (float)expr_as_double(v); break;
	case AT_F64: out->v.f64 = expr_as_double(v); break;
	}
	if ((a->type == AT_I32 && expr_as_int(v) != out->v.i32) || (a->type == AT_U32 && expr_as_int(v) != out->v.u32)) {
		strfmt(c->err, c->errlen, "%s:%d:%d: '%s' = %lld does not fit in %s", c->l->path, a->value.at.line, a->value.at.col,
		       expr_source(a->value.e), (long long)expr_as_int(v), a->type == AT_I32 ? "i32" : "u32");
		return -1;
	}
	return 0;
}

/* TMA's element type for each buffer type, or -1. A copy does not care about the sign of a byte. */
static const int tma_types[DT_COUNT] = {
	[DT_F32] = CU_TENSOR_MAP_DATA_TYPE_FLOAT32, [DT_F64] = CU_TENSOR_MAP_DATA_TYPE_FLOAT64,
	[DT_F16] = CU_TENSOR_MAP_DATA_TYPE_FLOAT16, [DT_BF16] = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
	[DT_I32] = CU_TENSOR_MAP_DATA_TYPE_INT32,   [DT_U32] = CU_TENSOR_MAP_DATA_TYPE_UINT32,
	[DT_I64] = CU_TENSOR_MAP_DATA_TYPE_INT64,   [DT_U64] = CU_TENSOR_MAP_DATA_TYPE_UINT64,
	[DT_I8] = CU_TENSOR_MAP_DATA_TYPE_UINT8,    [DT_U8] = CU_TENSOR_MAP_DATA_TYPE_UINT8,
};
_Static_assert(DT_COUNT == 10, "give a new buffer type its TMA element type (or -1) in tma_types");

static uint64_t mul_sat(uint64_t a, uint64_t b) { return b && a > UINT64_MAX / b ? UINT64_MAX : a * b; }

const plan_buffer *plan_buffer_get(const plan *p, const char *name)
{
	for (int i = 0; i < p->nbuffers; i++) if (!strcmp(p->buffers[i].name, name)) return &p->buffers[i];
	return NULL;
}

/* A tensor map argument: its sizes evaluated and checked against what cuTensorMapEncodeTiled accepts,
 * so that a size TMA cannot describe is refused with a reason instead of failing on the GPU. */
static int make_tensormap(pctx *c, const lesson_arg *a, plan_arg *out)
{
	const char *name = a->buffer;
	const plan_buffer *b = plan_buffer_get(c->p, name);
	plan_tensormap *t = &out->tm;
	out->kind = ARG_TENSORMAP;
	out->buffer = name;
	if (!b) { strfmt(c->err, c->errlen, "tensor map %s: no such buffer", name); return -1; }   /* the loader checked */
	t->type = b->type;
	t->data_type = (unsigned)b->type < DT_COUNT ? tma_types[b->type] : -1;
	t->rank = a->rank;
	t->swizzle = a->swizzle;
	const char *tn = lesson_dtype_name(b->type);
	uint64_t es = lesson_dtype_size(b->type);
	if (t->data_type < 0) { strfmt(c->err, c->errlen, "tensor map %s: TMA has no element type for %s", name, tn); return -1; }
	int64_t v[2 * LESSON_TMA_MAX_RANK];
	for (int i = 0; i < a->rank; i++) {
		if (eval_int(c, &a->dims[i], 1, &v[i]) || eval_int(c, &a->box[i], 1, &v[LESSON_TMA_MAX_RANK + i])) return -1;
		if (v[i] < 1 || v[i] > (int64_t)UINT32_MAX) {
			strfmt(c->err, c->errlen, "tensor map %s: dims[%d] = %lld; TMA needs 1 to %lu", name, i, (long long)v[i], (unsigned long)UINT32_MAX);
			return -1;
		}
		t->dims[i] = (uint64_t)v[i];
	}
	sb shape = {0};   /* "776, 1000" */
	uint64_t elems = 1;
	for (int i = 0; i < a->rank; i++) {
		sb_addf(&shape, "%s%llu", i ? ", " : "", (unsigned long long)t->dims[i]);
		elems = mul_sat(elems, t->dims[i]);
	}
	if (elems > (uint64_t)b->count) {
		strfmt(c->err, c->errlen, "tensor map %s: dims [%s] hold %s%llu elements; buffer %s has %lld", name, shape.s,
		       elems == UINT64_MAX ? "over " : "", (unsigned long long)elems, name, (long long)b->count);
		sb_free(&shape);
		return -1;
	}
	sb_free(&shape);
	/* Global strides: dims[i] steps over the dims before it, which must come to whole 16-byte units. */
	uint64_t inner = t->dims[0];
	for (int i = 1; i < a->rank; i++) {
		uint64_t stride = mul_sat(inner, es);
		t->strides[i] = stride;
		if (stride % 16 == 0 && stride < (uint64_t)1 << 40) { inner = mul_sat(inner, t->dims[i]); continue; }
		sb what = {0};
		if (i == 1) {
			sb_addf(&what, "rows of dims[0]=%llu %s are", (unsigned long long)t->dims[0], tn);
		} else {
			sb_addf(&what, "steps of dims[%d] (", i);
			for (int k = 0; k < i; k++) sb_addf(&what, "%sdims[%d]", k ? "*" : "", k);
			for (int k = 0; k < i; k++) sb_addf(&what, "%s%llu", k ? "*" : "=", (unsigned long long)t->dims[k]);
			sb_addf(&what, " %s) are", tn);
		}
		c->p->refused_setting = 1;   /* a size the hardware refuses, as a constraint would (check's edge sizes skip it) */
		if (stride % 16)
			strfmt(c->err, c->errlen, "tensor map %s: %s %llu bytes; TMA needs a multiple of 16", name, what.s, (unsigned long long)stride);
		else
			strfmt(c->err, c->errlen, "tensor map %s: %s %llu bytes; TMA needs less than 2^40", name, what.s, (unsigned long long)stride);
		sb_free(&what);
		return -1;
	}
	for (int i = 0; i < a->rank; i++) {
		int64_t x = v[LESSON_TMA_MAX_RANK + i];
		if (x < 1 || x > 256) {
			strfmt(c->err, c->errlen, "tensor map %s: box[%d] = %lld; TMA needs 1 to 256", name, i, (long long)x);
			return -1;
		}
		t->box[i] = (uint32_t)x;
	}
	uint64_t row = t->box[0] * es;
	if (row % 16) {
		strfmt(c->err, c->errlen, "tensor map %s: a box row of box[0]=%u %s is %llu bytes; TMA needs a multiple of 16", name,
		       t->box[0], tn, (unsigned long long)row);
		return -1;
	}
	if (t->swizzle && row > (uint64_t)t->swizzle) {
		strfmt(c->err, c->errlen, "tensor map %s: a box row of box[0]=%u %s is %llu bytes; with swizzle %d it may be at most %d",
		       name, t->box[0], tn, (unsigned long long)row, t->swizzle, t->swizzle);
		return -1;
	}
	return 0;
}

/* The relational operator at the top level of src ("<=", ">=", "<", ">"): its offset and length, or
 * -1 when there is none, more than one, or a looser operator (&& || ?: == !=) joins the top level. */
static int top_comparison(const char *src, int *oplen)
{
	int depth = 0, at = -1;
	for (int i = 0; src[i]; i++) {
		char ch = src[i], nx = src[i + 1];
		if (ch == '(') depth++;
		else if (ch == ')') depth--;
		if (depth || ch == '(' || ch == ')') continue;
		if (strchr("&|?", ch) || ((ch == '=' || ch == '!') && nx == '=')) return -1;
		if ((ch == '<' || ch == '>') && nx == ch) { i++; continue; }   /* a shift */
		if (ch != '<' && ch != '>') continue;
		if (at >= 0) return -1;
		at = i;
		*oplen = nx == '=' ? 2 : 1;
		i += *oplen - 1;
	}
	return at;
}

/* Evaluates one side of a comparison, text[0..n), into buf; -1 when it does not evaluate. */
static int eval_side(pctx *c, const char *text, size_t n, char *buf, size_t len)
{
	char *src = xstrndup(text, n);
	expr_error e;
	expr *x = expr_parse(src, &e);
	expr_value v;
	int r = x ? expr_eval(x, lookup, c->p, &v, &e) : -1;
	if (!r) expr_format(v, buf, len);
	expr_free(x);
	free(src);
	return r;
}

/* The lesson's message for a broken constraint and, where it compares two values, both of them:
 * "...: needs 107520 bytes, the limit is 101376" ("has N, needs at least M" for >= and >). */
static void refuse_constraint(pctx *c, const lesson_constraint *k)
{
	const char *src = expr_source(k->cond.e);
	int oplen = 0, at = top_comparison(src, &oplen);
	char a[48], b[48];
	if (at < 0 || eval_side(c, src, (size_t)at, a, sizeof a) || eval_side(c, src + at + oplen, strlen(src + at + oplen), b, sizeof b)) {
		strfmt(c->err, c->errlen, "%s", k->message);
		return;
	}
	const char *unit = strstr(k->message, "byte") || strstr(src, "shared") ? " bytes" : "";
	if (src[at] == '<')
		strfmt(c->err, c->errlen, "%s: needs %s%s, the limit is %s", k->message, a, unit, b);
	else
		strfmt(c->err, c->errlen, "%s: has %s%s, needs at least %s%s", k->message, a, unit, oplen == 1 ? "more than " : "", b);
}

/* A texture argument: its sizes evaluated and checked to lie inside the buffer. */
static int make_texture(pctx *c, const lesson_arg *a, plan_arg *out)
{
	const char *name = a->buffer;
	const plan_buffer *b = plan_buffer_get(c->p, name);
	plan_texture *t = &out->tex;
	out->kind = ARG_TEXTURE;
	out->buffer = name;
	if (!b) { strfmt(c->err, c->errlen, "texture %s: no such buffer", name); return -1; }   /* the loader checked */
	*t = (plan_texture){ b->type, a->rank, 0, 1, 0, a->filter, a->address, a->normalized_coords, a->read_normalized };
	int64_t w, h = 1, pitch;
	if (eval_int(c, &a->dims[0], 1, &w) || (a->rank == 2 && eval_int(c, &a->dims[1], 1, &h)) || eval_int(c, &a->pitch, w, &pitch)) return -1;
	if (w < 1 || h < 1) {
		strfmt(c->err, c->errlen, "texture %s: dims [%lld, %lld]; each must be at least 1", name, (long long)w, (long long)h);
		return -1;
	}
	if (pitch < w) {
		strfmt(c->err, c->errlen, "texture %s: a pitch of %lld elements is less than the width, %lld", name, (long long)pitch, (long long)w);
		return -1;
	}
	/* (h - 1) * pitch + w, saturating */
	uint64_t need = mul_sat((uint64_t)(h - 1), (uint64_t)pitch);
	need = need > UINT64_MAX - (uint64_t)w ? UINT64_MAX : need + (uint64_t)w;
	if (need > (uint64_t)b->count) {
		strfmt(c->err, c->errlen, "texture %s: %lld rows of pitch %lld and width %lld reach element %llu; buffer %s has %lld", name,
		       (long long)h, (long long)pitch, (long long)w, (unsigned long long)need, name, (long long)b->count);
		return -1;
	}
	int small_int = b->type == DT_I8 || b->type == DT_U8;
	if (a->read_normalized && !small_int) {
		strfmt(c->err, c->errlen, "texture %s: read: normalized turns 8-bit integers into floats; the buffer is %s", name, lesson_dtype_name(b->type));
		return -1;
	}
	if (a->filter == TEX_LINEAR && !(b->type == DT_F32 || b->type == DT_F16 || a->read_normalized)) {
		strfmt(c->err, c->errlen, "texture %s: linear filtering needs f32 or f16 elements, or read: normalized; the buffer is %s", name,
		       lesson_dtype_name(b->type));
		return -1;
	}
	t->width = (uint64_t)w;
	t->height = (uint64_t)h;
	t->pitch_bytes = a->rank == 2 ? (uint64_t)pitch * lesson_dtype_size(b->type) : 0;
	return 0;
}

/* The step's stream into out->stream: 0..LESSON_MAX_STREAMS-1. */
static int make_stream(pctx *c, const lesson_launch *L, const char *what, plan_launch *out)
{
	int64_t st;
	if (eval_int(c, &L->stream, 0, &st)) return -1;
	if (st < 0 || st >= LESSON_MAX_STREAMS) {
		strfmt(c->err, c->errlen, "%s:%d:%d: %s: stream %lld is not one of 0 to %d", c->l->path, L->at.line, L->at.col, what,
		       (long long)st, LESSON_MAX_STREAMS - 1);
		return -1;
	}
	out->stream = (int)st;
	if (out->stream >= c->p->nstreams) c->p->nstreams = out->stream + 1;
	return 0;
}

/* Elements [first, first + count) of b, or -1 naming the step when they lie outside it. */
static int inside(pctx *c, const lesson_launch *L, const char *step, const plan_buffer *b, int64_t first, int64_t count)
{
	if (first >= 0 && count >= 0 && first <= b->count && count <= b->count - first) return 0;
	strfmt(c->err, c->errlen, "%s:%d:%d: %s: elements [%lld, %lld) lie outside %s (%lld elements)", c->l->path, L->at.line, L->at.col,
	       step, (long long)first, (long long)first + (long long)count, b->name, (long long)b->count);
	return -1;
}

/* A copy step: offsets and count evaluated, checked against both buffers. *skip when it copies nothing
 * (then neither its offsets nor its stream are checked: the empty last chunk of a pipeline). */
static int make_copy(pctx *c, const lesson_launch *L, plan_launch *out, int *skip)
{
	const plan_buffer *d = plan_buffer_get(c->p, L->copy_dst), *sr = plan_buffer_get(c->p, L->copy_src);
	char step[160];
	strfmt(step, sizeof step, "copy %s>%s", L->copy_src, L->copy_dst);
	if (!d || !sr) { strfmt(c->err, c->errlen, "%s: no such buffer", step); return -1; }   /* the loader checked */
	int64_t off, doff, soff, count;
	if (eval_int(c, &L->copy_offset, 0, &off) || eval_int(c, &L->copy_dst_offset, off, &doff) ||
	    eval_int(c, &L->copy_src_offset, off, &soff)) return -1;
	if (eval_int(c, &L->copy_count, soff >= 0 && soff <= sr->count ? sr->count - soff : 0, &count)) return -1;
	if (count < 0 && !c->in_repeat) {
		strfmt(c->err, c->errlen, "%s:%d:%d: %s: count is %lld (a copy's count may be below 0 only inside a repeat: block, where it drops the copy)",
		       c->l->path, L->at.line, L->at.col, step, (long long)count);
		return -1;
	}
	*skip = count <= 0;   /* an empty chunk, wherever its offset points */
	if (*skip) return 0;
	if (inside(c, L, step, sr, soff, count) || inside(c, L, step, d, doff, count) || make_stream(c, L, step, out)) return -1;
	uint64_t es = lesson_dtype_size(sr->type);
	out->kind = STEP_COPY;
	out->buffer = d->name;
	out->src = sr->name;
	out->dst_off = (uint64_t)doff * es;
	out->src_off = (uint64_t)soff * es;
	out->bytes = (uint64_t)count * es;
	if (sr->memory != MEM_DEVICE && d->memory == MEM_DEVICE) c->p->h2d_bytes += (double)out->bytes;
	if (sr->memory == MEM_DEVICE && d->memory != MEM_DEVICE) c->p->d2h_bytes += (double)out->bytes;
	return 0;
}

/* A library run (a baseline, or a stage's library step) into L: the library as its entry, each
 * argument named, a buffer or a number (i64, or f64 for a float expression). */
static int make_call(pctx *c, const lesson_baseline *b, plan_launch *L)
{
	L->entry = b->library;
	L->nargs = b->nargs;
	L->args = xcalloc((size_t)b->nargs + 1, sizeof *L->args);
	for (int i = 0; i < b->nargs; i++) {
		plan_arg *a = &L->args[i];
		a->name = b->arg_names[i];
		if (!b->arg_values[i].e) { a->kind = ARG_BUFFER; a->buffer = b->arg_strings[i]; continue; }
		expr_value v;
		if (eval(c, &b->arg_values[i], &v)) return -1;
		if (v.kind == EXPR_INT) { a->type = AT_I64; a->v.i64 = v.i; }
		else { a->type = AT_F64; a->v.f64 = v.f; }
	}
	return 0;
}

static int make_launch(pctx *c, const plan_device *dev, const lesson_stage *s, const lesson_launch *L, plan_launch *out, int *skip)
{
	if (L->kind == STEP_LIBRARY) {
		out->kind = STEP_LIBRARY;
		char step[96];
		strfmt(step, sizeof step, "library step %s", L->call->library);
		return make_stream(c, L, step, out) || make_call(c, L->call, out) ? -1 : 0;
	}
	if (L->kind == STEP_RECORD || L->kind == STEP_WAIT) {
		const char *name = L->event >= 0 && L->event < s->nevents ? s->events[L->event] : "?";
		*out = (plan_launch){ .kind = L->kind, .event = L->event, .entry = name };
		char step[96];
		strfmt(step, sizeof step, "%s %s", L->kind == STEP_RECORD ? "record" : "wait", name);
		if (L->kind == STEP_WAIT && !(c->recorded & 1u << L->event)) {   /* a repeat block of 0 times left the record out */
			strfmt(c->err, c->errlen, "%s:%d:%d: %s: no step before it records %s at these settings (a repeat block before it ran 0 times?)",
			       c->l->path, L->at.line, L->at.col, step, name);
			return -1;
		}
		c->recorded |= 1u << L->event;
		return make_stream(c, L, step, out);
	}
	if (L->kind == STEP_MEMSET) {
		*out = (plan_launch){ .kind = STEP_MEMSET, .buffer = L->memset_buffer, .value = L->memset_value };
		char step[96];
		strfmt(step, sizeof step, "memset %s", L->memset_buffer);
		return make_stream(c, L, step, out);
	}
	out->entry = L->entry ? L->entry : s->entry;
	char step[96];
	strfmt(step, sizeof step, "launch of %s", out->entry);
	if (make_stream(c, L, step, out)) return -1;
	int64_t g[3], b[3], sh;
	for (int d = 0; d < 3; d++)
		if (eval_int(c, &L->grid[d], 1, &g[d]) || eval_int(c, &L->block[d], 1, &b[d])) return -1;
	if (eval_int(c, &L->shared, 0, &sh)) return -1;
	if (c->in_repeat && (g[0] <= 0 || g[1] <= 0 || g[2] <= 0)) { *skip = 1; return 0; }   /* an empty chunk's kernel */
	static const int64_t gmax[3] = { 2147483647, 65535, 65535 };
	for (int d = 0; d < 3; d++) {
		if (g[d] < 1 || g[d] > gmax[d] || b[d] < 1) {
			strfmt(c->err, c->errlen, "%s:%d:%d: launch of %s has grid %lldx%lldx%lld and block %lldx%lldx%lld: each must be at least 1 and the grid at most %lld in that dimension",
			       c->l->path, L->at.line, L->at.col, out->entry, (long long)g[0], (long long)g[1], (long long)g[2],
			       (long long)b[0], (long long)b[1], (long long)b[2], (long long)gmax[d]);
			return -1;
		}
		out->grid[d] = (unsigned)g[d];
		out->block[d] = (unsigned)b[d];
	}
	int64_t threads = 1;   /* saturates: the dimensions are >= 1 but may be huge */
	for (int d = 0; d < 3; d++) threads = b[d] > INT64_MAX / threads ? INT64_MAX : threads * b[d];
	if (threads > dev->max_threads_per_block) {
		strfmt(c->err, c->errlen, "a block of %lld threads is over this GPU's limit of %d", (long long)threads, dev->max_threads_per_block);
		return -1;
	}
	if (sh < 0 || sh > dev->max_shared_per_block) {
		strfmt(c->err, c->errlen, "%lld bytes of dynamic shared memory is over the %lld bytes a block may have on this GPU",
		       (long long)sh, (long long)dev->max_shared_per_block);
		return -1;
	}
	out->shared = (size_t)sh;
	if (L->pdl) {
		/* The step it overlaps must be the stage's own kernel on the same stream: before the first
		 * step the worker's own work (inputs, poison, events) is what runs, and a copy, memset or
		 * library call does not let a grid start early. */
		const plan_launch *prev = c->p->nlaunches >= 2 ? &c->p->launches[c->p->nlaunches - 2] : NULL;
		if (!prev || prev->kind != STEP_LAUNCH || prev->stream != out->stream) {
			strfmt(c->err, c->errlen, "%s:%d:%d: launch of %s: pdl: true needs a kernel launch of this stage just before it on its stream, to overlap with",
			       c->l->path, L->at.line, L->at.col, out->entry);
			return -1;
		}
		out->pdl = 1;
	}
	out->nargs = L->nargs;
	out->args = xcalloc((size_t)L->nargs, sizeof *out->args);
	for (int i = 0; i < L->nargs; i++) {
		const lesson_arg *a = &L->args[i];
		if (a->kind == ARG_BUFFER) {
			const plan_buffer *pb = plan_buffer_get(c->p, a->buffer);
			if (pb && pb->memory == MEM_PAGEABLE) {
				strfmt(c->err, c->errlen, "%s:%d:%d: launch of %s: %s is pageable host memory, which a kernel cannot read; copy it to a device buffer (or make it pinned)",
				       c->l->path, a->at.line, a->at.col, out->entry, a->buffer);
				return -1;
			}
			out->args[i].kind = ARG_BUFFER;
			out->args[i].buffer = a->buffer;
		} else if (a->kind == ARG_PITCH) {
			out->args[i].kind = ARG_PITCH;
			out->args[i].buffer = a->buffer;
			out->args[i].type = AT_I64;
		} else if (a->kind == ARG_TENSORMAP ? make_tensormap(c, a, &out->args[i])
		           : a->kind == ARG_TEXTURE ? make_texture(c, a, &out->args[i]) : convert_arg(c, a, &out->args[i])) {
			return -1;
		}
	}
	return 0;
}

/* Steps into the plan, in order, repeat blocks unrolled with their variable bound. */
static int unroll(pctx *c, const plan_device *dev, const lesson_stage *s, const lesson_launch *steps, int n)
{
	plan *p = c->p;
	for (int i = 0; i < n; i++) {
		const lesson_launch *L = &steps[i];
		if (++c->visited > PLAN_MAX_VISITED) {
			strfmt(c->err, c->errlen, "%s:%d:%d: stage %s unrolls to more than %lld steps and repeat blocks, counting those left out "
			       "(nested repeat blocks of empty steps?)", c->l->path, L->at.line, L->at.col, s->id, (long long)PLAN_MAX_VISITED);
			return -1;
		}
		if (L->body) {
			int64_t times;
			if (eval_int(c, &L->repeat_count, 0, &times)) return -1;
			if (times < 0 || times > LESSON_MAX_STEPS) {
				strfmt(c->err, c->errlen, "%s:%d:%d: repeat %s: %lld times; a block repeats 0 to %d times", c->l->path, L->at.line,
				       L->at.col, L->repeat_var, (long long)times, LESSON_MAX_STEPS);
				return -1;
			}
			add_var(p, L->repeat_var, ival(0));
			int at = p->nvars - 1, rc = 0;
			c->in_repeat++;
			for (int64_t k = 0; k < times && !rc; k++) {
				p->vars[at].v = ival(k);
				rc = unroll(c, dev, s, L->body, L->nbody);
			}
			c->in_repeat--;
			p->nvars = at;
			if (rc) return -1;
			continue;
		}
		if (p->nlaunches == LESSON_MAX_STEPS) {
			strfmt(c->err, c->errlen, "%s:%d:%d: stage %s unrolls to more than %d steps", c->l->path, L->at.line, L->at.col, s->id,
			       LESSON_MAX_STEPS);
			return -1;
		}
		p->launches = xrealloc(p->launches, (size_t)(p->nlaunches + 1) * sizeof *p->launches);
		plan_launch *out = &p->launches[p->nlaunches++];
		memset(out, 0, sizeof *out);
		int skip = 0;
		if (L->kind == STEP_COPY ? make_copy(c, L, out, &skip) : make_launch(c, dev, s, L, out, &skip)) return -1;
		if (skip) p->nlaunches--;   /* an empty copy, or (in a repeat block) an empty chunk's copy or kernel */
	}
	return 0;
}

/* A constant's value bytes: the evaluated values converted to the type, little-endian. */
static uint16_t to_half(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = (x >> 16) & 0x8000, e = (x >> 23) & 0xff, m = x & 0x7fffff;
	if (e == 0xff) return (uint16_t)(sign | 0x7c00 | (m ? 0x200 : 0));
	int ex = (int)e - 127 + 15;
	if (ex >= 31) return (uint16_t)(sign | 0x7c00);
	if (ex <= 0) {   /* subnormal or zero: round to nearest even */
		if (ex < -10) return (uint16_t)sign;
		m |= 0x800000;
		int shift = 14 - ex;
		uint32_t h = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
		if (rem > half || (rem == half && (h & 1))) h++;
		return (uint16_t)(sign | h);
	}
	uint32_t h = ((uint32_t)ex << 10) | (m >> 13), rem = m & 0x1fff;
	if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) h++;   /* may carry into the exponent: still right */
	return (uint16_t)(sign | h);
}

static uint16_t to_bf16(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	if ((x & 0x7fffffff) > 0x7f800000) return (uint16_t)((x >> 16) | 0x40);   /* NaN stays NaN */
	x += 0x7fff + ((x >> 16) & 1);
	return (uint16_t)(x >> 16);
}

/* v as type t into out (little-endian); -1 when an integer type cannot hold it. */
static int put_value(lesson_dtype t, double v, unsigned char *out)
{
	static const double lo[DT_COUNT] = { [DT_I32] = INT32_MIN, [DT_U32] = 0, [DT_I64] = -0x1p63, [DT_U64] = 0, [DT_I8] = INT8_MIN, [DT_U8] = 0 };
	static const double hi[DT_COUNT] = { [DT_I32] = INT32_MAX, [DT_U32] = UINT32_MAX, [DT_I64] = 0x1p63, [DT_U64] = 0x1p64, [DT_I8] = INT8_MAX, [DT_U8] = UINT8_MAX };
	uint64_t bits = 0;
	size_t n = lesson_dtype_size(t);
	if (!lesson_dtype_is_float(t)) {
		int wide = t == DT_I64 || t == DT_U64;
		if (v != floor(v) || v < lo[t] || (wide ? v >= hi[t] : v > hi[t])) return -1;
		bits = t == DT_I64 || t == DT_I32 || t == DT_I8 ? (uint64_t)(int64_t)v : (uint64_t)v;
	} else if (t == DT_F64) {
		memcpy(&bits, &v, 8);
	} else if (t == DT_F32) {
		float f = (float)v;
		uint32_t b;
		memcpy(&b, &f, 4);
		bits = b;
	} else {
		bits = t == DT_F16 ? to_half((float)v) : to_bf16((float)v);
	}
	for (size_t k = 0; k < n; k++) out[k] = (unsigned char)(bits >> (8 * k));
	return 0;
}

/* The constant bank a stage's constants go to. */
#define CONSTANT_BANK 65536

static int make_constants(pctx *c, const lesson_stage *s)
{
	plan *p = c->p;
	p->constants = xcalloc((size_t)s->nconstants + 1, sizeof *p->constants);
	for (int i = 0; i < s->nconstants; i++) {
		const lesson_constant *k = &s->constants[i];
		plan_constant *o = &p->constants[p->nconstants++];
		const plan_buffer *b = k->buffer ? plan_buffer_get(p, k->buffer) : NULL;
		*o = (plan_constant){ .symbol = k->symbol, .type = k->type, .buffer = b ? b->name : NULL };
		if (k->buffer && !b) { strfmt(c->err, c->errlen, "constant %s: no buffer %s", k->symbol, k->buffer); return -1; }
		if (eval_int(c, &k->count, b ? b->count : 1, &o->count)) return -1;
		size_t es = lesson_dtype_size(k->type);
		if (o->count < 1 || o->count > CONSTANT_BANK / (int64_t)es) {
			strfmt(c->err, c->errlen, "%s:%d:%d: constant %s: %lld elements of %s; constant memory holds 1 to %lld of them (64 KiB)",
			       c->l->path, k->at.line, k->at.col, k->symbol, (long long)o->count, lesson_dtype_name(k->type),
			       (long long)(CONSTANT_BANK / (int64_t)es));
			return -1;
		}
		if (b && o->count > b->count) {
			strfmt(c->err, c->errlen, "%s:%d:%d: constant %s: %lld elements from buffer %s, which has %lld", c->l->path, k->at.line,
			       k->at.col, k->symbol, (long long)o->count, b->name, (long long)b->count);
			return -1;
		}
		o->nbytes = (uint64_t)o->count * es;
		if (b) continue;
		double *v = xcalloc((size_t)o->count, sizeof *v);
		o->bytes = xcalloc((size_t)o->nbytes, 1);
		int rc = eval_each(c, &k->value, o->count, v);
		for (int64_t e = 0; !rc && e < o->count; e++) {
			if (!put_value(k->type, v[e], o->bytes + e * (int64_t)es)) continue;
			char x[32];
			strfmt(c->err, c->errlen, "%s:%d:%d: constant %s: element %lld is %s, which %s cannot hold", c->l->path, k->value.at.line,
			       k->value.at.col, k->symbol, (long long)e, expr_format((expr_value){ .kind = EXPR_FLOAT, .f = v[e] }, x, sizeof x),
			       lesson_dtype_name(k->type));
			rc = -1;
		}
		free(v);
		if (rc) return -1;
	}
	return 0;
}

/* Whether the options ask NVRTC for relocatable device code. */
static int wants_rdc(const lesson_stage *s)
{
	int rdc = 0;
	for (int i = 0; i < s->noptions; i++) {
		const char *o = s->options[i];
		if (!strcmp(o, "-rdc=true") || !strcmp(o, "--relocatable-device-code=true")) rdc = 1;
		if (!strcmp(o, "-rdc=false") || !strcmp(o, "--relocatable-device-code=false")) rdc = 0;
	}
	return rdc;
}

static int make_baseline(pctx *c, const lesson_baseline *b)
{
	plan *p = c->p;
	p->launches = xcalloc(1, sizeof *p->launches);
	p->nlaunches = 1;
	return make_call(c, b, &p->launches[0]);
}

static void add_device_vars(plan *p, const plan_device *dev)
{
	for (int i = 0; i < NDEV_VARS; i++) {
		int64_t v = 0;
		plan_device_var(dev, dev_vars[i].name, strlen(dev_vars[i].name), &v);
		add_var(p, dev_vars[i].name, ival(v));
	}
	add_var(p, "occ_block", ival(dev->occ_block > 0 ? dev->occ_block : dev->max_threads_per_block));
	add_var(p, "occ_min_grid", ival(dev->occ_min_grid > 0 ? dev->occ_min_grid : dev->sm_count));
}

int plan_setting_twice(const plan_setting *sets, int nsets)
{
	for (int i = 1; i < nsets; i++)
		for (int j = 0; j < i; j++)
			if (!strcmp(sets[j].name, sets[i].name)) return j;
	return -1;
}

int plan_make(plan *p, const lesson *l, int stage, const plan_setting *sets, int nsets, const plan_device *dev,
              char *err, size_t errlen)
{
	memset(p, 0, sizeof *p);
	p->l = l;
	p->stage = stage < 0 ? -1 : stage;   /* every baseline is one library call to the worker */
	p->nstreams = 1;
	p->main_launch = -1;
	pctx c = { p, l, err, errlen, dev, 0, 0, 0, 0 };
	const lesson_baseline *base = stage < 0 ? lesson_baseline_at(l, stage) : NULL;
	if (stage >= l->nstages || (stage < 0 && !base)) {
		strfmt(err, errlen, "lesson %s has no %s", l->id, stage == -1 ? "baseline" : stage < 0 ? "such baseline" : "such stage");
		return -1;
	}
	const lesson_stage *s = stage >= 0 ? &l->stages[stage] : NULL;
	add_device_vars(p, dev);
	p->lesson_path = l->path;
	p->peak = peak_of(lesson_stage_peak(l, stage));
	p->traffic = traffic_of(l->traffic);
	p->timing = s ? s->timing : stage_timing_default();
	p->check = (s ? s->check : base->check) && l->ncompare > 0;
	p->ncompare = l->ncompare;
	p->compare = xcalloc((size_t)l->ncompare + 1, sizeof *p->compare);
	for (int i = 0; i < l->ncompare; i++) p->compare[i] = l->compare[i];
	const int own = s && s->has_tolerance, base_own = base && base->has_tolerance;   /* its own tolerance, else the lesson's */
	p->exact = own ? s->exact : base_own ? base->exact : l->exact;
	p->rel_tol = own ? s->rel_tol : base_own ? base->rel_tol : l->rel_tol;
	p->abs_tol = own ? s->abs_tol : base_own ? base->abs_tol : l->abs_tol;
	p->norm_tol = own ? s->norm_tol : base_own ? base->norm_tol : l->norm_tol;
	int used[16] = {0};
	if (nsets > 16) { strfmt(err, errlen, "at most 16 settings"); return -1; }
	if (set_params(&c, sets, nsets, used)) return -1;
	if (s && set_tunables(&c, s, sets, nsets, used)) return -1;
	for (int i = 0; s && i < s->nderived; i++) {   /* the stage's derived values see its tunables */
		expr_value v;
		if (eval(&c, &s->derived[i].value, &v)) return -1;
		add_var(p, s->derived[i].name, v);
	}
	/* A tolerance given as an expression of the parameters ("1e-8 * n"), from whichever holder gave it */
	const lesson_expr *te = own ? s->tol_expr : base_own ? base->tol_expr : l->tol_expr;
	double *tv[3] = { &p->rel_tol, &p->abs_tol, &p->norm_tol };
	for (int i = 0; i < 3; i++) {
		expr_value v;
		if (!te[i].e) continue;
		if (eval(&c, &te[i], &v)) return -1;
		double x = v.kind == EXPR_INT ? (double)v.i : v.f;
		if (!(x >= 0) || !isfinite(x) || (i == 2 && x == 0)) {
			strfmt(err, errlen, "%s:%d:%d: the tolerance's %s, '%s', is %g here: it must be %s", l->path, te[i].at.line, te[i].at.col,
			       i == 0 ? "rel" : i == 1 ? "abs" : "norm", expr_source(te[i].e), x, i == 2 ? "above 0" : "0 or more");
			return -1;
		}
		*tv[i] = x;
	}
	for (int i = 0; i < nsets; i++) {
		if (used[i]) continue;
		int j = plan_setting_twice(sets, i + 1);   /* the first of two with one name was taken; the second is not unknown */
		if (j >= 0 && !strcmp(sets[j].name, sets[i].name)) {
			strfmt(err, errlen, "'%s' is set twice (%s=%s, then %s=%s): give each setting once", sets[i].name, sets[j].name,
			       sets[j].value, sets[i].name, sets[i].value);
			return -1;
		}
		sb b = {0};
		for (int k = 0; s && k < s->ntunables; k++) sb_addf(&b, "%s%s", b.len ? ", " : "", s->tunables[k].name);
		for (int k = 0; k < l->nparams; k++) sb_addf(&b, "%s%s", b.len ? ", " : "", l->params[k].name);
		const char *names[96];
		int nn = 0;
		for (int k = 0; s && k < s->ntunables && nn < 96; k++) names[nn++] = s->tunables[k].name;
		for (int k = 0; k < l->nparams && nn < 96; k++) names[nn++] = l->params[k].name;
		char near[96];
		util_suggest_name(sets[i].name, names, nn, near, sizeof near);
		strfmt(err, errlen, "unknown setting '%s' for %s/%s%s (known: %s)", sets[i].name, l->id, s ? s->id : base->id,
		       near, b.len ? b.s : "none");
		sb_free(&b);
		return -1;
	}
	if (add_buffers(&c, s, l->buffers, l->nbuffers, 0) || (s && add_buffers(&c, s, s->buffers, s->nbuffers, 1))) return -1;
	for (int i = 0; s && i < s->nconstraints; i++) {
		expr_value v;
		if (eval(&c, &s->constraints[i].cond, &v)) return -1;
		if (!expr_as_double(v)) { p->refused_setting = 1; refuse_constraint(&c, &s->constraints[i]); return -1; }
	}
	if (s) {
		p->rdc = wants_rdc(s);
		if (make_constants(&c, s) || unroll(&c, dev, s, s->launches, s->nlaunches)) return -1;
		for (int i = 0; i < p->nlaunches && p->main_launch < 0; i++)
			if (p->launches[i].kind == STEP_LAUNCH && p->launches[i].entry && !strcmp(p->launches[i].entry, s->entry)) p->main_launch = i;
	} else if (make_baseline(&c, base)) {
		return -1;
	}
	const lesson_expr *bytes = &l->bytes, *flops = &l->flops;
	if (!s && base->bytes.e) { bytes = &base->bytes; flops = &base->flops; }
	if (s && s->bytes.e) bytes = &s->bytes;   /* a stage's own model, each expression on its own */
	if (s && s->flops.e) flops = &s->flops;
	expr_value v;
	if (eval(&c, bytes, &v)) return -1;
	p->bytes = expr_as_double(v);
	if (flops->e) {
		if (eval(&c, flops, &v)) return -1;
		p->flops = expr_as_double(v);
	}
	return 0;
}

void plan_free(plan *p)
{
	for (int i = 0; i < p->nlaunches; i++) free(p->launches[i].args);
	for (int i = 0; i < p->ndefines; i++) free(p->defines[i]);
	for (int i = 0; i < p->nowned; i++) free(p->owned[i]);
	for (int i = 0; i < p->nbuffers; i++) free(p->buffers[i].values);
	for (int i = 0; i < p->nconstants; i++) free(p->constants[i].bytes);
	free(p->constants);
	free(p->launches); free(p->defines); free(p->vars); free(p->buffers); free(p->compare); free(p->owned);
	memset(p, 0, sizeof *p);
}

const expr_value *plan_var_get(const plan *p, const char *name)
{
	for (int i = p->nvars - 1; i >= 0; i--) if (!strcmp(p->vars[i].name, name)) return &p->vars[i].v;
	return NULL;
}

const plan_launch *plan_main_launch(const plan *p)
{
	if (p->main_launch >= 0 && p->main_launch < p->nlaunches && p->launches[p->main_launch].kind == STEP_LAUNCH)
		return &p->launches[p->main_launch];
	for (int i = 0; i < p->nlaunches; i++) if (p->launches[i].kind == STEP_LAUNCH) return &p->launches[i];
	return NULL;
}

int plan_check(const lesson *l, int stage, const plan_setting *sets, int nsets, const plan_device *dev,
               const char *name, expr_value *value, char *err, size_t errlen)
{
	plan p;
	int rc = plan_make(&p, l, stage, sets, nsets, dev, err, errlen);
	const expr_value *v = rc == 0 && name ? plan_var_get(&p, name) : NULL;
	if (v && value) *value = *v;
	plan_free(&p);
	return rc;
}

/* A plan holding what parameter i's expressions see: the device values and pv[0..i). */
static void param_scope(plan *p, const lesson *l, const plan_device *dev, const expr_value *pv, int i)
{
	memset(p, 0, sizeof *p);
	p->l = l;
	add_device_vars(p, dev);
	for (int k = 0; k < i; k++) add_var(p, l->params[k].name, pv[k]);
}

/* v in parameter pa's kind. */
static expr_value param_kind(const lesson_param *pa, expr_value v)
{
	return pa->type == DT_I64 ? ival(expr_as_int(v)) : (expr_value){ .kind = EXPR_FLOAT, .f = expr_as_double(v) };
}

int plan_param_info_get(const lesson *l, const plan_device *dev, const expr_value *pv, int i, plan_param_info *out,
                        char *err, size_t errlen)
{
	const lesson_param *pa = &l->params[i];
	plan p;
	param_scope(&p, l, dev, pv, i);
	pctx c = { .p = &p, .l = l, .err = err, .errlen = errlen };
	memset(out, 0, sizeof *out);
	out->has_lo = pa->min.e != NULL;
	out->has_hi = pa->max.e != NULL;
	int rc = eval(&c, &pa->def, &out->def) || (pa->min.e && eval(&c, &pa->min, &out->lo)) || (pa->max.e && eval(&c, &pa->max, &out->hi)) ? -1 : 0;
	out->def = param_kind(pa, out->def);
	out->lo = param_kind(pa, out->lo);
	out->hi = param_kind(pa, out->hi);
	plan_free(&p);
	return rc;
}

int plan_param_value(const lesson *l, const plan_device *dev, const expr_value *pv, int i, const char *text,
                     expr_value *out, char *err, size_t errlen)
{
	plan_setting s;
	strfmt(s.name, sizeof s.name, "%s", l->params[i].name);
	if (!text || strlen(text) >= sizeof s.value) { strfmt(err, errlen, "%s: no value, or one too long", s.name); return -1; }
	strfmt(s.value, sizeof s.value, "%s", text);
	plan p;
	param_scope(&p, l, dev, pv, i);
	pctx c = { .p = &p, .l = l, .err = err, .errlen = errlen };
	int rc = param_value(&c, &l->params[i], &s, out);
	plan_free(&p);
	return rc;
}

int plan_tunable_value(const lesson_stage *s, int t, const plan_device *dev, const char *text, int64_t *out, char *err, size_t errlen)
{
	plan_setting st;
	strfmt(st.name, sizeof st.name, "%s", s->tunables[t].name);
	if (!text || strlen(text) >= sizeof st.value) { strfmt(err, errlen, "%s: no value, or one too long", st.name); return -1; }
	strfmt(st.value, sizeof st.value, "%s", text);
	plan p;
	memset(&p, 0, sizeof p);
	if (dev) add_device_vars(&p, dev);
	pctx c = { .p = &p, .err = err, .errlen = errlen };
	int rc = tunable_value(&c, s, &s->tunables[t], &st, out);
	plan_free(&p);
	return rc;
}

plan_device plan_device_of(const device_info *d)
{
	return (plan_device){ d->sm_count, d->warp_size, d->max_threads_per_block, d->cc, d->l2_bytes, d->smem_per_block_optin, 0, 0,
	                      d->global_mem };
}

int plan_tunable_default(const lesson *l, const lesson_stage *s, int t, const plan_device *dev, int64_t *out, char *err, size_t errlen)
{
	const lesson_tunable *tu = &s->tunables[t];
	if (!tu->def_expr.e) { *out = tu->def_num; return 0; }
	if (!dev) {
		strfmt(err, errlen, "the default of tunable %s ('%s') depends on the GPU, and none is known", tu->name, expr_source(tu->def_expr.e));
		return -1;
	}
	plan p;
	memset(&p, 0, sizeof p);
	add_device_vars(&p, dev);
	pctx c = { .p = &p, .l = l, .err = err, .errlen = errlen, .dev = dev };
	int rc = tunable_default(&c, s, tu, out);
	plan_free(&p);
	return rc;
}

int plan_setting_parse(const char *text, plan_setting *s, char *err, size_t errlen)
{
	const char *eq = strchr(text, '=');
	size_t nl = eq ? (size_t)(eq - text) : 0;
	if (!eq || !nl || nl >= sizeof s->name || !eq[1] || strlen(eq + 1) >= sizeof s->value) {
		strfmt(err, errlen, "'%s' is not NAME=VALUE", text);
		return -1;
	}
	memcpy(s->name, text, nl);
	s->name[nl] = 0;
	strfmt(s->value, sizeof s->value, "%s", eq + 1);
	return 0;
}

/* The parameter each value type becomes: bytes and class. */
static const struct { int size; char kind; } value_abi[] = {
	[AT_I32] = { 4, 'i' }, [AT_U32] = { 4, 'i' }, [AT_I64] = { 8, 'i' }, [AT_U64] = { 8, 'i' }, [AT_F32] = { 4, 'f' }, [AT_F64] = { 8, 'f' },
};
/* ... and each kind of argument that is not a value. */
static const struct { int size; char kind; } kind_abi[ARG_KIND_COUNT] = {
	[ARG_BUFFER] = { 8, 'i' }, [ARG_TENSORMAP] = { 128, 'b' }, [ARG_TEXTURE] = { 8, 'i' },   /* a cudaTextureObject_t */
	[ARG_PITCH] = { 8, 'i' },                                                                 /* a long long, bytes */
};
_Static_assert(ARG_KIND_COUNT == 5, "give a new kind of argument its size and class in kind_abi");

void plan_arg_abi(const plan_arg *a, int *size, char *kind)
{
	if (a->kind == ARG_VALUE) { *size = value_abi[a->type].size; *kind = value_abi[a->type].kind; }
	else { *size = kind_abi[a->kind].size; *kind = kind_abi[a->kind].kind; }
}
