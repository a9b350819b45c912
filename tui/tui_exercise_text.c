/* Exercise mode's pure text: the compiler's messages on the learner's lines, the verdict pane's
 * lines, and a short form of a path. No curses, no I/O. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "tui_exercise.h"
#include "tui_text.h"

static int starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && !memcmp(s, prefix, n);
}

/* Whether the path p[0..n) names file: the same text, or the same base name. */
static int same_file(const char *p, size_t n, const char *file)
{
	if (strlen(file) == n && !memcmp(p, file, n))
		return 1;
	const char *fb = strrchr(file, '/');
	fb = fb ? fb + 1 : file;
	size_t start = n;
	while (start > 0 && p[start - 1] != '/') start--;
	return strlen(fb) == n - start && !memcmp(p + start, fb, n - start);
}

/* One log line: "PATH(LINE): error: MESSAGE" or "PATH(LINE): warning #177-D: MESSAGE". */
static int parse_line(const char *p, size_t len, const char *file, exercise_diag *d)
{
	for (size_t i = 0; i < len; i++) {
		if (p[i] != '(')
			continue;
		size_t k = i + 1;
		long n = 0;
		while (k < len && p[k] >= '0' && p[k] <= '9' && n < 100000000) n = n * 10 + (p[k++] - '0');
		if (k == i + 1 || k + 2 >= len || p[k] != ')' || p[k + 1] != ':' || p[k + 2] != ' ')
			continue;
		const char *rest = p + k + 3;
		size_t rl = len - (k + 3);
		int error = starts(rest, rl, "error") || starts(rest, rl, "catastrophic error") || starts(rest, rl, "fatal error");
		if (!error && !starts(rest, rl, "warning"))
			continue;
		if (n <= 0 || !same_file(p, i, file))
			return 0;
		const char *colon = memchr(rest, ':', rl);
		const char *msg = colon ? colon + 1 : rest;
		while (msg < p + len && *msg == ' ') msg++;
		d->line = (int)n;
		d->error = error;
		snprintf(d->msg, sizeof d->msg, "%.*s", (int)(p + len - msg), msg);
		return 1;
	}
	return 0;
}

int exercise_log_parse(const char *log, const char *file, exercise_diag *out, int cap)
{
	int n = 0;
	for (const char *p = log; p && *p && n < cap;) {
		size_t len = strcspn(p, "\n");
		if (len && p[len - 1] == '\r') len--;
		n += parse_line(p, len, file, &out[n]);
		p += strcspn(p, "\n");
		if (*p) p++;
	}
	return n;
}

const exercise_diag *exercise_first_diag(const exercise_diag *d, int n)
{
	for (int i = 0; i < n; i++)
		if (d[i].error) return &d[i];
	return n > 0 ? &d[0] : NULL;
}

const char *exercise_word(ex_kind k)
{
	switch (k) {
	case EXV_PASSED: return "PASSED";
	case EXV_NO_GPU: return "COMPILED";
	case EXV_CRASH: return "ERROR";
	case EXV_REFUSED: return "REFUSED";
	default: return "NOT YET";
	}
}

typedef struct { exercise_line *out; int n, cap; } lines;

static void add(lines *b, tui_role role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(lines *b, tui_role role, const char *fmt, ...)
{
	if (b->n >= b->cap) return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b->out[b->n].text, sizeof b->out[b->n].text, fmt, ap);
	va_end(ap);
	b->out[b->n++].role = role;
}

static void check_line(lines *b, const ex_verdict *v, int i, int running)
{
	const ex_check *c = &v->checks[i];
	int lw = 4, sw = 4;                 /* columns as wide as the widest label and sizes */
	for (int k = 0; k < v->nchecks; k++) {
		int l = (int)strlen(v->checks[k].label), z = (int)strlen(v->checks[k].sizes);
		if (l > lw) lw = l;
		if (z > sw) sw = z < 24 ? z : 24;
	}
	char st[96];
	tui_role role = ROLE_DIM;
	if (c->done && c->r.status == RUN_OK) { snprintf(st, sizeof st, "ok"); role = ROLE_GOOD; }
	else if (c->done) { snprintf(st, sizeof st, "FAIL %s", run_status_words(c->r.status, c->r.message)); role = ROLE_BAD; }
	else snprintf(st, sizeof st, "%s", running ? "..." : "not run");
	add(b, role, " %-*s %-*s %s", lw, c->label, sw, c->sizes, st);
}

/* What a running try is doing: the first check not back yet. */
static void progress(lines *b, const ex_verdict *v, job_phase phase, const char *note, double secs)
{
	int i = 0;
	while (i < v->nchecks && v->checks[i].done) i++;
	if (note && note[0])
		add(b, phase == JOB_WAITING_GPU ? ROLE_WARN : ROLE_HEADING, "%s (%.0fs)", note, secs);
	else if (phase == JOB_COMPILING || i >= v->nchecks)
		add(b, ROLE_HEADING, "compiling your kernel... %.0fs", secs);
	else if (i == v->timed)
		add(b, ROLE_HEADING, "timing %s (%s) against the stage's kernel... %.0fs", v->checks[i].sizes, v->checks[i].label, secs);
	else
		add(b, ROLE_HEADING, "checking %s (%s)... %.0fs", v->checks[i].sizes, v->checks[i].label, secs);
	for (int k = 0; k < v->nchecks; k++)
		check_line(b, v, k, 1);
}

static void no_gpu(lines *b, const ex_verdict *v)
{
	const run_result *r = v->failed >= 0 ? &v->checks[v->failed].r : NULL;
	if (r)
		add(b, ROLE_NORMAL, "compiles: %d registers, occupancy %.0f%%%s%s%s; timing needs a GPU", r->regs,
		    100 * r->occ_theoretical, r->occ_limiter[0] ? " (limited by " : "", r->occ_limiter, r->occ_limiter[0] ? ")" : "");
	if (r && r->message[0])
		add(b, ROLE_DIM, "%s", strncmp(r->message, "no GPU: ", 8) ? r->message : r->message + 8);
	char sizes[400] = "";
	for (int i = 0; i < v->nchecks; i++)
		snprintf(sizes + strlen(sizes), sizeof sizes - strlen(sizes), "%s%s (%s)", i ? ", " : "", v->checks[i].sizes, v->checks[i].label);
	add(b, ROLE_DIM, "On a GPU it is checked at %s, and timed against the stage's own kernel.", sizes);
}

static void timing(lines *b, const ex_verdict *v)
{
	const run_result *r = &v->checks[v->timed].r;
	char mine[32], theirs[32];
	add(b, ROLE_NORMAL, "yours %s, the stage's %s: %.2fx (the bar %.2fx)", text_ms(mine, sizeof mine, r->ms_median),
	    text_ms(theirs, sizeof theirs, r->pair_ms_median), v->ratio, v->bar);
}

static void diagnosis(lines *b, const ex_verdict *v, int state)
{
	if (v->where[0])
		add(b, ROLE_BAD, "where: %s", v->where);
	if (state == 1) {
		add(b, ROLE_DIM, v->kind == EXV_FAULT || (!v->counters_done && v->failed >= 0)
		                     ? "looking for where, under compute-sanitizer..." : "reading the hardware counters for a diagnosis...");
		return;
	}
	if (!v->counters_done)
		return;
	if (v->diag.findings.n) {
		add(b, ROLE_HEADING, "Diagnosis (hardware counters)");
		char line[sizeof v->diag.findings.f[0].text + 64];
		for (int i = 0; i < v->diag.findings.n; i++) {
			diag_finding_line(&v->diag.findings.f[i], line, sizeof line);
			add(b, ROLE_WARN, "%s", line);
		}
	} else if (v->diag.counters_note[0]) {
		add(b, ROLE_DIM, "no diagnosis: %s", v->diag.counters_note);
	}
}

int exercise_verdict_lines(const ex_verdict *v, int state, job_phase phase, const char *note, double secs,
                      const exercise_diag *diag, int ndiag, exercise_line *out, int cap)
{
	lines b = { out, 0, cap };
	if (state == 0) {
		progress(&b, v, phase, note, secs);
		return b.n;
	}
	if (v->kind == EXV_PASSED || v->kind == EXV_SLOW)
		add(&b, v->kind == EXV_PASSED ? ROLE_GOOD : ROLE_WARN, "%s  %.2fx the stage's kernel (the bar %.2fx)", exercise_word(v->kind),
		    v->ratio, v->bar);
	else
		add(&b, v->kind == EXV_NO_GPU ? ROLE_WARN : ROLE_BAD, "%s", exercise_word(v->kind));
	if (v->kind == EXV_NO_GPU) {
		no_gpu(&b, v);
		return b.n;
	}
	add(&b, ROLE_NORMAL, "%s", v->headline);
	for (int i = 0; i < ndiag && i < 4; i++)
		add(&b, diag[i].error ? ROLE_BAD : ROLE_WARN, "line %d: %s%s", diag[i].line, diag[i].error ? "" : "warning: ", diag[i].msg);
	const run_result *f = v->failed >= 0 ? &v->checks[v->failed].r : NULL;
	if (f && f->status == RUN_WRONG && f->bad_count > 0)
		add(&b, ROLE_BAD, "%lld wrong of %s, first at element %lld", (long long)f->bad_count, v->checks[v->failed].sizes,
		    (long long)f->first_bad);
	for (int i = 0; i < v->nchecks; i++)
		check_line(&b, v, i, 0);
	if ((v->kind == EXV_PASSED || v->kind == EXV_SLOW) && v->timed >= 0)
		timing(&b, v);
	diagnosis(&b, v, state);
	return b.n;
}

char *exercise_short_path(char *out, size_t len, const char *path, const char *home, int maxw, const char *ell)
{
	char buf[4096];
	size_t hl = home ? strlen(home) : 0;
	if (hl > 1 && !strncmp(path, home, hl) && (path[hl] == '/' || !path[hl]))
		snprintf(buf, sizeof buf, "~%s", path + hl);
	else
		snprintf(buf, sizeof buf, "%s", path);
	size_t n = strlen(buf), start = 0;
	int ew = ell ? text_width(ell, strlen(ell)) : 0;
	if (text_width(buf, n) > maxw) {
		while (start < n && text_width(buf + start, n - start) > maxw - ew) {
			int w;
			start += text_char(buf + start, n - start, &w);
		}
		snprintf(out, len, "%s%s", ell ? ell : "", buf + start);
	} else {
		snprintf(out, len, "%s", buf);
	}
	return out;
}

const char *exercise_mark_glyph(int mark, const tui_glyphs *g, tui_role *role)
{
	switch (mark) {
	case EX_NOT_STARTED: *role = ROLE_DIM; return g->ex_todo;
	case EX_STARTED: case EX_COMPILES: *role = ROLE_NORMAL; return g->ex_started;
	case EX_CORRECT: *role = ROLE_WARN; return g->ex_correct;
	case EX_PASSED: *role = ROLE_GOOD; return g->ex_passed;
	default: *role = ROLE_NORMAL; return "";
	}
}
