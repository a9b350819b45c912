/* gpu: the worker process's side (everything that calls CUDA lives behind this header). The
 * parent talks to it over two pipes in the text protocol of runner_worker.h; a fault or a hang ends only
 * this process. */
#ifndef CC_GPU_H
#define CC_GPU_H
#include <stdint.h>
#include <stdio.h>
#include <cuda_runtime.h>
#include "plan.h"
#include "result.h"

/* dim3 in C. */
static inline dim3 d3(unsigned x, unsigned y, unsigned z) { dim3 d = { x, y, z }; return d; }

/* Entry point of `cudaclimb __worker`: serves requests from in, answers on out; returns the exit code. */
int gpu_worker_main(FILE *in, FILE *out, int gpu);

/* --- gpu_device.c --- */
/* Fills d for the current device (cudaSetDevice done); calibrates the attainable bandwidth and the
 * pinned host-to-device and device-to-host copy bandwidths once per device (cached on disk). Returns
 * 0, or -1 with d->present = 0 and d->why set. */
int gpu_device_query(int gpu, device_info *d);
/* The worker's device (valid after a successful query). */
const device_info *gpu_device(void);
/* The bound of a stage that copies: max(h2d_bytes at h2d_gbps, d2h_bytes at d2h_gbps, kernel_ms), in
 * ms; a direction with bytes but no bandwidth counts as 0; 0 when nothing is copied. */
double gpu_copy_bound_ms(double h2d_bytes, double d2h_bytes, double h2d_gbps, double d2h_gbps, double kernel_ms);
/* For a plan whose expressions read occ_block and occ_min_grid (computed by the parent from the
 * kernel's resources, occ_potential_block): asks the runtime's cudaOccupancyMaxPotentialBlockSize for
 * kernel k with that dynamic shared memory and, when its answer differs, says both in r->message (they
 * should agree: occupancy.c says why). */
void gpu_occ_check(const plan *p, cudaKernel_t k, size_t shared, run_result *r);
/* --- gpu_occupancy.cpp: cudaOccupancyMaxPotentialBlockSize (a C++ template of the runtime) from C. */
cudaError_t gpu_occ_potential_block(cudaKernel_t k, size_t dynamic_smem, int *block, int *min_grid);

/* --- gpu_clock.c: the SM clock through NVML (dlopen) --- */
/* Opens NVML for the worker's device d (CUDA device cuda_dev, matched by UUID, else PCI bus id), once
 * per process: 0, or -1 with why ("no SM clock: ..."; the same answer on every later call). */
int gpu_clock_open(const device_info *d, int cuda_dev, char *why, size_t n);
/* The SM clock now, in MHz; -1 when NVML is not open or does not answer. */
int gpu_clock_sm_mhz(void);
/* The board's power now, in watts (NVML: a 1 s average on Ampere and later but GA100); -1 when NVML is
 * not open or does not answer, with the reason in why ("no power: ...") unless why is NULL. */
double gpu_clock_power_w(char *why, size_t n);

/* --- gpu_data.c: device and host buffers, fill, poison, compare --- */
/* Every buffer sits between two guard zones of this many bytes, filled with GPU_GUARD_BYTE: a kernel
 * or a copy that writes a little past either end of a buffer is caught (a write further off faults,
 * or is memcheck's to find). Host buffers have them too, in host memory. */
#define GPU_GUARD (64 * 1024)
#define GPU_GUARD_BYTE 0x5C

typedef struct {
	char *name;                 /* owned: the plan it came from is gone by the next run */
	lesson_dtype type; int64_t count; size_t bytes;
	void *ptr, *ref;            /* ref: the reference's copy for compared outputs (device, also for a host buffer) */
	void *base;                 /* the allocation: guard, ptr's bytes, guard (room for cap bytes) */
	lesson_memory memory;       /* device memory, or host memory (pageable or pinned) */
	size_t cap, ref_cap;        /* what the allocations hold: a smaller size reuses them */
	unsigned long long ref_key; /* non-zero: ref is scrambled with this key (hidden) */
	int output, scratch;
	lesson_init_kind init;      /* a scratch buffer's: INIT_EXPR is filled from the plan's values, others zeroed */
	/* A pitched buffer (rows > 0): rows of cols elements, pitch bytes apart, from cudaMallocPitch; bytes is
	 * rows * pitch (the padding included) and the guards sit around those; alloc is what was allocated
	 * (base lies inside it), NULL for a packed buffer (base is the allocation). */
	int64_t rows, cols; size_t pitch;
	void *alloc;
	/* A learner's run (gpu_data_inputs_keep): orig, an input's pristine bytes (device memory, valid when
	 * orig_ok); alt, a compared output set aside (gpu_data_stash). Both grow as needed, freed with b. */
	void *orig, *alt; size_t orig_cap, alt_cap; int orig_ok;
} gpu_buffer;

typedef struct {
	gpu_buffer *b; int n;
	char key[1024];             /* lesson + parameter values + seed: when it changes, data is rebuilt */
	int have_ref;
	int inputs_dirty;           /* a learner's kernel has run on the inputs since they were kept: the next
	                             * gpu_data_prepare of the same key copies them back first */
} gpu_data;

/* Loads the built-in kernels (kernels/builtin/data.cu) for arch; 0 or -1 with err. */
int gpu_data_init(const char *kroot, const char *arch, char *err, size_t errlen);
/* Makes d hold p's lesson buffers for key (allocating and filling with seed when the key changed) and
 * p's scratch buffers (zeroed). A buffer whose kind of memory p changes (device, pageable, pinned) is
 * moved to the new kind with its contents when the key is unchanged. Host buffers are filled with the
 * same values as a device buffer of that seed (made on the device, then copied). Returns 1 when the
 * data was rebuilt (the reference must be recomputed), 0 when kept, -1 on a CUDA error (err). */
int gpu_data_prepare(gpu_data *d, const plan *p, const char *key, uint64_t seed, char *err, size_t errlen);
gpu_buffer *gpu_data_find(gpu_data *d, const char *name);
/* The pitched buffers' pitches in words, appended to out (cut to n): "; in_p: cudaMallocPitch gave a pitch
 * of 32768 bytes for rows of 32764"; nothing when d has none. */
void gpu_data_pitch_note(const gpu_data *d, char *out, size_t n);
/* Sets every output buffer to its poison (NaN bytes for floats, 0xA5 for integers): device buffers
 * asynchronously on s; host buffers on the host, once s is done with them. */
cudaError_t gpu_data_poison(gpu_data *d, cudaStream_t s);
/* Copies the compared outputs (device or host) into their ref copies on the device. */
cudaError_t gpu_data_save_ref(gpu_data *d, const char *const *names, int n);
/* Hides the reference copies from a learner's kernel: each is scrambled in place with a fresh random
 * key that stays on the host (the comparison unscrambles on the fly). */
cudaError_t gpu_data_hide_ref(gpu_data *d);
/* Checks every buffer's guard zones. Returns 0 when untouched; 1 when a kernel wrote into one (r's
 * status WRONG, issue "out_of_bounds", message naming the buffer and the elements; the guards are
 * refilled); -1 on a CUDA error (err). */
int gpu_data_check_guards(gpu_data *d, run_result *r, char *err, size_t errlen);
/* Compares outputs with the refs (a host output through a device staging copy); fills r's check
 * fields. 0 or -1 with err. */
int gpu_data_compare(gpu_data *d, const char *const *names, int n, int exact, double abs_tol, double rel_tol, double norm_tol, run_result *r,
                     char *err, size_t errlen);
/* --- a learner's run: its inputs kept, changed for every repetition, checked; outputs set aside ---
 * (an input is a lesson buffer neither output nor scratch) */
/* Keeps d's inputs as they are now (freshly prepared: pristine) in device copies, where not kept yet,
 * and marks them dirty (copied back by the next gpu_data_prepare of the same key). 0 or a CUDA error
 * (out of memory included: the run cannot be judged safely without them). */
cudaError_t gpu_data_inputs_keep(gpu_data *d);
/* d's inputs for one repetition, after gpu_data_inputs_keep (p: the plan d was prepared with): seed 0
 * copies the kept ones back; another refills each random input (and each cycle) from that seed, makes
 * the copies of them (INIT_COPY) again, zeroes the inputs that start as zeros when derived (the caller runs what
 * derives them from the others: the reference, which fills them on its first launch), draws a CSR
 * matrix's column indices afresh on the device (its row pointer kept) and copies the others (iota,
 * constants, the row pointer; zeros not derived) back. 0 or a CUDA error. */
cudaError_t gpu_data_inputs_reseed(gpu_data *d, const plan *p, uint64_t seed, int derived);
/* Whether a kernel wrote into d's inputs since the kept ones were copied back (seed 0): 0 unchanged;
 * 1 changed (r WRONG, issue "input_written", message naming the buffer and its first changed element);
 * -1 on a CUDA error (err). */
int gpu_data_inputs_check(gpu_data *d, run_result *r, char *err, size_t errlen);
/* Adds p's scratch buffers that d lacks (by name), zeroed or filled as p says: so that a second plan (a
 * learner's job's reference) can run on d beside the first. Call it before any gpu_exec_new on d (it
 * moves d's buffers). 0, or -1 with err. */
int gpu_data_add_scratch(gpu_data *d, const plan *p, char *err, size_t errlen);
/* Every scratch buffer of p in d as at the start: its plan values (init expr), or zeros. 0 or a CUDA
 * error. */
cudaError_t gpu_data_scratch_reset(gpu_data *d, const plan *p);
/* Copies the compared outputs into their alt copies (device memory), scrambled with key when not 0
 * (so that a learner's kernel run next cannot read them). 0 or a CUDA error. */
cudaError_t gpu_data_stash(gpu_data *d, const char *const *names, int n, unsigned long long key);
/* gpu_data_compare, with the alt copies in one role: alt_is_ref 0 compares alt (plain) against the
 * outputs as they are now; 1 compares the outputs against alt (scrambled with key). */
int gpu_data_compare_stash(gpu_data *d, const char *const *names, int n, int alt_is_ref, unsigned long long key, int exact,
                           double abs_tol, double rel_tol, double norm_tol, run_result *r, char *err, size_t errlen);
/* Frees scratch buffers only (lesson buffers stay for the next run). */
void gpu_data_drop_scratch(gpu_data *d);
void gpu_data_free(gpu_data *d);
/* n doubles as elements of type t (little-endian, the device's layout) into out (n * the type's size
 * bytes): floats rounded to nearest even (f16, bf16 directly from the double), integers truncated
 * toward zero and saturated to the type's range (NaN gives 0). */
void gpu_values_convert(lesson_dtype t, const double *v, int64_t n, void *out);

/* --- gpu_exec.c: one stage or baseline --- */
typedef struct gpu_exec gpu_exec;
/* Runs a plan's steps once: those of plan stream 0 on s, those of stream k > 0 on the worker's stream
 * k (gpu_exec_stream). */
cudaError_t gpu_exec_launch(gpu_exec *x, cudaStream_t s);
/* Prepares the steps of p against data d: kernels looked up in cubin (may be NULL for the baseline),
 * argument arrays built, texture objects created, the stage's constants filled (not timed). NULL with
 * err when something refuses the run (a missing kernel or constant, a texture the device cannot make). */
gpu_exec *gpu_exec_new(const plan *p, gpu_data *d, const char *cubin, char *err, size_t errlen);
/* How many steps x runs: the plan's launches, memsets and copies (0 for a baseline: a library call). */
int gpu_exec_nsteps(const gpu_exec *x);
/* Runs step i (0 <= i < gpu_exec_nsteps) alone on stream s. */
cudaError_t gpu_exec_step(gpu_exec *x, int i, cudaStream_t s);
/* The stream step i runs on in gpu_exec_launch when given stream 0. */
cudaStream_t gpu_exec_step_stream(const gpu_exec *x, int i);
/* Step i's kind (STEP_KIND_COUNT out of range). */
lesson_step_kind gpu_exec_step_kind(const gpu_exec *x, int i);
/* Whether step i is a copy from host memory (what brings a host input to the device). */
int gpu_exec_step_from_host(const gpu_exec *x, int i);
/* The worker's stream k (0 <= k < LESSON_MAX_STREAMS): 0 is the legacy default stream; the others are
 * created once, with default flags, so they wait for stream 0's earlier work and it for theirs. NULL
 * (= stream 0) when k is out of range or the stream cannot be made (then gpu_exec_new refuses). */
cudaStream_t gpu_exec_stream(int k);
/* Step i's kernel, or NULL for a memset or a copy. */
cudaKernel_t gpu_exec_step_kernel(const gpu_exec *x, int i);
/* Step i's kernel with its threads and dynamic shared memory (for attributes and occupancy), or NULL
 * when step i is not a kernel launch (a baseline's library call, a memset). */
cudaKernel_t gpu_exec_launch_kernel(gpu_exec *x, int i, int *threads, size_t *shared);
void gpu_exec_free(gpu_exec *x);

/* --- baseline.c --- */
/* Runs the library baseline named by the plan's single launch. */
cudaError_t baseline_run(const plan *p, gpu_data *d, cudaStream_t s, char *err, size_t errlen);
void baseline_cleanup(void);
/* Whether $CUDACLIMB_WITHOUT (a comma list: cublas, cudnn, npp) withholds this library family, so that
 * its baselines fail as if it were not installed: how the tests check that cudaclimb runs without it. */
int baseline_withheld(const char *family);
/* What the last baseline_run's library chose and how ("cuBLASLt algorithm 2 of 8, the fastest of ...",
 * "cuDNN WINOGRAD_NONFUSED, ..."), or "" when it chose nothing: the library modules set it (printf
 * style) at each call, baseline_run clears it first. The string stays owned here. */
void baseline_choice_set(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *baseline_choice(void);
/* Whether $CUDACLIMB_BASELINE_LOG is set (non-empty): the baselines then say on stderr what they
 * loaded and chose. */
int baseline_logging(void);
/* dlopen(soname), else $CUDA_HOME/DIR/soname (default /usr/local/cuda) for each DIR of the
 * NULL-ended dirs (NULL: just lib64); the handle, or NULL with the first failure's text in why. */
void *baseline_dlopen(const char *soname, const char *const *dirs, char *why, size_t whylen);
/* baseline_dlopen(soname, NULL, ...): by name, then from $CUDA_HOME/lib64. */
void *baseline_dlopen_path(const char *soname, char *why, size_t whylen);

/* --- gpulock.c: one timed run per GPU at a time, across processes and users, first come first
 * served --- */
/* Queues for the device uuid and waits for its turn; expect_s is how long this run expects to hold
 * the GPU (for others' estimates). While waiting, calls note(ctx, text) whenever the line changes
 * ("waiting for the GPU: 2nd in line, behind alice (running for 3 s); about 5 s") or a holder past
 * the cap is passed over. Returns 0, or -1 with why (what to do) when the queue cannot be used
 * safely (its folder is another user's, a symlink, open to all without the sticky bit): the run is
 * then refused, never run unqueued. */
int gpulock_acquire(const char *uuid, double expect_s, void (*note)(void *ctx, const char *text), void *ctx, char *why, size_t wn);
/* Gives the GPU back (a no-op without a ticket); past the cap, tells the note given to acquire first. */
void gpulock_release(void);
/* The path of this process's ticket while it queues or runs, else NULL (for the queue's tests). */
const char *gpulock_ticket(void);
/* How many live tickets the queue of GPU uuid holds (waiting or running); 0 when it has none. */
int gpulock_queue_length(const char *uuid);
/* The index of the GPU with the shortest queue among n (among equals, util_pick_shortest's choice
 * for this process); each queue's length in lengths[i] when lengths is not NULL. */
int gpulock_pick(const char *const *uuids, int n, int *lengths);
/* A GPU's UUID as the queue names it (32 lower-case hex digits) from that or nvidia-smi's
 * "GPU-xxxxxxxx-xxxx-..." form; 0, or -1 when in is not one. */
int gpulock_uuid_norm(const char *in, char *out, size_t n);
/* As root: makes (or repairs) the queue folder of GPU uuid root's with mode 1777; 0 with what it did
 * in out ("made /tmp/cudaclimb-gpu-UUID.q: ..."), or -1 with why. */
int gpulock_init(const char *uuid, char *out, size_t n);
/* One line on the queue of GPU uuid: its folder, owner, mode and who is in line, or why it is refused
 * (then -1). */
int gpulock_status(const char *uuid, char *out, size_t n);
/* gpu_list.c: the UUIDs of this machine's GPUs (at most max, in CUDA's order); the count, or -1 with
 * why when there is none. */
int gpu_list_uuids(char (*uuids)[40], int max, char *why, size_t wn);
#endif
