/* counters: hardware counters for one stage through the CUPTI range profiler (user range, user replay).
 *
 * libcupti is loaded with dlopen at counters_open, so the binary starts (and runs without counters)
 * where CUPTI is missing; no -lcupti is needed to link.
 *
 * One stage may be several kernels and memsets: counters_measure profiles everything the launch
 * callback issues as ONE range. Over such a range, bytes and conflict counts are sums over all the
 * kernels, while percentages and ratios (achieved occupancy, hit rates, warp efficiency, throughput
 * percentages, stall shares) are cycle-weighted averages over the range, not per-kernel values.
 * Units as run_result keeps them: achieved_occupancy 0..1 (like occ_theoretical), *_pct 0..100,
 * warp_efficiency in threads per instruction (32 = no divergence), bytes and conflicts as counts;
 * tensor_pct is the busiest tensor-pipe metric the GPU has (all tensor work on Hopper; hmma, and gmma
 * where it exists, elsewhere); it reads a few % on kernels without a tensor instruction (5% on an
 * integer reduction on an H100), so whether Tensor Cores ran at all is tensor_inst, the count of
 * HMMA and IMMA warp instructions, or of GMMA where larger (Hopper's hmma counter counts wgmma too). warp_efficiency_pred_on counts only the lanes whose predicate
 * is on, so it sees the divergence that warp_efficiency (active lanes) misses.
 * The range runs from before the first launch to after the last, so "% of peak over elapsed time"
 * (dram_pct, sm_pct) counts the launch gap too: for a 0.14 ms copy they read about 20% below ncu's
 * per-kernel figure, for millisecond stages a few percent. Bytes, conflicts, occupancy and ratios are
 * unaffected. Use the timed bandwidth (pct_attainable_bw) for "how close to the ceiling".
 * DRAM writes include write-backs of dirty L2 lines left by earlier work (up to the L2's size); ncu,
 * replaying one kernel, misses the lines its kernel leaves dirty instead (a copy: ours 1.00x the
 * written bytes, ncu 0.93x on an H200).
 * Cost on an H200 (CUDA 13.0): 27 passes, about 0.3 s per measurement for a 0.15 ms kernel (pass
 * overhead dominates); counters_open about 0.8 s.
 *
 * Testing: with CUDACLIMB_FAKE_CUPTI_ERROR=<code> in the environment, counters_open fails as if its
 * first CUPTI call had returned that CUptiResult (35 gives the permission message); it does so before
 * loading anything, so the path can be tried on a machine without a GPU. */
#ifndef CC_COUNTERS_H
#define CC_COUNTERS_H
#include <stddef.h>
#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct counters counters;

/* Opens counters for CUDA device `device`, whose runtime context is current (cudaSetDevice +
 * cudaFree(0) done by the caller). Returns NULL with one line in why when counters cannot be read
 * (no permission, unsupported or virtualised GPU, CUPTI library missing, ...). */
counters *counters_open(int device, char *why, size_t whylen);

/* Number of replay passes the chosen metrics need (each pass runs the whole stage once). */
int counters_passes(const counters *c);

/* Profiles the launches that launch(ctx) issues as one range: calls launch once per pass until every
 * pass is submitted (launch returns 0 or a cudaError_t; the device is synchronised after each call),
 * then fills r's counter fields, counter_passes and counter_ms (host wall time of the whole profiling).
 * Fields whose metric this GPU lacks stay as they were (-1 after run_result_init). launch must redo the
 * same work each time; restoring inputs an in-place stage changed is its business.
 * Returns 0; a cudaError_t (> 0) from launch or from synchronising; or -1 when CUPTI failed (then
 * r->counters_note says why too). err gets one line on failure. */
int counters_measure(counters *c, int (*launch)(void *ctx), void *ctx, run_result *r,
                     char *err, size_t errlen);

/* Frees everything; NULL is allowed. */
void counters_close(counters *c);

/* The i-th metric name cudaclimb asks CUPTI for (the Perf API names, the same as ncu's --metrics
 * takes), the stall reasons' last; NULL past the end. Needs no GPU (cudaclimb profile prints them). */
const char *counters_metric_name(int i);

/* The raw metric values of the last counters_measure: fills up to max names (owned by c, valid until
 * counters_close) and values (NaN where the GPU gave none); returns the count, 0 before any measure.
 * Only the metrics this GPU has are listed. For comparisons with ncu (scripts/ncu-compare.sh). */
int counters_values(const counters *c, const char **names, double *values, int max);

#ifdef __cplusplus
}
#endif
#endif
