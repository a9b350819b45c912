/* serve_judge: the lab service's judges (serve_int.h). A submission is kept on disk (each file
 * fsynced, then its meta renamed into place) before the student is told; a judge is this program's
 * __judge in the job's folder, in the service's account, under the configured limits; its record gets
 * the service's clock, the connection's uid and the job's name, is appended to the course's store and
 * fsynced, and only then is the job removed. A job found on disk at start is judged unless the store
 * already names it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "results.h"
#include "serve_int.h"

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

/* The judges' line: waiting jobs by their seq, served in turns between students as the GPU's line is
 * (serve_queue.c), so that one student's many submissions delay another's first by one judge at most. */
static serve_queue judge_line;
static int job_seq;

static void queue_job(job *j)
{
	j->seq = job_seq++;
	serve_jobs[serve_njobs++] = j;
	serve_queue_add(&judge_line, j->seq, j->uid);
}

int serve_judge_count(unsigned uid)
{
	int n = 0;
	for (int i = 0; i < serve_njobs; i++) n += serve_jobs[i]->uid == uid;
	return n;
}

/* The files of a whole submission kept on disk (each fsynced, then the job's meta renamed into
 * place): from here on a kill of the service does not lose it. */
void serve_judge_take(conn *c, int ci)
{
	submission *s = c->sub;
	if (serve_njobs == MAX_JOBS) { serve_refuse(c, "the judge has too many submissions waiting: try again later"); return; }
	/* refused once the files are in, so that the client reads why rather than a write refused */
	if (!serve_store_room(s->co, c->uid)) {
		char why[300];
		strfmt(why, sizeof why, "your judged tries fill the course's store (%d files of %d MiB, all the report reads of a student): nothing more can be kept; tell the instructor",
		       RESULTS_FILES_PER_UID, RESULTS_FILE_MAX >> 20);
		serve_refuse(c, why);
		return;
	}
	long long now = serve_epoch_ns();
	char *dir = xasprintf("%s/jobs/%lld-%u", serve_cfg->state, now, c->uid), *srcdir = xasprintf("%s/src", dir);
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
		serve_say("cannot keep a submission in %s: %s", dir, strerror(errno));
		rm_tree(dir);
		serve_refuse(c, "the service could not keep your files (its disk): tell the instructor");
	} else {
		job *j = job_new(s->co, s->exercise, c->uid, now / 1000000000LL, s->f[0].name, dir);
		j->conn = ci;
		queue_job(j);
		int ahead = 0;
		for (int i = 0; i < serve_njobs - 1; i++) ahead += !serve_jobs[i]->done;
		c->st = C_JUDGING;
		c->job = serve_njobs - 1;
		c->deadline = 0;
		serve_send(c, "queued kept by the course's judge at %lld; %d submission%s ahead", now / 1000000000LL, ahead, ahead == 1 ? "" : "s");
	}
	free(meta); free(mtmp); free(mpath); free(dir); free(srcdir);
	for (int i = 0; i < s->nfiles; i++) free(s->f[i].data);
	free(s);
	c->sub = NULL;
}

/* ---- the judges ---- */

static void start_judge(job *j)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC)) { serve_say("pipe: %s", strerror(errno)); return; }
	char *log = xasprintf("%s/judge.log", j->dir), *work = xasprintf("%s/work", j->dir), *cache = xasprintf("%s/cache", serve_cfg->state);
	char *file = xasprintf("src/%s", j->main), uid[16], compile_s[24];
	strfmt(uid, sizeof uid, "%u", j->uid);
	strfmt(compile_s, sizeof compile_s, "%lld", (long long)serve_cfg->judge_compile_s);
	mkdir(cache, 0700);
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		int lf = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600), nf = open("/dev/null", O_RDONLY);
		if (dup2(p[1], 1) < 0 || lf < 0 || dup2(lf, 2) < 0 || nf < 0 || dup2(nf, 0) < 0 || chdir(j->dir)) _exit(125);
		struct rlimit as = { (rlim_t)serve_cfg->judge_mb << 20, RLIM_INFINITY }, cpu = { (rlim_t)serve_cfg->judge_cpu_s, (rlim_t)serve_cfg->judge_cpu_s + 5 },
		              fsz = { (rlim_t)serve_cfg->judge_file_mb << 20, (rlim_t)serve_cfg->judge_file_mb << 20 },
		              nof = { (rlim_t)serve_cfg->judge_files, (rlim_t)serve_cfg->judge_files };
		if (setrlimit(RLIMIT_AS, &as) || setrlimit(RLIMIT_CPU, &cpu) || setrlimit(RLIMIT_FSIZE, &fsz) || setrlimit(RLIMIT_NOFILE, &nof)) _exit(125);
		setenv("CUDACLIMB_SERVICE", serve_cfg->socket, 1);
		setenv("CUDACLIMB_SERVICE_FOR", uid, 1);
		setenv("XDG_CACHE_HOME", cache, 1);
		setenv("CUDACLIMB_WORK", work, 1);
		setenv("CUDACLIMB_JUDGE", "1", 1);
		setenv("CUDACLIMB_COMPILE_S", compile_s, 1);   /* one submission holds the judge this long at most compiling */   /* the worker lifts the soft address-space limit: CUDA reserves more */
		unsetenv("CUDACLIMB_COURSE");
		unsetenv("CUDACLIMB_LESSONS");
		if (serve_cfg->lessons) setenv("CUDACLIMB_LESSONS", serve_cfg->lessons, 1);
		execl(serve_exe, serve_exe, "__judge", j->co->dir, j->exercise, file, (char *)NULL);
		_exit(126);
	}
	close(p[1]);
	free(log); free(work); free(cache); free(file);
	if (pid < 0) { close(p[0]); serve_say("fork: %s", strerror(errno)); return; }
	j->pid = pid;
	j->out_fd = p[0];
	j->started = serve_mono();
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
	job *j = serve_jobs[ji];
	conn *c = j->conn >= 0 && serve_conns[j->conn].st == C_JUDGING ? &serve_conns[j->conn] : NULL;
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
		serve_user_of(j->uid, r.user, sizeof r.user);
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
			serve_say("%s", err);
			if (c) serve_send(c, "error the judge could not keep your verdict (%s): tell the instructor", err);
		} else {
			serve_say("judged %s for uid %u: %s, %.2fx", j->exercise, j->uid, r.verdict, r.ratio);
			if (c) { serve_send(c, "verdict %s %d %.4f %.4f", r.verdict, r.passed, r.ratio, r.bar); serve_send(c, "text %s", headline); }
		}
		free(line);
		free(r.source);
	} else if (code == 3) {
		if (c) serve_send(c, "error the lab service's box has no GPU to judge on: nothing was recorded; tell the instructor");
		serve_say("no GPU: %s for uid %u not judged", j->exercise, j->uid);
	} else {
		char last[400];
		last_line(j->dir, last, sizeof last);
		serve_say("the judge of %s for uid %u ended %s %d without a verdict: %s", j->exercise, j->uid,
		    WIFSIGNALED(ws) ? "by signal" : "with status", WIFSIGNALED(ws) ? WTERMSIG(ws) : code, last);
		if (c) serve_send(c, "error the judge failed on this submission (%s %d: %s): tell the instructor", WIFSIGNALED(ws) ? "signal" : "status",
		                 WIFSIGNALED(ws) ? WTERMSIG(ws) : code, last);
	}
	if (c) { serve_send(c, "end"); c->st = C_IDLE; c->job = -1; c->deadline = serve_mono() + REQUEST_S; }
	if (code != 125 && code != 126) rm_tree(j->dir);   /* a judge that could not start keeps its files for the next start */
	j->done = 1;
}

void serve_judge_reap(void)
{
	int ws;
	pid_t pid;
	while ((pid = waitpid(-1, &ws, WNOHANG)) > 0) {
		for (int i = 0; i < serve_njobs; i++) {
			job *j = serve_jobs[i];
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
	for (int i = 0; i < serve_njobs; i++) {
		if (serve_jobs[i]->done) { sb_free(&serve_jobs[i]->out); free(serve_jobs[i]); continue; }
		if (serve_jobs[i]->conn >= 0) serve_conns[serve_jobs[i]->conn].job = k;
		serve_jobs[k++] = serve_jobs[i];
	}
	serve_njobs = k;
}

void serve_judge_run(void)
{
	int running = 0;
	double now = serve_mono();
	for (int i = 0; i < serve_njobs; i++) {
		job *j = serve_jobs[i];
		if (j->pid <= 0) continue;
		running++;
		if (now - j->started > serve_cfg->judge_s) {
			serve_say("the judge of %s for uid %u ran past %.0f s: stopped", j->exercise, j->uid, serve_cfg->judge_s);
			kill(-j->pid, SIGKILL);
		}
	}
	for (int seq, failed = 0; !failed && running < serve_cfg->judges && (seq = serve_queue_next(&judge_line)) >= 0;)
		for (int i = 0; i < serve_njobs; i++) {
			job *j = serve_jobs[i];
			if (j->seq != seq || j->pid != 0 || j->done) continue;
			start_judge(j);
			running += j->pid > 0;
			if (j->pid == 0) { serve_queue_add(&judge_line, j->seq, j->uid); failed = 1; }   /* again next round */
		}
}

/* Jobs kept on disk by an earlier run of the service (stopped or killed before their verdict). */
void serve_judge_recover(void)
{
	char *dir = xasprintf("%s/jobs", serve_cfg->state);
	mkdir(dir, 0700);
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d)) && serve_njobs < MAX_JOBS;) {
		if (e->d_name[0] == '.') continue;
		char *jd = xasprintf("%s/%s", dir, e->d_name), *mp = xasprintf("%s/meta", jd);
		size_t len;
		char *meta = file_read_max(mp, 4096, FILE_NOFOLLOW, &len);
		char id[80] = "", ex[160] = "", main[LABWIRE_NAME_MAX + 1] = "";
		unsigned uid = 0;
		long long received = 0;
		course *co = NULL;
		if (meta && sscanf(meta, "course %79s\nexercise %159s\nuid %u\nreceived %lld\nmain %96s", id, ex, &uid, &received, main) == 5)
			co = serve_config_course(serve_cfg, id);
		if (!co || !labwire_name_ok(main)) {
			serve_say("a kept submission in %s is incomplete or of a course no longer served: removed", jd);
			rm_tree(jd);
		} else {
			job *j = job_new(co, ex, uid, received, main, jd);
			if (serve_store_has(co, uid, e->d_name, received)) { rm_tree(jd); free(j); }
			else { queue_job(j); serve_say("judging again a submission kept before a stop: %s for uid %u", ex, uid); }
		}
		free(meta); free(mp); free(jd);
	}
	if (d) closedir(d);
	free(dir);
}

void serve_judge_stop(void)
{
	for (int i = 0; i < serve_njobs; i++) if (serve_jobs[i]->pid > 0) kill(-serve_jobs[i]->pid, SIGTERM);
}
