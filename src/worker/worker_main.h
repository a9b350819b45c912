/* worker_main: the `cudaclimb __worker` command, the GPU worker process (gpu.h) that the parent
 * (runner_worker.h) starts through its runner. */
#ifndef CC_WORKER_MAIN_H
#define CC_WORKER_MAIN_H
/* The `__worker` command: runs in the child. */
int worker_main(int argc, char **argv);
#endif
