/* tui_tune: see tui_tune.h. */
#include "tui_tune.h"
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void tui_tune_init(tui_tune *t)
{
	memset(t, 0, sizeof *t);
	t->pos = -1;
}

void tui_tune_free(tui_tune *t, engine *e)
{
	if (e && t->def_job) engine_cancel(e, t->def_job);
	if (e && t->set_job) engine_cancel(e, t->set_job);
	if (t->searching) tune_search_free(&t->se);
	if (t->open) tune_space_free(&t->sp);
	tui_tune_init(t);
}

int tui_tune_of(const tui_tune *t, const tui_stage *m)
{
	return t->open && m && t->l == m->l && t->stage == m->cur;
}

int tui_tune_start(tui_tune *t, tui_stage *m, double now, char *msg, size_t n)
{
	const lesson_stage *st = &m->l->stages[m->cur];
	if (m->replay) { snprintf(msg, n, "tune times settings on a GPU: a replay has only the runs it recorded"); return -1; }
	if (!m->can_run) { snprintf(msg, n, "tune needs a GPU to time the settings: %s", m->dev && m->dev->why[0] ? m->dev->why : "there is none"); return -1; }
	if (!st->ntunables) { snprintf(msg, n, "%s has no tunables to tune", st->id); return -1; }
	tui_tune_free(t, m->e);
	t->l = m->l;
	t->stage = m->cur;
	/* the lesson's parameters at the values shown; every tunable searched */
	plan_setting sets[STAGE_SETS_MAX];
	int ns = stage_build_sets(m, m->cur, sets, STAGE_SETS_MAX, -1, NULL);
	for (int i = st->ntunables; i < ns && t->sp.nfixed < 16; i++) t->sp.fixed[t->sp.nfixed++] = sets[i];
	t->sp.l = m->l;
	t->sp.stage = m->cur;
	for (int k = 0; k < st->ntunables && k < TUNE_MAX_OVER && t->sp.nfixed + k < 16; k++) t->sp.over[t->sp.nover++] = k;
	char err[300];
	if (tune_space_begin(&t->sp, err, sizeof err)) { snprintf(msg, n, "tune: %s", err); tune_space_free(&t->sp); return -1; }
	t->open = t->running = t->building = 1;
	t->budget = TUI_TUNE_BUDGET_S;
	t->t0 = now;
	snprintf(msg, n, "tuning %s: checking %" PRIu64 " settings against the constraints, then %d s of search", st->id, t->sp.total,
	         TUI_TUNE_BUDGET_S);
	return 0;
}

/* The settings all checked: the search starts. */
static void search_begin(tui_tune *t, engine *e, double now)
{
	t->building = 0;
	if (!t->sp.nok) {
		tui_tune_stop(t, e, "the constraints refuse every setting here");
		return;
	}
	tune_search_start(&t->se, &t->sp, tune_strategy_find(t->sp.nok <= TUI_TUNE_GRID_MAX ? "grid" : "ils"), 1);
	t->searching = 1;
	t->t0 = now;
	t->spent = 0;
	t->ax = t->sp.nover > 1 ? 1 : 0;
	t->ay = 0;
	tui_tune_cursor_best(t);
}

void tui_tune_stop(tui_tune *t, engine *e, const char *why)
{
	if (!t->running) return;
	if (t->def_job) engine_cancel(e, t->def_job);
	if (t->set_job) engine_cancel(e, t->set_job);
	t->def_job = t->set_job = 0;
	t->pos = -1;
	t->running = t->building = 0;
	snprintf(t->end, sizeof t->end, "%s", why);
}

/* Both of the pair came: the setting's score. */
static void pair_done(tui_tune *t)
{
	double score = tune_score(t->set_status, t->def_ms, t->set_ms);
	if (score > TUNE_FAILED) t->ok++;
	else t->failed++;
	tune_search_report(&t->se, t->pos, score);
	t->pos = -1;
}

int tui_tune_event(tui_tune *t, engine *e, int job, job_phase phase, const run_result *r)
{
	(void)e;
	if (!job || (job != t->def_job && job != t->set_job)) return 0;
	if (phase != JOB_DONE || !r) return 1;
	if (job == t->def_job) {
		t->def_job = 0;
		t->def_ms = r->status == RUN_OK ? r->ms_median : 0;
	} else {
		t->set_job = 0;
		t->set_status = r->status;
		t->set_ms = r->status == RUN_OK ? r->ms_median : 0;
	}
	if (!t->def_job && !t->set_job && t->pos >= 0) pair_done(t);
	return 1;
}

int tui_tune_tick(tui_tune *t, engine *e, double now)
{
	if (!t->running) return 0;
	if (t->building) {
		if (tune_space_check(&t->sp, e, TUI_TUNE_CHECK_STEP)) search_begin(t, e, now);
		return 1;
	}
	int second = (int)t->spent;
	t->spent = now - t->t0;
	int changed = (int)t->spent != second;
	if (t->pos >= 0) return changed;
	size_t tried = t->se.tried;
	if (!tune_budget_allows(t->spent, tried, t->budget)) {   /* the next would end past the budget */
		tui_tune_stop(t, e, "the budget ran out");
		return 1;
	}
	long pos = tune_search_next(&t->se);
	if (pos < 0) {
		tui_tune_stop(t, e, tried ? "the strategy has no more" : "nothing to try");
		return 1;
	}
	engine_job dj, j;
	char err[512];
	tune_space_job(&t->sp, UINT64_MAX, &dj);
	tune_space_job(&t->sp, t->sp.ok[pos], &j);
	t->pos = pos;
	t->def_ms = t->set_ms = 0;
	t->def_job = engine_submit(e, &dj, err, sizeof err);
	t->set_job = t->def_job > 0 ? engine_submit(e, &j, err, sizeof err) : -1;
	if (t->def_job <= 0 || t->set_job <= 0) {
		if (t->def_job > 0) engine_cancel(e, t->def_job);
		t->def_job = t->set_job = 0;
		char why[160];
		snprintf(why, sizeof why, "stopped: %.140s", err);
		t->pos = -1;
		t->running = 1;
		tui_tune_stop(t, e, why);
	}
	return 1;
}

/* The setting the heat map's other tunables come from: the best so far, else the defaults, else the first. */
static uint64_t base_idx(const tui_tune *t)
{
	if (t->searching && t->se.best >= 0) return t->sp.ok[t->se.best];
	if (t->sp.def_pos >= 0) return t->sp.ok[t->sp.def_pos];
	return t->sp.nok ? t->sp.ok[0] : 0;
}

double tui_tune_cell(const tui_tune *t, int i, int j, long *pos, uint64_t *idx)
{
	uint64_t x = tune_space_with(&t->sp, base_idx(t), t->ax, i);
	if (t->ay != t->ax) x = tune_space_with(&t->sp, x, t->ay, j);
	*idx = x;
	*pos = tune_space_find(&t->sp, x);
	return *pos >= 0 && t->searching ? t->se.score[*pos] : NAN;
}

char *tui_tune_cell_text(double score, long pos, char *out, size_t n)
{
	if (pos < 0) snprintf(out, n, "%5s", "-");
	else if (isnan(score)) snprintf(out, n, "%5s", ".");
	else if (score <= TUNE_FAILED) snprintf(out, n, "%5s", "x");
	else if (score >= 99.95) snprintf(out, n, "%5.0f", score);
	else snprintf(out, n, "%5.2f", score);
	return out;
}

void tui_tune_cursor_best(tui_tune *t)
{
	if (!t->sp.nover) return;
	uint64_t b = base_idx(t);
	t->cx = tune_space_digit(&t->sp, b, t->ax);
	t->cy = tune_space_digit(&t->sp, b, t->ay);
}

void tui_tune_axis(tui_tune *t, int which)
{
	int *a = which ? &t->ay : &t->ax, other = which ? t->ax : t->ay;
	if (t->sp.nover < 2) return;
	do *a = (*a + 1) % t->sp.nover; while (*a == other);
	tui_tune_cursor_best(t);
}

double tui_tune_frac(const tui_tune *t, double now)
{
	if (!t->searching) return t->sp.total ? (double)t->sp.checked / (double)t->sp.total : 0;
	double s = t->running ? now - t->t0 : t->spent;
	double f = t->budget > 0 ? (s >= t->budget ? 1 : s / t->budget) : 1;
	double all = t->sp.nok ? (double)t->se.tried / (double)t->sp.nok : 1;   /* a search that tried everything: full */
	return all > f ? all : f;
}

void tui_tune_line(const tui_tune *t, double now, char *out, size_t n)
{
	double s = t->running ? now - t->t0 : t->spent;
	double left = t->budget - s;
	if (!t->searching)
		snprintf(out, n, "%" PRIu64 " of %" PRIu64 " settings checked against the constraints, %zu allowed%s%s", t->sp.checked, t->sp.total,
		         t->sp.nok, t->running ? "" : ": ", t->running ? "" : t->end);
	else if (t->running)
		snprintf(out, n, "%zu of %zu tried, %zu ok; %.0f s left of %.0f", t->se.tried, t->sp.nok, t->ok, left > 0 ? left : 0, t->budget);
	else
		snprintf(out, n, "%zu of %zu tried, %zu ok, in %.0f s: %s", t->se.tried, t->sp.nok, t->ok, s, t->end);
}

void tui_tune_best(const tui_tune *t, char *out, size_t n)
{
	if (!t->searching || t->se.best < 0) { snprintf(out, n, "best: none yet"); return; }
	char txt[256];
	tune_space_text(&t->sp, t->sp.ok[t->se.best], " ", txt, sizeof txt);
	snprintf(out, n, "best x%.2f the defaults (trial %zu): %s", t->se.best_score, t->se.best_at, txt);
}
