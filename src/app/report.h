/* report: the CLI's human-readable text: lessons, ladder tables, check rows, the device. */
#ifndef CC_REPORT_H
#define CC_REPORT_H
#include <stdio.h>
#include "engine.h"
#include "lesson.h"
#include "result.h"
#include "score.h"
#include "claims.h"
#include "textvals.h"

void report_lesson(FILE *f, const lesson *l);
/* Stage s's explain and bottleneck, their placeholders filled from live (this GPU's runs; may be
 * NULL; live_from: what they are when not the learner's, as textvals_src says) or the reference
 * recording ref (may be NULL), and a line saying where the numbers came from. */
void report_stage_texts(FILE *f, const lesson *l, int s, const claims_runs *live, const char *live_from,
                        const textvals_ref *ref);
/* After a run of stage s (-1: the baseline, nothing): its texts with this run's numbers, when they have
 * placeholders and it measured them all; else the reference recording's. replay: the file the run was
 * answered from (replayed: --replay; NULL: a run here), named as where the numbers came from. */
/* The lesson's case (--case) that show and run print the texts of: its recording's numbers, the case
 * marked in the list of cases. NULL: none. */
void report_use_case(const char *name);
/* Compiles of the lesson's stages alone (r[i] for stage i, n of them; r NULL: none), whose theoretical
 * occupancy fills {theoretical_occupancy} in the texts show prints (textvals_src.compiled). */
void report_use_compiled(const run_result *r, int n);
void report_run_texts(FILE *f, const lesson *l, int s, const run_result *r, const device_info *d, const char *replayed);
/* One stage of l (show LESSON/STAGE): its text, tunables, claims and its kernel file's summary (the
 * lines that declare kernels), printed clean. */
void report_stage(FILE *f, const lesson *l, int stage);
/* Ladder table: a header line, then one row per result, scored in the lesson's metric m (first:
 * print the column heads too; base: the baseline's result when it is part of the table, for the
 * ratio column). Text from lesson and replay files is printed with its control characters made
 * harmless (fput_clean). */
void report_header(FILE *f, const lesson *l, const device_info *d);
void report_row(FILE *f, const lesson *l, score_metric m, const run_result *r, int first, const run_result *base);
/* After the table: notes (messages, L2 warnings, the bound of a stage that copies to or from the
 * host and how far it is from it), the fastest stage in m, the peaks used and where they came from. */
void report_footer(FILE *f, const lesson *l, score_metric m, const device_info *d, const run_result *rs, int n);
/* The stages' claims (expect:) checked against the results of the same call: stages[i] is the stage
 * index of rs[i] (-1 the baseline). Nothing when no stage has claims. */
void report_claims(FILE *f, const lesson *l, const int *stages, const run_result *rs, int n, const device_info *d);
/* One row of check: arch, lesson, stage (in columns idw and stw wide), ok with its resources, or the
 * status and why; a lesson error (report_check_lesson_error) without the compiler's log. */
void report_check_row(FILE *f, const char *arch, const lesson *l, const run_result *r, int idw, int stw);
/* Whether a compile error of check is the lesson's: the kernel compiled but does not fit the stage
 * (no kernel of the name, other parameters, a constant missing: sigcheck.h's issues). */
int report_check_lesson_error(const run_result *r);
typedef struct { int rows, ok, unsupported, failed, lesson_errors, load_errors; } check_counts;
/* check's last line: how many kernels, and how many were ok, need another GPU, failed, or are lesson errors. */
void report_check_summary(FILE *f, const char *archs, const check_counts *n);
void report_device(FILE *f, const device_info *d);
/* A stage of more than one step: a small table of its steps (kind, name, stream, grid or a copy's
 * bytes, block, shared memory, registers, median time, start and end from the stage's start), the
 * first and last ones only when there are many (the others counted by kind); on more than one
 * stream, the timeline chart (timeline.h) of d's run in 80 columns, UTF-8 glyphs or ASCII. Nothing
 * for one step or none. */
void report_steps(FILE *f, const run_result *r, const device_info *d, int utf8);
#endif
