/* A stage's tuning space and the strategies that search it (tune.h). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fmt.h"
#include "tune.h"
#include "util.h"

/* ---- The space ---- */

int tune_space_sets(const tune_space *sp, uint64_t idx, plan_setting *sets, int n, int cap)
{
	const lesson_stage *s = &sp->l->stages[sp->stage];
	int at = n + sp->nover;
	if (at > cap) return -1;
	for (int k = sp->nover - 1; k >= 0; k--) {
		const lesson_tunable *t = &s->tunables[sp->over[k]];
		snprintf(sets[n + k].name, sizeof sets[n + k].name, "%s", t->name);
		snprintf(sets[n + k].value, sizeof sets[n + k].value, "%" PRId64, t->values[idx % (uint64_t)t->nvalues]);
		idx /= (uint64_t)t->nvalues;
	}
	return at;
}

void tune_space_text(const tune_space *sp, uint64_t idx, const char *sep, char *out, size_t len)
{
	plan_setting sets[TUNE_MAX_OVER];
	int n = tune_space_sets(sp, idx, sets, 0, TUNE_MAX_OVER);
	size_t o = 0;
	out[0] = 0;
	for (int i = 0; i < n && o < len; i++) o += (size_t)snprintf(out + o, len - o, "%s%s=%s", i ? sep : "", sets[i].name, sets[i].value);
}

void tune_space_job(const tune_space *sp, uint64_t idx, engine_job *j)
{
	*j = (engine_job){ .lesson = sp->l, .stage = sp->stage };
	memcpy(j->sets, sp->fixed, sizeof sp->fixed[0] * (size_t)sp->nfixed);
	j->nsets = sp->nfixed;
	if (idx == UINT64_MAX) return;
	int n = tune_space_sets(sp, idx, j->sets, sp->nfixed, 16);
	if (n >= 0) j->nsets = n;
}

/* The radix of tuned tunable i: the product of the value counts after it. */
static uint64_t place(const tune_space *sp, int i)
{
	const lesson_stage *s = &sp->l->stages[sp->stage];
	uint64_t p = 1;
	for (int k = sp->nover - 1; k > i; k--) p *= (uint64_t)s->tunables[sp->over[k]].nvalues;
	return p;
}

int tune_space_digit(const tune_space *sp, uint64_t idx, int i)
{
	return (int)(idx / place(sp, i) % (uint64_t)sp->l->stages[sp->stage].tunables[sp->over[i]].nvalues);
}

uint64_t tune_space_with(const tune_space *sp, uint64_t idx, int i, int k)
{
	uint64_t p = place(sp, i);
	return idx - (uint64_t)tune_space_digit(sp, idx, i) * p + (uint64_t)k * p;
}

long tune_space_find(const tune_space *sp, uint64_t idx)
{
	size_t lo = 0, hi = sp->nok;
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		if (sp->ok[m] < idx) lo = m + 1; else hi = m;
	}
	return lo < sp->nok && sp->ok[lo] == idx ? (long)lo : -1;
}

static void note_reason(tune_space *sp, const char *why)
{
	char w[160];
	snprintf(w, sizeof w, "%.159s", why);
	char *p = strstr(w, ": needs ");   /* a device limit's numbers differ setting by setting: one reason, counted */
	if (p) *p = 0;
	for (int i = 0; i < sp->nreasons; i++) if (!strcmp(sp->reasons[i].why, w)) { sp->reasons[i].n++; return; }
	if (sp->nreasons < TUNE_REASONS) { snprintf(sp->reasons[sp->nreasons].why, sizeof sp->reasons[0].why, "%s", w); sp->reasons[sp->nreasons++].n = 1; }
	else sp->other_reasons++;
}

/* The defaults as a setting of the grid: each tuned tunable's default (or its --set value) on this device. */
static long default_pos(const tune_space *sp, engine *e)
{
	const lesson_stage *s = &sp->l->stages[sp->stage];
	plan_device pd;
	engine_plan_device(e, &pd);
	uint64_t idx = 0;
	for (int i = 0; i < sp->nover; i++) {
		const lesson_tunable *t = &s->tunables[sp->over[i]];
		int64_t v;
		char err[256];
		if (plan_tunable_default(sp->l, s, sp->over[i], engine_device(e)->present ? &pd : NULL, &v, err, sizeof err)) return -1;
		int k = 0;
		while (k < t->nvalues && t->values[k] != v) k++;
		if (k == t->nvalues) return -1;
		idx = idx * (uint64_t)t->nvalues + (uint64_t)k;
	}
	return tune_space_find(sp, idx);
}

int tune_space_begin(tune_space *sp, char *err, size_t errlen)
{
	const lesson_stage *s = &sp->l->stages[sp->stage];
	double total = 1;
	for (int i = 0; i < sp->nover; i++) total *= s->tunables[sp->over[i]].nvalues;
	if (total > TUNE_MAX_GRID) {
		snprintf(err, errlen, "the grid has %.0f settings, more than %.0f: name fewer tunables with --over (or fix some with --set)", total, TUNE_MAX_GRID);
		return -1;
	}
	sp->total = (uint64_t)total;
	sp->ok = xcalloc(sp->total ? sp->total : 1, sizeof *sp->ok);
	sp->nok = 0; sp->refused = 0; sp->nreasons = 0; sp->other_reasons = 0; sp->checked = 0;
	sp->def_pos = -1;
	return 0;
}

int tune_space_check(tune_space *sp, engine *e, uint64_t max)
{
	for (uint64_t n = 0; sp->checked < sp->total && n < max; n++, sp->checked++) {
		engine_job j;
		char why[512];
		tune_space_job(sp, sp->checked, &j);
		if (engine_check_sets(e, &j, why, sizeof why)) { sp->refused++; note_reason(sp, why); }
		else sp->ok[sp->nok++] = sp->checked;
	}
	if (sp->checked < sp->total) return 0;
	sp->def_pos = default_pos(sp, e);
	return 1;
}

int tune_space_build(tune_space *sp, engine *e, char *err, size_t errlen)
{
	if (tune_space_begin(sp, err, errlen)) return -1;
	tune_space_check(sp, e, UINT64_MAX);
	return 0;
}

void tune_space_free(tune_space *sp)
{
	free(sp->ok);
	sp->ok = NULL;
	sp->nok = 0;
}

/* ---- The search ---- */

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static size_t below(tune_search *se, size_t n) { return n ? (size_t)(splitmix(&se->rng) % n) : 0; }

/* grid: the allowed settings in order, the last tunable fastest. */
static void grid_start(tune_search *se) { se->at = 0; }
static long grid_next(tune_search *se) { return se->at < se->sp->nok ? (long)se->at++ : -1; }
static int grid_ahead(tune_search *se, long *out, int max)
{
	int n = 0;
	for (size_t p = se->at; p < se->sp->nok && n < max; p++) out[n++] = (long)p;
	return n;
}
static void none_reported(tune_search *se, long pos, double score) { (void)se; (void)pos; (void)score; }

/* random: a seeded shuffle of them, no repeats. */
static void random_start(tune_search *se)
{
	size_t n = se->sp->nok;
	se->order = xcalloc(n ? n : 1, sizeof *se->order);
	for (size_t i = 0; i < n; i++) se->order[i] = (long)i;
	for (size_t i = n; i > 1; i--) {
		size_t k = below(se, i);
		long t = se->order[i - 1]; se->order[i - 1] = se->order[k]; se->order[k] = t;
	}
	se->at = 0;
}
static long random_next(tune_search *se) { return se->at < se->sp->nok ? se->order[se->at++] : -1; }
static int random_ahead(tune_search *se, long *out, int max)
{
	int n = 0;
	for (size_t p = se->at; p < se->sp->nok && n < max; p++) out[n++] = se->order[p];
	return n;
}

/* ils: greedy iterated local search (as kernel_tuner's greedy_ils). A climb moves to the first
 * neighbour that is better (a neighbour: one tunable one step along its list, past values the
 * constraints refuse), in a random order; at a local optimum it walks ILS_WALK random steps from the
 * best optimum and climbs again, and after ILS_RESTART optima in a row that did not beat the best it
 * restarts from a random untried setting. The first climb starts at the defaults. */
enum { ILS_WALK = 3, ILS_RESTART = 3, ILS_MAXNB = 2 * TUNE_MAX_OVER };

static int neighbours(const tune_search *se, long pos, long *out)
{
	const tune_space *sp = se->sp;
	const lesson_stage *s = &sp->l->stages[sp->stage];
	uint64_t idx = sp->ok[pos];
	int n = 0;
	for (int i = 0; i < sp->nover; i++) {
		int d = tune_space_digit(sp, idx, i), nv = s->tunables[sp->over[i]].nvalues;
		for (int dir = -1; dir <= 1; dir += 2)
			for (int k = d + dir; k >= 0 && k < nv; k += dir) {
				long q = tune_space_find(sp, tune_space_with(sp, idx, i, k));
				if (q >= 0) { out[n++] = q; break; }
			}
	}
	return n;
}

static void climb_from(tune_search *se, long pos, double score)
{
	se->cur = pos;
	se->cur_score = score;
	se->nnb = neighbours(se, pos, se->nb);
	for (int i = se->nnb; i > 1; i--) {
		size_t k = below(se, (size_t)i);
		long t = se->nb[i - 1]; se->nb[i - 1] = se->nb[k]; se->nb[k] = t;
	}
	se->inb = 0;
}

static long random_untried(tune_search *se)
{
	size_t n = se->sp->nok;
	if (se->tried >= n) return -1;
	size_t p = below(se, n);
	for (size_t i = 0; i < n; i++, p = (p + 1) % n) if (isnan(se->score[p])) return (long)p;
	return -1;
}

static void ils_start(tune_search *se)
{
	se->nb = xcalloc(ILS_MAXNB, sizeof *se->nb);
	se->cur = se->pending = -1;
	se->start = se->sp->def_pos;
}

static long ils_next(tune_search *se)
{
	long walk[ILS_MAXNB];
	for (int guard = 0;; guard++) {
		if (guard > 64) { se->cur = -1; se->start = -1; }   /* circling over known ground: somewhere new */
		if (se->cur < 0) {
			long p = se->start >= 0 && guard <= 64 ? se->start : random_untried(se);
			se->start = -1;
			if (p < 0) return -1;
			if (isnan(se->score[p])) return se->pending = p;
			climb_from(se, p, se->score[p]);
		}
		int moved = 0;
		while (se->inb < se->nnb && !moved) {
			long q = se->nb[se->inb++];
			if (isnan(se->score[q])) return se->pending = q;
			if (se->score[q] > se->cur_score) { climb_from(se, q, se->score[q]); moved = 1; }
		}
		if (moved) continue;
		/* A local optimum: walk away from the best, or after ILS_RESTART that did not improve, restart. */
		se->optima++;
		if (se->cur_score > se->opt_score) { se->opt_score = se->cur_score; se->since_better = 0; }
		else se->since_better++;
		se->cur = -1;
		if (se->since_better >= ILS_RESTART || se->best < 0) { se->since_better = 0; se->restarts++; se->start = -1; continue; }
		long p = se->best;
		for (int w = 0; w < ILS_WALK; w++) {
			int n = neighbours(se, p, walk);
			if (n) p = walk[below(se, (size_t)n)];
		}
		se->start = p;
	}
}

static int ils_ahead(tune_search *se, long *out, int max)
{
	int n = 0;
	if (se->cur < 0 && se->start >= 0 && isnan(se->score[se->start]) && n < max) out[n++] = se->start;
	for (int i = se->inb; se->cur >= 0 && i < se->nnb && n < max; i++)
		if (isnan(se->score[se->nb[i]]) && se->nb[i] != se->pending) out[n++] = se->nb[i];
	return n;
}

static void ils_reported(tune_search *se, long pos, double score)
{
	if (pos != se->pending) return;
	se->pending = -1;
	if (se->cur < 0 || score > se->cur_score) climb_from(se, pos, score);
}

static const tune_strategy grid_strategy = {
	.name = "grid", .help = "every allowed setting in order, the last tunable fastest",
	.start = grid_start, .next = grid_next, .ahead = grid_ahead, .reported = none_reported,
};
static const tune_strategy random_strategy = {
	.name = "random", .help = "the allowed settings in a random order, no repeats (--seed repeats it)",
	.start = random_start, .next = random_next, .ahead = random_ahead, .reported = none_reported,
};
static const tune_strategy ils_strategy = {
	.name = "ils", .help = "iterated local search: climbs from the defaults one tunable one step at a time, "
	                       "walks off each local best and restarts at random (--seed repeats it)",
	.start = ils_start, .next = ils_next, .ahead = ils_ahead, .reported = ils_reported,
};
const tune_strategy *const tune_strategies[] = { &grid_strategy, &random_strategy, &ils_strategy };
const int tune_nstrategies = (int)(sizeof tune_strategies / sizeof tune_strategies[0]);

const tune_strategy *tune_strategy_find(const char *name)
{
	for (int i = 0; i < tune_nstrategies; i++) if (!strcmp(tune_strategies[i]->name, name)) return tune_strategies[i];
	return NULL;
}

void tune_search_start(tune_search *se, const tune_space *sp, const tune_strategy *st, uint64_t seed)
{
	*se = (tune_search){ .st = st, .sp = sp, .rng = seed, .best = -1, .cur = -1, .start = -1, .pending = -1, .opt_score = TUNE_FAILED };
	se->score = xcalloc(sp->nok ? sp->nok : 1, sizeof *se->score);
	for (size_t i = 0; i < sp->nok; i++) se->score[i] = NAN;
	st->start(se);
}

long tune_search_next(tune_search *se) { return se->st->next(se); }

int tune_search_ahead(tune_search *se, long *out, int max) { return se->st->ahead(se, out, max); }

void tune_search_report(tune_search *se, long pos, double score)
{
	if (pos < 0 || (size_t)pos >= se->sp->nok || !isnan(se->score[pos])) return;
	se->score[pos] = score;
	se->tried++;
	if (score > TUNE_FAILED && (se->best < 0 || score > se->best_score)) { se->best = pos; se->best_score = score; se->best_at = se->tried; }
	se->st->reported(se, pos, score);
}

double tune_score(run_status st, double defaults_ms, double setting_ms)
{
	return st == RUN_OK && setting_ms > 0 && defaults_ms > 0 ? defaults_ms / setting_ms : TUNE_FAILED;
}

int tune_budget_allows(double spent_s, size_t tried, double budget_s)
{
	return !tried || spent_s + spent_s / (double)tried <= budget_s;
}

void tune_search_free(tune_search *se)
{
	free(se->score);
	free(se->order);
	free(se->nb);
	se->score = NULL; se->order = NULL; se->nb = NULL;
}

/* ---- Why the best is best ---- */

void tune_why_column(const run_result *r, tune_why_col *o)
{
	snprintf(o->ms, sizeof o->ms, "%s", "-");
	if (r->ms_median > 0) fmt_ms_col(o->ms, sizeof o->ms, r->ms_median);
	if (r->achieved_occupancy >= 0) snprintf(o->occ, sizeof o->occ, "%.0f%% (of %.0f%%)", 100 * r->achieved_occupancy, 100 * r->occ_theoretical);
	else snprintf(o->occ, sizeof o->occ, "%.0f%% in theory", 100 * r->occ_theoretical);
	snprintf(o->limiter, sizeof o->limiter, "%s", r->occ_limiter[0] ? r->occ_limiter : "-");
	if (r->regs >= 0) snprintf(o->regs, sizeof o->regs, "%d", r->regs); else snprintf(o->regs, sizeof o->regs, "-");
	if (r->smem_conflicts_ld >= 0 && r->smem_conflicts_st >= 0) snprintf(o->conflicts, sizeof o->conflicts, "%.0f", r->smem_conflicts_ld + r->smem_conflicts_st);
	else snprintf(o->conflicts, sizeof o->conflicts, "-");
	if (r->dram_bytes_read >= 0 && r->dram_bytes_write >= 0) fmt_traffic(o->dram, sizeof o->dram, r->dram_bytes_read + r->dram_bytes_write);
	else snprintf(o->dram, sizeof o->dram, "-");
	snprintf(o->stalls, sizeof o->stalls, "%s", r->stalls[0] ? r->stalls : "-");
	if (r->findings.n) snprintf(o->finding, sizeof o->finding, "%s", r->findings.f[0].title[0] ? r->findings.f[0].title : r->findings.f[0].rule);
	else snprintf(o->finding, sizeof o->finding, "-");
}

/* The first word of a stall list ("long_scoreboard 41%, ..."): the top stall. */
static void top_stall(const char *stalls, char *out, size_t len)
{
	snprintf(out, len, "%.*s", (int)strcspn(stalls, " ,"), stalls);
}

typedef struct { double weight; char text[160]; } why_change;

void tune_why_changed(const run_result *d, const run_result *b, char *out, size_t len)
{
	why_change ch[8];
	int n = 0;
	if (d->occ_limiter[0] && b->occ_limiter[0] && strcmp(d->occ_limiter, b->occ_limiter)) {
		ch[n].weight = 1e9;
		snprintf(ch[n++].text, sizeof ch[0].text, "occupancy limited by %s, not %s", b->occ_limiter, d->occ_limiter);
	}
	double od = d->achieved_occupancy >= 0 && b->achieved_occupancy >= 0 ? d->achieved_occupancy : d->occ_theoretical;
	double ob = d->achieved_occupancy >= 0 && b->achieved_occupancy >= 0 ? b->achieved_occupancy : b->occ_theoretical;
	if (fabs(ob - od) >= 0.05) {
		ch[n].weight = fabs(ob - od) * 10;
		snprintf(ch[n++].text, sizeof ch[0].text, "occupancy %.0f%% -> %.0f%%", 100 * od, 100 * ob);
	}
	if (d->regs > 0 && b->regs > 0 && d->regs != b->regs) {
		ch[n].weight = fabs(log((double)b->regs / d->regs));
		snprintf(ch[n++].text, sizeof ch[0].text, "registers %d -> %d", d->regs, b->regs);
	}
	double cd = d->smem_conflicts_ld + d->smem_conflicts_st, cb = b->smem_conflicts_ld + b->smem_conflicts_st;
	if (d->smem_conflicts_ld >= 0 && b->smem_conflicts_ld >= 0 && fabs(cb - cd) > 0.1 * fmax(cd, cb) && fmax(cd, cb) > 1000) {
		ch[n].weight = fabs(log((cb + 1) / (cd + 1)));
		snprintf(ch[n++].text, sizeof ch[0].text, "bank conflicts %.3g -> %.3g", cd, cb);
	}
	double bd = d->dram_bytes_read + d->dram_bytes_write, bb = b->dram_bytes_read + b->dram_bytes_write;
	if (d->dram_bytes_read >= 0 && b->dram_bytes_read >= 0 && bd > 0 && bb > 0 && fabs(log(bb / bd)) > log(1.1)) {
		char x[24], y[24];
		ch[n].weight = fabs(log(bb / bd));
		snprintf(ch[n++].text, sizeof ch[0].text, "DRAM bytes %s -> %s", fmt_traffic(x, sizeof x, bd), fmt_traffic(y, sizeof y, bb));
	}
	char sd[40], sbest[40];
	top_stall(d->stalls, sd, sizeof sd);
	top_stall(b->stalls, sbest, sizeof sbest);
	if (sd[0] && sbest[0] && strcmp(sd, sbest)) {
		ch[n].weight = 0.5;
		snprintf(ch[n++].text, sizeof ch[0].text, "top stall %s, not %s", sbest, sd);
	}
	for (int i = 1; i < n; i++)   /* biggest first */
		for (int k = i; k > 0 && ch[k].weight > ch[k - 1].weight; k--) { why_change t = ch[k]; ch[k] = ch[k - 1]; ch[k - 1] = t; }
	size_t o = 0;
	out[0] = 0;
	for (int i = 0; i < n && o < len; i++) o += (size_t)snprintf(out + o, len - o, "%s%s", i ? "; " : "", ch[i].text);
	if (!n) snprintf(out, len, "%s", d->achieved_occupancy < 0 && b->achieved_occupancy < 0
	                                   ? "no counters to compare (--no-counters, or none on this GPU): the times alone"
	                                   : "no counter moved much: the difference is in the instructions (compare show --sass)");
}
