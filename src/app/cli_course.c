/* cli_course: the instructor's commands: course init (the results folder for a class) and report
 * (the class table in the terminal, as CSV, JSON or an HTML page). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "class_report.h"
#include "cli.h"
#include "cli_cmd.h"
#include "course.h"
#include "results.h"
#include "util.h"

/* course init DIR [--group NAME]: checks the course file against the lessons and sets up its results
 * folder. */
static int course_init(cli *c, engine *e)
{
	if (c->nargs != 3) return usage_error("course init takes the course folder: cudaclimb course init DIR [--group NAME]%s", "");
	char err[1024];
	course *co = course_load(c->args[2], err, sizeof err);
	if (!co || course_check(co, engine_lessons(e), err, sizeof err)) {
		fprintf(stderr, "%s\n", err);
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

int cmd_report(cli *c, engine *e)
{
	(void)e;
	if (c->nargs != 2) return usage_error("report takes the course folder: cudaclimb report DIR [--csv | --json | --html FILE]%s", "");
	char err[1024];
	course *co = course_load(c->args[1], err, sizeof err);
	if (!co) { fprintf(stderr, "%s\n", err); return EXIT_LESSONS; }
	result_record *r;
	int n, skipped, code = EXIT_OK;
	if (results_read(co, &r, &n, &skipped, err, sizeof err)) {
		fprintf(stderr, "cudaclimb: %s\n", err);
		course_free(co);
		return EXIT_FAILED;
	}
	class_table t;
	class_table_make(&t, co, r, n);
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
	if (skipped) fprintf(stderr, "cudaclimb: %d file%s in %s left out: not owned by the student named in it, or unreadable\n", skipped,
	                     skipped == 1 ? "" : "s", co->results);
	class_table_free(&t);
	free(r);
	course_free(co);
	return code;
}
