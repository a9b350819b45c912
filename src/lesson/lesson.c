/* lesson: loads one lesson file (lessons/README.md) and a tree of them; see lesson.h. */
#include "lesson.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "lesson_yaml.h"
#include "result.h"
#include "util.h"

int lesson_is_ident(const char *s)
{
	if (strlen(s) > LESSON_NAME_MAX) return 0;
	if (!*s || !(isalpha((unsigned char)*s) || *s == '_')) return 0;
	for (; *s; s++) if (!(isalnum((unsigned char)*s) || *s == '_')) return 0;
	return 1;
}

static int parse_params(ld *c, yaml_node_t *map)
{
	if (map->type != YAML_MAPPING_NODE) return yd_fail(&c->y, map, "params must be a mapping of name: {default, min, max}");
	lesson *l = c->l;
	int k = (int)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
	l->params = xcalloc((size_t)k, sizeof *l->params);
	static const char *const keys[] = { "!default", "min", "max", "type", "help", NULL };
	for (int i = 0; i < k; i++) {
		yaml_node_t *kn = yd_node(&c->y, map->data.mapping.pairs.start[i].key), *v = yd_node(&c->y, map->data.mapping.pairs.start[i].value);
		const char *name = yd_scalar(&c->y, kn, "a parameter name");
		if (!name) return -1;
		if (lesson_yaml_check_length(c, kn, "parameter name", name)) return -1;
		if (!lesson_is_ident(name)) return yd_fail(&c->y, kn, "parameter name '%s' is not an identifier", name);
		if (lesson_yaml_name_known(c, name, strlen(name))) return yd_fail(&c->y, kn, "parameter '%s' is declared twice or hides a device value", name);
		lesson_param p = { .type = DT_I64 };
		p.at.line = (int)kn->start_mark.line + 1;
		p.at.col = (int)kn->start_mark.column + 1;
		yaml_node_t *t = yd_get(&c->y, v, "type");
		int bad = yd_check_keys(&c->y, v, "a parameter", keys) || (t && lesson_yaml_parse_dtype(c, t, &p.type)) ||
		          lesson_yaml_get_expr(c, v, "default", &p.def) || lesson_yaml_get_expr(c, v, "min", &p.min) ||
		          lesson_yaml_get_expr(c, v, "max", &p.max) || yd_get_str(&c->y, v, "help", &p.help);
		p.name = xstrdup(name);
		l->params[l->nparams++] = p;   /* owned by l from here, also on error */
		if (bad) return -1;
		if (p.type != DT_I64 && p.type != DT_F32 && p.type != DT_F64) return yd_fail(&c->y, t, "a parameter is i64, f32 or f64");
	}
	return 0;
}

static int parse_derived(ld *c, yaml_node_t *map)
{
	if (map->type != YAML_MAPPING_NODE) return yd_fail(&c->y, map, "derived must be a mapping of name: expression");
	lesson *l = c->l;
	int k = (int)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
	l->derived = xcalloc((size_t)k, sizeof *l->derived);
	for (int i = 0; i < k; i++) {
		yaml_node_t *kn = yd_node(&c->y, map->data.mapping.pairs.start[i].key), *v = yd_node(&c->y, map->data.mapping.pairs.start[i].value);
		const char *name = yd_scalar(&c->y, kn, "a derived name");
		if (!name) return -1;
		if (lesson_yaml_check_length(c, kn, "derived name", name)) return -1;
		if (!lesson_is_ident(name) || lesson_yaml_name_known(c, name, strlen(name))) return yd_fail(&c->y, kn, "derived name '%s' is not a new identifier", name);
		lesson_derived *d = &l->derived[l->nderived];
		if (lesson_yaml_parse_expr(c, v, name, &d->value)) return -1;
		d->name = xstrdup(name);   /* named only after parsing: a value cannot use itself */
		l->nderived++;
	}
	return 0;
}

static int parse_check(ld *c, yaml_node_t *n)
{
	static const char *const keys[] = { "!reference", "!compare", "!tolerance", "follow", NULL };
	lesson *l = c->l;
	if (yd_check_keys(&c->y, n, "check", keys) || yd_get_str(&c->y, n, "reference", &l->reference) ||
	    yd_strings(&c->y, yd_get(&c->y, n, "compare"), "compare", &l->compare, &l->ncompare) ||
	    (yd_get(&c->y, n, "follow") && yd_strings(&c->y, yd_get(&c->y, n, "follow"), "follow", &l->follow, &l->nfollow))) return -1;
	for (int i = 0; i < l->ncompare; i++) {
		const lesson_buffer *b = lesson_find_buffer(l, NULL, l->compare[i]);
		if (!b || !b->output) return yd_fail(&c->y, yd_get(&c->y, n, "compare"), "'%s' is not an output buffer", l->compare[i]);
	}
	return lesson_yaml_parse_tolerance(c, yd_get(&c->y, n, "tolerance"), &l->exact, &l->rel_tol, &l->abs_tol, &l->norm_tol, l->tol_expr);
}

/* The words "(known: a, b)" for an unknown name among count names that name(i) gives. */
static const char *known_names(char *buf, size_t len, int count, const char *(*name)(int))
{
	buf[0] = 0;
	for (int i = 0; i < count; i++) strfmt(buf + strlen(buf), len - strlen(buf), "%s%s", i ? ", " : "", name(i));
	return buf;
}
static const char *peak_i(int i) { return peak_name((peak_kind)i); }
static const char *traffic_i(int i) { return traffic_name((traffic_kind)i); }

/* The model's keys, peak and traffic; its expressions too unless exprs is 0 (the lesson's, read after
 * its stages). */
static int parse_model(ld *c, yaml_node_t *n, lesson_expr *bytes, lesson_expr *flops, char **peak, char **traffic, int need, int exprs)
{
	static const char *const keys[] = { "!bytes", "flops", "peak", "traffic", NULL };
	static const char *const bkeys[] = { "bytes", "flops", NULL };
	if (yd_check_keys(&c->y, n, "model", need ? keys : bkeys) || (exprs && (lesson_yaml_get_expr(c, n, "bytes", bytes) ||
	    lesson_yaml_get_expr(c, n, "flops", flops))) || (peak && yd_get_str(&c->y, n, "peak", peak)) ||
	    (traffic && yd_get_str(&c->y, n, "traffic", traffic))) return -1;
	char known[128];
	if (peak && *peak && peak_parse(*peak) < 0)
		return yd_fail(&c->y, yd_get(&c->y, n, "peak"), "unknown peak '%s' (known: %s)", *peak,
		               known_names(known, sizeof known, PEAK_COUNT, peak_i));
	if (traffic && *traffic && traffic_parse(*traffic) < 0)
		return yd_fail(&c->y, yd_get(&c->y, n, "traffic"), "unknown traffic '%s' (known: %s)", *traffic,
		               known_names(known, sizeof known, TRAFFIC_COUNT, traffic_i));
	return 0;
}

/* A baseline: or one entry of baselines: (what is "a baseline" in messages) into a new *out. */
static int parse_baseline(ld *c, yaml_node_t *n, const char *what, const char *id, lesson_baseline **out)
{
	static const char *const keys[] = { "!title", "!library", "!args", "model", "check", "tolerance", "peak", NULL };
	lesson_baseline *b = *out = xcalloc(1, sizeof *b);
	b->check = 1;
	b->id = xstrdup(id);
	if (yd_check_keys(&c->y, n, what, keys) || yd_get_str(&c->y, n, "title", &b->title) || lesson_yaml_parse_library(c, NULL, n, b)) return -1;
	yaml_node_t *m = yd_get(&c->y, n, "model"), *chk = yd_get(&c->y, n, "check");
	if (m && parse_model(c, m, &b->bytes, &b->flops, NULL, NULL, 0, 1)) return -1;
	if (chk && yd_bool(&c->y, chk, "check", &b->check)) return -1;
	yaml_node_t *tol = yd_get(&c->y, n, "tolerance");
	yaml_node_t *pk = yd_get(&c->y, n, "peak");
	char known[256];
	if (pk && yd_get_str(&c->y, n, "peak", &b->peak)) return -1;
	if (pk && peak_parse(b->peak) < 0)
		return yd_fail(&c->y, pk, "unknown peak '%s' (known: %s)", b->peak, known_names(known, sizeof known, PEAK_COUNT, peak_i));
	if (tol) {   /* a library in another number format checks at that format's precision */
		b->has_tolerance = 1;
		if (lesson_yaml_parse_tolerance(c, tol, &b->exact, &b->rel_tol, &b->abs_tol, &b->norm_tol, b->tol_expr)) return -1;
	}
	return 0;
}

/* baselines: NAME -> { title, library, args, ... }: the named baselines a stage's baseline: picks. */
static int parse_baselines(ld *c, yaml_node_t *map)
{
	lesson *l = c->l;
	if (map->type != YAML_MAPPING_NODE || !yd_map_len(map))
		return yd_fail(&c->y, map, "baselines must be a mapping of name: { title, library, args } (at least one)");
	l->baselines = xcalloc((size_t)yd_map_len(map), sizeof *l->baselines);
	for (int i = 0; i < yd_map_len(map); i++) {
		yaml_node_t *k, *v;
		yd_pair(&c->y, map, i, &k, &v);
		const char *name = yd_scalar(&c->y, k, "a baseline name");
		if (!name) return -1;
		if (strlen(name) > LESSON_BASELINE_NAME_MAX)
			return yd_fail(&c->y, k, "baseline name '%.24s...' is %zu characters long (at most %d)", name, strlen(name), LESSON_BASELINE_NAME_MAX);
		if (!lesson_is_ident(name)) return yd_fail(&c->y, k, "baseline name '%s' is not an identifier", name);
		for (int j = 0; j < l->nbaselines; j++)
			if (!strcasecmp(l->baselines[j]->id + 9, name)) return yd_fail(&c->y, k, "baseline name '%s' is used twice", name);
		char id[16 + LESSON_BASELINE_NAME_MAX], what[32 + LESSON_BASELINE_NAME_MAX];
		strfmt(id, sizeof id, "baseline.%s", name);
		strfmt(what, sizeof what, "baselines entry '%s'", name);
		if (parse_baseline(c, v, what, id, &l->baselines[l->nbaselines++])) return -1;
	}
	return 0;
}

typedef struct { ld *c; yaml_node_t *n; const char *key; } model_ctx;

/* A name of the lesson's model that is not the lesson's own must be a tunable or derived value of
 * every stage that uses that expression, and the baseline (which has no tunables) must have its own. */
static int model_visit(void *ctx, const char *name, size_t len, int col)
{
	model_ctx *m = ctx;
	lesson *l = m->c->l;
	char buf[LESSON_NAME_MAX + 1];
	(void)col;
	if (len > LESSON_NAME_MAX) return 0;
	memcpy(buf, name, len);
	buf[len] = 0;
	if (lesson_yaml_name_known(m->c, buf, len)) return 0;   /* a parameter, derived or device value */
	int flops = !strcmp(m->key, "flops");
	for (int k = 0; k < l->nstages; k++) {
		const lesson_stage *s = &l->stages[k];
		if ((flops ? s->flops.e : s->bytes.e) || lesson_yaml_stage_name(s, buf)) continue;
		return yd_fail(&m->c->y, yd_get(&m->c->y, m->n, m->key), "model %s: stage %s has no tunable or derived value '%s' (give the stage its own model: %s, or the tunable)",
		               m->key, s->id, buf, m->key);
	}
	for (int b = -1; b < l->nbaselines; b++) {
		const lesson_baseline *bl = b < 0 ? l->baseline : l->baselines[b];
		if (bl && !bl->bytes.e)
			return yd_fail(&m->c->y, yd_get(&m->c->y, m->n, m->key), "model %s: '%s' is a stage's name, and the %s has no tunables: give it its own model:",
			               m->key, buf, bl->id);
	}
	return 0;
}

static int model_names_everywhere(ld *c, yaml_node_t *n, const char *key, const lesson_expr *e)
{
	if (!e->e) return 0;
	model_ctx m = { c, n, key };
	return expr_names(e->e, model_visit, &m) ? -1 : 0;
}

static int parse_lesson(ld *c, yaml_node_t *root)
{
	static const char *const keys[] = { "!lesson", "!title", "order", "!summary", "read_first", "params", "derived",
	                                    "!buffers", "!model", "check", "baseline", "baselines", "cases", "!stages", NULL };
	lesson *l = c->l;
	if (yd_check_keys(&c->y, root, "a lesson", keys) || yd_get_str(&c->y, root, "lesson", &l->id) ||
	    yd_get_str(&c->y, root, "title", &l->title) || yd_get_str(&c->y, root, "summary", &l->summary)) return -1;
	if (lesson_yaml_check_length(c, yd_get(&c->y, root, "lesson"), "lesson id", l->id)) return -1;
	for (const char *p = l->id; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return yd_fail(&c->y, yd_get(&c->y, root, "lesson"), "lesson id '%s' may use only a-z, 0-9 and _", l->id);
	if (!*l->id) return yd_fail(&c->y, yd_get(&c->y, root, "lesson"), "lesson id is empty");
	if (c->kroot) l->kernel_dir = xasprintf("%s/%s", c->kroot, l->id);
	yaml_node_t *n;
	int64_t order = 100;
	if ((n = yd_get(&c->y, root, "order")) && yd_int(&c->y, n, "order", INT64_MIN, INT64_MAX, &order)) return -1;
	l->order = (int)order;
	if ((n = yd_get(&c->y, root, "read_first")) && yd_strings(&c->y, n, "read_first", &l->read_first, &l->nread_first)) return -1;
	if ((n = yd_get(&c->y, root, "params")) && parse_params(c, n)) return -1;
	if ((n = yd_get(&c->y, root, "derived")) && parse_derived(c, n)) return -1;
	if (lesson_yaml_parse_buffers(c, yd_get(&c->y, root, "buffers"), &l->buffers, &l->nbuffers)) return -1;
	yaml_node_t *md = yd_get(&c->y, root, "model");
	if (parse_model(c, md, NULL, NULL, &l->peak, &l->traffic, 1, 0)) return -1;
	if ((n = yd_get(&c->y, root, "baseline")) && parse_baseline(c, n, "baseline", "baseline", &l->baseline)) return -1;
	if ((n = yd_get(&c->y, root, "baselines")) && parse_baselines(c, n)) return -1;
	/* The cases before the stages, whose claims may name them; their tunables are checked after. */
	if ((n = yd_get(&c->y, root, "cases")) && lesson_case_parse(c, n)) return -1;
	yaml_node_t *st = yd_get(&c->y, root, "stages");
	if (st->type != YAML_SEQUENCE_NODE || yd_seq_len(st) < 1) return yd_fail(&c->y, st, "stages must be a list of at least one stage");
	l->stages = xcalloc((size_t)yd_seq_len(st), sizeof *l->stages);
	for (int i = 0; i < yd_seq_len(st); i++) {
		yaml_node_t *si = yd_seq_at(&c->y, st, i);
		if (lesson_stage_parse(c, si, &l->stages[l->nstages++])) return -1;
		for (int j = 0; j < l->nstages - 1; j++)
			if (!strcmp(l->stages[j].id, l->stages[i].id)) return yd_fail(&c->y, si, "stage id '%s' is used twice", l->stages[i].id);
	}
	if (lesson_expect_check_claim_stages(c) || lesson_case_check_tunables(c)) return -1;
	for (int i = 0; i < l->nstages; i++) {
		yaml_node_t *si = yd_seq_at(&c->y, st, i);
		if (lesson_expect_check_text_stages(c, yd_get(&c->y, si, "explain"), l->stages[i].explain) ||
		    lesson_expect_check_text_stages(c, yd_get(&c->y, si, "bottleneck"), l->stages[i].bottleneck)) return -1;
	}
	/* The model after the stages: it may name a tunable (or a stage's derived value) that every stage
	 * using it has. */
	c->model_scope = 1;
	int bad = lesson_yaml_get_expr(c, md, "bytes", &l->bytes) || lesson_yaml_get_expr(c, md, "flops", &l->flops);
	c->model_scope = 0;
	if (bad || model_names_everywhere(c, md, "bytes", &l->bytes) || model_names_everywhere(c, md, "flops", &l->flops)) return -1;
	if ((n = yd_get(&c->y, root, "check")) && parse_check(c, n)) return -1;
	if (l->reference) {
		yaml_node_t *cn = yd_get(&c->y, root, "check");
		if (!strcmp(l->reference, "baseline") ? !l->baseline : lesson_stage_index(l, l->reference) < 0)
			return yd_fail(&c->y, cn, "reference '%s' is neither a stage of this lesson nor its baseline", l->reference);
		/* follow: names a tunable of the reference stage that some other stage has too (else it follows nothing) */
		yaml_node_t *fn = l->nfollow ? yd_get(&c->y, cn, "follow") : NULL;
		int rs = lesson_stage_index(l, l->reference);
		for (int i = 0; i < l->nfollow; i++) {
			if (rs < 0)
				return yd_fail(&c->y, fn, "follow: the reference is the baseline, which has no tunables; a value that changes the answer must be a parameter");
			if (!lesson_find_tunable(&l->stages[rs], l->follow[i]))
				return yd_fail(&c->y, fn, "follow: '%s' is not a tunable of the reference stage '%s'", l->follow[i], l->reference);
			int shared = 0;
			for (int s = 0; s < l->nstages && !shared; s++) shared = s != rs && lesson_find_tunable(&l->stages[s], l->follow[i]);
			if (!shared)
				return yd_fail(&c->y, fn, "follow: no stage but the reference has a tunable '%s', so there is nothing to follow", l->follow[i]);
		}
	} else if (l->nfollow) {
		return yd_fail(&c->y, yd_get(&c->y, root, "check"), "follow: needs a check.reference to follow into");
	}
	return 0;
}

lesson *lesson_load_buffer(const char *name, const char *buf, size_t len, const char *kernels_root, char *err, size_t errlen)
{
	ld c = { .y = { .file = name, .err = err, .errlen = errlen }, .kroot = kernels_root };
	if (yd_load(&c.y, buf, len)) return NULL;
	yaml_node_t *root = yd_root(&c.y);
	c.l = xcalloc(1, sizeof *c.l);
	c.l->path = xstrdup(name);
	c.l->rel_tol = c.l->abs_tol = 0;
	if (!root) {
		yd_fail_at(&c.y, (yaml_mark_t){0, 0, 0}, "the file is empty");
	} else if (parse_lesson(&c, root)) {
		c.y.failed = 1;
	}
	yd_done(&c.y);
	if (c.y.failed) { lesson_free(c.l); return NULL; }
	return c.l;
}

lesson *lesson_load(const char *path, const char *kernels_root, char *err, size_t errlen)
{
	size_t len;
	char *buf = file_read(path, &len);
	if (!buf) { strfmt(err, errlen, "%s:1:1: cannot read the file: %s", path, file_strerror(errno)); return NULL; }
	lesson *l = lesson_load_buffer(path, buf, len, kernels_root, err, errlen);
	free(buf);
	return l;
}

void lesson_free(lesson *l)
{
	if (!l) return;
	free(l->id); free(l->title); free(l->summary); free(l->path); free(l->kernel_dir); free(l->peak); free(l->traffic); free(l->reference);
	for (int i = 0; i < l->nread_first; i++) free(l->read_first[i]);
	free(l->read_first);
	for (int i = 0; i < l->nparams; i++) {
		lesson_param *p = &l->params[i];
		free(p->name); free(p->help); lesson_yaml_free_expr(&p->def); lesson_yaml_free_expr(&p->min); lesson_yaml_free_expr(&p->max);
	}
	free(l->params);
	for (int i = 0; i < l->nderived; i++) { free(l->derived[i].name); lesson_yaml_free_expr(&l->derived[i].value); }
	free(l->derived);
	lesson_yaml_free_buffers(l->buffers, l->nbuffers);
	lesson_yaml_free_expr(&l->bytes); lesson_yaml_free_expr(&l->flops);
	for (int i = 0; i < 3; i++) lesson_yaml_free_expr(&l->tol_expr[i]);
	for (int i = 0; i < l->ncompare; i++) free(l->compare[i]);
	free(l->compare);
	for (int i = 0; i < l->nfollow; i++) free(l->follow[i]);
	free(l->follow);
	lesson_yaml_free_library(l->baseline);
	for (int i = 0; i < l->nbaselines; i++) lesson_yaml_free_library(l->baselines[i]);
	free(l->baselines);
	for (int i = 0; i < l->nstages; i++) lesson_stage_free(&l->stages[i]);
	free(l->stages);
	lesson_case_free(l);
	free(l);
}

int lesson_has_flops(const lesson *l)
{
	int any = l->flops.e != NULL;
	for (int i = 0; i < l->nstages; i++) any |= l->stages[i].flops.e != NULL;
	return any;
}

const char *lesson_stage_peak(const lesson *l, int s)
{
	const lesson_baseline *b = s < 0 ? lesson_baseline_at(l, s) : NULL;
	if (b && b->peak) return b->peak;
	return s >= 0 && s < l->nstages && l->stages[s].peak ? l->stages[s].peak : l->peak;
}

const char *lesson_top_peak(const lesson *l, const device_info *d)
{
	const char *top = l->peak;
	for (int s = 0; s < l->nstages; s++)
		if (l->stages[s].peak && peak_gflops(peak_of(l->stages[s].peak), d) > peak_gflops(peak_of(top), d)) top = l->stages[s].peak;
	for (int b = 0; b < l->nbaselines; b++)
		if (l->baselines[b]->peak && peak_gflops(peak_of(l->baselines[b]->peak), d) > peak_gflops(peak_of(top), d)) top = l->baselines[b]->peak;
	return top;
}

const lesson_baseline *lesson_baseline_at(const lesson *l, int b)
{
	if (b == -1) return l->baseline;
	int i = -2 - b;
	return b < -1 && i < l->nbaselines ? l->baselines[i] : NULL;
}

int lesson_stage_baseline(const lesson *l, int s)
{
	if (s < 0 || s >= l->nstages) return 0;
	return lesson_baseline_at(l, l->stages[s].baseline) ? l->stages[s].baseline : 0;
}

int lesson_baseline_named(const lesson *l, const char *name)
{
	if (!strcasecmp(name, "baseline")) return l->baseline ? -1 : 0;
	for (int i = 0; i < l->nbaselines; i++) if (!strcasecmp(l->baselines[i]->id, name)) return LESSON_BASELINE(i);
	return 0;
}

int lesson_stage_index(const lesson *l, const char *id)
{
	for (int i = 0; i < l->nstages; i++) if (l->stages[i].id && !strcmp(l->stages[i].id, id)) return i;
	return -1;
}

const lesson_tunable *lesson_find_tunable(const lesson_stage *s, const char *name)
{
	for (int i = 0; s && i < s->ntunables; i++) if (!strcmp(s->tunables[i].name, name)) return &s->tunables[i];
	return NULL;
}

const lesson_param *lesson_find_param(const lesson *l, const char *name)
{
	for (int i = 0; i < l->nparams; i++) if (!strcmp(l->params[i].name, name)) return &l->params[i];
	return NULL;
}

const lesson_buffer *lesson_find_buffer(const lesson *l, const lesson_stage *s, const char *name)
{
	for (int i = 0; i < l->nbuffers; i++) if (l->buffers[i].name && !strcmp(l->buffers[i].name, name)) return &l->buffers[i];
	for (int i = 0; s && i < s->nbuffers; i++) if (s->buffers[i].name && !strcmp(s->buffers[i].name, name)) return &s->buffers[i];
	return NULL;
}

const char *lesson_dtype_name(lesson_dtype t) { return (unsigned)t < DT_COUNT ? lesson_yaml_dtype_names[t] : "?"; }
size_t lesson_dtype_size(lesson_dtype t) { return (unsigned)t < DT_COUNT ? lesson_yaml_dtype_sizes[t] : 0; }
int lesson_dtype_is_float(lesson_dtype t) { return t == DT_F32 || t == DT_F64 || t == DT_F16 || t == DT_BF16; }

static int cmp_lesson(const void *a, const void *b)
{
	const lesson *x = *(lesson *const *)a, *y = *(lesson *const *)b;
	return x->order != y->order ? (x->order < y->order ? -1 : 1) : strcmp(x->id, y->id);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int lesson_set_load(lesson_set *set, const char *root, char *err, size_t errlen)
{
	memset(set, 0, sizeof *set);
	set->root = xstrdup(root);
	char *ldir = xasprintf("%s/lessons", root), *kdir = xasprintf("%s/kernels", root);
	DIR *d = opendir(ldir);
	if (!d) { strfmt(err, errlen, "no lesson folder at %s", ldir); free(ldir); free(kdir); return -1; }
	char **names = NULL;
	int n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t k = strlen(e->d_name);
		if (k > 5 && !strcmp(e->d_name + k - 5, ".yaml") && e->d_name[0] != '.') {
			names = xrealloc(names, (size_t)(n + 1) * sizeof *names);
			names[n++] = xasprintf("%s/%s", ldir, e->d_name);
		}
	}
	closedir(d);
	if (n) qsort(names, (size_t)n, sizeof *names, cmp_str);   /* an empty folder: names is NULL */
	set->items = xcalloc((size_t)n, sizeof *set->items);
	for (int i = 0; i < n; i++) {
		char msg[1024];
		lesson *l = lesson_load(names[i], kdir, msg, sizeof msg);
		if (l && lesson_set_find(set, l->id)) {
			strfmt(msg, sizeof msg, "%s:1:1: lesson id '%s' is used by another lesson too", names[i], l->id);
			lesson_free(l);
			l = NULL;
		}
		if (l) {
			set->items[set->count++] = l;
		} else {
			set->errors = xrealloc(set->errors, (size_t)(set->nerrors + 1) * sizeof(char *));
			set->errors[set->nerrors++] = xstrdup(msg);
		}
		free(names[i]);
	}
	free(names);
	free(ldir);
	free(kdir);
	if (set->count) qsort(set->items, (size_t)set->count, sizeof *set->items, cmp_lesson);
	return 0;
}

const char *const *lesson_library(int i)
{
	return i >= 0 && i < LESSON_YAML_NLIBS ? lesson_yaml_baseline_libs[i] : NULL;
}

int lesson_set_add(lesson_set *set, const char *root, char *err, size_t errlen)
{
	lesson_set more;
	if (lesson_set_load(&more, root, err, errlen)) return -1;
	set->items = xrealloc(set->items, (size_t)(set->count + more.count + 1) * sizeof *set->items);
	for (int i = 0; i < more.count; i++) {
		lesson *l = more.items[i];
		int k = 0;
		while (k < set->count && strcmp(set->items[k]->id, l->id)) k++;
		if (k < set->count) {   /* the tree's wins: said, so that a course's copy is never silently the one run */
			set->notes = xrealloc(set->notes, (size_t)(set->nnotes + 1) * sizeof *set->notes);
			set->notes[set->nnotes++] = xasprintf("%s: lesson '%s' replaces the one of the same id in %s", l->path, l->id, set->items[k]->path);
			lesson_free(set->items[k]);
			set->items[k] = l;
		} else {
			set->items[set->count++] = l;
		}
	}
	set->errors = xrealloc(set->errors, (size_t)(set->nerrors + more.nerrors + 1) * sizeof *set->errors);
	for (int i = 0; i < more.nerrors; i++) set->errors[set->nerrors++] = more.errors[i];
	free(more.items); free(more.errors); free(more.root);
	free(more.notes);
	if (set->count) qsort(set->items, (size_t)set->count, sizeof *set->items, cmp_lesson);
	return 0;
}

void lesson_set_free(lesson_set *set)
{
	for (int i = 0; i < set->count; i++) lesson_free(set->items[i]);
	for (int i = 0; i < set->nerrors; i++) free(set->errors[i]);
	for (int i = 0; i < set->nnotes; i++) free(set->notes[i]);
	free(set->notes);
	free(set->items); free(set->errors); free(set->root);
	memset(set, 0, sizeof *set);
}

lesson *lesson_set_find(const lesson_set *set, const char *id)
{
	for (int i = 0; i < set->count; i++) if (!strcmp(set->items[i]->id, id)) return set->items[i];
	return NULL;
}
