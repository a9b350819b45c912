/* claim_names: the names a stage's claims (expect:), their when: conditions and a lesson text's
 * {placeholders} may use, and the diagnosis rules' names among them. Kept in the lesson layer so that
 * the loader checks a lesson's names without the engine, which computes their values (diagnose.c,
 * claims.c). */
#ifndef CC_CLAIM_NAMES_H
#define CC_CLAIM_NAMES_H
#include <stddef.h>

/* The names the diagnosis rules can use (diagnose.h says what each is), in diagnose_names' order. */
typedef enum {
	V_ACHIEVED_OCCUPANCY, V_THEORETICAL_OCCUPANCY, V_DRAM_BYTES, V_DRAM_BYTES_READ, V_DRAM_BYTES_WRITE,
	V_DRAM_PCT, V_MODEL_BYTES, V_MODEL_FLOPS, V_INTENSITY, V_BYTES_RATIO, V_L1_HIT_PCT, V_L2_HIT_PCT,
	V_SMEM_CONFLICTS, V_SMEM_CONFLICTS_LD, V_SMEM_CONFLICTS_ST, V_SMEM_CONFLICTS_PER_WARP,
	V_WARP_EFFICIENCY, V_BRANCH_UNIFORM_PCT, V_SM_PCT, V_TENSOR_PCT,
	V_SMEM_CONFLICTS_LD_PER_WARP, V_SMEM_CONFLICTS_ST_PER_WARP, V_WARP_EFFICIENCY_PRED_ON, V_TENSOR_INST,
	V_TENSOR_SASS, V_SMEM_WAVEFRONTS, V_SMEM_CONFLICT_PCT, V_L1_PCT, V_GLD_SECTORS_PER_REQUEST,
	V_BLOCKS, V_THREADS_PER_BLOCK, V_WARPS, V_SM_COUNT, V_OCC_BLOCKS, V_WAVES,
	V_OCC_LIMITER_REGS, V_OCC_LIMITER_SMEM, V_OCC_LIMITER_WARPS, V_OCC_LIMITER_BLOCKS,
	V_REGS, V_SPILL_STORES, V_SPILL_LOADS, V_STATIC_SMEM, V_DYNAMIC_SMEM,
	V_MS, V_GBPS, V_GFLOPS, V_PCT_ATTAINABLE_BW, V_PCT_THEORETICAL_BW, V_PCT_COMPUTE_PEAK,
	V_PEAK_BW_GBPS, V_PEAK_GFLOPS, V_WORKING_SET, V_FITS_L2,
	V_MAX_ABS_ERR, V_MAX_REL_ERR, V_NORM_REL_ERR,
	V_H2D_BYTES, V_D2H_BYTES, V_COPY_BYTES, V_KERNEL_MS, V_COPY_MS, V_COPY_SHARE, V_H2D_GBPS, V_D2H_GBPS,
	V_STALL_FIRST,
	V_STALL_COUNT = 17,
	V_COUNT = V_STALL_FIRST + V_STALL_COUNT
} diag_var;

/* The claims' own names, in claims_extra_names' order. */
enum { X_TIME_VS_PREV, X_TIME_VS_BASELINE, X_SPEEDUP_VS_PREV, X_SPEEDUP_VS_BASELINE, X_BOUND_MS, X_KERNEL_MS,
       X_TIME_VS_BOUND, X_H2D_BYTES, X_D2H_BYTES, X_H2D_GBPS, X_D2H_GBPS, X_SM_CLOCK_MHZ, X_SM_CLOCK_MIN_MHZ,
       X_SM_CLOCK_MAX_MHZ, X_POWER_W, X_POWER_MAX_W, X_CLOCK_VS_PREV, X_COUNT };

/* The names expressions may use, NULL-terminated (static). */
const char *const *diagnose_names(void);
/* The claim names besides the diagnosis rules' (time_vs_prev, bound_ms, ...), NULL-terminated. */
const char *const *claims_extra_names(void);
/* The device values a when: condition may name (cc, sm_count, ..., copy_engines), NULL-terminated. */
const char *const *claims_device_names(void);
/* Whether name is "time_vs_ID", "speedup_vs_ID" or "clock_vs_ID" (the median SM clocks' ratio) for a
 * stage id (not prev, baseline or bound): 1 with the id (not NUL-terminated) in *id, *idlen. */
int claims_stage_ratio(const char *name, size_t len, const char **id, size_t *idlen);
/* 1 when name (len bytes) may appear in a claim. */
int claims_name_known(const char *name, size_t len);
/* 1 when name (len bytes) may appear in a claim's when: condition (the device's cc, sm_count,
 * l2_bytes, warp_size, max_threads_per_block, max_shared_per_block). */
int claims_device_name_known(const char *name, size_t len);
/* The index of name (len bytes) among claims_extra_names (an X_ value), or -1. */
int claims_extra_find(const char *name, size_t len);
/* A text placeholder at p ('{name}', lessons/README.md "Numbers in the text"): the length of its name
 * (which starts at p + 1), or 0 when p starts none. */
size_t claims_placeholder(const char *p);
/* The first placeholder of text whose name is not a measurement: its offset (and its name's length in
 * *name_len), or -1 when all are known. */
long claims_text_check(const char *text, size_t *name_len);
#endif
