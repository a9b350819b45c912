/* runner: where the GPU worker runs. One table of functions per place - this machine, a GPU box
 * over ssh, a Slurm job - so that the engine starts, feeds, reads and stops its workers the same way
 * wherever they are. A runner carries bytes; what they say is the worker protocol (runner_worker.h), which
 * sends the compiled code itself, so no runner needs a shared filesystem.
 *
 *   local   `cudaclimb __worker N` here ($CUDACLIMB_WORKER names another program, for tests)
 *   ssh     `ssh -T HOST cudaclimb __worker N`: the worker on HOST, compiles here for its GPU
 *   slurm   `srun [-p P] [--gres G] [-t T] [-A A] cudaclimb __worker N`: a Slurm job (a step of the
 *           allocation when $SLURM_JOB_ID is set, as inside salloc) */
#ifndef CC_RUNNER_H
#define CC_RUNNER_H
#include <stddef.h>
#include <sys/types.h>
#include "util.h"

typedef enum { RUNNER_LOCAL, RUNNER_SSH, RUNNER_SLURM } runner_kind;

/* Which runner, and its settings. */
typedef struct {
	runner_kind kind;
	char host[256];           /* ssh: [user@]host, as ssh takes it (its config applies) */
	char worker[512];         /* the worker program where it runs; "": ssh "cudaclimb", slurm this binary */
	char partition[64], gres[64], time[32], account[64];   /* slurm: srun -p, --gres, -t, -A; "": Slurm's default */
} runner_config;

/* Applies text over c: "local", "ssh HOST" or "slurm", then KEY=VALUE words (host, worker,
 * partition, gres, time, account); a word names only what it changes, so a course's settings can be
 * overridden one by one. what names the source in messages ("--runner"). 0, or -1 with one line. */
int runner_config_parse(runner_config *c, const char *text, const char *what, char *err, size_t errlen);
/* runner_ssh.c: whether host can be an ssh host ([user@]name: letters, digits, . - _ @ : [ ] %, not
 * starting with '-'); 0, or -1 with one line prefixed by what. */
int runner_host_check(const char *host, const char *what, char *err, size_t errlen);
/* One setting (host, worker, partition, gres, time, account) to value: 0, or -1 with one line (a
 * value with a space, a quote or a leading '-' is refused: it goes on a command line). */
int runner_config_set(runner_config *c, const char *key, const char *value, const char *what, char *err, size_t errlen);
/* "local", "ssh", "slurm". */
const char *runner_kind_name(runner_kind k);

/* What every runner starts: the worker program with "__worker GPU". */
typedef struct {
	const char *exe;              /* this cudaclimb binary */
	const char *data_root;        /* its data (assets/, kernels/), told to a worker started here */
	int gpu;                      /* -1: the first visible one */
	char *const *prefix;          /* a program to run the worker under (compute-sanitizer), NULL-terminated, or NULL */
} runner_spec;

typedef struct runner runner;

/* The interface. Call order: start, then send and read (poll fd) until read says the worker ended
 * or stop or kill ends it; start again for a fresh one. */
typedef struct runner_class {
	const char *name;
	/* Starts the worker when none is running: 0, or -1 with one line in err. */
	int (*start)(runner *r, char *err, size_t errlen);
	/* Writes len bytes: 0, or -1 when the worker is gone. */
	int (*send)(runner *r, const void *data, size_t len);
	/* The fd that becomes readable when the worker says something (or ends); -1 when not running. */
	int (*fd)(const runner *r);
	/* What the worker wrote: > 0 bytes in buf; 0 nothing now; -1 it has ended (reaped), with one
	 * line in why that says how ("cannot reach gpu1: ..."). Meanwhile it may leave a line in r->note
	 * (a Slurm job waiting in the queue), for the reader to show and clear. */
	ssize_t (*read)(runner *r, char *buf, size_t n, char *why, size_t wn);
	/* Closes the worker's input (it quits on end of input), waits up to wait_ms, then kills it. */
	void (*stop)(runner *r, int wait_ms);
	/* Ends the worker now (a hang, a reply not in the protocol) and reaps it. */
	void (*kill)(runner *r);
	/* Where the worker runs, one line: "local", "ssh gpu1", "slurm partition=gpu gres=gpu:1". */
	void (*describe)(const runner *r, char *out, size_t n);
	/* Frees what the implementation keeps in r->impl (NULL: nothing); runner_free calls it last. */
	void (*release)(runner *r);
	/* 1: the "worker" answers from a recording (runner_replay.h): it needs no compiled code, and its
	 * results are whole and final (compile facts and diagnosis as recorded), not to be merged with a
	 * compile of the parent's. */
	int recorded;
} runner_class;

extern const runner_class runner_local_class, runner_ssh_class, runner_slurm_class;

/* One worker's runner: the table and its state. The fields are for the implementations. */
struct runner {
	const runner_class *cls;
	runner_config cfg;
	char *exe, *data_root;
	int gpu;
	char **prefix;
	pid_t pid;                /* the child: the worker, ssh or srun */
	int to, from, err;        /* its stdin, stdout, and stderr when captured (-1: not) */
	sb errtext;               /* what it wrote on stderr (the last few KiB) */
	size_t err_seen;          /* how far errtext has been scanned for notes */
	int got_output;           /* it has said something on stdout since it started */
	char jobid[32];           /* slurm: the job's id, once srun says it */
	char note[256];           /* a line for the user meanwhile; the reader clears it */
	void *impl;               /* an implementation's own state (runner_replay), freed by its release */
};

/* A runner of config c's kind for spec s (both copied). Not started. */
runner *runner_new(const runner_config *c, const runner_spec *s);
/* Kills the worker if it runs, frees everything. */
void runner_free(runner *r);

/* For the implementations: the child process behind every runner here. */
enum { RC_CAPTURE_STDERR = 1, RC_OWN_GROUP = 2, RC_DATA_ENV = 4 };
/* Starts argv[0] (searched on PATH when it has no '/') with pipes on stdin and stdout; flags: keep
 * its stderr (else it is ours), put it in a process group of its own (Ctrl-C is ours to handle),
 * tell it where this binary's data is. 0, or -1 with err. */
int runner_child_start(runner *r, char *const *argv, int flags, char *err, size_t errlen);
int runner_child_send(runner *r, const void *data, size_t len);
int runner_child_fd(const runner *r);
/* > 0 bytes, 0 nothing now, -1 end of output (the child is reaped and *status set, waitpid's). */
ssize_t runner_child_read(runner *r, char *buf, size_t n, int *status);
void runner_child_stop(runner *r, int wait_ms);
/* SIGTERM, up to grace_ms for it to end (0: none), then SIGKILL; reaps. */
void runner_child_kill(runner *r, int grace_ms);
/* The last non-empty line of what the child wrote on stderr, cleaned of control characters, in out
 * ("" when none). */
void runner_child_last_error(const runner *r, char *out, size_t n);
/* line (len bytes) into out, control characters as '?', spaces and CRs at the ends dropped. */
void runner_clean_line(const char *line, size_t len, char *out, size_t n);
/* The next complete stderr line not scanned yet into out: 1, or 0 when none. */
int runner_child_next_error_line(runner *r, char *out, size_t n);
/* The program's words: $env split at spaces when it is set ("ssh -F FILE"), else def; a new
 * NULL-terminated array of new strings, with room for extra more words (runner_words_free). */
char **runner_words(const char *env, const char *def, int extra, int *count);
void runner_words_free(char **words);
/* Whether name runs: a path that is executable, or a command found on $PATH. */
int runner_have_program(const char *name);
#endif
