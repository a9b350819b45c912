/* result: field tables for run_result and device_info, and their text form ("name value" lines). */
#include "result.h"
#include <stdlib.h>
#include <string.h>
#include "util.h"

#define F(T, name, type) { #name, type, offsetof(T, name), sizeof(((T *)0)->name) }
#define R(name, type) F(run_result, name, type)
const field run_result_fields[] = {
	R(lesson, FT_STR), R(stage, FT_STR), R(title, FT_STR), R(status, FT_STATUS), R(message, FT_STR),
	R(settings, FT_STR), { "case", FT_STR, offsetof(run_result, case_name), sizeof(((run_result *)0)->case_name) },
	R(reference, FT_STR), R(regs, FT_INT), R(spill_stores, FT_INT), R(spill_loads, FT_INT),
	R(stack_bytes, FT_INT), R(cached, FT_BOOL), R(static_smem, FT_I64), R(dynamic_smem, FT_I64),
	R(compile_ms, FT_DBL), R(arch, FT_STR), R(cubin, FT_STR), R(grid, FT_U3), R(block, FT_U3), R(occ_blocks, FT_INT),
	R(occ_warps, FT_INT), R(occ_max_warps, FT_INT), R(occ_theoretical, FT_DBL), R(occ_limiter, FT_STR),
	R(occ_api_blocks, FT_INT), R(reps, FT_INT), R(ms_median, FT_DBL), R(ms_min, FT_DBL),
	R(ms_max, FT_DBL), R(bytes, FT_DBL), R(flops, FT_DBL), R(working_set, FT_DBL), R(gbps, FT_DBL),
	R(gflops, FT_DBL), R(pct_theoretical_bw, FT_DBL), R(pct_attainable_bw, FT_DBL), R(attainable, FT_STR),
	R(pct_compute_peak, FT_DBL), R(fits_l2, FT_BOOL), R(h2d_bytes, FT_DBL), R(d2h_bytes, FT_DBL),
	R(kernel_ms, FT_DBL), R(bound_ms, FT_DBL), R(checked, FT_BOOL), R(passed, FT_BOOL),
	R(max_abs_err, FT_DBL), R(max_rel_err, FT_DBL), R(norm_rel_err, FT_DBL),
	R(bad_count, FT_I64), R(first_bad, FT_I64),
	R(nan_count, FT_I64), R(unwritten, FT_I64), R(issue, FT_STR), R(seed, FT_U64), R(pair_ms_median, FT_DBL),
	R(pair_ratio, FT_DBL), R(pair_ratio_p20, FT_DBL), R(pair_ratio_p80, FT_DBL), R(decided_early, FT_BOOL),
	R(pair, FT_STR), R(baseline, FT_STR), R(baseline_title, FT_STR), R(sm_clock_mhz, FT_DBL), R(sm_clock_min_mhz, FT_DBL), R(sm_clock_max_mhz, FT_DBL),
	R(pair_sm_clock_mhz, FT_DBL), R(flop_per_cycle_sm, FT_DBL), R(pair_flop_per_cycle_sm, FT_DBL),
	R(library_choice, FT_STR), R(clock_note, FT_STR), R(power_w, FT_DBL), R(power_max_w, FT_DBL), R(power_note, FT_STR), R(l2_flush, FT_INT), R(launch_hold, FT_INT), R(inputs, FT_STR), R(timing, FT_STR),
	R(achieved_occupancy, FT_DBL), R(dram_bytes_read, FT_DBL),
	R(dram_bytes_write, FT_DBL), R(dram_pct, FT_DBL), R(l1_hit_pct, FT_DBL), R(l2_hit_pct, FT_DBL),
	R(smem_conflicts_ld, FT_DBL), R(smem_conflicts_st, FT_DBL), R(warp_efficiency, FT_DBL),
	R(branch_uniform_pct, FT_DBL), R(sm_pct, FT_DBL), R(tensor_pct, FT_DBL),
	R(warp_efficiency_pred_on, FT_DBL), R(tensor_inst, FT_DBL), R(tensor_sass, FT_DBL), R(smem_wavefronts, FT_DBL), R(l1_pct, FT_DBL), R(gld_sectors_per_request, FT_DBL),
	R(stalls, FT_STR),
	R(counter_passes, FT_INT), R(counter_ms, FT_DBL), R(counters_note, FT_STR),
	{ "diagnosis", FT_FINDINGS, offsetof(run_result, findings), sizeof(run_findings) },
	R(sanitizer, FT_STR), R(hotspots_note, FT_STR), R(runner, FT_STR),
};
const int run_result_nfields = (int)(sizeof run_result_fields / sizeof run_result_fields[0]);

#define S(name, type) F(run_step, name, type)
const field run_step_fields[] = {
	S(kind, FT_STR), S(entry, FT_STR), S(stream, FT_INT), S(grid, FT_U3), S(block, FT_U3), S(dynamic_smem, FT_I64),
	S(regs, FT_INT), S(static_smem, FT_I64), S(ms_median, FT_DBL), S(start_ms, FT_DBL), S(end_ms, FT_DBL),
	S(dir, FT_STR), S(bytes, FT_I64),
};
const int run_step_nfields = (int)(sizeof run_step_fields / sizeof run_step_fields[0]);

#define D(name, type) F(device_info, name, type)
const field device_info_fields[] = {
	D(present, FT_BOOL), D(why, FT_STR), D(index, FT_INT), D(name, FT_STR), D(uuid, FT_STR),
	D(arch, FT_STR), D(cc, FT_INT), D(sm_count, FT_INT), D(clock_mhz, FT_INT), D(mem_clock_mhz, FT_INT),
	D(bus_width, FT_INT), D(l2_bytes, FT_I64), D(global_mem, FT_I64), D(smem_per_block_optin, FT_I64),
	D(smem_per_sm, FT_I64), D(max_threads_per_block, FT_INT), D(max_threads_per_sm, FT_INT),
	D(max_blocks_per_sm, FT_INT), D(regs_per_sm, FT_INT), D(regs_per_block, FT_INT), D(warp_size, FT_INT),
	D(copy_engines, FT_INT), D(smem_per_block, FT_I64), D(smem_reserved_per_block, FT_I64), D(limits_src, FT_STR),
	D(bw_theoretical_gbps, FT_DBL), D(bw_theoretical_src, FT_STR), D(bw_attainable_gbps, FT_DBL),
	D(bw_attainable_src, FT_STR), D(bw_read_gbps, FT_DBL), D(bw_read_src, FT_STR), D(h2d_gbps, FT_DBL), D(d2h_gbps, FT_DBL), D(fp32_gflops, FT_DBL), D(fp32_src, FT_STR),
	D(bf16_tensor_gflops, FT_DBL), D(tensor_src, FT_STR), D(fp64_gflops, FT_DBL), D(fp64_src, FT_STR),
	D(tf32_tensor_gflops, FT_DBL), D(tf32_src, FT_STR), D(fp16_tensor_gflops, FT_DBL), D(fp16_src, FT_STR),
	D(fp8_tensor_gflops, FT_DBL), D(fp8_src, FT_STR), D(int8_tensor_gops, FT_DBL), D(int8_src, FT_STR),
	D(driver_version, FT_INT),
	D(runtime_version, FT_INT),
};
const int device_info_nfields = (int)(sizeof device_info_fields / sizeof device_info_fields[0]);

static const struct { const char *name, *label; size_t gflops, src; int tensor; } peaks[PEAK_COUNT] = {
	[PEAK_FP32] = { "fp32", "FP32", offsetof(device_info, fp32_gflops), offsetof(device_info, fp32_src), 0 },
	[PEAK_BF16_TENSOR] = { "bf16_tensor", "BF16 tensor", offsetof(device_info, bf16_tensor_gflops),
	                       offsetof(device_info, tensor_src), 1 },
	[PEAK_FP64] = { "fp64", "FP64", offsetof(device_info, fp64_gflops), offsetof(device_info, fp64_src), 0 },
	[PEAK_TF32_TENSOR] = { "tf32_tensor", "TF32 tensor", offsetof(device_info, tf32_tensor_gflops),
	                       offsetof(device_info, tf32_src), 1 },
	[PEAK_FP16_TENSOR] = { "fp16_tensor", "FP16 tensor", offsetof(device_info, fp16_tensor_gflops),
	                       offsetof(device_info, fp16_src), 1 },
	[PEAK_FP8_TENSOR] = { "fp8_tensor", "FP8 tensor", offsetof(device_info, fp8_tensor_gflops),
	                      offsetof(device_info, fp8_src), 1 },
	/* integer operations, counted like flops (2 per multiply-add) */
	[PEAK_INT8_TENSOR] = { "int8_tensor", "INT8 tensor", offsetof(device_info, int8_tensor_gops),
	                       offsetof(device_info, int8_src), 1 },
};

int peak_parse(const char *name)
{
	if (!name) return PEAK_FP32;
	for (int i = 0; i < PEAK_COUNT; i++)
		if (!strcmp(name, peaks[i].name)) return i;
	return -1;
}

peak_kind peak_of(const char *name) { return peak_parse(name) < 0 ? PEAK_FP32 : (peak_kind)peak_parse(name); }

static peak_kind peak_valid(peak_kind p) { return (unsigned)p < PEAK_COUNT ? p : PEAK_FP32; }
const char *peak_name(peak_kind p) { return peaks[peak_valid(p)].name; }
const char *peak_label(peak_kind p) { return peaks[peak_valid(p)].label; }
int peak_is_tensor(peak_kind p) { return peaks[peak_valid(p)].tensor; }

double peak_gflops(peak_kind p, const device_info *d)
{
	return *(const double *)((const char *)d + peaks[peak_valid(p)].gflops);
}

const char *peak_source(peak_kind p, const device_info *d)
{
	return (const char *)d + peaks[peak_valid(p)].src;
}

static const struct { const char *name, *label; size_t gbps, src; } traffics[TRAFFIC_COUNT] = {
	[TRAFFIC_COPY] = { "copy", "copy attainable", offsetof(device_info, bw_attainable_gbps), offsetof(device_info, bw_attainable_src) },
	[TRAFFIC_READ] = { "read", "read attainable", offsetof(device_info, bw_read_gbps), offsetof(device_info, bw_read_src) },
	/* two figures, h2d_gbps and d2h_gbps (traffic_gbps adds them); no source field of its own */
	[TRAFFIC_PCIE] = { "pcie", "PCIe attainable", offsetof(device_info, h2d_gbps), 0 },
};

int traffic_parse(const char *name)
{
	if (!name) return TRAFFIC_COPY;
	for (int i = 0; i < TRAFFIC_COUNT; i++)
		if (!strcmp(name, traffics[i].name)) return i;
	return -1;
}

traffic_kind traffic_of(const char *name) { return traffic_parse(name) < 0 ? TRAFFIC_COPY : (traffic_kind)traffic_parse(name); }

static traffic_kind traffic_valid(traffic_kind t) { return (unsigned)t < TRAFFIC_COUNT ? t : TRAFFIC_COPY; }
const char *traffic_name(traffic_kind t) { return traffics[traffic_valid(t)].name; }
const char *traffic_label(traffic_kind t) { return traffics[traffic_valid(t)].label; }

traffic_kind traffic_used(traffic_kind t, const device_info *d)
{
	t = traffic_valid(t);
	if (t == TRAFFIC_PCIE) return d->h2d_gbps > 0 && d->d2h_gbps > 0 ? t : TRAFFIC_COPY;
	return *(const double *)((const char *)d + traffics[t].gbps) > 0 ? t : TRAFFIC_COPY;
}

double traffic_gbps(traffic_kind t, const device_info *d)
{
	t = traffic_used(t, d);
	if (t == TRAFFIC_PCIE) return d->h2d_gbps + d->d2h_gbps;
	return *(const double *)((const char *)d + traffics[t].gbps);
}

double traffic_run_gbps(traffic_kind t, const device_info *d, double h2d_bytes, double d2h_bytes)
{
	if (traffic_used(t, d) != TRAFFIC_PCIE) return traffic_gbps(t, d);
	/* no libm here: the fake worker links this file alone (tests/cli/fake_worker.sh) */
	double h = h2d_bytes > 0 && h2d_bytes < 1e300 ? h2d_bytes : 0, o = d2h_bytes > 0 && d2h_bytes < 1e300 ? d2h_bytes : 0;
	double up = h / d->h2d_gbps, down = o / d->d2h_gbps, s = up > down ? up : down;   /* bytes over GB/s */
	return s > 0 ? (h + o) / s : traffic_gbps(t, d);
}

const char *traffic_source(traffic_kind t, const device_info *d)
{
	t = traffic_used(t, d);
	if (t == TRAFFIC_PCIE) return "calibration: pinned cudaMemcpyAsync to the device and back, each direction alone";
	return (const char *)d + traffics[t].src;
}

static const char *status_names[RUN_STATUS_COUNT] = {
	"ok", "wrong", "refused", "compile_error", "unsupported", "fault", "hang", "crash", "no_gpu", "runner_error",
};

const char *run_status_name(run_status s)
{
	return (unsigned)s < RUN_STATUS_COUNT ? status_names[s] : "?";
}

static const char *status_words[RUN_STATUS_COUNT] = {
	"ran", "wrong result", "refused", "did not compile", "needs another GPU", "faulted", "hung", "crashed",
	"no GPU to run on", "runner failed",
};

const char *run_status_words(run_status s, const char *message)
{
	if (s == RUN_NO_GPU && message && strstr(message, "not in the replay file")) return "not in the recording";
	return (unsigned)s < RUN_STATUS_COUNT ? status_words[s] : "?";
}

int run_status_parse(const char *s)
{
	for (int i = 0; i < RUN_STATUS_COUNT; i++)
		if (!strcmp(s, status_names[i])) return i;
	return -1;
}

static const char *const severity_names[DIAG_SEVERITY_COUNT] = { "critical", "warning", "info", "done" };

const char *diag_severity_name(diag_severity s)
{
	return (unsigned)s < DIAG_SEVERITY_COUNT ? severity_names[s] : "?";
}

int diag_severity_parse(const char *word, size_t len)
{
	for (int i = 0; i < DIAG_SEVERITY_COUNT; i++)
		if (len >= 4 && len <= strlen(severity_names[i]) && !strncmp(word, severity_names[i], len)) return i;
	return -1;
}

void diag_finding_line(const diag_finding *d, char *buf, size_t len)
{
	if (d->rule[0]) strfmt(buf, len, "%s %s: %s", diag_severity_name(d->severity), d->rule, d->text);
	else strfmt(buf, len, "%s", d->text);
}

char *run_findings_text(const run_findings *fs)
{
	sb b = {0};
	char line[sizeof fs->f[0].text + 64];
	sb_add(&b, "");
	for (int i = 0; i < fs->n && i < RUN_FINDINGS_MAX; i++) {
		diag_finding_line(&fs->f[i], line, sizeof line);
		sb_addf(&b, "%s\n", line);
	}
	return sb_take(&b);
}

/* Copies n bytes of s into dst (cut to cap) with control characters (C0, DEL, C1 in UTF-8) as '?':
 * text read from a file never drives a terminal. */
static void copy_clean(char *dst, size_t cap, const char *s, size_t n)
{
	size_t o = 0;
	for (size_t i = 0; i < n && o + 1 < cap; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 && (unsigned char)s[i + 1] <= 0x9F) { dst[o++] = '?'; i++; continue; }
		dst[o++] = c < 0x20 || c == 0x7F ? '?' : (char)c;
	}
	dst[o] = 0;
}

/* One line of the text form into d: "severity rule: text", else the whole line as the text. */
static void parse_finding(diag_finding *d, const char *line, size_t n)
{
	memset(d, 0, sizeof *d);
	d->severity = DIAG_INFO;
	size_t w = 0, r;
	while (w < n && line[w] != ' ') w++;
	int sev = diag_severity_parse(line, w);
	for (r = w + 1; sev >= 0 && r < n && (line[r] == '_' || (line[r] >= 'a' && line[r] <= 'z') || (line[r] >= '0' && line[r] <= '9')); r++) {}
	if (sev < 0 || w + 1 >= r || r - w - 1 >= sizeof d->rule || r + 1 >= n || line[r] != ':' || line[r + 1] != ' ') {
		copy_clean(d->text, sizeof d->text, line, n);
		return;
	}
	d->severity = (diag_severity)sev;
	copy_clean(d->rule, sizeof d->rule, line + w + 1, r - w - 1);
	copy_clean(d->text, sizeof d->text, line + r + 2, n - r - 2);
}

void run_findings_parse(run_findings *fs, const char *text)
{
	memset(fs, 0, sizeof *fs);
	for (const char *p = text; *p && fs->n < RUN_FINDINGS_MAX;) {
		size_t n = strcspn(p, "\n");
		if (n) parse_finding(&fs->f[fs->n++], p, n);
		p += n + (p[n] == '\n');
	}
}

void run_result_init(run_result *r)
{
	memset(r, 0, sizeof *r);
	r->occ_api_blocks = -1;
	r->first_bad = -1;
	double *neg[] = { &r->achieved_occupancy, &r->dram_bytes_read, &r->dram_bytes_write, &r->dram_pct,
	                  &r->l1_hit_pct, &r->l2_hit_pct, &r->smem_conflicts_ld, &r->smem_conflicts_st,
	                  &r->warp_efficiency, &r->branch_uniform_pct, &r->sm_pct, &r->tensor_pct,
	                  &r->warp_efficiency_pred_on, &r->tensor_inst, &r->tensor_sass, &r->smem_wavefronts, &r->l1_pct, &r->gld_sectors_per_request };
	for (size_t i = 0; i < sizeof neg / sizeof neg[0]; i++) *neg[i] = -1;
	r->sm_clock_mhz = r->sm_clock_min_mhz = r->sm_clock_max_mhz = r->pair_sm_clock_mhz = -1;
	r->flop_per_cycle_sm = r->pair_flop_per_cycle_sm = -1;
	r->power_w = r->power_max_w = -1;
	r->l2_flush = -1;
	r->launch_hold = -1;
}

void run_result_clear(run_result *r)
{
	free(r->log);
	free(r->hotspots);
	run_result_init(r);
}

void run_result_copy(run_result *dst, const run_result *src)
{
	*dst = *src;
	dst->log = xstrdup(src->log);
	dst->hotspots = xstrdup(src->hotspots);
}

void run_step_init(run_step *s)
{
	memset(s, 0, sizeof *s);
	s->regs = -1;
	s->static_smem = -1;
	s->ms_median = s->start_ms = s->end_ms = -1;
}

void run_step_write(FILE *f, const run_result *r, int i)
{
	const run_step *s = &r->steps[i];
	fprintf(f, "step %d %s %d %u,%u,%u %u,%u,%u %lld %d %lld %.17g %.17g %.17g %s %lld ", i, s->kind, s->stream, s->grid[0], s->grid[1],
	        s->grid[2], s->block[0], s->block[1], s->block[2], (long long)s->dynamic_smem, s->regs, (long long)s->static_smem,
	        s->ms_median, s->start_ms, s->end_ms, s->dir[0] ? s->dir : "-", (long long)s->bytes);
	field_escape(f, s->entry);
	fputc('\n', f);
}

/* The next space-separated word of *p into out (n bytes): 0, or -1 when there is none or it is too long. */
static int word(const char **p, char *out, size_t n)
{
	size_t k = strcspn(*p, " ");
	if (!k || k >= n) return -1;
	memcpy(out, *p, k);
	out[k] = 0;
	*p += k;
	if (**p == ' ') (*p)++;
	return 0;
}

static void unescape_into(char *dst, size_t n, const char *s);

int run_step_parse(run_result *r, const char *v)
{
	char w[13][40];
	for (int i = 0; i < 13; i++) if (word(&v, w[i], sizeof w[i])) return -1;
	run_step s;
	run_step_init(&s);
	char *end;
	long idx = strtol(w[0], &end, 10);
	if (*end || end == w[0] || idx != r->nsteps || r->nsteps >= RUN_MAX_STEPS) return -1;
	if (strcmp(w[1], "launch") && strcmp(w[1], "memset") && strcmp(w[1], "copy") && strcmp(w[1], "library") && strcmp(w[1], "record") &&
	    strcmp(w[1], "wait")) return -1;
	strfmt(s.kind, sizeof s.kind, "%s", w[1]);
	/* The rest through the field table: the same parsing as every other field. */
	const char *names[] = { "stream", "grid", "block", "dynamic_smem", "regs", "static_smem", "ms_median", "start_ms", "end_ms", "dir", "bytes" };
	for (int i = 0; i < 11; i++)
		if (field_set_plain(run_step_fields, run_step_nfields, &s, names[i], w[2 + i])) return -1;
	if (!strcmp(s.dir, "-")) s.dir[0] = 0;
	else if (strcmp(s.dir, "h2d") && strcmp(s.dir, "d2h") && strcmp(s.dir, "d2d")) return -1;
	if (!*v) return -1;
	unescape_into(s.entry, sizeof s.entry, v);
	r->steps[r->nsteps++] = s;
	return 0;
}

void run_steps_merge(run_result *dst, const run_result *src)
{
	if (!dst->nsteps) {
		memcpy(dst->steps, src->steps, sizeof dst->steps);
		dst->nsteps = src->nsteps;
		return;
	}
	if (src->nsteps != dst->nsteps) return;
	for (int i = 0; i < src->nsteps; i++)
		if (strcmp(src->steps[i].kind, dst->steps[i].kind) || strcmp(src->steps[i].entry, dst->steps[i].entry)) return;
	for (int i = 0; i < src->nsteps; i++) {
		run_step *d = &dst->steps[i];
		const run_step *s = &src->steps[i];
		d->ms_median = s->ms_median;
		d->start_ms = s->start_ms;
		d->end_ms = s->end_ms;
		d->stream = s->stream;
		if (d->regs <= 0 && s->regs > 0) { d->regs = s->regs; d->static_smem = s->static_smem; }
		if (!d->dir[0] && s->dir[0]) strfmt(d->dir, sizeof d->dir, "%s", s->dir);   /* a copy's, as the worker ran it */
		if (!d->bytes && s->bytes > 0) d->bytes = s->bytes;
	}
}

/* Strings travel on one line: backslash, newline and tab are escaped. */
void field_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\') fputs("\\\\", f);
		else if (*s == '\n') fputs("\\n", f);
		else if (*s == '\t') fputs("\\t", f);
		else fputc(*s, f);
	}
}

void field_write_kv(FILE *f, const field *fs, int n, const void *obj)
{
	const char *base = obj;
	for (int i = 0; i < n; i++) {
		const void *p = base + fs[i].offset;
		fprintf(f, "%s ", fs[i].name);
		switch (fs[i].type) {
		case FT_INT: case FT_BOOL: fprintf(f, "%d", *(const int *)p); break;
		case FT_STATUS: fprintf(f, "%s", run_status_name(*(const run_status *)p)); break;
		case FT_I64: fprintf(f, "%lld", (long long)*(const int64_t *)p); break;
		case FT_U64: fprintf(f, "%llu", (unsigned long long)*(const uint64_t *)p); break;
		case FT_DBL: fprintf(f, "%.17g", *(const double *)p); break;
		case FT_STR: field_escape(f, (const char *)p); break;
		case FT_FINDINGS: {
			char *text = run_findings_text(p);
			field_escape(f, text);
			free(text);
			break;
		}
		case FT_U3: {
			const unsigned *u = p;
			fprintf(f, "%u,%u,%u", u[0], u[1], u[2]);
			break;
		}
		}
		fputc('\n', f);
	}
}

static void unescape_into(char *dst, size_t n, const char *s)
{
	size_t o = 0;
	for (; *s && o + 1 < n; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			dst[o++] = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s;
		} else {
			dst[o++] = *s;
		}
	}
	dst[o] = 0;
}

char *field_unescape(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = xmalloc(n);
	unescape_into(d, n, s);
	return d;
}

/* Integers a run can produce are far inside these: a field beyond them comes from a file someone else
 * wrote, and sums and doubles of two such fields must not overflow where they are shown. */
#define FIELD_INT_MAX (1l << 30)
#define FIELD_I64_MAX (1ll << 53)

static int set_field(const field *fs, int n, void *obj, const char *name, const char *value, int escaped)
{
	for (int i = 0; i < n; i++) {
		if (strcmp(fs[i].name, name)) continue;
		void *p = (char *)obj + fs[i].offset;
		char *end = NULL;
		switch (fs[i].type) {
		case FT_INT: {
			long v = strtol(value, &end, 10);
			if (v > FIELD_INT_MAX || v < -FIELD_INT_MAX) return -1;
			*(int *)p = (int)v;
			break;
		}
		case FT_BOOL:
			if (!strcmp(value, "true") || !strcmp(value, "false")) { *(int *)p = value[0] == 't'; return 0; }
			*(int *)p = (int)strtol(value, &end, 10) != 0;
			break;
		case FT_I64: {
			long long v = strtoll(value, &end, 10);
			if (v > FIELD_I64_MAX || v < -FIELD_I64_MAX) return -1;
			*(int64_t *)p = v;
			break;
		}
		case FT_U64: *(uint64_t *)p = strtoull(value, &end, 10); break;
		case FT_DBL: *(double *)p = strtod(value, &end); break;
		case FT_STR:
			if (escaped) unescape_into(p, fs[i].size, value);
			else strfmt(p, fs[i].size, "%s", value);
			return 0;
		case FT_FINDINGS: {
			char *text = escaped ? field_unescape(value) : xstrdup(value);
			run_findings_parse(p, text);
			free(text);
			return 0;
		}
		case FT_STATUS: {
			int s = run_status_parse(value);
			if (s < 0) return -1;
			*(run_status *)p = (run_status)s;
			return 0;
		}
		case FT_U3: {
			unsigned *u = p;
			return sscanf(value, "%u,%u,%u", &u[0], &u[1], &u[2]) == 3 ? 0 : -1;
		}
		}
		return end && end != value && *end == 0 ? 0 : -1;
	}
	return -1;
}

int field_set(const field *fs, int n, void *obj, const char *name, const char *value)
{
	return set_field(fs, n, obj, name, value, 1);
}

int field_set_plain(const field *fs, int n, void *obj, const char *name, const char *value)
{
	return set_field(fs, n, obj, name, value, 0);
}

int field_copy_named(const field *fs, int n, void *dst, const void *src, const char *const *names)
{
	int unknown = 0;
	for (; *names; names++) {
		int i = 0;
		while (i < n && strcmp(fs[i].name, *names)) i++;
		if (i == n) { unknown++; continue; }
		memcpy((char *)dst + fs[i].offset, (const char *)src + fs[i].offset, fs[i].size);
	}
	return unknown;
}
