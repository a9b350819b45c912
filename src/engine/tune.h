/* tune: a stage's tuning space (its tunables' allowed values under the lesson's constraints and the
 * device's limits) and the strategies that search it (grid, random, ils), without a terminal: the CLI
 * (src/app/cli_tune.c) and the interface's tune view drive them the same way:
 *
 *   tune_space_build(&sp, ...);                  every setting checked once, the allowed ones kept
 *   tune_search_start(&se, &sp, strategy, seed);
 *   while ((pos = tune_search_next(&se)) >= 0) { time setting sp.ok[pos]; tune_search_report(&se, pos, score); }
 *
 * A setting is a mixed-radix number over the tuned tunables' value lists (the last fastest); pos is
 * its place among the allowed ones (sp.ok, ascending). A score is higher for better (the CLI reports
 * the defaults' time over the setting's); TUNE_FAILED for a setting that ran wrong or not at all. */
#ifndef CC_TUNE_H
#define CC_TUNE_H
#include <stddef.h>
#include <stdint.h>
#include "engine.h"

enum { TUNE_MAX_OVER = 16, TUNE_REASONS = 8 };
#define TUNE_MAX_GRID 2000000.0   /* settings enumerated at most; more: name fewer with --over */
#define TUNE_FAILED (-1e300)      /* the score of a setting that did not run right */

typedef struct {
	const lesson *l; int stage;
	plan_setting fixed[16]; int nfixed;    /* --set: in every job, before the setting */
	int over[TUNE_MAX_OVER], nover;        /* the tunables tuned (indices into the stage's) */
	uint64_t total;                        /* settings in the grid */
	uint64_t *ok; size_t nok;              /* the allowed ones, ascending; owned */
	uint64_t refused;                      /* removed by a constraint or a device limit */
	struct { char why[160]; uint64_t n; } reasons[TUNE_REASONS]; int nreasons;   /* the first reasons, each counted */
	uint64_t other_reasons;                /* refused for a reason past those */
	long def_pos;                          /* the stage's defaults among ok, or -1 (not allowed, or no GPU to say) */
	uint64_t checked;                      /* settings checked so far (tune_space_check) */
} tune_space;

/* Fills sp's grid for the tunables sp->over of sp->l's stage sp->stage (the caller sets those, and
 * fixed): every setting checked as a run would check it (engine_check_sets). 0, or -1 with err (a grid
 * over TUNE_MAX_GRID). */
int tune_space_build(tune_space *sp, engine *e, char *err, size_t errlen);
/* The same in steps, for a caller that must stay responsive (the interface): tune_space_begin sizes the
 * grid (0, or -1 with err as above), then each tune_space_check checks up to max more settings and
 * returns 1 once all are (def_pos is then set), else 0. */
int tune_space_begin(tune_space *sp, char *err, size_t errlen);
int tune_space_check(tune_space *sp, engine *e, uint64_t max);
void tune_space_free(tune_space *sp);
/* Setting idx as NAME=VALUE entries written at sets[n..]; the new count, or -1 past cap. */
int tune_space_sets(const tune_space *sp, uint64_t idx, plan_setting *sets, int n, int cap);
/* "BM=128 BN=64" for idx, sep between. */
void tune_space_text(const tune_space *sp, uint64_t idx, const char *sep, char *out, size_t len);
/* The job of setting idx (UINT64_MAX: the defaults): the fixed settings, then the setting's. */
void tune_space_job(const tune_space *sp, uint64_t idx, engine_job *j);
/* Where idx is among the allowed settings, or -1 when it is not allowed. */
long tune_space_find(const tune_space *sp, uint64_t idx);
/* Index k of the value of tuned tunable i (0..nover-1) in setting idx. */
int tune_space_digit(const tune_space *sp, uint64_t idx, int i);
/* idx with tuned tunable i's value at index k of its list. */
uint64_t tune_space_with(const tune_space *sp, uint64_t idx, int i, int k);

typedef struct tune_search tune_search;
/* A strategy: the order it proposes settings in, which may follow the scores reported so far. */
typedef struct {
	const char *name;
	const char *help;                      /* one line for the help and the plan */
	void (*start)(tune_search *se);
	/* The next position to try (not tried before), or -1 when it has none left. */
	long (*next)(tune_search *se);
	/* Up to max positions it is likely to ask for soon (to compile ahead); the count. */
	int (*ahead)(tune_search *se, long *out, int max);
	/* score was reported for pos (after next returned it). */
	void (*reported)(tune_search *se, long pos, double score);
} tune_strategy;

struct tune_search {
	const tune_strategy *st;
	const tune_space *sp;
	uint64_t rng;
	double *score;                         /* per position: NAN untried; owned */
	size_t tried;
	long best; double best_score;          /* the best so far (-1 none) */
	size_t best_at;                        /* the trial (1-based) that found it */
	/* the strategies' own state */
	size_t at;                             /* grid, random: the next place in order */
	long *order;                           /* random: a shuffle of the positions */
	long cur; double cur_score;            /* ils: where the climb stands */
	long *nb; int nnb, inb;                /* ils: cur's neighbours, shuffled, and the next to look at */
	long start;                            /* ils: the next climb's start (-1: a random one) */
	long pending;                          /* ils: proposed, not reported yet */
	int optima, since_better, restarts;    /* ils: local optima met, those since the best improved, random restarts */
	double opt_score;                      /* ils: the best local optimum's score */
};

/* The strategy named name, or NULL; tune_strategy_names: "grid, random, ils". */
const tune_strategy *tune_strategy_find(const char *name);
extern const tune_strategy *const tune_strategies[];
extern const int tune_nstrategies;
void tune_search_start(tune_search *se, const tune_space *sp, const tune_strategy *st, uint64_t seed);
long tune_search_next(tune_search *se);
int tune_search_ahead(tune_search *se, long *out, int max);
void tune_search_report(tune_search *se, long pos, double score);
/* A setting's score from its pair of runs: the defaults' median over the setting's when both ran right
 * (status of the setting's run, the medians in ms), else TUNE_FAILED. */
double tune_score(run_status st, double defaults_ms, double setting_ms);
/* Whether a next setting may start after tried settings in spent_s seconds: the first always; a later
 * one only when, at the mean pace so far, it would end within budget_s. */
int tune_budget_allows(double spent_s, size_t tried, double budget_s);
void tune_search_free(tune_search *se);

/* ---- Why the best is best: it and the defaults run once more with counters ---- */
/* One column of the side by side, each cell as text ("-" where not measured). */
typedef struct {
	char ms[24], occ[40], limiter[32], regs[16], conflicts[24], dram[24], stalls[160], finding[96];
} tune_why_col;
void tune_why_column(const run_result *r, tune_why_col *out);
/* One line saying what moved from the defaults' run to the best's (the limiter, occupancy, registers,
 * bank conflicts, DRAM bytes, the top stall), biggest changes first. */
void tune_why_changed(const run_result *def, const run_result *best, char *out, size_t len);
#endif
