/* result: what one run of a stage produced, and what a device is; each with a table of fields that
 * drives the worker protocol, JSON output and replay alike. */
#ifndef CC_RESULT_H
#define CC_RESULT_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
	RUN_OK,            /* ran, and the result is right (or the stage is not checked) */
	RUN_WRONG,         /* ran, the result is wrong */
	RUN_REFUSED,       /* a setting or constraint refused it before compiling */
	RUN_COMPILE_ERROR, /* NVRTC failed; log holds its output */
	RUN_UNSUPPORTED,   /* the stage needs another GPU (requires:) */
	RUN_FAULT,         /* a CUDA error (illegal address, launch failure...) */
	RUN_HANG,          /* the watchdog ended the worker */
	RUN_CRASH,         /* the worker or the compiler died */
	RUN_NO_GPU,        /* nothing to run on */
	RUN_RUNNER_ERROR,  /* the runner could not start the worker (ssh host unreachable, no srun, Slurm refused) */
	RUN_STATUS_COUNT
} run_status;

/* How much a finding of the diagnosis matters (a rule's severity in assets/rules.yaml); done: at a
 * ceiling, nothing left to fix. */
typedef enum { DIAG_CRITICAL, DIAG_WARNING, DIAG_INFO, DIAG_DONE, DIAG_SEVERITY_COUNT } diag_severity;

enum { DIAG_EVIDENCE_MAX = 4, RUN_FINDINGS_MAX = 8 };

/* One finding of the diagnosis (diagnose.h): the rule that fired, how much it matters, its words,
 * and the values its condition read. */
typedef struct {
	char rule[32];                  /* the rule's id; "" for a line of older text that names none */
	diag_severity severity;
	char title[96];                 /* "" when read back from the text form */
	char text[512];                 /* rendered, numbers filled in; one paragraph */
	int nevidence;
	struct { char name[40]; double value; } evidence[DIAG_EVIDENCE_MAX];
} diag_finding;

/* A run's findings, most severe first. Its text form (the field "diagnosis" in the worker protocol,
 * JSON and replay files) is one "severity rule: text" line per finding; JSON adds the structures
 * as "findings". */
typedef struct { int n; diag_finding f[RUN_FINDINGS_MAX]; } run_findings;

/* One step of a stage (a kernel launch or a memset), as it ran: what the stage's timeline draws. */
#define RUN_MAX_STEPS 128
typedef struct {
	char kind[12];                  /* "launch", "memset", "copy", "library", "record", "wait" (plan_result_step_name) */
	char entry[64];                 /* the kernel's name; a memset's buffer; a copy's "src>dst"; an event's name */
	int stream;                     /* the stream it ran on (0: the default stream) */
	char dir[8];                    /* a copy's direction: "h2d", "d2h", "d2d"; "" for the others */
	int64_t bytes;                  /* a copy's or memset's bytes; 0 for a launch */
	unsigned grid[3], block[3];     /* a launch's; 0 for a memset */
	int64_t dynamic_smem;           /* bytes */
	int regs; int64_t static_smem;  /* from the compile (the driver's when the compile did not say); -1 unknown */
	/* Medians over a short pass of its own after the timed runs (CUDA events around each step), in ms; start
	 * and end from the stage's start (the event before its first step); -1 when not measured. With more
	 * than one stream the steps run as scheduled, each between two events on its own stream, so spans on
	 * different streams may intersect (the timeline shows the overlap). */
	double ms_median, start_ms, end_ms;
} run_step;

typedef struct {
	char lesson[64], stage[64], title[128];
	run_status status;
	char message[512];              /* one line, for any status but OK */
	char settings[512];             /* "BLOCK=256 n=67108864 ..." the values used */
	char case_name[48];             /* the lesson's case the run was asked in (--case, C; JSON "case"): "" none */
	char reference[256];            /* what the check compared with: "plain SCALE=2", "baseline"; "" none */
	/* compile */
	int regs, spill_stores, spill_loads, stack_bytes, cached;
	int64_t static_smem, dynamic_smem;
	double compile_ms;
	char arch[16];
	char cubin[256];                /* the compiled code in the cache (its .ptx and .sass beside it) */
	/* launch and occupancy (of the first kernel launch) */
	unsigned grid[3], block[3];
	int occ_blocks, occ_warps, occ_max_warps;
	double occ_theoretical;         /* 0..1, from cuda_occupancy.h */
	char occ_limiter[32];
	int occ_api_blocks;             /* cudaOccupancyMaxActiveBlocksPerMultiprocessor; -1 not run */
	/* time */
	int reps;
	double ms_median, ms_min, ms_max;
	double bytes, flops, working_set;
	double gbps, gflops;
	double pct_theoretical_bw, pct_attainable_bw, pct_compute_peak;
	char attainable[8];             /* which attainable bandwidth pct_attainable_bw is of (traffic_name: "copy",
	                                 * "read"); "" when none was measured */
	int fits_l2;
	/* A stage with copy steps: the bound of a perfect pipeline, max(h2d_bytes at the device's measured
	 * host-to-device copy bandwidth, d2h_bytes at its device-to-host one, kernel_ms), in ms; 0 when the
	 * stage copies nothing. kernel_ms: the stage without its copies, the other steps on their streams as scheduled. */
	double h2d_bytes, d2h_bytes, kernel_ms, bound_ms;
	/* check */
	int checked, passed;
	double max_abs_err, max_rel_err;
	double norm_rel_err;            /* ||out - ref|| / ||ref|| over the compared outputs (2-norm) */
	int64_t bad_count, first_bad, nan_count;
	int64_t unwritten;              /* compared elements that still held the poison */
	char issue[24];                 /* what kind of failure, when the status alone does not say:
	                                 * "no_kernel", "signature", "out_of_bounds", "unwritten", "norm_error",
	                                 * "wrong_later" (right at first, wrong after the timed runs); "" none */
	uint64_t seed;
	/* pair: the stage's own kernel timed in the same run, repetitions alternating with this one */
	double pair_ms_median;          /* 0 when there was no pair */
	double pair_ratio, pair_ratio_p20, pair_ratio_p80;   /* per-pair speed ratio (pair time / this time) */
	int decided_early;              /* the pairs stopped before the time budget: a sign test had decided the
	                                 * median ratio against the verdict's bar (the job's decide_bar) */
	/* fair timing (docs/how-it-works.md "How the times are taken"): what the pair was, the SM clock (NVML) read while each
	 * timed repetition ran, FLOP per cycle per SM from the median time and the median clock, the explicit L2
	 * flush, the inputs. Clocks and FLOP/cycle -1 when not measured (clock_note says why once). */
	char pair[64];                  /* "baseline", the stage's id (its own kernel beside a learner's), "" none */
	char baseline[64];              /* a stage's baseline (what a bench pairs it with, its time_vs_baseline): "baseline"
	                                 * or "baseline.NAME" (lessons/README.md, "Baselines per stage"); "" none or
	                                 * a recording from before named baselines (then: "baseline") */
	char baseline_title[128];       /* that baseline's title */
	char library_choice[256];       /* a baseline's own result: what its library chose and how (the algorithm or
	                                 * engine, timed once per GPU and shape and kept: "cuBLASLt algorithm 2 of 8,
	                                 * ..."); "" when it chose nothing or for a stage */
	double sm_clock_mhz, sm_clock_min_mhz, sm_clock_max_mhz, pair_sm_clock_mhz;
	double flop_per_cycle_sm, pair_flop_per_cycle_sm;
	char clock_note[160];
	/* the board's power (NVML nvmlDeviceGetPowerUsage, watts) read beside the SM clock in each timed repetition:
	 * the median and the largest reading; -1 when not measured (power_note says why). On Ampere and later (but
	 * GA100) NVML averages it over the last second, so a run much shorter than that reads mostly what came before. */
	double power_w, power_max_w;
	char power_note[160];
	int l2_flush;                   /* 3: a read of 2x L2 after the poisoning, before each timed sample, outside the
	                                 * events (the L2 starts clean); in older recordings 1: a 2x-L2 memset; 0: none
	                                 * (the poisoning wrote >= 2x L2); -1 not timed or not recorded */
	int launch_hold;                /* 1: each timed repetition's launches queued behind a held kernel before its start
	                                 * event (src/worker/launch_hold.h), so the host's time to queue them is not timed;
	                                 * 2: the hold gave up (the host blocked inside the launches) and the rest ran
	                                 * without it; 0: not held (a stage with copies or a timing: of its own); -1 not
	                                 * timed or not recorded (older recordings: not held) */
	char inputs[256];               /* "A, B: f32 uniform in [-1, 1]; seed 7" (plan_result_inputs) */
	char timing[96];                /* how the stage's own timing: timed it ("host clock, no sync, 1 run",
	                                 * stage_timing_text); "" the tool's method (events, warm-up, median, L2 emptied) */
	/* counters (hardware; -1 when not measured) */
	double achieved_occupancy, dram_bytes_read, dram_bytes_write, dram_pct;
	double l1_hit_pct, l2_hit_pct, smem_conflicts_ld, smem_conflicts_st;
	double warp_efficiency, branch_uniform_pct, sm_pct, tensor_pct;
	double warp_efficiency_pred_on;  /* threads per instruction that are active and not predicated off, 0..32 */
	double tensor_inst;             /* warp instructions the tensor-pipe counters report (HMMA + IMMA, or GMMA where larger); NOT 0
	                                 * without them on Hopper (16.8M on an integer reduction): see tensor_sass */
	double tensor_sass;             /* tensor-core instructions in the stage's SASS (sass.h), from the cubin, not a
	                                 * counter: 0 proves no tensor core ran; -1 not counted (no nvdisasm) */
	double smem_wavefronts;         /* shared-memory wavefronts, loads and stores, bank-conflict replays included */
	double l1_pct;                  /* L1/TEX throughput, % of its peak */
	double gld_sectors_per_request; /* 32-byte sectors per global load request (4: 32 coalesced floats) */
	char stalls[160];               /* "long_scoreboard 41%, barrier 22%, ..." */
	int counter_passes; double counter_ms;
	char counters_note[256];        /* why counters are missing, when they are */
	run_findings findings;          /* the diagnosis from assets/rules.yaml (field "diagnosis") */
	char sanitizer[512];            /* a run under compute-sanitizer: its first finding, or that it found none */
	char hotspots_note[256];        /* a hotspot pass (engine_job.hotspots): why it has no samples, or a caveat */
	char runner[96];                /* the worker that ran it ("local gpu 1"), or "" */
	run_step steps[RUN_MAX_STEPS];  /* a stage's steps in order (the first RUN_MAX_STEPS); none for a baseline */
	int nsteps;
	char *log;                      /* compile log or other long text; owned, may be NULL */
	char *hotspots;                 /* a hotspot pass's samples in the text form of hotspots.h; owned, may be NULL */
} run_result;

typedef struct {
	int present;                    /* 0: no usable GPU; why says so */
	char why[256];                  /* present: how it was chosen among several ("the shortest queue"), or "" */
	int index;
	char name[96], uuid[48], arch[16];
	int cc, sm_count, clock_mhz, mem_clock_mhz, bus_width;
	int64_t l2_bytes, global_mem, smem_per_block_optin, smem_per_sm;
	int max_threads_per_block, max_threads_per_sm, max_blocks_per_sm, regs_per_sm, regs_per_block;
	int warp_size;
	int copy_engines;               /* cudaDevAttrAsyncEngineCount: copies that run at once with kernels (0: not known) */
	int64_t smem_per_block, smem_reserved_per_block;   /* default per-block shared memory, driver's reservation */
	char limits_src[160];           /* where the limits come from: the table's rules, or device attributes only */
	double bw_theoretical_gbps;     /* 2 x memory clock x bus width / 8 */
	char bw_theoretical_src[96];
	double bw_attainable_gbps;      /* calibration copy, bytes read plus bytes written */
	char bw_attainable_src[96];
	double bw_read_gbps;            /* calibration read-only stream (a kernel of ours), bytes read; 0 unknown */
	char bw_read_src[160];
	double h2d_gbps, d2h_gbps;      /* calibration: pinned host-to-device and device-to-host copies (cudaMemcpyAsync) */
	double fp32_gflops;             /* SMs x lanes x 2 x clock */
	char fp32_src[96];
	double bf16_tensor_gflops;      /* from assets/arch.yaml */
	char tensor_src[96];
	/* the other number formats' peaks, SMs x flops per clock per SM (assets/arch.yaml) x clock; 0 when
	 * the architecture lacks the unit or is not in the table */
	double fp64_gflops, tf32_tensor_gflops, fp16_tensor_gflops, fp8_tensor_gflops;
	char fp64_src[96], tf32_src[96], fp16_src[96], fp8_src[96];
	double int8_tensor_gops;        /* dense INT8 on the tensor cores, int32 accumulate (GOP/s); 0 when none */
	char int8_src[96];
	int driver_version, runtime_version;
} device_info;

/* The compute peaks a lesson's model (or a stage) may name (`peak:`), one table for the loader, the
 * engine and the reports: the name in the lesson file, the words shown, and the device's figure. */
typedef enum { PEAK_FP32, PEAK_BF16_TENSOR, PEAK_FP64, PEAK_TF32_TENSOR, PEAK_FP16_TENSOR, PEAK_FP8_TENSOR, PEAK_INT8_TENSOR, PEAK_COUNT } peak_kind;
int peak_parse(const char *name);                       /* a peak_kind; NULL gives PEAK_FP32; -1 unknown */
peak_kind peak_of(const char *name);                    /* the same, PEAK_FP32 for an unknown name */
const char *peak_name(peak_kind p);                     /* "fp32", "bf16_tensor", "fp64", "tf32_tensor", ... */
const char *peak_label(peak_kind p);                    /* "FP32", "BF16 tensor", "FP64", "TF32 tensor", ... */
double peak_gflops(peak_kind p, const device_info *d);  /* the device's figure for it */
const char *peak_source(peak_kind p, const device_info *d);   /* where that figure comes from */
int peak_is_tensor(peak_kind p);

/* The attainable bandwidths a lesson's model may name (`traffic:`), one table like the peaks':
 * copy (the default: DRAM, as much written as read, the calibration copy), read (read-mostly work such
 * as a reduction: the calibration's read-only stream) or pcie (the host link: the calibrated pinned
 * copies, h2d_gbps to the device and d2h_gbps back, for a lesson whose bytes are those that cross it). */
typedef enum { TRAFFIC_COPY, TRAFFIC_READ, TRAFFIC_PCIE, TRAFFIC_COUNT } traffic_kind;
int traffic_parse(const char *name);                    /* a traffic_kind; NULL gives TRAFFIC_COPY; -1 unknown */
traffic_kind traffic_of(const char *name);              /* the same, TRAFFIC_COPY for an unknown name */
const char *traffic_name(traffic_kind t);               /* "copy", "read", "pcie" */
/* The kind whose figure stands for t on d: t, or TRAFFIC_COPY when d has no figure for t (a device
 * recorded before the read or the copy calibration existed), so that a figure and its label never disagree. */
traffic_kind traffic_used(traffic_kind t, const device_info *d);
const char *traffic_label(traffic_kind t);              /* "copy attainable", "read attainable", "PCIe attainable" */
/* d's figure for traffic_used(t, d); for pcie the link both ways at once, h2d_gbps + d2h_gbps. */
double traffic_gbps(traffic_kind t, const device_info *d);
/* The figure a run's GB/s are scored against, given the bytes its copies move each way: for pcie the
 * rate at which those bytes cross with each direction at its calibrated speed, both at once,
 * (h2d + d2h) / max(h2d / h2d_gbps, d2h / d2h_gbps) (h2d_gbps for a stage that only copies in; the
 * sum when both directions carry the same time's worth); traffic_gbps otherwise or without copies. */
double traffic_run_gbps(traffic_kind t, const device_info *d, double h2d_bytes, double d2h_bytes);
const char *traffic_source(traffic_kind t, const device_info *d); /* where that figure comes from */

/* FT_BOOL: an int that is 0 or 1; JSON writes it true/false, the text form 0/1, both read back. */
typedef enum { FT_INT, FT_I64, FT_U64, FT_DBL, FT_STR, FT_U3, FT_STATUS, FT_FINDINGS, FT_BOOL } field_type;
typedef struct { const char *name; field_type type; size_t offset, size; } field;

extern const field run_result_fields[];
extern const int run_result_nfields;
extern const field run_step_fields[];     /* a run_step's, for JSON and replay */
extern const int run_step_nfields;
extern const field device_info_fields[];
extern const int device_info_nfields;

/* Sets every field to its "not measured" value (counters -1, api blocks -1). */
void run_result_init(run_result *r);
/* Frees r->log and re-inits. */
void run_result_clear(run_result *r);
/* Deep copy (log duplicated). */
void run_result_copy(run_result *dst, const run_result *src);
const char *run_status_name(run_status s);     /* "ok", "wrong", "refused", ... */
int run_status_parse(const char *s);            /* -1 when unknown */
/* A status in words for a learner ("did not compile", "no GPU to run on"; "not in the recording" for a
 * replay's miss, told by its message, which may be NULL), never the enum's name. */
const char *run_status_words(run_status s, const char *message);

/* "critical", "warning", "info", "done" ("?" out of range). */
const char *diag_severity_name(diag_severity s);
/* The severity a word names (len bytes): a name, or its first four letters or more ("warn"); -1
 * when none. */
int diag_severity_parse(const char *word, size_t len);
/* One finding as its line of the text form, "severity rule: text" (only the text when it names no
 * rule), into buf (cut to len). */
void diag_finding_line(const diag_finding *d, char *buf, size_t len);
/* The text form of fs: one line per finding, each ending in a newline; a new string ("" for none). */
char *run_findings_text(const run_findings *fs);
/* Reads the text form into fs (replacing what it held): a line that is not "severity rule: text"
 * becomes a finding of its own (info, no rule, the line as its text); lines past RUN_FINDINGS_MAX
 * are dropped; control characters become '?'. Never fails. */
void run_findings_parse(run_findings *fs, const char *text);

/* A step with nothing measured: regs, static_smem and the times -1. */
void run_step_init(run_step *s);
/* The worker protocol's line for step i of r: "step I KIND STREAM GX,GY,GZ BX,BY,BZ DSMEM REGS SSMEM MS START
 * END DIR BYTES ENTRY\n" (DIR "-" unless a copy), the entry last (escaped as strings are, so it may hold anything). */
void run_step_write(FILE *f, const run_result *r, int i);
/* Appends the step of such a line (v: what follows "step ") to r: 0, or -1 when it is malformed, out of
 * order (I must be r->nsteps), of an unknown kind, or one too many. */
int run_step_parse(run_result *r, const char *v);
/* Merges the worker's steps (src: kinds, sizes, times) into the parent's (dst: made from the plan and the
 * compile): when both list the same steps, dst keeps its own and takes src's times and streams (and src's
 * resources, copy direction and bytes where dst has none); when dst has none, src's are taken as they are. */
void run_steps_merge(run_result *dst, const run_result *src);

/* Writes "name value\n" lines for every field (strings escaped) to f. */
void field_write_kv(FILE *f, const field *fs, int n, const void *obj);
/* One-line text form of a string (backslash, newline and tab escaped), and back: field_unescape
 * returns a new string the caller frees. */
void field_escape(FILE *f, const char *s);
char *field_unescape(const char *s);
/* Sets the field called name from its text form (strings escaped as field_write_kv writes them);
 * returns 0, or -1 when unknown or malformed (an integer beyond 2^30, or 2^53 for 64 bits, is malformed). */
int field_set(const field *fs, int n, void *obj, const char *name, const char *value);
/* The same for a value that is already plain text (strings taken as they are: JSON, replay). */
int field_set_plain(const field *fs, int n, void *obj, const char *name, const char *value);
/* Copies the fields named in names (NULL-terminated) from src to dst, by value (no owned pointer is
 * among the fields); returns how many names fs does not have (0: all copied). */
int field_copy_named(const field *fs, int n, void *dst, const void *src, const char *const *names);
#endif
