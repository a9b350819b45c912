/* report_hotspots: see report_hotspots.h. */
#include "report_hotspots.h"
#include <stdlib.h>
#include <string.h>
#include "json.h"
#include "util.h"

enum { TOP_INSNS = 10 };
#define REASONS_AT 0.05   /* lines with at least this share get their stall reasons printed */

int hot_view_make(hot_view *v, const lesson_stage *st, const run_result *r)
{
	char err[512];
	memset(v, 0, sizeof *v);
	strfmt(v->note, sizeof v->note, "%s", r->hotspots ? r->hotspots_note : "");
	strfmt(v->cubin, sizeof v->cubin, "%s", r->cubin);
	strfmt(v->arch, sizeof v->arch, "%s", r->arch);
	if (r->status != RUN_OK && r->status != RUN_WRONG) {
		strfmt(v->why, sizeof v->why, "no hotspots: the sampling run did not happen (%s: %s)", run_status_name(r->status),
		       r->message[0] ? r->message : "no message");
		return -1;
	}
	if (!r->hotspots) {
		strfmt(v->why, sizeof v->why, "no hotspots: %s", r->hotspots_note[0] ? r->hotspots_note : "no program-counter samples came back");
		return -1;
	}
	if (hot_parse(r->hotspots, &v->s, err, sizeof err)) {
		strfmt(v->why, sizeof v->why, "no hotspots: the samples the worker sent do not parse (%s)", err);
		return -1;
	}
	if (!v->s.sampled) {
		strfmt(v->why, sizeof v->why, "no hotspots: no sample fell in the stage's kernels (%llu in all)", (unsigned long long)v->s.total);
		return -1;
	}
	char *text = r->cubin[0] ? sass_disassemble(r->cubin, err, sizeof err) : NULL;
	if (!text) {
		strfmt(v->why, sizeof v->why, "no hotspots: %s", r->cubin[0] ? err : "the result names no compiled code");
		return -1;
	}
	sass_parse(text, &v->sass);
	free(text);
	v->src_path = xstrdup(st->kernel_path);
	v->src = file_read(st->kernel_path, NULL);
	for (char *p = v->src; p && *p;) {
		v->lines = xrealloc(v->lines, (size_t)(v->nlines + 1) * sizeof *v->lines);
		v->lines[v->nlines++] = p;
		char *nl = strchr(p, '\n');
		if (!nl) break;
		*nl = 0;
		p = nl + 1;
	}
	if (hot_map_make(&v->map, &v->s, &v->sass, v->src_path, v->nlines)) {
		strfmt(v->why, sizeof v->why, "no hotspots: out of memory");
		return -1;
	}
	return 0;
}

void hot_view_free(hot_view *v)
{
	hot_map_free(&v->map);
	hot_samples_free(&v->s);
	sass_free(&v->sass);
	free(v->lines);
	free(v->src);
	free(v->src_path);
	memset(v, 0, sizeof *v);
}

int hot_view_hottest(const hot_view *v)
{
	int best = 0;
	for (int i = 1; i <= v->map.nlines; i++)
		if (v->map.line[i].samples && (!best || v->map.line[i].samples > v->map.line[best].samples)) best = i;
	return best;
}

/* A bar of ten cells for a share: '#' per tenth, '.' for a share under one. */
static void bar(char *out, double share, uint64_t samples)
{
	int n = (int)(share * 10 + 0.5);
	memset(out, ' ', 10);
	out[10] = 0;
	if (samples && !n) out[0] = '.';
	for (int i = 0; i < n && i < 10; i++) out[i] = '#';
}

/* The instruction indices with samples, the most first (at most max). */
static int hottest_insns(const hot_view *v, int *idx, int max)
{
	int n = 0;
	for (int i = 0; i < v->map.ninsn; i++) {
		uint64_t s = v->map.insn[i].samples;
		if (!s || (n == max && v->map.insn[idx[n - 1]].samples >= s)) continue;
		int at = n < max ? n++ : max - 1;
		idx[at] = i;
		for (int k = at; k > 0 && v->map.insn[idx[k]].samples > v->map.insn[idx[k - 1]].samples; k--) {
			int t = idx[k];
			idx[k] = idx[k - 1];
			idx[k - 1] = t;
		}
	}
	return n;
}

/* The function an instruction belongs to. */
static const char *func_of(const sass_listing *l, int i)
{
	for (int f = 0; f < l->nfuncs; f++)
		if (i >= l->funcs[f].first && i < l->funcs[f].first + l->funcs[f].count) return l->funcs[f].name;
	return "?";
}

void report_hotspots(FILE *f, const hot_view *v, const char *what)
{
	char b[16], reasons[512];
	fputs("\nHotspots", f);
	if (what) { fputs(" of ", f); fput_clean(f, what); }
	if (v->why[0]) {
		fputs(": ", f);
		fput_clean(f, v->why + (strncmp(v->why, "no hotspots: ", 13) ? 0 : 13));
		fputc('\n', f);
		return;
	}
	fprintf(f, " (%s): %llu samples of the program counter, in runs of their own after the timed ones", v->arch,
	        (unsigned long long)v->map.total);
	if (v->s.dropped) fprintf(f, "; %llu dropped", (unsigned long long)v->s.dropped);
	fputc('\n', f);
	if (v->note[0]) { fputs("note: ", f); fput_clean(f, v->note); fputc('\n', f); }
	fprintf(f, "\n share  heat        line\n");
	for (int i = 1; i <= v->nlines; i++) {
		const hot_tally *t = i <= v->map.nlines ? &v->map.line[i] : NULL;
		double share = t ? hot_share(&v->map, t) : 0;
		if (t && t->samples) {
			bar(b, share, t->samples);
			fprintf(f, "%5.1f%%  %s %4d | ", 100 * share, b, i);
		} else {
			fprintf(f, "%6s  %10s %4d | ", "", "", i);
		}
		fput_clean(f, v->lines[i - 1]);
		fputc('\n', f);
		if (t && t->samples && share >= REASONS_AT && hot_reasons_text(&v->s, &v->map, t, 3, 0, reasons, sizeof reasons)[0])
			fprintf(f, "%6s  %10s %4s |   ^ %s\n", "", "", "", reasons);
	}
	double elsewhere = hot_share(&v->map, &v->map.elsewhere), lost = v->map.total ? (double)v->map.unmatched / (double)v->map.total : 0;
	if (v->map.elsewhere.samples) fprintf(f, "%5.1f%% of the samples are on lines of other files, or on none\n", 100 * elsewhere);
	if (v->map.unmatched) fprintf(f, "%5.1f%% of the samples are at addresses this listing lacks\n", 100 * lost);
	int idx[TOP_INSNS], n = hottest_insns(v, idx, TOP_INSNS);
	if (!n) return;
	fprintf(f, "\nHottest instructions (SASS from nvdisasm):\n share  function+offset       line  instruction\n");
	for (int k = 0; k < n; k++) {
		const sass_insn *in = &v->sass.insn[idx[k]];
		const hot_tally *t = &v->map.insn[idx[k]];
		char where[160], line[16] = "-";
		strfmt(where, sizeof where, "%s+%04x", func_of(&v->sass, idx[k]), in->offset);
		if (in->line > 0) strfmt(line, sizeof line, "%d", in->line);
		fprintf(f, "%5.1f%%  ", 100 * hot_share(&v->map, t));
		fput_clean(f, where);
		fprintf(f, "%*s %5s  ", (int)strlen(where) < 20 ? 20 - (int)strlen(where) : 0, "", line);
		fput_clean(f, in->text);
		fputc('\n', f);
		if (hot_reasons_text(&v->s, &v->map, t, 3, 0, reasons, sizeof reasons)[0]) fprintf(f, "%35s ^ %s\n", "", reasons);
	}
}

/* "stalls": [{"reason", "words", "samples", "share"}...], the most first. */
static void json_stalls(FILE *f, const hot_view *v, const hot_tally *t)
{
	int idx[256], n = hot_top(&v->map, t, idx, v->map.nreasons < 256 ? v->map.nreasons : 256);
	fputs("\"stalls\": [", f);
	for (int k = 0; k < n; k++) {
		const char *name = v->s.reasons[idx[k]], *w = hot_reason_words(name);
		fprintf(f, "%s{\"reason\": ", k ? ", " : "");
		json_string(f, name);
		fputs(", \"words\": ", f);
		json_string(f, w ? w : name);
		fprintf(f, ", \"samples\": %llu, \"share\": %.4f}", (unsigned long long)t->by[idx[k]], hot_reason_share(&v->map, t, idx[k]));
	}
	fputc(']', f);
}

void report_hotspots_json(FILE *f, const hot_view *v, const char *what)
{
	fputs("{\"stage\": ", f);
	json_string(f, what ? what : "");
	fputs(", \"note\": ", f);
	json_string(f, v->note);
	if (v->why[0]) {
		fputs(", \"why\": ", f);
		json_string(f, v->why);
		fputs("}", f);
		return;
	}
	fputs(", \"arch\": ", f);
	json_string(f, v->arch);
	fprintf(f, ", \"samples\": %llu, \"total\": %llu, \"dropped\": %llu, \"other\": %llu, \"elsewhere\": %llu, \"unmatched\": %llu,\n\"lines\": [",
	        (unsigned long long)v->map.total, (unsigned long long)v->s.total, (unsigned long long)v->s.dropped,
	        (unsigned long long)v->s.other, (unsigned long long)v->map.elsewhere.samples, (unsigned long long)v->map.unmatched);
	int k = 0;
	for (int i = 1; i <= v->map.nlines; i++) {
		const hot_tally *t = &v->map.line[i];
		if (!t->samples) continue;
		fprintf(f, "%s\n {\"line\": %d, \"text\": ", k++ ? "," : "", i);
		json_string(f, i <= v->nlines ? v->lines[i - 1] : "");
		fprintf(f, ", \"samples\": %llu, \"share\": %.4f, ", (unsigned long long)t->samples, hot_share(&v->map, t));
		json_stalls(f, v, t);
		fputc('}', f);
	}
	fputs("],\n\"instructions\": [", f);
	k = 0;
	for (int i = 0; i < v->map.ninsn; i++) {
		const hot_tally *t = &v->map.insn[i];
		const sass_insn *in = &v->sass.insn[i];
		if (!t->samples) continue;
		fprintf(f, "%s\n {\"function\": ", k++ ? "," : "");
		json_string(f, func_of(&v->sass, i));
		fprintf(f, ", \"offset\": %d, \"line\": %d, \"text\": ", in->offset, in->line);
		json_string(f, in->text);
		fprintf(f, ", \"samples\": %llu, \"share\": %.4f, ", (unsigned long long)t->samples, hot_share(&v->map, t));
		json_stalls(f, v, t);
		fputc('}', f);
	}
	fputs("]}", f);
}

void report_hotspots_result(FILE *f, const lesson *l, int stage, const run_result *r, int json)
{
	hot_view v;
	char what[160];
	strfmt(what, sizeof what, "%s/%s", l->id, stage >= 0 ? l->stages[stage].id : "baseline");
	if (stage < 0) {
		memset(&v, 0, sizeof v);
		strfmt(v.why, sizeof v.why, "no hotspots: the baseline is a library call, with no code of ours to sample");
	} else {
		hot_view_make(&v, &l->stages[stage], r);
	}
	if (json) report_hotspots_json(f, &v, what);
	else report_hotspots(f, &v, what);
	hot_view_free(&v);
}
