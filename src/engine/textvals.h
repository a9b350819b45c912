/* textvals: a stage's text with its placeholders filled. A text (explain:, bottleneck:) may name a
 * measurement in braces, {gbps}, {speedup_vs_prev}, {bytes_ratio}: the names of the claims
 * (claims.h, lessons/README.md "Numbers in the text"). They are filled with the stage's last run
 * when it measured them, else with a reference recording's (assets/recorded/GPU/..., a
 * `bench --json` of the lesson): the first whose record of the stage was made at the stage's
 * current tunable defaults; never mixed; one line says where they came from. */
#ifndef CC_TEXTVALS_H
#define CC_TEXTVALS_H
#include <stddef.h>
#include "claims.h"
#include "replay.h"

/* The reference recordings of one lesson, in the order found: the results of each bench --json
 * replayed. The first describes them (textvals_ref_gpu, _file, _device); a stage's text chooses
 * among them (textvals_stage_fill). */
typedef struct textvals_ref textvals_ref;

/* The reference recordings of lesson_id: the files named *-LESSON.json that load, in the GPU folders
 * (in name order; a folder's files in name order) under dir, or under $CUDACLIMB_RECORDED when set
 * (empty: none), else under <data root>/assets/recorded; at most 32 (REF_CHAIN_MAX), of 16 GPU folders
 * of 256 entries each. NULL when there is none. Free with textvals_ref_free. */
textvals_ref *textvals_ref_find(const char *dir, const char *lesson_id);
/* The same for a case of the lesson (case_name "" or NULL: none): its own recordings,
 * *-LESSON.CASE.json, then the lesson's. */
textvals_ref *textvals_ref_find_case(const char *dir, const char *lesson_id, const char *case_name);
/* The recordings of lesson l (in case case_name, as textvals_ref_find_case): first those in the
 * recorded/ folder of l's own tree (TREE/recorded/GPU/NAME-LESSON.json beside TREE/lessons, for a tree
 * added with --lessons), then those textvals_ref_find_case(NULL, ...) finds. NULL when none. */
textvals_ref *textvals_ref_find_lesson(const lesson *l, const char *case_name);
/* The recorded/ folder of l's tree when it has one (malloc'd), else NULL. */
char *textvals_tree_recorded(const lesson *l);
/* A recording made on a GPU of compute capability cc (x10), of any lesson: the first GPU folder under
 * dir (as textvals_ref_find chooses dir) whose first recording's device has that cc; NULL when none.
 * For the device's recorded peaks (textvals_ref_device), e.g. the model's bound before any run. */
textvals_ref *textvals_ref_find_device(const char *dir, int cc);
/* The (first) recording's device: its name, peaks and attainable bandwidth as measured when it was made. */
const device_info *textvals_ref_device(const textvals_ref *r);
void textvals_ref_free(textvals_ref *r);
/* "NVIDIA H100 80GB HBM3" of the (first) recording, and its file name ("h100-899481e-2026-11-26-fusion.json"). */
const char *textvals_ref_gpu(const textvals_ref *r);
const char *textvals_ref_file(const textvals_ref *r);

/* What a text is filled from: stage s of l; live the stage's last runs on this GPU (live.run NULL:
 * none yet); ref the lesson's recordings (may be NULL). */
typedef struct {
	const lesson *l;
	int stage;
	claims_runs live;
	const textvals_ref *ref;
	const char *live_from;   /* what live is when not the learner's own run: "the replayed file X" (NULL: theirs) */
	/* A compile of the stage alone (check's, show's; NULL: none): its theoretical occupancy fills
	 * {theoretical_occupancy} where the chosen source lacks it, and the note names its architecture. */
	const run_result *compiled;
	/* The last runs of the lesson's stages by index (NULL, or an entry NULL: not run here), for
	 * {time_vs_ID} and {speedup_vs_ID} from live; from a recording those come from its own records. */
	const run_result *const *live_stages;
	int nlive_stages;
} textvals_src;

/* 1 when text has a placeholder. */
int textvals_has(const char *text);
/* Texts a and b (either may be NULL) with their placeholders filled, into *fa and *fb (malloc'd, the
 * caller frees; either pointer may be NULL), and into out one line on where their numbers came from
 * ("Figures from your last run (NVIDIA H200)."; "" when neither has a placeholder). The numbers all
 * come from one source, so that a sentence states one GPU's figures: the stage's last run when it
 * measured every one; else the recording when it has more of them; a number neither has reads "?".
 * The recording is one file of ref, its previous stage's and baseline's runs too: the first whose
 * record of the stage was made at the stage's tunable defaults on its GPU (plan_tunable_default; a
 * tunable the record does not name, or whose default cannot be evaluated, counts as at it); else the
 * first with a record of the stage, and the note says so: "Figures from the H100 recording F (recorded
 * at BK=32 PAD=4; the defaults are BK=16 PAD=0): no run of yours yet." A ratio to another stage,
 * {time_vs_ID}, comes from the same source as the rest, "?" where it lacks that stage's run; it does not
 * count in the choice of source, unless the texts have no other number. */
void textvals_stage_fill(const textvals_src *src, const char *a, const char *b, char **fa, char **fb, char *out, size_t len);
/* textvals_stage_fill of one text: the text filled, or the note. */
char *textvals_fill(const textvals_src *src, const char *text);
void textvals_note(const textvals_src *src, const char *text, char *out, size_t len);
#endif
