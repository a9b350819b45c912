/* gpu_worker: the worker process's loop: read a request, run it on the GPU, answer. Requests and
 * answers are the line protocol described in runner_worker.h. A CUDA error that may have broken the context
 * ends the process after the answer is sent; the parent starts a fresh one. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "arch.h"
#include "counters.h"
#include "gpu.h"
#include "gpulease.h"
#include "labwire.h"
#include "hotspots.h"
#include "launch_hold.h"
#include "lesson.h"
#include "plan_wire.h"
#include "read_bw.h"
#include "sha256.h"
#include "stats.h"
#include "util.h"
#include "worker_stdout.h"

/* Bytes that came on the pipe (runner_worker.h: "KEY LEN", then LEN bytes). */
typedef struct { char *data; size_t len; } blob;

typedef struct {
	blob plan, ref_plan;            /* the evaluated plans (plan_wire.h); ref_plan empty: no check */
	blob cubin, ref_cubin, pair_cubin;
	blob pair_plan;                 /* the pair's own plan (the baseline beside a stage); empty: the run's plan */
	int verify, time, reps, budget_ms, counters;
	int hotspots;                   /* after the other runs, a hotspot pass (hotspots.h) */
	int watchdog_s;                 /* no progress for this long in a run: the worker ends itself (0: never) */
	int untrusted;                  /* a learner's kernel: see runner_worker.h */
	int has_tol, exact; double rel_tol, abs_tol, norm_tol;
	double decide;                  /* > 0: the paired runs may stop once they decide the median ratio
	                                 * against this bar (a verdict's; decided() says when) */
	uint64_t seed;
} request;

static FILE *out;
static int watchdog_s;
static gpu_data data;
static char ref_key[1300];
static int sticky_error;
static counters *ctrs;
static int ctrs_failed;
static char ctrs_why[256];
static void *flush_buf;         /* 2x the L2, read before each timed sample so that it starts with clean lines only (l2_flush) */
static size_t flush_bytes;
static int flush_now;

/* A learner's timed job (untrusted): every repetition runs on inputs of its own, refilled from a
 * fresh seed that only this process knows, so that nothing a kernel kept from an earlier launch is
 * the answer to the next one; the stage's own kernel beside it runs on the same inputs, and its output
 * is what the learner's is checked against, repetition by repetition. learner_plan is the job's plan
 * while one runs (NULL otherwise: nothing is refilled for a trusted stage). */
static const plan *learner_plan;
/* The job's reference with its plan, when some inputs of the learner's job are derived from others (they
 * start as zeros and the reference fills them on its first launch: precision's narrow copies of x): run
 * after each refill so that they follow the repetition's inputs. NULL otherwise. */
static gpu_exec *deriver;
static const plan *deriver_plan;
static uint64_t coin_secret;

/* Tolerances of the check against the pair, and whether there is one. */
typedef struct { int exact; double abs, rel, norm; } pair_tol;
/* Two right answers may each be off the reference by its tolerance, in opposite directions: checked
 * against each other, a learner's output is allowed a little more than twice that (3x). A copy of
 * another input's answer, or garbage, is off by far more. */
#define PAIR_TOL_SCALE 3.0

/* Progress in a run: the watchdog starts again. Over ssh or in Slurm a worker whose parent is gone
 * would otherwise hold the GPU for as long as a hung kernel spins. */
static void alive(void)
{
	if (watchdog_s > 0) alarm((unsigned)watchdog_s);
}

static void send_note(void *ctx, const char *text)
{
	fprintf(out, "note %s\n", text);
	fflush(out);
}

static void send_result(const run_result *r)
{
	fprintf(out, "result\n");
	field_write_kv(out, run_result_fields, run_result_nfields, r);
	for (int i = 0; i < r->nsteps; i++) run_step_write(out, r, i);
	if (r->log) {
		fputs("log ", out);
		field_escape(out, r->log);
		fputc('\n', out);
	}
	if (r->hotspots) {
		fputs("hotspots ", out);
		field_escape(out, r->hotspots);
		fputc('\n', out);
	}
	fprintf(out, "end\n");
	fflush(out);
}

/* The code in b as a file gpu_exec can load (its module cache is keyed by the path, so the name is
 * the bytes' SHA-256: two codes that share a name are the same code, so a learner's cubin made to
 * match a weaker hash of the stage's cannot be handed back as the stage's own kernel): path filled,
 * or NULL for no code (a baseline) or a file that cannot be written. The caller unlinks it once loaded. */
static const char *code_file(const blob *b, char *path, size_t n, char *err, size_t errlen)
{
	if (!b->len) return NULL;
	sha256_ctx c;
	unsigned char d[32];
	char hex[65];
	sha256_init(&c);
	sha256_update(&c, b->data, b->len);
	sha256_final(&c, d);
	for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", d[i]);
	char host[64] = "";
	gethostname(host, sizeof host - 1);
	char why[600];
	char *dir = xdg_cache_dir(why, sizeof why);   /* private, and no other user's folder on its way */
	if (!dir) { strfmt(err, errlen, "no private folder for the code: %s", why); return NULL; }
	int len = snprintf(path, n, "%s/received-%s-%d-%s-%zu.cubin", dir, host, (int)getpid(), hex, b->len);
	free(dir);
	if (len < 0 || (size_t)len >= n) { strfmt(err, errlen, "the cache folder's path is too long for the code's file"); return NULL; }
	if (file_write_atomic(path, b->data, b->len)) { strfmt(err, errlen, "cannot write %s: %s", path, strerror(errno)); return NULL; }
	return path;
}

/* gpu_exec_new over the code in b (NULL code for none). */
static gpu_exec *exec_of(const plan *p, const blob *b, char *err, size_t errlen)
{
	char path[1024];
	const char *file = code_file(b, path, sizeof path, err, errlen);
	if (b->len && !file) return NULL;
	gpu_exec *x = gpu_exec_new(p, &data, file, err, errlen);
	if (file) unlink(file);
	return x;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* A CUDA error: record it; errors that poison the context end the worker after answering. */
static void fault(run_result *r, const char *what, cudaError_t e)
{
	r->status = RUN_FAULT;
	strfmt(r->message, sizeof r->message, "%s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
	cudaError_t again = cudaDeviceSynchronize();
	if (again != cudaSuccess || e == cudaErrorIllegalAddress || e == cudaErrorLaunchFailure ||
	    e == cudaErrorIllegalInstruction || e == cudaErrorMisalignedAddress || e == cudaErrorLaunchTimeout ||
	    e == cudaErrorHardwareStackError || e == cudaErrorAssert)
		sticky_error = 1;
	cudaGetLastError();
}

static void data_key(const plan *p, uint64_t seed, char *key, size_t n)
{
	sb b = {0};
	sb_addf(&b, "%s|%llu", p->lesson_path ? p->lesson_path : "", (unsigned long long)seed);
	for (int i = p->first_param; i < p->first_param + p->nparams && i < p->nvars; i++) {
		char buf[48];
		sb_addf(&b, "|%s=%s", p->vars[i].name, expr_format(p->vars[i].v, buf, sizeof buf));
	}
	strfmt(key, n, "%s", b.s);
	sb_free(&b);
}

/* The key of the reference's outputs: the data's key, its stage, and a hash of its plan as sent (its
 * launches' arguments: a tunable check.follow passes may change them without changing the code) and
 * of the code it ran (an edited reference kernel). */
static void ref_key_of(const char *key, const plan *rp, const blob *plan_text, const blob *code, char *dst, size_t n)
{
	sha256_ctx c;
	unsigned char d[32];
	char hex[65];
	sha256_init(&c);
	sha256_update(&c, plan_text->data ? plan_text->data : "", plan_text->len);
	sha256_update(&c, "\n--code--\n", 10);
	sha256_update(&c, code->data ? code->data : "", code->len);
	sha256_final(&c, d);
	for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", d[i]);
	strfmt(dst, n, "%s|ref %d %s", key, rp->stage, hex);
}

/* Runs the reference (its plan rp: a stage with default tunables, or the baseline) and keeps its
 * outputs. */
static int make_reference(const request *q, const plan *rp, run_result *r)
{
	char err[1024];
	char key[1200];
	data_key(rp, q->seed, key, sizeof key);
	if (gpu_data_prepare(&data, rp, key, q->seed, err, sizeof err) < 0) {
		r->status = RUN_FAULT;
		strfmt(r->message, sizeof r->message, "%s", err);
		return -1;
	}
	gpu_exec *x = exec_of(rp, &q->ref_cubin, err, sizeof err);
	cudaError_t e = cudaSuccess;
	if (!x) { r->status = RUN_FAULT; strfmt(r->message, sizeof r->message, "reference: %s", err); return -1; }
	if ((e = gpu_data_poison(&data, 0)) || (e = gpu_exec_launch(x, 0)) || (e = cudaDeviceSynchronize()) ||
	    (e = gpu_data_save_ref(&data, rp->compare, rp->ncompare))) {
		fault(r, "the reference run failed", e);
	}
	gpu_exec_free(x);
	if (e) return -1;
	ref_key_of(key, rp, &q->ref_plan, &q->ref_cubin, ref_key, sizeof ref_key);
	return 0;
}

/* The model's figures; pair_flops: the pair's model's flops (its own plan's, or p's). */
static void fill_metrics(const plan *p, double pair_flops, run_result *r)
{
	const device_info *d = gpu_device();
	double s = r->ms_median * 1e-3;
	r->bytes = p->bytes;
	r->flops = p->flops;
	r->working_set = (double)p->working_set;
	r->fits_l2 = p->working_set <= d->l2_bytes;
	if (s <= 0) return;
	r->gbps = p->bytes / s / 1e9;
	r->gflops = p->flops / s / 1e9;
	if (d->bw_theoretical_gbps > 0) r->pct_theoretical_bw = 100 * r->gbps / d->bw_theoretical_gbps;
	/* the plan's: read for read-mostly lessons, pcie (for the stage's copies, each way) for the host link, copy otherwise */
	double att = traffic_run_gbps(p->traffic, d, p->h2d_bytes, p->d2h_bytes);
	if (att > 0) {
		r->pct_attainable_bw = 100 * r->gbps / att;
		strfmt(r->attainable, sizeof r->attainable, "%s", traffic_name(traffic_used(p->traffic, d)));
	}
	double peak = peak_gflops(p->peak, d);   /* the plan's: chosen once, by the parent (peak_of) */
	if (peak > 0) r->pct_compute_peak = 100 * r->gflops / peak;
	/* FLOP per SM per cycle, from the median time and the median clock (the pair solves the same problem) */
	if (p->flops > 0 && d->sm_count > 0 && r->sm_clock_mhz > 0) r->flop_per_cycle_sm = p->flops / (s * r->sm_clock_mhz * 1e6 * d->sm_count);
	if (pair_flops > 0 && d->sm_count > 0 && r->pair_sm_clock_mhz > 0 && r->pair_ms_median > 0)
		r->pair_flop_per_cycle_sm = pair_flops / (r->pair_ms_median * 1e-3 * r->pair_sm_clock_mhz * 1e6 * d->sm_count);
}

/* Before a repetition of the kernel being judged: outputs poisoned; in a learner's job (learner_plan)
 * also the scratch buffers reset, before either kernel, so that nothing one left there (partial
 * sums of the stage's own kernel, timed alongside) can be read back by the other instead of computed;
 * and first the inputs (learner_plan): refilled from seed, or the job's own again (seed 0). */
/* A learner's job's scratch as at its start, the deriver's too: a plan's values as well, so that
 * nothing either kernel left in them is read by the other. */
static cudaError_t scratch_reset(void)
{
	cudaError_t e = gpu_data_scratch_reset(&data, learner_plan);
	return !e && deriver_plan ? gpu_data_scratch_reset(&data, deriver_plan) : e;
}

static cudaError_t prepare_rep(const request *q, uint64_t seed)
{
	cudaError_t e = learner_plan ? gpu_data_inputs_reseed(&data, learner_plan, seed, deriver != NULL) : cudaSuccess;
	if (!e && learner_plan && seed && deriver && !(e = scratch_reset())) e = gpu_exec_launch(deriver, 0);   /* the derived inputs, afresh */
	if (!e) e = gpu_data_poison(&data, 0);
	if (!e && learner_plan) e = scratch_reset();   /* a learner's job (q untrusted): learner_job came first */
	if (!e && flush_now) e = cc_read_evict(flush_buf, flush_bytes);   /* before the start event: not timed */
	return e;
}

/* prepare_rep for a timed (or warm-up) repetition of a stage timed with l2: warm (tm): nothing at
 * all, so that the L2 keeps what the last repetition left (the poisoning of a large output would
 * evict it as surely as the flush). A learner's kernel is always prepared in full. */
static cudaError_t prepare_timed(const request *q, const stage_timing *tm, uint64_t seed)
{
	if (tm && tm->set && tm->l2_warm && !q->untrusted) return cudaSuccess;
	return prepare_rep(q, seed);
}

static double host_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Plans the L2's state before each timed sample: after the outputs' poisoning, a read-only pass over a
 * buffer of twice the L2's size (made once) evicts whatever the last run and the poisoning left,
 * dirty lines included: they are written back during the pass, outside the events, instead of
 * during the timed run, which then starts with an L2 of clean lines it does not use (l2_flush 3; a
 * memset flush, as before, left the L2 full of dirty lines whose write-back the next run paid for:
 * about 17 us on an H100, 5% of a 1 GiB read). 0, or a CUDA error. */
static cudaError_t plan_flush(run_result *r)
{
	double l2 = (double)gpu_device()->l2_bytes;
	r->l2_flush = 0;
	if (l2 <= 0) return cudaSuccess;
	if (!flush_buf) {
		size_t bytes = ((size_t)(2 * l2) + 15) & ~(size_t)15;
		cudaError_t e = cudaMalloc(&flush_buf, bytes);
		if (e) { flush_buf = NULL; return e; }
		flush_bytes = bytes;
	}
	flush_now = 1;
	r->l2_flush = 3;
	return cudaSuccess;
}

static double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* How long a launch hold waits for the host before it lets the GPU go on: far past any library's time
 * to queue a call, short enough that a host blocked inside its launches costs one wait only. */
#define HOLD_TIMEOUT_MS 100.0

/* One timed repetition of x on stream 0, into *ms; the SM clock into *mhz (-1 unread), and the board's
 * power into *watts when watts is not NULL (-1 unread, the first reason in power_why), read once the
 * start event has passed (what came before it, the poisoning and the flush, is done) and before
 * waiting for the end: while the repetition runs, unless it is shorter than the read. With *hold 1
 * the start event waits behind a launch hold (launch_hold.h) until the host has queued the launches,
 * so that only the GPU's time is between the events; a hold that gave up sets *hold to 2 (this
 * repetition then timed as if unheld: the host's blocking was before its start event, or in it). */
static cudaError_t time_one(gpu_exec *x, const request *q, const stage_timing *tm, uint64_t seed, int nstreams, cudaEvent_t e0, cudaEvent_t e1,
                            int *hold, double *ms, double *mhz, double *watts, char *power_why, size_t why_len)
{
	float t;
	cudaError_t e;
	if (tm && tm->set && tm->clock == TIMING_HOST) {
		/* The host clock around the launches: what came before (poisoning, flush) is finished first,
		 * so that only the launches (and, with sync, the wait for them) are inside the readings. With
		 * no sync the work is only queued at the second reading: it is waited for after it. */
		if ((e = prepare_timed(q, tm, seed)) || (e = cudaDeviceSynchronize())) return e;
		double t0 = host_ms();
		if ((e = gpu_exec_launch(x, 0))) return e;
		double t1 = host_ms();
		*mhz = gpu_clock_sm_mhz();
		if (watts) *watts = gpu_clock_power_w(power_why[0] ? NULL : power_why, why_len);
		if (tm->sync) {
			if ((e = nstreams > 1 ? cudaDeviceSynchronize() : cudaStreamSynchronize(0))) return e;
			t1 = host_ms();
		}
		*ms = t1 - t0;
		return cudaDeviceSynchronize();
	}
	if ((e = prepare_timed(q, tm, seed)) || (*hold == 1 && (e = cc_launch_hold_queue(HOLD_TIMEOUT_MS)))) return e;
	if ((e = cudaEventRecord(e0, 0)) || (e = gpu_exec_launch(x, 0)) || (e = cudaEventRecord(e1, 0))) {
		cc_launch_hold_release();
		return e;
	}
	cc_launch_hold_release();   /* everything timed is queued: the GPU may go on to the start event */
	while (cudaEventQuery(e0) == cudaErrorNotReady) {}
	if (*hold == 1 && cc_launch_hold_gave_up()) *hold = 2;   /* the host blocked in the launches: hold no more */
	*mhz = gpu_clock_sm_mhz();
	if (watts) *watts = gpu_clock_power_w(power_why[0] ? NULL : power_why, why_len);   /* beside the clock */
	if ((e = cudaEventSynchronize(e1)) || (e = cudaEventElapsedTime(&t, e0, e1))) return e;
	*ms = t;
	return cudaSuccess;
}

/* 64 bits of the kernel's entropy, or of the clock when getrandom fails. */
static uint64_t secret64(void)
{
	uint64_t v = 0;
	if (getrandom(&v, sizeof v, 0) != sizeof v) v = (uint64_t)now_ms() * 0x9e3779b97f4a7c15ULL ^ (uint64_t)getpid();
	return v;
}

/* The seed of a learner's next repetition: fresh from the kernel's entropy each time (never 0, the job's
 * own inputs), 0 outside a learner's job. Each its own draw, not a count through an invertible mix: the
 * fill's hash can be inverted, so a kernel can read a repetition's seed back out of its inputs, and
 * with counted seeds (as before) it then knew every later repetition's inputs and could have their
 * answers ready (a tester's attack_seed_predict.cu). */
static uint64_t fresh_seed(void)
{
	return learner_plan ? secret64() | 1 : 0;
}

/* A learner's job begins (p: its plan) or, with p NULL, ends (the deriver freed). */
static void learner_job(const plan *p)
{
	learner_plan = p;
	if (!p) { gpu_exec_free(deriver); deriver = NULL; deriver_plan = NULL; }
	coin_secret = p ? secret64() : 0;
}

/* A learner's output set aside (gpu_data_stash) against the pair's output, on the same inputs; 0 when
 * they agree within PAIR_TOL_SCALE times the tolerances, else 1 with r WRONG (or FAULT) saying when. */
static int pair_differs(const plan *p, const pair_tol *t, int alt_is_ref, unsigned long long key, const char *when, run_result *r)
{
	char err[512];
	run_result c;
	run_result_init(&c);
	if (gpu_data_compare_stash(&data, p->compare, p->ncompare, alt_is_ref, key, t->exact, PAIR_TOL_SCALE * t->abs, PAIR_TOL_SCALE * t->rel,
	                           PAIR_TOL_SCALE * t->norm, &c, err, sizeof err)) {
		r->status = RUN_FAULT;
		strfmt(r->message, sizeof r->message, "checking %s: %s", when, err);
		return 1;
	}
	if (c.passed) return 0;
	r->status = RUN_WRONG;
	r->passed = 0;
	r->bad_count = c.bad_count; r->first_bad = c.first_bad; r->nan_count = c.nan_count; r->unwritten = c.unwritten;
	r->max_abs_err = c.max_abs_err; r->max_rel_err = c.max_rel_err; r->norm_rel_err = c.norm_rel_err;
	strfmt(r->issue, sizeof r->issue, "wrong_later");
	strfmt(r->message, sizeof r->message, "right on the first run, wrong in %s (on fresh inputs, against the stage's own kernel on the same inputs): %s",
	       when, c.message);
	return 1;
}

/* After the learner's kernel ran on seed's inputs: its outputs set aside, the pair y run on the same
 * inputs (untimed), the two compared (pair_differs). 0, or 1 with r said. */
static int pair_after(gpu_exec *y, const request *q, const plan *p, const pair_tol *t, uint64_t seed, const char *when, run_result *r)
{
	cudaError_t e;
	if ((e = gpu_data_stash(&data, p->compare, p->ncompare, 0)) || (e = prepare_rep(q, seed)) || (e = gpu_exec_launch(y, 0)) ||
	    (e = cudaDeviceSynchronize())) {
		fault(r, "the stage's own kernel failed beside a check", e);
		return 1;
	}
	return pair_differs(p, t, 0, 0, when, r);
}

/* A learner's full launch on fresh inputs, untimed, checked against the pair's: spot checks among
 * timed passes whose outputs cannot be checked. 0, or 1 with r said. */
static int spot_check(gpu_exec *x, gpu_exec *y, const request *q, const plan *p, const pair_tol *t, run_result *r)
{
	uint64_t s = fresh_seed();
	cudaError_t e;
	if ((e = prepare_rep(q, s)) || (e = gpu_exec_launch(x, 0)) || (e = cudaDeviceSynchronize())) {
		fault(r, "the kernel failed in a check between its timed runs", e);
		return 1;
	}
	return pair_after(y, q, p, t, s, "a check between the runs of its kernels", r);
}

/* The median of the clock readings in v[0..n) that are readings (> 0), and their min and max; -1 for
 * each when none is. */
static void clock_stats(double *v, int n, double *med, double *lo, double *hi)
{
	int k = 0;
	for (int i = 0; i < n; i++) if (v[i] > 0) v[k++] = v[i];
	*med = *lo = *hi = -1;
	if (!k) return;
	*med = median_of(v, k);
	*lo = v[0];
	*hi = v[k - 1];
}

/* Times x (and y, the pair, when not NULL: repetitions alternate x y y x ..., so that clocks and
 * temperature treat both alike, and each pair gives a speed ratio). In a learner's job each
 * repetition has inputs of its own (fresh_seed), the same for x and y; with t (and y) x's output is
 * checked against y's at every repetition. */
static void time_runs(gpu_exec *x, gpu_exec *y, const request *q, const plan *p, const pair_tol *t, run_result *r)
{
	/* the stage's own method (a learner's kernel, and the pair, are always timed the tool's way) */
	const stage_timing *tm = p->timing.set && !q->untrusted ? &p->timing : NULL;
	if (tm && tm->l2_warm && y) {
		/* the pair's own preparation would empty the L2 between this stage's repetitions */
		y = NULL;
		r->pair[0] = 0;
	}
	cudaEvent_t e0, e1;
	cudaEventCreate(&e0);
	cudaEventCreate(&e1);
	double single = 0, start = now_ms(), beat = start;
	int warm = 0;
	cudaError_t e = cudaSuccess;
	/* Warm-up: at least 3 runs and a little time (25 ms, or a tenth of the budget), so clocks and
	 * caches settle. */
	double settle = q->budget_ms > 0 && q->budget_ms < 250 ? q->budget_ms / 10.0 : 25;
	/* The pair is prepared as x is: in a learner's job with its scratch zeroed too, so that neither
	 * reads what the other left there, and a stage that does some work once (conv2d's winograd
	 * transforms its filters on its first launch) does it for each repetition's inputs, as x must. */
	while (!e && (tm && tm->warmup >= 0 ? warm < tm->warmup : (warm < 3 || now_ms() - start < settle) && warm < 100)) {
		double t0 = now_ms();
		uint64_t s = fresh_seed();
		if ((e = prepare_timed(q, tm, s)) || (e = gpu_exec_launch(x, 0)) || (e = cudaDeviceSynchronize())) break;
		if (y && ((e = prepare_rep(q, s)) || (e = gpu_exec_launch(y, 0)) || (e = cudaDeviceSynchronize()))) break;
		single = now_ms() - t0;
		warm++;
	}
	/* Automatic: about budget_ms of timed work, at least 5 repetitions (10 with the full budget). */
	double budget = q->budget_ms > 0 ? q->budget_ms : 400;
	int reps = tm && tm->runs > 0 ? tm->runs : q->reps > 0 ? q->reps : !warm ? 10   /* no warm-up: no single run's time to go by */
	         : (int)fmin(300, fmax(budget >= 400 ? 10 : 5, budget / fmax(single, 1e-3)));
	double *ms = xcalloc((size_t)reps, sizeof *ms), *pms = xcalloc((size_t)reps, sizeof *pms), *ratio = xcalloc((size_t)reps, sizeof *ratio);
	double *clk = xcalloc((size_t)reps, sizeof *clk), *pclk = xcalloc((size_t)reps, sizeof *pclk), *watts = xcalloc((size_t)reps, sizeof *watts);
	char why[160], power_why[sizeof r->power_note] = "";
	if (gpu_clock_open(gpu_device(), gpu_device()->index, why, sizeof why)) strfmt(r->clock_note, sizeof r->clock_note, "%s", why);
	int done = 0, wrong = 0;
	/* launch holds, but not for a stage timed its own way or with copies (a copy from pageable memory
	 * blocks the host until the GPU has passed the hold): x and y alike, so that their ratio is fair */
	const char *hold_env = getenv("CUDACLIMB_LAUNCH_HOLD");   /* "0": none, to compare with older recordings */
	int hold = !tm && p->h2d_bytes + p->d2h_bytes <= 0 && !(hold_env && !strcmp(hold_env, "0"));
	if (!y) t = NULL;
	for (; !e && done < reps; done++) {
		uint64_t s = fresh_seed();
		unsigned long long key = done % 2 && t ? secret64() | 1 : 0;   /* a fresh key for each set-aside output */
		char when[64];
		strfmt(when, sizeof when, "timed run %d of %d", done + 1, reps);
		/* y first: its output set aside scrambled (x, run next, cannot read it); x first: x's, plain */
		if (y && done % 2 && (e = time_one(y, q, NULL, s, 1, e0, e1, &hold, &pms[done], &pclk[done], NULL, NULL, 0))) break;
		if (t && done % 2 && (e = gpu_data_stash(&data, p->compare, p->ncompare, key))) break;
		if ((e = time_one(x, q, tm, s, p->nstreams, e0, e1, &hold, &ms[done], &clk[done], &watts[done], power_why, sizeof power_why))) break;
		if (t && !(done % 2) && (e = gpu_data_stash(&data, p->compare, p->ncompare, 0))) break;
		if (y && !(done % 2) && (e = time_one(y, q, NULL, s, 1, e0, e1, &hold, &pms[done], &pclk[done], NULL, NULL, 0))) break;
		if (t && (wrong = pair_differs(p, t, done % 2, key, when, r))) break;
		if (y) ratio[done] = ms[done] > 0 ? pms[done] / ms[done] : 0;
		if (y && q->decide > 0 && !tm && stats_sign_decided(ratio, done + 1, q->decide)) { r->decided_early = 1; done++; break; }
		if (now_ms() - beat > 250) { fputs("beat\n", out); fflush(out); beat = now_ms(); alive(); }
	}
	if (e) {
		fault(r, "a timed run failed", e);
	} else if (wrong) {
		r->reps = done;   /* said by pair_differs */
	} else {
		r->reps = done;
		r->launch_hold = hold;
		double first = ms[0], sum = 0;
		for (int i = 0; i < done; i++) sum += ms[i];
		r->ms_median = median_of(ms, done);   /* sorts ms */
		if (tm && tm->stat == TIMING_FIRST) r->ms_median = first;
		else if (tm && tm->stat == TIMING_MEAN) r->ms_median = sum / done;
		r->ms_min = ms[0];
		r->ms_max = ms[done - 1];
		if (y) {
			r->pair_ms_median = median_of(pms, done);
			r->pair_ratio = median_of(ratio, done);
			r->pair_ratio_p20 = ratio[(int)(0.2 * (done - 1) + 0.5)];
			r->pair_ratio_p80 = ratio[(int)(0.8 * (done - 1) + 0.5)];
		}
		double lo, hi;
		clock_stats(clk, done, &r->sm_clock_mhz, &r->sm_clock_min_mhz, &r->sm_clock_max_mhz);
		if (y) clock_stats(pclk, done, &r->pair_sm_clock_mhz, &lo, &hi);
		if (!r->clock_note[0] && r->sm_clock_mhz < 0) strfmt(r->clock_note, sizeof r->clock_note, "no SM clock: NVML gave no reading during the timed runs");
		clock_stats(watts, done, &r->power_w, &lo, &r->power_max_w);   /* the stage's readings only, not its pair's */
		if (r->power_w < 0) strfmt(r->power_note, sizeof r->power_note, "%s", power_why[0] ? power_why : "no power: no reading during the timed runs");
	}
	free(ms);
	free(pms);
	free(ratio);
	free(clk);
	free(pclk);
	free(watts);
	cudaEventDestroy(e0);
	cudaEventDestroy(e1);
}

/* Each kernel step's resources as the driver sees them (the parent prefers its compiler's report). */
static void step_resources(gpu_exec *x, run_result *r)
{
	for (int i = 0; i < r->nsteps && i < gpu_exec_nsteps(x); i++) {
		cudaKernel_t k = gpu_exec_step_kernel(x, i);
		struct cudaFuncAttributes fa;
		if (!k || cudaFuncGetAttributes(&fa, (const void *)k) != cudaSuccess) continue;
		r->steps[i].regs = fa.numRegs;
		r->steps[i].static_smem = (int64_t)fa.sharedSizeBytes;
	}
	cudaGetLastError();
}

/* The steps' times, in a short pass of STEP_REPS repetitions after the timed runs (which these
 * events would otherwise disturb). serial: every step on stream 0, one after another; otherwise as
 * scheduled, each step on its own stream. Either way an event on stream 0 first, then per step an
 * event before it and one after it on the stream it runs on: at[(rep * n + i) * 2] is step i's start
 * and [+ 1] its end, in ms after the first event. 0, or a CUDA error. */
#define STEP_REPS 7
static cudaError_t step_pass(gpu_exec *x, gpu_exec *y, const request *q, const plan *p, const pair_tol *t, int serial, double *at, run_result *r)
{
	int n = gpu_exec_nsteps(x), made = 0;
	cudaEvent_t *ev = xcalloc(2 * (size_t)n + 1, sizeof *ev);
	cudaError_t e = cudaSuccess;
	while (made <= 2 * n && !(e = cudaEventCreate(&ev[made]))) made++;
	for (int rep = 0; !e && rep < STEP_REPS; rep++) {
		uint64_t seed = fresh_seed();
		if ((e = prepare_rep(q, seed)) || (e = cudaEventRecord(ev[0], 0))) break;
		for (int i = 0; !e && i < n; i++) {
			cudaStream_t s = serial ? 0 : gpu_exec_step_stream(x, i);
			if (!(e = cudaEventRecord(ev[1 + 2 * i], s)) && !(e = gpu_exec_step(x, i, s))) e = cudaEventRecord(ev[2 + 2 * i], s);
		}
		if (e || (e = cudaDeviceSynchronize())) break;   /* every stream's events, not only stream 0's */
		if (y && t && pair_after(y, q, p, t, seed, "a run of its steps one by one", r)) break;
		for (int i = 0; !e && i < 2 * n; i++) {
			float ms;
			if (!(e = cudaEventElapsedTime(&ms, ev[0], ev[1 + i]))) at[(size_t)rep * 2 * n + i] = ms;
		}
		alive();
	}
	for (int i = 0; i < made; i++) cudaEventDestroy(ev[i]);
	free(ev);
	return e;
}

/* The median over the repetitions of step i's start (what 0), end (1) or duration (2). */
static double step_median(const double *at, int n, int i, int what)
{
	double v[STEP_REPS];
	for (int k = 0; k < STEP_REPS; k++) {
		const double *s = &at[((size_t)k * n + i) * 2];
		v[k] = what == 2 ? s[1] - s[0] : s[what];
	}
	return median_of(v, STEP_REPS);
}

/* The stage's compute alone: every step but the copies, each on its own stream as scheduled (so
 * that small kernels of a chunked pipeline overlap their tails as they do in it), between two events
 * on stream 0 (which waits for the other streams); the median over STEP_REPS into *ms. In a
 * learner's job each repetition's inputs are fresh (its host inputs refilled, then brought over by
 * the copies from the host, untimed), and since the kernels' outputs alone cannot be checked, a
 * secret half of the repetitions are preceded by a full launch checked against the pair y (t):
 * which launch is timed unchecked cannot be counted. r said when a check fails. */
static cudaError_t kernels_pass(gpu_exec *x, gpu_exec *y, const request *q, const plan *p, const pair_tol *t, double *ms, run_result *r)
{
	int n = gpu_exec_nsteps(x);
	double v[STEP_REPS];
	cudaEvent_t e0, e1;
	cudaError_t e = cudaEventCreate(&e0);
	if (e) return e;
	if ((e = cudaEventCreate(&e1))) { cudaEventDestroy(e0); return e; }
	int rep = 0;
	for (; !e && rep < STEP_REPS; rep++) {
		if (y && t && (coin_secret >> (rep % 64) & 1) && spot_check(x, y, q, p, t, r)) break;
		if ((e = prepare_rep(q, fresh_seed()))) break;
		for (int i = 0; learner_plan && !e && i < n; i++)
			if (gpu_exec_step_from_host(x, i)) e = gpu_exec_step(x, i, gpu_exec_step_stream(x, i));
		if (e || (learner_plan && (e = cudaDeviceSynchronize())) || (e = cudaEventRecord(e0, 0))) break;
		for (int i = 0; !e && i < n; i++)
			if (gpu_exec_step_kind(x, i) != STEP_COPY) e = gpu_exec_step(x, i, gpu_exec_step_stream(x, i));
		float ms1;
		if (e || (e = cudaEventRecord(e1, 0)) || (e = cudaEventSynchronize(e1)) || (e = cudaEventElapsedTime(&ms1, e0, e1))) break;
		v[rep] = ms1;
		alive();
	}
	if (!e && rep == STEP_REPS) *ms = median_of(v, STEP_REPS);
	cudaEventDestroy(e0);
	cudaEventDestroy(e1);
	return e;
}

/* The steps' start, end and duration into r (as scheduled: with several streams, spans on different
 * streams may intersect). A stage with copies also gets kernel_ms from a pass without its copies
 * (kernels_pass), and from it bound_ms. */
static void time_steps(gpu_exec *x, gpu_exec *y, const request *q, const plan *p, const pair_tol *t, run_result *r)
{
	int n = gpu_exec_nsteps(x);
	if (n <= 0 || !r->nsteps) return;
	double *at = xcalloc((size_t)STEP_REPS * 2 * (size_t)n, sizeof *at);
	int copies = p->h2d_bytes + p->d2h_bytes > 0;
	run_status was = r->status;
	cudaError_t e = step_pass(x, y, q, p, t, p->nstreams <= 1, at, r);
	if (e) { fault(r, "a run of the steps one by one failed", e); free(at); return; }
	if (r->status != was) { free(at); return; }   /* a check failed: said */
	for (int i = 0; i < n && i < r->nsteps; i++) {
		run_step *s = &r->steps[i];
		s->start_ms = step_median(at, n, i, 0);
		s->end_ms = step_median(at, n, i, 1);
		s->ms_median = step_median(at, n, i, 2);
	}
	if (copies) {
		if ((e = kernels_pass(x, y, q, p, t, &r->kernel_ms, r))) { fault(r, "a run of the kernels without the copies failed", e); free(at); return; }
		if (r->status != was) { free(at); return; }
		const device_info *d = gpu_device();
		r->bound_ms = gpu_copy_bound_ms(r->h2d_bytes, r->d2h_bytes, d->h2d_gbps, d->d2h_gbps, r->kernel_ms);
	}
	free(at);
}

/* One profiling pass: the stage's launches again (outputs are not re-poisoned: the memsets would
 * count as DRAM traffic), and a heartbeat so the parent's watchdog knows passes are progressing. */
static int counter_pass(void *ctx)
{
	fputs("beat\n", out);
	fflush(out);
	alive();
	return (int)gpu_exec_launch(ctx, 0);
}

static void read_counters(gpu_exec *x, run_result *r)
{
	if (!ctrs && !ctrs_failed && !(ctrs = counters_open(gpu_device()->index, ctrs_why, sizeof ctrs_why))) ctrs_failed = 1;
	if (!ctrs) { strfmt(r->counters_note, sizeof r->counters_note, "%s", ctrs_why); return; }
	char err[512];
	int rc = counters_measure(ctrs, counter_pass, x, r, err, sizeof err);
	if (rc > 0) fault(r, "a profiled run failed", (cudaError_t)rc);
	else if (rc < 0 && !r->counters_note[0]) strfmt(r->counters_note, sizeof r->counters_note, "%s", err);
}

/* One sampled run: the stage's launches again, and a heartbeat now and then (a run may take
 * microseconds, and the parent's watchdog needs only a sign of life). */
static int sampled_pass(void *ctx)
{
	static double beat;
	if (now_ms() - beat > 250) {
		fputs("beat\n", out);
		fflush(out);
		alive();
		beat = now_ms();
	}
	return (int)gpu_exec_launch(ctx, 0);
}

/* The hotspot pass: sampling enabled, then the stage's code loaded again under a name of its own
 * (the module cache would hand back the module loaded before, and CUPTI learns of a module as it
 * loads), then its launches repeated for 150 ms in one sampling range. The samples go to
 * r->hotspots, or why there are none to r->hotspots_note. */
static void read_hotspots(const plan *p, const request *q, run_result *r)
{
	static int passes;
	char why[512], path[1024], fresh[1100];
	if (p->stage < 0 || !q->cubin.len) {
		strfmt(r->hotspots_note, sizeof r->hotspots_note, "the baseline is a library call: no code of ours to sample");
		return;
	}
	hotspots *h = hotspots_open(gpu_device()->index, why, sizeof why);
	if (!h) { strfmt(r->hotspots_note, sizeof r->hotspots_note, "%s", why); return; }
	gpu_exec *x = NULL;
	if (code_file(&q->cubin, path, sizeof path, why, sizeof why)) {
		strfmt(fresh, sizeof fresh, "%s.sampled-%d", path, ++passes);
		if (rename(path, fresh) == 0) {
			x = gpu_exec_new(p, &data, fresh, why, sizeof why);
			unlink(fresh);
		} else {
			strfmt(why, sizeof why, "cannot rename %s: %s", path, strerror(errno));
			unlink(path);
		}
	}
	if (!x) {
		strfmt(r->hotspots_note, sizeof r->hotspots_note, "%s", why);
		hotspots_close(h);
		return;
	}
	int rc = hotspots_measure(h, sampled_pass, x, 150, &r->hotspots, r->hotspots_note, sizeof r->hotspots_note, why, sizeof why);
	if (rc > 0) fault(r, "a sampled run failed", (cudaError_t)rc);
	else if (rc < 0) strfmt(r->hotspots_note, sizeof r->hotspots_note, "%s", why);
	gpu_exec_free(x);
	hotspots_close(h);
}

/* The pair y, or NULL when it cannot run here (a baseline whose library is missing, or that fails
 * for these sizes) while the GPU is still fine: the stage is then timed alone, and says so in r's
 * message, rather than failing with its baseline. A failure that leaves the context broken stays a
 * failure of the timed runs. */
static gpu_exec *pair_or_alone(gpu_exec *y, int baseline, run_result *r)
{
	cudaError_t e;
	if (!(e = gpu_data_poison(&data, 0)) && !(e = gpu_exec_launch(y, 0)) && !(e = cudaDeviceSynchronize())) return y;
	cudaGetLastError();
	if (cudaDeviceSynchronize() != cudaSuccess || cudaGetLastError() != cudaSuccess) return y;
	strfmt(r->message, sizeof r->message, "timed alone: %s beside it could not run (%s)",
	       baseline ? "the baseline" : "the stage's own kernel", cudaGetErrorString(e));
	r->pair[0] = 0;
	gpu_exec_free(y);
	return NULL;
}

/* The last repetition again, on the job's own inputs, then its result compared, and (a learner's job)
 * its inputs checked untouched. */
static void recheck(gpu_exec *x, const request *q, const plan *p, int exact, double abs_tol, double rel_tol, double norm_tol, run_result *r)
{
	char err[512];
	run_result again;
	run_result_init(&again);
	cudaError_t e;
	if ((e = prepare_rep(q, 0)) || (e = gpu_exec_launch(x, 0)) || (e = cudaDeviceSynchronize())) { fault(r, "the kernel failed after its timed runs", e); return; }
	int g = gpu_data_check_guards(&data, &again, err, sizeof err);
	if (g == 0 && gpu_data_compare(&data, p->compare, p->ncompare, exact, abs_tol, rel_tol, norm_tol, &again, err, sizeof err)) g = -1;
	if (g == 0 && again.passed && learner_plan && (g = gpu_data_inputs_check(&data, &again, err, sizeof err)) == 1) {
		r->status = RUN_WRONG;
		r->passed = 0;
		strfmt(r->issue, sizeof r->issue, "%s", again.issue);
		strfmt(r->message, sizeof r->message, "after %d timed runs, %s", r->reps, again.message);
		return;
	}
	if (g < 0) { r->status = RUN_FAULT; strfmt(r->message, sizeof r->message, "checking the result again: %s", err); return; }
	if (g == 0 && again.passed) return;
	r->status = RUN_WRONG;
	r->passed = 0;
	r->bad_count = again.bad_count; r->first_bad = again.first_bad; r->nan_count = again.nan_count; r->unwritten = again.unwritten;
	r->max_abs_err = again.max_abs_err; r->max_rel_err = again.max_rel_err; r->norm_rel_err = again.norm_rel_err;
	strfmt(r->issue, sizeof r->issue, "%s", g ? again.issue : "wrong_later");
	strfmt(r->message, sizeof r->message, "right on the first run, wrong after %d timed runs: %s", r->reps, again.message);
}

/* Whether p has inputs that start as zeros (or unset): filled by the reference from the others. */
static int has_derived(const plan *p)
{
	for (int i = 0; i < p->nbuffers; i++) {
		const plan_buffer *b = &p->buffers[i];
		if (!b->output && !b->scratch && (b->init == INIT_ZERO || b->init == INIT_NONE)) return 1;
	}
	return 0;
}

/* The plan in b (plan_wire.h) into p; 0, or -1 with r refused (the parent sent something broken). */
static int read_plan(const blob *b, const char *what, plan *p, run_result *r)
{
	char err[512];
	if (!plan_wire_read(p, b->data ? b->data : "", b->len, err, sizeof err)) return 0;
	r->status = RUN_REFUSED;
	strfmt(r->message, sizeof r->message, "the %s that came with the request: %s", what, err);
	return -1;
}

static void do_run(const request *q, run_result *r)
{
	char err[1024];
	plan p, rp, pp;
	int have_ref = q->ref_plan.len > 0;
	memset(&rp, 0, sizeof rp);
	memset(&pp, 0, sizeof pp);
	if (read_plan(&q->plan, "plan", &p, r) || (have_ref && read_plan(&q->ref_plan, "reference's plan", &rp, r)) ||
	    (q->pair_plan.len && read_plan(&q->pair_plan, "pair's plan", &pp, r))) {
		plan_free(&p);
		plan_free(&rp);
		plan_free(&pp);
		return;
	}
	plan_result_inputs(&p, q->seed, r->inputs, sizeof r->inputs);
	const plan_launch *first = plan_main_launch(&p);
	if (first) { memcpy(r->grid, first->grid, sizeof r->grid); memcpy(r->block, first->block, sizeof r->block); }
	plan_result_steps(&p, r);   /* with each step's stream, and a copy's direction and bytes */
	r->h2d_bytes = p.h2d_bytes;
	r->d2h_bytes = p.d2h_bytes;
	r->seed = q->seed;
	int checked = q->verify && have_ref && p.check;
	int exact = q->has_tol ? q->exact : p.exact;
	double abs_tol = q->has_tol ? q->abs_tol : p.abs_tol, rel_tol = q->has_tol ? q->rel_tol : p.rel_tol;
	double norm_tol = q->has_tol ? q->norm_tol : p.norm_tol;
	/* A queue that cannot be used safely refuses the run: never timed beside another unqueued. */
	char qwhy[sizeof r->message];
	/* A lab service ($CUDACLIMB_SERVICE) orders the runs where one is named; else the queue folder. */
	double expect_s = (q->time ? (q->budget_ms > 0 ? q->budget_ms : 400) / 1000.0 : 0) + 0.2;
	const char *service = labwire_service();
	if (service ? gpulease_acquire(service, gpu_device()->uuid, expect_s, send_note, NULL, qwhy, sizeof qwhy)
	            : gpulock_acquire(gpu_device()->uuid, expect_s, send_note, NULL, qwhy, sizeof qwhy)) {
		r->status = RUN_REFUSED;
		strfmt(r->message, sizeof r->message, "%s", qwhy);
		goto out;
	}
	fputs("phase running\n", out);
	fflush(out);
	watchdog_s = q->watchdog_s;
	alive();
	char key[1200];
	data_key(&p, q->seed, key, sizeof key);
	char want_ref[sizeof ref_key];
	ref_key_of(key, &rp, &q->ref_plan, &q->ref_cubin, want_ref, sizeof want_ref);
	if (checked && (strcmp(want_ref, ref_key) || !data.have_ref || strcmp(data.key, key)) && make_reference(q, &rp, r)) goto out;
	if (gpu_data_prepare(&data, &p, key, q->seed, err, sizeof err) < 0) {
		r->status = RUN_FAULT;
		strfmt(r->message, sizeof r->message, "%s", err);
		goto out;
	}
	gpu_data_pitch_note(&data, r->inputs, sizeof r->inputs);
	cudaError_t e;
	/* A learner's kernel never runs while the reference's outputs are readable in device memory. */
	if (q->untrusted && (e = gpu_data_hide_ref(&data))) { fault(r, "hiding the reference", e); goto out; }
	/* Nor on inputs that are not kept aside: each repetition's are its own (learner_job). */
	if (q->untrusted && (e = gpu_data_inputs_keep(&data))) { fault(r, "keeping the inputs aside", e); goto out; }
	/* Inputs derived by the reference: its scratch beside the job's (before any exec: it moves buffers) */
	int derive = q->untrusted && checked && has_derived(&p);
	if (derive && gpu_data_add_scratch(&data, &rp, err, sizeof err)) { r->status = RUN_FAULT; strfmt(r->message, sizeof r->message, "%s", err); goto out; }
	if (q->untrusted) learner_job(&p);
	const pair_tol tol = { exact, abs_tol, rel_tol, norm_tol }, *t = q->untrusted && checked ? &tol : NULL;
	gpu_exec *x = exec_of(&p, &q->cubin, err, sizeof err), *y = NULL;
	if (!x) { r->status = RUN_FAULT; strfmt(r->message, sizeof r->message, "%s", err); goto out; }
	if (derive && !(deriver = exec_of(&rp, &q->ref_cubin, err, sizeof err))) {
		r->status = RUN_FAULT;
		strfmt(r->message, sizeof r->message, "the reference, to derive inputs: %s", err);
		gpu_exec_free(x);
		goto out;
	}
	if (deriver) deriver_plan = &rp;
	/* The pair: the baseline on its own plan (no code: a library call), or the stage's own kernel on this plan. */
	if ((q->pair_plan.len || q->pair_cubin.len) && !(y = exec_of(q->pair_plan.len ? &pp : &p, &q->pair_cubin, err, sizeof err))) {
		r->status = RUN_FAULT;
		strfmt(r->message, sizeof r->message, "%s: %s", q->pair_plan.len ? "the baseline beside the stage" : "the stage's own kernel", err);
		gpu_exec_free(x);
		goto out;
	}
	if (y) strfmt(r->pair, sizeof r->pair, "%s", q->pair_plan.len && pp.stage < 0 ? "baseline" : "stage");
	step_resources(x, r);
	int threads = 0;
	size_t shared = 0;
	/* the same launch as the parent's occupancy (plan_main_launch), so that the two can be compared */
	const plan_launch *own = plan_main_launch(&p);
	cudaKernel_t k = own ? gpu_exec_launch_kernel(x, (int)(own - p.launches), &threads, &shared) : NULL;
	if (k) {
		/* The driver's view of the kernel's resources: the parent uses it when the compiler's
		 * report is missing. */
		struct cudaFuncAttributes fa;
		if (cudaFuncGetAttributes(&fa, (const void *)k) == cudaSuccess) {
			r->regs = fa.numRegs;
			r->static_smem = (int64_t)fa.sharedSizeBytes;
			r->stack_bytes = (int)fa.localSizeBytes;
		}
		int nb = 0;
		if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, (const void *)k, threads, shared) == cudaSuccess) r->occ_api_blocks = nb;
		cudaGetLastError();
		gpu_occ_check(&p, k, shared, r);
	}
	int g;
	/* A stage timed with no warm-up (timing: { warmup: 0 }) is timed before its check run, so that its
	 * first timed repetition is the kernel's first launch in this worker; it is checked after. */
	const int cold = q->time && p.timing.set && p.timing.warmup == 0 && !q->untrusted;
	if (q->time && !q->untrusted) stage_timing_text(&p.timing, r->timing, sizeof r->timing);
	if (cold) {
		if (y) y = pair_or_alone(y, q->pair_plan.len && pp.stage < 0, r);
		if ((e = plan_flush(r))) fault(r, "the L2 flush's buffer", e);
		else time_runs(x, y, q, &p, NULL, r);
	}
	if (r->status == RUN_FAULT) {
		/* said by time_runs */
	} else if ((e = prepare_rep(q, 0)) || (e = gpu_exec_launch(x, 0)) || (e = cudaDeviceSynchronize())) {
		fault(r, p.stage >= 0 ? "the kernel failed" : "the library call failed", e);
	} else if ((g = gpu_data_check_guards(&data, r, err, sizeof err)) < 0 ||
	           (checked && !g && gpu_data_compare(&data, p.compare, p.ncompare, exact, abs_tol, rel_tol, norm_tol, r, err, sizeof err))) {
		r->status = RUN_FAULT;
		strfmt(r->message, sizeof r->message, "checking the result: %s", err);
	} else if (!g && learner_plan && (!checked || r->passed) && (g = gpu_data_inputs_check(&data, r, err, sizeof err)) != 0) {
		if (g < 0) { r->status = RUN_FAULT; strfmt(r->message, sizeof r->message, "checking the inputs: %s", err); }
	} else if (!g) {
		/* the baseline's own call just ran: what its library chose */
		if (p.stage < 0) strfmt(r->library_choice, sizeof r->library_choice, "%s", baseline_choice());
		if (checked && !r->passed) r->status = RUN_WRONG;
		if (q->time && !cold && y) y = pair_or_alone(y, q->pair_plan.len && pp.stage < 0, r);
		if (q->time && !cold && (e = plan_flush(r))) fault(r, "the L2 flush's buffer", e);
		else if (q->time && !cold) time_runs(x, y, q, &p, r->status == RUN_OK ? t : NULL, r);
		/* A learner's kernel is checked again after its timed runs: right once is not enough (a
		 * kernel that computes on its first launch only and replays an answer later fails here). */
		if (q->time && q->untrusted && checked && r->status == RUN_OK) recheck(x, q, &p, exact, abs_tol, rel_tol, norm_tol, r);
		if (q->time && r->status != RUN_FAULT) time_steps(x, y, q, &p, r->status == RUN_OK ? t : NULL, r);
		if (q->counters && r->status != RUN_FAULT) read_counters(x, r);
		if (q->hotspots && r->status != RUN_FAULT) read_hotspots(&p, q, r);
		fill_metrics(&p, q->pair_plan.len ? pp.flops : p.flops, r);
	}
	gpu_exec_free(x);
	gpu_exec_free(y);   /* NULL when pair_or_alone dropped (and freed) it */
out:
	learner_job(NULL);
	alarm(0);
	watchdog_s = 0;
	flush_now = 0;
	gpulock_release();
	gpulease_release();
	plan_free(&p);
	plan_free(&rp);
	plan_free(&pp);
}

/* LEN bytes and the newline after them into b; 0, or -1 when they are not there. */
static int read_blob(FILE *in, const char *v, blob *b)
{
	char *end;
	unsigned long long len = strtoull(v, &end, 10);
	if (end == v || len > (1ull << 30)) return -1;
	free(b->data);
	b->data = xmalloc((size_t)len + 1);
	b->len = (size_t)len;
	if (fread(b->data, 1, b->len, in) != b->len || fgetc(in) != '\n') return -1;
	b->data[b->len] = 0;
	return 0;
}

static void request_free(request *q)
{
	blob *bs[] = { &q->plan, &q->ref_plan, &q->cubin, &q->ref_cubin, &q->pair_cubin, &q->pair_plan };
	for (size_t i = 0; i < sizeof bs / sizeof bs[0]; i++) { free(bs[i]->data); *bs[i] = (blob){ NULL, 0 }; }
}

/* 1: a request; 0: the input ended or broke the protocol (the worker then ends). */
static int read_request(FILE *in, request *q)
{
	char line[4096];
	memset(q, 0, sizeof *q);
	q->verify = q->time = 1;
	while (fgets(line, sizeof line, in)) {
		rtrim(line);
		char *sp = strchr(line, ' ');
		const char *v = sp ? sp + 1 : "";
		if (sp) *sp = 0;
		if (!strcmp(line, "end")) return 1;
		else if (!strcmp(line, "plan")) { if (read_blob(in, v, &q->plan)) return 0; }
		else if (!strcmp(line, "ref_plan")) { if (read_blob(in, v, &q->ref_plan)) return 0; }
		else if (!strcmp(line, "cubin")) { if (read_blob(in, v, &q->cubin)) return 0; }
		else if (!strcmp(line, "ref_cubin")) { if (read_blob(in, v, &q->ref_cubin)) return 0; }
		else if (!strcmp(line, "pair_cubin")) { if (read_blob(in, v, &q->pair_cubin)) return 0; }
		else if (!strcmp(line, "pair_plan")) { if (read_blob(in, v, &q->pair_plan)) return 0; }
		else if (!strcmp(line, "untrusted")) q->untrusted = atoi(v);
		else if (!strcmp(line, "tolerance")) q->has_tol = sscanf(v, "%d %lf %lf %lf", &q->exact, &q->rel_tol, &q->abs_tol, &q->norm_tol) == 4;
		else if (!strcmp(line, "verify")) q->verify = atoi(v);
		else if (!strcmp(line, "time")) q->time = atoi(v);
		else if (!strcmp(line, "reps")) q->reps = atoi(v);
		else if (!strcmp(line, "budget")) q->budget_ms = atoi(v);
		else if (!strcmp(line, "decide")) q->decide = strtod(v, NULL);
		else if (!strcmp(line, "counters")) q->counters = atoi(v);
		else if (!strcmp(line, "hotspots")) q->hotspots = atoi(v);
		else if (!strcmp(line, "watchdog")) q->watchdog_s = atoi(v);
		else if (!strcmp(line, "seed")) q->seed = strtoull(v, NULL, 10);
	}
	return 0;
}

int gpu_worker_main(FILE *in, FILE *o, int gpu)
{
	out = o;
	fprintf(out, "hello %d\n", WORKER_PROTOCOL);
	fflush(out);
	char cmd[64];
	device_info d;
	int have = gpu_device_query(gpu, &d) == 0;
	char err[4096] = "";
	if (have && gpu_data_init(getenv("CUDACLIMB_BUILTIN_ROOT") ? getenv("CUDACLIMB_BUILTIN_ROOT") : "kernels", d.arch, err, sizeof err)) {
		have = 0;
		d.present = 0;
		strfmt(d.why, sizeof d.why, "the GPU's helpers could not be prepared: %s", err);
	}
	while (fgets(cmd, sizeof cmd, in)) {
		rtrim(cmd);
		if (!strcmp(cmd, "device")) {
			char skip[64];
			while (fgets(skip, sizeof skip, in) && strcmp(skip, "end\n")) {}
			fputs("device\n", out);
			field_write_kv(out, device_info_fields, device_info_nfields, &d);
			fputs("end\n", out);
			fflush(out);
		} else if (!strcmp(cmd, "run")) {
			request q;
			run_result r;
			run_result_init(&r);
			if (!read_request(in, &q)) { request_free(&q); break; }
			if (!have) { r.status = RUN_NO_GPU; strfmt(r.message, sizeof r.message, "%s", d.why); }
			else do_run(&q, &r);
			worker_stdout_drain();       /* what the kernels printed, to stderr as text */
			request_free(&q);
			send_result(&r);
			run_result_clear(&r);
			if (sticky_error) break;
		} else if (!strcmp(cmd, "quit")) {
			break;
		}
	}
	counters_close(ctrs);
	cudaFree(flush_buf);
	gpu_data_free(&data);
	baseline_cleanup();
	return sticky_error ? 3 : 0;
}
