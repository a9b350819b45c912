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
#include "util.h"

enum { TUNE_MAX_OVER = 16, TUNE_TOP = 5, TUNE_REASONS = 8 };
#define TUNE_MAX_GRID 2000000.0   /* settings enumerated at most; more: name fewer with --over */

typedef struct {
	const lesson *l; int stage;
	int over[TUNE_MAX_OVER], nover;       /* the tunables tuned (indices into the stage's) */
	uint64_t total;                        /* settings in the grid */
	uint64_t *ok; size_t nok;              /* the allowed ones (mixed-radix numbers, the last tunable fastest) */
	uint64_t refused;                      /* removed by a constraint or a device limit */
	struct { char why[160]; uint64_t n; } reasons[TUNE_REASONS]; int nreasons;   /* the first reasons, each counted */
	uint64_t other_reasons;                /* refused for a reason past those */
} tune_grid;

typedef struct {
	uint64_t idx;
	double ms, def_ms, ratio;              /* ratio: the defaults' median / this setting's */
	int regs; double occ; char limiter[32];
} tune_row;

typedef struct { int pend[64], npend; } tune_ctx;   /* the compiles in flight ahead of the runs */

/* Setting idx of g as NAME=VALUE entries appended to sets (at most cap). */
static int grid_sets(const tune_grid *g, uint64_t idx, plan_setting *sets, int n, int cap)
{
	const lesson_stage *s = &g->l->stages[g->stage];
	int at = n + g->nover;
	if (at > cap) return -1;
	for (int k = g->nover - 1; k >= 0; k--) {
		const lesson_tunable *t = &s->tunables[g->over[k]];
		snprintf(sets[n + k].name, sizeof sets[n + k].name, "%s", t->name);
		snprintf(sets[n + k].value, sizeof sets[n + k].value, "%" PRId64, t->values[idx % (uint64_t)t->nvalues]);
		idx /= (uint64_t)t->nvalues;
	}
	return at;
}

/* "BM=128 BN=64" for idx (sep between). */
static void grid_text(const tune_grid *g, uint64_t idx, const char *sep, char *out, size_t len)
{
	plan_setting sets[TUNE_MAX_OVER];
	int n = grid_sets(g, idx, sets, 0, TUNE_MAX_OVER);
	size_t o = 0;
	out[0] = 0;
	for (int i = 0; i < n && o < len; i++) o += (size_t)snprintf(out + o, len - o, "%s%s=%s", i ? sep : "", sets[i].name, sets[i].value);
}

static void note_reason(tune_grid *g, const char *why)
{
	char w[160];
	snprintf(w, sizeof w, "%.159s", why);
	char *p = strstr(w, ": needs ");   /* a device limit's numbers differ setting by setting: one reason, counted */
	if (p) *p = 0;
	for (int i = 0; i < g->nreasons; i++) if (!strcmp(g->reasons[i].why, w)) { g->reasons[i].n++; return; }
	if (g->nreasons < TUNE_REASONS) { snprintf(g->reasons[g->nreasons].why, sizeof g->reasons[0].why, "%s", w); g->reasons[g->nreasons++].n = 1; }
	else g->other_reasons++;
}

/* The job of setting idx (UINT64_MAX: the defaults): the command line's --set, then the setting. */
static int grid_job(const cli *c, const tune_grid *g, uint64_t idx, engine_job *j)
{
	*j = (engine_job){ .lesson = g->l, .stage = g->stage };
	memcpy(j->sets, c->sets, sizeof c->sets[0] * (size_t)c->nsets);
	j->nsets = c->nsets;
	if (idx == UINT64_MAX) return 0;
	int n = grid_sets(g, idx, j->sets, c->nsets, 16);
	if (n < 0) return -1;
	j->nsets = n;
	return 0;
}

/* --over (or every tunable that --set leaves free) into g->over; EXIT_USAGE with a message on a name
 * the stage lacks (and the nearest), twice, or also set. */
static int pick_over(const cli *c, tune_grid *g)
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

/* Every setting of the grid checked as a run would check it (engine_check_sets: the lesson's
 * constraints, the block and shared memory limits of the device); the allowed ones into g->ok. */
static int build_grid(const cli *c, engine *e, tune_grid *g)
{
	const lesson_stage *s = &g->l->stages[g->stage];
	double total = 1;
	for (int i = 0; i < g->nover; i++) total *= s->tunables[g->over[i]].nvalues;
	if (total > TUNE_MAX_GRID) {
		char msg[200];
		snprintf(msg, sizeof msg, "the grid has %.0f settings, more than %.0f: name fewer tunables with --over (or fix some with --set)", total, TUNE_MAX_GRID);
		return cli_usage_error("%s", msg);
	}
	g->total = (uint64_t)total;
	g->ok = xcalloc(g->total ? g->total : 1, sizeof *g->ok);
	for (uint64_t idx = 0; idx < g->total; idx++) {
		engine_job j;
		char err[512];
		if (grid_job(c, g, idx, &j)) return EXIT_USAGE;
		if (engine_check_sets(e, &j, err, sizeof err)) { g->refused++; note_reason(g, err); }
		else g->ok[g->nok++] = idx;
	}
	return 0;
}

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The order the settings are tried in: grid, as enumerated; random, a seeded shuffle (no repeats). */
static void order(tune_grid *g, int random, uint64_t seed)
{
	for (size_t i = g->nok; random && i > 1; i--) {
		size_t k = (size_t)(splitmix(&seed) % i);
		uint64_t t = g->ok[i - 1]; g->ok[i - 1] = g->ok[k]; g->ok[k] = t;
	}
}

/* Seconds one setting is expected to take: it and the defaults, each its timed runs and a check. */
static double per_setting_s(const cli *c)
{
	double timed = (c->eo.time_budget_ms > 0 ? c->eo.time_budget_ms : 400) / 1000.0;
	return 2 * (timed + 0.15);
}

static void print_plan(const cli *c, const tune_grid *g, const device_info *d, int random, uint64_t seed)
{
	const lesson_stage *s = &g->l->stages[g->stage];
	double each = per_setting_s(c);
	uint64_t fit = (uint64_t)(c->tune_budget / each);
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
		printf("], \"settings\": %" PRIu64 ", \"refused\": %" PRIu64 ", \"allowed\": %zu, \"strategy\": \"%s\"", g->total, g->refused, g->nok,
		       random ? "random" : "grid");
		if (random) printf(", \"seed\": %" PRIu64, seed);
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
	if (random) printf("strategy random (seed %" PRIu64 ", --seed repeats it): ", seed);
	else printf("strategy grid (in order, the last tunable fastest): ");
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

int cmd_tune(cli *c, engine *e)
{
	if (c->nargs < 2) return cli_usage_error("tune needs LESSON/STAGE%s", "");
	if (c->nargs > 2) return cli_usage_error("tune takes one LESSON/STAGE, not '%s' too", c->args[2]);
	tune_grid g = {0};
	int r = cli_find_stage(e, c->args[1], &g.l, &g.stage);
	if (r) return r;
	if (g.stage < 0) return cli_usage_error("the baseline is a library call: it has no tunables%s", "");
	if ((r = pick_over(c, &g))) return r;
	const device_info *d = engine_device(e);
	if ((r = build_grid(c, e, &g))) { free(g.ok); return r; }
	int random = c->tune_strategy && !strcmp(c->tune_strategy, "random");
	uint64_t seed = c->eo.has_seed ? c->eo.seed : (uint64_t)now_ms() ^ ((uint64_t)getpid() << 32);
	order(&g, random, seed);
	if (c->tune_plan || !d->present) {
		print_plan(c, &g, d, random, seed);
		if (!d->present && !c->tune_plan) fprintf(stderr, "cudaclimb: tune needs a GPU to time the settings: %s\n", d->why);
		free(g.ok);
		return c->tune_plan ? EXIT_OK : engine_runner_failed(e) ? EXIT_RUNNER : EXIT_NO_GPU;
	}
	if (!c->json) print_plan(c, &g, d, random, seed);
	const lesson_stage *s = &g.l->stages[g.stage];
	tune_ctx tc = {0};
	engine_set_listener(e, tune_listener, &tc);
	/* The baseline once, when the stage has one: each setting's ratio to it. */
	run_result base, def, one;
	double base_ms = 0;
	int bs = lesson_stage_baseline(g.l, g.stage);
	run_result_init(&base);
	if (lesson_baseline_at(g.l, bs)) {
		engine_job bj = { .lesson = g.l, .stage = bs };
		for (int i = 0; i < c->nsets; i++) if (lesson_find_param(g.l, c->sets[i].name)) bj.sets[bj.nsets++] = c->sets[i];
		if (engine_run_sync(e, &bj, &base) == RUN_OK && base.ms_median > 0) base_ms = base.ms_median;
	}
	engine_job dj;
	grid_job(c, &g, UINT64_MAX, &dj);
	run_status st = engine_run_sync(e, &dj, &def);
	if (st != RUN_OK || def.ms_median <= 0) {
		fprintf(stderr, "cudaclimb: %s/%s at its defaults: %s: %s\n", g.l->id, s->id, run_status_name(st), def.message);
		run_result_clear(&def); run_result_clear(&base); free(g.ok);
		return st == RUN_OK ? EXIT_FAILED : cli_status_exit(st);
	}
	char def_text[sizeof def.settings];
	snprintf(def_text, sizeof def_text, "%s", def.settings);
	run_result_clear(&def);
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int ahead = cores < 1 ? 1 : cores > 56 ? 56 : (int)cores;
	tune_row *rows = xcalloc(g.nok ? g.nok : 1, sizeof *rows);
	size_t nrows = 0, next = 0, tried = 0;
	uint64_t wrong = 0, slow = 0, late_refused = 0, failed = 0;
	double t0 = now_ms();
	int out_of_time = 0, tty = isatty(STDERR_FILENO);
	for (size_t i = 0; i < g.nok; i++) {
		if (i && (now_ms() - t0) / 1000 >= c->tune_budget) { out_of_time = 1; break; }   /* the first always runs */
		/* Compile ahead: as many settings at once as there are cores, while the GPU runs. */
		if (next <= i) next = i + 1;
		while (next < g.nok && tc.npend < ahead && next <= i + (size_t)ahead) {
			engine_job pj;
			char err[512];
			grid_job(c, &g, g.ok[next++], &pj);
			pj.compile_only = 1;
			int id = engine_submit(e, &pj, err, sizeof err);
			if (id > 0) tc.pend[tc.npend++] = id;
		}
		/* The defaults, then the setting, back to back: the medians compared. */
		engine_job j;
		grid_job(c, &g, g.ok[i], &j);
		run_status ds = engine_run_sync(e, &dj, &def);
		st = engine_run_sync(e, &j, &one);
		tried++;
		if (!c->json && tty) {
			char txt[256];
			grid_text(&g, g.ok[i], " ", txt, sizeof txt);
			fprintf(stderr, "\r[%zu/%zu] %-60.60s %s", i + 1, g.nok, txt, run_status_name(st));
		}
		if (st == RUN_OK && one.ms_median > 0 && ds == RUN_OK && def.ms_median > 0) {
			tune_row *w = &rows[nrows++];
			w->idx = g.ok[i];
			w->ms = one.ms_median; w->def_ms = def.ms_median; w->ratio = def.ms_median / one.ms_median;
			w->regs = one.regs; w->occ = one.occ_theoretical;
			snprintf(w->limiter, sizeof w->limiter, "%s", one.occ_limiter);
		} else if (st == RUN_WRONG) wrong++;
		else if (st == RUN_HANG || !strcmp(one.issue, "compile_timeout")) slow++;
		else if (st == RUN_REFUSED) late_refused++;   /* after its compile: registers, a block over the device's limit */
		else failed++;
		run_result_clear(&def);
		run_result_clear(&one);
	}
	if (!c->json && tty && tried) fprintf(stderr, "\n");
	for (int i = 0; i < tc.npend; i++) engine_cancel(e, tc.pend[i]);
	engine_set_listener(e, NULL, NULL);
	qsort(rows, nrows, sizeof *rows, by_ratio);
	size_t untried = g.nok - tried;
	int top = nrows < TUNE_TOP ? (int)nrows : TUNE_TOP;
	if (c->json) {
		printf("{\"schema\": %d, \"lesson\": ", JSON_SCHEMA);
		json_string(stdout, g.l->id);
		printf(", \"stage\": ");
		json_string(stdout, s->id);
		printf(", \"device\": ");
		json_string(stdout, d->name);
		printf(", \"strategy\": \"%s\"", random ? "random" : "grid");
		if (random) printf(", \"seed\": %" PRIu64, seed);
		printf(", \"budget_s\": %g, \"settings\": %" PRIu64 ", \"refused\": %" PRIu64 ", \"allowed\": %zu, \"tried\": %zu, \"ok\": %zu, "
		       "\"wrong\": %" PRIu64 ", \"too_slow\": %" PRIu64 ", \"refused_after_compile\": %" PRIu64 ", \"failed\": %" PRIu64
		       ", \"untried\": %zu, \"out_of_budget\": %s, \"defaults\": ",
		       c->tune_budget, g.total, g.refused, g.nok, tried, nrows, wrong, slow, late_refused, failed, untried, out_of_time ? "true" : "false");
		json_string(stdout, def_text);
		printf(", \"baseline_ms\": ");
		if (base_ms > 0) printf("%.6g", base_ms); else printf("null");
		printf(", \"tried_settings\": [");   /* in the order tried: a seed repeats a random order */
		for (size_t i = 0; i < tried; i++) {
			char txt[256];
			grid_text(&g, g.ok[i], " ", txt, sizeof txt);
			printf("%s", i ? ", " : "");
			json_string(stdout, txt);
		}
		printf("], \"best\": [");
		for (int i = 0; i < top; i++) {
			const tune_row *w = &rows[i];
			plan_setting sets[TUNE_MAX_OVER];
			int n = grid_sets(&g, w->idx, sets, 0, TUNE_MAX_OVER);
			printf("%s{\"settings\": {", i ? ", " : "");
			for (int k = 0; k < n; k++) { printf("%s", k ? ", " : ""); json_string(stdout, sets[k].name); printf(": %s", sets[k].value); }
			printf("}, \"ms_median\": %.6g, \"defaults_ms_median\": %.6g, \"vs_defaults\": %.4f, \"vs_baseline\": ", w->ms, w->def_ms, w->ratio);
			if (base_ms > 0) printf("%.4f", base_ms / w->ms); else printf("null");
			printf(", \"regs\": %d, \"occupancy\": %.4f, \"occ_limiter\": ", w->regs, w->occ);
			json_string(stdout, w->limiter);
			printf("}");
		}
		printf("]}\n");
	} else {
		printf("\n%-40s %10s %8s %8s %5s %5s  %s\n", "best settings", "ms", "x dflt", base_ms > 0 ? "x base" : "", "regs", "occ", "limiter");
		for (int i = 0; i < top; i++) {
			const tune_row *w = &rows[i];
			char txt[256], b[16] = "";
			grid_text(&g, w->idx, " ", txt, sizeof txt);
			if (base_ms > 0) snprintf(b, sizeof b, "%.3f", base_ms / w->ms);
			printf("%-40s %10.4f %8.3f %8s %5d %4.0f%%  %s\n", txt, w->ms, w->ratio, b, w->regs, 100 * w->occ, w->limiter);
		}
		printf("defaults: %s; each setting timed right after the defaults, medians compared (x dflt: above 1 is faster)\n", def_text);
		if (base_ms > 0) printf("baseline %s: %.4f ms, timed once before the settings\n", lesson_baseline_at(g.l, bs)->id, base_ms);
		printf("tried %zu of %zu allowed (%" PRIu64 " refused by constraints before, %" PRIu64 " after compiling): %zu right, %" PRIu64
		       " wrong, %" PRIu64 " too slow to finish, %" PRIu64 " failed otherwise",
		       tried, g.nok, g.refused, late_refused, nrows, wrong, slow, failed);
		if (out_of_time) printf("; the budget of %g s ran out with %zu untried", c->tune_budget, untried);
		printf("\n");
	}
	int code = EXIT_OK;
	if (c->tune_save && top) {
		char sets[256], path[4096], err[512];
		grid_text(&g, rows[0].idx, ",", sets, sizeof sets);
		progress_state ps;
		progress_init(&ps);
		if (progress_path(path, sizeof path) || progress_load(&ps, path, err, sizeof err)) {
			fprintf(stderr, "cudaclimb: --save: no progress file to keep it in%s%s\n", path[0] ? ": " : "", path[0] ? err : "");
			code = EXIT_FAILED;
		} else {
			progress_tuned_set(&ps, d->name, g.l->id, s->id, sets);
			plan_setting ts[TUNE_MAX_OVER];   /* the interface starts from them too */
			int n = grid_sets(&g, rows[0].idx, ts, 0, TUNE_MAX_OVER);
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
	if (!nrows && tried && code == EXIT_OK) code = EXIT_FAILED;
	run_result_clear(&base);
	free(rows);
	free(g.ok);
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
