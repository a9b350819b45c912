/* launch_hold: a kernel that keeps stream 0 waiting until the host has queued everything a timed
 * repetition launches (src/worker/launch_hold.cu), as nvbench's blocking kernel does, so that the
 * time between the two events is the GPU's work and not the host's: a library call whose host side
 * is slower than the flush before it (cuDNN's, some microseconds a call, more when the CPU is busy)
 * would otherwise leave the GPU idle inside the events for as long as the host takes. */
#ifndef CC_LAUNCH_HOLD_H
#define CC_LAUNCH_HOLD_H
#include <cuda_runtime_api.h>
#ifdef __cplusplus
extern "C" {
#endif
/* Queues on stream 0 a one-thread kernel that spins until cc_launch_hold_release is called, or
 * until timeout_ms have passed on the GPU's clock (then it gives up and cc_launch_hold_gave_up says
 * so). The flag it watches is pinned, mapped host memory made on the first call. 0, or the CUDA
 * error of the allocation or the launch. Not thread-safe: the worker's one thread calls it. */
cudaError_t cc_launch_hold_queue(double timeout_ms);
/* Lets the last queued hold go (the host has queued what it times). Never fails. */
void cc_launch_hold_release(void);
/* 1 when the last hold gave up before it was released (read after the stream has passed it: the host
 * blocked inside what it queued, waiting for the GPU), else 0. */
int cc_launch_hold_gave_up(void);
#ifdef __cplusplus
}
#endif
#endif
