/* runner_replay: see runner_replay.h. */
#include "runner_replay.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "plan_wire.h"
#include "util.h"
#include "runner_worker.h"

typedef struct {
	replay *rp;
	char *path;
	int running;
	int sig[2];          /* a pipe with a byte in it while out has bytes to read: the fd the engine polls */
	sb in;               /* requests received, not yet answered */
	sb out;              /* answers not yet read */
	size_t out_at;       /* how much of out has been read */
} replay_state;

static replay_state *st(const runner *r) { return r->impl; }

static void close_pipe(replay_state *s)
{
	for (int i = 0; i < 2; i++) if (s->sig[i] >= 0) close(s->sig[i]);
	s->sig[0] = s->sig[1] = -1;
}

static void say(replay_state *s, const char *text, size_t len);

static void reset(replay_state *s)
{
	close_pipe(s);
	sb_free(&s->in);
	sb_free(&s->out);
	s->out_at = 0;
	s->running = 0;
}

static int replay_start(runner *r, char *err, size_t errlen)
{
	replay_state *s = st(r);
	if (s->running) return 0;
	if (pipe(s->sig)) { strfmt(err, errlen, "cannot make a pipe for the replay: %s", strerror(errno)); s->sig[0] = s->sig[1] = -1; return -1; }
	for (int i = 0; i < 2; i++) fcntl(s->sig[i], F_SETFL, fcntl(s->sig[i], F_GETFL) | O_NONBLOCK);
	s->running = 1;
	char hello[32];
	strfmt(hello, sizeof hello, "hello %d\n", WORKER_PROTOCOL);
	say(s, hello, strlen(hello));
	return 0;
}

/* Answers are ready: the pipe gets its byte (one is enough: read drains it once out is empty). */
static void say(replay_state *s, const char *text, size_t len)
{
	int was_empty = s->out_at >= s->out.len;
	sb_addn(&s->out, text, len);
	if (was_empty && write(s->sig[1], "", 1) < 0) { /* full: a byte is already there */ }
}

/* The result of a run as the protocol carries it. */
static void say_result(replay_state *s, const run_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f) return;
	fputs("phase running\nresult\n", f);
	field_write_kv(f, run_result_fields, run_result_nfields, r);
	for (int i = 0; i < r->nsteps; i++) run_step_write(f, r, i);
	if (r->log) { fputs("log ", f); field_escape(f, r->log); fputc('\n', f); }
	if (r->hotspots) { fputs("hotspots ", f); field_escape(f, r->hotspots); fputc('\n', f); }
	fputs("end\n", f);
	fclose(f);
	say(s, buf, len);
	free(buf);
}

static void say_device(replay_state *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f) return;
	fputs("device\n", f);
	field_write_kv(f, device_info_fields, device_info_nfields, replay_device(s->rp));
	fputs("end\n", f);
	fclose(f);
	say(s, buf, len);
	free(buf);
}

/* The record for a run: its "job" line's names (LESSON STAGE [NAME...], split in place) and its plan. */
static void answer_run(replay_state *s, char *job, const char *plan_text, size_t plan_len)
{
	run_result r;
	run_result_init(&r);
	const char *words[66];
	int n = 0;
	for (char *save, *w = strtok_r(job, " ", &save); w && n < 66; w = strtok_r(NULL, " ", &save)) words[n++] = w;
	plan p;
	char err[512];
	if (plan_wire_read(&p, plan_text ? plan_text : "", plan_len, err, sizeof err)) {
		r.status = RUN_REFUSED;
		strfmt(r.message, sizeof r.message, "the plan that came with the request: %s", err);
	} else if (n < 2 || replay_find(s->rp, words[0], words[1], words + 2, n - 2, &p, &r)) {
		r.status = RUN_NO_GPU;   /* no lesson named: the engine keeps its own names for the job */
		if (n < 2) strfmt(r.message, sizeof r.message, "this run is not in the replay file");
		else replay_miss(s->rp, words[0], words[1], &p, r.message, sizeof r.message);
	}
	plan_free(&p);
	say_result(s, &r);
	run_result_clear(&r);
}

/* The line at in[*at]: its length without the newline, *at moved past it; -1 when it is not whole yet. */
static long next_line(const sb *in, size_t *at)
{
	const char *nl = *at < in->len ? memchr(in->s + *at, '\n', in->len - *at) : NULL;
	if (!nl) return -1;
	long len = (long)(nl - (in->s + *at));
	*at += (size_t)len + 1;
	return len;
}

/* Answers the first request in s->in when it is whole: returns the bytes it took, or 0 when it is not
 * whole yet. A line that starts no request is taken and ignored, as the worker ignores it. */
static size_t take_request(replay_state *s)
{
	size_t at = 0;
	long len = next_line(&s->in, &at);
	if (len < 0) return 0;
	const char *cmd = s->in.s;
	if (len == 6 && !memcmp(cmd, "device", 6)) {
		for (long k; (k = next_line(&s->in, &at)) >= 0;)
			if (k == 3 && !memcmp(s->in.s + at - 4, "end", 3)) { say_device(s); return at; }
		return 0;
	}
	if (!(len == 3 && !memcmp(cmd, "run", 3))) return at;
	char job[1024] = "";
	size_t plan_at = 0, plan_len = 0;
	int have_plan = 0;
	for (;;) {
		size_t start = at;
		long k = next_line(&s->in, &at);
		if (k < 0) return 0;
		char line[1100];
		strfmt(line, sizeof line, "%.*s", (int)(k < 1099 ? k : 1099), s->in.s + start);
		if (!strcmp(line, "end")) break;
		char key[32];
		unsigned long long blob;
		if (!strncmp(line, "job ", 4)) { strfmt(job, sizeof job, "%s", line + 4); continue; }
		if (sscanf(line, "%31s %llu", key, &blob) != 2 || (strcmp(key, "plan") && strcmp(key, "ref_plan") && strcmp(key, "cubin") &&
		                                                   strcmp(key, "ref_cubin") && strcmp(key, "pair_cubin") && strcmp(key, "pair_plan")))
			continue;
		if (s->in.len - at < blob + 1) return 0;   /* the blob and its newline are not all here yet */
		if (!strcmp(key, "plan")) { plan_at = at; plan_len = (size_t)blob; have_plan = 1; }
		at += (size_t)blob + 1;
	}
	char *plan_text = have_plan ? xstrndup(s->in.s + plan_at, plan_len) : NULL;
	answer_run(s, job, plan_text, plan_len);
	free(plan_text);
	return at;
}

static int replay_send(runner *r, const void *data, size_t len)
{
	replay_state *s = st(r);
	if (!s->running) return -1;
	sb_addn(&s->in, data, len);
	for (size_t used; s->in.len && (used = take_request(s));) {
		memmove(s->in.s, s->in.s + used, s->in.len - used + 1);
		s->in.len -= used;
	}
	return 0;
}

static int replay_fd(const runner *r) { return st(r)->running ? st(r)->sig[0] : -1; }

static ssize_t replay_read(runner *r, char *buf, size_t n, char *why, size_t wn)
{
	replay_state *s = st(r);
	if (!s->running) { strfmt(why, wn, "the replay is not running"); return -1; }
	size_t left = s->out.len - s->out_at;
	if (!left) return 0;
	size_t k = left < n ? left : n;
	memcpy(buf, s->out.s + s->out_at, k);
	s->out_at += k;
	if (s->out_at >= s->out.len) {   /* all read: nothing to poll for until the next answer */
		char drain[64];
		while (read(s->sig[0], drain, sizeof drain) > 0) {}
		s->out.len = s->out_at = 0;
	}
	return (ssize_t)k;
}

static void replay_stop(runner *r, int wait_ms) { reset(st(r)); }
static void replay_kill(runner *r) { reset(st(r)); }

static void replay_describe(const runner *r, char *out, size_t n) { strfmt(out, n, "replay %s", st(r)->path); }

static void replay_release(runner *r)
{
	replay_state *s = st(r);
	reset(s);
	replay_free(s->rp);
	free(s->path);
	free(s);
	r->impl = NULL;
}

const runner_class runner_replay_class = {
	.name = "replay",
	.start = replay_start,
	.send = replay_send,
	.fd = replay_fd,
	.read = replay_read,
	.stop = replay_stop,
	.kill = replay_kill,
	.describe = replay_describe,
	.release = replay_release,
	.recorded = 1,
};

runner *runner_replay_new(replay *rp, const char *path)
{
	runner *r = xcalloc(1, sizeof *r);
	replay_state *s = xcalloc(1, sizeof *s);
	s->rp = rp;
	s->path = xstrdup(path);
	s->sig[0] = s->sig[1] = -1;
	r->cls = &runner_replay_class;
	r->impl = s;
	r->gpu = -1;
	r->to = r->from = r->err = -1;
	return r;
}
