/* report: the CLI's text for a lesson (show): paragraphs wrapped, "- " and "1. " lines kept as list
 * items with a hanging indent (#19), and text from the lesson file printed without its control
 * characters; a run's steps (their streams and bytes, the first and last of many, the timeline on
 * more than one stream) and the bound of a stage that copies, beside its result; a device name in the
 * header without its control characters. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lesson.h"
#include "report.h"
#include "timeline_fixture.h"

static const char text[] =
	"lesson: r\n"
	"title: \"Report \\e[2Jtest\"\n"
	"summary: |\n"
	"  A first paragraph whose lines\n"
	"  are joined.\n"
	"  - an item\n"
	"    that goes on\n"
	"  - a second item\n"
	"  After the list, a paragraph.\n"
	"\n"
	"  1. first\n"
	"  2. second, long enough to wrap: aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo\n"
	"buffers:\n  z: { type: f32, count: 4, output: true }\n"
	"model: { bytes: 4 }\n"
	"stages:\n"
	"  - id: s\n    title: S\n    kernel: k.cu\n    entry: k\n"
	"    launches:\n      - { grid: 1, block: 32 }\n"
	"    explain: |\n"
	"      Two changes:\n"
	"      - one\n"
	"      - two\n"
	"    bottleneck: \"Bell \\a and escape \\e]52;c;aGk= gone.\"\n";

static char *show(void)
{
	char err[512];
	lesson *l = lesson_load_buffer("r.yaml", text, strlen(text), NULL, err, sizeof err);
	if (!l) fail_msg("%s", err);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	report_lesson(f, l);
	fclose(f);
	lesson_free(l);
	return out;
}

static void expect_in(const char *out, const char *want)
{
	if (!strstr(out, want)) fail_msg("output lacks:\n%s\n--- output:\n%s", want, out);
}

static void test_lists(void **state)
{
	(void)state;
	char *out = show();
	expect_in(out,
	          "  A first paragraph whose lines are joined.\n"
	          "  - an item that goes on\n"
	          "  - a second item\n"
	          "  After the list, a paragraph.\n"
	          "\n"
	          "  1. first\n"
	          "  2. second, long enough to wrap: aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm\n"
	          "     nnnn oooo\n");
	expect_in(out, "   Two changes:\n   - one\n   - two\n");
	free(out);
}

static void test_control_characters(void **state)
{
	(void)state;
	char *out = show();
	assert_null(strchr(out, '\033'));
	assert_null(strchr(out, '\a'));
	expect_in(out, "r - Report ?[2Jtest\n");
	expect_in(out, "Bell ? and escape ?]52;c;aGk= gone.");
	free(out);
}

/* What f printed, as a string the caller frees. */
typedef struct { char *out; size_t len; FILE *f; } capture;
static FILE *capture_start(capture *c) { c->out = NULL; c->len = 0; return c->f = open_memstream(&c->out, &c->len); }
static char *capture_end(capture *c) { fclose(c->f); return c->out; }

static int lines_starting(const char *out, const char *prefix)
{
	int n = 0;
	for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		n += !strncmp(p, prefix, strlen(prefix));
	return n;
}

static void test_steps_two_streams(void **state)
{
	(void)state;
	run_result r;
	device_info d;
	capture c;
	fx_device(&d, 50, 40);
	fx_pipeline(&r, "pipe", 8, 2, 8e6, 50, 40, 0.05);
	report_steps(capture_start(&c), &r, &d, 0);
	char *out = capture_end(&c);
	expect_in(out, "\nSteps of pipe: 8 h2d copies, 8 kernels, 8 d2h copies on 2 streams\n");
	expect_in(out, "  #   kind   name                     stream grid or bytes    block        dyn smem  regs        ms     start       end\n");
	expect_in(out, "  1   copy   h_x>d_x                       1 h2d 8.00 MB      -                   0     -    0.1600    0.0000    0.1600\n");
	expect_in(out, "  2   launch work                          1 256,1,1          256,1,1             0     -    0.0500    0.1600    0.2100\n");
	expect_in(out, "  24  copy   d_x>h_y                       2 d2h 8.00 MB");
	expect_in(out, "\nTimeline of pipe, one row per stream (from the events around each step):\ns1   >>>");
	assert_int_equal(lines_starting(out, "s1 "), 1);
	assert_int_equal(lines_starting(out, "s2 "), 1);
	assert_int_equal(lines_starting(out, "both "), 1);
	expect_in(out, "Bound 1.60 ms (d2h 64.0 MB at 40.0 GB/s); 1.15x the bound.\n");
	for (const char *p = out, *e; *p; p = e + 1) {   /* the chart in 80 columns, ASCII */
		e = strchr(p, '\n');
		if (!e) break;
		if (!strncmp(p, "s1 ", 3)) assert_true(e - p <= 80);
	}
	assert_null(strstr(out, "\xe2"));
	free(out);
	/* UTF-8 when asked */
	report_steps(capture_start(&c), &r, &d, 1);
	out = capture_end(&c);
	expect_in(out, "s1   \u25b8\u25b8");
	free(out);
}

static void test_steps_one_stream(void **state)
{
	(void)state;
	run_result r;
	device_info d;
	capture c;
	fx_device(&d, 50, 40);
	fx_pipeline(&r, "serial", 1, 1, 8e6, 50, 40, 0.05);
	report_steps(capture_start(&c), &r, &d, 0);
	char *out = capture_end(&c);
	expect_in(out, "Steps of serial: 1 h2d copy, 1 kernel, 1 d2h copy\n");
	assert_null(strstr(out, "Timeline of"));       /* one stream: the table says it all */
	free(out);
	/* one step: nothing */
	fx_run(&r, "one", 1);
	fx_step(&r, "launch", "k", 0, "", 0, 0, 1);
	report_steps(capture_start(&c), &r, &d, 0);
	out = capture_end(&c);
	assert_string_equal(out, "");
	free(out);
}

static void test_steps_many(void **state)
{
	(void)state;
	run_result r;
	device_info d;
	capture c;
	fx_device(&d, 50, 40);
	fx_pipeline(&r, "chunks", 42, 4, 8e6, 50, 40, 0.01);
	report_steps(capture_start(&c), &r, &d, 0);
	char *out = capture_end(&c);
	expect_in(out, "Steps of chunks: 42 h2d copies, 42 kernels, 42 d2h copies on 4 streams\n");
	expect_in(out, "  16  copy   h_x>d_x ");
	expect_in(out, "\n  ... steps 17 to 122: 35 h2d copies, 36 kernels, 35 d2h copies (run --json lists every step)\n  123 ");
	expect_in(out, "\n  126 copy   d_x>h_y ");
	assert_null(strstr(out, "\n  17  "));
	assert_int_equal(lines_starting(out, "  1"), 1 + 7 + 4);   /* 1, 10..16, then 123..126 */
	assert_int_equal(lines_starting(out, "s4 "), 1);
	free(out);
	/* the record's limit, said */
	fx_step(&r, "memset", "acc", 0, "", 64, -1, -1);
	fx_step(&r, "memset", "acc", 0, "", 64, -1, -1);
	assert_int_equal(r.nsteps, RUN_MAX_STEPS);
	report_steps(capture_start(&c), &r, &d, 0);
	out = capture_end(&c);
	expect_in(out, "Steps of chunks: 42 h2d copies, 2 memsets, 42 kernels, 42 d2h copies on 4 streams "
	               "(the record keeps the first 128 steps)\n");
	free(out);
	/* a name from a recording cannot drive the terminal */
	snprintf(r.steps[0].entry, sizeof r.steps[0].entry, "h\033[2J>d");
	report_steps(capture_start(&c), &r, &d, 0);
	out = capture_end(&c);
	assert_null(strchr(out, '\033'));
	free(out);
}

static void test_footer_bound(void **state)
{
	(void)state;
	char err[512];
	lesson *l = lesson_load_buffer("r.yaml", text, strlen(text), NULL, err, sizeof err);
	if (!l) fail_msg("%s", err);
	run_result rs[3];
	device_info d;
	capture c;
	fx_device(&d, 50, 40);
	fx_pipeline(&rs[0], "chunked", 8, 2, 8e6, 50, 40, 0.05);
	fx_pipeline(&rs[1], "older", 8, 2, 8e6, 50, 40, 0.05);
	rs[1].bound_ms = 0;                       /* a record without the bound */
	fx_run(&rs[2], "plain", 1);
	report_footer(capture_start(&c), l, SCORE_GBPS, &d, rs, 3);
	char *out = capture_end(&c);
	expect_in(out, "\nchunked: bound 1.60 ms (d2h 64.0 MB at 40.0 GB/s); 1.15x the bound\n");
	expect_in(out, "\nolder: copies 64.0 MB h2d and 64.0 MB d2h; no bound recorded (it needs the device's measured copy bandwidth)\n");
	assert_null(strstr(out, "plain: bound"));
	assert_null(strstr(out, "plain: copies"));
	free(out);
	for (int i = 0; i < 3; i++) run_result_clear(&rs[i]);
	lesson_free(l);
}

/* A device name comes from a recording or results file someone else may have written: the header
 * prints it without control sequences (ESC, BEL, a C1 CSI as UTF-8). */
static void test_header_device_name(void **state)
{
	(void)state;
	char err[512];
	lesson *l = lesson_load_buffer("r.yaml", text, strlen(text), NULL, err, sizeof err);
	if (!l) fail_msg("%s", err);
	device_info d;
	capture c;
	fx_device(&d, 50, 40);
	snprintf(d.name, sizeof d.name, "GPU \033]52;c;aGk=\a\033[2J\302\2332J end");
	report_header(capture_start(&c), l, &d);
	char *out = capture_end(&c);
	expect_in(out, "GPU ?]52;c;aGk=??[2J?2J end");
	assert_null(strchr(out, '\033'));
	assert_null(strchr(out, '\a'));
	assert_null(strstr(out, "\302\233"));
	free(out);
	lesson_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_control_characters),
		cmocka_unit_test(test_steps_two_streams),
		cmocka_unit_test(test_steps_one_stream),
		cmocka_unit_test(test_steps_many),
		cmocka_unit_test(test_footer_bound),
		cmocka_unit_test(test_header_device_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
