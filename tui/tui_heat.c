/* tui_heat: see tui_heat.h. */
#include "tui_heat.h"
#include <stdio.h>
#include <string.h>

void heat_init(tui_heat *h)
{
	memset(h, 0, sizeof *h);
}

void heat_free(tui_heat *h, engine *e)
{
	if (h->job && e) engine_cancel(e, h->job);
	if (h->have_view) hot_view_free(&h->v);
	heat_init(h);
}

const hot_view *heat_view(const tui_heat *h, const tui_stage *m)
{
	if (!m || !h->shown || !h->have_view || h->v.why[0] || h->lesson != m->l || h->stage != m->cur ||
	    h->key != stage_values_key(m, m->cur))
		return NULL;
	return &h->v;
}

void heat_toggle(tui_heat *h, tui_stage *m, char *msg, size_t n)
{
	const lesson_stage *st = &m->l->stages[m->cur];
	unsigned key = stage_values_key(m, m->cur);
	if (heat_view(h, m)) {
		h->shown = 0;
		snprintf(msg, n, "heat column hidden (H samples again)");
		return;
	}
	if (h->job && h->lesson == m->l && h->stage == m->cur && h->key == key) {
		snprintf(msg, n, "hotspots of %s: the sampling pass is on its way", st->id);
		return;
	}
	if (m->replay) {
		snprintf(msg, n, "hotspots are sampled on a GPU as the stage runs: a replay has no samples");
		return;
	}
	if (!m->can_run) {
		snprintf(msg, n, "hotspots need a GPU to sample the program counter on: %s",
		         m->dev && m->dev->why[0] ? m->dev->why : "there is none");
		return;
	}
	engine_job j = { .lesson = m->l, .stage = m->cur, .no_time = 1, .hotspots = 1 };
	char err[512];
	j.nsets = stage_build_sets(m, m->cur, j.sets, STAGE_SETS_MAX, -1, NULL);
	int id = j.nsets < 0 ? -1 : engine_submit(m->e, &j, err, sizeof err);
	if (id < 0) {
		snprintf(msg, n, "hotspots: %s", j.nsets < 0 ? "too many settings for one run" : err);
		return;
	}
	heat_free(h, m->e);
	h->job = id;
	h->lesson = m->l;
	h->stage = m->cur;
	h->key = key;
	h->shown = 1;
	snprintf(msg, n, "hotspots of %s: checking it once, then sampling the program counter as it runs again", st->id);
}

int heat_event(tui_heat *h, int job, job_phase phase, const run_result *r, char *msg, size_t n)
{
	char text[400];
	if (!job || job != h->job) return 0;
	if (phase != JOB_DONE || !r) return 1;
	h->job = 0;
	if (h->have_view) hot_view_free(&h->v);
	hot_view_make(&h->v, &h->lesson->stages[h->stage], r);
	h->have_view = 1;
	if (h->v.why[0]) {
		snprintf(msg, n, "%s", h->v.why);
		return 1;
	}
	snprintf(msg, n, "%s", heat_header(&h->v, 0, text, sizeof text));
	h->sass_jump = 1;
	return 2;
}

int heat_hot_row(const tui_heat *h)
{
	int line = h->have_view ? hot_view_hottest(&h->v) : 0;
	return line > 4 ? line - 4 : 0;
}

char *heat_cell(const hot_view *v, const hot_tally *t, uint64_t max, const tui_glyphs *g, tui_role *role, char *out, size_t n)
{
	*role = ROLE_NORMAL;
	if (n) out[0] = 0;
	if (!t || !t->samples) return out;
	double share = hot_share(&v->map, t);
	char pct[8];
	if (share >= 0.995) snprintf(pct, sizeof pct, "100%%");
	else if (share < 0.005) snprintf(pct, sizeof pct, "<1%%");
	else snprintf(pct, sizeof pct, "%.0f%%", share * 100);
	int e = max ? (int)((double)t->samples * 8 / (double)max + 0.5) : 8;
	e = e < 1 ? 1 : e > 8 ? 8 : e;
	snprintf(out, n, "%4s%s", pct, g->eighth[e]);
	*role = share >= 0.2 ? ROLE_BAD : share >= 0.05 ? ROLE_WARN : ROLE_DIM;
	return out;
}

char *heat_header(const hot_view *v, int narrow, char *out, size_t n)
{
	char reasons[256], samples[64];
	int line = hot_view_hottest(v);
	snprintf(samples, sizeof samples, "hotspots: %llu samples", (unsigned long long)v->map.total);
	if (!line) {
		snprintf(out, n, "%s, none on this file's lines", samples);
		return out;
	}
	const hot_tally *t = &v->map.line[line];
	hot_reasons_text(&v->s, &v->map, t, narrow ? 2 : 3, narrow > 0, reasons, sizeof reasons);
	snprintf(out, n, "%s%sline %d %.0f%%%s%s", narrow > 1 ? "" : samples, narrow > 1 ? "" : "; ", line,
	         100 * hot_share(&v->map, t), reasons[0] ? ": " : "", reasons);
	return out;
}

char *heat_beside(const hot_view *v, int line, char *out, size_t n)
{
	if (n) out[0] = 0;
	if (line < 1 || line > v->map.nlines) return out;
	const hot_tally *t = &v->map.line[line];
	if (hot_share(&v->map, t) < 0.1) return out;
	int hotter = 0;
	for (int i = 1; i <= v->map.nlines; i++) hotter += v->map.line[i].samples > t->samples;
	if (hotter >= 3) return out;
	return hot_reasons_text(&v->s, &v->map, t, 2, 1, out, n);
}
