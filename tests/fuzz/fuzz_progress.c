/* libFuzzer target for the exercise progress file (work/.progress): the input is written as the
 * file, read back (ex_progress_get), and one record updated (ex_progress_update), which rewrites it.
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core -Isrc/lesson -Isrc/cuda -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$CUDA_HOME/include \
 *     tests/fuzz/fuzz_progress.c src/engine/exercise_work.c src/core/util.c -o build-fuzz/fuzz_progress */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "exercise.h"
#include "util.h"

static char work[64];

static void bump(ex_progress *p, void *ctx)
{
	(void)ctx;
	p->hints++;
	if (p->best < EX_COMPILES) p->best = EX_COMPILES;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	if (!work[0]) {
		snprintf(work, sizeof work, "/tmp/cc_fuzz_progress.XXXXXX");
		if (!mkdtemp(work)) abort();
	}
	char *path = xasprintf("%s/.progress", work), err[512];
	if (file_write_atomic(path, data, n) != 0) abort();
	lesson l;
	lesson_stage s;
	memset(&l, 0, sizeof l);
	memset(&s, 0, sizeof s);
	l.id = "bandwidth";
	s.id = "coalesced";
	ex_progress p;
	ex_progress_get(work, &l, &s, &p, err, sizeof err);
	if (p.best > EX_PASSED || p.last > EX_PASSED) abort();
	if (ex_progress_update(work, &l, &s, bump, NULL, err, sizeof err) == 0) {
		ex_progress q;
		if (ex_progress_get(work, &l, &s, &q, err, sizeof err) != 0 || q.hints < 1) abort();   /* the update reads back */
	}
	free(path);
	return 0;
}
