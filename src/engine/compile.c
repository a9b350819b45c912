/* compile: see compile.h. The child writes the cubin into the cache itself (atomically) and sends
 * its log and status back through a pipe; the parent only reads. */
#include "compile.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <nvrtc.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sass.h"
#include "util.h"

#ifndef CUDA_INCLUDE
#define CUDA_INCLUDE "/usr/local/cuda/include"
#endif

struct compile_job {
	compile_result r;
	char *src; size_t src_len;   /* the text compiled: read once, hashed and handed to the child */
	pid_t pid;
	int fd;
	double started;
	sb out;
	char meta_path[512];
	char *meta;               /* a cached compile's report, while a child disassembles its cubin */
	int cached;               /* the cubin came from the cache */
	int done;
};

static const char *cuda_include(void)
{
	static char buf[512];
	const char *h = getenv("CUDA_HOME");
	if (!h || !*h) return CUDA_INCLUDE;
	strfmt(buf, sizeof buf, "%s/include", h);
	return buf;
}

/* The key of rq over the source text src. */
static void key_of(const compile_request *rq, const char *src, size_t len, char out[17])
{
	uint64_t h = fnv1a(FNV_OFFSET, src, len);
	size_t hl;
	/* Headers beside the kernel, in a stable order. */
	DIR *d = opendir(rq->include_dir);
	char **names = NULL;
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d));) {
		const char *dot = strrchr(e->d_name, '.');
		if (dot && (!strcmp(dot, ".cuh") || !strcmp(dot, ".h"))) {
			names = xrealloc(names, (size_t)(n + 1) * sizeof *names);
			names[n++] = xstrdup(e->d_name);
		}
	}
	if (d) closedir(d);
	for (int i = 0; i < n; i++)
		for (int k = i + 1; k < n; k++)
			if (strcmp(names[i], names[k]) > 0) { char *t = names[i]; names[i] = names[k]; names[k] = t; }
	for (int i = 0; i < n; i++) {
		char *p = xasprintf("%s/%s", rq->include_dir, names[i]);
		char *text = file_read(p, &hl);
		h = fnv1a(h, names[i], strlen(names[i]) + 1);
		if (text) h = fnv1a(h, text, hl);
		free(text); free(p); free(names[i]);
	}
	free(names);
	for (int i = 0; i < rq->noptions; i++) h = fnv1a(h, rq->options[i], strlen(rq->options[i]) + 1);
	int ma = 0, mi = 0;
	nvrtcVersion(&ma, &mi);
	char tail[96];
	strfmt(tail, sizeof tail, "|%s|nvrtc %d.%d|%s|format 2", rq->arch, ma, mi, rq->kernel_path);
	h = fnv1a(h, tail, strlen(tail));
	strfmt(out, 17, "%016llx", (unsigned long long)h);
}

/* rq's source: its text, or the file read now (a new buffer in *owned). NULL when unreadable. */
static const char *source_of(const compile_request *rq, size_t *len, char **owned)
{
	*owned = NULL;
	if (rq->source) { *len = rq->source_len; return rq->source; }
	return *owned = file_read(rq->kernel_path, len);
}

int compile_key(const compile_request *rq, char out[17])
{
	size_t len;
	char *owned;
	const char *src = source_of(rq, &len, &owned);
	if (!src) return -1;
	key_of(rq, src, len, out);
	free(owned);
	return 0;
}

/* In the child: compile src, write the cubin and the PTX, send "ok\n" or "fail\n" then the log.
 * Never returns. */
static void child(const compile_request *rq, const char *src, const char *cubin_path, const char *ptx_path, int fd)
{
	FILE *out = fdopen(fd, "w");
	if (!src || !out) _exit(3);
	/* Seen on a GPU box: a second compile of the same program returned the cubin with an empty log,
	 * as if served from the driver's compute cache, and with it went the ptxas report we read the
	 * resources from. Our own cache is the one that counts; always compile for real. */
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	nvrtcProgram prog;
	if (nvrtcCreateProgram(&prog, src, rq->kernel_path, 0, NULL, NULL) != NVRTC_SUCCESS) {
		fprintf(out, "fail\nnvrtcCreateProgram failed\n");
		_exit(0);
	}
	char *arch = xasprintf("--gpu-architecture=%s", rq->arch);
	char *inc1 = xasprintf("-I%s", rq->include_dir), *inc2 = xasprintf("-I%s", cuda_include());
	char *inc3 = xasprintf("-I%s/cccl", cuda_include());
	const char **opts = xcalloc((size_t)rq->noptions + 8, sizeof(char *));
	int n = 0;
	opts[n++] = arch; opts[n++] = "--std=c++17"; opts[n++] = "--ptxas-options=--verbose"; opts[n++] = "-lineinfo";
	opts[n++] = inc1; opts[n++] = inc2; opts[n++] = inc3;
	for (int i = 0; i < rq->noptions; i++) opts[n++] = rq->options[i];
	nvrtcResult res = nvrtcCompileProgram(prog, n, opts);
	size_t ls = 0;
	nvrtcGetProgramLogSize(prog, &ls);
	char *log = xcalloc(ls + 1, 1);
	nvrtcGetProgramLog(prog, log);
	size_t cs = 0;
	if (res == NVRTC_SUCCESS && nvrtcGetCUBINSize(prog, &cs) == NVRTC_SUCCESS && cs > 0) {
		char *cubin = xmalloc(cs);
		nvrtcGetCUBIN(prog, cubin);
		size_t ps = 0;
		char *ptx = NULL;
		if (nvrtcGetPTXSize(prog, &ps) == NVRTC_SUCCESS && ps > 1 && (ptx = xmalloc(ps)) && nvrtcGetPTX(prog, ptx) == NVRTC_SUCCESS)
			file_write_atomic(ptx_path, ptx, ps - 1);   /* the PTX view and the signatures; not needed to run */
		if (file_write_atomic(cubin_path, cubin, cs) != 0) {
			fprintf(out, "fail\ncannot write %s: %s\n%s", cubin_path, strerror(errno), log);
			fclose(out);
			_exit(0);
		}
		if (rq->sass) {   /* the listing lands in the cache; without nvdisasm tensor_sass stays unknown */
			char e[256];
			free(sass_disassemble(cubin_path, e, sizeof e));
		}
		fprintf(out, "ok\n%s", log);
	} else {
		fprintf(out, "fail\n%s%s", log, res == NVRTC_SUCCESS ? "NVRTC produced no cubin (is the architecture a real sm_XX?)\n" : "");
	}
	fclose(out);
	_exit(0);
}

/* In the child, for a cached cubin whose listing is not cached yet: disassemble it, then send the
 * cached report text as a compile would have. Never returns. */
static void child_disassemble(const char *cubin_path, const char *meta, int fd)
{
	FILE *out = fdopen(fd, "w");
	if (!out) _exit(3);
	char e[256];
	free(sass_disassemble(cubin_path, e, sizeof e));
	fputs(meta, out);
	fclose(out);
	_exit(0);
}

static void finish_from_text(compile_job *j, const char *text)
{
	compile_result *r = &j->r;
	const char *nl = strchr(text, '\n');
	r->ok = !strncmp(text, "ok\n", 3);
	r->log = xstrdup(nl ? nl + 1 : "");
	compile_parse_ptxas(r->log, r);
	r->tensor_sass = -1;
	if (r->ok) {
		char *ptx = file_read(r->ptx_path, NULL);
		compile_parse_ptx_params(ptx, r);
		free(ptx);
		r->tensor_sass = sass_tensor_count_cached(r->cubin_path);
	}
	r->cached = j->cached;
	j->done = 1;
}

compile_job *compile_start(const compile_request *rq, char *err, size_t errlen)
{
	char key[17], *owned;
	size_t len;
	const char *src = source_of(rq, &len, &owned);
	if (!src) { strfmt(err, errlen, "cannot read %s: %s", rq->kernel_path, strerror(errno)); return NULL; }
	key_of(rq, src, len, key);
	compile_job *j = xcalloc(1, sizeof *j);
	j->fd = -1;
	strfmt(j->r.arch, sizeof j->r.arch, "%s", rq->arch);
	char *dir = xdg_dir("XDG_CACHE_HOME", ".cache");
	strfmt(j->r.cubin_path, sizeof j->r.cubin_path, "%s/%s.cubin", dir, key);
	strfmt(j->r.ptx_path, sizeof j->r.ptx_path, "%s/%s.ptx", dir, key);
	strfmt(j->meta_path, sizeof j->meta_path, "%s/%s.log", dir, key);
	free(dir);
	char *meta = file_exists(j->r.cubin_path) ? file_read(j->meta_path, NULL) : NULL;
	char tool[1024];
	if (meta && !strncmp(meta, "ok\n", 3)) {
		j->cached = 1;
		if (!rq->sass || sass_is_cached(j->r.cubin_path) || sass_find_tool(tool, sizeof tool) != 0) {
			finish_from_text(j, meta);
			free(meta);
			free(owned);
			return j;
		}
		/* cached code, but the listing asked for is not: a child makes it (nvdisasm takes ~0.4 s) */
		j->meta = meta;
		free(owned);
		owned = NULL;
	} else {
		free(meta);
		/* The child compiles this very text: a save after this point is the next compile's business. */
		j->src = owned ? owned : xstrndup(src, len);
		j->src_len = len;
	}
	int p[2];
	if (pipe(p) != 0) { strfmt(err, errlen, "pipe: %s", strerror(errno)); free(j->src); free(j); return NULL; }
	fflush(NULL);
	j->started = now_ms();
	j->pid = fork();
	if (j->pid < 0) { strfmt(err, errlen, "fork: %s", strerror(errno)); close(p[0]); close(p[1]); free(j->src); free(j); return NULL; }
	if (j->pid == 0) {
		close(p[0]);
		signal(SIGINT, SIG_IGN);   /* the parent decides when a compile ends */
		if (j->meta) child_disassemble(j->r.cubin_path, j->meta, p[1]);
		child(rq, j->src, j->r.cubin_path, j->r.ptx_path, p[1]);
	}
	close(p[1]);
	j->fd = p[0];
	fcntl(j->fd, F_SETFL, O_NONBLOCK);
	fcntl(j->fd, F_SETFD, FD_CLOEXEC);
	return j;
}

int compile_fd(const compile_job *j) { return j->done ? -1 : j->fd; }
const compile_result *compile_get(const compile_job *j) { return &j->r; }

static void end_child(compile_job *j, const char *why)
{
	compile_result *r = &j->r;
	r->ok = 0;
	r->crashed = 1;
	r->log = xasprintf("%s\n%s", why, j->out.s ? j->out.s : "");
	j->done = 1;
}

int compile_step(compile_job *j, double timeout_ms)
{
	if (j->done) return 1;
	char buf[8192];
	ssize_t n;
	while ((n = read(j->fd, buf, sizeof buf)) > 0) sb_addn(&j->out, buf, (size_t)n);
	if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
		if (timeout_ms > 0 && now_ms() - j->started > timeout_ms) {
			kill(j->pid, SIGKILL);
			waitpid(j->pid, NULL, 0);
			j->pid = 0;
			close(j->fd);
			char why[128];
			strfmt(why, sizeof why, "the compiler did not finish within %.0f s and was stopped", timeout_ms / 1000);
			end_child(j, why);
			return 1;
		}
		return 0;
	}
	/* EOF: the child is done or dead. */
	close(j->fd);
	int st = 0;
	waitpid(j->pid, &st, 0);
	j->pid = 0;
	j->r.ms = j->cached ? 0 : now_ms() - j->started;
	char why[160];
	if (WIFSIGNALED(st)) {
		strfmt(why, sizeof why, "the compiler (NVRTC) crashed with signal %d (%s); cudaclimb kept running", WTERMSIG(st), strsignal(WTERMSIG(st)));
		end_child(j, why);
	} else if (!j->out.s || WEXITSTATUS(st) != 0) {
		strfmt(why, sizeof why, "the compiler process failed (exit status %d)", WEXITSTATUS(st));
		end_child(j, why);
	} else {
		finish_from_text(j, j->out.s);
		if (j->r.ok && !j->cached) file_write_atomic(j->meta_path, j->out.s, j->out.len);
	}
	return 1;
}

void compile_job_free(compile_job *j)
{
	if (!j) return;
	if (j->pid > 0) { kill(j->pid, SIGKILL); waitpid(j->pid, NULL, 0); }
	if (!j->done && j->fd >= 0) close(j->fd);
	free(j->r.log);
	free(j->src);
	free(j->meta);
	sb_free(&j->out);
	free(j);
}

int compile_run(const compile_request *rq, compile_result *out, char *err, size_t errlen)
{
	compile_job *j = compile_start(rq, err, errlen);
	if (!j) return -1;
	while (!compile_step(j, 300000)) {
		struct pollfd pf = { .fd = j->fd, .events = POLLIN };
		poll(&pf, 1, 1000);
	}
	*out = j->r;
	j->r.log = NULL;
	compile_job_free(j);
	return 0;
}
