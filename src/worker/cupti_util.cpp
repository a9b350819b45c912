/* cupti_util: the CUPTI helpers counters.cpp and hotspots.cpp share; see cupti_util.h. */
#include "cupti_util.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

double cupti_util_now_ms()
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void cupti_util_say(char *buf, size_t len, const char *fmt, ...)
{
	if (!buf || !len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

void *cupti_util_dlopen()
{
	std::vector<std::string> paths = {"libcupti.so.13", "libcupti.so"};
	const char *home = getenv("CUDA_HOME");
	for (const char *dir : {home, "/usr/local/cuda"}) {
		if (!dir || !*dir)
			continue;
		paths.push_back(std::string(dir) + "/lib64/libcupti.so");
		paths.push_back(std::string(dir) + "/extras/CUPTI/lib64/libcupti.so");
	}
	for (const std::string &p : paths)
		if (void *lib = dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL))
			return lib;
	return nullptr;
}

void *cupti_util_load(const cupti_subject &s, const cupti_symbol *syms, size_t n, void *api, const char *needs,
                 char *why, size_t len)
{
	void *lib = cupti_util_dlopen();
	if (!lib) {
		cupti_util_say(why, len, "%s unavailable: the CUPTI library (libcupti.so) was not found; "
		          "install the CUDA toolkit's CUPTI or add its lib64 to LD_LIBRARY_PATH", s.name);
		return nullptr;
	}
	for (size_t i = 0; i < n; i++) {
		void *fn = dlsym(lib, syms[i].name);
		if (!fn) {
			cupti_util_say(why, len, "%s unavailable: this CUPTI lacks %s (CUDA %s or newer is needed)", s.name, syms[i].name, needs);
			return nullptr;
		}
		memcpy(static_cast<char *>(api) + syms[i].offset, &fn, sizeof fn);
	}
	return lib;
}

std::string cupti_util_result_name(CUptiResult (*get)(CUptiResult, const char **), CUptiResult res)
{
	const char *s = nullptr;
	if (get && get(res, &s) == CUPTI_SUCCESS && s)
		return std::string(s) + " (" + std::to_string((int)res) + ")";
	return "CUPTI error " + std::to_string((int)res);
}

void cupti_util_explain(const cupti_subject &s, CUptiResult (*get)(CUptiResult, const char **), CUptiResult res,
                   const char *call, char *why, size_t len)
{
	const char *is = s.plural ? "are" : "is";
	switch ((int)res) {
	case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
		cupti_util_say(why, len, "%s %s permission: an administrator can allow all users with the "
		          "nvidia module option NVreg_RestrictProfilingToAdminUsers=0 (see /proc/driver/nvidia/params: "
		          "RmProfilingAdminOnly)", s.name, s.plural ? "need" : "needs");
		break;
	case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
		cupti_util_say(why, len, "%s %s not supported on this virtualised GPU", s.name, is);
		break;
	case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
		cupti_util_say(why, len, "%s %s off for this virtual GPU: the host's administrator must enable "
		          "profiling for the vGPU", s.name, is);
		break;
	case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
		cupti_util_say(why, len, "%s %s not available while confidential computing is on", s.name, is);
		break;
	case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
		cupti_util_say(why, len, "%s %s not supported on a MIG instance", s.name, is);
		break;
	default:
		cupti_util_say(why, len, "%s unavailable: %s failed: %s", s.name, call, cupti_util_result_name(get, res).c_str());
	}
}

void *cupti_util_driver_fn(const char *name)
{
	void *fn = nullptr;
	cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
	if (cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &q) != cudaSuccess)
		return nullptr;
	return fn;
}

bool cupti_util_current_context(const cupti_subject &s, CUcontext *ctx, char *why, size_t len)
{
	void *get_ctx = nullptr;
	cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
	cudaError_t e = cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &get_ctx, 12000, cudaEnableDefault, &q);
	if (e != cudaSuccess || !get_ctx) {
		cupti_util_say(why, len, "%s unavailable: no usable CUDA driver (%s)", s.name,
		          e != cudaSuccess ? cudaGetErrorString(e) : "cuCtxGetCurrent not found");
		return false;
	}
	*ctx = nullptr;
	if (reinterpret_cast<CUresult (*)(CUcontext *)>(get_ctx)(ctx) != CUDA_SUCCESS || !*ctx) {
		cupti_util_say(why, len, "%s unavailable: no current CUDA context (call cudaSetDevice and cudaFree(0) first)", s.name);
		return false;
	}
	return true;
}

int cupti_util_fake_error()
{
	const char *fake = getenv("CUDACLIMB_FAKE_CUPTI_ERROR");
	return fake && *fake ? atoi(fake) : 0;
}
