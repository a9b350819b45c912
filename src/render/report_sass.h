/* report_sass: a stage's machine code as text for the terminal (cudaclimb show LESSON/STAGE --sass):
 * the instructions in address order under the source line each came from, the instructions the
 * lessons talk about tagged, and the counts per class against the previous stage's. */
#ifndef CC_REPORT_SASS_H
#define CC_REPORT_SASS_H
#include <stdio.h>
#include "sass.h"

/* The tag shown beside an instruction the lessons talk about ("LDG.128", "HGMMA", "BAR"), or "" for
 * the rest. */
const char *sass_tag(const sass_insn *in, char *buf, size_t n);
/* Function fn of l, in address order; before each change of source line, that line from src
 * (lines[0..nlines), the file at src_path; lines from other files are named "file:line"). */
void report_sass(FILE *f, const sass_listing *l, const sass_func *fn, char *const *lines, int nlines, const char *src_path);
/* The counts of fn per class (the classes it has), and prev's beside them when prev is not NULL. */
void report_sass_counts(FILE *f, const sass_func *fn, const sass_func *prev, const char *prev_name);
#endif
