/* plan_fit: when a plan is refused, the nearest single tunable value that fits, and plan_make for a
 * run with defaults that do not fit this GPU adjusted. See plan.h. */
#include "plan.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

typedef struct { const lesson_tunable *t; int order; int64_t v; double dist; } fit_cand;

/* Nearest first (relative distance), then the tunable declared first, then the smaller value. */
static int cmp_cand(const void *a, const void *b)
{
	const fit_cand *x = a, *y = b;
	if (x->dist != y->dist) return x->dist < y->dist ? -1 : 1;
	if (x->order != y->order) return x->order - y->order;
	return x->v < y->v ? -1 : x->v > y->v;
}

static const plan_setting *setting_named(const plan_setting *sets, int n, const char *name)
{
	for (int i = 0; i < n; i++) if (!strcmp(sets[i].name, name)) return &sets[i];
	return NULL;
}

/* Whether sets with NAME=v in place (or added) plan. */
static int fits_with(const lesson *l, int stage, const plan_setting *sets, int nsets, const plan_device *dev,
                     const char *name, int64_t v)
{
	plan_setting with[17];
	int n = 0;
	for (int i = 0; i < nsets && n < 16; i++) if (strcmp(sets[i].name, name)) with[n++] = sets[i];
	strfmt(with[n].name, sizeof with[n].name, "%s", name);
	strfmt(with[n].value, sizeof with[n].value, "%lld", (long long)v);
	plan p;
	char err[64];
	int ok = plan_make(&p, l, stage, with, n + 1, dev, err, sizeof err) == 0;
	plan_free(&p);
	return ok;
}

/* Tunable i's current value: the one the sets give (-1 when it is not among the allowed), else its
 * default on dev (-1 when that is not among them either). */
static int current_value(const lesson *l, const lesson_stage *st, int i, const plan_device *dev, const plan_setting *s, int64_t *cur)
{
	const lesson_tunable *t = &st->tunables[i];
	char err[64];
	if (!s) return plan_tunable_default(l, st, i, dev, cur, err, sizeof err);
	expr *e = expr_parse(s->value, NULL);
	expr_value v;
	int bad = !e || expr_eval(e, NULL, NULL, &v, NULL) || v.kind != EXPR_INT;
	expr_free(e);
	int ok = 0;
	for (int k = 0; !bad && k < t->nvalues; k++) ok |= t->values[k] == v.i;
	if (!ok) return -1;
	*cur = v.i;
	return 0;
}

/* Every other value of the stage's tunables that the sets name (named) or leave alone (!named), into
 * c (grown); returns the count, or -1 when a named tunable's value is not allowed. */
static int candidates(const lesson *l, const lesson_stage *s, const plan_setting *sets, int nsets, const plan_device *dev,
                      int named, fit_cand **c)
{
	int n = 0;
	for (int i = 0; i < s->ntunables; i++) {
		const lesson_tunable *t = &s->tunables[i];
		const plan_setting *set = setting_named(sets, nsets, t->name);
		int64_t cur;
		if ((set != NULL) != named) continue;
		if (current_value(l, s, i, dev, set, &cur)) return -1;
		*c = xrealloc(*c, (size_t)(n + t->nvalues + 1) * sizeof **c);
		for (int k = 0; k < t->nvalues; k++)
			if (t->values[k] != cur)
				(*c)[n++] = (fit_cand){ t, i, t->values[k], fabs((double)(t->values[k] - cur)) / fmax(fabs((double)cur), 1) };
	}
	return n;
}

int plan_fit_find(const lesson *l, int stage, const plan_setting *sets, int nsets, const plan_device *dev, plan_setting *fix)
{
	if (stage < 0 || stage >= l->nstages) return -1;
	if (plan_setting_twice(sets, nsets) >= 0) return -1;   /* a name given twice is the error, whatever value would fit */
	int found = -1;
	for (int named = 1; named >= 0 && found < 0; named--) {
		fit_cand *c = NULL;
		int n = candidates(l, &l->stages[stage], sets, nsets, dev, named, &c);
		if (n > 0) qsort(c, (size_t)n, sizeof *c, cmp_cand);
		for (int k = 0; k < n && found < 0; k++) {
			if (!fits_with(l, stage, sets, nsets, dev, c[k].t->name, c[k].v)) continue;
			strfmt(fix->name, sizeof fix->name, "%s", c[k].t->name);
			strfmt(fix->value, sizeof fix->value, "%lld", (long long)c[k].v);
			found = 0;
		}
		free(c);
		if (n < 0) break;
	}
	return found;
}

/* The stage's own defaults do not fit dev, and the sets leave every tunable at its default. */
static int defaults_refused(const lesson *l, int stage, const plan_setting *sets, int nsets, const plan_device *dev)
{
	const lesson_stage *s = &l->stages[stage];
	for (int i = 0; i < s->ntunables; i++) if (setting_named(sets, nsets, s->tunables[i].name)) return 0;
	plan p;
	char err[64];
	int refused = plan_make(&p, l, stage, NULL, 0, dev, err, sizeof err) != 0;
	plan_free(&p);
	return refused;
}

int plan_fit_make(plan *p, const lesson *l, int stage, plan_setting *sets, int *nsets, int max, const plan_device *dev,
                  char *adjusted, size_t alen, char *err, size_t errlen)
{
	if (alen) adjusted[0] = 0;
	if (!plan_make(p, l, stage, sets, *nsets, dev, err, errlen)) return 0;
	plan_setting fix;
	if (plan_fit_find(l, stage, sets, *nsets, dev, &fix)) return -1;
	if (*nsets < max && defaults_refused(l, stage, sets, *nsets, dev)) {
		plan_free(p);
		sets[(*nsets)++] = fix;
		strfmt(adjusted, alen, "%s=%s", fix.name, fix.value);
		return plan_make(p, l, stage, sets, *nsets, dev, err, errlen);
	}
	size_t n = strlen(err);
	strfmt(err + n, errlen - n, " (%s=%s fits)", fix.name, fix.value);
	return -1;
}
