/* textvals: a stage's text with its placeholders filled. A text (explain:, bottleneck:) may name a
 * measurement in braces, {gbps}, {speedup_vs_prev}, {bytes_ratio}: the names of the claims
 * (claims.h, lessons/README.md "Numbers in the text"). Each is filled with this GPU's last run of
 * the stage when there is one, else with the reference recording's (assets/recorded/GPU/..., a
 * `bench --json` of the lesson), named with its GPU; a value neither measured is "?". */
#ifndef CC_TEXTVALS_H
#define CC_TEXTVALS_H
#include <stddef.h>
#include "claims.h"
#include "replay.h"

/* The reference recording of one lesson: the results of a bench --json replayed. */
typedef struct textvals_ref textvals_ref;

/* The reference recording of lesson_id: the first GPU folder (in name order) under dir, or under
 * $CUDACLIMB_RECORDED when set (empty: none), else under <data root>/assets/recorded, holding a
 * file named *-LESSON.json. NULL when there is none or it does not load. Free with textvals_ref_free. */
textvals_ref *textvals_ref_find(const char *dir, const char *lesson_id);
void textvals_ref_free(textvals_ref *r);
/* "NVIDIA H100 80GB HBM3" of the recording, and its file name ("h100-899481e-2026-11-26-fusion.json"). */
const char *textvals_ref_gpu(const textvals_ref *r);
const char *textvals_ref_file(const textvals_ref *r);

/* What a text is filled from: stage s of l; live the stage's last runs on this GPU (live.run NULL:
 * none yet); ref the recording (may be NULL). */
typedef struct {
	const lesson *l;
	int stage;
	claims_runs live;
	const textvals_ref *ref;
} textvals_src;

/* 1 when text has a placeholder. */
int textvals_has(const char *text);
/* text with its placeholders filled (malloc'd; the caller frees). A value from the recording while
 * this GPU's run lacks it reads "16.0x on the H100 of the recording". */
char *textvals_fill(const textvals_src *src, const char *text);
/* One line on where the numbers of a text came from ("Numbers: this GPU's last run (NVIDIA H200)."),
 * into out; "" when text has no placeholder. */
void textvals_note(const textvals_src *src, const char *text, char *out, size_t len);
#endif
