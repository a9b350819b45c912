/* hotspots: where a stage's kernel spends its time, from CUPTI's PC Sampling API: the hardware
 * samples each SM's warps' program counters at a fixed period while the stage's launches run again,
 * and each sample says why its warp was not issuing (its stall reason) or that it was.
 *
 * The worker side: hotspots_open enables sampling on the current context; it comes before the
 * module of the code to sample is loaded (gpu_worker loads the stage's code again, under a name of
 * its own, for the pass). hotspots_measure repeats the launches in start/stop ranges of about 25 ms
 * and writes the samples in the result's text form (below). libcupti is loaded with dlopen, as the
 * counters do: no -lcupti, and a binary that starts without it.
 *
 * The text form (run_result.hotspots, one line): items separated by ';'
 *   "total=N,dropped=N,other=N"  first: every sample the hardware took in the sampled runs, those it
 *                                dropped, those in kernels that are not the stage's (CUPTI's)
 *   "@NAME"                      the function of the PCs that follow
 *   "OFF:N:r=c,r=c,..."          the instruction at hex offset OFF in that function (nvdisasm's
 *                                address) had N samples, c of them with stall reason r (CUPTI's
 *                                name without "smsp__pcsamp_warps_issue_stalled_")
 * e.g. "total=5000,dropped=0,other=0;@transpose_tile;140:300:long_scoreboard=250,selected=50".
 * It is parsed back by hotspots_map.h (hot_parse).
 *
 * CUDACLIMB_PC_PERIOD=N (5..31) samples every 2^N cycles instead of CUPTI's default.
 * Testing: CUDACLIMB_FAKE_CUPTI_ERROR=<code> makes hotspots_open fail as if its first CUPTI call
 * had returned that CUptiResult (35: the permission message), before loading anything. */
#ifndef CC_HOTSPOTS_H
#define CC_HOTSPOTS_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hotspots hotspots;

/* Enables PC sampling (start/stop controlled, not started) on the current CUDA context of device
 * `device` (cudaSetDevice and cudaFree(0) done). NULL with one line in why when it cannot (no
 * permission, an unsupported GPU, no libcupti, ...). */
hotspots *hotspots_open(int device, char *why, size_t whylen);

/* Samples launch(ctx) (0 or a cudaError_t; synchronised after each call), called again and again
 * for at least min_ms of wall time and at least 3 times, in sampling ranges; then *text gets
 * the samples in the text form above (malloc'ed, the caller frees) and note (may be NULL) one line
 * when the data is incomplete (samples dropped, the buffer full), else "". Returns 0; a cudaError_t
 * (> 0) from launch; or -1 when CUPTI failed (err says why in one line). */
int hotspots_measure(hotspots *h, int (*launch)(void *ctx), void *ctx, double min_ms, char **text,
                     char *note, size_t notelen, char *err, size_t errlen);

/* Disables sampling and frees everything; NULL is allowed. */
void hotspots_close(hotspots *h);

#ifdef __cplusplus
}
#endif
#endif
