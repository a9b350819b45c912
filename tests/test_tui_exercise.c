/* Tests for exercise mode's pure text (tui/tui_exercise_text.c): the compiler's messages on the
 * learner's lines, the verdict pane's lines, the marks, and the short path in the pane's title. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "tui_exercise.h"

static const char *log_text =
	"/home/ada/cudaclimb work/demo/scale.cu(4): error: expected a \";\"\n"
	"  \tif (i < n) y[i] = 2.0f * x[i];\n"
	"  \t^\n"
	"\n"
	"/home/ada/cudaclimb work/demo/scale.cu(3): warning #177-D: variable \"i\" was declared but never referenced\n"
	"/usr/local/cuda/include/cuda_fp16.hpp(120): error: something in a header\n"
	"scale.cu(9): catastrophic error: cannot open source file \"x.h\"\r\n"
	"Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
	"1 error detected in the compilation of \"/home/ada/cudaclimb work/demo/scale.cu\".\n";

static void test_log_parse(void **st)
{
	(void)st;
	exercise_diag d[8];
	int n = exercise_log_parse(log_text, "/home/ada/cudaclimb work/demo/scale.cu", d, 8);
	assert_int_equal(n, 3);                  /* the header's error is not on the learner's lines */
	assert_int_equal(d[0].line, 4);
	assert_true(d[0].error);
	assert_string_equal(d[0].msg, "expected a \";\"");
	assert_int_equal(d[1].line, 3);
	assert_false(d[1].error);
	assert_string_equal(d[1].msg, "variable \"i\" was declared but never referenced");
	assert_int_equal(d[2].line, 9);          /* the same base name, no folder; \r dropped */
	assert_true(d[2].error);
	assert_string_equal(d[2].msg, "cannot open source file \"x.h\"");
	assert_int_equal(exercise_log_parse(log_text, "/elsewhere/other.cu", d, 8), 0);
	assert_int_equal(exercise_log_parse(log_text, "/home/ada/cudaclimb work/demo/scale.cu", d, 1), 1);
	assert_int_equal(exercise_log_parse(NULL, "x.cu", d, 8), 0);
	assert_int_equal(exercise_log_parse("x.cu(): error: no line\nx.cu(0): error: zero\nx.cu(2) error\n", "x.cu", d, 8), 0);
	/* a path with a parenthesis of its own */
	assert_int_equal(exercise_log_parse("/tmp/a(1)/x.cu(7): error: bad\n", "/tmp/a(1)/x.cu", d, 8), 1);
	assert_int_equal(d[0].line, 7);
	assert_string_equal(d[0].msg, "bad");
}

static void test_first_diag(void **st)
{
	(void)st;
	exercise_diag d[3] = { { 3, 0, "w" }, { 5, 1, "e1" }, { 2, 1, "e2" } };
	assert_ptr_equal(exercise_first_diag(d, 3), &d[1]);
	assert_ptr_equal(exercise_first_diag(d, 1), &d[0]);
	assert_null(exercise_first_diag(d, 0));
}

static void init_verdict(ex_verdict *v, int nchecks)
{
	static const char *labels[] = { "tiny", "odd", "lesson size", "fresh inputs" };
	static const char *sizes[] = { "n=3", "n=599189", "n=4194304", "n=4194304" };
	memset(v, 0, sizeof *v);
	v->failed = v->timed = -1;
	v->bar = 0.9;
	v->nchecks = nchecks;
	for (int i = 0; i < EX_MAX_CHECKS; i++) run_result_init(&v->checks[i].r);
	run_result_init(&v->diag);
	for (int i = 0; i < nchecks; i++) {
		snprintf(v->checks[i].label, sizeof v->checks[i].label, "%s", labels[i]);
		snprintf(v->checks[i].sizes, sizeof v->checks[i].sizes, "%s", sizes[i]);
	}
	v->timed = 2;
}

/* Whether one of lines[0..n) contains s. */
static int has(const exercise_line *lines, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strstr(lines[i].text, s)) return 1;
	return 0;
}

static void test_verdict_no_gpu(void **st)
{
	(void)st;
	ex_verdict v;
	exercise_line out[32];
	init_verdict(&v, 4);
	v.kind = EXV_NO_GPU;
	v.failed = 0;
	v.checks[0].done = 1;
	v.checks[0].r.status = RUN_NO_GPU;
	v.checks[0].r.regs = 4;
	v.checks[0].r.occ_theoretical = 1.0;
	snprintf(v.checks[0].r.occ_limiter, sizeof v.checks[0].r.occ_limiter, "warps per SM");
	snprintf(v.checks[0].r.message, sizeof v.checks[0].r.message, "no GPU: no NVIDIA driver is loaded");
	int n = exercise_verdict_lines(&v, 2, JOB_DONE, "", 0.2, NULL, 0, out, 32);
	assert_true(n >= 3);
	assert_string_equal(out[0].text, "COMPILED");
	assert_string_equal(out[1].text, "compiles: 4 registers, occupancy 100% (limited by warps per SM); timing needs a GPU");
	assert_string_equal(out[2].text, "no NVIDIA driver is loaded");
	assert_true(has(out, n, "n=599189 (odd)"));
	assert_int_equal(exercise_verdict_lines(&v, 2, JOB_DONE, "", 0, NULL, 0, out, 2), 2);   /* capped */
}

static void test_verdict_compile_error(void **st)
{
	(void)st;
	ex_verdict v;
	exercise_line out[32];
	exercise_diag d[2] = { { 4, 1, "expected a \";\"" }, { 3, 0, "variable \"i\" was declared but never referenced" } };
	init_verdict(&v, 4);
	v.kind = EXV_COMPILE_ERROR;
	v.failed = 0;
	v.checks[0].done = 1;
	v.checks[0].r.status = RUN_COMPILE_ERROR;
	snprintf(v.headline, sizeof v.headline, "compile error: scale.cu:4: expected a \";\"");
	int n = exercise_verdict_lines(&v, 2, JOB_DONE, "", 0.1, d, 2, out, 32);
	assert_string_equal(out[0].text, "NOT YET");
	assert_int_equal(out[0].role, ROLE_BAD);
	assert_string_equal(out[1].text, v.headline);
	assert_string_equal(out[2].text, "line 4: expected a \";\"");
	assert_int_equal(out[2].role, ROLE_BAD);
	assert_string_equal(out[3].text, "line 3: warning: variable \"i\" was declared but never referenced");
	assert_int_equal(out[3].role, ROLE_WARN);
	assert_string_equal(out[4].text, " tiny         n=3       FAIL did not compile");
	assert_string_equal(out[5].text, " odd          n=599189  not run");
	assert_int_equal(n, 8);
}

static void test_verdict_passed_and_wrong(void **st)
{
	(void)st;
	ex_verdict v;
	exercise_line out[32];
	init_verdict(&v, 4);
	v.kind = EXV_PASSED;
	v.ratio = 1.02;
	for (int i = 0; i < 4; i++) { v.checks[i].done = 1; v.checks[i].r.status = RUN_OK; }
	v.checks[2].r.ms_median = 0.0412;
	v.checks[2].r.pair_ms_median = 0.0420;
	snprintf(v.headline, sizeof v.headline, "passed: correct at ...");
	int n = exercise_verdict_lines(&v, 1, JOB_DONE, "", 1.0, NULL, 0, out, 32);
	assert_string_equal(out[0].text, "PASSED  1.02x the stage's kernel (the bar 0.90x)");
	assert_int_equal(out[0].role, ROLE_GOOD);
	assert_true(has(out, n, "yours 41.2 us, the stage's 42.0 us: 1.02x (the bar 0.90x)"));
	assert_true(has(out, n, "reading the hardware counters"));      /* state 1: the diagnosis is coming */
	v.counters_done = 1;
	v.diag.findings.n = 2;
	v.diag.findings.f[0] = (diag_finding){ .rule = "dram", .severity = DIAG_INFO, .text = "near the peak" };
	v.diag.findings.f[1] = (diag_finding){ .rule = "x", .severity = DIAG_WARNING, .title = "X", .text = "y" };
	n = exercise_verdict_lines(&v, 2, JOB_DONE, "", 1.0, NULL, 0, out, 32);
	assert_true(has(out, n, "Diagnosis (hardware counters)"));
	assert_true(has(out, n, "info dram: near the peak"));
	assert_string_equal(out[n - 1].text, "warning x: y");

	init_verdict(&v, 4);
	v.kind = EXV_WRONG;
	v.failed = 0;
	v.checks[0].done = 1;
	v.checks[0].r.status = RUN_WRONG;
	v.checks[0].r.bad_count = 3;
	v.checks[0].r.first_bad = 0;
	n = exercise_verdict_lines(&v, 2, JOB_DONE, "", 1.0, NULL, 0, out, 32);
	assert_string_equal(out[0].text, "NOT YET");
	assert_true(has(out, n, "3 wrong of n=3, first at element 0"));
	assert_true(has(out, n, "FAIL wrong"));
}

static void test_verdict_running(void **st)
{
	(void)st;
	ex_verdict v;
	exercise_line out[32];
	init_verdict(&v, 4);
	int n = exercise_verdict_lines(&v, 0, JOB_COMPILING, "", 1.2, NULL, 0, out, 32);
	assert_string_equal(out[0].text, "compiling your kernel... 1s");
	assert_int_equal(n, 5);
	v.checks[0].done = 1;
	n = exercise_verdict_lines(&v, 0, JOB_RUNNING, "", 2.0, NULL, 0, out, 32);
	assert_string_equal(out[0].text, "checking n=599189 (odd)... 2s");
	v.checks[1].done = 1;
	n = exercise_verdict_lines(&v, 0, JOB_RUNNING, "", 3.0, NULL, 0, out, 32);
	assert_string_equal(out[0].text, "timing n=4194304 (lesson size) against the stage's kernel... 3s");
	n = exercise_verdict_lines(&v, 0, JOB_WAITING_GPU, "waiting for the GPU: held by ada", 4.0, NULL, 0, out, 32);
	assert_string_equal(out[0].text, "waiting for the GPU: held by ada (4s)");
	assert_int_equal(out[0].role, ROLE_WARN);
}

static void test_short_path_and_marks(void **st)
{
	(void)st;
	char b[128];
	assert_string_equal(exercise_short_path(b, sizeof b, "/home/ada/cudaclimb-work/x/y.cu", "/home/ada", 60, "~"),
	                    "~/cudaclimb-work/x/y.cu");
	assert_string_equal(exercise_short_path(b, sizeof b, "/home/adam/w/y.cu", "/home/ada", 60, "~"), "/home/adam/w/y.cu");
	assert_string_equal(exercise_short_path(b, sizeof b, "/tmp/work/demo/scale.cu", "/", 60, "..."), "/tmp/work/demo/scale.cu");
	assert_string_equal(exercise_short_path(b, sizeof b, "/tmp/work/demo/scale.cu", NULL, 14, "..."), "...mo/scale.cu");
	assert_string_equal(exercise_short_path(b, sizeof b, "/tmp/wörk/demo/scale.cu", NULL, 20, "\u2026"), "\u2026/w\u00f6rk/demo/scale.cu");
	tui_role r;
	assert_string_equal(exercise_mark_glyph(EXERCISE_MARK_NONE, &tui_glyphs_ascii, &r), "");
	assert_string_equal(exercise_mark_glyph(EX_PASSED, &tui_glyphs_ascii, &r), "P");
	assert_int_equal(r, ROLE_GOOD);
	assert_string_equal(exercise_mark_glyph(EX_COMPILES, &tui_glyphs_ascii, &r), "s");
	const char *g[] = { tui_glyphs_utf8.ex_todo, tui_glyphs_utf8.ex_started, tui_glyphs_utf8.ex_correct, tui_glyphs_utf8.ex_passed };
	for (int i = 0; i < 4; i++)               /* distinct, one column each */
		for (int k = i + 1; k < 4; k++) assert_string_not_equal(g[i], g[k]);
	assert_string_equal(exercise_word(EXV_SLOW), "NOT YET");
	assert_string_equal(exercise_word(EXV_NO_GPU), "COMPILED");
}

int main(void)
{
	setlocale(LC_CTYPE, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_log_parse),
		cmocka_unit_test(test_first_diag),
		cmocka_unit_test(test_verdict_no_gpu),
		cmocka_unit_test(test_verdict_compile_error),
		cmocka_unit_test(test_verdict_passed_and_wrong),
		cmocka_unit_test(test_verdict_running),
		cmocka_unit_test(test_short_path_and_marks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
