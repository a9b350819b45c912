/* cupti_util: what the two CUPTI modules (counters.cpp: the range profiler; hotspots.cpp: PC sampling)
 * share: libcupti opened by name and its entry points looked up (a missing CUPTI is a message, not a
 * failure to start), CUPTI's error text and the refusals both profilers meet, the runtime's current
 * context, and the test hook that fakes the first CUPTI call's error. C++ only. */
#ifndef CC_CUPTI_UTIL_H
#define CC_CUPTI_UTIL_H
#include <cuda.h>
#include <cupti_result.h>
#include <cstddef>
#include <string>

/* What a message calls the feature: "hardware counters" (plural: "are", "need") or "program-counter
 * sampling" (singular: "is", "needs"). */
struct cupti_subject { const char *name; bool plural; };
/* An entry point to look up: its name, and where its pointer goes in the caller's table of them. */
struct cupti_symbol { const char *name; size_t offset; };

/* Milliseconds on the monotonic clock. */
double cupti_util_now_ms();
/* printf into buf (cut to len); nothing when buf is NULL or len 0. */
void cupti_util_say(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The first libcupti that opens: the loader's search (libcupti.so.13, libcupti.so), then $CUDA_HOME's
 * and /usr/local/cuda's lib64 and extras/CUPTI/lib64. NULL when none does. */
void *cupti_util_dlopen();
/* Opens libcupti and writes each of syms' n entry points into api at its offset. Returns the library
 * (kept open), or NULL with why: not found, or a symbol missing ("CUDA needs or newer"). */
void *cupti_util_load(const cupti_subject &s, const cupti_symbol *syms, size_t n, void *api, const char *needs,
                 char *why, size_t len);
/* "CUPTI_ERROR_X (N)" through cuptiGetResultString when the library gave it (get may be NULL), else
 * "CUPTI error N". */
std::string cupti_util_result_name(CUptiResult (*get)(CUptiResult, const char **), CUptiResult res);
/* One line into why for an error that means "no profiling here" (permission, a virtual GPU, MIG,
 * confidential computing), else "<subject> unavailable: <call> failed: <its name>". For the errors
 * a module words its own way, it says them first and calls this for the rest. */
void cupti_util_explain(const cupti_subject &s, CUptiResult (*get)(CUptiResult, const char **), CUptiResult res,
                   const char *call, char *why, size_t len);
/* The runtime's current context, through the driver entry point (no -lcuda needed): true with *ctx,
 * or false with why. */
bool cupti_util_current_context(const cupti_subject &s, CUcontext *ctx, char *why, size_t len);
/* A driver function by name through the runtime (cudaGetDriverEntryPointByVersion), or NULL. */
void *cupti_util_driver_fn(const char *name);
/* The test hook: $CUDACLIMB_FAKE_CUPTI_ERROR's code (it stands in for the first CUPTI call, before the
 * library is even loaded, so that the refusal paths can be tried on any machine), or 0. */
int cupti_util_fake_error();
#endif
