/* read_bw: the calibration's read-only stream (src/worker/read_bw.cu), a kernel of our own that
 * reads a device buffer once and writes almost nothing, so that what it measures is the rate at
 * which the GPU can read its DRAM. */
#ifndef CC_READ_BW_H
#define CC_READ_BW_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif
/* The median time in ms of reps passes (after 3 unmeasured ones, reps at most 32) of the read-only
 * stream over bytes of buf (device memory, 16-byte aligned; bytes a multiple of 16), each pass one
 * launch between two CUDA events on stream 0, with loads loads of 16 bytes in flight per thread
 * (4 or 8) and a grid that fills every SM; -1 on any CUDA error (cleared). The sum of what was read
 * goes to a word of its own, so that no load can be optimised away. */
double cc_read_bw_ms(const void *buf, size_t bytes, int loads, int reps);
#ifdef __cplusplus
}
#endif
#endif
