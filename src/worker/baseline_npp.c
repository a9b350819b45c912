/* baseline_npp: NPP's image filters (libnppif, with its core libnppc), loaded with dlopen the first
 * time an NPP baseline runs. The few types and values used are declared here from NPP 13's headers
 * (nppdefs.h: NppStatus, NppiSize, NppiPoint, NppiBorderType, NppStreamContext, NppLibraryVersion;
 * nppi_filtering_functions.h: nppiFilterGaussAdvancedBorder_32f_C1R_Ctx), so building needs no NPP
 * headers; where they are present, the declarations are checked against them at compile time. */
#include "baseline_npp.h"
#include "gpu.h"
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int npp_status;                         /* NppStatus: 0 success, < 0 an error, > 0 a warning */
typedef struct { int width, height; } npp_size;  /* NppiSize */
typedef struct { int x, y; } npp_point;          /* NppiPoint */
typedef struct { int major, minor, build; } npp_version;   /* NppLibraryVersion */

enum { NPP_OK = 0, NPP_REPLICATE = 2 };          /* NPP_NO_ERROR, NPP_BORDER_REPLICATE */

/* NppStreamContext (nppdefs.h, NPP 13): what NPP would otherwise ask the runtime on every call. It is
 * passed by value, so its layout must be NPP's exactly. */
typedef struct {
	cudaStream_t stream;
	int device, sm_count, max_threads_per_sm, max_threads_per_block;
	size_t shared_per_block;
	int cc_major, cc_minor;
	unsigned int stream_flags;
	unsigned int workspace;                      /* hWorkspace (NppWorkspace, an Npp32u): 0, none */
} npp_stream_context;

#if defined(__has_include)
#if __has_include(<nppdefs.h>)
#include <nppdefs.h>
_Static_assert((int)NPP_OK == (int)NPP_NO_ERROR && (int)NPP_REPLICATE == (int)NPP_BORDER_REPLICATE, "NPP values");
_Static_assert(sizeof(npp_size) == sizeof(NppiSize) && sizeof(npp_point) == sizeof(NppiPoint), "NPP sizes and points");
_Static_assert(sizeof(npp_version) == sizeof(NppLibraryVersion), "NPP version record");
_Static_assert(sizeof(npp_stream_context) == sizeof(NppStreamContext) &&
               offsetof(npp_stream_context, shared_per_block) == offsetof(NppStreamContext, nSharedMemPerBlock) &&
               offsetof(npp_stream_context, stream_flags) == offsetof(NppStreamContext, nStreamFlags),
               "NppStreamContext layout");   /* the last field is nReserved0 before NPP 13.2, hWorkspace since: same place and size */
#endif
#endif

static struct {
	const npp_version *(*version)(void);
	npp_status (*gauss)(const float *src, int src_step, npp_size src_size, npp_point src_offset, float *dst, int dst_step,
	                    npp_size roi, int taps, const float *kernel, int border, npp_stream_context ctx);
} fn;

static void *lib_core, *lib_filter;
static int lib_failed;

/* The context last filled, for one device and stream at a time. */
static struct {
	int valid;
	npp_stream_context c;
} ctx;



/* Loads libnppc.so.13 then libnppif.so.13 (which needs it) and the entry points once; 0, or -1 after
 * saying why on stderr (once). */
static int load(void)
{
	if (lib_filter) return 0;
	if (lib_failed) return -1;
	lib_failed = 1;
	char why[512] = "withheld by CUDACLIMB_WITHOUT";
	void *core = baseline_withheld("npp") ? NULL : baseline_dlopen_path("libnppc.so.13", why, sizeof why);
	if (!core) {
		fprintf(stderr, "cudaclimb worker: NPP not found (%s): the npp_* baselines need NPP 13 (libnppc.so.13, libnppif.so.13)\n", why);
		return -1;
	}
	void *filter = baseline_dlopen_path("libnppif.so.13", why, sizeof why);
	if (!filter) {
		fprintf(stderr, "cudaclimb worker: NPP's filters not found (%s): the npp_* baselines need libnppif.so.13\n", why);
		dlclose(core);
		return -1;
	}
	*(void **)&fn.version = dlsym(core, "nppGetLibVersion");
	*(void **)&fn.gauss = dlsym(filter, "nppiFilterGaussAdvancedBorder_32f_C1R_Ctx");
	if (!fn.version || !fn.gauss) {
		fprintf(stderr, "cudaclimb worker: this NPP lacks %s: the npp_* baselines need NPP 13\n",
		        fn.version ? "nppiFilterGaussAdvancedBorder_32f_C1R_Ctx" : "nppGetLibVersion");
		dlclose(filter);
		dlclose(core);
		return -1;
	}
	const npp_version *v = fn.version();
	if (!v || v->major != 13) {
		fprintf(stderr, "cudaclimb worker: NPP %d found: the npp_* baselines need NPP 13\n", v ? v->major : -1);
		dlclose(filter);
		dlclose(core);
		return -1;
	}
	if (baseline_logging()) fprintf(stderr, "cudaclimb worker: NPP %d.%d.%d loaded\n", v->major, v->minor, v->build);
	lib_core = core;
	lib_filter = filter;
	lib_failed = 0;
	return 0;
}

/* The stream context for stream s on the current device, filled from the runtime when either changed. */
static cudaError_t context(cudaStream_t s, npp_stream_context *out)
{
	int dev;
	cudaError_t e = cudaGetDevice(&dev);
	if (e) return e;
	if (!ctx.valid || ctx.c.device != dev || ctx.c.stream != s) {
		npp_stream_context c = { .stream = s, .device = dev };
		int shared = 0;
		if ((e = cudaDeviceGetAttribute(&c.sm_count, cudaDevAttrMultiProcessorCount, dev)) ||
		    (e = cudaDeviceGetAttribute(&c.max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev)) ||
		    (e = cudaDeviceGetAttribute(&c.max_threads_per_block, cudaDevAttrMaxThreadsPerBlock, dev)) ||
		    (e = cudaDeviceGetAttribute(&shared, cudaDevAttrMaxSharedMemoryPerBlock, dev)) ||
		    (e = cudaDeviceGetAttribute(&c.cc_major, cudaDevAttrComputeCapabilityMajor, dev)) ||
		    (e = cudaDeviceGetAttribute(&c.cc_minor, cudaDevAttrComputeCapabilityMinor, dev)) ||
		    (e = cudaStreamGetFlags(s, &c.stream_flags)))
			return e;
		c.shared_per_block = (size_t)shared;
		ctx.c = c;
		ctx.valid = 1;
	}
	*out = ctx.c;
	return cudaSuccess;
}

cudaError_t npp_gauss(const npp_gauss_job *j, cudaStream_t s)
{
	if (!j->src || !j->dst || !j->weights || j->width < 1 || j->height < 1 || j->taps < 1 || j->taps % 2 == 0 ||
	    j->width > 0x7fffffff / 4)
		return cudaErrorInvalidValue;
	if (load()) return cudaErrorSharedObjectInitFailed;
	npp_stream_context c;
	cudaError_t e = context(s, &c);
	if (e) return e;
	npp_size size = { j->width, j->height };
	npp_point origin = { 0, 0 };
	int step = j->width * (int)sizeof(float);
	npp_status st = fn.gauss(j->src, step, size, origin, j->dst, step, size, j->taps, j->weights, NPP_REPLICATE, c);
	if (st < 0) {
		fprintf(stderr, "cudaclimb worker: nppiFilterGaussAdvancedBorder_32f_C1R_Ctx (%d x %d, %d taps): NPP status %d\n",
		        j->width, j->height, j->taps, st);
		return cudaErrorInvalidValue;
	}
	return cudaSuccess;
}

void npp_baseline_cleanup(void)
{
	memset(&ctx, 0, sizeof ctx);
}
