/* gpulease: the GPU queue of the lab service (src/app/serve*.c), for a worker whose runs a service
 * orders ($CUDACLIMB_SERVICE names its socket). The lease is the connection: the GPU is this
 * process's from "go" until it closes it, so nothing is left behind in any folder if it dies. */
#ifndef CC_GPULEASE_H
#define CC_GPULEASE_H
#include <stddef.h>

/* Queues for GPU uuid at the service's socket and waits for its turn, calling note(ctx, text) with
 * each "wait" line the service sends (who is ahead, a run passed over). $CUDACLIMB_SERVICE_FOR (a
 * uid) asks for the turn of that student: the service takes it only from its own account. Returns
 * 0 with the GPU held, or -1 with why (the service cannot be reached or refused): the run is then
 * refused, never run unqueued. */
int gpulease_acquire(const char *socket_path, const char *uuid, double expect_s, void (*note)(void *ctx, const char *text),
                     void *ctx, char *why, size_t wn);
/* The index of the GPU with the shortest line at the service among n uuids (among equals as util_pick_shortest chooses),
 * each line's length in lengths[i] when not NULL (0 for all when the service does not answer). */
int gpulease_pick(const char *socket_path, const char *const *uuids, int n, int *lengths);
/* Gives the GPU back (a no-op without a lease); when the service passed this run over meanwhile,
 * tells the note given to acquire first. */
void gpulease_release(void);
#endif
