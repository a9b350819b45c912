/* report: the CLI's text for a lesson (show): paragraphs wrapped, "- " and "1. " lines kept as list
 * items with a hanging indent (#19), and text from the lesson file printed without its control
 * characters. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_control_characters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
