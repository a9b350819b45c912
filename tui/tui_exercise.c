/* Exercise mode's model: the learner's file and its watch, the try, the progress and the marks. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>
#include "tui_exercise.h"
#include "util.h"

#define SAVE_DEBOUNCE 0.03   /* editors write, truncate and rename in bursts */

static const lesson_stage *cur(const tui_exercise *x) { return &x->l->stages[x->stage]; }

int exercise_init(tui_exercise *x, const lesson_set *ls, const char *override)
{
	char err[512];
	int rc = 0;
	memset(x, 0, sizeof *x);
	x->watch = -1;
	x->ndiff = -1;
	x->ls = ls;
	x->work = ex_workspace(override);
	x->marks = xcalloc((size_t)(ls->count ? ls->count : 1), sizeof *x->marks);
	for (int i = 0; i < ls->count; i++) {
		const lesson *l = ls->items[i];
		x->marks[i] = xmalloc((size_t)(l->nstages ? l->nstages : 1));
		for (int s = 0; s < l->nstages; s++) {
			ex_progress p;
			x->marks[i][s] = EXERCISE_MARK_NONE;
			if (!l->stages[s].exercise)
				continue;
			if (ex_progress_get(x->work, l, &l->stages[s], &p, err, sizeof err) && !rc) {
				strfmt(x->msg, sizeof x->msg, "exercise progress: %s", err);
				rc = -1;
			}
			x->marks[i][s] = (signed char)p.best;
		}
	}
	return rc;
}

void exercise_free(tui_exercise *x)
{
	exercise_leave(x);
	for (int i = 0; x->marks && i < x->ls->count; i++)
		free(x->marks[i]);
	free(x->marks);
	free(x->work);
	x->marks = NULL;
	x->work = NULL;
}

int exercise_active(const tui_exercise *x) { return x->l != NULL; }

int exercise_mark(const tui_exercise *x, int li, int s)
{
	if (!x->marks || li < 0 || li >= x->ls->count || !x->marks[li] || s < 0 || s >= x->ls->items[li]->nstages)
		return EXERCISE_MARK_NONE;
	return x->marks[li][s];
}

/* Rereads the progress of the open exercise into x->prog and its mark. */
static void reread_progress(tui_exercise *x)
{
	char err[512];
	if (ex_progress_get(x->work, x->l, cur(x), &x->prog, err, sizeof err))
		strfmt(x->msg, sizeof x->msg, "exercise progress: %s", err);
	if (x->marks && x->marks[x->li])
		x->marks[x->li][x->stage] = (signed char)x->prog.best;
}

static void start_watch(tui_exercise *x)
{
	char *dir = xstrdup(x->file), *slash = dir ? strrchr(dir, '/') : NULL;
	if (slash) *slash = 0;
	x->watch = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (x->watch >= 0 && inotify_add_watch(x->watch, slash ? dir : ".", IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE) < 0) {
		strfmt(x->msg + strlen(x->msg), sizeof x->msg - strlen(x->msg), "; saves are not watched: %s", strerror(errno));
		close(x->watch);
		x->watch = -1;
	}
	free(dir);
}

int exercise_enter(tui_exercise *x, const tui_stage *m, int li)
{
	const lesson_stage *st = &m->l->stages[m->cur];
	char err[512];
	exercise_leave(x);
	if (!st->exercise) {                /* say which stages have one */
		strfmt(x->msg, sizeof x->msg, "%s has no exercise", st->id);
		for (int s = 0, n = 0; s < m->l->nstages; s++)
			if (m->l->stages[s].exercise)
				strfmt(x->msg + strlen(x->msg), sizeof x->msg - strlen(x->msg), "%s %s", n++ ? "," : "; these stages have one (n/p):",
				       m->l->stages[s].id);
		return -1;
	}
	int made = ex_begin(x->work, m->l, st, err, sizeof err);
	if (made < 0) {
		strfmt(x->msg, sizeof x->msg, "%s", err);
		return -1;
	}
	x->l = m->l;
	x->li = li;
	x->stage = m->cur;
	x->file = ex_file(x->work, m->l, st);
	x->ndiff = -1;
	x->due = 0;
	x->first = 1;
	source_load(&x->src, x->file, x->src_err, sizeof x->src_err);
	strfmt(x->msg, sizeof x->msg, "your file: %s%s", x->file, made ? " (the starter: its TODOs say what to write)" : "");
	start_watch(x);
	reread_progress(x);
	return 0;
}

void exercise_leave(tui_exercise *x)
{
	ex_try_free(x->t);
	x->t = NULL;
	if (x->watch >= 0) close(x->watch);
	x->watch = -1;
	free(x->file);
	x->file = NULL;
	source_free(&x->src);
	source_free(&x->kernel);
	free(x->diff);
	x->diff = NULL;
	x->ndiff = -1;
	x->ndiag = 0;
	x->src_err[0] = 0;
	x->due = 0;
	x->l = NULL;
}

/* The learner's file again (and the diff, when it is open). */
static void reload(tui_exercise *x)
{
	source_free(&x->src);
	x->src_err[0] = 0;
	source_load(&x->src, x->file, x->src_err, sizeof x->src_err);
	x->ndiag = 0;
	if (x->ndiff >= 0) {
		free(x->diff);
		x->diff = NULL;
		x->ndiff = diff_lines(x->src.lines, x->src.n, x->kernel.lines, x->kernel.n, &x->diff);
	}
}

int exercise_try(tui_exercise *x, tui_stage *m, double now)
{
	plan_setting sets[STAGE_SETS_MAX];
	char err[512];
	if (!x->l)
		return -1;
	reload(x);
	ex_try_free(x->t);
	x->t = NULL;
	x->due = 0;
	int n = stage_build_sets(m, x->stage, sets, STAGE_SETS_MAX, -1, NULL);
	if (n < 0) {
		strfmt(x->msg, sizeof x->msg, "too many tunables and parameters for one run");
		return -1;
	}
	ex_try_opts o = { .file = x->file, .sets = sets, .nsets = n, .counters = m->can_run };
	x->e = m->e;
	x->t = ex_try_start(m->e, x->l, x->stage, &o, err, sizeof err);
	if (!x->t) {
		strfmt(x->msg, sizeof x->msg, "%s", err);
		return -1;
	}
	x->t_start = now;
	x->t_verdict = 0;
	x->recorded = 0;
	x->phase = JOB_COMPILING;
	x->note[0] = 0;
	return 0;
}

/* The verdict is known: the compiler's messages, the progress, the status line. */
static void verdict(tui_exercise *x, double now)
{
	const ex_verdict *v = ex_try_verdict(x->t);
	char err[512], said[2300];
	x->t_verdict = now;
	const char *log = exercise_log(x);
	x->ndiag = log ? exercise_log_parse(log, x->file, x->diag, EXERCISE_DIAGS) : 0;
	const exercise_diag *d = exercise_first_diag(x->diag, x->ndiag);
	if (d)
		strfmt(x->msg, sizeof x->msg, "line %d: %s", d->line, d->msg);
	else if (!x->first)                 /* the first try's keeps saying where the file is */
		strfmt(x->msg, sizeof x->msg, "%s: %s", exercise_word(v->kind), v->headline);
	x->first = 0;
	if (x->replay)                      /* a replay's results are not the learner's */
		strfmt(x->msg + strlen(x->msg), sizeof x->msg - strlen(x->msg), "%s(replay: not recorded)", x->msg[0] ? " " : "");
	else if (!x->recorded && ex_record(x->work, x->l, cur(x), v, err, sizeof err))
		strfmt(x->msg, sizeof x->msg, "progress not saved: %s", err);
	else if (!x->recorded && ex_record_class(x->e, x->l, cur(x), x->file, v, 0, said, sizeof said, err, sizeof err))   /* an assigned exercise: to the course */
		strfmt(x->msg, sizeof x->msg, "not sent to the course: %s", err);
	else if (!x->recorded && said[0])   /* the lab service's judge took it: its verdict is the course's */
		strfmt(x->msg + strlen(x->msg), sizeof x->msg - strlen(x->msg), "%s%s", x->msg[0] ? "; " : "", said);
	x->recorded = 1;
	reread_progress(x);
}

unsigned exercise_event(tui_exercise *x, int job, job_phase phase, const char *note, const run_result *r,
                   double now)
{
	if (!x->t)
		return 0;
	int before = ex_try_state(x->t);
	if (!ex_try_event(x->t, job, phase, note, r))
		return 0;
	x->phase = phase;
	strfmt(x->note, sizeof x->note, "%s", phase != JOB_DONE && note ? note : "");
	if (before == 0 && ex_try_state(x->t) >= 1) {
		verdict(x, now);
		return EXERCISE_CHANGED | EXERCISE_VERDICT;
	}
	return EXERCISE_CHANGED;
}

int exercise_pollfd(const tui_exercise *x) { return x->l ? x->watch : -1; }

int exercise_watch_read(tui_exercise *x, double now)
{
	char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
	const char *base = x->file ? strrchr(x->file, '/') : NULL;
	int seen = 0;
	ssize_t n;
	base = base ? base + 1 : x->file;
	while (x->watch >= 0 && (n = read(x->watch, buf, sizeof buf)) > 0)
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;
			if (ev->len && base && !strcmp(ev->name, base)) seen = 1;
			p += sizeof *ev + ev->len;
		}
	if (seen && !x->due)
		x->due = now + SAVE_DEBOUNCE;
	return seen;
}

void exercise_watch_drain(tui_exercise *x)
{
	char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
	while (x->watch >= 0 && read(x->watch, buf, sizeof buf) > 0) {}
}

void exercise_schedule(tui_exercise *x, double when)
{
	if (x->l) x->due = when;
}

int exercise_tick(tui_exercise *x, tui_stage *m, double now)
{
	if (!x->l || !x->due || now < x->due)
		return 0;
	exercise_try(x, m, now);
	return 1;
}

int exercise_timeout(const tui_exercise *x, double now)
{
	if (!x->l || !x->due)
		return -1;
	double ms = (x->due - now) * 1000;
	return ms <= 0 ? 0 : (int)ms + 1;
}

static void bump_hint(ex_progress *p, void *ctx)
{
	int n = *(const int *)ctx;
	if (p->hints < n) p->hints++;
}

int exercise_hint(tui_exercise *x)
{
	char err[512];
	if (!x->l)
		return 0;
	int n = cur(x)->exercise->nhints;
	if (!n) {
		strfmt(x->msg, sizeof x->msg, "this exercise has no hints: the TODO comments in your file say what to write");
		return 0;
	}
	reread_progress(x);
	if (x->prog.hints < n && ex_progress_update(x->work, x->l, cur(x), bump_hint, &n, err, sizeof err))
		strfmt(x->msg, sizeof x->msg, "hint not recorded: %s", err);
	reread_progress(x);
	int shown = x->prog.hints < 1 ? 1 : x->prog.hints > n ? n : x->prog.hints;
	if (shown == n)
		strfmt(x->msg, sizeof x->msg, "hint %d of %d, the last: d now shows the stage's kernel against yours", shown, n);
	else
		strfmt(x->msg, sizeof x->msg, "hint %d of %d (in the explanation pane)", shown, n);
	return shown;
}

int exercise_diff_open(tui_exercise *x)
{
	char err[256];
	if (!x->l)
		return -1;
	int n = cur(x)->exercise->nhints;
	if (x->prog.best < EX_PASSED && (!n || x->prog.hints < n)) {
		if (n)
			strfmt(x->msg, sizeof x->msg, "the stage's kernel opens once you pass or have seen every hint (%d of %d: h shows the next)",
			         x->prog.hints, n);
		else
			strfmt(x->msg, sizeof x->msg, "the stage's kernel opens once you pass this exercise");
		return -1;
	}
	if (!x->kernel.n && source_load(&x->kernel, cur(x)->kernel_path, err, sizeof err)) {
		strfmt(x->msg, sizeof x->msg, "%s", err);
		return -1;
	}
	if (x->ndiff < 0)
		x->ndiff = diff_lines(x->src.lines, x->src.n, x->kernel.lines, x->kernel.n, &x->diff);
	if (x->ndiff < 0) {
		strfmt(x->msg, sizeof x->msg, "out of memory comparing the files");
		return -1;
	}
	return 0;
}

const ex_verdict *exercise_verdict(const tui_exercise *x) { return x->t ? ex_try_verdict(x->t) : NULL; }
int exercise_state(const tui_exercise *x) { return x->t ? ex_try_state(x->t) : -1; }

const char *exercise_log(const tui_exercise *x)
{
	const ex_verdict *v = exercise_verdict(x);
	if (!v || exercise_state(x) < 1 || v->failed < 0)
		return NULL;
	const char *log = v->checks[v->failed].r.log;
	return log && log[0] ? log : NULL;
}
