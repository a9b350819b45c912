/* claims: a stage's expect: conditions (lessons/README.md, "Claims") checked against one run, with
 * the previous stage's and the baseline's runs for the time ratios.
 *
 * The names a claim may use are the diagnosis rules' (diagnose_names: counters, the model, the launch,
 * the timing) plus time_vs_prev and time_vs_baseline (this stage's median time over theirs) and
 * speedup_vs_prev and speedup_vs_baseline (theirs over this one's). A name whose value the run did
 * not measure makes the claim unknown, never contradicted. A claim with a when: condition (over the
 * device: claims_device_names) that this GPU does not meet is not applied: unknown, and its why
 * starts "not applied: ". */
#ifndef CC_CLAIMS_H
#define CC_CLAIMS_H
#include <stddef.h>
#include "claim_names.h"
#include "lesson.h"
#include "result.h"

typedef enum { CLAIM_HOLDS, CLAIM_CONTRADICTED, CLAIM_UNKNOWN, CLAIM_STATE_COUNT } claim_state;

typedef struct {
	const lesson_claim *claim;   /* the stage's (not owned; lives as long as the lesson) */
	claim_state state;
	char values[192];            /* the measurements it used: "bytes_ratio=16.0 time_vs_prev=0.62" ("?" unknown) */
	char why[160];               /* CLAIM_UNKNOWN: what was missing, in a few words; "" otherwise */
} claim_outcome;

/* What a stage's claims are checked against. run is the stage's result; prev the previous stage's
 * (the one above it in the lesson) and baseline the stage's baseline's (its baseline: NAME, else the
 * lesson's), each NULL when there is none. A time
 * ratio is known only when both runs are timed, ok, and ran with the same lesson parameters (their
 * settings agree on every parameter). device may be NULL (no peaks, no SM count). */
typedef struct {
	const run_result *run, *prev, *baseline;
	const device_info *device;
} claims_runs;

/* The measurement name (len bytes, a claim's name) of stage s of l on runs, into *out: 0, or -1 with
 * the reason in why (why_len bytes; may be NULL) when the run did not measure it. */
int claims_value(const lesson *l, int s, const claims_runs *runs, const char *name, size_t len, expr_value *out,
                 char *why, size_t why_len);
/* claims_value with the runs of the lesson's stages by index (by_stage[k] NULL, or by_stage NULL: stage
 * k not run), for time_vs_ID, speedup_vs_ID and clock_vs_ID (claims_value leaves those unmeasured). */
int claims_value_stages(const lesson *l, int s, const claims_runs *runs, const run_result *const *by_stage, int nstages,
                        const char *name, size_t len, expr_value *out, char *why, size_t why_len);
/* claims_check with the runs of the lesson's stages by index (by_stage[k] NULL: stage k not run), for
 * time_vs_ID and speedup_vs_ID (claims_check leaves those unknown). */
int claims_check_stages(const lesson *l, int s, const claims_runs *runs, const run_result *const *by_stage, int nstages,
                        claim_outcome *out, int max);
/* Checks the claims of stage s of l: fills up to max outcomes (one per claim, in order) and returns
 * how many. A run that did not finish right (any status but ok) leaves every claim unknown. */
int claims_check(const lesson *l, int s, const claims_runs *runs, claim_outcome *out, int max);
/* The same for results[i] of a call that ran several of l's stages (a bench): stages[k] is the stage
 * index of results[k] (-1 the baseline); the previous stage and the baseline are taken from the same
 * call. The baseline's own result has no claims (returns 0). */
int claims_check_set(const lesson *l, const int *stages, const run_result *results, int n, int i,
                     const device_info *device, claim_outcome *out, int max);
/* "holds", "contradicted", "unknown". */
const char *claims_state_name(claim_state st);
/* Counts of each state over n outcomes, into counts[CLAIM_STATE_COUNT]. */
void claims_count(const claim_outcome *o, int n, int counts[CLAIM_STATE_COUNT]);
#endif
