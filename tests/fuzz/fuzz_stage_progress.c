/* libFuzzer target for the learner's progress file (src/engine/progress.c): the input is read as the file,
 * written back, read and written again (the second text must equal the first: the format is stable),
 * then merged into a copy and scored into.
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core -Isrc/lesson -Isrc/cuda -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$CUDA_HOME/include \
 *     tests/fuzz/fuzz_stage_progress.c src/engine/progress.c src/core/util.c -o build-fuzz/fuzz_stage_progress */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "progress.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	progress_state a, b;
	progress_init(&a);
	progress_init(&b);
	progress_parse(&a, (const char *)data, n);
	char *first = progress_format(&a);
	progress_parse(&b, first, strlen(first));
	char *second = progress_format(&b);
	if (strcmp(first, second) != 0) abort();
	if (b.nst != a.nst || b.nsets != a.nsets) abort();
	progress_merge(&b, &a);
	if (b.nst != a.nst || b.nsets != a.nsets) abort();   /* the same records: nothing added */
	run_result r;
	memset(&r, 0, sizeof r);
	r.status = RUN_OK;
	r.ms_median = 1;
	for (int i = 0; i < a.nst; i++) {
		progress_record(&b, a.st[i].lesson, a.st[i].stage, &r);
		const progress_stage *s = progress_get(&b, a.st[i].lesson, a.st[i].stage);
		if (!s || !s->passed || s->failed) abort();
	}
	free(first);
	free(second);
	progress_free(&a);
	progress_free(&b);
	return 0;
}
