/* sass: see sass.h. nvdisasm's listing (-c -g) reads: a function starts at "NAME:" after a
 * ".text.NAME" section line; "//## File "PATH", line N" sets the source position of the
 * instructions after it; an instruction is its hex offset in a C comment, an optional predicate
 * ("@P0", "@!P1"), the opcode with its modifiers, operands and ';'. Classifying is by
 * opcode prefix (the table below); nothing else needs a disassembler library. */
#include "sass.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "util.h"

#ifndef CUDA_BIN
#define CUDA_BIN "/usr/local/cuda/bin"
#endif

static const char *const class_names[SC_COUNT] = {
	"global load", "global store", "shared load", "shared store", "ldmatrix", "cp.async", "TMA copy",
	"local memory", "FFMA", "other FP32", "mma (HMMA)", "wgmma (HGMMA)", "shuffle", "barrier", "atomic",
	"branch", "other",
};

const char *sass_class_name(sass_class c) { return (unsigned)c < SC_COUNT ? class_names[c] : "?"; }

/* Opcode prefixes, the longest first where one is the prefix of another. */
static const struct { const char *prefix; sass_class cls; } classes[] = {
	{ "LDGSTS", SC_LDGSTS }, { "LDGDEPBAR", SC_OTHER }, { "LDG", SC_LDG }, { "STG", SC_STG },
	{ "LDSM", SC_LDSM }, { "LDS", SC_LDS }, { "STS", SC_STS }, { "LDL", SC_LOCAL }, { "STL", SC_LOCAL },
	{ "UTMALDG", SC_TMA }, { "UTMASTG", SC_TMA }, { "UBLKCP", SC_TMA }, { "UTMAPF", SC_TMA },
	{ "FFMA", SC_FFMA }, { "FADD", SC_FP32 }, { "FMUL", SC_FP32 }, { "FMNMX", SC_FP32 },
	{ "HGMMA", SC_WGMMA }, { "QGMMA", SC_WGMMA }, { "IGMMA", SC_WGMMA }, { "BGMMA", SC_WGMMA },
	{ "HMMA", SC_MMA }, { "IMMA", SC_MMA }, { "DMMA", SC_MMA }, { "BMMA", SC_MMA }, { "SHFL", SC_SHFL },
	{ "BAR", SC_BAR }, { "SYNCS", SC_BAR }, { "ATOM", SC_ATOM }, { "RED", SC_ATOM },
	{ "BRA", SC_BRANCH }, { "BRX", SC_BRANCH }, { "JMP", SC_BRANCH }, { "CALL", SC_BRANCH },
	{ "RET", SC_BRANCH }, { "EXIT", SC_BRANCH },
};

static void classify(sass_insn *in)
{
	in->cls = SC_OTHER;
	for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
		size_t k = strlen(classes[i].prefix);
		if (!strncmp(in->op, classes[i].prefix, k) && (in->op[k] == 0 || in->op[k] == '.')) { in->cls = classes[i].cls; break; }
	}
	if (in->cls != SC_LDG && in->cls != SC_STG && in->cls != SC_LDS && in->cls != SC_STS && in->cls != SC_LOCAL) return;
	in->width = 32;
	static const struct { const char *mod; int bits; } widths[] = {
		{ ".128", 128 }, { ".64", 64 }, { ".U8", 8 }, { ".S8", 8 }, { ".U16", 16 }, { ".S16", 16 },
	};
	for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
		const char *m = strstr(in->op, widths[i].mod);
		size_t k = strlen(widths[i].mod);
		if (m && (m[k] == 0 || m[k] == '.')) { in->width = widths[i].bits; break; }
	}
}

static int file_index(sass_listing *l, const char *path, size_t len)
{
	for (int i = 0; i < l->nfiles; i++) if (strlen(l->files[i]) == len && !strncmp(l->files[i], path, len)) return i;
	l->files = xrealloc(l->files, (size_t)(l->nfiles + 1) * sizeof *l->files);
	l->files[l->nfiles] = xstrndup(path, len);
	return l->nfiles++;
}

/* An instruction line ("OFFSET-comment  @!P0 LDG.E.128 R4, desc[UR4][R2.64] ;") into in; 0, or -1
 * when the line is not one. */
static int parse_insn(const char *p, sass_insn *in)
{
	const char *open = strstr(p, "/*"), *close = open ? strstr(open, "*/") : NULL;
	if (!open || !close) return -1;
	char *end;
	long off = strtol(open + 2, &end, 16);
	if (end != close) return -1;
	const char *t = close + 2;
	while (*t == ' ' || *t == '\t') t++;
	size_t len = strcspn(t, ";");
	while (len && (t[len - 1] == ' ' || t[len - 1] == '\t')) len--;
	if (!len || t[strcspn(t, ";")] != ';') return -1;
	memset(in, 0, sizeof *in);
	in->offset = (int)off;
	strfmt(in->text, sizeof in->text, "%.*s", (int)len, t);
	const char *o = t;
	if (*o == '@') { o += strcspn(o, " \t"); while (*o == ' ' || *o == '\t') o++; }
	strfmt(in->op, sizeof in->op, "%.*s", (int)strcspn(o, " \t;"), o);
	if (!in->op[0]) return -1;
	classify(in);
	return 0;
}

int sass_parse(const char *text, sass_listing *out)
{
	memset(out, 0, sizeof *out);
	int file = -1, line = -1, cap = 0;
	sass_func *fn = NULL;
	for (const char *p = text ? text : ""; *p;) {
		size_t len = strcspn(p, "\n");
		char buf[512];
		strfmt(buf, sizeof buf, "%.*s", (int)(len < sizeof buf - 1 ? len : sizeof buf - 1), p);
		p += len + (p[len] == '\n');
		const char *b = buf;
		while (*b == ' ' || *b == '\t') b++;
		const char *q;
		if (!strncmp(b, "//## File \"", 11) && (q = strchr(b + 11, '"'))) {
			file = file_index(out, b + 11, (size_t)(q - b - 11));
			const char *ln = strstr(q, ", line ");
			line = ln ? atoi(ln + 7) : -1;
		} else if (!strncmp(b, ".text.", 6) && b[strlen(b) - 1] == ':') {
			out->funcs = xrealloc(out->funcs, (size_t)(out->nfuncs + 1) * sizeof *out->funcs);
			fn = &out->funcs[out->nfuncs++];
			memset(fn, 0, sizeof *fn);
			strfmt(fn->name, sizeof fn->name, "%.*s", (int)(strlen(b) - 7), b + 6);
			fn->first = out->n;
			file = line = -1;
		} else if (fn && !strncmp(b, "/*", 2)) {
			sass_insn in;
			if (parse_insn(b, &in)) continue;
			in.file = file;
			in.line = line;
			if (out->n == cap) {
				cap = cap ? 2 * cap : 256;
				out->insn = xrealloc(out->insn, (size_t)cap * sizeof *out->insn);
			}
			out->insn[out->n++] = in;
			fn->count++;
			fn->counts[in.cls]++;
			if (in.cls == SC_LDG && in.width == 128) fn->ldg128++;
			if (in.cls == SC_LDS && in.width == 128) fn->lds128++;
		}
	}
	return 0;
}

void sass_free(sass_listing *l)
{
	for (int i = 0; i < l->nfiles; i++) free(l->files[i]);
	free(l->files);
	free(l->insn);
	free(l->funcs);
	memset(l, 0, sizeof *l);
}

const sass_func *sass_find_func(const sass_listing *l, const char *name)
{
	for (int i = 0; i < l->nfuncs; i++) if (!strcmp(l->funcs[i].name, name)) return &l->funcs[i];
	return NULL;
}

int sass_file_is(const sass_listing *l, int f, const char *path)
{
	if (f < 0 || f >= l->nfiles || !path) return 0;
	const char *a = strrchr(l->files[f], '/'), *b = strrchr(path, '/');
	return !strcmp(a ? a + 1 : l->files[f], b ? b + 1 : path);
}

int sass_find_tool(char *out, size_t n)
{
	const char *env = getenv("CUDACLIMB_NVDISASM"), *home = getenv("CUDA_HOME");
	char cand[1024];
	if (env && *env && access(env, X_OK) == 0) { strfmt(out, n, "%s", env); return 0; }
	if (home && *home) {
		strfmt(cand, sizeof cand, "%s/bin/nvdisasm", home);
		if (access(cand, X_OK) == 0) { strfmt(out, n, "%s", cand); return 0; }
	}
	strfmt(cand, sizeof cand, "%s/nvdisasm", CUDA_BIN);
	if (access(cand, X_OK) == 0) { strfmt(out, n, "%s", cand); return 0; }
	/* build/tools, where make's set-up unpacks NVIDIA's package; PREFIX/libexec/cudaclimb, where make
	 * install copies it */
	char *dir = exe_dir();
	static const char *const beside[] = { "%s/tools/nvdisasm", "%s/../libexec/cudaclimb/nvdisasm" };
	for (size_t i = 0; dir && i < sizeof beside / sizeof beside[0]; i++) {
		strfmt(cand, sizeof cand, beside[i], dir);
		if (access(cand, X_OK) == 0) { strfmt(out, n, "%s", cand); free(dir); return 0; }
	}
	free(dir);
	const char *path = getenv("PATH");
	char *copy = xstrdup(path ? path : "");
	int found = -1;
	for (char *save, *d = strtok_r(copy, ":", &save); d && found; d = strtok_r(NULL, ":", &save)) {
		strfmt(cand, sizeof cand, "%s/nvdisasm", d);
		if (*d && access(cand, X_OK) == 0) { strfmt(out, n, "%s", cand); found = 0; }
	}
	free(copy);
	return found;
}

/* Runs tool -c -g cubin; its standard output in a new string. NULL with err. */
static char *run_nvdisasm(const char *tool, const char *cubin, char *err, size_t errlen)
{
	int p[2];
	if (pipe(p)) { strfmt(err, errlen, "pipe: %s", strerror(errno)); return NULL; }
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) { strfmt(err, errlen, "fork: %s", strerror(errno)); close(p[0]); close(p[1]); return NULL; }
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0) dup2(null, 2);
		execl(tool, tool, "-c", "-g", cubin, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	sb out = {0};
	char buf[65536];
	double start = now_ms();
	int timed_out = 0;
	for (;;) {
		struct pollfd pf = { .fd = p[0], .events = POLLIN };
		int left = 60000 - (int)(now_ms() - start);
		if (left <= 0) { timed_out = 1; break; }
		if (poll(&pf, 1, left) < 0 && errno != EINTR) break;
		ssize_t k = read(p[0], buf, sizeof buf);
		if (k > 0) { sb_addn(&out, buf, (size_t)k); continue; }
		if (k < 0 && errno == EINTR) continue;
		break;
	}
	close(p[0]);
	if (timed_out) kill(pid, SIGKILL);
	int st = 0;
	waitpid(pid, &st, 0);
	if (timed_out || !WIFEXITED(st) || WEXITSTATUS(st) != 0 || !out.s) {
		strfmt(err, errlen, "nvdisasm %s on %s%s", timed_out ? "did not finish within 60 s" : WIFEXITED(st) && WEXITSTATUS(st) == 127 ? "could not start" : "failed",
		       cubin, "");
		sb_free(&out);
		return NULL;
	}
	return sb_take(&out);
}

/* Where the listing of cubin is cached: beside it, .sass for .cubin (a new string). */
static char *cache_path(const char *cubin)
{
	size_t cl = strlen(cubin);
	return cl > 6 && !strcmp(cubin + cl - 6, ".cubin") ? xasprintf("%.*s.sass", (int)(cl - 6), cubin) : xasprintf("%s.sass", cubin);
}

int sass_is_cached(const char *cubin)
{
	char *cache = cache_path(cubin);
	int yes = file_exists(cache);
	free(cache);
	return yes;
}

int sass_tensor_count(const char *text)
{
	sass_listing l;
	if (!text || sass_parse(text, &l)) return -1;
	int n = 0;
	for (int f = 0; f < l.nfuncs; f++) n += l.funcs[f].counts[SC_MMA] + l.funcs[f].counts[SC_WGMMA];
	sass_free(&l);
	return n;
}

int sass_tensor_count_cached(const char *cubin)
{
	char *cache = cache_path(cubin), *text = file_read(cache, NULL);
	int n = text ? sass_tensor_count(text) : -1;
	free(text);
	free(cache);
	return n;
}

char *sass_disassemble(const char *cubin, char *err, size_t errlen)
{
	char *cache = cache_path(cubin);
	char *text = file_read(cache, NULL);
	if (text) { free(cache); return text; }
	char tool[1024];
	if (sass_find_tool(tool, sizeof tool)) {
		strfmt(err, errlen, "nvdisasm is not installed: it comes with the CUDA Toolkit, or `pip install nvidia-cuda-nvdisasm` "
		                    "(then set CUDACLIMB_NVDISASM to its bin/nvdisasm)");
		free(cache);
		return NULL;
	}
	text = run_nvdisasm(tool, cubin, err, errlen);
	if (text) file_write_atomic(cache, text, strlen(text));   /* a failure only costs the next view a run */
	free(cache);
	return text;
}
