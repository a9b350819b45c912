/* timeline: see timeline.h. No curses here. */
#include "timeline.h"
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fmt.h"
#include "util.h"

/* ---- kinds ---- */

timeline_kind timeline_kind_of(const run_step *s)
{
	if (!strcmp(s->kind, "copy")) return !strcmp(s->dir, "h2d") ? TL_H2D : !strcmp(s->dir, "d2h") ? TL_D2H : TL_D2D;
	if (!strcmp(s->kind, "memset")) return TL_MEMSET;
	return TL_KERNEL;
}

const char *timeline_kind_name(timeline_kind k)
{
	static const char *const names[TL_KIND_COUNT] = { "h2d", "d2h", "d2d", "kernel", "memset" };
	return k >= 0 && k < TL_KIND_COUNT ? names[k] : "?";
}

timeline_role timeline_role_of(timeline_kind k)
{
	static const timeline_role roles[TL_KIND_COUNT] = { TLR_H2D, TLR_D2H, TLR_D2D, TLR_KERNEL, TLR_MEMSET };
	return k >= 0 && k < TL_KIND_COUNT ? roles[k] : TLR_TEXT;
}

/* Glyphs, UTF-8 and ASCII: one per kind (in timeline_kind order), the overlap mark, the axis. */
typedef struct {
	const char *kind[TL_KIND_COUNT], *overlap, *haxis, *tick, *corner, *ellipsis;
} tl_glyphs;

static const tl_glyphs utf8_glyphs = {
	.kind = { "\u25b8", "\u25c2", "\u2591", "\u2588", "\u2592" },
	.overlap = "\u25b4", .haxis = "\u2500", .tick = "\u252c", .corner = "\u2514", .ellipsis = "\u2026",
};
static const tl_glyphs ascii_glyphs = {
	.kind = { ">", "<", "*", "#", "=" },
	.overlap = "^", .haxis = "-", .tick = "+", .corner = " ", .ellipsis = "~",
};

/* ---- the bound ---- */

int timeline_bound_of(const run_result *r, const device_info *d, timeline_bound *b)
{
	memset(b, 0, sizeof *b);
	if (!(r->bound_ms > 0) || !isfinite(r->bound_ms)) return -1;
	b->bound_ms = r->bound_ms;
	b->ms = r->reps && r->ms_median > 0 ? r->ms_median : 0;
	b->ratio = b->ms > 0 ? b->ms / b->bound_ms : 0;
	b->kernel_ms = r->kernel_ms > 0 ? r->kernel_ms : 0;
	double gb[2] = { d && d->h2d_gbps > 0 ? d->h2d_gbps : 0, d && d->d2h_gbps > 0 ? d->d2h_gbps : 0 };
	double bytes[2] = { r->h2d_bytes > 0 ? r->h2d_bytes : 0, r->d2h_bytes > 0 ? r->d2h_bytes : 0 };
	double t[2];
	for (int k = 0; k < 2; k++) t[k] = !bytes[k] ? 0 : gb[k] > 0 ? bytes[k] / gb[k] / 1e6 : -1;
	b->h2d_ms = t[0];
	b->d2h_ms = t[1];
	/* the resource whose time alone is the bound; one not known (no calibration) by elimination */
	double tol = 1e-3 * b->bound_ms;
	int by = -1;
	if (fabs(b->kernel_ms - b->bound_ms) <= tol) by = 2;
	for (int k = 0; k < 2 && by < 0; k++)
		if (t[k] > 0 && fabs(t[k] - b->bound_ms) <= tol) by = k;
	if (by < 0) {   /* a direction without a known time, the one with more bytes */
		for (int k = 0; k < 2; k++)
			if (t[k] < 0 && (by < 0 || bytes[k] > bytes[by])) by = k;
	}
	if (by < 0) {   /* every time known, none the bound (a calibration since): the longest */
		by = 2;
		for (int k = 0; k < 2; k++)
			if (t[k] > (by == 2 ? b->kernel_ms : t[by])) by = k;
	}
	b->by = by == 0 ? TL_BY_H2D : by == 1 ? TL_BY_D2H : TL_BY_KERNELS;
	if (by < 2) {
		b->bytes = bytes[by];
		b->gbps = gb[by] > 0 ? gb[by] : bytes[by] / b->bound_ms / 1e6;
	}
	return 0;
}

void timeline_bound_what(const timeline_bound *b, char *buf, size_t n)
{
	if (b->by == TL_BY_KERNELS) {
		strfmt(buf, n, "the kernels alone, without the copies");
		return;
	}
	char by[32], gb[32];
	fmt_traffic(by, sizeof by, b->bytes);
	fmt_gbps(gb, sizeof gb, b->gbps);
	strfmt(buf, n, "%s %s at %s", b->by == TL_BY_H2D ? "h2d" : "d2h", by, gb);
}

void timeline_bound_text(const timeline_bound *b, char *buf, size_t n)
{
	char ms[32], what[96], ratio[48] = "";
	fmt_ms(ms, sizeof ms, b->bound_ms);
	timeline_bound_what(b, what, sizeof what);
	if (b->ratio > 0) strfmt(ratio, sizeof ratio, "; %.2fx the bound", b->ratio);
	strfmt(buf, n, "bound %s ms (%s)%s", ms, what, ratio);
}

/* ---- the steps in time ---- */

typedef struct {
	double a, b;              /* start and end, ms */
	int row;                  /* index in timeline_stats.streams */
	int step;                 /* index in r->steps */
	timeline_kind k;
} span;

/* A record: or wait: step marks a point in its stream's order, not work: listed, never drawn. */
static int is_event(const run_step *s)
{
	return !strcmp(s->kind, "record") || !strcmp(s->kind, "wait");
}

static int timed(const run_step *s)
{
	return !is_event(s) && s->start_ms >= 0 && s->end_ms >= s->start_ms && isfinite(s->start_ms) && isfinite(s->end_ms);
}

static int row_of(const timeline_stats *s, int stream)
{
	for (int i = 0; i < s->nstreams; i++)
		if (s->streams[i] == stream) return i;
	return -1;
}

/* Fills s and the spans of the timed steps (sp: RUN_MAX_STEPS of them); returns how many. */
static int collect(const run_result *r, timeline_stats *s, span *sp)
{
	memset(s, 0, sizeof *s);
	s->nsteps = r->nsteps < 0 ? 0 : r->nsteps > RUN_MAX_STEPS ? RUN_MAX_STEPS : r->nsteps;
	for (int i = 0; i < s->nsteps; i++) {        /* the streams, ascending */
		const run_step *st = &r->steps[i];
		if (!timed(st) || row_of(s, st->stream) >= 0 || s->nstreams == TIMELINE_MAX_ROWS) continue;
		int at = s->nstreams++;
		while (at > 0 && s->streams[at - 1] > st->stream) { s->streams[at] = s->streams[at - 1]; at--; }
		s->streams[at] = st->stream;
	}
	int n = 0;
	for (int i = 0; i < s->nsteps; i++) {
		const run_step *st = &r->steps[i];
		int row = timed(st) ? row_of(s, st->stream) : -1;
		if (row < 0) continue;
		span *p = &sp[n++];
		p->a = st->start_ms;
		p->b = st->end_ms;
		p->row = row;
		p->step = i;
		p->k = timeline_kind_of(st);
		s->ntimed++;
		s->count[p->k]++;
		s->busy_ms[p->k] += p->b - p->a;
		if (p->b > s->span_ms) s->span_ms = p->b;
	}
	return n;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

/* Kinds as bits, for the overlaps. */
enum { BIT_COPY = 1 << TL_H2D | 1 << TL_D2H, BIT_KERNEL = 1 << TL_KERNEL };

/* The intervals (merged, in order) when a step of a kind in mask a and one of a kind in mask b run
 * at once, into ov (2 doubles each, room for n of them); returns how many. */
static int overlaps(const span *sp, int n, unsigned a, unsigned b, double (*ov)[2])
{
	double *t = xcalloc((size_t)2 * n + 1, sizeof *t);
	int nt = 0, no = 0;
	for (int i = 0; i < n; i++)
		if ((a | b) >> sp[i].k & 1) { t[nt++] = sp[i].a; t[nt++] = sp[i].b; }
	qsort(t, (size_t)nt, sizeof *t, cmp_double);
	for (int i = 0; i + 1 < nt; i++) {
		if (!(t[i + 1] > t[i])) continue;
		double mid = (t[i] + t[i + 1]) / 2;
		int in_a = 0, in_b = 0;
		for (int j = 0; j < n && !(in_a && in_b); j++) {
			if (!(sp[j].a < mid && mid < sp[j].b)) continue;
			in_a |= a >> sp[j].k & 1;
			in_b |= b >> sp[j].k & 1;
		}
		if (!in_a || !in_b) continue;
		if (no && ov[no - 1][1] >= t[i]) ov[no - 1][1] = t[i + 1];
		else { ov[no][0] = t[i]; ov[no][1] = t[i + 1]; no++; }
	}
	free(t);
	return no;
}

static double total(double (*ov)[2], int no)
{
	double sum = 0;
	for (int i = 0; i < no; i++) sum += ov[i][1] - ov[i][0];
	return sum;
}

/* The overlaps' totals and shares of the span; the copy and kernel intervals into ov (room for
 * 2 x RUN_MAX_STEPS), their count returned. */
static int overlap_totals(timeline_stats *s, const span *sp, int n, double (*ov)[2])
{
	s->copies_ms = total(ov, overlaps(sp, n, 1 << TL_H2D, 1 << TL_D2H, ov));
	int no = overlaps(sp, n, BIT_COPY, BIT_KERNEL, ov);
	s->overlap_ms = total(ov, no);
	s->overlap_frac = s->span_ms > 0 ? s->overlap_ms / s->span_ms : 0;
	s->copies_frac = s->span_ms > 0 ? s->copies_ms / s->span_ms : 0;
	return no;
}

void timeline_stats_of(const run_result *r, timeline_stats *s)
{
	span *sp = xcalloc(RUN_MAX_STEPS, sizeof *sp);
	double (*ov)[2] = xcalloc(RUN_MAX_STEPS * 2, sizeof *ov);
	overlap_totals(s, sp, collect(r, s, sp), ov);
	free(sp);
	free(ov);
}

/* ---- the summary ---- */

void timeline_summary(const run_result *r, const device_info *d, char *a, size_t na, char *b, size_t nb)
{
	timeline_stats s;
	timeline_stats_of(r, &s);
	timeline_bound bd;
	if (timeline_bound_of(r, d, &bd) == 0) {
		char t[256];
		timeline_bound_text(&bd, t, sizeof t);
		strfmt(b, nb, "%c%s.", toupper((unsigned char)t[0]), t + 1);
	} else {
		strfmt(b, nb, "%s", "");
	}
	sb o = {0};
	sb_add(&o, "");
	int copies = s.count[TL_H2D] + s.count[TL_D2H] + s.count[TL_D2D];
	if (!s.ntimed) {
		sb_add(&o, s.nsteps ? "No step of this run was timed." : "This run has no record of its steps.");
	} else {
		char ms[32], span_ms[32];
		if (!copies && s.nstreams <= 1)
			sb_add(&o, "No copies or streams in this stage: the timeline shows its steps one after another. ");
		fmt_ms(span_ms, sizeof span_ms, s.span_ms);
		if (r->reps && r->ms_median > 0) {
			fmt_ms(ms, sizeof ms, r->ms_median);
			sb_addf(&o, "%s ms a run; the steps span %s ms", ms, span_ms);
		} else {
			sb_addf(&o, "The steps span %s ms", span_ms);
		}
		if (s.nstreams > 1) sb_addf(&o, " on %d streams", s.nstreams);
		if (s.count[TL_H2D] + s.count[TL_D2H] && s.count[TL_KERNEL]) {
			if (s.overlap_ms > 0) {
				char pct[16], ov[32];
				fmt_pct(pct, sizeof pct, s.overlap_frac);
				fmt_ms(ov, sizeof ov, s.overlap_ms);
				sb_addf(&o, ", copy and kernel at once %s of it (%s ms)", pct, ov);
			} else {
				sb_add(&o, ", copy and kernel never at once");
			}
		}
		if (s.copies_ms > 0) {
			char pct[16];
			fmt_pct(pct, sizeof pct, s.copies_frac);
			sb_addf(&o, ", h2d and d2h at once %s", pct);
		}
		sb_add(&o, ".");
	}
	char *text = sb_take(&o);
	strfmt(a, na, "%s", text);
	free(text);
}

/* ---- the grid ---- */


/* The words of s wrapped at w columns from row y (g NULL: only counted); returns the rows used. */
static int wrap_text(cellgrid *g, int y, int w, const char *s, timeline_role role)
{
	int x = 0, rows = *s ? 1 : 0;
	while (*s) {
		while (*s == ' ') s++;
		if (!*s) break;
		int n = 0, cols = 0;
		while (s[n] && s[n] != ' ') { cols++; n += cellgrid_u8len(s + n); }
		if (x && x + 1 + cols > w) { y++; rows++; x = 0; }
		else if (x) x++;
		char word[256];
		strfmt(word, sizeof word, "%.*s", n, s);
		int put_n = cols < w - x ? cols : w - x;
		if (g) cellgrid_text(g, y, x, put_n, word, role);
		x += put_n;
		s += n;
	}
	return rows;
}

/* ---- layout ---- */

typedef struct {
	const run_result *r;
	timeline_stats st;
	span sp[RUN_MAX_STEPS]; int nsp;
	double ov[RUN_MAX_STEPS * 2][2]; int nov;
	char sum[2][600];
	int lw;                   /* the labels' column width */
} tl_ctx;

typedef struct {
	int chart;                /* 0: the summary alone */
	int rows;                 /* stream rows shown */
	int hidden;               /* streams left out (a note row says so) */
	int ov_row, legend;       /* the overlap row and the legend, shown or not */
	int sum_rows;
	int height;               /* rows used */
} tl_layout;

static void ctx_init(tl_ctx *c, const run_result *r, const device_info *d)
{
	memset(c, 0, sizeof *c);
	c->r = r;
	c->nsp = collect(r, &c->st, c->sp);
	c->nov = overlap_totals(&c->st, c->sp, c->nsp, c->ov);
	timeline_summary(r, d, c->sum[0], sizeof c->sum[0], c->sum[1], sizeof c->sum[1]);
	c->lw = 3;
	for (int i = 0; i < c->st.nstreams; i++) {
		char t[16];
		strfmt(t, sizeof t, "s%d", c->st.streams[i]);
		if ((int)strlen(t) + 1 > c->lw) c->lw = (int)strlen(t) + 1;
	}
	if (c->st.count[TL_H2D] + c->st.count[TL_D2H] && c->st.count[TL_KERNEL] && c->st.nstreams > 1 && c->lw < 5)
		c->lw = 5;                            /* "both" */
}

static int sum_rows(const tl_ctx *c, int w)
{
	return wrap_text(NULL, 0, w, c->sum[0], TLR_SUMMARY) + wrap_text(NULL, 0, w, c->sum[1], TLR_SUMMARY);
}

/* The layout at w x h (h < 0: as tall as it needs). */
static tl_layout layout(const tl_ctx *c, int w, int h)
{
	tl_layout L = {0};
	L.sum_rows = sum_rows(c, w);
	if (w < 30 || !c->st.ntimed || !(c->st.span_ms > 0)) {
		L.height = L.sum_rows;
		return L;
	}
	L.chart = 1;
	L.rows = c->st.nstreams;
	L.ov_row = c->st.count[TL_H2D] + c->st.count[TL_D2H] && c->st.count[TL_KERNEL] && c->st.nstreams > 1;
	L.legend = 1;
	int fixed = 2 + L.sum_rows;               /* the axis, its labels, the summary */
	if (h >= 0 && L.rows + L.ov_row + L.legend + fixed > h) L.legend = 0;
	if (h >= 0 && L.rows + L.ov_row + fixed > h) L.ov_row = 0;
	if (h >= 0 && L.rows + fixed > h) {
		L.rows = h - fixed - 1;                /* a row for the note */
		if (L.rows < 1) {
			L = (tl_layout){ .sum_rows = L.sum_rows, .height = L.sum_rows };
			return L;
		}
		L.hidden = c->st.nstreams - L.rows;
	}
	L.height = L.rows + (L.hidden > 0) + L.ov_row + 2 + L.legend + L.sum_rows;
	return L;
}

int timeline_height(const run_result *r, const device_info *d, int w)
{
	tl_ctx *c = xcalloc(1, sizeof *c);
	ctx_init(c, r, d);
	int h = layout(c, w, -1).height;
	free(c);
	return h;
}

/* ---- the parts ---- */

/* A row of spans: each cell to the step that covers most of it; a step that got no cell (narrower
 * than a cell, or beaten to it) takes its middle cell, or one beside it, from a step that has more. */
static void draw_row(cellgrid *g, const tl_ctx *c, int row, int y, int px0, int pw, double dt, const tl_glyphs *gl)
{
	int *owner = xcalloc((size_t)pw, sizeof *owner), *cells = xcalloc((size_t)c->nsp + 1, sizeof *cells);
	double *best = xcalloc((size_t)pw, sizeof *best);
	for (int x = 0; x < pw; x++) owner[x] = -1;
	for (int i = 0; i < c->nsp; i++) {
		const span *s = &c->sp[i];
		if (s->row != row) continue;
		int x0 = (int)floor(s->a / dt), x1 = (int)ceil(s->b / dt) - 1;
		if (x0 < 0) x0 = 0;
		if (x1 > pw - 1) x1 = pw - 1;
		for (int x = x0; x <= x1; x++) {
			double lo = x * dt, hi = (x + 1) * dt;
			double cov = (s->b < hi ? s->b : hi) - (s->a > lo ? s->a : lo);
			if (cov > best[x]) {
				if (owner[x] >= 0) cells[owner[x]]--;
				owner[x] = i;
				best[x] = cov;
				cells[i]++;
			}
		}
	}
	for (int i = 0; i < c->nsp; i++) {
		const span *s = &c->sp[i];
		if (s->row != row || cells[i]) continue;
		int xm = (int)floor((s->a + s->b) / 2 / dt);
		if (xm > pw - 1) xm = pw - 1;
		if (xm < 0) xm = 0;
		static const int near[] = { 0, 1, -1, 2, -2 };
		for (size_t k = 0; k < sizeof near / sizeof *near; k++) {
			int x = xm + near[k];
			if (x < 0 || x >= pw || (owner[x] >= 0 && cells[owner[x]] < 2)) continue;
			if (owner[x] >= 0) cells[owner[x]]--;
			owner[x] = i;
			cells[i]++;
			break;
		}
	}
	for (int x = 0; x < pw; x++)
		if (owner[x] >= 0) cellgrid_put(g, y, px0 + x, gl->kind[c->sp[owner[x]].k], timeline_role_of(c->sp[owner[x]].k));
	free(owner);
	free(cells);
	free(best);
}

/* The overlap row: a mark under every cell that a host copy and a kernel share for half of it or
 * more, and under the middle of an overlap narrower than that. */
static void draw_overlap(cellgrid *g, const tl_ctx *c, int y, int px0, int pw, double dt, const tl_glyphs *gl)
{
	for (int i = 0; i < c->nov; i++) {
		double a = c->ov[i][0], b = c->ov[i][1];
		int x0 = (int)floor(a / dt), x1 = (int)ceil(b / dt) - 1, marked = 0;
		for (int x = x0 < 0 ? 0 : x0; x <= x1 && x < pw; x++) {
			double cov = (b < (x + 1) * dt ? b : (x + 1) * dt) - (a > x * dt ? a : x * dt);
			if (cov >= dt / 2) { cellgrid_put(g, y, px0 + x, gl->overlap, TLR_OVERLAP); marked++; }
		}
		int xm = (int)floor((a + b) / 2 / dt);
		if (!marked) cellgrid_put(g, y, px0 + (xm < pw ? xm : pw - 1), gl->overlap, TLR_OVERLAP);
	}
}

/* A step between ticks: 1, 2 or 5 x 10^k ms, about every ten columns. */
static double tick_step(double tmax, int pw)
{
	double raw = tmax * 10 / (pw > 10 ? pw : 10), mag = pow(10, floor(log10(raw))), f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static void draw_axis(cellgrid *g, int y, int px0, int pw, double tmax, const tl_glyphs *gl)
{
	double dt = tmax / pw, step = tick_step(tmax, pw);
	int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
	cellgrid_put(g, y, px0 - 1, gl->corner, TLR_AXIS);
	for (int x = 0; x < pw; x++) cellgrid_put(g, y, px0 + x, gl->haxis, TLR_AXIS);
	cellgrid_text(g, y + 1, 0, px0 - 1, "ms", TLR_DIM);
	int right = px0 - 1;                      /* the first free column for a label */
	for (int k = 0;; k++) {
		double t = k * step;
		if (t > tmax * (1 + 1e-9)) break;
		int x = (int)(t / dt);
		if (x > pw - 1) x = pw - 1;
		cellgrid_put(g, y, px0 + x, gl->tick, TLR_AXIS);
		char label[32];
		strfmt(label, sizeof label, "%.*f", k ? dec : 0, t);
		int len = (int)strlen(label), at = px0 + x;
		if (at < right + 1 || at + len > g->w) continue;
		cellgrid_text(g, y + 1, at, len, label, TLR_TEXT);
		right = at + len;
	}
}

/* The glyphs of the kinds on the chart, and the overlap mark; in shorter words when the long ones
 * do not fit. */
static void draw_legend(cellgrid *g, const tl_ctx *c, int y, int ov_row, const tl_glyphs *gl)
{
	static const char *const words[2][TL_KIND_COUNT + 1] = {
		{ "h2d copy", "d2h copy", "d2d copy", "kernel", "memset", "copy and kernel at once" },
		{ "h2d", "d2h", "d2d", "kernel", "memset", "copy and kernel at once" },
	};
	int shown[TL_KIND_COUNT + 1], n = 0;
	for (int k = 0; k < TL_KIND_COUNT; k++) if (c->st.count[k]) shown[n++] = k;
	if (ov_row) shown[n++] = TL_KIND_COUNT;
	int v = 0, need = 0;
	for (int i = 0; i < n; i++) need += (i ? 2 : 0) + 2 + (int)strlen(words[0][shown[i]]);
	if (need > g->w) v = 1;
	for (int i = 0, x = 0; i < n; i++) {
		int k = shown[i], len = 2 + (int)strlen(words[v][k]);
		if (x + len > g->w) return;
		cellgrid_put(g, y, x, k == TL_KIND_COUNT ? gl->overlap : gl->kind[k], k == TL_KIND_COUNT ? TLR_OVERLAP : timeline_role_of((timeline_kind)k));
		cellgrid_text(g, y, x + 2, len - 2, words[v][k], TLR_DIM);
		x += len + 2;
	}
}

/* The first step a list of n steps in rows rows can start at, for first asked: the last page ends
 * at the last step (a row above it says how many are above). */
static int clamp_first(int n, int rows, int first)
{
	if (first > n - rows) first = n - rows + 1;
	return first < 0 || n <= rows ? 0 : first;
}

/* The steps one per row from row y to the grid's end, from step first: number, kind, name, stream,
 * time, start, end (and a copy's bytes when wide); a row above and one below count the steps out
 * of view. */
static void draw_steps(cellgrid *g, const tl_ctx *c, int y, int first, const tl_glyphs *gl)
{
	const run_result *r = c->r;
	int rows = g->h - y, n = c->st.nsteps, wide = g->w >= 96;
	if (rows < 3 || !n) return;
	int nw = g->w - (wide ? 60 : 50);
	if (nw < 8) return;
	if (nw > 40) nw = 40;
	char line[256];
	strfmt(line, sizeof line, "%3s %-8s %-*s %6s %9s %9s %9s%s", "#", "kind", nw, "name", "stream", "ms", "start", "end",
	       wide ? "      bytes" : "");
	cellgrid_text(g, y++, 0, g->w, line, TLR_DIM);
	rows--;
	first = clamp_first(n, rows, first);
	if (first > 0) {
		strfmt(line, sizeof line, "%s %d step%s above", gl->ellipsis, first, first == 1 ? "" : "s");
		cellgrid_text(g, y++, 4, g->w - 4, line, TLR_DIM);
		rows--;
	}
	int show = n - first <= rows ? n - first : rows - 1;
	for (int i = first; i < first + show; i++, y++) {
		const run_step *s = &r->steps[i];
		timeline_kind k = timeline_kind_of(s);
		char num[8], ms[24], a[24], b[24], bytes[32] = "";
		strfmt(num, sizeof num, "%3d", i + 1);
		cellgrid_text(g, y, 0, 3, num, TLR_TEXT);
		if (!is_event(s)) cellgrid_put(g, y, 4, gl->kind[k], timeline_role_of(k));
		cellgrid_text(g, y, 6, 6, is_event(s) ? s->kind : timeline_kind_name(k), TLR_TEXT);
		cellgrid_text(g, y, 13, nw, s->entry, TLR_TEXT);
		fmt_ms_col(ms, sizeof ms, s->ms_median);
		fmt_ms_col(a, sizeof a, s->start_ms);
		fmt_ms_col(b, sizeof b, s->end_ms);
		if (wide && s->bytes > 0) fmt_traffic(bytes, sizeof bytes, (double)s->bytes);
		strfmt(line, sizeof line, "%6d %9s %9s %9s%s%10s", s->stream, ms, a, b, wide ? " " : "", bytes);
		cellgrid_text(g, y, 13 + nw + 1, g->w - 14 - nw, line, TLR_TEXT);
	}
	if (first + show < n) {
		strfmt(line, sizeof line, "%s %d step%s more", gl->ellipsis, n - first - show, n - first - show == 1 ? "" : "s");
		cellgrid_text(g, y, 4, g->w - 4, line, TLR_DIM);
	}
}

void timeline_render(const run_result *r, const device_info *d, int w, int h, int flags, int first, cellgrid *g)
{
	const tl_glyphs *gl = flags & TIMELINE_UTF8 ? &utf8_glyphs : &ascii_glyphs;
	cellgrid_init(g, w, h);
	if (w < 1 || h < 1) return;
	tl_ctx *c = xcalloc(1, sizeof *c);
	ctx_init(c, r, d);
	tl_layout L = layout(c, w, h);
	int y = 0;
	if (L.chart) {
		int px0 = c->lw, pw = w - c->lw - 2;
		double tmax = c->st.span_ms, dt = tmax / pw;
		for (int i = 0; i < L.rows; i++, y++) {
			char label[16];
			strfmt(label, sizeof label, "s%d", c->st.streams[i]);
			cellgrid_text(g, y, 0, c->lw - 1, label, TLR_LABEL);
			draw_row(g, c, i, y, px0, pw, dt, gl);
		}
		if (L.hidden > 0) {
			char note[96];
			strfmt(note, sizeof note, "%s %d more stream%s (a taller window shows them)", gl->ellipsis, L.hidden,
			       L.hidden == 1 ? "" : "s");
			cellgrid_text(g, y++, 0, w, note, TLR_DIM);
		}
		if (L.ov_row) {
			cellgrid_text(g, y, 0, c->lw - 1, "both", TLR_LABEL);
			draw_overlap(g, c, y++, px0, pw, dt, gl);
		}
		draw_axis(g, y, px0, pw, tmax, gl);
		y += 2;
		if (L.legend) draw_legend(g, c, y++, L.ov_row, gl);
	}
	y += wrap_text(g, y, w, c->sum[0], TLR_SUMMARY);
	y += wrap_text(g, y, w, c->sum[1], TLR_SUMMARY);
	if ((flags & TIMELINE_STEPS) && y + 4 <= h) draw_steps(g, c, y + 1, first, gl);
	free(c);
}

int timeline_first_step(const run_result *r, const device_info *d, int w, int h, int first)
{
	tl_ctx *c = xcalloc(1, sizeof *c);
	ctx_init(c, r, d);
	int y = layout(c, w, h).height, n = c->st.nsteps;
	free(c);
	int rows = h - y - 2;                     /* a blank row, the heads */
	return y + 4 > h || rows < 2 || w - (w >= 96 ? 60 : 50) < 8 ? 0 : clamp_first(n, rows, first);
}

void timeline_print(FILE *f, const run_result *r, const device_info *d, int w, int flags)
{
	cellgrid g;
	timeline_render(r, d, w, timeline_height(r, d, w), flags & ~TIMELINE_STEPS, 0, &g);
	for (int y = 0; y < g.h; y++) {
		char *line = cellgrid_line(&g, y);
		fputs(line, f);
		fputc('\n', f);
		free(line);
	}
	cellgrid_free(&g);
}
