/* claims: see claims.h. */
#include "claims.h"
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "diagnose.h"
#include "lesson_case.h"
#include "util.h"


static const char *const state_names[CLAIM_STATE_COUNT] = { "holds", "contradicted", "unknown" };

const char *claims_state_name(claim_state st)
{
	return (unsigned)st < CLAIM_STATE_COUNT ? state_names[st] : "?";
}

static int setting(const char *settings, const char *name, char *out, size_t len);

/* What a when: condition reads: the device's values and the run's settings (parameters, tunables). */
typedef struct { const device_info *d; const run_result *r; } when_ctx;

static int device_lookup(void *ctx, const char *name, size_t len, expr_value *out)
{
	const when_ctx *w = ctx;
	const device_info *d = w->d;
	long long v[] = { d->cc, d->sm_count, (long long)d->l2_bytes, d->warp_size, d->max_threads_per_block,
	                  (long long)d->smem_per_block_optin, d->copy_engines };
	const char *const *device_names = claims_device_names();
	for (int i = 0; device_names[i]; i++)
		if (strlen(device_names[i]) == len && !memcmp(device_names[i], name, len)) {
			if (v[i] <= 0) return -1;   /* not known (a recording from before copy_engines) */
			*out = (expr_value){ EXPR_INT, v[i], 0 };
			return 0;
		}
	char key[72], val[64];
	strfmt(key, sizeof key, "%.*s", len > 64 ? 64 : (int)len, name);
	if (!w->r || setting(w->r->settings, key, val, sizeof val)) return -1;
	expr *e = expr_parse(val, NULL);
	int rc = e ? expr_eval(e, NULL, NULL, out, NULL) : -1;
	expr_free(e);
	return rc;
}

typedef struct { const when_ctx *w; char *buf; size_t len; int settings; } when_values;

/* Appends "name value" for each device name of a when: condition ("cc 86"), once each. */
static int when_visit(void *ctx, const char *name, size_t len, int col)
{
	(void)col;
	when_values *w = ctx;
	expr_value x;
	char item[80];
	char num[40];
	int dev = 0;
	const char *const *device_names = claims_device_names();
	for (int i = 0; device_names[i]; i++) dev |= strlen(device_names[i]) == len && !memcmp(device_names[i], name, len);
	w->settings |= !dev;
	if (device_lookup((void *)w->w, name, len, &x)) strfmt(num, sizeof num, "no known value");
	else expr_format(x, num, sizeof num);
	strfmt(item, sizeof item, "%.*s %s", (int)len, name, num);
	if (strstr(w->buf, item)) return 0;
	size_t used = strlen(w->buf);
	strfmt(w->buf + used, w->len - used, "%s%s", used ? ", " : "", item);
	return 0;
}

/* Whether run r has case cs's settings: each parameter at the case's value, and each tunable the
 * stage st has. 1, or 0 with "skew 0, cols 8192" (what the run has instead) in have. */
static int in_case(const lesson *l, const lesson_stage *st, const lesson_case *cs, const run_result *r, char *have, size_t len)
{
	have[0] = 0;
	int ok = 1;
	for (int i = 0; i < cs->n; i++) {
		if (!lesson_find_param(l, cs->names[i]) && !lesson_find_tunable(st, cs->names[i])) continue;
		char val[64] = "";
		double want = 0, got = 0;
		int known = r && !setting(r->settings, cs->names[i], val, sizeof val);
		if (known) {
			expr *e = expr_parse(val, NULL);
			expr_value x;
			known = e && !expr_eval(e, NULL, NULL, &x, NULL);
			if (known) got = expr_as_double(x);
			expr_free(e);
		}
		if (lesson_case_value(cs, i, &want) || !known || fabs(got - want) > 1e-9 * fmax(1, fabs(want))) {
			size_t u = strlen(have);
			strfmt(have + u, len - u, "%s%s %s", ok ? "" : ", ", cs->names[i], val[0] ? val : "no value");
			ok = 0;
		}
	}
	return ok;
}

/* Whether claim k of stage st applies on d to run r: 1, or 0 with the reason ("not applied: ...") in why. */
static int claim_applies(const lesson *l, const lesson_stage *st, const lesson_claim *k, const device_info *d, const run_result *r,
                         char *why, size_t len)
{
	if (k->when_case >= 0 && k->when_case < l->ncases) {
		const lesson_case *cs = &l->cases[k->when_case];
		char have[128], set[160];
		if (!in_case(l, st, cs, r, have, sizeof have)) {
			lesson_case_describe(cs, set, sizeof set);
			strfmt(why, len, "not applied: judged in case %s (%s; --case %s), this run has %s", cs->name, set, cs->name, have);
			return 0;
		}
	}
	if (!k->when.e) return 1;
	const char *src = expr_source(k->when.e);
	if (!d || !d->cc) { strfmt(why, len, "not applied: needs %s, and no GPU was described", src); return 0; }
	when_ctx wc = { d, r };
	expr_value x;
	if (expr_eval(k->when.e, device_lookup, &wc, &x, NULL) == 0 && (x.kind == EXPR_INT ? x.i != 0 : x.f != 0))
		return 1;
	char have[96] = "";
	when_values w = { &wc, have, sizeof have, 0 };
	expr_names(k->when.e, when_visit, &w);
	strfmt(why, len, "not applied: needs %s, this %s %s", src, w.settings ? "run has" : "GPU has", have);
	return 0;
}

void claims_count(const claim_outcome *o, int n, int counts[CLAIM_STATE_COUNT])
{
	for (int i = 0; i < CLAIM_STATE_COUNT; i++) counts[i] = 0;
	for (int i = 0; i < n; i++)
		if ((unsigned)o[i].state < CLAIM_STATE_COUNT) counts[o[i].state]++;
}

/* The value of name in settings ("n=67108864 a=2 BLOCK=256"), copied into out; 0, or -1 when absent. */
static int setting(const char *settings, const char *name, char *out, size_t len)
{
	size_t n = strlen(name);
	for (const char *p = settings; *p;) {
		p += strspn(p, " ");
		size_t k = strcspn(p, " ");
		if (k > n && !strncmp(p, name, n) && p[n] == '=') {
			strfmt(out, len, "%.*s", (int)(k - n - 1), p + n + 1);
			return 0;
		}
		p += k;
	}
	return -1;
}

/* Whether a and b ran with the same lesson parameters. */
static int same_params(const lesson *l, const run_result *a, const run_result *b)
{
	for (int i = 0; i < l->nparams; i++) {
		char x[64], y[64];
		int hx = setting(a->settings, l->params[i].name, x, sizeof x);
		int hy = setting(b->settings, l->params[i].name, y, sizeof y);
		if (hx != hy || (hx == 0 && strcmp(x, y))) return 0;
	}
	return 1;
}

static int timed_ok(const run_result *r) { return r && r->status == RUN_OK && r->ms_median > 0 && isfinite(r->ms_median); }

typedef struct {
	const lesson *l;
	const claims_runs *runs;
	const run_result *const *by_stage; int nstages;   /* may be NULL */
	diag_inputs in;
	char missing[160];       /* the first unknown name and why */
	const char *base;        /* the stage's baseline, as its ratios name it ("baseline", "baseline.bf16") */
} claim_ctx;

static void note_missing(claim_ctx *c, const char *name, size_t len, const char *why)
{
	if (!c->missing[0]) strfmt(c->missing, sizeof c->missing, "%.*s: %s", (int)len, name, why);
}

/* A time ratio against other (inverse: other's over this one's), or -1 with the reason noted. */
static int time_ratio(claim_ctx *c, const run_result *other, const char *which, const char *name, size_t len,
                      int inverse, expr_value *out)
{
	char why[96];
	const run_result *r = c->runs->run;
	if (!timed_ok(other)) strfmt(why, sizeof why, "no timed run of the %s", which);
	else if (!same_params(c->l, r, other)) strfmt(why, sizeof why, "the %s ran with other parameters", which);
	else if (!timed_ok(r)) strfmt(why, sizeof why, "this run was not timed");
	else if (other == c->runs->baseline && !strcmp(r->pair, "baseline") && r->pair_ratio > 0 && isfinite(r->pair_ratio)
	         && (!r->baseline[0] || !strcmp(r->baseline, c->base))) {
		/* timed in alternating pairs with its baseline: the median of the pairs' ratios, which a clock
		 * step or another process shifts far less than it shifts two medians taken apart (not a pair
		 * recorded against another baseline, before the stage's baseline: changed) */
		*out = (expr_value){ EXPR_FLOAT, 0, inverse ? r->pair_ratio : 1.0 / r->pair_ratio };
		return 0;
	} else {
		*out = (expr_value){ EXPR_FLOAT, 0, inverse ? other->ms_median / r->ms_median : r->ms_median / other->ms_median };
		return 0;
	}
	note_missing(c, name, len, why);
	return -1;
}

/* The median SM clock of this run over other's (clock_vs_ID), or -1 with the reason noted. */
static int clock_ratio(claim_ctx *c, const run_result *other, const char *which, const char *name, size_t len, expr_value *out)
{
	char why[96];
	const run_result *r = c->runs->run;
	if (!timed_ok(other)) strfmt(why, sizeof why, "no timed run of the %s", which);
	else if (!same_params(c->l, r, other)) strfmt(why, sizeof why, "the %s ran with other parameters", which);
	else if (!timed_ok(r)) strfmt(why, sizeof why, "this run was not timed");
	else if (!(r->sm_clock_mhz > 0) || !(other->sm_clock_mhz > 0)) strfmt(why, sizeof why, "no SM clock read in this run or the %s's", which);
	else {
		*out = (expr_value){ EXPR_FLOAT, 0, r->sm_clock_mhz / other->sm_clock_mhz };
		return 0;
	}
	note_missing(c, name, len, why);
	return -1;
}

/* A value of the run that is 0 when it was not measured (a stage without copies has no bound). */
static int known(claim_ctx *c, const char *name, size_t len, double v, const char *why, expr_value *out)
{
	if (v > 0 && isfinite(v)) { *out = (expr_value){ EXPR_FLOAT, 0, v }; return 0; }
	note_missing(c, name, len, why);
	return -1;
}

static int claim_lookup(void *ctx, const char *name, size_t len, expr_value *out)
{
	claim_ctx *c = ctx;
	const run_result *r = c->runs->run;
	const device_info *d = c->runs->device;
	switch (claims_extra_find(name, len)) {
	case X_TIME_VS_PREV: return time_ratio(c, c->runs->prev, "previous stage", name, len, 0, out);
	case X_TIME_VS_BASELINE: return time_ratio(c, c->runs->baseline, c->base, name, len, 0, out);
	case X_SPEEDUP_VS_PREV: return time_ratio(c, c->runs->prev, "previous stage", name, len, 1, out);
	case X_SPEEDUP_VS_BASELINE: return time_ratio(c, c->runs->baseline, c->base, name, len, 1, out);
	case X_BOUND_MS: return known(c, name, len, r->bound_ms, "no bound (the stage copies nothing)", out);
	case X_KERNEL_MS: return known(c, name, len, r->kernel_ms, "no time without the copies (the stage copies nothing)", out);
	case X_TIME_VS_BOUND:
		if (r->bound_ms > 0 && timed_ok(r)) { *out = (expr_value){ EXPR_FLOAT, 0, r->ms_median / r->bound_ms }; return 0; }
		note_missing(c, name, len, r->bound_ms > 0 ? "this run was not timed" : "no bound (the stage copies nothing)");
		return -1;
	case X_H2D_BYTES: *out = (expr_value){ EXPR_FLOAT, 0, r->h2d_bytes }; return 0;
	case X_D2H_BYTES: *out = (expr_value){ EXPR_FLOAT, 0, r->d2h_bytes }; return 0;
	case X_H2D_GBPS: return known(c, name, len, d ? d->h2d_gbps : 0, "the GPU's copy bandwidth was not measured", out);
	case X_D2H_GBPS: return known(c, name, len, d ? d->d2h_gbps : 0, "the GPU's copy bandwidth was not measured", out);
	case X_SM_CLOCK_MHZ: return known(c, name, len, r->sm_clock_mhz, r->clock_note[0] ? r->clock_note : "no SM clock read in this run", out);
	case X_SM_CLOCK_MIN_MHZ: return known(c, name, len, r->sm_clock_min_mhz, r->clock_note[0] ? r->clock_note : "no SM clock read in this run", out);
	case X_SM_CLOCK_MAX_MHZ: return known(c, name, len, r->sm_clock_max_mhz, r->clock_note[0] ? r->clock_note : "no SM clock read in this run", out);
	case X_POWER_W: return known(c, name, len, r->power_w, r->power_note[0] ? r->power_note : "no power read in this run", out);
	case X_CLOCK_VS_PREV: return clock_ratio(c, c->runs->prev, "previous stage", name, len, out);
	case X_POWER_MAX_W: return known(c, name, len, r->power_max_w, r->power_note[0] ? r->power_note : "no power read in this run", out);
	default: break;
	}
	const char *id;
	size_t idlen;
	if (claims_stage_ratio(name, len, &id, &idlen)) {
		int inverse = name[0] == 's', k = -1;
		for (int i = 0; i < c->l->nstages && k < 0; i++)
			if (strlen(c->l->stages[i].id) == idlen && !memcmp(c->l->stages[i].id, id, idlen)) k = i;
		char which[96];
		strfmt(which, sizeof which, "stage %.*s", (int)(idlen > 64 ? 64 : idlen), id);
		const run_result *other = k >= 0 && k < c->nstages && c->by_stage ? c->by_stage[k] : NULL;
		if (name[0] == 'c') return clock_ratio(c, other, which, name, len, out);
		return time_ratio(c, other, which, name, len, inverse, out);
	}
	if (diagnose_value(r, &c->in, name, len, out) == 0) return 0;
	note_missing(c, name, len, r->counters_note[0] ? "not measured (no counters)" : "not measured in this run");
	return -1;
}

typedef struct { claim_ctx *c; char *buf; size_t len; } values_ctx;

/* Appends "name=value" for each name of the claim (once each; "?" when unknown). */
static int value_visit(void *ctx, const char *name, size_t len, int col)
{
	(void)col;
	values_ctx *v = ctx;
	char key[72];
	strfmt(key, sizeof key, "%.*s=", (int)len, name);
	for (const char *p = v->buf; *p; p += strcspn(p, " "), p += strspn(p, " "))
		if (!strncmp(p, key, strlen(key))) return 0;   /* named twice: listed once */
	char missing[sizeof v->c->missing];
	memcpy(missing, v->c->missing, sizeof missing);
	expr_value x;
	char num[40] = "?";
	if (claim_lookup(v->c, name, len, &x) == 0) {
		if (x.kind == EXPR_INT) strfmt(num, sizeof num, "%lld", (long long)x.i);
		else strfmt(num, sizeof num, "%.3g", x.f);
	}
	memcpy(v->c->missing, missing, sizeof missing);   /* only the evaluation notes what is missing */
	size_t used = strlen(v->buf);
	strfmt(v->buf + used, v->len - used, "%s%s%s", used ? " " : "", key, num);
	return 0;
}

static void ctx_init(claim_ctx *c, const lesson *l, int s, const claims_runs *runs)
{
	const run_result *r = runs->run;
	const device_info *d = runs->device;
	*c = (claim_ctx){ l, runs, NULL, 0, { r->bytes, r->flops, d ? d->sm_count : 0, d ? traffic_gbps(traffic_of(l->traffic), d) : 0,
	                             d ? peak_gflops(peak_of(lesson_stage_peak(l, s)), d) : 0, d ? d->h2d_gbps : 0, d ? d->d2h_gbps : 0 },
	                  "", "baseline" };
	const lesson_baseline *b = lesson_baseline_at(l, lesson_stage_baseline(l, s));
	if (b && b->id) c->base = b->id;
}

int claims_value(const lesson *l, int s, const claims_runs *runs, const char *name, size_t len, expr_value *out,
                 char *why, size_t why_len)
{
	return claims_value_stages(l, s, runs, NULL, 0, name, len, out, why, why_len);
}

int claims_value_stages(const lesson *l, int s, const claims_runs *runs, const run_result *const *by_stage, int nstages,
                        const char *name, size_t len, expr_value *out, char *why, size_t why_len)
{
	if (why && why_len) why[0] = 0;
	if (!l || s < 0 || s >= l->nstages || !runs || !runs->run || !out) return -1;
	if (runs->run->status != RUN_OK) {
		if (why) strfmt(why, why_len, "the run %s", runs->run->status == RUN_WRONG ? "gave a wrong result" : "did not finish");
		return -1;
	}
	claim_ctx c;
	ctx_init(&c, l, s, runs);
	c.by_stage = by_stage;
	c.nstages = nstages;
	if (claim_lookup(&c, name, len, out) == 0) return 0;
	if (why) strfmt(why, why_len, "%s", c.missing);
	return -1;
}

int claims_check(const lesson *l, int s, const claims_runs *runs, claim_outcome *out, int max)
{
	return claims_check_stages(l, s, runs, NULL, 0, out, max);
}

int claims_check_stages(const lesson *l, int s, const claims_runs *runs, const run_result *const *by_stage, int nstages,
                        claim_outcome *out, int max)
{
	if (!l || s < 0 || s >= l->nstages || !runs || !runs->run || !out) return 0;
	const lesson_stage *st = &l->stages[s];
	const run_result *r = runs->run;
	const device_info *d = runs->device;
	int n = 0;
	for (int i = 0; i < st->nclaims && n < max; i++, n++) {
		claim_outcome *o = &out[n];
		memset(o, 0, sizeof *o);
		o->claim = &st->claims[i];
		o->state = CLAIM_UNKNOWN;
		if (r->status != RUN_OK) {
			strfmt(o->why, sizeof o->why, "the run %s", r->status == RUN_WRONG ? "gave a wrong result" : "did not finish");
			continue;
		}
		if (!claim_applies(l, st, o->claim, d, r, o->why, sizeof o->why)) continue;
		claim_ctx c;
		ctx_init(&c, l, s, runs);
		c.by_stage = by_stage;
		c.nstages = nstages;
		values_ctx v = { &c, o->values, sizeof o->values };
		expr_names(o->claim->cond.e, value_visit, &v);
		expr_value x;
		expr_error e;
		if (expr_eval(o->claim->cond.e, claim_lookup, &c, &x, &e) == 0) {
			o->state = (x.kind == EXPR_INT ? x.i != 0 : x.f != 0) ? CLAIM_HOLDS : CLAIM_CONTRADICTED;
			continue;
		}
		strfmt(o->why, sizeof o->why, "%s", c.missing[0] ? c.missing : e.msg);
	}
	return n;
}

int claims_check_set(const lesson *l, const int *stages, const run_result *results, int n, int i,
                     const device_info *device, claim_outcome *out, int max)
{
	if (!stages || !results || i < 0 || i >= n || stages[i] < 0) return 0;
	const run_result **by = xcalloc((size_t)l->nstages + 1, sizeof *by);
	claims_runs runs = { &results[i], NULL, NULL, device };
	int base = lesson_stage_baseline(l, stages[i]);   /* the stage's own baseline (baseline: NAME) */
	for (int k = 0; k < n; k++) {
		if (stages[k] == stages[i] - 1) runs.prev = &results[k];
		if (base < 0 && stages[k] == base) runs.baseline = &results[k];
		if (stages[k] >= 0 && stages[k] < l->nstages) by[stages[k]] = &results[k];
	}
	int got = claims_check_stages(l, stages[i], &runs, by, l->nstages, out, max);
	free(by);
	return got;
}
