/* serve: the lab service's loop (serve.h): one thread, one poll over the socket, the connections and
 * the judges' pipes. Everything a client sends is bounded (a line, a file, a submission, the time a
 * request may take to arrive, connections and jobs per user) and checked; a client that breaks the
 * rules is told why and dropped, and nothing it did reaches another client's turn. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "compile_jail.h"
#include "labwire.h"
#include "results.h"
#include "serve_int.h"
#include "util.h"

serve_config *serve_cfg;
const char *serve_exe;
conn serve_conns[MAX_CONNS];
job *serve_jobs[MAX_JOBS];
int serve_njobs;
static gpu_line gpus[MAX_GPUS]; static int ngpus;
static long leases;   /* leases asked for so far: the clock of gpu_line.used */
static int listen_fd = -1;
static volatile sig_atomic_t stopping;

double serve_mono(void) { return now_ms() / 1e3; }

long long serve_epoch_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void serve_say(const char *fmt, ...)
{
	char buf[1200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	fputs("cudaclimb serve: ", stderr);
	fput_clean(stderr, buf);
	fputc('\n', stderr);
}

void serve_user_of(unsigned uid, char *out, size_t n) { results_owner_name(uid, out, n); }

/* ---- answers ---- */

void serve_send(conn *c, const char *fmt, ...)
{
	char buf[LABWIRE_LINE_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf - 1, fmt, ap);
	va_end(ap);
	for (char *p = buf; *p; p++) if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = '?';   /* one line, no escapes */
	if (c->out.len + strlen(buf) + 1 > OUT_MAX) { c->closing = 1; return; }
	sb_addf(&c->out, "%s\n", buf);
}

static void flush(conn *c)
{
	size_t off = 0;
	while (off < c->out.len) {
		ssize_t w = send(c->fd, c->out.s + off, c->out.len - off, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (w > 0) { off += (size_t)w; continue; }
		if (w < 0 && errno == EINTR) continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
		c->closing = 1;
		c->out.len = 0;
		return;
	}
	if (off) { memmove(c->out.s, c->out.s + off, c->out.len - off); c->out.len -= off; c->out.s[c->out.len] = 0; }
}

/* An error to the client, which is then dropped. */
void serve_refuse(conn *c, const char *why)
{
	serve_send(c, "error %s", why);
	c->closing = 1;
}

/* ---- the GPU queue ---- */

static void trace_hold(const conn *c)
{
	if (!serve_cfg->trace) return;
	char line[200];
	int n = snprintf(line, sizeof line, "run %lld %lld %lld %ld %u %s\n", c->ask_ns, c->got_ns, serve_epoch_ns(), (long)c->pid, c->turn_uid,
	                 gpus[c->gpu].uuid);
	int fd = open(serve_cfg->trace, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0640);
	if (fd < 0) return;
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && write(fd, line, (size_t)n) != n) {}
	close(fd);
}

/* Marks in live (MAX_GPUS bytes) the GPU lines in use: held, waited for, or still run on by a
 * connection passed over at the cap. The others are idle, and free to reuse. */
static void live_lines(unsigned char *live)
{
	memset(live, 0, MAX_GPUS);
	for (int g = 0; g < ngpus; g++) live[g] = gpus[g].holder >= 0 || gpus[g].q.nw > 0;
	for (int i = 0; i < MAX_CONNS; i++)
		if (serve_conns[i].st == C_WAIT || serve_conns[i].st == C_HELD) live[serve_conns[i].gpu] = 1;
}

/* The line of GPU uuid: its own, a new one, or else the idle line asked for longest ago, emptied of
 * its old GPU's turns and waiters, but never one where a user still cools: a hog passed over at the
 * cap could otherwise lease 1100 made-up GPUs while the real one is idle, have its line reused, and
 * come back to a fresh line with its cool-down forgotten (served at once, ahead of the class, a cap
 * each time). -1 when every line is live or cools: each live line has a connection of its own in it
 * and the asking connection is in none, so only lines cooling (a user holds at most GPUS_PER_USER at
 * a time past the cap, each cooling for cooldown caps) can fill the rest. */
static int gpu_index(const char *uuid)
{
	for (int i = 0; i < ngpus; i++) if (!strcmp(gpus[i].uuid, uuid)) return i;
	int g = -1;
	if (ngpus < MAX_GPUS) g = ngpus++;
	else {
		unsigned char live[MAX_GPUS];
		live_lines(live);
		double now = serve_mono();
		for (int i = 0; i < ngpus; i++)
			if (!live[i] && !serve_queue_any_cooling(&gpus[i].q, now) && (g < 0 || gpus[i].used < gpus[g].used)) g = i;
		if (g < 0) return -1;
	}
	gpu_line *gl = &gpus[g];
	serve_queue_free(&gl->q);
	memset(gl, 0, sizeof *gl);
	strfmt(gl->uuid, sizeof gl->uuid, "%s", uuid);
	gl->holder = -1;
	return g;
}

/* How many GPUs other than uuid uid holds or waits for now, on all its connections. */
static int user_gpus(unsigned uid, const char *uuid)
{
	unsigned char seen[MAX_GPUS] = {0};
	int n = 0;
	for (int i = 0; i < MAX_CONNS; i++) {
		const conn *c = &serve_conns[i];
		if (c->uid != uid || (c->st != C_WAIT && c->st != C_HELD) || seen[c->gpu] || !strcmp(gpus[c->gpu].uuid, uuid)) continue;
		seen[c->gpu] = 1;
		n++;
	}
	return n;
}

/* Tells each waiter of GPU g where it stands, when that changed. */
static void tell_waiters(int g)
{
	gpu_line *gl = &gpus[g];
	if (!gl->q.nw) return;
	int *order = xcalloc((size_t)gl->q.nw, sizeof *order);
	double now = serve_mono();
	serve_queue_order_at(&gl->q, now, order);
	char holder[64] = "";
	double ran = 0;
	if (gl->holder >= 0) { serve_user_of(serve_conns[gl->holder].turn_uid, holder, sizeof holder); ran = now - serve_conns[gl->holder].got_mono; }
	for (int k = 0; k < gl->q.nw; k++) {
		conn *c = &serve_conns[gl->q.w[order[k]].conn];
		int pos = k + (gl->holder >= 0);
		if (c->shown_pos == pos + 1) continue;
		c->shown_pos = pos + 1;
		int n = pos + 1, t = n % 100 >= 11 && n % 100 <= 13 ? 0 : n % 10;
		const char *th = t == 1 ? "st" : t == 2 ? "nd" : t == 3 ? "rd" : "th";
		if (!gl->q.w[order[k]].judge && serve_queue_cooling(&gl->q, gl->q.w[order[k]].uid, now)) {
			double left = 0;
			for (int u = 0; u < gl->q.nusers; u++) if (gl->q.users[u].uid == gl->q.w[order[k]].uid) left = gl->q.users[u].cool_until - now;
			serve_send(c, "wait waiting for the GPU (lab service): %d%s in line: a run of this account held the GPU past the cap, so for %.0f s more "
			              "its runs go after everyone else's, once nobody else has used the GPU for %.0f s", n, th, left, serve_cfg->cap);
			continue;
		}
		char ahead[64] = "";
		if (k > 0) serve_user_of(gl->q.w[order[0]].uid, ahead, sizeof ahead);
		if (gl->holder >= 0 && k > 0)
			serve_send(c, "wait waiting for the GPU (lab service): %d%s in line, behind %s (running for %.0f s) and %d more", n, th, holder, ran, k);
		else if (gl->holder >= 0)
			serve_send(c, "wait waiting for the GPU (lab service): %d%s in line, behind %s (running for %.0f s)", n, th, holder, ran);
		else
			serve_send(c, "wait waiting for the GPU (lab service): %d%s in line, next after %s", n, th, ahead[0] ? ahead : "the run ahead");
	}
	free(order);
}

/* Lets the next waiter of GPU g in while nobody holds it: a user passed over at the cap (cooling)
 * only when no other user waits and no other user's lease has ended for a cap. */
static void grant(int g)
{
	gpu_line *gl = &gpus[g];
	while (gl->holder < 0) {
		double now = serve_mono();
		int ci = serve_queue_next_at(&gl->q, now, now - gl->busy_at >= serve_cfg->cap);
		if (ci < 0) break;
		conn *c = &serve_conns[ci];
		if (c->st != C_WAIT || c->closing) continue;
		c->st = C_HELD;
		c->got_ns = serve_epoch_ns();
		c->got_mono = serve_mono();
		gl->holder = ci;
		serve_send(c, "go");
	}
	tell_waiters(g);
}

/* c's lease ends or leaves the line: the GPU was busy for others until now, unless c's user cools
 * (a judge's run for a cooling user counts as busy: it is not held back either). */
static void left_line(const conn *c)
{
	gpu_line *gl = &gpus[c->gpu];
	double now = serve_mono();
	if (c->uid == geteuid() || !serve_queue_cooling(&gl->q, c->turn_uid, now)) gl->busy_at = now;
}

/* The lease of c (held, or passed over and still running) ends. */
static void release(conn *c, int ci)
{
	gpu_line *gl = &gpus[c->gpu];
	trace_hold(c);
	left_line(c);
	if (gl->holder == ci) gl->holder = -1;
	c->st = C_IDLE;
	c->over = 0;
	grant(c->gpu);
}

/* Holders past the cap are passed over: told, sent to the back for the cool-down (cooldown caps),
 * and the next let in; a free GPU whose waiters all cool is given once it is quiet. */
static void check_caps(void)
{
	double now = serve_mono();
	for (int g = 0; g < ngpus; g++) {
		gpu_line *gl = &gpus[g];
		if (gl->holder < 0) { if (gl->q.nw) grant(g); continue; }
		conn *c = &serve_conns[gl->holder];
		double held = now - c->got_mono;
		if (held <= serve_cfg->cap) continue;
		char who[64];
		serve_user_of(c->turn_uid, who, sizeof who);
		double cool = serve_cfg->cooldown * serve_cfg->cap;
		serve_send(c, "over this run held the GPU for %.0f s, past the lab's cap of %.0f s: the service let the next run in, so its timings may be disturbed; "
		              "for %.0f s this account's runs go after everyone else's", held, serve_cfg->cap, cool);
		for (int k = 0; k < gl->q.nw; k++)
			serve_send(&serve_conns[gl->q.w[k].conn], "wait %s's run has held the GPU for %.0f s, past the cap of %.0f s: passed over", who, held, serve_cfg->cap);
		serve_say("passed over: %s (uid %u, pid %ld) held GPU %s for %.0f s, past the cap of %.0f s; its runs go last for %.0f s", who, c->turn_uid, (long)c->pid,
		          gl->uuid, held, serve_cfg->cap, cool);
		if (cool > 0) serve_queue_cool(&gl->q, c->turn_uid, now + cool);
		c->over = 1;
		gl->holder = -1;
		grant(g);
	}
}

/* lease UUID EXPECT_S [for UID], read by serve_request_parse */
static void do_lease(conn *c, int ci, const serve_request *rq)
{
	const char *uuid = rq->uuid;
	if (rq->has_for && c->uid != geteuid()) { serve_refuse(c, "only the service's own judges may queue for another user"); return; }
	/* any id makes a line, so a user's lines are bounded; the service's own judges run for everyone */
	if (c->uid != geteuid() && user_gpus(c->uid, uuid) >= GPUS_PER_USER) {
		char why[160];
		strfmt(why, sizeof why, "too many GPUs at once: a user may hold or wait for at most %d GPUs (give one back first)", GPUS_PER_USER);
		serve_refuse(c, why);
		return;
	}
	int g = gpu_index(uuid);
	if (g < 0) { serve_refuse(c, "too many GPUs in use: try again in a minute"); return; }
	gpus[g].used = ++leases;
	c->gpu = g;
	c->turn_uid = rq->has_for ? rq->for_uid : c->uid;
	c->ask_ns = serve_epoch_ns();
	c->st = C_WAIT;
	c->deadline = 0;
	c->shown_pos = 0;
	serve_queue_add_for(&gpus[g].q, ci, c->turn_uid, rq->has_for);
	grant(g);
}

/* submit COURSE LESSON/STAGE NFILES, read by serve_request_parse */
static void do_submit(conn *c, const serve_request *rq)
{
	course *co = serve_config_course(serve_cfg, rq->course);
	if (!co) { serve_refuse(c, "this service judges no course of that id"); return; }
	char lid[80];
	const char *slash = strchr(rq->exercise, '/');
	strfmt(lid, sizeof lid, "%.*s", (int)(slash - rq->exercise), rq->exercise);
	if (!course_find(co, lid, slash + 1)) { serve_refuse(c, "the course does not assign that exercise"); return; }
	int n = rq->nfiles;
	if (serve_judge_count(c->uid) >= serve_cfg->per_user) { serve_refuse(c, "you have too many submissions waiting for the judge: wait for their verdicts"); return; }
	submission *s = xcalloc(1, sizeof *s);
	s->co = co;
	s->nfiles = n;
	strfmt(s->exercise, sizeof s->exercise, "%s", rq->exercise);
	c->sub = s;
	c->st = C_FILES;
	c->deadline = serve_mono() + UPLOAD_S;
}

/* The current file of c's submission has all its bytes: the next, or the whole submission to the judge. */
static void file_done(conn *c, int ci)
{
	subfile *f = &c->sub->f[c->sub->cur];
	f->data[f->len] = 0;
	if (++c->sub->cur == c->sub->nfiles) serve_judge_take(c, ci);
}

/* file NAME LEN: the next file of the submission; its bytes follow (an empty file is whole at once:
 * no byte will come to complete it). */
static void do_file(conn *c, int ci, const char *line)
{
	submission *s = c->sub;
	serve_request rq;
	if (serve_request_parse(line, 1, &rq)) { serve_refuse(c, rq.why); return; }
	const char *name = rq.name;
	size_t len = rq.len;
	for (int i = 0; i < s->cur; i++) {
		if (!strcmp(s->f[i].name, name)) { serve_refuse(c, "a file is sent twice"); return; }
		/* "a" and "a/b.cu": one name would be a file and a folder at once; refused here, not as a disk
		 * that would not keep the files (which sends the instructor looking at the service's disk) */
		size_t k = strlen(s->f[i].name), m = strlen(name);
		if ((k < m && !strncmp(name, s->f[i].name, k) && name[k] == '/') || (m < k && !strncmp(s->f[i].name, name, m) && s->f[i].name[m] == '/')) {
			serve_refuse(c, "a file's name is another file's folder");
			return;
		}
	}
	if (s->total + len > LABWIRE_TOTAL_MAX) { serve_refuse(c, "the files are over 1 MiB in all"); return; }
	subfile *f = &s->f[s->cur];
	strfmt(f->name, sizeof f->name, "%s", name);
	f->len = len;
	f->got = 0;
	f->data = xmalloc(len + 1);
	s->total += len;
	if (!len) file_done(c, ci);
}

#define STATUS_GPUS 64   /* GPU lines status shows at most, so that its answer stays small */

/* For do_status: the lines in use first, then the others, the one asked for last first. */
typedef struct { int g, live; long used; } shown;

static int by_shown(const void *a, const void *b)
{
	const shown *x = a, *y = b;
	if (x->live != y->live) return y->live - x->live;
	return (x->used < y->used) - (x->used > y->used);
}

static void do_status(conn *c)
{
	double now = serve_mono();
	unsigned char live[MAX_GPUS];
	live_lines(live);
	shown *order = xcalloc((size_t)ngpus + 1, sizeof *order);
	for (int g = 0; g < ngpus; g++) order[g] = (shown){ g, live[g], gpus[g].used };
	qsort(order, (size_t)ngpus, sizeof *order, by_shown);
	int n = ngpus < STATUS_GPUS ? ngpus : STATUS_GPUS, busy = 0;
	for (int k = 0; k < n; k++) {
		gpu_line *gl = &gpus[order[k].g];
		char who[64] = "";
		if (gl->holder >= 0) serve_user_of(serve_conns[gl->holder].turn_uid, who, sizeof who);
		if (gl->holder >= 0)
			serve_send(c, "line GPU %s: %s running for %.0f s, %d waiting (cap %.0f s)", gl->uuid, who, now - serve_conns[gl->holder].got_mono, gl->q.nw, serve_cfg->cap);
		else
			serve_send(c, "line GPU %s: free, %d waiting (cap %.0f s)", gl->uuid, gl->q.nw, serve_cfg->cap);
	}
	for (int k = n; k < ngpus; k++) busy += order[k].live;
	if (ngpus > n) serve_send(c, "line and %d more GPUs asked for longer ago, %d of them in use", ngpus - n, busy);
	free(order);
	int running = 0, waiting = 0;
	for (int i = 0; i < serve_njobs; i++) { running += serve_jobs[i]->pid > 0; waiting += serve_jobs[i]->pid == 0 && !serve_jobs[i]->done; }
	serve_send(c, "line judge: %d running, %d waiting (at most %d at once)", running, waiting, serve_cfg->judges);
	serve_send(c, "end");
}

static void handle_line(conn *c, int ci, char *line)
{
	switch (c->st) {
	case C_IDLE: {
		c->deadline = serve_mono() + REQUEST_S;
		serve_request rq;
		if (serve_request_parse(line, 0, &rq)) serve_refuse(c, rq.why);
		else if (rq.kind == SR_LEASE) do_lease(c, ci, &rq);
		else if (rq.kind == SR_SUBMIT) do_submit(c, &rq);
		else if (rq.kind == SR_STATUS) do_status(c);
		else if (rq.kind == SR_PING) serve_send(c, "pong");
		else if (rq.kind == SR_LENGTH) {   /* runs holding or waiting for that GPU, for a client choosing one */
			int n = 0;
			for (int g = 0; g < ngpus; g++) if (!strcmp(gpus[g].uuid, rq.uuid)) n = gpus[g].q.nw + (gpus[g].holder >= 0);
			serve_send(c, "length %d", n);
		}
		break;
	}
	case C_WAIT:
		if (strcmp(line, "done")) { serve_refuse(c, "one request at a time: a lease is waiting"); break; }
		serve_queue_remove(&gpus[c->gpu].q, ci);
		left_line(c);
		c->st = C_IDLE;
		c->deadline = serve_mono() + REQUEST_S;
		tell_waiters(c->gpu);
		break;
	case C_HELD:
		if (strcmp(line, "done")) { serve_refuse(c, "one request at a time: this connection holds the GPU"); break; }
		release(c, ci);
		c->deadline = serve_mono() + REQUEST_S;
		break;
	case C_FILES:
		do_file(c, ci, line);
		break;
	default:
		serve_refuse(c, "one request at a time: a submission is being judged");
	}
}

static void close_conn(int ci)
{
	conn *c = &serve_conns[ci];
	if (c->st == C_WAIT) { serve_queue_remove(&gpus[c->gpu].q, ci); left_line(c); tell_waiters(c->gpu); }
	if (c->st == C_HELD) release(c, ci);
	if (c->sub) { for (int i = 0; i < c->sub->nfiles; i++) free(c->sub->f[i].data); free(c->sub); }
	if (c->st == C_JUDGING && c->job >= 0 && c->job < serve_njobs && serve_jobs[c->job]->conn == ci) serve_jobs[c->job]->conn = -1;
	close(c->fd);
	sb_free(&c->out);
	memset(c, 0, sizeof *c);
	c->st = C_FREE;
	c->fd = -1;
	c->job = -1;
}

/* What arrived on c: lines, and a submission's raw bytes. */
static void take_input(conn *c, int ci)
{
	size_t off = 0;
	while (off < c->inlen && !c->closing) {
		if (c->st == C_FILES && c->sub && c->sub->cur < c->sub->nfiles && c->sub->f[c->sub->cur].data) {
			subfile *f = &c->sub->f[c->sub->cur];
			size_t k = c->inlen - off < f->len - f->got ? c->inlen - off : f->len - f->got;
			memcpy(f->data + f->got, c->in + off, k);
			f->got += k;
			off += k;
			if (f->got == f->len) file_done(c, ci);
			continue;
		}
		char *nl = memchr(c->in + off, '\n', c->inlen - off);
		if (!nl) break;
		*nl = 0;
		if (nl > c->in + off && nl[-1] == '\r') nl[-1] = 0;
		handle_line(c, ci, c->in + off);
		off = (size_t)(nl - c->in) + 1;
	}
	memmove(c->in, c->in + off, c->inlen - off);
	c->inlen -= off;
	if (c->inlen >= LABWIRE_LINE_MAX && !c->closing && !(c->st == C_FILES && c->sub && c->sub->cur < c->sub->nfiles && c->sub->f[c->sub->cur].data))
		serve_refuse(c, "a line is too long");
	if (c->inlen && !c->deadline && c->st != C_FILES) c->deadline = serve_mono() + REQUEST_S;
}

static void read_conn(int ci)
{
	conn *c = &serve_conns[ci];
	ssize_t k = recv(c->fd, c->in + c->inlen, sizeof c->in - c->inlen, MSG_DONTWAIT);
	if (k == 0 || (k < 0 && errno != EAGAIN && errno != EINTR)) { close_conn(ci); return; }
	if (k > 0) { c->inlen += (size_t)k; take_input(c, ci); }
}

static void accept_conns(void)
{
	for (;;) {
		int fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0) return;
		struct ucred cr;
		socklen_t cl = sizeof cr;
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &cl) != 0) { close(fd); continue; }
		int mine = 0, slot = -1;
		for (int i = 0; i < MAX_CONNS; i++) {
			if (serve_conns[i].st == C_FREE) { if (slot < 0) slot = i; continue; }
			mine += serve_conns[i].uid == cr.uid;
		}
		const char *why = slot < 0 ? "error the lab service has too many connections: try again in a minute\n"
		                : mine >= serve_cfg->per_user ? "error you have too many connections to the lab service open\n" : NULL;
		if (why) {
			if (send(fd, why, strlen(why), MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {}
			close(fd);
			continue;
		}
		conn *c = &serve_conns[slot];
		memset(c, 0, sizeof *c);
		c->fd = fd;
		c->uid = cr.uid;
		c->pid = cr.pid;
		c->st = C_IDLE;
		c->job = -1;
		c->deadline = serve_mono() + REQUEST_S;
	}
}

/* ---- the socket ---- */

static int open_socket(void)
{
	char dir[128];
	strfmt(dir, sizeof dir, "%s", serve_cfg->socket);
	*strrchr(dir, '/') = 0;
	struct stat st;
	if (lstat(dir[0] ? dir : "/", &st) != 0 || !S_ISDIR(st.st_mode)) { serve_say("the socket's folder %s is not a folder (systemd's RuntimeDirectory makes it)", dir); return -1; }
	if ((st.st_uid != 0 && st.st_uid != geteuid()) || (st.st_mode & 0022)) {
		serve_say("the socket's folder %s must be root's or the service's and written by nobody else (it is uid %lu's, mode %04o)", dir,
		    (unsigned long)st.st_uid, (unsigned)(st.st_mode & 07777));
		return -1;
	}
	if (lstat(serve_cfg->socket, &st) == 0) {
		if (!S_ISSOCK(st.st_mode) || st.st_uid != geteuid()) { serve_say("%s is there and is not this service's socket", serve_cfg->socket); return -1; }
		unlink(serve_cfg->socket);
	}
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	memcpy(a.sun_path, serve_cfg->socket, strlen(serve_cfg->socket) + 1);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) || chmod(serve_cfg->socket, 0666) || listen(fd, 128)) {
		serve_say("cannot listen on %s: %s", serve_cfg->socket, strerror(errno));
		if (fd >= 0) close(fd);
		return -1;
	}
	return fd;
}

static void on_stop(int sig) { (void)sig; stopping = 1; }

int serve_run(serve_config *config, const char *self_exe)
{
	serve_cfg = config;
	serve_exe = self_exe;
	if (geteuid() == 0) {
		serve_say("the lab service does not run as root: run it under an account of its own (make install's unit: User=cudaclimb)");
		return 2;
	}
	struct stat st;
	if (mkdir(serve_cfg->state, 0700) && errno != EEXIST) { serve_say("cannot make the state folder %s: %s", serve_cfg->state, strerror(errno)); return 1; }
	if (lstat(serve_cfg->state, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 0077)) {
		serve_say("the state folder %s must be the service's own, mode 700", serve_cfg->state);
		return 1;
	}
	for (int i = 0; i < serve_cfg->ncourses; i++) {
		char why[700];
		if (serve_store_ready(serve_cfg->courses[i], why, sizeof why)) { serve_say("course %s: %s", serve_cfg->courses[i]->id, why); return 1; }
	}
	struct rlimit nf;
	if (getrlimit(RLIMIT_NOFILE, &nf) == 0 && nf.rlim_cur < nf.rlim_max) { nf.rlim_cur = nf.rlim_max; setrlimit(RLIMIT_NOFILE, &nf); }
	signal(SIGPIPE, SIG_IGN);
	struct sigaction sa = { .sa_handler = on_stop };
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	for (int i = 0; i < MAX_CONNS; i++) { serve_conns[i].st = C_FREE; serve_conns[i].fd = -1; serve_conns[i].job = -1; }
	if ((listen_fd = open_socket()) < 0) return 1;
	serve_judge_recover();
	int abi = compile_jail_abi();
	serve_say("listening on %s: %d course%s, cap %.0f s (a run passed over at it goes last for %g caps), %d judge%s at once; %s", serve_cfg->socket, serve_cfg->ncourses,
	    serve_cfg->ncourses == 1 ? "" : "s", serve_cfg->cap, serve_cfg->cooldown, serve_cfg->judges, serve_cfg->judges == 1 ? "" : "s",
	    abi > 0 ? "learners' compiles closed in (Landlock)" : "this kernel has no Landlock: learners' compiles are checked by the include scan alone");
	struct pollfd *pf = xcalloc(MAX_CONNS + MAX_JOBS + 1, sizeof *pf);
	int *who = xcalloc(MAX_CONNS + MAX_JOBS + 1, sizeof *who);
	while (!stopping) {
		int n = 0;
		pf[n] = (struct pollfd){ .fd = listen_fd, .events = POLLIN };
		who[n++] = -1;
		for (int i = 0; i < MAX_CONNS; i++) {
			if (serve_conns[i].st == C_FREE) continue;
			pf[n] = (struct pollfd){ .fd = serve_conns[i].fd, .events = (short)((serve_conns[i].closing ? 0 : POLLIN) | (serve_conns[i].out.len ? POLLOUT : 0)) };
			who[n++] = i;
		}
		for (int i = 0; i < serve_njobs; i++) {
			if (serve_jobs[i]->out_fd < 0) continue;
			pf[n] = (struct pollfd){ .fd = serve_jobs[i]->out_fd, .events = POLLIN };
			who[n++] = MAX_CONNS + i;
		}
		if (poll(pf, (nfds_t)n, 200) < 0 && errno != EINTR) { serve_say("poll: %s", strerror(errno)); break; }
		for (int k = 1; k < n; k++) {
			if (!pf[k].revents) continue;
			if (who[k] >= MAX_CONNS) {
				job *j = serve_jobs[who[k] - MAX_CONNS];
				char buf[65536];
				ssize_t r = read(j->out_fd, buf, sizeof buf);
				if (r > 0 && j->out.len + (size_t)r <= JUDGE_OUT_MAX) sb_addn(&j->out, buf, (size_t)r);
				if (r == 0) { close(j->out_fd); j->out_fd = -1; }
				continue;
			}
			int ci = who[k];
			if (serve_conns[ci].st == C_FREE) continue;
			if (pf[k].revents & POLLOUT) flush(&serve_conns[ci]);
			if (pf[k].revents & (POLLIN | POLLHUP | POLLERR)) read_conn(ci);
		}
		if (pf[0].revents) accept_conns();
		double now = serve_mono();
		for (int i = 0; i < MAX_CONNS; i++) {
			conn *c = &serve_conns[i];
			if (c->st == C_FREE) continue;
			if (c->deadline > 0 && now > c->deadline && !c->closing) {
				if (c->st == C_FILES || c->inlen) serve_refuse(c, "the request did not arrive whole in time");
				else c->closing = 1;   /* an idle connection: let it go */
			}
			if (c->out.len) flush(c);
			if (c->closing && !c->close_by) c->close_by = now + 5;
			if (c->closing && (!c->out.len || now > c->close_by)) close_conn(i);
		}
		check_caps();
		serve_judge_reap();
		serve_judge_run();
	}
	serve_judge_stop();
	for (int i = 0; i < MAX_CONNS; i++) if (serve_conns[i].st != C_FREE) close(serve_conns[i].fd);
	close(listen_fd);
	unlink(serve_cfg->socket);
	free(pf);
	free(who);
	serve_say("stopped; %d submission%s kept for the next start", serve_njobs, serve_njobs == 1 ? "" : "s");
	return 0;
}
