/* serve: the lab service's loop (serve.h): one thread, one poll over the socket, the connections and
 * the judges' pipes. Everything a client sends is bounded (a line, a file, a submission, the time a
 * request may take to arrive, connections and jobs per user) and checked; a client that breaks the
 * rules is told why and dropped, and nothing it did reaches another client's turn. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "labwire.h"
#include "results.h"
#include "serve.h"
#include "util.h"

#define MAX_CONNS 1024
#define MAX_GPUS 64
#define MAX_JOBS 4096
#define REQUEST_S 15.0        /* a request line must arrive whole within this */
#define UPLOAD_S 60.0         /* and a submission's files */
#define OUT_MAX (64 * 1024)   /* answers a client has not read: past this it is dropped */
#define JUDGE_OUT_MAX (2 * 1024 * 1024)

typedef enum { C_FREE, C_IDLE, C_WAIT, C_HELD, C_FILES, C_JUDGING } cstate;

typedef struct {
	char name[LABWIRE_NAME_MAX + 1];
	size_t len, got;
	char *data;
} subfile;

typedef struct {
	course *co;
	char exercise[160];
	int nfiles, cur;
	size_t total;
	subfile f[LABWIRE_FILES_MAX];
} submission;

typedef struct {
	int fd;
	unsigned uid;             /* the kernel's word (SO_PEERCRED) */
	pid_t pid;
	cstate st;
	char in[LABWIRE_LINE_MAX * 2]; size_t inlen;
	sb out;
	double deadline;          /* monotonic seconds; 0: none (waiting, holding, judging) */
	int closing;              /* drop once the answers are sent */
	double close_by;          /* or by then, sent or not */
	/* a lease */
	int gpu; unsigned turn_uid; long long ask_ns, got_ns; double got_mono; int over, shown_pos;
	submission *sub;
	int job;                  /* the job this client waits on, or -1 */
} conn;

typedef struct {
	char uuid[40];
	serve_queue q;
	int holder;               /* the connection holding the GPU, or -1 */
} gpu_line;

typedef struct {
	char dir[700], main[LABWIRE_NAME_MAX + 1], exercise[160];
	course *co;
	unsigned uid;
	int64_t received;         /* the service's clock, when the files were kept: lateness is judged by it */
	pid_t pid;                /* running: the judge, the leader of its process group */
	int out_fd;
	sb out;
	double started;
	int conn;                 /* the client waiting for the verdict, or -1 */
	int done;
} job;

static serve_config *cfg;
static const char *exe;
static conn conns[MAX_CONNS];
static gpu_line gpus[MAX_GPUS]; static int ngpus;
static job *jobs[MAX_JOBS]; static int njobs;
static int listen_fd = -1;
static volatile sig_atomic_t stopping;

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static long long epoch_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
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

static void user_of(unsigned uid, char *out, size_t n) { results_owner_name(uid, out, n); }

/* ---- answers ---- */

static void send_line(conn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void send_line(conn *c, const char *fmt, ...)
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
static void refuse(conn *c, const char *why)
{
	send_line(c, "error %s", why);
	c->closing = 1;
}

/* ---- the GPU queue ---- */

static void trace_hold(const conn *c)
{
	if (!cfg->trace) return;
	char line[200];
	int n = snprintf(line, sizeof line, "run %lld %lld %lld %ld %u %s\n", c->ask_ns, c->got_ns, epoch_ns(), (long)c->pid, c->turn_uid,
	                 gpus[c->gpu].uuid);
	int fd = open(cfg->trace, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0640);
	if (fd < 0) return;
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && write(fd, line, (size_t)n) != n) {}
	close(fd);
}

static int gpu_index(const char *uuid)
{
	for (int i = 0; i < ngpus; i++) if (!strcmp(gpus[i].uuid, uuid)) return i;
	if (ngpus == MAX_GPUS) return -1;
	gpu_line *g = &gpus[ngpus];
	memset(g, 0, sizeof *g);
	strfmt(g->uuid, sizeof g->uuid, "%s", uuid);
	g->holder = -1;
	return ngpus++;
}

/* Tells each waiter of GPU g where it stands, when that changed. */
static void tell_waiters(int g)
{
	gpu_line *gl = &gpus[g];
	if (!gl->q.nw) return;
	int *order = xcalloc((size_t)gl->q.nw, sizeof *order);
	serve_queue_order(&gl->q, order);
	char holder[64] = "";
	double ran = 0;
	if (gl->holder >= 0) { user_of(conns[gl->holder].turn_uid, holder, sizeof holder); ran = mono() - conns[gl->holder].got_mono; }
	for (int k = 0; k < gl->q.nw; k++) {
		conn *c = &conns[gl->q.w[order[k]].conn];
		int pos = k + (gl->holder >= 0);
		if (c->shown_pos == pos + 1) continue;
		c->shown_pos = pos + 1;
		char ahead[64] = "";
		if (k > 0) user_of(gl->q.w[order[0]].uid, ahead, sizeof ahead);
		int n = pos + 1, t = n % 100 >= 11 && n % 100 <= 13 ? 0 : n % 10;
		const char *th = t == 1 ? "st" : t == 2 ? "nd" : t == 3 ? "rd" : "th";
		if (gl->holder >= 0 && k > 0)
			send_line(c, "wait waiting for the GPU (lab service): %d%s in line, behind %s (running for %.0f s) and %d more", n, th, holder, ran, k);
		else if (gl->holder >= 0)
			send_line(c, "wait waiting for the GPU (lab service): %d%s in line, behind %s (running for %.0f s)", n, th, holder, ran);
		else
			send_line(c, "wait waiting for the GPU (lab service): %d%s in line, next after %s", n, th, ahead[0] ? ahead : "the run ahead");
	}
	free(order);
}

static void grant(int g)
{
	gpu_line *gl = &gpus[g];
	while (gl->holder < 0) {
		int ci = serve_queue_next(&gl->q);
		if (ci < 0) return;
		conn *c = &conns[ci];
		if (c->st != C_WAIT || c->closing) continue;
		c->st = C_HELD;
		c->got_ns = epoch_ns();
		c->got_mono = mono();
		gl->holder = ci;
		send_line(c, "go");
	}
	tell_waiters(g);
}

/* The lease of c (held, or passed over and still running) ends. */
static void release(conn *c, int ci)
{
	gpu_line *gl = &gpus[c->gpu];
	trace_hold(c);
	if (gl->holder == ci) gl->holder = -1;
	c->st = C_IDLE;
	c->over = 0;
	grant(c->gpu);
}

/* Holders past the cap are passed over: told, and the next let in. */
static void check_caps(void)
{
	double now = mono();
	for (int g = 0; g < ngpus; g++) {
		gpu_line *gl = &gpus[g];
		if (gl->holder < 0) continue;
		conn *c = &conns[gl->holder];
		double held = now - c->got_mono;
		if (held <= cfg->cap) continue;
		char who[64];
		user_of(c->turn_uid, who, sizeof who);
		send_line(c, "over this run held the GPU for %.0f s, past the lab's cap of %.0f s: the service let the next run in, so its timings may be disturbed",
		          held, cfg->cap);
		for (int k = 0; k < gl->q.nw; k++)
			send_line(&conns[gl->q.w[k].conn], "wait %s's run has held the GPU for %.0f s, past the cap of %.0f s: passed over", who, held, cfg->cap);
		say("passed over: %s (uid %u, pid %ld) held GPU %s for %.0f s, past the cap of %.0f s", who, c->turn_uid, (long)c->pid, gl->uuid, held, cfg->cap);
		c->over = 1;
		gl->holder = -1;
		grant(g);
	}
}

/* lease UUID EXPECT_S [for UID], read by serve_request_parse */
static void do_lease(conn *c, int ci, const serve_request *rq)
{
	const char *uuid = rq->uuid;
	if (rq->has_for && c->uid != geteuid()) { refuse(c, "only the service's own judges may queue for another user"); return; }
	int g = gpu_index(uuid);
	if (g < 0) { refuse(c, "too many GPUs"); return; }
	c->gpu = g;
	c->turn_uid = rq->has_for ? rq->for_uid : c->uid;
	c->ask_ns = epoch_ns();
	c->st = C_WAIT;
	c->deadline = 0;
	c->shown_pos = 0;
	serve_queue_add(&gpus[g].q, ci, c->turn_uid);
	grant(g);
}

/* ---- judging ---- */

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st; (void)flag; (void)f;
	return remove(path) == 0 ? 0 : 0;
}

static void rm_tree(const char *dir) { nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS); }

static int write_file_sync(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) return -1;
	size_t off = 0;
	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);
		if (w <= 0) { close(fd); return -1; }
		off += (size_t)w;
	}
	int bad = fsync(fd);
	return close(fd) || bad ? -1 : 0;
}

static job *job_new(course *co, const char *exercise, unsigned uid, int64_t received, const char *main, const char *dir)
{
	job *j = xcalloc(1, sizeof *j);
	j->co = co;
	j->uid = uid;
	j->received = received;
	j->out_fd = -1;
	j->conn = -1;
	strfmt(j->exercise, sizeof j->exercise, "%s", exercise);
	strfmt(j->main, sizeof j->main, "%s", main);
	strfmt(j->dir, sizeof j->dir, "%s", dir);
	return j;
}

static int jobs_of(unsigned uid)
{
	int n = 0;
	for (int i = 0; i < njobs; i++) n += jobs[i]->uid == uid;
	return n;
}

/* The files of a whole submission kept on disk (each fsynced, then the job's meta renamed into
 * place): from here on a kill of the service does not lose it. */
static void submitted(conn *c, int ci)
{
	submission *s = c->sub;
	if (njobs == MAX_JOBS) { refuse(c, "the judge has too many submissions waiting: try again later"); return; }
	long long now = epoch_ns();
	char *dir = xasprintf("%s/jobs/%lld-%u", cfg->state, now, c->uid), *srcdir = xasprintf("%s/src", dir);
	int bad = mkdir(dir, 0700) || mkdir(srcdir, 0700);
	for (int i = 0; i < s->nfiles && !bad; i++) {
		char *p = xasprintf("%s/%s", srcdir, s->f[i].name);
		for (char *q = strchr(p + strlen(srcdir) + 1, '/'); q; q = strchr(q + 1, '/')) { *q = 0; mkdir(p, 0700); *q = '/'; }
		bad = write_file_sync(p, s->f[i].data, s->f[i].len);
		free(p);
	}
	char *meta = xasprintf("course %s\nexercise %s\nuid %u\nreceived %lld\nmain %s\n", s->co->id, s->exercise, c->uid, now / 1000000000LL, s->f[0].name);
	char *mtmp = xasprintf("%s/meta.tmp", dir), *mpath = xasprintf("%s/meta", dir);
	if (!bad) bad = write_file_sync(mtmp, meta, strlen(meta)) || rename(mtmp, mpath);
	if (bad) {
		say("cannot keep a submission in %s: %s", dir, strerror(errno));
		rm_tree(dir);
		refuse(c, "the service could not keep your files (its disk): tell the instructor");
	} else {
		job *j = job_new(s->co, s->exercise, c->uid, now / 1000000000LL, s->f[0].name, dir);
		j->conn = ci;
		jobs[njobs++] = j;
		int ahead = 0;
		for (int i = 0; i < njobs - 1; i++) ahead += !jobs[i]->done;
		c->st = C_JUDGING;
		c->job = njobs - 1;
		c->deadline = 0;
		send_line(c, "queued kept by the course's judge at %lld; %d submission%s ahead", now / 1000000000LL, ahead, ahead == 1 ? "" : "s");
	}
	free(meta); free(mtmp); free(mpath); free(dir); free(srcdir);
	for (int i = 0; i < s->nfiles; i++) free(s->f[i].data);
	free(s);
	c->sub = NULL;
}

/* submit COURSE LESSON/STAGE NFILES, read by serve_request_parse */
static void do_submit(conn *c, const serve_request *rq)
{
	course *co = serve_config_course(cfg, rq->course);
	if (!co) { refuse(c, "this service judges no course of that id"); return; }
	char lid[80];
	const char *slash = strchr(rq->exercise, '/');
	strfmt(lid, sizeof lid, "%.*s", (int)(slash - rq->exercise), rq->exercise);
	if (!course_find(co, lid, slash + 1)) { refuse(c, "the course does not assign that exercise"); return; }
	int n = rq->nfiles;
	if (jobs_of(c->uid) >= cfg->per_user) { refuse(c, "you have too many submissions waiting for the judge: wait for their verdicts"); return; }
	submission *s = xcalloc(1, sizeof *s);
	s->co = co;
	s->nfiles = n;
	strfmt(s->exercise, sizeof s->exercise, "%s", rq->exercise);
	c->sub = s;
	c->st = C_FILES;
	c->deadline = mono() + UPLOAD_S;
}

/* file NAME LEN: the next file of the submission; its bytes follow. */
static void do_file(conn *c, const char *line)
{
	submission *s = c->sub;
	serve_request rq;
	if (serve_request_parse(line, 1, &rq)) { refuse(c, rq.why); return; }
	const char *name = rq.name;
	size_t len = rq.len;
	for (int i = 0; i < s->cur; i++) if (!strcmp(s->f[i].name, name)) { refuse(c, "a file is sent twice"); return; }
	if (s->total + len > LABWIRE_TOTAL_MAX) { refuse(c, "the files are over 1 MiB in all"); return; }
	subfile *f = &s->f[s->cur];
	strfmt(f->name, sizeof f->name, "%s", name);
	f->len = len;
	f->got = 0;
	f->data = xmalloc(len + 1);
	s->total += len;
}

static void do_status(conn *c)
{
	double now = mono();
	for (int g = 0; g < ngpus; g++) {
		gpu_line *gl = &gpus[g];
		char who[64] = "";
		if (gl->holder >= 0) user_of(conns[gl->holder].turn_uid, who, sizeof who);
		if (gl->holder >= 0)
			send_line(c, "line GPU %s: %s running for %.0f s, %d waiting (cap %.0f s)", gl->uuid, who, now - conns[gl->holder].got_mono, gl->q.nw, cfg->cap);
		else
			send_line(c, "line GPU %s: free, %d waiting (cap %.0f s)", gl->uuid, gl->q.nw, cfg->cap);
	}
	int running = 0, waiting = 0;
	for (int i = 0; i < njobs; i++) { running += jobs[i]->pid > 0; waiting += jobs[i]->pid == 0 && !jobs[i]->done; }
	send_line(c, "line judge: %d running, %d waiting (at most %d at once)", running, waiting, cfg->judges);
	send_line(c, "end");
}

static void handle_line(conn *c, int ci, char *line)
{
	switch (c->st) {
	case C_IDLE: {
		c->deadline = mono() + REQUEST_S;
		serve_request rq;
		if (serve_request_parse(line, 0, &rq)) refuse(c, rq.why);
		else if (rq.kind == SR_LEASE) do_lease(c, ci, &rq);
		else if (rq.kind == SR_SUBMIT) do_submit(c, &rq);
		else if (rq.kind == SR_STATUS) do_status(c);
		else if (rq.kind == SR_PING) send_line(c, "pong");
		break;
	}
	case C_WAIT:
		if (strcmp(line, "done")) { refuse(c, "one request at a time: a lease is waiting"); break; }
		serve_queue_remove(&gpus[c->gpu].q, ci);
		c->st = C_IDLE;
		c->deadline = mono() + REQUEST_S;
		tell_waiters(c->gpu);
		break;
	case C_HELD:
		if (strcmp(line, "done")) { refuse(c, "one request at a time: this connection holds the GPU"); break; }
		release(c, ci);
		c->deadline = mono() + REQUEST_S;
		break;
	case C_FILES:
		do_file(c, line);
		break;
	default:
		refuse(c, "one request at a time: a submission is being judged");
	}
}

static void close_conn(int ci)
{
	conn *c = &conns[ci];
	if (c->st == C_WAIT) { serve_queue_remove(&gpus[c->gpu].q, ci); tell_waiters(c->gpu); }
	if (c->st == C_HELD) release(c, ci);
	if (c->sub) { for (int i = 0; i < c->sub->nfiles; i++) free(c->sub->f[i].data); free(c->sub); }
	if (c->st == C_JUDGING && c->job >= 0 && c->job < njobs && jobs[c->job]->conn == ci) jobs[c->job]->conn = -1;
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
			if (f->got == f->len) {
				f->data[f->len] = 0;
				if (++c->sub->cur == c->sub->nfiles) submitted(c, ci);
			}
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
		refuse(c, "a line is too long");
	if (c->inlen && !c->deadline && c->st != C_FILES) c->deadline = mono() + REQUEST_S;
}

static void read_conn(int ci)
{
	conn *c = &conns[ci];
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
			if (conns[i].st == C_FREE) { if (slot < 0) slot = i; continue; }
			mine += conns[i].uid == cr.uid;
		}
		const char *why = slot < 0 ? "error the lab service has too many connections: try again in a minute\n"
		                : mine >= cfg->per_user ? "error you have too many connections to the lab service open\n" : NULL;
		if (why) {
			if (send(fd, why, strlen(why), MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {}
			close(fd);
			continue;
		}
		conn *c = &conns[slot];
		memset(c, 0, sizeof *c);
		c->fd = fd;
		c->uid = cr.uid;
		c->pid = cr.pid;
		c->st = C_IDLE;
		c->job = -1;
		c->deadline = mono() + REQUEST_S;
	}
}

/* ---- the judges ---- */

static void start_judge(job *j)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC)) { say("pipe: %s", strerror(errno)); return; }
	char *log = xasprintf("%s/judge.log", j->dir), *work = xasprintf("%s/work", j->dir), *cache = xasprintf("%s/cache", cfg->state);
	char *file = xasprintf("src/%s", j->main), uid[16];
	strfmt(uid, sizeof uid, "%u", j->uid);
	mkdir(cache, 0700);
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		int lf = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600), nf = open("/dev/null", O_RDONLY);
		if (dup2(p[1], 1) < 0 || lf < 0 || dup2(lf, 2) < 0 || nf < 0 || dup2(nf, 0) < 0 || chdir(j->dir)) _exit(125);
		struct rlimit as = { (rlim_t)cfg->judge_mb << 20, RLIM_INFINITY }, cpu = { (rlim_t)cfg->judge_cpu_s, (rlim_t)cfg->judge_cpu_s + 5 },
		              fsz = { (rlim_t)cfg->judge_file_mb << 20, (rlim_t)cfg->judge_file_mb << 20 },
		              nof = { (rlim_t)cfg->judge_files, (rlim_t)cfg->judge_files };
		if (setrlimit(RLIMIT_AS, &as) || setrlimit(RLIMIT_CPU, &cpu) || setrlimit(RLIMIT_FSIZE, &fsz) || setrlimit(RLIMIT_NOFILE, &nof)) _exit(125);
		setenv("CUDACLIMB_SERVICE", cfg->socket, 1);
		setenv("CUDACLIMB_SERVICE_FOR", uid, 1);
		setenv("XDG_CACHE_HOME", cache, 1);
		setenv("CUDACLIMB_WORK", work, 1);
		setenv("CUDACLIMB_JUDGE", "1", 1);   /* the worker lifts the soft address-space limit: CUDA reserves more */
		unsetenv("CUDACLIMB_COURSE");
		unsetenv("CUDACLIMB_LESSONS");
		if (cfg->lessons) setenv("CUDACLIMB_LESSONS", cfg->lessons, 1);
		execl(exe, exe, "__judge", j->co->dir, j->exercise, file, (char *)NULL);
		_exit(126);
	}
	close(p[1]);
	free(log); free(work); free(cache); free(file);
	if (pid < 0) { close(p[0]); say("fork: %s", strerror(errno)); return; }
	j->pid = pid;
	j->out_fd = p[0];
	j->started = mono();
	fcntl(j->out_fd, F_SETFL, O_NONBLOCK);
}

/* The last line the judge of the job in dir wrote on its standard error, into out ("" none). */
static void last_line(const char *dir, char *out, size_t n)
{
	char *path = xasprintf("%s/judge.log", dir);
	size_t len;
	char *log = file_read_max(path, 1 << 20, FILE_NOFOLLOW, &len);
	free(path);
	out[0] = 0;
	if (!log) return;
	while (len && (log[len - 1] == '\n' || log[len - 1] == ' ')) log[--len] = 0;
	char *start = strrchr(log, '\n');
	strfmt(out, n, "%s", start ? start + 1 : log);
	free(log);
}

/* The judge of j is done (its status in ws): its verdict stored and told, the job's folder gone. */
static void finish_judge(int ji, int ws)
{
	job *j = jobs[ji];
	conn *c = j->conn >= 0 && conns[j->conn].st == C_JUDGING ? &conns[j->conn] : NULL;
	char *nl = j->out.s ? strchr(j->out.s, '\n') : NULL;
	if (nl) *nl = 0;
	char headline[600] = "";
	if (nl) { strfmt(headline, sizeof headline, "%s", nl + 1); char *e = strchr(headline, '\n'); if (e) *e = 0; }
	result_record r;
	results_drop why;
	int code = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
	if (nl && !results_parse_line(j->co, j->out.s, j->uid, &r, &why)) {
		r.time = j->received;              /* the service's clock, never the judge's or the student's */
		r.uid = j->uid;
		user_of(j->uid, r.user, sizeof r.user);
		char *line = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&line, &len);
		results_write_json(m, &r);
		fclose(m);
		/* the job's name goes into the record, so that a job found again after a kill is not judged twice */
		if (len && line[len - 1] == '}') {
			line[len - 1] = 0;
			char *with = xasprintf("%s, \"job\": \"%s\"}", line, strrchr(j->dir, '/') + 1);
			free(line);
			line = with;
		}
		char err[700];
		if (serve_store_append(j->co, j->uid, line, err, sizeof err)) {
			say("%s", err);
			if (c) send_line(c, "error the judge could not keep your verdict (%s): tell the instructor", err);
		} else {
			say("judged %s for uid %u: %s, %.2fx", j->exercise, j->uid, r.verdict, r.ratio);
			if (c) { send_line(c, "verdict %s %d %.4f %.4f", r.verdict, r.passed, r.ratio, r.bar); send_line(c, "text %s", headline); }
		}
		free(line);
		free(r.source);
	} else if (code == 3) {
		if (c) send_line(c, "error the lab service's box has no GPU to judge on: nothing was recorded; tell the instructor");
		say("no GPU: %s for uid %u not judged", j->exercise, j->uid);
	} else {
		char last[400];
		last_line(j->dir, last, sizeof last);
		say("the judge of %s for uid %u ended %s %d without a verdict: %s", j->exercise, j->uid,
		    WIFSIGNALED(ws) ? "by signal" : "with status", WIFSIGNALED(ws) ? WTERMSIG(ws) : code, last);
		if (c) send_line(c, "error the judge failed on this submission (%s %d: %s): tell the instructor", WIFSIGNALED(ws) ? "signal" : "status",
		                 WIFSIGNALED(ws) ? WTERMSIG(ws) : code, last);
	}
	if (c) { send_line(c, "end"); c->st = C_IDLE; c->job = -1; c->deadline = mono() + REQUEST_S; }
	if (code != 125 && code != 126) rm_tree(j->dir);   /* a judge that could not start keeps its files for the next start */
	j->done = 1;
}

static void reap(void)
{
	int ws;
	pid_t pid;
	while ((pid = waitpid(-1, &ws, WNOHANG)) > 0) {
		for (int i = 0; i < njobs; i++) {
			job *j = jobs[i];
			if (j->pid != pid) continue;
			if (j->out_fd >= 0) {   /* what is left in the pipe */
				char buf[65536];
				ssize_t k;
				while ((k = read(j->out_fd, buf, sizeof buf)) > 0) if (j->out.len + (size_t)k <= JUDGE_OUT_MAX) sb_addn(&j->out, buf, (size_t)k);
				close(j->out_fd);
				j->out_fd = -1;
			}
			j->pid = -1;
			finish_judge(i, ws);
		}
	}
	/* done jobs leave the list; connections waiting on later ones follow their index */
	int k = 0;
	for (int i = 0; i < njobs; i++) {
		if (jobs[i]->done) { sb_free(&jobs[i]->out); free(jobs[i]); continue; }
		if (jobs[i]->conn >= 0) conns[jobs[i]->conn].job = k;
		jobs[k++] = jobs[i];
	}
	njobs = k;
}

static void run_judges(void)
{
	int running = 0;
	double now = mono();
	for (int i = 0; i < njobs; i++) {
		job *j = jobs[i];
		if (j->pid <= 0) continue;
		running++;
		if (now - j->started > cfg->judge_s) {
			say("the judge of %s for uid %u ran past %.0f s: stopped", j->exercise, j->uid, cfg->judge_s);
			kill(-j->pid, SIGKILL);
		}
	}
	for (int i = 0; i < njobs && running < cfg->judges; i++)
		if (jobs[i]->pid == 0 && !jobs[i]->done) { start_judge(jobs[i]); running += jobs[i]->pid > 0; }
}

/* Jobs kept on disk by an earlier run of the service (stopped or killed before their verdict). */
static void recover_jobs(void)
{
	char *dir = xasprintf("%s/jobs", cfg->state);
	mkdir(dir, 0700);
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d)) && njobs < MAX_JOBS;) {
		if (e->d_name[0] == '.') continue;
		char *jd = xasprintf("%s/%s", dir, e->d_name), *mp = xasprintf("%s/meta", jd);
		size_t len;
		char *meta = file_read_max(mp, 4096, FILE_NOFOLLOW, &len);
		char id[80] = "", ex[160] = "", main[LABWIRE_NAME_MAX + 1] = "";
		unsigned uid = 0;
		long long received = 0;
		course *co = NULL;
		if (meta && sscanf(meta, "course %79s\nexercise %159s\nuid %u\nreceived %lld\nmain %96s", id, ex, &uid, &received, main) == 5)
			co = serve_config_course(cfg, id);
		if (!co || !labwire_name_ok(main)) {
			say("a kept submission in %s is incomplete or of a course no longer served: removed", jd);
			rm_tree(jd);
		} else {
			job *j = job_new(co, ex, uid, received, main, jd);
			if (serve_store_has(co, uid, e->d_name)) { rm_tree(jd); free(j); }
			else { jobs[njobs++] = j; say("judging again a submission kept before a stop: %s for uid %u", ex, uid); }
		}
		free(meta); free(mp); free(jd);
	}
	if (d) closedir(d);
	free(dir);
}

/* ---- the socket ---- */

static int open_socket(void)
{
	char dir[128];
	strfmt(dir, sizeof dir, "%s", cfg->socket);
	*strrchr(dir, '/') = 0;
	struct stat st;
	if (lstat(dir[0] ? dir : "/", &st) != 0 || !S_ISDIR(st.st_mode)) { say("the socket's folder %s is not a folder (systemd's RuntimeDirectory makes it)", dir); return -1; }
	if ((st.st_uid != 0 && st.st_uid != geteuid()) || (st.st_mode & 0022)) {
		say("the socket's folder %s must be root's or the service's and written by nobody else (it is uid %lu's, mode %04o)", dir,
		    (unsigned long)st.st_uid, (unsigned)(st.st_mode & 07777));
		return -1;
	}
	if (lstat(cfg->socket, &st) == 0) {
		if (!S_ISSOCK(st.st_mode) || st.st_uid != geteuid()) { say("%s is there and is not this service's socket", cfg->socket); return -1; }
		unlink(cfg->socket);
	}
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	memcpy(a.sun_path, cfg->socket, strlen(cfg->socket) + 1);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) || chmod(cfg->socket, 0666) || listen(fd, 128)) {
		say("cannot listen on %s: %s", cfg->socket, strerror(errno));
		if (fd >= 0) close(fd);
		return -1;
	}
	return fd;
}

static void on_stop(int sig) { (void)sig; stopping = 1; }

int serve_run(serve_config *config, const char *self_exe)
{
	cfg = config;
	exe = self_exe;
	if (geteuid() == 0) {
		say("the lab service does not run as root: run it under an account of its own (make install's unit: User=cudaclimb)");
		return 2;
	}
	struct stat st;
	if (mkdir(cfg->state, 0700) && errno != EEXIST) { say("cannot make the state folder %s: %s", cfg->state, strerror(errno)); return 1; }
	if (lstat(cfg->state, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 0077)) {
		say("the state folder %s must be the service's own, mode 700", cfg->state);
		return 1;
	}
	for (int i = 0; i < cfg->ncourses; i++) {
		char why[700];
		if (serve_store_ready(cfg->courses[i], why, sizeof why)) { say("course %s: %s", cfg->courses[i]->id, why); return 1; }
	}
	struct rlimit nf;
	if (getrlimit(RLIMIT_NOFILE, &nf) == 0 && nf.rlim_cur < nf.rlim_max) { nf.rlim_cur = nf.rlim_max; setrlimit(RLIMIT_NOFILE, &nf); }
	signal(SIGPIPE, SIG_IGN);
	struct sigaction sa = { .sa_handler = on_stop };
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	for (int i = 0; i < MAX_CONNS; i++) { conns[i].st = C_FREE; conns[i].fd = -1; conns[i].job = -1; }
	if ((listen_fd = open_socket()) < 0) return 1;
	recover_jobs();
	say("listening on %s: %d course%s, cap %.0f s, %d judge%s at once", cfg->socket, cfg->ncourses, cfg->ncourses == 1 ? "" : "s", cfg->cap,
	    cfg->judges, cfg->judges == 1 ? "" : "s");
	struct pollfd *pf = xcalloc(MAX_CONNS + MAX_JOBS + 1, sizeof *pf);
	int *who = xcalloc(MAX_CONNS + MAX_JOBS + 1, sizeof *who);
	while (!stopping) {
		int n = 0;
		pf[n] = (struct pollfd){ .fd = listen_fd, .events = POLLIN };
		who[n++] = -1;
		for (int i = 0; i < MAX_CONNS; i++) {
			if (conns[i].st == C_FREE) continue;
			pf[n] = (struct pollfd){ .fd = conns[i].fd, .events = (short)((conns[i].closing ? 0 : POLLIN) | (conns[i].out.len ? POLLOUT : 0)) };
			who[n++] = i;
		}
		for (int i = 0; i < njobs; i++) {
			if (jobs[i]->out_fd < 0) continue;
			pf[n] = (struct pollfd){ .fd = jobs[i]->out_fd, .events = POLLIN };
			who[n++] = MAX_CONNS + i;
		}
		if (poll(pf, (nfds_t)n, 200) < 0 && errno != EINTR) { say("poll: %s", strerror(errno)); break; }
		for (int k = 1; k < n; k++) {
			if (!pf[k].revents) continue;
			if (who[k] >= MAX_CONNS) {
				job *j = jobs[who[k] - MAX_CONNS];
				char buf[65536];
				ssize_t r = read(j->out_fd, buf, sizeof buf);
				if (r > 0 && j->out.len + (size_t)r <= JUDGE_OUT_MAX) sb_addn(&j->out, buf, (size_t)r);
				if (r == 0) { close(j->out_fd); j->out_fd = -1; }
				continue;
			}
			int ci = who[k];
			if (conns[ci].st == C_FREE) continue;
			if (pf[k].revents & POLLOUT) flush(&conns[ci]);
			if (pf[k].revents & (POLLIN | POLLHUP | POLLERR)) read_conn(ci);
		}
		if (pf[0].revents) accept_conns();
		double now = mono();
		for (int i = 0; i < MAX_CONNS; i++) {
			conn *c = &conns[i];
			if (c->st == C_FREE) continue;
			if (c->deadline > 0 && now > c->deadline && !c->closing) {
				if (c->st == C_FILES || c->inlen) refuse(c, "the request did not arrive whole in time");
				else c->closing = 1;   /* an idle connection: let it go */
			}
			if (c->out.len) flush(c);
			if (c->closing && !c->close_by) c->close_by = now + 5;
			if (c->closing && (!c->out.len || now > c->close_by)) close_conn(i);
		}
		check_caps();
		reap();
		run_judges();
	}
	for (int i = 0; i < njobs; i++) if (jobs[i]->pid > 0) kill(-jobs[i]->pid, SIGTERM);
	for (int i = 0; i < MAX_CONNS; i++) if (conns[i].st != C_FREE) close(conns[i].fd);
	close(listen_fd);
	unlink(cfg->socket);
	free(pf);
	free(who);
	say("stopped; %d submission%s kept for the next start", njobs, njobs == 1 ? "" : "s");
	return 0;
}
