/* cli_course: the instructor's commands: course init (the results folder for a class) and report
 * (the class table in the terminal, as CSV, JSON or an HTML page; with --verify, every claimed pass
 * judged again on this machine's GPU, in the instructor's account, from the source in its record). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "class_report.h"
#include "cli.h"
#include "cli_cmd.h"
#include "course.h"
#include "exercise.h"
#include "results.h"
#include "util.h"
#include <unistd.h>

/* course init DIR [--group NAME]: checks the course file against the lessons and sets up its results
 * folder. */
static int course_init(cli *c, engine *e)
{
	if (c->nargs != 3) return usage_error("course init takes the course folder: cudaclimb course init DIR [--group NAME]%s", "");
	char err[1024];
	course *co = course_load(c->args[2], err, sizeof err);
	if (!co || course_check(co, engine_lessons(e), err, sizeof err)) {
		fput_clean(stderr, err);
		fputc('\n', stderr);
		course_free(co);
		return EXIT_LESSONS;
	}
	int code = EXIT_OK;
	if (results_init(co, c->group, err, sizeof err)) {
		fprintf(stderr, "cudaclimb: %s\n", err);
		code = EXIT_FAILED;
	} else {
		printf("%s: %d exercises assigned; results go to %s\n", co->id, co->nitems, co->results);
		printf("  the folder is set so that students add their own records and cannot list, read or remove others'%s\n",
		       co->share ? " (share: true: they may read them)" : "");
		printf("students start with:   cudaclimb --course %s        (or CUDACLIMB_COURSE=%s)\n", co->dir, co->dir);
		printf("the class's results:   cudaclimb report %s [--csv | --json | --html FILE]\n", co->dir);
	}
	course_free(co);
	return code;
}

int cmd_course(cli *c, engine *e)
{
	if (c->nargs >= 2 && !strcmp(c->args[1], "init")) return course_init(c, e);
	return usage_error("course takes a subcommand: cudaclimb course init DIR [--group NAME]%s", "");
}

/* ---- report --verify ---- */

typedef struct { ex_try *t; } verify_ctx;

static void verify_listener(void *ctx, int id, job_phase ph, const char *note, const run_result *r)
{
	verify_ctx *vc = ctx;
	if (vc->t) ex_try_event(vc->t, id, ph, note, r);
}

/* Writes len bytes of data to a new file path (O_EXCL|O_NOFOLLOW, 0600); 0 or -1. */
static int write_new(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) return -1;
	for (size_t off = 0; off < len;) {
		ssize_t w = write(fd, data + off, len - off);
		if (w < 0 && errno == EINTR) continue;
		if (w <= 0) { close(fd); return -1; }
		off += (size_t)w;
	}
	return close(fd);
}

/* r's source judged again, as try judges a file (the same checks and timing), in tmp (a private
 * folder); nothing recorded. RESULT_VERIFIED when it is correct at the lesson's size with a ratio at
 * the course's bar, less VERIFY_SLACK; RESULT_UNVERIFIED when it could not be judged here (why says so). */
#define VERIFY_SLACK 0.9   /* a correct re-run within 10% under the bar still verifies the pass */
static result_check rejudge(engine *e, const course *co, const char *tmp, const result_record *r, char *why, size_t n)
{
	const course_item *it = NULL;
	for (int i = 0; i < co->nitems && !it; i++) {
		char name[160];
		strfmt(name, sizeof name, "%s/%s", co->items[i].lesson, co->items[i].stage);
		if (!strcmp(name, r->exercise)) it = &co->items[i];
	}
	const lesson *l = it ? lesson_set_find(engine_lessons(e), it->lesson) : NULL;
	int s = l ? lesson_stage_index(l, it->stage) : -1;
	if (s < 0 || !l->stages[s].exercise) { strfmt(why, n, "no such exercise in these lessons"); return RESULT_UNVERIFIED; }
	char *path = xasprintf("%s/%s.cu", tmp, r->sha256), err[512];
	if (write_new(path, r->source, r->source_len)) {
		strfmt(why, n, "cannot write %s: %s", path, strerror(errno));
		free(path);
		return RESULT_UNVERIFIED;
	}
	ex_try_opts o = { .file = path, .no_sanitizer = 1 };   /* the verdict only: no counters, no sanitizer */
	verify_ctx vc = { NULL };
	engine_set_listener(e, verify_listener, &vc);
	ex_try *t = ex_try_start(e, l, s, &o, err, sizeof err);
	result_check res = RESULT_UNVERIFIED;
	if (!t) {
		strfmt(why, n, "%s", err);
	} else {
		vc.t = t;
		while (ex_try_state(t) < 2) engine_poll(e, -1);
		const ex_verdict *v = ex_try_verdict(t);
		double bar = it->pass > 0 ? it->pass : l->stages[s].exercise->pass;
		int correct = v->kind == EXV_PASSED || v->kind == EXV_SLOW;
		if (v->kind == EXV_NO_GPU) strfmt(why, n, "no GPU to judge it on");
		else if (v->kind == EXV_REFUSED || v->kind == EXV_CRASH)   /* this box could not judge it: says nothing of the kernel */
			strfmt(why, n, "not judged here: %s: %s", ex_kind_name(v->kind), v->headline);
		else {
			/* A wrong kernel is refuted outright; a correct one only when it misses the bar by more than
			 * the run-to-run spread of a timing on a shared box (VERIFY_SLACK), so an honest pass at the
			 * bar is not called a forgery because the instructor's run was a little slower. */
			res = correct && v->at_lesson_size && v->ratio >= bar * VERIFY_SLACK ? RESULT_VERIFIED : RESULT_REFUTED;
			strfmt(why, n, "judged again: %s, %.2fx (the bar %.2fx, %.2fx with the timing slack)", ex_kind_name(v->kind), v->ratio,
			       bar, bar * VERIFY_SLACK);
		}
		ex_try_free(t);
	}
	engine_set_listener(e, NULL, NULL);
	unlink(path);
	free(path);
	return res;
}

/* Sets the check of every claimed pass in r: judged again once per exercise and source. Returns 0, or
 * EXIT_NO_GPU when there is no GPU here (every pass unverified, one line said). */
static int verify(engine *e, const course *co, result_record *r, int n)
{
	int claims = 0;
	for (int i = 0; i < n; i++) claims += r[i].passed;
	if (!claims) return 0;
	const device_info *d = engine_device(e);
	if (!d->present) {
		fputs("cudaclimb: --verify cannot judge passes again here: ", stderr);
		fput_clean(stderr, d->why[0] ? d->why : "no GPU");
		fputs("; every pass is marked unverified\n", stderr);
		return EXIT_NO_GPU;
	}
	const char *base = getenv("TMPDIR");
	char *tmp = xasprintf("%s/cudaclimb-verify.XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(tmp)) {   /* mode 0700: the sources stay the instructor's */
		fprintf(stderr, "cudaclimb: --verify: cannot make a private folder in %s: %s\n", base && *base ? base : "/tmp", strerror(errno));
		free(tmp);
		return EXIT_FAILED;
	}
	/* identical sources (the same exercise and SHA-256) are judged once */
	struct seen { const char *exercise, *sha256; result_check check; } *done = NULL;
	int judged = 0, count[3] = {0};
	for (int i = 0; i < n; i++) {
		if (!r[i].passed) continue;
		char why[256] = "";
		int m = results_source_matches(&r[i]), same = -1;
		for (int k = 0; m == 1 && k < judged && same < 0; k++)
			if (!strcmp(done[k].sha256, r[i].sha256) && !strcmp(done[k].exercise, r[i].exercise)) same = k;
		if (r[i].source_too_large) { r[i].check = RESULT_UNVERIFIED; strfmt(why, sizeof why, "its source was too large to record"); }
		else if (m == 0) { r[i].check = RESULT_UNVERIFIED; strfmt(why, sizeof why, "no source in the record"); }
		else if (m < 0) { r[i].check = RESULT_REFUTED; strfmt(why, sizeof why, "the source is not the one its SHA-256 names"); }
		else if (same >= 0) r[i].check = done[same].check;
		else {
			r[i].check = rejudge(e, co, tmp, &r[i], why, sizeof why);
			done = xrealloc(done, (size_t)(judged + 1) * sizeof *done);
			done[judged++] = (struct seen){ r[i].exercise, r[i].sha256, r[i].check };
		}
		count[r[i].check]++;
		if (r[i].check != RESULT_VERIFIED && why[0]) {
			fprintf(stderr, "cudaclimb: %s: ", result_check_name(r[i].check));
			fput_clean(stderr, r[i].user);
			fprintf(stderr, " (uid %u), %s: ", r[i].uid, r[i].exercise);
			fput_clean(stderr, why);
			fputc('\n', stderr);
		}
	}
	free(done);
	rmdir(tmp);
	free(tmp);
	fprintf(stderr, "cudaclimb: --verify: %d claimed passes (%d sources judged again): %d verified, %d unverified, %d refuted\n", claims,
	        judged, count[RESULT_VERIFIED], count[RESULT_UNVERIFIED], count[RESULT_REFUTED]);
	return 0;
}

/* One line per reason for what the report left out. */
static void say_left_out(const course *co, const results_stats *st)
{
	const char *dir = co->results;
	if (st->forged) fprintf(stderr, "cudaclimb: %d file%s in %s left out: not owned by the student named in it, a link, or not a regular file\n",
	                        st->forged, st->forged == 1 ? "" : "s", dir);
	if (st->too_large) fprintf(stderr, "cudaclimb: %d file%s in %s left out: larger than %d MiB (not read)\n", st->too_large,
	                           st->too_large == 1 ? "" : "s", dir, RESULTS_FILE_MAX >> 20);
	if (st->unreadable) fprintf(stderr, "cudaclimb: %d file%s in %s left out: unreadable\n", st->unreadable, st->unreadable == 1 ? "" : "s", dir);
	if (st->over_cap) fprintf(stderr, "cudaclimb: %d file%s in %s left out: past the cap of %d files a student (or %d entries a folder)\n",
	                          st->over_cap, st->over_cap == 1 ? "" : "s", dir, RESULTS_FILES_PER_UID, RESULTS_DIR_MAX);
	for (int d = 0; d < RD_COUNT; d++)
		if (st->dropped[d]) fprintf(stderr, "cudaclimb: %d record%s dropped: %s\n", st->dropped[d], st->dropped[d] == 1 ? "" : "s",
		                            results_drop_text((results_drop)d));
}

int cmd_report(cli *c, engine *e)
{
	if (c->nargs != 2) return usage_error("report takes the course folder: cudaclimb report DIR [--csv | --json | --html FILE] [--verify]%s", "");
	char err[1024];
	course *co = course_load(c->args[1], err, sizeof err);
	if (!co) { fput_clean(stderr, err); fputc('\n', stderr); return EXIT_LESSONS; }
	result_record *r;
	int n, code = EXIT_OK;
	results_stats st;
	if (results_read(co, &r, &n, &st, err, sizeof err)) {
		fputs("cudaclimb: ", stderr);
		fput_clean(stderr, err);
		fputc('\n', stderr);
		course_free(co);
		return EXIT_FAILED;
	}
	int verifying = c->verify || co->verify;
	if (verifying) code = verify(e, co, r, n);
	class_table t;
	class_table_make(&t, co, r, n);
	t.verified = verifying;
	FILE *out = stdout;
	if (c->html && strcmp(c->html, "-") && !(out = fopen(c->html, "w"))) {
		fprintf(stderr, "cudaclimb: cannot write %s: %s\n", c->html, strerror(errno));
		code = EXIT_FAILED;
	} else if (c->html) {
		class_report_html(out, &t);
		if (out != stdout) { fclose(out); printf("wrote %s (%d students, %d exercises)\n", c->html, t.nusers, co->nitems); }
	} else if (c->json) {
		class_report_json(out, &t);
	} else if (c->csv) {
		class_report_csv(out, &t);
	} else {
		class_report_text(out, &t);
	}
	say_left_out(co, &st);
	class_table_free(&t);
	results_free(r, n);
	course_free(co);
	return code;
}
