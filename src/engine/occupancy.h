/* occupancy: theoretical occupancy and its limiter, from ptxas numbers, through cuda_occupancy.h. */
#ifndef CC_OCCUPANCY_H
#define CC_OCCUPANCY_H
#include <stddef.h>
#include "arch.h"

typedef enum { OCC_LIMIT_NONE, OCC_LIMIT_WARPS, OCC_LIMIT_REGISTERS, OCC_LIMIT_SHARED, OCC_LIMIT_BLOCKS } occ_limiter;

typedef struct {
	int block_threads;        /* threads per block (x*y*z) */
	int regs_per_thread;      /* from ptxas / cudaFuncGetAttributes */
	size_t static_smem;       /* bytes */
	size_t dynamic_smem;      /* bytes */
} occ_kernel;

typedef struct {
	int active_blocks;        /* blocks per SM */
	int active_warps;         /* warps per SM */
	int max_warps;            /* the SM's limit */
	double occupancy;         /* active_warps / max_warps, 0..1 */
	occ_limiter limiter;      /* what caps active_blocks */
	int blocks_by_warps, blocks_by_regs, blocks_by_smem, blocks_by_blocks;  /* each limit alone */
	/* blocks_by_regs / blocks_by_smem are INT_MAX when the kernel uses no registers / no shared memory
	 * (and the GPU reserves none per block). Ties name the first of warps, registers, shared memory,
	 * blocks. */
} occ_result;

/* Computes occupancy of kernel k on limits a. Returns 0, or -1 with a user-facing sentence in err
 * (block too large, too many registers, shared memory over the limit). When the launch is valid but
 * no block fits on an SM (e.g. 1024 threads x 255 registers), out is still filled (active_blocks 0,
 * limiter = the cause) and -1 comes back with the reason. */
int occ_compute(const arch_info *a, const occ_kernel *k, occ_result *out, char *err, size_t errlen);
/* What cudaOccupancyMaxPotentialBlockSize answers for kernel k (its block_threads unused) on limits a
 * with sm_count SMs, computed on the host: the block size that keeps the most threads resident on an SM
 * (the largest on a tie) into *block, and that many blocks per SM times sm_count (one full wave) into
 * *min_grid. max_threads: the kernel's __launch_bounds__ limit, 0 for none. Returns 0, or -1 with err
 * (both 0) when the limits or the kernel's resources cannot be used. */
int occ_potential_block(const arch_info *a, int sm_count, const occ_kernel *k, int max_threads, int *block, int *min_grid,
                        char *err, size_t errlen);
/* "registers", "shared memory", "warps per SM", "blocks per SM", "none". Static string. */
const char *occ_limiter_name(occ_limiter l);
#endif
