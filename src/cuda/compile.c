/* compile: see compile.h. The child writes the cubin into the cache itself (atomically) and sends
 * its log and status back through a pipe; the parent only reads. With -rdc=true the child links
 * NVRTC's relocatable code with the toolkit's device runtime (libcudadevrt.a) through nvJitLink,
 * which is loaded with dlopen: without it everything else still works. */
#include "compile.h"
#include "cache.h"
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <nvrtc.h>
#define NVJITLINK_NO_INLINE   /* the header's types only: the functions come from dlsym */
#include <nvJitLink.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "compile_jail.h"
#include "sass.h"
#include "util.h"

#ifndef CUDA_INCLUDE
#define CUDA_INCLUDE "/usr/local/cuda/include"
#endif

/* Cache files are read only as real files (no link followed), up to this size. */
#define CUBIN_MAX ((size_t)1 << 30)

struct compile_job {
	compile_result r;
	char *src; size_t src_len;   /* the text compiled: read once, hashed and handed to the child */
	pid_t pid;
	int fd;
	double started;
	sb out;
	char meta_path[512];
	char *meta;               /* a cached compile's report, while a child disassembles its cubin */
	compile_includes inc;     /* the checked headers the child hands NVRTC */
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

/* The toolkit's root: $CUDA_HOME, else the folder above the include folder built in. */
static const char *cuda_root(void)
{
	static char buf[512];
	const char *h = getenv("CUDA_HOME");
	if (h && *h) return h;
	strfmt(buf, sizeof buf, "%s", CUDA_INCLUDE);
	char *slash = strrchr(buf, '/');
	if (slash && slash != buf) *slash = 0;
	return buf;
}

int compile_options_rdc(char *const *options, int noptions)
{
	int rdc = 0;
	for (int i = 0; i < noptions; i++) {
		const char *o = options[i];
		if (!strcmp(o, "-rdc=true") || !strcmp(o, "--relocatable-device-code=true") || !strcmp(o, "-dc") || !strcmp(o, "--device-c")) rdc = 1;
		else if (!strcmp(o, "-rdc=false") || !strcmp(o, "--relocatable-device-code=false") || !strcmp(o, "-dw") || !strcmp(o, "--device-w")) rdc = 0;
	}
	return rdc;
}

int compile_find_devrt(char *out, size_t len)
{
	static const char *const under[] = { "lib64", "lib", "targets/x86_64-linux/lib", "targets/sbsa-linux/lib" };
	for (size_t i = 0; i < sizeof under / sizeof *under; i++) {
		strfmt(out, len, "%s/%s/libcudadevrt.a", cuda_root(), under[i]);
		if (file_exists(out)) return 0;
	}
	strfmt(out, len, "%s/lib64/libcudadevrt.a", cuda_root());
	return -1;
}

/* nvJitLink's functions, from dlopen (the plain names: libnvJitLink 12 and 13 both export them). */
typedef struct {
	void *lib;
	char name[512];           /* the file that was loaded */
	nvJitLinkResult (*create)(nvJitLinkHandle *, uint32_t, const char **);
	nvJitLinkResult (*destroy)(nvJitLinkHandle *);
	nvJitLinkResult (*add_data)(nvJitLinkHandle, nvJitLinkInputType, const void *, size_t, const char *);
	nvJitLinkResult (*add_file)(nvJitLinkHandle, nvJitLinkInputType, const char *);
	nvJitLinkResult (*complete)(nvJitLinkHandle);
	nvJitLinkResult (*cubin_size)(nvJitLinkHandle, size_t *);
	nvJitLinkResult (*cubin)(nvJitLinkHandle, void *);
	nvJitLinkResult (*error_size)(nvJitLinkHandle, size_t *);
	nvJitLinkResult (*error_log)(nvJitLinkHandle, char *);
	nvJitLinkResult (*info_size)(nvJitLinkHandle, size_t *);
	nvJitLinkResult (*info_log)(nvJitLinkHandle, char *);
	nvJitLinkResult (*version)(unsigned *, unsigned *);   /* NULL in libraries before 12.3 */
} jitlink;

/* Loads nvJitLink once per process (again if $CUDACLIMB_NVJITLINK changes): the file that variable
 * names when it is set, else libnvJitLink.so.13, libnvJitLink.so, then the same names in the
 * toolkit's lib64. NULL with the reason in err when none loads. */
static const jitlink *jitlink_get(char *err, size_t errlen)
{
	static jitlink jl;
	static int tried;
	static char why[768], wanted_last[512];
	const char *env = getenv("CUDACLIMB_NVJITLINK");
	const char *wanted = env ? env : "";
	if (tried && !strcmp(wanted, wanted_last)) {
		if (!jl.lib) strfmt(err, errlen, "%s", why);
		return jl.lib ? &jl : NULL;
	}
	/* The variable changed since: load what it names now. A library once loaded stays mapped (its
	 * own allocations point into it; unloading it would orphan them). */
	memset(&jl, 0, sizeof jl);
	tried = 1;
	strfmt(wanted_last, sizeof wanted_last, "%s", wanted);
	char cands[5][512];
	int n = 0;
	if (*wanted) strfmt(cands[n++], sizeof cands[0], "%s", env);
	else {
		strfmt(cands[n++], sizeof cands[0], "libnvJitLink.so.13");
		strfmt(cands[n++], sizeof cands[0], "libnvJitLink.so");
		strfmt(cands[n++], sizeof cands[0], "%s/lib64/libnvJitLink.so.13", cuda_root());
		strfmt(cands[n++], sizeof cands[0], "%s/lib64/libnvJitLink.so", cuda_root());
	}
	char first[512] = "";
	for (int i = 0; i < n && !jl.lib; i++) {
		jl.lib = dlopen(cands[i], RTLD_NOW | RTLD_LOCAL);
		if (jl.lib) strfmt(jl.name, sizeof jl.name, "%s", cands[i]);
		else if (!first[0]) { const char *e = dlerror(); strfmt(first, sizeof first, "%s", e ? e : cands[i]); }
	}
	if (!jl.lib) {
		strfmt(why, sizeof why, "nvJitLink not found (%s); it links relocatable device code (-rdc=true) with the "
		       "device runtime: install the CUDA toolkit's nvJitLink or set CUDACLIMB_NVJITLINK to its file", first);
		strfmt(err, errlen, "%s", why);
		return NULL;
	}
	struct { void **fn; const char *name; } syms[] = {
		{ (void **)&jl.create, "nvJitLinkCreate" }, { (void **)&jl.destroy, "nvJitLinkDestroy" },
		{ (void **)&jl.add_data, "nvJitLinkAddData" }, { (void **)&jl.add_file, "nvJitLinkAddFile" },
		{ (void **)&jl.complete, "nvJitLinkComplete" }, { (void **)&jl.cubin_size, "nvJitLinkGetLinkedCubinSize" },
		{ (void **)&jl.cubin, "nvJitLinkGetLinkedCubin" }, { (void **)&jl.error_size, "nvJitLinkGetErrorLogSize" },
		{ (void **)&jl.error_log, "nvJitLinkGetErrorLog" }, { (void **)&jl.info_size, "nvJitLinkGetInfoLogSize" },
		{ (void **)&jl.info_log, "nvJitLinkGetInfoLog" },
	};
	for (size_t i = 0; i < sizeof syms / sizeof *syms; i++) {
		*syms[i].fn = dlsym(jl.lib, syms[i].name);
		if (!*syms[i].fn) {
			strfmt(why, sizeof why, "%s has no %s: not a usable nvJitLink", jl.name, syms[i].name);
			strfmt(err, errlen, "%s", why);
			dlclose(jl.lib);
			jl.lib = NULL;
			return NULL;
		}
	}
	*(void **)&jl.version = dlsym(jl.lib, "nvJitLinkVersion");
	return &jl;
}

/* What the link depends on besides the program: nvJitLink's version and the device runtime's file. */
static void link_key(char *out, size_t len)
{
	char err[8], devrt[512];
	const jitlink *jl = jitlink_get(err, sizeof err);
	unsigned ma = 0, mi = 0;
	if (jl && jl->version) jl->version(&ma, &mi);
	struct stat st;
	int have = compile_find_devrt(devrt, sizeof devrt) == 0 && stat(devrt, &st) == 0;
	strfmt(out, len, "|rdc|nvJitLink %s %u.%u|%s %lld %lld", jl ? jl->name : "none", ma, mi, devrt,
	       have ? (long long)st.st_size : -1LL, have ? (long long)st.st_mtime : -1LL);
}

/* The folder of headers every lesson may include, kernels/common beside the lesson's own folder
 * (dir/../common); a new string, or NULL when there is none. */
static char *common_dir(const char *dir)
{
	const char *slash = strrchr(dir, '/');
	char *c = slash ? xasprintf("%.*s/common", (int)(slash - dir), dir) : xstrdup("../common");
	struct stat st;
	if (stat(c, &st) == 0 && S_ISDIR(st.st_mode)) return c;
	free(c);
	return NULL;
}

/* rq's shared_dir when it is a folder other than the tree's own kernels/common (common, may be NULL);
 * a new string, or NULL. */
static char *shared_dir(const compile_request *rq, const char *common)
{
	struct stat a, b;
	if (!rq->shared_dir || stat(rq->shared_dir, &a) || !S_ISDIR(a.st_mode)) return NULL;
	if (common && !stat(common, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino) return NULL;
	return xstrdup(rq->shared_dir);
}

/* The key extended with the names and texts of the headers (.cuh, .h) in dir, in a stable order. */
static void hash_headers(sha256_ctx *h, const char *dir)
{
	size_t hl;
	DIR *d = opendir(dir);
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
		char *p = xasprintf("%s/%s", dir, names[i]);
		char *text = file_read(p, &hl);
		compile_include_key_add(h, names[i], strlen(names[i]));
		compile_include_key_add(h, text ? text : "", text ? hl : 0);
		free(text); free(p); free(names[i]);
	}
	free(names);
}

/* The include scan (compile_include.c): NVRTC 13 has no dependency output (no -MD/-MF, no include
 * callback: nvrtc.h and the library's option strings have none), so the files a compile reads are
 * found the way its preprocessor finds them, in NVRTC's order of folders (the kernel's folder,
 * kernels/common, the toolkit's, then -I options of the stage). A header found in the toolkit is
 * covered by NVRTC's version and not read; one found nowhere is keyed as missing (creating it later
 * changes the key). Includes in inactive #if branches are keyed too (a key that is too wide only
 * costs a compile); an #include of a macro cannot be followed, which is why the headers beside the
 * kernel are hashed as well. */

/* The -I folder an option names (-Idir, -I dir, --include-path=dir); *skip set when it takes the
 * next option. NULL when it names none. */
static const char *include_option(char *const *options, int i, int n, int *skip)
{
	const char *o = options[i];
	*skip = 0;
	if (!strcmp(o, "-I") || !strcmp(o, "--include-path")) { if (i + 1 < n) { *skip = 1; return options[i + 1]; } return NULL; }
	if (!strncmp(o, "-I", 2)) return o + 2;
	if (!strncmp(o, "--include-path=", 15)) return o + 15;
	return NULL;
}

/* Every file that compiling src reads besides src, checked and read into inc, each added to the key h. */
static void scan_includes(sha256_ctx *h, const compile_request *rq, const char *src, size_t len, compile_includes *inc)
{
	const char *dirs[COMPILE_MAX_PARAMS + 4];
	int ndirs = 0, ntool;
	char *common = common_dir(rq->include_dir), *shared = shared_dir(rq, common);
	char *tool = xstrdup(cuda_include()), *cccl = xasprintf("%s/cccl", tool);
	/* as child() passes them: the kernel's folder, kernels/common, the shipped one, the toolkit's two, the options' */
	dirs[ndirs++] = rq->include_dir;
	if (common) dirs[ndirs++] = common;
	if (shared) dirs[ndirs++] = shared;
	ntool = ndirs;
	dirs[ndirs++] = tool;
	dirs[ndirs++] = cccl;
	int skip;
	for (int i = 0; i < rq->noptions; i++) {
		const char *d = include_option(rq->options, i, rq->noptions, &skip);
		if (d && *d && ndirs < (int)(sizeof dirs / sizeof *dirs)) dirs[ndirs++] = d;
		i += skip;
	}
	memset(inc, 0, sizeof *inc);
	inc->key = h;
	compile_include_scan(rq, dirs, ndirs, ntool, src, len, inc);
	free(common); free(shared); free(tool); free(cccl);
}

/* The key of rq over the source text src; the files it includes, checked, into inc. */
static void key_of(const compile_request *rq, const char *src, size_t len, char out[COMPILE_KEY_LEN], compile_includes *inc)
{
	sha256_ctx h;
	sha256_init(&h);
	compile_include_key_add(&h, "cudaclimb compile key 4", 23);
	compile_include_key_add(&h, src, len);
	/* Headers beside the kernel, then the shared ones (kernels/common). */
	hash_headers(&h, rq->include_dir);
	char *common = common_dir(rq->include_dir), *shared = shared_dir(rq, common);
	if (common) { compile_include_key_add(&h, "|common|", 8); hash_headers(&h, common); free(common); }
	if (shared) { compile_include_key_add(&h, "|shared|", 8); hash_headers(&h, shared); free(shared); }
	/* Every file the compile includes, wherever it is (beside the learner's file too). */
	scan_includes(&h, rq, src, len, inc);
	inc->key = NULL;                        /* the context is this function's */
	for (int i = 0; i < rq->noptions; i++) compile_include_key_add(&h, rq->options[i], strlen(rq->options[i]));
	int ma = 0, mi = 0;
	nvrtcVersion(&ma, &mi);
	char tail[96];
	strfmt(tail, sizeof tail, "|%s|nvrtc %d.%d|%s|format 3", rq->arch, ma, mi, rq->kernel_path);
	compile_include_key_add(&h, tail, strlen(tail));
	if (compile_options_rdc(rq->options, rq->noptions)) {   /* the cubin is a linked one */
		char link[1200];
		link_key(link, sizeof link);
		compile_include_key_add(&h, link, strlen(link));
	}
	unsigned char d[32];
	sha256_final(&h, d);
	for (int i = 0; i < 32; i++) strfmt(out + 2 * i, 3, "%02x", d[i]);
}

/* rq's source: its text, or the file read now (a new buffer in *owned). NULL when unreadable. */
static const char *source_of(const compile_request *rq, size_t *len, char **owned)
{
	*owned = NULL;
	if (rq->source) { *len = rq->source_len; return rq->source; }
	return *owned = file_read(rq->kernel_path, len);   /* FILE_READ_MAX bounds a kernel source */
}

int compile_key(const compile_request *rq, char out[COMPILE_KEY_LEN])
{
	size_t len;
	char *owned;
	const char *src = source_of(rq, &len, &owned);
	if (!src) return -1;
	compile_includes inc;
	key_of(rq, src, len, out, &inc);
	compile_include_free(&inc);
	free(owned);
	return 0;
}

/* nvJitLink's info log into b without the device runtime's own functions (two lines each, named
 * __nv_static_...): what is left is about the program's functions. */
static void add_link_info(sb *b, const char *info)
{
	int after_runtime = 0;   /* the previous line named one of the runtime's functions */
	for (const char *line = info; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
		char buf[256];
		strfmt(buf, sizeof buf, "%.*s", (int)(len < 255 ? len : 255), line);
		if (strstr(buf, "Function properties for '__nv_static_")) after_runtime = 1;
		else if (after_runtime && strstr(buf, "used ")) after_runtime = 0;
		else { after_runtime = 0; sb_addn(b, line, len); }
		line += len;
	}
	if (b->len && b->s[b->len - 1] != '\n') sb_add(b, "\n");
}

/* In the child: links the relocatable object obj (NVRTC's cubin with -rdc=true) with the device
 * runtime through nvJitLink. 0 with the linked cubin in *cubin (malloc'd); -1 with why in log.
 * nvJitLink's verbose info log (each kernel's registers, stack and shared memory as linked) goes
 * to log either way. */
static int link_device_runtime(const compile_request *rq, const void *obj, size_t objlen, char **cubin, size_t *cubin_len, sb *log)
{
	char err[800], devrt[512];
	const jitlink *jl = jitlink_get(err, sizeof err);
	if (!jl) { sb_addf(log, "cannot link %s: %s\n", rq->kernel_path, err); return -1; }
	if (compile_find_devrt(devrt, sizeof devrt) != 0) {
		sb_addf(log, "cannot link %s: the device runtime %s is missing (relocatable device code needs the toolkit's "
		        "libcudadevrt.a; set CUDA_HOME to the toolkit)\n", rq->kernel_path, devrt);
		return -1;
	}
	char *arch = xasprintf("-arch=%s", rq->arch);
	const char *opts[] = { arch, "-verbose", "-lineinfo" };
	nvJitLinkHandle h = NULL;
	nvJitLinkResult r = jl->create(&h, 3, opts);
	const char *what = "nvJitLinkCreate";
	if (r == NVJITLINK_SUCCESS) { what = "adding the program"; r = jl->add_data(h, NVJITLINK_INPUT_CUBIN, obj, objlen, rq->kernel_path); }
	if (r == NVJITLINK_SUCCESS) { what = "adding the device runtime"; r = jl->add_file(h, NVJITLINK_INPUT_LIBRARY, devrt); }
	if (r == NVJITLINK_SUCCESS) { what = "linking"; r = jl->complete(h); }
	size_t n = 0;
	if (h && jl->info_size(h, &n) == NVJITLINK_SUCCESS && n > 1) {
		char *info = xcalloc(n + 1, 1);
		if (jl->info_log(h, info) == NVJITLINK_SUCCESS) {
			sb_addf(log, "nvJitLink, %s with %s:\n", rq->kernel_path, devrt);
			add_link_info(log, info);
		}
		free(info);
	}
	if (r != NVJITLINK_SUCCESS) {
		sb_addf(log, "%s: nvJitLink failed %s with the device runtime (nvJitLinkResult %d)\n", rq->kernel_path, what, (int)r);
		n = 0;
		if (h && jl->error_size(h, &n) == NVJITLINK_SUCCESS && n > 1) {
			char *e = xcalloc(n + 1, 1);
			if (jl->error_log(h, e) == NVJITLINK_SUCCESS) sb_add(log, e);
			free(e);
			if (log->len && log->s[log->len - 1] != '\n') sb_add(log, "\n");
		}
	} else if (jl->cubin_size(h, cubin_len) != NVJITLINK_SUCCESS || *cubin_len == 0 ||
	           jl->cubin(h, *cubin = xmalloc(*cubin_len)) != NVJITLINK_SUCCESS) {
		sb_addf(log, "%s: nvJitLink linked but gave no cubin\n", rq->kernel_path);
		r = NVJITLINK_ERROR_INTERNAL;
	}
	if (r != NVJITLINK_SUCCESS) { free(*cubin); *cubin = NULL; }
	if (h) jl->destroy(&h);
	free(arch);
	return r == NVJITLINK_SUCCESS ? 0 : -1;
}

/* The compile child's address space in MiB beyond what it maps when it starts: $CUDACLIMB_COMPILE_AS_MB (0: no limit), else
 * COMPILE_AS_MB_DEFAULT; none in an AddressSanitizer build (its shadow memory alone reserves terabytes
 * of address space). */
#if defined(__SANITIZE_ADDRESS__)
#define CC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CC_ASAN 1
#endif
#endif
static long compile_as_mb(void)
{
#ifdef CC_ASAN
	return 0;
#else
	const char *v = getenv("CUDACLIMB_COMPILE_AS_MB");
	char *end;
	long mb = v && *v ? strtol(v, &end, 10) : -1;
	return v && *v && !*end && mb >= 0 ? mb : COMPILE_AS_MB_DEFAULT;
#endif
}

/* In the child: its memory and CPU time bounded, so that no input makes a compile take the box. */
static void child_limits(const compile_request *rq)
{
	long mb = compile_as_mb();
	if (mb > 0) {
		/* on top of what the child already maps: a child of the GPU worker inherits CUDA's address
		 * space reservations (far beyond any useful bound), which the compile never touches */
		unsigned long pages = 0;
		FILE *f = fopen("/proc/self/statm", "r");
		if (f) { if (fscanf(f, "%lu", &pages) != 1) pages = 0; fclose(f); }
		rlim_t lim = ((rlim_t)mb << 20) + (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE);
		struct rlimit as = { lim, lim };
		setrlimit(RLIMIT_AS, &as);
	}
	rlim_t cpu = (rlim_t)(compile_timeout_ms(rq->timeout_s) / 1000) + 10;
	struct rlimit c = { cpu, cpu + 5 };   /* SIGXCPU at the soft limit, SIGKILL at the hard one */
	setrlimit(RLIMIT_CPU, &c);
}

/* The folder of path (a new string), the path itself when it has none. */
static char *folder_of(const char *path)
{
	char *d = xstrdup(path), *slash = strrchr(d, '/');
	if (slash && slash != d) *slash = 0;
	return d;
}

/* In the child of a learner's compile, before NVRTC runs: what it loads by itself loaded now, then the
 * process closed in (compile_jail.h), so that NVRTC can open only the system's and the toolkit's
 * folders and the cache's (write). Every header the learner may include is in memory already. 0, or
 * -1 with why when it could not be closed in (the compile is refused: never run it open); a kernel
 * without Landlock leaves it open, the include scan alone standing. */
static int child_jail(const compile_request *rq, const char *cubin_path, const char *ptx_path, char *why, size_t n)
{
	int major = 0, minor = 0;
	char lib[64], tool[512] = "", devrt[512] = "", e[256];
	if (nvrtcVersion(&major, &minor) == NVRTC_SUCCESS) {   /* NVRTC's builtins, which it loads at its first compile */
		strfmt(lib, sizeof lib, "libnvrtc-builtins.so.%d.%d", major, minor);
		dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
		strfmt(lib, sizeof lib, "libnvrtc-builtins.alt.so.%d.%d", major, minor);
		dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
	}
	if (compile_options_rdc(rq->options, rq->noptions)) {
		jitlink_get(e, sizeof e);
		compile_find_devrt(devrt, sizeof devrt);
	}
	if (rq->sass) sass_find_tool(tool, sizeof tool);
	Dl_info info;
	char *nvrtc_dir = dladdr((void *)nvrtcCompileProgram, &info) && info.dli_fname ? folder_of(info.dli_fname) : NULL;
	char *tool_dir = tool[0] ? folder_of(tool) : NULL, *devrt_dir = devrt[0] ? folder_of(devrt) : NULL;
	char *cubin_dir = folder_of(cubin_path), *ptx_dir = folder_of(ptx_path);
	const char *read[] = { "/usr", "/lib", "/lib32", "/lib64", "/opt", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
	                       cuda_root(), nvrtc_dir, tool_dir, devrt_dir };
	const char *write[] = { cubin_dir, ptx_dir, "/dev/null" };
	int rc = compile_jail_enter(read, (int)(sizeof read / sizeof *read), write, (int)(sizeof write / sizeof *write), why, n);
	free(nvrtc_dir); free(tool_dir); free(devrt_dir); free(cubin_dir); free(ptx_dir);
	return rc < 0 ? -1 : 0;
}

/* log (a new string, freed here) cut to COMPILE_LOG_MAX bytes, at line ends, when it is longer: its
 * head and its tail, and between them a line saying how many bytes were left out. */
static char *log_clip(char *log)
{
	size_t len = strlen(log), half = COMPILE_LOG_MAX / 2;
	if (len <= COMPILE_LOG_MAX) return log;
	size_t head = half, tail = len - half;
	while (head > 0 && log[head - 1] != '\n') head--;
	while (tail < len && log[tail - 1] != '\n') tail++;
	char *out = xasprintf("%.*s[... %zu bytes of the compiler's log left out: it is kept to %zu KiB ...]\n%s", (int)head, log, tail - head,
	                      COMPILE_LOG_MAX >> 10, log + tail);
	free(log);
	return out;
}

/* In the child: compile src, write the cubin and the PTX, send "ok\n" or "fail\n" then the log
 * (log_clip: bounded). Never returns. */
static void child(const compile_request *rq, const char *src, const compile_includes *inc, const char *cubin_path, const char *ptx_path, int fd)
{
	FILE *out = fdopen(fd, "w");
	if (!src || !out) _exit(3);
	child_limits(rq);
	char why[600];
	if (rq->untrusted && child_jail(rq, cubin_path, ptx_path, why, sizeof why)) {
		fprintf(out, "fail\nthe compile of a learner's file could not be closed in (Landlock): %s\n", why);
		fclose(out);
		_exit(0);
	}
	/* Seen on a GPU box: a second compile of the same program returned the cubin with an empty log,
	 * as if served from the driver's compute cache, and with it went the ptxas report we read the
	 * resources from. Our own cache is the one that counts; always compile for real. */
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	nvrtcProgram prog;
	/* The headers the scan checked, by the names the #includes write: NVRTC takes these before any
	 * file of the same name, so it opens none of them again (only the toolkit's own). */
	const char **htext = xcalloc((size_t)inc->nheaders + 1, sizeof *htext), **hname = xcalloc((size_t)inc->nheaders + 1, sizeof *hname);
	for (int i = 0; i < inc->nheaders; i++) { htext[i] = inc->headers[i].text; hname[i] = inc->headers[i].name; }
	if (nvrtcCreateProgram(&prog, src, rq->kernel_path, inc->nheaders, htext, hname) != NVRTC_SUCCESS) {
		fprintf(out, "fail\nnvrtcCreateProgram failed\n");
		_exit(0);
	}
	char *arch = xasprintf("--gpu-architecture=%s", rq->arch);
	char *inc1 = xasprintf("-I%s", rq->include_dir), *inc2 = xasprintf("-I%s", cuda_include());
	char *common = common_dir(rq->include_dir), *inc4 = common ? xasprintf("-I%s", common) : NULL;
	char *shared = shared_dir(rq, common), *inc5 = shared ? xasprintf("-I%s", shared) : NULL;
	char *inc3 = xasprintf("-I%s/cccl", cuda_include());
	const char **opts = xcalloc((size_t)rq->noptions + 10, sizeof(char *));   /* the 9 below and a NULL */
	int n = 0;
	opts[n++] = arch; opts[n++] = "--std=c++17"; opts[n++] = "--ptxas-options=--verbose"; opts[n++] = "-lineinfo";
	if (!rq->untrusted) {   /* a learner's compile has every header it may include in memory */
		opts[n++] = inc1;
		if (inc4) opts[n++] = inc4;   /* kernels/common: after the lesson's folder, so a header there wins */
		if (inc5) opts[n++] = inc5;   /* the shipped kernels/common, for a lesson of an added tree: after its own */
	}
	opts[n++] = inc2; opts[n++] = inc3;
	for (int i = 0; i < rq->noptions; i++) opts[n++] = rq->options[i];
	nvrtcResult res = nvrtcCompileProgram(prog, n, opts);
	size_t ls = 0;
	nvrtcGetProgramLogSize(prog, &ls);
	char *log = xcalloc(ls + 1, 1);
	nvrtcGetProgramLog(prog, log);
	log = log_clip(log);
	ls = strlen(log) + 1;
	/* Under RLIMIT_AS NVRTC says "out of memory", or fails to load its builtins: say which limit */
	if (res != NVRTC_SUCCESS && compile_as_mb() > 0 &&
	    (res == NVRTC_ERROR_OUT_OF_MEMORY || strstr(log, "out of memory") || strstr(log, "bad_alloc") || strstr(log, "failed to open libnvrtc-builtins"))) {
		char *more = xasprintf("%s%sthe compiler ran out of memory: a compile may use %ld MiB (CUDACLIMB_COMPILE_AS_MB sets it)\n", log,
		                       ls > 1 && log[strlen(log) - 1] != '\n' ? "\n" : "", compile_as_mb());
		free(log);
		log = more;
	}
	size_t cs = 0;
	if (res == NVRTC_SUCCESS && !strncmp(rq->arch, "compute_", 8)) {
		/* PTX only (a GPU newer than assets/arch.yaml, arch_fallback_target): the driver JITs it at load,
		 * so the code file holds the PTX with its NUL, as cuLibraryLoadData wants it. */
		size_t ps = 0;
		char *ptx = NULL;
		if (nvrtcGetPTXSize(prog, &ps) != NVRTC_SUCCESS || ps < 2 || nvrtcGetPTX(prog, ptx = xmalloc(ps)) != NVRTC_SUCCESS)
			fprintf(out, "fail\n%sNVRTC produced no PTX\n", log);
		else if (file_write_atomic(ptx_path, ptx, ps - 1) != 0 || file_write_atomic(cubin_path, ptx, ps) != 0)
			fprintf(out, "fail\ncannot write %s: %s\n%s", cubin_path, strerror(errno), log);
		else
			fprintf(out, "ok\n%s", log);
		free(ptx);
		fclose(out);
		_exit(0);
	}
	if (res == NVRTC_SUCCESS && nvrtcGetCUBINSize(prog, &cs) == NVRTC_SUCCESS && cs > 0) {
		char *cubin = xmalloc(cs);
		nvrtcGetCUBIN(prog, cubin);
		if (compile_options_rdc(rq->options, rq->noptions)) {   /* relocatable: the linked cubin is what runs */
			sb full = {0};
			sb_add(&full, log);
			char *linked = NULL;
			size_t ls2 = 0;
			int bad = link_device_runtime(rq, cubin, cs, &linked, &ls2, &full);
			free(cubin);
			free(log);
			log = full.s ? full.s : xstrdup("");
			if (bad) {
				fprintf(out, "fail\n%s", log);
				fclose(out);
				_exit(0);
			}
			cubin = linked;
			cs = ls2;
		}
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

/* In the child, for a cached cubin whose listing is not cached yet: disassemble it (unless cubin_path
 * is NULL), then send the cached report text as a compile would have. Never returns. */
static void child_disassemble(const char *cubin_path, const char *meta, int fd)
{
	FILE *out = fdopen(fd, "w");
	if (!out) _exit(3);
	char e[256];
	if (cubin_path) free(sass_disassemble(cubin_path, e, sizeof e));   /* NULL: not to be run unjailed */
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
		char *ptx = file_read_max(r->ptx_path, CUBIN_MAX, FILE_NOFOLLOW, NULL);
		compile_parse_ptx_params(ptx, r);
		free(ptx);
		r->tensor_sass = sass_tensor_count_cached(r->cubin_path);
	}
	r->cached = j->cached;
	j->done = 1;
}

/* Where compiled code goes when the cache folder cannot be used: a folder of this process's own
 * (mkdtemp: 0700, an unpredictable name), emptied and removed at exit. */
static char nocache[64];
static pid_t nocache_pid;

static void nocache_remove(void)
{
	if (!nocache[0] || getpid() != nocache_pid) return;
	DIR *d = opendir(nocache);
	for (struct dirent *e; d && (e = readdir(d));) {
		if (e->d_name[0] == '.') continue;
		char *p = xasprintf("%s/%s", nocache, e->d_name);
		unlink(p);
		free(p);
	}
	if (d) closedir(d);
	rmdir(nocache);
}

/* The folder for this compile's files: the cache (a new string, *cache set), or when it cannot be
 * used (not the user's, a link, cannot be made) a private one for this process, said once. NULL
 * with err when neither. */
static char *out_dir(int *cache, char *err, size_t errlen)
{
	char why[600];
	char *dir = xdg_cache_dir(why, sizeof why);
	*cache = dir != NULL;
	if (dir) return dir;
	if (!nocache[0]) {
		const char *t = getenv("TMPDIR");
		strfmt(nocache, sizeof nocache, "%s/cudaclimb-nocache-XXXXXX", t && t[0] == '/' && strlen(t) < 32 ? t : "/tmp");
		if (!mkdtemp(nocache)) {
			strfmt(err, errlen, "the compile cache is not used (%s) and no private folder can be made: %s", why, strerror(errno));
			nocache[0] = 0;
			return NULL;
		}
		nocache_pid = getpid();
		atexit(nocache_remove);
		notice("the compile cache is not used: %s; compiling without it", why);
	}
	return xstrdup(nocache);
}

/* The first line of a cache entry's report: the sizes and hashes of its cubin and PTX. */
#define ENTRY_FMT "entry 3 cubin %zu %016llx ptx %zu %016llx report %zu %016llx\n"

/* The entry line for the files cubin_path and ptx_path and the report text into out; -1 when the
 * cubin is unreadable. */
static int entry_line(const char *cubin_path, const char *ptx_path, const char *report, size_t rlen, char *out, size_t n)
{
	size_t cl = 0, pl = 0;
	char *c = file_read_max(cubin_path, CUBIN_MAX, FILE_NOFOLLOW, &cl);
	if (!c) return -1;
	char *p = file_read_max(ptx_path, CUBIN_MAX, FILE_NOFOLLOW, &pl);
	strfmt(out, n, ENTRY_FMT, cl, (unsigned long long)fnv1a(FNV_OFFSET, c, cl), p ? pl : 0,
	       (unsigned long long)(p ? fnv1a(FNV_OFFSET, p, pl) : 0), rlen, (unsigned long long)fnv1a(FNV_OFFSET, report, rlen));
	free(c);
	free(p);
	return 0;
}

/* 0 when meta (a cache entry's report) describes the cubin and PTX beside it; -1 with why. */
static int entry_check(const char *meta, const char *cubin_path, const char *ptx_path, char *why, size_t n)
{
	size_t cl, pl, rl;
	unsigned long long ch, ph, rh;
	const char *report = strchr(meta, '\n');
	if (sscanf(meta, "entry 3 cubin %zu %llx ptx %zu %llx report %zu %llx", &cl, &ch, &pl, &ph, &rl, &rh) != 6 || !report) {
		strfmt(why, n, "its report has no entry line");
		return -1;
	}
	report++;
	if (strlen(report) != rl || fnv1a(FNV_OFFSET, report, rl) != rh) { strfmt(why, n, "its report is cut or changed"); return -1; }
	size_t len = 0;
	char *c = file_read_max(cubin_path, CUBIN_MAX, FILE_NOFOLLOW, &len);
	if (!c) { strfmt(why, n, "its cubin cannot be read: %s", file_strerror(errno)); return -1; }
	int bad = 0;
	if (len != cl) strfmt(why, n, "its cubin is %zu bytes, not %zu", len, cl), bad = 1;
	/* an ELF cubin, or PTX with its NUL (a compute_XX target: the driver JITs it at load) */
	else if ((len < 4 || memcmp(c, "\177ELF", 4)) && !(len > 1 && !c[len - 1] && (!strncmp(c, "//", 2) || !strncmp(c, ".version", 8))))
		strfmt(why, n, "its cubin is not an ELF file, nor PTX"), bad = 1;
	else if (fnv1a(FNV_OFFSET, c, len) != ch) strfmt(why, n, "its cubin's hash does not match"), bad = 1;
	free(c);
	if (bad) return -1;
	char *p = file_read_max(ptx_path, CUBIN_MAX, FILE_NOFOLLOW, &len);
	if (pl && (!p || len != pl || fnv1a(FNV_OFFSET, p, len) != ph)) { strfmt(why, n, "its PTX does not match"); bad = 1; }
	free(p);
	return bad ? -1 : 0;
}

/* Removes a cache entry's files (cubin, PTX, report, SASS listing). */
static void entry_remove(const compile_job *j)
{
	unlink(j->r.cubin_path);
	unlink(j->r.ptx_path);
	unlink(j->meta_path);
	size_t cl = strlen(j->r.cubin_path);
	if (cl > 6) {
		char *sass = xasprintf("%.*s.sass", (int)(cl - 6), j->r.cubin_path);
		unlink(sass);
		free(sass);
	}
}

compile_job *compile_start(const compile_request *rq, char *err, size_t errlen)
{
	char key[COMPILE_KEY_LEN], *owned;
	size_t len;
	const char *src = source_of(rq, &len, &owned);
	if (!src) { strfmt(err, errlen, "cannot read %s: %s", rq->kernel_path, strerror(errno)); return NULL; }
	compile_job *j = xcalloc(1, sizeof *j);
	key_of(rq, src, len, key, &j->inc);
	j->fd = -1;
	strfmt(j->r.arch, sizeof j->r.arch, "%s", rq->arch);
	if (j->inc.error) {   /* an include refused: the compile fails now, NVRTC never sees it */
		j->r.refused = 1;
		j->r.tensor_sass = -1;
		j->r.log = xasprintf("%s\n", j->inc.error);
		j->done = 1;
		compile_include_free(&j->inc);
		free(owned);
		return j;
	}
	int cache;
	char *dir = out_dir(&cache, err, errlen);
	if (!dir) { free(owned); compile_include_free(&j->inc); free(j); return NULL; }
	strfmt(j->r.cubin_path, sizeof j->r.cubin_path, "%s/%s.cubin", dir, key);
	strfmt(j->r.ptx_path, sizeof j->r.ptx_path, "%s/%s.ptx", dir, key);
	strfmt(j->meta_path, sizeof j->meta_path, "%s/%s.log", dir, key);
	free(dir);
	char *meta = cache ? file_read_max(j->meta_path, FILE_READ_MAX, FILE_NOFOLLOW, NULL) : NULL, why[160];
	if (meta && entry_check(meta, j->r.cubin_path, j->r.ptx_path, why, sizeof why) != 0) {
		notice("the cached compile of %s was damaged (%s): removed, and compiled again", rq->kernel_path, why);
		entry_remove(j);
		free(meta);
		meta = NULL;
	}
	const char *report = meta && strchr(meta, '\n') ? strchr(meta, '\n') + 1 : NULL;   /* after the entry line */
	char tool[1024];
	if (report && !strncmp(report, "ok\n", 3)) {
		j->cached = 1;
		if (!rq->sass || sass_is_cached(j->r.cubin_path) || sass_find_tool(tool, sizeof tool) != 0) {
			finish_from_text(j, report);
			free(meta);
			free(owned);
			return j;
		}
		/* cached code, but the listing asked for is not: a child makes it (nvdisasm takes ~0.4 s) */
		j->meta = xstrdup(report);
		free(meta);
		free(owned);
		owned = NULL;
	} else {
		free(meta);
		/* The child compiles this very text: a save after this point is the next compile's business. */
		j->src = owned ? owned : xstrndup(src, len);
		j->src_len = len;
	}
	int p[2];
	if (pipe(p) != 0) { strfmt(err, errlen, "pipe: %s", strerror(errno)); free(j->src); compile_include_free(&j->inc); free(j); return NULL; }
	fflush(NULL);
	j->started = now_ms();
	j->pid = fork();
	if (j->pid < 0) { strfmt(err, errlen, "fork: %s", strerror(errno)); close(p[0]); close(p[1]); free(j->src); compile_include_free(&j->inc); free(j); return NULL; }
	if (j->pid == 0) {
		close(p[0]);
		signal(SIGINT, SIG_IGN);   /* the parent decides when a compile ends */
		if (j->meta) {   /* a learner's cached cubin goes to nvdisasm closed in, as its compile was */
			char jw[600];
			int unjailed = rq->untrusted && child_jail(rq, j->r.cubin_path, j->r.ptx_path, jw, sizeof jw);
			child_disassemble(unjailed ? NULL : j->r.cubin_path, j->meta, p[1]);
		}
		child(rq, j->src, &j->inc, j->r.cubin_path, j->r.ptx_path, p[1]);
	}
	close(p[1]);
	j->fd = p[0];
	fcntl(j->fd, F_SETFL, O_NONBLOCK);
	fcntl(j->fd, F_SETFD, FD_CLOEXEC);
	return j;
}

double compile_limit_env_s(void)
{
	const char *v = getenv("CUDACLIMB_COMPILE_S");
	char *end;
	double s = v && *v ? strtod(v, &end) : 0;
	return v && *v && !*end && s >= 1 && s <= 86400 ? s : 0;
}

double compile_timeout_ms(double timeout_s)
{
	double env = compile_limit_env_s();
	return 1000 * (env > 0 ? env : timeout_s > COMPILE_TIMEOUT_MIN_S ? timeout_s : COMPILE_TIMEOUT_MIN_S);
}

int compile_fd(const compile_job *j) { return j->done ? -1 : j->fd; }
const compile_result *compile_get(const compile_job *j) { return &j->r; }

static void end_child(compile_job *j, const char *why, int timed_out)
{
	compile_result *r = &j->r;
	r->ok = 0;
	r->crashed = !timed_out;
	r->timed_out = timed_out;
	r->log = xasprintf("%s\n%s", why, j->out.s ? j->out.s : "");
	j->done = 1;
}

int compile_step(compile_job *j, double timeout_ms)
{
	if (j->done) return 1;
	char buf[8192];
	ssize_t n;
	/* the child's report is bounded (log_clip); past twice that, what comes is read and dropped */
	while ((n = read(j->fd, buf, sizeof buf)) > 0)
		if (j->out.len < 2 * COMPILE_LOG_MAX) sb_addn(&j->out, buf, (size_t)n < 2 * COMPILE_LOG_MAX - j->out.len ? (size_t)n : 2 * COMPILE_LOG_MAX - j->out.len);
	if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
		if (timeout_ms > 0 && now_ms() - j->started > timeout_ms) {
			kill(j->pid, SIGKILL);
			waitpid(j->pid, NULL, 0);
			j->pid = 0;
			close(j->fd);
			char why[160];
			if (compile_limit_env_s() > 0)
				strfmt(why, sizeof why, "compile timed out after %.0f s: the compiler was stopped (CUDACLIMB_COMPILE_S: the judge's limit)", timeout_ms / 1000);
			else
				strfmt(why, sizeof why, "compile timed out after %.0f s: the compiler was stopped (a longer --timeout gives it more)", timeout_ms / 1000);
			end_child(j, why, 1);
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
	char why[400];
	long mb = compile_as_mb();
	char limit[160] = "";
	if (mb > 0 && !j->cached)
		strfmt(limit, sizeof limit, ": it may have run out of memory (a compile may use %ld MiB; CUDACLIMB_COMPILE_AS_MB sets it)", mb);
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGXCPU) {
		strfmt(why, sizeof why, "the compiler (NVRTC) used up its CPU time (the compile's time limit) and was stopped");
		end_child(j, why, 0);
	} else if (WIFSIGNALED(st)) {
		strfmt(why, sizeof why, "the compiler (NVRTC) crashed with signal %d (%s)%s; cudaclimb kept running", WTERMSIG(st), strsignal(WTERMSIG(st)),
		       WTERMSIG(st) == SIGABRT || WTERMSIG(st) == SIGSEGV || WTERMSIG(st) == SIGKILL ? limit : "");
		end_child(j, why, 0);
	} else if (!j->out.s || WEXITSTATUS(st) != 0) {
		strfmt(why, sizeof why, "the compiler process failed (exit status %d)%s", WEXITSTATUS(st), limit);
		end_child(j, why, 0);
	} else {
		finish_from_text(j, j->out.s);
		char line[200];
		if (j->r.ok && !j->cached && entry_line(j->r.cubin_path, j->r.ptx_path, j->out.s, j->out.len, line, sizeof line) == 0) {
			sb m = {0};
			sb_add(&m, line);
			sb_addn(&m, j->out.s, j->out.len);
			file_write_atomic(j->meta_path, m.s, m.len);
			sb_free(&m);
		}
		if (!j->cached) cache_after_compile();   /* the cache under its cap (cache.h) */
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
	compile_include_free(&j->inc);
	sb_free(&j->out);
	free(j);
}

int compile_run(const compile_request *rq, compile_result *out, char *err, size_t errlen)
{
	compile_job *j = compile_start(rq, err, errlen);
	if (!j) return -1;
	while (!compile_step(j, compile_timeout_ms(rq->timeout_s))) {
		struct pollfd pf = { .fd = j->fd, .events = POLLIN };
		poll(&pf, 1, 1000);
	}
	*out = j->r;
	j->r.log = NULL;
	compile_job_free(j);
	return 0;
}
