/* Tests for tui/tui_roofline.c: the chart rendered into a grid (no curses) from the recorded H100
 * runs: it fits the size it is given, the points sit where their numbers put them on the log axes
 * (left or right of the ridge, under the roof line of their column, in the order of their GFLOP/s),
 * the current stage is highlighted and marked on both axes, the summary line says the numbers, ASCII
 * is ASCII, and a wide screen gets the table and the theoretical roof. Run from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include "roofline_fixture.h"
#include "tui_roofline.h"

/* The chart the stage view draws: stage i labelled i + 1, the baseline B after them; current is
 * the stage to highlight. */
static void chart(const recorded *r, const char *current, tui_roofline *c)
{
	char label[16], why[256], cur_why[256] = "not run yet";
	int cur = -1, ci = lesson_stage_index(r->l, current);
	tui_roofline_init(c, &r->roofs, NULL);
	for (int s = 0; s < r->l->nstages; s++) {
		snprintf(label, sizeof label, "%d", s + 1);
		if (!r->have[s]) continue;
		if (tui_roofline_add(c, label, r->l->stages[s].id, 0, &r->st[s], why, sizeof why) == 0) {
			if (s == ci) cur = c->n - 1;
		} else if (s == ci) {
			snprintf(cur_why, sizeof cur_why, "%s", why);
		}
	}
	if (r->have_base) tui_roofline_add(c, "B", "cublasSgemm", 1, &r->base, why, sizeof why);
	snprintf(label, sizeof label, "%d", ci + 1);
	tui_roofline_current(c, label, current, cur, cur_why);
}

static const char *cell(const cellgrid *g, int y, int x) { return g->cell[y * g->w + x]; }
static int role(const cellgrid *g, int y, int x) { return g->role[y * g->w + x]; }

/* Columns the chart's plot may use: on wide grids the table of points takes the last 56. */
static int plot_cols(const cellgrid *g) { return g->w >= 130 ? g->w - 56 : g->w; }

/* The cell showing text (a point's label) in a role in the plot, or -1 (*x, *y). */
static int find(const cellgrid *g, const char *text, int want_role, int *y, int *x)
{
	for (*y = 0; *y < g->h; (*y)++)
		for (*x = 0; *x < plot_cols(g); (*x)++)
			if (!strcmp(cell(g, *y, *x), text) && (want_role < 0 || role(g, *y, *x) == want_role)) return 0;
	return -1;
}

/* A point's cell: its label in a point's role. */
static void point(const cellgrid *g, const char *label, int *y, int *x)
{
	if (find(g, label, RC_POINT, y, x) && find(g, label, RC_CURRENT, y, x) && find(g, label, RC_BASE, y, x))
		fail_msg("no point %s on the chart", label);
}

/* The column of the ridge (its dotted line), or -1. */
static int ridge_col(const cellgrid *g, const char *glyph)
{
	for (int x = 0; x < g->w; x++)
		for (int y = 0; y < g->h; y++)
			if (!strcmp(cell(g, y, x), glyph) && role(g, y, x) == RC_ROOF_LIGHT) return x;
	return -1;
}

/* The topmost roof row in column x (the roof line), or -1. */
static int roof_row(const cellgrid *g, int x)
{
	for (int y = 0; y < g->h; y++) if (role(g, y, x) == RC_ROOF) return y;
	return -1;
}

/* Columns of a line of UTF-8 text (every glyph here is one column). */
static int cols(const char *s)
{
	int n = 0;
	for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* A braille glyph (U+2800..U+28FF: the lines' dots). */
static int braille(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	return u[0] == 0xE2 && u[1] >= 0xA0 && u[1] <= 0xA3;
}

static char *line_with(const cellgrid *g, const char *text)
{
	for (int y = 0; y < g->h; y++) {
		char *l = cellgrid_line(g, y);
		if (strstr(l, text)) return l;
		free(l);
	}
	return NULL;
}

static void shows(const cellgrid *g, const char *text)
{
	char *l = line_with(g, text);
	if (!l) {
		for (int y = 0; y < g->h; y++) { char *k = cellgrid_line(g, y); fprintf(stderr, "%s\n", k); free(k); }
		fail_msg("the chart lacks '%s'", text);
	}
	free(l);
}

/* SGEMM at the stage view's 80x24 (the chart gets 78x20): everything in its place. */
static void test_sgemm_80x24(void **state)
{
	(void)state;
	recorded r;
	tui_roofline c;
	cellgrid g;
	assert_int_equal(recorded_load("sgemm", &r), 0);
	chart(&r, "warptile", &c);
	assert_int_equal(c.n, 10);
	tui_roofline_render(&c, 78, 20, 1, &g);
	assert_int_equal(g.w, 78);
	assert_int_equal(g.h, 20);
	for (int y = 0; y < g.h; y++) {
		char *l = cellgrid_line(&g, y);
		assert_true(cols(l) <= 78);
		free(l);
	}
	shows(&g, "DRAM 2994 GB/s attainable, FP32 66.9 TFLOP/s; ridge 22.3 flop/B");
	shows(&g, "GFLOP/s");
	/* with the stage's name it would not fit 78 columns; the names are listed above it */
	shows(&g, "stage 9: 46.8 TFLOP/s at 331 flop/B (DRAM), bound by compute, 70% of the roof");
	shows(&g, "flop/B (DRAM bytes)");
	shows(&g, "9 warptile  B cublasSgemm");
	int ry, rx = ridge_col(&g, "\u250a"), y9, x9, y1, x1, y3, x3, y4, x4, y2, x2, yb, xb, y6, x6;
	assert_true(rx > 0);
	point(&g, "9", &y9, &x9);
	point(&g, "1", &y1, &x1);
	point(&g, "2", &y2, &x2);
	point(&g, "3", &y3, &x3);
	point(&g, "4", &y4, &x4);
	point(&g, "6", &y6, &x6);
	point(&g, "B", &yb, &xb);
	assert_int_equal(role(&g, y9, x9), RC_CURRENT);             /* highlighted, the others not */
	assert_int_equal(role(&g, y1, x1), RC_POINT);
	assert_int_equal(role(&g, yb, xb), RC_BASE);
	/* the ridge at 22.3 flop/B: naive and smem (16 flop/B of DRAM) left, the others right */
	assert_true(x1 < rx && x3 < rx);
	assert_true(x2 > rx && x4 > rx && x9 > rx && xb > rx);
	/* log x: blocktile1d (102 flop/B) at the tick of 100; warptile (331) near 300, 3.3x further */
	int ay = -1;
	for (int y = 0; y < g.h && ay < 0; y++) if (!strcmp(cell(&g, y, 0), " ") && !strcmp(cell(&g, y, 3), "\u2514")) ay = y;
	assert_true(ay > 0);
	int t100 = -1;
	char *ticks = cellgrid_line(&g, ay + 1);
	char *at = strstr(ticks, "100");
	assert_non_null(at);
	t100 = (int)(at - ticks) + 1;                                  /* the label is centred on its tick */
	assert_string_equal(cell(&g, ay, t100), "\u2534");
	free(ticks);
	assert_true(abs(x4 - t100) <= 1);
	/* log y: higher GFLOP/s higher up; naive (498) far below smem (8911) */
	assert_true(y9 <= y6 && y6 < y4 && y4 < y2 && y2 < y1);
	assert_true(y3 < y1 - 5);
	/* no point above the roof line of its column */
	const char *labels[] = { "1", "2", "3", "4", "5", "6", "7", "8", "9", "B" };
	for (size_t i = 0; i < 10; i++) {
		int py, px;
		point(&g, labels[i], &py, &px);
		ry = roof_row(&g, px);
		if (ry < 0 || ry > py) fail_msg("point %s at row %d, its column's roof at row %d", labels[i], py, ry);
	}
	/* the current stage marked on both axes */
	assert_string_equal(cell(&g, ay, x9), "\u25b4");
	assert_string_equal(cell(&g, y9, 3), "\u25b8");
	assert_int_equal(role(&g, ay, x9), RC_CURRENT);
	cellgrid_free(&g);

	/* another stage current: naive, memory-bound, 1% of the roof; 9 is an ordinary point again */
	chart(&r, "naive", &c);
	tui_roofline_render(&c, 78, 20, 1, &g);
	shows(&g, "stage 1: 498 GFLOP/s at 16.1 flop/B (DRAM), bound by memory, 1.0% of the roof");
	point(&g, "9", &y9, &x9);
	assert_int_equal(role(&g, y9, x9), RC_POINT);
	point(&g, "1", &y1, &x1);
	assert_int_equal(role(&g, y1, x1), RC_CURRENT);
	cellgrid_free(&g);
	recorded_free(&r);
}

/* The same in ASCII: nothing but ASCII, the roofs as / and -, the ridge as :. */
static void test_ascii(void **state)
{
	(void)state;
	recorded r;
	tui_roofline c;
	cellgrid g;
	assert_int_equal(recorded_load("sgemm", &r), 0);
	chart(&r, "warptile", &c);
	tui_roofline_render(&c, 78, 20, 0, &g);
	int slash = 0, dash = 0;
	for (int i = 0; i < g.w * g.h; i++) {
		for (const unsigned char *p = (const unsigned char *)g.cell[i]; *p; p++) assert_true(*p < 0x80);
		if (g.role[i] == RC_ROOF) {
			slash += !strcmp(g.cell[i], "/");
			dash += !strcmp(g.cell[i], "-");
		}
	}
	assert_true(slash >= 5 && dash >= 30);
	assert_true(ridge_col(&g, ":") > 0);
	int y9, x9;
	point(&g, "9", &y9, &x9);
	assert_string_equal(cell(&g, y9, 3), ">");
	shows(&g, "stage 9: 46.8 TFLOP/s");
	cellgrid_free(&g);
	recorded_free(&r);
}

/* 200x60: the table of every point beside the chart, the theoretical roof dotted, a second summary
 * line, and more rows between the points. */
static void test_wide(void **state)
{
	(void)state;
	recorded r;
	tui_roofline c;
	cellgrid g, small;
	assert_int_equal(recorded_load("sgemm", &r), 0);
	chart(&r, "warptile", &c);
	tui_roofline_render(&c, 198, 56, 1, &g);
	tui_roofline_render(&c, 78, 20, 1, &small);
	shows(&g, "roofs: DRAM 2994 GB/s attainable (3352 GB/s theoretical, dotted), FP32 66.9 TFLOP/s; ridge at 22.3 flop/B");
	char *l = line_with(&g, "warptile          46.8k      331 compute    70%");
	assert_non_null(l);
	free(l);
	shows(&g, "naive               498     16.1 memory    1.0%");
	shows(&g, "intensity over 415 MB of DRAM traffic the counters measured");
	int light = 0, light_small = 0;
	for (int i = 0; i < g.w * g.h; i++) light += g.role[i] == RC_ROOF_LIGHT && braille(g.cell[i]);
	for (int i = 0; i < small.w * small.h; i++) light_small += small.role[i] == RC_ROOF_LIGHT && braille(small.cell[i]);
	assert_true(light >= 5);            /* braille dots of the theoretical roof */
	assert_int_equal(light_small, 0);   /* at 80 columns it would merge with the attainable one */
	int y1, x1, y9, x9, s1, t1, s9, t9;
	point(&g, "1", &y1, &x1);
	point(&g, "9", &y9, &x9);
	point(&small, "1", &s1, &t1);
	point(&small, "9", &s9, &t9);
	assert_true(y1 - y9 > 2 * (s1 - s9));
	cellgrid_free(&g);
	cellgrid_free(&small);
	recorded_free(&r);
}

/* Tensor cores: the BF16 tensor roof; WMMA from global memory left of its ridge, wgmma_ws right. */
static void test_tensorcore(void **state)
{
	(void)state;
	recorded r;
	tui_roofline c;
	cellgrid g;
	assert_int_equal(recorded_load("tensorcore", &r), 0);
	chart(&r, "wgmma_ws", &c);
	tui_roofline_render(&c, 78, 20, 1, &g);
	shows(&g, "BF16 tensor 1071 TFLOP/s; ridge 358 flop/B");
	shows(&g, "stage 5: 693 TFLOP/s at 698 flop/B (DRAM), bound by compute, 65% of the roof");
	int rx = ridge_col(&g, "\u250a"), y1, x1, y5, x5;
	point(&g, "1", &y1, &x1);
	point(&g, "5", &y5, &x5);
	assert_true(x1 < rx && rx < x5);
	assert_true(roof_row(&g, x5) <= y5);
	cellgrid_free(&g);
	recorded_free(&r);
}

/* SAXPY: every point far left, on the memory roof. */
static void test_bandwidth(void **state)
{
	(void)state;
	recorded r;
	tui_roofline c;
	cellgrid g;
	assert_int_equal(recorded_load("bandwidth", &r), 0);
	chart(&r, "vectorized", &c);
	assert_int_equal(c.n, 4);                               /* cudaMemcpy counts no flops */
	tui_roofline_render(&c, 78, 20, 1, &g);
	shows(&g, "stage 4: 500 GFLOP/s at 0.167 flop/B (DRAM), bound by memory, 100% of the roof");
	int rx = ridge_col(&g, "\u250a");
	const char *labels[] = { "1", "2", "3", "4" };
	for (size_t i = 0; i < 4; i++) {
		int y, x;
		point(&g, labels[i], &y, &x);
		assert_true(x < rx - 20);
		int ry = roof_row(&g, x - 1), rn = roof_row(&g, x + 1);   /* on the roof (beside the label): within a row */
		if (rn >= 0 && (ry < 0 || abs(rn - y) < abs(ry - y))) ry = rn;
		if (ry < 0 || abs(y - ry) > 1) fail_msg("point %s at row %d, the roof at %d", labels[i], y, ry);
	}
	cellgrid_free(&g);
	recorded_free(&r);
}

/* No roofs, no point for the current stage, a screen too small for a chart. */
static void test_without_a_chart(void **state)
{
	(void)state;
	tui_roofline c;
	cellgrid g;
	tui_roofline_init(&c, NULL, "no GPU, so no peaks to draw the roofs from (no CUDA driver)");
	tui_roofline_current(&c, "2", "coalesced", -1, NULL);
	tui_roofline_render(&c, 78, 20, 1, &g);
	char *l = cellgrid_line(&g, 0);
	assert_string_equal(l, "No roofline:");
	free(l);
	l = cellgrid_line(&g, 1);
	assert_string_equal(l, "no GPU, so no peaks to draw the roofs from (no CUDA driver)");
	free(l);
	cellgrid_free(&g);

	recorded r;
	assert_int_equal(recorded_load("reduction", &r), 0);
	chart(&r, "shuffle", &c);
	assert_int_equal(c.n, 0);
	tui_roofline_render(&c, 78, 20, 1, &g);
	shows(&g, "stage 8: no flops in the lesson's model, so no point (it is scored in GB/s)");
	shows(&g, "DRAM 2994 GB/s attainable, FP32 66.9 TFLOP/s");   /* the roofs are still drawn */
	cellgrid_free(&g);
	recorded_free(&r);

	assert_int_equal(recorded_load("sgemm", &r), 0);
	chart(&r, "warptile", &c);
	tui_roofline_current(&c, "3", "smem", -1, "not run yet: r runs it");
	tui_roofline_render(&c, 78, 20, 1, &g);
	shows(&g, "stage 3 smem: not run yet: r runs it");
	int y, x;
	assert_int_equal(find(&g, "3", RC_CURRENT, &y, &x), -1);  /* nothing highlighted */
	cellgrid_free(&g);
	tui_roofline_current(&c, "9", "warptile", lesson_stage_index(r.l, "warptile"), NULL);
	tui_roofline_render(&c, 30, 8, 1, &g);                       /* too small for a chart: the summary */
	l = cellgrid_line(&g, 0);
	assert_non_null(strstr(l, "stage 9: 46.8 TFLOP/s"));
	free(l);
	for (int i = g.w; i < g.w * g.h; i++) assert_int_equal(g.role[i], RC_BLANK);
	cellgrid_free(&g);
	recorded_free(&r);
}

/* tui_roofline_print: the lines, trailing blank ones left out. */
static void test_print(void **state)
{
	(void)state;
	recorded r;
	tui_roofline c;
	assert_int_equal(recorded_load("sgemm", &r), 0);
	chart(&r, "warptile", &c);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	tui_roofline_print(f, &c, 80, 22, 1);
	fclose(f);
	int lines = 0;
	for (char *p = buf; *p; p++) lines += *p == '\n';
	assert_int_equal(lines, 22);
	assert_non_null(strstr(buf, "GFLOP/s  roofs: DRAM 2994"));
	assert_non_null(strstr(buf, "70% of the roof\n"));
	free(buf);
	recorded_free(&r);
}

/* Every size from tiny to wide renders inside its grid (ASan watches the edges); from 40x10 there
 * is a chart with its summary line, below only the summary. */
static void test_every_size(void **state)
{
	(void)state;
	static const int ws[] = { 1, 2, 10, 39, 40, 41, 60, 78, 79, 80, 129, 130, 131, 198, 250 };
	static const int hs[] = { 1, 2, 5, 9, 10, 11, 15, 20, 22, 24, 29, 30, 56, 70 };
	recorded r;
	tui_roofline c;
	assert_int_equal(recorded_load("tensorcore", &r), 0);
	chart(&r, "wgmma_tma", &c);
	for (size_t i = 0; i < sizeof ws / sizeof *ws; i++)
		for (size_t j = 0; j < sizeof hs / sizeof *hs; j++)
			for (int utf8 = 0; utf8 < 2; utf8++) {
				cellgrid g;
				tui_roofline_render(&c, ws[i], hs[j], utf8, &g);
				assert_int_equal(g.w, ws[i]);
				assert_int_equal(g.h, hs[j]);
				int axis = 0, summary = 0;
				for (int y = 0; y < g.h; y++) {
					char *l = cellgrid_line(&g, y);
					assert_true(cols(l) <= ws[i]);
					summary |= strncmp(l, "stage 4", 7) == 0;
					axis |= strstr(l, utf8 ? "\u2514" : "+--") != NULL;
					free(l);
				}
				assert_true(summary || ws[i] < 7);
				if (axis != (ws[i] >= 40 && hs[j] >= 10)) fail_msg("%dx%d: axis %d", ws[i], hs[j], axis);
				cellgrid_free(&g);
			}
	recorded_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sgemm_80x24),
		cmocka_unit_test(test_ascii),
		cmocka_unit_test(test_wide),
		cmocka_unit_test(test_tensorcore),
		cmocka_unit_test(test_bandwidth),
		cmocka_unit_test(test_without_a_chart),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_every_size),
	};
	return cmocka_run_group_tests(tests, recorded_setup, recorded_teardown);
}
