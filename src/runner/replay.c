/* replay: see replay.h. */
#include "replay.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "util.h"
#include "yamldoc.h"

struct replay {
	device_info dev;
	run_result *r; int n;
};

static int read_object(yd *c, yaml_node_t *map, const field *fs, int nf, void *obj, char **log);

/* A result's "steps": a list of objects of run_step_fields (a recording made before steps has none);
 * past RUN_MAX_STEPS they are dropped. */
static int read_steps(yd *c, yaml_node_t *list, run_result *r)
{
	if (list->type != YAML_SEQUENCE_NODE) return yd_fail(c, list, "steps must be a list");
	r->nsteps = 0;
	for (int i = 0; i < yd_seq_len(list) && r->nsteps < RUN_MAX_STEPS; i++) {
		run_step *s = &r->steps[r->nsteps++];
		run_step_init(s);
		if (read_object(c, yd_seq_at(c, list, i), run_step_fields, run_step_nfields, s, NULL)) return -1;
	}
	return 0;
}

/* Fills obj from a flat mapping of field names to scalars; unknown names are skipped (newer files). */
static int read_object(yd *c, yaml_node_t *map, const field *fs, int nf, void *obj, char **log)
{
	if (map->type != YAML_MAPPING_NODE) return yd_fail(c, map, "expected an object");
	for (int i = 0; i < yd_map_len(map); i++) {
		yaml_node_t *k, *v;
		yd_pair(c, map, i, &k, &v);
		if (log && k->type == YAML_SCALAR_NODE && !strcmp((const char *)k->data.scalar.value, "steps")) {
			if (read_steps(c, v, obj)) return -1;
			continue;
		}
		if (k->type != YAML_SCALAR_NODE || v->type != YAML_SCALAR_NODE) continue;
		const char *name = (const char *)k->data.scalar.value, *val = (const char *)v->data.scalar.value;
		if (log && !strcmp(name, "log")) { free(*log); *log = xstrdup(val); continue; }
		if (!strcmp(val, "null")) continue;
		for (int f = 0; f < nf; f++) {
			if (strcmp(fs[f].name, name)) continue;
			if (field_set_plain(fs, nf, obj, name, val)) return yd_fail(c, v, "a value of the wrong kind, or out of range");
		}
	}
	return 0;
}

/* Control characters (C0 but tab and newline, DEL, C1 as UTF-8) and the bidi and zero-width ones
 * (util_invisible_len) become '?' in place: text from the file never drives a terminal or reorders
 * what is shown beside it, whoever prints it. */
static void clean(char *s)
{
	unsigned char *w = (unsigned char *)s;
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
		if (*p == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F) { *w++ = '?'; p++; continue; }
		int inv = util_invisible_len((const char *)p);
		if (inv) { *w++ = '?'; p += inv - 1; continue; }
		*w++ = (*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7F ? '?' : *p;
	}
	if (w) *w = 0;
}

static void clean_fields(const field *fs, int nf, void *obj)
{
	for (int i = 0; i < nf; i++) if (fs[i].type == FT_STR) clean((char *)obj + fs[i].offset);
}

replay *replay_load(const char *path, char *err, size_t errlen)
{
	size_t len;
	char *text = file_read(path, &len);
	if (!text) { strfmt(err, errlen, "%s: cannot read the replay file: %s", path, file_strerror(errno)); return NULL; }
	replay *rp = replay_load_buffer(path, text, len, err, errlen);
	free(text);
	return rp;
}

replay *replay_load_buffer(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
	yd c = { .file = path, .err = err, .errlen = errlen };
	if (yd_load(&c, text, len)) { yd_done(&c); return NULL; }
	replay *rp = xcalloc(1, sizeof *rp);
	yaml_node_t *root = yd_root(&c);
	int bad = !root || root->type != YAML_MAPPING_NODE;
	if (bad) yd_fail_at(&c, (yaml_mark_t){0, 0, 0}, "expected {\"device\": ..., \"results\": [...]}");
	for (int p = 0; !bad && p < yd_map_len(root); p++) {
		yaml_node_t *k, *v;
		yd_pair(&c, root, p, &k, &v);
		const char *name = k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : "";
		if (!strcmp(name, "device")) {
			bad = read_object(&c, v, device_info_fields, device_info_nfields, &rp->dev, NULL);
		} else if (!strcmp(name, "results")) {
			if (v->type != YAML_SEQUENCE_NODE) { bad = yd_fail(&c, v, "results must be a list"); break; }
			int n = yd_seq_len(v);
			/* a result takes about 33 KB (its steps are inline), so a small file of many "{}" would take
			 * gigabytes: a replay is someone else's file */
			if (n > REPLAY_MAX_RESULTS) { bad = yd_fail(&c, v, "%d results, more than a replay may hold (%d)", n, REPLAY_MAX_RESULTS); break; }
			rp->r = xcalloc((size_t)n + 1, sizeof *rp->r);
			for (int i = 0; i < n && !bad; i++) {
				run_result *r = &rp->r[rp->n++];
				run_result_init(r);
				bad = read_object(&c, yd_seq_at(&c, v, i), run_result_fields, run_result_nfields, r, &r->log);
			}
		}
	}
	yd_done(&c);
	if (bad) { replay_free(rp); return NULL; }
	clean_fields(device_info_fields, device_info_nfields, &rp->dev);
	for (int i = 0; i < rp->n; i++) {
		clean_fields(run_result_fields, run_result_nfields, &rp->r[i]);
		for (int k = 0; k < rp->r[i].nsteps; k++) clean_fields(run_step_fields, run_step_nfields, &rp->r[i].steps[k]);
		clean(rp->r[i].log);
	}
	return rp;
}

const device_info *replay_device(const replay *rp) { return &rp->dev; }
int replay_count(const replay *rp) { return rp->n; }
const run_result *replay_result(const replay *rp, int i) { return i >= 0 && i < rp->n ? &rp->r[i] : NULL; }

const char *replay_setting(const char *settings, const char *name, size_t *len)
{
	size_t nl = strlen(name);
	for (const char *p = settings; *p;) {
		size_t k = strcspn(p, " ");
		if (k > nl && !strncmp(p, name, nl) && p[nl] == '=') { *len = k - nl - 1; return p + nl + 1; }
		p += k;
		while (*p == ' ') p++;
	}
	return NULL;
}

int replay_same_value(const char *text, size_t len, expr_value v)
{
	char mine[48], theirs[48], *end;
	expr_format(v, mine, sizeof mine);
	strfmt(theirs, sizeof theirs, "%.*s", (int)len, text);
	if (!strcmp(mine, theirs)) return 1;
	double a = strtod(theirs, &end), b = expr_as_double(v);
	return *end == 0 && end != theirs && fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b));
}

/* 1 when every NAME=VALUE of the record that the plan knows has the plan's value (all), or when
 * every setting the job names is recorded with the plan's value (!all); a name at its default (NAME*)
 * also agrees with a record made before that tunable existed, and, when !all, with a record made
 * while its default was another value (the answer then says "recorded at ..."). */
static int record_agrees(const run_result *x, const char *const *names, int nnames, const plan *p, int all)
{
	size_t len;
	const char *v;
	for (int k = 0; k < nnames; k++) {
		char name[64];
		const size_t nl = strcspn(names[k], "*");
		const int at_default = names[k][nl] == '*';
		strfmt(name, sizeof name, "%.*s", (int)nl, names[k]);
		const expr_value *mine = plan_var_get(p, name);
		if (!mine) return 0;
		if (!(v = replay_setting(x->settings, name, &len))) {
			if (at_default) continue;   /* recorded before the tunable existed: it ran as its default does */
			return 0;
		}
		if (!replay_same_value(v, len, *mine) && !(at_default && !all)) return 0;
	}
	for (int i = 0; all && i < p->nvars; i++)
		if ((v = replay_setting(x->settings, p->vars[i].name, &len)) && !replay_same_value(v, len, p->vars[i].v)) return 0;
	return 1;
}

/* "recorded at n=67108864; asked n=268435456": the values the record has that the plan does not
 * (a record found by the settings the job named, the others left at defaults that differ). */
static void differs(const run_result *x, const plan *p, char *out, size_t n)
{
	char rec[256] = "", ask[256] = "", mine[48];
	size_t len;
	const char *v;
	for (int i = 0; i < p->nvars; i++) {
		if (!(v = replay_setting(x->settings, p->vars[i].name, &len)) || replay_same_value(v, len, p->vars[i].v)) continue;
		expr_format(p->vars[i].v, mine, sizeof mine);
		size_t a = strlen(rec), b = strlen(ask);
		strfmt(rec + a, sizeof rec - a, "%s%s=%.*s", a ? " " : "", p->vars[i].name, (int)len, v);
		strfmt(ask + b, sizeof ask - b, "%s%s=%s", b ? " " : "", p->vars[i].name, mine);
	}
	if (rec[0]) strfmt(out, n, "recorded at %s; asked %s", rec, ask);
}

int replay_find(const replay *rp, const char *lesson_id, const char *stage_id, const char *const *names, int nnames, const plan *p,
                run_result *r)
{
	const run_result *found = NULL;
	for (int all = 1; all >= 0 && !found; all--)
		for (int i = 0; i < rp->n && !found; i++) {
			const run_result *x = &rp->r[i];
			if (!strcmp(x->lesson, lesson_id) && !strcmp(x->stage, stage_id) && record_agrees(x, names, nnames, p, all)) found = x;
		}
	if (!found) return -1;
	free(r->log);
	free(r->hotspots);
	run_result_copy(r, found);
	if (!record_agrees(found, names, nnames, p, 1)) differs(found, p, r->message, sizeof r->message);
	return 0;
}

void replay_miss(const replay *rp, const char *lesson_id, const char *stage_id, const plan *p, char *out, size_t n)
{
	const run_result *x = NULL;
	int records = 0;
	for (int i = 0; i < rp->n; i++)
		if (!strcmp(rp->r[i].lesson, lesson_id) && !strcmp(rp->r[i].stage, stage_id)) {
			if (!x) x = &rp->r[i];
			records++;
		}
	if (!x) { strfmt(out, n, "this run is not in the replay file: it has no run of %s", stage_id); return; }
	char why[400] = "";
	differs(x, p, why, sizeof why);
	if (why[0])
		strfmt(out, n, "this run is not in the replay file: %s%s", why, records > 1 ? ", among others" : "");
	else
		strfmt(out, n, "this run is not in the replay file (its settings differ from the recording's)");
}

void replay_free(replay *rp)
{
	if (!rp) return;
	for (int i = 0; i < rp->n; i++) run_result_clear(&rp->r[i]);
	free(rp->r);
	free(rp);
}
