/* gpu_device: what the worker's GPU is, and its peaks, each with where the number came from. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arch.h"
#include "gpu.h"
#include "gpulease.h"
#include "labwire.h"
#include "read_bw.h"
#include "util.h"

static device_info dev;

const device_info *gpu_device(void) { return &dev; }

void gpu_occ_check(const plan *p, cudaKernel_t k, size_t shared, run_result *r)
{
	const expr_value *block = plan_var_get(p, "occ_block"), *grid = plan_var_get(p, "occ_min_grid");
	int b = 0, g = 0;
	if (!p->uses_occ || !k || !block || !grid) return;
	if (gpu_occ_potential_block(k, shared, &b, &g) != cudaSuccess) { cudaGetLastError(); return; }
	if (b == block->i && g == grid->i) return;
	size_t n = strlen(r->message);
	strfmt(r->message + n, sizeof r->message - n, "%soccupancy: the runtime's cudaOccupancyMaxPotentialBlockSize answers block %d, grid %d; "
	       "the plan used block %lld, grid %lld", n ? "; " : "", b, g, (long long)block->i, (long long)grid->i);
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;
	return x < y ? -1 : x > y;
}

double gpu_copy_bound_ms(double h2d_bytes, double d2h_bytes, double h2d_gbps, double d2h_gbps, double kernel_ms)
{
	if (h2d_bytes + d2h_bytes <= 0) return 0;
	double up = h2d_gbps > 0 ? h2d_bytes / (h2d_gbps * 1e6) : 0, down = d2h_gbps > 0 ? d2h_bytes / (d2h_gbps * 1e6) : 0;
	return fmax(fmax(up, down), kernel_ms > 0 ? kernel_ms : 0);
}

/* The median time of reps copies of bytes from src to dst on stream 0 (after 3 unmeasured ones), in
 * ms; -1 when a copy fails. With evict (evict_bytes of device memory, twice the L2 or more), each copy
 * starts with the L2 emptied by a read of it outside the events, as the stages' runs do (the previous
 * copy's dirty lines would otherwise be written back during the next). */
static double copy_ms(void *dst, const void *src, size_t bytes, int reps, const void *evict, size_t evict_bytes)
{
	cudaEvent_t e0, e1;
	float t[32];
	if (reps > 32) reps = 32;
	if (cudaEventCreate(&e0)) { cudaGetLastError(); return -1; }
	if (cudaEventCreate(&e1)) { cudaGetLastError(); cudaEventDestroy(e0); return -1; }
	int ok = 1;
	for (int i = 0; ok && i < reps + 3; i++) {
		ok = (!evict || !cc_read_evict(evict, evict_bytes)) && !cudaEventRecord(e0, 0) && !cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, 0) && !cudaEventRecord(e1, 0) &&
		     !cudaEventSynchronize(e1);
		if (ok && i >= 3) ok = !cudaEventElapsedTime(&t[i - 3], e0, e1);
	}
	cudaEventDestroy(e0);
	cudaEventDestroy(e1);
	if (!ok) { cudaGetLastError(); return -1; }
	qsort(t, (size_t)reps, sizeof t[0], cmp_float);
	return reps % 2 ? t[reps / 2] : (t[reps / 2 - 1] + t[reps / 2]) / 2;
}

/* The read calibration's words, for the fastest variant of the stream over mib MiB. */
static void read_src(int variant, size_t mib, int cached)
{
	strfmt(dev.bw_read_src, sizeof dev.bw_read_src, "read-only int4 stream, %zu MiB minus %zu MiB (fixed costs cancel), medians of 20, best of %d: %s%s",
	       mib, mib / 2, CC_READ_BW_VARIANTS, cc_read_bw_name(variant), cached ? " (cached)" : "");
}

/* The attainable bandwidths. Copy: a large device-to-device copy, median of 20 after warm-up,
 * counting bytes read plus bytes written, each copy after a read that empties the L2 (as before a
 * stage's timed run; calibration v6; v7 added read variants 4 and 5). Read: our read-only stream (read_bw.cu) over the same
 * buffer and over its first half, median of 20 after warm-up each, for each of its variants
 * (grid-stride or a chunk per block, several 16-byte loads in flight per thread); the rate is the
 * half's bytes over the difference of the two times, so that what a launch costs whatever its size
 * (starting, the last partial wave, the final atomics) cancels out and a reduction over more bytes
 * cannot beat it; the fastest variant counts. The buffer is 1 GiB (less when memory is short), far
 * beyond any L2.
 * The copy bandwidths between host and device: a pinned host buffer of 256 MiB (less when memory
 * is short) copied each way, median of 10 after warm-up, counting the bytes once. Cached per GPU,
 * since they cost a second; the file's name carries the version of what it holds, so a cache of an
 * older form is measured again. */
#define CALIBRATION_VERSION 7
static void calibrate(void)
{
	char why[600];
	char *dir = xdg_cache_dir(why, sizeof why);   /* none that is private: measured, not kept */
	char *path = dir ? xasprintf("%s/calibration-v%d-%s.txt", dir, CALIBRATION_VERSION, dev.uuid) : NULL;
	free(dir);
	char *text = path ? file_read_max(path, 4096, FILE_NOFOLLOW, NULL) : NULL;
	int variant = 0;
	size_t mib = 0;
	if (text && sscanf(text, "%lf %lf %lf %lf %d %zu", &dev.bw_attainable_gbps, &dev.h2d_gbps, &dev.d2h_gbps, &dev.bw_read_gbps, &variant, &mib) == 6 &&
	    dev.bw_attainable_gbps > 0 && dev.h2d_gbps > 0 && dev.d2h_gbps > 0 && dev.bw_read_gbps > 0 && variant >= 0 && variant < CC_READ_BW_VARIANTS) {
		strfmt(dev.bw_attainable_src, sizeof dev.bw_attainable_src, "device-to-device cudaMemcpy of %zu MiB, L2 emptied before each, measured once (cached)", mib);
		read_src(variant, mib, 1);
		free(text);
		free(path);
		return;
	}
	free(text);
	dev.bw_attainable_gbps = dev.h2d_gbps = dev.d2h_gbps = dev.bw_read_gbps = 0;
	size_t bytes = (size_t)1 << 30;
	while (bytes > (size_t)dev.global_mem / 8) bytes /= 2;
	mib = bytes >> 20;
	void *a = NULL, *b = NULL, *h = NULL;
	if (cudaMalloc(&a, bytes) || cudaMalloc(&b, bytes) || cudaMemset(a, 1, bytes)) {
		cudaGetLastError();
		cudaFree(a);
		cudaFree(b);
		strfmt(dev.bw_attainable_src, sizeof dev.bw_attainable_src, "not measured (no memory for the calibration copy)");
		strfmt(dev.bw_read_src, sizeof dev.bw_read_src, "not measured (no memory for the calibration stream)");
		free(path);
		return;
	}
	void *ev = NULL;
	size_t ev_bytes = ((size_t)(2 * (double)dev.l2_bytes) + 15) & ~(size_t)15;
	if (ev_bytes && cudaMalloc(&ev, ev_bytes)) { cudaGetLastError(); ev = NULL; }
	double ms = copy_ms(b, a, bytes, 20, ev, ev_bytes);
	cudaFree(ev);
	if (ms > 0) {
		dev.bw_attainable_gbps = 2.0 * (double)bytes / (ms * 1e-3) / 1e9;
		strfmt(dev.bw_attainable_src, sizeof dev.bw_attainable_src, "device-to-device cudaMemcpy of %zu MiB, median of 20%s", mib,
		       ev ? ", L2 emptied before each" : "");
	} else {
		strfmt(dev.bw_attainable_src, sizeof dev.bw_attainable_src, "not measured (the calibration copy failed)");
	}
	for (int v = 0; v < CC_READ_BW_VARIANTS; v++) {
		double full = cc_read_bw_ms(a, bytes, v, 20), half = cc_read_bw_ms(a, bytes / 2, v, 20);
		double gbps = full > 0 && half > 0 && full > half ? (double)(bytes - bytes / 2) / ((full - half) * 1e-3) / 1e9 : 0;
		if (gbps > dev.bw_read_gbps) { dev.bw_read_gbps = gbps; variant = v; }
	}
	if (dev.bw_read_gbps > 0) read_src(variant, mib, 0);
	else strfmt(dev.bw_read_src, sizeof dev.bw_read_src, "not measured (the calibration stream failed)");
	size_t hbytes = (size_t)256 << 20;
	if (hbytes > bytes) hbytes = bytes;
	while (hbytes >= ((size_t)1 << 20) && cudaMallocHost(&h, hbytes)) { cudaGetLastError(); h = NULL; hbytes /= 2; }
	if (h) {
		memset(h, 1, hbytes);
		double up = copy_ms(a, h, hbytes, 10, NULL, 0), down = copy_ms(h, a, hbytes, 10, NULL, 0);
		if (up > 0) dev.h2d_gbps = (double)hbytes / (up * 1e-3) / 1e9;
		if (down > 0) dev.d2h_gbps = (double)hbytes / (down * 1e-3) / 1e9;
		cudaFreeHost(h);
	}
	cudaFree(a);
	cudaFree(b);
	if (dev.bw_attainable_gbps > 0 && dev.h2d_gbps > 0 && dev.d2h_gbps > 0 && dev.bw_read_gbps > 0) {   /* a failed measure is tried again next time */
		char line[160];
		strfmt(line, sizeof line, "%.1f %.2f %.2f %.1f %d %zu\n", dev.bw_attainable_gbps, dev.h2d_gbps, dev.d2h_gbps, dev.bw_read_gbps, variant, mib);
		if (path) file_write_atomic(path, line, strlen(line));
	}
	free(path);
}

int gpu_device_query(int gpu, device_info *d)
{
	memset(&dev, 0, sizeof dev);
	int count = 0;
	cudaError_t e = cudaGetDeviceCount(&count);
	if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice || e || count == 0) {
		strfmt(dev.why, sizeof dev.why, "no GPU: %s",
		       e == cudaErrorInsufficientDriver ? "no NVIDIA driver is loaded on this machine"
		       : e == cudaErrorNoDevice || count == 0 ? "the driver sees no CUDA device (check CUDA_VISIBLE_DEVICES)"
		       : cudaGetErrorString(e));
		*d = dev;
		return -1;
	}
	char picked[160] = "";
	if (gpu < 0 && count > 1) {        /* no --gpu: the GPU with the shortest queue */
		char ids[16][40];
		const char *uu[16];
		int lens[16], n = count < 16 ? count : 16;
		for (int i = 0; i < n; i++) {
			struct cudaDeviceProp q;
			ids[i][0] = 0;
			if (cudaGetDeviceProperties(&q, i) == cudaSuccess)
				for (int b = 0; b < 16; b++) sprintf(ids[i] + 2 * b, "%02x", (unsigned char)q.uuid.bytes[b]);
			uu[i] = ids[i];
		}
		gpu = labwire_service() ? gpulease_pick(labwire_service(), uu, n, lens) : gpulock_pick(uu, n, lens);
		strfmt(picked, sizeof picked, "GPU %d of %d: the shortest queue (%d in it; --gpu N chooses)", gpu, count, lens[gpu]);
	}
	if (gpu < 0) gpu = 0;
	if (gpu >= count) {
		strfmt(dev.why, sizeof dev.why, "no GPU %d: this machine has %d visible", gpu, count);
		*d = dev;
		return -1;
	}
	struct cudaDeviceProp p;
	if ((e = cudaSetDevice(gpu)) || (e = cudaFree(0)) || (e = cudaGetDeviceProperties(&p, gpu))) {
		strfmt(dev.why, sizeof dev.why, "GPU %d cannot be used: %s", gpu, cudaGetErrorString(e));
		*d = dev;
		return -1;
	}
	dev.present = 1;
	strfmt(dev.why, sizeof dev.why, "%s", picked);   /* with a GPU present: how it was chosen, if it was */
	dev.index = gpu;
	strfmt(dev.name, sizeof dev.name, "%s", p.name);
	for (int i = 0; i < 16; i++) sprintf(dev.uuid + 2 * i, "%02x", (unsigned char)p.uuid.bytes[i]);
	dev.cc = p.major * 10 + p.minor;
	strfmt(dev.arch, sizeof dev.arch, "sm_%d", dev.cc);
	dev.sm_count = p.multiProcessorCount;
	int khz = 0, mkhz = 0;
	cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, gpu);
	cudaDeviceGetAttribute(&mkhz, cudaDevAttrMemoryClockRate, gpu);
	cudaDeviceGetAttribute(&dev.bus_width, cudaDevAttrGlobalMemoryBusWidth, gpu);
	dev.clock_mhz = khz / 1000;
	dev.mem_clock_mhz = mkhz / 1000;
	dev.l2_bytes = p.l2CacheSize;
	dev.copy_engines = p.asyncEngineCount;
	dev.global_mem = (int64_t)p.totalGlobalMem;
	dev.smem_per_block_optin = (int64_t)p.sharedMemPerBlockOptin;
	dev.smem_per_sm = (int64_t)p.sharedMemPerMultiprocessor;
	dev.max_threads_per_block = p.maxThreadsPerBlock;
	dev.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
	dev.max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
	dev.regs_per_sm = p.regsPerMultiprocessor;
	dev.regs_per_block = p.regsPerBlock;
	dev.warp_size = p.warpSize;
	cudaDriverGetVersion(&dev.driver_version);
	cudaRuntimeGetVersion(&dev.runtime_version);
	dev.bw_theoretical_gbps = 2.0 * mkhz * 1e3 * dev.bus_width / 8 / 1e9;
	strfmt(dev.bw_theoretical_src, sizeof dev.bw_theoretical_src, "2 x %d MHz memory clock x %d-bit bus (driver attributes)",
	       dev.mem_clock_mhz, dev.bus_width);
	int v = 0;
	if (cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlock, gpu) == cudaSuccess) dev.smem_per_block = v;
	v = 0;
	if (cudaDeviceGetAttribute(&v, cudaDevAttrReservedSharedMemoryPerBlock, gpu) == cudaSuccess) dev.smem_reserved_per_block = v;
	cudaGetLastError();
	const arch_info *a = arch_find_device(dev.cc);
	/* Why a figure the table would give is unknown: the GPU is not in it (or is treated as not). */
	char why[80], unk[96];
	strfmt(why, sizeof why, "compute capability %d.%d is not in assets/arch.yaml%s", dev.cc / 10, dev.cc % 10,
	       arch_unknown_forced() ? ": CUDACLIMB_UNKNOWN_ARCH" : "");
	strfmt(unk, sizeof unk, "unknown (%s)", why);
	if (a)
		strfmt(dev.limits_src, sizeof dev.limits_src, "device attributes, with %s's allocation rules from assets/arch.yaml and cuda_occupancy.h", a->name);
	else
		strfmt(dev.limits_src, sizeof dev.limits_src, "device attribute (cudaDeviceGetAttribute) for every limit, 255 registers per thread (no attribute): %s", why);
	if (a && a->fp32_lanes_per_sm > 0) {
		dev.fp32_gflops = (double)dev.sm_count * a->fp32_lanes_per_sm * 2 * khz / 1e6;
		strfmt(dev.fp32_src, sizeof dev.fp32_src, "%d SMs x %d FP32 lanes x 2 x %d MHz (lanes: assets/arch.yaml)",
		       dev.sm_count, a->fp32_lanes_per_sm, dev.clock_mhz);
	} else {
		strfmt(dev.fp32_src, sizeof dev.fp32_src, "%s", a ? "unknown (assets/arch.yaml has no FP32 lane count for this GPU)" : unk);
	}
	/* every peak: the same product, from its own rate per clock per SM */
	struct { double rate, *gflops; char *src; const char *what; } peak[] = {
		{ a ? a->bf16_tensor_flops_per_clk_per_sm : ARCH_UNKNOWN, &dev.bf16_tensor_gflops, dev.tensor_src, "dense BF16 flops" },
		{ a ? a->fp64_flops_per_clk_per_sm : ARCH_UNKNOWN, &dev.fp64_gflops, dev.fp64_src, "FP64 (FMA units) flops" },
		{ a ? a->tf32_tensor_flops_per_clk_per_sm : ARCH_UNKNOWN, &dev.tf32_tensor_gflops, dev.tf32_src, "dense TF32 flops" },
		{ a ? a->fp16_tensor_flops_per_clk_per_sm : ARCH_UNKNOWN, &dev.fp16_tensor_gflops, dev.fp16_src, "dense FP16 flops" },
		{ a ? a->fp8_tensor_flops_per_clk_per_sm : ARCH_UNKNOWN, &dev.fp8_tensor_gflops, dev.fp8_src, "dense FP8 flops" },
		{ a ? a->int8_tensor_ops_per_clk_per_sm : ARCH_UNKNOWN, &dev.int8_tensor_gops, dev.int8_src, "dense INT8 ops" },
	};
	for (size_t i = 0; i < sizeof peak / sizeof peak[0]; i++) {
		if (peak[i].rate > 0) {
			*peak[i].gflops = dev.sm_count * peak[i].rate * khz / 1e6;
			strfmt(peak[i].src, 96, "%d SMs x %.0f %s/clock x %d MHz (assets/arch.yaml)", dev.sm_count, peak[i].rate,
			       peak[i].what, dev.clock_mhz);
		} else if (!a) {
			strfmt(peak[i].src, 96, "%s", unk);
		} else if (peak[i].rate < 0) {
			strfmt(peak[i].src, 96, "unknown (assets/arch.yaml has no sourced rate for %s)", a->name);
		} else {
			strfmt(peak[i].src, 96, "none on %s", dev.arch);
		}
	}
	calibrate();
	*d = dev;
	return 0;
}
