/* diagnose: turns one run's numbers into sentences, with rules kept as data (assets/rules.yaml).
 *
 * The file is a mapping with one key, `rules`, a list of rules:
 *   - id: uncoalesced                 # [a-z0-9_], unique
 *     when: dram_bytes >= 1e6 && bytes_ratio >= 2     # an expr.h expression; true = the rule fires
 *     severity: warning               # critical | warning | info | done (done: at a ceiling, nothing to fix)
 *     title: Uncoalesced global access
 *     text: The GPU moved {bytes_ratio|.1f}x the bytes your model counts.
 * In text, {EXPR} or {EXPR|FORMAT} is replaced by the value of an expression; FORMAT is .Nf (N 0..6),
 * d (integer), pct (a 0..1 fraction as a whole percentage, "41%"), x ("8.0x") or bytes ("1.07 GB");
 * without one an integer prints whole and a float with 3 significant digits. {stalls} and {occ_limiter}
 * insert run_result's strings. {{ and }} are literal braces.
 *
 * Names in expressions (diagnose_names lists them): counter values as run_result keeps them
 * (achieved_occupancy 0..1, *_pct 0..100, warp_efficiency 0..32, ...), dram_bytes (read + write),
 * model_bytes, bytes_ratio (dram_bytes / model_bytes), smem_conflicts (ld + st), smem_conflicts_per_warp
 * (and _ld_per_warp, _st_per_warp), warp_efficiency_pred_on (0..32, lanes not predicated off), tensor_inst
 * (tensor-pipe warp instructions as counted; not 0 without them on Hopper), tensor_sass (tensor-core
 * instructions in the SASS: 0 means none can have run), smem_wavefronts (shared-memory wavefronts,
 * replays included), smem_conflict_pct (conflict replays as a % of them), l1_pct, gld_sectors_per_request,
 * theoretical_occupancy (0..1), blocks, threads_per_block, warps, sm_count, occ_blocks,
 * waves (blocks / (sm_count x occ_blocks)), occ_limiter_regs/_smem/_warps/_blocks (0/1),
 * pct_attainable_bw (of DRAM: unknown for a lesson scored with traffic: pcie), pct_compute_peak,
 * stall_<reason> (share in % of the top three stalls, else 0) ...
 * Host copies: dram_bytes (and _read, _write, bytes_ratio) are the kernels' traffic, the copies' bytes
 * taken off (the counters' range holds the copies too); h2d_bytes, d2h_bytes, copy_bytes (0 for a
 * stage without copies), kernel_ms (the stage run without its copies), copy_ms (the copies at the
 * calibrated pinned bandwidths h2d_gbps and d2h_gbps, one after the other), copy_share (0..1, the
 * share of the stage's time the kernels do not cover: 1 - kernel_ms / ms; 0 without copies).
 * A value that was not measured (a counter at -1, no timing, no model) is unknown: a rule that needs an
 * unknown value does not fire. A name that does not exist at all is an error when the file loads. */
#ifndef CC_DIAGNOSE_H
#define CC_DIAGNOSE_H
#include <stddef.h>
#include "claim_names.h"
#include "expr.h"
#include "result.h"

/* What the lesson and the device add to a run_result. Zero means unknown; a zero model falls back to
 * the run's own r->bytes / r->flops. */
typedef struct {
	double model_bytes;      /* bytes the stage must move by the lesson's model */
	double model_flops;
	int sm_count;
	double peak_bw_gbps;     /* attainable (calibrated) DRAM bandwidth */
	double peak_gflops;      /* the compute peak that applies to this stage */
	double h2d_gbps, d2h_gbps;   /* the device's calibrated pinned copy bandwidths (copy_ms); 0 unknown */
} diag_inputs;

/* Loads the rules from path, replacing those loaded before only on success. Returns 0, or -1 with
 * "path:line:col: message" (1-based) in err; a file that cannot be read gives "path: cannot read: why". */
int diagnose_load(const char *path, char *err, size_t errlen);
/* The same from len bytes in memory; name stands for the file in messages. */
int diagnose_load_buffer(const char *name, const char *buf, size_t len, char *err, size_t errlen);
/* Frees the loaded rules. */
void diagnose_unload(void);
/* Number of loaded rules, and the id of the i-th (file order); NULL out of range. */
int diagnose_count(void);
const char *diagnose_rule_id(int i);

/* Evaluates every rule on r and in; fills up to max findings (result.h's diag_finding), most severe
 * first (file order within a severity), each with the values its condition read (the first
 * DIAG_EVIDENCE_MAX known ones), and returns how many were written. No rules loaded: 0. */
int diagnose_run(const run_result *r, const diag_inputs *in, diag_finding *out, int max);

/* The value of one of those names (not NUL-terminated: len bytes) for r and in: 0 and *out, or -1
 * when the name is unknown or its value was not measured in this run. For claims (src/engine/claims.h). */
int diagnose_value(const run_result *r, const diag_inputs *in, const char *name, size_t len, expr_value *out);
#endif
