/* lesson_expect: a stage's expect: list, the claims of its text as conditions over a run's
 * measurements (lessons/README.md, "Claims"). Each item is an expression string, or a mapping
 * { that: EXPR, why: TEXT, when: DEVICE_EXPR }; names are checked against claims_name_known (when:
 * against claims_device_name_known), not the lesson's scope. */
#include <stdlib.h>
#include <string.h>
#include "claim_names.h"
#include "lesson_case.h"
#include "lesson_yaml.h"
#include "util.h"

#define EXPECT_MAX 32        /* claims per stage */
#define EXPECT_WHY_MAX 200   /* characters of a why */

typedef struct { ld *c; yaml_node_t *n; int off; int names; int device; } expect_names;

/* Whether buffer name is in host memory for stage s (its memory: choice, else the buffer's own). */
static int host_buffer(const lesson *l, const lesson_stage *s, const char *name)
{
	for (int i = 0; name && i < s->nmemory; i++) if (!strcmp(s->memory_buffers[i], name)) return s->memory_kinds[i] != MEM_DEVICE;
	const lesson_buffer *b = name ? lesson_find_buffer(l, s, name) : NULL;
	return b && b->memory != MEM_DEVICE;
}

/* Whether the steps (repeat blocks' bodies too) copy between host and device: a copy step with a
 * host buffer at one end (the worker's bound is known only then). */
static int steps_copy(const lesson *l, const lesson_stage *s, const lesson_launch *steps, int n)
{
	for (int i = 0; i < n; i++) {
		const lesson_launch *L = &steps[i];
		if (L->body ? steps_copy(l, s, L->body, L->nbody)
		            : L->kind == STEP_COPY && (host_buffer(l, s, L->copy_dst) || host_buffer(l, s, L->copy_src))) return 1;
	}
	return 0;
}

/* The measurements a stage without copy steps never has (lessons/README.md, Claims: "unknown when the
 * stage copies nothing"): a claim on them could only ever be unjudged. */
static int copies_only(const char *name, size_t len)
{
	static const char *const names[] = { "bound_ms", "time_vs_bound", "kernel_ms", NULL };
	for (int i = 0; names[i]; i++) if (strlen(names[i]) == len && !memcmp(names[i], name, len)) return 1;
	return 0;
}

static int expect_name(void *ctx, const char *name, size_t len, int col)
{
	expect_names *x = ctx;
	x->names++;
	if (!x->device && copies_only(name, len) && x->c->stage &&
	    !steps_copy(x->c->l, x->c->stage, x->c->stage->launches, x->c->stage->nlaunches)) {
		yaml_mark_t m = x->n->start_mark;
		m.column += (size_t)(col - 1 + x->off);
		return yd_fail_at(&x->c->y, m, "expect: '%.*s' is known only on a stage with copy steps (host to device or back), and "
		                  "this stage copies nothing between host and device: the claim could never be judged (time it against the model with "
		                  "pct_attainable_bw or pct_compute_peak instead)", (int)len, name);
	}
	if (x->device ? claims_device_name_known(name, len) : claims_name_known(name, len)) return 0;
	char buf[LESSON_NAME_MAX + 1];
	if (x->device && len <= LESSON_NAME_MAX) {   /* or one of the run's parameters, or the stage's tunables */
		memcpy(buf, name, len);
		buf[len] = 0;
		if (lesson_find_param(x->c->l, buf) || (x->c->stage && lesson_find_tunable(x->c->stage, buf))) return 0;
	}
	yaml_mark_t m = x->n->start_mark;
	m.column += (size_t)(col - 1 + x->off);
	if (x->device)
		return yd_fail_at(&x->c->y, m, "expect: when: unknown name '%.*s' in '%s' (a when: names the lesson's parameters, "
		                  "the stage's tunables, and the device's cc, sm_count, l2_bytes, warp_size, max_threads_per_block, "
		                  "max_shared_per_block, copy_engines)",
		                  len > 40 ? 40 : (int)len, name, (const char *)x->n->data.scalar.value);
	return yd_fail_at(&x->c->y, m, "expect: unknown measurement '%.*s' in '%s' (the names are listed in "
	                  "lessons/README.md, Claims; parameters and tunables are not among them)",
	                  len > 40 ? 40 : (int)len, name, (const char *)x->n->data.scalar.value);
}

/* Every name as 1.5: a condition gives an integer (0 or 1), a bare measurement or sum a float. */
static int expect_probe(void *ctx, const char *name, size_t len, expr_value *out)
{
	(void)ctx; (void)name; (void)len;
	*out = (expr_value){ EXPR_FLOAT, 0, 1.5 };
	return 0;
}

/* A when: or that: condition into *out; device: its names are the device's. */
static int parse_cond(ld *c, yaml_node_t *cond, lesson_expr *out, int device)
{
	const char *s = yd_scalar(&c->y, cond, device ? "an expect: when: condition" : "an expect: condition");
	if (!s) return -1;
	int off = cond->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
	          cond->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
	if (cond->start_mark.line != cond->end_mark.line) off = 0;   /* a folded scalar: columns are the node's */
	expr_error e;
	out->e = expr_parse(s, &e);
	out->at.line = (int)cond->start_mark.line + 1;
	out->at.col = (int)cond->start_mark.column + 1 + off;
	if (!out->e) {
		yaml_mark_t m = cond->start_mark;
		m.column += (size_t)(e.col - 1 + off);
		return yd_fail_at(&c->y, m, "expect: bad condition '%s': %s", s, e.msg);
	}
	expect_names x = { c, cond, off, 0, device };
	if (expr_names(out->e, expect_name, &x)) return -1;
	if (!x.names)
		return yd_fail(&c->y, cond, device ? "expect: when: '%s' names no device value, so it decides nothing"
		                                   : "expect: '%s' names no measurement, so no run can check it", s);
	expr_value v;
	if (!expr_eval(out->e, expect_probe, NULL, &v, NULL) && v.kind != EXPR_INT)
		return yd_fail(&c->y, cond, "expect: '%s' is a number, not a condition: compare it (e.g. %s >= 8)", s, s);
	return 0;
}

/* when: { case: NAME, if: CONDITION }: judged only in case NAME of the lesson (and where the
 * condition, optional, holds too). */
static int parse_when_case(ld *c, yaml_node_t *when, lesson_claim *k)
{
	static const char *const keys[] = { "!case", "if", NULL };
	if (yd_check_keys(&c->y, when, "an expect: when:", keys)) return -1;
	yaml_node_t *cn = yd_get(&c->y, when, "case"), *cond = yd_get(&c->y, when, "if");
	const char *name = yd_scalar(&c->y, cn, "a case name");
	if (!name) return -1;
	k->when_case = lesson_case_find(c->l, name);
	if (k->when_case < 0) {
		char near[256];
		lesson_case_suggest(c->l, name, near, sizeof near);
		return yd_fail(&c->y, cn, "expect: when: no case '%s' in this lesson%s", name, near);
	}
	return cond ? parse_cond(c, cond, &k->when, 1) : 0;
}

int lesson_expect_parse(ld *c, yaml_node_t *n, lesson_stage *s)
{
	if (n->type != YAML_SEQUENCE_NODE)
		return yd_fail(&c->y, n, "expect must be a list of conditions (\"bytes_ratio >= 8\") or {that, why} mappings");
	int len = yd_seq_len(n);
	if (len < 1 || len > EXPECT_MAX) return yd_fail(&c->y, n, "expect takes 1 to %d conditions", EXPECT_MAX);
	s->claims = xcalloc((size_t)len, sizeof *s->claims);
	static const char *const keys[] = { "!that", "why", "when", NULL };
	for (int i = 0; i < len; i++) {
		yaml_node_t *it = yd_seq_at(&c->y, n, i), *cond = it;
		lesson_claim *k = &s->claims[s->nclaims++];
		k->when_case = -1;
		if (!it) return -1;
		if (it->type == YAML_MAPPING_NODE) {
			if (yd_check_keys(&c->y, it, "an expect: item", keys) || yd_get_str(&c->y, it, "why", &k->why)) return -1;
			cond = yd_get(&c->y, it, "that");
			if (k->why && (!k->why[0] || strlen(k->why) > EXPECT_WHY_MAX || strchr(k->why, '\n')))
				return yd_fail(&c->y, yd_get(&c->y, it, "why"), "expect: why must be one line of 1 to %d characters", EXPECT_WHY_MAX);
			yaml_node_t *when = yd_get(&c->y, it, "when");
			if (when && when->type == YAML_MAPPING_NODE ? parse_when_case(c, when, k) : when && parse_cond(c, when, &k->when, 1)) return -1;
		} else if (it->type != YAML_SCALAR_NODE) {
			return yd_fail(&c->y, it, "an expect: item is a condition string or {that: CONDITION, why: TEXT, when: CONDITION or {case: NAME, if: CONDITION}}");
		}
		if (parse_cond(c, cond, &k->cond, 0)) return -1;
	}
	return 0;
}

typedef struct { ld *c; const lesson_claim *k; } stage_names;

static int stage_name_visit(void *ctx, const char *name, size_t len, int col)
{
	stage_names *x = ctx;
	const char *id;
	size_t idlen;
	if (!claims_stage_ratio(name, len, &id, &idlen)) return 0;
	const lesson *l = x->c->l;
	for (int i = 0; i < l->nstages; i++) if (strlen(l->stages[i].id) == idlen && !memcmp(l->stages[i].id, id, idlen)) return 0;
	yaml_mark_t m = { 0, (size_t)(x->k->cond.at.line - 1), (size_t)(x->k->cond.at.col - 1 + col - 1) };
	return yd_fail_at(&x->c->y, m, "expect: '%.*s' names no stage of this lesson ('%.*s'; the names are time_vs_ID, speedup_vs_ID and clock_vs_ID "
	                  "for a stage id, time_vs_prev, time_vs_baseline)", len > 60 ? 60 : (int)len, name, idlen > 60 ? 60 : (int)idlen, id);
}

int lesson_expect_check_claim_stages(ld *c)
{
	for (int s = 0; s < c->l->nstages; s++)
		for (int i = 0; i < c->l->stages[s].nclaims; i++) {
			stage_names x = { c, &c->l->stages[s].claims[i] };
			if (expr_names(x.k->cond.e, stage_name_visit, &x)) return -1;
		}
	return 0;
}

void lesson_expect_free(lesson_stage *s)
{
	for (int i = 0; i < s->nclaims; i++) {
		lesson_yaml_free_expr(&s->claims[i].cond);
		lesson_yaml_free_expr(&s->claims[i].when);
		free(s->claims[i].why);
	}
	free(s->claims);
	s->claims = NULL;
	s->nclaims = 0;
}

int lesson_expect_check_text(ld *c, yaml_node_t *n, const char *text)
{
	size_t len = 0;
	long at = claims_text_check(text, &len);
	if (at < 0) return 0;
	char typed[48], near[96];
	strfmt(typed, sizeof typed, "%.*s", len > 40 ? 40 : (int)len, text + at + 1);
	const char *names[160];
	int nn = 0;
	for (const char *const *v = diagnose_names(); *v && nn < 160; v++) names[nn++] = *v;
	for (const char *const *v = claims_extra_names(); *v && nn < 160; v++) names[nn++] = *v;
	util_suggest_name(typed, names, nn, near, sizeof near);
	return yd_fail(&c->y, n, "unknown measurement '{%s}' in the text%s (a placeholder names a measurement of "
	               "lessons/README.md, Claims: {gbps}, {speedup_vs_prev}, ...)", typed, near);
}

int lesson_expect_check_text_stages(ld *c, yaml_node_t *n, const char *text)
{
	const lesson *l = c->l;
	for (const char *p = text ? strchr(text, '{') : NULL; p; p = strchr(p + 1, '{')) {
		size_t len = claims_placeholder(p), idlen;
		const char *id;
		if (!len || !claims_stage_ratio(p + 1, len, &id, &idlen)) continue;
		int found = 0;
		for (int i = 0; i < l->nstages && !found; i++) found = strlen(l->stages[i].id) == idlen && !memcmp(l->stages[i].id, id, idlen);
		if (found) continue;
		/* the nearest of this ratio's names for the lesson's stages */
		size_t head = (size_t)(id - (p + 1));
		char **names = xcalloc((size_t)l->nstages, sizeof *names), typed[128], near[160];
		for (int i = 0; i < l->nstages; i++) names[i] = xasprintf("%.*s%s", (int)head, p + 1, l->stages[i].id);
		strfmt(typed, sizeof typed, "%.*s", len > 100 ? 100 : (int)len, p + 1);
		util_suggest_name(typed, (const char *const *)names, l->nstages, near, sizeof near);
		for (int i = 0; i < l->nstages; i++) free(names[i]);
		free(names);
		return yd_fail(&c->y, n, "'{%s}' in the text names no stage of this lesson ('%.*s')%s", typed, idlen > 60 ? 60 : (int)idlen, id, near);
	}
	return 0;
}
