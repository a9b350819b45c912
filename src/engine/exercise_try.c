/* exercise_try: one try of a learner's file. The runs, submitted together and stopped at the first
 * failure: the exercise's sizes (or a tiny and an odd one), each with fresh inputs and checks only;
 * the lesson's size, checked and timed in alternation with the stage's own kernel; the lesson's size
 * again with fresh inputs (a kernel that replays a remembered answer fails there); then, after the
 * verdict, one run with the hardware counters for the diagnosis. Every run is untrusted: the worker
 * hides the reference from the learner's kernel and watches the guard zones. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pwd.h>
#include <sys/random.h>
#include <unistd.h>
#include <time.h>
#include "course.h"
#include "exercise.h"
#include "results.h"
#include "sanitize.h"
#include "util.h"

struct ex_try {
	engine *e;
	const lesson *l;
	int stage;
	char *text, *name;          /* the learner's source, read once, and its path */
	plan_setting sets[16]; int nsets;
	int counters, no_sanitizer;
	uint64_t seed;
	int job[EX_MAX_CHECKS];
	int own_job;                /* judged on the kernels: the stage's own kernel at the lesson's size, timed */
	int own_done;
	run_result own;
	int diag_job, san_job;
	int state;                  /* 0 running, 1 verdict known, 2 all done */
	ex_verdict v;
};


/* ---- sizes ---- */

typedef struct { const plan *p; } lookup_ctx;

static int lookup(void *ctx, const char *name, size_t len, expr_value *out)
{
	char n[64];
	strfmt(n, sizeof n, "%.*s", (int)len, name);
	const expr_value *v = plan_var_get(((lookup_ctx *)ctx)->p, n);
	if (!v) return -1;
	*out = *v;
	return 0;
}

/* v made odd and not a multiple of 3, 5 or 7 (so that no tile, warp or vector width divides it). */
static int64_t oddish(int64_t v)
{
	if (v < 11) v = 11;
	v |= 1;
	while (v % 3 == 0 || v % 5 == 0 || v % 7 == 0) v += 2;
	return v;
}

int ex_sizes(engine *e, const lesson *l, int stage, ex_size *out, int cap)
{
	const lesson_exercise *x = l->stages[stage].exercise;
	int n = 0;
	if (x && x->nsizes) {
		for (int i = 0; i < x->nsizes && n < cap; i++, n++) {
			ex_size *z = &out[n];
			memset(z, 0, sizeof *z);
			strfmt(z->label, sizeof z->label, "size %d", i + 1);
			for (int k = 0; k < x->sizes[i].n && k < 8; k++, z->nsets++) {
				strfmt(z->sets[k].name, sizeof z->sets[k].name, "%s", x->sizes[i].names[k]);
				strfmt(z->sets[k].value, sizeof z->sets[k].value, "%s", x->sizes[i].values[k]);
			}
		}
		return n;
	}
	plan p;
	plan_device pd;
	engine_plan_device(e, &pd);
	char err[512];
	if (plan_make(&p, l, stage, NULL, 0, &pd, err, sizeof err)) { plan_free(&p); return 0; }
	lookup_ctx lc = { &p };
	for (int which = 0; which < 2 && n < cap; which++) {
		ex_size *z = &out[n];
		memset(z, 0, sizeof *z);
		strfmt(z->label, sizeof z->label, "%s", which ? "odd" : "tiny");
		int k = 0;
		for (int i = 0; i < l->nparams && z->nsets < 8; i++) {
			const lesson_param *pa = &l->params[i];
			const expr_value *dv = plan_var_get(&p, pa->name);
			if (pa->type != DT_I64 || !dv) continue;
			int64_t v = which ? oddish(expr_as_int(*dv) / 7) : 3 + 2 * k, lo, hi;
			expr_value b;
			if (pa->min.e && !expr_eval(pa->min.e, lookup, &lc, &b, NULL) && v < (lo = expr_as_int(b))) v = lo;
			if (pa->max.e && !expr_eval(pa->max.e, lookup, &lc, &b, NULL) && v > (hi = expr_as_int(b))) v = hi;
			strfmt(z->sets[z->nsets].name, sizeof z->sets[0].name, "%s", pa->name);
			strfmt(z->sets[z->nsets].value, sizeof z->sets[0].value, "%lld", (long long)v);
			z->nsets++;
			k++;
		}
		if (z->nsets) n++;
	}
	plan_free(&p);
	return n;
}

/* ---- the runs ---- */

/* settings = the try's, with the size's parameters replacing any the try set. */
static int merge_sets(const ex_try *t, const ex_size *z, plan_setting *out)
{
	int n = 0;
	for (int i = 0; i < t->nsets; i++) {
		int over = 0;
		for (int k = 0; z && k < z->nsets; k++) over |= !strcmp(z->sets[k].name, t->sets[i].name);
		if (!over && n < 16) out[n++] = t->sets[i];
	}
	for (int k = 0; z && k < z->nsets && n < 16; k++) out[n++] = z->sets[k];
	return n;
}

static int submit(ex_try *t, const ex_size *z, int pair, int counters, int sanitize, uint64_t seed, char *err, size_t errlen)
{
	const lesson_exercise *x = t->l->stages[t->stage].exercise;
	engine_job j;
	memset(&j, 0, sizeof j);
	j.lesson = t->l;
	j.stage = t->stage;
	j.nsets = merge_sets(t, z, j.sets);
	j.no_time = !pair;
	j.pair = pair;
	if (pair && !t->v.judged_kernels) j.decide_bar = t->v.bar;   /* judged on this pair's ratio: it may stop once decided */
	j.counters = counters;
	j.kernel_text = t->text;
	j.kernel_name = t->name;
	j.untrusted = 1;
	j.sanitize = sanitize;
	j.seed = seed;
	j.has_seed = 1;
	if (x->has_tolerance) {
		j.has_tolerance = 1;
		j.exact = x->exact;
		j.rel_tol = x->rel_tol;
		j.abs_tol = x->abs_tol;
		j.norm_tol = x->norm_tol;
	}
	return engine_submit(t->e, &j, err, errlen);
}

/* The lesson's parameters as a run with these settings has them ("n=5"); the settings' own text
 * when the plan refuses them (the run will say why). */
static void sizes_text(const ex_try *t, const plan_setting *s, int n, char *out, size_t len)
{
	plan p;
	plan_device pd;
	engine_plan_device(t->e, &pd);
	char err[256], v[48];
	sb b = {0};
	if (plan_make(&p, t->l, t->stage, s, n, &pd, err, sizeof err) == 0) {
		for (int i = 0; i < t->l->nparams; i++) {
			const expr_value *x = plan_var_get(&p, t->l->params[i].name);
			if (x && t->l->params[i].type == DT_I64) sb_addf(&b, "%s%s=%s", b.len ? " " : "", t->l->params[i].name, expr_format(*x, v, sizeof v));
		}
	} else {
		for (int i = 0; i < n; i++) if (lesson_find_param(t->l, s[i].name)) sb_addf(&b, "%s%s=%s", b.len ? " " : "", s[i].name, s[i].value);
	}
	plan_free(&p);
	strfmt(out, len, "%s", b.s ? b.s : "");
	sb_free(&b);
}

/* ---- the judged time ---- */

int ex_judge_of(const lesson_exercise *x, double copied_bytes)
{
	if (x && x->judge == JUDGE_KERNEL) return 1;
	if (x && x->judge == JUDGE_WHOLE) return 0;
	return copied_bytes > 0;
}

double ex_judge_ratio(int kernels, const run_result *learner, const run_result *own, char *what, size_t len)
{
	if (!kernels) {
		strfmt(what, len, "the stage's time");
		return learner->pair_ratio > 0 ? learner->pair_ratio : -1;
	}
	if (!(learner->kernel_ms > 0) || !own || !(own->kernel_ms > 0)) {
		strfmt(what, len, "the kernels' time, which %s did not measure", !(learner->kernel_ms > 0) ? "your run" : "the stage's own run");
		return -1;
	}
	strfmt(what, len, "the kernels' time without the host copies, %.3f ms against the stage's %.3f ms", learner->kernel_ms, own->kernel_ms);
	return own->kernel_ms / learner->kernel_ms;
}

/* The bytes the stage copies between host and device with the try's settings; 0 when the plan
 * cannot be made (the runs will say why). */
static double copied_bytes(const ex_try *t)
{
	plan p;
	plan_device pd;
	engine_plan_device(t->e, &pd);
	char err[256];
	double b = plan_make(&p, t->l, t->stage, t->sets, t->nsets, &pd, err, sizeof err) ? 0 : p.h2d_bytes + p.d2h_bytes;
	plan_free(&p);
	return b;
}

/* The stage's own kernel at the try's settings (the lesson's size), timed, for its kernels' time. */
static int submit_own(ex_try *t, char *err, size_t errlen)
{
	engine_job j;
	memset(&j, 0, sizeof j);
	j.lesson = t->l;
	j.stage = t->stage;
	j.nsets = merge_sets(t, NULL, j.sets);
	j.seed = t->seed;
	j.has_seed = 1;
	return engine_submit(t->e, &j, err, errlen);
}

/* Whether every parameter the try sets has its lesson value and every tunable its default. */
static int at_lesson_size(ex_try *t)
{
	plan a, b;
	plan_device pd;
	engine_plan_device(t->e, &pd);
	char err[256];
	int same = !plan_make(&a, t->l, t->stage, NULL, 0, &pd, err, sizeof err) &&
	           !plan_make(&b, t->l, t->stage, t->sets, t->nsets, &pd, err, sizeof err);
	for (int i = 0; same && i < t->l->nparams; i++) {
		const expr_value *x = plan_var_get(&a, t->l->params[i].name), *y = plan_var_get(&b, t->l->params[i].name);
		same = x && y && expr_as_double(*x) == expr_as_double(*y);
	}
	/* and the stage's tunables at their defaults: the stage's own kernel runs at the try's settings, and
	 * one that --set slows (a block of 64, one block an SM) would hand any kernel its ratio */
	const lesson_stage *st = &t->l->stages[t->stage];
	for (int i = 0; same && i < st->ntunables; i++) {
		const expr_value *x = plan_var_get(&a, st->tunables[i].name), *y = plan_var_get(&b, st->tunables[i].name);
		same = x && y && expr_as_double(*x) == expr_as_double(*y);
	}
	plan_free(&a);
	plan_free(&b);
	return same;
}

ex_try *ex_try_start(engine *e, const lesson *l, int stage, const ex_try_opts *o, char *err, size_t errlen)
{
	if (stage < 0 || stage >= l->nstages || !l->stages[stage].exercise) { strfmt(err, errlen, "this stage has no exercise"); return NULL; }
	size_t len;
	char *text = file_read(o->file, &len);
	if (!text) { strfmt(err, errlen, "cannot read %s", o->file); return NULL; }
	ex_try *t = xcalloc(1, sizeof *t);
	t->e = e;
	t->l = l;
	t->stage = stage;
	t->text = text;
	t->name = xstrdup(o->file);
	t->counters = o->counters;
	t->no_sanitizer = o->no_sanitizer;
	for (int i = 0; i < o->nsets && i < 16; i++) t->sets[t->nsets++] = o->sets[i];
	if (o->has_seed) t->seed = o->seed;
	else if (getrandom(&t->seed, sizeof t->seed, 0) != sizeof t->seed) t->seed = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ULL ^ (uint64_t)now_ms();
	ex_verdict *v = &t->v;
	v->failed = v->timed = -1;
	const course_item *ci = course_find(engine_course(e), l->id, l->stages[stage].id);
	v->bar = ci && ci->pass > 0 ? ci->pass : l->stages[stage].exercise->pass;   /* a course may set its own */
	v->at_lesson_size = at_lesson_size(t);
	strfmt(v->hash, sizeof v->hash, "%016llx", (unsigned long long)fnv1a(FNV_OFFSET, text, len));
	v->source = text;            /* the class record carries it, for report --verify */
	v->source_len = len;
	for (int i = 0; i < EX_MAX_CHECKS; i++) run_result_init(&v->checks[i].r);
	run_result_init(&v->diag);
	run_result_init(&t->own);
	v->judged_kernels = ex_judge_of(l->stages[stage].exercise, copied_bytes(t));
	ex_size sizes[EX_MAX_CHECKS - 2];
	int nz = ex_sizes(e, l, stage, sizes, EX_MAX_CHECKS - 2);
	plan_setting merged[16];
	for (int i = 0; i <= nz + 1; i++) {
		ex_check *c = &v->checks[v->nchecks];
		const ex_size *z = i < nz ? &sizes[i] : NULL;
		strfmt(c->label, sizeof c->label, "%s", z ? z->label : i == nz ? "lesson size" : "fresh inputs");
		sizes_text(t, merged, merge_sets(t, z, merged), c->sizes, sizeof c->sizes);
		int id = submit(t, z, i == nz, 0, SAN_NONE, t->seed + (uint64_t)i, err, errlen);
		if (id < 0) { ex_try_free(t); return NULL; }
		if (i == nz) v->timed = v->nchecks;
		t->job[v->nchecks++] = id;
		if (i == nz && v->judged_kernels && (t->own_job = submit_own(t, err, errlen)) < 0) { t->own_job = 0; ex_try_free(t); return NULL; }
	}
	return t;
}

/* ---- the verdict ---- */

static ex_kind kind_of(const run_result *r)
{
	switch (r->status) {
	case RUN_OK: return EXV_PASSED;
	case RUN_WRONG:
		return !strcmp(r->issue, "out_of_bounds") ? EXV_OUT_OF_BOUNDS : !strcmp(r->issue, "unwritten") ? EXV_UNWRITTEN
		     : !strcmp(r->issue, "wrong_later") ? EXV_WRONG_LATER : EXV_WRONG;
	case RUN_COMPILE_ERROR:
		return !strcmp(r->issue, "no_kernel") ? EXV_NO_KERNEL : !strcmp(r->issue, "signature") ? EXV_SIGNATURE : EXV_COMPILE_ERROR;
	case RUN_FAULT: return EXV_FAULT;
	case RUN_HANG: return EXV_HANG;
	case RUN_CRASH: return EXV_CRASH;
	case RUN_NO_GPU: case RUN_RUNNER_ERROR: return EXV_NO_GPU;   /* compiled; nothing to run on */
	default: return EXV_REFUSED;
	}
}

/* The verdict of a failed check c. */
static void judge_failure(ex_verdict *v, int i)
{
	const ex_check *c = &v->checks[i];
	const run_result *r = &c->r;
	v->failed = i;
	v->kind = kind_of(r);
	const char *where = c->sizes;
	switch (v->kind) {
	case EXV_COMPILE_ERROR: case EXV_NO_KERNEL: case EXV_SIGNATURE: case EXV_CRASH: case EXV_REFUSED:
		strfmt(v->headline, sizeof v->headline, "%s", r->message);
		break;
	case EXV_NO_GPU:
		if (r->regs <= 0 && r->occ_max_warps <= 0) {   /* no compile facts (a replay compiles nothing): none shown */
			strfmt(v->headline, sizeof v->headline, "%s", strncmp(r->message, "no GPU: ", 8) ? r->message : r->message + 8);
			break;
		}
		strfmt(v->headline, sizeof v->headline, "compiles (%d registers, %.0f%% theoretical occupancy%s%s); checking and timing need a GPU: %s",
		       r->regs, 100 * r->occ_theoretical, r->occ_limiter[0] ? ", limited by " : "", r->occ_limiter,
		       strncmp(r->message, "no GPU: ", 8) ? r->message : r->message + 8);
		break;
	case EXV_WRONG:
		strfmt(v->headline, sizeof v->headline, "wrong at %s (%s): %s; largest error %.3g (relative %.3g, norm-wise %.3g)", where, c->label,
		       r->message, r->max_abs_err, r->max_rel_err, r->norm_rel_err);
		break;
	default:
		strfmt(v->headline, sizeof v->headline, "%s at %s (%s): %s", v->kind == EXV_FAULT ? "faulted" : v->kind == EXV_HANG ? "hung" : "wrong",
		       where, c->label, r->message);
		break;
	}
}

static void judge_success(ex_try *t)
{
	ex_verdict *v = &t->v;
	const run_result *r = &v->checks[v->timed].r;
	v->ratio = ex_judge_ratio(v->judged_kernels, r, t->own_done ? &t->own : NULL, v->judged, sizeof v->judged);
	if (v->judged_kernels) {
		v->kernel_ms = r->kernel_ms > 0 ? r->kernel_ms : 0;
		v->own_kernel_ms = t->own_done && t->own.kernel_ms > 0 ? t->own.kernel_ms : 0;
	}
	if (v->ratio < 0 && v->judged_kernels && r->pair_ratio > 0) {   /* no kernels' time: the stage's, said so */
		char why[160];
		strfmt(why, sizeof why, "%s", v->judged);
		v->ratio = r->pair_ratio;
		strfmt(v->judged, sizeof v->judged, "the stage's time, the host copies included (%s)", why);
	}
	if (v->ratio < 0) v->ratio = 0;
	v->kind = v->ratio >= v->bar ? EXV_PASSED : EXV_SLOW;
	char sizes[256] = "";
	for (int i = 0; i < v->nchecks; i++)
		if (i != v->timed && strcmp(v->checks[i].label, "fresh inputs"))
			strfmt(sizes + strlen(sizes), sizeof sizes - strlen(sizes), "%s%s", sizes[0] ? ", " : "", v->checks[i].sizes);
	strfmt(v->headline, sizeof v->headline, "%s: correct at %s and the lesson's size (twice, fresh inputs), %.2fx the stage's own kernel on %s (the bar is %.2fx)%s",
	       v->kind == EXV_PASSED ? (v->at_lesson_size ? "passed" : "fast enough, at your settings") : "correct, not yet fast enough",
	       sizes, v->ratio, v->judged, v->bar,
	       v->kind == EXV_PASSED && !v->at_lesson_size ? "; a pass counts at the lesson's own sizes and the stage's default tunables" : "");
}

/* The size a sanitizer run uses: the failing check's for memcheck (the access went wrong there);
 * the first for racecheck, which sees a hazard whether or not it changed the result this time. */
static const ex_size *sanitize_size(const ex_try *t, san_tool tool, ex_size *buf)
{
	int n = ex_sizes(t->e, t->l, t->stage, buf, EX_MAX_CHECKS - 2), i = tool == SAN_RACECHECK ? 0 : t->v.failed;
	return i < n ? &buf[i] : NULL;   /* past the sizes: the lesson's own */
}

/* The runs after the verdict: the diagnosis from the counters, or compute-sanitizer's look at a
 * failure. */
static void follow_up(ex_try *t)
{
	ex_verdict *v = &t->v;
	char err[256];
	const run_result *f = v->failed >= 0 ? &v->checks[v->failed].r : NULL;
	san_tool tool = SAN_NONE;
	if (v->kind == EXV_FAULT) tool = SAN_MEMCHECK;
	else if ((v->kind == EXV_WRONG || v->kind == EXV_UNWRITTEN || v->kind == EXV_WRONG_LATER) && f && (f->static_smem > 0 || f->dynamic_smem > 0))
		tool = SAN_RACECHECK;
	if (tool != SAN_NONE && !t->no_sanitizer) {
		ex_size buf[EX_MAX_CHECKS - 2];
		t->san_job = submit(t, sanitize_size(t, tool, buf), 0, 0, tool, t->seed + 99, err, sizeof err);
		if (t->san_job < 0) { t->san_job = 0; strfmt(v->where, sizeof v->where, "%s", err); }
	}
	int diag = t->counters && (v->kind == EXV_PASSED || v->kind == EXV_SLOW || v->kind == EXV_WRONG || v->kind == EXV_UNWRITTEN);
	if (diag && (t->diag_job = submit(t, NULL, 0, 1, SAN_NONE, t->seed + (uint64_t)v->nchecks - 1, err, sizeof err)) < 0) t->diag_job = 0;
	t->state = t->diag_job || t->san_job ? 1 : 2;
}

/* The verdict of a try whose checks all came back right, once the stage's own run (when judged on
 * the kernels) is back too. */
static void maybe_judge(ex_try *t)
{
	if (t->state || ex_try_busy(t)) return;
	judge_success(t);
	follow_up(t);
}

int ex_try_event(ex_try *t, int job, job_phase phase, const char *note, const run_result *r)
{
	ex_verdict *v = &t->v;
	if (job == t->own_job && t->own_job) {
		if (phase != JOB_DONE || !r) return 0;
		run_result_clear(&t->own);
		run_result_copy(&t->own, r);   /* a failed own run has no kernel_ms: the verdict says so */
		t->own_done = 1;
		t->own_job = 0;
		if (v->failed < 0) maybe_judge(t);
		return 1;
	}
	if ((job == t->diag_job && t->diag_job) || (job == t->san_job && t->san_job)) {
		if (phase != JOB_DONE || !r) return 0;
		if (job == t->diag_job) {
			run_result_clear(&v->diag);
			run_result_copy(&v->diag, r);
			v->counters_done = 1;
			t->diag_job = 0;
		} else {
			strfmt(v->where, sizeof v->where, "%s", r->sanitizer[0] ? r->sanitizer : r->message);
			v->sanitized = r->sanitizer[0] != 0;
			t->san_job = 0;
		}
		t->state = t->diag_job || t->san_job ? 1 : 2;
		return 1;
	}
	int i = 0;
	while (i < v->nchecks && t->job[i] != job) i++;
	if (i == v->nchecks) return 0;
	if (phase != JOB_DONE || !r) return 1;
	ex_check *c = &v->checks[i];
	run_result_clear(&c->r);
	run_result_copy(&c->r, r);
	c->done = 1;
	t->job[i] = 0;
	if (r->status != RUN_OK) {
		for (int k = 0; k < v->nchecks; k++) if (t->job[k]) { engine_cancel(t->e, t->job[k]); t->job[k] = 0; }
		if (t->own_job) { engine_cancel(t->e, t->own_job); t->own_job = 0; }
		judge_failure(v, i);
		follow_up(t);
		return 1;
	}
	maybe_judge(t);
	return 1;
}

int ex_try_state(const ex_try *t) { return t->state; }
const ex_verdict *ex_try_verdict(const ex_try *t) { return &t->v; }

int ex_try_busy(const ex_try *t)
{
	int n = (t->diag_job != 0) + (t->san_job != 0) + (t->own_job != 0);
	for (int i = 0; i < t->v.nchecks; i++) n += t->job[i] != 0;
	return n;
}

void ex_try_free(ex_try *t)
{
	if (!t) return;
	for (int i = 0; i < t->v.nchecks; i++) if (t->job[i]) engine_cancel(t->e, t->job[i]);
	if (t->diag_job) engine_cancel(t->e, t->diag_job);
	if (t->san_job) engine_cancel(t->e, t->san_job);
	if (t->own_job) engine_cancel(t->e, t->own_job);
	run_result_clear(&t->own);
	for (int i = 0; i < EX_MAX_CHECKS; i++) run_result_clear(&t->v.checks[i].r);
	run_result_clear(&t->v.diag);
	free(t->text);
	free(t->name);
	free(t);
}

/* ---- progress ---- */

typedef struct { const ex_verdict *v; } record_ctx;

static void record_fn(ex_progress *p, void *ctx)
{
	const ex_verdict *v = ((record_ctx *)ctx)->v;
	ex_level lv = EX_STARTED;
	if (v->kind == EXV_PASSED) lv = v->at_lesson_size ? EX_PASSED : EX_CORRECT;
	else if (v->kind == EXV_SLOW) lv = EX_CORRECT;
	else if (v->kind != EXV_COMPILE_ERROR && v->kind != EXV_NO_KERNEL && v->kind != EXV_SIGNATURE && v->kind != EXV_CRASH &&
	         v->kind != EXV_REFUSED) lv = EX_COMPILES;
	p->last = lv;
	if (lv > p->best) p->best = lv;
	if ((v->kind == EXV_PASSED || v->kind == EXV_SLOW) && v->at_lesson_size && v->ratio > p->best_ratio) p->best_ratio = v->ratio;
	p->when = (int64_t)time(NULL);
	strfmt(p->hash, sizeof p->hash, "%s", v->hash);
}

int ex_record(const char *work, const lesson *l, const lesson_stage *s, const ex_verdict *v, char *err, size_t errlen)
{
	record_ctx c = { v };
	return ex_progress_update(work, l, s, record_fn, &c, err, errlen);
}

void ex_class_record(engine *e, const lesson *l, const lesson_stage *s, const ex_verdict *v, result_record *r)
{
	memset(r, 0, sizeof *r);
	struct passwd *pw = getpwuid(getuid());
	r->time = (int64_t)time(NULL);
	strfmt(r->user, sizeof r->user, "%s", pw ? pw->pw_name : "?");
	r->uid = (unsigned)getuid();
	strfmt(r->exercise, sizeof r->exercise, "%s/%s", l->id, s->id);
	strfmt(r->verdict, sizeof r->verdict, "%s", ex_kind_name(v->kind));
	r->passed = v->kind == EXV_PASSED && v->at_lesson_size;
	r->at_lesson_size = v->at_lesson_size;
	r->ratio = v->ratio;
	r->bar = v->bar;
	strfmt(r->device, sizeof r->device, "%s", engine_device(e)->name);
	strfmt(r->hash, sizeof r->hash, "%s", v->hash);
	r->source = (char *)v->source;   /* results_append hashes it and writes it, or says it is too large */
	r->source_len = v->source_len;
}

int ex_record_class(engine *e, const lesson *l, const lesson_stage *s, const char *file, const ex_verdict *v, int wait,
                    char *said, size_t saidlen, char *err, size_t errlen)
{
	const course *co = engine_course(e);
	if (said && saidlen) said[0] = 0;
	if (!course_find(co, l->id, s->id)) return 0;
	if (v->kind == EXV_NO_GPU) {   /* compiled, never judged: nothing for the class, and the learner is told */
		int runner_failed = v->failed >= 0 && v->checks[v->failed].r.status == RUN_RUNNER_ERROR;
		if (said && saidlen)
			strfmt(said, saidlen, "nothing recorded for the course %s: %s, so the try was not judged (a try is recorded once it runs on a GPU)",
			       co->id, runner_failed ? "the runner failed" : "no GPU here");
		return 0;
	}
	/* with a lab service, the service judges the file again and keeps the verdict: nothing is written here */
	if (co->service_socket) return ex_submit(co, l, s, file, wait, said, saidlen, err, errlen);
	result_record r;
	ex_class_record(e, l, s, v, &r);
	return results_append(co, &r, err, errlen);
}
