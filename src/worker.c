/* worker: see worker.h. */
#include "worker.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "arch.h"
#include "gpu.h"
#include "util.h"

struct worker {
	char *exe, *data_root;
	char **prefix;           /* a program to run the worker under (NULL-terminated), or NULL */
	int gpu;
	pid_t pid;
	int to, from;            /* pipes */
	sb in;                   /* bytes read, not yet consumed */
	double last;
	enum { IDLE, IN_RESULT, IN_DEVICE } state;
	int greeted;             /* its "hello" came, with our protocol's version */
	run_result r;
	device_info d;
};

worker *worker_new(const char *exe, const char *data_root, int gpu)
{
	worker *w = xcalloc(1, sizeof *w);
	const char *alt = getenv("CUDACLIMB_WORKER");
	w->exe = xstrdup(alt && *alt ? alt : exe);
	w->data_root = xstrdup(data_root);
	w->gpu = gpu;
	w->to = w->from = -1;
	run_result_init(&w->r);
	return w;
}

void worker_set_prefix(worker *w, char *const *argv)
{
	for (int i = 0; w->prefix && w->prefix[i]; i++) free(w->prefix[i]);
	free(w->prefix);
	w->prefix = NULL;
	int n = 0;
	while (argv && argv[n]) n++;
	if (!n) return;
	w->prefix = xcalloc((size_t)n + 1, sizeof *w->prefix);
	for (int i = 0; i < n; i++) w->prefix[i] = xstrdup(argv[i]);
}

int worker_ensure(worker *w, char *err, size_t errlen)
{
	if (w->pid > 0) return 0;
	int a[2], b[2];
	if (pipe(a) || pipe(b)) { strfmt(err, errlen, "pipe: %s", strerror(errno)); return -1; }
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) { strfmt(err, errlen, "fork: %s", strerror(errno)); return -1; }
	if (pid == 0) {
		dup2(a[0], 0);
		dup2(b[1], 1);
		close(a[0]); close(a[1]); close(b[0]); close(b[1]);
		char gpu[16];
		strfmt(gpu, sizeof gpu, "%d", w->gpu);
		char *builtin = xasprintf("%s/kernels", w->data_root), *arch = xasprintf("%s/assets/arch.yaml", w->data_root);
		setenv("CUDACLIMB_BUILTIN_ROOT", builtin, 1);
		setenv("CUDACLIMB_ARCH_TABLE", arch, 1);
		signal(SIGINT, SIG_IGN);   /* Ctrl-C is the parent's to handle; it ends us */
		int np = 0;
		while (w->prefix && w->prefix[np]) np++;
		char **argv = xcalloc((size_t)np + 4, sizeof *argv);
		for (int i = 0; i < np; i++) argv[i] = w->prefix[i];
		argv[np] = w->exe; argv[np + 1] = "__worker"; argv[np + 2] = gpu;
		execv(argv[0], argv);
		fprintf(stderr, "cudaclimb: cannot start the worker %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(a[0]);
	close(b[1]);
	w->pid = pid;
	w->to = a[1];
	w->from = b[0];
	fcntl(w->to, F_SETFD, FD_CLOEXEC);
	fcntl(w->from, F_SETFD, FD_CLOEXEC);
	fcntl(w->from, F_SETFL, O_NONBLOCK);
	signal(SIGPIPE, SIG_IGN);
	w->last = now_ms();
	w->state = IDLE;
	w->greeted = 0;
	sb_free(&w->in);
	return 0;
}

int worker_send(worker *w, const char *text)
{
	size_t left = strlen(text);
	while (left) {
		ssize_t n = write(w->to, text, left);
		if (n < 0) {
			if (errno == EINTR) continue;
			return -1;
		}
		text += n;
		left -= (size_t)n;
	}
	w->last = now_ms();
	return 0;
}

int worker_fd(const worker *w) { return w->pid > 0 ? w->from : -1; }
double worker_idle_ms(const worker *w) { return now_ms() - w->last; }

static void reap(worker *w, char *why, size_t n)
{
	int st = 0;
	if (w->pid > 0 && waitpid(w->pid, &st, 0) == w->pid) {
		if (WIFSIGNALED(st)) strfmt(why, n, "the GPU worker was ended by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
		else strfmt(why, n, "the GPU worker exited (status %d)", WEXITSTATUS(st));
	}
	if (w->to >= 0) close(w->to);
	if (w->from >= 0) close(w->from);
	w->to = w->from = -1;
	w->pid = 0;
	w->state = IDLE;
	sb_free(&w->in);
}

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
		else if (w->state == IN_RESULT ? field_set(run_result_fields, run_result_nfields, &w->r, line, v)
		                               : field_set(device_info_fields, device_info_nfields, &w->d, line, v)) {
			w->state = IDLE;
			return bad(m, "sent a garbled reply", line, v);
		}
		return 0;
	}
	if (!strcmp(line, "result")) { run_result_clear(&w->r); w->state = IN_RESULT; }
	else if (!strcmp(line, "device")) { memset(&w->d, 0, sizeof w->d); w->state = IN_DEVICE; }
	else if (!strcmp(line, "note")) { m->kind = WMSG_NOTE; strfmt(m->text, sizeof m->text, "%s", v); return 1; }
	else if (!strcmp(line, "phase")) { m->kind = WMSG_RUNNING; return 1; }
	else if (!strcmp(line, "beat")) { m->kind = WMSG_BEAT; return 1; }
	else return bad(m, "sent something that is not the protocol", line, v);
	return 0;
}

void worker_next(worker *w, wmsg *m)
{
	m->kind = WMSG_NONE;
	if (w->pid <= 0) return;
	for (;;) {
		char *nl = w->in.s ? memchr(w->in.s, '\n', w->in.len) : NULL;
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
		char buf[16384];
		ssize_t n = read(w->from, buf, sizeof buf);
		if (n > 0) { sb_addn(&w->in, buf, (size_t)n); w->last = now_ms(); continue; }
		if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
		m->kind = WMSG_DIED;
		strfmt(m->text, sizeof m->text, "the GPU worker ended");
		reap(w, m->text, sizeof m->text);
		return;
	}
}

void worker_kill(worker *w)
{
	if (w->pid > 0) kill(w->pid, SIGKILL);
	char why[64];
	reap(w, why, sizeof why);
}

void worker_close(worker *w, int wait_ms)
{
	if (w->pid > 0) {
		worker_send(w, "quit\n");
		close(w->to);
		w->to = -1;
		for (int i = 0; i < wait_ms / 10; i++) {
			if (waitpid(w->pid, NULL, WNOHANG) == w->pid) { w->pid = 0; break; }
			usleep(10000);
		}
		if (w->pid > 0) worker_kill(w);
	}
	if (w->from >= 0) close(w->from);
	w->from = -1;
	w->state = IDLE;
	sb_free(&w->in);
}

void worker_free(worker *w)
{
	if (!w) return;
	worker_close(w, 500);   /* a moment to free the GPU cleanly, then make sure */
	run_result_clear(&w->r);
	worker_set_prefix(w, NULL);
	free(w->exe);
	free(w->data_root);
	free(w);
}

int worker_main(int argc, char **argv)
{
	const char *table = getenv("CUDACLIMB_ARCH_TABLE");
	char err[512];
	if (table && arch_load(table, err, sizeof err)) fprintf(stderr, "cudaclimb worker: %s\n", err);
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	return gpu_worker_main(stdin, stdout, argc > 2 ? atoi(argv[2]) : -1);
}
