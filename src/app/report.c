/* report: see report.h. Rows are formatted to fit 120 columns. */
#include "report.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "arch.h"
#include "claims.h"
#include "fmt.h"
#include "lesson_case.h"
#include "textvals.h"
#include "timeline.h"
#include "util.h"

/* The words of text[0..n) wrapped at 96 columns of text: the first line after first, the others
 * after rest. */
static void wrap_words(FILE *f, const char *first, const char *rest, const char *text, size_t n)
{
	int col = 0;
	fputs(first, f);
	for (const char *p = text, *end = text + n; p < end;) {
		while (p < end && strchr(" \t\n", *p)) p++;
		size_t w = 0;
		while (p + w < end && !strchr(" \t\n", p[w])) w++;
		if (!w) break;
		if (col && col + 1 + (int)w > 96) { fputc('\n', f); fputs(rest, f); col = 0; }
		else if (col) { fputc(' ', f); col++; }
		fwrite(p, 1, w, f);
		col += (int)w;
		p += w;
	}
	fputc('\n', f);
}

/* The width of a list marker at the start of line ("- " 2, "12. " 4), or 0. */
static size_t marker(const char *line)
{
	if (line[0] == '-' && line[1] == ' ') return 2;
	size_t d = strspn(line, "0123456789");
	return d && d < 4 && line[d] == '.' && line[d + 1] == ' ' ? d + 2 : 0;
}

static int blank(const char *line, size_t n) { return strspn(line, " \t") >= n; }

/* Lesson text: paragraphs (lines joined, blank lines between them kept) and list items ("- ", "1. ")
 * each on its own lines with a hanging indent; an item goes on over the indented lines after it. */
static void wrap(FILE *f, const char *indent, const char *text)
{
	const char *p = text ? text : "";
	int gap = 0;
	while (*p) {
		size_t len = strcspn(p, "\n");
		if (blank(p, len)) { gap = 1; p += len + (p[len] == '\n'); continue; }
		if (gap) fputc('\n', f);
		gap = 0;
		size_t m = marker(p);
		const char *start = p, *q = p + len + (p[len] == '\n');
		for (size_t k; *q; q += k + (q[k] == '\n')) {
			k = strcspn(q, "\n");
			if (blank(q, k) || marker(q) || (m && *q != ' ' && *q != '\t')) break;
		}
		char first[64], rest[64];
		strfmt(first, sizeof first, "%s%.*s", indent, (int)m, start);
		strfmt(rest, sizeof rest, "%s%*s", indent, (int)m, "");
		wrap_words(f, first, rest, start + m, (size_t)(q - start) - m);
		p = q;
	}
}

static const run_result *report_compiled;
static int report_ncompiled;

void report_use_compiled(const run_result *r, int n) { report_compiled = r; report_ncompiled = r ? n : 0; }

/* Stage s's compile alone, when show made one that knows its occupancy; else NULL. */
static const run_result *report_compiled_of(int s)
{
	return s >= 0 && s < report_ncompiled && report_compiled[s].occ_max_warps ? &report_compiled[s] : NULL;
}

/* Formatted whole, then written clean: a device name or a text may come from a file someone else wrote. */
void report_stage_texts(FILE *f, const lesson *l, int s, const claims_runs *live, const char *live_from,
                        const textvals_ref *ref)
{
	textvals_src src = { l, s, { NULL, NULL, NULL, NULL }, ref, live_from, report_compiled_of(s), NULL, 0 };
	if (live) src.live = *live;
	const lesson_stage *st = &l->stages[s];
	char *ex = NULL, *bn = NULL, note[512];
	textvals_stage_fill(&src, st->explain, st->bottleneck, &ex, &bn, note, sizeof note);
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (m) {
		wrap(m, "   ", ex);
		fprintf(m, "   Bottleneck:\n");
		wrap(m, "   ", bn);
		if (note[0]) {
			char *paren = xasprintf("(%s)", note);
			wrap(m, "   ", paren);
			free(paren);
		}
		fclose(m);
		fput_clean(f, text);
		free(text);
	}
	free(ex);
	free(bn);
}

/* The case show and run were asked for (--case), whose recording the texts' numbers come from. */
static const char *report_case;

void report_use_case(const char *name) { report_case = name; }

static textvals_ref *ref_find(const lesson *l) { return textvals_ref_find_lesson(l, report_case); }

void report_run_texts(FILE *f, const lesson *l, int s, const run_result *r, const device_info *d, const char *replayed)
{
	if (s < 0 || s >= l->nstages || (r->status != RUN_OK && r->status != RUN_WRONG)) return;
	const lesson_stage *st = &l->stages[s];
	if (!textvals_has(st->explain) && !textvals_has(st->bottleneck)) return;
	textvals_ref *ref = ref_find(l);
	claims_runs live = { r, NULL, NULL, d };
	const char *base = replayed ? strrchr(replayed, '/') : NULL;
	char *from = replayed ? xasprintf("the replayed file %s", base ? base + 1 : replayed) : NULL;
	fprintf(f, "\nThe text of %s:\n", st->id);
	report_stage_texts(f, l, s, &live, from, ref);
	free(from);
	textvals_ref_free(ref);
}
static void stage_text(FILE *f, const lesson *l, int i, const textvals_ref *ref);

static void lesson_text(FILE *f, const lesson *l)
{
	textvals_ref *ref = ref_find(l);
	fprintf(f, "%s - %s\n\n", l->id, l->title);
	wrap(f, "  ", l->summary);
	if (l->nread_first) {
		fprintf(f, "\nRead first:\n");
		for (int i = 0; i < l->nread_first; i++) fprintf(f, "  - %s\n", l->read_first[i]);
	}
	if (l->nparams) fprintf(f, "\nParameters:\n");
	for (int i = 0; i < l->nparams; i++) {
		const lesson_param *p = &l->params[i];
		fprintf(f, "  %-10s = %s%s%s%s%s\n", p->name, expr_source(p->def.e), p->min.e ? "  min " : "", p->min.e ? expr_source(p->min.e) : "",
		        p->max.e ? "  max " : "", p->max.e ? expr_source(p->max.e) : "");
		if (p->help) fprintf(f, "               %s\n", p->help);
	}
	for (int i = 0; i < l->ncases; i++) {
		const lesson_case *k = &l->cases[i];
		char set[256];
		lesson_case_describe(k, set, sizeof set);
		if (!i) fprintf(f, "\nCases (--case NAME, or C in the interface; the defaults are the case 'default'):\n");
		fprintf(f, "  %-12s %s%s\n", k->name, set, report_case && !strcasecmp(report_case, k->name) ? "   (shown)" : "");
		if (k->help) fprintf(f, "               %s\n", k->help);
	}
	if (l->baseline) fprintf(f, "\nBaseline: %s (%s)\n", l->baseline->title, l->baseline->library);
	for (int i = 0; i < l->nbaselines; i++) {   /* baselines: the named ones, and the stages that meet each */
		const lesson_baseline *b = l->baselines[i];
		fprintf(f, "%s  %s: %s (%s)", i ? "" : "\nNamed baselines (run LESSON/baseline.NAME; a stage with baseline: NAME is timed against it):\n",
		        b->id, b->title, b->library);
		int k = 0;
		for (int s = 0; s < l->nstages; s++)
			if (l->stages[s].baseline == LESSON_BASELINE(i)) fprintf(f, "%s%s", k++ ? ", " : "; stages: ", l->stages[s].id);
		fputc('\n', f);
	}
	for (int i = 0; i < l->nstages; i++) stage_text(f, l, i, ref);
	textvals_ref_free(ref);
}

/* Stage i of l: its title, kernel, tunables, needs, explanation and bottleneck (placeholders filled from
 * the reference recording ref, which may be NULL) and claims. */
static void stage_text(FILE *f, const lesson *l, int i, const textvals_ref *ref)
{
	const lesson_stage *s = &l->stages[i];
	fprintf(f, "\n%d. %s - %s   [%s, %s]\n", i + 1, s->id, s->title, s->kernel_rel, s->entry);
	for (int t = 0; t < s->ntunables; t++) {
		const lesson_tunable *tu = &s->tunables[t];
		if (tu->def_expr.e) fprintf(f, "   %s = %s  (", tu->name, expr_source(tu->def_expr.e));
		else fprintf(f, "   %s = %lld  (", tu->name, (long long)tu->def_num);
		for (int k = 0; k < tu->nvalues && k < 10; k++) fprintf(f, "%s%lld", k ? " " : "", (long long)tu->values[k]);
		fprintf(f, "%s)\n", tu->nvalues > 10 ? " ..." : "");
	}
	char need[32];
	if (arch_stage_needs(s->req_cc, s->req_arch, -1, need, sizeof need))   /* "needs sm_90a: ..." */
		fprintf(f, "   %s: %s%s\n", need, s->req_why ? s->req_why : "a newer GPU",
		        s->req_arch ? " (arch-specific code: it runs on that compute capability only, not on newer GPUs)" : "");
	else if (s->req_why) fprintf(f, "   needs: %s\n", s->req_why);
	char how[96];
	if (s->timing.set) fprintf(f, "   timed its own way (timing:), not the tool's: %s\n", stage_timing_text(&s->timing, how, sizeof how));
	fprintf(f, "\n");
	report_stage_texts(f, l, i, NULL, NULL, ref);
	if (s->nclaims) fprintf(f, "   Claims, checked on every run where they apply (expect:):\n");
	for (int k = 0; k < s->nclaims; k++) {
		const lesson_claim *cl = &s->claims[k];
		fprintf(f, "     %s%s%s%s\n", expr_source(cl->cond.e), cl->why ? "   (" : "", cl->why ? cl->why : "", cl->why ? ")" : "");
		/* where it applies (#46 item 4): its case and its condition, as the lesson says them */
		if (cl->when_case >= 0 && cl->when_case < l->ncases)
			fprintf(f, "       in case %s%s%s\n", l->cases[cl->when_case].name, cl->when.e ? ", when " : "", cl->when.e ? expr_source(cl->when.e) : "");
		else if (cl->when.e)
			fprintf(f, "       when %s\n", expr_source(cl->when.e));
	}
}

/* The lesson's compute peak (its model's peak:, checked when the lesson loaded). */
static peak_kind lesson_peak(const lesson *l) { return peak_of(l->peak); }

/* The distinct compute peaks of l's stages (each stage's own peak:, else the lesson's), in stage
 * order, into out (PEAK_COUNT entries); their count. */
static int lesson_peaks(const lesson *l, peak_kind *out)
{
	int n = 0;
	for (int s = LESSON_BASELINE(l->nbaselines - 1); s < l->nstages; s++) {   /* the named baselines, the lesson's, the stages */
		peak_kind p = peak_of(lesson_stage_peak(l, s));
		int seen = 0;
		for (int i = 0; i < n; i++) seen |= out[i] == p;
		if (!seen && n < PEAK_COUNT) out[n++] = p;
	}
	return n;
}

/* The attainable bandwidth the lesson's GB/s are compared with on d (its model's traffic:). */
static traffic_kind lesson_traffic(const lesson *l, const device_info *d) { return traffic_used(traffic_of(l->traffic), d); }

/* What %peak is a fraction of: "FP32 peak", "BF16 tensor peak", "copy attainable bandwidth", "read
 * attainable bandwidth", "PCIe attainable bandwidth (both directions)". */
static const char *peak_phrase(const lesson *l, score_metric m, const device_info *d)
{
	if (m == SCORE_GBPS)
		switch (lesson_traffic(l, d)) {
		case TRAFFIC_READ: return "read attainable bandwidth";
		case TRAFFIC_PCIE: return "PCIe attainable bandwidth: each direction at its pinned copy speed, for the stage's copies";
		default: return "copy attainable bandwidth";
		}
	peak_kind pk[PEAK_COUNT];
	if (lesson_peaks(l, pk) > 1) return "compute peak of each stage's number format";
	return peak_is_tensor(lesson_peak(l)) ? "BF16 tensor peak" : "FP32 peak";
}

void report_header(FILE *f, const lesson *l, const device_info *d)
{
	fprintf(f, "%s - ", l->id);
	fput_clean(f, l->title);
	fputc('\n', f);
	if (!d->present) {   /* why there are no numbers: on stderr, stdout stays for the results */
		fflush(f);
		fput_clean(stderr, d->why[0] ? d->why : "no GPU");
		fputc('\n', stderr);
		fputc('\n', f);
		return;
	}
	fput_clean(f, d->name);
	char l2[32], theo[32], att[32], gf[32];
	fprintf(f, " (%s, %d SMs, %s L2), peaks: %s theoretical, %s %s", d->arch, d->sm_count, fmt_bytes(l2, sizeof l2, d->l2_bytes),
	        fmt_gbps(theo, sizeof theo, d->bw_theoretical_gbps), fmt_gbps(att, sizeof att, traffic_gbps(lesson_traffic(l, d), d)),
	        traffic_label(lesson_traffic(l, d)));
	peak_kind pk[PEAK_COUNT];
	for (int i = 0, n = lesson_peaks(l, pk); i < n; i++)
		fprintf(f, ", %s %s", fmt_gflops(gf, sizeof gf, peak_gflops(pk[i], d)), peak_label(pk[i]));
	fputs("\n\n", f);
}

static const char *check_text(const run_result *r)
{
	if (r->status == RUN_OK) return r->checked ? "ok" : "-";
	return run_status_name(r->status);
}

/* The lesson's own figures, first its metric and its % of peak: GB/s %peak %theo [GFLOP/s] for a
 * memory-bound lesson (GFLOP/s only with a flops model), GFLOP/s %peak GB/s for a compute-bound one.
 * r NULL: the column heads. */
static void metric_cells(FILE *f, score_metric m, int has_flops, const run_result *r)
{
	char gb[16] = "-", gf[16] = "-", peak[16] = "-", theo[16] = "-";
	if (r && r->reps) {
		strfmt(gb, sizeof gb, "%.1f", r->gbps);
		if (r->flops > 0) strfmt(gf, sizeof gf, "%.1f", r->gflops);
		if (score_peak_frac(m, r) >= 0) strfmt(peak, sizeof peak, "%.1f%%", 100 * score_peak_frac(m, r));
		strfmt(theo, sizeof theo, "%.1f%%", r->pct_theoretical_bw);
	}
	if (!r) { strfmt(gb, sizeof gb, "GB/s"); strfmt(gf, sizeof gf, "GFLOP/s"); strfmt(peak, sizeof peak, "%%peak"); strfmt(theo, sizeof theo, "%%theo"); }
	if (m == SCORE_GFLOPS) fprintf(f, " %9s %6s %8s", gf, peak, gb);
	else if (has_flops) fprintf(f, " %8s %6s %6s %9s", gb, peak, theo, gf);
	else fprintf(f, " %8s %6s %6s", gb, peak, theo);
}

void report_row(FILE *f, const lesson *l, score_metric m, const run_result *r, int first, const run_result *base)
{
	int has_flops = l->flops.e != NULL;
	if (first) {
		fprintf(f, "%-14s %9s %17s", "stage", "median ms", "(min - max)");
		metric_cells(f, m, has_flops, NULL);
		fprintf(f, " %5s %-9s %4s %6s %5s %-8s %6s\n", "occ", "limiter", "regs", "smem", "spill", "check", "vs base");
	}
	char range[32] = "", ratio[16] = "", ms[16] = "-";
	if (r->reps) { strfmt(range, sizeof range, "(%.3f - %.3f)", r->ms_min, r->ms_max); fmt_ms_col(ms, sizeof ms, r->ms_median); }
	/* Timed alternately with the baseline: the per-pair median (3 decimals, the fairer figure); else the
	 * ratio of the two runs' separate medians (2 decimals). */
	if (!strcmp(r->pair, "baseline") && r->pair_ratio > 0) strfmt(ratio, sizeof ratio, "%.3fx", r->pair_ratio);
	else if (base && score_value(m, base) > 0 && score_value(m, r) > 0) strfmt(ratio, sizeof ratio, "%.2fx", score_value(m, r) / score_value(m, base));
	char occ[8] = "-", lim[16];
	if (r->occ_max_warps) strfmt(occ, sizeof occ, "%.0f%%", 100 * r->occ_theoretical);
	strfmt(lim, sizeof lim, "%.*s", (int)strcspn(r->occ_limiter, " "), r->occ_limiter);
	fput_clean(f, r->stage);
	fprintf(f, "%*s %9s %17s", 14 - (int)strlen(r->stage) > 0 ? 14 - (int)strlen(r->stage) : 0, "", ms, range);
	metric_cells(f, m, has_flops, r);
	fprintf(f, " %5s %-9.9s %4d %6lld %5d %-8s", occ, lim, r->regs, (long long)(r->static_smem + r->dynamic_smem),
	        r->spill_stores + r->spill_loads, check_text(r));
	if (r->reps) fprintf(f, " %6s%s", ratio, r->fits_l2 ? "  (fits in L2)" : "");
	/* A lesson with named baselines: which one the row's ratio is against. */
	if (r->reps && l->nbaselines && r->baseline[0] && ratio[0]) {
		fputs("  vs ", f);
		fput_clean(f, strncmp(r->baseline, "baseline.", 9) ? r->baseline : r->baseline + 9);
	}
	fputc('\n', f);
	fflush(f);
}

/* "30.4 TFLOP/s", "620 GFLOP/s", "2990 GB/s". */
static void score_text(char *buf, size_t n, score_metric m, double v)
{
	if (m == SCORE_GFLOPS) fmt_gflops(buf, n, v);
	else fmt_gbps(buf, n, v);
}

/* Prints text line by line, each line after prefix, with control characters made harmless. */
static void put_lines(FILE *f, const char *prefix, const char *text)
{
	for (const char *p = text; *p;) {
		size_t k = strcspn(p, "\n");
		char *line = xstrndup(p, k);
		fputs(prefix, f);
		fput_clean(f, line);
		fputc('\n', f);
		free(line);
		p += k + (p[k] == '\n');
	}
}

/* A stage with copies to or from the host: its bound and how far the run is from it, or why it has
 * none. 0 when the stage copies nothing. */
static int bound_line(const run_result *r, const device_info *d, char *buf, size_t n)
{
	timeline_bound b;
	if (timeline_bound_of(r, d, &b) == 0) {
		timeline_bound_text(&b, buf, n);
		return 1;
	}
	if (!(r->h2d_bytes > 0) && !(r->d2h_bytes > 0)) return 0;
	char h[24], o[24];
	strfmt(buf, n, "copies %s h2d and %s d2h; no bound recorded (it needs the device's measured copy bandwidth)",
	       fmt_traffic(h, sizeof h, r->h2d_bytes > 0 ? r->h2d_bytes : 0), fmt_traffic(o, sizeof o, r->d2h_bytes > 0 ? r->d2h_bytes : 0));
	return 1;
}

static void footer_notes(FILE *f, const device_info *d, const run_result *rs, int n)
{
	int notes = 0;
	for (int i = 0; i < n; i++) {
		const run_result *r = &rs[i];
		char head[80];
		strfmt(head, sizeof head, "%s: ", r->stage);
		if ((r->status == RUN_NO_GPU || r->status == RUN_RUNNER_ERROR) && !d->present && !strcmp(r->message, d->why))
			continue;   /* said once, on stderr, by report_header */
		if (r->status != RUN_OK || (r->checked && !r->passed) || r->message[0]) {
			if (!notes++) fputc('\n', f);
			put_lines(f, head, r->message[0] ? r->message : run_status_name(r->status));
			if (r->status == RUN_COMPILE_ERROR && r->log) put_lines(f, "", r->log);
		}
		if (r->status == RUN_OK && r->checked && r->passed) {
			if (!notes++) fputc('\n', f);
			fput_clean(f, head);
			fputs("checked against the reference", f);
			if (r->reference[0]) { fputs(" (", f); fput_clean(f, r->reference); fputc(')', f); }
			fprintf(f, ": max abs error %.3g, max rel error %.3g, norm-wise rel error %.3g\n", r->max_abs_err, r->max_rel_err,
			        r->norm_rel_err);
		}
		if (r->status == RUN_OK && r->reps && r->timing[0]) {
			/* a lesson that shows a naive method: its number is never mistaken for the tool's */
			if (!notes++) fputc('\n', f);
			fput_clean(f, head);
			fputs("timed by the stage's own method, not the tool's: ", f);
			fput_clean(f, r->timing);
			fputc('\n', f);
		}
		char bound[256];
		if (r->status == RUN_OK && bound_line(r, d, bound, sizeof bound)) {
			if (!notes++) fputc('\n', f);
			fput_clean(f, head);
			fprintf(f, "%s\n", bound);
		}
	}
}

static void footer_counters(FILE *f, const run_result *rs, int n)
{
	int counted = 0;
	for (int i = 0; i < n; i++) {
		const run_result *r = &rs[i];
		if (r->achieved_occupancy < 0 || r->status != RUN_OK) continue;
		if (!counted++)
			fprintf(f, "\nHardware counters (CUPTI, separate profiled runs; %d passes each):\n%-14s %9s %9s %8s %8s %7s %7s %9s %9s %6s %6s %8s  %s\n",
			        r->counter_passes, "stage", "achv occ", "theo occ", "DRAM/mdl", "DRAM %", "L2 hit", "L1 hit", "bank ld", "bank st",
			        "warp", "pred", "TC inst", "top stalls");
		double dram = r->dram_bytes_read + r->dram_bytes_write;
		char theo[16] = "-";
		if (r->occ_max_warps) strfmt(theo, sizeof theo, "%.1f%%", 100 * r->occ_theoretical);
		fput_clean(f, r->stage);
		/* lanes with their predicate on, and tensor-pipe instructions: "-" where this GPU gave none */
		char pred[16] = "-", tc[16] = "-";
		if (r->warp_efficiency_pred_on >= 0) strfmt(pred, sizeof pred, "%.1f", r->warp_efficiency_pred_on);
		/* the counter is not 0 without tensor instructions (16.8M on an integer reduction on an H100), so
		 * it is shown only where the SASS has some: "none" where it has none, "?" after it unchecked */
		if (r->tensor_sass == 0) strfmt(tc, sizeof tc, "none");
		else if (r->tensor_inst >= 0) strfmt(tc, sizeof tc, r->tensor_inst < 1e6 ? "%.0f%s" : "%.3g%s", r->tensor_inst, r->tensor_sass < 0 ? "?" : "");
		fprintf(f, "%*s %8.1f%% %9s %7.2fx %7.1f%% %6.1f%% %6.1f%% %9.0f %9.0f %6.1f %6s %8s  ", 14 - (int)strlen(r->stage) > 0 ? 14 - (int)strlen(r->stage) : 0, "",
		        100 * r->achieved_occupancy, theo, r->bytes > 0 ? dram / r->bytes : 0, r->dram_pct, r->l2_hit_pct, r->l1_hit_pct,
		        r->smem_conflicts_ld, r->smem_conflicts_st, r->warp_efficiency, pred, tc);
		fput_clean(f, r->stalls);
		fputc('\n', f);
	}
	if (counted)
		fprintf(f, "TC inst: tensor-pipe instructions counted; \"none\": no tensor instruction in the SASS, \"?\": SASS not read (no nvdisasm)\n");
	for (int i = 0; i < n && !counted; i++)
		if (rs[i].counters_note[0]) { fputs("\nNo hardware counters: ", f); fput_clean(f, rs[i].counters_note); fputc('\n', f); break; }
	int diag = 0;
	for (int i = 0; i < n; i++) {
		if (!rs[i].findings.n) continue;
		if (!diag++) fprintf(f, "\nDiagnosis (assets/rules.yaml over the counters):\n");
		char head[80], line[sizeof rs[i].findings.f[0].text + 64];
		strfmt(head, sizeof head, "  %-12s ", rs[i].stage);
		for (int k = 0; k < rs[i].findings.n; k++) {
			diag_finding_line(&rs[i].findings.f[k], line, sizeof line);
			put_lines(f, head, line);
		}
	}
}

/* "1.020x [1.010, 1.030]": the per-pair ratio's median, p20 and p80; "-" without a pair. */
static const char *pair_text(char *buf, size_t n, const run_result *r)
{
	if (r->pair_ratio > 0) strfmt(buf, n, "%.3fx [%.3f, %.3f]", r->pair_ratio, r->pair_ratio_p20, r->pair_ratio_p80);
	else strfmt(buf, n, "-");
	return buf;
}

/* A clock or FLOP/cycle figure, "-" when not measured (-1). */
static const char *opt_text(char *buf, size_t n, const char *fmt, double v)
{
	if (v > 0) strfmt(buf, n, fmt, v);
	else strfmt(buf, n, "-");
	return buf;
}

/* The timing of each timed run: its metric beside its SM clock and FLOP per cycle per SM, and, where a
 * pair was timed with it, the ratio per pair and the pair's own time, clock and FLOP/cycle; then how the
 * times were taken (docs/how-it-works.md "How the times are taken") and the inputs. */
static void footer_timing(FILE *f, const lesson *l, score_metric m, const device_info *d, const run_result *rs, int n)
{
	int rows = 0, flush = -1, pairs = 0, clocked = 0, powered = 0, held = 0, gave_up = 0;
	const run_result *first = NULL;
	for (int i = 0; i < n; i++) {
		const run_result *r = &rs[i];
		if (r->status != RUN_OK || !r->reps) continue;
		if (!rows++) {
			first = r;
			fprintf(f, "\nTiming (FLOP/cyc: per SM per cycle; pair: what was timed alternately with the stage):\n");
			fprintf(f, "%-14s %4s %9s %18s %10s %9s  %-8s %-26s %9s %6s %9s\n", "stage", "reps", m == SCORE_GFLOPS ? "TFLOP/s" : "GB/s",
			        "SM MHz (min-max)", "W (max)", "FLOP/cyc", "pair", "pair/this per pair [p20,p80]", "pair ms", "MHz", "FLOP/cyc");
		}
		char v[24], clk[40] = "-", pw[32] = "-", fpc[24], pr[48], pms[24], pmhz[16], pfpc[24];
		strfmt(v, sizeof v, m == SCORE_GFLOPS ? "%.1f" : "%.0f", m == SCORE_GFLOPS ? r->gflops / 1000 : r->gbps);
		if (r->sm_clock_mhz > 0) strfmt(clk, sizeof clk, "%.0f (%.0f-%.0f)", r->sm_clock_mhz, r->sm_clock_min_mhz, r->sm_clock_max_mhz);
		if (r->power_w > 0) strfmt(pw, sizeof pw, "%.0f (%.0f)", r->power_w, r->power_max_w);
		fput_clean(f, r->stage);
		fprintf(f, "%*s %4d %9s %18s %10s %9s  ", 14 - (int)strlen(r->stage) > 0 ? 14 - (int)strlen(r->stage) : 0, "", r->reps, v, clk,
		        pw, opt_text(fpc, sizeof fpc, "%.1f", r->flop_per_cycle_sm));
		fput_clean(f, r->pair[0] ? r->pair : "-");
		fprintf(f, "%*s %-26s %9s %6s %9s\n", 8 - (int)strlen(r->pair[0] ? r->pair : "-") > 0 ? 8 - (int)strlen(r->pair[0] ? r->pair : "-") : 0, "",
		        pair_text(pr, sizeof pr, r), opt_text(pms, sizeof pms, "%.4f", r->pair_ms_median),
		        opt_text(pmhz, sizeof pmhz, "%.0f", r->pair_sm_clock_mhz), opt_text(pfpc, sizeof pfpc, "%.1f", r->pair_flop_per_cycle_sm));
		if (r->l2_flush >= 0) flush = flush < 0 ? r->l2_flush : flush != r->l2_flush ? 2 : flush;
		held += r->launch_hold == 1;
		gave_up += r->launch_hold == 2;
		pairs += r->pair_ratio > 0;
		clocked += r->sm_clock_mhz > 0;
		powered += r->power_w > 0;
	}
	if (!rows) return;
	fprintf(f, "Method: CUDA events around each repetition, after a warm-up (3 runs and 25 ms at least); medians over the\n"
	           "repetitions; outputs poisoned before each");
	if (pairs) fprintf(f, ";\na stage and its pair alternate (stage pair pair stage ...), each pair giving the ratio pair time / stage\n"
	                      "time (above 1: the stage is faster); the table's \"vs base\" is that median where the pair was the\n"
	                      "baseline (3 decimals), else the ratio of the separate medians (2 decimals)");
	if (flush == 3) fprintf(f, ";\nL2 emptied before each repetition, outside the events: after the outputs' poisoning, a read of\n"
	                           "%.0f MB (2x its size) evicts what the last run and the poisoning left, so that no run pays for\n"
	                           "writing back another's dirty lines", 2 * d->l2_bytes / 1e6);
	else if (flush == 1) fprintf(f, ";\nL2 flushed before each repetition, outside the events, by writing %.0f MB (2x its size)", 2 * d->l2_bytes / 1e6);
	else if (flush == 0) fprintf(f, ";\nL2 not flushed apart: the outputs' poisoning writes at least twice its size before each repetition");
	else if (flush == 2) fprintf(f, ";\nL2 flushed before each repetition (2x its size, outside the events) where the outputs' poisoning writes less");
	if (held || gave_up) fprintf(f, ";\nthe start event queued behind a kernel that holds the GPU until the host has queued the\n"
	                                "repetition's launches, so that the host's time to queue them is not timed%s",
	                                gave_up ? " (in some rows the hold\ngave up, the host blocking inside its launches: those rows were timed without it)" : "");
	if (clocked) fprintf(f, ";\nSM clock read through NVML once each repetition has started, before waiting for its end");
	if (powered) fprintf(f, ";\nboard power (W: median and highest) read through NVML beside the clock; on Ampere and later (but\n"
	                        "the A100) NVML averages it over the last second, so a run much shorter than that reads what came before");
	if (clocked && l->flops.e) fprintf(f, ";\nFLOP/cycle = the model's flops / (median time x median SM clock x %d SMs)", d->sm_count);
	fputs(".\n", f);
	if (!clocked)
		for (int i = 0; i < n; i++)
			if (rs[i].clock_note[0]) { fput_clean(f, rs[i].clock_note); fputc('\n', f); break; }
	if (clocked && !powered)   /* the clock but no power: say why once */
		for (int i = 0; i < n; i++)
			if (rs[i].power_note[0]) { fput_clean(f, rs[i].power_note); fputc('\n', f); break; }
	if (first->inputs[0]) { fputs("Inputs: ", f); fput_clean(f, first->inputs); fputs(".\n", f); }
	for (int i = 0; i < n; i++)   /* what each baseline's library chose (timed once per GPU and shape, then kept) */
		if (rs[i].library_choice[0]) {
			fputs("Library (", f);
			fput_clean(f, rs[i].stage);
			fputs("): ", f);
			fput_clean(f, rs[i].library_choice);
			fputs(".\n", f);
		}
}

/* "Fastest stage: warptile at 30.4 TFLOP/s (45.4% of the FP32 peak), 0.72x the baseline (...)". */
static void footer_fastest(FILE *f, const lesson *l, score_metric m, const device_info *d, const run_result *rs, int n)
{
	const run_result *base = NULL, *best = NULL;
	for (int i = 0; i < n; i++)
		if (strncmp(rs[i].stage, "baseline", 8) && rs[i].status == RUN_OK && rs[i].reps && rs[i].checked &&
		    !rs[i].timing[0] /* timed the tool's way */ && (!best || score_value(m, &rs[i]) > score_value(m, best))) best = &rs[i];
	/* The fastest stage's own baseline (baseline: NAME, else the lesson's). */
	for (int i = 0; best && i < n; i++)
		if (!strcmp(rs[i].stage, best->baseline[0] ? best->baseline : "baseline")) base = &rs[i];
	if (!best || n < 2 || score_value(m, best) <= 0) return;
	char v[32], pct[16];
	score_text(v, sizeof v, m, score_value(m, best));
	fputs("\nFastest stage: ", f);
	fput_clean(f, best->stage);
	fprintf(f, " at %s", v);
	fmt_pct(pct, sizeof pct, score_peak_frac(m, best));
	if (score_peak_frac(m, best) >= 0) {
		/* A lesson with several peaks: the one of the fastest stage's own number format. */
		int s = lesson_stage_index(l, best->stage);
		peak_kind pk[PEAK_COUNT];
		if (m != SCORE_GBPS && lesson_peaks(l, pk) > 1 && s >= 0)
			fprintf(f, " (%s of the %s peak)", pct, peak_label(peak_of(lesson_stage_peak(l, s))));
		else
			fprintf(f, " (%s of the %s)", pct, peak_phrase(l, m, d));
	}
	if (base && base->status == RUN_OK && score_value(m, base) > 0) {
		fprintf(f, ", %.2fx the baseline (", score_value(m, best) / score_value(m, base));
		fput_clean(f, best->baseline_title[0] ? best->baseline_title : l->baseline ? l->baseline->title : "baseline");
		fputs(") in the same run", f);
	}
	char pr[48];
	if (!strcmp(best->pair, "baseline") && best->pair_ratio > 0) fprintf(f, "; %s per pair, timed alternately", pair_text(pr, sizeof pr, best));
	fputs(".\n", f);
}

void report_footer(FILE *f, const lesson *l, score_metric m, const device_info *d, const run_result *rs, int n)
{
	footer_notes(f, d, rs, n);
	footer_counters(f, rs, n);
	footer_timing(f, l, m, d, rs, n);
	footer_fastest(f, l, m, d, rs, n);
	if (n && rs[0].reps) {
		const lesson_expr *model = m == SCORE_GFLOPS ? &l->flops : &l->bytes;
		fprintf(f, "\n%s counts the lesson's model (%s %s).\n",
		        score_unit(m), model->e ? expr_source(model->e) : "?", m == SCORE_GFLOPS ? "flops" : "bytes");
		char r1[32], r2[32];
		fprintf(f, "Peaks (%%peak is of the %s): theoretical %s (", peak_phrase(l, m, d), fmt_gbps(r1, sizeof r1, d->bw_theoretical_gbps));
		fput_clean(f, d->bw_theoretical_src);
		fprintf(f, "); copy attainable %s (", fmt_gbps(r1, sizeof r1, d->bw_attainable_gbps));
		fput_clean(f, d->bw_attainable_src);
		if (d->bw_read_gbps > 0) {
			fprintf(f, "); read attainable %s (", fmt_gbps(r1, sizeof r1, d->bw_read_gbps));
			fput_clean(f, d->bw_read_src);
		}
		if (lesson_traffic(l, d) == TRAFFIC_PCIE)
			fprintf(f, "); PCIe %s to the device, %s back (%s", fmt_gbps(r1, sizeof r1, d->h2d_gbps), fmt_gbps(r2, sizeof r2, d->d2h_gbps),
			        traffic_source(TRAFFIC_PCIE, d));
		peak_kind pk[PEAK_COUNT];
		for (int i = 0, np = lesson_peaks(l, pk); i < np; i++) {
			fprintf(f, "); %s %s (", peak_label(pk[i]), fmt_gflops(r1, sizeof r1, peak_gflops(pk[i], d)));
			fput_clean(f, peak_source(pk[i], d));
		}
		fprintf(f, ").\nSeed %llu; settings: ", (unsigned long long)rs[0].seed);
		fput_clean(f, rs[0].settings);
		fputc('\n', f);
	}
}

void report_claims(FILE *f, const lesson *l, const int *stages, const run_result *rs, int n, const device_info *d)
{
	int total[CLAIM_STATE_COUNT] = {0}, any = 0;
	/* Only stages that ran to a result: a refused or GPU-less run checks nothing. */
	for (int i = 0; i < n; i++)
		any |= stages[i] >= 0 && l->stages[stages[i]].nclaims > 0 && (rs[i].status == RUN_OK || rs[i].status == RUN_WRONG);
	if (!any) return;
	claim_outcome o[64];
	for (int i = 0; i < n; i++) {
		if (rs[i].status != RUN_OK && rs[i].status != RUN_WRONG) continue;
		int k = claims_check_set(l, stages, rs, n, i, d, o, 64), c[CLAIM_STATE_COUNT];
		claims_count(o, k, c);
		for (int j = 0; j < CLAIM_STATE_COUNT; j++) total[j] += c[j];
	}
	fprintf(f, "\nClaims of the text (expect: in %s.yaml), checked against these runs: %d hold, %d contradicted, %d unknown\n",
	        l->id, total[CLAIM_HOLDS], total[CLAIM_CONTRADICTED], total[CLAIM_UNKNOWN]);
	for (int i = 0; i < n; i++) {
		if (rs[i].status != RUN_OK && rs[i].status != RUN_WRONG) continue;
		int k = claims_check_set(l, stages, rs, n, i, d, o, 64);
		for (int j = 0; j < k; j++) {
			const char *src = expr_source(o[j].claim->cond.e);
			fprintf(f, "  %-12s %-12s ", j ? "" : l->stages[stages[i]].id,
			        o[j].state == CLAIM_CONTRADICTED ? "CONTRADICTED" : claims_state_name(o[j].state));
			fput_clean(f, src);
			fprintf(f, "%*s  ", 38 - (int)strlen(src) > 0 ? 38 - (int)strlen(src) : 0, "");
			fput_clean(f, o[j].values);
			if (o[j].state == CLAIM_UNKNOWN && o[j].why[0]) { fputs("  (", f); fput_clean(f, o[j].why); fputc(')', f); }
			fputc('\n', f);
			if (o[j].state == CLAIM_CONTRADICTED && o[j].claim->why) {
				fprintf(f, "  %-12s %-12s the text: ", "", "");
				fput_clean(f, o[j].claim->why);
				fputc('\n', f);
			}
		}
	}
}

/* Formatted whole, then written with every control character from the lesson file made harmless. */
void report_lesson(FILE *f, const lesson *l)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m) { lesson_text(f, l); return; }
	lesson_text(m, l);
	fclose(m);
	fput_clean(f, text);
	free(text);
}

/* The kernel file's summary: its lines, and each line that declares a kernel (__global__). */
static void source_summary(FILE *f, const lesson_stage *s)
{
	size_t len = 0;
	char *src = file_read(s->kernel_path, &len);
	if (!src) { fprintf(f, "\nSource: %s (cannot be read)\n", s->kernel_rel); return; }
	int lines = 0;
	for (size_t i = 0; i < len; i++) lines += src[i] == '\n';
	fprintf(f, "\nSource: %s, %d lines; its kernels:\n", s->kernel_rel, lines);
	int n = 1;
	for (char *p = src; *p; n++) {
		size_t k = strcspn(p, "\n");
		char *hit = strstr(p, "__global__");
		if (hit && hit < p + k) fprintf(f, "  %4d  %.*s\n", n, (int)(k > 100 ? 100 : k), p + strspn(p, " \t"));
		p += k + (p[k] == '\n');
	}
	free(src);
}

void report_stage(FILE *f, const lesson *l, int stage)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m) return;
	fprintf(m, "%s - %s\n", l->id, l->title);
	textvals_ref *ref = ref_find(l);
	stage_text(m, l, stage, ref);
	textvals_ref_free(ref);
	source_summary(m, &l->stages[stage]);
	fclose(m);
	fput_clean(f, text);
	free(text);
}

int report_check_lesson_error(const run_result *r)
{
	return r->status == RUN_COMPILE_ERROR && (!strcmp(r->issue, "signature") || !strcmp(r->issue, "no_kernel")
	                                          || !strcmp(r->issue, "constant"));
}

void report_check_row(FILE *f, const char *arch, const lesson *l, const run_result *r, int idw, int stw)
{
	char occ[64] = "-";
	if (r->occ_max_warps) strfmt(occ, sizeof occ, "%3.0f%% (%s)", 100 * r->occ_theoretical, r->occ_limiter);
	fprintf(f, "%-7s %-*s ", arch, idw, l->id);
	fput_clean(f, r->stage);
	fprintf(f, "%*s ", stw - (int)strlen(r->stage) > 0 ? stw - (int)strlen(r->stage) : 0, "");
	if (r->status == RUN_OK) {
		fprintf(f, "ok    regs %3d  smem %6lld  spill %4d  stack %4d  occupancy %s%s", r->regs,
		        (long long)(r->static_smem + r->dynamic_smem), r->spill_stores + r->spill_loads, r->stack_bytes, occ,
		        r->cached ? "" : "  (compiled)");
		if (r->message[0] && strcmp(r->message, "compiled")) { fputs("  (", f); fput_clean(f, r->message); fputc(')', f); }
		fputc('\n', f);
		return;
	}
	if (report_check_lesson_error(r)) {   /* the kernel compiled: the compiler's log says nothing of it */
		fputs("lesson error: ", f);
		fput_clean(f, r->message);
		fputc('\n', f);
		return;
	}
	fprintf(f, "%-5s ", run_status_name(r->status));
	fput_clean(f, r->message);
	fputc('\n', f);
	if (r->status == RUN_COMPILE_ERROR && r->log) fput_clean(f, r->log);
}

void report_check_summary(FILE *f, const char *archs, const check_counts *n)
{
	fprintf(f, "\ncheck: %d kernel%s for %s: %d ok", n->rows, n->rows == 1 ? "" : "s", archs, n->ok);
	if (n->unsupported) fprintf(f, ", %d need another GPU", n->unsupported);
	if (n->failed) fprintf(f, ", %d did not compile", n->failed);
	if (n->lesson_errors) fprintf(f, ", %d lesson error%s (a kernel that does not fit its stage)", n->lesson_errors,
	                              n->lesson_errors == 1 ? "" : "s");
	if (n->load_errors) fprintf(f, "; %d lesson file%s did not load", n->load_errors, n->load_errors == 1 ? "" : "s");
	fputs(n->failed || n->lesson_errors || n->load_errors ? "\n" : "; all good\n", f);
}

/* One peak of the device: its value and where it comes from, or "not recorded" when a recording
 * (--replay) or an older file has neither, rather than "0.0 GB/s ()". */
static void peak_line(FILE *f, const char *label, double v, int flops, const char *src)
{
	char t[32];
	if (v <= 0 && !src[0]) { fprintf(f, "  %s not recorded\n", label); return; }
	if (v <= 0) fprintf(f, "  %s%12s  (", label, "unknown");   /* a rate no table or attribute gives */
	else fprintf(f, "  %s%12s  (", label, flops ? fmt_gflops(t, sizeof t, v) : fmt_gbps(t, sizeof t, v));
	fput_clean(f, src);
	fputs(")\n", f);
}

void report_device(FILE *f, const device_info *d)
{
	if (!d->present) { fput_clean(f, d->why); fputc('\n', f); return; }
	fprintf(f, "GPU %d: ", d->index);
	fput_clean(f, d->name);
	fprintf(f, " (%s, compute capability %d.%d), uuid %s\n", d->arch, d->cc / 10, d->cc % 10, d->uuid);
	char mem[32], l2[32];
	fprintf(f, "  %d SMs at %d MHz; %s memory at %d MHz on a %d-bit bus; L2 %s\n", d->sm_count, d->clock_mhz,
	        fmt_bytes(mem, sizeof mem, (double)d->global_mem), d->mem_clock_mhz, d->bus_width, fmt_bytes(l2, sizeof l2, (double)d->l2_bytes));
	fprintf(f, "  limits: %d threads/block, %d threads/SM, %d blocks/SM, %d registers/SM, %lld bytes shared/block (opt-in), %lld shared/SM\n",
	        d->max_threads_per_block, d->max_threads_per_sm, d->max_blocks_per_sm, d->regs_per_sm, (long long)d->smem_per_block_optin,
	        (long long)d->smem_per_sm);
	if (d->limits_src[0]) { fputs("  limits from: ", f); fput_clean(f, d->limits_src); fputc('\n', f); }
	peak_line(f, "DRAM bandwidth, theoretical: ", d->bw_theoretical_gbps, 0, d->bw_theoretical_src);
	peak_line(f, "DRAM bandwidth, copy:        ", d->bw_attainable_gbps, 0, d->bw_attainable_src);
	peak_line(f, "DRAM bandwidth, read:        ", d->bw_read_gbps, 0, d->bw_read_src);
	peak_line(f, "FP32:                        ", d->fp32_gflops, 1, d->fp32_src);
	peak_line(f, "BF16 tensor cores:           ", d->bf16_tensor_gflops, 1, d->tensor_src);
	peak_line(f, "FP16 tensor cores:           ", d->fp16_tensor_gflops, 1, d->fp16_src);
	peak_line(f, "TF32 tensor cores:           ", d->tf32_tensor_gflops, 1, d->tf32_src);
	peak_line(f, "FP8 tensor cores:            ", d->fp8_tensor_gflops, 1, d->fp8_src);
	peak_line(f, "INT8 tensor cores:           ", d->int8_tensor_gops, 1, d->int8_src);
	peak_line(f, "FP64 (FMA units):            ", d->fp64_gflops, 1, d->fp64_src);
	fprintf(f, "  driver %d, runtime %d\n", d->driver_version, d->runtime_version);
	if (d->why[0]) { fputs("  ", f); fput_clean(f, d->why); fputc('\n', f); }   /* how the GPU was chosen */
}

static void step_row(FILE *f, int i, const run_step *s)
{
	char g[40] = "-", b[40] = "-", regs[16] = "-", ms[24], start[24], end[24], by[24];
	timeline_kind k = timeline_kind_of(s);
	if (!strcmp(s->kind, "launch")) {
		strfmt(g, sizeof g, "%u,%u,%u", s->grid[0], s->grid[1], s->grid[2]);
		strfmt(b, sizeof b, "%u,%u,%u", s->block[0], s->block[1], s->block[2]);
	} else if (s->bytes > 0) {             /* a copy's direction and bytes, a memset's bytes */
		strfmt(g, sizeof g, "%s%s%s", k == TL_MEMSET ? "" : timeline_kind_name(k), k == TL_MEMSET ? "" : " ",
		       fmt_traffic(by, sizeof by, (double)s->bytes));
	}
	if (s->regs > 0) strfmt(regs, sizeof regs, "%d", s->regs);
	fprintf(f, "  %-3d %-6s ", i + 1, s->kind);
	fput_clean(f, s->entry);
	int w = (int)strlen(s->entry);
	fprintf(f, "%*s %6d %-16s %-12s %8lld %5s %9s %9s %9s\n", w < 24 ? 24 - w : 0, "", s->stream, g, b,
	        (long long)s->dynamic_smem, regs, fmt_ms_col(ms, sizeof ms, s->ms_median),
	        fmt_ms_col(start, sizeof start, s->start_ms), fmt_ms_col(end, sizeof end, s->end_ms));
}

/* "36 h2d copies, 36 kernels, 36 d2h copies" over steps [from, to). */
static void kinds_text(const run_result *r, int from, int to, char *buf, size_t n)
{
	static const char *const one[TL_KIND_COUNT] = { "h2d copy", "d2h copy", "d2d copy", "kernel", "memset" };
	static const char *const many[TL_KIND_COUNT] = { "h2d copies", "d2h copies", "d2d copies", "kernels", "memsets" };
	int count[TL_KIND_COUNT] = {0};
	for (int i = from; i < to; i++)   /* a record: or wait: step is no work */
		if (strcmp(r->steps[i].kind, "record") && strcmp(r->steps[i].kind, "wait")) count[timeline_kind_of(&r->steps[i])]++;
	sb b = {0};
	sb_add(&b, "");
	static const timeline_kind order[] = { TL_H2D, TL_MEMSET, TL_KERNEL, TL_D2D, TL_D2H };
	for (size_t j = 0; j < sizeof order / sizeof *order; j++) {
		int c = count[order[j]];
		if (c) sb_addf(&b, "%s%d %s", b.len ? ", " : "", c, c == 1 ? one[order[j]] : many[order[j]]);
	}
	char *t = sb_take(&b);
	strfmt(buf, n, "%s", t);
	free(t);
}

enum { STEPS_ALL = 24, STEPS_HEAD = 16, STEPS_TAIL = 4 };

void report_steps(FILE *f, const run_result *r, const device_info *d, int utf8)
{
	if (r->nsteps < 2) return;
	timeline_stats st;
	timeline_stats_of(r, &st);
	char kinds[160];
	kinds_text(r, 0, r->nsteps, kinds, sizeof kinds);
	fprintf(f, "\nSteps of %s: %s", r->stage, kinds);
	if (st.nstreams > 1) fprintf(f, " on %d streams", st.nstreams);
	if (r->nsteps >= RUN_MAX_STEPS) fprintf(f, " (the record keeps the first %d steps)", RUN_MAX_STEPS);
	fprintf(f, "\n  medians in ms; start and end from the stage's start\n");
	fprintf(f, "  %-3s %-6s %-24s %6s %-16s %-12s %8s %5s %9s %9s %9s\n", "#", "kind", "name", "stream", "grid or bytes", "block",
	        "dyn smem", "regs", "ms", "start", "end");
	int cut = r->nsteps > STEPS_ALL;      /* many steps: the first and the last, the rest counted */
	for (int i = 0; i < r->nsteps; i++) {
		if (cut && i == STEPS_HEAD) {
			int to = r->nsteps - STEPS_TAIL;
			kinds_text(r, i, to, kinds, sizeof kinds);
			fprintf(f, "  ... steps %d to %d: %s (run --json lists every step)\n", i + 1, to, kinds);
			i = to - 1;
			continue;
		}
		step_row(f, i, &r->steps[i]);
	}
	if (st.nstreams > 1 && st.ntimed) {
		fprintf(f, "\nTimeline of %s, one row per stream (from the events around each step):\n", r->stage);
		timeline_print(f, r, d, 80, utf8 ? TIMELINE_UTF8 : 0);
	}
}
