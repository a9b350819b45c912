/* counters: the CUPTI range profiler (CUDA 12.6+ API) behind a small C interface.
 * C++ only because cupti_profiler_host.h includes <string>; every entry point is extern "C" and
 * catches everything, so no exception reaches C. libcupti is dlopen'ed: a missing library is a
 * "no counters" answer, not a binary that fails to start. */
#include "counters.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include "cupti_util.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

/* ---- the library, loaded by name ---- */

struct cupti_api {
	decltype(&cuptiGetResultString) GetResultString;
	decltype(&cuptiProfilerInitialize) ProfilerInitialize;
	decltype(&cuptiProfilerDeInitialize) ProfilerDeInitialize;
	decltype(&cuptiProfilerDeviceSupported) ProfilerDeviceSupported;
	decltype(&cuptiDeviceGetChipName) DeviceGetChipName;
	decltype(&cuptiProfilerGetCounterAvailability) ProfilerGetCounterAvailability;
	decltype(&cuptiProfilerHostInitialize) HostInitialize;
	decltype(&cuptiProfilerHostDeinitialize) HostDeinitialize;
	decltype(&cuptiProfilerHostConfigAddMetrics) HostConfigAddMetrics;
	decltype(&cuptiProfilerHostGetConfigImageSize) HostGetConfigImageSize;
	decltype(&cuptiProfilerHostGetConfigImage) HostGetConfigImage;
	decltype(&cuptiProfilerHostGetNumOfPasses) HostGetNumOfPasses;
	decltype(&cuptiProfilerHostEvaluateToGpuValues) HostEvaluateToGpuValues;
	decltype(&cuptiRangeProfilerEnable) RangeEnable;
	decltype(&cuptiRangeProfilerDisable) RangeDisable;
	decltype(&cuptiRangeProfilerGetCounterDataSize) RangeGetCounterDataSize;
	decltype(&cuptiRangeProfilerCounterDataImageInitialize) RangeCounterDataImageInitialize;
	decltype(&cuptiRangeProfilerSetConfig) RangeSetConfig;
	decltype(&cuptiRangeProfilerStart) RangeStart;
	decltype(&cuptiRangeProfilerStop) RangeStop;
	decltype(&cuptiRangeProfilerPushRange) RangePushRange;
	decltype(&cuptiRangeProfilerPopRange) RangePopRange;
	decltype(&cuptiRangeProfilerDecodeData) RangeDecodeData;
	decltype(&cuptiRangeProfilerGetCounterDataInfo) RangeGetCounterDataInfo;
};

const cupti_symbol api_symbols[] = {
	{"cuptiGetResultString", offsetof(cupti_api, GetResultString)},
	{"cuptiProfilerInitialize", offsetof(cupti_api, ProfilerInitialize)},
	{"cuptiProfilerDeInitialize", offsetof(cupti_api, ProfilerDeInitialize)},
	{"cuptiProfilerDeviceSupported", offsetof(cupti_api, ProfilerDeviceSupported)},
	{"cuptiDeviceGetChipName", offsetof(cupti_api, DeviceGetChipName)},
	{"cuptiProfilerGetCounterAvailability", offsetof(cupti_api, ProfilerGetCounterAvailability)},
	{"cuptiProfilerHostInitialize", offsetof(cupti_api, HostInitialize)},
	{"cuptiProfilerHostDeinitialize", offsetof(cupti_api, HostDeinitialize)},
	{"cuptiProfilerHostConfigAddMetrics", offsetof(cupti_api, HostConfigAddMetrics)},
	{"cuptiProfilerHostGetConfigImageSize", offsetof(cupti_api, HostGetConfigImageSize)},
	{"cuptiProfilerHostGetConfigImage", offsetof(cupti_api, HostGetConfigImage)},
	{"cuptiProfilerHostGetNumOfPasses", offsetof(cupti_api, HostGetNumOfPasses)},
	{"cuptiProfilerHostEvaluateToGpuValues", offsetof(cupti_api, HostEvaluateToGpuValues)},
	{"cuptiRangeProfilerEnable", offsetof(cupti_api, RangeEnable)},
	{"cuptiRangeProfilerDisable", offsetof(cupti_api, RangeDisable)},
	{"cuptiRangeProfilerGetCounterDataSize", offsetof(cupti_api, RangeGetCounterDataSize)},
	{"cuptiRangeProfilerCounterDataImageInitialize", offsetof(cupti_api, RangeCounterDataImageInitialize)},
	{"cuptiRangeProfilerSetConfig", offsetof(cupti_api, RangeSetConfig)},
	{"cuptiRangeProfilerStart", offsetof(cupti_api, RangeStart)},
	{"cuptiRangeProfilerStop", offsetof(cupti_api, RangeStop)},
	{"cuptiRangeProfilerPushRange", offsetof(cupti_api, RangePushRange)},
	{"cuptiRangeProfilerPopRange", offsetof(cupti_api, RangePopRange)},
	{"cuptiRangeProfilerDecodeData", offsetof(cupti_api, RangeDecodeData)},
	{"cuptiRangeProfilerGetCounterDataInfo", offsetof(cupti_api, RangeGetCounterDataInfo)},
};

/* ---- what we ask for ---- */

enum metric_kind { M_FIELD, M_FRACTION, M_TENSOR, M_SUM, M_GMMA, M_STALL };

struct metric_def {
	const char *name;
	metric_kind kind;
	size_t field;            /* offset of a double in run_result (M_FIELD, M_FRACTION, M_SUM, M_GMMA) */
};

const metric_def metric_defs[] = {
	/* percent of peak warps -> stored as a fraction, like occ_theoretical */
	{"sm__warps_active.avg.pct_of_peak_sustained_active", M_FRACTION, offsetof(run_result, achieved_occupancy)},
	{"dram__bytes_read.sum", M_FIELD, offsetof(run_result, dram_bytes_read)},
	{"dram__bytes_write.sum", M_FIELD, offsetof(run_result, dram_bytes_write)},
	{"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", M_FIELD, offsetof(run_result, dram_pct)},
	{"l1tex__t_sector_hit_rate.pct", M_FIELD, offsetof(run_result, l1_hit_pct)},
	{"lts__t_sector_hit_rate.pct", M_FIELD, offsetof(run_result, l2_hit_pct)},
	{"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", M_FIELD, offsetof(run_result, smem_conflicts_ld)},
	{"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", M_FIELD, offsetof(run_result, smem_conflicts_st)},
	/* shared-memory wavefronts (conflict replays included), for the share of them that are replays */
	{"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", M_SUM, offsetof(run_result, smem_wavefronts)},
	{"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", M_SUM, offsetof(run_result, smem_wavefronts)},
	{"smsp__thread_inst_executed_per_inst_executed.ratio", M_FIELD, offsetof(run_result, warp_efficiency)},
	{"smsp__sass_average_branch_targets_threads_uniform.pct", M_FIELD, offsetof(run_result, branch_uniform_pct)},
	{"sm__throughput.avg.pct_of_peak_sustained_elapsed", M_FIELD, offsetof(run_result, sm_pct)},
	/* lanes that do the work: a branch the compiler turned into predication leaves warp_efficiency at
	 * 32 and shows only here */
	{"smsp__thread_inst_executed_pred_on_per_inst_executed.ratio", M_FIELD, offsetof(run_result, warp_efficiency_pred_on)},
	{"l1tex__throughput.avg.pct_of_peak_sustained_active", M_FIELD, offsetof(run_result, l1_pct)},
	{"l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", M_FIELD, offsetof(run_result, gld_sectors_per_request)},
	/* tensor instructions (HMMA: mma.sync and WMMA; IMMA: integer mma.sync; GMMA: Hopper's wgmma): a
	 * count that only tensor-core instructions make non-zero, unlike a pipe's utilisation (which reads
	 * a few % on kernels without any). HMMA + IMMA, or GMMA where that is larger: on an H200 the hmma
	 * counter counts every wgmma too (bf16, fp8 and int8 wgmma stages: hmma = gmma = the wgmma warp
	 * instructions), so adding all three counted each wgmma twice */
	{"sm__inst_executed_pipe_tensor_op_hmma.sum", M_SUM, offsetof(run_result, tensor_inst)},
	{"sm__inst_executed_pipe_tensor_op_gmma.sum", M_GMMA, offsetof(run_result, tensor_inst)},
	{"sm__inst_executed_pipe_tensor_op_imma.sum", M_SUM, offsetof(run_result, tensor_inst)},
	/* the tensor pipes: names differ by generation (all tensor work where the chip has it, hmma for
	 * mma.sync/WMMA, gmma for Hopper's wgmma); tensor_pct is the largest of those the GPU has */
	{"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active", M_TENSOR, 0},
	{"sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active", M_TENSOR, 0},
	{"sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active", M_TENSOR, 0},
};

/* Warp states, as in ncu's Warp State Statistics: smsp__average_warps_issue_stalled_<r>_per_issue_active */
const char *const stall_reasons[] = {
	"long_scoreboard", "barrier", "mio_throttle", "short_scoreboard", "wait", "not_selected",
	"math_pipe_throttle", "lg_throttle", "membar", "dispatch_stall", "drain", "imc_miss",
	"no_instruction", "sleeping", "branch_resolving", "tex_throttle", "selected",
};
const int nstall = (int)(sizeof stall_reasons / sizeof stall_reasons[0]);

/* A zeroed CUPTI parameter block with its size set (CUPTI's way of versioning them). */
template <class T> T params(size_t size)
{
	T p;
	memset(&p, 0, sizeof p);
	p.structSize = size;
	return p;
}

struct wanted { std::string name; metric_kind kind; size_t field; int stall; };

const cupti_subject subject = {"hardware counters", true};

} // namespace

const char *counters_metric_name(int i)
{
	static char stall_names[sizeof stall_reasons / sizeof stall_reasons[0]][96];
	const int ndefs = (int)(sizeof metric_defs / sizeof metric_defs[0]);
	if (i < 0) return NULL;
	if (i < ndefs) return metric_defs[i].name;
	if (i - ndefs >= nstall) return NULL;
	char *s = stall_names[i - ndefs];
	if (!s[0]) snprintf(s, sizeof stall_names[0], "smsp__average_warps_issue_stalled_%s_per_issue_active.ratio", stall_reasons[i - ndefs]);
	return s;
}

struct counters {
	void *lib = nullptr;
	cupti_api api = {};
	bool initialized = false;            /* cuptiProfilerInitialize succeeded */
	int device = 0;
	CUcontext ctx = nullptr;
	std::string chip;
	std::vector<uint8_t> avail, config, data;
	CUpti_Profiler_Host_Object *host = nullptr;
	std::vector<wanted> metrics;         /* accepted by this GPU, in request order */
	std::vector<const char *> names;     /* metrics[i].name.c_str() */
	std::vector<double> last;            /* values of the last measure */
	size_t passes = 0;
};

namespace {

/* One line for an error that means "no counters here" (cupti_util_explain words the ones both profilers
 * meet); call names what failed otherwise. */
void explain(const counters *c, CUptiResult res, const char *call, char *why, size_t len)
{
	switch ((int)res) {
	case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
		cupti_util_say(why, len, "hardware counters are not supported on crypto-mining (CMP) GPUs");
		break;
	case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
		cupti_util_say(why, len, "hardware counters are not supported with SLI");
		break;
	case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
		cupti_util_say(why, len, "hardware counters are not supported under WSL on this driver");
		break;
	case CUPTI_ERROR_HARDWARE_BUSY:
		cupti_util_say(why, len, "hardware counters are busy: another profiler (ncu, dcgm, nsys) holds them");
		break;
	case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
		cupti_util_say(why, len, "hardware counters unavailable: the legacy CUPTI event API is active in this process");
		break;
	case CUPTI_ERROR_NOT_SUPPORTED:
	case CUPTI_ERROR_INVALID_CHIP_NAME:
		cupti_util_say(why, len, "hardware counters are not supported on this GPU%s%s by this CUPTI",
		          c->chip.empty() ? "" : " ", c->chip.c_str());
		break;
	default:
		cupti_util_explain(subject, c->api.GetResultString, res, call, why, len);
	}
}

bool load_library(counters *c, char *why, size_t len)
{
	c->lib = cupti_util_load(subject, api_symbols, sizeof api_symbols / sizeof api_symbols[0], &c->api, "12.6", why, len);
	return c->lib != nullptr;
}

/* The runtime's current context and its device, through the driver entry points (no -lcuda needed). */
bool current_context(counters *c, CUdevice *dev, char *why, size_t len)
{
	if (!cupti_util_current_context(subject, &c->ctx, why, len))
		return false;
	void *get_dev = cupti_util_driver_fn("cuDeviceGet");
	if (!get_dev) {
		cupti_util_say(why, len, "hardware counters unavailable: no usable CUDA driver (cuDeviceGet not found)");
		return false;
	}
	if (reinterpret_cast<CUresult (*)(CUdevice *, int)>(get_dev)(dev, c->device) != CUDA_SUCCESS) {
		cupti_util_say(why, len, "hardware counters unavailable: CUDA device %d not found", c->device);
		return false;
	}
	return true;
}

bool device_supported(counters *c, CUdevice dev, char *why, size_t len)
{
	auto p = params<CUpti_Profiler_DeviceSupported_Params>(CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE);
	p.cuDevice = dev;
	p.api = CUPTI_PROFILER_RANGE_PROFILING;
	CUptiResult res = c->api.ProfilerDeviceSupported(&p);
	if (res != CUPTI_SUCCESS) {
		explain(c, res, "cuptiProfilerDeviceSupported", why, len);
		return false;
	}
	if (p.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
		return true;
	const char *what = "this GPU or its configuration";
	if (p.architecture == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
		what = "this GPU's architecture (compute capability 7.5 or newer is needed)";
	else if (p.vGpu == CUPTI_PROFILER_CONFIGURATION_DISABLED)
		what = "this virtual GPU unless the host enables profiling for it";
	else if (p.vGpu == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
		what = "this virtualised GPU";
	else if (p.confidentialCompute == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
		what = "a GPU in confidential-computing mode";
	else if (p.cmp == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
		what = "crypto-mining (CMP) GPUs";
	else if (p.sli == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
		what = "SLI configurations";
	else if (p.wsl == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
		what = "WSL on this driver";
	cupti_util_say(why, len, "hardware counters are not supported on %s", what);
	return false;
}

void host_free(counters *c)
{
	if (!c->host)
		return;
	auto p = params<CUpti_Profiler_Host_Deinitialize_Params>(CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
	p.pHostObject = c->host;
	c->api.HostDeinitialize(&p);
	c->host = nullptr;
}

CUptiResult host_new(counters *c)
{
	auto p = params<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
	p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
	p.pChipName = c->chip.c_str();
	p.pCounterAvailabilityImage = c->avail.data();
	CUptiResult res = c->api.HostInitialize(&p);
	if (res == CUPTI_SUCCESS)
		c->host = p.pHostObject;
	return res;
}

CUptiResult host_add(counters *c, const char **names, size_t n)
{
	auto p = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
	p.pHostObject = c->host;
	p.ppMetricNames = names;
	p.numMetrics = n;
	return c->api.HostConfigAddMetrics(&p);
}

/* Adds the wanted metrics one at a time and keeps those the chip accepts. A refused name may leave the
 * host object in an unknown state, so it is rebuilt with the accepted ones after each refusal. */
CUptiResult choose_metrics(counters *c, const std::vector<wanted> &all)
{
	CUptiResult res = host_new(c);
	if (res != CUPTI_SUCCESS)
		return res;
	for (const wanted &w : all) {
		const char *name = w.name.c_str();
		if (host_add(c, &name, 1) == CUPTI_SUCCESS) {
			c->metrics.push_back(w);
			continue;
		}
		host_free(c);
		if ((res = host_new(c)) != CUPTI_SUCCESS)
			return res;
		std::vector<const char *> ok;
		for (const wanted &m : c->metrics)
			ok.push_back(m.name.c_str());
		if (!ok.empty() && (res = host_add(c, ok.data(), ok.size())) != CUPTI_SUCCESS)
			return res;
	}
	for (const wanted &m : c->metrics)
		c->names.push_back(m.name.c_str());
	return CUPTI_SUCCESS;
}

CUptiResult build_config(counters *c, const char **call)
{
	auto s = params<CUpti_Profiler_Host_GetConfigImageSize_Params>(CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
	s.pHostObject = c->host;
	CUptiResult res = c->api.HostGetConfigImageSize(&s);
	if (res != CUPTI_SUCCESS) {
		*call = "cuptiProfilerHostGetConfigImageSize";
		return res;
	}
	c->config.assign(s.configImageSize, 0);
	auto g = params<CUpti_Profiler_Host_GetConfigImage_Params>(CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
	g.pHostObject = c->host;
	g.configImageSize = c->config.size();
	g.pConfigImage = c->config.data();
	if ((res = c->api.HostGetConfigImage(&g)) != CUPTI_SUCCESS) {
		*call = "cuptiProfilerHostGetConfigImage";
		return res;
	}
	auto n = params<CUpti_Profiler_Host_GetNumOfPasses_Params>(CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
	n.configImageSize = c->config.size();
	n.pConfigImage = c->config.data();
	if ((res = c->api.HostGetNumOfPasses(&n)) != CUPTI_SUCCESS) {
		*call = "cuptiProfilerHostGetNumOfPasses";
		return res;
	}
	c->passes = n.numOfPasses;
	return CUPTI_SUCCESS;
}

counters *open_impl(int device, char *why, size_t len)
{
	/* The test hook stands in for the very first CUPTI call, before the library is even loaded, so
	 * the permission path can be tried on any machine. */
	if (int fake = cupti_util_fake_error()) {
		counters none;
		explain(&none, (CUptiResult)fake, "cuptiProfilerInitialize", why, len);
		return nullptr;
	}
	counters *c = new counters;
	c->device = device;
	CUdevice dev = 0;
	CUptiResult res;
	const char *call = "";
	if (!load_library(c, why, len) || !current_context(c, &dev, why, len))
		goto fail;
	{
		auto p = params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
		if ((res = c->api.ProfilerInitialize(&p)) != CUPTI_SUCCESS) {
			explain(c, res, "cuptiProfilerInitialize", why, len);
			goto fail;
		}
		c->initialized = true;
	}
	if (!device_supported(c, dev, why, len))
		goto fail;
	{
		auto p = params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
		p.deviceIndex = (size_t)device;
		if ((res = c->api.DeviceGetChipName(&p)) != CUPTI_SUCCESS || !p.pChipName) {
			explain(c, res, "cuptiDeviceGetChipName", why, len);
			goto fail;
		}
		c->chip = p.pChipName;
	}
	{
		auto p = params<CUpti_Profiler_GetCounterAvailability_Params>(CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
		p.ctx = c->ctx;
		if ((res = c->api.ProfilerGetCounterAvailability(&p)) != CUPTI_SUCCESS) {
			explain(c, res, "cuptiProfilerGetCounterAvailability", why, len);
			goto fail;
		}
		c->avail.assign(p.counterAvailabilityImageSize, 0);
		p.pCounterAvailabilityImage = c->avail.data();
		if ((res = c->api.ProfilerGetCounterAvailability(&p)) != CUPTI_SUCCESS) {
			explain(c, res, "cuptiProfilerGetCounterAvailability", why, len);
			goto fail;
		}
	}
	{
		std::vector<wanted> all;
		for (const metric_def &d : metric_defs)
			all.push_back({d.name, d.kind, d.field, -1});
		for (int i = 0; i < nstall; i++)
			all.push_back({std::string("smsp__average_warps_issue_stalled_") + stall_reasons[i] +
			               "_per_issue_active.ratio", M_STALL, 0, i});
		if ((res = choose_metrics(c, all)) != CUPTI_SUCCESS) {
			explain(c, res, "cuptiProfilerHostInitialize", why, len);
			goto fail;
		}
		if (c->metrics.empty()) {
			cupti_util_say(why, len, "hardware counters: none of the metrics cudaclimb reads exists on chip %s", c->chip.c_str());
			goto fail;
		}
	}
	if ((res = build_config(c, &call)) != CUPTI_SUCCESS) {
		explain(c, res, call, why, len);
		goto fail;
	}
	return c;
fail:
	counters_close(c);
	return nullptr;
}

/* Fills r from the values of c->metrics, in order. */
void fill_result(const counters *c, const std::vector<double> &v, run_result *r)
{
	double tensor = -1, gmma = -1, stall[sizeof stall_reasons / sizeof stall_reasons[0]];
	bool have_stall = false;
	for (int i = 0; i < nstall; i++)
		stall[i] = -1;
	for (size_t i = 0; i < c->metrics.size() && i < v.size(); i++) {
		const wanted &m = c->metrics[i];
		double x = v[i];
		if (!std::isfinite(x))
			continue;
		double *field = reinterpret_cast<double *>(reinterpret_cast<char *>(r) + m.field);
		switch (m.kind) {
		case M_FIELD: *field = x; break;
		case M_FRACTION: *field = x / 100.0; break;
		case M_TENSOR: tensor = std::max(tensor, x); break;
		case M_SUM: *field = (*field > 0 ? *field : 0) + x; break;
		case M_GMMA: gmma = x; break;
		case M_STALL: stall[m.stall] = x; have_stall = true; break;
		}
	}
	if (gmma >= 0 && gmma > r->tensor_inst)   /* the wgmma count, where hmma + imma did not include it */
		r->tensor_inst = gmma;
	if (tensor >= 0)
		r->tensor_pct = tensor;
	if (!have_stall)
		return;
	double sum = 0;
	int order[sizeof stall_reasons / sizeof stall_reasons[0]];
	for (int i = 0; i < nstall; i++) {
		order[i] = i;
		if (stall[i] > 0)
			sum += stall[i];
	}
	if (sum <= 0)
		return;
	std::stable_sort(order, order + nstall, [&](int a, int b) { return stall[a] > stall[b]; });
	r->stalls[0] = '\0';
	size_t used = 0;
	for (int k = 0; k < 3 && stall[order[k]] > 0; k++) {
		int n = snprintf(r->stalls + used, sizeof r->stalls - used, "%s%s %.0f%%", k ? ", " : "",
		                 stall_reasons[order[k]], 100.0 * stall[order[k]] / sum);
		if (n < 0 || (size_t)n >= sizeof r->stalls - used)
			break;
		used += (size_t)n;
	}
}

/* Runs the passes; returns 0, a cudaError_t from the launches, or -1 (CUPTI; err set). */
int measure_impl(counters *c, int (*launch)(void *), void *ctx, run_result *r, char *err, size_t len)
{
	double t0 = cupti_util_now_ms();
	CUpti_RangeProfiler_Object *obj = nullptr;
	CUptiResult res = CUPTI_SUCCESS;
	const char *call = "";
	int rc = 0, passes = 0;
	bool all_submitted = false;
	std::vector<double> values;

	{
		auto p = params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
		p.ctx = c->ctx;
		if ((res = c->api.RangeEnable(&p)) != CUPTI_SUCCESS) {
			call = "cuptiRangeProfilerEnable";
			goto cupti_fail;
		}
		obj = p.pRangeProfilerObject;
	}
	{
		auto p = params<CUpti_RangeProfiler_GetCounterDataSize_Params>(CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
		p.pRangeProfilerObject = obj;
		p.pMetricNames = c->names.data();
		p.numMetrics = c->names.size();
		p.maxNumOfRanges = 1;
		p.maxNumRangeTreeNodes = 1;
		if ((res = c->api.RangeGetCounterDataSize(&p)) != CUPTI_SUCCESS) {
			call = "cuptiRangeProfilerGetCounterDataSize";
			goto cupti_fail;
		}
		c->data.assign(p.counterDataSize, 0);
	}
	{
		auto p = params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
		p.pRangeProfilerObject = obj;
		p.counterDataSize = c->data.size();
		p.pCounterData = c->data.data();
		if ((res = c->api.RangeCounterDataImageInitialize(&p)) != CUPTI_SUCCESS) {
			call = "cuptiRangeProfilerCounterDataImageInitialize";
			goto cupti_fail;
		}
	}
	{
		auto p = params<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
		p.pRangeProfilerObject = obj;
		p.configSize = c->config.size();
		p.pConfig = c->config.data();
		p.counterDataImageSize = c->data.size();
		p.pCounterDataImage = c->data.data();
		p.range = CUPTI_UserRange;
		p.replayMode = CUPTI_UserReplay;
		p.maxRangesPerPass = 1;
		p.numNestingLevels = 1;
		p.minNestingLevel = 1;
		p.passIndex = 0;
		p.targetNestingLevel = 1;
		if ((res = c->api.RangeSetConfig(&p)) != CUPTI_SUCCESS) {
			call = "cuptiRangeProfilerSetConfig";
			goto cupti_fail;
		}
	}
	while (!all_submitted) {
		auto sp = params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
		sp.pRangeProfilerObject = obj;
		if ((res = c->api.RangeStart(&sp)) != CUPTI_SUCCESS) {
			call = "cuptiRangeProfilerStart";
			goto cupti_fail;
		}
		auto pp = params<CUpti_RangeProfiler_PushRange_Params>(CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE);
		pp.pRangeProfilerObject = obj;
		pp.pRangeName = "stage";
		if ((res = c->api.RangePushRange(&pp)) != CUPTI_SUCCESS) {
			call = "cuptiRangeProfilerPushRange";
			goto cupti_fail;
		}
		rc = launch(ctx);
		if (rc == 0)
			rc = (int)cudaDeviceSynchronize();
		auto op = params<CUpti_RangeProfiler_PopRange_Params>(CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE);
		op.pRangeProfilerObject = obj;
		CUptiResult pop = c->api.RangePopRange(&op);
		auto tp = params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
		tp.pRangeProfilerObject = obj;
		CUptiResult stop = c->api.RangeStop(&tp);
		passes++;
		if (rc != 0) {
			cupti_util_say(err, len, "pass %d of the counter replay: %s", passes, cudaGetErrorString((cudaError_t)rc));
			goto done;
		}
		if (pop != CUPTI_SUCCESS || stop != CUPTI_SUCCESS) {
			res = pop != CUPTI_SUCCESS ? pop : stop;
			call = pop != CUPTI_SUCCESS ? "cuptiRangeProfilerPopRange" : "cuptiRangeProfilerStop";
			goto cupti_fail;
		}
		all_submitted = tp.isAllPassSubmitted != 0;
		if (!all_submitted && passes >= 256) {
			cupti_util_say(err, len, "hardware counters: the replay did not finish after %d passes", passes);
			rc = -1;
			goto done;
		}
	}
	{
		auto p = params<CUpti_RangeProfiler_DecodeData_Params>(CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
		p.pRangeProfilerObject = obj;
		if ((res = c->api.RangeDecodeData(&p)) != CUPTI_SUCCESS) {
			call = "cuptiRangeProfilerDecodeData";
			goto cupti_fail;
		}
	}
	{
		auto p = params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
		p.pCounterDataImage = c->data.data();
		p.counterDataImageSize = c->data.size();
		if ((res = c->api.RangeGetCounterDataInfo(&p)) != CUPTI_SUCCESS) {
			call = "cuptiRangeProfilerGetCounterDataInfo";
			goto cupti_fail;
		}
		if (p.numTotalRanges < 1) {
			cupti_util_say(err, len, "hardware counters: the profiler recorded no range");
			rc = -1;
			goto done;
		}
	}
	{
		values.assign(c->names.size(), NAN);
		auto p = params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
		p.pHostObject = c->host;
		p.pCounterDataImage = c->data.data();
		p.counterDataImageSize = c->data.size();
		p.rangeIndex = 0;
		p.ppMetricNames = c->names.data();
		p.numMetrics = c->names.size();
		p.pMetricValues = values.data();
		if ((res = c->api.HostEvaluateToGpuValues(&p)) != CUPTI_SUCCESS) {
			call = "cuptiProfilerHostEvaluateToGpuValues";
			goto cupti_fail;
		}
	}
	c->last = values;
	fill_result(c, values, r);
	goto done;

cupti_fail:
	explain(c, res, call, err, len);
	rc = -1;
done:
	if (obj) {
		auto p = params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
		p.pRangeProfilerObject = obj;
		c->api.RangeDisable(&p);
	}
	r->counter_passes = passes;
	r->counter_ms = cupti_util_now_ms() - t0;
	if (rc == -1 && err && *err)
		cupti_util_say(r->counters_note, sizeof r->counters_note, "%s", err);
	return rc;
}

} // namespace

extern "C" {

counters *counters_open(int device, char *why, size_t whylen)
{
	if (why && whylen)
		why[0] = '\0';
	try {
		return open_impl(device, why, whylen);
	} catch (...) {
		cupti_util_say(why, whylen, "hardware counters unavailable: out of memory while setting up CUPTI");
		return nullptr;
	}
}

int counters_passes(const counters *c)
{
	return c ? (int)c->passes : 0;
}

int counters_measure(counters *c, int (*launch)(void *ctx), void *ctx, run_result *r, char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = '\0';
	if (!c || !launch || !r) {
		cupti_util_say(err, errlen, "counters_measure: nothing to measure");
		return -1;
	}
	try {
		return measure_impl(c, launch, ctx, r, err, errlen);
	} catch (...) {
		cupti_util_say(err, errlen, "hardware counters: out of memory");
		return -1;
	}
}

void counters_close(counters *c)
{
	if (!c)
		return;
	host_free(c);
	if (c->initialized) {
		auto p = params<CUpti_Profiler_DeInitialize_Params>(CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
		c->api.ProfilerDeInitialize(&p);
	}
	/* libcupti stays loaded: unloading it under a live CUDA context is not safe. */
	delete c;
}

int counters_values(const counters *c, const char **names, double *values, int max)
{
	if (!c)
		return 0;
	int n = 0;
	for (size_t i = 0; i < c->last.size() && i < c->names.size() && n < max; i++, n++) {
		names[n] = c->names[i];
		values[n] = c->last[i];
	}
	return n;
}

} // extern "C"
