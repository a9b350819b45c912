/* Tests for src/render/timeline.c: the kinds of steps, the overlaps measured from their times, the
 * bound and which resource sets it (with and without the device's copy bandwidths), and the chart:
 * a row per stream with each step where its times put it, narrow steps still one cell, the overlap
 * row under the cells where copies and kernels run at once, the axis, the summary; 80 columns and
 * less, short heights, 100+ steps, no times, ASCII that is ASCII; the steps list and its scrolling;
 * the synthetic recording of tests/fixtures/timeline. Run from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include "replay.h"
#include "timeline.h"
#include "timeline_fixture.h"

/* got within tol of want (cmocka's float check is for floats). */
#define assert_double_equal(got, want, tol) near_check((got), (want), (tol), __LINE__)
static void near_check(double got, double want, double tol, int line)
{
	if (!(fabs(got - want) <= tol)) fail_msg("line %d: %.12g is not %.12g (within %g)", line, got, want, tol);
}

static const char *cell(const cellgrid *g, int y, int x) { return g->cell[y * g->w + x]; }
static int role(const cellgrid *g, int y, int x) { return g->role[y * g->w + x]; }

static void dump(const cellgrid *g)
{
	for (int y = 0; y < g->h; y++) {
		char *l = cellgrid_line(g, y);
		fprintf(stderr, "|%s|\n", l);
		free(l);
	}
}

/* The row whose text starts with prefix, or -1. */
static int row_starting(const cellgrid *g, const char *prefix)
{
	for (int y = 0; y < g->h; y++) {
		char *l = cellgrid_line(g, y);
		int hit = !strncmp(l, prefix, strlen(prefix));
		free(l);
		if (hit) return y;
	}
	return -1;
}

static int shows(const cellgrid *g, const char *text)
{
	for (int y = 0; y < g->h; y++) {
		char *l = cellgrid_line(g, y);
		int hit = strstr(l, text) != NULL;
		free(l);
		if (hit) return 1;
	}
	return 0;
}

static void expect_shows(const cellgrid *g, const char *text)
{
	if (!shows(g, text)) { dump(g); fail_msg("the chart lacks '%s'", text); }
}

/* Columns of a line of UTF-8 text (every glyph here is one column). */
static int cols(const char *s)
{
	int n = 0;
	for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* Runs of cells in row y with role r (a span drawn is one run, unless two of a kind touch). */
static int runs(const cellgrid *g, int y, int r)
{
	int n = 0;
	for (int x = 0; x < g->w; x++) if (role(g, y, x) == r && (x == 0 || role(g, y, x - 1) != r)) n++;
	return n;
}

static int count_role(const cellgrid *g, int y, int r)
{
	int n = 0;
	for (int x = 0; x < g->w; x++) n += role(g, y, x) == r;
	return n;
}

/* Two streams, each copy in, kernel, copy out, the second a chunk behind:
 *   s1: h2d [0, 2)  kernel [2, 3)  d2h [3, 5)
 *   s2: h2d [2, 4)  kernel [4, 5)  d2h [5, 7)
 * copy and kernel at once: [2, 3) and [4, 5), 2 of 7 ms; h2d and d2h at once: [3, 4). */
static void two_streams(run_result *r)
{
	fx_run(r, "pipe", 7.7);
	fx_step(r, "copy", "h_x>d_x", 1, "h2d", 1000000000, 0, 2);
	fx_step(r, "launch", "work", 1, "", 0, 2, 3);
	fx_step(r, "copy", "d_x>h_y", 1, "d2h", 1000000000, 3, 5);
	fx_step(r, "copy", "h_x>d_x", 2, "h2d", 1000000000, 2, 4);
	fx_step(r, "launch", "work", 2, "", 0, 4, 5);
	fx_step(r, "copy", "d_x>h_y", 2, "d2h", 1000000000, 5, 7);
	r->h2d_bytes = r->d2h_bytes = 2e9;
	r->kernel_ms = 2;
	r->bound_ms = 4;                     /* 2 GB at 500 GB/s each way */
}

static void test_kinds(void **state)
{
	(void)state;
	run_result r;
	fx_run(&r, "k", 1);
	fx_step(&r, "copy", "a>b", 0, "h2d", 4, 0, 1);
	fx_step(&r, "copy", "b>a", 0, "d2h", 4, 1, 2);
	fx_step(&r, "copy", "b>c", 0, "d2d", 4, 2, 3);
	fx_step(&r, "copy", "b>c", 0, "", 4, 3, 4);
	fx_step(&r, "memset", "acc", 0, "", 4, 4, 5);
	fx_step(&r, "launch", "k", 0, "", 0, 5, 6);
	timeline_kind want[] = { TL_H2D, TL_D2H, TL_D2D, TL_D2D, TL_MEMSET, TL_KERNEL };
	for (int i = 0; i < 6; i++) assert_int_equal(timeline_kind_of(&r.steps[i]), want[i]);
	assert_string_equal(timeline_kind_name(TL_KERNEL), "kernel");
	assert_string_equal(timeline_kind_name(TL_D2H), "d2h");
	assert_int_equal(timeline_role_of(TL_H2D), TLR_H2D);
	assert_int_equal(timeline_role_of(TL_MEMSET), TLR_MEMSET);
}

static void test_stats(void **state)
{
	(void)state;
	run_result r;
	timeline_stats s;
	two_streams(&r);
	timeline_stats_of(&r, &s);
	assert_int_equal(s.nsteps, 6);
	assert_int_equal(s.ntimed, 6);
	assert_int_equal(s.nstreams, 2);
	assert_int_equal(s.streams[0], 1);
	assert_int_equal(s.streams[1], 2);
	assert_int_equal(s.count[TL_H2D], 2);
	assert_int_equal(s.count[TL_KERNEL], 2);
	assert_double_equal(s.span_ms, 7, 1e-12);
	assert_double_equal(s.busy_ms[TL_H2D], 4, 1e-12);
	assert_double_equal(s.overlap_ms, 2, 1e-12);
	assert_double_equal(s.overlap_frac, 2.0 / 7, 1e-12);
	assert_double_equal(s.copies_ms, 1, 1e-12);
	/* one stream, one after another: nothing at once; an untimed step is left out */
	fx_run(&r, "serial", 3);
	fx_step(&r, "copy", "h>d", 0, "h2d", 8, 0, 1);
	fx_step(&r, "launch", "k", 0, "", 0, 1, 2);
	fx_step(&r, "copy", "d>h", 0, "d2h", 8, 2, 3);
	fx_step(&r, "launch", "late", 0, "", 0, -1, -1);
	timeline_stats_of(&r, &s);
	assert_int_equal(s.nsteps, 4);
	assert_int_equal(s.ntimed, 3);
	assert_int_equal(s.nstreams, 1);
	assert_double_equal(s.overlap_ms, 0, 0);
	assert_double_equal(s.copies_ms, 0, 0);
	/* streams in any order come out ascending; a kernel under two copies counts once */
	fx_run(&r, "x", 3);
	fx_step(&r, "launch", "k", 3, "", 0, 0, 10);
	fx_step(&r, "copy", "h>d", 1, "h2d", 8, 1, 4);
	fx_step(&r, "copy", "d>h", 2, "d2h", 8, 2, 6);
	fx_step(&r, "copy", "d>d", 4, "d2d", 8, 7, 9);   /* a device copy is no host copy */
	timeline_stats_of(&r, &s);
	assert_int_equal(s.nstreams, 4);
	assert_int_equal(s.streams[0], 1);
	assert_int_equal(s.streams[3], 4);
	assert_double_equal(s.overlap_ms, 5, 1e-12);    /* [1, 6) */
	assert_double_equal(s.copies_ms, 2, 1e-12);     /* [2, 4) */
	/* record: and wait: steps are points in a stream's order: listed, neither drawn nor counted (a
	 * wait's span, the time its stream was held, would read as a kernel) */
	fx_run(&r, "events", 3);
	fx_step(&r, "launch", "produce", 1, "", 0, 0, 4);
	fx_step(&r, "record", "done", 1, "", 0, 4, 4);
	fx_step(&r, "wait", "done", 2, "", 0, 0, 4);
	fx_step(&r, "launch", "consume", 2, "", 0, 4, 6);
	timeline_stats_of(&r, &s);
	assert_int_equal(s.nsteps, 4);
	assert_int_equal(s.ntimed, 2);
	assert_int_equal(s.count[TL_KERNEL], 2);
	assert_double_equal(s.busy_ms[TL_KERNEL], 6, 1e-12);
	device_info d;
	cellgrid g;
	fx_device(&d, 52, 50);
	timeline_render(&r, &d, 80, timeline_height(&r, &d, 80) + 8, TIMELINE_UTF8 | TIMELINE_STEPS, 0, &g);
	expect_shows(&g, "  3   wait   done");
	expect_shows(&g, "  2   record done");
	cellgrid_free(&g);
}

static void test_bound(void **state)
{
	(void)state;
	run_result r;
	device_info d;
	timeline_bound b;
	char t[256];
	fx_run(&r, "b", 22);
	r.h2d_bytes = 1e9;
	r.d2h_bytes = 5e8;
	r.kernel_ms = 3;
	r.bound_ms = 20;
	fx_device(&d, 50, 40);                /* h2d 20 ms, d2h 12.5 ms */
	assert_int_equal(timeline_bound_of(&r, &d, &b), 0);
	assert_int_equal(b.by, TL_BY_H2D);
	assert_double_equal(b.h2d_ms, 20, 1e-9);
	assert_double_equal(b.d2h_ms, 12.5, 1e-9);
	assert_double_equal(b.ratio, 1.1, 1e-12);
	timeline_bound_text(&b, t, sizeof t);
	assert_string_equal(t, "bound 20.0 ms (h2d 1.00 GB at 50.0 GB/s); 1.10x the bound");
	/* the way out slower: d2h sets it */
	fx_device(&d, 50, 20);
	r.bound_ms = 25;
	assert_int_equal(timeline_bound_of(&r, &d, &b), 0);
	assert_int_equal(b.by, TL_BY_D2H);
	timeline_bound_text(&b, t, sizeof t);
	assert_string_equal(t, "bound 25.0 ms (d2h 500 MB at 20.0 GB/s); 0.88x the bound");
	/* the kernels longer than either copy */
	r.kernel_ms = r.bound_ms = 40;
	assert_int_equal(timeline_bound_of(&r, &d, &b), 0);
	assert_int_equal(b.by, TL_BY_KERNELS);
	timeline_bound_text(&b, t, sizeof t);
	assert_string_equal(t, "bound 40.0 ms (the kernels alone, without the copies); 0.55x the bound");
	/* no calibration on the device (an older recording): the direction with more bytes, its rate
	 * from the bound */
	r.kernel_ms = 3;
	r.bound_ms = 20;
	assert_int_equal(timeline_bound_of(&r, NULL, &b), 0);
	assert_int_equal(b.by, TL_BY_H2D);
	assert_double_equal(b.gbps, 50, 1e-9);
	assert_double_equal(b.h2d_ms, -1, 0);
	fx_device(&d, 0, 0);
	r.kernel_ms = 20;
	assert_int_equal(timeline_bound_of(&r, &d, &b), 0);
	assert_int_equal(b.by, TL_BY_KERNELS);
	/* not timed: no ratio */
	r.reps = 0;
	assert_int_equal(timeline_bound_of(&r, &d, &b), 0);
	timeline_bound_text(&b, t, sizeof t);
	assert_string_equal(t, "bound 20.0 ms (the kernels alone, without the copies)");
	/* a stage that copies nothing has none */
	fx_run(&r, "plain", 1);
	assert_int_equal(timeline_bound_of(&r, &d, &b), -1);
	r.bound_ms = NAN;
	assert_int_equal(timeline_bound_of(&r, &d, &b), -1);
}

/* The cell of time t (ms) in a chart at w columns over span ms, labels lw wide. */
static int col_of(double t, double span, int w, int lw)
{
	int pw = w - lw - 2;
	return lw + (int)(t / (span / pw));
}

static void test_chart_two_streams(void **state)
{
	(void)state;
	run_result r;
	device_info d;
	cellgrid g;
	two_streams(&r);
	fx_device(&d, 500, 500);
	int h = timeline_height(&r, &d, 80);
	/* two streams, the overlap row, the axis and its labels, the legend, the summary (2 + 1 rows) */
	assert_int_equal(h, 2 + 1 + 2 + 1 + 3);
	timeline_render(&r, &d, 80, h, TIMELINE_UTF8, 0, &g);
	for (int y = 0; y < g.h; y++) {
		char *l = cellgrid_line(&g, y);
		assert_true(cols(l) <= 80);
		free(l);
	}
	int s1 = row_starting(&g, "s1 "), s2 = row_starting(&g, "s2 "), both = row_starting(&g, "both ");
	assert_int_equal(s1, 0);
	assert_int_equal(s2, 1);
	assert_int_equal(both, 2);
	assert_int_equal(role(&g, s1, 0), TLR_LABEL);
	/* each step where its times put it: s1's kernel over [2, 3), under it s2's copy in */
	int lw = 5, k0 = col_of(2, 7, 80, lw), k1 = col_of(3, 7, 80, lw);
	for (int x = k0 + 1; x < k1; x++) {
		assert_int_equal(role(&g, s1, x), TLR_KERNEL);
		assert_string_equal(cell(&g, s1, x), "\u2588");
		assert_int_equal(role(&g, s2, x), TLR_H2D);
		assert_string_equal(cell(&g, s2, x), "\u25b8");
		assert_int_equal(role(&g, both, x), TLR_OVERLAP);   /* and the overlap marked */
	}
	assert_int_equal(role(&g, s1, lw), TLR_H2D);
	assert_int_equal(role(&g, s1, col_of(4, 7, 80, lw)), TLR_D2H);
	assert_int_equal(role(&g, s2, lw), TLR_BLANK);           /* s2 starts at 2 ms */
	assert_int_equal(role(&g, s2, col_of(6, 7, 80, lw)), TLR_D2H);
	assert_int_equal(runs(&g, s1, TLR_KERNEL), 1);
	assert_int_equal(runs(&g, both, TLR_OVERLAP), 2);
	/* nothing at once from 0 to 2 ms and from 5 ms on */
	assert_int_equal(role(&g, both, col_of(1, 7, 80, lw)), TLR_BLANK);
	assert_int_equal(role(&g, both, col_of(6, 7, 80, lw)), TLR_BLANK);
	/* overlap: about 2/7 of the plot's cells */
	int marked = count_role(&g, both, TLR_OVERLAP), pw = 80 - lw - 2;
	assert_true(abs(marked - pw * 2 / 7) <= 2);
	/* the axis: ticks from 0 to 7 ms, labelled */
	int ax = row_starting(&g, "    \u2514");
	assert_int_equal(ax, 3);
	char *labels = cellgrid_line(&g, ax + 1);
	assert_string_equal(labels, "ms   0         1         2          3         4          5         6         7");
	free(labels);
	assert_string_equal(cell(&g, ax, lw), "\u252c");
	expect_shows(&g, "\u25b8 h2d copy  \u25c2 d2h copy  \u2588 kernel  \u25b4 copy and kernel at once");
	expect_shows(&g, "7.70 ms a run; the steps span 7.00 ms on 2 streams, copy and kernel at once 29%");
	expect_shows(&g, "of it (2.00 ms), h2d and d2h at once 14%.");
	expect_shows(&g, "Bound 4.00 ms (h2d 2.00 GB at 500 GB/s); 1.93x the bound.");
	assert_int_equal(role(&g, g.h - 1, 0), TLR_SUMMARY);
	cellgrid_free(&g);
}

static void test_ascii(void **state)
{
	(void)state;
	run_result r;
	cellgrid g;
	two_streams(&r);
	fx_step(&r, "memset", "acc", 1, "", 64, 6.2, 6.6);
	fx_step(&r, "copy", "d_x>d_y", 1, "d2d", 64, 5.5, 6);
	timeline_render(&r, NULL, 80, 40, TIMELINE_STEPS, 0, &g);
	for (int y = 0; y < g.h; y++)
		for (int x = 0; x < g.w; x++) {
			const unsigned char *c = (const unsigned char *)cell(&g, y, x);
			if (c[0] < 0x20 || c[0] > 0x7e || c[1]) { dump(&g); fail_msg("not ASCII at %d,%d", y, x); }
		}
	expect_shows(&g, "s1   >>>>>>>>>>>>>>>>>>>>>##########<<<<<<<<<<<<<<<<<<<<<");
	expect_shows(&g, "> h2d  < d2h  * d2d  # kernel  = memset  ^ copy and kernel at once");
	expect_shows(&g, "     +---------+---------+");
	expect_shows(&g, "^^^^^^^^^^");
	/* the steps under it: kind, name, stream, times */
	expect_shows(&g, "  # kind     name                           stream        ms     start       end");
	expect_shows(&g, "  1 > h2d    h_x>d_x                             1    2.0000    0.0000    2.0000");
	expect_shows(&g, "  8 * d2d    d_x>d_y                             1    0.5000    5.5000    6.0000");
	expect_shows(&g, "  7 = memset acc                                 1    0.4000    6.2000    6.6000");
	cellgrid_free(&g);
}

/* 126 steps over 4 streams, kernels much narrower than a cell: every step still shows. */
static void test_many_steps(void **state)
{
	(void)state;
	run_result r;
	device_info d;
	cellgrid g;
	fx_device(&d, 52, 50);
	fx_pipeline(&r, "chunks", 42, 4, 8e6, 52, 50, 0.004);
	assert_int_equal(r.nsteps, 126);
	timeline_render(&r, &d, 80, timeline_height(&r, &d, 80), TIMELINE_UTF8, 0, &g);
	int per[5] = {0};
	for (int i = 0; i < r.nsteps; i++) if (!strcmp(r.steps[i].kind, "launch")) per[r.steps[i].stream]++;
	for (int s = 1; s <= 4; s++) {
		char label[8];
		snprintf(label, sizeof label, "s%d ", s);
		int y = row_starting(&g, label);
		assert_true(y >= 0);
		/* one cell at least for each of its kernels (0.004 ms; a cell is about 0.1 ms) */
		if (runs(&g, y, TLR_KERNEL) != per[s]) { dump(&g); fail_msg("s%d: %d kernels drawn of %d", s, runs(&g, y, TLR_KERNEL), per[s]); }
		assert_true(count_role(&g, y, TLR_H2D) > 0 && count_role(&g, y, TLR_D2H) > 0);
	}
	for (int y = 0; y < g.h; y++) {
		char *l = cellgrid_line(&g, y);
		assert_true(cols(l) <= 80);
		free(l);
	}
	expect_shows(&g, "on 4 streams");
	cellgrid_free(&g);
	/* more steps than cells on one stream: the row is full, nothing drawn past it */
	run_result one;
	fx_run(&one, "tiny", 1);
	for (int i = 0; i < RUN_MAX_STEPS; i++) fx_step(&one, "launch", "k", 0, "", 0, i * 0.01, i * 0.01 + 0.009);
	timeline_render(&one, NULL, 80, 10, TIMELINE_UTF8, 0, &g);
	assert_int_equal(count_role(&g, 0, TLR_KERNEL), 80 - 3 - 2);
	expect_shows(&g, "No copies or streams in this stage: the timeline shows its steps one after");
	cellgrid_free(&g);
}

static void test_edges(void **state)
{
	(void)state;
	run_result r;
	cellgrid g;
	char a[600], b[300];
	/* no steps at all */
	fx_run(&r, "none", 1);
	assert_int_equal(timeline_height(&r, NULL, 80), 1);
	timeline_render(&r, NULL, 80, 5, TIMELINE_UTF8 | TIMELINE_STEPS, 0, &g);
	expect_shows(&g, "This run has no record of its steps.");
	cellgrid_free(&g);
	/* steps, none timed (-1) */
	fx_step(&r, "launch", "k", 0, "", 0, -1, -1);
	fx_step(&r, "launch", "k2", 0, "", 0, 2, 1);        /* an end before its start is no time */
	timeline_summary(&r, NULL, a, sizeof a, b, sizeof b);
	assert_string_equal(a, "No step of this run was timed.");
	assert_string_equal(b, "");
	timeline_render(&r, NULL, 80, 10, TIMELINE_UTF8 | TIMELINE_STEPS, 0, &g);
	expect_shows(&g, "No step of this run was timed.");
	expect_shows(&g, "  1 \u2588 kernel k ");                      /* the list has them, untimed */
	expect_shows(&g, "     -         -         -");
	assert_int_equal(row_starting(&g, "s0"), -1);
	cellgrid_free(&g);
	/* one stream, kernels only: says how to read it; no overlap row */
	fx_run(&r, "plain", 0.5);
	fx_step(&r, "memset", "y", 0, "", 1024, 0, 0.1);
	fx_step(&r, "launch", "k", 0, "", 0, 0.1, 0.3);
	timeline_summary(&r, NULL, a, sizeof a, b, sizeof b);
	assert_string_equal(a, "No copies or streams in this stage: the timeline shows its steps one after another. "
	                       "0.500 ms a run; the steps span 0.300 ms.");
	assert_string_equal(b, "");
	timeline_render(&r, NULL, 80, 12, TIMELINE_UTF8, 0, &g);
	assert_int_equal(row_starting(&g, "s0 "), 0);
	assert_int_equal(row_starting(&g, "both"), -1);
	expect_shows(&g, "\u2588 kernel  \u2592 memset");
	char *labels = cellgrid_line(&g, 2);
	assert_string_equal(labels, "ms 0           0.05         0.10        0.15         0.20        0.25");
	free(labels);
	cellgrid_free(&g);
	/* copies on one stream: "never at once", no overlap row */
	fx_run(&r, "serial", 3.1);
	fx_step(&r, "copy", "h>d", 0, "h2d", 8, 0, 1);
	fx_step(&r, "launch", "k", 0, "", 0, 1, 2);
	fx_step(&r, "copy", "d>h", 0, "d2h", 8, 2, 3);
	timeline_summary(&r, NULL, a, sizeof a, b, sizeof b);
	assert_string_equal(a, "3.10 ms a run; the steps span 3.00 ms, copy and kernel never at once.");
	timeline_render(&r, NULL, 80, 12, TIMELINE_UTF8, 0, &g);
	assert_int_equal(row_starting(&g, "both"), -1);
	assert_false(shows(&g, "at once  "));
	cellgrid_free(&g);
	/* narrow: under 30 columns the summary alone, wrapped */
	two_streams(&r);
	timeline_render(&r, NULL, 24, 12, TIMELINE_UTF8, 0, &g);
	assert_int_equal(row_starting(&g, "s1"), -1);
	expect_shows(&g, "7.70 ms a run; the");
	for (int y = 0; y < g.h; y++) {
		char *l = cellgrid_line(&g, y);
		assert_true(cols(l) <= 24);
		free(l);
	}
	cellgrid_free(&g);
	/* zero-sized grids do nothing */
	timeline_render(&r, NULL, 0, 0, 0, 0, &g);
	assert_int_equal(g.w, 0);
	cellgrid_free(&g);
}

/* Short heights: the legend goes, then the overlap row, then streams (a note counts them). */
static void test_short(void **state)
{
	(void)state;
	run_result r;
	device_info d;
	cellgrid g;
	fx_device(&d, 52, 50);
	fx_pipeline(&r, "eight", 16, 8, 8e6, 52, 50, 0.05);
	int full = timeline_height(&r, &d, 80);
	timeline_render(&r, &d, 80, full - 1, TIMELINE_UTF8, 0, &g);
	assert_false(shows(&g, "\u25b8 h2d copy"));
	assert_true(row_starting(&g, "both") >= 0);
	assert_true(row_starting(&g, "s8 ") >= 0);
	cellgrid_free(&g);
	timeline_render(&r, &d, 80, full - 2, TIMELINE_UTF8, 0, &g);
	assert_int_equal(row_starting(&g, "both"), -1);
	assert_true(row_starting(&g, "s8 ") >= 0);
	cellgrid_free(&g);
	timeline_render(&r, &d, 80, full - 5, TIMELINE_UTF8, 0, &g);
	assert_true(row_starting(&g, "s4 ") >= 0);
	assert_int_equal(row_starting(&g, "s5 "), -1);
	expect_shows(&g, "\u2026 4 more streams (a taller window shows them)");
	expect_shows(&g, "Bound ");
	cellgrid_free(&g);
}

/* The list of steps under the chart, scrolled. */
static void test_steps_list(void **state)
{
	(void)state;
	run_result r;
	device_info d;
	cellgrid g;
	fx_device(&d, 52, 50);
	fx_pipeline(&r, "list", 10, 2, 8e6, 52, 50, 0.05);   /* 30 steps */
	int h = timeline_height(&r, &d, 80) + 12;              /* a blank row, the heads, 10 rows of list */
	timeline_render(&r, &d, 80, h, TIMELINE_UTF8 | TIMELINE_STEPS, 0, &g);
	expect_shows(&g, "  1 \u25b8 h2d    h_x>d_x");
	expect_shows(&g, "  9 \u25c2 d2h    d_x>h_y");
	assert_false(shows(&g, " 10 "));
	expect_shows(&g, "\u2026 21 steps more");
	cellgrid_free(&g);
	/* from step 12: a row says what is above */
	assert_int_equal(timeline_first_step(&r, &d, 80, h, 11), 11);
	timeline_render(&r, &d, 80, h, TIMELINE_UTF8 | TIMELINE_STEPS, 11, &g);
	expect_shows(&g, "\u2026 11 steps above");
	expect_shows(&g, " 12 ");
	expect_shows(&g, " 19 ");
	expect_shows(&g, "\u2026 11 steps more");
	cellgrid_free(&g);
	/* past the end: the last page ends at the last step */
	int last = timeline_first_step(&r, &d, 80, h, 1000);
	assert_int_equal(last, 30 - 9);
	timeline_render(&r, &d, 80, h, TIMELINE_UTF8 | TIMELINE_STEPS, 1000, &g);
	expect_shows(&g, " 30 \u25c2 d2h");
	assert_false(shows(&g, "steps more"));
	cellgrid_free(&g);
	assert_int_equal(timeline_first_step(&r, &d, 80, h, -5), 0);
	assert_int_equal(timeline_first_step(&r, &d, 80, 8, 7), 0);   /* no room for a list */
	/* wide: a copy's bytes too */
	timeline_render(&r, &d, 120, 40, TIMELINE_UTF8 | TIMELINE_STEPS, 0, &g);
	expect_shows(&g, "    bytes");
	expect_shows(&g, "8.00 MB");
	cellgrid_free(&g);
}

/* timeline_print: the chart at its own height, as text. */
static void test_print(void **state)
{
	(void)state;
	run_result r;
	char *out = NULL;
	size_t len = 0;
	two_streams(&r);
	FILE *f = open_memstream(&out, &len);
	timeline_print(f, &r, NULL, 80, 0);
	fclose(f);
	int lines = 0;
	for (char *p = out; *p; p++) lines += *p == '\n';
	assert_int_equal(lines, timeline_height(&r, NULL, 80));
	assert_non_null(strstr(out, "s1   >>>>"));
	assert_non_null(strstr(out, "Bound 4.00 ms (h2d 2.00 GB at 500 GB/s); 1.93x the bound."));
	free(out);
}

/* The synthetic recording the TUI and CLI tests replay: 2 streams overlap, 1 does not. */
static void test_fixture(void **state)
{
	(void)state;
	char err[512];
	replay *rp = replay_load("tests/fixtures/timeline/synthetic-streams.json", err, sizeof err);
	if (!rp) fail_msg("%s", err);
	const device_info *d = replay_device(rp);
	assert_double_equal(d->h2d_gbps, 52.1, 1e-9);
	const run_result *serial = NULL, *two = NULL, *four = NULL;
	for (int i = 0; i < replay_count(rp); i++) {
		const run_result *r = replay_result(rp, i);
		if (!strcmp(r->stage, "serial")) serial = r;
		if (!strcmp(r->stage, "streams2")) two = r;
		if (!strcmp(r->stage, "streams4")) four = r;
	}
	assert_non_null(serial);
	assert_non_null(two);
	assert_non_null(four);
	timeline_stats s;
	timeline_bound b;
	timeline_stats_of(serial, &s);
	assert_int_equal(s.nstreams, 1);
	assert_double_equal(s.overlap_ms, 0, 0);
	timeline_stats_of(two, &s);
	assert_int_equal(s.nstreams, 2);
	assert_int_equal(s.ntimed, 24);
	assert_true(s.overlap_ms > 0);
	assert_true(s.copies_frac > 0.5);
	timeline_stats_of(four, &s);
	assert_int_equal(s.ntimed, 108);
	assert_int_equal(s.nstreams, 4);
	assert_int_equal(timeline_bound_of(four, d, &b), 0);
	assert_int_equal(b.by, TL_BY_D2H);
	assert_double_equal(b.gbps, 50.3, 1e-9);
	assert_true(b.ratio > 1 && b.ratio < 1.15);
	assert_int_equal(timeline_bound_of(serial, d, &b), 0);
	assert_true(b.ratio > 1.9);
	replay_free(rp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_chart_two_streams),
		cmocka_unit_test(test_ascii),
		cmocka_unit_test(test_many_steps),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_short),
		cmocka_unit_test(test_steps_list),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_fixture),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
