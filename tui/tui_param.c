/* The lesson's parameters: defaults, ranges, halving and doubling, settings. See tui_param.h. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tui_param.h"

/* What an expression of parameter n may name: the device values and parameters 0..n-1. */
typedef struct { const lesson *l; const plan_device *d; const expr_value *pv; int n; } scope;

static int lookup(void *ctx, const char *name, size_t len, expr_value *out)
{
	const scope *s = ctx;
	const struct { const char *name; int64_t v; } dev[] = {
		{ "sm_count", s->d->sm_count }, { "l2_bytes", s->d->l2_bytes },
		{ "warp_size", s->d->warp_size }, { "max_threads_per_block", s->d->max_threads_per_block },
		{ "max_shared_per_block", s->d->max_shared_per_block }, { "cc", s->d->cc },
	};
	for (int i = s->n - 1; i >= 0; i--)
		if (strlen(s->l->params[i].name) == len && !memcmp(s->l->params[i].name, name, len)) {
			*out = s->pv[i];
			return 0;
		}
	for (size_t i = 0; i < sizeof dev / sizeof *dev; i++)
		if (strlen(dev[i].name) == len && !memcmp(dev[i].name, name, len)) {
			*out = (expr_value){ .kind = EXPR_INT, .i = dev[i].v };
			return 0;
		}
	return -1;
}

/* v in the kind of parameter p: an int64 unless it is a float parameter. */
static expr_value as_kind(const lesson_param *p, expr_value v)
{
	if (p->type == DT_I64)
		return (expr_value){ .kind = EXPR_INT, .i = expr_as_int(v) };
	return (expr_value){ .kind = EXPR_FLOAT, .f = expr_as_double(v) };
}

static int eval(const scope *s, const lesson_param *p, const lesson_expr *e, expr_value *out,
                char *err, size_t errlen)
{
	expr_error ee;
	if (expr_eval(e->e, lookup, (void *)s, out, &ee) != 0) {
		snprintf(err, errlen, "%s: %s", p->name, ee.msg);
		return -1;
	}
	*out = as_kind(p, *out);
	return 0;
}

int param_info_get(const lesson *l, const plan_device *d, const expr_value *pv, int i,
                   param_info *out, char *err, size_t errlen)
{
	const lesson_param *p = &l->params[i];
	scope s = { l, d, pv, i };
	memset(out, 0, sizeof *out);
	out->has_lo = p->min.e != NULL;
	out->has_hi = p->max.e != NULL;
	if (eval(&s, p, &p->def, &out->def, err, errlen) != 0)
		return -1;
	if (out->has_lo && eval(&s, p, &p->min, &out->lo, err, errlen) != 0)
		return -1;
	if (out->has_hi && eval(&s, p, &p->max, &out->hi, err, errlen) != 0)
		return -1;
	return 0;
}

int param_defaults(const lesson *l, const plan_device *d, expr_value *pv, char *err, size_t errlen)
{
	for (int i = 0; i < l->nparams; i++) {
		param_info pi;
		if (param_info_get(l, d, pv, i, &pi, err, errlen) != 0)
			return -1;
		pv[i] = pi.def;
	}
	return 0;
}

static int same(expr_value a, expr_value b)
{
	return a.kind == EXPR_INT && b.kind == EXPR_INT ? a.i == b.i : expr_as_double(a) == expr_as_double(b);
}

int param_is_default(const lesson *l, const plan_device *d, const expr_value *pv, int i)
{
	param_info pi;
	char err[200];
	return param_info_get(l, d, pv, i, &pi, err, sizeof err) != 0 || same(pv[i], pi.def);
}

void param_set(const lesson *l, const plan_device *d, expr_value *pv, int i, expr_value v)
{
	char *follow = calloc((size_t)l->nparams + 1, 1), err[200];
	for (int j = i + 1; follow && j < l->nparams; j++)   /* judged with the old values */
		follow[j] = (char)param_is_default(l, d, pv, j);
	pv[i] = v;
	for (int j = i + 1; follow && j < l->nparams; j++) {
		param_info pi;
		if (follow[j] && param_info_get(l, d, pv, j, &pi, err, sizeof err) == 0)
			pv[j] = pi.def;
	}
	free(follow);
}

int param_step(const lesson *l, const plan_device *d, const expr_value *pv, int i, int dir,
               expr_value *out)
{
	param_info pi;
	char err[200];
	if (l->params[i].type != DT_I64 || param_info_get(l, d, pv, i, &pi, err, sizeof err) != 0)
		return -1;
	int64_t v = pv[i].i, n;
	if (dir < 0)
		n = v / 2;
	else if (v == 0)
		n = 1;
	else
		n = v > INT64_MAX / 2 ? INT64_MAX : v < INT64_MIN / 2 ? INT64_MIN : v * 2;
	if (pi.has_hi && n > pi.hi.i) n = pi.hi.i;
	if (pi.has_lo && n < pi.lo.i) n = pi.lo.i;
	if (n == v)
		return -1;
	*out = (expr_value){ .kind = EXPR_INT, .i = n };
	return 0;
}

int param_parse(const lesson *l, const plan_device *d, const expr_value *pv, int i, const char *text,
                expr_value *out)
{
	const lesson_param *p = &l->params[i];
	param_info pi;
	char err[200], *end;
	expr_value v;
	if (!text || !*text)
		return -1;
	if (p->type == DT_I64)
		v = (expr_value){ .kind = EXPR_INT, .i = strtoll(text, &end, 10) };
	else
		v = (expr_value){ .kind = EXPR_FLOAT, .f = strtod(text, &end) };
	if (*end || !isfinite(expr_as_double(v)) || param_info_get(l, d, pv, i, &pi, err, sizeof err) != 0)
		return -1;
	if ((pi.has_lo && expr_as_double(v) < expr_as_double(pi.lo)) ||
	    (pi.has_hi && expr_as_double(v) > expr_as_double(pi.hi)))
		return -1;
	*out = v;
	return 0;
}

int param_sets(const lesson *l, const plan_device *d, const expr_value *pv, int ot, const char *ov,
               plan_setting *sets, int cap)
{
	int n = 0;
	for (int i = 0; i < l->nparams; i++) {
		if (i != ot && param_is_default(l, d, pv, i))
			continue;
		if (n == cap)
			return -1;
		snprintf(sets[n].name, sizeof sets[n].name, "%s", l->params[i].name);
		if (i == ot)
			snprintf(sets[n].value, sizeof sets[n].value, "%s", ov);
		else
			expr_format(pv[i], sets[n].value, sizeof sets[n].value);
		n++;
	}
	return n;
}

/* A bound: decimal, or 2^k for a power of two of 2^16 and more. */
static void bound(expr_value v, char *buf, size_t len)
{
	if (v.kind == EXPR_INT && v.i >= 65536 && (v.i & (v.i - 1)) == 0) {
		int k = 0;
		while ((INT64_C(1) << k) != v.i) k++;
		snprintf(buf, len, "2^%d", k);
		return;
	}
	expr_format(v, buf, len);
}

char *param_range_text(const param_info *pi, char *buf, size_t len)
{
	char lo[32] = "", hi[32] = "";
	if (pi->has_lo) bound(pi->lo, lo, sizeof lo);
	if (pi->has_hi) bound(pi->hi, hi, sizeof hi);
	if (pi->has_lo || pi->has_hi)
		snprintf(buf, len, "%s..%s", lo, hi);
	else if (len)
		buf[0] = 0;
	return buf;
}
