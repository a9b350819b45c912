/* read_bw: the calibration's read-only stream (src/worker/read_bw.cu), a kernel of our own that
 * reads a device buffer once and writes almost nothing, so that what it measures is the rate at
 * which the GPU can read its DRAM. */
#ifndef CC_READ_BW_H
#define CC_READ_BW_H
#include <stddef.h>
#include <cuda_runtime_api.h>
#ifdef __cplusplus
extern "C" {
#endif
enum { CC_READ_BW_VARIANTS = 6 };
/* The median time in ms of reps passes (after 3 unmeasured ones, reps at most 32) of read-only stream
 * variant (0 .. CC_READ_BW_VARIANTS - 1) over bytes of buf (device memory, 16-byte aligned; bytes a
 * multiple of 16), each pass one launch between two CUDA events on stream 0; -1 on any CUDA error
 * (cleared). Every variant issues 16-byte loads, several in flight per thread: 0 and 1 a grid that
 * fills every SM once and walks the buffer in rounds (4 or 8 loads per thread), 2 to 5 one block
 * per chunk of the buffer (256, 1024 or 512 threads with 16 loads each, 1024 threads with 8). The sum of what was read goes to a
 * word of its own, so that no load can be optimised away. */
double cc_read_bw_ms(const void *buf, size_t bytes, int variant, int reps);
/* Queues on stream 0 (not timed, nothing waited for) one read-only pass of variant 0 over bytes of buf
 * (device memory, 16-byte aligned): with bytes at least twice the L2, what the L2 held before, dirty
 * lines included (they are written back during the pass), is replaced by clean lines of buf. 0 or the
 * CUDA error of the launch. */
cudaError_t cc_read_evict(const void *buf, size_t bytes);
/* The words for variant ("a chunk per block, 1024 threads x 16 loads"); a static string. */
const char *cc_read_bw_name(int variant);
#ifdef __cplusplus
}
#endif
#endif
