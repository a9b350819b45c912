/* results: a course's class results. Every try of an assigned exercise appends one record (a JSON
 * line) to the student's own file in the course's results folder, "UID-USER.jsonl" (or
 * "UID-USER.N.jsonl" when that name is taken by someone else: a file, a folder, a FIFO or a link, and
 * past those "UID-USER.kHEX.jsonl", a name from a secret in the student's private state that nobody
 * else can guess), created by the student with their ownership; the folder, set up by `cudaclimb course init`, lets
 * students add files but neither list nor read nor remove others'. A record carries the source it
 * judged (base64, at most RESULTS_SOURCE_MAX bytes) and its SHA-256, so that `report --verify` can
 * judge it again. Nothing in a record is believed that the file system can say instead: the
 * student is the file's owner, a file whose owner is not the uid in its name is a forgery and is
 * not read, a record naming another uid is dropped, every field is checked. */
#ifndef CC_RESULTS_H
#define CC_RESULTS_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "course.h"

enum {
	RESULTS_SOURCE_MAX = 256 * 1024,     /* a larger source is recorded as "too large": never verified */
	RESULTS_FILE_MAX = 8 * 1024 * 1024,  /* a larger file is not read (a notice); a writer moves on to the next name */
	RESULTS_LINE_MAX = 512 * 1024,       /* a longer line is not a record */
	RESULTS_RECORDS_MAX = 20000,         /* records read per file; the rest dropped */
	RESULTS_LINE_NODES = 256,            /* values (keys, scalars, collections) in a line at most: a record has about 30 */
	RESULTS_FILES_PER_UID = 32,          /* names a writer tries; a student's files are read up to this many full files'
	                                      * bytes (and records), in any number of files, counted among the student's own */
	RESULTS_EXAMPLES = 3,                /* names kept per reason for the notice */
};

/* What re-judging says of a claimed pass (report --verify). */
typedef enum { RESULT_UNVERIFIED, RESULT_VERIFIED, RESULT_REFUTED } result_check;
const char *results_check_name(result_check c);   /* "unverified", "verified", "refuted" */

typedef struct {
	int64_t time;              /* seconds since the epoch */
	char user[64];             /* read: the file owner's login name ("uid2001" without one); never the record's */
	unsigned uid;
	char exercise[160];        /* lesson/stage */
	char verdict[24];          /* ex_kind_name */
	int passed, at_lesson_size;
	double ratio, bar;
	char device[96], hash[17];
	char sha256[65];           /* of the source, hex; "" when the record has none */
	char *source; size_t source_len;   /* read: owned (results_free), NULL none; append: borrowed */
	int source_too_large;      /* the source was over RESULTS_SOURCE_MAX and is not in the record */
	result_check check;        /* set by the report's verification; RESULT_UNVERIFIED otherwise */
	double measured;           /* set by the report's verification: the ratio its own run measured
	                            * (judged again, not the record's word); 0 none */
	int64_t written_by;        /* read: the change time of the record's file when it was read (the kernel's
	                            * clock, which the student cannot set back): the record was written by
	                            * then; 0 unknown */
	int trusted;               /* written by a trusted judge (the lab service), not by the student: its
	                            * verdict, ratio and time are facts, not claims. results_read: 1 for the
	                            * records of a lab service's store, else 0 */
} result_record;

/* Why a record was left out of the report. */
typedef enum { RD_NOT_A_RECORD, RD_OTHER_UID, RD_ROOT, RD_UNKNOWN_EXERCISE, RD_BAD_FIELD, RD_TOO_MANY, RD_COUNT } results_drop;
/* One line for a reason: "not a record (not JSON, or a field missing)". */
const char *results_drop_text(results_drop d);

/* Why a folder entry was not read. */
typedef enum {
	RS_NOT_NAMED,              /* not named UID-USER[.N].jsonl: counted, never opened */
	RS_FORGED,                 /* owner not the uid in the name, a link, not a regular file, more than one link */
	RS_TOO_LARGE,              /* over RESULTS_FILE_MAX */
	RS_UNREADABLE,             /* could not be opened */
	RS_OVER_CAP,               /* a student's own files past RESULTS_FILES_PER_UID full files' bytes or records */
	RS_COUNT
} results_skip;
/* One line for a reason: "not named UID-USER.jsonl (not a student's results file)". */
const char *results_skip_text(results_skip s);

typedef struct {
	int skipped[RS_COUNT];                       /* folder entries not read, by reason */
	char skipped_names[RS_COUNT][RESULTS_EXAMPLES][72];   /* the first few, without control characters */
	int dropped[RD_COUNT];                       /* records left out, by reason */
	char dropped_at[RD_COUNT][RESULTS_EXAMPLES][96];      /* the first few as "FILE line N", cleaned */
} results_stats;

/* Sets up dir's results folder for a class: created if missing, owned by this user, in group (when
 * not NULL; else this user's group, which must then be theirs alone unless the course shares its
 * results), mode 3773 (students add files, staff read them), or 3777 with share. Returns 0 or -1 with
 * err. */
int results_init(const course *c, const char *group, char *err, size_t errlen);
/* Appends r (with its source, r->source_len bytes, when r->source is set: the SHA-256 is computed
 * here) to this user's file in c's results folder, created with O_EXCL|O_NOFOLLOW|O_NONBLOCK (mode
 * 0640, or 0644 with share) under the first name that is free or already this user's own regular
 * file; never blocks on a FIFO. Returns 0, or -1 with one line in err: the caller's own work (the
 * workspace) is unaffected. */
int results_append(const course *c, const result_record *r, char *err, size_t errlen);
/* Every record in c's results folder (count in *n, a new array in *out: results_free). Every entry
 * is looked at, however many there are: one not named UID-USER[.N].jsonl is only counted; the others
 * are opened without following links or blocking and read only when they are regular files of at most
 * RESULTS_FILE_MAX bytes with one link, owned by the uid in the name, up to RESULTS_FILES_PER_UID
 * full files' bytes and records a student (another's files never count towards it). What was left
 * out is counted in *st, with the first few names (files) and places (records) of each reason. A course with a lab service (course.h) is read from the service's store
 * instead: a folder nobody but its owner (not root) may write, files of that owner, each record
 * trusted. Returns 0, or -1 with err when the folder cannot be read or the store is not safe. */
int results_read(const course *c, result_record **out, int *n, results_stats *st, char *err, size_t errlen);
/* What results_scan does with each record: r is the reader's, valid during the call; its source is
 * freed after it unless the visitor takes it (setting r->source to NULL). */
typedef void (*results_visit)(void *ctx, result_record *r);
/* As results_read, every record handed to visit(ctx, r) as it is read, none kept: the memory of a
 * read does not grow with the records (a student's 640 000 records cost only what visit keeps). */
int results_scan(const course *c, results_visit visit, void *ctx, results_stats *st, char *err, size_t errlen);
void results_free(result_record *r, int n);
/* One JSON line (NUL-terminated, at most RESULTS_LINE_MAX bytes) of a file owned by owner, checked:
 * 0 with the record in *r (its source owned: free(r->source)), or -1 with the reason in *why. */
int results_parse_line(const course *c, const char *line, unsigned owner, result_record *r, results_drop *why);
/* The login name of uid, or "uidN" when it has none, into out. */
void results_owner_name(unsigned uid, char *out, size_t n);
/* Whether r's source is there and its SHA-256 is the one it claims: 1 yes, 0 no source, -1 a mismatch. */
int results_source_matches(const result_record *r);
/* One record as a JSON line (no newline), into f. */
void results_write_json(FILE *f, const result_record *r);
#endif
