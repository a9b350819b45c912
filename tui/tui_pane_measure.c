/* The measurements pane (the last run against the peaks, with the change from the run before)
 * and the ladder pane (every stage run so far against the peak and the baseline). */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <string.h>
#include "tui_panes.h"
#include "tui_widget.h"

enum { LABEL = 10 };

/* Draws text wrapped to w over at most rows lines; returns the lines used. */
static int wrapped(int y, int x, int w, int rows, const char *text, unsigned attr)
{
	text_span sp[16];
	int n = text_wrap(text, w, sp, 16);
	for (int i = 0; i < n && i < rows && i < 16; i++)
		widget_textn(y + i, x, w, text + sp[i].off, sp[i].len, attr);
	return n < rows ? n : rows;
}

/* A change in percent, good or bad by direction. */
static int delta(int y, int x, int w, double now, double old, int higher_is_better)
{
	char d[32];
	text_delta(d, sizeof d, now, old);
	if (!d[0] || w <= 0) return 0;
	int better = higher_is_better ? now > old : now < old;
	return widget_text(y, x, w, d, theme_attr(now == old ? ROLE_DIM : better ? ROLE_GOOD : ROLE_BAD));
}

static void phase_line(tui_app *a, int y, int x, int w)
{
	const tui_stage *m = a->m;
	const char *what[] = { "compiling", "waiting for the GPU", "running", "done" };
	if (m->njobs > 0) {
		tui_role role = m->phase == JOB_WAITING_GPU ? ROLE_WARN : ROLE_HEADING;
		int secs = (int)(a->now - m->phase_since);
		if (m->note[0])           /* "waiting for the GPU: held by alice (pid 4242) since 12:01" */
			widget_printf(y, x, w, theme_attr(role), "%s (%ds)", m->note, secs);
		else
			widget_printf(y, x, w, theme_attr(role), "%s%s %ds", what[m->phase], theme_glyphs()->ellipsis, secs);
	} else if (!m->can_run) {
		const char *why = a->dev->why;
		if (!strncmp(why, "no GPU: ", 8)) why += 8;
		widget_printf(y, x, w, theme_attr(ROLE_WARN), "no GPU, compile only: %s", why);
	} else {
		const stage_slot *sl = &m->slots[m->cur];
		int c = m->live ? widget_text(y, x, w, "live  ", theme_attr(ROLE_GOOD)) : 0;
		if (sl->have_last)
			widget_text(y, x + c, w - c, sl->last.settings, theme_attr(ROLE_DIM));
	}
}

static void numbers(tui_app *a, const run_result *r, const run_result *prev, int y, int x, int w)
{
	const device_info *d = a->dev;
	const tui_glyphs *g = theme_glyphs();
	char b1[32], b2[32], b3[32];
	int gw = w - LABEL - 21, c;
	if (gw > 40) gw = 40;
	/* time, the change from the run before, its spread */
	widget_text(y, x, LABEL, "time", theme_attr(ROLE_HEADING));
	c = LABEL + widget_printf(y, x + LABEL, w - LABEL, A_BOLD, "%s ", text_ms(b1, sizeof b1, r->ms_median));
	if (prev) c += delta(y, x + c, w - c, r->ms_median, prev->ms_median, 0) + 1;
	double spread = r->ms_median > 0 ? (r->ms_max - r->ms_min) / 2 / r->ms_median * 100 : 0;
	widget_printf(y, x + c, w - c, theme_attr(ROLE_DIM), " %s%.1f%%, min %s, %d reps", g->pm, spread,
	              text_ms(b2, sizeof b2, r->ms_min), r->reps);
	/* bandwidth against the theoretical peak, the attainable one as a marker */
	double theo = d->bw_theoretical_gbps > 0 ? d->bw_theoretical_gbps
	            : r->pct_theoretical_bw > 0 ? r->gbps / (r->pct_theoretical_bw / 100) : 0;
	double att = d->bw_attainable_gbps > 0 ? d->bw_attainable_gbps
	           : r->pct_attainable_bw > 0 ? r->gbps / (r->pct_attainable_bw / 100) : 0;
	widget_text(y + 1, x, LABEL, "GB/s", theme_attr(ROLE_HEADING));
	widget_gauge(y + 1, x + LABEL, gw, theo > 0 ? r->gbps / theo : 0, theo > 0 && att > 0 ? att / theo : -1);
	c = LABEL + gw + 1 + widget_printf(y + 1, x + LABEL + gw + 1, w - LABEL - gw - 1, A_BOLD, "%s ",
	                                   text_num(b1, sizeof b1, r->gbps));
	if (prev) delta(y + 1, x + c, w - c, r->gbps, prev->gbps, 1);
	widget_printf(y + 2, x + LABEL, w - LABEL, theme_attr(ROLE_DIM), "%.0f%% of peak %s, %.0f%% of %s%s attainable",
	              r->pct_theoretical_bw, text_num(b1, sizeof b1, theo), r->pct_attainable_bw,
	              g->mark, text_num(b2, sizeof b2, att));
	/* compute */
	int tensor = a->m->l->peak && strstr(a->m->l->peak, "tensor");
	double peak = tensor ? d->bf16_tensor_gflops : d->fp32_gflops;
	if (peak <= 0 && r->pct_compute_peak > 0)
		peak = r->gflops / (r->pct_compute_peak / 100);
	widget_text(y + 3, x, LABEL, "GFLOP/s", theme_attr(ROLE_HEADING));
	widget_gauge(y + 3, x + LABEL, gw, peak > 0 ? r->gflops / peak : 0, -1);
	c = LABEL + gw + 1 + widget_printf(y + 3, x + LABEL + gw + 1, w - LABEL - gw - 1, A_BOLD, "%s ",
	                                   text_num(b1, sizeof b1, r->gflops));
	widget_printf(y + 3, x + c, w - c, theme_attr(ROLE_DIM), "%.1f%% of %s", r->pct_compute_peak,
	              text_num(b3, sizeof b3, peak));
}

static void resources(const run_result *r, int y, int x, int w)
{
	char b1[32];
	widget_text(y, x, LABEL, "occupancy", theme_attr(ROLE_HEADING));
	int c = LABEL + widget_printf(y, x + LABEL, w - LABEL, A_BOLD, "%.0f%%", r->occ_theoretical * 100);
	c += widget_printf(y, x + c, w - c, 0, " theoretical, limit: %s", r->occ_limiter[0] ? r->occ_limiter : "?");
	if (r->achieved_occupancy >= 0)
		widget_printf(y, x + c, w - c, theme_attr(ROLE_GOOD), ", achieved %.0f%%", r->achieved_occupancy * 100);
	widget_text(y + 1, x, LABEL, "resources", theme_attr(ROLE_HEADING));
	int spills = r->spill_stores + r->spill_loads;
	c = LABEL + widget_printf(y + 1, x + LABEL, w - LABEL, 0, "%d regs  smem %s  ", r->regs,
	                          text_bytes(b1, sizeof b1, (double)(r->static_smem + r->dynamic_smem)));
	if (spills)
		c += widget_printf(y + 1, x + c, w - c, theme_attr(ROLE_BAD), "spills %d st/%d ld  ", r->spill_stores,
		                   r->spill_loads);
	else
		c += widget_text(y + 1, x + c, w - c, "no spills  ", 0);
	widget_printf(y + 1, x + c, w - c, theme_attr(ROLE_DIM), "block %u  %s", r->block[0] * r->block[1] * r->block[2],
	              r->arch);
}

static void check_line(const run_result *r, int y, int x, int w)
{
	const tui_glyphs *g = theme_glyphs();
	widget_text(y, x, LABEL, "check", theme_attr(ROLE_HEADING));
	if (r->status == RUN_WRONG && r->nan_count > 0)
		widget_printf(y, x + LABEL, w - LABEL, theme_attr(ROLE_BAD), "%s WRONG: %lld bad, %lld NaN, first at %lld",
		              g->bad, (long long)r->bad_count, (long long)r->nan_count, (long long)r->first_bad);
	else if (r->status == RUN_WRONG)
		widget_printf(y, x + LABEL, w - LABEL, theme_attr(ROLE_BAD), "%s WRONG: %lld bad, first at %lld, rel err %.3g",
		              g->bad, (long long)r->bad_count, (long long)r->first_bad, r->max_rel_err);
	else if (!r->checked)
		widget_text(y, x + LABEL, w - LABEL, "not checked (this stage computes something else)", theme_attr(ROLE_DIM));
	else
		widget_printf(y, x + LABEL, w - LABEL, theme_attr(ROLE_GOOD), "%s correct (max rel err %.2g)", g->ok, r->max_rel_err);
}

/* The hardware counters of an explicit run (r), when the GPU gave them; else why not. */
static int counters_line(const run_result *r, int y, int x, int w)
{
	if (r->achieved_occupancy < 0 && !r->counters_note[0]) return 0;
	widget_text(y, x, LABEL, "counters", theme_attr(ROLE_HEADING));
	if (r->achieved_occupancy < 0) {
		widget_text(y, x + LABEL, w - LABEL, r->counters_note, theme_attr(ROLE_DIM));
		return 1;
	}
	double dram = r->dram_bytes_read + r->dram_bytes_write;
	widget_printf(y, x + LABEL, w - LABEL, 0, "DRAM %.2fx model  L2 hit %.0f%%  bank conflicts %.3g  warp %.1f/32  %s",
	              r->bytes > 0 ? dram / r->bytes : 0, r->l2_hit_pct, r->smem_conflicts_ld + r->smem_conflicts_st,
	              r->warp_efficiency, r->stalls);
	return 1;
}

static void history_line(tui_app *a, int y, int x, int w)
{
	const tui_stage *m = a->m;
	double v[STAGE_HIST], best = 0;
	text_cell cells[STAGE_HIST];
	char b[32];
	int n = 0;
	for (int i = 0; i < m->nhist; i++)
		if (m->hist[i].stage == m->cur) {
			v[n++] = m->hist[i].ms;
			if (best <= 0 || m->hist[i].ms < best) best = m->hist[i].ms;
		}
	if (!n) return;
	widget_text(y, x, LABEL, "history", theme_attr(ROLE_HEADING));
	int used = text_spark(cells, w - LABEL - 24 < STAGE_HIST ? w - LABEL - 24 : STAGE_HIST, v, n, theme_glyphs());
	widget_cells(y, x + LABEL, cells, used);
	widget_printf(y, x + LABEL + used + 1, w - LABEL - used - 1, theme_attr(ROLE_DIM), "%d run%s, best %s", n,
	              n == 1 ? "" : "s", text_ms(b, sizeof b, best));
}

void pane_measure_draw(tui_app *a, tui_rect r, int focused)
{
	const tui_stage *m = a->m;
	const stage_slot *sl = &m->slots[m->cur];
	const run_result *res = &sl->last;
	int x = r.x + 2, y = r.y + 1, w = r.w - 4;
	widget_box(r.y, r.x, r.h, r.w, "Measurements", focused);
	phase_line(a, y++, x, w);
	if (!sl->have_last) {
		widget_text(y + 1, x, w, m->can_run ? "Not run yet: r runs this stage, l keeps re-running it."
		                                    : "Not compiled yet: r compiles this stage.", theme_attr(ROLE_DIM));
		return;
	}
	const tui_glyphs *g = theme_glyphs();
	char text[1024];
	int rows = r.y + r.h - 1 - y;
	switch (res->status) {
	case RUN_COMPILE_ERROR:
		snprintf(text, sizeof text, "%s compile failed: %s", g->bad, res->message);
		y += wrapped(y, x, w, rows - 1, text, theme_attr(ROLE_BAD));
		widget_text(y, x, w, "The compiler's log is in the kernel pane (e), with line numbers.", 0);
		return;
	case RUN_FAULT: case RUN_HANG: case RUN_CRASH:
		snprintf(text, sizeof text, "%s %s: %s", g->bad, res->status == RUN_FAULT ? "the kernel faulted"
		         : res->status == RUN_HANG ? "the kernel hung and was stopped" : "the worker crashed", res->message);
		y += wrapped(y, x, w, rows - 2, text, theme_attr(ROLE_BAD));
		wrapped(y + 1, x, w, 2, "cudaclimb carries on: change a tunable or the kernel and run again (r).", 0);
		return;
	case RUN_REFUSED: case RUN_UNSUPPORTED: case RUN_NO_GPU:
		snprintf(text, sizeof text, "%s: %s", run_status_name(res->status), res->message);
		wrapped(y, x, w, rows, text, theme_attr(ROLE_WARN));
		return;
	default:
		break;
	}
	if (stage_timed(res)) {
		numbers(a, res, sl->have_prev ? &sl->prev : NULL, y, x, w);
		y += 4;
	} else {
		widget_printf(y++, x, w, theme_attr(ROLE_DIM), "compiled%s in %.0f ms; not run (%s)",
		              res->cached ? " (cache)" : "", res->compile_ms, m->can_run ? res->message : "no GPU");
	}
	resources(res, y, x, w);
	y += 2;
	if (stage_timed(res))
		check_line(res, y++, x, w);
	if (y < r.y + r.h - 1 && counters_line(res, y, x, w))
		y++;
	if (y < r.y + r.h - 1)
		history_line(a, y, x, w);
}

void pane_ladder_draw(tui_app *a, tui_rect r, int focused)
{
	const tui_stage *m = a->m;
	const lesson *l = m->l;
	int x = r.x + 2, y = r.y + 1, w = r.w - 4, lw = 8, tw = 11;
	for (int s = 0; s < l->nstages; s++)
		if ((int)strlen(l->stages[s].id) + 4 > lw) lw = (int)strlen(l->stages[s].id) + 4;
	if (lw > 16) lw = 16;
	int mw = 0;                              /* the last column: exercises' marks */
	for (int s = 0; s < l->nstages && !mw; s++)
		if (l->stages[s].exercise) mw = 2;
	if (w - lw - tw - mw < 9) tw = 5;        /* narrow: no ratio to the baseline */
	int bw = w - lw - tw - mw;
	double base = m->have_base && stage_timed(&m->base) ? stage_metric_frac(m, &m->base) : -1;
	double theo = a->dev->bw_theoretical_gbps;
	char t[96];
	widget_box(r.y, r.x, r.h, r.w, "Ladder", focused);
	snprintf(t, sizeof t, "%s vs peak%s", stage_metric_unit(m), l->baseline ? ", | baseline" : "");
	for (int s = 0; s < l->nstages; s++)
		if (l->stages[s].exercise) {
			snprintf(t + strlen(t), sizeof t - strlen(t), "; %s exercise", theme_glyphs()->ex_todo);
			break;
		}
	widget_text(y++, x, w, t, theme_attr(ROLE_DIM));
	for (int s = 0; s < l->nstages && y < r.y + r.h - 1; s++, y++) {
		const stage_slot *sl = &m->slots[s];
		const tui_progress *p = tui_state_stage(a->m->state, l->id, l->stages[s].id, 0);
		unsigned at = s == m->cur ? A_BOLD : 0;
		widget_printf(y, x - 1, lw, at, "%s%d %s", s == m->cur ? theme_glyphs()->sel : " ", s + 1, l->stages[s].id);
		tui_role xr;                    /* the exercise's mark ends the row */
		const char *xg = exm_mark_glyph(exm_mark(&a->ex, a->lesson, s), theme_glyphs(), &xr);
		if (xg[0])
			widget_text(y, x + w - 1, 1, xg, theme_attr(xr));
		double f = -1, v = 0;
		int saved = 0;
		if (sl->have_last && stage_timed(&sl->last)) {
			f = stage_metric_frac(m, &sl->last);
			v = stage_metric_value(m, &sl->last);
		} else if (p && m->metric == METRIC_BW && p->best_gbps > 0 && theo > 0) {
			f = p->best_gbps / theo; v = p->best_gbps; saved = 1;
		} else if (sl->have_last) {
			const run_result *lr = &sl->last;
			if (lr->status == RUN_OK)
				widget_printf(y, x + lw, w - lw - mw, theme_attr(ROLE_DIM), "%d regs, occ %.0f%%", lr->regs,
				              lr->occ_theoretical * 100);
			else
				widget_text(y, x + lw, w - lw - mw, run_status_name(lr->status), theme_attr(ROLE_BAD));
			continue;
		}
		if (f < 0) {
			widget_text(y, x + lw, w - lw - mw, "not run", theme_attr(ROLE_DIM));
			continue;
		}
		widget_gauge(y, x + lw, bw, f, base);
		widget_printf(y, x + lw + bw + 1, tw - 1, theme_attr(saved ? ROLE_DIM : ROLE_NORMAL) | at, "%3.0f%%", f * 100);
		if (sl->have_last && sl->last.status == RUN_WRONG)
			widget_text(y, x + lw + bw + 5, tw - 5, " wrong", theme_attr(ROLE_BAD));
		else if (base > 0 && tw > 6)
			widget_printf(y, x + lw + bw + 6, tw - 6, at, "x%.2f", v / stage_metric_value(m, &m->base));
	}
	if (m->have_base && y < r.y + r.h - 1) {
		if (stage_timed(&m->base) && base >= 0) {
			widget_printf(y, x, lw, theme_attr(ROLE_MARK), "B %s", l->baseline->library ? l->baseline->library : "base");
			widget_gauge(y, x + lw, bw, base, -1);
			widget_printf(y, x + lw + bw + 1, tw - 1, 0, "%3.0f%%", base * 100);
		} else {
			widget_printf(y, x, w, theme_attr(ROLE_BAD), "baseline: %s", m->base.message);
		}
	}
}
