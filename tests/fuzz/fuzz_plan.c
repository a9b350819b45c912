/* libFuzzer target for the plan text the worker reads (src/lesson/plan_wire.c): any input is read or refused
 * with a message; a plan that is read is written again, and that text reads back to the same text.
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core -Isrc/lesson -Isrc/cuda -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$CUDA_HOME/include \
 *     tests/fuzz/fuzz_plan.c src/lesson/plan_wire.c src/lesson/plan.c src/lesson*.c src/engine/claims.c src/engine/diagnose.c \
 *     src/core/result.c src/lesson/expr.c src/core/util.c -lyaml -lm -o build-fuzz/fuzz_plan */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plan_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	plan p, q;
	char err[512];
	if (plan_wire_read(&p, (const char *)data, n, err, sizeof err)) {
		if (!err[0]) abort();   /* a refusal always says why */
		plan_free(&p);
		return 0;
	}
	sb a = {0}, b = {0};
	plan_wire_write(&a, &p);
	if (plan_wire_read(&q, a.s, a.len, err, sizeof err)) { fprintf(stderr, "%s\n%s", err, a.s); abort(); }
	plan_wire_write(&b, &q);
	if (a.len != b.len || memcmp(a.s, b.s, a.len)) abort();
	sb_free(&a);
	sb_free(&b);
	plan_free(&p);
	plan_free(&q);
	return 0;
}
