/* worker: the parent's side of the GPU worker process (`cudaclimb __worker`), which does all CUDA
 * work so that a kernel that faults or hangs ends only that process.
 *
 * Protocol, one text line per item. Parent -> worker: "device\nend\n", or "run\n" then
 * "lesson PATH", "kroot DIR", "stage I" (-1: baseline), "ref_stage I" (-2: no check), "cubin PATH",
 * "ref_cubin PATH", "set NAME VALUE" (repeated), "seed N", "verify 0|1", "time 0|1", "reps N",
 * "counters 0|1", optionally "pair_cubin PATH" (the stage's own kernel, timed alternately with this
 * one), "untrusted 1" (a learner's kernel: the reference's outputs are scrambled with a key kept on
 * the host while it runs, scratch buffers are zeroed before each of its runs, and its result is checked
 * again after the timed runs) and "tolerance EXACT REL ABS" (instead of the lesson's), then "end". Worker -> parent: "note TEXT" (e.g. who holds the GPU), "phase running",
 * "beat" (alive during long timing), then "result" + run_result fields as "name value" lines +
 * optional "log TEXT" + "end", or "device" + device_info fields + "end". */
#ifndef CC_WORKER_H
#define CC_WORKER_H
/* The protocol's version: the worker's first line is "hello N"; a parent that reads another N (or
 * anything else first) says so and uses no such worker. */
#define WORKER_PROTOCOL 2
#include <stddef.h>
#include "result.h"

typedef struct worker worker;

/* WMSG_BAD: the worker said something that is not this protocol (text says what); it is not to be
 * trusted further. */
typedef enum { WMSG_NONE, WMSG_NOTE, WMSG_RUNNING, WMSG_BEAT, WMSG_RESULT, WMSG_DEVICE, WMSG_DIED, WMSG_BAD } wmsg_kind;
typedef struct {
	wmsg_kind kind;
	char text[512];      /* NOTE: the note; DIED: how the worker ended */
	run_result result;   /* RESULT: owned by the message until the next worker_next call */
	device_info device;  /* DEVICE */
} wmsg;

/* A worker that will run `exe __worker --gpu N` with CUDACLIMB_BUILTIN_ROOT=builtin_root (or, for
 * tests, the program named by $CUDACLIMB_WORKER in place of exe). Not started. */
worker *worker_new(const char *exe, const char *data_root, int gpu);
/* Runs the worker under another program: argv (NULL-terminated, copied) goes before "exe __worker
 * N", e.g. compute-sanitizer and its options. Takes effect at the next start. */
void worker_set_prefix(worker *w, char *const *argv);
/* Starts the process if it is not running; 0 or -1 with err. */
int worker_ensure(worker *w, char *err, size_t errlen);
/* Sends text (a whole request); 0 or -1 (the worker is gone). */
int worker_send(worker *w, const char *text);
/* The fd to poll for input, or -1 when not running. */
int worker_fd(const worker *w);
/* Reads what is available and returns the next complete message in *m (kind WMSG_NONE: nothing yet).
 * EOF gives WMSG_DIED with the exit status or signal. */
void worker_next(worker *w, wmsg *m);
/* Milliseconds since the worker last said anything. */
double worker_idle_ms(const worker *w);
/* Asks the process to quit and waits up to wait_ms for it (a process under compute-sanitizer writes
 * its report as it ends), then kills it if need be. */
void worker_close(worker *w, int wait_ms);
/* Kills the process (SIGKILL) and reaps it. */
void worker_kill(worker *w);
void worker_free(worker *w);
/* The `__worker` command: runs in the child. */
int worker_main(int argc, char **argv);
#endif
