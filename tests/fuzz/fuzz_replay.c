/* libFuzzer target for the replay file reader (src/runner/replay.c, replay_load_buffer): any input is
 * loaded or refused with a message; what is loaded has no control characters left in its text.
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core -Isrc/lesson -Isrc/cuda -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$CUDA_HOME/include \
 *     tests/fuzz/fuzz_replay.c src/runner/replay.c src/lesson/plan.c src/lesson*.c src/lesson/claim_names.c \
 *     src/core/result.c src/lesson/expr.c src/core/util.c -lyaml -lm -o build-fuzz/fuzz_replay */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay.h"

static void clean_or_abort(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++)
		if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7F || (*p == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F)) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	char err[512] = "";
	replay *rp = replay_load_buffer("fuzz.json", (const char *)data, n, err, sizeof err);
	if (!rp) {
		if (!err[0]) abort();
		return 0;
	}
	clean_or_abort(replay_device(rp)->name);
	clean_or_abort(replay_device(rp)->why);
	for (int i = 0; i < replay_count(rp); i++) {
		const run_result *r = replay_result(rp, i);
		clean_or_abort(r->message);
		for (int k = 0; k < r->findings.n; k++) {   /* every finding read back is clean */
			clean_or_abort(r->findings.f[k].rule);
			clean_or_abort(r->findings.f[k].text);
		}
		clean_or_abort(r->settings);
		clean_or_abort(r->log);
	}
	replay_free(rp);
	return 0;
}
