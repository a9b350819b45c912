/* show_plan: what `show` prints of a lesson's stages planned without a GPU (#46 item 4): a stage's
 * derived values and steps (grid, block, shared memory) at the defaults, the model's bytes and flops,
 * and the model's bound (the time the roofline gives) on a recorded GPU of the architecture, a
 * starting point for a claim's threshold; and compiles of the stages for the texts' occupancy. */
#ifndef CC_SHOW_PLAN_H
#define CC_SHOW_PLAN_H
#include <stdio.h>
#include "engine.h"

/* Stage stage of l planned for e's architecture (--arch, else sm_90's table) with the sets that apply
 * to it: its settings, derived values, steps and model, and the bound; a refusal says why. */
void show_plan_stage(FILE *f, engine *e, const lesson *l, int stage, const plan_setting *sets, int nsets);
/* One line a stage: the model's bytes, flops and bound at the defaults (show LESSON's closing table);
 * nothing when no recording of the architecture's GPU gives peaks and the model is empty. */
void show_plan_bounds(FILE *f, engine *e, const lesson *l, const plan_setting *sets, int nsets);
/* Compiles (compile_only, cached) of the stages whose texts name {theoretical_occupancy} (stage < 0:
 * every stage, else that one), l->nstages results, the others left as run_result_init makes them;
 * NULL when no text names it. Free with show_plan_compiles_free. show LESSON/STAGE asks for its stage
 * only: show LESSON compiles nothing (a lesson not yet compiled would wait for all its stages). */
run_result *show_plan_compiles(engine *e, const lesson *l, int stage, const plan_setting *sets, int nsets);
void show_plan_compiles_free(run_result *r, int n);
#endif
