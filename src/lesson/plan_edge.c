/* plan_edge: the edge sizes a stage is planned at by check (n = 1, a prime, the exercise sizes), so
 * that a count or grid that goes wrong away from the default shows without a GPU; see plan.h. */
#include "plan.h"
#include <stdio.h>
#include <string.h>
#include "util.h"

static int is_prime(int64_t v)
{
	if (v < 2) return 0;
	for (int64_t d = 2; d * d <= v; d++) if (v % d == 0) return 0;
	return 1;
}

/* The largest prime in [lo, hi], or lo when there is none. */
static int64_t prime_below(int64_t lo, int64_t hi)
{
	for (int64_t v = hi; v >= lo && v >= 2; v--) if (is_prime(v)) return v;
	return lo;
}

/* One edge: every integer parameter at pick(lo, def, hi), each inside the range the ones before give. */
static int edge_of(const lesson *l, const plan_device *dev, int prime, plan_edge *e)
{
	expr_value pv[64];
	char err[256];
	memset(e, 0, sizeof *e);
	if (l->nparams > 64) return -1;
	for (int i = 0; i < l->nparams; i++) {
		plan_param_info in;
		if (plan_param_info_get(l, dev, pv, i, &in, err, sizeof err)) return -1;
		pv[i] = in.def;
		if (l->params[i].type != DT_I64) continue;
		int64_t lo = in.has_lo ? in.lo.i : 1, hi = in.has_hi ? in.hi.i : INT64_MAX, def = in.def.i;
		if (lo > def) lo = def;
		if (hi < def) hi = def;
		int64_t v = prime ? prime_below(lo, def < 1000003 ? def : 1000003) : lo;
		if (v < lo || v > hi) v = def;
		pv[i].i = v;
		if (e->nsets == 16) continue;
		plan_setting *s = &e->sets[e->nsets++];
		strfmt(s->name, sizeof s->name, "%s", l->params[i].name);
		strfmt(s->value, sizeof s->value, "%lld", (long long)v);
		size_t n = strlen(e->what);
		strfmt(e->what + n, sizeof e->what - n, "%s%s=%lld", n ? ", " : "", s->name, (long long)v);
	}
	return e->nsets ? 0 : -1;
}

static int same_edge(const plan_edge *a, const plan_edge *b)
{
	return !strcmp(a->what, b->what);
}

int plan_edge_sizes(const lesson *l, int stage, const plan_device *dev, plan_edge *out, int max)
{
	int n = 0;
	for (int prime = 0; prime <= 1 && n < max; prime++) {
		plan_edge e;
		if (edge_of(l, dev, prime, &e)) continue;
		int dup = 0;
		for (int k = 0; k < n; k++) dup |= same_edge(&out[k], &e);
		if (!dup) out[n++] = e;
	}
	const lesson_exercise *x = stage >= 0 && stage < l->nstages ? l->stages[stage].exercise : NULL;
	for (int i = 0; x && i < x->nsizes && n < max; i++) {
		plan_edge *e = &out[n];
		memset(e, 0, sizeof *e);
		e->strict = 1;
		for (int k = 0; k < x->sizes[i].n && e->nsets < 16; k++) {
			plan_setting *s = &e->sets[e->nsets++];
			strfmt(s->name, sizeof s->name, "%s", x->sizes[i].names[k]);
			strfmt(s->value, sizeof s->value, "%s", x->sizes[i].values[k]);
			size_t w = strlen(e->what);
			strfmt(e->what + w, sizeof e->what - w, "%s%s=%s", w ? ", " : "", s->name, s->value);
		}
		n++;
	}
	return n;
}

int plan_edges(const lesson *l, int stage, const plan_setting *sets, int nsets, const plan_device *dev, char *err, size_t errlen)
{
	plan_edge edges[PLAN_MAX_EDGES];
	int ne = plan_edge_sizes(l, stage, dev, edges, PLAN_MAX_EDGES);
	for (int k = 0; k < ne; k++) {
		plan_setting with[16];
		int n = 0;
		for (int i = 0; i < edges[k].nsets; i++) with[n++] = edges[k].sets[i];
		for (int i = 0; i < nsets && n < 16; i++) {   /* the run's own settings, where the edge leaves them */
			int taken = 0;
			for (int j = 0; j < edges[k].nsets; j++) taken |= !strcmp(edges[k].sets[j].name, sets[i].name);
			if (!taken) with[n++] = sets[i];
		}
		plan p;
		char msg[1024];
		int rc = plan_make(&p, l, stage, with, n, dev, msg, sizeof msg);
		int skip = rc && p.refused_setting && !edges[k].strict;
		plan_free(&p);
		if (!rc || skip) continue;
		strfmt(err, errlen, "%s (at %s)", msg, edges[k].what);
		return -1;
	}
	return 0;
}
