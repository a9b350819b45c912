/* serve: the lab service, `cudaclimb serve` (README "Courses: a lab", "The lab service"). One process
 * per GPU box, under an unprivileged account of its own: it holds the GPU queue (a lease per
 * connection, turns between users, the cap) and the judge (a student's source compiled and run in its
 * own account, the verdict kept in a store only it writes). Clients speak labwire.h. Internal to
 * src/app/serve*.c and cli_serve.c. */
#ifndef CC_SERVE_H
#define CC_SERVE_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "course.h"
#include "labwire.h"

/* ---- serve_config.c: the service's configuration file ---- */

typedef struct {
	char *socket;            /* the Unix socket (its folder: root's or the service's, written by nobody else) */
	char *state;             /* the service's own folder: jobs waiting for the judge, the compile cache */
	char *trace;             /* a file for one line per GPU hold (as CUDACLIMB_QUEUE_TRACE), or NULL */
	char *lessons;           /* a lesson tree for the judge, or NULL: the installed one */
	double cap;              /* seconds a run may hold a GPU before the next is let in */
	double cooldown;         /* caps a user passed over at the cap then goes after every other user */
	int judges;              /* judges at once */
	int64_t judge_mb;        /* a judge's address space (RLIMIT_AS, soft), MiB */
	int64_t judge_cpu_s;     /* its CPU time (RLIMIT_CPU) */
	int64_t judge_file_mb;   /* the largest file it may write (RLIMIT_FSIZE) */
	int64_t judge_files;     /* files open at once (RLIMIT_NOFILE) */
	double judge_s;          /* wall time before a judge is stopped */
	int64_t judge_compile_s; /* the longest one compile of a judge may take (CUDACLIMB_COMPILE_S) */
	int per_user;            /* connections and waiting jobs a user may have */
	course **courses; int ncourses;   /* the courses it judges, from their folders' course.yaml */
} serve_config;

/* Reads the YAML file at path (see assets/cudaclimb-serve.yaml). 0, or -1 with "file:line:col:
 * message" in err. */
int serve_config_load(serve_config *c, const char *path, char *err, size_t errlen);
void serve_config_free(serve_config *c);
/* The course whose id is id, or NULL. */
course *serve_config_course(const serve_config *c, const char *id);

/* ---- serve_queue.c: the order of the GPU's waiters (no I/O: tested alone) ---- */

typedef struct {
	int conn;                /* the connection waiting (an index the caller knows) */
	unsigned uid;            /* whose turn it is: the peer's, or the student a judge runs for */
	long seq;                /* when it asked, in the order asked */
	int judge;               /* a judge's run for uid: never held back by uid's cool-down */
} serve_queue_waiter;

typedef struct {
	serve_queue_waiter *w; int nw, cap_w;
	struct { unsigned uid; long last; double cool_until; } *users; int nusers;   /* each user's last turn (its grant number);
	                                                                  * until when it was sent to the back (the caller's clock) */
	long grants, seqs;
} serve_queue;

/* Adds a waiter for conn of uid. */
void serve_queue_add(serve_queue *q, int conn, unsigned uid);
/* The same, for a judge's run for uid when judge is set: it takes uid's turns but is not held back by
 * uid's cool-down (the judge's line would wait on it; the judge's runs have a watchdog of their own). */
void serve_queue_add_for(serve_queue *q, int conn, unsigned uid, int judge);
/* Removes conn's waiter if it has one; 1 when it did. */
int serve_queue_remove(serve_queue *q, int conn);
/* Takes the next waiter to serve: of the users waiting, the one whose last turn is oldest (never
 * served first), and of theirs the first asked; so one user's many runs delay another's first by
 * at most the run in progress. The waiter's conn, or -1 when none waits. */
int serve_queue_next(serve_queue *q);
/* The order the waiters would be served in, as indices into q->w, into order (q->nw entries). */
void serve_queue_order(const serve_queue *q, int *order);
/* Sends uid to the back until until (the caller's clock: a user passed over at the cap): while it
 * cools, its waiters (not a judge's) are served only after every other user's, and only when the
 * caller says the GPU is quiet (serve_queue_next_at). */
void serve_queue_cool(serve_queue *q, unsigned uid, double until);
/* Whether uid cools at now. */
int serve_queue_cooling(const serve_queue *q, unsigned uid, double now);
/* Whether any user cools at now (the line keeps a cool-down that must not be forgotten). */
int serve_queue_any_cooling(const serve_queue *q, double now);
/* serve_queue_next at now: the users not cooling in turns as above; a cooling user's waiter only when
 * no other user waits and quiet is set. -1 when none is to be served (cooling waiters may remain). */
int serve_queue_next_at(serve_queue *q, double now, int quiet);
/* serve_queue_order at now: the cooling users' waiters last. */
void serve_queue_order_at(const serve_queue *q, double now, int *order);
void serve_queue_free(serve_queue *q);

/* ---- serve_request.c: one request line read (no state, no I/O: tested and fuzzed alone) ---- */

typedef enum { SR_BAD, SR_LEASE, SR_SUBMIT, SR_FILE, SR_STATUS, SR_PING, SR_DONE, SR_LENGTH } serve_request_kind;

typedef struct {
	serve_request_kind kind;
	const char *why;                 /* SR_BAD: what is wrong, one line for the client */
	char uuid[33]; double expect_s;  /* lease (length: the uuid) */
	int has_for; unsigned for_uid;   /* lease ... for UID */
	char course[65], exercise[160];  /* submit */
	int nfiles;
	char name[LABWIRE_NAME_MAX + 1]; /* file */
	size_t len;
} serve_request;

/* Reads line (no newline) as a request, or with files as a submission's "file NAME LENGTH" header.
 * 0 with *r filled, or -1 with r->kind SR_BAD and r->why. Checks the form only (a course that
 * exists, a user's limits: the service's). */
int serve_request_parse(const char *line, int files, serve_request *r);

/* ---- serve_store.c: the verdicts, kept ---- */

/* Checks (and, when missing, makes: 2750) the store folder of course co: a folder of this account,
 * not writable by others. 0, or -1 with why. */
int serve_store_ready(const course *co, char *why, size_t wn);
/* Appends one record line (no newline) to the first of uid's files in co's store with room for it
 * ("UID-USER.jsonl", then "UID-USER.N.jsonl": 0640, made with O_EXCL|O_NOFOLLOW when new), then
 * fsyncs it. No file grows past the report's caps on a file (RESULTS_FILE_MAX bytes, RESULTS_RECORDS_MAX
 * records), and there are at most
 * as many as it reads a student (RESULTS_FILES_PER_UID): so the report reads every record. 0, or -1
 * with why (also when uid's files are full). */
int serve_store_append(const course *co, unsigned uid, const char *line, char *why, size_t wn);
/* Whether uid's files in co's store have room for one more record of the largest size. */
int serve_store_room(const course *co, unsigned uid);
/* Whether uid's files in co's store already hold the record of the job named job, received at
 * received (seconds since the epoch): a job judged before the service was stopped, then found again.
 * Files of any size are searched, those not changed since received skipped. */
int serve_store_has(const course *co, unsigned uid, const char *job, int64_t received);

/* ---- serve.c ---- */

/* Runs the service until SIGTERM or SIGINT: 0, or an exit code with the reason on stderr. */
int serve_run(serve_config *c, const char *self_exe);
#endif
