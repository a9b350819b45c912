/* report: see report.h. Rows are formatted to fit 120 columns. */
#include "report.h"
#include <string.h>
#include "util.h"

static void wrap(FILE *f, const char *indent, const char *text)
{
	int col = 0;
	const char *p = text;
	fputs(indent, f);
	while (*p) {
		size_t w = strcspn(p, " \n");
		if (col && col + (int)w > 96) { fprintf(f, "\n%s", indent); col = 0; }
		fprintf(f, "%.*s", (int)w, p);
		col += (int)w;
		p += w;
		if (*p == '\n' && p[1] == '\n') { fprintf(f, "\n\n%s", indent); col = 0; p += 2; continue; }
		if (*p) { if (col) { fputc(' ', f); col++; } p++; }
	}
	fputc('\n', f);
}

void report_lesson(FILE *f, const lesson *l)
{
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
	if (l->baseline) fprintf(f, "\nBaseline: %s (%s)\n", l->baseline->title, l->baseline->library);
	for (int i = 0; i < l->nstages; i++) {
		const lesson_stage *s = &l->stages[i];
		fprintf(f, "\n%d. %s - %s   [%s, %s]\n", i + 1, s->id, s->title, s->kernel_rel, s->entry);
		for (int t = 0; t < s->ntunables; t++) {
			const lesson_tunable *tu = &s->tunables[t];
			fprintf(f, "   %s = %lld  (", tu->name, (long long)tu->def);
			for (int k = 0; k < tu->nvalues && k < 10; k++) fprintf(f, "%s%lld", k ? " " : "", (long long)tu->values[k]);
			fprintf(f, "%s)\n", tu->nvalues > 10 ? " ..." : "");
		}
		if (s->req_why) fprintf(f, "   needs: %s\n", s->req_why);
		fprintf(f, "\n");
		wrap(f, "   ", s->explain);
		fprintf(f, "   Bottleneck:\n");
		wrap(f, "   ", s->bottleneck);
	}
}

void report_header(FILE *f, const lesson *l, const device_info *d)
{
	fprintf(f, "%s - %s\n", l->id, l->title);
	if (d->present)
		fprintf(f, "%s (%s, %d SMs, %.0f MiB L2), peaks: %.0f GB/s theoretical, %.0f GB/s attainable, %.0f GFLOP/s FP32\n\n",
		        d->name, d->arch, d->sm_count, d->l2_bytes / 1048576.0, d->bw_theoretical_gbps, d->bw_attainable_gbps, d->fp32_gflops);
	else
		fprintf(f, "%s\n\n", d->why[0] ? d->why : "no GPU");
}

static const char *check_text(const run_result *r)
{
	if (r->status == RUN_OK) return r->checked ? "ok" : "-";
	return run_status_name(r->status);
}

void report_row(FILE *f, const lesson *l, const run_result *r, int first, const run_result *base)
{
	if (first)
		fprintf(f, "%-14s %9s %17s %8s %6s %6s %9s %5s %-9s %4s %6s %5s %-8s %6s\n", "stage", "median ms", "(min - max)", "GB/s",
		        "%theo", "%attn", "GFLOP/s", "occ", "limiter", "regs", "smem", "spill", "check", "vs base");
	char range[32] = "", ratio[16] = "";
	if (r->reps) strfmt(range, sizeof range, "(%.3f - %.3f)", r->ms_min, r->ms_max);
	if (base && base->gbps > 0 && r->gbps > 0) strfmt(ratio, sizeof ratio, "%.2fx", r->gbps / base->gbps);
	char occ[8] = "-", lim[16], gfl[16] = "-";
	if (r->occ_max_warps) strfmt(occ, sizeof occ, "%.0f%%", 100 * r->occ_theoretical);
	strfmt(lim, sizeof lim, "%.*s", (int)strcspn(r->occ_limiter, " "), r->occ_limiter);
	if (r->flops > 0) strfmt(gfl, sizeof gfl, "%.1f", r->gflops);
	if (r->reps)
		fprintf(f, "%-14s %9.4f %17s %8.1f %5.1f%% %5.1f%% %9s %5s %-9.9s %4d %6lld %5d %-8s %6s%s\n", r->stage, r->ms_median, range,
		        r->gbps, r->pct_theoretical_bw, r->pct_attainable_bw, gfl, occ, lim, r->regs,
		        (long long)(r->static_smem + r->dynamic_smem), r->spill_stores + r->spill_loads, check_text(r), ratio,
		        r->fits_l2 ? "  (fits in L2)" : "");
	else
		fprintf(f, "%-14s %9s %17s %8s %6s %6s %9s %5s %-9.9s %4d %6lld %5d %-8s\n", r->stage, "-", "", "-", "-", "-", "-", occ,
		        lim, r->regs, (long long)(r->static_smem + r->dynamic_smem), r->spill_stores + r->spill_loads, check_text(r));
	fflush(f);
}

void report_footer(FILE *f, const lesson *l, const device_info *d, const run_result *rs, int n)
{
	int notes = 0;
	for (int i = 0; i < n; i++) {
		const run_result *r = &rs[i];
		if (r->status != RUN_OK || (r->checked && !r->passed)) {
			if (!notes++) fputc('\n', f);
			fprintf(f, "%s: %s\n", r->stage, r->message);
			if (r->status == RUN_COMPILE_ERROR && r->log) fprintf(f, "%s\n", r->log);
		} else if (r->checked) {
			if (!notes++) fputc('\n', f);
			fprintf(f, "%s: checked against the reference: max abs error %.3g, max rel error %.3g\n", r->stage, r->max_abs_err, r->max_rel_err);
		}
	}
	int counted = 0;
	for (int i = 0; i < n; i++) {
		const run_result *r = &rs[i];
		if (r->achieved_occupancy < 0 || r->status != RUN_OK) continue;
		if (!counted++)
			fprintf(f, "\nHardware counters (CUPTI, separate profiled runs; %d passes each):\n%-14s %9s %9s %8s %8s %7s %7s %9s %9s %6s  %s\n",
			        r->counter_passes, "stage", "achv occ", "theo occ", "DRAM/mdl", "DRAM %", "L2 hit", "L1 hit", "bank ld", "bank st",
			        "warp", "top stalls");
		double dram = r->dram_bytes_read + r->dram_bytes_write;
		char theo[16] = "-";
		if (r->occ_max_warps) strfmt(theo, sizeof theo, "%.1f%%", 100 * r->occ_theoretical);
		fprintf(f, "%-14s %8.1f%% %9s %7.2fx %7.1f%% %6.1f%% %6.1f%% %9.0f %9.0f %6.1f  %s\n", r->stage, 100 * r->achieved_occupancy,
		        theo, r->bytes > 0 ? dram / r->bytes : 0, r->dram_pct, r->l2_hit_pct, r->l1_hit_pct,
		        r->smem_conflicts_ld, r->smem_conflicts_st, r->warp_efficiency, r->stalls);
	}
	for (int i = 0; i < n && !counted; i++)
		if (rs[i].counters_note[0]) { fprintf(f, "\nNo hardware counters: %s\n", rs[i].counters_note); break; }
	int diag = 0;
	for (int i = 0; i < n; i++) {
		if (!rs[i].diagnosis[0]) continue;
		if (!diag++) fprintf(f, "\nDiagnosis (assets/rules.yaml over the counters):\n");
		const char *p = rs[i].diagnosis;
		while (*p) {
			size_t k = strcspn(p, "\n");
			fprintf(f, "  %-12s %.*s\n", rs[i].stage, (int)k, p);
			p += k + (p[k] == '\n');
		}
	}
	const run_result *base = NULL, *best = NULL;
	for (int i = 0; i < n; i++) {
		if (!strcmp(rs[i].stage, "baseline")) base = &rs[i];
		else if (rs[i].status == RUN_OK && rs[i].reps && rs[i].checked && (!best || rs[i].ms_median < best->ms_median)) best = &rs[i];
	}
	if (base && best && base->status == RUN_OK && base->gbps > 0) {
		char fl[48] = "";
		if (best->flops > 0) strfmt(fl, sizeof fl, " (%.1f GFLOP/s)", best->gflops);
		fprintf(f, "\nFastest stage: %s at %.1f GB/s%s, %.2fx the baseline (%s) in the same run.\n", best->stage, best->gbps, fl,
		        best->gbps / base->gbps, l->baseline ? l->baseline->title : "baseline");
	}
	if (n && rs[0].reps) {
		fprintf(f, "\nGB/s counts the lesson's model (%s bytes); median of timed runs with CUDA events after warm-up, outputs poisoned before each.\n",
		        l->bytes.e ? expr_source(l->bytes.e) : "?");
		fprintf(f, "Peaks: theoretical %.0f GB/s (%s); attainable %.0f GB/s (%s); FP32 %.0f GFLOP/s (%s).\n", d->bw_theoretical_gbps,
		        d->bw_theoretical_src, d->bw_attainable_gbps, d->bw_attainable_src, d->fp32_gflops, d->fp32_src);
		fprintf(f, "Seed %llu; settings: %s\n", (unsigned long long)rs[0].seed, rs[0].settings);
	}
}

void report_check_row(FILE *f, const char *arch, const lesson *l, const run_result *r)
{
	char occ[64] = "-";
	if (r->occ_max_warps) strfmt(occ, sizeof occ, "%3.0f%% (%s)", 100 * r->occ_theoretical, r->occ_limiter);
	if (r->status == RUN_OK)
		fprintf(f, "%-7s %-12s %-14s ok    regs %3d  smem %6lld  spill %4d  stack %4d  occupancy %s%s\n", arch, l->id, r->stage, r->regs,
		        (long long)(r->static_smem + r->dynamic_smem), r->spill_stores + r->spill_loads, r->stack_bytes, occ,
		        r->cached ? "" : "  (compiled)");
	else
		fprintf(f, "%-7s %-12s %-14s %-5s %s\n%s", arch, l->id, r->stage, run_status_name(r->status), r->message,
		        r->status == RUN_COMPILE_ERROR && r->log ? r->log : "");
}

void report_device(FILE *f, const device_info *d)
{
	if (!d->present) { fprintf(f, "%s\n", d->why); return; }
	fprintf(f, "GPU %d: %s (%s, compute capability %d.%d), uuid %s\n", d->index, d->name, d->arch, d->cc / 10, d->cc % 10, d->uuid);
	fprintf(f, "  %d SMs at %d MHz; %.1f GiB memory at %d MHz on a %d-bit bus; L2 %.0f MiB\n", d->sm_count, d->clock_mhz,
	        d->global_mem / 1073741824.0, d->mem_clock_mhz, d->bus_width, d->l2_bytes / 1048576.0);
	fprintf(f, "  limits: %d threads/block, %d threads/SM, %d blocks/SM, %d registers/SM, %lld bytes shared/block (opt-in), %lld shared/SM\n",
	        d->max_threads_per_block, d->max_threads_per_sm, d->max_blocks_per_sm, d->regs_per_sm, (long long)d->smem_per_block_optin,
	        (long long)d->smem_per_sm);
	fprintf(f, "  DRAM bandwidth, theoretical: %8.1f GB/s  (%s)\n", d->bw_theoretical_gbps, d->bw_theoretical_src);
	fprintf(f, "  DRAM bandwidth, attainable:  %8.1f GB/s  (%s)\n", d->bw_attainable_gbps, d->bw_attainable_src);
	fprintf(f, "  FP32:                        %8.1f GFLOP/s  (%s)\n", d->fp32_gflops, d->fp32_src);
	fprintf(f, "  BF16 tensor cores:           %8.1f GFLOP/s  (%s)\n", d->bf16_tensor_gflops, d->tensor_src);
	fprintf(f, "  driver %d, runtime %d\n", d->driver_version, d->runtime_version);
}
