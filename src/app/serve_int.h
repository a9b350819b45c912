/* serve_int: what the lab service's loop (serve.c) and its judges (serve_judge.c) share: the
 * connections, the jobs and the helpers that answer a client. Internal to those two files. */
#ifndef CC_SERVE_INT_H
#define CC_SERVE_INT_H
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "labwire.h"
#include "serve.h"
#include "util.h"

#define MAX_CONNS 1024
#define MAX_GPUS MAX_CONNS    /* GPU lines: one lease per connection, so one is always free to reuse */
#define GPUS_PER_USER 8       /* GPUs one user may hold or wait for at once (a run uses up to 8: --gpu) */
#define MAX_JOBS 4096
#define REQUEST_S 15.0        /* a request line must arrive whole within this */
#define UPLOAD_S 60.0         /* and a submission's files */
#define OUT_MAX (64 * 1024)   /* answers a client has not read: past this it is dropped */
#define JUDGE_OUT_MAX (2 * 1024 * 1024)

typedef enum { C_FREE, C_IDLE, C_WAIT, C_HELD, C_FILES, C_JUDGING } cstate;

typedef struct {
	char name[LABWIRE_NAME_MAX + 1];
	size_t len, got;
	char *data;
} subfile;

typedef struct {
	course *co;
	char exercise[160];
	int nfiles, cur;
	size_t total;
	subfile f[LABWIRE_FILES_MAX];
} submission;

typedef struct {
	int fd;
	unsigned uid;             /* the kernel's word (SO_PEERCRED) */
	pid_t pid;
	cstate st;
	char in[LABWIRE_LINE_MAX * 2]; size_t inlen;
	sb out;
	double deadline;          /* monotonic seconds; 0: none (waiting, holding, judging) */
	int closing;              /* drop once the answers are sent */
	double close_by;          /* or by then, sent or not */
	/* a lease */
	int gpu; unsigned turn_uid; long long ask_ns, got_ns; double got_mono; int over, shown_pos;
	submission *sub;
	int job;                  /* the job this client waits on, or -1 */
} conn;

typedef struct {
	char uuid[40];
	serve_queue q;
	int holder;               /* the connection holding the GPU, or -1 */
	long used;                /* when it was last asked for (a count of leases): idle lines are reused oldest first */
	double busy_at;           /* when a lease of a user not cooling last ended or left the line (serve_mono): a
	                           * cooling user's waiter is served once that is a cap ago */
} gpu_line;

typedef struct {
	char dir[700], main[LABWIRE_NAME_MAX + 1], exercise[160];
	course *co;
	unsigned uid;
	int64_t received;         /* the service's clock, when the files were kept: lateness is judged by it */
	pid_t pid;                /* running: the judge, the leader of its process group */
	int out_fd;
	sb out;
	double started;
	int conn;                 /* the client waiting for the verdict, or -1 */
	int seq;                  /* its place in the judges' line (serve_queue: turns between students) */
	int done;
} job;

extern serve_config *serve_cfg;   /* the configuration serve_run was given */
extern const char *serve_exe;     /* this program, for the judges */
extern conn serve_conns[MAX_CONNS];
extern job *serve_jobs[MAX_JOBS];
extern int serve_njobs;

/* serve.c: the clock, the log, and answers to a client (one line each, control characters as '?';
 * a client that does not read its answers is dropped). */
double serve_mono(void);
long long serve_epoch_ns(void);   /* CLOCK_REALTIME in ns */
void serve_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void serve_user_of(unsigned uid, char *out, size_t n);
void serve_send(conn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "error WHY", and the client is dropped once it is sent. */
void serve_refuse(conn *c, const char *why);

/* serve_judge.c: submissions kept on disk, judged by children in the service's account. */
/* The jobs of uid not yet judged. */
int serve_judge_count(unsigned uid);
/* c's whole submission (c->sub, freed here) kept on disk and queued for a judge; c then waits for its
 * verdict (C_JUDGING), or is refused when the disk would not keep it. */
void serve_judge_take(conn *c, int ci);
/* Judges that ended: their verdicts stored and told, their jobs gone. */
void serve_judge_reap(void);
/* Judges past their wall time stopped; waiting jobs started while fewer than judges run. */
void serve_judge_run(void);
/* The jobs an earlier run of the service kept and did not record, queued again. */
void serve_judge_recover(void);
/* Stops every running judge (the service is stopping; their jobs stay on disk). */
void serve_judge_stop(void);
#endif
