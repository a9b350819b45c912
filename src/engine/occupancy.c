/* occupancy: theoretical occupancy through the CUDA toolkit's cuda_occupancy.h (the calculator the
 * runtime's cudaOccupancyMaxActiveBlocksPerMultiprocessor follows), fed from arch_info.
 *
 * cuda_occupancy.h compiles as C11 as it stands, but its enum cudaOccLimitingFactor names its
 * constants OCC_LIMIT_WARPS, OCC_LIMIT_REGISTERS and OCC_LIMIT_BLOCKS, which occupancy.h also
 * defines (enum occ_limiter): C has one namespace for enumerators, so both in one file is a
 * "redeclaration of enumerator" error. The shim: rename the header's constants with macros while it
 * is included, then include occupancy.h. */
#define OCC_LIMIT_WARPS CUDAOCC_LIMIT_WARPS
#define OCC_LIMIT_REGISTERS CUDAOCC_LIMIT_REGISTERS
#define OCC_LIMIT_SHARED_MEMORY CUDAOCC_LIMIT_SHARED_MEMORY
#define OCC_LIMIT_BLOCKS CUDAOCC_LIMIT_BLOCKS
#define OCC_LIMIT_BARRIERS CUDAOCC_LIMIT_BARRIERS
#define OCC_LIMIT_VIRTUAL_RESOURCES CUDAOCC_LIMIT_VIRTUAL_RESOURCES
#include <cuda_occupancy.h>
#undef OCC_LIMIT_WARPS
#undef OCC_LIMIT_REGISTERS
#undef OCC_LIMIT_SHARED_MEMORY
#undef OCC_LIMIT_BLOCKS
#undef OCC_LIMIT_BARRIERS
#undef OCC_LIMIT_VIRTUAL_RESOURCES

#include "occupancy.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "fmt.h"

#define SANE_SMEM ((size_t)1 << 30) /* keeps cuda_occupancy.h's (int) casts of byte counts exact */

static int say(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* The limits must be positive and small enough for the calculator's int arithmetic. */
static int arch_ok(const arch_info *a)
{
	return a->cc >= 10 && a->cc <= 999 && a->warp_size > 0 && a->warp_size <= 1024 &&
	       a->max_threads_per_block > 0 && a->max_threads_per_block <= 65536 && a->max_threads_per_sm > 0 &&
	       a->max_threads_per_sm <= 65536 && a->max_threads_per_sm >= a->warp_size && a->regs_per_sm > 0 &&
	       a->regs_per_sm <= (1 << 24) && a->regs_per_block > 0 && a->regs_per_block <= (1 << 24) &&
	       a->max_regs_per_thread > 0 && a->max_regs_per_thread <= 65536 && a->smem_per_sm > 0 &&
	       a->smem_per_sm <= SANE_SMEM && a->smem_per_block > 0 && a->smem_per_block <= SANE_SMEM &&
	       a->smem_per_block_optin <= SANE_SMEM && a->smem_reserved_per_block <= SANE_SMEM;
}

const char *occ_limiter_name(occ_limiter l)
{
	switch (l) {
	case OCC_LIMIT_REGISTERS: return "registers";
	case OCC_LIMIT_SHARED: return "shared memory";
	case OCC_LIMIT_WARPS: return "warps per SM";
	case OCC_LIMIT_BLOCKS: return "blocks per SM";
	default: return "none";
	}
}

/* Why no block fits; out is filled. */
static int why_zero(const arch_info *a, const occ_kernel *k, const occ_result *out, const cudaOccResult *r,
		    char *err, size_t errlen)
{
	char b1[32];
	switch (out->limiter) {
	case OCC_LIMIT_REGISTERS: {
		int warps = (k->block_threads + a->warp_size - 1) / a->warp_size;
		int per_warp = warps ? r->allocatedRegistersPerBlock / warps : 0;
		if (r->allocatedRegistersPerBlock > a->regs_per_block)
			return say(err, errlen,
				   "a block of %d threads at %d registers per thread needs %d registers (%d warps x %d, "
				   "rounded to the allocation unit of 256 per warp), over the %d a block may use: use "
				   "fewer threads per block or cap registers (__launch_bounds__, -maxrregcount)",
				   k->block_threads, k->regs_per_thread, r->allocatedRegistersPerBlock, warps, per_warp,
				   a->regs_per_block);
		return say(err, errlen,
			   "a block of %d threads at %d registers per thread does not fit in the register file: the "
			   "hardware reserves registers for whole groups of 4 warps, over the %d a block may use: use "
			   "fewer threads per block or cap registers (__launch_bounds__, -maxrregcount)",
			   k->block_threads, k->regs_per_thread, a->regs_per_block);
	}
	case OCC_LIMIT_SHARED:
		return say(err, errlen,
			   "a block needs %zu bytes of shared memory (%zu static + %zu dynamic + %zu the driver "
			   "reserves, rounded up), more than one SM of this GPU can give it (%s)",
			   r->allocatedSharedMemPerBlock, k->static_smem, k->dynamic_smem, a->smem_reserved_per_block,
			   fmt_bytes(b1, sizeof b1, (double)a->smem_per_sm));
	case OCC_LIMIT_WARPS:
		return say(err, errlen, "a block of %d threads does not fit in the %d warps of one SM",
			   k->block_threads, out->max_warps);
	default:
		return say(err, errlen, "no block of this kernel fits on one SM of this GPU");
	}
}

/* The calculator's inputs for kernel k on limits a with sm_count SMs; max_threads is the kernel's own
 * block limit (__launch_bounds__), 0 for none. */
static void occ_inputs(const arch_info *a, int sm_count, const occ_kernel *k, int max_threads, cudaOccDeviceProp *prop,
                       cudaOccFuncAttributes *attr, cudaOccDeviceState *state)
{
	memset(prop, 0, sizeof *prop);
	memset(attr, 0, sizeof *attr);
	memset(state, 0, sizeof *state);
	prop->computeMajor = a->cc / 10;
	prop->computeMinor = a->cc % 10;
	prop->maxThreadsPerBlock = a->max_threads_per_block;
	prop->maxThreadsPerMultiprocessor = a->max_threads_per_sm;
	prop->regsPerBlock = a->regs_per_block;
	prop->regsPerMultiprocessor = a->regs_per_sm;
	prop->warpSize = a->warp_size;
	prop->sharedMemPerBlock = a->smem_per_block;
	prop->sharedMemPerMultiprocessor = a->smem_per_sm;
	prop->numSms = sm_count > 0 ? sm_count : 1; /* checked > 0; only the minimum grid reads it */
	prop->sharedMemPerBlockOptin = a->smem_per_block_optin;
	prop->reservedSharedMemPerBlock = a->smem_reserved_per_block;

	/* No __launch_bounds__ known: the device's limit. A block too large for the registers is no
	 * limit of its own here: the calculator gives it no resident blocks. */
	attr->maxThreadsPerBlock = max_threads > 0 && max_threads < a->max_threads_per_block ? max_threads : a->max_threads_per_block;
	attr->numRegs = k->regs_per_thread;
	attr->sharedSizeBytes = k->static_smem;
	attr->partitionedGCConfig = PARTITIONED_GC_OFF;
	attr->shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;   /* as after cudaFuncSetAttribute(MaxDynamicShared...) */
	attr->maxDynamicSharedSizeBytes = k->dynamic_smem;
	attr->numBlockBarriers = 1;                         /* __syncthreads' barrier, as cudaFuncAttributes has */
	attr->virtualResourceCount = 0;

	state->cacheConfig = CACHE_PREFER_NONE;
	state->carveoutConfig = SHAREDMEM_CARVEOUT_DEFAULT; /* 0 would mean "max L1": far less shared memory */
}

int occ_compute(const arch_info *a, const occ_kernel *k, occ_result *out, char *err, size_t errlen)
{
	char b1[32];
	if (err && errlen)
		err[0] = 0;
	if (!out)
		return say(err, errlen, "occupancy: no place for the result");
	memset(out, 0, sizeof *out);
	if (!a || !k)
		return say(err, errlen, "occupancy: no GPU limits or no kernel given");
	if (!arch_ok(a))
		return say(err, errlen, "the limits given for %s are incomplete or out of range",
			   a->name[0] ? a->name : "this GPU");
	out->max_warps = a->max_threads_per_sm / a->warp_size;

	/* What the launch itself would refuse. */
	if (k->block_threads <= 0)
		return say(err, errlen, "a block of %d threads cannot run: a block has at least 1 thread",
			   k->block_threads);
	if (k->block_threads > a->max_threads_per_block)
		return say(err, errlen, "a block of %d threads is over this GPU's limit of %d", k->block_threads,
			   a->max_threads_per_block);
	if (k->regs_per_thread < 0)
		return say(err, errlen, "%d registers per thread is not a register count", k->regs_per_thread);
	if (k->regs_per_thread > a->max_regs_per_thread)
		return say(err, errlen, "%d registers per thread is over this GPU's limit of %d", k->regs_per_thread,
			   a->max_regs_per_thread);
	if (k->static_smem > a->smem_per_block)
		return say(err, errlen,
			   "%zu bytes of static (__shared__) memory is over the %s a kernel may declare statically: "
			   "allocate the rest as dynamic shared memory",
			   k->static_smem, fmt_bytes(b1, sizeof b1, (double)a->smem_per_block));
	if (k->dynamic_smem > SIZE_MAX - k->static_smem ||
	    k->static_smem + k->dynamic_smem > a->smem_per_block_optin)
		return say(err, errlen, "%zu bytes of shared memory per block is over the %s this GPU allows",
			   k->dynamic_smem > SIZE_MAX - k->static_smem ? SIZE_MAX : k->static_smem + k->dynamic_smem,
			   fmt_bytes(b1, sizeof b1, (double)a->smem_per_block_optin));

	cudaOccDeviceProp prop;
	cudaOccFuncAttributes attr;
	cudaOccDeviceState state;
	cudaOccResult r;
	memset(&r, 0, sizeof r);
	occ_inputs(a, a->typical_sm_count, k, 0, &prop, &attr, &state);

	cudaOccError st =
		cudaOccMaxActiveBlocksPerMultiprocessor(&r, &prop, &attr, &state, k->block_threads, k->dynamic_smem);
	if (st == CUDA_OCC_ERROR_UNKNOWN_DEVICE)
		return say(err, errlen,
			   "compute capability %d.%d is unknown to this build's occupancy calculator "
			   "(cuda_occupancy.h knows up to %d.%d)",
			   prop.computeMajor, prop.computeMinor, __CUDA_OCC_MAJOR__, __CUDA_OCC_MINOR__);
	if (st != CUDA_OCC_SUCCESS)
		return say(err, errlen, "the occupancy calculator rejected the limits of %s",
			   a->name[0] ? a->name : "this GPU");

	int warps_per_block = (k->block_threads + a->warp_size - 1) / a->warp_size;
	out->active_blocks = r.activeBlocksPerMultiprocessor;
	out->active_warps = out->active_blocks * warps_per_block;
	out->occupancy = out->max_warps ? (double)out->active_warps / out->max_warps : 0.0;
	out->blocks_by_warps = r.blockLimitWarps;
	out->blocks_by_regs = r.blockLimitRegs;
	out->blocks_by_smem = r.blockLimitSharedMem;
	/* The barrier limit (Hopper on) is a multiple of the block limit: count it as blocks. */
	out->blocks_by_blocks = r.blockLimitBarriers < r.blockLimitBlocks ? r.blockLimitBarriers : r.blockLimitBlocks;

	/* Several limits can tie; name the first of warps, registers, shared memory, blocks (full
	 * occupancy reads "warps per SM": the SM is full, nothing to fix). */
	unsigned f = r.limitingFactors;
	if (f & CUDAOCC_LIMIT_WARPS)
		out->limiter = OCC_LIMIT_WARPS;
	else if (f & CUDAOCC_LIMIT_REGISTERS)
		out->limiter = OCC_LIMIT_REGISTERS;
	else if (f & CUDAOCC_LIMIT_SHARED_MEMORY)
		out->limiter = OCC_LIMIT_SHARED;
	else if (f & (CUDAOCC_LIMIT_BLOCKS | CUDAOCC_LIMIT_BARRIERS))
		out->limiter = OCC_LIMIT_BLOCKS;
	else
		out->limiter = OCC_LIMIT_NONE;

	if (out->active_blocks <= 0) {
		out->active_blocks = 0;
		out->active_warps = 0;
		out->occupancy = 0.0;
		return why_zero(a, k, out, &r, err, errlen);
	}
	return 0;
}

/* Why this agrees with the runtime's cudaOccupancyMaxPotentialBlockSize (what the worker asked the GPU
 * before): that template (cuda_runtime.h) runs exactly the loop of cudaOccMaxPotentialOccupancyBlockSize
 * (block sizes from the kernel's limit down in steps of a warp, a size kept only when it keeps strictly
 * more threads resident, so the largest wins a tie; min grid = its blocks per SM x the SM count), and
 * asks cudaOccupancyMaxActiveBlocksPerMultiprocessor at each size, whose arithmetic cuda_occupancy.h
 * is NVIDIA's host copy of. The inputs are the same: the device's limits (the worker's device query,
 * the table's granularity rules), the registers and static shared memory ptxas reports (what
 * cudaFuncGetAttributes reads from the same cubin), the default carveout, the launch's dynamic shared
 * memory, and __launch_bounds__' thread limit (the PTX's .maxntid) when there is one. */
int occ_potential_block(const arch_info *a, int sm_count, const occ_kernel *k, int max_threads, int *block, int *min_grid,
                        char *err, size_t errlen)
{
	*block = *min_grid = 0;
	if (!a || !k || !arch_ok(a) || sm_count <= 0) return say(err, errlen, "occupancy: no usable GPU limits");
	if (k->regs_per_thread <= 0 || k->regs_per_thread > a->max_regs_per_thread)
		return say(err, errlen, "occupancy: %d registers per thread is not a count the calculator takes", k->regs_per_thread);
	if (k->static_smem > SANE_SMEM || k->dynamic_smem > SANE_SMEM)
		return say(err, errlen, "occupancy: shared memory out of range");
	cudaOccDeviceProp prop;
	cudaOccFuncAttributes attr;
	cudaOccDeviceState state;
	occ_inputs(a, sm_count, k, max_threads, &prop, &attr, &state);
	/* The function's dynamic shared memory limit as the runtime has it: 48 KiB less the static, unless
	 * the launch needs more (then the worker raises it to exactly that, as gpu_exec does). */
	size_t room = a->smem_per_block > k->static_smem ? a->smem_per_block - k->static_smem : 0;
	attr.maxDynamicSharedSizeBytes = k->dynamic_smem > room ? k->dynamic_smem : room;
	int grid = 0, b = 0;
	cudaOccError st = cudaOccMaxPotentialOccupancyBlockSize(&grid, &b, &prop, &attr, &state, NULL, k->dynamic_smem);
	if (st != CUDA_OCC_SUCCESS || b <= 0)
		return say(err, errlen, "the occupancy calculator found no block size for this kernel on %s", a->name[0] ? a->name : "this GPU");
	*block = b;
	*min_grid = grid;
	return 0;
}
