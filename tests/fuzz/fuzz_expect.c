/* libFuzzer target for a stage's expect: list (src/lesson/lesson_expect.c) and the claims checked on a run
 * (src/engine/claims.c): the input is the flow-style value of expect: in a fixed one-stage lesson. It either
 * loads, with every claim an expression over known names that a run leaves in one of three states,
 * or fails with "fuzz.yaml:line:col: ...".
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core -Isrc/lesson -Isrc/cuda -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I/usr/local/cuda/include tests/fuzz/fuzz_expect.c \
 *     src/lesson/lesson.c src/lesson/lesson_yaml.c src/core/yamldoc.c src/lesson/lesson_stage.c src/lesson/lesson_exercise.c src/lesson/lesson_expect.c \
 *     src/engine/claims.c src/engine/diagnose.c src/lesson/claim_names.c src/core/result.c src/lesson/expr.c src/core/util.c -lyaml -lm -o build-fuzz/fuzz_expect
 *   build-fuzz/fuzz_expect -max_total_time=60 NEW_CORPUS_DIR tests/fuzz/corpus/expect */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claims.h"
#include "lesson.h"

static const char head[] =
	"lesson: t\ntitle: T\nsummary: s\nparams:\n  n: { default: 64, min: 1 }\n"
	"buffers:\n  x: { type: f32, count: n, init: iota }\n  z: { type: f32, count: n, output: true }\n"
	"model: { bytes: \"8 * n\" }\nstages:\n  - id: s1\n    title: S\n    kernel: k.cu\n    entry: k\n"
	"    explain: e\n    bottleneck: b\n    launches:\n      - { grid: 1, block: 32, args: [x, z] }\n"
	"    expect: ";

static int has_position(const char *err)
{
	const char *p = err + strlen("fuzz.yaml:");
	if (strncmp(err, "fuzz.yaml:", strlen("fuzz.yaml:")) != 0) return 0;
	for (int field = 0; field < 2; field++) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p || v < 1 || *end != ':') return 0;
		p = end + 1;
	}
	return *p == ' ';
}

static int name_ok(void *ctx, const char *name, size_t len, int col)
{
	(void)ctx; (void)col;
	return !claims_name_known(name, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024];
	size_t len = sizeof head - 1 + size;
	char *text = malloc(len + 1);
	if (!text) return 0;
	memcpy(text, head, sizeof head - 1);
	memcpy(text + sizeof head - 1, data, size);
	text[len] = 0;
	err[0] = 0;
	lesson *l = lesson_load_buffer("fuzz.yaml", text, len, NULL, err, sizeof err);
	free(text);
	if (!l) {
		if (!has_position(err)) abort();
		return 0;
	}
	const lesson_stage *s = &l->stages[0];
	if (s->nclaims < 0 || s->nclaims > 32 || (s->nclaims && !s->claims)) abort();
	for (int i = 0; i < s->nclaims; i++) {
		if (!s->claims[i].cond.e || expr_names(s->claims[i].cond.e, name_ok, NULL)) abort();
		if (s->claims[i].why && (!s->claims[i].why[0] || strchr(s->claims[i].why, '\n'))) abort();
	}
	/* a run with some counters, timings from the input's length */
	run_result run, prev;
	run_result_init(&run);
	run_result_init(&prev);
	run.status = prev.status = RUN_OK;
	run.ms_median = 1 + (double)(size % 7), prev.ms_median = 2;
	run.bytes = 512, run.dram_bytes_read = 256.0 * (double)(size % 5), run.dram_bytes_write = 0;
	run.warp_efficiency = 32, run.grid[0] = run.block[0] = 32, run.grid[1] = run.grid[2] = run.block[1] = run.block[2] = 1;
	run.smem_conflicts_ld = run.smem_conflicts_st = (double)size;
	snprintf(run.settings, sizeof run.settings, "n=64");
	snprintf(prev.settings, sizeof prev.settings, "n=64");
	snprintf(run.stalls, sizeof run.stalls, "long_scoreboard 50%%, barrier 30%%, wait 20%%");
	claims_runs runs = {&run, size % 2 ? &prev : NULL, NULL, NULL};
	claim_outcome o[32];
	int n = claims_check(l, 0, &runs, o, 32);
	if (n != s->nclaims) abort();
	for (int i = 0; i < n; i++) {
		if ((unsigned)o[i].state >= CLAIM_STATE_COUNT || o[i].claim != &s->claims[i]) abort();
		if (!memchr(o[i].values, 0, sizeof o[i].values) || !memchr(o[i].why, 0, sizeof o[i].why)) abort();
		if ((o[i].state == CLAIM_UNKNOWN) != (o[i].why[0] != 0)) abort();   /* unknown says why, and only it */
	}
	lesson_free(l);
	return 0;
}
