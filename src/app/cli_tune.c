/* Tune a stage: its tunables' allowed values under the lesson's constraints and the device's limits,
 * tried within a budget, each paired with the stage at its defaults; --save keeps the best. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "cli.h"
#include "cli_cmd.h"
#include "json.h"
#include "progress.h"
#include "tune.h"
#include "util.h"

enum { TUNE_TOP = 5 };

typedef struct {
	uint64_t idx;
	double ms, def_ms, ratio;              /* ratio: the defaults' median / this setting's */
	int regs; double occ; char limiter[32];
} tune_row;

typedef struct { int pend[64], npend; } tune_ctx;   /* the compiles in flight ahead of the runs */

/* --over (or every tunable that --set leaves free) into g->over; EXIT_USAGE with a message on a name
 * the stage lacks (and the nearest), twice, or also set. */
static int pick_over(const cli *c, tune_space *g)
{
	const lesson_stage *s = &g->l->stages[g->stage];
	const char *names[64];
	int nn = 0;
	for (int t = 0; t < s->ntunables && nn < 64; t++) names[nn++] = s->tunables[t].name;
	char msg[400], near[160];
	for (const char *p = c->tune_over; p && *p;) {
		size_t k = strcspn(p, ",");
		char name[64];
		snprintf(name, sizeof name, "%.*s", (int)k, p);
		p += k + (p[k] == ',');
		if (!*name) continue;
		const lesson_tunable *t = lesson_find_tunable(s, name);
		if (!t) {
			cli_suggest_name(name, names, nn, near, sizeof near);
			snprintf(msg, sizeof msg, "--over: stage %s/%s has no tunable '%s'%s (its tunables: ", g->l->id, s->id, name, near);
			for (int i = 0; i < nn; i++) snprintf(msg + strlen(msg), sizeof msg - strlen(msg), "%s%s", i ? ", " : "", names[i]);
			snprintf(msg + strlen(msg), sizeof msg - strlen(msg), ")");
			return cli_usage_error("%s", msg);
		}
		int ti = (int)(t - s->tunables), dup = 0;
		for (int i = 0; i < g->nover; i++) dup |= g->over[i] == ti;
		if (dup) return cli_usage_error("--over names %s twice", name);
		for (int i = 0; i < c->nsets; i++)
			if (!strcmp(c->sets[i].name, t->name)) return cli_usage_error("%s is both fixed by --set and tuned by --over: give one", t->name);
		if (g->nover == TUNE_MAX_OVER) return cli_usage_error("--over: at most 16 tunables%s", "");
		g->over[g->nover++] = ti;
	}
	if (c->tune_over) return g->nover ? 0 : cli_usage_error("--over needs a tunable's name%s", "");
	for (int t = 0; t < s->ntunables && g->nover < TUNE_MAX_OVER; t++) {
		int set = 0;
		for (int i = 0; i < c->nsets; i++) set |= !strcmp(c->sets[i].name, s->tunables[t].name);
		if (!set) g->over[g->nover++] = t;
	}
	if (!g->nover) return cli_usage_error("stage %s has no tunable to tune (or --set fixes them all)", s->id);
	if (c->nsets + g->nover > 16) return cli_usage_error("at most 16 settings a run: name fewer tunables with --over%s", "");
	return 0;
}

/* Seconds one setting is expected to take: it and the defaults, each its timed runs and a check. */
static double per_setting_s(const cli *c)
{
	double timed = (c->eo.time_budget_ms > 0 ? c->eo.time_budget_ms : 400) / 1000.0;
	return 2 * (timed + 0.15);
}

static void print_plan(const cli *c, const tune_space *g, const device_info *d, const tune_strategy *st, uint64_t seed)
{
	const lesson_stage *s = &g->l->stages[g->stage];
	double each = per_setting_s(c);
	uint64_t fit = (uint64_t)(c->tune_budget / each);
	int seeded = strcmp(st->name, "grid") != 0;
	if (fit > g->nok) fit = g->nok;
	if (c->json) {
		printf("{\"schema\": %d, \"lesson\": ", JSON_SCHEMA);
		json_string(stdout, g->l->id);
		printf(", \"stage\": ");
		json_string(stdout, s->id);
		printf(", \"device\": ");
		json_string(stdout, d->present ? d->name : "");
		printf(", \"gpu\": %s, \"over\": [", d->present ? "true" : "false");
		for (int i = 0; i < g->nover; i++) {
			const lesson_tunable *t = &s->tunables[g->over[i]];
			printf("%s{\"name\": ", i ? ", " : "");
			json_string(stdout, t->name);
			printf(", \"values\": [");
			for (int k = 0; k < t->nvalues; k++) printf("%s%" PRId64, k ? ", " : "", t->values[k]);
			printf("]}");
		}
		printf("], \"settings\": %" PRIu64 ", \"refused\": %" PRIu64 ", \"allowed\": %zu, \"strategy\": \"%s\"", g->total, g->refused, g->nok, st->name);
		if (seeded) printf(", \"seed\": %" PRIu64, seed);
		printf(", \"budget_s\": %g, \"seconds_per_setting\": %.2f, \"would_try\": %" PRIu64 "}\n", c->tune_budget, each, fit);
		return;
	}
	printf("Tuning %s/%s on %s: %" PRIu64 " settings in the grid of", g->l->id, s->id, d->present ? d->name : "no GPU (limits of the --arch table)",
	       g->total);
	for (int i = 0; i < g->nover; i++) printf("%s %s", i ? "," : "", s->tunables[g->over[i]].name);
	printf("\n");
	for (int i = 0; i < g->nover; i++) {
		const lesson_tunable *t = &s->tunables[g->over[i]];
		printf("  %-8s", t->name);
		for (int k = 0; k < t->nvalues && k < 24; k++) printf("%s%" PRId64, k ? ", " : " ", t->values[k]);
		printf("%s\n", t->nvalues > 24 ? ", ..." : "");
	}
	printf("%" PRIu64 " refused by the constraints and the device's limits, %zu allowed\n", g->refused, g->nok);
	for (int i = 0; i < g->nreasons; i++) printf("  %" PRIu64 " x %s\n", g->reasons[i].n, g->reasons[i].why);
	if (g->other_reasons) printf("  %" PRIu64 " x other reasons\n", g->other_reasons);
	if (seeded) printf("strategy %s (seed %" PRIu64 ", --seed repeats it): %s\n", st->name, seed, st->help);
	else printf("strategy %s (%s)\n", st->name, st->help);
	printf("at about %.1f s a setting (it and the defaults, each timed and checked), the budget of %g s tries about %" PRIu64 " of %zu\n", each,
	       c->tune_budget, fit, g->nok);
}

static void tune_listener(void *ctx, int id, job_phase ph, const char *note, const run_result *r)
{
	(void)r;
	tune_ctx *t = ctx;
	if (ph == JOB_WAITING_GPU && note) fprintf(stderr, "cudaclimb: %s\n", note);
	for (int i = 0; ph == JOB_DONE && i < t->npend; i++)
		if (t->pend[i] == id) { t->pend[i] = t->pend[--t->npend]; break; }
}

static int by_ratio(const void *a, const void *b)
{
	const tune_row *x = a, *y = b;
	return x->ratio < y->ratio ? 1 : x->ratio > y->ratio ? -1 : x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* What a search did: the rows that ran right, the trials in order, the counts. */
typedef struct {
	tune_row *rows; size_t nrows;
	long *trial; double *trial_ratio; size_t tried;   /* positions in the order tried; their ratio (0: not right) */
	uint64_t wrong, slow, late_refused, failed;
	int out_of_time;
	double elapsed_s;
	size_t best_at;                                   /* the trial that found the best (1-based) */
} tune_out;

/* The search: each proposed setting timed right after the defaults (dj), until the strategy has no
 * more or the budget is spent; the settings it will likely ask for next compiled ahead meanwhile. */
static void tune_loop(const cli *c, engine *e, const tune_space *g, tune_search *se, const engine_job *dj, tune_out *o)
{
	tune_ctx tc = {0};
	engine_set_listener(e, tune_listener, &tc);
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int ahead = cores < 1 ? 1 : cores > 56 ? 56 : (int)cores, tty = isatty(STDERR_FILENO);
	char *compiled = xcalloc(g->nok ? g->nok : 1, 1);   /* compile submitted (or run) already */
	o->rows = xcalloc(g->nok ? g->nok : 1, sizeof *o->rows);
	o->trial = xcalloc(g->nok ? g->nok : 1, sizeof *o->trial);
	o->trial_ratio = xcalloc(g->nok ? g->nok : 1, sizeof *o->trial_ratio);
	double t0 = now_ms();
	long pos;
	while ((pos = tune_search_next(se)) >= 0) {
		/* the first always runs; a later one only when it would end inside the budget, at the mean pace so far */
		if (!tune_budget_allows((now_ms() - t0) / 1000, o->tried, c->tune_budget)) { o->out_of_time = 1; break; }
		compiled[pos] = 1;
		long want[64];
		int nw = tune_search_ahead(se, want, ahead < 64 ? ahead : 64);
		for (int k = 0; k < nw && tc.npend < ahead; k++) {
			if (compiled[want[k]]) continue;
			engine_job pj;
			char err[512];
			tune_space_job(g, g->ok[want[k]], &pj);
			pj.compile_only = 1;
			int id = engine_submit(e, &pj, err, sizeof err);
			if (id > 0) tc.pend[tc.npend++] = id;
			compiled[want[k]] = 1;
		}
		/* The defaults, then the setting, back to back: the medians compared. */
		engine_job j;
		run_result def, one;
		tune_space_job(g, g->ok[pos], &j);
		run_status ds = engine_run_sync(e, dj, &def);
		run_status st = engine_run_sync(e, &j, &one);
		o->trial[o->tried++] = pos;
		if (!c->json && tty) {
			char txt[256];
			tune_space_text(g, g->ok[pos], " ", txt, sizeof txt);
			fprintf(stderr, "\r[%zu/%zu %.0fs] %-56.56s %s", o->tried, g->nok, (now_ms() - t0) / 1000, txt, run_status_name(st));
		}
		double score = tune_score(ds == RUN_OK ? st : RUN_CRASH, def.ms_median, one.ms_median);
		if (score > TUNE_FAILED) {
			tune_row *w = &o->rows[o->nrows++];
			w->idx = g->ok[pos];
			w->ms = one.ms_median; w->def_ms = def.ms_median; w->ratio = def.ms_median / one.ms_median;
			w->regs = one.regs; w->occ = one.occ_theoretical;
			snprintf(w->limiter, sizeof w->limiter, "%s", one.occ_limiter);
			o->trial_ratio[o->tried - 1] = w->ratio;
		} else if (st == RUN_WRONG) o->wrong++;
		else if (st == RUN_HANG || !strcmp(one.issue, "compile_timeout")) o->slow++;
		else if (st == RUN_REFUSED) o->late_refused++;   /* after its compile: registers, a block over the device's limit */
		else o->failed++;
		tune_search_report(se, pos, score);
		run_result_clear(&def);
		run_result_clear(&one);
	}
	o->elapsed_s = (now_ms() - t0) / 1000;
	o->best_at = se->best_at;
	if (!c->json && tty && o->tried) fprintf(stderr, "\n");
	for (int i = 0; i < tc.npend; i++) engine_cancel(e, tc.pend[i]);
	engine_set_listener(e, NULL, NULL);
	free(compiled);
	qsort(o->rows, o->nrows, sizeof *o->rows, by_ratio);
}

/* Why the best is best: it and the defaults once more, with counters, side by side. 0: both ran. */
static int tune_why(engine *e, const tune_space *g, const engine_job *dj, uint64_t best, run_result *rd, run_result *rb)
{
	engine_job j = *dj, bj;
	j.counters = 1;
	tune_space_job(g, best, &bj);
	bj.counters = 1;
	run_status a = engine_run_sync(e, &j, rd), b = engine_run_sync(e, &bj, rb);
	return a == RUN_OK && b == RUN_OK ? 0 : -1;
}

static void print_why_json(const run_result *r)
{
	tune_why_col w;
	tune_why_column(r, &w);
	printf("{\"ms_median\": %.6g, \"occupancy_achieved\": ", r->ms_median);
	if (r->achieved_occupancy >= 0) printf("%.4f", r->achieved_occupancy); else printf("null");
	printf(", \"occupancy\": %.4f, \"occ_limiter\": ", r->occ_theoretical);
	json_string(stdout, r->occ_limiter);
	printf(", \"regs\": %d, \"bank_conflicts\": ", r->regs);
	if (r->smem_conflicts_ld >= 0 && r->smem_conflicts_st >= 0) printf("%.0f", r->smem_conflicts_ld + r->smem_conflicts_st); else printf("null");
	printf(", \"dram_bytes\": ");
	if (r->dram_bytes_read >= 0 && r->dram_bytes_write >= 0) printf("%.0f", r->dram_bytes_read + r->dram_bytes_write); else printf("null");
	printf(", \"stalls\": ");
	json_string(stdout, r->stalls);
	printf(", \"finding\": ");
	json_string(stdout, strcmp(w.finding, "-") ? w.finding : "");
	printf("}");
}

static void print_why_text(const run_result *rd, const run_result *rb)
{
	tune_why_col d, b;
	tune_why_column(rd, &d);
	tune_why_column(rb, &b);
	char changed[600];
	tune_why_changed(rd, rb, changed, sizeof changed);
	printf("\nwhy: the defaults and the best once more, with counters\n");
	printf("  %-15s %-32s %s\n", "", "defaults", "best");
	printf("  %-15s %-32s %s\n", "ms", d.ms, b.ms);
	printf("  %-15s %-32s %s\n", "occupancy", d.occ, b.occ);
	printf("  %-15s %-32s %s\n", "limited by", d.limiter, b.limiter);
	printf("  %-15s %-32s %s\n", "registers", d.regs, b.regs);
	printf("  %-15s %-32s %s\n", "bank conflicts", d.conflicts, b.conflicts);
	printf("  %-15s %-32s %s\n", "DRAM bytes", d.dram, b.dram);
	printf("  %-15s %-32.31s %s\n", "top stalls", d.stalls, b.stalls);
	printf("  %-15s %-32.31s %s\n", "diagnosis", d.finding, b.finding);
	printf("what changed: %s\n", changed);
}

int cmd_tune(cli *c, engine *e)
{
	if (c->nargs < 2) return cli_usage_error("tune needs LESSON/STAGE%s", "");
	if (c->nargs > 2) return cli_usage_error("tune takes one LESSON/STAGE, not '%s' too", c->args[2]);
	tune_space g = {0};
	int r = cli_find_stage(e, c->args[1], &g.l, &g.stage);
	if (r) return r;
	if (g.stage < 0) return cli_usage_error("the baseline is a library call: it has no tunables%s", "");
	if ((r = pick_over(c, &g))) return r;
	memcpy(g.fixed, c->sets, sizeof c->sets[0] * (size_t)c->nsets);
	g.nfixed = c->nsets;
	const device_info *d = engine_device(e);
	char err[512];
	if (tune_space_build(&g, e, err, sizeof err)) { tune_space_free(&g); return cli_usage_error("%s", err); }
	const tune_strategy *strat = tune_strategy_find(c->tune_strategy ? c->tune_strategy : "grid");
	if (!strat) { tune_space_free(&g); return cli_usage_error("--strategy: no strategy '%s'", c->tune_strategy); }
	uint64_t seed = c->eo.has_seed ? c->eo.seed : (uint64_t)now_ms() ^ ((uint64_t)getpid() << 32);
	int seeded = strcmp(strat->name, "grid") != 0;
	if (c->tune_plan || !d->present) {
		print_plan(c, &g, d, strat, seed);
		if (!d->present && !c->tune_plan) fprintf(stderr, "cudaclimb: tune needs a GPU to time the settings: %s\n", d->why);
		tune_space_free(&g);
		return c->tune_plan ? EXIT_OK : engine_runner_failed(e) ? EXIT_RUNNER : EXIT_NO_GPU;
	}
	if (!c->json) print_plan(c, &g, d, strat, seed);
	const lesson_stage *s = &g.l->stages[g.stage];
	/* The baseline once, when the stage has one: each setting's ratio to it. */
	run_result base, def;
	double base_ms = 0;
	int bs = lesson_stage_baseline(g.l, g.stage);
	run_result_init(&base);
	if (lesson_baseline_at(g.l, bs)) {
		engine_job bj = { .lesson = g.l, .stage = bs };
		for (int i = 0; i < c->nsets; i++) if (lesson_find_param(g.l, c->sets[i].name)) bj.sets[bj.nsets++] = c->sets[i];
		if (engine_run_sync(e, &bj, &base) == RUN_OK && base.ms_median > 0) base_ms = base.ms_median;
	}
	engine_job dj;
	tune_space_job(&g, UINT64_MAX, &dj);
	run_status st = engine_run_sync(e, &dj, &def);
	if (st != RUN_OK || def.ms_median <= 0) {
		fprintf(stderr, "cudaclimb: %s/%s at its defaults: %s: %s\n", g.l->id, s->id, run_status_name(st), def.message);
		run_result_clear(&def); run_result_clear(&base); tune_space_free(&g);
		return st == RUN_OK ? EXIT_FAILED : cli_status_exit(st);
	}
	char def_text[sizeof def.settings];
	snprintf(def_text, sizeof def_text, "%s", def.settings);
	run_result_clear(&def);
	tune_search se;
	tune_search_start(&se, &g, strat, seed);
	tune_out o = {0};
	tune_loop(c, e, &g, &se, &dj, &o);
	size_t untried = g.nok - o.tried;
	int top = o.nrows < TUNE_TOP ? (int)o.nrows : TUNE_TOP;
	/* Why: the best and the defaults with counters (unless --no-counters). */
	run_result wd, wb;
	run_result_init(&wd);
	run_result_init(&wb);
	int why = top && !c->eo.no_counters && !tune_why(e, &g, &dj, o.rows[0].idx, &wd, &wb);
	if (c->json) {
		printf("{\"schema\": %d, \"lesson\": ", JSON_SCHEMA);
		json_string(stdout, g.l->id);
		printf(", \"stage\": ");
		json_string(stdout, s->id);
		printf(", \"device\": ");
		json_string(stdout, d->name);
		printf(", \"strategy\": \"%s\"", strat->name);
		if (seeded) printf(", \"seed\": %" PRIu64, seed);
		printf(", \"budget_s\": %g, \"elapsed_s\": %.3f, \"settings\": %" PRIu64 ", \"refused\": %" PRIu64 ", \"allowed\": %zu, \"tried\": %zu, \"ok\": %zu, "
		       "\"wrong\": %" PRIu64 ", \"too_slow\": %" PRIu64 ", \"refused_after_compile\": %" PRIu64 ", \"failed\": %" PRIu64
		       ", \"untried\": %zu, \"out_of_budget\": %s, \"best_found_at\": %zu, \"defaults\": ",
		       c->tune_budget, o.elapsed_s, g.total, g.refused, g.nok, o.tried, o.nrows, o.wrong, o.slow, o.late_refused, o.failed, untried,
		       o.out_of_time ? "true" : "false", o.best_at);
		json_string(stdout, def_text);
		printf(", \"baseline_ms\": ");
		if (base_ms > 0) printf("%.6g", base_ms); else printf("null");
		printf(", \"tried_settings\": [");   /* in the order tried: a seed repeats a strategy's order */
		for (size_t i = 0; i < o.tried; i++) {
			char txt[256];
			tune_space_text(&g, g.ok[o.trial[i]], " ", txt, sizeof txt);
			printf("%s", i ? ", " : "");
			json_string(stdout, txt);
		}
		printf("], \"tried_vs_defaults\": [");   /* each one's ratio to the defaults, null: it did not run right */
		for (size_t i = 0; i < o.tried; i++) {
			if (o.trial_ratio[i] > 0) printf("%s%.4f", i ? ", " : "", o.trial_ratio[i]);
			else printf("%snull", i ? ", " : "");
		}
		printf("], \"best\": [");
		for (int i = 0; i < top; i++) {
			const tune_row *w = &o.rows[i];
			plan_setting sets[TUNE_MAX_OVER];
			int n = tune_space_sets(&g, w->idx, sets, 0, TUNE_MAX_OVER);
			printf("%s{\"settings\": {", i ? ", " : "");
			for (int k = 0; k < n; k++) { printf("%s", k ? ", " : ""); json_string(stdout, sets[k].name); printf(": %s", sets[k].value); }
			printf("}, \"ms_median\": %.6g, \"defaults_ms_median\": %.6g, \"vs_defaults\": %.4f, \"vs_baseline\": ", w->ms, w->def_ms, w->ratio);
			if (base_ms > 0) printf("%.4f", base_ms / w->ms); else printf("null");
			printf(", \"regs\": %d, \"occupancy\": %.4f, \"occ_limiter\": ", w->regs, w->occ);
			json_string(stdout, w->limiter);
			printf("}");
		}
		printf("], \"why\": ");
		if (why) {
			char changed[600];
			tune_why_changed(&wd, &wb, changed, sizeof changed);
			printf("{\"defaults\": ");
			print_why_json(&wd);
			printf(", \"best\": ");
			print_why_json(&wb);
			printf(", \"changed\": ");
			json_string(stdout, changed);
			printf("}");
		} else printf("null");
		printf("}\n");
	} else {
		printf("\n%-40s %10s %8s %8s %5s %5s  %s\n", "best settings", "ms", "x dflt", base_ms > 0 ? "x base" : "", "regs", "occ", "limiter");
		for (int i = 0; i < top; i++) {
			const tune_row *w = &o.rows[i];
			char txt[256], b[16] = "";
			tune_space_text(&g, w->idx, " ", txt, sizeof txt);
			if (base_ms > 0) snprintf(b, sizeof b, "%.3f", base_ms / w->ms);
			printf("%-40s %10.4f %8.3f %8s %5d %4.0f%%  %s\n", txt, w->ms, w->ratio, b, w->regs, 100 * w->occ, w->limiter);
		}
		printf("defaults: %s; each setting timed right after the defaults, medians compared (x dflt: above 1 is faster)\n", def_text);
		if (base_ms > 0) printf("baseline %s: %.4f ms, timed once before the settings\n", lesson_baseline_at(g.l, bs)->id, base_ms);
		printf("tried %zu of %zu allowed (%" PRIu64 " refused by constraints before, %" PRIu64 " after compiling): %zu right, %" PRIu64
		       " wrong, %" PRIu64 " too slow to finish, %" PRIu64 " failed otherwise",
		       o.tried, g.nok, g.refused, o.late_refused, o.nrows, o.wrong, o.slow, o.failed);
		if (o.out_of_time) printf("; the budget of %g s ran out with %zu untried", c->tune_budget, untried);
		printf("\n");
		if (top) printf("strategy %s: the best found at trial %zu of %zu, in %.1f s\n", strat->name, o.best_at, o.tried, o.elapsed_s);
		if (why) print_why_text(&wd, &wb);
	}
	run_result_clear(&wd);
	run_result_clear(&wb);
	int code = EXIT_OK;
	if (c->tune_save && top) {
		char sets[256], path[4096];
		tune_space_text(&g, o.rows[0].idx, ",", sets, sizeof sets);
		progress_state ps;
		progress_init(&ps);
		if (progress_path(path, sizeof path) || progress_load(&ps, path, err, sizeof err)) {
			fprintf(stderr, "cudaclimb: --save: no progress file to keep it in%s%s\n", path[0] ? ": " : "", path[0] ? err : "");
			code = EXIT_FAILED;
		} else {
			progress_tuned_set(&ps, d->name, g.l->id, s->id, sets);
			plan_setting ts[TUNE_MAX_OVER];   /* the interface starts from them too */
			int n = tune_space_sets(&g, o.rows[0].idx, ts, 0, TUNE_MAX_OVER);
			for (int k = 0; k < n; k++) progress_setting_set(&ps, g.l->id, s->id, ts[k].name, ts[k].value);
			if (progress_save(&ps, path, err, sizeof err)) { fprintf(stderr, "cudaclimb: --save: %s\n", err); code = EXIT_FAILED; }
			else fprintf(stderr, "cudaclimb: saved as tuned on this GPU (%s) for %s/%s: %s (run and the interface start from them; R in the interface resets)\n",
			             d->name, g.l->id, s->id, sets);
		}
		progress_free(&ps);
	} else if (c->tune_save) {
		fprintf(stderr, "cudaclimb: --save: no setting ran right: nothing saved\n");
		code = EXIT_FAILED;
	}
	if (!o.nrows && o.tried && code == EXIT_OK) code = EXIT_FAILED;
	run_result_clear(&base);
	free(o.rows); free(o.trial); free(o.trial_ratio);
	tune_search_free(&se);
	tune_space_free(&g);
	return code;
}

int cli_tune_saved(engine *e, const lesson *l, int stage, plan_setting *sets, int *nsets, int cap, char *said, size_t len)
{
	said[0] = 0;
	const device_info *d = engine_device(e);
	char path[4096], err[512];
	if (stage < 0 || !d->present || progress_path(path, sizeof path)) return 0;
	progress_state ps;
	progress_init(&ps);
	const char *t = progress_load(&ps, path, err, sizeof err) ? NULL : progress_tuned_get(&ps, d->name, l->id, l->stages[stage].id);
	size_t o = 0;
	int added = 0;
	for (const char *p = t; p && *p;) {
		size_t k = strcspn(p, ",");
		char one[200];
		snprintf(one, sizeof one, "%.*s", (int)k, p);
		p += k + (p[k] == ',');
		char *eq = strchr(one, '=');
		if (!eq) continue;
		*eq = 0;
		int set = !lesson_find_tunable(&l->stages[stage], one);   /* a tunable the stage no longer has: left out */
		for (int i = 0; i < *nsets; i++) set |= !strcmp(sets[i].name, one);   /* --set wins */
		if (set || *nsets >= cap) continue;
		snprintf(sets[*nsets].name, sizeof sets[0].name, "%.63s", one);
		snprintf(sets[*nsets].value, sizeof sets[0].value, "%.127s", eq + 1);
		(*nsets)++;
		added++;
		if (o < len) o += (size_t)snprintf(said + o, len - o, "%s%s=%s", o ? " " : "", one, eq + 1);
	}
	progress_free(&ps);
	return added;
}
