/* sigcheck: a compiled kernel checked against the stage that launches it, before anything runs, so
 * that a wrong signature is a compile error with a reason rather than a launch that fails or reads
 * garbage. Pure functions of the plan, the lesson and the compile's result. */
#ifndef CC_SIGCHECK_H
#define CC_SIGCHECK_H
#include <stddef.h>
#include "compile.h"
#include "lesson.h"
#include "plan.h"

/* Every kernel p launches must be in the compiled code cr, taking what the launch passes (from the
 * PTX's parameter list: how many, their sizes, float or integer); file names the source in messages.
 * Returns 0, or -1 with the reason in msg and "no_kernel" or "signature" in issue. */
int sigcheck_interface(const plan *p, const compile_result *cr, const char *file, char *issue, size_t ilen, char *msg, size_t mlen);
/* The element type of each pointer parameter of each kernel p launches, read from the kernel's
 * definition in src (its text; file names it in messages), against the type of the buffer the launch
 * passes there: a `double *` where the stage passes an f32 buffer fails. Only a known pointee is
 * judged: a scalar (float, double, __half, __nv_bfloat16, int, unsigned, long long, int64_t, ...) or
 * its vector (float4, double2, __half2); void, char, unsigned char, int8_t, uint8_t and the integer
 * vectors of 8 or 16 bytes (int2, uint4, longlong2, ...) are raw bytes and match any buffer; signedness
 * is not judged (int over u32 passes), nor a type it does not know (a typedef, a template's T), nor a
 * kernel whose definition is not in src (a header's). Returns 0, or -1 with the reason in msg and
 * "signature" in issue. */
int sigcheck_pointer_types(const plan *p, const char *src, const char *file, char *issue, size_t ilen, char *msg, size_t mlen);
/* Every constants: symbol of l's stage must be a variable of the compiled module (the worker looks it
 * up there): a misspelt or namespaced one, or one the compiler dropped, is an error at the constant's
 * line in the lesson. Returns 0 (also without PTX), or -1 with the reason in msg and "constant" in issue. */
int sigcheck_constants(const lesson *l, int stage, const compile_result *cr, char *issue, size_t ilen, char *msg, size_t mlen);
#endif
