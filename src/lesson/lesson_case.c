/* lesson_case: the lesson's cases: (see lesson_case.h): read and checked at load, each error at its
 * file:line:col; applied to a run's settings; found by name. */
#include "lesson_case.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "lesson_yaml.h"
#include "util.h"

#define CASE_HELP_MAX 200   /* characters of a case's help */

int lesson_case_is_default(const char *name) { return name && !strcasecmp(name, "default"); }

int lesson_case_find(const lesson *l, const char *name)
{
	for (int i = 0; l && name && i < l->ncases; i++) if (!strcasecmp(l->cases[i].name, name)) return i;
	return -1;
}

void lesson_case_suggest(const lesson *l, const char *typed, char *out, size_t len)
{
	const char *names[64];
	int n = 0;
	for (int i = 0; i < l->ncases && n < 64; i++) names[n++] = l->cases[i].name;
	char near[128];
	util_suggest_name(typed, names, n, near, sizeof near);
	sb b = {0};
	for (int i = 0; i < l->ncases; i++) sb_addf(&b, "%s%s", i ? ", " : "", l->cases[i].name);
	if (l->ncases) strfmt(out, len, "%s (its cases: %s, or default)", near, b.s);
	else strfmt(out, len, " (%s has no cases)", l->id);
	sb_free(&b);
}

int lesson_case_value(const lesson_case *k, int i, double *out)
{
	if (!k || i < 0 || i >= k->n) return -1;
	expr *e = expr_parse(k->values[i], NULL);
	expr_value v;
	int rc = e ? expr_eval(e, NULL, NULL, &v, NULL) : -1;
	expr_free(e);
	if (!rc) *out = expr_as_double(v);
	return rc;
}

void lesson_case_describe(const lesson_case *k, char *out, size_t len)
{
	out[0] = 0;
	for (int i = 0; k && i < k->n; i++) {
		size_t u = strlen(out);
		strfmt(out + u, len - u, "%s%s=%s", i ? " " : "", k->names[i], k->values[i]);
	}
}

int lesson_case_merge(const lesson *l, int k, int stage, plan_setting *sets, int n, int max)
{
	if (!l || k < 0 || k >= l->ncases) return n;
	const lesson_case *cs = &l->cases[k];
	for (int i = 0; i < cs->n; i++) {
		int given = 0;
		for (int j = 0; j < n && !given; j++) given = !strcmp(sets[j].name, cs->names[i]);
		int applies = stage == LESSON_CASE_ALL_STAGES || lesson_find_param(l, cs->names[i]) ||
		              (stage >= 0 && stage < l->nstages && lesson_find_tunable(&l->stages[stage], cs->names[i]));
		if (given || !applies) continue;
		if (n >= max) return -1;
		memset(&sets[n], 0, sizeof sets[n]);
		strfmt(sets[n].name, sizeof sets[n].name, "%s", cs->names[i]);
		strfmt(sets[n].value, sizeof sets[n].value, "%s", cs->values[i]);
		n++;
	}
	return n;
}

/* ---- loading ---- */

/* What a parameter's range sees at load: the case's values, else the parameters' defaults; a device
 * value is not known (the range is then left to the run). */
typedef struct { const lesson *l; const lesson_case *k; int depth; } range_ctx;

static int range_lookup(void *ctx, const char *name, size_t len, expr_value *out)
{
	range_ctx *r = ctx;
	if (len > LESSON_NAME_MAX || r->depth > 32) return -1;
	char buf[LESSON_NAME_MAX + 1];
	memcpy(buf, name, len);
	buf[len] = 0;
	for (int i = 0; i < r->k->n; i++)
		if (!strcmp(r->k->names[i], buf)) {
			double v;
			if (lesson_case_value(r->k, i, &v)) return -1;
			*out = v == floor(v) && fabs(v) < 9e15 ? (expr_value){ EXPR_INT, (int64_t)v, 0 } : (expr_value){ EXPR_FLOAT, 0, v };
			return 0;
		}
	const lesson_param *p = lesson_find_param(r->l, buf);
	if (!p || !p->def.e) return -1;
	r->depth++;
	int rc = expr_eval(p->def.e, range_lookup, r, out, NULL);
	r->depth--;
	return rc;
}

/* Setting i of case k against parameter p: a whole number for an integer one, inside its range where
 * the range is known without a GPU. */
static int check_param(ld *c, yaml_node_t *vn, const lesson_case *k, int i, const lesson_param *p)
{
	double v;
	if (lesson_case_value(k, i, &v)) return yd_fail(&c->y, vn, "case %s: %s = '%s' cannot be evaluated", k->name, p->name, k->values[i]);
	if (p->type == DT_I64 && v != floor(v))
		return yd_fail(&c->y, vn, "case %s: %s takes whole numbers, not %s", k->name, p->name, k->values[i]);
	range_ctx r = { c->l, k, 0 };
	expr_value lo, hi;
	int has_lo = p->min.e && !expr_eval(p->min.e, range_lookup, &r, &lo, NULL);
	int has_hi = p->max.e && !expr_eval(p->max.e, range_lookup, &r, &hi, NULL);
	if ((has_lo && v < expr_as_double(lo)) || (has_hi && v > expr_as_double(hi))) {
		char a[32] = "-", b[32] = "-";
		if (has_lo) expr_format(lo, a, sizeof a);
		if (has_hi) expr_format(hi, b, sizeof b);
		return yd_fail(&c->y, vn, "case %s: %s = %s is outside its range [%s, %s]", k->name, p->name, k->values[i], a, b);
	}
	return 0;
}

/* One case: NAME: { help: TEXT, PARAM: VALUE, TUNABLE: VALUE, ... }. */
static int parse_case(ld *c, yaml_node_t *kn, yaml_node_t *v, lesson_case *k)
{
	const char *name = yd_scalar(&c->y, kn, "a case name");
	if (!name) return -1;
	k->at.line = (int)kn->start_mark.line + 1;
	k->at.col = (int)kn->start_mark.column + 1;
	if (strlen(name) > LESSON_CASE_NAME_MAX)
		return yd_fail(&c->y, kn, "case name '%.24s...' is %zu characters long (at most %d)", name, strlen(name), LESSON_CASE_NAME_MAX);
	if (!lesson_is_ident(name)) return yd_fail(&c->y, kn, "case name '%s' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)", name);
	if (lesson_case_is_default(name)) return yd_fail(&c->y, kn, "case name 'default' is taken: it names the lesson's own settings");
	for (int j = 0; j < c->l->ncases && &c->l->cases[j] != k; j++)   /* the cases before this one */
		if (!strcasecmp(c->l->cases[j].name, name)) return yd_fail(&c->y, kn, "case name '%s' is used twice (names match in any letter case)", name);
	k->name = xstrdup(name);
	if (v->type != YAML_MAPPING_NODE) return yd_fail(&c->y, v, "case %s must be a mapping of parameter: value (and help: TEXT)", name);
	int len = yd_map_len(v);
	k->names = xcalloc((size_t)len + 1, sizeof *k->names);
	k->values = xcalloc((size_t)len + 1, sizeof *k->values);
	k->marks = xcalloc((size_t)len + 1, sizeof *k->marks);
	for (int i = 0; i < len; i++) {
		yaml_node_t *sk, *sv;
		yd_pair(&c->y, v, i, &sk, &sv);
		const char *key = yd_scalar(&c->y, sk, "a case's setting");
		if (!key) return -1;
		if (!strcmp(key, "help")) {
			if (yd_get_str(&c->y, v, "help", &k->help)) return -1;
			if (!k->help[0] || strlen(k->help) > CASE_HELP_MAX || strchr(k->help, '\n'))
				return yd_fail(&c->y, sv, "case %s: help must be one line of 1 to %d characters", name, CASE_HELP_MAX);
			continue;
		}
		if (k->n == LESSON_CASE_SETS_MAX) return yd_fail(&c->y, sk, "case %s sets more than %d values", name, LESSON_CASE_SETS_MAX);
		const char *val = yd_scalar(&c->y, sv, "a case's value");
		if (!val) return -1;
		expr_error e;
		expr *x = expr_parse(val, &e);
		expr_value ev;
		int ok = x && !expr_eval(x, NULL, NULL, &ev, NULL);
		expr_free(x);
		if (!ok) return yd_fail(&c->y, sv, "case %s: %s = '%s' is not a number (a case's value is a number or an expression of numbers, e.g. 0.6 or \"1 << 13\")",
		                        name, key, val);
		k->names[k->n] = xstrdup(key);
		k->values[k->n] = xstrdup(val);
		k->marks[k->n].line = (int)sk->start_mark.line + 1;
		k->marks[k->n].col = (int)sk->start_mark.column + 1;
		k->n++;
		const lesson_param *p = lesson_find_param(c->l, key);
		if (p && check_param(c, sv, k, k->n - 1, p)) return -1;
	}
	if (!k->n) return yd_fail(&c->y, v, "case %s sets nothing: give it a parameter's value (and help: TEXT)", name);
	return 0;
}

int lesson_case_parse(ld *c, yaml_node_t *map)
{
	lesson *l = c->l;
	if (map->type != YAML_MAPPING_NODE || !yd_map_len(map))
		return yd_fail(&c->y, map, "cases must be a mapping of name: { PARAM: VALUE, help: TEXT } (at least one)");
	l->cases = xcalloc((size_t)yd_map_len(map), sizeof *l->cases);
	for (int i = 0; i < yd_map_len(map); i++) {
		yaml_node_t *k, *v;
		yd_pair(&c->y, map, i, &k, &v);
		if (parse_case(c, k, v, &l->cases[l->ncases++])) return -1;
	}
	return 0;
}

/* After the stages: a name that is no parameter must be a tunable of some stage, and its value one
 * that every stage with it allows. */
int lesson_case_check_tunables(ld *c)
{
	const lesson *l = c->l;
	for (int ci = 0; ci < l->ncases; ci++) {
		const lesson_case *k = &l->cases[ci];
		for (int i = 0; i < k->n; i++) {
			if (lesson_find_param(l, k->names[i])) continue;
			yaml_mark_t m = { 0, (size_t)(k->marks[i].line - 1), (size_t)(k->marks[i].col - 1) };
			int found = 0;
			double v = 0;
			lesson_case_value(k, i, &v);
			for (int s = 0; s < l->nstages; s++) {
				const lesson_tunable *t = lesson_find_tunable(&l->stages[s], k->names[i]);
				if (!t) continue;
				found = 1;
				int allowed = 0;
				for (int j = 0; j < t->nvalues && !allowed; j++) allowed = (double)t->values[j] == v;
				if (!allowed)
					return yd_fail_at(&c->y, m, "case %s: %s = %s is not allowed for stage %s (a case's tunable takes a value every stage with it allows)",
					                  k->name, k->names[i], k->values[i], l->stages[s].id);
			}
			if (found) continue;
			const char *names[160];
			int nn = 0;
			for (int p = 0; p < l->nparams && nn < 160; p++) names[nn++] = l->params[p].name;
			for (int s = 0; s < l->nstages; s++)
				for (int t = 0; t < l->stages[s].ntunables && nn < 160; t++) names[nn++] = l->stages[s].tunables[t].name;
			char near[128];
			util_suggest_name(k->names[i], names, nn, near, sizeof near);
			return yd_fail_at(&c->y, m, "case %s: '%s' is neither a parameter of this lesson nor a tunable of its stages%s",
			                  k->name, k->names[i], near);
		}
	}
	return 0;
}

void lesson_case_free(lesson *l)
{
	for (int i = 0; i < l->ncases; i++) {
		lesson_case *k = &l->cases[i];
		for (int j = 0; j < k->n; j++) { free(k->names[j]); free(k->values[j]); }
		free(k->names); free(k->values); free(k->marks); free(k->name); free(k->help);
	}
	free(l->cases);
	l->cases = NULL;
	l->ncases = 0;
}
