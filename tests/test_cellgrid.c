/* test_cellgrid: the grid of cells the charts are built in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "cellgrid.h"

static void test_put_and_line(void **state)
{
	(void)state;
	cellgrid g;
	cellgrid_init(&g, 6, 2);
	cellgrid_put(&g, 0, 1, "#", 3);
	cellgrid_put(&g, 0, 4, "\xe2\x96\x88", 4);   /* a full block, 3 bytes, one column */
	cellgrid_put(&g, 2, 0, "x", 1);              /* outside: nothing */
	cellgrid_put(&g, 0, -1, "x", 1);
	char *l0 = cellgrid_line(&g, 0), *l1 = cellgrid_line(&g, 1), *out = cellgrid_line(&g, 5);
	assert_string_equal(l0, " #  \xe2\x96\x88");
	assert_string_equal(l1, "");
	assert_string_equal(out, "");
	assert_int_equal(g.role[1], 3);
	assert_int_equal(g.role[4], 4);
	assert_int_equal(g.role[0], 0);
	free(l0); free(l1); free(out);
	cellgrid_free(&g);
	assert_null(g.cell);
	assert_int_equal(g.w, 0);
}

static void test_text(void **state)
{
	(void)state;
	cellgrid g;
	cellgrid_init(&g, 8, 1);
	/* one cell a character; ESC, DEL and a C1 control become '?'; cut at maxw */
	assert_int_equal(cellgrid_text(&g, 0, 0, 7, "a\x1b" "b\x7f\xc2\x9b\xc3\xa9xyz", 2), 7);
	char *l = cellgrid_line(&g, 0);
	assert_string_equal(l, "a?b??\xc3\xa9x");
	free(l);
	assert_int_equal(cellgrid_u8len("\xc3\xa9"), 2);
	assert_int_equal(cellgrid_u8len("\xc3" "a"), 1);   /* a stray lead byte */
	assert_int_equal(cellgrid_text(&g, 0, 6, 10, "long", 1), 4);   /* cells past the edge are dropped, still counted */
	cellgrid_free(&g);
	cellgrid_init(&g, -3, 2);
	assert_int_equal(g.w, 0);
	char *e = cellgrid_line(&g, 0);
	assert_string_equal(e, "");
	free(e);
	cellgrid_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_and_line),
		cmocka_unit_test(test_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
