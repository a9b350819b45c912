/* cli_serve: `cudaclimb serve` (the lab service, serve.h) and `cudaclimb __judge`, the child the
 * service starts in its own account for each submission: one try of the file, as `try` judges it,
 * printed as a class record on one line and the verdict's headline on the next. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "cli_cmd.h"
#include "compile_jail.h"
#include "course.h"
#include "exercise.h"
#include "results.h"
#include "serve.h"
#include "util.h"

#define DEFAULT_CONFIG "/etc/cudaclimb/serve.yaml"

int cmd_serve(int argc, char **argv)
{
	const char *config = DEFAULT_CONFIG;
	int check_only = 0;
	static const struct option opts[] = {
		{ "config", 1, 0, 'c' }, { "foreground", 0, 0, 'f' }, { "check", 0, 0, 'k' }, { "help", 0, 0, 'h' }, { 0, 0, 0, 0 },
	};
	optind = 1;
	for (int o; (o = getopt_long(argc, argv, "c:fh", opts, NULL)) != -1;) {
		if (o == 'c') config = optarg;
		else if (o == 'k') check_only = 1;
		else if (o == 'h') {
			printf("usage: cudaclimb serve [--foreground] [--config FILE] [--check]\n"
			       "  the lab service: the GPU queue and the judge of a lab box (README, \"The lab service\");\n"
			       "  FILE defaults to %s; --check reads it and exits\n", DEFAULT_CONFIG);
			return EXIT_OK;
		} else if (o != 'f') return cli_usage_error("serve takes --foreground, --config FILE and --check%s", "");
	}
	if (optind < argc) return cli_usage_error("serve takes no operands: cudaclimb serve [--foreground] [--config FILE]%s", "");
	serve_config cfg;
	char err[1500];
	if (serve_config_load(&cfg, config, err, sizeof err)) { fput_clean(stderr, err); fputc('\n', stderr); return EXIT_LESSONS; }
	if (check_only) {
		printf("%s: socket %s, state %s, %d course%s, cap %.0f s\n", config, cfg.socket, cfg.state, cfg.ncourses, cfg.ncourses == 1 ? "" : "s", cfg.cap);
		int abi = compile_jail_abi();
		if (abi > 0) printf("learners' compiles are closed in with Landlock (ABI %d)\n", abi);
		else printf("this kernel has no Landlock: learners' compiles are checked by the include scan alone (Linux 5.13 or later closes them in)\n");
		serve_config_free(&cfg);
		return EXIT_OK;
	}
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	self[n > 0 ? n : 0] = 0;
	int rc = serve_run(&cfg, self);
	serve_config_free(&cfg);
	return rc;
}

typedef struct { ex_try *t; } judge_ctx;

static void judge_listener(void *ctx, int id, job_phase ph, const char *note, const run_result *r)
{
	judge_ctx *jc = ctx;
	if (jc->t) ex_try_event(jc->t, id, ph, note, r);
}

/* __judge COURSE-DIR LESSON/STAGE FILE: exit 0 with the record printed, 3 without a GPU, 1 otherwise. */
int cmd_judge(int argc, char **argv)
{
	if (argc != 4) { fputs("cudaclimb __judge: COURSE-DIR LESSON/STAGE FILE (the lab service starts it)\n", stderr); return EXIT_USAGE; }
	engine_opts eo = { .course_dir = argv[1], .quiet = 1, .gpu = -1 };
	char err[1024];
	engine *e = engine_new(&eo, err, sizeof err);
	if (!e) { fprintf(stderr, "cudaclimb __judge: %s\n", err); return EXIT_FAILED; }
	const course *co = engine_course(e);
	char lid[80], sid[80];
	const char *slash = strchr(argv[2], '/');
	const lesson *l = NULL;
	int s = -1;
	if (slash && (size_t)(slash - argv[2]) < sizeof lid) {
		strfmt(lid, sizeof lid, "%.*s", (int)(slash - argv[2]), argv[2]);
		strfmt(sid, sizeof sid, "%s", slash + 1);
		if (course_find(co, lid, sid) && (l = lesson_set_find(engine_lessons(e), lid))) s = lesson_stage_index(l, sid);
	}
	if (s < 0 || !l->stages[s].exercise) { fprintf(stderr, "cudaclimb __judge: %s is no exercise of the course\n", argv[2]); engine_free(e); return EXIT_FAILED; }
	ex_try_opts o = { .file = argv[3], .no_sanitizer = 1 };
	judge_ctx jc = { NULL };
	engine_set_listener(e, judge_listener, &jc);
	ex_try *t = ex_try_start(e, l, s, &o, err, sizeof err);
	if (!t) { fprintf(stderr, "cudaclimb __judge: %s\n", err); engine_free(e); return EXIT_FAILED; }
	jc.t = t;
	while (ex_try_state(t) < 2) engine_poll(e, -1);
	const ex_verdict *v = ex_try_verdict(t);
	int code = EXIT_OK;
	if (v->kind == EXV_NO_GPU) {
		fprintf(stderr, "cudaclimb __judge: no GPU: %s\n", v->headline);
		code = EXIT_NO_GPU;
	} else {
		result_record r;
		ex_class_record(e, l, &l->stages[s], v, &r);
		const char *who = getenv("CUDACLIMB_SERVICE_FOR");   /* the student the service judges for */
		if (who && *who) r.uid = (unsigned)strtoul(who, NULL, 10);
		results_write_json(stdout, &r);
		putchar('\n');
		for (const char *p = v->headline; *p; p++) putchar(*p == '\n' ? ' ' : *p);
		putchar('\n');
	}
	engine_set_listener(e, NULL, NULL);
	ex_try_free(t);
	engine_free(e);
	return code;
}
