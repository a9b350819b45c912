/* libFuzzer target for the nvdisasm listing parser (sass_parse) and the lookups over its result.
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core -Isrc/lesson -Isrc/cuda -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$CUDA_HOME/include \
 *     tests/fuzz/fuzz_sass.c src/cuda/sass.c src/core/util.c -o build-fuzz/fuzz_sass */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sass.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	char *text = malloc(n + 1);
	if (!text) return 0;
	memcpy(text, data, n);
	text[n] = 0;
	sass_listing l;
	sass_parse(text, &l);
	int total = 0;
	for (int i = 0; i < l.nfuncs; i++) {
		total += l.funcs[i].count;
		if (l.funcs[i].first + l.funcs[i].count > l.n || !sass_find_func(&l, l.funcs[i].name)) abort();
	}
	if (total != l.n) abort();
	for (int i = 0; i < l.n; i++) {
		if ((unsigned)l.insn[i].cls >= SC_COUNT || l.insn[i].file >= l.nfiles) abort();
		sass_file_is(&l, l.insn[i].file, "x.cu");
	}
	sass_free(&l);
	free(text);
	return 0;
}
