/* class_report: see class_report.h. Names come from the results files' owners (results_read), the
 * other text from records that were checked field by field; still, the terminal output goes through
 * fput_clean, CSV quotes them (and defuses formulas), JSON escapes them, HTML escapes them, and every
 * number is made finite before it is written. */
#include "class_report.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "json.h"
#include "util.h"

/* What a cell folds of its passes besides class_cell's own fields: a pass that is a fact (trusted or
 * verified); the first time of a pass not refuted; whether some pass on time was written by the
 * deadline (its file's change time says so); the same two of the passes that are facts, which alone
 * decide a cell that has one: a claim nobody could judge (no source) planted before the deadline must
 * not carry a pass verified after it onto time; the best ratio that is a fact; how many claims. */
struct class_acc { int claims, fact, proven, proven_fact; int64_t first_ok, first_fact; double best_fact; };

/* The row of r's uid, a new one (its cells empty) when it is the first record of that uid. */
static int user_index(class_table *t, const result_record *r)
{
	/* a file's records are one student's: the last row looked up first */
	if (t->nusers && t->uids[t->hint] == r->uid) return t->hint;
	for (int i = 0; i < t->nusers; i++) if (t->uids[i] == r->uid) return t->hint = i;
	int ni = t->c->nitems ? t->c->nitems : 1;
	if (t->nusers == t->capusers) {
		t->capusers = t->capusers ? 2 * t->capusers : 8;
		t->users = xrealloc(t->users, (size_t)t->capusers * sizeof *t->users);
		t->uids = xrealloc(t->uids, (size_t)t->capusers * sizeof *t->uids);
		t->last = xrealloc(t->last, (size_t)t->capusers * sizeof *t->last);
		t->cells = xrealloc(t->cells, (size_t)t->capusers * (size_t)ni * sizeof *t->cells);
		t->acc = xrealloc(t->acc, (size_t)t->capusers * (size_t)ni * sizeof *t->acc);
	}
	strfmt(t->users[t->nusers], sizeof t->users[0], "%s", r->user);
	t->uids[t->nusers] = r->uid;
	t->last[t->nusers] = 0;
	memset(&t->cells[(size_t)t->nusers * (size_t)ni], 0, (size_t)ni * sizeof *t->cells);
	memset(&t->acc[(size_t)t->nusers * (size_t)ni], 0, (size_t)ni * sizeof *t->acc);
	return t->hint = t->nusers++;
}

static int item_index(const course *c, const char *exercise)
{
	for (int i = 0; i < c->nitems; i++) {
		size_t n = strlen(c->items[i].lesson);
		if (!strncmp(exercise, c->items[i].lesson, n) && exercise[n] == '/' && !strcmp(exercise + n + 1, c->items[i].stage)) return i;
	}
	return -1;
}

/* A finite, non-negative ratio (records are checked on the way in; this is the last guard). */
static double finite_ratio(double v) { return isfinite(v) && v > 0 ? (v > 1e6 ? 1e6 : v) : 0; }

const char *class_cell_status_name(cell_status s)
{
	static const char *const names[] = { "none", "tried", "slow", "claimed", "passed", "refuted" };
	return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

void class_table_init(class_table *t, const course *c)
{
	memset(t, 0, sizeof *t);
	t->c = c;
	t->trusted = 1;
}

void class_fold_add(const course *c, class_fold *f, const result_record *r)
{
	int it = item_index(c, r->exercise);
	int64_t due = it < 0 ? 0 : c->items[it].due;
	int correct = r->at_lesson_size && (!strcmp(r->verdict, "passed") || !strcmp(r->verdict, "slow"));
	if (!f->n++ || r->time < f->first) f->first = r->time;
	if (r->time > f->last) f->last = r->time;
	if (correct) {
		f->correct = 1;
		if (finite_ratio(r->ratio) > f->best) f->best = finite_ratio(r->ratio);
	}
	if (due && r->time <= due && (r->trusted || (r->written_by && r->written_by <= due))) f->on_time = 1;
}

void class_table_add(class_table *t, const result_record *r)
{
	class_fold f = {0};
	class_fold_add(t->c, &f, r);
	class_table_add_fold(t, r, &f);
}

void class_table_add_fold(class_table *t, const result_record *r, const class_fold *f)
{
	const course *c = t->c;
	t->any = 1;
	int it = item_index(c, r->exercise);
	if (it < 0 || f->n < 1) return;
	t->trusted &= r->trusted != 0;
	int u = user_index(t, r);
	size_t k = (size_t)u * (size_t)c->nitems + (size_t)it;
	class_cell *cell = &t->cells[k];
	struct class_acc *a = &t->acc[k];
	cell->tries += f->n;
	if (f->last > cell->last) cell->last = f->last;
	if (f->last > t->last[u]) t->last[u] = f->last;
	int refuted = r->passed && !r->trusted && r->check == RESULT_REFUTED;
	if (f->correct && f->best > cell->best) cell->best = f->best;
	if (f->correct && r->trusted && f->best > cell->best_trusted) cell->best_trusted = f->best;
	/* a ratio that is a fact: a trusted record's, or the one --verify measured for a verified pass */
	double fr = r->trusted ? f->best : r->check == RESULT_VERIFIED ? finite_ratio(r->measured) : 0;
	if (f->correct && fr > a->best_fact) a->best_fact = fr;
	if (!r->passed) return;
	if (!cell->first_pass || f->first < cell->first_pass) cell->first_pass = f->first;
	if (!refuted && (!a->first_ok || f->first < a->first_ok)) a->first_ok = f->first;
	if (!refuted && f->on_time) a->proven = 1;
	if (r->trusted || r->check == RESULT_VERIFIED) {
		a->fact = 1;
		if (!a->first_fact || f->first < a->first_fact) a->first_fact = f->first;
		if (f->on_time) a->proven_fact = 1;
	}
	/* verified beats unverified beats refuted: one verified pass is a pass (in any order) */
	if (!a->claims) cell->check = r->check;
	else if (r->check == RESULT_VERIFIED || (r->check == RESULT_UNVERIFIED && cell->check == RESULT_REFUTED)) cell->check = r->check;
	a->claims += f->n;
}

/* Rows by name, then uid. */
struct row { char name[64]; unsigned uid; int at; };
static int cmp_row(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);
	return c ? c : a->uid < b->uid ? -1 : a->uid > b->uid;
}

void class_table_finish(class_table *t)
{
	const course *c = t->c;
	t->trusted &= t->any;
	size_t ni = (size_t)(c->nitems ? c->nitems : 1);
	/* students in name order: the rows moved with their cells */
	struct row *rows = xcalloc((size_t)t->nusers + 1, sizeof *rows);
	for (int i = 0; i < t->nusers; i++) { memcpy(rows[i].name, t->users[i], sizeof rows[i].name); rows[i].uid = t->uids[i]; rows[i].at = i; }
	qsort(rows, (size_t)t->nusers, sizeof *rows, cmp_row);
	class_cell *cells = xcalloc((size_t)(t->nusers ? t->nusers : 1) * ni, sizeof *cells);
	struct class_acc *acc = xcalloc((size_t)(t->nusers ? t->nusers : 1) * ni, sizeof *acc);
	int64_t *last = xcalloc((size_t)t->nusers + 1, sizeof *last);
	for (int i = 0; i < t->nusers; i++) {
		memcpy(t->users[i], rows[i].name, sizeof t->users[i]);
		t->uids[i] = rows[i].uid;
		last[i] = t->last[rows[i].at];
		memcpy(&cells[(size_t)i * ni], &t->cells[(size_t)rows[i].at * ni], ni * sizeof *cells);
		memcpy(&acc[(size_t)i * ni], &t->acc[(size_t)rows[i].at * ni], ni * sizeof *acc);
	}
	free(rows);
	free(t->cells); free(t->acc); free(t->last);
	t->cells = cells;
	t->last = last;
	for (int u = 0; u < t->nusers; u++)
		for (int it = 0; it < c->nitems; it++) {
			size_t k = (size_t)u * (size_t)c->nitems + (size_t)it;
			class_cell *cell = &t->cells[k];
			const struct class_acc *a = &acc[k];
			int64_t due = c->items[it].due;
			cell->passed = cell->first_pass != 0;
			if (a->fact) cell->first_pass = a->first_fact;
			else if (a->first_ok) cell->first_pass = a->first_ok;
			cell->late = cell->passed && due && cell->first_pass > due;
			cell->status = !cell->tries ? CELL_NONE : a->fact ? CELL_PASSED : cell->passed && cell->check == RESULT_REFUTED ? CELL_REFUTED
			             : cell->passed ? CELL_CLAIMED : cell->best > 0 ? CELL_SLOW : CELL_TRIED;
			cell->best_fact = a->best_fact;
			cell->ratio_claimed = cell->best > a->best_fact;
			cell->time_claimed = (cell->status == CELL_PASSED || cell->status == CELL_CLAIMED) && due && !cell->late
			                     && !(a->fact ? a->proven_fact : a->proven);
		}
	free(acc);
	t->acc = NULL;
}

void class_table_make(class_table *t, const course *c, const result_record *r, int n)
{
	class_table_init(t, c);
	for (int i = 0; i < n; i++) class_table_add(t, &r[i]);
	class_table_finish(t);
}

void class_table_free(class_table *t)
{
	free(t->users); free(t->uids); free(t->cells); free(t->last); free(t->acc);
	memset(t, 0, sizeof *t);
}

const class_cell *class_cell_at(const class_table *t, int user, int item) { return &t->cells[user * t->c->nitems + item]; }

static void when(char *out, size_t n, int64_t t)
{
	if (!t) { strfmt(out, n, "-"); return; }
	time_t tt = (time_t)t;
	struct tm tm;
	localtime_r(&tt, &tm);
	strftime(out, n, "%Y-%m-%d %H:%M", &tm);
}

/* The mark of a claimed pass after report --verify: "v" verified, "?" unverified, "X" refuted. */
static const char *mark(const class_cell *c) { return c->check == RESULT_VERIFIED ? "v" : c->check == RESULT_REFUTED ? "X" : "?"; }

/* "passed 1.02x", "late 0.97x", "0.61x", "tried 3", "-" for facts (a passed cell's ratio is a
 * fact's: a trusted record's or the one --verify measured); "claimed pass 1.02x", "claimed
 * late 0.97x", "claimed 0.61x" for a student's word, "refuted 1.20x"; a '*' after the word when the
 * pass is on time by the record's own time only; a pass's mark when verified is set. */
static void cell_text(const class_cell *c, int verified, char *out, size_t n)
{
	const char *star = c->time_claimed ? "*" : "";
	int pass = c->status == CELL_PASSED || c->status == CELL_CLAIMED || c->status == CELL_REFUTED;
	const char *v = verified && pass ? " " : "", *m = verified && pass ? mark(c) : "";
	switch (c->status) {
	case CELL_NONE: strfmt(out, n, "-"); break;
	case CELL_TRIED: strfmt(out, n, "tried %d", c->tries); break;
	case CELL_SLOW: strfmt(out, n, "%s%.2fx", c->ratio_claimed ? "claimed " : "", c->best); break;
	case CELL_CLAIMED: strfmt(out, n, "claimed %s%s %.2fx%s%s", c->late ? "late" : "pass", star, c->best, v, m); break;
	case CELL_PASSED:   /* the ratio that is a fact; without one (a verified pass of before), the claim, so marked */
		if (c->best_fact > 0) strfmt(out, n, "%s%s %.2fx%s%s", c->late ? "late" : "passed", star, c->best_fact, v, m);
		else strfmt(out, n, "%s%s claimed %.2fx%s%s", c->late ? "late" : "passed", star, c->best, v, m);
		break;
	case CELL_REFUTED: strfmt(out, n, "refuted %.2fx%s%s", c->best, v, m); break;
	}
}

/* Whether any cell of t is claimed (a pass, a ratio) or on time by a record's own time. */
static void claims_in(const class_table *t, int *claimed, int *timed)
{
	*claimed = *timed = 0;
	for (int u = 0; u < t->nusers; u++)
		for (int i = 0; i < t->c->nitems; i++) {
			const class_cell *cell = class_cell_at(t, u, i);
			*claimed |= cell->status == CELL_CLAIMED || cell->ratio_claimed;
			*timed |= cell->time_claimed;
		}
}

void class_report_text(FILE *f, const class_table *t)
{
	const course *c = t->c;
	fprintf(f, "%s - ", c->id);
	fput_clean(f, c->title);
	fprintf(f, "\n%d students, %d exercises\n\n%-16s", t->nusers, c->nitems, "student");
	for (int i = 0; i < c->nitems; i++) fprintf(f, " %-20.20s", c->items[i].stage);
	/* the passed column says how many of its passes are a student's claims ("4/4 (3 claimed)"), so that
	 * forged claims of every exercise do not read as "4/4" */
	int claimed, timed, width = 9;
	claims_in(t, &claimed, &timed);
	if (claimed) width = 19;
	fprintf(f, " %-*s %s\n", width, "passed", "last activity");
	for (int u = 0; u < t->nusers; u++) {
		char name[17], buf[40], count[40];
		strfmt(name, sizeof name, "%s", t->users[u]);
		fput_clean(f, name);
		fprintf(f, "%*s", 16 - (int)strlen(name), "");
		int passed = 0, claims = 0;
		for (int i = 0; i < c->nitems; i++) {
			const class_cell *cell = class_cell_at(t, u, i);
			cell_text(cell, t->verified, buf, sizeof buf);
			fprintf(f, " %-20s", buf);
			passed += cell->status == CELL_PASSED;
			claims += cell->status == CELL_CLAIMED;
		}
		when(buf, sizeof buf, t->last[u]);
		if (claims) strfmt(count, sizeof count, "%d/%d (%d claimed)", passed + claims, c->nitems, claims);
		else strfmt(count, sizeof count, "%d/%d", passed, c->nitems);
		fprintf(f, " %-*s %s\n", width, count, buf);
	}
	if (!t->nusers) { fputs("(no results yet in ", f); fput_clean(f, c->service_store ? c->service_store : c->results); fputs(")\n", f); }
	if (claimed)
		fprintf(f, "\nclaimed: the student's own record (the results folder is written by the students): a pass not judged\n"
		           "  again (report --verify judges passes again) and every ratio are their word, not measured here.\n");
	if (timed)
		fprintf(f, "%s*: on time by the record's own time only (self-reported: its file was written after the deadline).\n", claimed ? "" : "\n");
	if (t->verified)
		fprintf(f, "\nv verified: judged again on this machine's GPU and passed;  ? unverified: not judged again (no GPU,\n"
		           "  no source in the record, or a source too large);  X refuted: judged again and did not pass, or the\n"
		           "  source is not the one its SHA-256 names. A refuted pass is not counted.\n");
}

/* A quoted CSV field; one that a spreadsheet would take for a formula (= + - @, tab, CR first) gets a
 * leading ' (OWASP's rule for CSV injection). */
static void csv_field(FILE *f, const char *s)
{
	fputc('"', f);
	if (*s && strchr("=+-@\t\r", *s)) fputc('\'', f);
	for (; *s; s++) { if (*s == '"') fputc('"', f); fputc((unsigned char)*s < 0x20 ? ' ' : *s, f); }
	fputc('"', f);
}

void class_report_csv(FILE *f, const class_table *t)
{
	const course *c = t->c;
	fprintf(f, "student,uid,exercise,passed,late,best_ratio,tries,first_passed,last_activity,verified,status,ratio_claimed,late_self_reported\n");
	for (int u = 0; u < t->nusers; u++)
		for (int i = 0; i < c->nitems; i++) {
			const class_cell *cell = class_cell_at(t, u, i);
			char a[40], b[40], ex[160];
			when(a, sizeof a, cell->first_pass);
			when(b, sizeof b, cell->last);
			strfmt(ex, sizeof ex, "%s/%s", c->items[i].lesson, c->items[i].stage);
			csv_field(f, t->users[u]);
			fprintf(f, ",%u,", t->uids[u]);
			csv_field(f, ex);
			fprintf(f, ",%d,%d,%.4f,%d,%s,%s,%s,%s,%d,%d\n", cell->status == CELL_PASSED, cell->late, finite_ratio(cell->best), cell->tries,
			        cell->first_pass ? a : "", cell->last ? b : "", results_check_name(cell->check), class_cell_status_name(cell->status),
			        cell->ratio_claimed, cell->time_claimed);
		}
}

void class_report_json(FILE *f, const class_table *t)
{
	const course *c = t->c;
	fprintf(f, "{\"schema\": %d, \"course\": ", JSON_SCHEMA);
	json_string(f, c->id);
	fprintf(f, ", \"title\": ");
	json_string(f, c->title);
	fprintf(f, ", \"exercises\": [");
	for (int i = 0; i < c->nitems; i++) {
		char ex[160];
		strfmt(ex, sizeof ex, "%s/%s", c->items[i].lesson, c->items[i].stage);
		fprintf(f, "%s", i ? ", " : "");
		json_string(f, ex);
	}
	fprintf(f, "], \"verify\": %s, \"trusted\": %s,\n\"students\": [", t->verified ? "true" : "false", t->trusted ? "true" : "false");
	for (int u = 0; u < t->nusers; u++) {
		fprintf(f, "%s\n  {\"student\": ", u ? "," : "");
		json_string(f, t->users[u]);
		fprintf(f, ", \"uid\": %u, \"last_activity\": %lld, \"exercises\": {", t->uids[u], (long long)t->last[u]);
		for (int i = 0; i < c->nitems; i++) {
			const class_cell *cell = class_cell_at(t, u, i);
			char ex[160];
			strfmt(ex, sizeof ex, "%s/%s", c->items[i].lesson, c->items[i].stage);
			fprintf(f, "%s", i ? ", " : "");
			json_string(f, ex);
			fprintf(f, ": {\"status\": \"%s\", \"passed\": %s, \"claimed\": %s, \"late\": %s, \"late_self_reported\": %s, \"best_ratio\": %.4f, "
			        "\"ratio_claimed\": %s, \"tries\": %d, \"first_passed\": %lld, \"last\": %lld, \"verified\": \"%s\"}",
			        class_cell_status_name(cell->status), cell->status == CELL_PASSED ? "true" : "false", cell->status == CELL_CLAIMED ? "true" : "false",
			        cell->late ? "true" : "false", cell->time_claimed ? "true" : "false", finite_ratio(cell->best), cell->ratio_claimed ? "true" : "false",
			        cell->tries, (long long)cell->first_pass, (long long)cell->last, results_check_name(cell->check));
		}
		fprintf(f, "}}");
	}
	fprintf(f, "\n]}\n");
}

static void html_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
		}
	}
}

/* One exercise's leaderboard: the best correct ratios of trusted records, fastest first, as SVG bars.
 * A ratio a student wrote ranks nobody (a forged 99x would top it) and a refuted pass is on no chart:
 * in a results folder the students write, the chart lists the passes report --verify judged again,
 * in name order, without ranking them. */
static void html_chart(FILE *f, const class_table *t, int item)
{
	int *order = xcalloc((size_t)t->nusers + 1, sizeof *order), n = 0, nverified = 0;
	double top = 1;
	for (int u = 0; u < t->nusers; u++) {
		const class_cell *cell = class_cell_at(t, u, item);
		if (cell->status == CELL_PASSED && cell->check == RESULT_VERIFIED && cell->best_trusted <= 0) nverified++;
		double b = finite_ratio(cell->best_trusted);
		if (b <= 0 || cell->status == CELL_REFUTED) continue;
		int k = n++;
		while (k > 0 && class_cell_at(t, order[k - 1], item)->best_trusted < b) { order[k] = order[k - 1]; k--; }
		order[k] = u;
		if (b > top) top = b;
	}
	double bar = t->c->items[item].pass > 0 && isfinite(t->c->items[item].pass) ? t->c->items[item].pass : 0;
	int lines = n ? n : 1 + (nverified > 0) + nverified;
	int h = 22 * lines + 24;
	fprintf(f, "<svg class=\"chart\" width=\"700\" height=\"%d\" role=\"img\" aria-label=\"fastest correct kernels\">\n", h);
	if (!n && t->trusted) fprintf(f, "<text x=\"4\" y=\"16\">no correct kernel yet</text>\n");
	if (!n && !t->trusted) {
		fprintf(f, "<text x=\"4\" y=\"16\">no ranking: the ratios here are the students' own records (claimed), not measured</text>\n");
		if (nverified) fprintf(f, "<text x=\"4\" y=\"38\">judged again by report --verify and passed (in name order):</text>\n");
		for (int u = 0, k = 0; u < t->nusers; u++) {
			const class_cell *cell = class_cell_at(t, u, item);
			if (!(cell->status == CELL_PASSED && cell->check == RESULT_VERIFIED)) continue;
			fprintf(f, "<text x=\"20\" y=\"%d\" class=\"verified\">", 22 * (k++ + 2) + 16);
			html_text(f, t->users[u]);
			fputs("</text>\n", f);
		}
	}
	for (int k = 0; k < n; k++) {
		const class_cell *cell = class_cell_at(t, order[k], item);
		double w = 360 * finite_ratio(cell->best_trusted) / top;
		if (!(w >= 0)) w = 0;
		if (w > 360) w = 360;
		fprintf(f, "<text x=\"0\" y=\"%d\">", 22 * k + 15);
		html_text(f, t->users[order[k]]);
		fprintf(f, "</text><rect x=\"120\" y=\"%d\" width=\"%.1f\" height=\"16\" class=\"%s\"/><text x=\"%.1f\" y=\"%d\">%.2fx</text>\n",
		        22 * k + 3, w, cell->status == CELL_PASSED ? "pass" : "slow", 126 + w, 22 * k + 15, finite_ratio(cell->best_trusted));
	}
	if (bar > 0 && n) fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"0\" y2=\"%d\" class=\"bar\"/>\n", 120 + 360 * bar / top, 120 + 360 * bar / top, h - 20);
	if (n) fprintf(f, "<text x=\"120\" y=\"%d\" class=\"axis\">speed ratio to the stage's own kernel, same run%s</text>\n", h - 4,
	               bar > 0 ? "; the line is the course's bar" : "");
	fputs("</svg>\n", f);
	free(order);
}

void class_report_html(FILE *f, const class_table *t)
{
	const course *c = t->c;
	char now[40];
	when(now, sizeof now, (int64_t)time(NULL));
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>", f);
	html_text(f, c->title);
	fputs("</title>\n<style>\nbody{font-family:system-ui,sans-serif;margin:2em;color:#222}\n"
	      "table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:.3em .6em;text-align:left}\n"
	      "td.pass{background:#d9f2d9}td.late{background:#fff2cc}td.slow{background:#f2f2f2}\n"
	      "td.claimed{background:#e8eef8;font-style:italic}td.refuted{background:#f6d6d6;text-decoration:line-through}\n"
	      "rect.pass{fill:#3a8d3a}rect.slow{fill:#999}line.bar{stroke:#c00;stroke-dasharray:4}\n"
	      "svg text{font-size:12px}text.axis{fill:#666}\n</style></head><body>\n<h1>", f);
	html_text(f, c->title);
	fprintf(f, "</h1>\n<p>Course <code>");
	html_text(f, c->id);
	fprintf(f, "</code>: %d students, %d exercises. Made by cudaclimb report on %s.</p>\n", t->nusers, c->nitems, now);
	fputs("<table id=\"class\">\n<tr><th>student</th>", f);
	for (int i = 0; i < c->nitems; i++) {
		fputs("<th>", f);
		html_text(f, c->items[i].lesson);
		fputs("/", f);
		html_text(f, c->items[i].stage);
		if (c->items[i].due_text) { fputs("<br><small>due ", f); html_text(f, c->items[i].due_text); fputs("</small>", f); }
		fputs("</th>", f);
	}
	fputs("<th>last activity</th></tr>\n", f);
	for (int u = 0; u < t->nusers; u++) {
		fputs("<tr><td>", f);
		html_text(f, t->users[u]);
		fputs("</td>", f);
		for (int i = 0; i < c->nitems; i++) {
			const class_cell *cell = class_cell_at(t, u, i);
			char buf[48];
			cell_text(cell, 0, buf, sizeof buf);
			const char *cls = cell->status == CELL_PASSED ? (cell->late ? "late" : "pass") : cell->status == CELL_CLAIMED ? "claimed"
			                : cell->status == CELL_REFUTED ? "refuted" : cell->tries ? "slow" : "";
			fprintf(f, "<td class=\"%s\" data-status=\"%s\" data-verified=\"%s\">%s%s%s</td>", cls, class_cell_status_name(cell->status),
			        results_check_name(cell->check), buf, cell->passed && t->verified ? " " : "",
			        cell->passed && t->verified ? (cell->check == RESULT_VERIFIED ? "&#10003; verified" : cell->check == RESULT_REFUTED ? "&#10007; refuted" : "? unverified") : "");
		}
		char last[40];
		when(last, sizeof last, t->last[u]);
		fprintf(f, "<td>%s</td></tr>\n", last);
	}
	fputs("</table>\n", f);
	int claimed, timed;
	claims_in(t, &claimed, &timed);
	if (claimed) fputs("<p class=\"legend\"><i>claimed</i>: the student's own record (the results folder is written by the students): a pass "
	                   "not judged again (<code>report --verify</code> judges passes again) and every ratio are their word, not measured here; "
	                   "no chart ranks them.</p>\n", f);
	if (timed) fputs("<p class=\"legend\">*: on time by the record's own time only (self-reported: its file was written after the deadline).</p>\n", f);
	for (int i = 0; i < c->nitems; i++) {
		fputs("<h2>", f);
		html_text(f, c->items[i].lesson);
		fputs("/", f);
		html_text(f, c->items[i].stage);
		fputs(": the fastest correct kernels</h2>\n", f);
		html_chart(f, t, i);
	}
	fputs("</body></html>\n", f);
}
