/* libFuzzer target for the arch.yaml loader (arch_load_buffer), and for occ_compute fed from whatever
 * limits a file that loads carries.
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I/usr/local/cuda/include -Isrc/core -Isrc/lesson -Isrc/cuda -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app \
 *     tests/fuzz/fuzz_arch.c src/cuda/arch.c src/core/yamldoc.c src/engine/occupancy.c -lyaml -o build-fuzz/fuzz_arch
 *   build-fuzz/fuzz_arch -max_total_time=60 NEW_CORPUS_DIR tests/fuzz/corpus/arch */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "occupancy.h"

static const occ_kernel kernels[] = {
	{256, 32, 0, 0}, {1024, 255, 0, 0}, {32, 0, 0, 0}, {128, 40, 1024, 48 * 1024}, {96, 64, 0, 232448},
	{1, 1, 49152, 0}, {1024, 64, 0, 0},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	if (arch_load_buffer("fuzz.yaml", (const char *)data, size, err, sizeof err) != 0) {
		/* every failure says where */
		if (strncmp(err, "fuzz.yaml:", 10) != 0)
			abort();
		return 0;
	}
	int n = arch_count();
	if (n <= 0 || !arch_at(0) || arch_at(n))
		abort();
	for (int i = 0; i < n; i++) {
		const arch_info *a = arch_at(i);
		char name[16];
		memcpy(name, a->name, sizeof name);
		if (arch_find(name) != a)
			abort();
		for (size_t j = 0; j < sizeof kernels / sizeof kernels[0]; j++) {
			occ_result r;
			int rc = occ_compute(a, &kernels[j], &r, err, sizeof err);
			if (rc != 0 && !err[0])
				abort(); /* a failure always says why */
			if (rc == 0 && (r.active_blocks <= 0 || r.active_warps > r.max_warps || r.occupancy > 1.0))
				abort();
		}
	}
	/* arch_find on the input's first bytes, as a name */
	char probe[12];
	size_t m = size < sizeof probe - 1 ? size : sizeof probe - 1;
	memcpy(probe, data, m);
	probe[m] = 0;
	(void)arch_find(probe);
	arch_unload();
	return 0;
}
