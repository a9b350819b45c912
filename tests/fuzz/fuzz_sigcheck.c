/* libFuzzer target for the signature check's reading of a kernel source (src/engine/sigcheck.c,
 * sigcheck_pointer_types): a learner's file, so hostile input in the lab service's judge. The input is
 * the source; the plan is one launch of k(x, idx, n) with an f32 and an i32 buffer, as in
 * tests/test_sigcheck.c. A verdict is 0 or -1 with "signature" and a message; nothing else.
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core -Isrc/lesson -Isrc/cuda -Isrc/engine -I$CUDA_HOME/include \
 *     tests/fuzz/fuzz_sigcheck.c (the sources scripts/fuzz.sh lists for it) -o build-fuzz/fuzz_sigcheck */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sigcheck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	static plan_buffer bufs[2] = { { .name = "x", .type = DT_F32 }, { .name = "idx", .type = DT_I32 } };
	plan_arg args[3] = { { .kind = ARG_BUFFER, .buffer = "x" }, { .kind = ARG_BUFFER, .buffer = "idx" }, { .kind = ARG_VALUE, .type = AT_I32 } };
	plan_launch L = { .kind = STEP_LAUNCH, .entry = "k", .args = args, .nargs = 3 };
	plan p = { .buffers = bufs, .nbuffers = 2, .launches = &L, .nlaunches = 1 };
	char *src = malloc(n + 1);
	if (!src) return 0;
	memcpy(src, data, n);
	src[n] = 0;
	char issue[32] = "", msg[512] = "";
	int r = sigcheck_pointer_types(&p, src, "kernels/demo/k.cu", issue, sizeof issue, msg, sizeof msg);
	if (r != 0 && r != -1) abort();
	if (r == -1 && (strcmp(issue, "signature") || !msg[0])) abort();
	if (memchr(msg, 0, sizeof msg) == NULL) abort();
	free(src);
	return 0;
}
