/* labwire: the lab service's wire (`cudaclimb serve`, src/app/serve*.c). A client speaks to the
 * service over a Unix stream socket in text lines of at most LABWIRE_LINE_MAX bytes; a file travels
 * as a line "file NAME LEN" and LEN bytes. The service knows a client by the kernel's word
 * (SO_PEERCRED), never by anything it sends. The requests (one at a time on a connection):
 *
 *   lease UUID EXPECT_S [for UID]    queue for GPU UUID (32 hex digits); answers "wait TEXT" lines
 *                                     while in line, then "go"; the GPU is this connection's until it
 *                                     sends "done" or closes; past the cap the service sends "over
 *                                     TEXT" and lets the next run in. "for UID" is taken only from
 *                                     the service's own account (its judges run for a student).
 *                                     A user holds or waits for at most 8 GPUs at once.
 *   submit COURSE LESSON/STAGE N     then N files, the first the learner's kernel: answers "queued
 *                                     TEXT" once the files are kept on disk, "verdict JSON" when the
 *                                     judge is done (the record it stored), or "error TEXT".
 *   status                           "line TEXT" for each GPU's queue (64 at most, those in use
 *                                     first), then "end".
 *   length UUID                      "length N": the runs holding or waiting for that GPU.
 *
 * A malformed request gets "error TEXT" and the connection is closed. serve_request.c reads them. */
#ifndef CC_LABWIRE_H
#define CC_LABWIRE_H
#include <stddef.h>

enum {
	LABWIRE_LINE_MAX = 2048,          /* a request or answer line, newline included */
	LABWIRE_FILES_MAX = 16,           /* files in one submission */
	LABWIRE_FILE_MAX = 256 * 1024,    /* bytes in one of them */
	LABWIRE_TOTAL_MAX = 1024 * 1024,  /* bytes in all of them */
	LABWIRE_NAME_MAX = 96,            /* a file's name, as a relative path */
};

/* A line reader over a socket: lines of at most LABWIRE_LINE_MAX bytes. */
typedef struct {
	int fd;
	char buf[LABWIRE_LINE_MAX * 2];
	size_t len;
} labwire_reader;

/* Connects to the service's socket at path, after checking that its folder and the socket belong to
 * root or to one account, that nobody else may write the folder, and that the process answering is
 * of the socket's owner (so a student cannot stand in for the service). The socket (close it), or -1
 * with why: what failed and what to do. */
int labwire_connect(const char *path, char *why, size_t wn);
/* labwire_connect, tried again for up to wait_s seconds while nothing answers at path (a service
 * being restarted is back within a second or two); a refusal for safety is said at once. */
int labwire_connect_wait(const char *path, double wait_s, char *why, size_t wn);
/* Writes all n bytes of buf to fd within timeout_ms (a blocking socket is fine); 0 or -1. */
int labwire_send(int fd, const void *buf, size_t n, int timeout_ms);
/* The next line (without its newline, NUL-terminated, control characters kept) into out, waiting at
 * most timeout_ms (< 0: no limit). 1 a line, 0 the other side closed, -1 an error, a timeout or a
 * line too long (why in errno: ETIMEDOUT, EMSGSIZE). */
int labwire_read_line(labwire_reader *r, char *out, size_t n, int timeout_ms);
/* Whether name is a file name a submission may carry: a relative path of letters, digits, '.',
 * '_', '-' and '/', at most LABWIRE_NAME_MAX bytes and two folders deep, no empty part, no part
 * that is "." or "..", none starting with '.'. */
int labwire_name_ok(const char *name);
/* The service's socket named by $CUDACLIMB_SERVICE, or NULL when none. */
const char *labwire_service(void);
#endif
