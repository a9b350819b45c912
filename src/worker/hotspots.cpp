/* hotspots: CUPTI's PC Sampling API behind a small C interface (see hotspots.h). C++ for the
 * containers; every entry point is extern "C" and catches everything, so no exception reaches C.
 * The flow is NVIDIA's pc_sampling_start_stop sample's: enable, read the stall reasons, configure
 * (start/stop control, a data buffer), start, run, stop, get the data until none remains, disable. */
#include "hotspots.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_pcsampling.h>
#include <cupti_result.h>
#include "cupti_util.h"

#include <cctype>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

struct pcs_api {
	decltype(&cuptiGetResultString) GetResultString;
	decltype(&cuptiPCSamplingEnable) Enable;
	decltype(&cuptiPCSamplingDisable) Disable;
	decltype(&cuptiPCSamplingStart) Start;
	decltype(&cuptiPCSamplingStop) Stop;
	decltype(&cuptiPCSamplingGetData) GetData;
	decltype(&cuptiPCSamplingGetNumStallReasons) GetNumStallReasons;
	decltype(&cuptiPCSamplingGetStallReasons) GetStallReasons;
	decltype(&cuptiPCSamplingSetConfigurationAttribute) SetConfig;
};

const cupti_symbol api_symbols[] = {
	{"cuptiGetResultString", offsetof(pcs_api, GetResultString)},
	{"cuptiPCSamplingEnable", offsetof(pcs_api, Enable)},
	{"cuptiPCSamplingDisable", offsetof(pcs_api, Disable)},
	{"cuptiPCSamplingStart", offsetof(pcs_api, Start)},
	{"cuptiPCSamplingStop", offsetof(pcs_api, Stop)},
	{"cuptiPCSamplingGetData", offsetof(pcs_api, GetData)},
	{"cuptiPCSamplingGetNumStallReasons", offsetof(pcs_api, GetNumStallReasons)},
	{"cuptiPCSamplingGetStallReasons", offsetof(pcs_api, GetStallReasons)},
	{"cuptiPCSamplingSetConfigurationAttribute", offsetof(pcs_api, SetConfig)},
};

const char reason_prefix[] = "smsp__pcsamp_warps_issue_stalled_";
const char not_issued[] = "_not_issued";
const size_t buffer_pcs = 2048;          /* PCs per GetData call */
const cupti_subject subject = {"program-counter sampling", false};

/* A zeroed CUPTI parameter block with its size set. */
template <class T> T params(size_t size)
{
	T p;
	memset(&p, 0, sizeof p);
	p.size = size;
	return p;
}

/* A CUpti_PCSamplingData with room for buffer_pcs PCs of nreasons reasons each. */
struct pc_buffer {
	CUpti_PCSamplingData d{};
	std::vector<CUpti_PCSamplingPCData> pcs;
	std::vector<CUpti_PCSamplingStallReason> reasons;

	void init(size_t nreasons)
	{
		if (nreasons < 1)
			nreasons = 1;
		pcs.assign(buffer_pcs, CUpti_PCSamplingPCData());
		reasons.assign(buffer_pcs * nreasons, CUpti_PCSamplingStallReason());
		for (size_t i = 0; i < buffer_pcs; i++) {
			memset(&pcs[i], 0, sizeof pcs[i]);
			pcs[i].size = sizeof pcs[i];
			pcs[i].stallReason = &reasons[i * nreasons];
		}
		memset(&d, 0, sizeof d);
		d.size = sizeof d;
		d.collectNumPcs = buffer_pcs;
		d.pPcData = pcs.data();
	}
};

} // namespace

struct hotspots {
	void *lib = nullptr;
	pcs_api api = {};
	CUcontext ctx = nullptr;
	bool enabled = false;
	std::map<uint32_t, std::string> reason;   /* CUPTI's index -> short name, the "_not_issued" ones left out */
	std::vector<uint32_t> wanted;             /* those indices, to collect */
	size_t nreasons = 0;                      /* every reason CUPTI has */
	pc_buffer cfg, get;                       /* the configured buffer (CUPTI's to fill at disable), ours for GetData */
	std::set<char *> names;                   /* function names CUPTI handed over, freed after disabling */
};

namespace {

/* One line for an error that means "no sampling here" (cupti_util_explain words the ones both profilers
 * meet); call names what failed otherwise. */
void explain(const hotspots *h, CUptiResult res, const char *call, char *why, size_t len)
{
	switch ((int)res) {
	case CUPTI_ERROR_NOT_SUPPORTED:
		cupti_util_say(why, len, "program-counter sampling is not supported on this GPU or its configuration (it needs compute "
		          "capability 7.0 or newer, and is off on some virtual and MIG instances)");
		break;
	case CUPTI_ERROR_HARDWARE_BUSY:
	case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
		cupti_util_say(why, len, "program-counter sampling is busy: another profiler (ncu, nsys, dcgm) holds the GPU");
		break;
	default:
		cupti_util_explain(subject, h ? h->api.GetResultString : nullptr, res, call, why, len);
	}
}

bool load_library(hotspots *h, char *why, size_t len)
{
	h->lib = cupti_util_load(subject, api_symbols, sizeof api_symbols / sizeof api_symbols[0], &h->api, "11.3", why, len);
	return h->lib != nullptr;
}

/* CUPTI's stall reasons: every index and name; those without "_not_issued" are the ones kept (the
 * others count a subset of the same samples again, as a total would). */
CUptiResult read_reasons(hotspots *h, const char **call)
{
	auto n = params<CUpti_PCSamplingGetNumStallReasonsParams>(CUpti_PCSamplingGetNumStallReasonsParamsSize);
	n.ctx = h->ctx;
	n.numStallReasons = &h->nreasons;
	CUptiResult res = h->api.GetNumStallReasons(&n);
	if (res != CUPTI_SUCCESS) {
		*call = "cuptiPCSamplingGetNumStallReasons";
		return res;
	}
	std::vector<uint32_t> index(h->nreasons ? h->nreasons : 1);
	std::vector<std::vector<char>> text(h->nreasons ? h->nreasons : 1, std::vector<char>(CUPTI_STALL_REASON_STRING_SIZE, 0));
	std::vector<char *> names;
	for (auto &t : text)
		names.push_back(t.data());
	auto g = params<CUpti_PCSamplingGetStallReasonsParams>(CUpti_PCSamplingGetStallReasonsParamsSize);
	g.ctx = h->ctx;
	g.numStallReasons = h->nreasons;
	g.stallReasonIndex = index.data();
	g.stallReasons = names.data();
	if ((res = h->api.GetStallReasons(&g)) != CUPTI_SUCCESS) {
		*call = "cuptiPCSamplingGetStallReasons";
		return res;
	}
	for (size_t i = 0; i < h->nreasons; i++) {
		text[i].back() = 0;
		std::string s(text[i].data());
		if (!s.compare(0, sizeof reason_prefix - 1, reason_prefix))
			s.erase(0, sizeof reason_prefix - 1);
		if (s.empty() || s.find("sample_count") != std::string::npos ||
		    (s.size() >= sizeof not_issued - 1 && !s.compare(s.size() - (sizeof not_issued - 1), std::string::npos, not_issued)))
			continue;
		h->reason[index[i]] = s;
		h->wanted.push_back(index[i]);
	}
	return CUPTI_SUCCESS;
}

CUpti_PCSamplingConfigurationInfo attr(CUpti_PCSamplingConfigurationAttributeType t)
{
	CUpti_PCSamplingConfigurationInfo a;
	memset(&a, 0, sizeof a);
	a.attributeType = t;
	return a;
}

CUptiResult set_config(hotspots *h, std::vector<CUpti_PCSamplingConfigurationInfo> &v)
{
	auto p = params<CUpti_PCSamplingConfigurationInfoParams>(CUpti_PCSamplingConfigurationInfoParamsSize);
	p.ctx = h->ctx;
	p.numAttributes = v.size();
	p.pPCSamplingConfigurationInfo = v.data();
	return h->api.SetConfig(&p);
}

/* What the sampling needs (start/stop control, the data buffer, parsed output), then what it can do
 * without (only the reasons kept, a larger scratch buffer, CUDACLIMB_PC_PERIOD's sampling period,
 * continuous collection): a refusal of those is not an error. */
CUptiResult configure(hotspots *h, const char **call)
{
	h->cfg.init(h->nreasons);
	h->get.init(h->nreasons);
	std::vector<CUpti_PCSamplingConfigurationInfo> need;
	need.push_back(attr(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL));
	need.back().attributeData.enableStartStopControlData.enableStartStopControl = 1;
	need.push_back(attr(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER));
	need.back().attributeData.samplingDataBufferData.samplingDataBuffer = &h->cfg.d;
	need.push_back(attr(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_OUTPUT_DATA_FORMAT));
	need.back().attributeData.outputDataFormatData.outputDataFormat = CUPTI_PC_SAMPLING_OUTPUT_DATA_FORMAT_PARSED;
	CUptiResult res = set_config(h, need);
	if (res != CUPTI_SUCCESS) {
		*call = "cuptiPCSamplingSetConfigurationAttribute";
		return res;
	}
	std::vector<CUpti_PCSamplingConfigurationInfo> want;
	if (!h->wanted.empty()) {
		want.push_back(attr(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON));
		want.back().attributeData.stallReasonData.stallReasonCount = h->wanted.size();
		want.back().attributeData.stallReasonData.pStallReasonIndex = h->wanted.data();
	}
	want.push_back(attr(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SCRATCH_BUFFER_SIZE));
	want.back().attributeData.scratchBufferSizeData.scratchBufferSize = (size_t)8 << 20;
	const char *period = getenv("CUDACLIMB_PC_PERIOD");
	if (period && atoi(period) >= 5 && atoi(period) <= 31) {
		want.push_back(attr(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD));
		want.back().attributeData.samplingPeriodData.samplingPeriod = (uint32_t)atoi(period);
	}
	want.push_back(attr(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE));
	want.back().attributeData.collectionModeData.collectionMode = CUPTI_PC_SAMPLING_COLLECTION_MODE_CONTINUOUS;
	for (auto &a : want) {          /* one at a time: one refused leaves the others set */
		std::vector<CUpti_PCSamplingConfigurationInfo> one(1, a);
		set_config(h, one);
	}
	return CUPTI_SUCCESS;
}

hotspots *open_impl(int device, char *why, size_t len)
{
	(void)device;
	if (int fake = cupti_util_fake_error()) {
		explain(nullptr, (CUptiResult)fake, "cuptiPCSamplingEnable", why, len);
		return nullptr;
	}
	hotspots *h = new hotspots;
	const char *call = "";
	CUptiResult res;
	if (!load_library(h, why, len) || !cupti_util_current_context(subject, &h->ctx, why, len))
		goto fail;
	{
		auto p = params<CUpti_PCSamplingEnableParams>(CUpti_PCSamplingEnableParamsSize);
		p.ctx = h->ctx;
		if ((res = h->api.Enable(&p)) != CUPTI_SUCCESS) {
			explain(h, res, "cuptiPCSamplingEnable", why, len);
			goto fail;
		}
		h->enabled = true;
	}
	if ((res = read_reasons(h, &call)) != CUPTI_SUCCESS || (res = configure(h, &call)) != CUPTI_SUCCESS) {
		explain(h, res, call, why, len);
		goto fail;
	}
	if (h->reason.empty()) {
		cupti_util_say(why, len, "program-counter sampling unavailable: CUPTI names no stall reasons on this GPU");
		goto fail;
	}
	return h;
fail:
	hotspots_close(h);
	return nullptr;
}

/* Per instruction: its samples, and per stall reason (short name) its count. */
struct pc_tally {
	unsigned long long samples = 0;
	std::map<std::string, unsigned long long> by;
};
typedef std::map<std::pair<std::string, unsigned long long>, pc_tally> tally_map;

/* Adds what one GetData call returned. */
void take(hotspots *h, const CUpti_PCSamplingData &d, tally_map &t)
{
	size_t n = d.totalNumPcs < buffer_pcs ? d.totalNumPcs : buffer_pcs;
	for (size_t i = 0; i < n; i++) {
		const CUpti_PCSamplingPCData &pc = d.pPcData[i];
		if (pc.functionName)
			h->names.insert(pc.functionName);
		pc_tally &x = t[std::make_pair(std::string(pc.functionName ? pc.functionName : "?"), (unsigned long long)pc.pcOffset)];
		for (size_t k = 0; k < pc.stallReasonCount && k < h->nreasons; k++) {
			auto it = h->reason.find(pc.stallReason[k].pcSamplingStallReasonIndex);
			if (it == h->reason.end() || !pc.stallReason[k].samples)
				continue;
			x.samples += pc.stallReason[k].samples;
			x.by[it->second] += pc.stallReason[k].samples;
		}
	}
}

/* The text form of hotspots.h. Function names keep only the characters the format allows. */
std::string format(const tally_map &t, unsigned long long total, unsigned long long dropped, unsigned long long other)
{
	std::string s = "total=" + std::to_string(total) + ",dropped=" + std::to_string(dropped) + ",other=" + std::to_string(other);
	std::string fn;
	char off[32];
	for (const auto &e : t) {
		if (!e.second.samples)
			continue;
		if (e.first.first != fn || fn.empty()) {
			fn = e.first.first;
			std::string clean;
			for (char c : fn)
				clean += (isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.') ? c : '_';
			s += ";@" + clean;
		}
		snprintf(off, sizeof off, "%llx", e.first.second);
		s += ";" + std::string(off) + ":" + std::to_string(e.second.samples) + ":";
		bool first = true;
		for (const auto &r : e.second.by) {
			s += (first ? "" : ",") + r.first + "=" + std::to_string(r.second);
			first = false;
		}
	}
	return s;
}

/* Gets the range's data until none remains: into t, and the range's totals into *total, *dropped,
 * *other (the largest each call reports). Returns CUPTI_SUCCESS, or the failing call's result. */
CUptiResult drain(hotspots *h, tally_map &t, unsigned long long *total, unsigned long long *dropped,
                  unsigned long long *other, bool *full)
{
	*total = *dropped = *other = 0;
	for (int round = 0; round < 100000; round++) {
		h->get.d.totalNumPcs = h->get.d.remainingNumPcs = 0;
		auto g = params<CUpti_PCSamplingGetDataParams>(CUpti_PCSamplingGetDataParamsSize);
		g.ctx = h->ctx;
		g.pcSamplingData = &h->get.d;
		CUptiResult res = h->api.GetData(&g);
		if (res == CUPTI_ERROR_OUT_OF_MEMORY || h->get.d.hardwareBufferFull) {
			*full = true;
			if (res != CUPTI_SUCCESS)
				return CUPTI_SUCCESS;
		} else if (res != CUPTI_SUCCESS) {
			return res;
		}
		if (h->get.d.totalSamples > *total) *total = h->get.d.totalSamples;
		if (h->get.d.droppedSamples > *dropped) *dropped = h->get.d.droppedSamples;
		if (h->get.d.nonUsrKernelsTotalSamples > *other) *other = h->get.d.nonUsrKernelsTotalSamples;
		take(h, h->get.d, t);
		if (h->get.d.remainingNumPcs == 0 || h->get.d.totalNumPcs == 0)
			break;
	}
	return CUPTI_SUCCESS;
}

/* Ranges of about 25 ms each (start, launches, stop, the data drained), so that no range fills the
 * hardware's buffer, until min_ms have passed and at least 3 launches ran. */
int measure_impl(hotspots *h, int (*launch)(void *), void *ctx, double min_ms, char **text, char *note, size_t notelen,
                 char *err, size_t len)
{
	tally_map t;
	unsigned long long total = 0, dropped = 0, other = 0;
	bool full = false;
	int rc = 0, n = 0;
	double t0 = cupti_util_now_ms();
	do {
		auto sp = params<CUpti_PCSamplingStartParams>(CUpti_PCSamplingStartParamsSize);
		sp.ctx = h->ctx;
		CUptiResult res = h->api.Start(&sp);
		if (res != CUPTI_SUCCESS) {
			explain(h, res, "cuptiPCSamplingStart", err, len);
			return -1;
		}
		double r0 = cupti_util_now_ms();
		do {
			rc = launch(ctx);
			if (rc == 0)
				rc = (int)cudaDeviceSynchronize();
			n++;
		} while (rc == 0 && cupti_util_now_ms() - r0 < 25 && n < 100000);
		auto tp = params<CUpti_PCSamplingStopParams>(CUpti_PCSamplingStopParamsSize);
		tp.ctx = h->ctx;
		res = h->api.Stop(&tp);
		if (rc != 0) {
			cupti_util_say(err, len, "run %d of the sampled launches: %s", n, cudaGetErrorString((cudaError_t)rc));
			return rc;
		}
		if (res != CUPTI_SUCCESS) {
			explain(h, res, "cuptiPCSamplingStop", err, len);
			return -1;
		}
		unsigned long long rt, rd, ro;
		if ((res = drain(h, t, &rt, &rd, &ro, &full)) != CUPTI_SUCCESS) {
			explain(h, res, "cuptiPCSamplingGetData", err, len);
			return -1;
		}
		total += rt;
		dropped += rd;
		other += ro;
	} while ((n < 3 || cupti_util_now_ms() - t0 < min_ms) && n < 100000);
	std::string s = format(t, total, dropped, other);
	*text = strdup(s.c_str());
	if (!*text) {
		cupti_util_say(err, len, "program-counter sampling: out of memory");
		return -1;
	}
	if (full)
		cupti_util_say(note, notelen, "the sampling buffer filled up: some samples are missing (the shares are still fair if the "
		    "kernel ran alike throughout)");
	else if (dropped && total)
		cupti_util_say(note, notelen, "the hardware dropped %llu of %llu samples", dropped, total);
	return 0;
}

} // namespace

extern "C" {

hotspots *hotspots_open(int device, char *why, size_t whylen)
{
	if (why && whylen)
		why[0] = '\0';
	try {
		return open_impl(device, why, whylen);
	} catch (...) {
		cupti_util_say(why, whylen, "program-counter sampling unavailable: out of memory while setting up CUPTI");
		return nullptr;
	}
}

int hotspots_measure(hotspots *h, int (*launch)(void *ctx), void *ctx, double min_ms, char **text, char *note,
                     size_t notelen, char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = '\0';
	if (note && notelen)
		note[0] = '\0';
	if (text)
		*text = nullptr;
	if (!h || !launch || !text) {
		cupti_util_say(err, errlen, "hotspots_measure: nothing to sample");
		return -1;
	}
	try {
		return measure_impl(h, launch, ctx, min_ms, text, note, notelen, err, errlen);
	} catch (...) {
		cupti_util_say(err, errlen, "program-counter sampling: out of memory");
		return -1;
	}
}

void hotspots_close(hotspots *h)
{
	if (!h)
		return;
	if (h->enabled) {
		auto p = params<CUpti_PCSamplingDisableParams>(CUpti_PCSamplingDisableParamsSize);
		p.ctx = h->ctx;
		h->api.Disable(&p);
		/* Disabling may have put the last records in the configured buffer: their names are ours too. */
		size_t n = h->cfg.d.totalNumPcs < h->cfg.pcs.size() ? h->cfg.d.totalNumPcs : h->cfg.pcs.size();
		for (size_t i = 0; i < n; i++)
			if (h->cfg.pcs[i].functionName)
				h->names.insert(h->cfg.pcs[i].functionName);
	}
	for (char *s : h->names)
		free(s);
	/* libcupti stays loaded: unloading it under a live CUDA context is not safe. */
	delete h;
}

} // extern "C"
