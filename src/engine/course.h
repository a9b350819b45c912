/* course: a course folder's course.yaml (lessons/README.md, "Courses"): the exercises an instructor
 * assigns, in order, with their own bars and deadlines, where the class's results go, and which
 * runner the GPU work uses. */
#ifndef CC_COURSE_H
#define CC_COURSE_H
#include <stddef.h>
#include <stdint.h>
#include "lesson.h"
#include "runner.h"
#include "yamldoc.h"

typedef struct {
	char *lesson, *stage;       /* the exercise: a stage with an exercise: block */
	double pass;                /* the bar for this course; 0: the lesson's */
	int64_t due;                /* a deadline (seconds since the epoch, local time as written); 0: none */
	char *due_text;             /* as written */
	lesson_mark at;
} course_item;

typedef runner_kind course_runner;   /* runner.h: RUNNER_LOCAL, RUNNER_SSH, RUNNER_SLURM */

typedef struct course_s {
	char *id, *title;
	char *dir, *path;           /* the course folder and its course.yaml */
	char **lessons; int nlessons;   /* the lessons shown, in order (default: the exercises' lessons) */
	lesson_mark *lessons_at;    /* where each is named in the file */
	course_item *items; int nitems;
	char *results;              /* the results folder (absolute, or relative to the current folder) */
	int share;                  /* students may read each other's results */
	int verify;                 /* verify: true: report judges every claimed pass again (as --verify) */
	char *service_socket;       /* service: { socket, store }: the lab service's socket (NULL: none, the file queue) */
	char *service_store;        /* and the folder only it writes, where its verdicts are kept */
	course_runner runner;
	char *ssh_host, *ssh_worker;    /* ssh: { host: NAME, worker: PATH } */
	char *slurm_partition, *slurm_gres, *slurm_time, *slurm_account;
} course;

/* Reads DIR/course.yaml. Returns a new course (course_free), or NULL with "file:line:col: message"
 * (one line, its control characters made '?': the message quotes the file). */
course *course_load(const char *dir, char *err, size_t errlen);
/* As course_load, but going on after an error: every error of the file is added to all (each
 * "file:line:col: message", control characters as '?'), and the course returned holds what could be
 * read (an exercise whose name could not be read has lesson NULL; NULL when the file cannot be read,
 * is no YAML or is empty). Use it only to report: with errors it is no course to run. */
course *course_load_all(const char *dir, yd_errors *all);
/* The same from a buffer (name in messages, dir the course folder). */
course *course_load_buffer(const char *name, const char *dir, const char *buf, size_t len, char *err, size_t errlen);
void course_free(course *c);
/* Checks the course against the lessons: every lesson exists, every exercise is a stage with an
 * exercise. Returns 0, or -1 with "file:line:col: message" (one line, no control characters) for the
 * first that is not. */
int course_check(const course *c, const lesson_set *ls, char *err, size_t errlen);
/* The item for lesson/stage, or NULL when the course does not assign it. */
/* course_check's checks, every error added to all (a misspelt lesson or stage with the nearest
 * name: "; did you mean 'x'?"); returns how many were found. */
int course_check_all(const course *c, const lesson_set *ls, yd_errors *all);
/* The item for lesson/stage, or NULL when the course does not assign it. */
const course_item *course_find(const course *c, const char *lid, const char *sid);
/* Whether the course shows lesson id (its lessons: list, else the lessons of its exercises). */
int course_shows(const course *c, const char *lid);
const char *course_runner_name(course_runner r);   /* "local", "ssh", "slurm" */
#endif
