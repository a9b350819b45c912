/* lesson_exercise: a stage's `exercise:` block (lessons/README.md, "Exercises"): the starter file,
 * the bar, the hints, the sizes every try is checked at, and an optional tolerance. */
#include <float.h>
#include <stdlib.h>
#include <string.h>
#include "lesson_yaml.h"
#include "util.h"

/* One size: a mapping of parameter name -> expression (kept as text: plan_make evaluates it). */
static int parse_size(ld *c, yaml_node_t *n, lesson_size *z)
{
	z->at.line = (int)n->start_mark.line + 1;
	z->at.col = (int)n->start_mark.column + 1;
	if (n->type != YAML_MAPPING_NODE) return yd_fail(&c->y, n, "a size is a mapping of parameter: value, e.g. { n: 1000003 }");
	int k = (int)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
	if (k < 1) return yd_fail(&c->y, n, "a size names at least one parameter");
	z->names = xcalloc((size_t)k, sizeof *z->names);
	z->values = xcalloc((size_t)k, sizeof *z->values);
	for (int i = 0; i < k; i++) {
		yaml_node_t *kn = yd_node(&c->y, n->data.mapping.pairs.start[i].key), *v = yd_node(&c->y, n->data.mapping.pairs.start[i].value);
		const char *name = yd_scalar(&c->y, kn, "a parameter name");
		if (!name) return -1;
		if (!lesson_find_param(c->l, name)) return yd_fail(&c->y, kn, "'%s' is not a parameter of this lesson (sizes set parameters)", name);
		for (int j = 0; j < z->n; j++)
			if (!strcmp(z->names[j], name)) return yd_fail(&c->y, kn, "parameter '%s' is set twice in one size", name);
		lesson_expr e = { 0 };
		int bad = lesson_yaml_parse_expr(c, v, name, &e);   /* checked now, evaluated by the plan */
		lesson_yaml_free_expr(&e);
		if (bad) return -1;
		z->names[z->n] = xstrdup(name);
		z->values[z->n++] = xstrdup((const char *)v->data.scalar.value);
	}
	return 0;
}

struct entry_ctx { ld *c; yaml_node_t *n; const char *path; };
static int check_entry(void *ctx, lesson_launch *L)
{
	struct entry_ctx *e = ctx;
	return L->entry ? lesson_stage_check_entry(e->c, e->n, e->path, L->entry) : 0;
}

int lesson_exercise_parse(ld *c, yaml_node_t *n, lesson_stage *s)
{
	static const char *const keys[] = { "!start", "pass", "hints", "sizes", "tolerance", "judge", NULL };
	if (n->type != YAML_MAPPING_NODE) return yd_fail(&c->y, n, "exercise must be a mapping: { start: FILE, pass: 0.9, hints: [...] }");
	if (yd_check_keys(&c->y, n, "exercise", keys)) return -1;
	lesson_exercise *x = s->exercise = xcalloc(1, sizeof *x);
	x->at.line = (int)n->start_mark.line + 1;
	x->at.col = (int)n->start_mark.column + 1;
	x->pass = 0.9;
	yaml_node_t *sn = yd_get(&c->y, n, "start"), *pn = yd_get(&c->y, n, "pass"), *hn = yd_get(&c->y, n, "hints"),
	            *zn = yd_get(&c->y, n, "sizes"), *tn = yd_get(&c->y, n, "tolerance");
	if (yd_get_str(&c->y, n, "start", &x->start_rel)) return -1;
	if (!s->check) return yd_fail(&c->y, n, "stage '%s' is not checked (check: false), so an exercise on it could not be judged", s->id);
	if (c->kroot) {
		char *rel = xasprintf("exercises/%s", x->start_rel);
		int bad = lesson_stage_resolve_kernel_file(c, sn, rel, &x->start_path);
		free(rel);
		if (bad) return -1;
		/* The starter keeps the stage's kernel names: the plan launches them. */
		if (lesson_stage_check_entry(c, sn, x->start_path, s->entry)) return -1;
		struct entry_ctx ec = { c, sn, x->start_path };
		if (lesson_stage_each_launch(s->launches, s->nlaunches, check_entry, &ec)) return -1;
	}
	if (pn) {
		if (yd_double(&c->y, pn, "pass", -DBL_MAX, DBL_MAX, &x->pass)) return -1;
		if (!(x->pass > 0 && x->pass <= 10))
			return yd_fail(&c->y, pn, "pass is the fraction of the stage kernel's speed to reach, e.g. 0.9 (above 0, at most 10)");
	}
	if (hn && yd_strings(&c->y, hn, "hints", &x->hints, &x->nhints)) return -1;
	for (int i = 0; i < x->nhints; i++)
		if (!x->hints[i][0]) return yd_fail(&c->y, hn, "hint %d is empty", i + 1);
	if (zn) {
		if (zn->type != YAML_SEQUENCE_NODE || yd_seq_len(zn) < 1)
			return yd_fail(&c->y, zn, "sizes must be a list of sizes, e.g. [{ n: 5 }, { n: 1000003 }]");
		x->sizes = xcalloc((size_t)yd_seq_len(zn), sizeof *x->sizes);
		for (int i = 0; i < yd_seq_len(zn); i++)
			if (parse_size(c, yd_seq_at(&c->y, zn, i), &x->sizes[x->nsizes++])) return -1;
	}
	yaml_node_t *jn = yd_get(&c->y, n, "judge");
	if (jn) {
		const char *j = jn->type == YAML_SCALAR_NODE ? (const char *)jn->data.scalar.value : "";
		if (!strcmp(j, "kernel")) x->judge = JUDGE_KERNEL;
		else if (!strcmp(j, "whole")) x->judge = JUDGE_WHOLE;
		else return yd_fail(&c->y, jn, "judge is kernel (the kernels' time, without the host copies) or whole (the stage's time)");
	}
	if (tn) {
		x->has_tolerance = 1;
		if (lesson_yaml_parse_tolerance(c, tn, &x->exact, &x->rel_tol, &x->abs_tol, &x->norm_tol, NULL)) return -1;
	}
	return 0;
}

void lesson_exercise_free(lesson_exercise *x)
{
	if (!x) return;
	free(x->start_path); free(x->start_rel);
	for (int i = 0; i < x->nhints; i++) free(x->hints[i]);
	free(x->hints);
	for (int i = 0; i < x->nsizes; i++) {
		for (int k = 0; k < x->sizes[i].n; k++) { free(x->sizes[i].names[k]); free(x->sizes[i].values[k]); }
		free(x->sizes[i].names); free(x->sizes[i].values);
	}
	free(x->sizes);
	free(x);
}
