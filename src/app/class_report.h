/* class_report: a course's results as the class table (students x exercises: passed, best speed
 * ratio, tries, late, last activity) for the terminal, as CSV and JSON, and as one self-contained
 * HTML page with a leaderboard of the fastest correct kernels per exercise. */
#ifndef CC_CLASS_REPORT_H
#define CC_CLASS_REPORT_H
#include <stdio.h>
#include "course.h"
#include "results.h"

/* What a cell shows. A record a student wrote (results_read) is the student's word: its pass is
 * "claimed" until report --verify judges it again, its ratio is theirs, its time is theirs. A record
 * of a trusted judge (result_record.trusted: the lab service) is a fact. */
typedef enum {
	CELL_NONE,      /* no try */
	CELL_TRIED,     /* tries, none correct at the lesson's size */
	CELL_SLOW,      /* a correct try at the lesson's size, no pass */
	CELL_CLAIMED,   /* a pass only in the student's own records, not judged again (or not judgeable here) */
	CELL_PASSED,    /* a pass of a trusted record, or one report --verify judged again and passed */
	CELL_REFUTED,   /* every claimed pass judged again and failed: not counted, on no leaderboard */
} cell_status;
const char *class_cell_status_name(cell_status s);   /* "none", "tried", "slow", "claimed", "passed", "refuted" */

typedef struct {
	int tries, passed, late;    /* passed: a pass is claimed (any record, even refuted); late: first passed
	                             * after the exercise's deadline, by the records' times */
	result_check check;         /* of the claimed passes: verified when one is, else unverified when one
	                             * is, else refuted (every claim judged again and failed); unverified
	                             * without a claim */
	cell_status status;
	double best;                /* best ratio of a correct try at the lesson's size, 0 none */
	double best_trusted;        /* the same of trusted records only: the leaderboard's */
	double best_fact;           /* the same of the ratios that are facts: trusted records' and those
	                             * report --verify measured for the passes it verified */
	int ratio_claimed;          /* best is a number from a student's own record (above best_fact) */
	int time_claimed;           /* on time by a student's own record's time only (its file was changed
	                             * after the deadline): lateness self-reported */
	int64_t first_pass, last;   /* times; 0 none. first_pass: of the passes that are facts when the
	                             * cell has one, else of those not refuted */
} class_cell;

typedef struct {
	const course *c;
	char (*users)[64]; unsigned *uids; int nusers;
	class_cell *cells;          /* nusers x c->nitems, row-major */
	int64_t *last;              /* per user: the last activity */
	int verified;               /* the records' checks come from report --verify: the text shows a mark
	                             * per pass and a legend (set after class_table_make) */
	int trusted;                /* every record was trusted (set by class_table_make): nothing is claimed */
	/* while records are added (class_table_add): */
	struct class_acc *acc;      /* per cell, what its passes fold to besides the cell (class_report.c) */
	int capusers, hint, any;    /* rows allocated; the row last looked up; a record was added */
} class_table;

/* Builds the table from records (those of exercises the course does not assign are left out), one
 * row per uid, named by the record's user (results_read: the file's owner); each cell's status from
 * the records' trust and checks (cell_status). Free with class_table_free. */
void class_table_make(class_table *t, const course *c, const result_record *r, int n);
/* class_table_make one record at a time, in any order: init, add each record (nothing of it is kept
 * but what its cell folds: counts, bests, first and last times), then finish before the table is
 * read. The table's memory grows with the students and exercises, never with the records. */
void class_table_init(class_table *t, const course *c);
void class_table_add(class_table *t, const result_record *r);
/* What a cell folds of some records of one student and exercise (report --verify keeps its claims so,
 * one fold per source): how many, their first and last times, whether one is correct at the lesson's
 * size and the best finite ratio of those, whether one was on time (by its exercise's due and, for a
 * student's record, its file's change time). Start from {0}; fold each record in with class_fold_add. */
typedef struct { int n, correct, on_time; int64_t first, last; double best; } class_fold;
void class_fold_add(const course *c, class_fold *f, const result_record *r);
/* The records folded in f, added as class_table_add adds each: r is one of them, for what they share
 * (student, exercise, passed, trusted, check, measured); its own time, verdict and ratio are not read. */
void class_table_add_fold(class_table *t, const result_record *r, const class_fold *f);
void class_table_finish(class_table *t);
void class_table_free(class_table *t);
const class_cell *class_cell_at(const class_table *t, int user, int item);

/* The table for a terminal: names without control characters; a refuted pass does not count. */
void class_report_text(FILE *f, const class_table *t);
/* CSV: every field quoted, one starting with = + - @ tab or CR prefixed with ' (no formulas). */
void class_report_csv(FILE *f, const class_table *t);
/* JSON: each cell with "status" (cell_status), "passed" (status passed), "claimed", "ratio_claimed",
 * "late_self_reported" and "verified": "verified" | "unverified" | "refuted"; never inf or nan. */
void class_report_json(FILE *f, const class_table *t);
/* A whole HTML page, no external resources: the table and one bar chart (inline SVG) per exercise,
 * ranking only ratios of trusted records (a student's own number ranks nobody); a refuted pass is
 * on no chart. */
void class_report_html(FILE *f, const class_table *t);
#endif
