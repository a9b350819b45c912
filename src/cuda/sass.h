/* sass: the machine code a stage compiled to, from its cubin through NVIDIA's nvdisasm (the
 * toolkit's, or the nvidia-cuda-nvdisasm package's), as instructions with the source line each came
 * from (NVRTC compiles with -lineinfo) and a class for the ones the lessons talk about: loads and
 * stores by width, shared memory, FFMA, tensor-core operations, barriers. */
#ifndef CC_SASS_H
#define CC_SASS_H
#include <stddef.h>

typedef enum {
	SC_LDG, SC_STG,            /* global loads and stores (width in bits) */
	SC_LDS, SC_STS, SC_LDSM,   /* shared memory; LDSM is ldmatrix */
	SC_LDGSTS, SC_TMA,         /* asynchronous copies: cp.async, the tensor memory accelerator */
	SC_LOCAL,                  /* local memory (LDL, STL): spills or an array indexed at run time */
	SC_FFMA, SC_FP32,          /* fused multiply-add; other FP32 arithmetic */
	SC_MMA, SC_WGMMA,          /* tensor cores: warp-level HMMA/IMMA, Hopper's warpgroup HGMMA */
	SC_SHFL, SC_BAR, SC_ATOM, SC_BRANCH,
	SC_OTHER,
	SC_COUNT
} sass_class;
const char *sass_class_name(sass_class c);   /* "global load", ... */

typedef struct {
	int offset;                /* bytes from the function's start */
	char op[40];               /* the opcode with its modifiers: "LDG.E.128.CONSTANT" */
	char text[192];            /* the instruction as printed, predicate and operands included */
	sass_class cls;
	int width;                 /* bits per thread for a load or store (8 to 128), else 0 */
	int file, line;            /* where in the source: an index into files and a 1-based line; -1 */
} sass_insn;

typedef struct {
	char name[96];
	int first, count;          /* its instructions: insn[first .. first + count) */
	int counts[SC_COUNT];
	int ldg128, lds128;        /* 128-bit global and shared loads, the vectorised ones */
} sass_func;

typedef struct {
	sass_insn *insn; int n;
	sass_func *funcs; int nfuncs;
	char **files; int nfiles;  /* source paths as the listing names them */
} sass_listing;

/* Parses nvdisasm -c -g output. Returns 0 (a text without functions gives an empty listing), -1 when
 * out of memory. Free with sass_free. */
int sass_parse(const char *text, sass_listing *out);
void sass_free(sass_listing *l);
const sass_func *sass_find_func(const sass_listing *l, const char *name);
/* Whether file index f of the listing is the file at path (compared by name from the last '/'). */
int sass_file_is(const sass_listing *l, int f, const char *path);

/* nvdisasm: $CUDACLIMB_NVDISASM, $CUDA_HOME/bin, the build's CUDA folder, tools/ beside the binary
 * (scripts/deps.sh unpacks NVIDIA's nvidia-cuda-nvdisasm package there), ../libexec/cudaclimb
 * from the binary (make install copies it there), else PATH. 0 with the path, or -1. */
int sass_find_tool(char *out, size_t n);
/* The listing text of cubin (a new string): read from the cache file beside it (.sass), or made by
 * running nvdisasm in a child process (at most 60 s) and cached. Returns NULL with err. */
char *sass_disassemble(const char *cubin, char *err, size_t errlen);
/* Whether cubin's listing is in the cache beside it (sass_disassemble made it). */
int sass_is_cached(const char *cubin);
/* Tensor-core instructions in a listing (nvdisasm's text): mma (HMMA, IMMA, DMMA, BMMA) and
 * warpgroup mma (HGMMA, QGMMA, IGMMA, BGMMA), counted in the code, not executed; -1 when text is NULL
 * or out of memory. A kernel whose count is 0 cannot use the tensor cores, whatever a counter reads. */
int sass_tensor_count(const char *text);
/* sass_tensor_count of cubin's cached listing, without running nvdisasm: -1 when none is cached. */
int sass_tensor_count_cached(const char *cubin);
#endif
