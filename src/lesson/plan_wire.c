/* plan_wire: a plan to text and back; see plan_wire.h. */
#include "plan_wire.h"
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

static void put_arg(sb *b, const plan_arg *a)
{
	sb_add(b, "arg");
	put_name(b, a->name);
	if (a->kind == ARG_BUFFER) {
		sb_add(b, " buffer");
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
	sb_addf(b, "plan 1\nstage %d\nlesson ", p->stage);
	for (const char *c = p->lesson_path ? p->lesson_path : ""; *c; c++) sb_addf(b, "%c", *c == '\n' ? '?' : *c);
	sb_addf(b, "\npeak %s\ncheck %d\ntolerance %d %.17g %.17g\n", peak_name(p->peak), p->check, p->exact, p->rel_tol, p->abs_tol);
	for (int i = 0; i < p->ncompare; i++) { sb_add(b, "compare"); put_name(b, p->compare[i]); sb_add(b, "\n"); }
	sb_addf(b, "model %.17g %.17g %lld\nuses_occ %d\n", p->bytes, p->flops, (long long)p->working_set, p->uses_occ);
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
		sb_addf(b, " %s %lld %d %d %d %.17g %.17g\n", lesson_dtype_name(x->type), (long long)x->count, x->output, x->scratch,
		        (int)x->init, x->a, x->b);
	}
	for (int i = 0; i < p->nlaunches; i++) {
		const plan_launch *L = &p->launches[i];
		if (L->kind == STEP_MEMSET) {
			sb_add(b, "memset");
			put_name(b, L->buffer);
			sb_addf(b, " %d\n", L->value);
			continue;
		}
		sb_add(b, "launch");
		put_name(b, L->entry);
		sb_addf(b, " %u %u %u %u %u %u %zu %d\n", L->grid[0], L->grid[1], L->grid[2], L->block[0], L->block[1], L->block[2],
		        L->shared, L->nargs);
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

static int read_arg(rd *r, char **t, int n)
{
	plan_arg *a = &r->open->args[r->open->nargs - r->args_left];
	const plan *p = r->p;
	if (n < 4) return bad(r, "an arg needs a name, a kind and what it passes");
	if (strcmp(t[1], "-") && get_name(r, t[1], 64, &a->name)) return -1;
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

static int read_launch(rd *r, char **t, int n)
{
	plan *p = r->p;
	if (n != 10) return bad(r, "a launch has 10 fields, not %d", n);
	if (grow(r, p->nlaunches, "launches")) return -1;
	plan_launch L = { .kind = STEP_LAUNCH };
	int64_t v[8];
	/* A kernel's grid and block are at least 1; a baseline's library call has none (all 0). */
	for (int i = 0; i < 6; i++) if (get_i64(r, t[2 + i], p->stage >= 0, i == 0 ? 2147483647 : 65535, &v[i])) return -1;
	if (get_i64(r, t[8], 0, INT32_MAX, &v[6]) || get_i64(r, t[9], 0, 1024, &v[7])) return -1;
	if (get_name(r, t[1], 256, &L.entry)) return -1;
	for (int d = 0; d < 3; d++) { L.grid[d] = (unsigned)v[d]; L.block[d] = (unsigned)v[3 + d]; }
	L.shared = (size_t)v[6];
	L.nargs = (int)v[7];
	L.args = xcalloc((size_t)L.nargs + 1, sizeof *L.args);
	p->launches = xrealloc(p->launches, (size_t)(p->nlaunches + 1) * sizeof *p->launches);
	p->launches[p->nlaunches++] = L;
	r->open = &p->launches[p->nlaunches - 1];
	r->args_left = L.nargs;
	return 0;
}

/* One line of n tokens t. */
static int read_line(rd *r, char **t, int n, const char *rest)
{
	plan *p = r->p;
	const char *k = t[0];
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
	if (!strcmp(k, "check")) return n != 2 ? bad(r, "check takes 0 or 1") : get_int(r, t[1], 0, 1, &p->check);
	if (!strcmp(k, "tolerance"))
		return n != 4 ? bad(r, "tolerance takes EXACT REL ABS")
		              : get_int(r, t[1], 0, 1, &p->exact) || get_dbl(r, t[2], &p->rel_tol) || get_dbl(r, t[3], &p->abs_tol) ? -1 : 0;
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
		if (n != 9) return bad(r, "a buffer has 9 fields, not %d", n);
		if (grow(r, p->nbuffers, "buffers")) return -1;
		if (buffer_named(p, t[1])) return bad(r, "buffer %s twice", t[1]);
		plan_buffer b = {0};
		int init;
		if (read_dtype(r, t[2], &b.type) || get_i64(r, t[3], 1, INT64_MAX / 16, &b.count) || get_int(r, t[4], 0, 1, &b.output) ||
		    get_int(r, t[5], 0, 1, &b.scratch) || get_int(r, t[6], INIT_NONE, INIT_ZERO, &init) || get_dbl(r, t[7], &b.a) ||
		    get_dbl(r, t[8], &b.b) || get_name(r, t[1], 256, &b.name))
			return -1;
		b.init = (lesson_init_kind)init;
		p->buffers = xrealloc(p->buffers, (size_t)(p->nbuffers + 1) * sizeof *p->buffers);
		p->buffers[p->nbuffers++] = b;
		return 0;
	}
	if (!strcmp(k, "memset")) {
		if (n != 3) return bad(r, "memset takes BUFFER VALUE");
		if (grow(r, p->nlaunches, "launches")) return -1;
		const plan_buffer *b = buffer_named(p, t[1]);
		if (!b) return bad(r, "no buffer named '%s'", t[1]);
		plan_launch L = { .kind = STEP_MEMSET, .buffer = b->name };
		if (get_int(r, t[2], 0, 255, &L.value)) return -1;
		p->launches = xrealloc(p->launches, (size_t)(p->nlaunches + 1) * sizeof *p->launches);
		p->launches[p->nlaunches++] = L;
		return 0;
	}
	if (!strcmp(k, "launch")) return read_launch(r, t, n);
	if (!strcmp(k, "arg")) return bad(r, "an arg line with no launch waiting for it");
	return bad(r, "'%s' is not part of a plan", k);
}

int plan_wire_read(plan *p, const char *text, size_t len, char *err, size_t errlen)
{
	memset(p, 0, sizeof *p);
	p->stage = -2;
	rd r = { p, 0, err, errlen, NULL, 0 };
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
			if (strcmp(line, "plan 1")) { bad(&r, "not a plan of this version (\"plan 1\")"); goto out; }
			continue;
		}
		if (!strcmp(line, "end")) {
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
	rc = 0;
out:
	free(buf);
	return rc;
}
