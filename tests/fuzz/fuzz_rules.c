/* libFuzzer target for the rules loader (diagnose_load_buffer) and, for any file that loads, the
 * evaluation and rendering of its rules on a few runs (measured values, nothing measured, extremes).
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core -Isrc/lesson -Isrc/cuda -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app \
 *     tests/fuzz/fuzz_rules.c src/engine/diagnose.c src/lesson/claim_names.c src/lesson/expr.c -lyaml -lm -o build-fuzz/fuzz_rules
 *   build-fuzz/fuzz_rules -max_total_time=60 NEW_CORPUS_DIR tests/fuzz/corpus/rules */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose.h"

static void blank(run_result *r)
{
	memset(r, 0, sizeof *r);
	r->achieved_occupancy = r->dram_bytes_read = r->dram_bytes_write = r->dram_pct = -1;
	r->l1_hit_pct = r->l2_hit_pct = r->smem_conflicts_ld = r->smem_conflicts_st = -1;
	r->warp_efficiency = r->branch_uniform_pct = r->sm_pct = r->tensor_pct = -1;
}

static void measured(run_result *r)
{
	blank(r);
	r->grid[0] = 65536, r->grid[1] = r->grid[2] = 1;
	r->block[0] = r->block[1] = 32, r->block[2] = 1;
	r->occ_blocks = 2, r->occ_theoretical = 1.0, r->regs = 16;
	snprintf(r->occ_limiter, sizeof r->occ_limiter, "registers");
	r->ms_median = 0.29, r->bytes = 536870912.0, r->gbps = 1851, r->pct_attainable_bw = 43;
	r->achieved_occupancy = 0.896, r->dram_bytes_read = 2.684e8, r->dram_bytes_write = 2.685e8;
	r->smem_conflicts_ld = 6.549e7, r->smem_conflicts_st = 6.582e7, r->warp_efficiency = 32;
	snprintf(r->stalls, sizeof r->stalls, "long_scoreboard 26%%, short_scoreboard 24%%, drain 20%%");
}

static void extreme(run_result *r)
{
	measured(r);
	r->grid[0] = r->grid[1] = r->grid[2] = 0xffffffffu;
	r->block[0] = 1, r->block[1] = r->block[2] = 1;
	r->dram_bytes_read = 1e300, r->dram_bytes_write = 1e300;   /* sum overflows to inf: unknown */
	r->bytes = 1e-300, r->flops = NAN, r->ms_median = 1e-300, r->gbps = INFINITY;
	r->spill_stores = 2147483647, r->spill_loads = 2147483647;
	r->static_smem = INT64_MAX, r->dynamic_smem = INT64_MAX;
	snprintf(r->stalls, sizeof r->stalls, "wait nan%%, , selected 1e999%%, barrier");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	if (diagnose_load_buffer("fuzz.yaml", (const char *)data, size, err, sizeof err) != 0) {
		if (strncmp(err, "fuzz.yaml:", 10) != 0)
			abort();   /* every failure says where */
		return 0;
	}
	int n = diagnose_count();
	if (n <= 0 || !diagnose_rule_id(0) || diagnose_rule_id(n))
		abort();
	static const diag_inputs ins[] = {{0, 0, 132, 4300, 67000}, {1e9, 1e12, 1, 1e-9, 1e300}, {0, 0, 0, 0, 0}};
	run_result r;
	diag_finding f[16];
	for (int k = 0; k < 3; k++)
		for (size_t j = 0; j < sizeof ins / sizeof ins[0]; j++) {
			if (k == 0)
				blank(&r);
			else if (k == 1)
				measured(&r);
			else
				extreme(&r);
			int got = diagnose_run(&r, &ins[j], f, 16);
			if (got < 0 || got > 16 || got > n)
				abort();
			for (int i = 0; i < got; i++)
				if (strnlen(f[i].text, sizeof f[i].text) == sizeof f[i].text || !f[i].rule[0] ||
				    f[i].severity >= DIAG_SEVERITY_COUNT || (i && f[i].severity < f[i - 1].severity))
					abort();
		}
	diagnose_unload();
	return 0;
}
