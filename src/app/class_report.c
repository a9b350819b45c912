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

static int user_index(class_table *t, const result_record *r)
{
	for (int i = 0; i < t->nusers; i++) if (t->uids[i] == r->uid) return i;
	t->users = xrealloc(t->users, (size_t)(t->nusers + 1) * sizeof *t->users);
	t->uids = xrealloc(t->uids, (size_t)(t->nusers + 1) * sizeof *t->uids);
	t->last = xrealloc(t->last, (size_t)(t->nusers + 1) * sizeof *t->last);
	strfmt(t->users[t->nusers], sizeof t->users[0], "%s", r->user);
	t->uids[t->nusers] = r->uid;
	t->last[t->nusers] = 0;
	return t->nusers++;
}

static int item_index(const course *c, const char *exercise)
{
	for (int i = 0; i < c->nitems; i++) {
		char name[160];
		strfmt(name, sizeof name, "%s/%s", c->items[i].lesson, c->items[i].stage);
		if (!strcmp(name, exercise)) return i;
	}
	return -1;
}

static int cmp_user(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

/* A finite, non-negative ratio (records are checked on the way in; this is the last guard). */
static double finite_ratio(double v) { return isfinite(v) && v > 0 ? (v > 1e6 ? 1e6 : v) : 0; }

void class_table_make(class_table *t, const course *c, const result_record *r, int n)
{
	memset(t, 0, sizeof *t);
	t->c = c;
	for (int i = 0; i < n; i++) if (item_index(c, r[i].exercise) >= 0) user_index(t, &r[i]);
	/* students in name order: sort the names with their uids kept alongside */
	struct row { char name[64]; unsigned uid; } *rows = xcalloc((size_t)t->nusers + 1, sizeof *rows);
	for (int i = 0; i < t->nusers; i++) { memcpy(rows[i].name, t->users[i], sizeof rows[i].name); rows[i].uid = t->uids[i]; }
	qsort(rows, (size_t)t->nusers, sizeof *rows, cmp_user);
	for (int i = 0; i < t->nusers; i++) { memcpy(t->users[i], rows[i].name, sizeof t->users[i]); t->uids[i] = rows[i].uid; }
	free(rows);
	t->cells = xcalloc((size_t)(t->nusers ? t->nusers : 1) * (size_t)(c->nitems ? c->nitems : 1), sizeof *t->cells);
	int *claims = xcalloc((size_t)(t->nusers ? t->nusers : 1) * (size_t)(c->nitems ? c->nitems : 1), sizeof *claims);
	for (int i = 0; i < n; i++) {
		int it = item_index(c, r[i].exercise);
		if (it < 0) continue;
		int u = user_index(t, &r[i]);
		class_cell *cell = &t->cells[u * c->nitems + it];
		cell->tries++;
		if (r[i].time > cell->last) cell->last = r[i].time;
		if (r[i].time > t->last[u]) t->last[u] = r[i].time;
		int correct = r[i].at_lesson_size && (!strcmp(r[i].verdict, "passed") || !strcmp(r[i].verdict, "slow"));
		if (correct && finite_ratio(r[i].ratio) > cell->best) cell->best = finite_ratio(r[i].ratio);
		if (r[i].passed && (!cell->first_pass || r[i].time < cell->first_pass)) cell->first_pass = r[i].time;
		if (r[i].passed) {
			/* verified beats unverified beats refuted: one verified pass is a pass */
			if (!claims[u * c->nitems + it]++) cell->check = r[i].check;
			else if (r[i].check == RESULT_VERIFIED || (r[i].check == RESULT_UNVERIFIED && cell->check == RESULT_REFUTED)) cell->check = r[i].check;
		}
	}
	free(claims);
	for (int u = 0; u < t->nusers; u++)
		for (int it = 0; it < c->nitems; it++) {
			class_cell *cell = &t->cells[u * c->nitems + it];
			cell->passed = cell->first_pass != 0;
			cell->late = cell->passed && c->items[it].due && cell->first_pass > c->items[it].due;
		}
}

void class_table_free(class_table *t)
{
	free(t->users); free(t->uids); free(t->cells); free(t->last);
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

/* "passed 1.02x", "late 0.97x", "0.61x", "tried", "-"; a pass with its mark when verified is set. */
static void cell_text(const class_cell *c, int verified, char *out, size_t n)
{
	if (!c->tries) strfmt(out, n, "-");
	else if (c->passed) strfmt(out, n, "%s %.2fx%s%s", c->late ? "late" : "passed", c->best, verified ? " " : "", verified ? mark(c) : "");
	else if (c->best > 0) strfmt(out, n, "%.2fx", c->best);
	else strfmt(out, n, "tried %d", c->tries);
}

void class_report_text(FILE *f, const class_table *t)
{
	const course *c = t->c;
	fprintf(f, "%s - ", c->id);
	fput_clean(f, c->title);
	fprintf(f, "\n%d students, %d exercises\n\n%-16s", t->nusers, c->nitems, "student");
	for (int i = 0; i < c->nitems; i++) fprintf(f, " %-18.18s", c->items[i].stage);
	fprintf(f, " %-9s %s\n", "passed", "last activity");
	for (int u = 0; u < t->nusers; u++) {
		char name[17], buf[40];
		strfmt(name, sizeof name, "%s", t->users[u]);
		fput_clean(f, name);
		fprintf(f, "%*s", 16 - (int)strlen(name), "");
		int passed = 0;
		for (int i = 0; i < c->nitems; i++) {
			const class_cell *cell = class_cell_at(t, u, i);
			cell_text(cell, t->verified, buf, sizeof buf);
			fprintf(f, " %-18s", buf);
			passed += cell->passed && cell->check != RESULT_REFUTED;
		}
		when(buf, sizeof buf, t->last[u]);
		fprintf(f, " %d/%-7d %s\n", passed, c->nitems, buf);
	}
	if (!t->nusers) { fputs("(no results yet in ", f); fput_clean(f, c->results); fputs(")\n", f); }
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
	fprintf(f, "student,uid,exercise,passed,late,best_ratio,tries,first_passed,last_activity,verified\n");
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
			fprintf(f, ",%d,%d,%.4f,%d,%s,%s,%s\n", cell->passed, cell->late, finite_ratio(cell->best), cell->tries, cell->first_pass ? a : "",
			        cell->last ? b : "", results_check_name(cell->check));
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
	fprintf(f, "], \"verify\": %s,\n\"students\": [", t->verified ? "true" : "false");
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
			fprintf(f, ": {\"passed\": %s, \"late\": %s, \"best_ratio\": %.4f, \"tries\": %d, \"first_passed\": %lld, \"last\": %lld, \"verified\": \"%s\"}",
			        cell->passed ? "true" : "false", cell->late ? "true" : "false", finite_ratio(cell->best), cell->tries, (long long)cell->first_pass,
			        (long long)cell->last, results_check_name(cell->check));
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

/* One exercise's leaderboard: the students' best correct ratios, fastest first, as SVG bars. */
static void html_chart(FILE *f, const class_table *t, int item)
{
	int *order = xcalloc((size_t)t->nusers + 1, sizeof *order), n = 0;
	double top = 1;
	for (int u = 0; u < t->nusers; u++) {
		double b = finite_ratio(class_cell_at(t, u, item)->best);
		if (b <= 0) continue;
		int k = n++;
		while (k > 0 && class_cell_at(t, order[k - 1], item)->best < b) { order[k] = order[k - 1]; k--; }
		order[k] = u;
		if (b > top) top = b;
	}
	double bar = t->c->items[item].pass > 0 && isfinite(t->c->items[item].pass) ? t->c->items[item].pass : 0;
	int h = 22 * (n ? n : 1) + 24;
	fprintf(f, "<svg class=\"chart\" width=\"700\" height=\"%d\" role=\"img\" aria-label=\"fastest correct kernels\">\n", h);
	if (!n) fprintf(f, "<text x=\"4\" y=\"16\">no correct kernel yet</text>\n");
	for (int k = 0; k < n; k++) {
		const class_cell *cell = class_cell_at(t, order[k], item);
		double w = 360 * finite_ratio(cell->best) / top;
		if (!(w >= 0)) w = 0;
		if (w > 360) w = 360;
		fprintf(f, "<text x=\"0\" y=\"%d\">", 22 * k + 15);
		html_text(f, t->users[order[k]]);
		fprintf(f, "</text><rect x=\"120\" y=\"%d\" width=\"%.1f\" height=\"16\" class=\"%s\"/><text x=\"%.1f\" y=\"%d\">%.2fx</text>\n",
		        22 * k + 3, w, cell->passed ? "pass" : "slow", 126 + w, 22 * k + 15, cell->best);
	}
	if (bar > 0) fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"0\" y2=\"%d\" class=\"bar\"/>\n", 120 + 360 * bar / top, 120 + 360 * bar / top, h - 20);
	fprintf(f, "<text x=\"120\" y=\"%d\" class=\"axis\">speed ratio to the stage's own kernel, same run%s</text>\n</svg>\n", h - 4,
	        bar > 0 ? "; the line is the course's bar" : "");
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
			char buf[40];
			cell_text(cell, 0, buf, sizeof buf);
			fprintf(f, "<td class=\"%s\" data-verified=\"%s\">%s%s%s</td>", cell->passed ? (cell->late ? "late" : "pass") : cell->tries ? "slow" : "",
			        results_check_name(cell->check), buf, cell->passed && t->verified ? " " : "",
			        cell->passed && t->verified ? (cell->check == RESULT_VERIFIED ? "&#10003; verified" : cell->check == RESULT_REFUTED ? "&#10007; refuted" : "? unverified") : "");
		}
		char last[40];
		when(last, sizeof last, t->last[u]);
		fprintf(f, "<td>%s</td></tr>\n", last);
	}
	fputs("</table>\n", f);
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
