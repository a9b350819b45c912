/* replay: answers runs from a file written by `run --json` or `bench --json` instead of a
 * GPU: for presenting without a GPU, and for tests. The file is JSON, read with libyaml (JSON is
 * YAML): {"device": {device_info fields}, "results": [{run_result fields}, ...]}. */
#ifndef CC_REPLAY_H
#define CC_REPLAY_H
#include <stddef.h>
#include "plan.h"
#include "result.h"

typedef struct replay replay;
/* The most results one file may hold (a lesson's bench and a sweep's points are far fewer). */
#define REPLAY_MAX_RESULTS 4096
/* Loads path; NULL with "file:line:col: message" in err (also past REPLAY_MAX_RESULTS). */
replay *replay_load(const char *path, char *err, size_t errlen);
/* The same from len bytes of text (path names it in messages). */
replay *replay_load_buffer(const char *path, const char *text, size_t len, char *err, size_t errlen);
const device_info *replay_device(const replay *rp);
/* Fills r with the recorded result for a run named as the worker protocol's "job" line names it
 * (runner_worker.h): the lesson's and the stage's ids ("baseline" for it) and the names of the settings the
 * job gives (nnames of them), compared as the values of p, the run's plan (so n=1<<26 finds
 * n=67108864); a name marked NAME* (a tunable at its default) also agrees with a record that lacks
 * it, made before the tunable existed: the first record that agrees with every evaluated value, else the first whose settings
 * have every value the job sets; 0, or -1 when none matches. Text in the file comes with its control
 * characters replaced by '?'. */
int replay_find(const replay *rp, const char *lesson, const char *stage, const char *const *names, int nnames, const plan *p,
                run_result *r);
int replay_count(const replay *rp);
/* The value name has in a record's settings ("n=67108864 a=2 BLOCK=256"): its text, *len bytes of
 * it, or NULL when they do not name it (a record made before that setting existed). */
const char *replay_setting(const char *settings, const char *name, size_t *len);
/* Whether a recorded value's text (len bytes) is the value v, as replay_find compares them: the same
 * text as the engine writes it, or the same number. */
int replay_same_value(const char *text, size_t len, expr_value v);
/* The i-th recorded result, in file order (owned by rp), or NULL out of range: for tests. */
const run_result *replay_result(const replay *rp, int i);
/* Why no record answers a run of stage_id with plan p, into out: "this run is not in the replay file:
 * recorded at BLOCK=256; asked BLOCK=512", the settings that differ from the stage's first
 * record (or that the file has no run of the stage). */
void replay_miss(const replay *rp, const char *lesson_id, const char *stage_id, const plan *p, char *out, size_t n);
void replay_free(replay *rp);
#endif
