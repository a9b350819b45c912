/* engine_replay: see engine_replay.h. */
#include "engine_replay.h"
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "util.h"

struct replay {
	device_info dev;
	run_result *r; int n;
};

static int fail(char *err, size_t errlen, const char *path, yaml_mark_t m, const char *msg)
{
	strfmt(err, errlen, "%s:%zu:%zu: %s", path, m.line + 1, m.column + 1, msg);
	return -1;
}

/* Fills obj from a flat mapping of field names to scalars; unknown names are skipped (newer files). */
static int read_object(yaml_document_t *doc, yaml_node_t *map, const field *fs, int nf, void *obj, char **log,
                       const char *path, char *err, size_t errlen)
{
	if (map->type != YAML_MAPPING_NODE) return fail(err, errlen, path, map->start_mark, "expected an object");
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(doc, p->key), *v = yaml_document_get_node(doc, p->value);
		if (k->type != YAML_SCALAR_NODE || v->type != YAML_SCALAR_NODE) continue;
		const char *name = (const char *)k->data.scalar.value, *val = (const char *)v->data.scalar.value;
		if (log && !strcmp(name, "log")) { free(*log); *log = xstrdup(val); continue; }
		if (!strcmp(val, "null")) continue;
		for (int i = 0; i < nf; i++) {
			if (strcmp(fs[i].name, name)) continue;
			if (field_set_plain(fs, nf, obj, name, val)) return fail(err, errlen, path, v->start_mark, "a value of the wrong kind");
		}
	}
	return 0;
}

replay *replay_load(const char *path, char *err, size_t errlen)
{
	size_t len;
	char *text = file_read(path, &len);
	if (!text) { strfmt(err, errlen, "%s: cannot read the replay file", path); return NULL; }
	yaml_parser_t p;
	yaml_document_t doc;
	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	if (!yaml_parser_load(&p, &doc)) {
		fail(err, errlen, path, p.problem_mark, p.problem ? p.problem : "not JSON");
		yaml_parser_delete(&p);
		free(text);
		return NULL;
	}
	yaml_parser_delete(&p);
	replay *rp = xcalloc(1, sizeof *rp);
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	int bad = !root || root->type != YAML_MAPPING_NODE;
	if (bad) strfmt(err, errlen, "%s:1:1: expected {\"device\": ..., \"results\": [...]}", path);
	for (yaml_node_pair_t *pr = bad ? NULL : root->data.mapping.pairs.start; pr && pr < root->data.mapping.pairs.top && !bad; pr++) {
		yaml_node_t *k = yaml_document_get_node(&doc, pr->key), *v = yaml_document_get_node(&doc, pr->value);
		const char *name = k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : "";
		if (!strcmp(name, "device")) {
			bad = read_object(&doc, v, device_info_fields, device_info_nfields, &rp->dev, NULL, path, err, errlen);
		} else if (!strcmp(name, "results")) {
			if (v->type != YAML_SEQUENCE_NODE) { bad = fail(err, errlen, path, v->start_mark, "results must be a list"); break; }
			int n = (int)(v->data.sequence.items.top - v->data.sequence.items.start);
			rp->r = xcalloc((size_t)n + 1, sizeof *rp->r);
			for (int i = 0; i < n && !bad; i++) {
				run_result *r = &rp->r[rp->n++];
				run_result_init(r);
				bad = read_object(&doc, yaml_document_get_node(&doc, v->data.sequence.items.start[i]), run_result_fields,
				                  run_result_nfields, r, &r->log, path, err, errlen);
			}
		}
	}
	yaml_document_delete(&doc);
	free(text);
	if (bad) { replay_free(rp); return NULL; }
	return rp;
}

const device_info *replay_device(const replay *rp) { return &rp->dev; }
int replay_count(const replay *rp) { return rp->n; }

static int has_setting(const char *settings, const plan_setting *s)
{
	char want[256];
	strfmt(want, sizeof want, "%s=%s", s->name, s->value);
	size_t wl = strlen(want);
	for (const char *p = strstr(settings, want); p; p = strstr(p + 1, want))
		if ((p == settings || p[-1] == ' ') && (p[wl] == 0 || p[wl] == ' ')) return 1;
	return 0;
}

int replay_answer(const replay *rp, const engine_job *j, run_result *r)
{
	const char *stage = j->stage >= 0 ? j->lesson->stages[j->stage].id : "baseline";
	for (int i = 0; i < rp->n; i++) {
		const run_result *x = &rp->r[i];
		if (strcmp(x->lesson, j->lesson->id) || strcmp(x->stage, stage)) continue;
		int ok = 1;
		for (int k = 0; k < j->nsets && ok; k++) ok = has_setting(x->settings, &j->sets[k]);
		if (!ok) continue;
		free(r->log);
		run_result_copy(r, x);
		return 0;
	}
	return -1;
}

void replay_free(replay *rp)
{
	if (!rp) return;
	for (int i = 0; i < rp->n; i++) run_result_clear(&rp->r[i]);
	free(rp->r);
	free(rp);
}
