/* runner_replay: a runner whose "worker" is a recording (replay.h: a file written by run/bench
 * --json), answering in this process. It reads the requests the engine sends, in the worker protocol
 * (runner_worker.h), and answers in the same protocol: "hello", the recorded device for "device", and for
 * "run" the record that its "job" line and its plan (plan_wire.h) find - by the evaluated values, so
 * n=1<<26 finds the record of n=67108864 - or a no_gpu result that says the run is not recorded. Its
 * answers wait in memory; the fd it gives is a pipe that is readable while they do, so that the
 * engine polls it as it polls a live worker. Its class is `recorded`: no code is compiled for it, and
 * its results are taken as they were recorded. */
#ifndef CC_RUNNER_REPLAY_H
#define CC_RUNNER_REPLAY_H
#include "replay.h"
#include "runner.h"

extern const runner_class runner_replay_class;
/* A runner answering from rp (owned from now on), read from path (named by describe). Not started. */
runner *runner_replay_new(replay *rp, const char *path);
#endif
