/* The stage view's model: values, checks, jobs and results. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tui_param.h"
#include "tui_stage.h"
#include "lesson_case.h"
#include "util.h"

#define DEBOUNCE 0.05     /* after a value changes, so that a held key (about 30 repeats a second) does not queue runs */
#define LESSON_WIDE "-"   /* the progress file's stage word for the parameters' values */

static const lesson_stage *cur_stage(const tui_stage *m) { return &m->l->stages[m->cur]; }

int stage_rows(const tui_stage *m)
{
	return cur_stage(m)->ntunables + m->l->nparams;
}

int stage_row_param(const tui_stage *m, int r)
{
	int nt = cur_stage(m)->ntunables;
	return r >= nt && r < nt + m->l->nparams ? r - nt : -1;
}

int stage_build_sets(const tui_stage *m, int s, plan_setting *sets, int cap, int ot, const char *ov)
{
	int nt = s >= 0 ? m->l->stages[s].ntunables : 0;
	if (nt > cap)
		return -1;
	for (int t = 0; t < nt; t++) {
		snprintf(sets[t].name, sizeof sets[t].name, "%s", m->l->stages[s].tunables[t].name);
		if (t == ot)
			snprintf(sets[t].value, sizeof sets[t].value, "%s", ov);
		else
			snprintf(sets[t].value, sizeof sets[t].value, "%" PRId64, m->slots[s].tv[t]);
	}
	int np = param_sets(m->l, &m->pdev, m->pv, ot >= nt ? ot - nt : -1, ov, sets + nt, cap - nt);
	return np < 0 ? -1 : nt + np;
}

int stage_check(const tui_stage *m, int s, int ot, const char *ov, char *err, size_t len,
                expr_value *value)
{
	plan_setting sets[STAGE_SETS_MAX];
	int n = stage_build_sets(m, s, sets, STAGE_SETS_MAX, ot, ov);
	if (n < 0) {
		snprintf(err, len, "too many tunables and parameters for one run (at most %d)", STAGE_SETS_MAX);
		return -1;
	}
	int nt = s >= 0 ? m->l->stages[s].ntunables : 0;
	const char *name = value && ot >= 0 && ot < nt + m->l->nparams
	                   ? (ot < nt ? m->l->stages[s].tunables[ot].name : m->l->params[ot - nt].name) : NULL;
	return plan_check(m->l, s, sets, n, &m->pdev, name, value, err, len);
}

/* Saved values of stage s that the plan refuses together (a lesson's constraint changed, or a file
 * written by an older version): the saved tunable whose default makes them fine again goes back to
 * its default, in the state too, and msg says so in one line. When the defaults are refused as
 * well, the values stay: the reason is not what was saved. */
static void drop_refused(tui_stage *m, int s)
{
	const lesson_stage *st = &m->l->stages[s];
	int64_t *tv = m->slots[s].tv;
	char why[400], err[400], v[32];
	if (st->ntunables == 0 || stage_check(m, s, -1, "", why, sizeof why, NULL) == 0)
		return;
	for (int t = 0; t < st->ntunables; t++) {
		int64_t old = tv[t];
		if (old == stage_tunable_default(m, s, t))
			continue;
		tv[t] = stage_tunable_default(m, s, t);
		if (stage_check(m, s, -1, "", err, sizeof err, NULL) == 0) {
			snprintf(v, sizeof v, "%" PRId64, tv[t]);
			tui_state_set_setting(m->state, m->l->id, st->id, st->tunables[t].name, v);
			if (!m->msg[0])
				snprintf(m->msg, sizeof m->msg, "saved %s=%" PRId64 " of %s ignored (now refused: %s); %s",
				         st->tunables[t].name, old, st->id, why, v);
			return;
		}
		tv[t] = old;
	}
}

int64_t stage_tunable_default(const tui_stage *m, int s, int t)
{
	const lesson_stage *st = &m->l->stages[s];
	int64_t v;
	char err[64];
	return plan_tunable_default(m->l, st, t, &m->pdev, &v, err, sizeof err) ? st->tunables[t].values[0] : v;
}

/* msg (when empty): the values restored from the last session that differ from the defaults, so
 * that none carries over silently: "restored from last time: a=3, coalesced BLOCK=512 - R resets"; a stage's
 * values from cudaclimb tune --save for this GPU as "tuned on this GPU: warptile BM=128,BN=64". */
static void say_restored(tui_stage *m)
{
	char list[400] = "", v[48];
	size_t o = 0;
	int n = 0;
	for (int i = 0; i < m->l->nparams && o < sizeof list; i++) {
		if (param_is_default(m->l, &m->pdev, m->pv, i)
		    || !tui_state_get_setting(m->state, m->l->id, LESSON_WIDE, m->l->params[i].name))
			continue;
		expr_format(m->pv[i], v, sizeof v);
		o += (size_t)snprintf(list + o, sizeof list - o, "%s%s=%s", n++ ? ", " : "", m->l->params[i].name, v);
	}
	char tuned[300] = "";
	size_t to = 0;
	for (int s = 0; s < m->l->nstages && o < sizeof list; s++) {
		const lesson_stage *st = &m->l->stages[s];
		/* cudaclimb tune --save's values for this GPU: said as tuned, not as restored */
		const char *tv = m->dev->present ? progress_tuned_get(m->state, m->dev->name, m->l->id, st->id) : NULL;
		if (tv && to < sizeof tuned) {
			to += (size_t)snprintf(tuned + to, sizeof tuned - to, "%s%s %s", to ? ", " : "", st->id, tv);
			continue;
		}
		for (int t = 0; t < st->ntunables && o < sizeof list; t++) {
			if (m->slots[s].tv[t] == stage_tunable_default(m, s, t)
			    || !tui_state_get_setting(m->state, m->l->id, st->id, st->tunables[t].name))
				continue;
			o += (size_t)snprintf(list + o, sizeof list - o, "%s%s %s=%" PRId64, n++ ? ", " : "", st->id,
			                      st->tunables[t].name, m->slots[s].tv[t]);
		}
	}
	if ((n || to) && !m->msg[0])
		snprintf(m->msg, sizeof m->msg, "%s%s%s%s%s - R resets", to ? "tuned on this GPU: " : "", tuned, to && n ? "; " : "",
		         n ? "restored from last time: " : "", n ? list : "");
}

tui_stage *stage_new(engine *e, const lesson *l, const device_info *dev, tui_state *state)
{
	if (l->nstages <= 0) return NULL;
	tui_stage *m = xcalloc(1, sizeof *m);
	m->e = e; m->l = l; m->dev = dev; m->state = state;
	m->can_run = dev->present;
	m->sweep_tunable = -1;
	engine_plan_device(e, &m->pdev);
	run_result_init(&m->base);
	m->slots = xcalloc((size_t)l->nstages, sizeof *m->slots);
	m->pv = xcalloc((size_t)(l->nparams ? l->nparams : 1), sizeof *m->pv);
	char err[256];
	param_defaults(l, &m->pdev, m->pv, err, sizeof err);   /* a broken default: plan_make says so */
	for (int i = 0; i < l->nparams; i++) {
		const char *saved = tui_state_get_setting(state, l->id, LESSON_WIDE, l->params[i].name);
		expr_value v;
		if (saved && param_parse(l, &m->pdev, m->pv, i, saved, &v) == 0)
			param_set(l, &m->pdev, m->pv, i, v);
	}
	for (int s = 0; s < l->nstages; s++) {
		const lesson_stage *st = &l->stages[s];
		stage_slot *sl = &m->slots[s];
		run_result_init(&sl->last);
		run_result_init(&sl->prev);
		sl->tv = xcalloc((size_t)(st->ntunables ? st->ntunables : 1), sizeof *sl->tv);
		for (int t = 0; t < st->ntunables; t++) {
			const char *saved = tui_state_get_setting(state, l->id, st->id, st->tunables[t].name);
			int64_t v;
			sl->tv[t] = saved && plan_tunable_value(st, t, &m->pdev, saved, &v, err, sizeof err) == 0 ? v : stage_tunable_default(m, s, t);
		}
	}
	for (int s = 0; s < l->nstages; s++)
		drop_refused(m, s);
	say_restored(m);
	m->metric = score_metric_of(e, l);   /* as the CLI scores it */
	return m;
}

void stage_free(tui_stage *m)
{
	if (!m) return;
	for (int i = 0; i < m->njobs; i++)
		engine_cancel(m->e, m->jobs[i].id);
	for (int s = 0; s < m->l->nstages; s++) {
		free(m->slots[s].tv);
		run_result_clear(&m->slots[s].last);
		run_result_clear(&m->slots[s].prev);
	}
	run_result_clear(&m->base);
	free(m->slots);
	free(m->pv);
	free(m);
}

int stage_validate(tui_stage *m)
{
	m->problem[0] = 0;
	if (m->editing && !m->edit[0])
		return 0;
	return stage_check(m, m->cur, m->editing ? m->sel : -1, m->edit, m->problem, sizeof m->problem, NULL);
}

void stage_select(tui_stage *m, int i)
{
	if (i < 0) i = 0;
	if (i >= m->l->nstages) i = m->l->nstages - 1;
	if (m->run_job) { engine_cancel(m->e, m->run_job); m->run_job = 0; }
	m->cur = i;
	m->sel = 0;
	m->editing = 0;
	m->want_run = m->live;
	m->due = 0;
	stage_validate(m);
	tui_progress *p = m->replay ? NULL : tui_state_stage(m->state, m->l->id, cur_stage(m)->id, 1);
	if (p && !p->seen) { p->seen = 1; m->state->dirty = 1; }
	tui_state_set_last(m->state, m->l->id, cur_stage(m)->id);
}

/* The current values changed: remember them, check them, and rerun soon when they are fine. */
static void changed(tui_stage *m, double now)
{
	const lesson_stage *st = cur_stage(m);
	char v[32];
	for (int t = 0; t < st->ntunables; t++) {
		snprintf(v, sizeof v, "%" PRId64, m->slots[m->cur].tv[t]);
		tui_state_set_setting(m->state, m->l->id, st->id, st->tunables[t].name, v);
	}
	for (int i = 0; i < m->l->nparams; i++) {   /* a default is kept as "default", not its value */
		const char *name = m->l->params[i].name;
		int def = param_is_default(m->l, &m->pdev, m->pv, i);
		if (!def || tui_state_get_setting(m->state, m->l->id, LESSON_WIDE, name))
			tui_state_set_setting(m->state, m->l->id, LESSON_WIDE, name,
			                      def ? "default" : expr_format(m->pv[i], v, sizeof v));
	}
	if (m->run_job) { engine_cancel(m->e, m->run_job); m->run_job = 0; }
	m->want_run = stage_validate(m) == 0;
	m->due = now + DEBOUNCE;
	snprintf(m->msg, sizeof m->msg, "%s", m->problem);
}

/* Halves or doubles parameter i unless the plan refuses the result (then msg says why). */
static void step_param(tui_stage *m, int i, int delta, double now)
{
	expr_value v;
	char text[48], why[400];
	if (param_step(m->l, &m->pdev, m->pv, i, delta, &v) != 0)
		return;
	expr_format(v, text, sizeof text);
	if (stage_check(m, m->cur, m->sel, text, why, sizeof why, NULL) != 0) {
		snprintf(m->msg, sizeof m->msg, "%s = %s refused: %s", m->l->params[i].name, text, why);
		return;
	}
	param_set(m->l, &m->pdev, m->pv, i, v);
	changed(m, now);
}

void stage_step(tui_stage *m, int delta, double now)
{
	const lesson_stage *st = cur_stage(m);
	int param = stage_row_param(m, m->sel);
	if (m->editing && param >= 0) return;
	if (param >= 0) {
		step_param(m, param, delta, now);
		return;
	}
	if (st->ntunables == 0) return;
	const lesson_tunable *t = &st->tunables[m->sel];
	int64_t from = m->slots[m->cur].tv[m->sel];
	if (m->editing) {                    /* from the refused value left in the edit field */
		char *end;
		long long e = strtoll(m->edit, &end, 10);
		if (!m->edit[0] || *end) return;
		from = e;
	}
	int i = 0;
	while (i < t->nvalues - 1 && t->values[i] < from) i++;
	i += delta;
	if (i < 0) i = 0;
	if (i >= t->nvalues) i = t->nvalues - 1;
	if (t->nvalues == 0 || t->values[i] == from) return;
	char text[32];
	snprintf(text, sizeof text, "%" PRId64, t->values[i]);
	if (stage_check(m, m->cur, m->sel, text, m->problem, sizeof m->problem, NULL) != 0) {
		/* refused: it stays in the edit field with its reason, never in the stage's values */
		m->editing = 1;
		snprintf(m->edit, sizeof m->edit, "%s", text);
		snprintf(m->msg, sizeof m->msg, "%s", m->problem);
		return;
	}
	m->editing = 0;
	m->edit[0] = 0;
	m->slots[m->cur].tv[m->sel] = t->values[i];
	changed(m, now);
}

void stage_edit_char(tui_stage *m, int c)
{
	size_t n = strlen(m->edit);
	if (stage_rows(m) == 0) return;
	if (!m->editing) { m->editing = 1; m->edit[0] = 0; n = 0; }
	if (c >= 0x20 && c < 0x7f && n + 1 < sizeof m->edit) {
		m->edit[n] = (char)c;
		m->edit[n + 1] = 0;
	}
	stage_validate(m);
}

void stage_edit_backspace(tui_stage *m)
{
	size_t n = strlen(m->edit);
	if (!m->editing) return;
	if (n) m->edit[n - 1] = 0;
	stage_validate(m);
}

int stage_edit_commit(tui_stage *m, double now)
{
	expr_value v = { .kind = EXPR_INT };
	if (!m->editing) return 0;
	if (!m->edit[0]) { stage_edit_cancel(m); return 0; }
	if (stage_check(m, m->cur, m->sel, m->edit, m->problem, sizeof m->problem, &v) != 0)
		return -1;                       /* keep typing: the message says why */
	m->editing = 0;
	m->edit[0] = 0;
	int p = stage_row_param(m, m->sel);
	if (p >= 0)
		param_set(m->l, &m->pdev, m->pv, p, v);
	else
		m->slots[m->cur].tv[m->sel] = expr_as_int(v);
	changed(m, now);
	return 0;
}

void stage_edit_cancel(tui_stage *m)
{
	m->editing = 0;
	m->edit[0] = 0;
	stage_validate(m);
}

int stage_case(const tui_stage *m)
{
	const lesson *l = m->l;
	for (int k = 0; k < l->ncases; k++) {
		const lesson_case *cs = &l->cases[k];
		int in = 1;
		for (int i = 0; i < cs->n && in; i++) {
			double want;
			if (lesson_case_value(cs, i, &want)) { in = 0; break; }
			const lesson_param *p = lesson_find_param(l, cs->names[i]);
			if (p) { in = fabs(expr_as_double(m->pv[p - l->params]) - want) <= 1e-9 * fmax(1, fabs(want)); continue; }
			const lesson_stage *st = cur_stage(m);
			for (int t = 0; t < st->ntunables; t++)
				if (!strcmp(st->tunables[t].name, cs->names[i])) in = (double)m->slots[m->cur].tv[t] == want;
		}
		if (in) return k;
	}
	return -1;
}

int stage_case_next(tui_stage *m, double now)
{
	const lesson *l = m->l;
	if (!l->ncases) {
		snprintf(m->msg, sizeof m->msg, "%s has no cases: its defaults show every point", l->id);
		return -1;
	}
	int was = stage_case(m), k = was + 1 < l->ncases ? was + 1 : -1;
	char err[256];
	m->editing = 0;
	param_defaults(l, &m->pdev, m->pv, err, sizeof err);
	for (int s = 0; s < l->nstages; s++)   /* the tunables the cases set go back to their defaults */
		for (int t = 0; t < l->stages[s].ntunables; t++)
			for (int c = 0; c < l->ncases; c++)
				for (int i = 0; i < l->cases[c].n; i++)
					if (!strcmp(l->cases[c].names[i], l->stages[s].tunables[t].name)) m->slots[s].tv[t] = stage_tunable_default(m, s, t);
	if (k >= 0) {
		const lesson_case *cs = &l->cases[k];
		for (int i = 0; i < cs->n; i++) {
			const lesson_param *p = lesson_find_param(l, cs->names[i]);
			expr_value v;
			double d;
			if (p && param_parse(l, &m->pdev, m->pv, (int)(p - l->params), cs->values[i], &v) == 0) param_set(l, &m->pdev, m->pv, (int)(p - l->params), v);
			else if (!p && lesson_case_value(cs, i, &d) == 0)
				for (int s = 0; s < l->nstages; s++)
					for (int t = 0; t < l->stages[s].ntunables; t++)
						if (!strcmp(l->stages[s].tunables[t].name, cs->names[i])) m->slots[s].tv[t] = (int64_t)d;
		}
	}
	changed(m, now);
	if (!m->problem[0]) {
		char set[256] = "";
		if (k >= 0) lesson_case_describe(&l->cases[k], set, sizeof set);
		if (k >= 0) snprintf(m->msg, sizeof m->msg, "case %s: %s%s%s (C: the next case)", l->cases[k].name, set,
		                     l->cases[k].help ? " - " : "", l->cases[k].help ? l->cases[k].help : "");
		else snprintf(m->msg, sizeof m->msg, "the lesson's defaults (C: its first case, %s)", l->cases[0].name);
	}
	return k;
}

int stage_set_tunables(tui_stage *m, const plan_setting *sets, int n, double now)
{
	const lesson_stage *st = cur_stage(m);
	int done = 0;
	m->editing = 0;
	for (int i = 0; i < n; i++) {
		const lesson_tunable *t = lesson_find_tunable(st, sets[i].name);
		char *end;
		long long v = strtoll(sets[i].value, &end, 10);
		if (!t || end == sets[i].value || *end) continue;
		m->slots[m->cur].tv[t - st->tunables] = v;
		done++;
	}
	if (done) changed(m, now);
	return done;
}

void stage_reset(tui_stage *m, double now)
{
	const lesson_stage *st = cur_stage(m);
	m->editing = 0;
	char err[256];
	for (int t = 0; t < st->ntunables; t++)
		m->slots[m->cur].tv[t] = stage_tunable_default(m, m->cur, t);
	if (progress_tuned_get(m->state, m->dev->name, m->l->id, st->id))   /* tuned values go too: run starts from the defaults again */
		progress_tuned_set(m->state, m->dev->name, m->l->id, st->id, NULL);
	param_defaults(m->l, &m->pdev, m->pv, err, sizeof err);
	changed(m, now);
}
