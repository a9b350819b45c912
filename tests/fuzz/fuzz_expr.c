/* libFuzzer target for src/lesson/expr.c: parse, evaluate, list names, format, free. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"

static const struct { const char *name; expr_value v; } fuzz_names[] = {
	{"n", {EXPR_INT, 1 << 20, 0}},  {"BLOCK", {EXPR_INT, 256, 0}}, {"sm_count", {EXPR_INT, 132, 0}},
	{"TM", {EXPR_INT, 8, 0}},       {"TN", {EXPR_INT, 8, 0}},      {"zero", {EXPR_INT, 0, 0}},
	{"big", {EXPR_INT, INT64_MAX, 0}}, {"small", {EXPR_INT, INT64_MIN, 0}},
	{"scale", {EXPR_FLOAT, 0, 0.5}}, {"bw", {EXPR_FLOAT, 0, 3.35e12}}, {"tiny", {EXPR_FLOAT, 0, 5e-324}},
	{"huge", {EXPR_FLOAT, 0, 1.7e308}},
};

static int fuzz_lookup(void *ctx, const char *name, size_t len, expr_value *out)
{
	(void)ctx;
	for (size_t i = 0; i < sizeof fuzz_names / sizeof fuzz_names[0]; i++)
		if (strlen(fuzz_names[i].name) == len && !memcmp(fuzz_names[i].name, name, len)) {
			*out = fuzz_names[i].v;
			return 0;
		}
	return -1;
}

static int fuzz_visit(void *ctx, const char *name, size_t len, int col)
{
	const char *src = ctx;
	/* every visited name must lie inside the source, at its column */
	if (col < 1 || (size_t)col - 1 + len > strlen(src) || memcmp(src + col - 1, name, len) != 0)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *src = malloc(size + 1);
	if (!src)
		return 0;
	memcpy(src, data, size);
	src[size] = '\0';
	expr_error err = { "", 0 };
	expr *e = expr_parse(src, &err);
	if (!e) {
		if (err.msg[0] == '\0' || err.col < 1 || (size_t)err.col > strlen(src) + 1)
			abort();
		free(src);
		return 0;
	}
	expr_names(e, fuzz_visit, (void *)expr_source(e));
	expr_value v;
	char buf[64];
	if (expr_eval(e, fuzz_lookup, NULL, &v, &err) == 0) {
		expr_format(v, buf, sizeof buf);
		expr_format(v, buf, 5);
		(void)expr_as_int(v);
		(void)expr_as_double(v);
	} else if (err.msg[0] == '\0' || err.col < 1 || (size_t)err.col > strlen(src) + 1) {
		abort();
	}
	expr_free(e);
	free(src);
	return 0;
}
