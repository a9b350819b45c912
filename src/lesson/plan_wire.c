/* plan_wire: a plan to text and back; see plan_wire.h. */
#include "plan_wire.h"
#include "csrgen.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Caps on what a text may ask for, far above any lesson, so that a broken one cannot make us
 * allocate without bound. */
#define MAX_ITEMS 4096
#define MAX_TOKENS (8 + 3 * LESSON_TMA_MAX_RANK)

static const char *const value_types[] = { [AT_I32] = "i32", [AT_U32] = "u32", [AT_I64] = "i64", [AT_U64] = "u64", [AT_F32] = "f32", [AT_F64] = "f64" };
#define NVALUE_TYPES ((int)(sizeof value_types / sizeof value_types[0]))

/* A name on the wire is one token: no spaces, no control characters. */
static void put_name(sb *b, const char *s)
{
	sb_add(b, " ");
	if (!s || !*s) { sb_add(b, "-"); return; }
	for (const char *c = s; *c; c++) sb_addf(b, "%c", (unsigned char)*c <= ' ' ? '?' : *c);
}

static const char *const memories[MEM_KIND_COUNT] = { [MEM_DEVICE] = "device", [MEM_PAGEABLE] = "pageable", [MEM_PINNED] = "pinned" };
static const char *const filters[] = { [TEX_POINT] = "point", [TEX_LINEAR] = "linear" };
static const char *const addresses[] = { [TEX_WRAP] = "wrap", [TEX_CLAMP] = "clamp", [TEX_MIRROR] = "mirror", [TEX_BORDER] = "border" };
#define NFILTERS ((int)(sizeof filters / sizeof filters[0]))
#define NADDRESSES ((int)(sizeof addresses / sizeof addresses[0]))

static void put_arg(sb *b, const plan_arg *a)
{
	sb_add(b, "arg");
	put_name(b, a->name);
	if (a->kind == ARG_TEXTURE) {
		const plan_texture *t = &a->tex;
		sb_add(b, " texture");
		put_name(b, a->buffer);
		sb_addf(b, " %s %d %llu %llu %llu %s %s %d %d", lesson_dtype_name(t->type), t->rank, (unsigned long long)t->width,
		        (unsigned long long)t->height, (unsigned long long)t->pitch_bytes, filters[t->filter], addresses[t->address],
		        t->normalized_coords, t->read_normalized);
	} else if (a->kind == ARG_BUFFER || a->kind == ARG_PITCH) {
		sb_add(b, a->kind == ARG_PITCH ? " pitch" : " buffer");
		put_name(b, a->buffer);
	} else if (a->kind == ARG_TENSORMAP) {
		const plan_tensormap *t = &a->tm;
		sb_add(b, " tensormap");
		put_name(b, a->buffer);
		sb_addf(b, " %d %d %d", t->data_type, t->rank, t->swizzle);
		for (int i = 0; i < t->rank; i++) sb_addf(b, " %llu", (unsigned long long)t->dims[i]);
		for (int i = 0; i < t->rank; i++) sb_addf(b, " %llu", (unsigned long long)t->strides[i]);
		for (int i = 0; i < t->rank; i++) sb_addf(b, " %u", t->box[i]);
	} else {
		sb_addf(b, " value %s ", value_types[a->type]);
		switch (a->type) {
		case AT_I32: sb_addf(b, "%d", a->v.i32); break;
		case AT_U32: sb_addf(b, "%u", a->v.u32); break;
		case AT_I64: sb_addf(b, "%lld", (long long)a->v.i64); break;
		case AT_U64: sb_addf(b, "%llu", (unsigned long long)a->v.u64); break;
		case AT_F32: sb_addf(b, "%.9g", (double)a->v.f32); break;
		case AT_F64: sb_addf(b, "%.17g", a->v.f64); break;
		}
	}
	sb_add(b, "\n");
}

void plan_wire_write(sb *b, const plan *p)
{
	sb_addf(b, "plan 2\nstage %d\nlesson ", p->stage);
	for (const char *c = p->lesson_path ? p->lesson_path : ""; *c; c++) sb_addf(b, "%c", *c == '\n' ? '?' : *c);
	sb_addf(b, "\npeak %s\ncheck %d\ntolerance %d %.17g %.17g %.17g\n", peak_name(p->peak), p->check, p->exact, p->rel_tol, p->abs_tol, p->norm_tol);
	for (int i = 0; i < p->ncompare; i++) { sb_add(b, "compare"); put_name(b, p->compare[i]); sb_add(b, "\n"); }
	sb_addf(b, "model %.17g %.17g %lld\nuses_occ %d\n", p->bytes, p->flops, (long long)p->working_set, p->uses_occ);
	sb_addf(b, "streams %d\ncopied %.17g %.17g\nrdc %d\nmain %d\n", p->nstreams, p->h2d_bytes, p->d2h_bytes, p->rdc, p->main_launch);
	if (p->traffic != TRAFFIC_COPY) sb_addf(b, "traffic %s\n", traffic_name(p->traffic));
	if (p->timing.set)
		sb_addf(b, "timing %s %d %d %d %s %s\n", stage_timing_clock_name(p->timing.clock), p->timing.sync, p->timing.warmup,
		        p->timing.runs, p->timing.l2_warm ? "warm" : "flush", stage_timing_stat_name(p->timing.stat));
	for (int i = 0; i < p->nvars; i++) {
		sb_add(b, "var");
		put_name(b, p->vars[i].name);
		if (p->vars[i].v.kind == EXPR_INT) sb_addf(b, " i %lld\n", (long long)p->vars[i].v.i);
		else sb_addf(b, " f %.17g\n", p->vars[i].v.f);
	}
	sb_addf(b, "params %d %d\n", p->first_param, p->nparams);
	for (int i = 0; i < p->nbuffers; i++) {
		const plan_buffer *x = &p->buffers[i];
		sb_add(b, "buffer");
		put_name(b, x->name);
		sb_addf(b, " %s %lld %d %d %d %.17g %.17g %s\n", lesson_dtype_name(x->type), (long long)x->count, x->output, x->scratch,
		        (int)x->init, x->a, x->b, (unsigned)x->memory < MEM_KIND_COUNT ? memories[x->memory] : "?");
		if (x->hot > 0) {   /* a line of its own, so that plans without it read as before */
			sb_add(b, "hot");
			put_name(b, x->name);
			sb_addf(b, " %.17g\n", x->hot);
		}
		if (x->init == INIT_CSR_ROWS && x->skew > 0) {   /* likewise */
			sb_add(b, "skew");
			put_name(b, x->name);
			sb_addf(b, " %.17g\n", x->skew);
		}
		if (x->rows > 0) {   /* pitch NAME ROWS COLS SRC|-: a line of its own, as hot */
			sb_add(b, "pitch");
			put_name(b, x->name);
			sb_addf(b, " %lld %lld", (long long)x->rows, (long long)x->cols);
			put_name(b, x->copy_of);
			sb_add(b, "\n");
		} else if (x->init == INIT_COPY) {   /* from NAME SRC: a packed buffer's source, likewise */
			sb_add(b, "from");
			put_name(b, x->name);
			put_name(b, x->copy_of);
			sb_add(b, "\n");
		}
		if (x->init != INIT_EXPR) continue;
		sb_add(b, "values");
		put_name(b, x->name);
		sb_addf(b, " %lld", (long long)x->count);
		for (int64_t k = 0; k < x->count; k++) sb_addf(b, " %.17g", x->values ? x->values[k] : 0.0);
		sb_add(b, "\n");
	}
	for (int i = 0; i < p->nconstants; i++) {
		const plan_constant *k = &p->constants[i];
		sb_add(b, "constant");
		put_name(b, k->symbol);
		sb_addf(b, " %s %lld %llu", lesson_dtype_name(k->type), (long long)k->count, (unsigned long long)k->nbytes);
		if (k->bytes) {
			sb_add(b, " bytes ");
			for (uint64_t j = 0; j < k->nbytes; j++) sb_addf(b, "%02x", k->bytes[j]);
		} else {
			sb_add(b, " buffer");
			put_name(b, k->buffer);
		}
		sb_add(b, "\n");
	}
	for (int i = 0; i < p->nlaunches; i++) {
		const plan_launch *L = &p->launches[i];
		if (L->kind == STEP_MEMSET) {
			sb_add(b, "memset");
			put_name(b, L->buffer);
			sb_addf(b, " %d %d\n", L->value, L->stream);
			continue;
		}
		if (L->kind == STEP_COPY) {
			sb_add(b, "copy");
			put_name(b, L->buffer);
			put_name(b, L->src);
			sb_addf(b, " %llu %llu %llu %d\n", (unsigned long long)L->dst_off, (unsigned long long)L->src_off, (unsigned long long)L->bytes,
			        L->stream);
			continue;
		}
		if (L->kind == STEP_RECORD || L->kind == STEP_WAIT) {
			sb_add(b, L->kind == STEP_RECORD ? "record" : "wait");
			put_name(b, L->entry);
			sb_addf(b, " %d %d\n", L->event, L->stream);
			continue;
		}
		if (L->kind == STEP_LIBRARY) {
			sb_add(b, "library");
			put_name(b, L->entry);
			sb_addf(b, " %d %d\n", L->nargs, L->stream);
			for (int a = 0; a < L->nargs; a++) put_arg(b, &L->args[a]);
			continue;
		}
		sb_add(b, "launch");
		put_name(b, L->entry);
		sb_addf(b, " %u %u %u %u %u %u %zu %d %d %d\n", L->grid[0], L->grid[1], L->grid[2], L->block[0], L->block[1], L->block[2],
		        L->shared, L->nargs, L->stream, L->pdl);
		for (int a = 0; a < L->nargs; a++) put_arg(b, &L->args[a]);
	}
	sb_add(b, "end\n");
}

/* ---- reading ---- */

typedef struct {
	plan *p;
	int line;
	char *err; size_t errlen;
	plan_launch *open;     /* the launch whose arguments are still coming */
	int args_left;
	plan_buffer *want_values;   /* an init expr buffer whose values line comes next */
} rd;

static int bad(rd *r, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	strfmt(r->err, r->errlen, "plan line %d: %s", r->line, msg);
	return -1;
}

static const char *own(plan *p, const char *s)
{
	p->owned = xrealloc(p->owned, (size_t)(p->nowned + 1) * sizeof *p->owned);
	return p->owned[p->nowned++] = xstrdup(s);
}

static int get_i64(rd *r, const char *tok, int64_t lo, int64_t hi, int64_t *v)
{
	char *end;
	errno = 0;
	long long x = strtoll(tok, &end, 10);
	if (!*tok || *end || errno || x < lo || x > hi) return bad(r, "'%s' is not a whole number from %lld to %lld", tok, (long long)lo, (long long)hi);
	*v = x;
	return 0;
}

static int get_u64(rd *r, const char *tok, uint64_t hi, uint64_t *v)
{
	char *end;
	errno = 0;
	unsigned long long x = strtoull(tok, &end, 10);
	if (!*tok || *tok == '-' || *end || errno || x > hi) return bad(r, "'%s' is not a whole number from 0 to %llu", tok, (unsigned long long)hi);
	*v = x;
	return 0;
}

static int get_int(rd *r, const char *tok, int lo, int hi, int *v)
{
	int64_t x;
	if (get_i64(r, tok, lo, hi, &x)) return -1;
	*v = (int)x;
	return 0;
}

static int get_dbl(rd *r, const char *tok, double *v)
{
	char *end;
	*v = strtod(tok, &end);
	if (!*tok || *end) return bad(r, "'%s' is not a number", tok);
	return 0;
}

static int get_name(rd *r, const char *tok, size_t max, const char **out)
{
	if (strlen(tok) >= max) return bad(r, "a name of over %zu characters", max - 1);
	*out = own(r->p, tok);
	return 0;
}

static const plan_buffer *buffer_named(const plan *p, const char *name)
{
	for (int i = 0; i < p->nbuffers; i++) if (!strcmp(p->buffers[i].name, name)) return &p->buffers[i];
	return NULL;
}

static int grow(rd *r, int n, const char *what)
{
	if (n >= MAX_ITEMS) return bad(r, "more than %d %s", MAX_ITEMS, what);
	return 0;
}

static int read_dtype(rd *r, const char *tok, lesson_dtype *t)
{
	for (int i = 0; i < DT_COUNT; i++) if (!strcmp(tok, lesson_dtype_name((lesson_dtype)i))) { *t = (lesson_dtype)i; return 0; }
	return bad(r, "'%s' is not a buffer type", tok);
}

/* tok among words[0..n): its index into *out. */
static int read_word(rd *r, const char *tok, const char *const *words, int n, const char *what, int *out)
{
	for (int i = 0; i < n; i++) if (words[i] && !strcmp(tok, words[i])) { *out = i; return 0; }
	return bad(r, "'%s' is not a %s", tok, what);
}

/* arg NAME|- texture BUFFER TYPE RANK W H PITCH FILTER ADDRESS NORM READNORM */
static int read_texture(rd *r, plan_arg *a, char **t, int n)
{
	if (n != 13) return bad(r, "a texture arg has 13 fields, not %d", n);
	const plan_buffer *b = buffer_named(r->p, t[3]);
	if (!b) return bad(r, "no buffer named '%s'", t[3]);
	plan_texture *x = &a->tex;
	int filter = 0, address = 0;
	if (read_dtype(r, t[4], &x->type) || get_int(r, t[5], 1, 2, &x->rank) || get_u64(r, t[6], UINT32_MAX, &x->width) ||
	    get_u64(r, t[7], UINT32_MAX, &x->height) || get_u64(r, t[8], UINT32_MAX, &x->pitch_bytes) ||
	    read_word(r, t[9], filters, NFILTERS, "texture filter", &filter) || read_word(r, t[10], addresses, NADDRESSES, "texture address mode", &address) ||
	    get_int(r, t[11], 0, 1, &x->normalized_coords) || get_int(r, t[12], 0, 1, &x->read_normalized))
		return -1;
	x->filter = (lesson_tex_filter)filter;
	x->address = (lesson_tex_address)address;
	a->kind = ARG_TEXTURE;
	a->buffer = b->name;
	uint64_t es = lesson_dtype_size(b->type), bytes = (uint64_t)b->count * es;
	if (x->type != b->type) return bad(r, "texture %s is %s, its buffer %s", b->name, t[4], lesson_dtype_name(b->type));
	if (!x->width || !x->height) return bad(r, "texture %s has no elements", b->name);
	if (x->rank == 1 && (x->height != 1 || x->pitch_bytes)) return bad(r, "a 1D texture has height 1 and pitch 0");
	if (x->rank == 1 && x->width > (uint64_t)b->count) return bad(r, "texture %s is wider than its buffer", b->name);
	if (x->rank == 2 && (x->pitch_bytes < x->width * es || x->pitch_bytes % es || (x->height - 1) * x->pitch_bytes + x->width * es > bytes))
		return bad(r, "texture %s does not lie inside its buffer", b->name);
	return 0;
}

static int read_arg(rd *r, char **t, int n)
{
	plan_arg *a = &r->open->args[r->open->nargs - r->args_left];
	const plan *p = r->p;
	if (n < 4) return bad(r, "an arg needs a name, a kind and what it passes");
	if (strcmp(t[1], "-") && get_name(r, t[1], 64, &a->name)) return -1;
	if (!strcmp(t[2], "texture")) return read_texture(r, a, t, n);
	if (!strcmp(t[2], "pitch")) {
		const plan_buffer *b = buffer_named(p, t[3]);
		if (n != 4) return bad(r, "a pitch arg has 4 fields, not %d", n);
		if (!b || b->rows <= 0) return bad(r, "no pitched buffer named '%s'", t[3]);
		a->kind = ARG_PITCH;
		a->type = AT_I64;
		a->buffer = b->name;
		return 0;
	}
	if (!strcmp(t[2], "buffer") || !strcmp(t[2], "tensormap")) {
		const plan_buffer *b = buffer_named(p, t[3]);
		if (!b) return bad(r, "no buffer named '%s'", t[3]);
		a->buffer = b->name;
		if (!strcmp(t[2], "buffer")) {
			if (n != 4) return bad(r, "a buffer arg has 4 fields, not %d", n);
			a->kind = ARG_BUFFER;
			return 0;
		}
		plan_tensormap *m = &a->tm;
		a->kind = ARG_TENSORMAP;
		m->type = b->type;
		if (n < 7 || get_int(r, t[4], 0, 1 << 20, &m->data_type) || get_int(r, t[5], 1, LESSON_TMA_MAX_RANK, &m->rank) ||
		    get_int(r, t[6], 0, 128, &m->swizzle))
			return n < 7 ? bad(r, "a tensormap arg needs its type, rank and swizzle") : -1;
		if (m->swizzle != 0 && m->swizzle != 32 && m->swizzle != 64 && m->swizzle != 128) return bad(r, "swizzle %d is not 0, 32, 64 or 128", m->swizzle);
		if (n != 7 + 3 * m->rank) return bad(r, "a tensormap arg of rank %d has %d fields, not %d", m->rank, 7 + 3 * m->rank, n);
		for (int i = 0; i < m->rank; i++) {
			uint64_t box;
			if (get_u64(r, t[7 + i], UINT64_MAX, &m->dims[i]) || get_u64(r, t[7 + m->rank + i], UINT64_MAX, &m->strides[i]) ||
			    get_u64(r, t[7 + 2 * m->rank + i], UINT32_MAX, &box))
				return -1;
			m->box[i] = (uint32_t)box;
		}
		return 0;
	}
	if (strcmp(t[2], "value")) return bad(r, "'%s' is not a kind of arg", t[2]);
	if (n != 5) return bad(r, "a value arg has 5 fields, not %d", n);
	a->kind = ARG_VALUE;
	int ty = -1;
	for (int i = 0; i < NVALUE_TYPES; i++) if (!strcmp(t[3], value_types[i])) ty = i;
	if (ty < 0) return bad(r, "'%s' is not a value type", t[3]);
	a->type = (lesson_arg_type)ty;
	int64_t i;
	uint64_t u;
	double d;
	switch (a->type) {
	case AT_I32: if (get_i64(r, t[4], INT32_MIN, INT32_MAX, &i)) return -1; a->v.i32 = (int32_t)i; break;
	case AT_U32: if (get_u64(r, t[4], UINT32_MAX, &u)) return -1; a->v.u32 = (uint32_t)u; break;
	case AT_I64: if (get_i64(r, t[4], INT64_MIN, INT64_MAX, &i)) return -1; a->v.i64 = i; break;
	case AT_U64: if (get_u64(r, t[4], UINT64_MAX, &u)) return -1; a->v.u64 = u; break;
	case AT_F32: if (get_dbl(r, t[4], &d)) return -1; a->v.f32 = (float)d; break;
	case AT_F64: if (get_dbl(r, t[4], &d)) return -1; a->v.f64 = d; break;
	}
	return 0;
}

/* Appends step L, whose nargs argument lines come next. */
static int open_step(rd *r, plan_launch *L, int nargs)
{
	plan *p = r->p;
	L->nargs = nargs;
	L->args = xcalloc((size_t)nargs + 1, sizeof *L->args);
	p->launches = xrealloc(p->launches, (size_t)(p->nlaunches + 1) * sizeof *p->launches);
	p->launches[p->nlaunches++] = *L;
	r->open = &p->launches[p->nlaunches - 1];
	r->args_left = nargs;
	return 0;
}

static int read_launch(rd *r, char **t, int n)
{
	plan *p = r->p;
	if (n != 12) return bad(r, "a launch has 12 fields, not %d", n);
	if (grow(r, p->nlaunches, "launches")) return -1;
	plan_launch L = { .kind = STEP_LAUNCH };
	int64_t v[8];
	/* A kernel's grid and block are at least 1; a baseline's library call has none (all 0). */
	for (int i = 0; i < 6; i++) if (get_i64(r, t[2 + i], p->stage >= 0, i == 0 ? 2147483647 : 65535, &v[i])) return -1;
	if (get_i64(r, t[8], 0, INT32_MAX, &v[6]) || get_i64(r, t[9], 0, 1024, &v[7]) || get_int(r, t[10], 0, LESSON_MAX_STREAMS - 1, &L.stream) ||
	    get_int(r, t[11], 0, 1, &L.pdl)) return -1;
	if (get_name(r, t[1], 256, &L.entry)) return -1;
	for (int d = 0; d < 3; d++) { L.grid[d] = (unsigned)v[d]; L.block[d] = (unsigned)v[3 + d]; }
	L.shared = (size_t)v[6];
	return open_step(r, &L, (int)v[7]);
}

/* library NAME NARGS STREAM, then its NARGS named arguments: a stage's library step. */
static int read_library(rd *r, char **t, int n)
{
	plan *p = r->p;
	if (n != 4) return bad(r, "a library step has 4 fields, not %d", n);
	if (grow(r, p->nlaunches, "launches")) return -1;
	plan_launch L = { .kind = STEP_LIBRARY };
	int nargs;
	if (get_int(r, t[2], 0, 64, &nargs) || get_int(r, t[3], 0, LESSON_MAX_STREAMS - 1, &L.stream) || get_name(r, t[1], 64, &L.entry)) return -1;
	return open_step(r, &L, nargs);
}

/* values NAME N V1 .. VN, after the buffer line of an init expr buffer: read token by token (a line
 * may hold LESSON_INIT_EXPR_MAX numbers). */
static int read_values(rd *r, char *line)
{
	plan_buffer *b = r->want_values;
	char *save = NULL, *tok = strtok_r(line, " ", &save);   /* "values" */
	tok = strtok_r(NULL, " ", &save);
	if (!b) return bad(r, "values with no init expr buffer just before them");
	if (!tok || strcmp(tok, b->name)) return bad(r, "values for '%s' after buffer %s", tok ? tok : "", b->name);
	int64_t n;
	if (!(tok = strtok_r(NULL, " ", &save)) || get_i64(r, tok, 1, LESSON_INIT_EXPR_MAX, &n)) return tok ? -1 : bad(r, "values needs a count");
	if (n != b->count) return bad(r, "%lld values for buffer %s of %lld elements", (long long)n, b->name, (long long)b->count);
	b->values = xcalloc((size_t)n, sizeof *b->values);
	for (int64_t i = 0; i < n; i++) {
		if (!(tok = strtok_r(NULL, " ", &save))) return bad(r, "values for %s end after %lld of %lld", b->name, (long long)i, (long long)n);
		if (get_dbl(r, tok, &b->values[i])) return -1;
	}
	if (strtok_r(NULL, " ", &save)) return bad(r, "more than %lld values for %s", (long long)n, b->name);
	r->want_values = NULL;
	return 0;
}

/* copy DST SRC DST_OFF SRC_OFF BYTES STREAM: whole elements inside both buffers, of one type, a device side. */
static int read_copy(rd *r, char **t, int n)
{
	plan *p = r->p;
	if (n != 7) return bad(r, "a copy has 7 fields, not %d", n);
	if (grow(r, p->nlaunches, "launches")) return -1;
	const plan_buffer *d = buffer_named(p, t[1]), *s = buffer_named(p, t[2]);
	if (!d || !s) return bad(r, "no buffer named '%s'", d ? t[2] : t[1]);
	plan_launch L = { .kind = STEP_COPY, .buffer = d->name, .src = s->name };
	if (get_u64(r, t[3], UINT64_MAX, &L.dst_off) || get_u64(r, t[4], UINT64_MAX, &L.src_off) || get_u64(r, t[5], UINT64_MAX, &L.bytes) ||
	    get_int(r, t[6], 0, LESSON_MAX_STREAMS - 1, &L.stream)) return -1;
	if (d->type != s->type) return bad(r, "copy %s>%s between buffers of two types", s->name, d->name);
	if (d == s) return bad(r, "copy %s>%s within one buffer", s->name, d->name);
	if (d->memory != MEM_DEVICE && s->memory != MEM_DEVICE) return bad(r, "copy %s>%s between two host buffers", s->name, d->name);
	uint64_t es = lesson_dtype_size(d->type);
	if (L.dst_off % es || L.src_off % es || L.bytes % es || !L.bytes) return bad(r, "copy %s>%s of no whole %s elements", s->name, d->name, lesson_dtype_name(d->type));
	if (L.bytes > (uint64_t)s->count * es - (L.src_off > (uint64_t)s->count * es ? 0 : L.src_off) || L.src_off > (uint64_t)s->count * es ||
	    L.bytes > (uint64_t)d->count * es - (L.dst_off > (uint64_t)d->count * es ? 0 : L.dst_off) || L.dst_off > (uint64_t)d->count * es)
		return bad(r, "copy %s>%s reaches outside a buffer", s->name, d->name);
	p->launches = xrealloc(p->launches, (size_t)(p->nlaunches + 1) * sizeof *p->launches);
	p->launches[p->nlaunches++] = L;
	return 0;
}

static int hexval(char ch) { return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1; }

/* constant SYMBOL TYPE COUNT NBYTES buffer NAME | constant SYMBOL TYPE COUNT NBYTES bytes HEX */
static int read_constant(rd *r, char **t, int n)
{
	plan *p = r->p;
	if (n != 7) return bad(r, "a constant has 7 fields, not %d", n);
	if (grow(r, p->nconstants, "constants")) return -1;
	plan_constant k = {0};
	uint64_t nbytes;
	if (read_dtype(r, t[2], &k.type) || get_i64(r, t[3], 1, 65536, &k.count) || get_u64(r, t[4], 65536, &nbytes)) return -1;
	if (nbytes != (uint64_t)k.count * lesson_dtype_size(k.type)) return bad(r, "constant %s: %llu bytes for %lld %s", t[1], (unsigned long long)nbytes, (long long)k.count, t[2]);
	for (int i = 0; i < p->nconstants; i++) if (!strcmp(p->constants[i].symbol, t[1])) return bad(r, "constant %s twice", t[1]);
	k.nbytes = nbytes;
	if (!strcmp(t[5], "buffer")) {
		const plan_buffer *b = buffer_named(p, t[6]);
		if (!b) return bad(r, "no buffer named '%s'", t[6]);
		if (b->type != k.type || b->count < k.count || b->memory != MEM_DEVICE) return bad(r, "constant %s does not fit device buffer %s", t[1], b->name);
		k.buffer = b->name;
	} else if (!strcmp(t[5], "bytes")) {
		if (strlen(t[6]) != 2 * nbytes) return bad(r, "constant %s: %zu hex digits for %llu bytes", t[1], strlen(t[6]), (unsigned long long)nbytes);
		k.bytes = xmalloc(nbytes);
		for (uint64_t i = 0; i < nbytes; i++) {
			int hi = hexval(t[6][2 * i]), lo = hexval(t[6][2 * i + 1]);
			if (hi < 0 || lo < 0) { free(k.bytes); return bad(r, "constant %s: '%s' is not lower-case hex", t[1], t[6]); }
			k.bytes[i] = (unsigned char)(hi << 4 | lo);
		}
	} else {
		return bad(r, "a constant comes from 'buffer' or 'bytes', not '%s'", t[5]);
	}
	if (get_name(r, t[1], 256, &k.symbol)) { free(k.bytes); return -1; }
	p->constants = xrealloc(p->constants, (size_t)(p->nconstants + 1) * sizeof *p->constants);
	p->constants[p->nconstants++] = k;
	return 0;
}

/* One line of n tokens t. */
static int read_line(rd *r, char **t, int n, const char *rest)
{
	plan *p = r->p;
	const char *k = t[0];
	if (r->want_values) return bad(r, "buffer %s wants its values line next", r->want_values->name);
	if (r->args_left > 0) {
		if (strcmp(k, "arg")) return bad(r, "launch %s wants %d more arg lines", r->open->entry, r->args_left);
		if (read_arg(r, t, n)) return -1;
		r->args_left--;
		return 0;
	}
	if (!strcmp(k, "stage")) {   /* once, before the steps: a launch's limits depend on it */
		if (p->stage != -2) return bad(r, "a second stage line");
		if (p->nlaunches) return bad(r, "the stage after the steps");
		return n != 2 ? bad(r, "stage takes one number") : get_int(r, t[1], -1, 1 << 20, &p->stage);
	}
	if (!strcmp(k, "lesson")) { p->lesson_path = own(p, rest); return 0; }
	if (!strcmp(k, "peak")) {
		int pk = n == 2 ? peak_parse(t[1]) : -1;
		if (pk < 0) return bad(r, "peak '%s' is not one this build knows", n > 1 ? t[1] : "");
		p->peak = (peak_kind)pk;
		return 0;
	}
	if (!strcmp(k, "traffic")) {
		int tk = n == 2 ? traffic_parse(t[1]) : -1;
		if (tk < 0) return bad(r, "traffic '%s' is not one this build knows", n > 1 ? t[1] : "");
		p->traffic = (traffic_kind)tk;
		return 0;
	}
	if (!strcmp(k, "timing")) {
		stage_timing *tm = &p->timing;
		int ck = n == 7 ? stage_timing_clock_parse(t[1]) : -1, st = n == 7 ? stage_timing_stat_parse(t[6]) : -1;
		if (ck < 0 || st < 0 || (strcmp(t[5], "flush") && strcmp(t[5], "warm")))
			return bad(r, "timing takes CLOCK SYNC WARMUP RUNS L2 STAT (events|host 0|1 N N flush|warm median|first|mean)");
		if (get_int(r, t[2], 0, 1, &tm->sync) || get_int(r, t[3], -1, STAGE_TIMING_MAX_WARMUP, &tm->warmup) ||
		    get_int(r, t[4], 0, STAGE_TIMING_MAX_RUNS, &tm->runs)) return -1;
		tm->set = 1;
		tm->clock = (stage_timing_clock)ck;
		tm->stat = (stage_timing_stat)st;
		tm->l2_warm = !strcmp(t[5], "warm");
		return 0;
	}
	if (!strcmp(k, "check")) return n != 2 ? bad(r, "check takes 0 or 1") : get_int(r, t[1], 0, 1, &p->check);
	if (!strcmp(k, "tolerance"))
		return n != 5 ? bad(r, "tolerance takes EXACT REL ABS NORM")
		              : get_int(r, t[1], 0, 1, &p->exact) || get_dbl(r, t[2], &p->rel_tol) || get_dbl(r, t[3], &p->abs_tol) ||
		                        get_dbl(r, t[4], &p->norm_tol) ? -1 : 0;
	if (!strcmp(k, "compare")) {
		if (n != 2) return bad(r, "compare takes one buffer name");
		if (grow(r, p->ncompare, "compared outputs")) return -1;
		p->compare = xrealloc(p->compare, (size_t)(p->ncompare + 1) * sizeof *p->compare);
		return get_name(r, t[1], 256, &p->compare[p->ncompare++]);
	}
	if (!strcmp(k, "model")) {
		int64_t ws;
		if (n != 4) return bad(r, "model takes BYTES FLOPS WORKING_SET");
		if (get_dbl(r, t[1], &p->bytes) || get_dbl(r, t[2], &p->flops) || get_i64(r, t[3], 0, INT64_MAX, &ws)) return -1;
		p->working_set = ws;
		return 0;
	}
	if (!strcmp(k, "uses_occ")) return n != 2 ? bad(r, "uses_occ takes 0 or 1") : get_int(r, t[1], 0, 1, &p->uses_occ);
	if (!strcmp(k, "streams")) return n != 2 ? bad(r, "streams takes N") : get_int(r, t[1], 1, LESSON_MAX_STREAMS, &p->nstreams);
	if (!strcmp(k, "rdc")) return n != 2 ? bad(r, "rdc takes 0 or 1") : get_int(r, t[1], 0, 1, &p->rdc);
	if (!strcmp(k, "main")) return n != 2 ? bad(r, "main takes a step's index or -1") : get_int(r, t[1], -1, LESSON_MAX_STEPS - 1, &p->main_launch);
	if (!strcmp(k, "copied")) {
		if (n != 3) return bad(r, "copied takes H2D D2H (bytes)");
		if (get_dbl(r, t[1], &p->h2d_bytes) || get_dbl(r, t[2], &p->d2h_bytes)) return -1;
		return p->h2d_bytes >= 0 && p->d2h_bytes >= 0 ? 0 : bad(r, "copied bytes cannot be negative");
	}
	if (!strcmp(k, "copy")) return read_copy(r, t, n);
	if (!strcmp(k, "constant")) return read_constant(r, t, n);
	if (!strcmp(k, "var")) {
		if (n != 4 || (strcmp(t[2], "i") && strcmp(t[2], "f"))) return bad(r, "var takes NAME i|f VALUE");
		if (strlen(t[1]) >= sizeof p->vars[0].name) return bad(r, "a name of over %zu characters", sizeof p->vars[0].name - 1);
		if (grow(r, p->nvars, "variables")) return -1;
		expr_value v = { .kind = t[2][0] == 'i' ? EXPR_INT : EXPR_FLOAT };
		if (v.kind == EXPR_INT ? get_i64(r, t[3], INT64_MIN, INT64_MAX, &v.i) : get_dbl(r, t[3], &v.f)) return -1;
		p->vars = xrealloc(p->vars, (size_t)(p->nvars + 1) * sizeof *p->vars);
		strfmt(p->vars[p->nvars].name, sizeof p->vars[0].name, "%s", t[1]);
		p->vars[p->nvars++].v = v;
		return 0;
	}
	if (!strcmp(k, "params")) {
		if (n != 3 || get_int(r, t[1], 0, p->nvars, &p->first_param) || get_int(r, t[2], 0, p->nvars - p->first_param, &p->nparams))
			return n != 3 ? bad(r, "params takes FIRST N") : -1;
		return 0;
	}
	if (!strcmp(k, "buffer")) {
		if (n != 10) return bad(r, "a buffer has 10 fields, not %d", n);
		if (grow(r, p->nbuffers, "buffers")) return -1;
		if (p->nlaunches || p->nconstants) return bad(r, "a buffer after the steps or constants");
		if (buffer_named(p, t[1])) return bad(r, "buffer %s twice", t[1]);
		plan_buffer b = {0};
		int init, mem = 0;
		if (read_dtype(r, t[2], &b.type) || get_i64(r, t[3], 1, INT64_MAX / 16, &b.count) || get_int(r, t[4], 0, 1, &b.output) ||
		    get_int(r, t[5], 0, 1, &b.scratch) || get_int(r, t[6], INIT_NONE, INIT_CYCLE, &init) || get_dbl(r, t[7], &b.a) ||
		    get_dbl(r, t[8], &b.b) || read_word(r, t[9], memories, MEM_KIND_COUNT, "kind of memory", &mem))
			return -1;
		b.init = (lesson_init_kind)init;
		b.memory = (lesson_memory)mem;
		if (b.init == INIT_EXPR && b.count > LESSON_INIT_EXPR_MAX) return bad(r, "buffer %s: %lld values, over %d", t[1], (long long)b.count, LESSON_INIT_EXPR_MAX);
		if (b.memory != MEM_DEVICE && b.scratch) return bad(r, "scratch buffer %s in host memory", t[1]);
		if ((b.init == INIT_CSR_ROWS || b.init == INIT_CSR_COLS) && (b.type != DT_I32 || b.scratch))
			return bad(r, "CSR buffer %s is not a lesson's i32 buffer", t[1]);
		if (b.init == INIT_CSR_ROWS && (b.count - 1 > CSRGEN_MAX || !(b.a >= 0 && b.a <= CSRGEN_MAX) || !(b.b >= 1 && b.b <= CSRGEN_MAX) ||
		                                b.a != (double)(int64_t)b.a || b.b != (double)(int64_t)b.b || b.a > (double)(b.count - 1) * b.b))
			return bad(r, "CSR row pointer %s: %lld rows, nnz %s, cols %s", t[1], (long long)(b.count - 1), t[7], t[8]);
		if (b.init == INIT_CYCLE && (b.scratch || (b.count & (b.count - 1)) || b.count > (int64_t)1 << (b.type == DT_I32 ? 31 : LESSON_CYCLE_MAX_LOG2) ||
		                             (b.type != DT_I32 && b.type != DT_U32 && b.type != DT_I64 && b.type != DT_U64)))
			return bad(r, "cycle buffer %s: %lld elements of %s", t[1], (long long)b.count, t[2]);
		if (get_name(r, t[1], 256, &b.name)) return -1;
		p->buffers = xrealloc(p->buffers, (size_t)(p->nbuffers + 1) * sizeof *p->buffers);
		p->buffers[p->nbuffers++] = b;
		if (b.init == INIT_EXPR) r->want_values = &p->buffers[p->nbuffers - 1];
		return 0;
	}
	if (!strcmp(k, "skew")) {   /* skew NAME S: after a csr_rows buffer's line */
		if (n != 3) return bad(r, "skew takes BUFFER SKEW");
		plan_buffer *b = (plan_buffer *)buffer_named(p, t[1]);
		if (!b) return bad(r, "no buffer named '%s'", t[1]);
		if (b->init != INIT_CSR_ROWS) return bad(r, "skew for buffer %s, which is not csr_rows", t[1]);
		if (get_dbl(r, t[2], &b->skew)) return -1;
		if (!(b->skew >= 0 && b->skew < 1)) return bad(r, "skew %s is not from 0 up to 1", t[2]);
		return 0;
	}
	if (!strcmp(k, "pitch")) {   /* pitch NAME ROWS COLS SRC|-: after a device buffer's line */
		if (n != 5) return bad(r, "pitch takes BUFFER ROWS COLS SOURCE");
		plan_buffer *b = (plan_buffer *)buffer_named(p, t[1]);
		if (!b) return bad(r, "no buffer named '%s'", t[1]);
		if (b->memory != MEM_DEVICE || b->output || b->scratch || b->rows > 0) return bad(r, "pitch for buffer %s, which cannot be pitched", t[1]);
		if (get_i64(r, t[2], 1, INT64_MAX, &b->rows) || get_i64(r, t[3], 1, INT64_MAX, &b->cols)) return -1;
		if (b->rows > b->count / b->cols || b->rows * b->cols != b->count) return bad(r, "pitch %s: %s x %s is not its %lld elements", t[1], t[2], t[3], (long long)b->count);
		if (strcmp(t[4], "-")) {
			const plan_buffer *src = buffer_named(p, t[4]);
			if (!src || src == b || src->rows > 0 || src->output || src->count < b->count || src->type != b->type) return bad(r, "pitch %s: cannot copy from '%s'", t[1], t[4]);
			b->copy_of = src->name;
		}
		if ((b->init == INIT_COPY) != (b->copy_of != NULL) || (b->init != INIT_COPY && b->init != INIT_ZERO && b->init != INIT_NONE))
			return bad(r, "pitch %s: init %d does not go with its source", t[1], (int)b->init);
		return 0;
	}
	if (!strcmp(k, "from")) {   /* from NAME SRC: right after a packed copy buffer's line */
		if (n != 3) return bad(r, "from takes BUFFER SOURCE");
		plan_buffer *b = p->nbuffers ? &p->buffers[p->nbuffers - 1] : NULL;
		const plan_buffer *src = buffer_named(p, t[2]);
		if (!b || strcmp(b->name, t[1])) return bad(r, "from for buffer %s, which is not the last buffer", t[1]);
		if (b->init != INIT_COPY || b->rows > 0 || b->scratch || b->output || b->copy_of) return bad(r, "from for buffer %s, which is not a packed copy", t[1]);
		if (!src || src == b || src->rows > 0 || src->output || src->count < b->count || src->type != b->type) return bad(r, "from %s: cannot copy from '%s'", t[1], t[2]);
		b->copy_of = src->name;
		return 0;
	}
	if (!strcmp(k, "hot")) {   /* hot NAME SHARE: after a random buffer's line */
		if (n != 3) return bad(r, "hot takes BUFFER SHARE");
		plan_buffer *b = (plan_buffer *)buffer_named(p, t[1]);
		if (!b) return bad(r, "no buffer named '%s'", t[1]);
		if (b->init != INIT_RANDOM) return bad(r, "hot for buffer %s, which is not random", t[1]);
		if (get_dbl(r, t[2], &b->hot)) return -1;
		if (!(b->hot >= 0 && b->hot <= 1)) return bad(r, "hot %s is not a share from 0 to 1", t[2]);
		return 0;
	}
	if (!strcmp(k, "memset")) {
		if (n != 4) return bad(r, "memset takes BUFFER VALUE STREAM");
		if (grow(r, p->nlaunches, "launches")) return -1;
		const plan_buffer *b = buffer_named(p, t[1]);
		if (!b) return bad(r, "no buffer named '%s'", t[1]);
		if (b->memory != MEM_DEVICE) return bad(r, "memset of host buffer %s", t[1]);
		plan_launch L = { .kind = STEP_MEMSET, .buffer = b->name };
		if (get_int(r, t[2], 0, 255, &L.value) || get_int(r, t[3], 0, LESSON_MAX_STREAMS - 1, &L.stream)) return -1;
		p->launches = xrealloc(p->launches, (size_t)(p->nlaunches + 1) * sizeof *p->launches);
		p->launches[p->nlaunches++] = L;
		return 0;
	}
	if (!strcmp(k, "record") || !strcmp(k, "wait")) {   /* record|wait NAME EVENT STREAM: a wait's event recorded before it */
		if (n != 4) return bad(r, "%s takes NAME EVENT STREAM", k);
		if (grow(r, p->nlaunches, "launches")) return -1;
		plan_launch L = { .kind = !strcmp(k, "record") ? STEP_RECORD : STEP_WAIT };
		if (get_int(r, t[2], 0, LESSON_MAX_EVENTS - 1, &L.event) || get_int(r, t[3], 0, LESSON_MAX_STREAMS - 1, &L.stream) ||
		    get_name(r, t[1], 64, &L.entry)) return -1;
		int recorded = 0;
		for (int i = 0; i < p->nlaunches && !recorded; i++) recorded = p->launches[i].kind == STEP_RECORD && p->launches[i].event == L.event;
		if (L.kind == STEP_WAIT && !recorded) return bad(r, "wait for event %d, which no step before it records", L.event);
		p->launches = xrealloc(p->launches, (size_t)(p->nlaunches + 1) * sizeof *p->launches);
		p->launches[p->nlaunches++] = L;
		return 0;
	}
	if (!strcmp(k, "launch")) return read_launch(r, t, n);
	if (!strcmp(k, "library")) return read_library(r, t, n);
	if (!strcmp(k, "arg")) return bad(r, "an arg line with no launch waiting for it");
	return bad(r, "'%s' is not part of a plan", k);
}

int plan_wire_read(plan *p, const char *text, size_t len, char *err, size_t errlen)
{
	memset(p, 0, sizeof *p);
	p->timing = stage_timing_default();
	p->stage = -2;
	p->main_launch = -1;
	rd r = { p, 0, err, errlen, NULL, 0, NULL };
	if (memchr(text, 0, len)) return bad(&r, "a NUL byte in the text");
	char *buf = xmalloc(len + 1);
	memcpy(buf, text, len);
	buf[len] = 0;
	int rc = -1, ended = 0;
	char *save = NULL;
	for (char *line = buf, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next) *next++ = 0;
		r.line++;
		if (ended) { bad(&r, "text after the end"); goto out; }
		if (r.line == 1) {
			if (strcmp(line, "plan 2")) { bad(&r, "not a plan of this version (\"plan 2\")"); goto out; }
			continue;
		}
		if (!strncmp(line, "values ", 7)) {
			if (read_values(&r, line)) goto out;
			continue;
		}
		if (!strcmp(line, "end")) {
			if (r.want_values) { bad(&r, "buffer %s wants its values line", r.want_values->name); goto out; }
			if (r.args_left) { bad(&r, "launch %s wants %d more arg lines", r.open->entry, r.args_left); goto out; }
			ended = 1;
			continue;
		}
		const char *rest = strchr(line, ' ') ? strchr(line, ' ') + 1 : "";
		char *t[MAX_TOKENS + 1];
		int n = 0;
		char *copy = xstrdup(line);
		for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
			if (n == MAX_TOKENS) { free(copy); bad(&r, "too many fields"); goto out; }
			t[n++] = tok;
		}
		int bad_line = n == 0 ? bad(&r, "an empty line") : read_line(&r, t, n, rest);
		free(copy);
		if (bad_line) goto out;
	}
	if (!ended) { r.line++; bad(&r, "the text ends before \"end\""); goto out; }
	if (p->stage < -1) { bad(&r, "no stage"); goto out; }
	if (p->stage == -1 && p->nlaunches != 1) { bad(&r, "a baseline has one library call, not %d", p->nlaunches); goto out; }
	if (p->first_param + p->nparams > p->nvars) { bad(&r, "params past the variables"); goto out; }
	for (int i = 0; i < p->nbuffers; i++)
		if (p->buffers[i].init == INIT_COPY && !p->buffers[i].copy_of) { bad(&r, "buffer %s is a copy of nothing", p->buffers[i].name); goto out; }
	if (!p->nstreams) p->nstreams = 1;
	if (p->main_launch >= p->nlaunches || (p->main_launch >= 0 && p->launches[p->main_launch].kind != STEP_LAUNCH)) {
		bad(&r, "main names step %d, which is not a kernel launch of the %d steps", p->main_launch + 1, p->nlaunches);
		goto out;
	}
	for (int i = 0; i < p->nlaunches; i++)
		if (p->launches[i].stream >= p->nstreams) { bad(&r, "step %d runs on stream %d of %d", i + 1, p->launches[i].stream, p->nstreams); goto out; }
	rc = 0;
out:
	free(buf);
	return rc;
}
