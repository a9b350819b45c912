/* plan_wire: an evaluated plan as text, for the worker pipe (runner_worker.h): the parent plans a run once
 * and sends the result; the worker reads it back and runs it without the lesson. One item a line:
 *   plan 2                            the format's version, first
 *   stage I                           -1: the baseline
 *   lesson PATH                       the rest of the line (the worker's data key)
 *   peak NAME                         peak_name: "fp32", "bf16_tensor"
 *   check 0|1  tolerance EXACT REL ABS  compare NAME (repeated)
 *   model BYTES FLOPS WORKING_SET  uses_occ 0|1
 *   streams N  copied H2D D2H  rdc 0|1   streams the steps use; bytes the copies move each way; -rdc
 *   traffic NAME                      traffic_name: "read"; none for "copy" (the default)
 *   timing CLOCK SYNC WARMUP RUNS L2 STAT   a stage's own timing (stage_timing.h); none for the tool's method
 *   var NAME i INT | var NAME f REAL    every variable expressions saw, in order
 *   params FIRST N                    vars[FIRST, + N) are the lesson's parameters
 *   buffer NAME TYPE COUNT OUTPUT SCRATCH INIT A B MEMORY   MEMORY: device | pageable | pinned
 *   values NAME N V1 .. VN            right after the buffer line of an init expr buffer (INIT 5)
 *   pitch NAME ROWS COLS SRC|-        after a pitched buffer's line: its shape and (INIT 8) its rows' source
 *   from NAME SRC                     right after a packed buffer's line of INIT 8 (copy): its values' source
 *   constant SYMBOL TYPE COUNT NBYTES buffer NAME | constant SYMBOL TYPE COUNT NBYTES bytes HEX
 *   memset BUFFER VALUE STREAM
 *   copy DST SRC DST_OFF SRC_OFF BYTES STREAM       offsets and size in bytes
 *   launch ENTRY GX GY GZ BX BY BZ SHARED NARGS STREAM PDL, then NARGS lines of   (PDL 1: pdl: true)
 *     arg NAME|- buffer BUFFER | arg NAME|- value TYPE V | arg NAME|- tensormap BUFFER DATA_TYPE RANK SWIZZLE D.. S.. B..
 *     | arg NAME|- texture BUFFER TYPE RANK WIDTH HEIGHT PITCH_BYTES point|linear wrap|clamp|mirror|border NORM READNORM
 *   end
 * Buffers come before constants and steps; every step's stream is below N.  * Reals are written with 17 significant digits, so that they read back as the same double. */
#ifndef CC_PLAN_WIRE_H
#define CC_PLAN_WIRE_H
#include <stddef.h>
#include "plan.h"
#include "util.h"

/* The protocol's version: the worker's first line is "hello N"; a parent that reads another N (or
 * anything else first) says so and uses no such worker. */
#define WORKER_PROTOCOL 12  /* 9: library steps in a stage's plan; 10: a norm-wise tolerance, peaks per number format;
                             * 11: the plan's main line (the stage's own kernel); 12: init cycle (INIT 9), and copy
                             * into a packed buffer (from) */

/* Appends p's text to b. */
void plan_wire_write(sb *b, const plan *p);
/* Reads the text of len bytes into p (p->l NULL; its strings owned by p). Returns 0, or -1 with
 * "plan line N: what is wrong" in err; p must be released with plan_free either way. */
int plan_wire_read(plan *p, const char *text, size_t len, char *err, size_t errlen);
#endif
