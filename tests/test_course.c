/* Tests for src/lesson/course.c, results.c, class_report.c: the course format and its errors at their
 * file:line:col, the check against lessons, results written and read back (a file in one's name
 * owned by someone else is passed over, as is a record claiming another uid), and the class table
 * (best ratio, passed, late after the deadline). Run from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "class_report.h"
#include "course.h"
#include "results.h"
#include "sha256.h"
#include "util.h"

static course *load(const char *text, char *err)
{
	err[0] = 0;
	return course_load_buffer("c.yaml", "/srv/lab", text, strlen(text), err, 512);
}

static void expect_error(const char *text, const char *prefix)
{
	char err[512];
	course *c = load(text, err);
	if (c) { course_free(c); fail_msg("loaded, expected \"%s\"", prefix); }
	if (strncmp(err, prefix, strlen(prefix))) fail_msg("got \"%s\", expected \"%s\"", err, prefix);
}

#define HEAD "course: lab3\ntitle: Lab 3\n"

static void test_format(void **state)
{
	(void)state;
	char err[512];
	course *c = load(HEAD "exercises:\n  - bandwidth/coalesced\n  - { exercise: reduction/shuffle, pass: 0.95, due: \"2026-12-01 23:59\" }\n"
	                 "lessons: [bandwidth, reduction]\nresults: out\nshare: true\nrunner: slurm\nslurm: { partition: gpu, gres: \"gpu:1\" }\n", err);
	if (!c) fail_msg("%s", err);
	assert_string_equal(c->id, "lab3");
	assert_int_equal(c->nitems, 2);
	assert_string_equal(c->items[1].lesson, "reduction");
	assert_string_equal(c->items[1].stage, "shuffle");
	assert_true(c->items[1].pass > 0.949 && c->items[1].pass < 0.951);
	assert_true(c->items[1].due > 0);
	assert_int_equal(c->items[0].due, 0);
	assert_string_equal(c->results, "/srv/lab/out");
	assert_int_equal(c->share, 1);
	assert_int_equal(c->runner, RUNNER_SLURM);
	assert_string_equal(c->slurm_gres, "gpu:1");
	assert_non_null(course_find(c, "reduction", "shuffle"));
	assert_null(course_find(c, "reduction", "reduce0"));
	assert_true(course_shows(c, "bandwidth") && !course_shows(c, "sgemm"));
	course_free(c);
	c = load(HEAD "exercises: [a/b]\n", err);
	if (!c) fail_msg("%s", err);
	assert_string_equal(c->results, "/srv/lab/results");
	assert_true(course_shows(c, "a") && !course_shows(c, "b"));
	assert_int_equal(c->runner, RUNNER_LOCAL);
	course_free(c);

	expect_error("title: T\nexercises: [a/b]\n", "c.yaml:1:1: a course needs 'course'");
	expect_error(HEAD "exercises: [a/b]\ncolour: red\n", "c.yaml:4:1: unknown key 'colour' in a course");
	expect_error(HEAD "exercises: []\n", "c.yaml:3:12: exercises is a list");
	expect_error(HEAD "exercises: [bandwidth]\n", "c.yaml:3:13: an exercise is LESSON/STAGE");
	expect_error(HEAD "exercises: [a/b, a/b]\n", "c.yaml:3:18: a/b is assigned twice");
	expect_error(HEAD "exercises:\n  - { exercise: a/b, pass: 0 }\n", "c.yaml:4:28: pass is the fraction");
	expect_error(HEAD "exercises:\n  - { exercise: a/b, due: tomorrow }\n", "c.yaml:4:27: due 'tomorrow' is not a date");
	expect_error(HEAD "exercises: [a/b]\nrunner: cloud\n", "c.yaml:4:9: runner is local, ssh or slurm");
	expect_error(HEAD "exercises: [a/b]\nrunner: ssh\n", "c.yaml:4:9: runner ssh needs ssh: { host: NAME }");
	expect_error("course: [\n", "c.yaml:2:1:");
	expect_error("course: Lab-3\ntitle: T\nexercises: [a/b]\n", "c.yaml:1:9: course id 'Lab-3' must be an identifier");
}

static void test_check(void **state)
{
	(void)state;
	lesson_set ls;
	char err[512];
	assert_int_equal(lesson_set_load(&ls, "tests/fixtures/exercise", err, sizeof err), 0);
	course *c = load(HEAD "exercises:\n  - demo/scale\n  - demosum/sum\n", err);
	assert_int_equal(course_check(c, &ls, err, sizeof err), 0);
	course_free(c);
	c = load(HEAD "exercises:\n  - demo/scale\n  - demo/nope\n", err);
	assert_int_equal(course_check(c, &ls, err, sizeof err), -1);
	assert_string_equal(err, "c.yaml:5:5: demo/nope: no such stage");
	course_free(c);
	c = load(HEAD "exercises: [nope/scale]\n", err);
	assert_int_equal(course_check(c, &ls, err, sizeof err), -1);
	assert_non_null(strstr(err, "no such lesson"));
	course_free(c);
	lesson_set_free(&ls);
}

static result_record rec(const char *user, unsigned uid, const char *ex, const char *verdict, double ratio, int64_t t)
{
	result_record r;
	memset(&r, 0, sizeof r);
	strfmt(r.user, sizeof r.user, "%s", user);
	r.uid = uid;
	strfmt(r.exercise, sizeof r.exercise, "%s", ex);
	strfmt(r.verdict, sizeof r.verdict, "%s", verdict);
	r.passed = !strcmp(verdict, "passed");
	r.at_lesson_size = 1;
	r.ratio = ratio;
	r.time = t;
	return r;
}

/* As root, the test runs as uid 2001 (root's records are not a student's: they are dropped), with
 * root kept as the saved uid to come back to. */
static void become_student(void)
{
	if (getuid() == 0) { assert_int_equal(setresgid(2001, 2001, 0), 0); assert_int_equal(setresuid(2001, 2001, 0), 0); }
}
static void become_self(void)
{
	uid_t r, e, s;
	if (getresuid(&r, &e, &s) == 0 && s == 0 && r != 0) { assert_int_equal(setresuid(0, 0, 0), 0); assert_int_equal(setresgid(0, 0, 0), 0); }
}

static void test_results_files(void **state)
{
	(void)state;
	become_student();
	char dir[] = "/tmp/cc_test_course.XXXXXX", err[512];
	assert_non_null(mkdtemp(dir));
	char *yaml = xasprintf(HEAD "exercises: [demo/scale]\nresults: %s/results\n", dir);
	course *c = course_load_buffer("c.yaml", dir, yaml, strlen(yaml), err, sizeof err);
	free(yaml);
	assert_non_null(c);
	result_record r = rec("me", (unsigned)getuid(), "demo/scale", "passed", 1.01, 100);
	/* no folder yet: one line that says what to do */
	assert_int_equal(results_append(c, &r, err, sizeof err), -1);
	assert_non_null(strstr(err, "course init"));
	char gid[16];   /* named: a uid of the tests' may have no group of its own in /etc/group */
	snprintf(gid, sizeof gid, "%u", (unsigned)getgid());
	if (results_init(c, gid, err, sizeof err)) fail_msg("%s", err);
	struct stat st;
	assert_int_equal(stat(c->results, &st), 0);
	assert_int_equal(st.st_mode & 07777, 03773);
	assert_int_equal(results_append(c, &r, err, sizeof err), 0);
	r.ratio = 0.5;
	strfmt(r.verdict, sizeof r.verdict, "slow");
	r.passed = 0;
	assert_int_equal(results_append(c, &r, err, sizeof err), 0);
	result_record *all;
	int n;
	results_stats rs;
	assert_int_equal(results_read(c, &all, &n, &rs, err, sizeof err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(rs.skipped[RS_FORGED], 0);
	assert_string_equal(all[0].exercise, "demo/scale");
	assert_true(all[0].passed && !all[1].passed);
	char me[64];
	results_owner_name((unsigned)getuid(), me, sizeof me);
	assert_string_equal(all[0].user, me);                      /* the owner's name, not the record's "me" */
	results_free(all, n);
	/* a record that claims another uid, in our file: not ours to make */
	char *mine = xasprintf("%s/%u-me.jsonl", c->results, (unsigned)getuid()), *forged = xasprintf("%s/%u-other.jsonl", c->results, (unsigned)getuid() + 1);
	FILE *f = fopen(mine, "a");
	fprintf(f, "{\"time\": 5, \"user\": \"other\", \"uid\": %u, \"exercise\": \"demo/scale\", \"verdict\": \"passed\", \"passed\": true}\nnot json\n",
	        (unsigned)getuid() + 1);
	fclose(f);
	/* a file named for another uid but owned by us: a forgery, left out */
	f = fopen(forged, "w");
	fprintf(f, "{\"time\": 5, \"user\": \"other\", \"uid\": %u, \"exercise\": \"demo/scale\", \"verdict\": \"passed\", \"passed\": true}\n",
	        (unsigned)getuid() + 1);
	fclose(f);
	assert_int_equal(results_read(c, &all, &n, &rs, err, sizeof err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(rs.skipped[RS_FORGED], 1);
	assert_int_equal(rs.dropped[RD_OTHER_UID], 1);
	assert_int_equal(rs.dropped[RD_NOT_A_RECORD], 1);
	results_free(all, n);
	free(mine);
	free(forged);
	char *cmd = xasprintf("rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	course_free(c);
	become_self();
}


/* A line of a file owned by uid 7: 0 and the record, or -1 and why. */
static int parse(const course *c, const char *line, result_record *r, results_drop *why)
{
	return results_parse_line(c, line, 7, r, why);
}

#define REC(extra) "{\"time\": 5, \"uid\": 7, \"exercise\": \"demo/scale\", \"verdict\": \"passed\", \"passed\": true, \"at_lesson_size\": true" extra "}"

static void test_record_checks(void **state)
{
	(void)state;
	char err[512];
	course *c = load(HEAD "exercises: [demo/scale]\n", err);
	result_record r;
	results_drop why;
	assert_int_equal(parse(c, REC(", \"user\": \"carol\", \"ratio\": 1.5"), &r, &why), 0);
	char name[64];
	results_owner_name(7, name, sizeof name);
	assert_string_equal(r.user, name);                           /* the owner, never the record's "carol" */
	assert_true(r.passed && r.ratio == 1.5 && !r.source);
	static const struct { const char *line; results_drop why; } bad[] = {
		{ REC(", \"ratio\": inf"), RD_BAD_FIELD }, { REC(", \"ratio\": .nan"), RD_BAD_FIELD }, { REC(", \"ratio\": 1e300"), RD_BAD_FIELD },
		{ REC(", \"ratio\": -1"), RD_BAD_FIELD }, { REC(", \"bar\": 11"), RD_BAD_FIELD }, { REC(", \"time\": 1"), RD_NOT_A_RECORD },   /* a repeated key: the reader refuses the line */
		{ REC(", \"device\": \"" "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789\""), RD_BAD_FIELD },
		{ REC(", \"source\": \"!!!!\""), RD_BAD_FIELD }, { REC(", \"source\": \"YWJj\""), RD_BAD_FIELD },   /* a source without its SHA-256 */
		{ REC(", \"sha256\": \"xyz\""), RD_BAD_FIELD }, { REC(", \"source_omitted\": \"lost\""), RD_BAD_FIELD },
		{ "{\"time\": 5, \"uid\": 7, \"exercise\": \"demo/scale\", \"verdict\": \"slow\", \"passed\": true, \"at_lesson_size\": true}", RD_BAD_FIELD },
		{ "{\"time\": 5, \"uid\": 7, \"exercise\": \"demo/scale\", \"verdict\": \"sneaky\", \"passed\": false}", RD_BAD_FIELD },
		{ "{\"time\": 5, \"uid\": 8, \"exercise\": \"demo/scale\", \"verdict\": \"passed\", \"passed\": true, \"at_lesson_size\": true}", RD_OTHER_UID },
		{ "{\"time\": 5, \"uid\": 7, \"exercise\": \"demo/other\", \"verdict\": \"wrong\", \"passed\": false}", RD_UNKNOWN_EXERCISE },
		{ "{\"time\": 5, \"uid\": 7}", RD_NOT_A_RECORD }, { "not json", RD_NOT_A_RECORD }, { "[1, 2]", RD_NOT_A_RECORD },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		why = RD_COUNT;
		if (parse(c, bad[i].line, &r, &why) == 0) fail_msg("accepted: %s", bad[i].line);
		if (why != bad[i].why) fail_msg("%s: dropped as '%s', not '%s'", bad[i].line, results_drop_text(why), results_drop_text(bad[i].why));
	}
	/* uid 0: dropped with its own reason, so that the report says so */
	assert_int_equal(results_parse_line(c, "{\"time\": 5, \"uid\": 0, \"exercise\": \"demo/scale\", \"verdict\": \"wrong\", \"passed\": false}", 0, &r, &why), -1);
	assert_int_equal(why, RD_ROOT);
	/* a source and its SHA-256: written, read back, matched; a source changed after the fact is a mismatch */
	result_record w = rec("x", 7, "demo/scale", "passed", 1.2, 9);
	static const char src[] = "__global__ void k(float *y) { y[0] = 2; }\n\x01\xff";
	w.source = (char *)src;
	w.source_len = sizeof src - 1;
	char *line = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);
	results_write_json(f, &w);
	fclose(f);
	assert_int_equal(parse(c, line, &r, &why), 0);
	assert_int_equal(r.source_len, sizeof src - 1);
	assert_memory_equal(r.source, src, sizeof src - 1);
	assert_int_equal(results_source_matches(&r), 1);
	r.source[0] = '#';
	assert_int_equal(results_source_matches(&r), -1);
	free(r.source);
	r.source = NULL;
	free(line);
	/* too large: the hash only, never verifiable */
	char *big = xmalloc(RESULTS_SOURCE_MAX + 2);
	memset(big, 'a', RESULTS_SOURCE_MAX + 1);
	w.source = big;
	w.source_len = RESULTS_SOURCE_MAX + 1;
	f = open_memstream(&line, &len);
	results_write_json(f, &w);
	fclose(f);
	assert_true(len < 2000);
	assert_int_equal(parse(c, line, &r, &why), 0);
	assert_true(r.source_too_large && !r.source && r.sha256[0]);
	assert_int_equal(results_source_matches(&r), 0);
	free(line);
	free(big);
	course_free(c);
}

/* The usual name taken as a folder, a symlink, a FIFO (and, as root, another's file) before the
 * first record: the record goes under a fresh name, nothing blocks, and the report reads it. */
static void test_squatted_names(void **state)
{
	(void)state;
	int root = getuid() == 0;
	char dir[] = "/tmp/cc_test_squat.XXXXXX", err[512];
	assert_non_null(mkdtemp(dir));
	chmod(dir, 0755);
	char *yaml = xasprintf(HEAD "exercises: [demo/scale]\nresults: %s/results\n", dir);
	course *c = course_load_buffer("c.yaml", dir, yaml, strlen(yaml), err, sizeof err);
	free(yaml);
	char gid[16];
	snprintf(gid, sizeof gid, "%u", (unsigned)getgid());
	if (results_init(c, gid, err, sizeof err)) fail_msg("%s", err);
	unsigned me = root ? 2001 : (unsigned)getuid();
	char name[64];
	results_owner_name(me, name, sizeof name);
	char *p0 = xasprintf("%s/%u-%s.jsonl", c->results, me, name), *p1 = xasprintf("%s/%u-%s.1.jsonl", c->results, me, name),
	     *p2 = xasprintf("%s/%u-%s.2.jsonl", c->results, me, name), *p3 = xasprintf("%s/%u-%s.3.jsonl", c->results, me, name);
	assert_int_equal(mkdir(p0, 0777), 0);
	assert_int_equal(symlink("/etc/hostname", p1), 0);
	assert_int_equal(mkfifo(p2, 0666), 0);
	if (root) { FILE *f = fopen(p3, "w"); assert_non_null(f); fclose(f); chmod(p3, 0666); }   /* root's, writable by all */
	become_student();
	result_record r = rec("x", me, "demo/scale", "passed", 1.1, 50);
	assert_int_equal(results_append(c, &r, err, sizeof err), 0);
	assert_int_equal(results_append(c, &r, err, sizeof err), 0);   /* the same fresh file again */
	become_self();
	char *want = xasprintf("%s/%u-%s.%d.jsonl", c->results, me, name, root ? 4 : 3);
	struct stat st;
	assert_int_equal(lstat(want, &st), 0);
	assert_true(S_ISREG(st.st_mode) && st.st_uid == me);
	if (root) { assert_int_equal(lstat(p3, &st), 0); assert_int_equal(st.st_size, 0); }   /* another's file is not written to */
	result_record *all;
	int n;
	results_stats rs;
	assert_int_equal(results_read(c, &all, &n, &rs, err, sizeof err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(rs.skipped[RS_FORGED], root ? 4 : 3);   /* the folder, the link, the FIFO (never blocking), as root root's file */
	results_free(all, n);
	/* over the size cap: not read, said */
	char *huge = xasprintf("%s/%u-%s.9.jsonl", c->results, (unsigned)getuid(), "big");
	assert_int_equal(truncate(huge, 0) == 0 || errno == ENOENT, 1);
	FILE *f = fopen(huge, "w");
	assert_int_equal(ftruncate(fileno(f), RESULTS_FILE_MAX + 1), 0);
	fclose(f);
	assert_int_equal(results_read(c, &all, &n, &rs, err, sizeof err), 0);
	assert_int_equal(rs.skipped[RS_TOO_LARGE], 1);
	results_free(all, n);
	char *cmd = xasprintf("rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd); free(huge); free(want); free(p0); free(p1); free(p2); free(p3);
	course_free(c);
}

/* Output that is always valid: no inf or nan in JSON or the chart, formulas defused in CSV, marks
 * and a legend after verification, a refuted pass not counted. */
static void test_valid_output(void **state)
{
	(void)state;
	char err[512];
	course *c = load(HEAD "exercises:\n  - a/x\n  - a/y\n", err);
	result_record r[] = { rec("=HYPERLINK(\"x\")", 1, "a/x", "passed", 1.0 / 0.0, 10), rec("+bob", 2, "a/x", "passed", 0.0 / 0.0, 20),
	                      rec("@carol", 3, "a/y", "passed", 1.2, 30) };
	r[0].check = RESULT_VERIFIED;
	r[2].check = RESULT_REFUTED;
	class_table t;
	class_table_make(&t, c, r, 3);
	t.verified = 1;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	class_report_json(f, &t);
	class_report_html(f, &t);
	class_report_text(f, &t);
	fclose(f);
	assert_null(strstr(out, "inf"));
	assert_null(strstr(out, "nan"));
	assert_non_null(strstr(out, "\"verified\": \"verified\""));
	assert_non_null(strstr(out, "\"verified\": \"refuted\""));
	assert_non_null(strstr(out, "X refuted"));
	assert_non_null(strstr(out, "refuted 1.20x X"));
	free(out);
	f = open_memstream(&out, &len);
	class_report_csv(f, &t);
	fclose(f);
	assert_non_null(strstr(out, "\"'=HYPERLINK(\"\"x\"\")\""));
	assert_non_null(strstr(out, "\"'+bob\""));
	assert_non_null(strstr(out, "\"'@carol\""));
	assert_non_null(strstr(out, ",refuted,refuted,1,0\n"));
	free(out);
	class_table_free(&t);
	/* A name with markup and control sequences (an account name is the last line of defence's input:
	 * the report trusts no text): no ESC or BEL reaches the terminal or the CSV, no tag the HTML. */
	result_record e = rec("<script>dan\033]52;c;eA==\a\033[2J", 4, "a/y", "slow", 0.5, 40);
	class_table_make(&t, c, &e, 1);
	f = open_memstream(&out, &len);
	class_report_text(f, &t);
	class_report_csv(f, &t);
	fclose(f);
	assert_null(strchr(out, '\033'));
	assert_null(strchr(out, '\a'));
	free(out);
	f = open_memstream(&out, &len);
	class_report_html(f, &t);
	fclose(f);
	assert_null(strstr(out, "<script>"));
	assert_non_null(strstr(out, "&lt;script&gt;dan"));
	assert_null(strchr(out, '\033'));
	free(out);
	class_table_free(&t);
	course_free(c);
}

static void test_table(void **state)
{
	(void)state;
	char err[512];
	course *c = load(HEAD "exercises:\n  - a/x\n  - { exercise: a/y, due: \"2026-01-01\" }\n", err);
	int64_t due = c->items[1].due;
	result_record r[] = {
		rec("bob", 2, "a/x", "slow", 0.61, 10), rec("bob", 2, "a/x", "passed", 0.97, 20), rec("bob", 2, "a/x", "wrong", 0, 30),
		rec("alice", 1, "a/y", "passed", 1.05, due + 60), rec("alice", 1, "a/y", "passed", 1.10, due + 90),
		rec("carol", 3, "a/z", "passed", 2.0, 5),   /* not assigned: left out */
	};
	for (int i = 0; i < 6; i++) r[i].trusted = 1;   /* a trusted judge's records: facts, nothing claimed */
	class_table t;
	class_table_make(&t, c, r, 6);
	assert_true(t.trusted);
	assert_int_equal(t.nusers, 2);
	assert_string_equal(t.users[0], "alice");                   /* in name order */
	const class_cell *bx = class_cell_at(&t, 1, 0), *ay = class_cell_at(&t, 0, 1), *ax = class_cell_at(&t, 0, 0);
	assert_int_equal(bx->tries, 3);
	assert_true(bx->passed && !bx->late);
	assert_true(bx->best > 0.969 && bx->best < 0.971);
	assert_true(ay->passed && ay->late);                        /* first passed after the deadline */
	assert_true(ay->best > 1.09);
	assert_int_equal(ax->tries, 0);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	class_report_csv(f, &t);
	class_report_html(f, &t);
	fclose(f);
	assert_non_null(strstr(out, "\"bob\",2,\"a/x\",1,0,0.9700,3,"));
	assert_non_null(strstr(out, "<td class=\"late\" data-status=\"passed\" data-verified=\"unverified\">late 1.10x</td>"));
	assert_non_null(strstr(out, ">0.97x</text>"));              /* trusted ratios are ranked */
	assert_null(strstr(out, "claimed pass"));
	assert_non_null(strstr(out, "<svg"));
	free(out);
	class_table_free(&t);
	course_free(c);
}

/* A refuted or unverified pass is no pass in time either: a forged pass before the deadline and a
 * verified one after it make the cell late, its first pass the verified one (a red-team finding:
 * the forged claim with no source used to lend the verified pass its time). */
static void test_refuted_not_on_time(void **state)
{
	(void)state;
	char err[512];
	course *c = load(HEAD "exercises:\n  - { exercise: a/y, due: \"2026-01-01\" }\n", err);
	int64_t due = c->items[0].due;
	result_record r[] = {
		rec("frank", 6, "a/y", "passed", 1.0, due - 3600),     /* refuted by --verify */
		rec("frank", 6, "a/y", "passed", 1.1, due + 3600),     /* verified, after the deadline */
	};
	r[0].written_by = due - 3000;
	r[0].check = RESULT_REFUTED;
	r[1].check = RESULT_VERIFIED;
	class_table t;
	class_table_make(&t, c, r, 2);
	t.verified = 1;
	const class_cell *fy = class_cell_at(&t, 0, 0);
	assert_int_equal(fy->status, CELL_PASSED);
	assert_true(fy->late);
	assert_true(fy->first_pass == due + 3600);
	class_table_free(&t);
	/* The same with the forged pass unverified (no source in it, written before the deadline): it
	 * neither makes the verified pass on time nor lends it its time; and a forged 99x beside a verified
	 * pass is not the ratio shown for it, which is the one --verify measured. */
	result_record q[] = {
		rec("frank", 6, "a/y", "passed", 1.0, due - 3600),     /* no source: unverified */
		rec("frank", 6, "a/y", "passed", 1.1, due + 3600),     /* verified, after the deadline */
		rec("frank", 6, "a/y", "slow", 99, due + 3700),        /* a forged 99x, no source */
	};
	q[0].written_by = due - 3000;
	q[0].check = RESULT_UNVERIFIED;
	q[1].check = RESULT_VERIFIED;
	q[1].measured = 1.08;
	class_table_make(&t, c, q, 3);
	t.verified = 1;
	fy = class_cell_at(&t, 0, 0);
	assert_int_equal(fy->status, CELL_PASSED);
	assert_true(fy->late && !fy->time_claimed);
	assert_true(fy->first_pass == due + 3600);
	assert_true(fy->ratio_claimed);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	class_report_text(f, &t);
	fclose(f);
	assert_non_null(strstr(out, "late 1.08x v"));
	assert_null(strstr(out, "99.00x"));
	free(out);
	class_table_free(&t);
	course_free(c);
}

/* Records the students wrote (issue #45 item 5): a pass not judged again is "claimed", a ratio is
 * claimed and ranks nobody (a forged "slow" 99x tops no chart), a refuted pass is on no chart, and a
 * pass on time by its own time only, in a file changed after the deadline, is self-reported. */
static void test_claims(void **state)
{
	(void)state;
	char err[512];
	course *c = load(HEAD "exercises:\n  - a/x\n  - { exercise: a/y, due: \"2026-01-01\" }\n", err);
	int64_t due = c->items[1].due;
	result_record r[] = {
		rec("mallory", 4, "a/x", "passed", 1.00, 10),          /* a forged pass */
		rec("mallory", 4, "a/x", "slow", 99, 11),              /* a forged slow 99x */
		rec("mallory", 4, "a/y", "passed", 1.0, due - 3600),   /* "on time", appended after the deadline */
		rec("eve", 5, "a/x", "passed", 3.0, 10),               /* refuted by --verify */
		rec("alice", 1, "a/y", "passed", 1.05, due - 60),      /* on time, its file last changed before the deadline */
		rec("bob", 2, "a/x", "passed", 1.1, 10),               /* verified */
	};
	r[2].written_by = due + 600;
	r[3].check = RESULT_REFUTED;
	r[4].written_by = due - 30;
	r[5].check = RESULT_VERIFIED;
	r[5].measured = 1.05;                                          /* what --verify's own run measured */
	class_table t;
	class_table_make(&t, c, r, 6);
	assert_false(t.trusted);
	t.verified = 1;
	/* rows: alice, bob, eve, mallory */
	const class_cell *mx = class_cell_at(&t, 3, 0), *my = class_cell_at(&t, 3, 1), *ex = class_cell_at(&t, 2, 0), *ay = class_cell_at(&t, 0, 1),
	                 *bx = class_cell_at(&t, 1, 0);
	assert_int_equal(mx->status, CELL_CLAIMED);
	assert_true(mx->ratio_claimed && mx->best > 98);
	assert_int_equal(my->status, CELL_CLAIMED);
	assert_true(!my->late && my->time_claimed);
	assert_int_equal(ex->status, CELL_REFUTED);
	assert_int_equal(ay->status, CELL_CLAIMED);
	assert_true(!ay->late && !ay->time_claimed);                  /* the file's change time proves it */
	assert_int_equal(bx->status, CELL_PASSED);
	assert_true(bx->ratio_claimed);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	class_report_html(f, &t);
	fclose(f);
	assert_null(strstr(out, "99.00x</text>"));                   /* no claimed ratio on a chart */
	assert_null(strstr(out, "3.00x</text>"));
	assert_null(strstr(out, ">eve</text>"));                      /* refuted: on no chart */
	assert_non_null(strstr(out, "class=\"verified\">bob</text>"));
	assert_non_null(strstr(out, "no ranking"));
	assert_non_null(strstr(out, "data-status=\"claimed\""));
	free(out);
	f = open_memstream(&out, &len);
	class_report_text(f, &t);
	class_report_csv(f, &t);
	class_report_json(f, &t);
	fclose(f);
	assert_non_null(strstr(out, "claimed pass 99.00x ?"));
	assert_non_null(strstr(out, "claimed pass* 1.00x ?"));
	assert_non_null(strstr(out, "refuted 3.00x X"));
	assert_non_null(strstr(out, "passed 1.05x v"));                /* the measured ratio, not the claimed 1.10 */
	assert_non_null(strstr(out, "*: on time by the record's own time only"));
	assert_non_null(strstr(out, "\"mallory\",4,\"a/x\",0,0,99.0000,2,"));  /* CSV: not passed */
	assert_non_null(strstr(out, ",claimed,1,1\n"));
	assert_non_null(strstr(out, "\"status\": \"claimed\", \"passed\": false, \"claimed\": true"));
	assert_non_null(strstr(out, "\"trusted\": false"));
	free(out);
	class_table_free(&t);
	/* the same records from a trusted judge: nothing claimed, the ratios ranked */
	for (int i = 0; i < 6; i++) { r[i].trusted = 1; r[i].check = RESULT_UNVERIFIED; }
	class_table_make(&t, c, r, 6);
	assert_true(t.trusted);
	assert_int_equal(class_cell_at(&t, 3, 0)->status, CELL_PASSED);
	assert_false(class_cell_at(&t, 3, 1)->time_claimed);
	f = open_memstream(&out, &len);
	class_report_html(f, &t);
	class_report_text(f, &t);
	fclose(f);
	assert_non_null(strstr(out, "99.00x</text>"));
	assert_null(strstr(out, "claimed pass"));
	assert_null(strstr(out, "<i>claimed"));
	free(out);
	class_table_free(&t);
	course_free(c);
}

/* The table of class_table_make, whatever order the records come in: report folds the records as it
 * reads them (the folder's order) and --verify's claimed passes after the others. */
static char *table_json(const course *c, const result_record *r, const int *order, int n)
{
	class_table t;
	class_table_init(&t, c);
	for (int i = 0; i < n; i++) class_table_add(&t, &r[order[i]]);
	class_table_finish(&t);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	class_report_json(f, &t);
	class_report_csv(f, &t);
	class_report_text(f, &t);
	fclose(f);
	class_table_free(&t);
	return out;
}

static void test_fold_order(void **state)
{
	(void)state;
	char err[512];
	course *c = load(HEAD "exercises:\n  - a/x\n  - { exercise: a/y, due: \"2026-01-01\" }\n", err);
	int64_t due = c->items[1].due;
	result_record r[] = {
		rec("bob", 2, "a/x", "slow", 0.61, 10), rec("bob", 2, "a/x", "passed", 0.97, 20), rec("bob", 2, "a/x", "wrong", 0, 30),
		rec("alice", 1, "a/y", "passed", 1.05, due - 60), rec("alice", 1, "a/y", "passed", 1.10, due + 90),
		rec("alice", 1, "a/x", "passed", 3.0, 40), rec("alice", 1, "a/x", "passed", 1.2, 50),
		rec("carol", 3, "a/y", "passed", 1.3, due - 30), rec("carol", 3, "a/y", "passed", 1.4, due - 10),
		rec("dan", 4, "a/z", "passed", 2.0, 5),   /* not assigned: left out */
	};
	r[3].check = RESULT_REFUTED;
	r[4].check = RESULT_VERIFIED; r[4].measured = 1.02;
	r[5].check = RESULT_REFUTED;
	r[6].check = RESULT_VERIFIED; r[6].measured = 1.1;
	r[7].written_by = due - 5;                   /* on time by its file's change time */
	r[8].check = RESULT_VERIFIED; r[8].measured = 1.3; r[8].written_by = due + 5;
	enum { N = sizeof r / sizeof r[0] };
	int fwd[N], rev[N], mixed[N] = { 7, 2, 9, 4, 0, 8, 5, 1, 6, 3 };
	for (int i = 0; i < N; i++) { fwd[i] = i; rev[i] = N - 1 - i; }
	char *a = table_json(c, r, fwd, N), *b = table_json(c, r, rev, N), *m = table_json(c, r, mixed, N);
	assert_string_equal(a, b);
	assert_string_equal(a, m);
	class_table t;
	class_table_make(&t, c, r, N);
	assert_int_equal(t.nusers, 3);
	assert_string_equal(t.users[0], "alice");
	assert_int_equal(class_cell_at(&t, 0, 0)->status, CELL_PASSED);   /* one verified pass beats a refuted one */
	assert_int_equal(class_cell_at(&t, 0, 1)->status, CELL_PASSED);
	assert_true(class_cell_at(&t, 0, 1)->late);                       /* the refuted pass on time does not count */
	assert_int_equal(class_cell_at(&t, 1, 0)->tries, 3);
	class_table_free(&t);
	free(a); free(b); free(m);
	course_free(c);
}

/* report --verify folds the claims of one student, exercise and source into one (class_fold) and adds
 * the fold with their shared check: the table must be the one of adding each record. */
static void test_fold_claims(void **state)
{
	(void)state;
	char err[512];
	course *c = load(HEAD "exercises:\n  - a/x\n  - { exercise: a/y, due: \"2026-01-01\" }\n", err);
	int64_t due = c->items[1].due;
	result_record r[] = {
		rec("alice", 1, "a/y", "passed", 1.05, due + 60), rec("alice", 1, "a/y", "passed", 1.30, due - 60),
		rec("alice", 1, "a/y", "passed", 0.90, due + 90), rec("alice", 1, "a/y", "slow", 0.70, due - 90),
		rec("alice", 1, "a/x", "passed", 2.0, 40), rec("alice", 1, "a/x", "passed", 3.0, 30),
		rec("bob", 2, "a/x", "passed", 1.5, 70), rec("bob", 2, "a/x", "passed", 1.7, 60),
	};
	r[3].passed = 1;                             /* a claimed pass whose own record says slow */
	r[1].written_by = due - 30;                  /* on time by its file's change time */
	r[2].at_lesson_size = 0;                     /* not correct at the lesson's size: its ratio is no best */
	enum { N = sizeof r / sizeof r[0] };
	/* the groups: alice's a/y verified (measured 1.1), alice's a/x refuted, bob's a/x unverified */
	int group[N] = { 0, 0, 0, 0, 1, 1, 2, 2 };
	result_check check[3] = { RESULT_VERIFIED, RESULT_REFUTED, RESULT_UNVERIFIED };
	for (int i = 0; i < N; i++) { r[i].check = check[group[i]]; r[i].measured = group[i] == 0 ? 1.1 : 0; }
	int order[N];
	for (int i = 0; i < N; i++) order[i] = i;
	char *each = table_json(c, r, order, N);
	class_table t;
	class_table_init(&t, c);
	for (int g = 0; g < 3; g++) {
		class_fold f = {0};
		int first = -1;
		for (int i = 0; i < N; i++) if (group[i] == g) { class_fold_add(c, &f, &r[i]); if (first < 0) first = i; }
		class_table_add_fold(&t, &r[first], &f);
	}
	class_table_finish(&t);
	char *out = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);
	class_report_json(fp, &t);
	class_report_csv(fp, &t);
	class_report_text(fp, &t);
	fclose(fp);
	assert_string_equal(each, out);
	assert_int_equal(class_cell_at(&t, 0, 1)->tries, 4);
	assert_int_equal(class_cell_at(&t, 0, 1)->status, CELL_PASSED);
	assert_false(class_cell_at(&t, 0, 1)->late);                      /* the verified pass on time */
	class_table_free(&t);
	free(each); free(out);
	course_free(c);
}

/* test_course append DIR EXERCISE [SOURCE]: appends one record (passed, ratio 1.1, the source's
 * text or a small kernel) to this user's file in DIR's results folder, as a try does, and prints
 * "appended" or the one-line error; for tests/attack/results.sh, where no GPU judges a try. */
static int append_main(int argc, char **argv)
{
	char err[1024];
	course *c = course_load(argv[2], err, sizeof err);
	if (!c) { fprintf(stderr, "%s\n", err); return 4; }
	result_record r = rec("me", (unsigned)getuid(), argv[3], "passed", 1.1, 1700000000);
	const char *src = argc > 4 ? argv[4] : "__global__ void k(float *y) { y[0] = 2; }\n";
	r.source = (char *)src;
	r.source_len = strlen(src);
	int rc = results_append(c, &r, err, sizeof err);
	if (rc) fprintf(stderr, "cudaclimb: %s\n", err); else printf("appended\n");
	course_free(c);
	return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "append")) return append_main(argc, argv);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format), cmocka_unit_test(test_check), cmocka_unit_test(test_results_files), cmocka_unit_test(test_table),
		cmocka_unit_test(test_record_checks), cmocka_unit_test(test_squatted_names), cmocka_unit_test(test_valid_output), cmocka_unit_test(test_claims),
		cmocka_unit_test(test_refuted_not_on_time), cmocka_unit_test(test_fold_order), cmocka_unit_test(test_fold_claims),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
