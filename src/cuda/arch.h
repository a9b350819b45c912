/* arch: per-architecture limits and peak rates, from assets/arch.yaml or from a live device. */
#ifndef CC_ARCH_H
#define CC_ARCH_H
#include <stddef.h>

#define ARCH_UNKNOWN (-1)   /* a rate (or typical_clock_mhz) that could not be sourced: "unknown" in the file */

typedef struct {
	char name[16];                 /* "sm_90" (an "a" suffix such as sm_90a maps to its base entry) */
	int cc;                        /* compute capability x10: 90 */
	/* occupancy limits, as cudaDeviceProp names them */
	int max_threads_per_block;     /* 1024 */
	int max_threads_per_sm;        /* max warps per SM x 32 */
	int max_blocks_per_sm;
	int regs_per_sm;               /* 65536 */
	int regs_per_block;            /* 65536 */
	int max_regs_per_thread;       /* 255 */
	int warp_size;                 /* 32 */
	size_t smem_per_sm;            /* bytes usable by blocks on one SM */
	size_t smem_per_block;         /* default per-block limit (48 KiB) */
	size_t smem_per_block_optin;   /* the limit after cudaFuncSetAttribute */
	size_t smem_reserved_per_block;/* driver reservation per block (1 KiB since sm_80) */
	/* throughput */
	int fp32_lanes_per_sm;         /* FP32 FMA lanes per SM: 64 (sm_80), 128 (sm_86..sm_120); ARCH_UNKNOWN
	                                * only in arch_from_device's limits */
	/* the rates: 0 when the unit is missing, ARCH_UNKNOWN when no source gives it */
	double bf16_tensor_flops_per_clk_per_sm;  /* dense, FP32 accumulate; 0 when none */
	double fp16_tensor_flops_per_clk_per_sm;
	double tf32_tensor_flops_per_clk_per_sm;
	double fp8_tensor_flops_per_clk_per_sm;   /* e4m3/e5m2, FP32 accumulate; 0 before sm_89 */
	double fp64_flops_per_clk_per_sm;         /* FP64 FMA units (not the FP64 tensor cores), 2 per FMA */
	double int8_tensor_ops_per_clk_per_sm;    /* dense INT8 (s8/u8), int32 accumulate, 2 ops per multiply-add; 0 when none */
	/* typical part, used only without a GPU (check --arch) */
	int typical_sm_count;
	size_t typical_l2_bytes;
	int typical_clock_mhz;
	char typical_part[48];         /* "H100 SXM" */
} arch_info;

/* Loads the table (assets/arch.yaml). Returns 0, or -1 with "file:line:col: message" in err. */
int arch_load(const char *path, char *err, size_t errlen);
/* The same from len bytes in memory; name stands for the file in messages ("name:line:col: ...").
 * Lines and columns are 1-based. A file that cannot be read gives "path: cannot read: <reason>".
 * On failure the table loaded before, if any, is kept. */
int arch_load_buffer(const char *name, const char *buf, size_t len, char *err, size_t errlen);
/* Looks up "sm_90", "sm_90a", "90" or "9.0"; NULL when unknown or not loaded. Owned by the table. */
const arch_info *arch_find(const char *name);
/* The compute capability x10 that such a name stands for ("sm_90a" -> 90, "10.0" -> 100), or -1. */
int arch_parse_cc(const char *name);
/* Number of loaded entries and the i-th one, for listing. */
int arch_count(void);
const arch_info *arch_at(int i);
/* Frees the table. */
void arch_unload(void);

/* 1 when CUDACLIMB_UNKNOWN_ARCH is set (not empty, not "0"): the GPU's own entry is ignored, as if it
 * were newer than the table, so the PTX fallback and the device-attribute limits run on any GPU. */
int arch_unknown_forced(void);
/* The entry of a GPU of compute capability cc (x10), or NULL when the table lacks it or
 * CUDACLIMB_UNKNOWN_ARCH is set. */
const arch_info *arch_find_device(int cc);
/* The compute capabilities (x10) NVRTC can compile for, ascending, at most max into out; the count. */
int arch_nvrtc_supported(int *out, int max);
/* For a GPU the table lacks: "compute_XX" into out, the newest table entry that NVRTC (nvrtc[0..nn))
 * supports and that is at or below dev_cc (the device's own cc left out under CUDACLIMB_UNKNOWN_ARCH),
 * or req_cc when a stage needs more and the GPU and NVRTC have it. The driver JITs that PTX. 0, or -1
 * with why. */
int arch_fallback_target(int dev_cc, int req_cc, const int *nvrtc, int nn, char *out, size_t outlen, char *why, size_t whylen);

/* A stage's requirement (lesson requires: cc, arch) against a GPU of compute capability cc (x10; -1:
 * none known): 1 with "needs sm_90a" / "needs sm_89" in buf when it cannot run there (with cc -1: when it
 * has a requirement at all), else 0 and "". Code for an arch-specific target (sm_90a) runs only on that
 * exact compute capability, not on a newer GPU. */
int arch_stage_needs(int req_cc, const char *req_arch, int cc, char *buf, size_t n);

/* What a GPU reports of itself (cudaDeviceGetAttribute), for arch_from_device. */
typedef struct {
	int max_threads_per_block, max_threads_per_sm, max_blocks_per_sm, regs_per_sm, regs_per_block, warp_size, sm_count;
	size_t smem_per_sm, smem_per_block, smem_per_block_optin, smem_reserved_per_block, l2_bytes;
} arch_device_limits;
/* Limits for a GPU of compute capability cc from its own attributes d: every rate ARCH_UNKNOWN,
 * max_regs_per_thread 255 (no attribute has it). */
void arch_from_device(arch_info *out, int cc, const arch_device_limits *d);
#endif
