/* class_report: a course's results as the class table (students x exercises: passed, best speed
 * ratio, tries, late, last activity) for the terminal, as CSV and JSON, and as one self-contained
 * HTML page with a leaderboard of the fastest correct kernels per exercise. */
#ifndef CC_CLASS_REPORT_H
#define CC_CLASS_REPORT_H
#include <stdio.h>
#include "course.h"
#include "results.h"

typedef struct {
	int tries, passed, late;    /* passed: a pass is claimed; late: first passed after the exercise's deadline */
	result_check check;         /* of the claimed passes: verified when one is, else unverified when one
	                             * is, else refuted (every claim judged again and failed); unverified
	                             * without a claim */
	double best;                /* best ratio of a correct try at the lesson's size, 0 none */
	int64_t first_pass, last;   /* times; 0 none */
} class_cell;

typedef struct {
	const course *c;
	char (*users)[64]; unsigned *uids; int nusers;
	class_cell *cells;          /* nusers x c->nitems, row-major */
	int64_t *last;              /* per user: the last activity */
	int verified;               /* the records' checks come from report --verify: the text shows a mark
	                             * per pass and a legend (set after class_table_make) */
} class_table;

/* Builds the table from records (those of exercises the course does not assign are left out), one
 * row per uid, named by the record's user (results_read: the file's owner). Free with
 * class_table_free. */
void class_table_make(class_table *t, const course *c, const result_record *r, int n);
void class_table_free(class_table *t);
const class_cell *class_cell_at(const class_table *t, int user, int item);

/* The table for a terminal: names without control characters; a refuted pass does not count. */
void class_report_text(FILE *f, const class_table *t);
/* CSV: every field quoted, one starting with = + - @ tab or CR prefixed with ' (no formulas). */
void class_report_csv(FILE *f, const class_table *t);
/* JSON: each cell with "verified": "verified" | "unverified" | "refuted"; never inf or nan. */
void class_report_json(FILE *f, const class_table *t);
/* A whole HTML page, no external resources: the table and one bar chart (inline SVG) per exercise. */
void class_report_html(FILE *f, const class_table *t);
#endif
