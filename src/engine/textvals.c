/* textvals: see textvals.h. */
#include "textvals.h"
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "claims.h"
#include "fmt.h"
#include "util.h"

struct textvals_ref {
	replay *rp;
	char *file;
};

enum { REF_DIRS_MAX = 16 };

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

/* The first file *-LESSON.json in dir/GPU/ over the GPU folders in name order, malloc'd, or NULL. */
static char *find_file(const char *dir, const char *lesson_id)
{
	char *gpus[REF_DIRS_MAX], *found = NULL, suffix[96];
	strfmt(suffix, sizeof suffix, "-%s.json", lesson_id);
	size_t sl = strlen(suffix);
	int ng = list_sorted(dir, gpus, REF_DIRS_MAX);
	for (int g = 0; g < ng && !found; g++) {
		char *sub = xasprintf("%s/%s", dir, gpus[g]), *files[256];
		int nf = list_sorted(sub, files, 256);
		for (int i = 0; i < nf && !found; i++) {
			size_t fl = strlen(files[i]);
			if (fl > sl && !strcmp(files[i] + fl - sl, suffix)) found = xasprintf("%s/%s", sub, files[i]);
		}
		free_list(files, nf);
		free(sub);
	}
	free_list(gpus, ng);
	return found;
}

textvals_ref *textvals_ref_find(const char *dir, const char *lesson_id)
{
	if (!lesson_id || !*lesson_id || strchr(lesson_id, '/')) return NULL;
	char *own = NULL;
	const char *env = getenv("CUDACLIMB_RECORDED");
	if (!dir && env) dir = env;
	if (!dir) {
		char *root = data_root();
		if (!root) return NULL;
		own = xasprintf("%s/assets/recorded", root);
		free(root);
		dir = own;
	}
	char *path = *dir ? find_file(dir, lesson_id) : NULL, err[256];
	free(own);
	if (!path) return NULL;
	replay *rp = replay_load(path, err, sizeof err);
	if (!rp) { free(path); return NULL; }
	textvals_ref *r = xcalloc(1, sizeof *r);
	r->rp = rp;
	const char *slash = strrchr(path, '/');
	r->file = xstrdup(slash ? slash + 1 : path);
	free(path);
	return r;
}

void textvals_ref_free(textvals_ref *r)
{
	if (!r) return;
	replay_free(r->rp);
	free(r->file);
	free(r);
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

/* The recording's runs of the source's stage (run NULL when the stage is not in it). */
static claims_runs ref_runs(const textvals_src *s)
{
	claims_runs c = { NULL, NULL, NULL, NULL };
	if (!s->ref) return c;
	const lesson *l = s->l;
	c.run = ref_result(s->ref, l->id, l->stages[s->stage].id);
	c.prev = s->stage > 0 ? ref_result(s->ref, l->id, l->stages[s->stage - 1].id) : NULL;
	const lesson_baseline *b = lesson_baseline_at(l, lesson_stage_baseline(l, s->stage));   /* the stage's own */
	c.baseline = b ? ref_result(s->ref, l->id, b->id) : NULL;
	c.device = replay_device(s->ref->rp);
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
	else if (is(name, n, "ms")) fmt_time(out, len, v);
	else if (is(name, n, "gbps")) fmt_gbps(out, len, v);
	else if (is(name, n, "gflops")) fmt_gflops(out, len, v);
	else if (is(name, n, "dram_bytes") || starts(name, n, "dram_bytes_")) fmt_traffic(out, len, v);
	else if (ends(name, n, "_occupancy")) fmt_pct(out, len, v);
	else if (starts(name, n, "pct_") || ends(name, n, "_pct") || starts(name, n, "stall_")) fmt_pct(out, len, v / 100);
	else if (ends(name, n, "_ratio") || starts(name, n, "time_vs_") || starts(name, n, "speedup_vs_"))
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

typedef struct { int live, recorded, none; } fill_counts;

/* The value of the placeholder name (n bytes) into out; counts where it came from. */
static void fill_one(const textvals_src *s, const claims_runs *ref, const char *name, size_t n, char *out, size_t len,
                     fill_counts *fc)
{
	expr_value x;
	if (s->live.run && claims_value(s->l, s->stage, &s->live, name, n, &x, NULL, 0) == 0) {
		format_value(out, len, name, n, x);
		fc->live++;
		return;
	}
	if (ref->run && claims_value(s->l, s->stage, ref, name, n, &x, NULL, 0) == 0) {
		char v[48], gpu[64];
		format_value(v, sizeof v, name, n, x);
		short_gpu(gpu, sizeof gpu, textvals_ref_gpu(s->ref));
		if (s->live.run) strfmt(out, len, "%s on the %s of the recording", v, gpu);
		else strfmt(out, len, "%s", v);
		fc->recorded++;
		return;
	}
	strfmt(out, len, "?");
	fc->none++;
}

static char *fill(const textvals_src *s, const char *text, fill_counts *fc)
{
	memset(fc, 0, sizeof *fc);
	if (!text) return NULL;
	claims_runs ref = ref_runs(s);
	sb b = { 0 };
	const char *p = text;
	for (const char *q; (q = strchr(p, '{'));) {
		size_t n = claims_placeholder(q);
		if (!n) { sb_addn(&b, p, (size_t)(q - p) + 1); p = q + 1; continue; }
		char v[160];
		sb_addn(&b, p, (size_t)(q - p));
		fill_one(s, &ref, q + 1, n, v, sizeof v, fc);
		sb_add(&b, v);
		p = q + n + 2;
	}
	sb_add(&b, p);
	return sb_take(&b);
}

char *textvals_fill(const textvals_src *src, const char *text)
{
	fill_counts fc;
	return fill(src, text, &fc);
}

void textvals_note(const textvals_src *src, const char *text, char *out, size_t len)
{
	if (len) out[0] = 0;
	if (!textvals_has(text)) return;
	fill_counts fc;
	free(fill(src, text, &fc));
	const char *here = src->live.device && src->live.device->name[0] ? src->live.device->name : "this GPU";
	const char *gpu = textvals_ref_gpu(src->ref), *file = textvals_ref_file(src->ref);
	if (fc.live && !fc.recorded)
		strfmt(out, len, "Numbers: this GPU's last run (%s).%s", here, fc.none ? " ?: not measured in it." : "");
	else if (fc.live)
		strfmt(out, len, "Numbers: this GPU's last run (%s); the rest from the recording %s on an %s.", here, file, gpu);
	else if (fc.recorded)
		strfmt(out, len, "Numbers: the recording %s on an %s, not this GPU%s; run the stage for yours.", file, gpu,
		       fc.none ? " (?: not in it)" : "");
	else
		strfmt(out, len, "Numbers: not measured yet (?): run the stage.");
}
