/* lesson_stage: one entry of a lesson's stages: list (tunables, constraints, launches, prose). */
#include <dirent.h>
#include <float.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "lesson_yaml.h"
#include "plan.h"
#include "result.h"
#include "util.h"

#define MAX_TUNABLE_VALUES 4096

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* A name a tunable's default may read: a device value (plan.h's list), nothing of the lesson's. */
typedef struct { ld *c; yaml_node_t *n; int off, count; } default_names;
static int default_name(void *ctx, const char *name, size_t len, int col)
{
	default_names *dn = ctx;
	dn->count++;
	if (plan_device_var(NULL, name, len, NULL)) return 0;
	sb known = {0};
	for (int i = 0; plan_device_var_name(i); i++) sb_addf(&known, "%s%s", i ? ", " : "", plan_device_var_name(i));
	yaml_mark_t m = dn->n->start_mark;
	m.column += (size_t)(col - 1 + dn->off);
	int rc = yd_fail_at(&dn->c->y, m, "unknown name '%.*s' in '%s' (a tunable's default reads only the device values: %s)",
	                    (int)len, name, (const char *)dn->n->data.scalar.value, known.s);
	sb_free(&known);
	return rc;
}

/* Whether default def_num is one of t's values: 0, or -1 with the loader's message at d. */
static int check_default(ld *c, yaml_node_t *d, const lesson_tunable *t)
{
	for (int i = 0; i < t->nvalues; i++) if (t->values[i] == t->def_num) return 0;
	return yd_fail(&c->y, d, "default %lld of tunable '%s' is not one of its allowed values", (long long)t->def_num, t->name);
}

/* default: an expression. One over the device values is a GPU's own default, checked against the
 * allowed values when a run is planned for that GPU (plan_tunable_default); one without names is
 * evaluated here. */
static int parse_default_expr(ld *c, yaml_node_t *d, lesson_tunable *t)
{
	const char *s = (const char *)d->data.scalar.value;
	int off = d->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE || d->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
	expr_error e;
	t->def_expr.e = expr_parse(s, &e);
	t->def_expr.at.line = (int)d->start_mark.line + 1;
	t->def_expr.at.col = (int)d->start_mark.column + 1 + off;
	if (!t->def_expr.e) {
		yaml_mark_t m = d->start_mark;
		m.column += (size_t)(e.col - 1 + off);
		return yd_fail_at(&c->y, m, "bad expression '%s' in the default of tunable '%s': %s", s, t->name, e.msg);
	}
	default_names dn = { c, d, off, 0 };
	if (expr_names(t->def_expr.e, default_name, &dn)) { lesson_yaml_free_expr(&t->def_expr); return -1; }
	if (dn.count) return 0;
	expr_value v;
	int bad = expr_eval(t->def_expr.e, NULL, NULL, &v, &e) ? 1 : v.kind != EXPR_INT ? 2 : 0;
	lesson_yaml_free_expr(&t->def_expr);
	if (bad == 1) return yd_fail(&c->y, d, "default '%s' of tunable '%s': %s", s, t->name, e.msg);
	if (bad) return yd_fail(&c->y, d, "default '%s' of tunable '%s' is not a whole number", s, t->name);
	t->def_num = v.i;
	return check_default(c, d, t);
}

static int parse_tunable(ld *c, yaml_node_t *kn, yaml_node_t *v, lesson_tunable *t)
{
	static const char *const keys[] = { "values", "range", "step", "pow2", "!default", "help", NULL };
	if (yd_check_keys(&c->y, v, "a tunable", keys)) return -1;
	yaml_node_t *vals = yd_get(&c->y, v, "values"), *range = yd_get(&c->y, v, "range");
	if (!!vals == !!range) return yd_fail(&c->y, v, "tunable '%s' needs either values: [...] or range: [lo, hi]", t->name);
	if (vals) {
		int n = yd_seq_len(vals);
		if (n < 1 || n > MAX_TUNABLE_VALUES) return yd_fail(&c->y, vals, "values must be a list of 1 to %d numbers", MAX_TUNABLE_VALUES);
		t->values = xcalloc((size_t)n, sizeof *t->values);
		for (int i = 0; i < n; i++)
			if (yd_int(&c->y, yd_seq_at(&c->y, vals, i), "a tunable value", INT64_MIN, INT64_MAX, &t->values[t->nvalues++])) return -1;
		qsort(t->values, (size_t)t->nvalues, sizeof *t->values, cmp_i64);
	} else {
		int64_t lo, hi, step = 1;
		int pow2 = 0;
		if (yd_seq_len(range) != 2) return yd_fail(&c->y, range, "range takes [lo, hi]");
		if (yd_int(&c->y, yd_seq_at(&c->y, range, 0), "lo", INT64_MIN, INT64_MAX, &lo) || yd_int(&c->y, yd_seq_at(&c->y, range, 1), "hi", INT64_MIN, INT64_MAX, &hi)) return -1;
		yaml_node_t *sn = yd_get(&c->y, v, "step"), *pn = yd_get(&c->y, v, "pow2");
		if (sn && yd_int(&c->y, sn, "step", INT64_MIN, INT64_MAX, &step)) return -1;
		if (pn && yd_bool(&c->y, pn, "pow2", &pow2)) return -1;
		if (lo > hi) return yd_fail(&c->y, range, "range: lo (%lld) is above hi (%lld)", (long long)lo, (long long)hi);
		if (step < 1) return yd_fail(&c->y, sn, "step must be at least 1");
		if (pow2 && lo < 1) return yd_fail(&c->y, range, "a pow2 range must start at 1 or more");
		t->values = xcalloc(MAX_TUNABLE_VALUES, sizeof *t->values);
		int64_t x = lo;
		if (pow2)   /* the first power of two >= lo (none above 2^62) */
			for (x = 1; x < lo && x <= INT64_MAX / 2;) x *= 2;
		while (x >= lo && x <= hi) {
			if (t->nvalues == MAX_TUNABLE_VALUES) return yd_fail(&c->y, range, "range has more than %d values: use step or pow2", MAX_TUNABLE_VALUES);
			t->values[t->nvalues++] = x;
			/* stop before the next value would pass hi (or int64) */
			if (pow2 ? x > hi / 2 : (uint64_t)hi - (uint64_t)x < (uint64_t)step) break;
			x = pow2 ? x * 2 : x + step;
		}
		if (!t->nvalues) return yd_fail(&c->y, range, "range allows no value");
	}
	yaml_node_t *d = yd_get(&c->y, v, "default");
	long long num;
	if (d->type == YAML_SCALAR_NODE && yd_text_int((const char *)d->data.scalar.value, d->data.scalar.length, &num))
		return parse_default_expr(c, d, t);
	if (yd_int(&c->y, d, "default", INT64_MIN, INT64_MAX, &t->def_num)) return -1;
	return check_default(c, d, t);
}

static int parse_dims(ld *c, yaml_node_t *n, const char *what, lesson_expr dims[3])
{
	if (n->type == YAML_SCALAR_NODE) return lesson_yaml_parse_expr(c, n, what, &dims[0]);
	int k = yd_seq_len(n);
	if (k < 1 || k > 3) return yd_fail(&c->y, n, "%s takes an expression or a list of 1 to 3 expressions", what);
	for (int i = 0; i < k; i++) if (lesson_yaml_parse_expr(c, yd_seq_at(&c->y, n, i), what, &dims[i])) return -1;
	return 0;
}

static const struct { const char *name; lesson_arg_type t; } arg_types[] = {
	{ "i32", AT_I32 }, { "u32", AT_U32 }, { "i64", AT_I64 }, { "u64", AT_U64 }, { "f32", AT_F32 }, { "f64", AT_F64 },
};

/* dims or box of a tensor map: 1 to 5 expressions; returns how many, or -1. */
static int parse_tma_list(ld *c, yaml_node_t *n, const char *what, lesson_expr *out)
{
	int k = yd_seq_len(n);
	if (k < 1 || k > LESSON_TMA_MAX_RANK)
		return yd_fail(&c->y, n, "%s takes a list of 1 to %d expressions, innermost dimension first", what, LESSON_TMA_MAX_RANK);
	for (int i = 0; i < k; i++) if (lesson_yaml_parse_expr(c, yd_seq_at(&c->y, n, i), what, &out[i])) return -1;
	return k;
}

/* { tensormap: BUFFER, dims: [...], box: [...], swizzle: 0|32|64|128 }: a TMA descriptor built on
 * the host; plan_make checks the sizes once they are known. */
static int parse_tensormap(ld *c, lesson_stage *s, yaml_node_t *n, lesson_arg *a)
{
	static const char *const keys[] = { "!tensormap", "!dims", "!box", "swizzle", NULL };
	if (yd_check_keys(&c->y, n, "a tensor map argument", keys)) return -1;
	a->kind = ARG_TENSORMAP;
	yaml_node_t *bn = yd_get(&c->y, n, "tensormap"), *dn = yd_get(&c->y, n, "dims"), *xn = yd_get(&c->y, n, "box"), *sn = yd_get(&c->y, n, "swizzle");
	if (yd_get_str(&c->y, n, "tensormap", &a->buffer)) return -1;
	const lesson_buffer *b = lesson_find_buffer(c->l, s, a->buffer);
	if (!b) return yd_fail(&c->y, bn, "tensormap: unknown buffer '%s'", a->buffer);
	if (b->memory != MEM_DEVICE) return yd_fail(&c->y, bn, "tensormap %s: the buffer is in host memory; TMA reads device memory", a->buffer);
	if (b->pitch_rows.e) return yd_fail(&c->y, bn, "tensormap %s: the buffer is pitched; a tensor map here describes a packed tensor", a->buffer);
	int rank = parse_tma_list(c, dn, "dims", a->dims);
	if (rank < 0) return -1;
	a->rank = rank;
	int nbox = parse_tma_list(c, xn, "box", a->box);
	if (nbox < 0) return -1;
	if (nbox != rank) return yd_fail(&c->y, xn, "box has %d entries and dims %d: one per dimension", nbox, rank);
	int64_t sw = 0;
	if (sn && yd_int(&c->y, sn, "swizzle", INT64_MIN, INT64_MAX, &sw)) return -1;
	if (sw != 0 && sw != 32 && sw != 64 && sw != 128) return yd_fail(&c->y, sn, "swizzle is 0, 32, 64 or 128 (bytes), not %lld", (long long)sw);
	a->swizzle = (int)sw;
	return 0;
}

/* One word of a closed set under key (absent: *out untouched): its index in words, or an error listing them. */
static int parse_word(ld *c, yaml_node_t *map, const char *key, const char *const *words, int *out)
{
	yaml_node_t *n = yd_get(&c->y, map, key);
	if (!n) return 0;
	const char *s = yd_scalar(&c->y, n, key);
	if (!s) return -1;
	char known[128] = "";
	for (int i = 0; words[i]; i++) {
		if (!strcmp(s, words[i])) { *out = i; return 0; }
		strfmt(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "", words[i]);
	}
	return yd_fail(&c->y, n, "%s is one of %s, not '%s'", key, known, s);
}

/* { texture: BUFFER, dims: [w] | [w, h], pitch, filter, address, normalized, read }: a texture object
 * the worker creates over the buffer; plan_make checks the sizes once they are known. */
static int parse_texture(ld *c, lesson_stage *s, yaml_node_t *n, lesson_arg *a)
{
	static const char *const keys[] = { "!texture", "!dims", "pitch", "filter", "address", "normalized", "read", NULL };
	static const char *const filters[] = { [TEX_POINT] = "point", [TEX_LINEAR] = "linear", NULL };
	static const char *const addresses[] = { [TEX_WRAP] = "wrap", [TEX_CLAMP] = "clamp", [TEX_MIRROR] = "mirror", [TEX_BORDER] = "border", NULL };
	static const char *const reads[] = { "element", "normalized", NULL };
	if (yd_check_keys(&c->y, n, "a texture argument", keys)) return -1;
	a->kind = ARG_TEXTURE;
	yaml_node_t *bn = yd_get(&c->y, n, "texture"), *dn = yd_get(&c->y, n, "dims"), *pn = yd_get(&c->y, n, "pitch"),
	            *nn = yd_get(&c->y, n, "normalized"), *fn = yd_get(&c->y, n, "filter"), *an = yd_get(&c->y, n, "address");
	if (yd_get_str(&c->y, n, "texture", &a->buffer)) return -1;
	const lesson_buffer *b = lesson_find_buffer(c->l, s, a->buffer);
	if (!b) return yd_fail(&c->y, bn, "texture: unknown buffer '%s'", a->buffer);
	if (b->memory != MEM_DEVICE) return yd_fail(&c->y, bn, "texture %s: the buffer is in host memory; a texture reads device memory", a->buffer);
	if (b->pitch_rows.e) return yd_fail(&c->y, bn, "texture %s: the buffer is pitched; a texture here reads a packed buffer", a->buffer);
	if (lesson_dtype_size(b->type) > 4)
		return yd_fail(&c->y, bn, "texture %s: a texture element is at most 32 bits, and %s is %zu bytes", a->buffer,
		               lesson_dtype_name(b->type), lesson_dtype_size(b->type));
	if (dn->type != YAML_SEQUENCE_NODE || yd_seq_len(dn) < 1 || yd_seq_len(dn) > 2)
		return yd_fail(&c->y, dn, "texture %s: dims takes [width] (1D, linear memory) or [width, height] (2D, pitched rows)", a->buffer);
	a->rank = yd_seq_len(dn);
	for (int i = 0; i < a->rank; i++) if (lesson_yaml_parse_expr(c, yd_seq_at(&c->y, dn, i), "dims", &a->dims[i])) return -1;
	if (lesson_yaml_get_expr(c, n, "pitch", &a->pitch)) return -1;
	int filter = TEX_POINT, address = TEX_CLAMP, read = 0;
	if (parse_word(c, n, "filter", filters, &filter) || parse_word(c, n, "address", addresses, &address) ||
	    parse_word(c, n, "read", reads, &read)) return -1;
	if (nn && yd_bool(&c->y, nn, "normalized", &a->normalized_coords)) return -1;
	a->filter = (lesson_tex_filter)filter;
	a->address = (lesson_tex_address)address;
	a->read_normalized = read;
	if (a->rank == 1 && pn) return yd_fail(&c->y, pn, "texture %s: a 1D texture is linear memory and has no pitch", a->buffer);
	if (a->rank == 1 && a->filter == TEX_LINEAR)
		return yd_fail(&c->y, fn, "texture %s: a 1D texture over linear memory is read with tex1Dfetch, which does not filter: use filter: point, or dims: [w, 1]", a->buffer);
	if ((a->address == TEX_WRAP || a->address == TEX_MIRROR) && !a->normalized_coords)
		return yd_fail(&c->y, an, "texture %s: address %s works only with normalized coordinates (normalized: true)", a->buffer,
		               addresses[a->address]);
	return 0;
}

/* { pitch: BUFFER }: the pitched buffer's pitch in bytes, as cudaMallocPitch returned it (a long long). */
static int parse_pitch_arg(ld *c, lesson_stage *s, yaml_node_t *n, lesson_arg *a)
{
	static const char *const keys[] = { "!pitch", NULL };
	if (yd_check_keys(&c->y, n, "a pitch argument", keys) || yd_get_str(&c->y, n, "pitch", &a->buffer)) return -1;
	a->kind = ARG_PITCH;
	yaml_node_t *bn = yd_get(&c->y, n, "pitch");
	const lesson_buffer *b = lesson_find_buffer(c->l, s, a->buffer);
	if (!b) return yd_fail(&c->y, bn, "pitch: unknown buffer '%s'", a->buffer);
	if (!b->pitch_rows.e) return yd_fail(&c->y, bn, "pitch: '%s' is packed (declare it with pitch: { rows, cols })", a->buffer);
	return 0;
}

static int parse_arg(ld *c, lesson_stage *s, yaml_node_t *n, lesson_arg *a)
{
	a->at.line = (int)n->start_mark.line + 1;
	a->at.col = (int)n->start_mark.column + 1;
	if (n->type == YAML_MAPPING_NODE && yd_get(&c->y, n, "pitch") && !yd_get(&c->y, n, "texture")) return parse_pitch_arg(c, s, n, a);
	if (n->type == YAML_MAPPING_NODE) return yd_get(&c->y, n, "texture") ? parse_texture(c, s, n, a) : parse_tensormap(c, s, n, a);
	const char *txt = yd_scalar(&c->y, n, "an argument");
	if (!txt) return -1;
	if (lesson_find_buffer(c->l, s, txt)) {
		a->kind = ARG_BUFFER;
		a->buffer = xstrdup(txt);
		return 0;
	}
	size_t len = strlen(txt);
	for (size_t i = 0; i < sizeof arg_types / sizeof arg_types[0]; i++) {
		size_t k = strlen(arg_types[i].name);
		if (strncmp(txt, arg_types[i].name, k) || txt[k] != '(' || txt[len - 1] != ')') continue;
		/* Parse the inside as its own scalar so that columns stay right. */
		yaml_node_t inner = *n;
		char *body = xstrndup(txt + k + 1, len - k - 2);
		inner.data.scalar.value = (yaml_char_t *)body;
		inner.start_mark.column += k + 1;
		a->kind = ARG_VALUE;
		a->type = arg_types[i].t;
		int r = lesson_yaml_parse_expr(c, &inner, "an argument", &a->value);
		free(body);
		return r;
	}
	return yd_fail(&c->y, n, "argument '%s' is neither a buffer nor TYPE(expression) with TYPE one of i32 u32 i64 u64 f32 f64", txt);
}

static int parse_steps(ld *c, lesson_stage *s, yaml_node_t *seq, const char *what, lesson_launch **out, int *n);

/* A step's buffer under key: it must exist. */
static int step_buffer(ld *c, lesson_stage *s, yaml_node_t *m, const char *step, const char *key, char **name, const lesson_buffer **b)
{
	if (yd_get_str(&c->y, m, key, name)) return -1;
	if (!(*b = lesson_find_buffer(c->l, s, *name))) return yd_fail(&c->y, yd_get(&c->y, m, key), "%s: unknown buffer '%s'", step, *name);
	return 0;
}

/* { dst, src, offset, dst_offset, src_offset, count, stream }: elements from src to dst. */
static int parse_copy(ld *c, lesson_stage *s, yaml_node_t *m, lesson_launch *L)
{
	static const char *const keys[] = { "!dst", "!src", "offset", "dst_offset", "src_offset", "count", "stream", NULL };
	if (yd_check_keys(&c->y, m, "copy", keys)) return -1;
	L->kind = STEP_COPY;
	const lesson_buffer *d, *sr;
	if (step_buffer(c, s, m, "copy", "dst", &L->copy_dst, &d) || step_buffer(c, s, m, "copy", "src", &L->copy_src, &sr)) return -1;
	if (d == sr) return yd_fail(&c->y, m, "copy %s>%s: source and destination are the same buffer", L->copy_src, L->copy_dst);
	if (d->type != sr->type)
		return yd_fail(&c->y, m, "copy %s>%s: %s holds %s and %s holds %s; a copy moves elements of one type", L->copy_src, L->copy_dst,
		               L->copy_src, lesson_dtype_name(sr->type), L->copy_dst, lesson_dtype_name(d->type));
	if (d->memory != MEM_DEVICE && sr->memory != MEM_DEVICE)
		return yd_fail(&c->y, m, "copy %s>%s: both buffers are host memory; a copy step has a device side", L->copy_src, L->copy_dst);
	if (d->pitch_rows.e || sr->pitch_rows.e)
		return yd_fail(&c->y, m, "copy %s>%s: %s is pitched; a copy step moves packed elements (fill a pitched buffer with init: { copy: BUFFER })",
		               L->copy_src, L->copy_dst, d->pitch_rows.e ? L->copy_dst : L->copy_src);
	return lesson_yaml_get_expr(c, m, "offset", &L->copy_offset) || lesson_yaml_get_expr(c, m, "dst_offset", &L->copy_dst_offset) ||
	       lesson_yaml_get_expr(c, m, "src_offset", &L->copy_src_offset) || lesson_yaml_get_expr(c, m, "count", &L->copy_count) ||
	       lesson_yaml_get_expr(c, m, "stream", &L->stream) ? -1 : 0;
}

/* { repeat: COUNT, as: NAME, steps: [...] }: the steps COUNT times, NAME bound to 0, 1, ... in them. */
static int parse_repeat(ld *c, lesson_stage *s, yaml_node_t *n, lesson_launch *L)
{
	static const char *const keys[] = { "!repeat", "!as", "!steps", NULL };
	if (yd_check_keys(&c->y, n, "a repeat block", keys) || lesson_yaml_get_expr(c, n, "repeat", &L->repeat_count) ||
	    yd_get_str(&c->y, n, "as", &L->repeat_var)) return -1;
	yaml_node_t *an = yd_get(&c->y, n, "as"), *sn = yd_get(&c->y, n, "steps");
	if (lesson_yaml_check_length(c, an, "repeat: as", L->repeat_var)) return -1;
	if (!lesson_is_ident(L->repeat_var)) return yd_fail(&c->y, an, "repeat: as '%s' is not an identifier", L->repeat_var);
	if (lesson_yaml_name_known(c, L->repeat_var, strlen(L->repeat_var)) || lesson_find_buffer(c->l, s, L->repeat_var))
		return yd_fail(&c->y, an, "repeat: as '%s' is a name already in use here; pick a new one", L->repeat_var);
	if (c->nbound == LESSON_YAML_MAX_BOUND) return yd_fail(&c->y, n, "repeat blocks nested more than %d deep", LESSON_YAML_MAX_BOUND);
	c->bound[c->nbound++] = L->repeat_var;
	int r = parse_steps(c, s, sn, "steps", &L->body, &L->nbody);
	c->nbound--;
	return r;
}

/* { record: NAME, stream } or { wait: NAME, stream } (key is "record" or "wait"): a record names a
 * new event or records one again; a wait names an event that a step before it in the stage records. */
static int parse_event(ld *c, lesson_stage *s, yaml_node_t *n, const char *key, lesson_launch *L)
{
	static const char *const rkeys[] = { "!record", "stream", NULL }, *const wkeys[] = { "!wait", "stream", NULL };
	int rec = !strcmp(key, "record");
	char *name = NULL;
	if (yd_check_keys(&c->y, n, rec ? "a record step" : "a wait step", rec ? rkeys : wkeys) || yd_get_str(&c->y, n, key, &name)) return -1;
	yaml_node_t *nn = yd_get(&c->y, n, key);
	int bad = lesson_yaml_check_length(c, nn, key, name) ? -1 : !lesson_is_ident(name)
	          ? yd_fail(&c->y, nn, "%s: event '%s' is not an identifier", key, name) : 0;
	int at = -1;
	for (int i = 0; !bad && i < s->nevents; i++) if (!strcmp(s->events[i], name)) at = i;
	if (!bad && at < 0 && !rec)
		bad = yd_fail(&c->y, nn, "wait: no step before this one records event '%s' (a record: %s step on the producing stream must come first)",
		              name, name);
	if (!bad && at < 0 && s->nevents == LESSON_MAX_EVENTS)
		bad = yd_fail(&c->y, nn, "record: a stage names at most %d events", LESSON_MAX_EVENTS);
	if (bad) { free(name); return -1; }
	if (at < 0) {
		s->events = xrealloc(s->events, (size_t)(s->nevents + 1) * sizeof *s->events);
		s->events[at = s->nevents++] = name;
	} else {
		free(name);
	}
	L->kind = rec ? STEP_RECORD : STEP_WAIT;
	L->event = at;
	return lesson_yaml_get_expr(c, n, "stream", &L->stream);
}

static int parse_launch(ld *c, lesson_stage *s, yaml_node_t *n, lesson_launch *L)
{
	L->at.line = (int)n->start_mark.line + 1;
	L->at.col = (int)n->start_mark.column + 1;
	if (n->type == YAML_MAPPING_NODE && yd_get(&c->y, n, "repeat")) return parse_repeat(c, s, n, L);
	if (n->type == YAML_MAPPING_NODE && yd_get(&c->y, n, "record")) return parse_event(c, s, n, "record", L);
	if (n->type == YAML_MAPPING_NODE && yd_get(&c->y, n, "wait")) return parse_event(c, s, n, "wait", L);
	if (n->type == YAML_MAPPING_NODE && yd_get(&c->y, n, "copy")) {
		static const char *const keys[] = { "copy", NULL };
		return yd_check_keys(&c->y, n, "a copy step", keys) ? -1 : parse_copy(c, s, yd_get(&c->y, n, "copy"), L);
	}
	if (n->type == YAML_MAPPING_NODE && yd_get(&c->y, n, "library")) {
		static const char *const keys[] = { "!library", "!args", "stream", NULL };
		if (yd_check_keys(&c->y, n, "a library step", keys)) return -1;
		L->kind = STEP_LIBRARY;
		L->call = xcalloc(1, sizeof *L->call);
		return lesson_yaml_parse_library(c, s, n, L->call) || lesson_yaml_get_expr(c, n, "stream", &L->stream) ? -1 : 0;
	}
	if (n->type == YAML_MAPPING_NODE && yd_get(&c->y, n, "memset")) {
		static const char *const keys[] = { "memset", NULL }, *const mkeys[] = { "!buffer", "value", "stream", NULL };
		yaml_node_t *m = yd_get(&c->y, n, "memset");
		if (yd_check_keys(&c->y, n, "a memset step", keys) || yd_check_keys(&c->y, m, "memset", mkeys)) return -1;
		L->kind = STEP_MEMSET;
		const lesson_buffer *b;
		if (step_buffer(c, s, m, "memset", "buffer", &L->memset_buffer, &b)) return -1;
		if (b->memory != MEM_DEVICE)
			return yd_fail(&c->y, yd_get(&c->y, m, "buffer"), "memset: %s is host memory; a memset step sets device memory", L->memset_buffer);
		if (b->pitch_rows.e)
			return yd_fail(&c->y, yd_get(&c->y, m, "buffer"), "memset: %s is pitched; a memset step sets a packed buffer", L->memset_buffer);
		yaml_node_t *v = yd_get(&c->y, m, "value");
		int64_t val = 0;
		if (v && yd_int(&c->y, v, "value", INT64_MIN, INT64_MAX, &val)) return -1;
		if (val < 0 || val > 255) return yd_fail(&c->y, v, "memset value is a byte: 0 to 255");
		L->memset_value = (int)val;
		return lesson_yaml_get_expr(c, m, "stream", &L->stream);
	}
	static const char *const keys[] = { "!grid", "!block", "shared", "args", "entry", "stream", "pdl", NULL };
	if (yd_check_keys(&c->y, n, "a launch", keys)) return -1;
	yaml_node_t *pdl = yd_get(&c->y, n, "pdl");
	if (pdl && yd_bool(&c->y, pdl, "pdl", &L->pdl)) return -1;
	if (parse_dims(c, yd_get(&c->y, n, "grid"), "grid", L->grid) || parse_dims(c, yd_get(&c->y, n, "block"), "block", L->block) ||
	    lesson_yaml_get_expr(c, n, "shared", &L->shared) || lesson_yaml_get_expr(c, n, "stream", &L->stream) ||
	    yd_get_str(&c->y, n, "entry", &L->entry)) return -1;
	if (L->entry && c->kroot && lesson_stage_check_entry(c, yd_get(&c->y, n, "entry"), s->kernel_path, L->entry)) return -1;
	yaml_node_t *args = yd_get(&c->y, n, "args");
	if (args) {
		if (args->type != YAML_SEQUENCE_NODE) return yd_fail(&c->y, args, "args must be a list");
		L->nargs = yd_seq_len(args);
		L->args = xcalloc((size_t)L->nargs, sizeof *L->args);
		for (int i = 0; i < L->nargs; i++) if (parse_arg(c, s, yd_seq_at(&c->y, args, i), &L->args[i])) return -1;
	}
	return 0;
}

/* A list of at least one step into *out (new), *n of them. */
static int parse_steps(ld *c, lesson_stage *s, yaml_node_t *seq, const char *what, lesson_launch **out, int *n)
{
	if (seq->type != YAML_SEQUENCE_NODE || yd_seq_len(seq) < 1)
		return yd_fail(&c->y, seq, "%s must be a list of at least one step (a launch, a copy, a memset, a library call, a record, a wait or a repeat block)", what);
	*out = xcalloc((size_t)yd_seq_len(seq), sizeof **out);
	for (int i = 0; i < yd_seq_len(seq); i++) {
		lesson_launch *L = &(*out)[(*n)++];
		if (parse_launch(c, s, yd_seq_at(&c->y, seq, i), L)) return -1;
	}
	return 0;
}

int lesson_stage_each_launch(lesson_launch *steps, int n, int (*fn)(void *ctx, lesson_launch *L), void *ctx)
{
	for (int i = 0; i < n; i++) {
		int r = steps[i].body ? lesson_stage_each_launch(steps[i].body, steps[i].nbody, fn, ctx)
		                      : steps[i].kind == STEP_LAUNCH ? fn(ctx, &steps[i]) : 0;
		if (r) return r;
	}
	return 0;
}

/* constants: [{ symbol, buffer, count } | { symbol, type, count, value }]. */
static int parse_constants(ld *c, lesson_stage *s, yaml_node_t *n)
{
	static const char *const keys[] = { "!symbol", "buffer", "type", "count", "value", NULL };
	if (n->type != YAML_SEQUENCE_NODE) return yd_fail(&c->y, n, "constants must be a list of { symbol, buffer } or { symbol, type, value }");
	s->constants = xcalloc((size_t)yd_seq_len(n), sizeof *s->constants);
	for (int i = 0; i < yd_seq_len(n); i++) {
		yaml_node_t *m = yd_seq_at(&c->y, n, i);
		lesson_constant *k = &s->constants[s->nconstants++];
		k->at.line = (int)m->start_mark.line + 1;
		k->at.col = (int)m->start_mark.column + 1;
		if (yd_check_keys(&c->y, m, "a constant", keys) || yd_get_str(&c->y, m, "symbol", &k->symbol)) return -1;
		yaml_node_t *sn = yd_get(&c->y, m, "symbol"), *bn = yd_get(&c->y, m, "buffer"), *tn = yd_get(&c->y, m, "type"),
		            *vn = yd_get(&c->y, m, "value");
		if (lesson_yaml_check_length(c, sn, "constant symbol", k->symbol)) return -1;
		if (!lesson_is_ident(k->symbol)) return yd_fail(&c->y, sn, "constant symbol '%s' is not a C identifier", k->symbol);
		for (int j = 0; j < s->nconstants - 1; j++)
			if (!strcmp(s->constants[j].symbol, k->symbol)) return yd_fail(&c->y, sn, "constant %s is filled twice", k->symbol);
		if (!!bn == !!vn) return yd_fail(&c->y, m, "constant %s takes either buffer: NAME or type: and value: EXPR", k->symbol);
		if (lesson_yaml_get_expr(c, m, "count", &k->count)) return -1;
		if (bn) {
			if (tn) return yd_fail(&c->y, tn, "constant %s: the type is the buffer's; leave type out", k->symbol);
			if (yd_get_str(&c->y, m, "buffer", &k->buffer)) return -1;
			const lesson_buffer *b = lesson_find_buffer(c->l, s, k->buffer);
			if (!b) return yd_fail(&c->y, bn, "constant %s: unknown buffer '%s'", k->symbol, k->buffer);
			if (b->memory != MEM_DEVICE) return yd_fail(&c->y, bn, "constant %s: buffer %s is host memory; fill a constant from a device buffer or a value", k->symbol, k->buffer);
			if (b->pitch_rows.e) return yd_fail(&c->y, bn, "constant %s: buffer %s is pitched; fill a constant from a packed buffer", k->symbol, k->buffer);
			k->type = b->type;
			continue;
		}
		if (!tn) return yd_fail(&c->y, m, "constant %s needs type: (the variable's element type)", k->symbol);
		if (lesson_yaml_parse_dtype(c, tn, &k->type) || lesson_yaml_parse_expr_with(c, vn, "value", "i", &k->value)) return -1;
	}
	return 0;
}

/* timing: { clock: events|host, sync: BOOL, warmup: N, runs: N, l2: flush|warm, stat: median|first|mean }. */
static int parse_timing(ld *c, yaml_node_t *n, stage_timing *t)
{
	static const char *const keys[] = { "clock", "sync", "warmup", "runs", "l2", "stat", NULL };
	if (n->type != YAML_MAPPING_NODE)
		return yd_fail(&c->y, n, "timing must be a mapping { clock: events | host, sync: true | false, warmup: N, runs: N, l2: flush | warm, stat: median | first | mean }");
	if (yd_check_keys(&c->y, n, "timing", keys)) return -1;
	t->set = 1;
	yaml_node_t *v;
	const char *s;
	int k;
	if ((v = yd_get(&c->y, n, "clock"))) {
		if (!(s = yd_scalar(&c->y, v, "timing's clock"))) return -1;
		if ((k = stage_timing_clock_parse(s)) < 0) return yd_fail(&c->y, v, "timing's clock is events or host, not '%s'", s);
		t->clock = (stage_timing_clock)k;
	}
	if ((v = yd_get(&c->y, n, "sync"))) {
		if (yd_bool(&c->y, v, "timing's sync", &t->sync)) return -1;
		if (t->clock != TIMING_HOST)
			return yd_fail(&c->y, v, "timing's sync goes with clock: host (CUDA events always wait for the end event)");
	}
	int64_t x;
	if ((v = yd_get(&c->y, n, "warmup"))) {
		if (yd_int(&c->y, v, "timing's warmup", 0, STAGE_TIMING_MAX_WARMUP, &x)) return -1;
		t->warmup = (int)x;
	}
	if ((v = yd_get(&c->y, n, "runs"))) {
		if (yd_int(&c->y, v, "timing's runs", 1, STAGE_TIMING_MAX_RUNS, &x)) return -1;
		t->runs = (int)x;
	}
	if ((v = yd_get(&c->y, n, "l2"))) {
		if (!(s = yd_scalar(&c->y, v, "timing's l2"))) return -1;
		if (strcmp(s, "flush") && strcmp(s, "warm")) return yd_fail(&c->y, v, "timing's l2 is flush or warm, not '%s'", s);
		t->l2_warm = !strcmp(s, "warm");
	}
	if ((v = yd_get(&c->y, n, "stat"))) {
		if (!(s = yd_scalar(&c->y, v, "timing's stat"))) return -1;
		if ((k = stage_timing_stat_parse(s)) < 0) return yd_fail(&c->y, v, "timing's stat is median, first or mean, not '%s'", s);
		t->stat = (stage_timing_stat)k;
	}
	return 0;
}

/* memory: { NAME: pageable|pinned }: this stage's choice for the lesson's host buffers. */
static int parse_memory(ld *c, lesson_stage *s, yaml_node_t *n)
{
	if (n->type != YAML_MAPPING_NODE) return yd_fail(&c->y, n, "memory must be a mapping of host buffer: pageable | pinned");
	int k = yd_map_len(n);
	s->memory_buffers = xcalloc((size_t)k, sizeof *s->memory_buffers);
	s->memory_kinds = xcalloc((size_t)k, sizeof *s->memory_kinds);
	for (int i = 0; i < k; i++) {
		yaml_node_t *kn, *v;
		yd_pair(&c->y, n, i, &kn, &v);
		const char *name = yd_scalar(&c->y, kn, "a buffer name");
		if (!name) return -1;
		s->memory_buffers[s->nmemory] = xstrdup(name);
		lesson_memory *m = &s->memory_kinds[s->nmemory++];
		const lesson_buffer *b = lesson_find_buffer(c->l, NULL, name);
		if (!b || b->memory == MEM_DEVICE)
			return yd_fail(&c->y, kn, "memory: '%s' is not a host buffer of the lesson (declared with host: pageable or pinned)", name);
		for (int j = 0; j < s->nmemory - 1; j++)
			if (!strcmp(s->memory_buffers[j], name)) return yd_fail(&c->y, kn, "memory: %s is named twice", name);
		if (lesson_yaml_parse_memory(c, v, "memory", m)) return -1;
	}
	return 0;
}

int lesson_stage_resolve_kernel_file(ld *c, yaml_node_t *n, const char *k, char **out)
{
	if (!*k || k[0] == '/' || strstr(k, "..") ) return yd_fail(&c->y, n, "kernel path '%s' must stay inside kernels/%s/", k, c->l->id);
	*out = xasprintf("%s/%s/%s", c->kroot, c->l->id, k);
	char real[PATH_MAX], rdir[PATH_MAX];
	char *dir = xasprintf("%s/%s", c->kroot, c->l->id);
	int ok = realpath(*out, real) && realpath(dir, rdir);
	free(dir);
	if (!ok) return yd_fail(&c->y, n, "missing kernel file %s", *out);
	size_t dl = strlen(rdir);
	if (strncmp(real, rdir, dl) || real[dl] != '/') return yd_fail(&c->y, n, "kernel path '%s' leads outside kernels/%s/", k, c->l->id);
	return 0;
}

static int defines_entry(const char *path, const char *entry)
{
	char *src = file_read(path, NULL);
	if (!src) return 0;
	int found = 0;
	size_t el = strlen(entry);
	for (const char *p = strstr(src, entry); p && !found; p = strstr(p + 1, entry)) {
		const char *q = p + el;
		while (*q == ' ' || *q == '\t' || *q == '\n') q++;
		found = *q == '(' && (p == src || !(lesson_is_ident((char[]){ p[-1], 0 })));
	}
	free(src);
	return found;
}

/* The entry must be defined in the kernel file or a header beside it (.cuh, .h): catches a typo at
 * load time, not at run time. */
int lesson_stage_check_entry(ld *c, yaml_node_t *n, const char *path, const char *entry)
{
	if (defines_entry(path, entry)) return 0;
	char *dir = xasprintf("%s/%s", c->kroot, c->l->id);
	DIR *d = opendir(dir);
	int found = 0;
	for (struct dirent *e; d && !found && (e = readdir(d));) {
		const char *dot = strrchr(e->d_name, '.');
		if (!dot || (strcmp(dot, ".cuh") && strcmp(dot, ".h"))) continue;
		char *h = xasprintf("%s/%s", dir, e->d_name);
		found = defines_entry(h, entry);
		free(h);
	}
	if (d) closedir(d);
	free(dir);
	return found ? 0 : yd_fail(&c->y, n, "entry '%s' is not defined in %s or a header beside it", entry, path);
}

/* A stage's derived: name: expression, in order, over the lesson's names, the stage's tunables and the
 * values before it; each a new identifier. */
static int parse_stage_derived(ld *c, lesson_stage *s, yaml_node_t *map)
{
	if (map->type != YAML_MAPPING_NODE) return yd_fail(&c->y, map, "derived must be a mapping of name: expression");
	int k = (int)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
	s->derived = xcalloc((size_t)k, sizeof *s->derived);
	for (int i = 0; i < k; i++) {
		yaml_node_t *kn = yd_node(&c->y, map->data.mapping.pairs.start[i].key), *v = yd_node(&c->y, map->data.mapping.pairs.start[i].value);
		const char *name = yd_scalar(&c->y, kn, "a derived name");
		if (!name) return -1;
		if (lesson_yaml_check_length(c, kn, "derived name", name)) return -1;
		if (!lesson_is_ident(name) || lesson_yaml_name_known(c, name, strlen(name)))
			return yd_fail(&c->y, kn, "derived name '%s' is not a new identifier", name);
		lesson_derived *d = &s->derived[s->nderived];
		if (lesson_yaml_parse_expr(c, v, name, &d->value)) return -1;
		d->name = xstrdup(name);   /* named only after parsing: a value cannot use itself */
		s->nderived++;
	}
	return 0;
}

int lesson_stage_parse(ld *c, yaml_node_t *n, lesson_stage *s)
{
	static const char *const keys[] = { "!id", "!title", "!kernel", "!entry", "tunables", "constraints", "buffers",
	                                    "!launches", "!explain", "!bottleneck", "options", "check", "requires", "exercise", "expect",
	                                    "constants", "memory", "tolerance", "peak", "derived", "model", "timing", "baseline", NULL };
	if (yd_check_keys(&c->y, n, "a stage", keys)) return -1;
	s->timing = stage_timing_default();
	yaml_node_t *tm = yd_get(&c->y, n, "timing");
	if (tm && parse_timing(c, tm, &s->timing)) return -1;
	s->baseline = -1;
	yaml_node_t *bn = yd_get(&c->y, n, "baseline");
	if (bn) {   /* baseline: NAME, one of the lesson's baselines: */
		const char *name = yd_scalar(&c->y, bn, "baseline");
		if (!name) return -1;
		if (!c->l->nbaselines)
			return yd_fail(&c->y, bn, "baseline: %s names a baseline, but the lesson has no baselines: map (NAME: { title, library, args })", name);
		char id[16 + LESSON_BASELINE_NAME_MAX];
		strfmt(id, sizeof id, "baseline.%s", name);
		int b = strlen(name) <= LESSON_BASELINE_NAME_MAX ? lesson_baseline_named(c->l, id) : 0;
		if (b >= -1) {
			char known[400] = "";
			for (int i = 0; i < c->l->nbaselines; i++)
				strfmt(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "", c->l->baselines[i]->id + 9);
			return yd_fail(&c->y, bn, "no baseline '%s' in this lesson's baselines: (known: %s)", name, known);
		}
		s->baseline = b;
	}
	yaml_node_t *pk = yd_get(&c->y, n, "peak");
	if (pk) {
		if (yd_get_str(&c->y, n, "peak", &s->peak)) return -1;
		if (peak_parse(s->peak) < 0) {
			char known[256] = "";
			for (int i = 0; i < PEAK_COUNT; i++)
				strfmt(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "", peak_name((peak_kind)i));
			return yd_fail(&c->y, pk, "unknown peak '%s' (known: %s)", s->peak, known);
		}
	}
	yaml_node_t *tol = yd_get(&c->y, n, "tolerance");
	if (tol) {
		s->has_tolerance = 1;
		if (lesson_yaml_parse_tolerance(c, tol, &s->exact, &s->rel_tol, &s->abs_tol, &s->norm_tol, s->tol_expr)) return -1;
	}
	s->check = 1;
	s->at.line = (int)n->start_mark.line + 1;
	s->at.col = (int)n->start_mark.column + 1;
	if (yd_get_str(&c->y, n, "id", &s->id) || yd_get_str(&c->y, n, "title", &s->title) || yd_get_str(&c->y, n, "kernel", &s->kernel_rel) ||
	    yd_get_str(&c->y, n, "entry", &s->entry) || yd_get_str(&c->y, n, "explain", &s->explain) ||
	    yd_get_str(&c->y, n, "bottleneck", &s->bottleneck)) return -1;
	if (lesson_yaml_check_length(c, yd_get(&c->y, n, "id"), "stage id", s->id) || lesson_yaml_check_length(c, yd_get(&c->y, n, "entry"), "entry", s->entry))
		return -1;
	if (lesson_expect_check_text(c, yd_get(&c->y, n, "explain"), s->explain) ||
	    lesson_expect_check_text(c, yd_get(&c->y, n, "bottleneck"), s->bottleneck)) return -1;
	if (!lesson_is_ident(s->id)) return yd_fail(&c->y, yd_get(&c->y, n, "id"), "stage id '%s' must be an identifier", s->id);
	if (!lesson_is_ident(s->entry)) return yd_fail(&c->y, yd_get(&c->y, n, "entry"), "entry '%s' must be a C identifier", s->entry);
	if (c->kroot && (lesson_stage_resolve_kernel_file(c, yd_get(&c->y, n, "kernel"), s->kernel_rel, &s->kernel_path) ||
	                 lesson_stage_check_entry(c, yd_get(&c->y, n, "entry"), s->kernel_path, s->entry))) return -1;
	yaml_node_t *t = yd_get(&c->y, n, "tunables");
	if (t) {
		if (t->type != YAML_MAPPING_NODE) return yd_fail(&c->y, t, "tunables must be a mapping of NAME: {values|range, default}");
		int k = (int)(t->data.mapping.pairs.top - t->data.mapping.pairs.start);
		s->tunables = xcalloc((size_t)k, sizeof *s->tunables);
		for (int i = 0; i < k; i++) {
			yaml_node_t *kn = yd_node(&c->y, t->data.mapping.pairs.start[i].key), *v = yd_node(&c->y, t->data.mapping.pairs.start[i].value);
			const char *name = yd_scalar(&c->y, kn, "a tunable name");
			if (!name) return -1;
			lesson_tunable *tu = &s->tunables[s->ntunables++];
			tu->name = xstrdup(name);
			tu->at.line = (int)kn->start_mark.line + 1;
			tu->at.col = (int)kn->start_mark.column + 1;
			if (lesson_yaml_check_length(c, kn, "tunable name", name)) return -1;
			if (!lesson_is_ident(name)) return yd_fail(&c->y, kn, "tunable name '%s' is not an identifier", name);
			if (lesson_find_param(c->l, name)) return yd_fail(&c->y, kn, "tunable '%s' has the name of a parameter", name);
			if (parse_tunable(c, kn, v, tu)) return -1;
		}
	}
	c->stage = s;   /* from here on the stage's tunables are in scope */
	yaml_node_t *dv = yd_get(&c->y, n, "derived"), *md = yd_get(&c->y, n, "model");
	if (dv && parse_stage_derived(c, s, dv)) return -1;
	if (md) {
		static const char *const mkeys[] = { "bytes", "flops", NULL };
		if (md->type != YAML_MAPPING_NODE) return yd_fail(&c->y, md, "a stage's model is a mapping of bytes: and flops:");
		if (yd_check_keys(&c->y, md, "a stage's model", mkeys) || lesson_yaml_get_expr(c, md, "bytes", &s->bytes) ||
		    lesson_yaml_get_expr(c, md, "flops", &s->flops)) return -1;
	}
	yaml_node_t *b = yd_get(&c->y, n, "buffers");
	if (b && lesson_yaml_parse_buffers(c, b, &s->buffers, &s->nbuffers)) return -1;
	for (int i = 0; i < s->nbuffers; i++) {
		if (s->buffers[i].output) return yd_fail(&c->y, b, "stage buffer '%s' is scratch space: it cannot be an output", s->buffers[i].name);
		for (int j = 0; j < c->l->nbuffers; j++)
			if (!strcmp(c->l->buffers[j].name, s->buffers[i].name)) return yd_fail(&c->y, b, "stage buffer '%s' hides a lesson buffer", s->buffers[i].name);
	}
	yaml_node_t *cs = yd_get(&c->y, n, "constraints");
	if (cs) {
		if (cs->type != YAML_SEQUENCE_NODE) return yd_fail(&c->y, cs, "constraints must be a list of {expr, message}");
		s->constraints = xcalloc((size_t)yd_seq_len(cs), sizeof *s->constraints);
		static const char *const ckeys[] = { "!expr", "!message", NULL };
		for (int i = 0; i < yd_seq_len(cs); i++) {
			yaml_node_t *ci = yd_seq_at(&c->y, cs, i);
			lesson_constraint *k = &s->constraints[s->nconstraints++];
			if (yd_check_keys(&c->y, ci, "a constraint", ckeys) || lesson_yaml_get_expr(c, ci, "expr", &k->cond) ||
			    yd_get_str(&c->y, ci, "message", &k->message)) return -1;
		}
	}
	yaml_node_t *mem = yd_get(&c->y, n, "memory"), *cn = yd_get(&c->y, n, "constants");
	if (mem && parse_memory(c, s, mem)) return -1;
	if (cn && parse_constants(c, s, cn)) return -1;
	if (parse_steps(c, s, yd_get(&c->y, n, "launches"), "launches", &s->launches, &s->nlaunches)) return -1;
	yaml_node_t *o = yd_get(&c->y, n, "options"), *chk = yd_get(&c->y, n, "check"), *rq = yd_get(&c->y, n, "requires");
	if (o && yd_strings(&c->y, o, "options", &s->options, &s->noptions)) return -1;
	if (chk && yd_bool(&c->y, chk, "check", &s->check)) return -1;
	if (rq) {
		static const char *const rkeys[] = { "cc", "arch", "!why", NULL };
		int64_t cc = 0;
		yaml_node_t *ccn = yd_get(&c->y, rq, "cc");
		if (yd_check_keys(&c->y, rq, "requires", rkeys) || (ccn && yd_int(&c->y, ccn, "cc", INT64_MIN, INT64_MAX, &cc)) ||
		    yd_get_str(&c->y, rq, "arch", &s->req_arch) || yd_get_str(&c->y, rq, "why", &s->req_why)) return -1;
		s->req_cc = (int)cc;
	}
	yaml_node_t *ex = yd_get(&c->y, n, "exercise");
	if (ex && lesson_exercise_parse(c, ex, s)) return -1;
	yaml_node_t *xp = yd_get(&c->y, n, "expect");
	if (xp && lesson_expect_parse(c, xp, s)) return -1;
	c->stage = NULL;
	return 0;
}

static void free_steps(lesson_launch *steps, int n)
{
	for (int i = 0; i < n; i++) {
		lesson_launch *L = &steps[i];
		free(L->memset_buffer); free(L->entry); free(L->copy_dst); free(L->copy_src); free(L->repeat_var);
		lesson_yaml_free_expr(&L->copy_offset); lesson_yaml_free_expr(&L->copy_dst_offset); lesson_yaml_free_expr(&L->copy_src_offset);
		lesson_yaml_free_expr(&L->copy_count); lesson_yaml_free_expr(&L->stream); lesson_yaml_free_expr(&L->repeat_count);
		for (int d = 0; d < 3; d++) { lesson_yaml_free_expr(&L->grid[d]); lesson_yaml_free_expr(&L->block[d]); }
		lesson_yaml_free_expr(&L->shared);
		for (int a = 0; a < L->nargs; a++) {
			lesson_arg *g = &L->args[a];
			free(g->buffer);
			lesson_yaml_free_expr(&g->value);
			lesson_yaml_free_expr(&g->pitch);
			for (int d = 0; d < LESSON_TMA_MAX_RANK; d++) { lesson_yaml_free_expr(&g->dims[d]); lesson_yaml_free_expr(&g->box[d]); }
		}
		free(L->args);
		free_steps(L->body, L->nbody);
		lesson_yaml_free_library(L->call);
	}
	free(steps);
}

void lesson_stage_free(lesson_stage *s)
{
	free(s->id); free(s->title); free(s->kernel_path); free(s->kernel_rel); free(s->entry);
	free(s->explain); free(s->bottleneck); free(s->req_arch); free(s->req_why); free(s->peak);
	for (int i = 0; i < s->nderived; i++) { free(s->derived[i].name); lesson_yaml_free_expr(&s->derived[i].value); }
	free(s->derived);
	lesson_yaml_free_expr(&s->bytes); lesson_yaml_free_expr(&s->flops);
	for (int i = 0; i < 3; i++) lesson_yaml_free_expr(&s->tol_expr[i]);
	for (int i = 0; i < s->ntunables; i++) {
		free(s->tunables[i].name); free(s->tunables[i].values); lesson_yaml_free_expr(&s->tunables[i].def_expr);
	}
	free(s->tunables);
	for (int i = 0; i < s->nconstraints; i++) { lesson_yaml_free_expr(&s->constraints[i].cond); free(s->constraints[i].message); }
	free(s->constraints);
	lesson_yaml_free_buffers(s->buffers, s->nbuffers);
	free_steps(s->launches, s->nlaunches);
	for (int i = 0; i < s->nevents; i++) free(s->events[i]);
	free(s->events);
	for (int i = 0; i < s->nconstants; i++) {
		lesson_constant *k = &s->constants[i];
		free(k->symbol); free(k->buffer); lesson_yaml_free_expr(&k->count); lesson_yaml_free_expr(&k->value);
	}
	free(s->constants);
	for (int i = 0; i < s->nmemory; i++) free(s->memory_buffers[i]);
	free(s->memory_buffers); free(s->memory_kinds);
	for (int i = 0; i < s->noptions; i++) free(s->options[i]);
	free(s->options);
	lesson_exercise_free(s->exercise);
	lesson_expect_free(s);
}
