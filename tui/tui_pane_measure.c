/* The measurements pane (the last run against the peaks, with the change from the run before)
 * and the ladder pane (every stage run so far against the peak and the baseline). */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <string.h>
#include "arch.h"
#include "claims.h"
#include "timeline.h"
#include "tui_panes.h"
#include "tui_widget.h"

enum { LABEL = 10 };

/* Draws text wrapped to w over at most rows lines; returns the lines used. */
static int wrapped(int y, int x, int w, int rows, const char *text, unsigned attr)
{
	return widget_wrap(y, x, w, rows, text, attr);
}

/* A change in percent with its role: good or bad by direction ("" when there is none). */
static tui_role delta_text(char *d, size_t len, double now, double old, int higher_is_better)
{
	text_delta(d, len, now, old);
	int better = higher_is_better ? now > old : now < old;
	return now == old ? ROLE_DIM : better ? ROLE_GOOD : ROLE_BAD;
}

/* Whether the last result shown is of other values than the stage has now. */
static int stale(const tui_stage *m)
{
	const stage_slot *sl = &m->slots[m->cur];
	return sl->have_last && sl->last.settings[0] && sl->last_key != stage_values_key(m, m->cur);
}

static void phase_line(tui_app *a, int y, int x, int w)
{
	const tui_stage *m = a->m;
	const char *what[] = { "compiling", "waiting for the GPU", "running", "done" };
	if (m->njobs > 0) {
		tui_role role = m->phase == JOB_WAITING_GPU ? ROLE_WARN : ROLE_HEADING;
		int secs = (int)(a->now - m->phase_since);
		if (secs < 0) secs = 0;
		if (m->note[0])           /* "waiting for the GPU: held by alice (pid 4242) since 12:01" */
			widget_printfc(y, x, w, theme_attr(role), "%s (%ds)", m->note, secs);
		else
			widget_printfc(y, x, w, theme_attr(role), "%s%s %ds", what[m->phase], theme_glyphs()->ellipsis, secs);
	} else if (stale(m)) {                /* results of other values than those shown */
		widget_printfc(y, x, w, theme_attr(ROLE_WARN) | A_BOLD, "from %s: stale", m->slots[m->cur].last.settings);
	} else if (!m->can_run) {
		const char *why = a->dev->why;
		if (!strncmp(why, "no GPU: ", 8)) why += 8;
		widget_printfc(y, x, w, theme_attr(ROLE_WARN), "no GPU, compile only: %s", why);
	} else {
		const stage_slot *sl = &m->slots[m->cur];
		int c = m->live ? widget_text(y, x, w, "live  ", theme_attr(ROLE_GOOD)) : 0;
		if (sl->have_last)
			widget_textc(y, x + c, w - c, sl->last.settings, theme_attr(ROLE_DIM));
	}
}

/* A row of label, gauge and parts: the gauge is gw cells, less (down to 6) when the parts need
 * the room; then the least important parts go. */
static void gauge_row(int y, int x, int w, int gw, const char *label, double frac, double mark,
                      const widget_part *parts, int n)
{
	int need = 0;
	for (int i = 0; i < n; i++)
		need += text_width(parts[i].text, strlen(parts[i].text));
	if (gw > w - LABEL - 1 - need) gw = w - LABEL - 1 - need;
	if (gw < 6) gw = 6;
	widget_text(y, x, LABEL, label, theme_attr(ROLE_HEADING));
	widget_gauge(y, x + LABEL, gw, frac, mark);
	widget_parts(y, x + LABEL + gw + 1, w - LABEL - gw - 1, parts, n);
}

/* The time, then the lesson's metric (score_metric_of) with its peaks, then the other one. */
static void numbers(tui_app *a, const run_result *r, const run_result *prev, int y, int x, int w)
{
	const device_info *d = a->dev;
	const tui_glyphs *g = theme_glyphs();
	unsigned dim = theme_attr(ROLE_DIM);
	char b1[32], b2[32], b3[32], d1[32], t1[64], t2[64], t3[64], t4[64];
	int gw = w - LABEL - 21;
	if (gw > 40) gw = 40;
	/* time, the change from the run before, its spread */
	tui_role dr = delta_text(d1, sizeof d1, r->ms_median, prev ? prev->ms_median : 0, 0);
	double spread = r->ms_median > 0 ? (r->ms_max - r->ms_min) / 2 / r->ms_median * 100 : 0;
	snprintf(t1, sizeof t1, "%s ", text_ms(b1, sizeof b1, r->ms_median));
	snprintf(t2, sizeof t2, "%s%s", d1, d1[0] ? " " : "");
	snprintf(t3, sizeof t3, " %s%.1f%%", g->pm, spread);
	snprintf(t4, sizeof t4, ", min %s", text_ms(b2, sizeof b2, r->ms_min));
	char reps[32];
	snprintf(reps, sizeof reps, ", %d reps", r->reps);
	widget_part tp[] = { { t1, A_BOLD, 0 }, { t2, theme_attr(dr), 1 }, { t3, dim, 2 }, { t4, dim, 4 },
	                     { reps, dim, 3 } };
	widget_text(y, x, LABEL, "time", theme_attr(ROLE_HEADING));
	widget_parts(y, x + LABEL, w - LABEL, tp, 5);
	/* bandwidth against the theoretical peak, the attainable one as a marker */
	double theo = d->bw_theoretical_gbps > 0 ? d->bw_theoretical_gbps
	            : r->pct_theoretical_bw > 0 ? r->gbps / (r->pct_theoretical_bw / 100) : 0;
	/* the attainable the worker compared with (r->attainable), else the lesson's on this device */
	traffic_kind tk = r->attainable[0] ? traffic_of(r->attainable) : traffic_used(traffic_of(a->m->l->traffic), d);
	double att = traffic_used(tk, d) == tk && traffic_gbps(tk, d) > 0 ? traffic_gbps(tk, d)
	           : r->pct_attainable_bw > 0 ? r->gbps / (r->pct_attainable_bw / 100) : 0;
	peak_kind pk = peak_of(lesson_stage_peak(a->m->l, a->m->cur));
	int tensor = peak_is_tensor(pk);
	double peak = peak_gflops(pk, d);
	if (peak <= 0 && r->pct_compute_peak > 0)
		peak = r->gflops / (r->pct_compute_peak / 100);
	int flops_first = a->m->metric == SCORE_GFLOPS;
	int ybw = flops_first ? y + 3 : y + 1, yfl = flops_first ? y + 1 : y + 3;
	/* GB/s: the value and its change; under it (when it is the lesson's metric) both peaks */
	char v1[48], c1[32], p1[64], p2[64], p3[32];
	tui_role br = delta_text(c1, sizeof c1, r->gbps, prev ? prev->gbps : 0, 1);
	snprintf(v1, sizeof v1, "%s ", text_num(b1, sizeof b1, r->gbps));
	if (flops_first) {
		snprintf(p1, sizeof p1, "%.0f%% of peak %s", r->pct_theoretical_bw, text_num(b2, sizeof b2, theo));
		widget_part bp[] = { { v1, A_BOLD, 0 }, { p1, dim, 1 } };
		gauge_row(ybw, x, w, gw, "GB/s", theo > 0 ? r->gbps / theo : 0, theo > 0 && att > 0 ? att / theo : -1, bp, 2);
	} else {
		widget_part bp[] = { { v1, A_BOLD, 0 }, { c1, theme_attr(br), 1 } };
		gauge_row(ybw, x, w, gw, "GB/s", theo > 0 ? r->gbps / theo : 0, theo > 0 && att > 0 ? att / theo : -1, bp, 2);
		snprintf(p1, sizeof p1, "%.0f%% of peak %s", r->pct_theoretical_bw, text_num(b2, sizeof b2, theo));
		snprintf(p2, sizeof p2, ", %.0f%% of %s%s", r->pct_attainable_bw, g->mark, text_num(b3, sizeof b3, att));
		snprintf(p3, sizeof p3, " %s", traffic_label(tk));
		widget_part pp[] = { { p1, dim, 0 }, { p2, dim, 1 }, { p3, dim, 2 } };
		widget_parts(y + 2, x + LABEL, w - LABEL, pp, 3);
	}
	/* GFLOP/s: the same, against the lesson's compute peak */
	char v2[48], c2[32], q1[64];
	tui_role fr = delta_text(c2, sizeof c2, r->gflops, prev ? prev->gflops : 0, 1);
	snprintf(v2, sizeof v2, "%s ", text_num(b1, sizeof b1, r->gflops));
	snprintf(q1, sizeof q1, "%.1f%% of %s%s", r->pct_compute_peak, flops_first ? "peak " : "", text_num(b3, sizeof b3, peak));
	if (flops_first) {
		widget_part fp[] = { { v2, A_BOLD, 0 }, { c2, theme_attr(fr), 1 } };
		gauge_row(yfl, x, w, gw, "GFLOP/s", peak > 0 ? r->gflops / peak : 0, -1, fp, 2);
		snprintf(p2, sizeof p2, " (%s%s)", peak_label(pk), tensor ? " cores" : "");
		widget_part pp[] = { { q1, dim, 0 }, { p2, dim, 1 } };
		widget_parts(y + 2, x + LABEL, w - LABEL, pp, 2);
	} else {
		widget_part fp[] = { { v2, A_BOLD, 0 }, { q1, dim, 1 } };
		gauge_row(yfl, x, w, gw, "GFLOP/s", peak > 0 ? r->gflops / peak : 0, -1, fp, 2);
	}
}

static void resources(const run_result *r, int y, int x, int w)
{
	char b1[32], t1[32], t2[96], t3[32], t4[32], t5[48], t6[48], t7[32];
	unsigned dim = theme_attr(ROLE_DIM);
	widget_text(y, x, LABEL, "occupancy", theme_attr(ROLE_HEADING));
	snprintf(t1, sizeof t1, "%.0f%%", r->occ_theoretical * 100);
	snprintf(t2, sizeof t2, ", limit: %s", r->occ_limiter[0] ? r->occ_limiter : "?");
	snprintf(t3, sizeof t3, ", achieved %.0f%%", r->achieved_occupancy * 100);
	widget_part op[] = { { t1, A_BOLD, 0 }, { " theoretical", 0, 3 }, { t2, 0, 1 },
	                     { r->achieved_occupancy >= 0 ? t3 : "", theme_attr(ROLE_GOOD), 2 } };
	widget_parts(y, x + LABEL, w - LABEL, op, 4);
	widget_text(y + 1, x, LABEL, "resources", theme_attr(ROLE_HEADING));
	int spills = r->spill_stores + r->spill_loads;
	snprintf(t4, sizeof t4, "%d regs", r->regs);
	snprintf(t5, sizeof t5, "  smem %s", text_bytes(b1, sizeof b1, (double)(r->static_smem + r->dynamic_smem)));
	if (spills)
		snprintf(t6, sizeof t6, "  spills %d st/%d ld", r->spill_stores, r->spill_loads);
	else
		snprintf(t6, sizeof t6, "  no spills");
	snprintf(t7, sizeof t7, "  block %u", r->block[0] * r->block[1] * r->block[2]);
	char arch[48];
	snprintf(arch, sizeof arch, "  %s", r->arch);
	widget_part rp[] = { { t4, 0, 0 }, { t5, 0, 1 }, { t6, spills ? theme_attr(ROLE_BAD) : 0, spills ? 0 : 2 },
	                     { t7, dim, 3 }, { arch, dim, 4 } };
	widget_parts(y + 1, x + LABEL, w - LABEL, rp, 5);
}

static void check_line(const run_result *r, int y, int x, int w)
{
	const tui_glyphs *g = theme_glyphs();
	widget_text(y, x, LABEL, "check", theme_attr(ROLE_HEADING));
	if (r->status == RUN_WRONG && r->nan_count > 0)
		widget_printfc(y, x + LABEL, w - LABEL, theme_attr(ROLE_BAD), "%s WRONG: %lld bad, %lld NaN, first at %lld",
		               g->bad, (long long)r->bad_count, (long long)r->nan_count, (long long)r->first_bad);
	else if (r->status == RUN_WRONG && !strcmp(r->issue, "norm_error"))   /* every element within bounds, the whole not */
		widget_printfc(y, x + LABEL, w - LABEL, theme_attr(ROLE_BAD), "%s WRONG: norm-wise err %.3g, over the tolerance",
		               g->bad, r->norm_rel_err);
	else if (r->status == RUN_WRONG)
		widget_printfc(y, x + LABEL, w - LABEL, theme_attr(ROLE_BAD), "%s WRONG: %lld bad, first at %lld, rel err %.3g",
		               g->bad, (long long)r->bad_count, (long long)r->first_bad, r->max_rel_err);
	else if (!r->checked)
		widget_textc(y, x + LABEL, w - LABEL, "not checked (this stage computes something else)", theme_attr(ROLE_DIM));
	else if (r->norm_rel_err > 0)
		widget_printfc(y, x + LABEL, w - LABEL, theme_attr(ROLE_GOOD), "%s correct (norm err %.2g, max rel %.2g)", g->ok,
		               r->norm_rel_err, r->max_rel_err);
	else
		widget_printfc(y, x + LABEL, w - LABEL, theme_attr(ROLE_GOOD), "%s correct (max rel err %.2g)", g->ok, r->max_rel_err);
}

/* A stage that copies to or from the host: its bound (timeline.h), how far the run is from it
 * (within 1.15x is good), and the key of the timeline. 0 when the stage copies nothing. */
static int bound_line(const tui_app *a, const run_result *r, int y, int x, int w)
{
	timeline_bound b;
	char t1[48], t2[128], t3[48];
	if (timeline_bound_of(r, a->m->dev, &b)) {
		if (!(r->h2d_bytes > 0) && !(r->d2h_bytes > 0)) return 0;
		widget_text(y, x, LABEL, "bound", theme_attr(ROLE_HEADING));
		widget_textc(y, x + LABEL, w - LABEL, "none recorded: it needs the device's measured copy bandwidth", theme_attr(ROLE_DIM));
		return 1;
	}
	char what[96];
	timeline_bound_what(&b, what, sizeof what);
	snprintf(t1, sizeof t1, "%.3g ms", b.bound_ms);
	snprintf(t2, sizeof t2, " (%s)", what);
	snprintf(t3, sizeof t3, b.ratio > 0 ? "  %.2fx the bound" : "", b.ratio);
	widget_text(y, x, LABEL, "bound", theme_attr(ROLE_HEADING));
	widget_part bp[] = { { t1, A_BOLD, 0 }, { t2, 0, 1 }, { t3, theme_attr(b.ratio <= 1.15 ? ROLE_GOOD : ROLE_WARN), 0 },
	                     { "  t timeline", theme_attr(ROLE_DIM), 2 } };
	widget_parts(y, x + LABEL, w - LABEL, bp, 4);
	return 1;
}

/* The hardware counters of an explicit run (r), when the GPU gave them; else why not. */
static int counters_line(const run_result *r, int y, int x, int w)
{
	if (r->achieved_occupancy < 0 && !r->counters_note[0]) return 0;
	widget_text(y, x, LABEL, "counters", theme_attr(ROLE_HEADING));
	if (r->achieved_occupancy < 0) {
		widget_textc(y, x + LABEL, w - LABEL, r->counters_note, theme_attr(ROLE_DIM));
		return 1;
	}
	double dram = r->dram_bytes_read + r->dram_bytes_write;
	char t1[48], t2[32], t3[48], t4[32], t5[300];
	snprintf(t1, sizeof t1, "DRAM %.2fx model", r->bytes > 0 ? dram / r->bytes : 0);
	snprintf(t2, sizeof t2, "  L2 hit %.0f%%", r->l2_hit_pct);
	snprintf(t3, sizeof t3, "  bank conflicts %.3g", r->smem_conflicts_ld + r->smem_conflicts_st);
	snprintf(t4, sizeof t4, "  warp %.1f/32", r->warp_efficiency);
	if (r->warp_efficiency_pred_on >= 0)   /* lanes whose predicate is on: what warp_efficiency misses */
		snprintf(t4, sizeof t4, "  warp %.1f/32 (%.1f pred on)", r->warp_efficiency, r->warp_efficiency_pred_on);
	snprintf(t5, sizeof t5, "%s%s", r->stalls[0] ? "  " : "", r->stalls);
	char t6[48] = "";
	/* The tensor-pipe counter reads millions on kernels without a tensor instruction (an integer
	 * reduction on an H100), so the SASS decides: none there means none ran. */
	if (r->tensor_sass == 0)
		snprintf(t6, sizeof t6, "  no tensor insts");
	else if (r->tensor_inst >= 0)
		snprintf(t6, sizeof t6, "  tensor inst %.3g%s", r->tensor_inst, r->tensor_sass < 0 ? "?" : "");
	widget_part cp[] = { { t1, 0, 0 }, { t2, 0, 2 }, { t3, 0, 1 }, { t4, 0, 3 }, { t6, 0, 3 }, { t5, 0, 4 } };
	widget_parts(y, x + LABEL, w - LABEL, cp, 6);
	return 1;
}

/* The stage's claims (expect:) on this run, against the previous stage's and the baseline's last
 * runs: the first contradicted one in full, else the count of each state. */
static int claims_line(tui_app *a, const run_result *r, int y, int x, int w)
{
	const tui_stage *m = a->m;
	if (!m->l->stages[m->cur].nclaims || (r->status != RUN_OK && r->status != RUN_WRONG)) return 0;
	const stage_slot *up = m->cur > 0 ? &m->slots[m->cur - 1] : NULL;
	/* The baseline's last run only for a stage timed against the lesson's (a baseline: NAME is not run here). */
	int own = lesson_stage_baseline(m->l, m->cur) == -1;
	claims_runs runs = { r, up && up->have_last ? &up->last : NULL, m->have_base && own ? &m->base : NULL, a->dev };
	claim_outcome o[32];
	int n = claims_check(m->l, m->cur, &runs, o, 32), c[CLAIM_STATE_COUNT];
	claims_count(o, n, c);
	widget_text(y, x, LABEL, "claims", theme_attr(ROLE_HEADING));
	if (!stage_timed(r)) {                /* compiled only: nothing to judge yet, nothing failed */
		widget_printfc(y, x + LABEL, w - LABEL, theme_attr(ROLE_DIM), "%d to check (no run yet)", n);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		if (o[i].state != CLAIM_CONTRADICTED) continue;
		char more[32] = "";
		if (c[CLAIM_CONTRADICTED] > 1) snprintf(more, sizeof more, " (+%d more)", c[CLAIM_CONTRADICTED] - 1);
		widget_printfc(y, x + LABEL, w - LABEL, theme_attr(ROLE_BAD) | A_BOLD, "%s CONTRADICTED%s: %s, %s",
		               theme_glyphs()->bad, more, expr_source(o[i].claim->cond.e), o[i].values);
		return 1;
	}
	if (c[CLAIM_UNKNOWN])
		widget_printfc(y, x + LABEL, w - LABEL, theme_attr(ROLE_DIM), "%d of %d hold, %d not measured in this run",
		               c[CLAIM_HOLDS], n, c[CLAIM_UNKNOWN]);
	else
		widget_printfc(y, x + LABEL, w - LABEL, theme_attr(ROLE_GOOD), "%s all %d hold", theme_glyphs()->ok, n);
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
	widget_printfc(y, x + LABEL + used + 1, w - LABEL - used - 1, theme_attr(ROLE_DIM), "%d run%s, best %s", n,
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
		wrapped(y + 1, x, w, r.y + r.h - 2 - y, m->replay ? "Not shown yet: r shows this stage's recorded run."
		        : m->can_run ? "Not run yet: r runs this stage, l keeps re-running it."
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
	case RUN_REFUSED: case RUN_UNSUPPORTED: case RUN_NO_GPU: case RUN_RUNNER_ERROR:
		if (strstr(res->message, "not in the replay file"))   /* the message says it all */
			snprintf(text, sizeof text, "%s", res->message);
		else
			snprintf(text, sizeof text, "%s: %s", run_status_words(res->status, res->message), res->message);
		wrapped(y, x, w, rows, text, theme_attr(ROLE_WARN));
		return;
	default:
		break;
	}
	if (stage_timed(res)) {
		numbers(a, res, sl->have_prev ? &sl->prev : NULL, y, x, w);
		y += 4;
	} else {
		widget_printfc(y++, x, w, theme_attr(ROLE_DIM), "compiled%s in %.0f ms; not run (%s)",
		              res->cached ? " (cache)" : "", res->compile_ms, m->can_run ? res->message : "no GPU");
	}
	resources(res, y, x, w);
	y += 2;
	if (stage_timed(res))
		check_line(res, y++, x, w);
	if (y < r.y + r.h - 1 && stage_timed(res) && bound_line(a, res, y, x, w))
		y++;
	if (y < r.y + r.h - 1 && counters_line(res, y, x, w))
		y++;
	if (y < r.y + r.h - 1 && claims_line(a, res, y, x, w))
		y++;
	if (y < r.y + r.h - 1)
		history_line(a, y, x, w);
}

/* Rows for stages in the ladder pane: its height less the frame, the header and the baseline. */
static int ladder_rows(const tui_app *a, tui_rect r)
{
	int n = r.h - 3 - (a->m->have_base ? 1 : 0);
	return n > 1 ? n : 1;
}

int pane_ladder_top(const tui_app *a, tui_rect r)
{
	int sel = a->sv.focus == PANE_LADDER ? a->sv.ladder_sel : a->m->cur;
	return text_keep_visible(a->sv.scroll[PANE_LADDER], sel, sel, a->m->l->nstages, ladder_rows(a, r));
}

int pane_ladder_stage_at(const tui_app *a, tui_rect r, int y)
{
	int s = pane_ladder_top(a, r) + y - (r.y + 2);
	return y >= r.y + 2 && y < r.y + 2 + ladder_rows(a, r) && s >= 0 && s < a->m->l->nstages ? s : -1;
}

void pane_ladder_draw(tui_app *a, tui_rect r, int focused)
{
	const tui_stage *m = a->m;
	const lesson *l = m->l;
	const tui_glyphs *g = theme_glyphs();
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
	double peak = stage_metric_peak(m);
	char t1[48], t3[48];
	widget_box(r.y, r.x, r.h, r.w, "Ladder", focused);
	snprintf(t1, sizeof t1, "%s vs %s", stage_metric_unit(m),
	         m->metric == SCORE_GBPS ? traffic_label(traffic_used(traffic_of(l->traffic), m->dev)) : "peak");
	snprintf(t3, sizeof t3, "; %s exercise", g->ex_todo);
	int has_ex = mw > 0;
	widget_part hp[] = { { t1, 0, 0 }, { l->baseline ? ", | baseline" : "", 0, 2 }, { has_ex ? t3 : "", 0, 1 } };
	widget_parts(y++, x, w, hp, 3);
	int top = pane_ladder_top(a, r), rows = ladder_rows(a, r);
	if (top > 0)
		widget_printf(r.y, r.x + r.w - 7, 6, theme_attr(ROLE_DIM), " %s%d ", g->up, top);
	if (top + rows < l->nstages)
		widget_printf(r.y + r.h - 1, r.x + r.w - 7, 6, theme_attr(ROLE_DIM), " %s%d ", g->down, l->nstages - top - rows);
	for (int s = top; s < l->nstages && s < top + rows && y < r.y + r.h - 1; s++, y++) {
		const stage_slot *sl = &m->slots[s];
		const progress_stage *p = progress_get(a->m->state, l->id, l->stages[s].id);
		unsigned at = s == m->cur ? A_BOLD : 0;
		if (focused && s == a->sv.ladder_sel)   /* the row Enter opens */
			at = theme_attr(ROLE_SELECT) | (s == m->cur ? A_BOLD : 0);
		widget_clear(y, x - 1, lw, at);
		widget_printf(y, x - 1, lw, at, "%s%d %s", s == m->cur ? g->sel : " ", s + 1, l->stages[s].id);
		tui_role xr;                    /* the exercise's mark ends the row */
		const char *xg = exercise_mark_glyph(exercise_mark(&a->ex, a->lesson, s), g, &xr);
		if (xg[0])
			widget_text(y, x + w - 1, 1, xg, theme_attr(xr));
		at = s == m->cur ? A_BOLD : 0;
		char need[32];   /* a stage for another GPU (sm_90a on a Blackwell) says what it needs */
		if (!(sl->have_last && stage_timed(&sl->last)) &&
		    arch_stage_needs(l->stages[s].req_cc, l->stages[s].req_arch, m->dev && m->dev->present ? m->dev->cc : -1, need, sizeof need)) {
			widget_textc(y, x + lw, w - lw - mw, need, theme_attr(ROLE_DIM));
			continue;
		}
		double f = -1, v = 0, best = stage_metric_best(m, p);
		int saved = 0;
		if (sl->have_last && stage_timed(&sl->last)) {
			f = stage_metric_frac(m, &sl->last);
			v = stage_metric_value(m, &sl->last);
		} else if (best > 0 && peak > 0) {        /* the best saved in the progress file */
			f = best / peak; v = best; saved = 1;
		} else if (sl->have_last) {
			const run_result *lr = &sl->last;
			if (lr->status == RUN_OK)
				widget_printfc(y, x + lw, w - lw - mw, theme_attr(ROLE_DIM), "%d regs, occ %.0f%%", lr->regs,
				               lr->occ_theoretical * 100);
			else
				widget_textc(y, x + lw, w - lw - mw, run_status_words(lr->status, lr->message), theme_attr(ROLE_BAD));
			continue;
		}
		if (f < 0) {
			widget_text(y, x + lw, w - lw - mw, "not run", theme_attr(ROLE_DIM));
			continue;
		}
		/* The lesson's baseline marks the rows timed against it; a stage with its own (baseline: NAME)
		 * shows its ratio only from a run paired with that one (cudaclimb bench). */
		int named = lesson_stage_baseline(l, s) < -1;
		widget_gauge(y, x + lw, bw, f, named ? -1 : base);
		widget_printf(y, x + lw + bw + 1, tw - 1, theme_attr(saved ? ROLE_DIM : ROLE_NORMAL) | at, "%3.0f%%", f * 100);
		if (sl->have_last && sl->last.status == RUN_WRONG)
			widget_text(y, x + lw + bw + 5, tw - 5, " wrong", theme_attr(ROLE_BAD));
		else if (named && tw > 6 && sl->have_last && !strcmp(sl->last.pair, "baseline") && sl->last.pair_ratio > 0)
			widget_printf(y, x + lw + bw + 6, tw - 6, at, "x%.2f", sl->last.pair_ratio);
		else if (!named && base > 0 && tw > 6 && stage_metric_value(m, &m->base) > 0)
			widget_printf(y, x + lw + bw + 6, tw - 6, at, "x%.2f", v / stage_metric_value(m, &m->base));
	}
	if (m->have_base && y < r.y + r.h - 1) {
		if (stage_timed(&m->base) && base >= 0) {
			widget_printfc(y, x, lw, theme_attr(ROLE_MARK), "B %s", l->baseline->library ? l->baseline->library : "base");
			widget_gauge(y, x + lw, bw, base, -1);
			widget_printf(y, x + lw + bw + 1, tw - 1, 0, "%3.0f%%", base * 100);
		} else {
			widget_printfc(y, x, w, theme_attr(ROLE_BAD), "baseline: %s", strstr(m->base.message, "not in the replay file")
			               ? run_status_words(m->base.status, m->base.message) : m->base.message);
		}
	}
}
