/* textvals: see textvals.h. */
#include "textvals.h"
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "claims.h"
#include "fmt.h"
#include "plan.h"
#include "util.h"

struct textvals_ref {
	replay *rp;
	char *file;
	textvals_ref *next;   /* the lesson's next recording, in the order searched (NULL: the last) */
};

/* GPU folders and files of one folder listed, and recordings of one lesson read (all the places,
 * GPU folders and files together): what one search reads at most. */
enum { REF_DIRS_MAX = 16, REF_FILES_MAX = 256, REF_CHAIN_MAX = 32 };

static int name_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The entries of dir in name order (at most max, no dot files), each malloc'd; their count. */
static int list_sorted(const char *dir, char **out, int max)
{
	DIR *d = opendir(dir);
	if (!d) return 0;
	int n = 0;
	for (struct dirent *e; (e = readdir(d)) && n < max;)
		if (e->d_name[0] != '.') out[n++] = xstrdup(e->d_name);
	closedir(d);
	qsort(out, (size_t)n, sizeof *out, name_cmp);
	return n;
}

static void free_list(char **v, int n)
{
	for (int i = 0; i < n; i++) free(v[i]);
}

/* The folder of GPU folders: dir, else $CUDACLIMB_RECORDED, else the data root's assets/recorded;
 * malloc'd, or NULL. */
static char *recorded_dir(const char *dir)
{
	const char *env = getenv("CUDACLIMB_RECORDED");
	if (!dir && env) dir = env;
	if (dir) return xstrdup(dir);
	char *root = data_root();
	if (!root) return NULL;
	char *own = xasprintf("%s/assets/recorded", root);
	free(root);
	return own;
}

static textvals_ref *ref_of(replay *rp, const char *path)
{
	textvals_ref *r = xcalloc(1, sizeof *r);
	r->rp = rp;
	const char *slash = strrchr(path, '/');
	r->file = xstrdup(slash ? slash + 1 : path);
	return r;
}

textvals_ref *textvals_ref_find_device(const char *dir, int cc)
{
	char *top = recorded_dir(dir), *gpus[REF_DIRS_MAX];
	textvals_ref *found = NULL;
	int ng = top && *top ? list_sorted(top, gpus, REF_DIRS_MAX) : 0;
	for (int g = 0; g < ng && !found; g++) {
		char *sub = xasprintf("%s/%s", top, gpus[g]), *files[REF_FILES_MAX], err[256];
		int nf = list_sorted(sub, files, REF_FILES_MAX);
		for (int i = 0; i < nf; i++) {
			size_t fl = strlen(files[i]);
			if (fl < 6 || strcmp(files[i] + fl - 5, ".json")) continue;
			char *path = xasprintf("%s/%s", sub, files[i]);
			replay *rp = replay_load(path, err, sizeof err);
			const device_info *d = rp ? replay_device(rp) : NULL;
			if (d && d->cc == cc) found = ref_of(rp, path);
			else replay_free(rp);
			free(path);
			break;   /* a GPU folder holds one GPU's recordings: its first file says which */
		}
		free_list(files, nf);
		free(sub);
	}
	free_list(gpus, ng);
	free(top);
	return found;
}

const device_info *textvals_ref_device(const textvals_ref *r) { return r ? replay_device(r->rp) : NULL; }

/* A lesson's recordings as they are found, chained: head, the link to fill next, and how many. */
typedef struct { textvals_ref *head, **tail; int n; } ref_chain;

/* Adds to c the recordings of lesson_id under dir: each file *-LESSON_ID.json that loads, the GPU
 * folders in name order and the files of one folder in name order, while c holds fewer than
 * REF_CHAIN_MAX. */
static void chain_dir(ref_chain *c, const char *dir, const char *lesson_id)
{
	if (!lesson_id || !*lesson_id || strchr(lesson_id, '/') || !dir || !*dir) return;
	char *gpus[REF_DIRS_MAX], suffix[96];
	strfmt(suffix, sizeof suffix, "-%s.json", lesson_id);
	size_t sl = strlen(suffix);
	int ng = list_sorted(dir, gpus, REF_DIRS_MAX);
	for (int g = 0; g < ng && c->n < REF_CHAIN_MAX; g++) {
		char *sub = xasprintf("%s/%s", dir, gpus[g]), *files[REF_FILES_MAX], err[256];
		int nf = list_sorted(sub, files, REF_FILES_MAX);
		for (int i = 0; i < nf && c->n < REF_CHAIN_MAX; i++) {
			size_t fl = strlen(files[i]);
			if (fl <= sl || strcmp(files[i] + fl - sl, suffix)) continue;
			char *path = xasprintf("%s/%s", sub, files[i]);
			replay *rp = replay_load(path, err, sizeof err);
			if (rp) {
				*c->tail = ref_of(rp, path);
				c->tail = &(*c->tail)->next;
				c->n++;
			}
			free(path);
		}
		free_list(files, nf);
		free(sub);
	}
	free_list(gpus, ng);
}

/* Adds to c the recordings of a case of lesson_id under dir (as textvals_ref_find chooses dir): the
 * case's own (*-LESSON.CASE.json) when case_name is a name, then the lesson's. */
static void chain_case(ref_chain *c, const char *dir, const char *lesson_id, const char *case_name)
{
	char *top = recorded_dir(dir);
	if (case_name && *case_name && lesson_id && !strchr(case_name, '/')) {
		char *id = xasprintf("%s.%s", lesson_id, case_name);
		chain_dir(c, top, id);
		free(id);
	}
	chain_dir(c, top, lesson_id);
	free(top);
}

textvals_ref *textvals_ref_find(const char *dir, const char *lesson_id)
{
	ref_chain c = { NULL, NULL, 0 };
	c.tail = &c.head;
	chain_case(&c, dir, lesson_id, NULL);
	return c.head;
}

textvals_ref *textvals_ref_find_case(const char *dir, const char *lesson_id, const char *case_name)
{
	ref_chain c = { NULL, NULL, 0 };
	c.tail = &c.head;
	chain_case(&c, dir, lesson_id, case_name);
	return c.head;
}

char *textvals_tree_recorded(const lesson *l)
{
	if (!l || !l->path) return NULL;
	char *d = xstrdup(l->path);
	for (int up = 0; up < 2; up++) {   /* TREE/lessons/x.yaml -> TREE */
		char *slash = strrchr(d, '/');
		if (!slash) { free(d); return NULL; }
		*slash = 0;
	}
	char *rec = xasprintf("%s/recorded", *d ? d : "/");
	free(d);
	DIR *dir = opendir(rec);
	if (dir) { closedir(dir); return rec; }
	free(rec);
	return NULL;
}

textvals_ref *textvals_ref_find_lesson(const lesson *l, const char *case_name)
{
	if (!l) return NULL;
	ref_chain c = { NULL, NULL, 0 };
	c.tail = &c.head;
	char *own = textvals_tree_recorded(l);
	if (own) chain_case(&c, own, l->id, case_name);
	free(own);
	chain_case(&c, NULL, l->id, case_name);
	return c.head;
}

void textvals_ref_free(textvals_ref *r)
{
	while (r) {
		textvals_ref *next = r->next;
		replay_free(r->rp);
		free(r->file);
		free(r);
		r = next;
	}
}

const char *textvals_ref_gpu(const textvals_ref *r)
{
	const device_info *d = r ? replay_device(r->rp) : NULL;
	return d && d->name[0] ? d->name : "GPU";
}

const char *textvals_ref_file(const textvals_ref *r) { return r ? r->file : ""; }

/* The recorded result of stage id in lesson, or NULL. */
static const run_result *ref_result(const textvals_ref *r, const char *lesson_id, const char *stage)
{
	for (int i = 0; r && i < replay_count(r->rp); i++) {
		const run_result *x = replay_result(r->rp, i);
		if (!strcmp(x->lesson, lesson_id) && !strcmp(x->stage, stage)) return x;
	}
	return NULL;
}

/* How many of stage s's tunables record x was made at other values than their defaults on the
 * recording's device d (a tunable x does not name ran as its default, as replay_find takes it; one whose
 * default cannot be evaluated is taken as at it), and which: "BK=32 PAD=4" into off, "BK=16 PAD=0"
 * into defs (either may be NULL). */
static int off_defaults(const lesson *l, const lesson_stage *s, const run_result *x, const device_info *d, char *off, size_t olen,
                        char *defs, size_t dlen)
{
	const plan_device pd = plan_device_of(d);
	int n = 0;
	if (off && olen) off[0] = 0;
	if (defs && dlen) defs[0] = 0;
	for (int t = 0; t < s->ntunables; t++) {
		size_t len, k;
		int64_t def;
		char err[256];
		const char *v = replay_setting(x->settings, s->tunables[t].name, &len);
		if (!v || plan_tunable_default(l, s, t, &pd, &def, err, sizeof err) ||
		    replay_same_value(v, len, (expr_value){ EXPR_INT, def, 0 }))
			continue;
		if (off && (k = strlen(off)) < olen)
			strfmt(off + k, olen - k, "%s%s=%.*s", n ? " " : "", s->tunables[t].name, (int)len, v);
		if (defs && (k = strlen(defs)) < dlen)
			strfmt(defs + k, dlen - k, "%s%s=%lld", n ? " " : "", s->tunables[t].name, (long long)def);
		n++;
	}
	return n;
}

/* The recording a stage's text takes its figures from: one file of the chain (ref), its record of the
 * stage (run, NULL: none has one), and when that record is not at the stage's defaults the values that
 * differ (off, defs: off_defaults'; "" when at them). */
typedef struct {
	const textvals_ref *ref;
	const run_result *run;
	char off[160], defs[160];
} ref_pick;

/* The first recording of the chain whose record of the source's stage was made at the stage's
 * defaults; else the first with a record of the stage, its differences said; else the first. */
static void pick_ref(const textvals_src *s, ref_pick *out)
{
	memset(out, 0, sizeof *out);
	out->ref = s->ref;
	if (!s->ref || !s->l || s->stage < 0 || s->stage >= s->l->nstages) return;
	const lesson *l = s->l;
	const lesson_stage *st = &l->stages[s->stage];
	const textvals_ref *first = NULL;
	const run_result *first_run = NULL;
	for (const textvals_ref *r = s->ref; r; r = r->next)
		for (int i = 0; i < replay_count(r->rp); i++) {
			const run_result *x = replay_result(r->rp, i);
			if (strcmp(x->lesson, l->id) || strcmp(x->stage, st->id)) continue;
			if (!off_defaults(l, st, x, replay_device(r->rp), NULL, 0, NULL, 0)) {
				out->ref = r;
				out->run = x;
				return;
			}
			if (!first) first = r, first_run = x;
		}
	if (!first) return;
	out->ref = first;
	out->run = first_run;
	off_defaults(l, st, first_run, replay_device(first->rp), out->off, sizeof out->off, out->defs, sizeof out->defs);
}

/* The runs a text is filled from: the stage's (runs) and every stage's by index (stages, nstages; for
 * {time_vs_ID}); owned, when set, is the array to free. */
typedef struct {
	claims_runs runs;
	const run_result *const *stages;
	int nstages;
	const run_result **owned;
} source;

/* The runs of the source's stage in the recording pk chose: its record, and the previous stage's and
 * the baseline's from the same file, and with all every other stage's (run NULL when the stage is in
 * none). Free owned. */
static source ref_source(const textvals_src *s, const ref_pick *pk, int all)
{
	source c = { { NULL, NULL, NULL, NULL }, NULL, 0, NULL };
	if (!pk->ref || !pk->run) return c;
	const lesson *l = s->l;
	c.runs.run = pk->run;
	c.runs.prev = s->stage > 0 ? ref_result(pk->ref, l->id, l->stages[s->stage - 1].id) : NULL;
	const lesson_baseline *b = lesson_baseline_at(l, lesson_stage_baseline(l, s->stage));   /* the stage's own */
	c.runs.baseline = b ? ref_result(pk->ref, l->id, b->id) : NULL;
	c.runs.device = replay_device(pk->ref->rp);
	if (!all) return c;
	c.owned = xcalloc((size_t)l->nstages + 1, sizeof *c.owned);
	for (int k = 0; k < l->nstages; k++) c.owned[k] = ref_result(pk->ref, l->id, l->stages[k].id);
	c.stages = c.owned;
	c.nstages = l->nstages;
	return c;
}

int textvals_has(const char *text)
{
	for (const char *p = text ? strchr(text, '{') : NULL; p; p = strchr(p + 1, '{'))
		if (claims_placeholder(p)) return 1;
	return 0;
}

static int ends(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);
	return n >= k && !memcmp(s + n - k, suffix, k);
}

static int starts(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);
	return n >= k && !memcmp(s, prefix, k);
}

static int is(const char *s, size_t n, const char *name) { return strlen(name) == n && !memcmp(s, name, n); }

/* The value x of the measurement name (n bytes) as the text reads it, with its unit. */
static void format_value(char *out, size_t len, const char *name, size_t n, expr_value x)
{
	if (x.kind == EXPR_INT && !is(name, n, "dram_bytes") && !starts(name, n, "dram_bytes_")) {
		strfmt(out, len, "%lld", (long long)x.i);
		return;
	}
	double v = x.kind == EXPR_INT ? (double)x.i : x.f;
	if (!isfinite(v)) strfmt(out, len, "?");
	else if (is(name, n, "ms") || ends(name, n, "_ms")) fmt_time(out, len, v);   /* kernel_ms, bound_ms, copy_ms too */
	else if (is(name, n, "copy_share")) fmt_pct(out, len, v);                  /* a share, 0..1 */
	else if (ends(name, n, "_gbps")) fmt_gbps(out, len, v);                    /* h2d_gbps, d2h_gbps */
	else if (is(name, n, "gbps")) fmt_gbps(out, len, v);
	else if (is(name, n, "gflops")) fmt_gflops(out, len, v);
	else if (is(name, n, "dram_bytes") || starts(name, n, "dram_bytes_")) fmt_traffic(out, len, v);
	else if (ends(name, n, "_mhz")) strfmt(out, len, "%.0f MHz", v);
	else if (is(name, n, "power_w") || is(name, n, "power_max_w")) strfmt(out, len, "%.0f W", v);
	else if (ends(name, n, "_occupancy")) fmt_pct(out, len, v);
	else if (starts(name, n, "pct_") || ends(name, n, "_pct") || starts(name, n, "stall_")) fmt_pct(out, len, v / 100);
	else if (ends(name, n, "_ratio") || starts(name, n, "time_vs_") || starts(name, n, "speedup_vs_") || starts(name, n, "clock_vs_"))
		strfmt(out, len, v >= 10 ? "%.1fx" : "%.2fx", v);
	else fmt_num(out, len, v);
}

/* GPU name as a text says it: "H100" of "NVIDIA H100 80GB HBM3", "GeForce RTX 4090". */
static void short_gpu(char *out, size_t len, const char *name)
{
	if (!strncmp(name, "NVIDIA ", 7)) name += 7;
	size_t k = 0;
	for (;;) {
		size_t w = strcspn(name + k, " ");
		int digit = strcspn(name + k, "0123456789") < w;
		k += w;
		if (digit || !name[k]) break;
		k++;
	}
	strfmt(out, len, "%.*s", (int)k, name);
}

/* Where a text's numbers come from: all from one source, never mixed, so that a sentence states
 * one GPU's figures and one line says which. */
typedef enum { FROM_NONE, FROM_LIVE, FROM_REF } fill_from;

/* A run that measured something: a failed one (no GPU, a replay miss, a fault) or a compile alone did not. */
static int measured(const run_result *r) { return r && (r->status == RUN_OK || r->status == RUN_WRONG) && r->ms_median > 0; }

/* Whether stalls ("long_scoreboard 41%, barrier 22%, ...", the top three) names the reason (n bytes). */
static int among_stalls(const char *stalls, const char *reason, size_t n)
{
	for (const char *p = stalls; *p; p++) {
		if ((p == stalls || (p >= stalls + 2 && p[-1] == ' ' && p[-2] == ',')) && !strncmp(p, reason, n) && p[n] == ' ')
			return 1;
	}
	return 0;
}

/* The value of the placeholder name (n bytes) from runs into out; 0 when they have it, else "?". A
 * stall reason the run measured the stalls without finding among its top three reads so, not 0%. */
static int fill_one(const textvals_src *s, const source *src, const char *name, size_t n, char *out, size_t len)
{
	const claims_runs *runs = &src->runs;
	expr_value x;
	if (runs->run && starts(name, n, "stall_") && runs->run->stalls[0] &&
	    !among_stalls(runs->run->stalls, name + 6, n - 6)) {
		strfmt(out, len, "not among the top stalls");
		return 0;
	}
	if (runs->run && claims_value_stages(s->l, s->stage, runs, src->stages, src->nstages, name, n, &x, NULL, 0) == 0) {
		format_value(out, len, name, n, x);
		return 0;
	}
	strfmt(out, len, "?");
	return -1;
}

/* Counts of placeholders: [0] the stage's own numbers, [1] ratios to another stage ({time_vs_ID}). */
typedef struct { int total[2], live[2], ref[2]; } fill_counts;

/* 1 for a ratio to another stage than the previous one or the baseline: {time_vs_ID}. */
static int other_stage(const char *name, size_t n)
{
	const char *id;
	size_t idlen;
	return claims_stage_ratio(name, n, &id, &idlen);
}

/* 1 when text has a ratio to another stage. */
static int has_other_stage(const char *text)
{
	for (const char *q = text ? strchr(text, '{') : NULL; q; q = strchr(q + 1, '{')) {
		size_t n = claims_placeholder(q);
		if (n && other_stage(q + 1, n)) return 1;
	}
	return 0;
}

/* How many of text's placeholders each source can fill, added to fc. */
static void count(const textvals_src *s, const source *live, const source *ref, const char *text, fill_counts *fc)
{
	for (const char *q = text ? strchr(text, '{') : NULL; q; q = strchr(q + 1, '{')) {
		size_t n = claims_placeholder(q);
		if (!n) continue;
		char v[160];
		int k = other_stage(q + 1, n);
		fc->total[k]++;
		fc->live[k] += live->runs.run && fill_one(s, live, q + 1, n, v, sizeof v) == 0;
		fc->ref[k] += ref->runs.run && fill_one(s, ref, q + 1, n, v, sizeof v) == 0;
	}
}

/* The stage's own runs when they measured anything, else none; the other stages' from the source. */
static source live_source(const textvals_src *s)
{
	source c = { s->live, s->live_stages, s->live_stages ? s->nlive_stages : 0, NULL };
	if (!measured(c.runs.run)) c.runs.run = NULL;
	return c;
}

/* One source for texts whose placeholders fc counted: this run's when it has every number; else the
 * recording's when it has more of them; else this run's, the rest "?". Ratios to other stages count
 * only where the texts have no other number. */
static fill_from pick(const fill_counts *fc)
{
	int k = fc->total[0] ? 0 : 1;
	if (fc->live[k] && fc->live[k] == fc->total[k]) return FROM_LIVE;
	if (fc->ref[k] > fc->live[k]) return FROM_REF;
	if (fc->live[k]) return FROM_LIVE;
	return FROM_NONE;
}

/* {theoretical_occupancy} from the source's compile alone, when it has one that knows it: 0, else -1. */
static int fill_compiled(const textvals_src *s, const char *name, size_t n, char *out, size_t len)
{
	if (!s->compiled || !s->compiled->occ_max_warps || !is(name, n, "theoretical_occupancy")) return -1;
	format_value(out, len, name, n, (expr_value){ EXPR_FLOAT, 0, s->compiled->occ_theoretical });
	return 0;
}

/* text filled from runs; *compiled set when a number came from the compile alone (fill_compiled). */
static char *fill(const textvals_src *s, const source *runs, const char *text, int *compiled)
{
	if (!text) return NULL;
	sb b = { 0 };
	const char *p = text;
	for (const char *q; (q = strchr(p, '{'));) {
		size_t n = claims_placeholder(q);
		if (!n) { sb_addn(&b, p, (size_t)(q - p) + 1); p = q + 1; continue; }
		char v[160];
		sb_addn(&b, p, (size_t)(q - p));
		if (fill_one(s, runs, q + 1, n, v, sizeof v) && !fill_compiled(s, q + 1, n, v, sizeof v)) *compiled = 1;
		sb_add(&b, v);
		p = q + n + 2;
	}
	sb_add(&b, p);
	return sb_take(&b);
}

/* The note on texts filled from `from` (fc their counts; pk the recording chosen for them). */
static void note(const textvals_src *src, const ref_pick *pk, fill_from from, const fill_counts *fc, char *out, size_t len)
{
	const char *here = src->live.device && src->live.device->name[0] ? src->live.device->name : "this GPU";
	char gpu[64], at[360] = "";
	short_gpu(gpu, sizeof gpu, textvals_ref_gpu(pk->ref));
	if (pk->off[0]) strfmt(at, sizeof at, " (recorded at %s; the defaults are %s)", pk->off, pk->defs);
	int missing = fc->total[0] + fc->total[1] - (from == FROM_LIVE ? fc->live[0] + fc->live[1] : fc->ref[0] + fc->ref[1]);
	if (from == FROM_LIVE && src->live_from)
		strfmt(out, len, "Figures from %s (%s), not a run of yours.%s", src->live_from, here,
		       missing ? " ?: not in it." : "");
	else if (from == FROM_LIVE)
		strfmt(out, len, "Figures from your last run (%s).%s", here, missing ? " ?: not measured in it." : "");
	else if (from == FROM_REF) {
		char why[200];
		if (measured(src->live.run) && src->live_from) strfmt(why, sizeof why, "%s lacks some of them", src->live_from);
		else if (measured(src->live.run)) strfmt(why, sizeof why, "your last run did not measure them all");
		else strfmt(why, sizeof why, "no run of yours yet");   /* none, or one that measured nothing */
		strfmt(out, len, "Figures from the %s recording %s%s: %s.%s", gpu, textvals_ref_file(pk->ref), at, why,
		       missing ? " ?: not in it." : "");
	}
	else
		strfmt(out, len, "Figures not measured yet (?): run the stage.");
}

void textvals_stage_fill(const textvals_src *src, const char *a, const char *b, char **fa, char **fb, char *out, size_t len)
{
	if (len) out[0] = 0;
	ref_pick pk;
	pick_ref(src, &pk);
	source live = live_source(src), ref = ref_source(src, &pk, has_other_stage(a) || has_other_stage(b));
	fill_counts fc = { { 0, 0 }, { 0, 0 }, { 0, 0 } };
	count(src, &live, &ref, a, &fc);
	count(src, &live, &ref, b, &fc);
	fill_from from = pick(&fc);
	const source *runs = from == FROM_REF ? &ref : &live;
	int compiled = 0;
	if (fa) *fa = fill(src, runs, a, &compiled);
	if (fb) *fb = fill(src, runs, b, &compiled);
	if (!fa && !fb) {   /* the note alone: would the compile fill one? */
		char *x = fill(src, runs, a, &compiled), *y = fill(src, runs, b, &compiled);
		free(x);
		free(y);
	}
	if (fc.total[0] + fc.total[1]) note(src, &pk, from, &fc, out, len);
	free(ref.owned);
	if (compiled && len) {
		size_t k = strlen(out);
		strfmt(out + k, len - k, "%sTheoretical occupancy: compiled for %s.", k ? " " : "", src->compiled->arch[0] ? src->compiled->arch : "this GPU");
	}
}

char *textvals_fill(const textvals_src *src, const char *text)
{
	char *f = NULL, n[8];
	textvals_stage_fill(src, text, NULL, &f, NULL, n, sizeof n);
	return f;
}

void textvals_note(const textvals_src *src, const char *text, char *out, size_t len)
{
	textvals_stage_fill(src, text, NULL, NULL, NULL, out, len);
}
