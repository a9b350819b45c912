/* libFuzzer target for the compute-sanitizer report parser (san_parse), both tools, with and
 * without a file hint, into a buffer of any size.
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core -Isrc/lesson -Isrc/cuda -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$CUDA_HOME/include \
 *     tests/fuzz/fuzz_sanitize.c src/engine/sanitize.c src/core/util.c -o build-fuzz/fuzz_sanitize */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sanitize.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	char *text = malloc(n + 1);
	if (!text) return 0;
	memcpy(text, data, n);
	text[n] = 0;
	char out[512], tiny[3];
	san_parse(SAN_MEMCHECK, text, "fault.cu", out, sizeof out);
	san_parse(SAN_RACECHECK, text, NULL, out, sizeof out);
	san_parse(n % 2 ? SAN_MEMCHECK : SAN_RACECHECK, text, "/a/b/k.cuh", tiny, sizeof tiny);
	free(text);
	return 0;
}
