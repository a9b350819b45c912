/* Tests for tui_heat's text: the heat cells beside lines and instructions, the header naming the
 * hottest line and its stall reasons, the reasons beside the hottest lines; on the hand-made samples
 * of tests/fixtures/hotspots/ over the recorded transpose_tile listing. Run from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tui_heat.h"
#include "util.h"

static hot_view view;

/* The view over the fixture, the cubin's listing from the .sass kept beside it (as sass_disassemble
 * finds it). */
static int setup(void **state)
{
	(void)state;
	char dir[] = "/tmp/cc-heat-XXXXXX";
	if (!mkdtemp(dir)) return -1;
	char *cubin = xasprintf("%s/x.cubin", dir), *sass = xasprintf("%s/x.sass", dir);
	char *listing = file_read("tests/fixtures/sass/transpose_tile.sass", NULL), *samples = file_read("tests/fixtures/hotspots/transpose_tile.txt", NULL);
	if (!listing || !samples) return -1;
	rtrim(samples);
	file_write_atomic(cubin, "", 0);
	file_write_atomic(sass, listing, strlen(listing));
	run_result r;
	run_result_init(&r);
	strfmt(r.cubin, sizeof r.cubin, "%s", cubin);
	r.hotspots = samples;
	lesson_stage st;
	memset(&st, 0, sizeof st);
	st.kernel_path = "kernels/transpose/tile.cu";
	int rc = hot_view_make(&view, &st, &r);
	run_result_clear(&r);
	unlink(cubin);
	unlink(sass);
	rmdir(dir);
	free(cubin);
	free(sass);
	free(listing);
	return rc;
}

static int teardown(void **state)
{
	(void)state;
	hot_view_free(&view);
	return 0;
}

static void test_cells(void **state)
{
	(void)state;
	char cell[32];
	tui_role role;
	const hot_map *m = &view.map;
	/* the hottest line: 70%, a full block, the role that stands out */
	assert_string_equal(heat_cell(&view, &m->line[21], m->max_line, &tui_glyphs_utf8, &role, cell, sizeof cell), " 70%\u2588");
	assert_int_equal(role, ROLE_BAD);
	/* 20% is 2/7 of the hottest: two eighths */
	assert_string_equal(heat_cell(&view, &m->line[16], m->max_line, &tui_glyphs_utf8, &role, cell, sizeof cell), " 20%\u258e");
	assert_int_equal(role, ROLE_BAD);
	assert_string_equal(heat_cell(&view, &m->line[17], m->max_line, &tui_glyphs_utf8, &role, cell, sizeof cell), " 10%\u258f");
	assert_int_equal(role, ROLE_WARN);
	/* no samples: nothing */
	assert_string_equal(heat_cell(&view, &m->line[15], m->max_line, &tui_glyphs_utf8, &role, cell, sizeof cell), "");
	assert_int_equal(role, ROLE_NORMAL);
	/* ASCII, and the extremes: all the samples, and under half a percent */
	hot_tally all = { 1000, NULL }, few = { 4, NULL };
	assert_string_equal(heat_cell(&view, &all, 1000, &tui_glyphs_ascii, &role, cell, sizeof cell), "100%#");
	assert_string_equal(heat_cell(&view, &few, 1000, &tui_glyphs_ascii, &role, cell, sizeof cell), " <1%.");
	assert_int_equal(role, ROLE_DIM);
	/* every cell is HEAT_CELL_W columns */
	assert_int_equal(strlen(heat_cell(&view, &all, 1000, &tui_glyphs_ascii, &role, cell, sizeof cell)), HEAT_CELL_W);
}

static void test_header_and_beside(void **state)
{
	(void)state;
	char out[256];
	assert_string_equal(heat_header(&view, 1, out, sizeof out), "hotspots: 1000 samples; line 21 70%: shared mem 71%, MIO queue 21%");
	assert_string_equal(heat_header(&view, 2, out, sizeof out), "line 21 70%: shared mem 71%, MIO queue 21%");
	assert_string_equal(heat_header(&view, 0, out, sizeof out),
	                    "hotspots: 1000 samples; line 21 70%: short scoreboard (shared memory / MIO result) 71%, "
	                    "MIO throttle (shared-memory / special-op queue full) 21%, selected (issuing, not stalled) 7.1%");
	assert_string_equal(heat_beside(&view, 21, out, sizeof out), "shared mem 71%, MIO queue 21%");
	assert_string_equal(heat_beside(&view, 16, out, sizeof out), "global mem 70%, issuing 30%");
	assert_string_equal(heat_beside(&view, 17, out, sizeof out), "barrier 100%");
	assert_string_equal(heat_beside(&view, 15, out, sizeof out), "");
	assert_string_equal(heat_beside(&view, 99, out, sizeof out), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cells),
		cmocka_unit_test(test_header_and_beside),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
