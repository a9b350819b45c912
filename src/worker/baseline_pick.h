/* baseline_pick: the choices the library baselines make by timing (a cuBLASLt algorithm, a cuDNN
 * convolution algorithm, a cuDNN engine configuration), made once per GPU, library version and shape,
 * then kept: for the worker's life in memory, and across workers in the cache folder
 * ($XDG_CACHE_HOME/cudaclimb/baseline-picks.txt, one "KEY<TAB>VALUE<TAB>DESCRIPTION" line per
 * choice, the last line of a key winning), so that two benches of one problem on one card time the
 * same algorithm. CUDACLIMB_BASELINE_REPICK=1 ignores what is stored (choices are timed again and
 * stored anew). No GPU is needed here: the timing is the caller's. */
#ifndef CC_BASELINE_PICK_H
#define CC_BASELINE_PICK_H
#include <stddef.h>

#define BASELINE_PICK_KEY_MAX 256
#define BASELINE_PICK_DESC_MAX 160

/* Writes "WHAT vVERSION DIM,DIM,... @DEVICE" into out (n bytes; BASELINE_PICK_KEY_MAX is enough for a
 * short what and device): the key of one choice. Tabs, newlines and spaces in what and device become
 * '_'. 0, or -1 when it did not fit. */
int baseline_pick_key(char *out, size_t n, const char *what, long long version, const long long *dims, int ndims,
                      const char *device);

/* The value stored under key (from memory, else from the file, read once): 1 with *value and, when
 * desc is not NULL, its description (desclen bytes), or 0 when there is none or REPICK is set. */
int baseline_pick_get(const char *key, long long *value, char *desc, size_t desclen);

/* Keeps value under key, in memory and appended to the file (a failure to write is ignored: the
 * file is an aid). desc: what was chosen, in words (tabs and newlines become spaces). */
void baseline_pick_put(const char *key, long long value, const char *desc);

/* Among ncand candidates timed trials times each (ms[c * trials + t]; a negative time is a failed
 * trial, and a candidate with any failed trial is out), the index of the smallest median, ties to
 * the lower index; but the first candidate (the library's own first choice) stays unless another's
 * median is more than BASELINE_PICK_MARGIN below its own, so that timing noise does not swap a
 * library's choice for one that only looked faster once. -1 when none is left. *best_ms gets the
 * chosen one's median when best_ms is not NULL. */
#define BASELINE_PICK_MARGIN 0.03
int baseline_pick_fastest(const float *ms, int ncand, int trials, float *best_ms);

/* Forgets what is in memory (the file is read again at the next get); for tests. */
void baseline_pick_reset(void);
#endif
