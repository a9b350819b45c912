/* compile: NVRTC runs in a child process (a compiler crash cannot take the program down) and its
 * cubins are cached under $XDG_CACHE_HOME/cudaclimb (xdg_cache_dir: a private folder of the user's, else
 * no cache), keyed by source, every file it includes (found by a scan, as NVRTC's preprocessor
 * would), the headers beside the kernel, options, architecture and NVRTC version, written
 * atomically. Each entry's report starts with the size and hash of its cubin and PTX; an entry that
 * does not match them is removed and compiled again, with a notice. With -rdc=true among the options the child
 * links NVRTC's relocatable code with the toolkit's device runtime (libcudadevrt.a) through
 * nvJitLink (dlopen'd: libnvJitLink.so.13, then libnvJitLink.so; $CUDACLIMB_NVJITLINK names another
 * file), so that kernels can launch kernels; the linked cubin is what is cached. */
#ifndef CC_COMPILE_H
#define CC_COMPILE_H
#include <stddef.h>
#include <stdint.h>
#include "sha256.h"

#define COMPILE_MAX_ENTRIES 16
#define COMPILE_MAX_PARAMS 32
/* A kernel parameter as the PTX declares it: its size in bytes, and 'f' for a float (.f32, .f64),
 * 'i' for an integer or a pointer (.u32, .s64, .b64, ...), 'b' for a byte array (a struct by value). */
typedef struct { int size; char kind; } compile_param;
typedef struct {
	char name[96];
	int regs, stack_bytes, spill_stores, spill_loads;
	int64_t static_smem;
	int nparams;               /* -1: no PTX was read for it */
	int max_threads;           /* the PTX's .maxntid or .reqntid (__launch_bounds__), x*y*z; 0: none */
	compile_param params[COMPILE_MAX_PARAMS];
} compile_entry;

typedef struct {
	int ok;                   /* 1: cubin_path holds the code */
	int crashed;              /* the compiler process died (log says how) */
	int timed_out;            /* the compiler ran past its time and was stopped ("compile timed out after N s") */
	int refused;              /* an include was refused before NVRTC ran (log: compile_includes' error) */
	int cached;
	double ms;                /* wall time, 0 when cached */
	char cubin_path[512];
	char ptx_path[512];       /* the PTX NVRTC made on the way (kept beside the cubin) */
	char arch[16];
	compile_entry entries[COMPILE_MAX_ENTRIES]; int nentries;   /* from the ptxas report */
	int tensor_sass;          /* tensor-core instructions in the cubin's SASS (sass.h); -1 not counted: no
	                           * listing (not asked for, or no nvdisasm) */
	char *log;                /* NVRTC's log (errors with the kernel file's line numbers), then with -rdc
	                           * nvJitLink's (its errors, each kernel's resources as linked); owned */
} compile_result;

typedef struct compile_job compile_job;

typedef struct {
	const char *kernel_path;  /* as shown in messages, e.g. kernels/bandwidth/strided.cu */
	const char *include_dir;  /* the kernel's folder (its .cuh headers are hashed too) */
	const char *shared_dir;   /* another kernels/common searched after the tree's own (the shipped one, for a
	                           * lesson of an added tree); NULL, or the tree's own: none */
	const char *arch;         /* "sm_90", "sm_90a" */
	char *const *options; int noptions;   /* -D defines and the stage's options */
	const char *source;       /* the text to compile, or NULL: read kernel_path (once) */
	size_t source_len;
	double timeout_s;         /* compile_run's limit: compile_timeout_ms(timeout_s) */
	int sass;                 /* also disassemble the cubin (nvdisasm, in the child; the listing is cached
	                           * beside it) so that tensor_sass is known; costs ~0.4 s the first time */
	int untrusted;            /* a learner's source (try, watch, report --verify): includes only by a plain
	                           * relative name, of files under its own folder, the lesson tree or the toolkit */
} compile_request;

/* What a compile may include, each file checked before NVRTC runs (compile_include_scan): a regular
 * file (opened with O_NOFOLLOW|O_NONBLOCK: not a link, FIFO, device, socket or folder) of at most
 * COMPILE_INCLUDE_MAX_BYTES, COMPILE_INCLUDE_MAX_TOTAL in all, COMPILE_INCLUDE_MAX_FILES files, nested
 * at most 32 deep. Anything else fails the compile at once, naming the include's line. */
#define COMPILE_INCLUDE_MAX_BYTES ((size_t)4 << 20)
#define COMPILE_INCLUDE_MAX_TOTAL ((size_t)32 << 20)
#define COMPILE_INCLUDE_MAX_FILES 256
/* A checked header, handed to NVRTC in memory under the name its #include writes (nothing is opened
 * twice); text is NUL-terminated. */
typedef struct { char *name, *path, *text; size_t len; } compile_header;
typedef struct {
	sha256_ctx *key;          /* the key being hashed: every file found (or missing) is added; NULL none */
	compile_header *headers; int nheaders;
	size_t total;             /* bytes read */
	char *error;              /* the first refusal, compiler style: "k.cu:3: #include "/tmp/x": a FIFO, not a
	                           * regular file: refused"; NULL when none */
} compile_includes;
/* Follows every #include (and __has_include) of src as NVRTC's preprocessor would, "x" in the
 * includer's folder first, then dirs[0..ndirs) in NVRTC's order (dirs[ntool], dirs[ntool + 1] the
 * toolkit's, not read); reads and checks each file found into out (free with compile_include_free). */
void compile_include_scan(const compile_request *rq, const char *const *dirs, int ndirs, int ntool, const char *src, size_t len,
                          compile_includes *out);
void compile_include_free(compile_includes *inc);
/* Adds n bytes at p to a key (nothing when c is NULL), framed by their length, so that no two
 * sequences of pieces hash alike by moving bytes from one piece to the next. */
void compile_include_key_add(sha256_ctx *c, const void *p, size_t n);

/* The least time a compile gets, whatever --timeout says: a first compile of a big kernel on a
 * busy shared box takes tens of seconds, and a run's watchdog (10 s by default) is not its measure. */
#define COMPILE_TIMEOUT_MIN_S 120
/* The compile child runs under RLIMIT_AS of this many MiB ($CUDACLIMB_COMPILE_AS_MB: another, 0 none)
 * and RLIMIT_CPU of its time limit plus 10 s: a compile of odd input is bounded in memory too. */
#define COMPILE_AS_MB_DEFAULT 2048
/* The compiler's log a compile keeps: a few KiB of macros or templates make NVRTC write gigabytes of
 * warnings (each one echoes its source line), so a longer log keeps its head (the first diagnostics)
 * and its tail (ptxas's report, which comes last), with a line saying how much was left out. */
#define COMPILE_LOG_MAX ((size_t)1 << 20)
/* The time a compile may take for a run timeout of timeout_s seconds, in ms: $CUDACLIMB_COMPILE_S
 * when it is a number of seconds in [1, 86400] (the lab service's judge sets it: a few KiB of macros keep
 * NVRTC busy for minutes), else max(timeout_s, 120 s). */
double compile_timeout_ms(double timeout_s);
/* $CUDACLIMB_COMPILE_S's seconds when it is valid (compile_timeout_ms), else 0. */
double compile_limit_env_s(void);
/* Starts a compile: a cache hit finishes at once; otherwise a child process runs NVRTC.
 * Returns a job (free with compile_job_free), or NULL with err (unreadable source). */
compile_job *compile_start(const compile_request *rq, char *err, size_t errlen);
/* The fd to poll for the child's end, or -1 when the job is done. */
int compile_fd(const compile_job *j);
/* Reads what is available; returns 1 when done (then compile_result is filled), 0 if not yet.
 * Kills a compiler that ran past timeout_ms (0: no limit); the result is then timed_out. */
int compile_step(compile_job *j, double timeout_ms);
const compile_result *compile_get(const compile_job *j);
/* Ends a running child and frees the job and its result's log. */
void compile_job_free(compile_job *j);
/* Blocking form: start, wait, copy the result into *out (out->log owned by the caller). */
int compile_run(const compile_request *rq, compile_result *out, char *err, size_t errlen);
/* The entry's ptxas numbers, or NULL. */
const compile_entry *compile_find_entry(const compile_result *r, const char *name);
/* Parses a ptxas --verbose log into r->entries (exposed for tests). nvJitLink's verbose lines
 * ("Function properties for 'k':" then "used N registers, ..., S stack, M bytes smem, ...") that
 * follow update the entries ptxas named with the linked program's numbers. */
void compile_parse_ptxas(const char *log, compile_result *r);
/* Reads the .entry signatures of a PTX text into the parameter lists of r's entries (an entry the
 * ptxas report did not name is added). */
void compile_parse_ptx_params(const char *ptx, compile_result *r);
/* 1 when options ask for relocatable device code (-rdc=true, --relocatable-device-code=true, -dc,
 * --device-c; the last such option wins): the compile then links with the device runtime. */
int compile_options_rdc(char *const *options, int noptions);
/* The toolkit's device runtime (libcudadevrt.a, under $CUDA_HOME or the built-in toolkit) into out:
 * 0, or -1 with the first place looked in out when it is not there. */
int compile_find_devrt(char *out, size_t len);
/* The cache key for rq into out: SHA-256 in hex, over the source, every file it includes, the
 * options, the architecture and NVRTC's version (a key of 64 bits could be collided on purpose: in the
 * lab service's judge one cache serves every student). 0 or -1 when a file cannot be read. With -rdc
 * the key covers the link too: nvJitLink's version and the device runtime's file. */
#define COMPILE_KEY_LEN 65
int compile_key(const compile_request *rq, char out[COMPILE_KEY_LEN]);
#endif
