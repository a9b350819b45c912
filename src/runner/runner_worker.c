/* runner_worker: see runner_worker.h. */
#include "runner_worker.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

struct worker {
	runner *rn;
	sb in;                   /* bytes read, not yet consumed */
	size_t scanned;          /* how much of in has been searched for a newline, in vain */
	double last;
	enum { IDLE, IN_RESULT, IN_DEVICE } state;
	int greeted;             /* its "hello" came, with our protocol's version */
	run_result r;
	device_info d;
};

/* The process is gone: nothing half-read is kept. */
static void forget(worker *w)
{
	w->state = IDLE;
	sb_free(&w->in);
	w->scanned = 0;
}

worker *runner_worker_new(runner *rn)
{
	worker *w = xcalloc(1, sizeof *w);
	w->rn = rn;
	run_result_init(&w->r);
	return w;
}

const runner *runner_worker_runner(const worker *w) { return w->rn; }

int runner_worker_ensure(worker *w, char *err, size_t errlen)
{
	if (w->rn->cls->fd(w->rn) >= 0) return 0;
	if (w->rn->cls->start(w->rn, err, errlen)) return -1;
	w->last = now_ms();
	w->state = IDLE;
	w->greeted = 0;
	forget(w);
	return 0;
}

int runner_worker_send(worker *w, const char *data, size_t len)
{
	if (w->rn->cls->send(w->rn, data, len)) return -1;
	w->last = now_ms();
	return 0;
}

void runner_worker_add_blob(sb *b, const char *key, const char *name, const char *data, size_t len)
{
	sb_addf(b, "%s %zu%s%s\n", key, len, name ? " " : "", name ? name : "");
	sb_addn(b, data ? data : "", data ? len : 0);
	sb_add(b, "\n");
}

int runner_worker_fd(const worker *w) { return w->rn->cls->fd(w->rn); }
double runner_worker_idle_ms(const worker *w) { return now_ms() - w->last; }

/* A line that is not the protocol: the message that says so. */
static int bad(wmsg *m, const char *what, const char *line, const char *v)
{
	m->kind = WMSG_BAD;
	strfmt(m->text, sizeof m->text, "the GPU worker %s: '%.60s%s%.60s'", what, line, *v ? " " : "", v);
	return 1;
}

/* One complete line: advance the state machine; returns 1 when m is a complete message. */
static int take_line(worker *w, char *line, wmsg *m)
{
	char *sp = strchr(line, ' ');
	const char *v = sp ? sp + 1 : "";
	if (sp) *sp = 0;
	if (!w->greeted) {
		if (strcmp(line, "hello")) return bad(m, "did not greet as this protocol", line, v);
		if (atoi(v) != WORKER_PROTOCOL) {
			m->kind = WMSG_BAD;
			strfmt(m->text, sizeof m->text, "the GPU worker speaks protocol %.20s and this cudaclimb protocol %d: the worker is "
			       "another version of cudaclimb (CUDACLIMB_WORKER or a mixed installation?)", v, WORKER_PROTOCOL);
			return 1;
		}
		w->greeted = 1;
		return 0;
	}
	if (w->state == IN_RESULT || w->state == IN_DEVICE) {
		if (!strcmp(line, "end")) {
			m->kind = w->state == IN_RESULT ? WMSG_RESULT : WMSG_DEVICE;
			if (m->kind == WMSG_RESULT) { m->result = w->r; run_result_init(&w->r); }
			else m->device = w->d;
			w->state = IDLE;
			return 1;
		}
		if (w->state == IN_RESULT && !strcmp(line, "log")) { free(w->r.log); w->r.log = field_unescape(v); }
		else if (w->state == IN_RESULT && !strcmp(line, "hotspots")) { free(w->r.hotspots); w->r.hotspots = field_unescape(v); }
		else if (w->state == IN_RESULT && !strcmp(line, "step")) {
			if (run_step_parse(&w->r, v)) { w->state = IDLE; return bad(m, "sent a garbled step", line, v); }
		}
		else if (w->state == IN_RESULT ? field_set(run_result_fields, run_result_nfields, &w->r, line, v)
		                               : field_set(device_info_fields, device_info_nfields, &w->d, line, v)) {
			w->state = IDLE;
			return bad(m, "sent a garbled reply", line, v);
		}
		return 0;
	}
	if (!strcmp(line, "result")) { run_result_clear(&w->r); w->state = IN_RESULT; }
	else if (!strcmp(line, "device")) { memset(&w->d, 0, sizeof w->d); w->state = IN_DEVICE; }
	else if (!strcmp(line, "note")) { m->kind = WMSG_NOTE; runner_clean_line(v, strlen(v), m->text, sizeof m->text); return 1; }
	else if (!strcmp(line, "phase")) { m->kind = WMSG_RUNNING; return 1; }
	else if (!strcmp(line, "beat")) { m->kind = WMSG_BEAT; return 1; }
	else return bad(m, "sent something that is not the protocol", line, v);
	return 0;
}

void runner_worker_next(worker *w, wmsg *m)
{
	runner *rn = w->rn;
	m->kind = WMSG_NONE;
	for (;;) {
		/* Only the bytes not searched yet: a long line arriving in pieces is searched once. */
		char *nl = w->in.s ? memchr(w->in.s + w->scanned, '\n', w->in.len - w->scanned) : NULL;
		w->scanned = nl ? 0 : w->in.len;
		if (!nl && w->in.len > WORKER_LINE_MAX) {
			m->kind = WMSG_BAD;
			strfmt(m->text, sizeof m->text, "the GPU worker sent a line longer than %zu MiB (not this protocol): '%.40s'",
			       WORKER_LINE_MAX >> 20, w->in.s);
			forget(w);
			return;
		}
		if (nl) {
			*nl = 0;
			size_t used = (size_t)(nl - w->in.s) + 1;
			char *line = xstrdup(w->in.s);
			memmove(w->in.s, w->in.s + used, w->in.len - used + 1);
			w->in.len -= used;
			int done = take_line(w, line, m);
			free(line);
			if (done) return;
			continue;
		}
		if (rn->note[0]) {   /* after the lines already read, before more */
			m->kind = WMSG_NOTE;
			strfmt(m->text, sizeof m->text, "%s", rn->note);
			rn->note[0] = 0;
			return;
		}
		if (rn->cls->fd(rn) < 0) return;
		char buf[16384];
		ssize_t n = rn->cls->read(rn, buf, sizeof buf, m->text, sizeof m->text);
		if (n > 0) { sb_addn(&w->in, buf, (size_t)n); w->last = now_ms(); continue; }
		if (n == 0) { if (rn->note[0]) continue; return; }
		m->kind = WMSG_DIED;
		forget(w);
		return;
	}
}

void runner_worker_kill(worker *w)
{
	w->rn->cls->kill(w->rn);
	forget(w);
}

void runner_worker_close(worker *w, int wait_ms)
{
	if (w->rn->cls->fd(w->rn) >= 0) {
		runner_worker_send(w, "quit\n", 5);
		w->rn->cls->stop(w->rn, wait_ms);
	}
	forget(w);
}

void runner_worker_free(worker *w)
{
	if (!w) return;
	runner_worker_close(w, 500);   /* a moment to free the GPU cleanly, then make sure */
	run_result_clear(&w->r);
	runner_free(w->rn);
	free(w);
}
