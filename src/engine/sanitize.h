/* sanitize: NVIDIA's compute-sanitizer around a GPU worker, to say where a learner's kernel goes
 * wrong: memcheck for an out-of-bounds or misaligned access (the faulting line and thread),
 * racecheck for a shared-memory race (the two lines). The tool comes with the CUDA Toolkit; where
 * it is missing, nothing is run and the verdict says so. */
#ifndef CC_SANITIZE_H
#define CC_SANITIZE_H
#include <stddef.h>

typedef enum { SAN_NONE, SAN_MEMCHECK, SAN_RACECHECK } san_tool;
const char *san_tool_name(san_tool t);   /* "memcheck", "racecheck" */

/* The compute-sanitizer program: $CUDA_HOME/bin, the build's CUDA folder, else one on PATH. Returns
 * 0 with its path in out, or -1 when there is none. */
int san_find(char *out, size_t n);

/* The words that go before "cudaclimb __worker N" to run the worker under tool t, its report to
 * log_path (not to stdout, which is the worker's protocol). Fills argv (at most cap - 1 words,
 * pointing into static storage or the arguments) and returns the count. */
int san_argv(const char *tool_path, san_tool t, const char *log_path, char **argv, int cap);

/* One line from a sanitizer report: the first error, preferring one located in file_hint (the
 * learner's file name), e.g. "memcheck: invalid __global__ write of size 4 bytes at fault.cu:4, by
 * thread (0,0,0) in block (0,0,0): the address is out of bounds" or "racecheck: a race between a
 * write at race.cu:8 and a read at race.cu:8 (shared memory)". Returns 1 when it found an error,
 * 0 when the report has none (out then says the tool found nothing), -1 when it is not a report. */
int san_parse(san_tool t, const char *report, const char *file_hint, char *out, size_t n);
#endif
