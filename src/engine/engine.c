/* engine: jobs go plan -> compile (child process) -> reference compile -> run in the worker, as many
 * at a time as there are workers; engine_poll moves them along without blocking. The engine itself is
 * made in engine_setup.c. See engine.h. */
#include "engine_int.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "diagnose.h"
#include "occupancy.h"
#include "plan_wire.h"
#include "sanitize.h"
#include "sigcheck.h"
#include "util.h"

void engine_job_free(job *j)
{
	if (j->j.sanitize && j->w) runner_worker_free(j->w);
	if (j->san_log[0]) unlink(j->san_log);
	free((char *)j->j.kernel_text);
	free((char *)j->j.kernel_name);
	compile_job_free(j->cj);
	plan_free(&j->p);
	if (j->have_rp) plan_free(&j->rp);
	if (j->have_bp) plan_free(&j->bp);
	run_result_clear(&j->r);
	free(j);
}

void engine_set_listener(engine *e, engine_listener fn, void *ctx) { e->fn = fn; e->ctx = ctx; }


/* With CUDACLIMB_TRACE=FILE, one line per finished job: how long it took from submit to result. Only
 * a plain file is written (made 0600 when new): a link is not followed, a FIFO never waited on. */
static void trace(const job *j)
{
	const char *path = getenv("CUDACLIMB_TRACE");
	int fd = path && *path ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600) : -1;
	struct stat st;
	FILE *f = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? fdopen(fd, "a") : NULL;
	if (!f) {
		if (fd >= 0) close(fd);
		return;
	}
	fprintf(f, "job %d %s/%s status=%s cached=%d compile_ms=%.1f total_ms=%.1f ms_median=%.4f settings=\"%s\"\n", j->id,
	        j->r.lesson, j->r.stage, run_status_name(j->r.status), j->r.cached, j->r.compile_ms, now_ms() - j->submitted,
	        j->r.ms_median, j->r.settings);
	fclose(f);
}

/* The result says when the stage's defaults were adjusted for this GPU (in place of "compiled"). */
static void note_adjusted(job *j)
{
	run_result *r = &j->r;
	if (!j->adjusted[0]) return;
	char was[sizeof r->message];
	strfmt(was, sizeof was, "%s", r->status == RUN_OK && !strcmp(r->message, "compiled") ? "" : r->message);
	strfmt(r->message, sizeof r->message, "%s%sdefaults adjusted for this GPU: %s", was, was[0] ? "; " : "", j->adjusted);
}

static void notify(engine *e, job *j, job_phase ph, const char *note)
{
	if (ph == JOB_DONE) { note_adjusted(j); trace(j); }
	if (e->fn && !j->cancelled) e->fn(e->ctx, j->id, ph, note, ph == JOB_DONE ? &j->r : NULL);
}

/* Whether the worker answers from a recording (runner.h: recorded): nothing is compiled for it, and its
 * results are taken whole. */
static int recorded(const engine *e)
{
	return e->ws[0] && runner_worker_runner(e->ws[0])->cls->recorded;
}

static void finish(engine *e, job *j, run_status st, const char *msg)
{
	j->r.status = st;
	if (msg) strfmt(j->r.message, sizeof j->r.message, "%s", msg);
	j->step = ST_DONE;
	notify(e, j, JOB_DONE, NULL);
}

/* The architecture to compile for, or NULL with why ("needs sm_90a ...") when the stage cannot run here.
 * A GPU missing from assets/arch.yaml (or any GPU under CUDACLIMB_UNKNOWN_ARCH) gets PTX for the newest
 * known compute_XX at or below it, which the driver JITs (arch_fallback_target). */
static const char *compile_arch(engine *e, const lesson_stage *s, char *buf, size_t n, char *why, size_t wn)
{
	const device_info *d = &e->dev;
	int cc = e->o.arch ? arch_parse_cc(e->o.arch) : d->present ? d->cc : engine_setup_table_arch(e)->cc;
	if (cc < 0) cc = engine_setup_table_arch(e)->cc;
	if (s && s->req_arch) {
		int want = arch_parse_cc(s->req_arch);
		if (want != cc) {
			strfmt(why, wn, "needs %s: %s; code for %s runs only on compute capability %d.%d, the target is %d.%d", s->req_arch,
			       s->req_why ? s->req_why : "not for this GPU", s->req_arch, want / 10, want % 10, cc / 10, cc % 10);
			return NULL;
		}
	}
	if (s && s->req_cc && cc < s->req_cc) {
		strfmt(why, wn, "needs sm_%d: %s (the target is compute capability %d.%d)", s->req_cc, s->req_why ? s->req_why : "not for this GPU",
		       cc / 10, cc % 10);
		return NULL;
	}
	if (s && s->req_arch) {
		strfmt(buf, n, "%s", s->req_arch);
	} else if (e->o.arch) {
		strfmt(buf, n, "%s", e->o.arch);
		char *a = strchr(buf + 3, 'a');
		if (a && (!s || !s->req_arch)) *a = 0;   /* sm_90a code only for stages that ask for it */
	} else if (d->present && !arch_find_device(cc)) {
		int nv[64], nn = arch_nvrtc_supported(nv, 64);
		if (arch_fallback_target(cc, s ? s->req_cc : 0, nv, nn, buf, n, why, wn)) return NULL;
	} else {
		strfmt(buf, n, "sm_%d", cc);
	}
	return buf;
}

/* Compiles stage s's kernel (or, with own, the job's kernel text when it has one). */
static compile_job *start_compile(engine *e, job *j, const lesson_stage *s, int own, char *const *defs, int ndefs, char *err, size_t errlen)
{
	char arch[16], why[256];
	if (!compile_arch(e, s, arch, sizeof arch, why, sizeof why)) { strfmt(err, errlen, "%s", why); return NULL; }
	char **opts = xcalloc((size_t)(ndefs + s->noptions + 1), sizeof(char *));
	int n = 0;
	for (int i = 0; i < ndefs; i++) opts[n++] = defs[i];
	for (int i = 0; i < s->noptions; i++) opts[n++] = s->options[i];
	compile_request rq = { .kernel_path = s->kernel_path, .include_dir = j->j.lesson->kernel_dir, .shared_dir = e->shipped_common,
	                       .arch = arch, .options = opts, .noptions = n, .sass = j->j.counters };   /* the listing's tensor-core count goes with the counters */
	if (own && j->j.kernel_text) {
		rq.kernel_path = j->j.kernel_name;
		rq.source = j->j.kernel_text;
		rq.source_len = strlen(j->j.kernel_text);
		rq.untrusted = 1;   /* a learner's file: its includes are held to its own folder, the lessons and the toolkit */
	}
	compile_job *cj = compile_start(&rq, err, errlen);
	free(opts);
	return cj;
}

static void settings_text(const job *j, char *out, size_t n)
{
	sb b = {0};
	for (int i = 0; i < j->p.nvars; i++) {
		const char *name = j->p.vars[i].name;
		int show = lesson_find_param(j->j.lesson, name) || (j->j.stage >= 0 && lesson_find_tunable(&j->j.lesson->stages[j->j.stage], name));
		char v[48];
		if (show) sb_addf(&b, "%s%s=%s", b.len ? " " : "", name, expr_format(j->p.vars[i].v, v, sizeof v));
	}
	strfmt(out, n, "%s", b.s ? b.s : "");
	sb_free(&b);
}

static void occupancy_into(engine *e, const job *j, run_result *r);

/* Resources and theoretical occupancy of the stage's kernel (its entry's first launch), from the ptxas report. */
static void take_compile(engine *e, job *j, const compile_result *cr)
{
	run_result *r = &j->r;
	r->cached = cr->cached;
	r->compile_ms = cr->ms;
	strfmt(r->arch, sizeof r->arch, "%s", cr->arch);
	strfmt(r->cubin, sizeof r->cubin, "%s", cr->cubin_path);
	r->tensor_sass = cr->tensor_sass;
	plan_result_steps(&j->p, r);
	for (int i = 0; i < r->nsteps; i++) {
		const compile_entry *se = strcmp(r->steps[i].kind, "launch") ? NULL : compile_find_entry(cr, r->steps[i].entry);
		if (se && se->regs > 0) { r->steps[i].regs = se->regs; r->steps[i].static_smem = se->static_smem; }
	}
	/* The stage's kernel: the first launch of the stage's own entry (a stage may launch a helper
	 * first, as conv2d/winograd's filter transform), else its first launch. */
	const plan_launch *L = plan_main_launch(&j->p);
	if (!L) return;
	memcpy(r->grid, L->grid, sizeof r->grid);
	memcpy(r->block, L->block, sizeof r->block);
	r->dynamic_smem = (int64_t)L->shared;
	const compile_entry *ce = compile_find_entry(cr, L->entry);
	if (!ce) return;
	r->regs = ce->regs;
	r->static_smem = ce->static_smem;
	r->spill_stores = ce->spill_stores;
	r->spill_loads = ce->spill_loads;
	r->stack_bytes = ce->stack_bytes;
	occupancy_into(e, j, r);
}

/* Theoretical occupancy of the stage's kernel (plan_main_launch) from r's resources, with the GPU's own limits
 * when there is one (the table's granularity rules), else the --arch table's. */
/* The limits occupancy is computed with: the GPU's own when there is one (the table's granularity
 * rules), else the --arch table's; its SM count into *sm_count. */
static const arch_info *occ_limits(engine *e, arch_info *live, int *sm_count)
{
	if (e->o.arch && !arch_find(e->o.arch)) return NULL;   /* --arch NVRTC takes, with no limits table */
	const arch_info *a = engine_setup_table_arch(e);
	*sm_count = a->typical_sm_count;
	if (e->dev.present && !e->o.arch && !arch_find_device(e->dev.cc)) {   /* a GPU the table lacks: its attributes */
		arch_device_limits dl = { e->dev.max_threads_per_block, e->dev.max_threads_per_sm, e->dev.max_blocks_per_sm, e->dev.regs_per_sm,
		                          e->dev.regs_per_block, e->dev.warp_size, e->dev.sm_count, (size_t)e->dev.smem_per_sm,
		                          (size_t)e->dev.smem_per_block, (size_t)e->dev.smem_per_block_optin,
		                          (size_t)e->dev.smem_reserved_per_block, (size_t)e->dev.l2_bytes };
		arch_from_device(live, e->dev.cc, &dl);
		*sm_count = e->dev.sm_count;
		return live;
	}
	if (e->dev.present && !e->o.arch && arch_find_device(e->dev.cc)) {
		*live = *arch_find_device(e->dev.cc);
		live->max_threads_per_block = e->dev.max_threads_per_block;
		live->max_threads_per_sm = e->dev.max_threads_per_sm;
		live->max_blocks_per_sm = e->dev.max_blocks_per_sm;
		live->regs_per_sm = e->dev.regs_per_sm;
		live->regs_per_block = e->dev.regs_per_block;
		live->smem_per_sm = (size_t)e->dev.smem_per_sm;
		live->smem_per_block_optin = (size_t)e->dev.smem_per_block_optin;
		*sm_count = e->dev.sm_count;
		a = live;
	}
	return a;
}

static void occupancy_into(engine *e, const job *j, run_result *r)
{
	const plan_launch *L = plan_main_launch(&j->p);
	if (!L || r->regs <= 0) return;
	arch_info live;
	int sm_count;
	const arch_info *a = occ_limits(e, &live, &sm_count);
	if (!a) return;
	occ_kernel k = { (int)(L->block[0] * L->block[1] * L->block[2]), r->regs, (size_t)r->static_smem, L->shared };
	occ_result o;
	char err[256];
	if (occ_compute(a, &k, &o, err, sizeof err) == 0) {
		r->occ_blocks = o.active_blocks;
		r->occ_warps = o.active_warps;
		r->occ_max_warps = o.max_warps;
		r->occ_theoretical = o.occupancy;
		strfmt(r->occ_limiter, sizeof r->occ_limiter, "%s", occ_limiter_name(o.limiter));
	} else {
		strfmt(r->occ_limiter, sizeof r->occ_limiter, "%s", err);
	}
}

/* A plan whose expressions read occ_block or occ_min_grid is made again once its kernel is compiled
 * (cr), with what cudaOccupancyMaxPotentialBlockSize answers for that kernel, computed here from its
 * resources (occ_potential_block): the first plan, which gave the compile its defines, had the
 * fallbacks. The tunables, and so the defines, do not change. Returns 0 (p kept when the answer is not
 * known), or -1 with err when the new plan is refused. */
static int plan_occ(engine *e, plan *p, const plan_setting *sets, int nsets, const compile_result *cr, char *err, size_t errlen)
{
	const plan_launch *L = plan_main_launch(p);
	const compile_entry *ce = L ? compile_find_entry(cr, L->entry) : NULL;
	if (!p->uses_occ || !ce || ce->regs <= 0) return 0;
	arch_info live;
	int sm_count;
	const arch_info *a = occ_limits(e, &live, &sm_count);
	if (!a) return 0;
	occ_kernel k = { 0, ce->regs, (size_t)ce->static_smem, L->shared };
	plan_device pd;
	char why[256];
	engine_plan_device(e, &pd);
	if (occ_potential_block(a, sm_count, &k, ce->max_threads, &pd.occ_block, &pd.occ_min_grid, why, sizeof why)) return 0;
	plan again;
	if (plan_make(&again, p->l, p->stage, sets, nsets, &pd, err, errlen)) { plan_free(&again); return -1; }
	plan_free(p);
	*p = again;
	return 0;
}

static int reference_stage(const lesson *l)
{
	if (!l->reference || !l->ncompare) return -2;
	return !strcmp(l->reference, "baseline") ? -1 : lesson_stage_index(l, l->reference);
}

/* A worker of the job's own, run under compute-sanitizer with its report in a temporary file. */
static worker *sanitizer_worker(engine *e, job *j, char *err, size_t errlen)
{
	char tool[1024], *argv[16];
	if (e->runner.kind != RUNNER_LOCAL) {
		strfmt(err, errlen, "compute-sanitizer runs only with the local runner (this is %s), so %s cannot say where",
		       runner_kind_name(e->runner.kind), san_tool_name((san_tool)j->j.sanitize));
		return NULL;
	}
	if (san_find(tool, sizeof tool)) {
		strfmt(err, errlen, "compute-sanitizer is not installed (it comes with the CUDA Toolkit), so %s cannot say where", san_tool_name((san_tool)j->j.sanitize));
		return NULL;
	}
	strfmt(j->san_log, sizeof j->san_log, "/tmp/cudaclimb-sanitize-XXXXXX");
	int fd = mkstemp(j->san_log);
	if (fd < 0) { strfmt(err, errlen, "cannot create a file for the sanitizer's report: %s", strerror(errno)); j->san_log[0] = 0; return NULL; }
	close(fd);
	san_argv(tool, (san_tool)j->j.sanitize, j->san_log, argv, 16);
	return engine_setup_worker(e, e->o.gpu, argv);
}

/* The sanitizer's first finding into r (its report read once the worker is done with it). */
static void take_sanitizer(job *j, run_result *r)
{
	if (!j->j.sanitize || !j->san_log[0]) return;
	char *report = file_read(j->san_log, NULL);
	san_parse((san_tool)j->j.sanitize, report, j->j.kernel_name, r->sanitizer, sizeof r->sanitizer);
	free(report);
}

/* path's bytes as the request's blob key; 0, or -1 with err. */
static int add_file(sb *b, const char *key, const char *name, const char *path, char *err, size_t errlen)
{
	size_t len = 0;
	char *data = file_read(path, &len);
	if (!data) { strfmt(err, errlen, "cannot read %s: %s", path, strerror(errno)); return -1; }
	runner_worker_add_blob(b, key, name, data, len);
	free(data);
	return 0;
}

/* The job's settings that are the lesson's parameters (a reference runs at its own defaults). */
static int param_sets(const job *j, plan_setting *out)
{
	int n = 0;
	for (int i = 0; i < j->j.nsets; i++) if (lesson_find_param(j->j.lesson, j->j.sets[i].name)) out[n++] = j->j.sets[i];
	return n;
}

/* Appends to out[n..16) the values the checked run has for the tunables check.follow names, where its
 * stage has them (set or default: read from its plan); the new count. followed gets "R=4 " words. */
static int follow_sets(const job *j, plan_setting *out, int n, char *followed, size_t flen)
{
	const lesson *l = j->j.lesson;
	followed[0] = 0;
	if (j->j.stage < 0) return n;
	for (int f = 0; f < l->nfollow && n < 16; f++) {
		if (!lesson_find_tunable(&l->stages[j->j.stage], l->follow[f])) continue;
		for (int i = 0; i < j->p.nvars; i++) {
			if (strcmp(j->p.vars[i].name, l->follow[f])) continue;
			strfmt(out[n].name, sizeof out[n].name, "%s", l->follow[f]);
			expr_format(j->p.vars[i].v, out[n].value, sizeof out[n].value);
			strfmt(followed + strlen(followed), flen - strlen(followed), "%s%s=%s", *followed ? " " : "", out[n].name, out[n].value);
			n++;
			break;
		}
	}
	return n;
}

/* What the check compares with, for the result: the reference stage and the tunables it runs at
 * ("plain SCALE=2 BLOCK=256"), or "baseline". */
static void reference_text(const job *j, const plan *ref, char *out, size_t n)
{
	if (j->ref_stage < 0) { strfmt(out, n, "baseline"); return; }
	const lesson_stage *s = &j->j.lesson->stages[j->ref_stage];
	sb b = {0};
	sb_add(&b, s->id);
	for (int i = 0; i < ref->nvars; i++) {
		char v[48];
		if (lesson_find_tunable(s, ref->vars[i].name)) sb_addf(&b, " %s=%s", ref->vars[i].name, expr_format(ref->vars[i].v, v, sizeof v));
	}
	strfmt(out, n, "%s", b.s);
	sb_free(&b);
}

/* The reference's plan, made once: the one compile_other made for a stage of its own, else the
 * baseline's (planned here: nothing to compile), else the job's own plan (the reference is this stage
 * at exactly these settings). NULL with err when the reference is refused. */
static const plan *reference_plan(engine *e, job *j, char *err, size_t errlen)
{
	if (j->have_rp) return &j->rp;
	if (j->ref_stage >= 0) return &j->p;
	plan_device pd;
	engine_plan_device(e, &pd);
	j->ref_nsets = param_sets(j, j->ref_sets);
	j->have_rp = 1;
	return plan_make(&j->rp, j->j.lesson, -1, j->ref_sets, j->ref_nsets, &pd, err, errlen) ? NULL : &j->rp;
}

/* A worker no other job is running on (made when it is not yet); with as many jobs under way as there
 * are workers at most, there is one. */
static worker *idle_worker(engine *e, const job *self)
{
	for (int k = 0; k < e->nws; k++) {
		int i = (e->turn + k) % e->nws, busy = 0;   /* in turn, so that work spreads */
		for (const job *q = e->queue; q && !busy; q = q->next) busy = q != self && q->step == ST_RUN && q->w == e->ws[i];
		if (busy) continue;
		if (!e->ws[i]) e->ws[i] = engine_setup_worker(e, engine_setup_worker_gpu(e, i), NULL);
		e->turn = i + 1;
		return e->ws[i];
	}
	if (!e->ws[0]) e->ws[0] = engine_setup_worker(e, engine_setup_worker_gpu(e, 0), NULL);
	return e->ws[0];
}

/* Who ran a result, for its runner field: "local", "local gpu 1", "ssh gpu1 gpu 0". */
static void worker_label(const worker *w, char *out, size_t n)
{
	const runner *r = runner_worker_runner(w);
	char where[80];
	r->cls->describe(r, where, sizeof where);
	if (r->gpu >= 0) strfmt(out, n, "%s gpu %d", where, r->gpu);
	else strfmt(out, n, "%s", where);
}

/* "job LESSON STAGE [NAME...]": what the run is, in words (runner_worker.h), for a recording to look it up;
 * a tunable set to its default is NAME*, so that a recording made before the tunable existed still
 * answers for it. */
static void job_line(engine *e, const job *j, sb *b)
{
	const lesson *l = j->j.lesson;
	const lesson_stage *s = j->j.stage >= 0 ? &l->stages[j->j.stage] : NULL;
	plan_device pd;
	engine_plan_device(e, &pd);
	sb_addf(b, "job %s %s", l->id, s ? s->id : lesson_baseline_at(l, j->j.stage)->id);
	for (int i = 0; i < j->j.nsets; i++) {
		const lesson_tunable *t = s ? lesson_find_tunable(s, j->j.sets[i].name) : NULL;
		const expr_value *v = t ? plan_var_get(&j->p, t->name) : NULL;
		int64_t def;
		char err[64];
		int at_def = v && !plan_tunable_default(l, s, (int)(t - s->tunables), &pd, &def, err, sizeof err) &&
		             expr_as_int(*v) == def && expr_as_double(*v) == (double)def;
		sb_addf(b, " %s%s", j->j.sets[i].name, at_def ? "*" : "");
	}
	sb_add(b, "\n");
}

/* A recorded result, taken whole: it was merged and diagnosed when it was made. One that names no
 * lesson is no record: its status and message only. */
static void take_recorded(engine *e, job *j, run_result *w)
{
	if (!w->lesson[0]) { finish(e, j, w->status, w->message); run_result_clear(w); return; }
	run_result_clear(&j->r);
	j->r = *w;
	run_result_init(w);
	j->step = ST_DONE;
	notify(e, j, JOB_DONE, NULL);
}

/* The baseline a stage is compared with and timed beside: bench --pair's (pair_with), else its own
 * (its baseline: NAME, else the lesson's); 0 for a baseline's own job or a stage without one. */
static int paired_baseline(const job *j)
{
	if (j->j.stage < 0) return 0;
	return j->j.pair_with < 0 ? j->j.pair_with : lesson_stage_baseline(j->j.lesson, j->j.stage);
}

static void send_run(engine *e, job *j)
{
	char err[1024];
	if (j->j.sanitize && !recorded(e)) {
		if (!j->w && !(j->w = sanitizer_worker(e, j, err, sizeof err))) { finish(e, j, RUN_UNSUPPORTED, err); return; }
	} else {
		j->w = idle_worker(e, j);
	}
	if (runner_worker_ensure(j->w, err, sizeof err)) { finish(e, j, e->runner.kind != RUNNER_LOCAL ? RUN_RUNNER_ERROR : RUN_CRASH, err); return; }
	/* The lesson and the compiled code go as bytes: the worker may be on another machine. */
	sb b = {0};
	uint64_t seed = j->j.has_seed ? j->j.seed : e->seed;
	double limit = j->j.sanitize ? (e->o.timeout_s * 10 > 60 ? e->o.timeout_s * 10 : 60) : e->o.timeout_s;
	const plan *ref = NULL;
	if (j->ref_stage > -2 && !(ref = reference_plan(e, j, err, sizeof err))) {
		char msg[1200];
		strfmt(msg, sizeof msg, "the reference cannot run: %s", err);
		finish(e, j, RUN_REFUSED, msg);
		return;
	}
	if (ref) reference_text(j, ref, j->r.reference, sizeof j->r.reference);
	/* The stage's baseline beside it (paired_baseline): its plan, made with the lesson's parameters as
	 * the stage's run has them. */
	int base = paired_baseline(j);
	int pair_base = j->j.pair_baseline && base < 0 && !j->j.sanitize && !j->j.no_time;
	if (pair_base && !j->have_bp) {
		plan_device pd;
		plan_setting sets[16];
		engine_plan_device(e, &pd);
		j->have_bp = 1;
		if (plan_make(&j->bp, j->j.lesson, base, sets, param_sets(j, sets), &pd, err, sizeof err)) {
			char msg[1200];
			strfmt(msg, sizeof msg, "the baseline beside the stage cannot run: %s", err);
			finish(e, j, RUN_REFUSED, msg);
			return;
		}
	}
	sb_add(&b, "run\n");
	job_line(e, j, &b);
	sb text = {0};
	plan_wire_write(&text, &j->p);
	runner_worker_add_blob(&b, "plan", NULL, text.s, text.len);
	if (pair_base) {
		text.len = 0;
		plan_wire_write(&text, &j->bp);
		runner_worker_add_blob(&b, "pair_plan", NULL, text.s, text.len);
	}
	if (ref) {
		text.len = 0;
		plan_wire_write(&text, ref);
		runner_worker_add_blob(&b, "ref_plan", NULL, text.s, text.len);
	}
	sb_free(&text);
	int bad = (j->cubin[0] && add_file(&b, "cubin", NULL, j->cubin, err, sizeof err)) ||
	          (j->ref_cubin[0] && add_file(&b, "ref_cubin", NULL, j->ref_cubin, err, sizeof err)) ||
	          (j->pair_cubin[0] && add_file(&b, "pair_cubin", NULL, j->pair_cubin, err, sizeof err));
	if (bad) { sb_free(&b); finish(e, j, RUN_CRASH, err); return; }
	sb_addf(&b, "seed %llu\nverify 1\ntime %d\nreps %d\nbudget %d\ncounters %d\nwatchdog %.0f\n",
	        (unsigned long long)seed, !j->j.no_time && !j->j.sanitize, e->o.reps, e->o.time_budget_ms,
	        j->j.counters && !e->o.no_counters && !j->j.sanitize, limit + 5);   /* our watchdog acts first */
	if (j->j.untrusted) sb_add(&b, "untrusted 1\n");
	if (j->j.pair && j->j.decide_bar > 0) sb_addf(&b, "decide %.17g\n", j->j.decide_bar);
	if (j->j.hotspots && !j->j.sanitize) sb_add(&b, "hotspots 1\n");
	if (j->j.has_tolerance) sb_addf(&b, "tolerance %d %.17g %.17g %.17g\n", j->j.exact, j->j.rel_tol, j->j.abs_tol, j->j.norm_tol);
	sb_add(&b, "end\n");
	bad = runner_worker_send(j->w, b.s, b.len);
	sb_free(&b);
	if (bad) { runner_worker_kill(j->w); finish(e, j, RUN_CRASH, "the GPU worker is gone"); return; }
	j->step = ST_RUN;
	notify(e, j, JOB_RUNNING, NULL);
}

/* Starts compiling stage s (its own kernel) for the step st: the pair with the job's own defines (it
 * runs the job's plan), the reference with those of its own plan, made here once, where only the
 * lesson's parameters apply (it runs with its default tunables). */
static int compile_other(engine *e, job *j, int s, job_step st)
{
	const lesson *l = j->j.lesson;
	char err[1024];
	if (st == ST_COMPILE_REF) {
		plan_device pd;
		engine_plan_device(e, &pd);
		char adjusted[96], followed[256];
		j->ref_nsets = follow_sets(j, j->ref_sets, param_sets(j, j->ref_sets), followed, sizeof followed);
		j->have_rp = 1;
		if (plan_fit_make(&j->rp, l, s, j->ref_sets, &j->ref_nsets, 16, &pd, adjusted, sizeof adjusted, err, sizeof err)) {
			char msg[1200];
			if (*followed)
				strfmt(msg, sizeof msg, "cannot check this run: the reference stage %s must run at %s (check.follow), and %s",
				       l->stages[s].id, followed, err);
			else strfmt(msg, sizeof msg, "the reference stage %s cannot run: %s", l->stages[s].id, err);
			finish(e, j, RUN_REFUSED, msg);
			return -1;
		}
	}
	const plan *p = st == ST_COMPILE_REF ? &j->rp : &j->p;
	j->cj = start_compile(e, j, &l->stages[s], 0, p->defines, p->ndefines, err, sizeof err);
	if (!j->cj) { finish(e, j, RUN_COMPILE_ERROR, err); return -1; }
	j->step = st;
	return 0;
}

/* After each compile: the stage's own kernel when it is timed as the pair, then the reference when
 * it is another stage, then the run. */
static void next_step(engine *e, job *j)
{
	if (j->step == ST_COMPILE || j->step == ST_QUEUED) {
		if (j->j.compile_only) { finish(e, j, RUN_OK, "compiled"); return; }
		engine_device(e);
		if (!e->dev.present) { finish(e, j, e->runner_failed ? RUN_RUNNER_ERROR : RUN_NO_GPU, e->dev.why); return; }
		if (e->o.arch) { finish(e, j, RUN_NO_GPU, "compiled for --arch; runs use the GPU's own architecture (leave out --arch)"); return; }
		j->ref_stage = reference_stage(j->j.lesson);
		if (j->j.pair && j->j.stage >= 0) {
			if (!j->j.kernel_text) strfmt(j->pair_cubin, sizeof j->pair_cubin, "%s", j->cubin);
			else { compile_other(e, j, j->j.stage, ST_COMPILE_PAIR); return; }
		}
	}
	if (j->step != ST_COMPILE_REF && j->ref_stage >= 0) {
		/* The reference is the stage's own kernel at its default tunables: a compile of its own,
		 * unless that is exactly what the pair or the job compiled. */
		if (j->ref_stage != j->j.stage || j->j.kernel_text || j->j.nsets) { compile_other(e, j, j->ref_stage, ST_COMPILE_REF); return; }
		strfmt(j->ref_cubin, sizeof j->ref_cubin, "%s", j->cubin);
	}
	send_run(e, j);
}

static void start_job(engine *e, job *j)
{
	const lesson *l = j->j.lesson;
	strfmt(j->r.lesson, sizeof j->r.lesson, "%s", l->id);
	const lesson_baseline *own = j->j.stage < 0 ? lesson_baseline_at(l, j->j.stage) : NULL;
	strfmt(j->r.stage, sizeof j->r.stage, "%s", j->j.stage >= 0 ? l->stages[j->j.stage].id : own->id);
	strfmt(j->r.case_name, sizeof j->r.case_name, "%s", j->j.case_name);
	strfmt(j->r.title, sizeof j->r.title, "%s", j->j.stage >= 0 ? l->stages[j->j.stage].title : own->title);
	/* The baseline a stage is compared with (timed beside it in a bench, its time_vs_baseline). */
	const lesson_baseline *cmp = lesson_baseline_at(l, paired_baseline(j));
	if (cmp) {
		strfmt(j->r.baseline, sizeof j->r.baseline, "%s", cmp->id);
		strfmt(j->r.baseline_title, sizeof j->r.baseline_title, "%s", cmp->title);
	}
	j->r.seed = j->j.has_seed ? j->j.seed : e->seed;
	if (!j->j.compile_only || recorded(e)) engine_device(e);
	plan_device pd;
	engine_plan_device(e, &pd);
	char err[1024], arch[16], why[256];
	/* A stage for another GPU says so first: its constraints may assume that GPU's limits. */
	if (j->j.stage >= 0 && !compile_arch(e, &l->stages[j->j.stage], arch, sizeof arch, why, sizeof why)) {
		finish(e, j, RUN_UNSUPPORTED, why);
		return;
	}
	if (plan_fit_make(&j->p, l, j->j.stage, j->j.sets, &j->j.nsets, 16, &pd, j->adjusted, sizeof j->adjusted, err, sizeof err)) {
		finish(e, j, RUN_REFUSED, err);
		return;
	}
	/* check: the stage planned at the lesson's edge sizes too (n = 1, a prime, the exercise's sizes),
	 * where counts and grids go wrong; planning is cheap, so once per stage (not per starter). */
	if (j->j.compile_only && !j->j.kernel_text && plan_edges(l, j->j.stage, j->j.sets, j->j.nsets, &pd, err, sizeof err)) {
		finish(e, j, RUN_REFUSED, err);
		return;
	}
	settings_text(j, j->r.settings, sizeof j->r.settings);
	/* A recording answers once the settings are known good, with no code (its record has the compile's
	 * facts); a compile needs no GPU, so a stage's code (its PTX, its SASS) is made for real. */
	if (recorded(e) && !(j->j.compile_only && j->j.stage >= 0)) {
		send_run(e, j);
		return;
	}
	if (j->j.stage < 0) {
		if (j->j.compile_only) { finish(e, j, RUN_OK, "a library call: nothing to compile"); return; }
		next_step(e, j);
		return;
	}
	j->cj = start_compile(e, j, &l->stages[j->j.stage], 1, j->p.defines, j->p.ndefines, err, sizeof err);
	if (!j->cj) { finish(e, j, RUN_COMPILE_ERROR, err); return; }
	j->step = ST_COMPILE;
	notify(e, j, JOB_COMPILING, NULL);
}

int engine_check_job(engine *e, const engine_job *jb, char *err, size_t errlen)
{
	const lesson *l = jb->lesson;
	char arch[16], why[256];
	if (!l || jb->stage >= l->nstages || (jb->stage < 0 && !lesson_baseline_at(l, jb->stage))) { strfmt(err, errlen, "no such stage"); return -1; }
	if (jb->stage >= 0 && !compile_arch(e, &l->stages[jb->stage], arch, sizeof arch, why, sizeof why)) return 0;
	plan_device pd;
	engine_plan_device(e, &pd);
	plan_setting sets[16];
	int n = jb->nsets;
	memcpy(sets, jb->sets, sizeof sets);
	plan p;
	int r = plan_fit_make(&p, l, jb->stage, sets, &n, 16, &pd, why, sizeof why, err, errlen);
	plan_free(&p);
	return r;
}

int engine_check_sets(engine *e, const engine_job *jb, char *err, size_t errlen)
{
	const lesson *l = jb->lesson;
	char arch[16], why[256];
	if (!l || jb->stage >= l->nstages || (jb->stage < 0 && !lesson_baseline_at(l, jb->stage))) { strfmt(err, errlen, "no such stage"); return -1; }
	if (jb->stage >= 0 && !compile_arch(e, &l->stages[jb->stage], arch, sizeof arch, why, sizeof why)) return 0;
	plan_device pd;
	engine_plan_device(e, &pd);
	plan p;
	int r = plan_make(&p, l, jb->stage, jb->sets, jb->nsets, &pd, err, errlen);
	plan_free(&p);
	return r;
}

/* "coalesced.cu:6: identifier "foo" is undefined" from NVRTC's "PATH(6): error: identifier ...",
 * else the first line that says error, else the first line. */
static void first_error(const char *log, char *out, size_t n)
{
	const char *any = NULL;
	for (const char *p = log; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		size_t len = strcspn(p, "\n");
		const char *err = memmem(p, len, "): error", 8), *open = NULL;
		if (!err) { if (!any && memmem(p, len, "error", 5)) any = p; continue; }
		for (const char *q = err; q > p && !open; q--) if (*q == '(') open = q;
		if (!open) { if (!any) any = p; continue; }
		const char *base = p, *msg = err + 8;
		for (const char *q = p; q < open; q++) if (*q == '/') base = q + 1;
		while (*msg == ':' || *msg == ' ') msg++;
		strfmt(out, n, "%.*s:%.*s: %.*s", (int)(open - base), base, (int)(err - open - 1), open + 1, (int)(len - (size_t)(msg - p)), msg);
		return;
	}
	const char *line = any ? any : log ? log : "";
	strfmt(out, n, "%.*s", (int)strcspn(line, "\n"), line);
}

/* The compiled kernel against the stage (sigcheck.h): 0, or -1 with the job finished as a compile error. */
static int check_signature(engine *e, job *j, const compile_result *cr)
{
	const char *file = j->j.kernel_name ? j->j.kernel_name : j->j.lesson->stages[j->j.stage].kernel_rel;
	char msg[1024];
	char *src = j->j.kernel_text ? NULL : file_read(j->j.lesson->stages[j->j.stage].kernel_path, NULL);
	int ok = !sigcheck_interface(&j->p, cr, file, j->r.issue, sizeof j->r.issue, msg, sizeof msg) &&
	         !sigcheck_pointer_types(&j->p, j->j.kernel_text ? j->j.kernel_text : src, file, j->r.issue, sizeof j->r.issue, msg, sizeof msg) &&
	         !sigcheck_constants(j->j.lesson, j->j.stage, cr, j->r.issue, sizeof j->r.issue, msg, sizeof msg);
	free(src);
	if (ok) return 0;
	finish(e, j, RUN_COMPILE_ERROR, msg);
	return -1;
}

static void step_compile(engine *e, job *j)
{
	if (!compile_step(j->cj, compile_timeout_ms(e->o.timeout_s))) return;
	const compile_result *cr = compile_get(j->cj);
	job_step st = j->step;
	if (!cr->ok) {
		free(j->r.log);
		j->r.log = xstrdup(cr->log);
		char msg[512], first[400];
		first_error(cr->log, first, sizeof first);
		strfmt(msg, sizeof msg, "%s%s%s", st == ST_COMPILE_REF ? "the reference stage did not compile: " : st == ST_COMPILE_PAIR ? "the stage's own kernel did not compile: " : "",
		       cr->crashed || cr->timed_out ? "" : "compile error: ", first);
		run_status status = cr->crashed ? RUN_CRASH : RUN_COMPILE_ERROR;
		if (cr->timed_out) strfmt(j->r.issue, sizeof j->r.issue, "compile_timeout");   /* not a crash: the limit ran out */
		compile_job_free(j->cj);
		j->cj = NULL;
		finish(e, j, status, msg);
		return;
	}
	int bad = 0;
	char err[1024];
	if (st == ST_COMPILE_REF) {
		strfmt(j->ref_cubin, sizeof j->ref_cubin, "%s", cr->cubin_path);
		if (plan_occ(e, &j->rp, j->ref_sets, j->ref_nsets, cr, err, sizeof err)) {
			char msg[1200];
			strfmt(msg, sizeof msg, "the reference stage %s cannot run: %s", j->j.lesson->stages[j->ref_stage].id, err);
			compile_job_free(j->cj);
			j->cj = NULL;
			finish(e, j, RUN_REFUSED, msg);
			return;
		}
	} else if (st == ST_COMPILE_PAIR) {
		strfmt(j->pair_cubin, sizeof j->pair_cubin, "%s", cr->cubin_path);
		if (j->ref_stage == j->j.stage && !j->j.nsets) strfmt(j->ref_cubin, sizeof j->ref_cubin, "%s", cr->cubin_path);
	} else {
		strfmt(j->cubin, sizeof j->cubin, "%s", cr->cubin_path);
		if (plan_occ(e, &j->p, j->j.sets, j->j.nsets, cr, err, sizeof err)) {
			compile_job_free(j->cj);
			j->cj = NULL;
			finish(e, j, RUN_REFUSED, err);
			return;
		}
		settings_text(j, j->r.settings, sizeof j->r.settings);
		take_compile(e, j, cr);
		free(j->r.log);
		j->r.log = xstrdup(cr->log);
		bad = check_signature(e, j, cr);
	}
	compile_job_free(j->cj);
	j->cj = NULL;
	if (bad) return;
	if (st == ST_COMPILE_PAIR && j->ref_cubin[0]) { send_run(e, j); return; }
	next_step(e, j);
}

/* The rules of assets/rules.yaml over the result's counters and the lesson's model. */
static void diagnose_into(engine *e, const lesson *l, int stage, run_result *r)
{
	if (r->status != RUN_OK && r->status != RUN_WRONG) return;
	diag_inputs in = { r->bytes, r->flops, e->dev.sm_count, traffic_gbps(traffic_of(l->traffic), &e->dev),
	                   peak_gflops(peak_of(lesson_stage_peak(l, stage)), &e->dev), e->dev.h2d_gbps, e->dev.d2h_gbps };
	r->findings.n = diagnose_run(r, &in, r->findings.f, RUN_FINDINGS_MAX);
}

/* Merges the worker's answer into the job's result (compile facts stay). When the compiler's
 * report gave no resources, the driver's (cudaFuncGetAttributes, from the worker) are used and the
 * occupancy is computed from them. */
static void take_result(engine *e, job *j, run_result *w)
{
	run_result *r = &j->r;
	int from_driver = r->regs == 0 && w->regs > 0;
	if (from_driver) {
		r->regs = w->regs;
		r->static_smem = w->static_smem;
		r->stack_bytes = w->stack_bytes;
		occupancy_into(e, j, r);
	}
	/* The engine's own facts stay: what it compiled, the launch and occupancy it planned, and what
	 * it ran (names are not the worker's to say). */
	static const char *const kept[] = {
		"regs", "spill_stores", "spill_loads", "stack_bytes", "cached", "static_smem", "dynamic_smem", "compile_ms",
		"tensor_sass", "arch", "cubin", "grid", "block", "occ_blocks", "occ_warps", "occ_max_warps", "occ_theoretical", "occ_limiter",
		"title", "lesson", "stage", "settings", "case", "reference", "baseline", "baseline_title", NULL,
	};
	if (field_copy_named(run_result_fields, run_result_nfields, w, r, kept)) {
		fprintf(stderr, "cudaclimb: take_result names a field run_result does not have\n");
		abort();
	}
	run_steps_merge(r, w);   /* the plan's steps with the worker's times */
	memcpy(w->steps, r->steps, sizeof w->steps); w->nsteps = r->nsteps;
	if (!w->log) { w->log = r->log; r->log = NULL; }
	run_result_clear(r);
	*r = *w;
	run_result_init(w);
	diagnose_into(e, j->j.lesson, j->j.stage, r);
	j->step = ST_DONE;
	notify(e, j, JOB_DONE, NULL);
}

static void step_run(engine *e, job *j)
{
	wmsg m;
	/* Under compute-sanitizer a kernel runs many times slower. */
	double limit = j->j.sanitize ? (e->o.timeout_s * 10 > 60 ? e->o.timeout_s * 10 : 60) : e->o.timeout_s;
	for (;;) {
		runner_worker_next(j->w, &m);
		switch (m.kind) {
		case WMSG_NONE:
			if (!j->waiting_gpu && runner_worker_idle_ms(j->w) > 1000 * limit) {
				runner_worker_kill(j->w);
				take_sanitizer(j, &j->r);
				char msg[256];
				strfmt(msg, sizeof msg, "the kernel did not finish within %.0f s: the worker was stopped and will be restarted (--timeout changes the limit)", limit);
				finish(e, j, RUN_HANG, msg);
			}
			return;
		case WMSG_NOTE:
			j->waiting_gpu = 1;
			notify(e, j, JOB_WAITING_GPU, m.text);
			if (!e->o.quiet) fprintf(stderr, "cudaclimb: %s\n", m.text);
			break;
		case WMSG_RUNNING: j->waiting_gpu = 0; break;
		case WMSG_BEAT: case WMSG_DEVICE: break;
		case WMSG_RESULT:
			/* After a fault the worker exits (its CUDA context may be broken): reap it now, so the
			 * next job starts a fresh one instead of writing to a closing pipe. A worker under the
			 * sanitizer is let finish its report first. */
			if (j->j.sanitize) runner_worker_close(j->w, 30000);
			else if (m.result.status == RUN_FAULT) runner_worker_kill(j->w);
			take_sanitizer(j, &m.result);
			if (runner_worker_runner(j->w)->cls->recorded) take_recorded(e, j, &m.result);
			else {
				worker_label(j->w, m.result.runner, sizeof m.result.runner);
				take_result(e, j, &m.result);
			}
			return;
		case WMSG_BAD:
			runner_worker_kill(j->w);
			__attribute__((fallthrough));   /* then as a worker that died */
		case WMSG_DIED: {
			char msg[600];
			strfmt(msg, sizeof msg, "%s while running this stage; a fresh worker starts with the next run", m.text);
			take_sanitizer(j, &j->r);
			finish(e, j, RUN_CRASH, msg);
			return;
		}
		}
	}
}

int engine_submit(engine *e, const engine_job *jb, char *err, size_t errlen)
{
	if (!jb->lesson || jb->stage >= jb->lesson->nstages || (jb->stage < 0 && !lesson_baseline_at(jb->lesson, jb->stage))) {
		strfmt(err, errlen, "no such stage");
		return -1;
	}
	job *j = xcalloc(1, sizeof *j);
	j->id = ++e->next_id;
	j->j = *jb;
	j->j.kernel_text = xstrdup(jb->kernel_text);
	j->j.kernel_name = xstrdup(jb->kernel_text ? (jb->kernel_name ? jb->kernel_name : "learner.cu") : NULL);
	j->submitted = now_ms();
	j->ref_stage = -2;
	run_result_init(&j->r);
	job **tail = &e->queue;
	while (*tail) tail = &(*tail)->next;
	*tail = j;
	return j->id;
}

void engine_cancel(engine *e, int id)
{
	for (job *j = e->queue; j; j = j->next) if (j->id == id) j->cancelled = 1;
}

int engine_busy(engine *e)
{
	int n = 0;
	for (job *j = e->queue; j; j = j->next) n += j->step != ST_DONE;
	return n;
}

/* The fd job j waits on, or -1. */
static int job_fd(const job *j)
{
	if ((j->step == ST_COMPILE || j->step == ST_COMPILE_PAIR || j->step == ST_COMPILE_REF) && j->cj) return compile_fd(j->cj);
	if (j->step == ST_RUN && j->w) return runner_worker_fd(j->w);
	return -1;
}

int engine_pollfds(engine *e, struct pollfd *fds, int max)
{
	int n = 0;
	for (job *j = e->queue; j && n < max; j = j->next) {
		int fd = j->step == ST_QUEUED || j->step == ST_DONE ? -1 : job_fd(j);
		if (fd >= 0) fds[n++] = (struct pollfd){ .fd = fd, .events = POLLIN };
	}
	return n;
}

static void advance(engine *e, job *j)
{
	if (j->step == ST_QUEUED) start_job(e, j);
	else if (j->step == ST_COMPILE || j->step == ST_COMPILE_PAIR || j->step == ST_COMPILE_REF) step_compile(e, j);
	else if (j->step == ST_RUN) step_run(e, j);
}

/* One pass over the queue: every job under way moves on, and queued ones start while fewer jobs than
 * workers are under way (one worker: one job at a time, in order). Finished jobs leave the queue;
 * *finished counts them. Returns whether anything changed. */
static int pass(engine *e, int *finished)
{
	int changed = 0, under_way = 0, compiling = 0;
	for (job **at = &e->queue; *at;) {
		job *j = *at;
		int beside = j->j.compile_only && e->o.compilers > 0;   /* a compile ahead of the runs: not in their line */
		if (j->cancelled && j->step == ST_QUEUED) j->step = ST_DONE;
		if (j->step == ST_QUEUED && (beside ? compiling >= e->o.compilers : under_way >= e->nws)) { at = &j->next; continue; }
		job_step before = j->step;
		if (j->step != ST_DONE) advance(e, j);
		if (j->step == ST_DONE) {
			*at = j->next;
			engine_job_free(j);
			(*finished)++;
			changed = 1;
			continue;
		}
		changed |= j->step != before;
		if (beside) compiling++;
		else under_way++;
		at = &j->next;
	}
	return changed;
}

int engine_poll(engine *e, int timeout_ms)
{
	double deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	int finished = 0;
	for (;;) {
		if (!e->queue) return finished;
		if (pass(e, &finished)) continue;
		if (finished) return finished;
		double left = deadline < 0 ? 250 : deadline - now_ms();
		if (left <= 0) return finished;
		struct pollfd pf[64];   /* the workers and the compiles beside them (engine_opts.compilers) */
		/* At most 250 ms at a time: the watchdog needs a tick even when the worker is silent. */
		int n = engine_pollfds(e, pf, 64);
		if (n) poll(pf, (nfds_t)n, left < 250 ? (int)left : 250);
		else usleep(1000);
	}
}

typedef struct { int id; run_result *out; int done; } sync_ctx;
static engine_listener saved_fn;
static void *saved_ctx;

static void sync_listener(void *ctx, int id, job_phase ph, const char *note, const run_result *r)
{
	sync_ctx *s = ctx;
	if (saved_fn) saved_fn(saved_ctx, id, ph, note, r);
	if (id == s->id && ph == JOB_DONE) { run_result_copy(s->out, r); s->done = 1; }
}

run_status engine_run_sync(engine *e, const engine_job *j, run_result *r)
{
	char err[512];
	run_result_init(r);
	sync_ctx s = { 0, r, 0 };
	saved_fn = e->fn;
	saved_ctx = e->ctx;
	e->fn = sync_listener;
	e->ctx = &s;
	s.id = engine_submit(e, j, err, sizeof err);
	if (s.id < 0) { r->status = RUN_REFUSED; strfmt(r->message, sizeof r->message, "%s", err); }
	while (s.id > 0 && !s.done) engine_poll(e, -1);
	e->fn = saved_fn;
	e->ctx = saved_ctx;
	return r->status;
}
