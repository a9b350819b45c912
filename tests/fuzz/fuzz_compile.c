/* libFuzzer target for the compiler's reports read back (src/cuda/compile_parse.c): the input as a ptxas
 * --verbose log, then as PTX for the entries' parameter lists, then both on one result.
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core -Isrc/lesson -Isrc/cuda -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$CUDA_HOME/include \
 *     tests/fuzz/fuzz_compile.c src/cuda/compile_parse.c src/core/util.c -o build-fuzz/fuzz_compile */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "compile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	char *text = malloc(n + 1);
	if (!text) return 0;
	memcpy(text, data, n);
	text[n] = 0;
	compile_result r;
	memset(&r, 0, sizeof r);
	compile_parse_ptxas(text, &r);
	if (r.nentries < 0 || r.nentries > COMPILE_MAX_ENTRIES) abort();
	compile_parse_ptx_params(text, &r);
	if (r.nentries > COMPILE_MAX_ENTRIES) abort();
	for (int i = 0; i < r.nentries; i++) {
		if (r.entries[i].nparams > COMPILE_MAX_PARAMS) abort();
		for (int k = 0; k < r.entries[i].nparams; k++)
			if (r.entries[i].params[k].size <= 0 || !strchr("ifb", r.entries[i].params[k].kind)) abort();
		if (compile_find_entry(&r, r.entries[i].name) == NULL) abort();
	}
	free(text);
	return 0;
}
