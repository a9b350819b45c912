/* worker_stdout: the worker's descriptor 1, set apart from its protocol. What a learner's kernel
 * prints (the CUDA runtime writes device printf to stdout) or a library writes to stdout goes to a
 * file nobody else can name, and reaches stderr after each request, cleaned and bounded: it can
 * never put a line, such as a forged result, into the protocol, nor drive a terminal. */
#ifndef CC_WORKER_STDOUT_H
#define CC_WORKER_STDOUT_H
#include <stddef.h>
#include <stdio.h>

/* At most this much of what was printed during one request reaches stderr; the rest is counted. */
#define WORKER_STDOUT_MAX (64 * 1024)

/* Moves the protocol to a new descriptor and returns its stream (the caller's; it stays open to
 * the end); descriptor 1 becomes a pipe that a thread of this process empties. NULL with err on
 * failure. */
FILE *worker_stdout_apart(char *err, size_t errlen);
/* What was printed since the last call, to stderr with control characters as '?' (at most
 * WORKER_STDOUT_MAX bytes, then how many more were left out). */
void worker_stdout_drain(void);
#endif
