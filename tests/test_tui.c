/* Tests for the pure parts of tui/: line diff, syntax colouring, display-width cropping and wrap,
 * gauge and number formatting. (The progress file is tests/test_progress.c's.) */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui_source.h"
#include "tui_text.h"
#include "tui_widget.h"

/* ---- diff ---- */

/* Applies ops to a and checks the result is b; returns the number of non-SAME operations. */
static int check_script(char **a, int na, char **b, int nb)
{
	diff_op *ops;
	int n = diff_lines(a, na, b, nb, &ops), edits = 0, ia = 0, ib = 0;
	assert_true(n >= 0);
	for (int i = 0; i < n; i++) {
		switch (ops[i].kind) {
		case DIFF_SAME:
			assert_int_equal(ops[i].a, ia); assert_int_equal(ops[i].b, ib);
			assert_string_equal(a[ia], b[ib]);
			ia++; ib++;
			break;
		case DIFF_DEL: assert_int_equal(ops[i].a, ia); ia++; edits++; break;
		case DIFF_ADD: assert_int_equal(ops[i].b, ib); ib++; edits++; break;
		}
	}
	assert_int_equal(ia, na);
	assert_int_equal(ib, nb);
	free(ops);
	return edits;
}

static void test_diff_basic(void **st)
{
	(void)st;
	char *a[] = { "a", "b", "c", "a", "b", "b", "a" }, *b[] = { "c", "b", "a", "b", "a", "c" };
	assert_int_equal(check_script(a, 7, b, 6), 5);              /* Myers' paper example: D = 5 */
	char *same[] = { "x", "y" };
	assert_int_equal(check_script(same, 2, same, 2), 0);
	assert_int_equal(check_script(same, 0, same, 2), 2);
	assert_int_equal(check_script(same, 2, same, 0), 2);
	assert_int_equal(check_script(same, 0, same, 0), 0);
	char *k1[] = { "#include <x>", "__global__ void f() {", "  a[i] = 1;", "}" };
	char *k2[] = { "#include <x>", "__global__ void f() {", "  int i = threadIdx.x;", "  a[i] = 2;", "}" };
	assert_int_equal(check_script(k1, 4, k2, 5), 3);
}

static void test_diff_minimal_random(void **st)
{
	(void)st;
	static char *pool[] = { "p", "q", "r", "s" };
	char *a[40], *b[40];
	srand(7);
	for (int round = 0; round < 200; round++) {
		int na = rand() % 40, nb = rand() % 40;
		for (int i = 0; i < na; i++) a[i] = pool[rand() % 4];
		for (int i = 0; i < nb; i++) b[i] = pool[rand() % 4];
		/* minimal: edits = na + nb - 2 * LCS */
		int L[41][41] = { { 0 } };
		for (int i = na - 1; i >= 0; i--)
			for (int j = nb - 1; j >= 0; j--)
				L[i][j] = !strcmp(a[i], b[j]) ? L[i + 1][j + 1] + 1
				        : L[i + 1][j] > L[i][j + 1] ? L[i + 1][j] : L[i][j + 1];
		assert_int_equal(check_script(a, na, b, nb), na + nb - 2 * L[0][0]);
	}
}

/* ---- syntax colouring ---- */

static void roles_of(const char *line, int *in_comment, char *out)
{
	unsigned char r[256];
	static const char code[ROLE_COUNT] = { [ROLE_NORMAL] = '.', [ROLE_KEYWORD] = 'k', [ROLE_COMMENT] = 'c',
		[ROLE_STRING] = 's', [ROLE_NUMBER] = 'n', [ROLE_PREPROC] = 'p' };
	size_t len = strlen(line);
	source_highlight(line, len, in_comment, r);
	for (size_t i = 0; i < len; i++) out[i] = code[r[i]] ? code[r[i]] : '?';
	out[len] = 0;
}

static void test_highlight(void **st)
{
	(void)st;
	char out[256];
	int c = 0;
	roles_of("int x = 42; // hi", &c, out);
	assert_string_equal(out, "kkk.....nn..ccccc");
	roles_of("#define N 4 /* c */", &c, out);
	assert_string_equal(out, "ppppppppppppccccccc");   /* a comment after a directive */
	assert_int_equal(c, 0);
	roles_of("f(\"a\\\"b\", 'x', 1e-6f, 0x1F);", &c, out);
	assert_string_equal(out, "..ssssss..sss..nnnnn..nnnn..");
	roles_of("a /* open", &c, out);
	assert_string_equal(out, "..ccccccc");
	assert_int_equal(c, 1);
	roles_of("still */ __global__", &c, out);
	assert_string_equal(out, "cccccccc.kkkkkkkkkk");
	assert_int_equal(c, 0);
	roles_of("blockIdx.x2 intx", &c, out);
	assert_string_equal(out, "kkkkkkkk........");
}

static void test_source_lines(void **st)
{
	(void)st;
	source_text t;
	assert_int_equal(source_from_buffer(&t, "a\tb\r\nc\n", 7), 0);
	assert_int_equal(t.n, 2);
	assert_string_equal(t.lines[0], "a   b");
	assert_string_equal(t.lines[1], "c");
	source_free(&t);
	assert_int_equal(source_from_buffer(&t, "", 0), 0);
	assert_int_equal(t.n, 1);
	source_free(&t);
}

/* A tunable's #define in a kernel: the name and the value the code pane replaces (issue #19). */
static void test_source_define(void **st)
{
	(void)st;
	source_macro d;
	const char *l1 = "#define BK 8";
	assert_int_equal(source_define(l1, strlen(l1), &d), 1);
	assert_true(d.name_len == 2 && !strncmp(l1 + d.name_off, "BK", 2));
	assert_true(d.val_len == 1 && !strncmp(l1 + d.val_off, "8", 1));
	const char *l2 = "  #  define ALOAD 1     // A's path";
	assert_int_equal(source_define(l2, strlen(l2), &d), 1);
	assert_true(d.name_len == 5 && !strncmp(l2 + d.name_off, "ALOAD", 5));
	assert_true(d.val_len == 1 && !strncmp(l2 + d.val_off, "1", 1));
	const char *l3 = "#define PAD";                    /* no value: an empty one at the end */
	assert_int_equal(source_define(l3, strlen(l3), &d), 1);
	assert_true(d.val_len == 0 && d.val_off == strlen(l3));
	const char *l4 = "#define TILE (32)/*x*/";
	assert_int_equal(source_define(l4, strlen(l4), &d), 1);
	assert_true(d.val_len == 4 && !strncmp(l4 + d.val_off, "(32)", 4));
	const char *no[] = { "#define F(x) x", "#ifndef BK", "int BK = 8;", "// #define BK 8", "#defineBK 8", "" };
	for (size_t i = 0; i < sizeof no / sizeof *no; i++)
		assert_int_equal(source_define(no[i], strlen(no[i]), &d), 0);
}

/* A kernel file changed on disk is noticed (its size or modification time). */
static void test_source_stale(void **st)
{
	(void)st;
	char path[] = "/tmp/cc-tui-src-XXXXXX", err[256];
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "a\n", 2), 2);
	close(fd);
	source_text t;
	assert_int_equal(source_load(&t, path, err, sizeof err), 0);
	assert_int_equal(source_stale(&t, path), 0);
	FILE *f = fopen(path, "a");
	fputs("b\n", f);
	fclose(f);
	assert_int_equal(source_stale(&t, path), 1);
	source_free(&t);
	assert_int_equal(source_load(&t, path, err, sizeof err), 0);
	assert_int_equal(t.n, 2);
	assert_int_equal(source_stale(&t, path), 0);
	unlink(path);
	assert_int_equal(source_stale(&t, path), 1);       /* gone: stale, the next load says why */
	source_free(&t);
}

/* ---- display width ---- */

/* A line made of parts: the least important go first, then what is left is cut with an ellipsis. */
/* ---- the scroll keys (every list and text of the TUI) ---- */

static void test_scroll_key(void **st)
{
	(void)st;
	int pos = 5;
	static const struct { int ch, want; } walk[] = {
		{ KEY_DOWN, 6 }, { 'k', 5 }, { KEY_NPAGE, 15 }, { ' ', 25 }, { KEY_END, 40 }, { 'j', 40 },
		{ KEY_PPAGE, 30 }, { 'G', 40 }, { KEY_HOME, 0 }, { KEY_UP, 0 }, { 'g', 0 }, { KEY_PPAGE, 0 },
	};
	for (size_t i = 0; i < sizeof walk / sizeof walk[0]; i++) {
		assert_int_equal(widget_scroll_key(walk[i].ch, &pos, 10, 40), 1);
		assert_int_equal(pos, walk[i].want);
	}
	pos = 7;                                        /* not a scroll key: untouched */
	assert_int_equal(widget_scroll_key('x', &pos, 10, 40), 0);
	assert_int_equal(widget_scroll_key('\n', &pos, 10, 40), 0);
	assert_int_equal(pos, 7);
	assert_int_equal(widget_scroll_key(KEY_NPAGE, &pos, 0, 40), 0);   /* page 0: no paging keys */
	assert_int_equal(widget_scroll_key(' ', &pos, 0, 40), 0);
	assert_int_equal(widget_scroll_key(KEY_PPAGE, &pos, 0, 40), 0);
	assert_int_equal(pos, 7);
	assert_int_equal(widget_scroll_key('j', &pos, 0, 40), 1);
	assert_int_equal(pos, 8);
	pos = 100;                                      /* past the end (the text got shorter): kept in */
	assert_int_equal(widget_scroll_key('k', &pos, 10, 40), 1);
	assert_int_equal(pos, 40);
	assert_int_equal(widget_scroll_key('G', &pos, 10, -3), 1);   /* shorter than a page: 0 */
	assert_int_equal(pos, 0);
	assert_int_equal(widget_scroll_key(KEY_NPAGE, &pos, 10, -3), 1);
	assert_int_equal(pos, 0);
}

static void test_fit_parts(void **st)
{
	(void)st;
	int w[] = { 10, 5, 8, 6 }, prio[] = { 0, 2, 1, 3 }, keep[4];
	assert_int_equal(text_fit_parts(w, prio, 4, 40, keep), 29);
	assert_true(keep[0] && keep[1] && keep[2] && keep[3]);
	assert_int_equal(text_fit_parts(w, prio, 4, 28, keep), 23);      /* part 3 (priority 3) goes */
	assert_true(keep[0] && keep[1] && keep[2] && !keep[3]);
	assert_int_equal(text_fit_parts(w, prio, 4, 18, keep), 18);      /* then part 1 (priority 2) */
	assert_true(keep[0] && !keep[1] && keep[2] && !keep[3]);
	assert_int_equal(text_fit_parts(w, prio, 4, 5, keep), 10);       /* priority 0 always stays */
	assert_true(keep[0] && !keep[1] && !keep[2] && !keep[3]);
}

static void test_width_crop(void **st)
{
	(void)st;
	char out[64];
	assert_int_equal(text_width("abc", 3), 3);
	assert_int_equal(text_width("\xc3\xa9t\xc3\xa9", 5), 3);             /* été */
	assert_int_equal(text_width("\xe6\x97\xa5\xe6\x9c\xac", 6), 4);      /* 日本: wide */
	assert_int_equal(text_crop(out, sizeof out, "\xe6\x97\xa5\xe6\x9c\xac", 3, NULL), 2);
	assert_string_equal(out, "\xe6\x97\xa5");                            /* a wide char is not split */
	assert_int_equal(text_crop(out, sizeof out, "h\xc3\xa9llo", 4, "~"), 4);
	assert_string_equal(out, "h\xc3\xa9l~");
	assert_int_equal(text_crop(out, sizeof out, "short", 10, "~"), 5);
	assert_string_equal(out, "short");
	assert_int_equal(text_crop(out, 4, "abcdef", 10, NULL), 3);           /* the buffer bounds it */
	assert_string_equal(out, "abc");
	assert_int_equal(text_skip("\xc3\xa9t\xc3\xa9", 5, 2), 3);
	int cols;
	assert_int_equal(text_fit("\xe2\x94\x80\xe2\x94\x80x", 7, 2, &cols), 6);
	assert_int_equal(cols, 2);
	assert_int_equal(text_fit("\xff" "ab", 3, 2, &cols), 2);              /* a bad byte is one column */
}

static void test_wrap(void **st)
{
	(void)st;
	text_span sp[8];
	const char *s = "the quick brown fox\njumps";
	int n = text_wrap(s, 10, sp, 8);
	assert_int_equal(n, 3);
	assert_memory_equal(s + sp[0].off, "the quick", sp[0].len);
	assert_int_equal(sp[0].len, 9);
	assert_memory_equal(s + sp[1].off, "brown fox", 9);
	assert_memory_equal(s + sp[2].off, "jumps", 5);
	n = text_wrap("abcdefghijkl", 5, sp, 8);                              /* a long word is cut */
	assert_int_equal(n, 3);
	assert_int_equal(sp[2].len, 2);
	assert_int_equal(text_wrap("", 5, sp, 8), 1);
	assert_int_equal(text_wrap("a\n\nb", 5, sp, 8), 3);
	assert_int_equal(text_wrap("x y z w", 1, sp, 2), 4);                  /* counts past max */
	char out[128];
	assert_string_equal(text_reflow(out, sizeof out, "one\ntwo\n\nthree\n- item\n  code\n"),
	                    "one two\n\nthree\n- item\n  code");
}

/* ---- gauges and numbers ---- */

static void test_gauge(void **st)
{
	(void)st;
	text_cell c[16];
	char out[128];
	text_gauge(c, 10, 0.5, -1, &tui_glyphs_ascii);
	assert_string_equal(text_cells_str(out, sizeof out, c, 10), "#####.....");
	assert_int_equal(c[0].role, ROLE_GAUGE);
	assert_int_equal(c[9].role, ROLE_GAUGE_EMPTY);
	text_gauge(c, 10, 0.5, 0.8, &tui_glyphs_ascii);
	assert_string_equal(text_cells_str(out, sizeof out, c, 10), "#####...|.");
	assert_int_equal(c[8].role, ROLE_MARK);
	text_gauge(c, 10, 2.0, 1.0, &tui_glyphs_ascii);                         /* clamped; mark at the end */
	assert_string_equal(text_cells_str(out, sizeof out, c, 10), "#########|");
	text_gauge(c, 4, -1, -1, &tui_glyphs_ascii);
	assert_string_equal(text_cells_str(out, sizeof out, c, 4), "....");
	text_gauge(c, 2, 0.3125, -1, &tui_glyphs_utf8);                         /* 5 eighths */
	assert_string_equal(text_cells_str(out, sizeof out, c, 2), "\xe2\x96\x8b\xe2\x96\x91");
	double v[] = { 1, 2, 3, 4 };
	assert_int_equal(text_spark(c, 3, v, 4, &tui_glyphs_ascii), 3);
	assert_string_equal(text_cells_str(out, sizeof out, c, 3), "_-#");
}

static void test_numbers(void **st)
{
	(void)st;
	char b[32];
	assert_string_equal(text_num(b, sizeof b, 2950.4), "2950");
	assert_string_equal(text_num(b, sizeof b, 12.34), "12.3");
	assert_string_equal(text_num(b, sizeof b, 1.5), "1.50");
	assert_string_equal(text_num(b, sizeof b, 0.4123), "0.412");
	assert_string_equal(text_ms(b, sizeof b, 0.4123), "412.3 us");
	assert_string_equal(text_ms(b, sizeof b, 4.2), "4.200 ms");
	assert_string_equal(text_ms(b, sizeof b, 2500), "2.50 s");
	assert_string_equal(text_bytes(b, sizeof b, 49152), "48 KiB");
	assert_string_equal(text_bytes(b, sizeof b, 1536 * 1024), "1.50 MiB");
	assert_string_equal(text_delta(b, sizeof b, 110, 100), "+10.0%");
	assert_string_equal(text_delta(b, sizeof b, 1, 0), "");
}

/* widget_textn on a screen of its own: of text another user wrote (a replay, a learner's source in a
 * compile log), a bidi override (Trojan Source), a zero-width space and a C1 control each take one cell
 * as '?', and none of them reaches the screen; other UTF-8 (U+00D7) is drawn. */
static void test_widget_invisible(void **st)
{
	(void)st;
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	assert_non_null(out);
	assert_non_null(in);
	SCREEN *scr = newterm("xterm", out, in);
	if (!scr) { printf("SKIP test_widget_invisible: no xterm terminfo entry\n"); fclose(out); fclose(in); return; }
	widget_init(1);
	const char *s = "a\xe2\x80\xae" "b\xe2\x80\x8b" "c\xc2\x9b" "d\xc3\x97";
	assert_int_equal(widget_textn(0, 0, 20, s, strlen(s), A_NORMAL), 8);
	const wchar_t want[] = L"a?b?c?d\u00d7";
	for (int x = 0; x < 8; x++) {
		cchar_t cc;
		wchar_t wc[CCHARW_MAX + 1] = {0};
		attr_t a;
		short pair;
		assert_int_equal(mvin_wch(0, x, &cc), OK);
		getcchar(&cc, wc, &a, &pair, NULL);
		assert_int_equal(wc[0], want[x]);
		assert_int_equal(wc[1], 0);   /* nothing zero-width joined to the cell */
	}
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
}

int main(void)
{
	setlocale(LC_CTYPE, "C.UTF-8");            /* wcwidth needs a UTF-8 locale */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff_basic),
		cmocka_unit_test(test_diff_minimal_random),
		cmocka_unit_test(test_highlight),
		cmocka_unit_test(test_source_lines),
		cmocka_unit_test(test_source_define),
		cmocka_unit_test(test_source_stale),
		cmocka_unit_test(test_scroll_key),
		cmocka_unit_test(test_width_crop),
		cmocka_unit_test(test_fit_parts),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_gauge),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_widget_invisible),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
