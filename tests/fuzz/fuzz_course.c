/* libFuzzer target for the course file (course_load_buffer) and the class results' lines: the input
 * is read as a course.yaml, and written as a results file of this user and read back
 * (results_read), then turned into the class table and its four reports.
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core -Isrc/lesson -Isrc/cuda -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$CUDA_HOME/include tests/fuzz/fuzz_course.c \
 *     src/engine/course.c src/engine/results.c src/app/class_report.c src/core/json.c src/lesson*.c src/core/yamldoc.c src/lesson/expr.c src/core/util.c -lyaml -lm */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "class_report.h"
#include "course.h"
#include "results.h"
#include "util.h"

static char dir[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	if (!dir[0]) {
		snprintf(dir, sizeof dir, "/tmp/cc_fuzz_course.XXXXXX");
		if (!mkdtemp(dir)) abort();
	}
	char err[512];
	course *c = course_load_buffer("course.yaml", dir, (const char *)data, n, err, sizeof err);
	course_free(c);
	static const char yaml[] = "course: f\ntitle: F\nexercises: [a/x, { exercise: b/y, due: \"2026-01-01\" }]\nresults: r\n";
	c = course_load_buffer("course.yaml", dir, yaml, sizeof yaml - 1, err, sizeof err);
	if (!c) abort();
	char *rdir = xasprintf("%s/r", dir), *file = xasprintf("%s/r/%u-me.jsonl", dir, (unsigned)getuid());
	mkdir_p(rdir, 0755);
	if (file_write_atomic(file, data, n)) abort();
	result_record *r;
	int k;
	results_stats st;
	if (results_read(c, &r, &k, &st, err, sizeof err) == 0) {
		class_table t;
		class_table_make(&t, c, r, k);
		FILE *f = fopen("/dev/null", "w");
		class_report_text(f, &t);
		class_report_csv(f, &t);
		class_report_json(f, &t);
		class_report_html(f, &t);
		fclose(f);
		class_table_free(&t);
		results_free(r, k);
	}
	free(rdir);
	free(file);
	course_free(c);
	return 0;
}
