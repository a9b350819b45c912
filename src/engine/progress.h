/* progress: what the learner has done in the lessons, kept between runs in
 * $XDG_STATE_HOME/cudaclimb/progress (default ~/.local/state/cudaclimb/progress): where they left
 * off, per stage whether it was opened, compiled, ran correctly or failed, the best numbers, and the
 * tunable values they chose, and per GPU model the tunables `cudaclimb tune --save` found best. The file is lines of words, written atomically (a temporary file, then
 * rename) under an exclusive lock on PATH.lock and merged with what another session wrote since, so
 * two sessions of one learner lose nothing. (An exercise's own record is exercise.h's, in the work
 * folder.) */
#ifndef CC_PROGRESS_H
#define CC_PROGRESS_H
#include <stddef.h>
#include "engine.h"
#include "result.h"
#include "score.h"

typedef struct {
	char lesson[64], stage[64];
	int seen, compiled, passed, failed;      /* failed: the last run was wrong or faulted */
	double best_ms, best_gbps, best_gflops;  /* 0 when none */
} progress_stage;

typedef struct { char lesson[64], stage[64], name[64], value[64]; } progress_setting;

/* The best tunables of a stage on one GPU model (tune --save): "BM=128,BN=64"; "" once reset. */
typedef struct { char gpu[64], lesson[64], stage[64], sets[256]; } progress_tuned;

typedef struct {
	char last_lesson[64], last_stage[64];    /* where to reopen; "" for the lesson list */
	progress_stage *st; int nst;             /* owned */
	progress_setting *sets; int nsets;       /* owned */
	progress_tuned *tuned; int ntuned;       /* owned */
	int dirty;                               /* changed since loaded or saved */
} progress_state;

/* The file's path into buf: $XDG_STATE_HOME/cudaclimb/progress, or ~/.local/state/...; creates
 * nothing. Returns 0, or -1 when neither variable is set or buf is too small. */
int progress_path(char *buf, size_t len);
/* An empty record; pair with progress_free. */
void progress_init(progress_state *p);
/* Frees p's lists and leaves it empty. */
void progress_free(progress_state *p);
/* Adds the records of a file's text (len bytes, need not end in NUL) to p: lines it does not know
 * and words past the sixteenth are skipped; never fails. */
void progress_parse(progress_state *p, const char *text, size_t len);
/* Reads path into p (a missing file leaves p as it is and is not an error). Returns 0, or -1 with
 * a message in err when the file exists but cannot be read, or its folder, or one above it, is
 * another user's or writable by others without the sticky bit. p is clean (not dirty) after. */
int progress_load(progress_state *p, const char *path, char *err, size_t errlen);
/* p in the file's format: a new string the caller frees. */
char *progress_format(const progress_state *p);
/* Writes p to path (mode 0600), creating the folders (0700): under an exclusive flock on path.lock
 * it reads the file again, merges it into p (progress_merge: p then holds what both sessions did)
 * and writes p. Returns 0 (p clean), or -1 with a message in err (also for a folder progress_load
 * would not read). */
int progress_save(progress_state *p, const char *path, char *err, size_t errlen);
/* Merges other into p: per stage the furthest state (seen, compiled, passed, failed: any) and the
 * best numbers (the least time, the most GB/s and GFLOP/s); stages only other has are added;
 * settings and tuned values are p's, with other's for names p has not set; the last position stays p's, and so
 * does p's dirty flag. */
void progress_merge(progress_state *p, const progress_state *other);

/* The record of one stage; with create, added when missing (else NULL). The pointer is valid until
 * the next call that creates. */
progress_stage *progress_find(progress_state *p, const char *lesson_id, const char *stage_id, int create);
/* The same, read-only: NULL when there is none. */
const progress_stage *progress_get(const progress_state *p, const char *lesson_id, const char *stage_id);
/* A saved tunable value (owned by p), or NULL. */
const char *progress_setting_get(const progress_state *p, const char *lesson_id, const char *stage_id, const char *name);
/* Remembers a tunable value, replacing any earlier one (marks p dirty when it changes). */
void progress_setting_set(progress_state *p, const char *lesson_id, const char *stage_id, const char *name, const char *value);
/* A GPU model's name as the file's key: every byte but letters, digits, '.', '-' and '_' becomes '_'
 * ("NVIDIA H200" -> "NVIDIA_H200"; "" -> "-"). */
void progress_gpu_key(const char *name, char *out, size_t len);
/* The tunables tuned for lesson/stage on the GPU model gpu (its name, as the device gives it), as
 * "NAME=VALUE,..." owned by p; NULL when none were saved or they were reset. */
const char *progress_tuned_get(const progress_state *p, const char *gpu, const char *lesson_id, const char *stage_id);
/* Keeps sets ("NAME=VALUE,...") as lesson/stage's tuned values on gpu; NULL or "": reset (kept as a
 * record, so that a merge with an older file does not bring them back). Marks p dirty on a change. */
void progress_tuned_set(progress_state *p, const char *gpu, const char *lesson_id, const char *stage_id, const char *sets);
/* Where to reopen: a stage, or the lesson list ("" or NULL). */
void progress_set_last(progress_state *p, const char *lesson_id, const char *stage_id);

/* Scores one finished run of lesson/stage into p: seen; compiled unless the compiler or a setting
 * stopped it; passed, with the best time and rates, when it ran right and was timed; failed when it
 * ran wrong, faulted, hung or crashed (a later right run clears it). */
void progress_record(progress_state *p, const char *lesson_id, const char *stage_id, const run_result *r);
/* A stage's best figure in metric m (GB/s or GFLOP/s); 0 for none or a NULL record. */
double progress_best(const progress_stage *s, score_metric m);
#endif
