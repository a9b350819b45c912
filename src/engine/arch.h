/* arch: per-architecture limits and peak rates, from assets/arch.yaml or from a live device. */
#ifndef CC_ARCH_H
#define CC_ARCH_H
#include <stddef.h>

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
	int fp32_lanes_per_sm;         /* FP32 FMA lanes per SM: 64 (sm_80), 128 (sm_86..sm_90) */
	double bf16_tensor_flops_per_clk_per_sm;  /* dense, FP32 accumulate; 0 when none */
	double fp16_tensor_flops_per_clk_per_sm;
	double tf32_tensor_flops_per_clk_per_sm;
	double fp8_tensor_flops_per_clk_per_sm;   /* e4m3/e5m2, FP32 accumulate; 0 before sm_89 */
	double fp64_flops_per_clk_per_sm;         /* FP64 FMA units (not the FP64 tensor cores), 2 per FMA */
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
/* Number of loaded entries and the i-th one, for listing. */
int arch_count(void);
const arch_info *arch_at(int i);
/* Frees the table. */
void arch_unload(void);
#endif
