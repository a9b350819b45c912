/* diagnose: rules from assets/rules.yaml, each an expression over a run's numbers and a sentence to
 * print when it holds. Loading checks everything that can be checked without a run (keys, severities,
 * expressions, names, placeholders), so a rule that loads can only fail to fire, never misbehave. */
#include "diagnose.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "claim_names.h"
#include "expr.h"
#include "fmt.h"
#include "util.h"
#include "yamldoc.h"

#define DIAG_MAX_RULES 512
#define DIAG_MAX_TEXT 4096

/* Same order as the stall reasons counters.cpp reports. */
static const char *const diag_stalls[V_STALL_COUNT] = {
	"long_scoreboard", "barrier", "mio_throttle", "short_scoreboard", "wait", "not_selected",
	"math_pipe_throttle", "lg_throttle", "membar", "dispatch_stall", "drain", "imc_miss",
	"no_instruction", "sleeping", "branch_resolving", "tex_throttle", "selected",
};

/* String placeholders, {stalls} and {occ_limiter}. */
typedef enum { S_NONE, S_STALLS, S_OCC_LIMITER } diag_string;

typedef struct {
	const run_result *r;
	const diag_inputs *in;
	bool have_stalls;
	double stall[V_STALL_COUNT];   /* % share; 0 for those outside the top three */
} diag_ctx;

static int diag_var_find(const char *name, size_t len)
{
	for (int i = 0; i < V_COUNT; i++)
		if (strlen(diagnose_names()[i]) == len && !memcmp(diagnose_names()[i], name, len))
			return i;
	return -1;
}

/* "long_scoreboard 41%, barrier 22%, wait 9%" -> shares. Unknown names are ignored. */
static void diag_parse_stalls(diag_ctx *c, const char *s)
{
	memset(c->stall, 0, sizeof c->stall);
	c->have_stalls = false;
	while (*s) {
		while (*s == ' ' || *s == ',')
			s++;
		size_t n = strcspn(s, " ,");
		const char *name = s;
		s += n;
		while (*s == ' ')
			s++;
		char *end;
		double v = strtod(s, &end);
		if (end == s)
			break;
		s = end;
		if (*s == '%')
			s++;
		for (int i = 0; i < V_STALL_COUNT; i++)
			if (strlen(diag_stalls[i]) == n && !memcmp(diag_stalls[i], name, n) && isfinite(v)) {
				c->stall[i] = v;
				c->have_stalls = true;
			}
	}
}

static double diag_model(double in, double run) { return in > 0 ? in : run > 0 ? run : -1; }

static double diag_blocks(const run_result *r)
{
	double b = (double)r->grid[0] * r->grid[1] * r->grid[2];
	return b > 0 ? b : -1;
}

static double diag_threads(const run_result *r)
{
	double t = (double)r->block[0] * r->block[1] * r->block[2];
	return t > 0 ? t : -1;
}

static int diag_limiter(const run_result *r, const char *word, expr_value *out)
{
	if (!r->occ_limiter[0])
		return -1;
	*out = (expr_value){EXPR_INT, strstr(r->occ_limiter, word) != NULL, 0};
	return 0;
}

static double diag_copied(double bytes) { return bytes > 0 && isfinite(bytes) ? bytes : 0; }

/* The DRAM bytes the stage's kernels moved. The counters (src/worker/counters.cpp) profile the whole
 * stage as one range, everything the launch callback issues, the host copies included: a copy to the
 * device is written to DRAM by the copy engine, a copy to the host read from it, and CUPTI's DRAM
 * counters see the copy engines' traffic like the SMs'. The recorded H200 streams run shows it: the
 * serial stage (128 MiB in, the kernel reading x and writing y, 128 MiB out) counts 248 MB read and
 * 273 MB written, the 268 MB the kernel needs plus the 268 MB of the copies; bytes_ratio read 1.94
 * and a copy-heavy lesson was told to fuse its kernels. So the copies' bytes come off: the copies to
 * the device off the writes, those to the host off the reads, at least 0 each (a kernel reading a
 * chunk the copy engine just left in L2 reads less than a copy to the host takes off). */
static double diag_dram_read(const run_result *r)
{
	return r->dram_bytes_read >= 0 ? fmax(0, r->dram_bytes_read - diag_copied(r->d2h_bytes)) : -1;
}

static double diag_dram_write(const run_result *r)
{
	return r->dram_bytes_write >= 0 ? fmax(0, r->dram_bytes_write - diag_copied(r->h2d_bytes)) : -1;
}

/* The host copies at the calibrated pinned bandwidths, one direction after the other (what they need
 * on the link when nothing overlaps them); 0 without copies, unknown without the bandwidths. */
static double diag_copy_ms(const run_result *r, const diag_inputs *in)
{
	double h = diag_copied(r->h2d_bytes), d = diag_copied(r->d2h_bytes);
	if (h + d <= 0) return 0;
	if ((h > 0 && !(in->h2d_gbps > 0)) || (d > 0 && !(in->d2h_gbps > 0))) return -1;
	return (h > 0 ? h / (in->h2d_gbps * 1e6) : 0) + (d > 0 ? d / (in->d2h_gbps * 1e6) : 0);
}

/* The share (0..1) of the stage's time its kernels do not cover, 1 - kernel_ms / ms: what the copies
 * add, whatever their speed (pageable copies run far below the calibrated one). 0 without copies;
 * unknown with copies but without the two times. */
static double diag_copy_share(const run_result *r)
{
	if (diag_copied(r->h2d_bytes) + diag_copied(r->d2h_bytes) <= 0) return 0;
	if (!(r->ms_median > 0) || !(r->kernel_ms > 0)) return -1;
	return fmax(0, 1 - r->kernel_ms / r->ms_median);
}

/* The value of variable v, or -1 when it is unknown for this run. */
static int diag_value(const diag_ctx *c, int v, expr_value *out)
{
	const run_result *r = c->r;
	const diag_inputs *in = c->in;
	double x = -1;
	bool integer = false;
	bool timed = r->ms_median > 0;
	switch (v) {
	case V_ACHIEVED_OCCUPANCY: x = r->achieved_occupancy; break;
	case V_THEORETICAL_OCCUPANCY: x = r->occ_theoretical > 0 ? r->occ_theoretical : -1; break;
	case V_DRAM_BYTES_READ: x = diag_dram_read(r); break;
	case V_DRAM_BYTES_WRITE: x = diag_dram_write(r); break;
	case V_DRAM_BYTES:
		x = diag_dram_read(r) >= 0 && diag_dram_write(r) >= 0 ? diag_dram_read(r) + diag_dram_write(r) : -1;
		break;
	case V_DRAM_PCT: x = r->dram_pct; break;
	case V_MODEL_BYTES: x = diag_model(in->model_bytes, r->bytes); break;
	case V_MODEL_FLOPS: x = diag_model(in->model_flops, r->flops); break;
	case V_INTENSITY: {   /* model FLOP per model byte; a model without flops (a copy) has 0 */
		double b = diag_model(in->model_bytes, r->bytes), f = diag_model(in->model_flops, r->flops);
		x = b > 0 ? (f > 0 ? f : 0) / b : -1;
		break;
	}
	case V_BYTES_RATIO: {
		double m = diag_model(in->model_bytes, r->bytes);
		bool d = diag_dram_read(r) >= 0 && diag_dram_write(r) >= 0;
		x = m > 0 && d ? (diag_dram_read(r) + diag_dram_write(r)) / m : -1;
		break;
	}
	case V_L1_HIT_PCT: x = r->l1_hit_pct; break;
	case V_L2_HIT_PCT: x = r->l2_hit_pct; break;
	case V_SMEM_CONFLICTS_LD: x = r->smem_conflicts_ld; break;
	case V_SMEM_CONFLICTS_ST: x = r->smem_conflicts_st; break;
	case V_SMEM_CONFLICTS:
	case V_SMEM_CONFLICTS_PER_WARP:
	case V_SMEM_CONFLICTS_LD_PER_WARP:
	case V_SMEM_CONFLICTS_ST_PER_WARP: {
		if (r->smem_conflicts_ld < 0 || r->smem_conflicts_st < 0)
			return -1;
		x = v == V_SMEM_CONFLICTS_LD_PER_WARP ? r->smem_conflicts_ld
		  : v == V_SMEM_CONFLICTS_ST_PER_WARP ? r->smem_conflicts_st
		  : r->smem_conflicts_ld + r->smem_conflicts_st;
		if (v != V_SMEM_CONFLICTS) {
			double b = diag_blocks(r), t = diag_threads(r);
			if (b <= 0 || t <= 0)
				return -1;
			x /= b * ceil(t / 32);
		}
		break;
	}
	case V_WARP_EFFICIENCY: x = r->warp_efficiency; break;
	case V_BRANCH_UNIFORM_PCT: x = r->branch_uniform_pct; break;
	case V_SM_PCT: x = r->sm_pct; break;
	case V_TENSOR_PCT: x = r->tensor_pct; break;
	case V_WARP_EFFICIENCY_PRED_ON: x = r->warp_efficiency_pred_on; break;
	case V_TENSOR_INST: x = r->tensor_inst; break;
	case V_TENSOR_SASS: x = r->tensor_sass; integer = true; break;
	case V_SMEM_WAVEFRONTS: x = r->smem_wavefronts; break;
	case V_SMEM_CONFLICT_PCT:   /* replays over all wavefronts: 50 is a 2-way conflict on every access */
		if (r->smem_conflicts_ld < 0 || r->smem_conflicts_st < 0 || r->smem_wavefronts <= 0)
			return -1;
		x = fmin(100, 100 * (r->smem_conflicts_ld + r->smem_conflicts_st) / r->smem_wavefronts);
		break;
	case V_L1_PCT: x = r->l1_pct; break;
	case V_GLD_SECTORS_PER_REQUEST: x = r->gld_sectors_per_request; break;
	case V_BLOCKS: x = diag_blocks(r); integer = true; break;
	case V_THREADS_PER_BLOCK: x = diag_threads(r); integer = true; break;
	case V_WARPS: {
		double b = diag_blocks(r), t = diag_threads(r);
		x = b > 0 && t > 0 ? b * ceil(t / 32) : -1;
		integer = true;
		break;
	}
	case V_SM_COUNT: x = in->sm_count > 0 ? in->sm_count : -1; integer = true; break;
	case V_OCC_BLOCKS: x = r->occ_blocks > 0 ? r->occ_blocks : -1; integer = true; break;
	case V_WAVES: {
		double b = diag_blocks(r);
		x = b > 0 && in->sm_count > 0 && r->occ_blocks > 0 ? b / ((double)in->sm_count * r->occ_blocks) : -1;
		break;
	}
	case V_OCC_LIMITER_REGS: return diag_limiter(r, "register", out);
	case V_OCC_LIMITER_SMEM: return diag_limiter(r, "shared", out);
	case V_OCC_LIMITER_WARPS: return diag_limiter(r, "warps", out);
	case V_OCC_LIMITER_BLOCKS: return diag_limiter(r, "blocks", out);
	case V_REGS: x = r->regs > 0 ? r->regs : -1; integer = true; break;
	case V_SPILL_STORES: x = r->regs > 0 ? r->spill_stores : -1; integer = true; break;
	case V_SPILL_LOADS: x = r->regs > 0 ? r->spill_loads : -1; integer = true; break;
	case V_STATIC_SMEM: x = r->regs > 0 ? (double)r->static_smem : -1; integer = true; break;
	case V_DYNAMIC_SMEM: x = r->regs > 0 ? (double)r->dynamic_smem : -1; integer = true; break;
	case V_MS: x = timed ? r->ms_median : -1; break;
	case V_GBPS: x = timed ? r->gbps : -1; break;
	case V_GFLOPS: x = timed ? r->gflops : -1; break;
	/* of DRAM bandwidth, as the rules read it: unknown for a lesson scored against the host link
	 * (traffic: pcie), whose GB/s say nothing about DRAM */
	case V_PCT_ATTAINABLE_BW: x = timed && strcmp(r->attainable, "pcie") ? r->pct_attainable_bw : -1; break;
	case V_PCT_THEORETICAL_BW: x = timed ? r->pct_theoretical_bw : -1; break;
	case V_PCT_COMPUTE_PEAK: x = timed ? r->pct_compute_peak : -1; break;
	case V_PEAK_BW_GBPS: x = in->peak_bw_gbps > 0 ? in->peak_bw_gbps : -1; break;
	case V_PEAK_GFLOPS: x = in->peak_gflops > 0 ? in->peak_gflops : -1; break;
	case V_WORKING_SET: x = r->working_set > 0 ? r->working_set : -1; break;
	case V_FITS_L2: x = r->working_set > 0 ? (r->fits_l2 != 0) : -1; integer = true; break;
	/* the check's errors: unknown (-1) unless the run was compared with the reference */
	case V_MAX_ABS_ERR: x = r->checked ? r->max_abs_err : -1; break;
	case V_MAX_REL_ERR: x = r->checked ? r->max_rel_err : -1; break;
	case V_NORM_REL_ERR: x = r->checked ? r->norm_rel_err : -1; break;
	/* host copies: known 0 for a stage without any, so that rules may ask for "copy_share < 0.5" */
	case V_H2D_BYTES: x = diag_copied(r->h2d_bytes); integer = true; break;
	case V_D2H_BYTES: x = diag_copied(r->d2h_bytes); integer = true; break;
	case V_COPY_BYTES: x = diag_copied(r->h2d_bytes) + diag_copied(r->d2h_bytes); integer = true; break;
	case V_KERNEL_MS: x = r->kernel_ms > 0 ? r->kernel_ms : -1; break;
	case V_COPY_MS: x = diag_copy_ms(r, in); break;
	case V_COPY_SHARE: x = diag_copy_share(r); break;
	case V_H2D_GBPS: x = in->h2d_gbps > 0 ? in->h2d_gbps : -1; break;
	case V_D2H_GBPS: x = in->d2h_gbps > 0 ? in->d2h_gbps : -1; break;
	default:
		if (v < V_STALL_FIRST || v >= V_COUNT || !c->have_stalls)
			return -1;
		x = c->stall[v - V_STALL_FIRST];
	}
	if (!(x >= 0) || !isfinite(x))
		return -1;
	if (integer && x < 9007199254740992.0)
		*out = (expr_value){EXPR_INT, (int64_t)x, 0};
	else
		*out = (expr_value){EXPR_FLOAT, 0, x};
	return 0;
}

static int diag_lookup(void *ctx, const char *name, size_t len, expr_value *out)
{
	int v = diag_var_find(name, len);
	return v < 0 ? -1 : diag_value(ctx, v, out);
}

int diagnose_value(const run_result *r, const diag_inputs *in, const char *name, size_t len, expr_value *out)
{
	static const diag_inputs none;
	diag_ctx c = {r, in ? in : &none, false, {0}};
	if (!r || !name || !out)
		return -1;
	diag_parse_stalls(&c, r->stalls);
	return diag_lookup(&c, name, len, out);
}

/* ---- rules ---- */

typedef enum { F_DEFAULT, F_FIXED, F_INT, F_PCT, F_X, F_BYTES } diag_format;

typedef struct {
	char *lit;               /* literal text before the placeholder (owned, may be "") */
	expr *e;                 /* the placeholder's expression, or NULL (string or end) */
	diag_string str;
	diag_format fmt;
	int prec;
} diag_part;

typedef struct {
	char id[32];
	diag_severity sev;
	char *title;
	expr *when;
	diag_part *parts;
	int nparts;
} diag_rule;

static diag_rule *diag_rules;
static int diag_nrules;

static void diag_rule_free(diag_rule *r)
{
	free(r->title);
	expr_free(r->when);
	for (int i = 0; i < r->nparts; i++) {
		free(r->parts[i].lit);
		expr_free(r->parts[i].e);
	}
	free(r->parts);
}

static void diag_free_all(diag_rule *rs, int n)
{
	for (int i = 0; i < n; i++)
		diag_rule_free(&rs[i]);
	free(rs);
}

void diagnose_unload(void)
{
	diag_free_all(diag_rules, diag_nrules);
	diag_rules = NULL;
	diag_nrules = 0;
}

int diagnose_count(void) { return diag_nrules; }

const char *diagnose_rule_id(int i) { return i >= 0 && i < diag_nrules ? diag_rules[i].id : NULL; }

/* ---- loading ---- */

/* The rules file as a document (yamldoc.h keeps it, and the first error as file:line:col). */
typedef struct {
	yd y;
} diag_loader;

/* Records "file:line:col: message" (line and col 1-based) and returns -1. */
__attribute__((format(printf, 4, 5)))
static int diag_fail(diag_loader *L, size_t line, size_t col, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return yd_fail_at(&L->y, (yaml_mark_t){0, line ? line - 1 : 0, col ? col - 1 : 0}, "%s", msg);
}

#define diag_fail_at(L, n, ...) yd_fail(&(L)->y, (n), __VA_ARGS__)

/* The 1-based column of character off (0-based) of a scalar's value, when the scalar is on one line and
 * plain or quoted (escapes aside); otherwise the scalar's own start. */
static size_t diag_scalar_col(const yaml_node_t *n, size_t off)
{
	const yaml_scalar_style_t st = n->data.scalar.style;
	size_t col = n->start_mark.column + 1;
	if (n->start_mark.line != n->end_mark.line)
		return col;
	if (st == YAML_PLAIN_SCALAR_STYLE)
		return col + off;
	if (st == YAML_SINGLE_QUOTED_SCALAR_STYLE || st == YAML_DOUBLE_QUOTED_SCALAR_STYLE)
		return col + 1 + off;
	return col;
}

static const char *diag_scalar(const yaml_node_t *n) { return (const char *)n->data.scalar.value; }

typedef struct { diag_loader *L; const yaml_node_t *node; size_t base; const char *what; } diag_names_ctx;

static int diag_check_name(void *ctx, const char *name, size_t len, int col)
{
	diag_names_ctx *c = ctx;
	if (diag_var_find(name, len) >= 0)
		return 0;
	int shown = len > 40 ? 40 : (int)len;
	return diag_fail(c->L, c->node->start_mark.line + 1, diag_scalar_col(c->node, c->base + (size_t)col - 1),
	                 "%s: unknown name '%.*s' (see diagnose_names)", c->what, shown, name);
}

/* Parses src (a NUL-terminated piece of scalar n starting at offset base) as an expression. */
static expr *diag_parse_expr(diag_loader *L, const yaml_node_t *n, const char *src, size_t base, const char *what)
{
	expr_error e;
	expr *x = expr_parse(src, &e);
	if (!x) {
		diag_fail(L, n->start_mark.line + 1, diag_scalar_col(n, base + (size_t)(e.col > 0 ? e.col - 1 : 0)),
		          "%s: %s", what, e.msg);
		return NULL;
	}
	diag_names_ctx c = {L, n, base, what};
	if (expr_names(x, diag_check_name, &c) != 0) {
		expr_free(x);
		return NULL;
	}
	return x;
}

static bool diag_is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr(" \t", s[i]))
			return false;
	return true;
}

/* "{EXPR|FMT}": fmt is the text after the last single '|' (one that is not half of "||"). */
static int diag_parse_format(const char *f, size_t n, diag_format *fmt, int *prec)
{
	while (n && (*f == ' ' || *f == '\t'))
		f++, n--;
	while (n && (f[n - 1] == ' ' || f[n - 1] == '\t'))
		n--;
	*prec = 0;
	if (n == 1 && f[0] == 'd')
		*fmt = F_INT;
	else if (n == 3 && !memcmp(f, "pct", 3))
		*fmt = F_PCT;
	else if (n == 1 && f[0] == 'x')
		*fmt = F_X;
	else if (n == 5 && !memcmp(f, "bytes", 5))
		*fmt = F_BYTES;
	else if (n == 3 && f[0] == '.' && f[1] >= '0' && f[1] <= '6' && f[2] == 'f') {
		*fmt = F_FIXED;
		*prec = f[1] - '0';
	} else
		return -1;
	return 0;
}

static int diag_push_part(diag_rule *r, int *cap, char *lit)
{
	if (r->nparts == *cap) {
		int ncap = *cap ? *cap * 2 : 4;
		r->parts = xrealloc(r->parts, (size_t)ncap * sizeof *r->parts);
		*cap = ncap;
	}
	r->parts[r->nparts++] = (diag_part){lit, NULL, S_NONE, F_DEFAULT, 0};
	return 0;
}

/* Splits text into literal runs and placeholders. */
static int diag_parse_text(diag_loader *L, diag_rule *r, const yaml_node_t *n)
{
	const char *s = diag_scalar(n);
	size_t len = n->data.scalar.length, i = 0;
	int cap = 0;
	char *lit = xmalloc(len + 1);
	size_t ll = 0;
	while (i < len) {
		if ((s[i] == '{' || s[i] == '}') && i + 1 < len && s[i + 1] == s[i]) {
			lit[ll++] = s[i];
			i += 2;
			continue;
		}
		if (s[i] == '}') {
			free(lit);
			return diag_fail(L, n->start_mark.line + 1, diag_scalar_col(n, i), "text: a lone '}' (write }} for a brace)");
		}
		if (s[i] != '{') {
			lit[ll++] = s[i++];
			continue;
		}
		size_t open = i, close = open + 1;
		while (close < len && s[close] != '}' && s[close] != '{')
			close++;
		if (close >= len || s[close] != '}') {
			free(lit);
			return diag_fail(L, n->start_mark.line + 1, diag_scalar_col(n, open), "text: '{' without its '}'");
		}
		lit[ll] = '\0';
		if (diag_push_part(r, &cap, lit) != 0) {
			free(lit);
			return diag_fail_at(L, n, "out of memory");
		}
		diag_part *p = &r->parts[r->nparts - 1];
		/* the expression and its format */
		size_t es = open + 1, ee = close, bar = 0;
		for (size_t k = close; k > es; k--)
			if (s[k - 1] == '|' && s[k - 2] != '|' && s[k] != '|') {
				bar = k - 1;
				break;
			}
		if (bar) {
			if (diag_parse_format(s + bar + 1, close - bar - 1, &p->fmt, &p->prec) != 0)
				return diag_fail(L, n->start_mark.line + 1, diag_scalar_col(n, bar + 1),
				                 "text: unknown format (use .Nf with N 0..6, d, pct, x or bytes)");
			ee = bar;
		}
		if (diag_is_blank(s + es, ee - es))
			return diag_fail(L, n->start_mark.line + 1, diag_scalar_col(n, open), "text: empty placeholder {}");
		size_t a = es, b = ee;
		while (a < b && strchr(" \t", s[a]))
			a++;
		while (b > a && strchr(" \t", s[b - 1]))
			b--;
		if (b - a == 6 && !memcmp(s + a, "stalls", 6))
			p->str = S_STALLS;
		else if (b - a == 11 && !memcmp(s + a, "occ_limiter", 11))
			p->str = S_OCC_LIMITER;
		if (p->str != S_NONE && bar)
			return diag_fail(L, n->start_mark.line + 1, diag_scalar_col(n, bar), "text: {%.*s} takes no format",
			                 (int)(b - a), s + a);
		if (p->str == S_NONE) {
			char *src = xstrndup(s + es, ee - es);
			p->e = diag_parse_expr(L, n, src, es, "text");
			free(src);
			if (!p->e)
				return -1;
		}
		lit = xmalloc(len + 1);
		ll = 0;
		i = close + 1;
	}
	lit[ll] = '\0';
	if (diag_push_part(r, &cap, lit) != 0) {
		free(lit);
		return diag_fail_at(L, n, "out of memory");
	}
	return 0;
}

static bool diag_id_ok(const char *s, size_t n)
{
	if (n == 0 || n > 31)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

enum { K_ID, K_WHEN, K_SEVERITY, K_TITLE, K_TEXT, K_COUNT };
static const char *const diag_keys[K_COUNT] = {"id", "when", "severity", "title", "text"};

static int diag_load_rule(diag_loader *L, const yaml_node_t *m, diag_rule *r, const diag_rule *done, int ndone)
{
	const yaml_node_t *val[K_COUNT] = {0};
	if (m->type != YAML_MAPPING_NODE)
		return diag_fail_at(L, m, "a rule must be a mapping (id, when, severity, title, text)");
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = yd_node(&L->y, p->key);
		const yaml_node_t *v = yd_node(&L->y, p->value);
		if (!k || !v)
			return diag_fail_at(L, m, "broken rule");
		if (k->type != YAML_SCALAR_NODE)
			return diag_fail_at(L, k, "a rule's keys are plain words");
		int which = -1;
		for (int i = 0; i < K_COUNT; i++)
			if (!strcmp(diag_scalar(k), diag_keys[i]) && strlen(diag_keys[i]) == k->data.scalar.length)
				which = i;
		if (which < 0)
			return diag_fail_at(L, k, "unknown key '%.40s' (expected id, when, severity, title, text)",
			                 diag_scalar(k));
		if (val[which])
			return diag_fail_at(L, k, "'%s' appears twice", diag_keys[which]);
		if (v->type != YAML_SCALAR_NODE)
			return diag_fail_at(L, v, "'%s' must be a single value", diag_keys[which]);
		if (strlen(diag_scalar(v)) != v->data.scalar.length)
			return diag_fail_at(L, v, "'%s' contains a NUL character", diag_keys[which]);
		if (v->data.scalar.length > DIAG_MAX_TEXT)
			return diag_fail_at(L, v, "'%s' is longer than %d characters", diag_keys[which], DIAG_MAX_TEXT);
		val[which] = v;
	}
	for (int i = 0; i < K_COUNT; i++)
		if (!val[i])
			return diag_fail_at(L, m, "rule%s%.31s has no '%s'", val[K_ID] ? " " : "",
			                 val[K_ID] ? diag_scalar(val[K_ID]) : "", diag_keys[i]);
	const yaml_node_t *id = val[K_ID];
	if (!diag_id_ok(diag_scalar(id), id->data.scalar.length))
		return diag_fail_at(L, id, "id must be 1 to 31 of a-z, 0-9 and _");
	for (int i = 0; i < ndone; i++)
		if (!strcmp(done[i].id, diag_scalar(id)))
			return diag_fail_at(L, id, "rule id '%s' is used twice", done[i].id);
	memcpy(r->id, diag_scalar(id), id->data.scalar.length + 1);
	int sev = -1;
	for (int i = 0; i < DIAG_SEVERITY_COUNT; i++)
		if (!strcmp(diag_scalar(val[K_SEVERITY]), diag_severity_name((diag_severity)i)))
			sev = i;
	if (sev < 0)
		return diag_fail_at(L, val[K_SEVERITY], "severity must be critical, warning, info or done");
	r->sev = (diag_severity)sev;
	if (diag_is_blank(diag_scalar(val[K_TITLE]), val[K_TITLE]->data.scalar.length))
		return diag_fail_at(L, val[K_TITLE], "title is empty");
	if (val[K_TITLE]->data.scalar.length >= sizeof ((diag_finding *)0)->title)
		return diag_fail_at(L, val[K_TITLE], "title is longer than %zu characters",
		                 sizeof ((diag_finding *)0)->title - 1);
	r->title = xstrdup(diag_scalar(val[K_TITLE]));
	if (!(r->when = diag_parse_expr(L, val[K_WHEN], diag_scalar(val[K_WHEN]), 0, "when")))
		return -1;
	return diag_parse_text(L, r, val[K_TEXT]);
}

static int diag_load_doc(diag_loader *L, diag_rule **out, int *nout)
{
	const yaml_node_t *root = yd_root(&L->y);
	if (!root)
		return diag_fail(L, 1, 1, "the file is empty (expected a mapping with 'rules')");
	if (root->type != YAML_MAPPING_NODE)
		return diag_fail_at(L, root, "expected a mapping with 'rules'");
	const yaml_node_t *list = NULL;
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = yd_node(&L->y, p->key);
		const yaml_node_t *v = yd_node(&L->y, p->value);
		if (!k || !v)
			return diag_fail_at(L, root, "broken document");
		if (k->type != YAML_SCALAR_NODE || strcmp(diag_scalar(k), "rules") || k->data.scalar.length != 5)
			return diag_fail_at(L, k, "unknown key at the top (only 'rules' is allowed)");
		if (list)
			return diag_fail_at(L, k, "'rules' appears twice");
		list = v;
	}
	if (!list)
		return diag_fail_at(L, root, "no 'rules'");
	if (list->type != YAML_SEQUENCE_NODE)
		return diag_fail_at(L, list, "'rules' must be a list");
	long n = list->data.sequence.items.top - list->data.sequence.items.start;
	if (n == 0)
		return diag_fail_at(L, list, "'rules' is empty");
	if (n > DIAG_MAX_RULES)
		return diag_fail_at(L, list, "more than %d rules", DIAG_MAX_RULES);
	diag_rule *rs = xcalloc((size_t)n, sizeof *rs);
	int done = 0;
	for (yaml_node_item_t *it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++) {
		const yaml_node_t *m = yd_node(&L->y, *it);
		int rc = m ? diag_load_rule(L, m, &rs[done], rs, done) : diag_fail_at(L, list, "broken list");
		done++;                /* a half-built rule is freed with the rest */
		if (rc != 0) {
			diag_free_all(rs, done);
			return -1;
		}
	}
	*out = rs;
	*nout = done;
	return 0;
}

int diagnose_load_buffer(const char *name, const char *buf, size_t len, char *err, size_t errlen)
{
	diag_loader L = { { .file = name ? name : "rules", .err = err, .errlen = errlen } };
	if (err && errlen)
		err[0] = '\0';
	if (yd_load(&L.y, buf, len)) {
		yd_done(&L.y);
		return -1;
	}
	diag_rule *rs = NULL;
	int n = 0, rc = diag_load_doc(&L, &rs, &n);
	if (rc == 0 && yd_root(&L.y)) {
		rc = yd_end(&L.y, "only one YAML document is allowed");
		if (rc != 0)
			diag_free_all(rs, n);
	}
	yd_done(&L.y);
	if (rc != 0)
		return -1;
	diagnose_unload();
	diag_rules = rs;
	diag_nrules = n;
	return 0;
}

int diagnose_load(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0;
	if (!f) {
		if (err && errlen)
			snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (len == cap) {
			size_t ncap = cap ? cap * 2 : 16384;
			char *nb = ncap <= (64u << 20) ? xrealloc(buf, ncap) : NULL;
			if (!nb) {
				free(buf);
				fclose(f);
				if (err && errlen)
					snprintf(err, errlen, "%s: cannot read: too large", path);
				return -1;
			}
			buf = nb;
			cap = ncap;
		}
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	bool bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		if (err && errlen)
			snprintf(err, errlen, "%s: cannot read: I/O error", path);
		return -1;
	}
	int rc = diagnose_load_buffer(path, buf, len, err, errlen);
	free(buf);
	return rc;
}

/* ---- running ---- */

typedef struct { char *s; size_t cap, len; } diag_buf;

__attribute__((format(printf, 2, 3)))
static void diag_put(diag_buf *b, const char *fmt, ...)
{
	if (b->len + 1 >= b->cap)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len = b->len + (size_t)n < b->cap ? b->len + (size_t)n : b->cap - 1;
}

static void diag_put_value(diag_buf *b, expr_value v, diag_format fmt, int prec)
{
	double x = expr_as_double(v);
	char t[32];
	switch (fmt) {
	case F_DEFAULT:
		if (v.kind == EXPR_INT)
			diag_put(b, "%lld", (long long)v.i);
		else
			diag_put(b, "%.3g", x);
		break;
	case F_FIXED: diag_put(b, "%.*f", prec, x); break;
	case F_INT: diag_put(b, "%.0f", x); break;
	case F_PCT: diag_put(b, "%s", fmt_pct(t, sizeof t, x)); break;
	case F_X: diag_put(b, "%.1fx", x); break;
	case F_BYTES: diag_put(b, "%s", fmt_traffic(t, sizeof t, x)); break;
	}
}

static void diag_render(const diag_rule *rule, diag_ctx *c, char *out, size_t cap)
{
	diag_buf b = {out, cap, 0};
	out[0] = '\0';
	for (int i = 0; i < rule->nparts; i++) {
		const diag_part *p = &rule->parts[i];
		diag_put(&b, "%s", p->lit);
		expr_value v;
		expr_error e;
		if (p->str == S_STALLS)
			diag_put(&b, "%s", c->r->stalls[0] ? c->r->stalls : "(not measured)");
		else if (p->str == S_OCC_LIMITER)
			diag_put(&b, "%s", c->r->occ_limiter[0] ? c->r->occ_limiter : "(unknown)");
		else if (p->e && expr_eval(p->e, diag_lookup, c, &v, &e) == 0)
			diag_put_value(&b, v, p->fmt, p->prec);
		else if (p->e)
			diag_put(&b, "?");
	}
}

/* expr_names' callback: adds a name the condition reads, with its value, to a finding's evidence
 * (once each; names with no value in this run are left out). */
typedef struct { diag_ctx *c; diag_finding *f; } diag_evidence_ctx;

static int diag_add_evidence(void *ctx, const char *name, size_t len, int col)
{
	(void)col;
	diag_evidence_ctx *x = ctx;
	diag_finding *f = x->f;
	expr_value v;
	if (f->nevidence >= DIAG_EVIDENCE_MAX || len >= sizeof f->evidence[0].name) return 0;
	for (int i = 0; i < f->nevidence; i++)
		if (strlen(f->evidence[i].name) == len && !strncmp(f->evidence[i].name, name, len)) return 0;
	if (diag_lookup(x->c, name, len, &v) != 0) return 0;
	memcpy(f->evidence[f->nevidence].name, name, len);
	f->evidence[f->nevidence].name[len] = 0;
	f->evidence[f->nevidence++].value = expr_as_double(v);
	return 0;
}

int diagnose_run(const run_result *r, const diag_inputs *in, diag_finding *out, int max)
{
	static const diag_inputs none;
	diag_ctx c = {r, in ? in : &none, false, {0}};
	int n = 0;
	if (!r || !out || max <= 0 || diag_nrules == 0)
		return 0;
	diag_parse_stalls(&c, r->stalls);
	bool *fired = xcalloc((size_t)diag_nrules, sizeof *fired);
	for (int i = 0; i < diag_nrules; i++) {
		expr_value v;
		expr_error e;
		fired[i] = expr_eval(diag_rules[i].when, diag_lookup, &c, &v, &e) == 0 &&
		           (v.kind == EXPR_INT ? v.i != 0 : v.f != 0);
	}
	for (int s = 0; s < DIAG_SEVERITY_COUNT && n < max; s++)
		for (int i = 0; i < diag_nrules && n < max; i++) {
			const diag_rule *rule = &diag_rules[i];
			if (!fired[i] || rule->sev != (diag_severity)s)
				continue;
			diag_finding *f = &out[n++];
			memset(f, 0, sizeof *f);
			snprintf(f->rule, sizeof f->rule, "%s", rule->id);
			f->severity = rule->sev;
			snprintf(f->title, sizeof f->title, "%s", rule->title);
			diag_render(rule, &c, f->text, sizeof f->text);
			diag_evidence_ctx x = {&c, f};
			expr_names(rule->when, diag_add_evidence, &x);
		}
	free(fired);
	return n;
}
