/* The roofline chart as a grid of cells: see tui_roofline.h. No curses here. */
#include "tui_roofline.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fmt.h"
#include "util.h"

/* Glyphs, UTF-8 and ASCII. Lines in UTF-8 are braille (2 x 4 dots a cell); in ASCII each cell a
 * line touches gets the line's own character. */
typedef struct {
	const char *vaxis, *haxis, *corner, *ytick, *xtick, *ridge, *mem, *compute, *knee, *light, *xmark, *ymark, *ellipsis;
} tui_roofline_glyphs;

static const tui_roofline_glyphs utf8_glyphs = {
	.vaxis = "\u2502", .haxis = "\u2500", .corner = "\u2514", .ytick = "\u2524", .xtick = "\u2534", .ridge = "\u250a",
	.mem = NULL, .compute = NULL, .knee = NULL, .light = NULL, .xmark = "\u25b4", .ymark = "\u25b8", .ellipsis = "\u2026",
};
static const tui_roofline_glyphs ascii_glyphs = {
	.vaxis = "|", .haxis = "-", .corner = "+", .ytick = "+", .xtick = "+", .ridge = ":",
	.mem = "/", .compute = "-", .knee = "/", .light = ".", .xmark = "^", .ymark = ">", .ellipsis = "~",
};

void tui_roofline_init(tui_roofline *c, const roofline_roofs *rf, const char *why)
{
	memset(c, 0, sizeof *c);
	c->cur = -1;
	if (rf) {
		c->have_roofs = 1;
		c->roofs = *rf;
	} else {
		strfmt(c->no_roofs, sizeof c->no_roofs, "%s", why ? why : "no roofs");
	}
}

int tui_roofline_add(tui_roofline *c, const char *label, const char *name, int baseline, const run_result *r, char *why, size_t whylen)
{
	if (!c->have_roofs) { strfmt(why, whylen, "%s", c->no_roofs); return -1; }
	if (c->n == TUI_ROOFLINE_MAX) { strfmt(why, whylen, "the chart is full"); return -1; }
	tui_roofline_point *p = &c->pts[c->n];
	if (roofline_place(&c->roofs, r, &p->p, why, whylen)) return -1;
	strfmt(p->label, sizeof p->label, "%s", label);
	strfmt(p->name, sizeof p->name, "%s", name);
	p->baseline = baseline;
	c->n++;
	return 0;
}

void tui_roofline_current(tui_roofline *c, const char *label, const char *name, int point, const char *why)
{
	c->cur = point >= 0 && point < c->n ? point : -1;
	strfmt(c->cur_label, sizeof c->cur_label, "%s", label);
	strfmt(c->cur_name, sizeof c->cur_name, "%s", name);
	strfmt(c->cur_why, sizeof c->cur_why, "%s", why ? why : "");
}

/* ---- numbers ---- */

/* A tick's label, m x 10^k (m 1 or 3): 0.01, 0.03, 0.1, 1, 3, 10, 300, 1k, 30k, 1M ... */
static void tick_text(char *buf, size_t n, int m, int k)
{
	static const char *const suffix[] = { "", "k", "M", "G", "T" };
	if (k < 0) strfmt(buf, n, "%.*f", -k, m * pow(10, k));
	else if (k / 3 < 5) strfmt(buf, n, "%d%s", m * (int)pow(10, k % 3), suffix[k / 3]);
	else strfmt(buf, n, "%.0e", m * pow(10, k));
}

void tui_roofline_summary(const tui_roofline *c, int flags, char *buf, size_t n)
{
	char head[96];
	int base = !strcmp(c->cur_label, "B");
	const char *name = (flags & TUI_ROOFLINE_NAME) && c->cur_name[0] && strcmp(c->cur_name, "baseline") ? c->cur_name : NULL;
	if (base) strfmt(head, sizeof head, "baseline%s%s", name ? " " : "", name ? name : "");
	else strfmt(head, sizeof head, "stage %s%s%s", c->cur_label, name ? " " : "", name ? name : "");
	if (c->cur < 0) {
		strfmt(buf, n, "%s: %s", head, c->cur_why[0] ? c->cur_why : c->have_roofs ? "not on the chart" : c->no_roofs);
		return;
	}
	const roofline_point *p = &c->pts[c->cur].p;
	char gf[32], ai[32], pct[16];
	fmt_gflops(gf, sizeof gf, p->gflops);
	fmt_num(ai, sizeof ai, p->intensity);
	fmt_pct(pct, sizeof pct, p->frac);
	strfmt(buf, n, "%s: %s at %s flop/B%s, bound by %s, %s of the roof", head, gf, ai,
	       !(flags & TUI_ROOFLINE_BYTES) ? "" : p->bytes_from == ROOF_BYTES_DRAM ? " (DRAM)" : " (model bytes)", roofline_bound_name(p->bound), pct);
}

/* ---- the grid ---- */

/* Columns of text (one per character: the chart's text is ASCII and one-column glyphs). */
static int text_cols(const char *s)
{
	int n = 0;
	for (; *s; s += cellgrid_u8len(s)) n++;
	return n;
}

/* Text from row y on, its words wrapped at w columns. */
static void wrap_text(cellgrid *g, int y, int w, const char *s, tui_roofline_role role)
{
	int x = 0;
	while (*s && y < g->h) {
		while (*s == ' ') s++;
		int n = 0, cols = 0;
		while (s[n] && s[n] != ' ') { cols++; n += cellgrid_u8len(s + n); }
		if (x && x + 1 + cols > w) { y++; x = 0; }
		else if (x) x++;
		char word[256];
		strfmt(word, sizeof word, "%.*s", n, s);
		x += cellgrid_text(g, y, x, w - x, word, role);
		s += n;
	}
}

/* ---- layout and scales ---- */

typedef struct {
	double xlo, xhi, ylo, yhi;    /* log10 of the ranges */
	int top, ph, px0, pw, ax;     /* plot rows top..top+ph-1; columns px0..px0+pw-1; y axis at column ax */
} frame;

/* Sub-cell coordinates (braille: 2 across, 4 down a cell) of a log10 point. */
static double sub_x(const frame *f, double lx) { return (lx - f->xlo) / (f->xhi - f->xlo) * (f->pw * 2 - 1); }
static double sub_y(const frame *f, double ly) { return (f->yhi - ly) / (f->yhi - f->ylo) * (f->ph * 4 - 1); }

static void ranges(const tui_roofline *c, frame *f)
{
	double ridge = log10(c->roofs.ridge), comp = log10(c->roofs.compute_gflops);
	double xl = ridge, xh = ridge, yl = comp - 1.5, yh = comp;
	for (int i = 0; i < c->n; i++) {
		double ai = log10(c->pts[i].p.intensity), gf = log10(c->pts[i].p.gflops);
		if (ai < xl) xl = ai;
		if (ai > xh) xh = ai;
		if (gf - 0.25 < yl) yl = gf - 0.25;
		if (gf > yh) yh = gf;
	}
	xl -= 0.35;
	xh += 0.35;
	if (xh - xl < 1.5) { double pad = (1.5 - (xh - xl)) / 2; xl -= pad; xh += pad; }
	f->xlo = xl;
	f->xhi = xh;
	f->ylo = yl;
	f->yhi = yh + 0.12;
}

/* ---- the parts ---- */

/* Whether the theoretical memory roof stands apart from the attainable one on this chart (three
 * quarters of a row at least): only then is it drawn, dotted. */
static int light_visible(const tui_roofline *c, const frame *f)
{
	const roofline_roofs *rf = &c->roofs;
	return !rf->mem_is_theoretical && rf->mem_theoretical_gbps > rf->mem_gbps &&
	       log10(rf->mem_theoretical_gbps / rf->mem_gbps) * f->ph / (f->yhi - f->ylo) >= 0.75;
}

/* The roofs into a dot mask (bit per braille dot, per cell; light ones in their own mask) and which
 * roof each cell belongs to (1 memory, 2 compute, 3 both). */
static void roofs_raster(const tui_roofline *c, const frame *f, unsigned char *dots, unsigned char *light, unsigned char *which)
{
	static const unsigned char bit[4][2] = { { 0x01, 0x08 }, { 0x02, 0x10 }, { 0x04, 0x20 }, { 0x40, 0x80 } };
	int SX = f->pw * 2, SY = f->ph * 4;
	for (int layer = 0; layer < 2; layer++) {
		double bw = layer ? c->roofs.mem_theoretical_gbps : c->roofs.mem_gbps;
		if (layer && !light_visible(c, f)) break;
		int prev = -1;
		for (int sx = 0; sx < SX; sx++) {
			double lx = f->xlo + (f->xhi - f->xlo) * sx / (SX - 1);
			double mem = lx + log10(bw), comp = log10(c->roofs.compute_gflops);
			int on_mem = mem < comp;
			if (layer && !on_mem) break;      /* the theoretical roof: its memory part only */
			int sy = (int)lround(sub_y(f, on_mem ? mem : comp));
			if (layer && sx % 3) continue;
			int from = layer || prev < 0 || prev > SY + 4 ? sy : prev, step = sy < from ? -1 : 1;
			for (int y = from;; y += step) {  /* steep: the dots between the last column's and this one */
				if (y >= 0 && y < SY) {
					int cell = (y / 4) * f->pw + sx / 2;
					(layer ? light : dots)[cell] |= bit[y % 4][sx % 2];
					if (!layer) which[cell] |= on_mem ? 1 : 2;
				}
				if (y == sy) break;
			}
			prev = sy;
		}
	}
}

static void draw_roofs(cellgrid *g, const tui_roofline *c, const frame *f, const tui_roofline_glyphs *gl, int utf8)
{
	size_t ncell = (size_t)f->pw * f->ph;
	unsigned char *dots = xcalloc(ncell, 1), *light = xcalloc(ncell, 1), *which = xcalloc(ncell, 1);
	roofs_raster(c, f, dots, light, which);
	/* the ridge: from the bottom up to the compute roof */
	int rx = (int)(sub_x(f, log10(c->roofs.ridge)) / 2), ry = (int)(lround(sub_y(f, log10(c->roofs.compute_gflops))) / 4);
	for (int y = ry + 1; y < f->ph && rx >= 0 && rx < f->pw; y++)
		if (!dots[y * f->pw + rx]) cellgrid_put(g, f->top + y, f->px0 + rx, gl->ridge, RC_ROOF_LIGHT);
	for (int y = 0; y < f->ph; y++)
		for (int x = 0; x < f->pw; x++) {
			size_t i = (size_t)y * f->pw + x;
			if (!dots[i] && !light[i]) continue;
			char glyph[5];
			if (utf8) {
				unsigned cp = 0x2800 + (dots[i] ? dots[i] : light[i]);
				glyph[0] = (char)(0xE0 | (cp >> 12));
				glyph[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
				glyph[2] = (char)(0x80 | (cp & 0x3F));
				glyph[3] = 0;
			} else {
				strfmt(glyph, sizeof glyph, "%s", !dots[i] ? gl->light : which[i] == 3 ? gl->knee : which[i] == 1 ? gl->mem : gl->compute);
			}
			cellgrid_put(g, f->top + y, f->px0 + x, glyph, dots[i] ? RC_ROOF : RC_ROOF_LIGHT);
		}
	free(dots);
	free(light);
	free(which);
}

/* The ticks of an axis from lo to hi (log10): every decade, and 3 x each decade when there is room
 * (at least min_per_decade cells a decade). Fills m[], k[] and returns the count. */
static int ticks(double lo, double hi, double cells_per_decade, double min_per_decade, int *m, int *k, int max)
{
	int n = 0;
	for (int d = (int)floor(lo); d <= (int)ceil(hi) && n < max; d++)
		for (int t = 0; t < 2 && n < max; t++) {
			double v = d + (t ? log10(3) : 0);
			if (v < lo || v > hi || (t && cells_per_decade < min_per_decade)) continue;
			m[n] = t ? 3 : 1;
			k[n++] = d;
		}
	return n;
}

static void draw_axes(cellgrid *g, const frame *f, const tui_roofline_glyphs *gl, const char *const *xtitles, int ntitles)
{
	char t[16];
	int ay = f->top + f->ph, tm[64], tk[64];
	for (int y = f->top; y < ay; y++) cellgrid_put(g, y, f->ax, gl->vaxis, RC_AXIS);
	cellgrid_put(g, ay, f->ax, gl->corner, RC_AXIS);
	for (int x = f->px0; x < f->px0 + f->pw; x++) cellgrid_put(g, ay, x, gl->haxis, RC_AXIS);
	int n = ticks(f->ylo, f->yhi, f->ph / (f->yhi - f->ylo), 5, tm, tk, 64), last = -9;
	for (int i = n - 1; i >= 0; i--) {   /* from the top */
		int y = f->top + (int)(lround(sub_y(f, tk[i] + log10(tm[i]))) / 4);
		if (y < f->top || y >= ay || y - last < 2) continue;
		cellgrid_put(g, y, f->ax, gl->ytick, RC_AXIS);
		tick_text(t, sizeof t, tm[i], tk[i]);
		int len = (int)strlen(t);
		cellgrid_text(g, y, f->ax - len, len, t, RC_TEXT);
		last = y;
	}
	/* the x labels and the title at the right end: the longest title that fits after the labels,
	 * with the labels of 3 x a decade left out first when they crowd it */
	int W = g->w;
	for (int pass = 0; pass < 2 * ntitles; pass++) {
		const char *title = xtitles[pass / 2];
		int tw = text_cols(title), tx = f->px0 + f->pw - tw, right = f->px0 - 1, ok = 1;
		n = ticks(f->xlo, f->xhi, f->pw / (f->xhi - f->xlo), pass % 2 ? 1e9 : 16, tm, tk, 64);
		int lx[64], len[64];
		for (int i = 0; i < n; i++) {
			int x = f->px0 + (int)(sub_x(f, tk[i] + log10(tm[i])) / 2);
			tick_text(t, sizeof t, tm[i], tk[i]);
			len[i] = (int)strlen(t);
			lx[i] = x - (len[i] - 1) / 2 < f->ax ? f->ax : x - (len[i] - 1) / 2;
			if (x < f->px0 || x >= f->px0 + f->pw || lx[i] <= right || lx[i] + len[i] > W) { len[i] = 0; continue; }
			if (lx[i] + len[i] >= tx) ok = 0;
			right = lx[i] + len[i];
		}
		if (!ok && pass < 2 * ntitles - 1) continue;
		for (int i = 0; i < n; i++) {
			int x = f->px0 + (int)(sub_x(f, tk[i] + log10(tm[i])) / 2);
			if (x >= f->px0 && x < f->px0 + f->pw) cellgrid_put(g, ay, x, gl->xtick, RC_AXIS);
			if (!len[i] || (!ok && lx[i] + len[i] >= tx)) continue;
			tick_text(t, sizeof t, tm[i], tk[i]);
			cellgrid_text(g, ay + 1, lx[i], len[i], t, RC_TEXT);
		}
		if (tx > f->px0) cellgrid_text(g, ay + 1, tx, tw, title, RC_TEXT);
		return;
	}
}

/* Where a label of n cells goes near (y, x): the nearest span free of other labels in the plot. */
static int free_span(const cellgrid *g, const frame *f, int y, int x, int n, const unsigned char *taken)
{
	if (y < f->top || y >= f->top + f->ph || x < f->px0 || x + n > f->px0 + f->pw) return 0;
	for (int i = 0; i < n; i++) if (taken[y * g->w + x + i]) return 0;
	return 1;
}

static void draw_points(cellgrid *g, const tui_roofline *c, const frame *f, const tui_roofline_glyphs *gl)
{
	static const int near[][2] = { { 0, 0 }, { 0, 1 }, { 0, -1 }, { -1, 0 }, { 1, 0 }, { 0, 2 }, { 0, -2 }, { -1, 1 },
		{ 1, 1 }, { -1, -1 }, { 1, -1 }, { 0, 3 }, { 0, -3 }, { -2, 0 }, { 2, 0 }, { -1, 2 }, { 1, 2 }, { 0, 4 }, { 0, -4 } };
	unsigned char *taken = xcalloc((size_t)g->w * g->h + 1, 1);
	/* the current point first, at its own place; the others around it */
	for (int k = -1; k < c->n; k++) {
		int i = k < 0 ? c->cur : k;
		if (i < 0 || (k >= 0 && i == c->cur)) continue;
		const tui_roofline_point *p = &c->pts[i];
		int n = (int)strlen(p->label);
		double sy = sub_y(f, log10(p->p.gflops));
		if (sy < 0) sy = 0;
		if (sy > f->ph * 4 - 1) sy = f->ph * 4 - 1;
		int y0 = f->top + (int)lround(sy) / 4, x0 = f->px0 + (int)(sub_x(f, log10(p->p.intensity)) / 2);
		tui_roofline_role role = i == c->cur ? RC_CURRENT : p->baseline ? RC_BASE : RC_POINT;
		for (size_t t = 0; t < sizeof near / sizeof *near; t++) {
			int y = y0 + near[t][0], x = x0 + near[t][1];
			if (!free_span(g, f, y, x, n, taken)) continue;
			cellgrid_text(g, y, x, n, p->label, role);
			for (int j = 0; j < n; j++) taken[y * g->w + x + j] = 1;
			break;
		}
		if (i == c->cur) {          /* marked on both axes */
			cellgrid_put(g, f->top + f->ph, x0, gl->xmark, RC_CURRENT);
			cellgrid_put(g, y0, f->ax, gl->ymark, RC_CURRENT);
		}
	}
	free(taken);
}

/* Whether cells x..x+n-1 of row y are blank and in the plot. */
static int blank_span(const cellgrid *g, const frame *f, int y, int x, int n)
{
	if (y < f->top || y >= f->top + f->ph || x < f->px0 || x + n > f->px0 + f->pw) return 0;
	for (int i = 0; i < n; i++) if (g->role[y * g->w + x + i] != RC_BLANK) return 0;
	return 1;
}

/* The roofs' names on the chart, where there is room: the compute roof's under its right end, the
 * memory roof's beside it half way up. */
static void roof_labels(cellgrid *g, const tui_roofline *c, const frame *f)
{
	char t[32];
	int right = f->px0 + f->pw - 1, rx = f->px0 + (int)(sub_x(f, log10(c->roofs.ridge)) / 2);
	strfmt(t, sizeof t, "%s roof", c->roofs.compute_name);
	for (int y = f->top; y < f->top + f->ph; y++)
		if (g->role[y * g->w + right] == RC_ROOF) {
			int n = text_cols(t);
			if (blank_span(g, f, y + 1, right + 1 - n, n)) cellgrid_text(g, y + 1, right + 1 - n, n, t, RC_ROOF_LIGHT);
			break;
		}
	int top = -1, bottom = -1;
	for (int y = f->top; y < f->top + f->ph; y++)
		for (int x = f->px0; x < rx; x++)
			if (g->role[y * g->w + x] == RC_ROOF) {
				if (top < 0) top = y;
				bottom = y;
			}
	strfmt(t, sizeof t, "DRAM roof");
	for (int y = top < 0 ? f->top + f->ph : (top + bottom + 1) / 2; y <= bottom; y++) {
		int x = rx - 1;
		while (x >= f->px0 && g->role[y * g->w + x] != RC_ROOF) x--;
		if (x >= f->px0 && blank_span(g, f, y, x + 1, 11)) {
			cellgrid_text(g, y, x + 2, 9, t, RC_ROOF_LIGHT);
			return;
		}
	}
}

/* The first of the texts that fits n columns (the last one cut). */
static const char *fitting(const char *const *texts, int count, int n)
{
	for (int i = 0; i < count; i++) if (text_cols(texts[i]) <= n) return texts[i];
	return texts[count - 1];
}

static void legend(cellgrid *g, const tui_roofline *c, const frame *f, int y, int x, int w)
{
	const roofline_roofs *rf = &c->roofs;
	char bw[32], th[32], comp[32], ridge[32], v[5][320];
	fmt_gbps(bw, sizeof bw, rf->mem_gbps);
	fmt_gbps(th, sizeof th, rf->mem_theoretical_gbps);
	fmt_gflops(comp, sizeof comp, rf->compute_gflops);
	fmt_num(ridge, sizeof ridge, rf->ridge);
	const char *kind = rf->mem_is_theoretical ? "theoretical" : "attainable";
	int light = light_visible(c, f);
	strfmt(v[0], sizeof v[0], "roofs: DRAM %s %s%s%s%s, %s %s; ridge at %s flop/B", bw, kind, light ? " (" : "",
	       light ? th : "", light ? " theoretical, dotted)" : "", rf->compute_name, comp, ridge);
	strfmt(v[1], sizeof v[1], "roofs: DRAM %s %s, %s %s; ridge %s flop/B", bw, kind, rf->compute_name, comp, ridge);
	strfmt(v[2], sizeof v[2], "DRAM %s %s, %s %s; ridge %s flop/B", bw, kind, rf->compute_name, comp, ridge);
	strfmt(v[3], sizeof v[3], "DRAM %s, %s %s; ridge %s flop/B", bw, rf->compute_name, comp, ridge);
	strfmt(v[4], sizeof v[4], "DRAM %s, %s %s", bw, rf->compute_name, comp);
	const char *const texts[] = { v[0], v[1], v[2], v[3], v[4] };
	cellgrid_text(g, y, x, w, fitting(texts, 5, w), RC_TEXT);
}

/* "flop/B (DRAM bytes measured)": which bytes the points' intensities are of. */
static void x_title(const tui_roofline *c, char *buf, size_t n, int wide)
{
	int dram = 0, model = 0;
	for (int i = 0; i < c->n; i++) {
		if (c->pts[i].p.bytes_from == ROOF_BYTES_DRAM) dram++;
		else model++;
	}
	const char *which = dram && model ? "DRAM measured; model bytes where no counters" : model ? "model bytes, no counters"
	                  : wide ? "bytes from DRAM, measured" : "DRAM bytes";
	if (dram || model) strfmt(buf, n, "flop/B (%s)", which);
	else strfmt(buf, n, "flop/B");
}

/* The stages' names under the chart, as many lines as given (narrow screens). */
static int names_lines(cellgrid *g, const tui_roofline *c, int y, int x, int w, int lines, const tui_roofline_glyphs *gl)
{
	int row = 0, col = 0, used = 0;
	for (int i = 0; i < c->n; i++) {
		char item[64];
		strfmt(item, sizeof item, "%s %s", c->pts[i].label, c->pts[i].name);
		int n = text_cols(item) + (col ? 2 : 0);
		if (col + n > w) {
			if (++row >= lines) { cellgrid_text(g, y + row - 1, x + w - 1, 1, gl->ellipsis, RC_TEXT); break; }
			col = 0;
			n = text_cols(item);
		}
		int at = x + col + (col ? 2 : 0);
		int ln = (int)strlen(c->pts[i].label);
		cellgrid_text(g, y + row, at, ln, c->pts[i].label, i == c->cur ? RC_CURRENT : c->pts[i].baseline ? RC_BASE : RC_POINT);
		cellgrid_text(g, y + row, at + ln + 1, w - (at - x) - ln - 1, c->pts[i].name, RC_TEXT);
		col += n;
		used = row + 1;
	}
	return used;
}

/* How many lines the names need at width w. */
static int names_need(const tui_roofline *c, int w)
{
	int rows = c->n ? 1 : 0, col = 0;
	for (int i = 0; i < c->n; i++) {
		char item[64];
		strfmt(item, sizeof item, "%s %s", c->pts[i].label, c->pts[i].name);
		int n = text_cols(item) + (col ? 2 : 0);
		if (col + n > w) { rows++; col = text_cols(item); }
		else col += n;
	}
	return rows;
}

/* The table beside the chart (wide screens): one row per point. */
static void table(cellgrid *g, const tui_roofline *c, int y, int x, int w, int h, const tui_roofline_glyphs *gl)
{
	char line[160];
	strfmt(line, sizeof line, "  %-13s %9s %8s %-8s %5s", "stage", "GFLOP/s", "flop/B", "bound", "roof");
	cellgrid_text(g, y, x, w, line, RC_TEXT);
	for (int i = 0; i < c->n && i + 1 < h; i++) {
		const tui_roofline_point *p = &c->pts[i];
		char gf[32], ai[32], pct[16], name[16];
		fmt_num(gf, sizeof gf, p->p.gflops);
		fmt_num(ai, sizeof ai, p->p.intensity);
		fmt_pct(pct, sizeof pct, p->p.frac);
		strfmt(name, sizeof name, "%.13s", p->name);
		int cur = i == c->cur;
		tui_roofline_role role = cur ? RC_CURRENT : p->baseline ? RC_BASE : RC_POINT;
		if (cur) cellgrid_put(g, y + 1 + i, x, gl->ymark, RC_CURRENT);
		cellgrid_text(g, y + 1 + i, x + 1, 2, p->label, role);
		strfmt(line, sizeof line, "%-13s %9s %8s %-8s %5s%s", name, gf, ai, roofline_bound_name(p->p.bound), pct,
		       p->p.bytes_from == ROOF_BYTES_MODEL ? " model" : "");
		cellgrid_text(g, y + 1 + i, x + 3, w - 3, line, cur ? RC_SUMMARY : RC_TEXT);
	}
}

void tui_roofline_render(const tui_roofline *c, int w, int h, int utf8, cellgrid *g)
{
	const tui_roofline_glyphs *gl = utf8 ? &utf8_glyphs : &ascii_glyphs;
	cellgrid_init(g, w, h);
	if (w < 1 || h < 1) return;
	char sum[4][320];
	for (int i = 0; i < 4; i++)   /* the name and which bytes; then which bytes (the names are listed above) */
		tui_roofline_summary(c, (i % 2 ? 0 : TUI_ROOFLINE_NAME) | (i < 2 ? TUI_ROOFLINE_BYTES : 0), sum[i], sizeof sum[i]);
	const char *const sums[] = { sum[0], sum[1], sum[2], sum[3] };
	const char *pick = fitting(sums, 4, w);
	if (!c->have_roofs) {                       /* no chart: the reason, wrapped */
		cellgrid_text(g, 0, 0, w, "No roofline:", RC_TEXT);
		wrap_text(g, 1, w, c->no_roofs, RC_SUMMARY);
		return;
	}
	if (w < 40 || h < 10) {                     /* no room for a chart: the summary alone */
		cellgrid_text(g, 0, 0, w, pick, RC_SUMMARY);
		return;
	}
	int wide = w >= 130;
	int tw = wide ? 56 : 0;                          /* the table beside */
	int sum_lines = h >= 30 ? 2 : 1;
	int names = wide ? 0 : names_need(c, w);
	if (names > 2) names = 2;
	frame f;
	ranges(c, &f);
	/* the y labels' width */
	int lw = 1;
	for (int k = (int)floor(f.ylo); k <= (int)floor(f.yhi); k++) {
		char t[16];
		tick_text(t, sizeof t, 3, k);
		if ((int)strlen(t) > lw) lw = (int)strlen(t);
	}
	f.ax = lw;
	f.px0 = lw + 1;
	f.pw = w - f.px0 - (tw ? tw + 2 : 1);
	f.top = 1;
	f.ph = h - 1 - 2 - names - sum_lines;
	if (f.ph < 4 && names) { f.ph += names; names = 0; }
	if (f.ph < 4 || f.pw < 10) {
		cellgrid_text(g, 0, 0, w, pick, RC_SUMMARY);
		return;
	}
	cellgrid_text(g, 0, 0, w, "GFLOP/s", RC_TEXT);
	legend(g, c, &f, 0, 9, w - 9);
	char xt[96];
	x_title(c, xt, sizeof xt, wide);
	int model = c->cur >= 0 ? c->pts[c->cur].p.bytes_from == ROOF_BYTES_MODEL : c->n && c->pts[0].p.bytes_from == ROOF_BYTES_MODEL;
	const char *const titles[] = { xt, model ? "flop/model B" : "flop/DRAM B", "flop/B" };
	draw_roofs(g, c, &f, gl, utf8);
	draw_axes(g, &f, gl, titles, 3);
	draw_points(g, c, &f, gl);
	roof_labels(g, c, &f);
	int y = f.top + f.ph + 2;
	if (names) y += names_lines(g, c, y, 0, w, names, gl);
	cellgrid_text(g, y, 0, w, pick, RC_SUMMARY);
	if (sum_lines > 1 && c->cur >= 0) {
		const tui_roofline_point *p = &c->pts[c->cur];
		char detail[320], bytes[32], roof[32];
		fmt_gflops(roof, sizeof roof, p->p.roof_gflops);
		fmt_traffic(bytes, sizeof bytes, p->p.bytes);
		strfmt(detail, sizeof detail, "  roof there %s (%s); intensity over %s %s", roof,
		       p->p.bound == ROOF_MEMORY ? "DRAM bandwidth x intensity" : c->roofs.compute_name, bytes,
		       p->p.bytes_from == ROOF_BYTES_DRAM ? "of DRAM traffic the counters measured" : "of the lesson's model (no counters)");
		cellgrid_text(g, y + 1, 0, w, detail, RC_TEXT);
	}
	if (tw) table(g, c, f.top, w - tw, tw, f.ph, gl);
}

void tui_roofline_print(FILE *f, const tui_roofline *c, int w, int h, int utf8)
{
	cellgrid g;
	tui_roofline_render(c, w, h, utf8, &g);
	char **lines = xcalloc((size_t)g.h + 1, sizeof *lines);
	int last = -1;
	for (int y = 0; y < g.h; y++) {
		lines[y] = cellgrid_line(&g, y);
		if (lines[y][0]) last = y;
	}
	for (int y = 0; y < g.h; y++) {
		if (y <= last) { fputs(lines[y], f); fputc('\n', f); }
		free(lines[y]);
	}
	free(lines);
	cellgrid_free(&g);
}
