/* The stage model's jobs: submitting runs, sweeps and the ladder, and taking their results. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tui_stage.h"

#define LIVE_PERIOD 0.3      /* seconds between live re-runs: a few a second */

static int submit(tui_stage *m, int s, stage_job_kind kind, int item, int ot, const char *ov)
{
	engine_job j;
	char err[256];
	memset(&j, 0, sizeof j);
	j.lesson = m->l;
	j.stage = s;
	j.compile_only = !m->can_run || kind == JOB_CODE;
	/* Only an explicit run (r) reads the hardware counters (a few tenths of a second more): what-if
	 * re-runs after a tunable change, live mode, sweeps and the ladder stay quick. */
	j.counters = kind == JOB_RUN && s >= 0 && s == m->cur && m->counters_next;
	if (j.counters) m->counters_next = 0;
	j.nsets = stage_build_sets(m, s, j.sets, STAGE_SETS_MAX, ot, ov);
	if (j.nsets < 0) {
		snprintf(m->msg, sizeof m->msg, "too many tunables and parameters for one run (at most %d)",
		         STAGE_SETS_MAX);
		return -1;
	}
	int k = stage_case(m);   /* the case these values are (the result records it) */
	if (k >= 0) snprintf(j.case_name, sizeof j.case_name, "%s", m->l->cases[k].name);
	if (m->njobs == STAGE_JOBS) {
		snprintf(m->msg, sizeof m->msg, "too many jobs queued");
		return -1;
	}
	int id = engine_submit(m->e, &j, err, sizeof err);
	if (id < 0) {
		snprintf(m->msg, sizeof m->msg, "%s", err);
		return -1;
	}
	m->jobs[m->njobs++] = (stage_job){ id, kind, s, item, 0, stage_sets_key(s, j.sets, j.nsets) };
	return id;
}

int stage_run(tui_stage *m, double now)
{
	m->want_run = 0;
	/* The values set, never a value half typed: that one's message stays in the pane as it is. */
	if (m->editing ? stage_check(m, m->cur, -1, "", m->msg, sizeof m->msg, NULL) != 0 : stage_validate(m) != 0) {
		if (!m->editing) snprintf(m->msg, sizeof m->msg, "%s", m->problem);
		return -1;
	}
	if (m->run_job) engine_cancel(m->e, m->run_job);
	m->run_job = submit(m, m->cur, JOB_RUN, 0, -1, NULL);
	if (m->run_job < 0) { m->run_job = 0; return -1; }
	m->last_submit = now;
	m->phase = JOB_COMPILING;
	m->phase_since = now;
	m->note[0] = 0;
	m->msg[0] = 0;
	if (!m->can_run) {                        /* one line: why it only compiles */
		const char *why = m->dev->why;
		if (!strncmp(why, "no GPU: ", 8)) why += 8;
		snprintf(m->msg, sizeof m->msg, "no GPU, compiling only: %s", why);
	}
	return 0;
}

/* Jobs were submitted: the phase shown counts from now (an event that repeats the phase does not
 * move it). */
static void jobs_started(tui_stage *m, double now)
{
	m->phase = JOB_COMPILING;
	m->phase_since = now;
	m->note[0] = 0;
}

void stage_toggle_live(tui_stage *m, double now)
{
	if (m->replay) {
		m->live = 0;
		snprintf(m->msg, sizeof m->msg, "replay: recorded results, not live (r shows the recorded run again)");
		return;
	}
	m->live = !m->live;
	if (m->live) {
		m->want_run = 1;
		m->due = now;
		snprintf(m->msg, sizeof m->msg, m->can_run ? "live: re-running the stage a few times a second"
		                                             : "live: no GPU, so stages are compiled only");
	} else {
		m->want_run = 0;
		snprintf(m->msg, sizeof m->msg, "live off");
	}
}

int stage_sweep(tui_stage *m, double now)
{
	const lesson_stage *st = &m->l->stages[m->cur];
	if (st->ntunables == 0) {
		snprintf(m->msg, sizeof m->msg, "this stage has no tunables to sweep");
		return -1;
	}
	if (stage_row_param(m, m->sel) >= 0) {
		snprintf(m->msg, sizeof m->msg, "sweeps are for tunables; %s is a lesson parameter (arrows or "
		         "digits change it)", m->l->params[stage_row_param(m, m->sel)].name);
		return -1;
	}
	for (int i = 0; i < m->njobs; i++)     /* a new sweep replaces the old one */
		if (m->jobs[i].kind == JOB_SWEEP) engine_cancel(m->e, m->jobs[i].id);
	const lesson_tunable *t = &st->tunables[m->sel];
	int n = t->nvalues < STAGE_SWEEP_MAX ? t->nvalues : STAGE_SWEEP_MAX;
	m->sweep_tunable = m->sel;
	m->sweep_stage = m->cur;
	m->nsweep = n;
	m->sweep_open = 1;
	for (int i = 0; i < n; i++) {
		stage_sweep_item *it = &m->sweep[i];
		int k = n == t->nvalues ? i : (int)((int64_t)i * (t->nvalues - 1) / (n - 1));
		char v[32];
		memset(it, 0, sizeof *it);
		it->value = t->values[k];
		snprintf(v, sizeof v, "%" PRId64, it->value);
		if (stage_check(m, m->cur, m->sel, v, it->reason, sizeof it->reason, NULL) != 0) {
			it->state = SW_SKIPPED;
			continue;
		}
		it->job = submit(m, m->cur, JOB_SWEEP, i, m->sel, v);
		if (it->job < 0) {
			it->state = SW_SKIPPED;
			snprintf(it->reason, sizeof it->reason, "%s", m->msg);
		}
	}
	jobs_started(m, now);
	snprintf(m->msg, sizeof m->msg, "sweeping %s over %d values", t->name, n);
	return 0;
}

static void ladder_msg(tui_stage *m)
{
	if (m->ladder_left > 0)
		snprintf(m->msg, sizeof m->msg, "running the ladder: %d of %d runs left", m->ladder_left, m->ladder_total);
	else if (!m->can_run)
		snprintf(m->msg, sizeof m->msg, "ladder done: nothing ran (no GPU: the stages compiled only)");
	else if (m->ladder_ran == m->ladder_total)
		snprintf(m->msg, sizeof m->msg, "ladder done: %d runs", m->ladder_total);
	else
		snprintf(m->msg, sizeof m->msg, "ladder done: %d of %d ran; %d did not (%s)", m->ladder_ran, m->ladder_total,
		         m->ladder_total - m->ladder_ran, m->ladder_why);
}

int stage_ladder(tui_stage *m, double now)
{
	char err[512];
	int n = 0;
	for (int i = 0; i < m->njobs; i++)      /* a new ladder replaces the one in flight */
		if (m->jobs[i].ladder) m->jobs[i].ladder = 0;
	for (int k = 0; k <= m->l->nstages; k++) {     /* the stages in order, then the baseline */
		int s = k < m->l->nstages ? k : -1;
		if (s < 0 ? !m->l->baseline : stage_check(m, s, -1, NULL, err, sizeof err, NULL) != 0)
			continue;
		if (s == m->cur && m->run_job) engine_cancel(m->e, m->run_job);
		int id = submit(m, s, JOB_RUN, 0, -1, NULL);
		if (s == m->cur && id > 0) m->run_job = id;
		if (id > 0) {
			m->jobs[m->njobs - 1].ladder = 1;
			n++;
		}
	}
	m->ladder_left = m->ladder_total = n;
	m->ladder_ran = 0;
	m->ladder_why[0] = 0;
	if (!n) {
		snprintf(m->msg, sizeof m->msg, "the ladder: no stage can run with these values");
		return -1;
	}
	jobs_started(m, now);
	ladder_msg(m);
	return 0;
}

int stage_timed(const run_result *r)
{
	return (r->status == RUN_OK || r->status == RUN_WRONG) && r->ms_median > 0;
}

static void record(tui_stage *m, int s, const run_result *r)
{
	if (stage_timed(r)) {
		if (m->nhist == STAGE_HIST) {
			memmove(m->hist, m->hist + 1, sizeof m->hist[0] * (STAGE_HIST - 1));
			m->nhist--;
		}
		m->hist[m->nhist++] = (stage_hist){ s, r->ms_median, stage_metric_value(m, r), r->status };
	}
	if (m->replay)                      /* recorded results are not the learner's progress */
		return;
	progress_record(m->state, m->l->id, m->l->stages[s].id, r);
}

static void finished(tui_stage *m, const stage_job *j, const run_result *r, double now)
{
	if (j->kind == JOB_CODE) {
		stage_code_slot *c = &m->slots[j->stage].code;
		if (c->job != j->id) return;
		c->job = 0;
		c->done = 1;
		c->status = r->status;
		snprintf(c->cubin, sizeof c->cubin, "%s", r->cubin);
		snprintf(c->arch, sizeof c->arch, "%s", r->arch);
		snprintf(c->message, sizeof c->message, "%s", r->message);
		return;
	}
	if (j->kind == JOB_SWEEP) {
		stage_sweep_item *it = &m->sweep[j->item];
		it->state = SW_DONE;
		it->status = r->status;
		it->ms = r->ms_median; it->gbps = r->gbps; it->gflops = r->gflops;
		it->occ = r->occ_theoretical; it->regs = r->regs;
		snprintf(it->reason, sizeof it->reason, "%s", r->message);
		return;
	}
	if (j->stage < 0) {
		run_result_clear(&m->base);
		run_result_copy(&m->base, r);
		m->have_base = 1;
		return;
	}
	stage_slot *sl = &m->slots[j->stage];
	if (m->replay && r->status == RUN_NO_GPU && sl->have_last && !j->ladder) {
		/* values the recording lacks: no what-if without a GPU; the recorded result stays (marked
		 * stale in the measurements pane) and the ladder keeps it */
		const char *why = strstr(r->message, "replay file: ");
		snprintf(m->msg, sizeof m->msg, "a what-if needs a GPU; this is a replay, and %s is not in the recording%s%s",
		         j->stage == m->cur ? "this setting" : "that stage's setting", why ? ": " : "", why ? why + 13 : "");
		if (j->id == m->run_job) m->run_job = 0;
		return;
	}
	if (sl->have_last && stage_timed(&sl->last)) {
		run_result_clear(&sl->prev);
		sl->prev = sl->last;            /* moves the log too */
		sl->have_prev = 1;
	} else {
		run_result_clear(&sl->last);
	}
	run_result_copy(&sl->last, r);
	sl->have_last = 1;
	sl->last_key = j->key;
	record(m, j->stage, r);
	if (j->id != m->run_job)
		return;
	m->run_job = 0;
	if (!m->live)
		return;
	if (r->status == RUN_OK || r->status == RUN_WRONG) {
		m->want_run = 1;
		m->due = m->last_submit + LIVE_PERIOD > now ? m->last_submit + LIVE_PERIOD : now;
	} else {
		m->live = 0;
		snprintf(m->msg, sizeof m->msg, "live paused: %s", run_status_words(r->status, r->message));
	}
}

int stage_event(tui_stage *m, int job, job_phase phase, const char *note, const run_result *r,
                double now)
{
	int i = 0;
	while (i < m->njobs && m->jobs[i].id != job) i++;
	if (i == m->njobs)
		return 0;
	int ev = m->jobs[i].kind == JOB_CODE ? STAGE_EV_CODE : STAGE_EV_SHOWN;
	if (ev != STAGE_EV_CODE || m->njobs == 1) {   /* a code view's compile does not hide a run's phase */
		if (phase != m->phase) m->phase_since = now;
		m->phase = phase;
		snprintf(m->note, sizeof m->note, "%s", note ? note : "");
	}
	if (phase != JOB_DONE)
		return ev;
	stage_job j = m->jobs[i];
	m->jobs[i] = m->jobs[--m->njobs];
	if (r)
		finished(m, &j, r, now);
	else if (j.kind == JOB_CODE && m->slots[j.stage].code.job == j.id)
		m->slots[j.stage].code.job = 0;
	if (j.ladder && m->ladder_left > 0) {
		m->ladder_left--;
		if (r && stage_timed(r)) m->ladder_ran++;
		else if (!m->ladder_why[0])
			snprintf(m->ladder_why, sizeof m->ladder_why, "%s", !r ? "cancelled" : r->status == RUN_OK ? "compiled only"
			         : run_status_words(r->status, r->message));
		if (!m->msg[0] || !strncmp(m->msg, "running the ladder", 18))
			ladder_msg(m);
	}
	return ev;
}

static int sweep_pending(const tui_stage *m)
{
	for (int i = 0; i < m->njobs; i++)
		if (m->jobs[i].kind == JOB_SWEEP) return 1;
	return 0;
}

int stage_tick(tui_stage *m, double now)
{
	/* A run due while a value is typed waits for Enter or Esc: it would measure the values being
	 * replaced, and its notices would cover what the typing says. */
	if (!m->want_run || now < m->due || m->run_job || sweep_pending(m) || m->editing)
		return 0;
	/* A key pressed while the run waited (a refused step, say) said something: that outlives the
	 * run's own notice, until the next key. */
	char said[sizeof m->msg];
	snprintf(said, sizeof said, "%s", m->msg);
	stage_run(m, now);
	if (said[0]) snprintf(m->msg, sizeof m->msg, "%s", said);
	return 1;
}

int stage_timeout(const tui_stage *m, double now)
{
	if (!m->want_run || m->run_job || sweep_pending(m) || m->editing)
		return -1;
	double ms = (m->due - now) * 1000;
	return ms <= 0 ? 0 : (int)ms + 1;
}

unsigned stage_sets_key(int s, const plan_setting *sets, int n)
{
	unsigned h = 2166136261u;               /* FNV-1a over "s|NAME=VALUE;..." */
	char head[16];
	snprintf(head, sizeof head, "%d|", s);
	for (const char *p = head; *p; p++) h = (h ^ (unsigned char)*p) * 16777619u;
	for (int i = 0; i < n; i++) {
		for (const char *p = sets[i].name; *p; p++) h = (h ^ (unsigned char)*p) * 16777619u;
		h = (h ^ '=') * 16777619u;
		for (const char *p = sets[i].value; *p; p++) h = (h ^ (unsigned char)*p) * 16777619u;
		h = (h ^ ';') * 16777619u;
	}
	return h ? h : 1;                       /* 0 is "no key" */
}

unsigned stage_values_key(const tui_stage *m, int s)
{
	plan_setting sets[STAGE_SETS_MAX];
	int n = stage_build_sets(m, s, sets, STAGE_SETS_MAX, -1, NULL);
	return n < 0 ? 0 : stage_sets_key(s, sets, n);
}

__attribute__((format(printf, 3, 4)))
static stage_code_state no_code(tui_stage *m, const char **why, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m->code_why, sizeof m->code_why, fmt, ap);
	va_end(ap);
	*why = m->code_why;
	return STAGE_CODE_NONE;
}

stage_code_state stage_code(tui_stage *m, int s, double now, const char **cubin, const char **arch, const char **why)
{
	stage_slot *sl = &m->slots[s];
	stage_code_slot *c = &sl->code;
	unsigned k = stage_values_key(m, s);
	char err[512];
	*cubin = *arch = *why = "";
	if (sl->have_last && sl->last_key == k && k) {
		if (sl->last.cubin[0] && !m->replay) {   /* a replay's cubin path is the recording machine's */
			*cubin = sl->last.cubin;
			*arch = sl->last.arch;
			return STAGE_CODE_READY;
		}
		if (sl->last.status == RUN_COMPILE_ERROR)
			return no_code(m, why, "It does not compile with these values: %s (e shows the log).", sl->last.message);
		if (sl->last.status == RUN_REFUSED || sl->last.status == RUN_UNSUPPORTED)
			return no_code(m, why, "%s", sl->last.message);
	}
	if (c->key == k && c->done) {
		if (c->status == RUN_OK && c->cubin[0]) {
			*cubin = c->cubin;
			*arch = c->arch;
			return STAGE_CODE_READY;
		}
		if (m->replay && c->status != RUN_COMPILE_ERROR)
			return no_code(m, why, "A replay has the recorded results but not their compiled code: run without "
			               "--replay to compile the stage and see its PTX and SASS.");
		if (c->status == RUN_COMPILE_ERROR)
			return no_code(m, why, "It does not compile with these values: %s (r runs it, e then shows the log).", c->message);
		return no_code(m, why, "%s", c->message[0] ? c->message : "the compile kept no code");
	}
	if (c->job)                        /* one compile at a time per stage: the next when it is back */
		return STAGE_CODE_PENDING;
	for (int i = 0; i < m->njobs && !m->can_run; i++)   /* without a GPU a run is this compile */
		if (m->jobs[i].kind == JOB_RUN && m->jobs[i].stage == s && m->jobs[i].key == k)
			return STAGE_CODE_PENDING;
	if (stage_check(m, s, -1, NULL, err, sizeof err, NULL) != 0)
		return no_code(m, why, "These values are refused, so there is no code: %s", err);
	int id = submit(m, s, JOB_CODE, 0, -1, NULL);
	if (id < 0)
		return no_code(m, why, "%s", m->msg);
	c->key = k;
	c->job = id;
	c->done = 0;
	if (m->njobs == 1) jobs_started(m, now);
	return STAGE_CODE_PENDING;
}

double stage_metric_value(const tui_stage *m, const run_result *r)
{
	return score_value(m->metric, r);
}

double stage_metric_peak(const tui_stage *m)
{
	const device_info *d = m->dev;
	if (m->metric == SCORE_GBPS) {   /* the lesson's attainable: read for read-mostly work, copy otherwise */
		double att = traffic_gbps(traffic_of(m->l->traffic), d);
		return att > 0 ? att : d->bw_theoretical_gbps;
	}
	return peak_gflops(peak_of(lesson_stage_peak(m->l, m->cur)), d);
}

double stage_metric_frac(const tui_stage *m, const run_result *r)
{
	double f = score_peak_frac(m->metric, r), peak = stage_metric_peak(m);
	if (f >= 0)
		return f;
	return peak > 0 ? stage_metric_value(m, r) / peak : -1;
}

double stage_metric_best(const tui_stage *m, const tui_progress *p)
{
	return progress_best(p, m->metric);
}

const char *stage_metric_unit(const tui_stage *m)
{
	return score_unit(m->metric);
}
