/* The lesson's parameters: defaults, ranges, halving and doubling, settings. See tui_param.h. Every
 * value is evaluated and checked by plan.c (plan_param_info_get, plan_param_value): no rules here. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tui_param.h"
#include "util.h"

int param_defaults(const lesson *l, const plan_device *d, expr_value *pv, char *err, size_t errlen)
{
	for (int i = 0; i < l->nparams; i++) {
		plan_param_info pi;
		if (plan_param_info_get(l, d, pv, i, &pi, err, errlen) != 0)
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
	plan_param_info pi;
	char err[200];
	return plan_param_info_get(l, d, pv, i, &pi, err, sizeof err) != 0 || same(pv[i], pi.def);
}

void param_set(const lesson *l, const plan_device *d, expr_value *pv, int i, expr_value v)
{
	char *follow = xcalloc((size_t)l->nparams + 1, 1), err[200];
	for (int j = i + 1; j < l->nparams; j++)   /* judged with the old values */
		follow[j] = (char)param_is_default(l, d, pv, j);
	pv[i] = v;
	for (int j = i + 1; j < l->nparams; j++) {
		plan_param_info pi;
		if (follow[j] && plan_param_info_get(l, d, pv, j, &pi, err, sizeof err) == 0)
			pv[j] = pi.def;
	}
	free(follow);
}

int param_step(const lesson *l, const plan_device *d, const expr_value *pv, int i, int dir,
               expr_value *out)
{
	plan_param_info pi;
	char err[200];
	if (l->params[i].type != DT_I64 || plan_param_info_get(l, d, pv, i, &pi, err, sizeof err) != 0)
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
	char err[200];
	if (!text || !*text)
		return -1;
	return plan_param_value(l, d, pv, i, text, out, err, sizeof err);
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

char *param_range_text(const plan_param_info *pi, char *buf, size_t len)
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
