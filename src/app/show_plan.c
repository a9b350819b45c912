/* show_plan: see show_plan.h. */
#include "show_plan.h"
#include <stdlib.h>
#include <string.h>
#include "arch.h"
#include "fmt.h"
#include "roofline.h"
#include "textvals.h"
#include "util.h"

/* The sets that apply to stage of l (its lesson's parameters, the stage's tunables) into out; their count. */
static int stage_sets(const lesson *l, int stage, const plan_setting *sets, int nsets, plan_setting *out)
{
	int n = 0;
	for (int i = 0; i < nsets && n < 16; i++)
		if (lesson_find_param(l, sets[i].name) || lesson_find_tunable(&l->stages[stage], sets[i].name)) out[n++] = sets[i];
	return n;
}

static void put_value(FILE *f, const expr_value *v)
{
	if (v->kind == EXPR_INT) fprintf(f, "%lld", (long long)v->i);
	else fprintf(f, "%g", v->f);
}

/* "NAME = VALUE" for each name of names[0..n) the plan has, after label; nothing when none. */
static void put_vars(FILE *f, const plan *p, const char *label, const char *const *names, int n)
{
	int k = 0;
	for (int i = 0; i < n; i++) {
		const expr_value *v = names[i] ? plan_var_get(p, names[i]) : NULL;
		if (!v) continue;
		fprintf(f, "%s%s = ", k++ ? ", " : label, names[i]);
		put_value(f, v);
	}
	if (k) fputc('\n', f);
}

/* The recording of the architecture's GPU (cc), its device and roofs for the stage's peak: 0, or -1. */
static int recorded_roofs(int cc, const lesson *l, int stage, textvals_ref **ref, roofline_roofs *rf)
{
	char why[256];
	if (!*ref) {   /* the lesson's tree's recordings first, then the shipped ones */
		char *own = textvals_tree_recorded(l);
		if (own) *ref = textvals_ref_find_device(own, cc);
		free(own);
	}
	if (!*ref) *ref = textvals_ref_find_device(NULL, cc);
	const device_info *d = textvals_ref_device(*ref);
	return d && !roofline_roofs_of(d, lesson_stage_peak(l, stage), rf, why, sizeof why) ? 0 : -1;
}

/* The model's bound of p under rf in ms, and which roof sets it; 0 when the model is empty. */
static double bound_ms(const plan *p, const roofline_roofs *rf, const char **which)
{
	double mem = rf->mem_gbps > 0 ? p->bytes / (rf->mem_gbps * 1e6) : 0, comp = rf->compute_gflops > 0 ? p->flops / (rf->compute_gflops * 1e6) : 0;
	*which = comp > mem ? "compute" : "memory";
	return mem > comp ? mem : comp;
}

static const char *arch_name(engine *e, plan_device *pd)
{
	static char name[16];
	engine_plan_device(e, pd);
	strfmt(name, sizeof name, "sm_%d", pd->cc);
	return name;
}

void show_plan_stage(FILE *f, engine *e, const lesson *l, int stage, const plan_setting *sets, int nsets)
{
	plan_device pd;
	const char *an = arch_name(e, &pd);
	const arch_info *a = arch_find(an);
	plan_setting own[16];
	int n = stage_sets(l, stage, sets, nsets, own);
	int typical = a && pd.sm_count == a->typical_sm_count;   /* the table's part, not a GPU a compile asked about */
	fprintf(f, "\nPlanned at the %s for %s (no GPU needed: %s%s%s%d SMs; --arch, --set and --case change it):\n", n ? "settings given" : "defaults",
	        an, typical ? "a typical " : "", typical ? a->typical_part : "", typical ? ", " : "", pd.sm_count);
	plan p;
	char err[1024];
	if (plan_make(&p, l, stage, own, n, &pd, err, sizeof err)) {
		fputs("   refused: ", f);
		fput_clean(f, err);
		fputc('\n', f);
		plan_free(&p);
		return;
	}
	const lesson_stage *s = &l->stages[stage];
	const char **names = xcalloc((size_t)(l->nparams + s->ntunables + l->nderived + s->nderived + 1), sizeof *names);
	int k = 0;
	for (int i = 0; i < l->nparams; i++) names[k++] = l->params[i].name;
	put_vars(f, &p, "   parameters: ", names, k);
	k = 0;
	for (int i = 0; i < s->ntunables; i++) names[k++] = s->tunables[i].name;
	put_vars(f, &p, "   tunables: ", names, k);
	k = 0;
	for (int i = 0; i < l->nderived; i++) names[k++] = l->derived[i].name;
	for (int i = 0; i < s->nderived; i++) names[k++] = s->derived[i].name;
	put_vars(f, &p, "   derived: ", names, k);
	free(names);
	for (int i = 0; i < p.nlaunches && i < 8; i++) {
		const plan_launch *L = &p.launches[i];
		fprintf(f, "   %s", plan_result_step_name(L->kind));
		if (L->kind == STEP_LAUNCH)
			fprintf(f, " %s: grid %u x %u x %u, block %u x %u x %u, %zu bytes of dynamic shared memory", L->entry, L->grid[0], L->grid[1],
			        L->grid[2], L->block[0], L->block[1], L->block[2], L->shared);
		else if (L->kind == STEP_MEMSET) fprintf(f, " %s", L->buffer);
		else if (L->kind == STEP_COPY) fprintf(f, " %s to %s, %llu bytes", L->src, L->buffer, (unsigned long long)L->bytes);
		else fprintf(f, " %s", L->entry ? L->entry : "");
		if (L->stream) fprintf(f, " (stream %d)", L->stream);
		if (L->pdl) fputs(", programmatic dependent launch", f);
		fputc('\n', f);
	}
	if (p.nlaunches > 8) fprintf(f, "   ... %d more steps\n", p.nlaunches - 8);
	char b[32], fl[32], t[32];
	fprintf(f, "   model: %s moved, %s flops\n", fmt_bytes(b, sizeof b, p.bytes), p.flops > 0 ? fmt_num(fl, sizeof fl, p.flops) : "no");
	textvals_ref *ref = NULL;
	roofline_roofs rf;
	const char *which;
	double ms;
	if (recorded_roofs(pd.cc, l, stage, &ref, &rf)) fprintf(f, "   bound: no recording of an %s GPU gives peaks (assets/recorded/)\n", an);
	else if (!((ms = bound_ms(&p, &rf, &which)) > 0)) fprintf(f, "   bound: none (the model names no bytes or flops)\n");
	else {
		char mg[32], cg[32];
		fprintf(f, "   bound: %s (%s) on the %s: %s attainable and %s %s, as recorded in %s.\n"
		        "   The fastest the model allows: a starting point for a claim's threshold (lessons/README.md,\n"
		        "   \"Drafting thresholds without a GPU\").\n",
		        fmt_time(t, sizeof t, ms), which, textvals_ref_gpu(ref), fmt_gbps(mg, sizeof mg, rf.mem_gbps),
		        fmt_gflops(cg, sizeof cg, rf.compute_gflops), rf.compute_name, textvals_ref_file(ref));
	}
	textvals_ref_free(ref);
	plan_free(&p);
}

void show_plan_bounds(FILE *f, engine *e, const lesson *l, const plan_setting *sets, int nsets)
{
	plan_device pd;
	const char *an = arch_name(e, &pd);
	textvals_ref *ref = NULL;
	int header = 0;
	for (int s = 0; s < l->nstages; s++) {
		plan_setting own[16];
		int n = stage_sets(l, s, sets, nsets, own);
		plan p;
		char err[1024], t[32], b[32], fl[32];
		roofline_roofs rf;
		const char *which;
		double ms;
		if (plan_make(&p, l, s, own, n, &pd, err, sizeof err) || recorded_roofs(pd.cc, l, s, &ref, &rf) || !((ms = bound_ms(&p, &rf, &which)) > 0)) {
			plan_free(&p);
			continue;
		}
		if (!header++) {
			char mg[32];
			fprintf(f, "\nModel bounds at the %s for %s, under the %s's recorded peaks (%s attainable;\n"
			        "%s): the fastest the model allows each stage, a starting point for claim thresholds\n"
			        "(show LESSON/STAGE plans one in full):\n",
			        nsets ? "settings given" : "defaults", an, textvals_ref_gpu(ref), fmt_gbps(mg, sizeof mg, rf.mem_gbps), textvals_ref_file(ref));
		}
		fprintf(f, "  %s: bound %s (%s); the model: %s, %s flops\n", l->stages[s].id, fmt_time(t, sizeof t, ms), which,
		        fmt_bytes(b, sizeof b, p.bytes), p.flops > 0 ? fmt_num(fl, sizeof fl, p.flops) : "no");
		plan_free(&p);
	}
	textvals_ref_free(ref);
}

/* Whether text names {theoretical_occupancy}. */
static int names_occupancy(const char *text) { return text && strstr(text, "{theoretical_occupancy}"); }

run_result *show_plan_compiles(engine *e, const lesson *l, int stage, const plan_setting *sets, int nsets)
{
	run_result *r = NULL;
	for (int s = stage < 0 ? 0 : stage; s < (stage < 0 ? l->nstages : stage + 1); s++) {
		if (!names_occupancy(l->stages[s].explain) && !names_occupancy(l->stages[s].bottleneck)) continue;
		if (!r) {
			r = xcalloc((size_t)l->nstages, sizeof *r);
			for (int i = 0; i < l->nstages; i++) run_result_init(&r[i]);
		}
		engine_job j = { .lesson = l, .stage = s, .compile_only = 1 };
		j.nsets = stage_sets(l, s, sets, nsets, j.sets);
		run_result_clear(&r[s]);
		engine_run_sync(e, &j, &r[s]);
	}
	return r;
}

void show_plan_compiles_free(run_result *r, int n)
{
	for (int i = 0; r && i < n; i++) run_result_clear(&r[i]);
	free(r);
}
