/* cli_exercise: the exercise commands: exercises (the list and each one's state), try (compile,
 * check, time and judge the learner's file), watch (try again on every save), hint, reset, solution. */
#include <errno.h>
#include <poll.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <termios.h>
#include <unistd.h>
#include "cli.h"
#include "cli_cmd.h"
#include "diff.h"
#include "course.h"
#include "exercise.h"
#include "fmt.h"
#include "json.h"
#include "labwire.h"
#include "util.h"

/* LESSON/STAGE naming a stage that has an exercise. */
static int find_exercise(cli *c, engine *e, const char *cmd, const lesson **l, int *stage)
{
	if (c->nargs < 2) {
		fprintf(stderr, "cudaclimb: %s needs LESSON/STAGE\n", cmd);
		return cli_usage_error("cudaclimb exercises lists them%s", "");
	}
	int r = cli_find_stage(e, c->args[1], l, stage);
	if (r) return r;
	if (*stage < 0 || !(*l)->stages[*stage].exercise) return cli_usage_error("%s has no exercise (cudaclimb exercises lists them)", c->args[1]);
	if (engine_course(e) && !course_find(engine_course(e), (*l)->id, (*l)->stages[*stage].id)) return cli_not_in_course(e, c->args[1]);
	return 0;
}

/* ---- exercises ---- */

int cmd_exercises(cli *c, engine *e)
{
	const lesson_set *ls = engine_lessons(e);
	const lesson *only = NULL;
	if (c->nargs > 2) return cli_usage_error("exercises takes at most one lesson, not '%s'", c->args[2]);
	int r;
	if (c->nargs == 2 && (r = cli_find_lesson(e, c->args[1], &only))) return r;   /* any case; a misspelling gets a suggestion */
	char *work = ex_workspace(c->work), err[512];
	int n = 0, code = EXIT_OK;
	const course *co = engine_course(e);
	if (co && !c->json) { printf("Course %s: ", co->id); fput_clean(stdout, co->title); printf("\n"); }
	if (c->json) { printf("{\"schema\": %d, \"workspace\": ", JSON_SCHEMA); json_string(stdout, work); printf(", \"exercises\": ["); }
	else printf("Your workspace: %s\n\n%-26s %-12s %-12s %-6s %-7s %-6s %s\n", work, "exercise", "state", "last try", "hints", "best", "bar", "title");
	for (int i = 0; i < ls->count; i++) {
		const lesson *l = ls->items[i];
		if (only && l != only) continue;
		for (int s = 0; s < l->nstages; s++) {
			const lesson_stage *st = &l->stages[s];
			if (!st->exercise) continue;
			const course_item *ci = course_find(engine_course(e), l->id, st->id);
			if (engine_course(e) && !ci) continue;   /* a course shows what it assigns */
			ex_progress p;
			if (ex_progress_get(work, l, st, &p, err, sizeof err)) { fprintf(stderr, "cudaclimb: %s\n", err); code = EXIT_FAILED; }
			char name[160], ratio[16] = "-", bartext[16];
			strfmt(name, sizeof name, "%s/%s", l->id, st->id);
			if (p.best_ratio > 0) strfmt(ratio, sizeof ratio, "%.2fx", p.best_ratio);
			double bar = ci && ci->pass > 0 ? ci->pass : st->exercise->pass;   /* the course's own bar, else the lesson's */
			strfmt(bartext, sizeof bartext, "%.2fx", bar);
			if (c->json) {
				char *file = ex_file(work, l, st);
				printf("%s\n  {\"exercise\": \"%s\", \"title\": ", n ? "," : "", name);
				json_string(stdout, st->title);
				printf(", \"state\": \"%s\", \"last\": \"%s\", \"hints_shown\": %d, \"hints\": %d, \"best_ratio\": %.4f, \"bar\": %.4f, "
				       "\"bar_from\": \"%s\", \"due\": ", ex_level_name(p.best), ex_level_name(p.last), p.hints, st->exercise->nhints, p.best_ratio, bar,
				       ci && ci->pass > 0 ? "course" : "lesson");
				if (ci && ci->due_text) json_string(stdout, ci->due_text);
				else printf("null");
				printf(", \"file\": ");
				json_string(stdout, file);
				printf("}");
				free(file);
			} else {
				printf("%-26s %-12s %-12s %d/%-4d %-7s %-6s ", name, ex_level_name(p.best), p.best == EX_NOT_STARTED ? "-" : ex_level_name(p.last),
				       p.hints, st->exercise->nhints, ratio, bartext);
				fput_clean(stdout, st->title);   /* the lesson's text: no control sequences */
				if (ci && ci->due_text) { printf("  (due "); fput_clean(stdout, ci->due_text); printf(")"); }
				printf("\n");
			}
			n++;
		}
	}
	if (c->json) printf("\n]}\n");
	else if (!n) printf("(no exercises in %s)\n", only ? only->id : "these lessons");
	else printf("\nbar: how fast a try must be against the stage's own kernel to pass (0.90x: 90%% of its speed)%s.\n"
	            "cudaclimb try LESSON/STAGE starts one: it copies the starter into your workspace and judges it.\n",
	            co ? "; the course's where it sets one, else the lesson's" : "");
	free(work);
	return code;
}

/* ---- try ---- */

static void metric_text(const run_result *r, char *out, size_t n)
{
	out[0] = 0;
	if (r->ms_median <= 0) return;
	char t[32], g[32], f[32];
	strfmt(out, n, "%9s  %12s", fmt_time(t, sizeof t, r->ms_median), fmt_gbps(g, sizeof g, r->gbps));
	if (r->flops > 0) strfmt(out + strlen(out), n - strlen(out), "  %14s", fmt_gflops(f, sizeof f, r->gflops));
}

static void print_check(const ex_verdict *v, int i)
{
	const ex_check *k = &v->checks[i];
	printf("  %-13s %-28s ", k->label, k->sizes);
	if (!k->done) { printf("-   not run (%s)\n", v->failed >= 0 ? "an earlier check failed" : "still running"); return; }
	if (k->r.status != RUN_OK) { printf("FAIL %s\n", run_status_name(k->r.status)); return; }
	printf("ok");
	if (i == v->timed) {
		char mine[96], theirs[96];
		metric_text(&k->r, mine, sizeof mine);
		run_result st = k->r;
		st.ms_median = k->r.pair_ms_median;
		st.gbps = k->r.pair_ms_median > 0 ? k->r.gbps * k->r.ms_median / k->r.pair_ms_median : 0;
		st.gflops = k->r.pair_ms_median > 0 ? k->r.gflops * k->r.ms_median / k->r.pair_ms_median : 0;
		metric_text(&st, theirs, sizeof theirs);
		printf("\n  %-13s yours  %s\n  %-13s stage  %s", "", mine, "", theirs);
	}
	printf("\n");
}

/* The first lines of a compile log (the learner's own text, so printed clean). */
static void print_log(const char *log, int max)
{
	int n = 0;
	for (const char *p = log; p && *p && n < max; n++) {
		size_t len = strcspn(p, "\n");
		char *line = xstrndup(p, len);
		printf("    ");
		fput_clean(stdout, line);
		printf("\n");
		free(line);
		p += len + (p[len] == '\n');
		if (n == max - 1 && *p) printf("    ...\n");
	}
}

static void print_verdict(const lesson *l, const lesson_stage *s, const char *file, const ex_verdict *v)
{
	const char *word[EXV_COUNT] = { "PASSED", "NOT YET", "NOT YET", "NOT YET", "NOT YET", "NOT YET", "NOT YET", "NOT YET",
	                                "NOT YET", "NOT YET", "NOT YET", "ERROR", "REFUSED", "COMPILED" };
	printf("%s/%s - ", l->id, s->id);
	fput_clean(stdout, s->title);
	printf("\nyour file: ");
	fput_clean(stdout, file);
	printf("\n");
	if (v->kind == EXV_NO_GPU) {
		printf("  on a GPU it would be checked at");
		for (int i = 0; i < v->nchecks; i++) printf("%s %s (%s)", i ? "," : "", v->checks[i].sizes, v->checks[i].label);
		printf(", and timed against the stage's own kernel at the lesson's size\n");
	} else {
		for (int i = 0; i < v->nchecks; i++) print_check(v, i);
	}
	const run_result *nf = v->failed >= 0 ? &v->checks[v->failed].r : NULL;
	int facts = !nf || nf->regs > 0 || nf->block[0];   /* compile facts: none from a replay, which compiles nothing */
	printf("%s: ", v->kind == EXV_NO_GPU && !facts ? "NOT JUDGED" : word[v->kind]);
	fput_clean(stdout, v->headline);
	printf("\n");
	const ex_check *t = v->timed >= 0 ? &v->checks[v->timed] : NULL;
	if ((v->kind == EXV_PASSED || v->kind == EXV_SLOW) && t && v->judged_kernels && v->kernel_ms > 0 && v->own_kernel_ms > 0)
		printf("  speed ratio: the kernels alone, without the host copies: the stage's %.3f ms over your %.3f ms, %.2fx; the bar is %.2fx\n",
		       v->own_kernel_ms, v->kernel_ms, v->ratio, v->bar);
	else if ((v->kind == EXV_PASSED || v->kind == EXV_SLOW) && t)
		printf("  speed ratio: median of %d alternating pairs %.2fx (p20 %.2fx, p80 %.2fx); the bar is %.2fx%s\n", t->r.reps, v->ratio,
		       t->r.pair_ratio_p20, t->r.pair_ratio_p80, v->bar,
		       t->r.decided_early ? " (stopped once the pairs decided it: a sign test, odds of a wrong side under 1 in 1000)" : "");
	const run_result *f = v->failed >= 0 ? &v->checks[v->failed].r : NULL;
	if (f && (v->kind == EXV_COMPILE_ERROR || v->kind == EXV_CRASH) && f->log && f->log[0]) {
		printf("  compiler output:\n");
		print_log(f->log, 30);
	}
	if (v->kind == EXV_NO_GPU && f && f->regs <= 0 && f->block[0] == 0)
		printf("  resources: not in the recording (a replay shows only what was recorded)\n");
	else if (v->kind == EXV_NO_GPU && f)
		printf("  resources: %d registers, %lld bytes static shared memory, %d bytes spilled; block %ux%ux%u\n", f->regs,
		       (long long)f->static_smem, f->spill_stores + f->spill_loads, f->block[0], f->block[1], f->block[2]);
}

/* What comes after the verdict: where the sanitizer located the failure, the counters' diagnosis. */
static void print_follow_ups(const ex_verdict *v)
{
	if (v->where[0]) {
		printf("  where: ");
		fput_clean(stdout, v->where);
		printf("\n");
	}
	if (v->counters_done) {
		if (v->diag.findings.n) {
			printf("diagnosis of your kernel (hardware counters):\n");
			char line[sizeof v->diag.findings.f[0].text + 64];
			for (int i = 0; i < v->diag.findings.n; i++) {
				diag_finding_line(&v->diag.findings.f[i], line, sizeof line);
				print_log(line, 8);
			}
		} else if (v->diag.counters_note[0]) {
			printf("diagnosis: no hardware counters: ");
			fput_clean(stdout, v->diag.counters_note);
			printf("\n");
		}
	}
}

static void print_json(const device_info *d, const char *file, const ex_verdict *v)
{
	printf("{\"schema\": %d, \"device\": ", JSON_SCHEMA);
	json_object(stdout, device_info_fields, device_info_nfields, d, NULL, NULL);
	printf(",\n\"verdict\": {\"kind\": \"%s\", \"passed\": %s, \"headline\": ", ex_kind_name(v->kind), v->kind == EXV_PASSED ? "true" : "false");
	json_string(stdout, v->headline);
	printf(", \"where\": ");
	json_string(stdout, v->where);
	printf(", \"judged\": \"%s\", \"ratio\": %.6g, \"bar\": %.6g, \"at_lesson_size\": %s, \"source_hash\": \"%s\", \"file\": ",
	       v->judged_kernels ? "kernel" : "whole", v->ratio, v->bar, v->at_lesson_size ? "true" : "false", v->hash);
	json_string(stdout, file);
	printf("},\n\"checks\": [\n");
	for (int i = 0; i < v->nchecks; i++) {
		printf("{\"label\": ");
		json_string(stdout, v->checks[i].label);
		printf(", \"sizes\": ");
		json_string(stdout, v->checks[i].sizes);
		printf(", \"done\": %s, \"result\": ", v->checks[i].done ? "true" : "false");
		json_object(stdout, run_result_fields, run_result_nfields, &v->checks[i].r, "log", v->checks[i].r.log);
		printf("}%s\n", i + 1 < v->nchecks ? "," : "");
	}
	printf("],\n\"diagnosis\": ");
	if (v->counters_done) json_object(stdout, run_result_fields, run_result_nfields, &v->diag, NULL, NULL);
	else printf("null");
	printf("}\n");
}

typedef struct { ex_try *t; int printed; } try_ctx;

static void try_listener(void *ctx, int id, job_phase ph, const char *note, const run_result *r)
{
	try_ctx *tc = ctx;
	if (ph == JOB_WAITING_GPU && note) fprintf(stderr, "cudaclimb: %s\n", note);
	if (tc->t) ex_try_event(tc->t, id, ph, note, r);
}

static int verdict_exit(const ex_verdict *v)
{
	if (v->kind == EXV_NO_GPU && v->failed >= 0 && v->checks[v->failed].r.status == RUN_RUNNER_ERROR) return EXIT_RUNNER;
	return v->kind == EXV_PASSED ? EXIT_OK : v->kind == EXV_NO_GPU ? EXIT_NO_GPU : v->kind == EXV_REFUSED ? EXIT_USAGE : EXIT_FAILED;
}

/* The try's settings must name parameters or this stage's tunables. */
static int check_sets(cli *c, const lesson *l, int stage)
{
	for (int k = 0; k < c->nsets; k++)
		if (!lesson_find_param(l, c->sets[k].name) && !lesson_find_tunable(&l->stages[stage], c->sets[k].name))
			return cli_usage_error("no parameter or tunable '%s' in this stage", c->sets[k].name);
	return 0;
}

/* One try to its end (the diagnosis included), printed; since (> 0): when the save (after_save) or
 * the key that started it was noticed, for "verdict in N ms [after the save]". Returns the exit code,
 * or -1 when it could not start (message printed). */
static int run_try(cli *c, engine *e, const lesson *l, int stage, const char *file, const char *work, double since, int after_save)
{
	char err[512];
	ex_try_opts o = { .file = file, .sets = c->sets, .nsets = c->nsets, .seed = c->eo.seed, .has_seed = c->eo.has_seed,
	                  .counters = !c->eo.no_counters };
	try_ctx tc = { NULL, 0 };
	engine_set_listener(e, try_listener, &tc);
	ex_try *t = ex_try_start(e, l, stage, &o, err, sizeof err);
	if (!t) { fprintf(stderr, "cudaclimb: %s\n", err); return -1; }
	tc.t = t;
	const ex_verdict *v = ex_try_verdict(t);
	const lesson_stage *s = &l->stages[stage];
	while (ex_try_state(t) < 1) engine_poll(e, -1);
	/* The verdict as soon as it is known; the sanitizer's and the counters' runs follow. */
	if (!c->json) {
		print_verdict(l, s, file, v);
		if (since > 0) printf("verdict in %.0f ms%s\n", now_ms() - since, after_save ? " after the save" : "");
		fflush(stdout);
	}
	while (ex_try_state(t) < 2) engine_poll(e, -1);
	if (c->json) print_json(engine_device(e), file, v);
	else print_follow_ups(v);
	if (ex_record(work, l, s, v, err, sizeof err)) fprintf(stderr, "cudaclimb: progress not saved: %s\n", err);
	char said[LABWIRE_LINE_MAX + 200];
	/* try waits for the course judge's verdict; watch, which tries on every save, only sends */
	if (ex_record_class(e, l, s, file, v, !strcmp(c->args[0], "try"), said, sizeof said, err, sizeof err)) {
		fputs("cudaclimb: your result was not sent to the course: ", stderr);
		fput_clean(stderr, err);
		fputc('\n', stderr);
	}
	if (said[0]) { fput_clean(stderr, said); fputc('\n', stderr); }
	int code = verdict_exit(v);
	engine_set_listener(e, NULL, NULL);
	ex_try_free(t);
	return code;
}

/* The file to try: the operand, or the workspace's (created from the starter when missing). */
static char *try_file(cli *c, const char *work, const lesson *l, const lesson_stage *s, int *code)
{
	char err[512];
	*code = 0;
	if (c->nargs > 2 && !c->moved_on) {
		if (!file_exists(c->args[2])) { fprintf(stderr, "cudaclimb: no file %s\n", c->args[2]); *code = EXIT_USAGE; return NULL; }
		return xstrdup(c->args[2]);
	}
	char *file = ex_file(work, l, s);
	int made = ex_begin(work, l, s, err, sizeof err);
	if (made < 0) { fprintf(stderr, "cudaclimb: %s\n", err); free(file); *code = EXIT_FAILED; return NULL; }
	if (made && !c->json) {
		printf("Started %s/%s: your file is %s\n", l->id, s->id, file);
		printf("(a copy of the starter, %s/exercises/%s; its TODO comments say what to write).\n", l->id, s->exercise->start_rel);
		printf("Edit it, then run cudaclimb try %s/%s again, or cudaclimb watch %s/%s to judge every save.\n\n", l->id, s->id, l->id, s->id);
	}
	return file;
}

int cmd_try(cli *c, engine *e)
{
	const lesson *l;
	int stage, code = find_exercise(c, e, "try", &l, &stage);
	if (code) return code;
	if (c->nargs > 3) return cli_usage_error("try takes LESSON/STAGE and at most one FILE, not '%s'", c->args[3]);
	if ((code = cli_use_case(c, l, stage)) || (code = check_sets(c, l, stage))) return code;
	char *work = ex_workspace(c->work), *file = try_file(c, work, l, &l->stages[stage], &code);
	if (file) code = run_try(c, e, l, stage, file, work, 0, 0);
	free(file);
	free(work);
	return code < 0 ? EXIT_FAILED : code;
}

/* ---- watch ---- */

static void bump_hint(ex_progress *p, void *ctx)
{
	int n = *(int *)ctx;
	if (p->hints < n) p->hints++;
}

/* The next hint (and every one before it when all_so_far), recording that it was shown. */
static void show_hint(const char *work, const lesson *l, const lesson_stage *s, int all_so_far)
{
	const lesson_exercise *x = s->exercise;
	char err[512];
	ex_progress p;
	if (!x->nhints) { printf("This exercise has no hints: the TODO comments in your file say what to write.\n"); return; }
	ex_progress_get(work, l, s, &p, err, sizeof err);
	int n = x->nhints;
	if (p.hints < n && ex_progress_update(work, l, s, bump_hint, &n, err, sizeof err) == 0) p.hints++;
	else if (p.hints < n) fprintf(stderr, "cudaclimb: %s\n", err);
	int shown = p.hints < 1 ? 1 : p.hints;
	for (int i = all_so_far ? 0 : shown - 1; i < shown; i++) {
		printf("Hint %d of %d: ", i + 1, n);
		fput_clean(stdout, x->hints[i]);
		printf("\n");
	}
	if (shown == n) printf("That was the last hint: cudaclimb solution %s/%s now shows the stage's own kernel.\n", l->id, s->id);
}

/* The exercise after lesson l's stage: the course's next item under a course, else the next stage
 * with an exercise in this lesson, then in the lessons after it. 0 with *nl, *ns; -1 when l's was the
 * last. */
static int next_exercise(engine *e, const lesson *l, int stage, const lesson **nl, int *ns)
{
	const course *co = engine_course(e);
	const lesson_set *ls = engine_lessons(e);
	if (co) {
		int at = -1;
		for (int i = 0; i < co->nitems && at < 0; i++)
			if (!strcmp(co->items[i].lesson, l->id) && !strcmp(co->items[i].stage, l->stages[stage].id)) at = i;
		for (int i = at + 1; i < co->nitems; i++)
			for (int k = 0; k < ls->count; k++) {
				if (strcmp(ls->items[k]->id, co->items[i].lesson)) continue;
				int s = lesson_stage_index(ls->items[k], co->items[i].stage);
				if (s >= 0 && ls->items[k]->stages[s].exercise) { *nl = ls->items[k]; *ns = s; return 0; }
			}
		return -1;
	}
	int from = -1;
	for (int k = 0; k < ls->count && from < 0; k++) if (ls->items[k] == l) from = k;
	for (int k = from < 0 ? 0 : from; k < ls->count; k++)
		for (int s = k == from ? stage + 1 : 0; s < ls->items[k]->nstages; s++)
			if (ls->items[k]->stages[s].exercise) { *nl = ls->items[k]; *ns = s; return 0; }
	return -1;
}

/* What watch watches: the learner's file, through its folder (editors save by writing the file or by
 * renaming a new one over it). 0, or -1 with a message printed. */
typedef struct { int in, wd; char *file, *dir; const char *base; } watched;

static int watch_file(watched *w, char *file)
{
	if (w->wd >= 0) inotify_rm_watch(w->in, w->wd);
	free(w->file);
	free(w->dir);
	w->file = file;
	w->dir = xstrdup(file);
	char *slash = strrchr(w->dir, '/');
	w->base = slash ? file + (slash - w->dir) + 1 : file;
	if (slash) *slash = 0; else strcpy(w->dir, ".");
	w->wd = inotify_add_watch(w->in, w->dir, IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE);
	if (w->wd < 0) { fprintf(stderr, "cudaclimb: cannot watch %s: %s\n", w->dir, strerror(errno)); return -1; }
	return 0;
}

int cmd_watch(cli *c, engine *e)
{
	const lesson *l;
	int stage, code = find_exercise(c, e, "watch", &l, &stage);
	if (code) return code;
	if (c->nargs > 3) return cli_usage_error("watch takes LESSON/STAGE and at most one FILE, not '%s'", c->args[3]);
	if ((code = cli_use_case(c, l, stage)) || (code = check_sets(c, l, stage))) return code;
	const lesson_stage *s = &l->stages[stage];
	char *work = ex_workspace(c->work), *file = try_file(c, work, l, s, &code);
	if (!file) { free(work); return code; }
	watched w = { .in = inotify_init1(IN_CLOEXEC | IN_NONBLOCK), .wd = -1 };
	if (w.in < 0 || watch_file(&w, file)) {
		if (w.in < 0) fprintf(stderr, "cudaclimb: cannot watch %s: %s\n", file, strerror(errno));
		if (w.in >= 0) close(w.in);
		free(w.file); free(w.dir); free(work);
		return EXIT_FAILED;
	}
	sigset_t mask, old;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT); sigaddset(&mask, SIGTERM); sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, &old);
	int sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	int tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	struct termios saved, raw;
	if (tty && tcgetattr(STDIN_FILENO, &saved) == 0) {
		raw = saved;
		raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		raw.c_cc[VMIN] = 1;
		raw.c_cc[VTIME] = 0;
		tcsetattr(STDIN_FILENO, TCSANOW, &raw);
	} else {
		tty = 0;
	}
	int again = 1, quit = 0, tries = 0, after_save = 0, passed = 0, have_next = 0, ns = 0, next = 0;
	const lesson *nl = NULL;
	double due = 0, since = 0;   /* since: when the save or key that started the next try was noticed */
	while (!quit) {
		if (next && have_next) {   /* on to the next exercise: its file (the starter on a first visit), watched */
			next = 0;
			l = nl; stage = ns; s = &l->stages[stage];
			c->moved_on = 1;   /* a FILE operand was for the first exercise */
			char *f = try_file(c, work, l, s, &code);
			if (!f || watch_file(&w, f)) { code = f ? EXIT_FAILED : code; break; }
			tries = 0; again = 1; due = 0; since = 0;
		}
		if (again && now_ms() >= due) {
			again = 0;
			if (tty && !c->json) fputs("\033[H\033[2J", stdout);   /* a clean screen per try, as rustlings does */
			code = run_try(c, e, l, stage, w.file, work, since, after_save);
			since = 0;
			tries++;
			passed = code == EXIT_OK;
			have_next = passed && next_exercise(e, l, stage, &nl, &ns) == 0;
			if (!c->json) {
				if (passed && have_next) {
					printf("\nPassed. Next: %s/%s - ", nl->id, nl->stages[ns].id);
					fput_clean(stdout, nl->stages[ns].title);
					printf("%s\n", tty ? " (n starts it)" : "");
				} else if (passed) {
					printf("\nPassed, and that was the last exercise%s.\n", engine_course(e) ? " of this course" : "");
				}
				printf("\n(try %d) watching %s: save to try again%s\n", tries, w.file,
				       tty ? (passed && have_next ? ", h hint, r run again, n next, q quit" : ", h hint, r run again, q quit") : passed && !have_next ? "; this was the last exercise: Ctrl-C ends"
				       : "; without a terminal, a pass moves on to the next exercise by itself; Ctrl-C ends");
			}
			fflush(stdout);
			if (passed && have_next && !tty) {   /* no keys to press: on to the next one, saying so (as rustlings) */
				if (!c->json) printf("Moving on to %s/%s.\n", nl->id, nl->stages[ns].id);
				fflush(stdout);
				next = 1;
				continue;
			}
		}
		struct pollfd fds[3] = { { .fd = w.in, .events = POLLIN }, { .fd = sfd, .events = POLLIN }, { .fd = tty ? STDIN_FILENO : -1, .events = POLLIN } };
		int timeout = again ? (int)(due - now_ms()) + 1 : -1;
		if (poll(fds, 3, timeout < 0 && again ? 0 : timeout) < 0 && errno != EINTR) break;
		if (fds[1].revents & POLLIN) {   /* consumed here, so that unblocking it later does not end us */
			struct signalfd_siginfo si;
			if (read(sfd, &si, sizeof si) < 0) {}
			break;
		}
		if (fds[0].revents & POLLIN) {
			char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
			ssize_t n;
			while ((n = read(w.in, buf, sizeof buf)) > 0)
				for (char *p = buf; p < buf + n;) {
					struct inotify_event *ev = (struct inotify_event *)p;
					if (ev->wd == w.wd && ev->len && !strcmp(ev->name, w.base) && !again) {   /* editors write in bursts */
						again = 1; since = now_ms(); due = since + 30; after_save = 1;
					}
					p += sizeof *ev + ev->len;
				}
		}
		if (fds[2].revents & POLLIN) {
			char k;
			if (read(STDIN_FILENO, &k, 1) == 1) {
				if (k == 'q' || k == 4) quit = 1;
				else if (k == 'h') { printf("\n"); show_hint(work, l, s, 0); fflush(stdout); }   /* a hint is not a try */
				else if (k == 'r' && !again) { again = 1; due = 0; since = now_ms(); after_save = 0; }
				else if (k == 'n' && passed && have_next) next = 1;
			} else {
				tty = 0;
			}
		}
	}
	if (tty) tcsetattr(STDIN_FILENO, TCSANOW, &saved);
	close(sfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(w.in);
	free(w.dir);
	free(w.file);
	free(work);
	return code < 0 ? EXIT_FAILED : code;
}

/* ---- hint, reset, solution ---- */

int cmd_hint(cli *c, engine *e)
{
	const lesson *l;
	int stage, code = find_exercise(c, e, "hint", &l, &stage);
	if (code) return code;
	char *work = ex_workspace(c->work);
	show_hint(work, l, &l->stages[stage], 0);
	free(work);
	return EXIT_OK;
}

int cmd_reset(cli *c, engine *e)
{
	const lesson *l;
	int stage, code = find_exercise(c, e, "reset", &l, &stage);
	if (code) return code;
	char *work = ex_workspace(c->work), *file = ex_file(work, l, &l->stages[stage]), kept[1024], err[1024];
	if (ex_reset(work, l, &l->stages[stage], kept, sizeof kept, err, sizeof err)) {
		fprintf(stderr, "cudaclimb: %s\n", err);
		code = EXIT_FAILED;
	} else {
		printf("%s is the starter again", file);
		if (kept[0]) printf("; your previous file is kept as %s", kept);
		printf(".\n");
	}
	free(file);
	free(work);
	return code;
}

/* Lines of text (owned copies), for the diff. */
static char **split_lines(const char *text, int *n)
{
	char **v = NULL;
	*n = 0;
	for (const char *p = text; p && *p;) {
		size_t len = strcspn(p, "\n");
		v = xrealloc(v, (size_t)(*n + 1) * sizeof *v);
		v[(*n)++] = xstrndup(p, len);
		p += len + (p[len] == '\n');
	}
	return v;
}

/* The learner's file against the stage's kernel: the changed lines with two lines of context
 * around them, "..." between separate changes; each line with its number in your file and in the
 * stage's, in two labelled columns (blank where the line is not in that file). */
static void print_diff(const char *mine_path, const char *mine, const char *theirs_path, const char *theirs)
{
	int na, nb;
	char **a = split_lines(mine, &na), **b = split_lines(theirs, &nb);
	diff_op *ops;
	int n = diff_lines(a, na, b, nb, &ops), last = -1;
	printf("--- yours  ");
	fput_clean(stdout, mine_path);
	printf("\n+++ stage  %s\n", theirs_path);
	printf("(- only in yours, + only in the stage's kernel; each line's number in either file)\n  %5s %5s\n", "yours", "stage");
	for (int i = 0; i < n; i++) {
		int near = 0;
		for (int k = i - 2; k <= i + 2; k++) near |= k >= 0 && k < n && ops[k].kind != DIFF_SAME;
		if (!near) continue;
		if (last >= 0 && i > last + 1) printf("...\n");
		last = i;
		const diff_op *d = &ops[i];
		char in_a[16] = "", in_b[16] = "";
		if (d->kind != DIFF_ADD) strfmt(in_a, sizeof in_a, "%d", d->a + 1);
		if (d->kind != DIFF_DEL) strfmt(in_b, sizeof in_b, "%d", d->b + 1);
		printf("%c %5s %5s  ", d->kind == DIFF_ADD ? '+' : d->kind == DIFF_DEL ? '-' : ' ', in_a, in_b);
		fput_clean(stdout, d->kind == DIFF_ADD ? b[d->b] : a[d->a]);
		printf("\n");
	}
	if (n < 0) printf("(out of memory comparing the files)\n");
	else if (last < 0) printf("(no difference: your file is the stage's kernel)\n");
	free(ops);
	for (int i = 0; i < na; i++) free(a[i]);
	for (int i = 0; i < nb; i++) free(b[i]);
	free(a);
	free(b);
}

int cmd_solution(cli *c, engine *e)
{
	const lesson *l;
	int stage, code = find_exercise(c, e, "solution", &l, &stage);
	if (code) return code;
	const lesson_stage *s = &l->stages[stage];
	char *work = ex_workspace(c->work), err[512];
	ex_progress p;
	ex_progress_get(work, l, s, &p, err, sizeof err);
	if (p.best < EX_PASSED && p.hints < s->exercise->nhints) {
		printf("The stage's own kernel opens once you have passed this exercise or seen every hint (%d of %d shown:\n"
		       "cudaclimb hint %s/%s shows the next).\n", p.hints, s->exercise->nhints, l->id, s->id);
		free(work);
		return EXIT_FAILED;
	}
	if (p.best < EX_PASSED && !s->exercise->nhints) {
		printf("The stage's own kernel opens once you have passed this exercise.\n");
		free(work);
		return EXIT_FAILED;
	}
	char *theirs = file_read(s->kernel_path, NULL), *file = ex_file(work, l, s), *mine = file_read(file, NULL);
	if (!theirs) { fprintf(stderr, "cudaclimb: cannot read %s\n", s->kernel_path); code = EXIT_FAILED; }
	else if (!mine) { printf("The stage's own kernel, %s:\n\n%s", s->kernel_rel, theirs); }
	else print_diff(file, mine, s->kernel_rel, theirs);
	free(theirs); free(mine); free(file); free(work);
	return code;
}
