/* results: a course's class results. Every try of an assigned exercise appends one record (a JSON
 * line) to the student's own file in the course's results folder, "UID-USER.jsonl", created by the
 * student with their ownership; the folder, set up by `cudaclimb course init`, lets students add
 * files but neither list nor read nor remove others'. A file whose owner is not the uid in its name
 * is a forgery and is not read. */
#ifndef CC_RESULTS_H
#define CC_RESULTS_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "course.h"

typedef struct {
	int64_t time;              /* seconds since the epoch */
	char user[64];
	unsigned uid;
	char exercise[160];        /* lesson/stage */
	char verdict[24];          /* ex_kind_name */
	int passed, at_lesson_size;
	double ratio, bar;
	char device[96], hash[17];
} result_record;

/* Sets up dir's results folder for a class: created if missing, owned by this user, in group (when
 * not NULL; else this user's group), mode 3773 (students add files, staff read them), or 3777 with
 * share. Returns 0 or -1 with err. */
int results_init(const course *c, const char *group, char *err, size_t errlen);
/* Appends r to this user's file in c's results folder (made with mode 0640, or 0644 with share).
 * Returns 0, or -1 with one line in err (no folder, wrong permissions, a file in one's name owned
 * by someone else): the caller's own work (the workspace) is unaffected. */
int results_append(const course *c, const result_record *r, char *err, size_t errlen);
/* Every record in c's results folder that this process may read (count in *n, a new array in *out);
 * forged and unreadable files are skipped and counted in *skipped. Returns 0, or -1 with err when the
 * folder cannot be read. */
int results_read(const course *c, result_record **out, int *n, int *skipped, char *err, size_t errlen);
/* One record as a JSON line (no newline), into f. */
void results_write_json(FILE *f, const result_record *r);
#endif
